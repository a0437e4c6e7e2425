#!/bin/sh
# verify.sh [BRANCH]: build what is missing, boot the kernels the run
# requires in the verification VM (testvm/, which judges blind), and hold
# them to what each must be: the gate (scripts/gate.sh, docs/design.md
# "The gate").  One line per required kernel, printed from the gate's own
# record, never judged here.
#
# The order: the plan (what the tree misses), then OUT/<name>/manifest.json
# (gate.sh manifest: the kernels required and what each must be, per fix,
# written before anything is built or booted), the builds, the boots,
# then OUT/<name>/gate.json (gate.sh).  result.json gets the boots, the
# provenance and a copy of the gate; junit.xml and a pick's record are made
# from gate.json.
#
# Which kernels are required comes from the plan alone: the unpatched one,
# and the patched one unless the tree already carries every change (then
# only its own kernel, every fix SURVIVED).  A 2.6 branch without a series
# still requires its patched kernel, which cannot be built: the gate fails.
# SERIES_DIR=<quilt series> verifies that series as the patched kernel (a
# release's own pick, a mutant).  TREE=<kernel tree> verifies a tree under
# NAME (default tree-<folder>; never a branch's name).
#
# Exit: 0 the gate passed; 1 it failed (or a step failed before a
# verdict); 2 bad input; 3 the source cannot be reached (SKIP).
set -eu
. "$(dirname "$0")/lib.sh"
# every folder of backports/fixes/ is a fix with its FIX, or nothing runs
# (lib.sh kit_fixes: called here, not in $(...), so that its refusal stops us)
kit_fixes >/dev/null
# Ctrl-C or SIGTERM ends the whole run, boots included.  Each boot runs in
# the background, where sh starts it with SIGINT ignored, in a process
# group of its own (setsid); the trap sends SIGTERM to each such group
# still running (boot.sh then stops its emulator) and exits 128 + the
# signal.  Only our own jobs: a SIGTERM to this script never reaches
# verify-all's other branches or make.
own_group=
! command -v setsid >/dev/null 2>&1 || own_group=setsid
boot_pids=
stop_boots() {
	for _p in $boot_pids; do kill -TERM "-$_p" 2>/dev/null || :; done
	exit "$1"
}
trap 'stop_boots 130' INT
trap 'stop_boots 143' TERM
BRANCH=${1:-${BRANCH:-}}
TREE=${TREE:-}
check_inputs NAME BRANCH
if [ -n "$TREE" ]; then
	BRANCH=$(sh "$KIT_ROOT/scripts/detect.sh" "$TREE" ${BRANCH:+"$BRANCH"}) || exit $?
	tree_run_name "$TREE"; NAME=$_trn
fi
load_branch "$BRANCH"
# The kinds a run requires are the manifest's, never the environment's:
# a VERIFY_KINDS that leaked into a job once let the gate pass with no
# patched kernel booted.
[ -z "${VERIFY_KINDS:-}" ] ||
	warn "VERIFY_KINDS='$VERIFY_KINDS' is not read: the run boots every kernel its manifest requires (docs/design.md \"The gate\")"
# ARCHES= (or HARDENING=0): the patched kernel is the pick for those
# architectures (scripts/pick.sh), verified under its own name
# (<branch>-pick-<name>) so that the branch's full-series result stays as
# it was; the pick's record ($OUT/<b>/picks/<name>.json) gets the verdicts.
# With TREE=, ARCHES= names the architectures the tree ships: the tree's
# fix state, plan and series read their files only (fix-state.sh), so a
# vendor tree is not held to headers of an architecture it never builds.
pick=
if [ -n "$TREE" ] && { [ -n "${ARCHES:-}" ] || [ "${HARDENING:-1}" != 1 ]; }; then
	[ "${HARDENING:-1}" = 1 ] ||
		die 2 "HARDENING=0 makes a pick of the branch's own series; a TREE= run applies what the tree lacks: drop HARDENING="
	. "$KIT_ROOT/scripts/arches.sh"
	arches_canon "$ARCHES" || die 2 "$ARCHES_WHY"
	arches_has "$ARCHES_LIST" "$BR_ARCH" ||
		die 2 "ARCHES='$ARCHES' has no $BR_ARCH, and make verify boots $BR_ARCH kernels; add $BR_ARCH to the architectures the tree ships"
	ARCHES=$ARCHES_LIST
	export ARCHES
	[ "$ARCHES_LIST" = "$KIT_ARCHES" ] ||
		progress "$NAME" plan "the tree ships $ARCHES_LIST (ARCHES=): other architectures' files are not read for its fix state"
