#!/bin/sh
# The log parser against recorded serial logs (testvm/fixtures/*.log).
# Each fixture: line 1 is a header
#   # KIT-EXPECT: <VERDICT> | sig: <substring of the signature> | args: <parse args>
#     [| fixes: <ID>=<VERDICT> ...] [| fix-sig: <ID>=<substring of its signature>]
#     [| knows: <ID> ...] [| converted: ...] | source: ...
# ("sig:" and "args:" may be empty), then the raw serial log.  Every
# fixture also holds what holds for any log: the boot's verdict is the
# worst of its fixes', its counts their sum, and no fix without results
# is SURVIVED.  Then mutations of real logs: each must move the verdict
# of the fix it touches (the verdicts are defined in testvm/README.md,
# "## Verdicts").  The fix ids come from the fixtures themselves (the logs
# of the fixes they were recorded with), and the synthetic logs use toy
# fixes (CVE-2099-*), so the parser is shown to know no fix.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=ci/tap.sh
. "$root/ci/tap.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# The parser knows the fixes the recorded logs name, and no others: a fix
# added to the kit later is absent from every log recorded before it and
# would be judged as missing in each (FIXES=, testvm/Makefile).
field() { # field <header> <name>
	printf '%s\n' "$1" | tr '|' '\n' | sed -n "s/^ *$2: *//p" | sed 's/ *$//'
}
# parser_for ID...: a parser that knows those fixes, built once per set
parser_for() {
	_k=$(printf '%s\n' "$@" | sort -u | paste -sd_ -)
	if [ ! -x "$tmp/p.$_k/parse" ]; then
		mkdir -p "$tmp/f.$_k"
		for _id in "$@"; do cp -R "$root/backports/fixes/$_id" "$tmp/f.$_k/"; done
		make -s -C "$root/testvm" OUT="$tmp/p.$_k" FIXES="$tmp/f.$_k" host >"$tmp/build.log" 2>&1 ||
			{ t_fail "build the parser for $*" "$(tail -5 "$tmp/build.log")"; return 1; }
	fi
	echo "$tmp/p.$_k/parse"
}
# The fixtures recorded before a fix existed are judged by a parser that
# knows the fixes of those logs; a fixture whose header says "knows: ID..."
# (one recorded with more fixes in its image) by one that knows those.
ids=$(for f in "$root"/testvm/fixtures/*.log; do
	[ -n "$(field "$(head -1 "$f")" knows)" ] || sed -n 's/^KIT: fix \(CVE-[0-9]*-[0-9]*\) plan.*/\1/p' "$f"
done | sort -u)
# shellcheck disable=SC2086 # ids, split on purpose
parse=$(parser_for $ids) || { t_done; exit 1; }

