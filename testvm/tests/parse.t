#!/bin/sh
# The log parser against recorded serial logs (testvm/fixtures/*.log).
# Each fixture: line 1 is a header
#   # KIT-EXPECT: <VERDICT> | sig: <substring of the signature> | args: <parse args>
# ("sig:" and "args:" may be empty), then the raw serial log.
# Then mutations of the clean SURVIVED log: each must move the verdict
# (the verdicts are defined in testvm/README.md, "## Verdicts").
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=ci/tap.sh
. "$root/ci/tap.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
make -s -C "$root/testvm" OUT="$tmp/out" host >"$tmp/build.log" 2>&1 ||
	{ t_fail "build the parser" "$(tail -5 "$tmp/build.log")"; t_done; exit 1; }
parse=$tmp/out/parse

field() { # field <header> <name>
	printf '%s\n' "$1" | tr '|' '\n' | sed -n "s/^ *$2: *//p" | sed 's/ *$//'
}

n=0
for f in "$root"/testvm/fixtures/*.log; do
	n=$((n + 1))
	name=${f##*/}
	hdr=$(head -1 "$f")
	case $hdr in "# KIT-EXPECT: "*) ;; *) t_fail "$name: header" "first line is not '# KIT-EXPECT: ...'"; continue ;; esac
	want=$(printf '%s\n' "${hdr#\# KIT-EXPECT: }" | cut -d'|' -f1 | tr -d ' ')
	sig=$(field "$hdr" sig)
	args=$(field "$hdr" args)
	tail -n +2 "$f" >"$tmp/log"
	# shellcheck disable=SC2086
	out=$("$parse" $args "$tmp/log") || { t_fail "$name: parse ran" "exit $?"; continue; }
	got=$(printf '%s' "$out" | jq -r .verdict) || { t_fail "$name: JSON" "$out"; continue; }
	gsig=$(printf '%s' "$out" | jq -r .signature)
	# SURVIVED means every test passed: a fixture that says otherwise
	# encodes the old meaning (issue 9) and is itself wrong
	if [ "$want" = SURVIVED ] && grep -q '^not ok [0-9]' "$tmp/log"; then
		t_fail "$name: expects SURVIVED" "its TAP has a 'not ok': relabel it (REGRESSED, VULNERABLE, ...)"
	elif [ "$got" != "$want" ]; then
		t_fail "$name: verdict $want" "got $got: $gsig"
	elif [ -n "$sig" ] && ! printf '%s' "$gsig" | grep -qF -- "$sig"; then
		t_fail "$name: signature has '$sig'" "got: $gsig"
	else
		t_ok "$name: $want${sig:+ ($sig)}"
	fi
done
[ "$n" -ge 7 ] || t_fail "at least 7 fixtures" "found $n"

# mutated <base log> <sed script> <verdict> <name>: the parser's verdict on
# <base log> edited by <sed script> must be <verdict>.
mutated() {
	sed "$2" "$1" >"$tmp/m.log"
	t_check "$4: $3" test "$(verdict "$tmp/m.log")" = "$3"
}

# A regression test failing on the clean run: REGRESSED, named, unless
# something else already decides (a state check: VULNERABLE; an
# unfinished stream: INCONCLUSIVE).
regressed_mutations() {
	"$parse" --runs 3 "$tmp/c.log" >"$tmp/c.json"
	t_check "clean log: no failed test, failed_tests empty" jq -e \
		'.tests.failed == 0 and .failed_tests == [] and (.signature | test("tests passed"))' "$tmp/c.json"
	sed 's/^ok 5 - \(regress: .*\)$/not ok 5 - \1\
# same stack address in two execs/' "$tmp/c.log" >"$tmp/r.log"
	"$parse" --runs 3 "$tmp/r.log" >"$tmp/r.json"
	t_check "one regression test fails: REGRESSED, the signature and failed_tests name it" jq -e '
		.verdict == "REGRESSED" and .failed_tests == ["regress: 64-bit stack and brk randomised across execs"]
		and (.signature | startswith("regression tests failed: test 5 (regress: 64-bit stack"))' "$tmp/r.json"
	sed 's/^ok 6 - \(regress: .*\)$/not ok 6 - \1/' "$tmp/r.log" >"$tmp/r2.log"
	t_check "two regression tests fail: REGRESSED naming both" sh -c "'$parse' --runs 3 '$tmp/r2.log' |
		jq -e '.verdict == \"REGRESSED\" and (.failed_tests | length) == 2 and (.signature | test(\"test 5 .*; test 6 \"))'"
	mutated "$tmp/r.log" "$fail_state" VULNERABLE "regression test and a state check fail"
	mutated "$tmp/r.log" "$no_done" INCONCLUSIVE "regression test fails, no 'KIT: done'"
	mutated "$tmp/c.log" '0,/^ok \([0-9]*\) - \(cve-state: .*\)$/s//ok \1 - \2 # SKIP why not/' \
		INCONCLUSIVE "a state check SKIPs (never SURVIVED)"
}

