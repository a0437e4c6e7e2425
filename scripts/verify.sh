#!/bin/sh
# verify.sh [BRANCH]: build what is missing, boot the unpatched kernel and,
# when the branch has a security series, the patched one, in the
# verification VM (testvm/, which judges blind), record the verdicts in
# $OUT/<name>/result.json under boots.<kind>, and hold them against what
# each kernel must be (the gate).  One line per boot.
#
# What each kernel must be (verdicts: testvm/README.md "Verdicts"):
#   unpatched, the fix missing      VULNERABLE (the exposure is shown)
#   patched                         SURVIVED
#   a tree that already carries the fix (debian-6.1; any tree in which
#   scripts/fix-state.sh finds every change): only its own kernel is
#   booted, and it must be SURVIVED.
# The same holds per fix (CVE): a fix the tree misses VULNERABLE unpatched,
# every fix SURVIVED patched (below, must_fix).
# SERIES_DIR=<quilt series> verifies that series as the patched kernel (a
# release's own pick, a mutant): it is held to SURVIVED like the kit's own.
# VERIFY_KINDS="unpatched" narrows a run to one kind.
#
# Exit: 0 every kernel is what it must be; 1 one is not (or a step failed
# before a verdict); 2 bad input; 3 the source cannot be reached (SKIP).
set -eu
. "$(dirname "$0")/lib.sh"
BRANCH=${1:-${BRANCH:-}}
TREE=${TREE:-}
check_inputs NAME BRANCH
if [ -n "$TREE" ]; then
	BRANCH=$(sh "$KIT_ROOT/scripts/detect.sh" "$TREE" ${BRANCH:+"$BRANCH"}) || exit $?
	NAME=${NAME:-$(basename "$(cd "$TREE" && pwd)")}
fi
load_branch "$BRANCH"
# ARCHES= (or HARDENING=0): the patched kernel is the pick for those
# architectures (scripts/pick.sh), verified under its own name
# (<branch>-pick-<name>) so that the branch's full-series result stays as
# it was; the pick's record ($OUT/<b>/picks/<name>.json) gets the verdicts.
pick=
if [ -n "${ARCHES:-}" ] || [ "${HARDENING:-1}" != 1 ]; then
	. "$KIT_ROOT/scripts/arches.sh"
	{ arches_canon "${ARCHES:-}" && hardening_check "${HARDENING:-1}"; } || die 2 "$ARCHES_WHY"
	[ -z "$TREE" ] && [ -z "${SERIES_DIR:-}" ] ||
		die 2 "ARCHES= picks from the branch's own series (backports/$BRANCH); drop TREE= or SERIES_DIR=, or ARCHES="
	arches_has "$ARCHES_LIST" "$BR_ARCH" ||
		die 2 "ARCHES='$ARCHES' has no $BR_ARCH, and make verify boots $BR_ARCH kernels; add $BR_ARCH, or check that pick with 'make cross BRANCH=$BRANCH ARCHES=...'"
	pick=$(arches_name "$ARCHES_LIST" "${HARDENING:-1}")
	NAME=${NAME:-$BRANCH-pick-$pick}
	check_name NAME "$NAME"	# before the pick's work
	SERIES_DIR=$(sh "$KIT_ROOT/scripts/pick.sh" "$BRANCH") || exit $?
	pick_rec=$OUT/$BRANCH/picks/$pick.json
	export SERIES_DIR
fi
# pick_verify <jq filter>: set .verify of the pick's record (no pick: nothing).
pick_verify() {
	[ -n "$pick" ] || return 0
	jq "$@" "$pick_rec" >"$pick_rec.tmp.$$" && atomic_install "$pick_rec.tmp.$$" "$pick_rec" ||
		die 1 "cannot update $pick_rec"
	rm -f "$pick_rec.tmp.$$"
}
pick_verify '.verify = null'
NAME=${NAME:-$BRANCH}
check_name NAME "$NAME"
export NAME
result=$OUT/$NAME/result.json
series_dir=${SERIES_DIR:-$KIT_ROOT/backports/$BRANCH}
[ -z "${SERIES_DIR:-}" ] || [ -r "$SERIES_DIR/series" ] ||
	die 2 "SERIES_DIR=$SERIES_DIR has no series file; give a quilt series folder"

if [ -n "$TREE" ]; then src=$(cd "$TREE" && pwd)
else src=$(sh "$KIT_ROOT/scripts/fetch.sh" "$BRANCH") || exit $?; fi
kinds=unpatched fixed= noseries=
out_root
mkdir -p "$OUT/$NAME"
if planned=$(sh "$KIT_ROOT/scripts/plan-series.sh" "$BRANCH" "$src" "$OUT/$NAME/plan"); then
	if [ -r "$series_dir/series" ]; then
		kinds="unpatched patched"
	else
		# The fix is missing and there is nothing to apply: the gate
		# cannot pass, whatever the unpatched kernel shows.
		noseries=1
		progress "$NAME" verify "no security series in backports/$BRANCH: booting its own kernel only; the gate fails"
	fi
