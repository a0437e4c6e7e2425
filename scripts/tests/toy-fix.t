#!/bin/sh
# A fix is one folder: a copy of the kit with a toy fix folder added
# (fixtures/toy-fix/, two changes Y and Z) takes it up with no other file
# edited: make help lists it and derives the mutants' default from it,
# pick.sh reads its rules, order-rule.sh enforces its Needs: and
# Needs-for: lines, fix-state.sh judges its changes, and lib.sh
# enumerates it.  `git status` in the copy shows only the new folder.
# No kernel, no spatch: a few seconds.  What a run makes of it (series,
# parse, gate, JUnit, records, report): toy-fix-outputs.t.
. ci/tap.sh
for c in git make tar; do
	command -v $c >/dev/null 2>&1 || { t_skip "a toy fix" "$c is not installed (make deps)"; t_done; exit; }
done
root=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/toy-fix.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
k=$tmp/kit
toy=CVE-2099-0001
Y=1111111111111111111111111111111111111111 Z=2222222222222222222222222222222222222222

# the kit as tracked in this checkout, in a repository of its own, then
# the toy folder added and nothing else (scripts/tests/toy-kit.sh)
. scripts/tests/toy-kit.sh
toy_kit "$k" "$toy" || { t_fail "a copy of the kit with the toy fix folder"; t_done; exit 1; }
kenv() { env KIT_ROOT="$k" KIT_CONFIG=/nonexistent OUT="$tmp/out" "$@"; }
lib() { kenv sh -c '. "$KIT_ROOT/scripts/lib.sh" && "$@"' - "$@"; }

# lib.sh enumerates it
t_check "kit_fixes lists the toy fix after the kit's own" sh -c "[ \"\$(KIT_ROOT='$k' KIT_CONFIG=/nonexistent sh -c '. \"\$KIT_ROOT/scripts/lib.sh\" && kit_fixes' | tail -1)\" = $toy ]"
got=$(lib kit_changes | tail -2 | paste -sd' ' -)
[ "$got" = "Y-toy-open Z-toy-close" ] && t_ok "kit_changes ends with its changes, in letter order" || t_fail "kit_changes ends with Y Z" "$got"
[ "$(lib fix_of Z-toy-close)" = $toy ] && [ "$(lib fix_field $toy Upstream | wc -l)" -eq 2 ] &&
	t_ok "fix_of and fix_field read its folder" || t_fail "fix_of, fix_field" "$(lib fix_of Z-toy-close 2>&1)"

# make help names it and its mutants
h=$(kenv make -s -C "$k" help 2>&1)
printf '%s\n' "$h" | head -1 | grep -q "$toy" && t_ok "make help names the toy fix" || t_fail "make help names the toy fix" "$(printf '%s' "$h" | head -2)"
m=$(kenv sh "$k/scripts/mutants.sh" --list)
case " $m " in
*" Y "*" $toy "*) case " $m " in *" Z "*) t_fail "mutants' default: Y and the fix, not Z (Untested:)" "$m" ;;
	*) t_ok "mutants' default takes Y and the whole toy fix, not Z (its INFO says Untested:): $m" ;; esac ;;
*) t_fail "mutants' default: Y and the fix, not Z (Untested:)" "$m" ;;
esac
printf '%s\n' "$h" | grep -q "default: $m)" && t_ok "make help shows that default" || t_fail "make help shows the mutants' default" "$h"

# pick.sh reads its rules from INFO
r=$(kenv sh "$k/scripts/pick.sh" --rules 2>&1)
printf '%s\n' "$r" | grep -q "^Y	x86_64		x86_64: the toy fix itself	toy: the door is shut after a failed open	\$" &&
	printf '%s\n' "$r" | grep -q "^Z	x86_64		x86_64: Y needs it		no kit test can open a toy door\$" &&
	t_ok "pick.sh's rules for Y and Z come from their INFO (Serves, Pick-why, Pick-test, Untested)" ||
	t_fail "pick.sh --rules for Y, Z" "$r"

