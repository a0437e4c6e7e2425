#!/bin/sh
# check.sh: what `make check` (and so CI) runs.  The unit tests (no kernel
# tree needed) beside the end-to-end runs for every branch, which run in
# two lanes (ci/run-tests.sh: the kernel lane beside the others); with
# KIT_CHECK_SERIAL=1 everything runs one after the other (E2E=0 runs no
# end-to-end test).  A branch
# whose source cannot be reached SKIPs loudly with the reason on a machine
# with no source configured; once KERNEL_GIT is configured, that is a
# failure.  The last line is the summary: "N passed, N failed, N skipped";
# the exit status is non-zero when anything failed.
set -u
cd "$(dirname "$0")/.." || exit 2
echo "check: started $(date -u +%FT%TZ) on $(nproc) cores"
t_start=$(date +%s)
# One run, one decision on reachability (ci/e2e/lib.sh need_source).
KIT_RUN_DIR=$(mktemp -d) || exit 1
export KIT_RUN_DIR
# (a unit phase run beside the others is stopped with the run)
trap '[ -z "${unit_pid:-}" ] || kill "$unit_pid" 2>/dev/null; rm -rf "$KIT_RUN_DIR"' EXIT
trap 'exit 130' INT; trap 'exit 143' TERM
pass=0 fail=0 skip=0
# count LOG: add the summary line of a run-tests.sh run to the totals (a
# run that printed none is one failure, named).
count() {
	_s=$(sed -n 's/^\(unit *> \)\{0,1\}\([0-9]* passed, [0-9]* failed, [0-9]* skipped\)$/\2/p' "$1" | tail -1)
	if [ -z "$_s" ]; then
		echo "not ok - $2 printed no summary line"; fail=$((fail + 1)); return
	fi
	# shellcheck disable=SC2086
	set -- $_s
	pass=$((pass + $1)) fail=$((fail + $3)) skip=$((skip + $5))
}
# The unit phase is the pipeline's unit job (.gitlab-ci.yml), run by
# gitlab-ci-local (make deps installs it): the unit tests run once, as that
# job, in a copy of the tracked files, and their counts are this run's.
# A unit test file git does not track yet is not in that copy: run here.
# unit_phase [live]: its output to the logs in KIT_RUN_DIR (unit-job.log
# and unit-new.log, or unit.log), and with "live" to stdout as it comes;
# its seconds to unit.seconds.
unit_phase() {
	_t0=$(date +%s)
	# out LOG: stdin to LOG (and to stdout when live)
	if [ "${1:-}" = live ]; then out() { tee -a "$1"; }; else out() { cat >>"$1"; }; fi
	if [ -x ci/npm/node_modules/.bin/gitlab-ci-local ] && git rev-parse --git-dir >/dev/null 2>&1; then
		{ nice -n "$unit_nice" sh ci/gcl.sh unit 2>&1; echo $? >"$KIT_RUN_DIR/unit-job.rc"; } | out "$KIT_RUN_DIR/unit-job.log"
		new=$(git ls-files -o --exclude-standard -- '*/tests/*.t')
		if [ -n "$new" ]; then
			# shellcheck disable=SC2086
			{ echo "check: not tracked by git, so run here: $new"; nice -n "$unit_nice" sh ci/run-tests.sh $new 2>&1; } | out "$KIT_RUN_DIR/unit-new.log"
		fi
	else
		{ echo "check: gitlab-ci-local is not installed (make deps) or this is no git work tree: unit tests run directly"
		  E2E=0 nice -n "$unit_nice" sh ci/run-tests.sh 2>&1; } | out "$KIT_RUN_DIR/unit.log"
	fi
	echo $(($(date +%s) - _t0)) >"$KIT_RUN_DIR/unit.seconds"
}
# unit_count [print]: add the unit phase's counts (printing its logs first
# with "print": a phase that ran beside the others printed nothing yet)
unit_count() {
	for _l in unit-job unit-new unit; do
		[ -r "$KIT_RUN_DIR/$_l.log" ] || continue
		[ "${1:-}" != print ] || cat "$KIT_RUN_DIR/$_l.log"
		case $_l in
		unit-job)
			count "$KIT_RUN_DIR/$_l.log" "the pipeline's unit job (gitlab-ci-local)"
			[ "$(cat "$KIT_RUN_DIR/unit-job.rc")" = 0 ] || [ "$fail" -gt 0 ] ||
				{ echo "not ok - the pipeline's unit job failed (exit $(cat "$KIT_RUN_DIR/unit-job.rc")) with no failing test"; fail=$((fail + 1)); } ;;
		unit-new) count "$KIT_RUN_DIR/$_l.log" "the untracked unit tests" ;;
		unit) count "$KIT_RUN_DIR/$_l.log" "the unit tests" ;;
		esac
	done
}
beside= unit_nice=0
if [ "${E2E:-1}" = 1 ] && [ "${KIT_CHECK_SERIAL:-0}" != 1 ]; then
	# The unit phase beside the end-to-end runs: those wait on boots,
	# git and single-threaded scripts as much as they compile, and the
	# unit tests fill the core they leave (each test has its own cache,
	# lock and output root), at a lower priority (KIT_BESIDE_NICE, as
	# run-tests.sh's lanes beside its kernel lane: the kernels are the
	# run's longest path).  Its output follows theirs; a unit test
	# failing is counted all the same.  KIT_CHECK_SERIAL=1: one after the
	# other, as before.
	echo "check: the unit phase runs beside the end-to-end runs; its output follows theirs"
	unit_nice=${KIT_BESIDE_NICE:-5}
	case $unit_nice in *[!0-9]* | '') echo "check: error: KIT_BESIDE_NICE='$unit_nice' is not a whole number from 0 to 19" >&2; exit 2 ;; esac
	unit_phase &
	unit_pid=$!
	# (for what must not run beside it: ci/e2e/60-gitlab-ci.t waits)
	echo "$unit_pid" >"$KIT_RUN_DIR/unit.pid"
	beside=", the unit phase beside the end-to-end runs"
