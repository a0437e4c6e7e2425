#!/bin/sh
# ci/run-tests.sh judges a test file by its plan, its exit status and its
# time as well as its "not ok" lines: small fake test files, one fault each.
. ci/tap.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mk() { printf '%s\n' "$2" >"$tmp/$1.t"; }
mk fine 'echo "ok 1 - a"; echo "ok 2 - b # SKIP no tool"; echo "1..2"'
mk planfirst 'echo "1..1"; echo "ok 1 - a"'
mk noplan 'echo "ok 1 - a"; echo "ok 2 - b"'
mk wrongplan 'echo "ok 1 - a"; echo "ok 2 - b"; echo "1..3"'
mk twoplans 'echo "1..1"; echo "ok 1 - a"; echo "1..1"'
mk crash 'echo "ok 1 - a"; exit 3'
mk hang 'sleep 60 & echo $! >"$(dirname "$0")/hang.pid"; echo "ok 1 - started"; wait'
mk busy 'i=0; while [ $i -lt 3000000 ]; do i=$((i + 1)); done; sleep 3; echo "ok 1 - counted"; echo "1..1"'
mk ownlimit '# timeout: 2
sleep 60; echo "ok 1 - late"; echo "1..1"'

# run NAME... : run-tests.sh on those fake files; sets rc, out, last.
run() {
	_args=; for _n; do _args="$_args $tmp/$_n.t"; done
	# shellcheck disable=SC2086
	out=$(KIT_TEST_TIMEOUT=${TO:-60} sh ci/run-tests.sh $_args 2>&1); rc=$?
	last=$(printf '%s\n' "$out" | tail -1)
}
expect() { # expect NAME RC LAST PATTERN
	if [ "$rc" -eq "$2" ] && [ "$last" = "$3" ] && printf '%s\n' "$out" | grep -q -- "$4"; then
		t_ok "$1"
	else t_fail "$1" "rc=$rc (want $2)" "last: $last (want $3)" "$(printf '%s\n' "$out" | grep -v '^ok\|^===' | tail -3)"; fi
}

run fine planfirst
expect "good files pass, a SKIP is counted as skipped, the plan may come first" 0 "2 passed, 0 failed, 1 skipped" '^--- .*planfirst.t: 1 ok'
# the processor time of what the file ran (a loop of a second or two in
# its shell), apart from its wall time (the loop and a sleep of 3 s)
run busy
secs=$(printf '%s\n' "$out" | sed -n 's/^--- .*busy.t: .* in \([0-9]*\)s, cpu \([0-9]*\)s (elapsed .*/\1/p')
cpu=$(printf '%s\n' "$out" | sed -n 's/^--- .*busy.t: .* in \([0-9]*\)s, cpu \([0-9]*\)s (elapsed .*/\2/p')
[ "$rc" -eq 0 ] && [ -n "$cpu" ] && [ "$cpu" -ge 1 ] && [ "$cpu" -lt "$secs" ] &&
	t_ok "the file's line says its processor time (cpu ${cpu}s), less than its time (${secs}s, a sleep in it)" ||
	t_fail "the file's processor time" "rc=$rc" "$(printf '%s\n' "$out" | grep -- '^---')"