elif [ -n "${ARCHES:-}" ] || [ "${HARDENING:-1}" != 1 ]; then
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
[ -z "${SERIES_DIR:-}" ] || [ -r "$SERIES_DIR/series" ] ||
	die 2 "SERIES_DIR=$SERIES_DIR has no series file; give a quilt series folder"

if [ -n "$TREE" ]; then src=$(cd "$TREE" && pwd)
else src=$(sh "$KIT_ROOT/scripts/fetch.sh" "$BRANCH") || exit $?; fi
out_root
mkdir -p "$OUT/$NAME"
# One run per OUT/<name> at a time: a second `make verify` of the same
# name waits for the first, says so, and then finds its kernels and boots
# up to date.  (Two runs at once removed each other's gate, manifest and
# boot lines.)  The lock is the run's own, apart from the build lock.
if command -v flock >/dev/null 2>&1; then
	exec 8>>"$OUT/$NAME/.verify.lock" || die 1 "cannot open $OUT/$NAME/.verify.lock"
	if ! flock -n 8; then
		progress "$NAME" wait "another make verify of $NAME into $OUT is running; waiting for it, then reusing its kernels and boots"
		flock 8 || die 1 "cannot lock $OUT/$NAME/.verify.lock"
	fi
fi
# An earlier run's gate must not outlive this one, whatever stops it.
rm -f "$OUT/$NAME/gate.json" "$OUT/$NAME/manifest.json"
result_update "$result" 'del(.gate) | del(.boots)'
fixed=
if planned=$(sh "$KIT_ROOT/scripts/plan-series.sh" "$BRANCH" "$src" "$OUT/$NAME/plan"); then :
else
	rc=$?
	[ $rc -eq 4 ] || exit $rc
	fixed=1
fi
sh "$KIT_ROOT/scripts/gate.sh" manifest "$OUT/$NAME" "$BRANCH" || exit $?
manifest=$OUT/$NAME/manifest.json
# the kinds to build and boot: every required one that can be built
kinds=$(jq -r '.kinds | to_entries[] | select(.value.absent == null) | .key' "$manifest")
jq -r '.kinds | to_entries[] | select(.value.absent != null) | "\(.key): \(.value.absent)"' "$manifest" |
	while IFS= read -r l; do progress "$NAME" verify "$l; that kernel cannot be booted, and the gate fails"; done

# judge: the gate over this run's boots; 0 pass, 1 fail, else gate.sh's
# own error (it names it).
judge() {
	_jrc=0
	sh "$KIT_ROOT/scripts/gate.sh" "$OUT/$NAME" || _jrc=$?
	[ $_jrc -le 1 ] || exit $_jrc
	return $_jrc
}
# build.sh takes this run's verified source and, unless SERIES_DIR= or
# TREE= (whose series build.sh makes), the series planned above
[ -z "$TREE" ] && [ -z "${SERIES_DIR:-}" ] || planned=
for k in $kinds; do
	brc=0
	KIT_RUN_SRC=$src KIT_RUN_PLAN=${planned:-} sh "$KIT_ROOT/scripts/build.sh" "$k" "$BRANCH" || brc=$?
	# a kernel that was not built is not booted: the gate (which fails
	# then) says so in gate.json, and the build's own exit status stands
	if [ $brc -ne 0 ]; then
		# (the gate fails here, a required kind unbuilt: its status adds
		# nothing to the build's)
		judge || [ $? -eq 1 ]
		exit $brc
	fi
done
if [ -n "$fixed" ]; then
	result_update "$result" --slurpfile p "$OUT/$NAME/plan/plan.json" '.security = ($p[0] + {applied: []})'
	progress "$NAME" verify "already fixed: the tree carries every change; nothing applied"
fi

# Provenance names the series the patched build pushed: SERIES_DIR=, else
# the one its plan named (the branch's own, the missing changes' for a
# partly fixed tree, tree-series for TREE=; build.sh plans into the same
# OUT/<name>/plan/); none for a tree that needed nothing.
pushed=
if [ -n "${SERIES_DIR:-}" ]; then pushed=$SERIES_DIR
elif [ -z "$fixed" ] && printf '%s\n' $kinds | grep -qx patched; then
	pushed=$(jq -r '.series_dir // ""' "$OUT/$NAME/plan/plan.json") ||
		die 1 "[$NAME] cannot read $OUT/$NAME/plan/plan.json (the plan the patched build used)"
