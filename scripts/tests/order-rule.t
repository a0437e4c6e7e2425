#!/bin/sh
# order-rule.sh: never A without D, nor D without B, C and E.
. ci/tap.sh
A=221af7f87b97431e3ee21ce4b0e77d5411cf1549 B=94673e968cbcce07fa78dac4b0ae05d24b5816e1
C=05d43ed8a89c159ff641d472f970e3f1baa66318 D=7ab02af428c2d312c0cf8fb0b01cc1eb21131a3d
E=94f28da8409c6059135e89ac64a0839993124155
I=c41d68a513c71e35a14f66d71782d27a79a81ea6	# CVE-2010-3081 (change I)
t_check "the full series A B C D E passes" sh scripts/order-rule.sh $A $B $C $D $E
t_check "an empty set passes (nothing applied)" sh scripts/order-rule.sh
out=$(sh scripts/order-rule.sh $A $B $C $E 2>&1) && t_fail "A without D is refused" || { echo "$out" | grep -q "A (221af7f87b97.*without D" && t_ok "A without D is refused" || t_fail "A without D is refused" "$out"; }
out=$(sh scripts/order-rule.sh $A $C $D $E 2>&1) && t_fail "D without B is refused" || { echo "$out" | grep -q "without B" && t_ok "D without B is refused" || t_fail "D without B is refused" "$out"; }
out=$(sh scripts/order-rule.sh $B $C $D $A $E 2>&1) && t_fail "D before A is refused" || { echo "$out" | grep -q "comes before A" && t_ok "D before A is refused" || t_fail "D before A is refused" "$out"; }
t_check "I (CVE-2010-3081) after A-E passes" sh scripts/order-rule.sh $A $B $C $D $E $I
t_check "I alone passes: the rule is CVE-2010-0307's, I needs nothing of it" sh scripts/order-rule.sh $I
t_check "I with ARCHES=x86_64 and no B, E passes" env ARCHES=x86_64 sh scripts/order-rule.sh $A $C $D $I
t_done
