#!/bin/sh
# run-tests.sh [FILE...]: run the kit's test files and count their TAP lines.
#
# A test file is any executable */tests/*.t (unit, seconds) or, with
# E2E=1, ci/e2e/*.t (end-to-end: builds and boots kernels).  Each prints
# TAP (see ci/tap.sh).  The last line printed is the summary the CI reads:
#   "N passed, N failed, N skipped"
# After each file a "--- FILE: ... in Ns, cpu Ns (elapsed Ns)" line: where
# CI time goes (in: the file's own run; cpu: the processor time it took,
# what files run beside each other share; unit files run KIT_TEST_JOBS at
# a time).
#
# A file is judged by more than its "not ok" lines, so that a test that
# dies half-way is never read as a pass.  Each of these counts as one
# failure, named:
#   - it exits non-zero without printing "not ok";
#   - its plan (1..N, at the start or the end) is missing, given twice, or
#     N differs from the number of ok / not ok lines it printed;
#   - it runs past its time limit and is killed: KIT_TEST_TIMEOUT seconds
#     if set, else the file's own "# timeout: N" line (in its first 20
#     lines), else 1200 for a unit file (cocci/tests/trees.t, the
#     longest, runs spatch on seven real trees in make check; its time is
#     in make check's last line) and 3600 for an end-to-end one (a cold
#     ci/e2e/20-verify.t builds and boots every branch).
set -u
# The tests' own arithmetic (awk on a boot's seconds) the C way, as the
# kit's (scripts/lib.sh); scripts/tests/locale.t sets a comma-decimal
# locale itself where it tests the kit under one.
LC_ALL=C
export LC_ALL
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
pass=0 fail=0 skip=0
t0=$(date +%s)
files=$(ls -1 ./*/tests/*.t 2>/dev/null | sort)
[ "${E2E:-0}" = 1 ] && files="$files $(ls -1 ci/e2e/*.t 2>/dev/null | sort)"
[ $# -gt 0 ] && files="$*"
case ${KIT_TEST_TIMEOUT:-1} in *[!0-9]* | 0*)
	echo "run-tests.sh: error: KIT_TEST_TIMEOUT='$KIT_TEST_TIMEOUT' is not a whole number of seconds; set e.g. KIT_TEST_TIMEOUT=600" >&2
	exit 2 ;;
esac

# plan_problem OUTPUT: why OUTPUT's TAP plan does not hold (nothing if it does).
plan_problem() {
	_plans=$(grep -Ec '^1\.\.[0-9]+' "$1")
	_lines=$(grep -Ec '^(not )?ok( |$)' "$1")
	if [ "$_plans" -eq 0 ]; then
		echo "no TAP plan (1..N): it stopped before the end?"
	elif [ "$_plans" -gt 1 ]; then
		echo "$_plans TAP plans; one is allowed"
	else
		_n=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$1")
		[ "$_n" -eq "$_lines" ] || echo "plan 1..$_n but $_lines test lines"
	fi
}

# time_limit FILE: the seconds FILE may run (see above).
time_limit() {
	_own=$(head -20 "$1" 2>/dev/null | sed -n 's/^# timeout: \([1-9][0-9]*\)$/\1/p' | head -1)
	case $1 in *ci/e2e/*) _def=3600 ;; *) _def=1200 ;; esac
	echo "${KIT_TEST_TIMEOUT:-${_own:-$_def}}"
}

# run_file FILE OUT NICE: run one file at niceness NICE, its output to
# OUT, then "rc seconds" to OUT.rc.  timeout signals the file's whole
# process group (QEMU, make ...); -k: what ignores TERM is killed 10 s
# later.
# The file's CPU time (user and system) is the subshell's children's, as
# its "times" prints them: what the file ran and waited for (a process
# left running after its parent, or killed with it, is not counted).
run_file() {
	_f0=$(date +%s)
	_cpu=$(
		nice -n "$3" timeout -k 10 "$(time_limit "$1")" sh "$1" >"$2" 2>&1
		echo $? >"$2.st"
		# (times in this shell, not in a pipeline's own process)
		times >"$2.times"
		awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] } printf "%d", t + 0.5 }' "$2.times"
	)
	# written aside, then renamed: the reader never sees it half written
	echo "$(cat "$2.st" 2>/dev/null || echo 1) $(($(date +%s) - _f0)) ${_cpu:-0}" >"$2.rc.tmp" && rm -f "$2.st" "$2.times" && mv "$2.rc.tmp" "$2.rc"
}

# Unit files run KIT_TEST_JOBS at a time (default: the machine's cores):
# each in its own temp folders, they share only what is made for sharing
# (the spatch cache, the exports, each under its lock).  End-to-end files
# run in two lanes beside the unit lanes, each lane one file at a time in
# file order:
#   - the kernel lane: the files with a "# lane: kernels" line (in their
#     first 20 lines), which build the kit's kernels or cross cells; the
#     machine compiles one kernel at a time anyway (the build lock), and
#     this lane is the run's longest path;
#   - the other lane: every other end-to-end file (series, trees of the
#     era, mails, records, the report, a normal user's run), filling the
#     core that links, boots, git and scripts leave.
# A file with an "# after: NAME..." line (names of test files before it,
# without .t, e.g. 20-verify) starts only once each of those files in
# this run is done, whatever its lane: it reads what they made (their
# kernels in the build cache, the OUT they wrote).  A lane runs the first
# of its files whose "after" files are done.  KIT_E2E_LANES=1 runs the
# end-to-end files in one lane after the unit files, in file order, as
# before.  Each file's
# output is printed whole, in file order, once it and those before it are
# done.
jobs=${KIT_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in *[!0-9]* | '' | 0) echo "run-tests.sh: error: KIT_TEST_JOBS='$jobs' is not a whole number above 0" >&2; exit 2 ;; esac
case ${KIT_E2E_LANES:-2} in 1 | 2) ;; *) echo "run-tests.sh: error: KIT_E2E_LANES='$KIT_E2E_LANES' is neither 1 (end-to-end files one at a time) nor 2 (the kernel lane beside the others)" >&2; exit 2 ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Ctrl-C or a kill stops the lanes too (each runs one file at a time, in
# its own process group under timeout: that group is signalled as well)
stop_lanes() {
	for _p in ${lanes:-}; do
		pkill -TERM -P "$_p" 2>/dev/null; kill "$_p" 2>/dev/null
	done
	pkill -TERM -f "timeout -k 10 [0-9]* sh .*\.t\$" 2>/dev/null
}
trap 'stop_lanes; exit 130' INT; trap 'stop_lanes; exit 143' TERM; trap 'stop_lanes; exit 129' HUP
# header FILE KEY: the value of FILE's "# KEY: ..." line (first 20 lines)
header() { head -20 "$1" 2>/dev/null | sed -n "s/^# $2: *//p" | head -1; }
# Each file's number and name in this run ("n name"), for "# after:".
i=0
for f in $files; do i=$((i + 1)); echo "$i $(basename "$f" .t)"; done >"$work/names"
i=0
for f in $files; do
	i=$((i + 1))
	# an "after" file later in the order (or the file itself) could
	# wait forever: refused, named, before anything runs
	for a in $(header "$f" after); do
		_an=$(awk -v a="$a" '$2 == a { print $1; exit }' "$work/names")
		[ -z "$_an" ] || [ "$_an" -lt "$i" ] || {
			echo "run-tests.sh: error: $f: '# after: $a' names a file that does not come before it; a file waits only for earlier ones" >&2; exit 2; }
	done
	case $f in
	*ci/e2e/*)
		if [ "${KIT_E2E_LANES:-2}" = 2 ] && [ "$(header "$f" lane)" = kernels ]; then echo "$i $f" >>"$work/e2e.kernels"
		else echo "$i $f" >>"$work/e2e.other"; fi ;;
	*) echo "$i $f" >>"$work/lane.$((i % jobs))" ;;
	esac
done
# ready FILE: every file FILE's "# after:" line names that is in this run
# is done
ready() {
	for _a in $(header "$1" after); do
		awk -v a="$_a" '$2 == a { f = 1 } END { exit !f }' "$work/names" || continue
		[ -e "$work/done.$_a" ] || return 1
	done
}
# run_lane LANE NICE: LANE's files, one at a time: the first that is
# ready, at niceness NICE
run_lane() {
	cp "$1" "$1.left"
	while [ -s "$1.left" ]; do
		_pick=$(while read -r _n _f; do ready "$_f" && { echo "$_n $_f"; break; }; done <"$1.left")
		if [ -z "$_pick" ]; then sleep 1; continue; fi
		_n=${_pick%% *} _f=${_pick#* }
		run_file "$_f" "$work/$_n.out" "$2"
		: >"$work/done.$(basename "$_f" .t)"
		grep -vxF "$_pick" "$1.left" >"$1.next" || :
		mv "$1.next" "$1.left"
	done
}
# With a kernel lane, every other lane runs at a lower priority
# (KIT_BESIDE_NICE, default 5; 0: the same): the kernel lane is the run's
# longest path, and the others, shorter, take what its makes leave.
beside_nice=${KIT_BESIDE_NICE:-5}
case $beside_nice in *[!0-9]* | '') echo "run-tests.sh: error: KIT_BESIDE_NICE='$beside_nice' is not a whole number from 0 to 19" >&2; exit 2 ;; esac
[ -e "$work/e2e.kernels" ] || beside_nice=0
for l in "$work"/lane.*; do
	[ -e "$l" ] || continue
	run_lane "$l" "$beside_nice" &
	lanes="${lanes:-} $!"
done
# KIT_E2E_LANES=1: the one end-to-end lane after the unit lanes, as before
units=${lanes:-}
for l in "$work"/e2e.*; do
	[ -e "$l" ] || continue
	case $l in
	*e2e.kernels) run_lane "$l" 0 & ;;
	*) if [ "${KIT_E2E_LANES:-2}" = 1 ]; then
		( for _p in $units; do while kill -0 "$_p" 2>/dev/null; do sleep 1; done; done; run_lane "$l" 0 ) &
	   else run_lane "$l" "$beside_nice" & fi ;;
	esac
	lanes="${lanes:-} $!"
done
# alive: a lane still runs (a file whose lane is gone and left no result
# is failed below, never waited for)
alive() { for _p in ${lanes:-}; do kill -0 "$_p" 2>/dev/null && return 0; done; return 1; }

i=0
for f in $files; do
	i=$((i + 1))
	echo "=== $f"
	out=$work/$i.out
	limit=$(time_limit "$f")
	while [ ! -e "$out.rc" ] && alive; do sleep 1; done
	if [ -e "$out.rc" ]; then read -r rc secs cpu <"$out.rc"; cat "$out"
	else rc=1 secs=0 cpu=0; : >"$out"; echo "run-tests.sh: $f: its lane stopped before it ran" >&2; fi
	p=$(grep -E '^ok ' "$out" | grep -vc '# SKIP')
	s=$(grep -Ec '^ok .*# SKIP' "$out")
	n=$(grep -Ec '^not ok ' "$out")
	why=$(plan_problem "$out")
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "not ok - $f timed out after ${limit}s (KIT_TEST_TIMEOUT) and was killed"
		n=$((n + 1))
	elif [ "$rc" -ne 0 ] && [ "$n" -eq 0 ]; then
		echo "not ok - $f exited $rc without a failing test line${why:+ ($why)}"
		n=1
	elif [ -n "$why" ]; then
		echo "not ok - $f: $why"
		n=$((n + 1))
	fi
	pass=$((pass + p)) skip=$((skip + s)) fail=$((fail + n))
	rm -f "$out" "$out.rc"
	now=$(date +%s)
	echo "--- $f: ${p} ok, ${n} not ok, ${s} skip in ${secs}s, cpu ${cpu}s (elapsed $((now - t0))s)"
done
wait
echo
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