fi
result_update "$result" --argjson prov "$(kit_provenance)" \
	--arg series "$(if [ -n "$pushed" ]; then series_digest "$pushed"; else echo -; fi)" \
	--arg host "$(for p in $BR_HOST_SERIES; do cat "$KIT_ROOT/branches/host/$p.patch"; done | sha256sum | cut -d' ' -f1)" \
	--arg sdir "$pushed" --arg sfrom "$(if [ -n "${SERIES_DIR:-}" ]; then echo SERIES_DIR; elif [ -n "$TREE" ]; then echo tree-series; fi)" \
	'.provenance = ($prov + {series_sha256: $series, series_dir: (if $sdir == "" then null else $sdir end),
	   series_from: (if $sfrom != "" then $sfrom elif $sdir == "" then null else "plan" end),
	   host_series_sha256: $host})'
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
	# (a process group of its own, setsid: see the trap at the top)
	KIT_RELEASE=$BR_VERSION KIT_IMAGE_DIGESTS=$bdir/sha256sums $own_group sh -c \
		'sh "$1" "$2/bzImage" "$2/verify" >"$2/verify.line"; echo $? >"$2/verify.rc"' - \
		"$KIT_ROOT/testvm/verify-kernel.sh" "$bdir" &
	boot_pids="$boot_pids $!"
	running=$((running + 1))
done
wait
boot_pids=
vmfail=
for k in $kinds; do
	bdir=$OUT/$NAME/$k
	if [ "$(cat "$bdir/verify.rc" 2>/dev/null)" != 0 ]; then
		# no boot record of this run: the gate names the kind not booted
		vmfail="$vmfail $k"
		printf '%s\n' "none: the verification VM failed; see $bdir/verify/" >"$bdir/verify.line"
		continue
	fi
	result_update "$result" --arg k "$k" --slurpfile b "$bdir/verify/boot.json" \
		--arg commit "${BR_COMMIT:-}" --arg cfg "$(cat "$bdir/config.sha256")" \
		'.boots[$k] = ($b[0] + {inputs: ($b[0].inputs + {tree_commit: $commit,
		    build_config_sha256: $cfg, toolchain: .toolchain})})'
done
gate=0
judge || gate=1
g=$OUT/$NAME/gate.json
# result.json carries the gate as gate.sh wrote it, and each boot the
# verdict it was held to
result_update "$result" --slurpfile g "$g" \
	'.gate = $g[0] | reduce ($g[0].kernels | to_entries[] | select(.value.booted)) as $k (.;
	   .boots[$k.key] += {expected: $k.value.expected, as_expected: $k.value.ok})'
# one line per required kernel: the verifier's line, then the gate's word
for k in $(jq -r '.kernels | keys_unsorted[]' "$g"); do
	line=$(cat "$OUT/$NAME/$k/verify.line" 2>/dev/null) || line=
	rm -f "$OUT/$NAME/$k/verify.line" "$OUT/$NAME/$k/verify.rc"
	mark=$(jq -r --arg k "$k" '.kernels[$k] | if .ok then "ok" elif .booted | not then "NOT OK: \(.why)" else
	  "NOT OK: " + ([(if .verdict_ok then empty else "must be \(.expected)" end),
	     (.fixes | to_entries[] | select(.value.ok | not) | "\(.key) \(.value.verdict), must be \(.value.expected)")]
	    | join("; ")) end' "$g")
	[ -n "$line" ] || line=$(jq -r --arg k "$k" '"none: \(.kernels[$k].why // "not booted")"' "$g")
	printf '%-12s %-9s %s [%s]\n' "$NAME" "$k" "$line" "$mark"
done
pick_verify --slurpfile r "$result" --arg res "$result" --arg at "$(date -u +%FT%TZ)" \
	'.verify = ($r[0] | . as $x | {result: $res, name: .branch, measured_at: $at,
	   kit_commit: .provenance.kit_commit, status: .gate.status,
	   kernels: (.gate.kernels | with_entries(.value += {tests: ($x.boots[.key].tests // null),
	     seconds: ($x.boots[.key].seconds // null), signature: ($x.boots[.key].signature // null)}))})'
# the same, as JUnit XML for a CI engine's test report (testvm/junit.sh)
sh "$KIT_ROOT/testvm/junit.sh" "$NAME" "$OUT/$NAME/junit.xml" "$g" ||
	die 1 "[$NAME] cannot write $OUT/$NAME/junit.xml; see the message above"
[ $gate -eq 0 ] ||
	die 1 "[$NAME] gate failed: $(jq -r '.reasons | join("; ")' "$g") (see $g${vmfail:+; the verification VM failed on:$vmfail})"
# A VM that failed after it wrote a boot record (verify-kernel.sh's later
# steps) left a record the gate may have judged; the run failed all the
# same, and says so rather than exit 0.
[ -z "$vmfail" ] ||
	die 1 "[$NAME] the verification VM failed on:$vmfail (see $OUT/$NAME/<kind>/verify/); the gate's record is not this run's whole verdict"
