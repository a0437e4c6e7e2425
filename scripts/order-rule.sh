#!/bin/sh
# order-rule.sh ID...: the upstream commits present in a tree or a series,
# in order.  Exit 1, naming what is present and what is missing, when they
# break the rule: A needs D after it; D needs B, C and E.
set -eu
A=221af7f87b97431e3ee21ce4b0e77d5411cf1549
B=94673e968cbcce07fa78dac4b0ae05d24b5816e1
C=05d43ed8a89c159ff641d472f970e3f1baa66318
D=7ab02af428c2d312c0cf8fb0b01cc1eb21131a3d
E=94f28da8409c6059135e89ac64a0839993124155
present=" $* "
in_set() { case $present in *" $1 "*) return 0 ;; esac; return 1; }
pos() { i=0; for x in $present; do i=$((i + 1)); [ "$x" = "$1" ] && { echo $i; return; }; done; echo 0; }
err=
if in_set $A && ! in_set $D; then err="A (221af7f87b97, split flush_old_exec) is present without D (7ab02af428c2, fix the split): A alone loses PF_RANDOMIZE"; fi
if in_set $A && in_set $D && [ "$(pos $D)" -lt "$(pos $A)" ]; then err="D (7ab02af428c2) comes before A (221af7f87b97); D fixes A and must follow it"; fi
if in_set $D; then
	for x in B:$B C:$C E:$E; do
		in_set "${x#*:}" || err="${err:+$err; }D (7ab02af428c2) is present without ${x%%:*} (${x#*:}); D runs flush_thread() before SET_PERSONALITY, which needs the TIF_ABI_PENDING removals B, C and E"
	done
fi
if [ -n "$err" ]; then echo "order-rule: $err" >&2; exit 1; fi