# Mutations of the clean run: the parser must not call any of them SURVIVED.
clean=$root/testvm/fixtures/survived-debian-6.1.log
verdict() { "$parse" "$@" | jq -r .verdict; }
fail_state='0,/^ok \([0-9]*\) - cve-state:/s//not ok \1 - cve-state:/'
no_done='/^KIT: done/d'
if [ -r "$clean" ]; then
	tail -n +2 "$clean" >"$tmp/c.log"
	t_check "clean log: SURVIVED" test "$(verdict "$tmp/c.log")" = SURVIVED
	last=$(grep -n '^ok ' "$tmp/c.log" | tail -1 | cut -d: -f1)
	sed "${last}d" "$tmp/c.log" >"$tmp/m.log"
	t_check "one TAP result missing: INCONCLUSIVE" test "$(verdict "$tmp/m.log")" = INCONCLUSIVE
	mutated "$tmp/c.log" "$no_done" INCONCLUSIVE "no 'KIT: done'"
	mutated "$tmp/c.log" "$fail_state" VULNERABLE "one state check fails"
	mutated "$tmp/c.log" '0,/^ok \([0-9]*\) - precond:/s//not ok \1 - precond:/' INCONCLUSIVE "precondition fails"
	{ cat "$tmp/c.log"; grep -m1 'Linux version' "$tmp/c.log"; } >"$tmp/m.log"
	t_check "second banner: INCONCLUSIVE" test "$(verdict "$tmp/m.log")" = INCONCLUSIVE
	t_check "runs asked differ from runs done: INCONCLUSIVE" \
		test "$(verdict --runs 5 "$tmp/c.log")" = INCONCLUSIVE
	sed '/^KIT: repro start 3/,$d' "$tmp/c.log" >"$tmp/m.log"
	t_check "stream ends in run 3: INCONCLUSIVE" test "$(verdict "$tmp/m.log")" = INCONCLUSIVE
	sed '/^KIT: run 3 /a\
WARNING: CPU: 0 PID: 30 at kernel/fork.c:1 copy_process+0x1/0x2' "$tmp/c.log" >"$tmp/m.log"
	t_check "kernel WARNING in the suite: INCONCLUSIVE" test "$(verdict "$tmp/m.log")" = INCONCLUSIVE
	: >"$tmp/e.log"
	t_check "empty log: INCONCLUSIVE" test "$(verdict "$tmp/e.log")" = INCONCLUSIVE
	regressed_mutations
else
	t_fail "clean fixture present" "$clean missing"
fi
# Full series minus 318f6b228ba8 on v2.6.32: the CVE is fixed, the a.out
# leak test is the one failure (what scripts/mutants.sh reports for G).
mg=$root/testvm/fixtures/regressed-v2.6.32-mutant-g-aout-leak.log
tail -n +2 "$mg" >"$tmp/mg.log"
"$parse" --runs 3 "$tmp/mg.log" >"$tmp/mg.json"
t_check "mutant-g log: REGRESSED, exactly one failed test, named: the a.out leak test" jq -e '
	.verdict == "REGRESSED" and .tests.failed == 1 and (.failed_tests | length) == 1 and
	(.failed_tests[0] | startswith("regress: ia32 a.out whose text cannot be mapped"))' "$tmp/mg.json"
t_check "bad usage exits 2" sh -c "'$parse' --bogus; test \$? -eq 2"
"$parse" "$tmp/nope.log" >"$tmp/po" 2>"$tmp/err"; rc=$?
t_check "missing log: exit 2, one line naming it, no verdict" sh -c "test $rc = 2 &&
	grep -qx 'parse: error: cannot read the serial log $tmp/nope.log: No such file or directory' '$tmp/err' &&
	test \$(wc -l <'$tmp/err') = 1 && ! test -s '$tmp/po'"
"$parse" "$tmp" >"$tmp/po" 2>"$tmp/err"; rc=$?
t_check "a folder as the log (a read error): exit 2, no verdict" sh -c \
	"test $rc = 2 && grep -q 'cannot read the serial log' '$tmp/err' && ! test -s '$tmp/po'"
# out of memory: a 48 MB log under a 40 MB address-space limit (ulimit -v
# is not POSIX; dash and bash have it)
# shellcheck disable=SC3045
if (ulimit -v 40000) 2>/dev/null; then
	head -c 48000000 /dev/zero | tr '\0' a >"$tmp/big.log"
	# shellcheck disable=SC3045
	(ulimit -v 40000 && exec "$parse" "$tmp/big.log") >"$tmp/po" 2>"$tmp/err"; rc=$?
	t_check "out of memory: exit 1, 'parse: error: out of memory', no verdict" sh -c \
		"test $rc = 1 && grep -qx 'parse: error: out of memory' '$tmp/err' && ! test -s '$tmp/po'"
	rm -f "$tmp/big.log"
else
	t_skip "out of memory: exit 1" "this sh has no 'ulimit -v' to limit the parser's memory"
fi
t_done