n=0
for f in "$root"/testvm/fixtures/*.log; do
	n=$((n + 1))
	name=${f##*/}
	hdr=$(head -1 "$f")
	case $hdr in "# KIT-EXPECT: "*) ;; *) t_fail "$name: header" "first line is not '# KIT-EXPECT: ...'"; continue ;; esac
	want=$(printf '%s\n' "${hdr#\# KIT-EXPECT: }" | cut -d'|' -f1 | tr -d ' ')
	sig=$(field "$hdr" sig)
	args=$(field "$hdr" args)
	knows=$(field "$hdr" knows)
	# shellcheck disable=SC2086 # ids, split on purpose
	p=$parse; [ -z "$knows" ] || p=$(parser_for $knows) || continue
	tail -n +2 "$f" >"$tmp/log"
	# shellcheck disable=SC2086
	out=$("$p" $args "$tmp/log") || { t_fail "$name: parse ran" "exit $?"; continue; }
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
	printf '%s' "$out" >"$tmp/f.json"
	t_check "$name: the boot's verdict is the worst of its fixes', its counts their sum, no fix without results SURVIVED" jq -e '
		. as $r | [.fixes[] | .verdict] as $v |
		(first(("VULNERABLE", "INCONCLUSIVE", "REGRESSED", "SURVIVED") as $x | select($v | index($x)) | $x) // "INCONCLUSIVE") as $w |
		($r.verdict == $w or ($r.verdict == "INCONCLUSIVE" and ($v | index("SURVIVED") | not)))
		and ([.fixes[] | .tests.passed] | add) == .tests.passed and ([.fixes[] | .tests.failed] | add) == .tests.failed
		and ([.fixes[] | .tests.skipped] | add) == .tests.skipped
		and all(.fixes[]; .verdict != "SURVIVED" or .tests.passed > 0)' "$tmp/f.json"
	# control_failed is set exactly for the fix whose own control phase
	# stopped it (failed, oopsed or did not finish), as its signature says
	t_check "$name: control_failed set for exactly the fixes stopped in their control phase" jq -e '
		all(.fixes[]; .control_failed == (.signature | test("^(control phase |oops in the control phase)")))' "$tmp/f.json"
	fixes=$(field "$hdr" fixes)
	fsig=$(field "$hdr" fix-sig)
	for fv in $fixes; do
		id=${fv%%=*} v=${fv#*=}
		g=$(printf '%s' "$out" | jq -r --arg id "$id" '.fixes[$id].verdict')
		t_check "$name: $id $v (got $g)" test "$g" = "$v"
	done
	if [ -n "$fsig" ]; then
		id=${fsig%%=*} want_s=${fsig#*=}
		g=$(printf '%s' "$out" | jq -r --arg id "$id" '.fixes[$id].signature')
		t_check "$name: $id signature has '$want_s'" sh -c 'printf "%s" "$1" | grep -qF -- "$2"' sh "$g" "$want_s"
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
	sed 's/^ok 5 - \([^ ]* regress: .*\)$/not ok 5 - \1\
# same stack address in two execs/' "$tmp/c.log" >"$tmp/r.log"
	"$parse" --runs 3 "$tmp/r.log" >"$tmp/r.json"
	t_check "one regression test fails: REGRESSED, the signature and failed_tests name it" jq -e --arg a "$a" '
		.verdict == "REGRESSED" and .failed_tests == [$a + " regress: 64-bit stack and brk randomised across execs"]
		and (.signature | startswith($a + ": regression tests failed: test 5 (" + $a + " regress: 64-bit stack"))' "$tmp/r.json"
	sed 's/^ok 6 - \([^ ]* regress: .*\)$/not ok 6 - \1/' "$tmp/r.log" >"$tmp/r2.log"
	t_check "two regression tests fail: REGRESSED naming both" sh -c "'$parse' --runs 3 '$tmp/r2.log' |
		jq -e '.verdict == \"REGRESSED\" and (.failed_tests | length) == 2 and (.signature | test(\"test 5 .*; test 6 \"))'"
	mutated "$tmp/r.log" "$fail_state" VULNERABLE "regression test and a state check fail"
	mutated "$tmp/r.log" "$no_done" INCONCLUSIVE "regression test fails, no end marker"
	mutated "$tmp/c.log" '0,/^ok \([0-9]*\) - \([^ ]* cve-state: .*\)$/s//ok \1 - \2 # SKIP why not/' \
		INCONCLUSIVE "a state check SKIPs (never SURVIVED)"
}

# Mutations of the clean run: the parser must not call any of them SURVIVED.
clean=$root/testvm/fixtures/survived-debian-6.1.log
verdict() { "$parse" "$@" | jq -r .verdict; }
fail_state='0,/^ok \([0-9]*\) - \([^ ]*\) cve-state:/s//not ok \1 - \2 cve-state:/'
# the fix's end marker and the runner's last line lost
no_done='/^KIT: done/d; /^KIT: fix [^ ]* end/d'
if [ -r "$clean" ]; then
	tail -n +2 "$clean" >"$tmp/c.log"
	a=$(sed -n 's/^KIT: fix \([^ ]*\) start.*/\1/p' "$tmp/c.log" | head -1)	# its one fix
	t_check "clean log: SURVIVED" test "$(verdict "$tmp/c.log")" = SURVIVED
	last=$(grep -n '^ok ' "$tmp/c.log" | tail -1 | cut -d: -f1)
	sed "${last}d" "$tmp/c.log" >"$tmp/m.log"
	t_check "one TAP result missing: INCONCLUSIVE" test "$(verdict "$tmp/m.log")" = INCONCLUSIVE
	mutated "$tmp/c.log" "$no_done" INCONCLUSIVE "no end marker, no 'KIT: done'"
	mutated "$tmp/c.log" "$fail_state" VULNERABLE "one state check fails"
	mutated "$tmp/c.log" '0,/^ok \([0-9]*\) - \([^ ]*\) precond:/s//not ok \1 - \2 precond:/' INCONCLUSIVE "precondition fails"
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
	(.failed_tests[0] | test("^CVE-[0-9]+-[0-9]+ regress: ia32 a.out whose text cannot be mapped"))' "$tmp/mg.json"
# Per fix (testvm/README.md "Verdicts"): mutations of real logs of two
# fixes; $a and $b are their ids in the fixture's "fixes:" order (the one
# whose program runs first in the log is $b).  fixv <log> <jq filter>: the
# filter holds on the parser's JSON ($a, $b: those fixes' objects; $ai,
# $bi their ids).
fn=$root/testvm/fixtures/survived-3081-debian-6.1-net.log
nn=$root/testvm/fixtures/notested-3081-no-net-v2.6.32-patched.log
# shellcheck disable=SC2046 # two ids, split on purpose
set -- $(field "$(head -1 "$fn")" fixes | tr ' ' '\n' | cut -d= -f1)
a=$1 b=$2
fixv() {
	"$parse" --runs 3 "$1" >"$tmp/fx.json" &&
		jq -e --arg ai "$a" --arg bi "$b" '.fixes[$ai] as $a | .fixes[$bi] as $b | '"$2" "$tmp/fx.json" >/dev/null
}
tail -n +2 "$fn" >"$tmp/n.log"
tail -n +2 "$nn" >"$tmp/nn.log"
t_check "both fixes clean: tests split per fix (21 + 8 of 29), the boot's counts their sum" fixv "$tmp/n.log" '
	.verdict == "SURVIVED" and $a.verdict == "SURVIVED" and $b.verdict == "SURVIVED"
	and .tests.planned == 29 and $a.tests.planned == 21 and $b.tests.planned == 8
	and .tests.passed == $a.tests.passed + $b.tests.passed and .tests.skipped == $a.tests.skipped + $b.tests.skipped
	and (.signature | test("not tested") | not)'
sed 's/^ok 10 - \('"$b"' regress: .*\)$/not ok 10 - \1\
# the pipe did not hold the two iovecs'"'"' bytes/' "$tmp/n.log" >"$tmp/m.log"
t_check "a regression test of $b fails: that fix REGRESSED naming it, $a still SURVIVED, the boot REGRESSED under the fix's name" fixv "$tmp/m.log" '
	$b.verdict == "REGRESSED" and ($b.signature | startswith("regression tests failed: test 10 (" + $bi + " regress: compat vmsplice"))
	and $b.failed_tests == [$bi + " regress: compat vmsplice of two iovecs into a pipe"] and $a.failed_tests == []
	and $a.verdict == "SURVIVED" and .verdict == "REGRESSED" and (.signature | startswith($bi + ": regression tests failed"))'
sed 's/^ok 14 - \('"$b"' cve-state: .*\)$/not ok 14 - \1\
# zero page holds our markers: kernel memory written/' "$tmp/n.log" >"$tmp/m.log"
t_check "its cve-state check fails: $b VULNERABLE, $a SURVIVED, the boot VULNERABLE" fixv "$tmp/m.log" '
	$b.verdict == "VULNERABLE" and ($b.signature | test("zero page holds our markers")) and $a.verdict == "SURVIVED"
	and .verdict == "VULNERABLE" and (.signature | startswith($bi + ": state checks failed"))'
sed 's/^ok 13 - \('"$b"' precond: .*\)$/not ok 13 - \1\
# zero page not zero/' "$tmp/n.log" >"$tmp/m.log"
t_check "its precondition fails: $b INCONCLUSIVE, never SURVIVED" fixv "$tmp/m.log" '
	$b.verdict == "INCONCLUSIVE" and ($b.signature | test("precondition failed.*zero page not zero")) and .verdict == "INCONCLUSIVE"'
sed 's/^ok 16 - \('"$b"' cleanup: .*\)$/not ok 16 - \1\
# the zero page is not zero: kernel memory left written/' "$tmp/n.log" >"$tmp/m.log"
t_check "its cleanup check fails: $b INCONCLUSIVE, and $a's tests after it are not judged" fixv "$tmp/m.log" '
	$b.verdict == "INCONCLUSIVE" and $a.verdict == "INCONCLUSIVE" and ($a.signature | startswith($bi + "'"'"'s tests did not put the kernel back"))'
sed '/^KIT: run 14 '"$b"'/,/^KIT: fix '"$b"' end/{/^KIT: fix '"$b"' end/!d}' "$tmp/n.log" >"$tmp/m.log"
t_check "its program stops after 5 of 8 results: $b INCONCLUSIVE, $a after it not judged" fixv "$tmp/m.log" '
	$b.verdict == "INCONCLUSIVE" and ($b.signature | startswith("truncated TAP stream: 5 of 8 results"))
	and $a.verdict == "INCONCLUSIVE" and ($a.signature | test("ended after 5 of its 8 results"))'
sed '/^KIT: run 15 '"$b"'/,$d' "$tmp/n.log" >"$tmp/m.log"
t_check "the log ends inside its tests: both INCONCLUSIVE" fixv "$tmp/m.log" '
	$b.verdict == "INCONCLUSIVE" and ($b.signature | test("^truncated TAP stream: 6 of 8")) and $a.verdict == "INCONCLUSIVE"'
sed '/^KIT: fix '"$b"' start/,/^KIT: fix '"$b"' end/d' "$tmp/n.log" >"$tmp/m.log"
t_check "planned but never started: $b INCONCLUSIVE, $a judged on its own (SURVIVED)" fixv "$tmp/m.log" '
	$b.verdict == "INCONCLUSIVE" and ($b.signature | test("never started")) and $a.verdict == "SURVIVED" and .verdict == "INCONCLUSIVE"'
# The plan line is what a fix's results are counted against: without it a
# fix that printed 1 of its 8 results (or all of them) is never SURVIVED,
# and the fixes after it are not judged (testvm/fixtures has the first case
# as a log: inconclusive-3081-lost-plan-line.log).
sed '/^KIT: fix '"$b"' plan /d; /^KIT: run 10 '"$b"'/,/^KIT: fix '"$b"' end/{/^KIT: fix '"$b"' end/!d}' "$tmp/n.log" >"$tmp/m.log"
t_check "its plan line lost and its program ends after 1 of 8 results: $b INCONCLUSIVE, never SURVIVED; $a after it not judged" fixv "$tmp/m.log" '
	$b.verdict == "INCONCLUSIVE" and ($b.signature | startswith("no '"'"'KIT: fix " + $bi + " plan'"'"' line: 1 results seen"))
	and $a.verdict == "INCONCLUSIVE" and .verdict == "INCONCLUSIVE"'
sed '/^KIT: fix '"$b"' plan /d; /^KIT: fix '"$b"' start/,/^KIT: fix '"$b"' end/d' "$tmp/n.log" >"$tmp/m.log"
t_check "its plan line and every line of it lost: INCONCLUSIVE (the TAP plan holds results no plan line claims), not NOT-TESTED" fixv "$tmp/m.log" '
	$b.verdict == "INCONCLUSIVE" and ($b.signature | test("a plan line was lost")) and $a.verdict == "SURVIVED"'
sed '/^KIT: fix '"$b"' plan /d' "$tmp/n.log" >"$tmp/m.log"
t_check "its plan line lost, all its results there: still INCONCLUSIVE (nothing to count them against)" fixv "$tmp/m.log" '
	$b.verdict == "INCONCLUSIVE" and ($b.signature | test("8 results seen"))'
sed '/^KIT: run 14 '"$b"'/a\
BUG: unable to handle kernel paging request at ffffffff81938000\
Kernel panic - not syncing: Fatal exception' "$tmp/n.log" | sed '/^Kernel panic/q' >"$tmp/m.log"
t_check "an oops in its reproducer after its precondition passed: $b VULNERABLE naming the test; $a INCONCLUSIVE (not reached)" fixv "$tmp/m.log" '
	$b.verdict == "VULNERABLE" and ($b.signature | startswith("crashed in test 14 (" + $bi + " cve-state:"))
	and $a.verdict == "INCONCLUSIVE" and ($a.signature | startswith("oops before the reproducer")) and .verdict == "VULNERABLE"'
sed '/^KIT: run 10 '"$b"'/a\
BUG: unable to handle kernel NULL pointer dereference at 0000000000000010\
Kernel panic - not syncing: Fatal exception' "$tmp/n.log" | sed '/^Kernel panic/q' >"$tmp/m.log"
t_check "an oops in its regression tests, before its precondition: $b INCONCLUSIVE, never VULNERABLE" fixv "$tmp/m.log" '
	$b.verdict == "INCONCLUSIVE" and ($b.signature | test("^oops before the reproducer [(]test 10, "))'
sed '/^KIT: run 11 '"$b"'/a\
WARNING: at net/ipv4/igmp.c:1 ip_mc_join_group+0x1/0x2()' "$tmp/n.log" >"$tmp/m.log"
t_check "a kernel WARNING while its tests run: $b INCONCLUSIVE" fixv "$tmp/m.log" '$b.verdict == "INCONCLUSIVE" and ($b.signature | test("WARNING"))'
t_check "no path to the bug (no CONFIG_NET): $b NOT-TESTED with the reason, the boot keeps $a's SURVIVED and says what it did not test" fixv "$tmp/nn.log" '
	$b.verdict == "NOT-TESTED" and $b.signature == "socketcall ENOSYS: kernel built without CONFIG_NET"
	and .verdict == "SURVIVED" and .verdict == $a.verdict
	and (.signature | endswith("; not tested: " + $bi + " (socketcall ENOSYS: kernel built without CONFIG_NET)"))'
sed 's/^ok 10 - \('"$b"' regress: .*\)$/not ok 10 - \1/' "$tmp/nn.log" >"$tmp/m.log"
t_check "no path, and a regression test of it fails: REGRESSED, not hidden behind NOT-TESTED" fixv "$tmp/m.log" '
	$b.verdict == "REGRESSED" and ($b.signature | test("its reproducer did not run: socketcall ENOSYS")) and .verdict == "REGRESSED"'
sed 's/^\(ok 14 - '"$b"' cve-state: .*\) # SKIP .*$/\1/; s/^\(ok 13 - '"$b"' precond: .*\) # SKIP .*$/\1/' "$tmp/nn.log" >"$tmp/m.log"
t_check "the same log with its check run and passed: SURVIVED (the SKIP alone made it NOT-TESTED)" fixv "$tmp/m.log" '$b.verdict == "SURVIVED"'

# UNREACHABLE (testvm/README.md "Verdicts"): a synthetic log of two toy
# fixes (testvm/tests/toy-unreachable.log): the first's precondition
# proves the route to its flaw closed, the second holds.
toy=$root/testvm/tests/toy-unreachable.log
tv() { # tv <log> <jq filter>: $u the unreachable toy, $s the other
	"$parse" --runs 3 "$1" >"$tmp/t.json" &&
		jq -e '.fixes["CVE-2099-0001"] as $u | .fixes["CVE-2099-0002"] as $s | '"$2" "$tmp/t.json" >/dev/null
}
proof='orig_ax written as 0x100000014 reads back 0x14: putreg() narrows it to 32 bits'
t_check "a precondition's proof: UNREACHABLE with the proof in the JSON; the boot SURVIVED and says so; the image's own fixes NOT-TESTED" tv "$toy" '
	$u.verdict == "UNREACHABLE" and $u.unreachable == "'"$proof"'" and ($u.signature | endswith("'"$proof"'"))
	and $s.verdict == "SURVIVED" and ($s | has("unreachable") | not) and .verdict == "SURVIVED"
	and (.signature | endswith("; unreachable: CVE-2099-0001 ('"$proof"')"))
	and ([.fixes | to_entries[] | select(.key | startswith("CVE-2099-") | not) | .value.verdict] | all(. == "NOT-TESTED"))'
sed 's/# UNREACHABLE .*$/# UNREACHABLE/' "$toy" >"$tmp/m.log"
t_check "the directive without a proof: NOT-TESTED, never UNREACHABLE" tv "$tmp/m.log" '
	$u.verdict == "NOT-TESTED" and ($u.signature | test("without a proof")) and ($u | has("unreachable") | not)'
sed 's/^ok 3 - \(CVE-2099-0001 cve-state: .*\) # SKIP .*$/not ok 3 - \1/' "$toy" >"$tmp/m.log"
t_check "said unreachable, yet its state check fails: VULNERABLE (the flaw was reached)" tv "$tmp/m.log" '$u.verdict == "VULNERABLE"'
sed 's/^ok 1 - \(CVE-2099-0001 regress: .*\)$/not ok 1 - \1/' "$toy" >"$tmp/m.log"
t_check "unreachable, and a regression test fails: REGRESSED, not hidden" tv "$tmp/m.log" '$u.verdict == "REGRESSED"'
sed '/^KIT: fix CVE-2099-0001 plan/d; /^ok 3 - CVE-2099-0001/,/^KIT: fix CVE-2099-0001 end/{/^KIT: fix CVE-2099-0001 end/!d}' "$toy" >"$tmp/m.log"
t_check "unreachable with its plan line lost and its results cut: INCONCLUSIVE" tv "$tmp/m.log" '$u.verdict == "INCONCLUSIVE"'
sed 's/^ok 2 - \(CVE-2099-0001 precond: .*\) # UNREACHABLE .*$/not ok 2 - \1/' "$toy" >"$tmp/m.log"
t_check "the precondition fails instead: INCONCLUSIVE" tv "$tmp/m.log" '$u.verdict == "INCONCLUSIVE"'
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