run noplan
expect "a file without a plan fails, named" 1 "2 passed, 1 failed, 0 skipped" "not ok - $tmp/noplan.t: no TAP plan"
run wrongplan
expect "a plan that does not match the test lines fails, named" 1 "2 passed, 1 failed, 0 skipped" "not ok - $tmp/wrongplan.t: plan 1..3 but 2 test lines"
run twoplans
expect "two plans in one file fail" 1 "1 passed, 1 failed, 0 skipped" "twoplans.t: 2 TAP plans"
run crash
expect "a crash without a not-ok line fails, with its exit code" 1 "1 passed, 1 failed, 0 skipped" "crash.t exited 3 without a failing test line"
t0=$(date +%s)
TO=2 run hang fine
t1=$(date +%s)
expect "a file past KIT_TEST_TIMEOUT fails, named, and the next file still runs" 1 "2 passed, 1 failed, 1 skipped" "not ok - $tmp/hang.t timed out after 2s"
t_check "the timeout stops it in seconds, not after its 60 s" [ $((t1 - t0)) -lt 30 ]
# gone: not running (a zombie waiting for init to reap it counts as gone);
# the signal may take a moment to land.
gone() {
	for _i in 1 2 3 4 5 6 7 8 9 10; do
		kill -0 "$1" 2>/dev/null || return 0
		case $(ps -o stat= -p "$1" 2>/dev/null) in Z*) return 0 ;; esac
		sleep 0.5
	done
	return 1
}
pid=$(cat "$tmp/hang.pid" 2>/dev/null)
if [ -n "$pid" ] && gone "$pid"; then t_ok "the timed-out file's own children are killed too"
else t_fail "the timed-out file's own children are killed too" "pid '$pid' still runs"; kill "$pid" 2>/dev/null; fi
run fine noplan crash
expect "the summary adds up across files and stays the last line" 1 "4 passed, 2 failed, 1 skipped" 'crash.t exited 3'
# a file may declare its own limit
run_own() { out=$(env -u KIT_TEST_TIMEOUT sh ci/run-tests.sh "$tmp/ownlimit.t" 2>&1); rc=$?; last=$(printf '%s\n' "$out" | tail -1); }
t0=$(date +%s); run_own; t1=$(date +%s)
expect "a file's own '# timeout: N' line is its limit" 1 "0 passed, 1 failed, 0 skipped" "ownlimit.t timed out after 2s"
t_check "... and it is stopped then" [ $((t1 - t0)) -lt 30 ]
out=$(KIT_TEST_TIMEOUT=soon sh ci/run-tests.sh "$tmp/fine.t" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s' "$out" | grep -q "KIT_TEST_TIMEOUT='soon' is not a whole number" &&
	t_ok "a bad KIT_TEST_TIMEOUT is refused in one line" || t_fail "a bad KIT_TEST_TIMEOUT is refused in one line" "rc=$rc" "$out"
# End-to-end files (any */ci/e2e/*.t): the kernel lane beside the other.
# Each fake file below waits (at most 10 s) for a mark another one makes;
# only files that run beside each other, or in the order "# after:" asks,
# all pass.
e=$tmp/ci/e2e; mkdir -p "$e"
mke() { printf '#!/bin/sh\n%s\n' "$2" >"$e/$1.t"; }
# wait_for MARK: the shell text of a file that waits for MARK
wait_for() { echo "i=0; while [ ! -e $tmp/$1 ] && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done"; }
mke 10-k "# lane: kernels
: >$tmp/k-started; $(wait_for o-started)
[ -e $tmp/o-started ] && echo 'ok 1 - the other lane ran beside' || echo 'not ok 1 - the other lane never ran beside'; echo 1..1; : >$tmp/k-done"
mke 20-waits "# after: 10-k
[ -e $tmp/k-done ] && echo 'ok 1 - started after 10-k' || echo 'not ok 1 - started before 10-k was done'; echo 1..1"
mke 30-o ": >$tmp/o-started; $(wait_for k-started)
[ -e $tmp/k-started ] && echo 'ok 1 - the kernel lane ran beside' || echo 'not ok 1 - the kernel lane never ran beside'; echo 1..1"
run_e() { out=$(KIT_TEST_TIMEOUT=60 sh ci/run-tests.sh "$e/10-k.t" "$e/20-waits.t" "$e/30-o.t" 2>&1); rc=$?; last=$(printf '%s\n' "$out" | tail -1); }
run_e
expect "end-to-end files: the kernel lane beside the other; a file waits for its '# after:' files and the lane runs a later file that is ready meanwhile" 0 "3 passed, 0 failed, 0 skipped" '^--- .*30-o.t: 1 ok'
t_check "... the output in file order" sh -c "printf '%s\n' \"\$1\" | grep '^=== ' | cut -c5- | xargs -n1 basename | paste -sd' ' - | grep -qx '10-k.t 20-waits.t 30-o.t'" - "$out"
mke 40-bad "# after: 50-later
echo 'ok 1 - ran'; echo 1..1"
mke 50-later "echo 'ok 1 - ran'; echo 1..1"
out=$(sh ci/run-tests.sh "$e/40-bad.t" "$e/50-later.t" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s' "$out" | grep -q "40-bad.t: '# after: 50-later' names a file that does not come before it" &&
	t_ok "an '# after:' naming a later file is refused in one line, before anything runs" || t_fail "an '# after:' naming a later file is refused" "rc=$rc" "$out"
out=$(KIT_E2E_LANES=3 sh ci/run-tests.sh "$e/50-later.t" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s' "$out" | grep -q "KIT_E2E_LANES='3' is neither 1" &&
	t_ok "a bad KIT_E2E_LANES is refused in one line" || t_fail "a bad KIT_E2E_LANES is refused in one line" "rc=$rc" "$out"
t_done
