#!/bin/sh
# lane: kernels
# The gate cannot pass a regression: v2.6.32 patched with the series minus
# 318f6b228ba8 (G, ia32_aout keeps the argument mapping) survives the
# reproducer but fails the a.out regression tests.  verify.sh must give it
# a verdict that is not SURVIVED, name the failing tests, and exit non-zero.
# Its outputs go to a NAME of their own, so the branch's record is untouched.
# Every run boots both kernels its manifest requires (the unpatched one
# from the build cache and its up-to-date verdict when 20-verify made it).
# And each fix is held on its own: the series minus c41d68a513c7 (I) must
# fail the gate by its fix's verdict, while G's fix stays SURVIVED (the
# fixes read from their folders, backports/fixes/).
. ci/e2e/lib.sh
# fix_of_letter <L>: the fix folder the change with that letter is in
fix_of_letter() { KIT_ROOT=$PWD sh -c '. scripts/lib.sh && fix_of "$(change_of_letter "$1")"' - "$1"; }
fi_=$(fix_of_letter I) fg=$(fix_of_letter G)
b=v2.6.32 name=v2.6.32-without-g
need_source "$b" "$b without G fails the gate" || { t_done; exit; }
need_series "$b" "$b without G fails the gate" || { t_done; exit; }
g=$(grep -l '^commit 318f6b228ba8' backports/$b/*.patch | head -1)
[ -n "$g" ] || { t_fail "$b without G fails the gate" "backports/$b carries no 318f6b228ba8 patch"; t_done; exit; }
sdir=$OUT/$name.series
rm -rf "$sdir"; mkdir -p "$sdir"
for p in $(grep -v '^#' "backports/$b/series"); do
	[ "backports/$b/$p" = "$g" ] && continue
	cp "backports/$b/$p" "$sdir/"; echo "$p" >>"$sdir/series"
done
NAME=$name SERIES_DIR=$sdir sh scripts/verify.sh "$b" >"$OUT/.e2e-gate.log" 2>&1
rc=$?
r=$OUT/$name/result.json
v=$(jq -r '.boots.patched.verdict // "none"' "$r" 2>/dev/null)
ft=$(jq -r '(.boots.patched.failed_tests // []) | join(", ")' "$r" 2>/dev/null)
[ "$rc" -eq 1 ] && t_ok "verify.sh exits 1 for a series without G" ||
	t_fail "verify.sh exits 1 for a series without G" "exit $rc: $(tail -2 "$OUT/.e2e-gate.log")"
case $v in
SURVIVED | none) t_fail "the kernel without G is not SURVIVED" "verdict $v" ;;
*) t_ok "the kernel without G is $v, not SURVIVED" ;;
esac
printf '%s' "$ft" | grep -qF '318f6b228ba8' && t_ok "its failing tests are named: $ft" ||
	t_fail "its failing tests are named" "failed_tests: '$ft'"
grep -q "NOT OK: must be SURVIVED" "$OUT/.e2e-gate.log" && t_ok "the boot line says NOT OK" ||
	t_fail "the boot line says NOT OK" "$(grep -m1 patched "$OUT/.e2e-gate.log")"
rm -f "$OUT/.e2e-gate.log"

# without I: I's fix VULNERABLE on the patched kernel, G's SURVIVED
name=v2.6.32-without-i
i=$(grep -l '^commit c41d68a513c7' backports/$b/*.patch | head -1)
if [ -z "$i" ]; then
	t_fail "$b without I fails the gate by $fi_" "backports/$b carries no c41d68a513c7 patch"
else
	sdir=$OUT/$name.series
	rm -rf "$sdir"; mkdir -p "$sdir"
	for p in $(grep -v '^#' "backports/$b/series"); do
		[ "backports/$b/$p" = "$i" ] && continue
		cp "backports/$b/$p" "$sdir/"; echo "$p" >>"$sdir/series"
	done
	NAME=$name SERIES_DIR=$sdir sh scripts/verify.sh "$b" >"$OUT/.e2e-gate.log" 2>&1
	rc=$?
	r=$OUT/$name/result.json
	[ "$rc" -eq 1 ] && t_ok "verify.sh exits 1 for a series without I" ||
		t_fail "verify.sh exits 1 for a series without I" "exit $rc: $(tail -2 "$OUT/.e2e-gate.log")"
	jq -e --arg i "$fi_" --arg g "$fg" '.kernels.patched.fixes | .[$i].verdict == "VULNERABLE" and (.[$i].ok | not)
	  and .[$g].verdict == "SURVIVED" and .[$g].ok' "$OUT/$name/gate.json" >/dev/null 2>&1 &&
		t_ok "the gate record: $fi_ VULNERABLE (not ok), $fg SURVIVED (ok)" ||
		t_fail "the gate: $fi_ VULNERABLE (not ok), $fg SURVIVED (ok)" \
			"$(jq -c '.kernels.patched.fixes' "$OUT/$name/gate.json" 2>&1)"
	grep -q "NOT OK:.*$fi_ VULNERABLE, must be SURVIVED" "$OUT/.e2e-gate.log" &&
		t_ok "the boot line names the fix" ||
		t_fail "the boot line names the fix" "$(grep -m1 patched "$OUT/.e2e-gate.log")"
	rm -f "$OUT/.e2e-gate.log"
fi
t_done