# order-rule.sh: Y needs Z after it; on powerpc too
or() { kenv sh "$k/scripts/order-rule.sh" "$@" 2>&1; }
t_check "order-rule: Y Z passes" kenv sh "$k/scripts/order-rule.sh" $Y $Z
o=$(or $Y); r=$?
[ $r -eq 1 ] && printf '%s' "$o" | grep -q "Y (111111111111, toy: open the door) is present without Z (222222222222, toy: close the door): Y alone leaves the door open" &&
	t_ok "order-rule: Y without Z is refused, naming both and the reason from INFO" || t_fail "order-rule: Y without Z" "rc=$r" "$o"
o=$(or $Z $Y); r=$?
[ $r -eq 1 ] && printf '%s' "$o" | grep -q "Z (222222222222, toy: close the door) comes before Y" &&
	t_ok "order-rule: Z before Y is refused" || t_fail "order-rule: Z before Y" "rc=$r" "$o"
o=$(ARCHES=x86_32 kenv sh "$k/scripts/order-rule.sh" $Y 2>&1); r=$?
[ $r -eq 1 ] && printf '%s' "$o" | grep -q "which powerpc needs" && t_fail "Needs-for: applies only when its architecture is shipped" "$o" ||
	t_ok "Needs-for: powerpc is not asked for with ARCHES=x86_32"
o=$(ARCHES=powerpc kenv sh "$k/scripts/order-rule.sh" $Y 2>&1); r=$?
[ $r -eq 1 ] && printf '%s' "$o" | grep -q "without Z .*which powerpc needs: the toy door is also powerpc's" &&
	t_ok "Needs-for: with ARCHES=powerpc, Y without Z names powerpc" || t_fail "Needs-for: powerpc" "rc=$r" "$o"
t_check "the kit's own ids still pass beside the toy fix's" kenv sh "$k/scripts/order-rule.sh" $Y $Z c41d68a513c71e35a14f66d71782d27a79a81ea6

# fix-state.sh judges its changes
mkdir -p "$tmp/tree/fs"
printf 'int toy_open(void)\n{\n\treturn 0;\n}\n' >"$tmp/tree/fs/toy.c"
s=$(kenv sh "$k/scripts/fix-state.sh" "$tmp/tree" 2>&1)
printf '%s\n' "$s" | grep -q '^Y-toy-open 111111111111 present$' &&
	printf '%s\n' "$s" | grep -q "^Z-toy-close 222222222222 missing fs/toy.c (toy_open): no 'toy_close" &&
	t_ok "fix-state.sh judges Y present and Z missing from their DETECT" || t_fail "fix-state.sh on the toy tree" "$s"

# nothing else was edited: generation above wrote only under OUT
st=$(git -C "$k" status --porcelain --untracked-files=normal)
[ "$st" = "?? backports/fixes/$toy/" ] && t_ok "git status in the copy: only the new folder" || t_fail "git status: only the new folder" "$st"

# a fix folder whose FIX is missing: its changes would reach the series
# with no gate to judge them, so lib.sh refuses the folder (exit 2, one
# line naming it), and fixes_of passes fix_of's failure on
mv "$k/backports/fixes/$toy/FIX" "$tmp/FIX.toy"
out=$(lib kit_changes 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s' "$out" | grep -q "fixes/$toy has no FIX file" &&
	t_ok "a fix folder without FIX: kit_changes exits 2 naming it, no change listed" || t_fail "a folder without FIX refused" "rc=$rc" "$out"
mv "$tmp/FIX.toy" "$k/backports/fixes/$toy/FIX"
out=$(lib fixes_of Y-toy-open X-no-such-change 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q "no change 'X-no-such-change'" &&
	t_ok "fixes_of with a change no fix has: exit 2, named" || t_fail "fixes_of passes fix_of's failure on" "rc=$rc" "$out"
t_done