else
	rc=$?
	[ $rc -eq 4 ] || exit $rc
	fixed=1
fi
# VERIFY_KINDS=unpatched (or patched) narrows the run.
kinds=${VERIFY_KINDS:-$kinds}
# A previous run's gate, and its boots of the kinds run now, must not
# outlive a build that fails now.
result_update "$result" --arg k "$kinds" 'del(.gate) | reduce ($k | split(" ")[] | select(. != "")) as $x (.; del(.boots[$x]))'
# build.sh takes this run's verified source and, unless SERIES_DIR= or
# TREE= (whose series build.sh makes), the series planned above
[ -z "$TREE" ] && [ -z "${SERIES_DIR:-}" ] || planned=
for k in $kinds; do
	KIT_RUN_SRC=$src KIT_RUN_PLAN=${planned:-} sh "$KIT_ROOT/scripts/build.sh" "$k" "$BRANCH" || exit $?
done
if [ -n "$fixed" ]; then
	result_update "$result" --slurpfile p "$OUT/$NAME/plan/plan.json" '.security = ($p[0] + {applied: []})'
	progress "$NAME" verify "already fixed: the tree carries every change; nothing applied"
fi

# must <kind>: the verdict this kernel must get.
must() {
	if [ -n "$fixed" ] || [ "$1" != unpatched ]; then echo SURVIVED; else echo VULNERABLE; fi
}
# Each fix is held on its own too (boots.<kind>.fixes.<CVE>.verdict): a fix
# is one folder of backports/fixes/ (kit_fixes).  The tree misses a
# fix when it misses one of that fix's changes (plan.json); its unpatched
# kernel must show that fix VULNERABLE, and every other fix, the patched
# kernel's and an already-fixed tree's every fix SURVIVED.  NOT-TESTED
# (the guest could not reach the code) passes for no fix.
# (fixes_of, kit_fixes: lib.sh)
kit_fixes=$(kit_fixes)
missing_changes=$(jq -r '.changes[] | select(.state == "missing") | .change' "$OUT/$NAME/plan/plan.json") ||
	die 1 "[$NAME] cannot read $OUT/$NAME/plan/plan.json (the plan step's record); run make verify BRANCH=$BRANCH again"
missing_fixes=$(fixes_of $missing_changes)
# must_fix <kind> <fix>
must_fix() {
	if [ "$1" = unpatched ] && [ -z "$fixed" ] && printf '%s\n' $missing_fixes | grep -qx "$2"
	then echo VULNERABLE; else echo SURVIVED; fi
}

gate=0
result_update "$result" --argjson prov "$(kit_provenance)" \
	--arg series "$(series_digest "$series_dir")" \
	--arg host "$(for p in $BR_HOST_SERIES; do cat "$KIT_ROOT/branches/host/$p.patch"; done | sha256sum | cut -d' ' -f1)" \
	--arg sdir "${SERIES_DIR:+$SERIES_DIR}" \
	'.provenance = ($prov + {series_sha256: $series, series_dir: (if $sdir == "" then null else $sdir end),
	   host_series_sha256: $host}) | del(.gate)'
[ -z "$pick" ] || result_update "$result" --arg n "$pick" --arg b "$BRANCH" --arg l "$ARCHES_LIST" \
	--arg r "$pick_rec" '.pick = {name: $n, branch: $b, arches: ($l | split(" ")), record: $r}'
# The kernels boot side by side where the cores allow (BOOT_JOBS): each in
# its own QEMU and verify folder, each verdict decided alone; the results
# are then taken in order.  Default: one boot per 4 cores, at least one.
# Measured on 2 cores: two TCG guests at once beside a kernel build made
# v2.6.32's patched kernel panic "IO-APIC + timer doesn't work!" on both
# attempts (INCONCLUSIVE), so a 2-core machine boots one at a time; and no
# boot runs beside a build of the kit (verify-kernel.sh shares its lock).
boot_jobs=${BOOT_JOBS:-$(($(nproc) / 4))}
[ "$boot_jobs" != 0 ] || boot_jobs=1
case $boot_jobs in '' | *[!0-9]* | 0) die 2 "BOOT_JOBS='$boot_jobs' is not a positive whole number" ;; esac
running=0
for k in $kinds; do
	bdir=$OUT/$NAME/$k
	if [ "$running" -ge "$boot_jobs" ]; then wait; running=0; fi
	progress "$NAME" boot "$k kernel in QEMU"
	rm -f "$bdir/verify.line" "$bdir/verify.rc"
	mkdir -p "$bdir/verify"
	( sh "$KIT_ROOT/testvm/verify-kernel.sh" "$bdir/bzImage" "$bdir/verify" >"$bdir/verify.line"
	  echo $? >"$bdir/verify.rc" ) &
	running=$((running + 1))