else
	unit_phase live
	unit_count
fi
if [ "${E2E:-1}" = 1 ]; then
	# the rule tests on the real trees (they SKIP in make unit, and so in
	# the unit job, to keep it fast) beside the end-to-end runs' lanes
	# (one end-to-end lane with KIT_CHECK_SERIAL=1)
	lanes=2; [ "${KIT_CHECK_SERIAL:-0}" != 1 ] || lanes=1
	[ "$lanes" = 1 ] || beside="$beside, the end-to-end files in two lanes"
	E2E=1 KIT_E2E_LANES=$lanes sh ci/run-tests.sh cocci/tests/trees.t ci/e2e/*.t | tee "$KIT_RUN_DIR/e2e.log"
	count "$KIT_RUN_DIR/e2e.log" "the end-to-end tests"
fi
if [ -n "${unit_pid:-}" ]; then
	wait "$unit_pid"
	echo
	echo "check: the unit phase, run beside them:"
	unit_count print
fi
t_unit=$(cat "$KIT_RUN_DIR/unit.seconds" 2>/dev/null || echo '?')
# The run's own timing, read from its log (run-tests.sh prints "--- FILE:
# ... in Ns" after each file): the figure the CI budget is checked
# against, never typed into a document.
phases=$(cat "$KIT_RUN_DIR/e2e.log" 2>/dev/null |
	sed -n 's|^--- \(.*/\)\{0,1\}\([^/:]*\)\.t: .* in \([0-9]*\)s[, cpu0-9s]* (elapsed .*|\2 \3 s|p' | paste -sd, - | sed 's/,/, /g')
echo
echo "make check took $(($(date +%s) - t_start)) s$beside (phases: unit $t_unit s${phases:+, $phases})"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
