#!/bin/sh
# series-order.sh reads the "commit <id> upstream." lines of a series and
# refuses one that breaks the rule; build.sh refuses to apply it.
. ci/tap.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
A=221af7f87b97431e3ee21ce4b0e77d5411cf1549 B=94673e968cbcce07fa78dac4b0ae05d24b5816e1
C=05d43ed8a89c159ff641d472f970e3f1baa66318 D=7ab02af428c2d312c0cf8fb0b01cc1eb21131a3d
E=94f28da8409c6059135e89ac64a0839993124155
I=c41d68a513c71e35a14f66d71782d27a79a81ea6	# CVE-2010-3081: no ordering with A-H
mk() { d=$tmp/$1; shift; mkdir -p "$d"; : >"$d/series"
	for x; do printf 'Subject: x\n\ncommit %s upstream.\n' "$x" >"$d/$x.patch"; echo "$x.patch" >>"$d/series"; done; }
mk good $A $B $C $D $E
mk noD $A $B $C $E
mk Dfirst $B $C $D $A $E
t_check "a complete series passes" sh scripts/series-order.sh "$tmp/good/series"
# I (CVE-2010-3081) needs nothing of A-H and nothing of A-H needs it
mk withI $A $B $C $D $E $I
mk Ionly $I
mk Ifirst $I $A $B $C $D $E
mk IwithoutD $A $B $C $E $I
t_check "I after the CVE-2010-0307 changes passes" sh scripts/series-order.sh "$tmp/withI/series"
t_check "I alone passes: it needs nothing of A-H" sh scripts/series-order.sh "$tmp/Ionly/series"
t_check "I first passes: nothing of A-H needs it" sh scripts/series-order.sh "$tmp/Ifirst/series"
sh scripts/series-order.sh "$tmp/IwithoutD/series" 2>/dev/null && t_fail "I does not stand in for D: A without D is still refused" ||
	t_ok "I does not stand in for D: A without D is still refused"
for b in v2.6.26 v2.6.32; do
	t_check "$b: the committed series (A-H, then I) passes" sh scripts/series-order.sh "backports/$b/series"
	# the last patch is the last change made for this branch (INFO
	# Branches:) in the fix folders' series order
	last=$(KIT_ROOT=$PWD sh -c '. scripts/lib.sh && for c in $(kit_changes); do
		case " $(info_field "$c" Branches) " in *" all "* | *" '"$b"' "*) l=$c ;; esac; done
		info_field "$l" Upstream')
	t_check "$b: its last patch is the last change made for it in backports/fixes/ ($(printf '%.12s' "$last"))" sh -c "grep -q '^commit $last upstream.\$' \"backports/$b/\$(tail -1 backports/$b/series)\""
done
sh scripts/series-order.sh "$tmp/noD/series" 2>/dev/null && t_fail "A without D is refused" || t_ok "A without D is refused"
sh scripts/series-order.sh "$tmp/Dfirst/series" 2>/dev/null && t_fail "D before A is refused" || t_ok "D before A is refused"
echo missing.patch >>"$tmp/good/series"
out=$(sh scripts/series-order.sh "$tmp/good/series" 2>&1) && t_fail "a series naming a missing patch is refused" ||
	{ echo "$out" | grep -q "names missing.patch" && t_ok "a series naming a missing patch is refused" || t_fail "a series naming a missing patch is refused" "$out"; }
out=$(OUT=$tmp/out SERIES_DIR=$tmp/noD sh scripts/build.sh mutant-x v2.6.32 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "breaks the ordering rule" && t_ok "build.sh refuses to apply a mis-ordered series" ||
	t_fail "build.sh refuses to apply a mis-ordered series" "rc=$rc $out"
t_done