done
wait
for k in $kinds; do
	bdir=$OUT/$NAME/$k
	[ "$(cat "$bdir/verify.rc" 2>/dev/null)" = 0 ] ||
		die 1 "[$NAME] the verification VM failed on the $k kernel; see $bdir/verify/"
	line=$(cat "$bdir/verify.line")
	rm -f "$bdir/verify.line" "$bdir/verify.rc"
	want=$(must "$k")
	got=$(jq -r .verdict "$bdir/verify/boot.json")
	if [ "$got" = "$want" ]; then ok=true; mark=ok
	else ok=false; mark="NOT OK: must be $want"; gate=1; fi
	# each fix: "<fix> <verdict> <must>" lines, then the ones that are not
	fixlines=$(for f in $kit_fixes; do
		printf '%s %s %s\n' "$f" "$(jq -r --arg f "$f" '.fixes[$f].verdict // "none"' "$bdir/verify/boot.json")" "$(must_fix "$k" "$f")"
	done)
	bad=$(printf '%s\n' "$fixlines" | awk 'NF != 3 || $2 != $3 { printf "%s%s %s, must be %s", s, $1, $2, $3; s = "; " }')
	if [ -n "$bad" ]; then
		ok=false; gate=1
		if [ "$mark" = ok ]; then mark="NOT OK: $bad"; else mark="$mark; $bad"; fi
	fi
	result_update "$result" --arg k "$k" --slurpfile b "$bdir/verify/boot.json" \
		--arg commit "${BR_COMMIT:-}" --arg cfg "$(cat "$bdir/config.sha256")" \
		--arg want "$want" --argjson ok "$ok" --arg fl "$fixlines" \
		'($fl | split("\n") | map(select(. != "") | split(" ")
		   | {key: .[0], value: {verdict: .[1], expected: .[2], ok: (.[1] == .[2])}}) | from_entries) as $fx
		 | .boots[$k] = ($b[0] + {expected: $want, as_expected: $ok,
		    inputs: ($b[0].inputs + {tree_commit: $commit,
		    build_config_sha256: $cfg, toolchain: .toolchain})})
		 | .gate.kernels[$k] = {verdict: $b[0].verdict, expected: $want, ok: $ok,
		    failed_tests: ($b[0].failed_tests // []), fixes: $fx}'
	printf '%-12s %-9s %s [%s]\n' "$NAME" "$k" "$line" "$mark"
done
if [ -n "$noseries" ]; then
	gate=1
	result_update "$result" --arg s "$series_dir/series" \
		'.gate.kernels.patched = {verdict: "none", expected: "SURVIVED", ok: false,
		   failed_tests: [], why: "no security series (\($s))"}'
	printf '%-12s %-9s none: no security series in %s [NOT OK: must be SURVIVED]\n' "$NAME" patched "$series_dir"
fi
st=pass; [ $gate -eq 0 ] || st=fail
result_update "$result" --arg st "$st" '.gate.status = $st'
pick_verify --slurpfile r "$result" --arg res "$result" --arg at "$(date -u +%FT%TZ)" \
	'.verify = ($r[0] | . as $x | {result: $res, name: .branch, measured_at: $at,
	   kit_commit: .provenance.kit_commit, status: .gate.status,
	   kernels: (.gate.kernels | with_entries(.value += {tests: ($x.boots[.key].tests // null),
	     seconds: ($x.boots[.key].seconds // null), signature: ($x.boots[.key].signature // null)}))})'
# the same, as JUnit XML for a CI engine's test report (testvm/junit.sh)
# shellcheck disable=SC2046
sh "$KIT_ROOT/testvm/junit.sh" "$NAME" "$OUT/$NAME/junit.xml" \
	$(for k in $kinds; do
		printf '%s:%s:%s/%s/%s/verify:' "$k" "$(must "$k")" "$OUT" "$NAME" "$k"
		for f in $kit_fixes; do printf '%s=%s\n' "$f" "$(must_fix "$k" "$f")"; done | paste -sd, -
	done) ||
	die 1 "[$NAME] cannot write $OUT/$NAME/junit.xml; see the message above"
[ $gate -eq 0 ] || die 1 "[$NAME] gate failed: a kernel is not what it must be (see the NOT OK line above and $result)"
