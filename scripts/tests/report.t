#!/bin/sh
# report.sh: a report comes from this run's result files alone, refuses
# unreadable ones and an empty output root, and never leaves a half-written
# or stale report behind (issue 9, "Outputs that cannot lie").
cd "$(dirname "$0")/../.." || exit 2
. ci/tap.sh
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
good='{"schema":2,"branch":"v2.6.32","boots":{"unpatched":{"verdict":"VULNERABLE","expected":"VULNERABLE","tests":{"passed":24,"failed":4,"skipped":0},"signature":"sig-u"},"patched":{"verdict":"REGRESSED","expected":"SURVIVED","tests":{"passed":40,"failed":2,"skipped":0},"signature":"sig-p"}},"gate":{"status":"fail","kernels":{"unpatched":{"verdict":"VULNERABLE","expected":"VULNERABLE","ok":true},"patched":{"verdict":"REGRESSED","expected":"SURVIVED","ok":false,"failed_tests":["regress: aout argv"]}}},"provenance":{"kit_commit":"abc1234","recorded_at":"2026-12-04T10:00:00Z","gcc":"gcc (Debian 12.2.0-14) 12.2.0","binutils":"GNU ld (GNU Binutils for Debian) 2.40","spatch":"spatch version 1.1.1 x","qemu":"QEMU emulator version 7.2.22 (Debian)","series_sha256":"0123456789abcdef"}}'
mkdir -p "$t/out/v2.6.32"
printf '%s\n' "$good" >"$t/out/v2.6.32/result.json"
# its gate record (scripts/gate.sh), which the gate table is made from
printf '%s\n' "$good" | jq '.gate.kernels |= map_values(. + {booted: true}) | .gate + {name: .branch, reasons: ["patched: verdict REGRESSED, must be SURVIVED (failing: regress: aout argv)"],
  fixes: {"CVE-2010-0307": {status: "not fixed"}, "CVE-2010-3081": {status: "not tested"}}}' >"$t/out/v2.6.32/gate.json"
printf 'OLD REPORT\n## Mutants (make mutants): each x86 patch taken out in turn\n| v2.6.32 | A (old) | VULNERABLE | stale-row-from-old-report |\n' >"$t/r.md"
cp "$t/r.md" "$t/r.before"

out=$(OUT=$t/out REPORT=$t/r.md sh scripts/report.sh 2>&1); rc=$?
[ $rc -eq 0 ] && grep -qF '| v2.6.32 | fail | VULNERABLE (VULNERABLE) | REGRESSED (SURVIVED) | CVE-2010-0307 not fixed; CVE-2010-3081 not tested | patched: verdict REGRESSED, must be SURVIVED (failing: regress: aout argv) |' "$t/r.md" &&
	t_ok "a good result file renders; the gate row is the gate record's, naming the failing test and each fix's status" || t_fail "good result renders" "rc=$rc $out" "$(grep v2.6.32 "$t/r.md" | head -3)"
# the first thing under the title: one sentence and the branch x fix
# matrix, from the gate record (scripts/summary.sh), the failed gate shown
# as such
[ "$(sed -n 3p "$t/r.md" | cut -c1-60)" = "**Summary:** CVE-2010-0307: NOT FIXED on 1; CVE-2010-3081: N" ] &&
	sed -n 3p "$t/r.md" | grep -q 'gate passed on 0 of 1 branches\.$' &&
	grep -q '^| v2.6.32 | \*\*FAIL\*\* | NOT FIXED | NOT TESTED |' "$t/r.md" &&
	t_ok "the report opens with the summary sentence and the branch x fix matrix, from the gate record" ||
	t_fail "summary first" "$(sed -n 1,8p "$t/r.md")"
# a branch that carries every fix already ships nothing, and says so
# (ship.sh alone, on a root of its own)
mkdir -p "$t/af/debian-6.1"
printf '%s\n' '{"schema":2,"branch":"debian-6.1","boots":{"unpatched":{"verdict":"SURVIVED","expected":"SURVIVED","tests":{"passed":64,"failed":0,"skipped":6}}},"provenance":{"series_sha256":"-"}}' >"$t/af/debian-6.1/result.json"
printf '%s\n' '{"schema":1,"name":"debian-6.1","branch":"debian-6.1","status":"pass","kernels":{"unpatched":{"verdict":"SURVIVED","expected":"SURVIVED","ok":true,"booted":true}},"fixes":{"CVE-2010-0307":{"status":"already fixed"},"CVE-2010-3081":{"status":"not affected"}},"reasons":[]}' >"$t/af/debian-6.1/gate.json"
out=$(OUT=$t/af sh scripts/ship.sh 2>&1); rc=$?
[ $rc -eq 0 ] && printf '%s\n' "$out" | grep -qxF -- '- **debian-6.1**: gate pass; nothing to ship: CVE-2010-0307 already fixed, CVE-2010-3081 not affected' &&
	! printf '%s\n' "$out" | grep -q 'make mbox BRANCH=debian-6.1' &&
	t_ok "what to ship: a branch whose every fix is already there or not affected ships nothing, and says which" ||
	t_fail "already fixed: nothing to ship" "rc=$rc" "$out"
grep -q '<h1>Stable-branch backport kit: results</h1>' "$t/r.html" &&
	sed -n '/<h1>/,$p' "$t/r.html" | sed -n 2p | grep -q '^<p class="summary"><b>Summary:</b> CVE-2010-0307: NOT FIXED on 1' &&
	t_ok "the HTML page too: the summary is the first text after the title" || t_fail "HTML summary first" "$(grep -A2 '<h1>' "$t/r.html")"
# then what to ship and what is open (scripts/ship.sh), in both outputs
[ "$(awk '/^\| v2.6.32 \| \*\*FAIL\*\* \|/ { getline; getline; print; exit }' "$t/r.md")" = '## What to ship' ] &&
	grep -qxF -- '- **v2.6.32**: nothing to ship: gate fail' "$t/r.md" &&
	sed -n '/^## Open items$/,/^## /p' "$t/r.md" | grep -qxF -- '  - v2.6.32: gate fail: patched: verdict REGRESSED, must be SURVIVED (failing: regress: aout argv)' &&
	grep -q '<h2 id="ship">What to ship</h2>' "$t/r.html" && grep -q '<h2 id="open">Open items</h2>' "$t/r.html" &&
	t_ok "under the matrix: 'What to ship' (nothing: gate fail) and 'Open items' (the failed gate), in results.md and the page" ||
	t_fail "what to ship, open items" "$(sed -n '/^## What to ship/,/^## Where/p' "$t/r.md")"
grep -q 'stale-row-from-old-report' "$t/r.md" && t_fail "nothing is carried over from the previous report" ||
	t_ok "nothing is carried over from the previous report (mutants: not measured here)"
grep -q 'v2.6.32: 2026-12-04T10:00:00Z, kit abc1234' "$t/r.md" && t_ok "the report says when and by which kit commit the verdicts were measured" ||
	t_fail "when/where of the verdicts"

cp "$t/r.md" "$t/r.good"
# one of the outputs cannot be written (its folder is gone, or read-only
# for a user other than root): nothing is replaced, neither the page nor
# the report
cp "$t/r.html" "$t/r.html.good"
out=$(OUT=$t/out REPORT=$t/r.md REPORT_HTML=$t/gone/r.html sh scripts/report.sh 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s' "$out" | grep -q "cannot write to $t/gone (for r.html); nothing replaced" &&
	cmp -s "$t/r.md" "$t/r.good" && cmp -s "$t/r.html" "$t/r.html.good" && cmp -s "$t/out/report.html" "$t/r.html.good" &&
	t_ok "an output that cannot be written: exit 1, the report, its page and OUT's copy as they were" ||
	t_fail "every output or none" "rc=$rc $out"
# A result file or gate record that lies is refused (scripts/result-check.sh):
# one line naming the file and the field, every output as it was.
# lie <name> <file> <jq edit> <field and what is wrong>
lie() {
	printf '%s\n' "$good" >"$t/out/v2.6.32/result.json" && cp "$t/gate.good" "$t/out/v2.6.32/gate.json" &&
		jq "$3" "$2" >"$t/lie" && mv "$t/lie" "$2"
	out=$(OUT=$t/out REPORT=$t/r.md sh scripts/report.sh 2>&1); rc=$?
	[ $rc -eq 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
		printf '%s' "$out" | grep -qF "report.sh: error: $2 is not a" && printf '%s' "$out" | grep -qF -- "$4" &&
		cmp -s "$t/r.md" "$t/r.good" && cmp -s "$t/r.html" "$t/r.html.good" && cmp -s "$t/out/report.html" "$t/r.html.good" &&
		t_ok "$1: exit 1, one line naming the file and the field, the report and page as they were" || t_fail "$1" "rc=$rc $out"
}
cp "$t/out/v2.6.32/gate.json" "$t/gate.good"
r=$t/out/v2.6.32/result.json g=$t/out/v2.6.32/gate.json
lie "result.json of another layout (schema 99)" "$r" '.schema = 99' '.schema is 99, not 2'
lie "a verdict the kit does not define (PWNED)" "$r" '.boots.patched.verdict = "PWNED"' '.boots.patched.verdict is "PWNED", not a verdict the kit defines'
lie "a test count below zero (3/7/-2)" "$r" '.boots.unpatched.tests = {passed: 3, failed: 7, skipped: -2}' '.boots.unpatched.tests.skipped is -2, not a count'
lie "result.json's gate passes while its patched kernel is REGRESSED" "$r" '.gate.status = "pass"' \
	'.gate.status is "pass", but its kernels disagree: patched is REGRESSED, must be SURVIVED'
lie "gate.json passes while its patched kernel is REGRESSED" "$g" '.status = "pass" | .reasons = []' \
	'.status is "pass", but its kernels disagree: patched is REGRESSED, must be SURVIVED'
lie "result.json's boot is not the one its gate judged" "$r" '.boots.patched.verdict = "SURVIVED"' \
	'.boots.patched.verdict is "SURVIVED", but .gate.kernels.patched.verdict is "REGRESSED"'
# summary.sh and ship.sh, run alone, refuse it too, and print nothing
printf '%s\n' "$good" >"$r" && jq '.status = "pass" | .reasons = []' "$t/gate.good" >"$g"
for s in summary ship; do
	o=$(OUT=$t/out sh scripts/$s.sh 2>/dev/null); rc=$?
	e=$(OUT=$t/out sh scripts/$s.sh 2>&1 >/dev/null)
	[ $rc -eq 1 ] && [ -z "$o" ] && [ "$(printf '%s\n' "$e" | wc -l)" -eq 1 ] &&
		printf '%s' "$e" | grep -qF "$s.sh: error: $g is not a gate record this kit wrote: .status is \"pass\", but its kernels disagree" &&
		t_ok "$s.sh alone: a gate.json that passes over a REGRESSED kernel, exit 1, one line, nothing printed" || t_fail "$s.sh refuses" "rc=$rc $o $e"
done
printf '%s\n' "$good" >"$t/out/v2.6.32/result.json" && cp "$t/gate.good" "$t/out/v2.6.32/gate.json"

head -c 150 "$t/out/v2.6.32/result.json" >"$t/trunc"; mv "$t/trunc" "$t/out/v2.6.32/result.json"
out=$(OUT=$t/out REPORT=$t/r.md sh scripts/report.sh 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s' "$out" | grep -q "v2.6.32/result.json is not a readable result file" && cmp -s "$t/r.md" "$t/r.good" &&
	t_ok "a truncated result.json: exit 1, the file named, the report unchanged" || t_fail "truncated result.json refused" "rc=$rc $out"

printf '%s\n' "$good" | jq '.boots = "not an object"' >"$t/out/v2.6.32/result.json"
out=$(OUT=$t/out REPORT=$t/r.md sh scripts/report.sh 2>&1); rc=$?
[ $rc -ne 0 ] && cmp -s "$t/r.md" "$t/r.good" && [ -z "$(ls "$t"/r.md.* 2>/dev/null)" ] &&
	t_ok "a writer that fails half-way (jq error mid-render) leaves the old report and no temp file (exit $rc)" ||
	t_fail "a failing writer leaves the old report" "rc=$rc $out"

out=$(OUT=$t/empty REPORT=$t/r.md sh scripts/report.sh 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q "nothing to report" && cmp -s "$t/r.md" "$t/r.good" &&
	t_ok "an empty output root: exit 2, nothing to report, the report unchanged" || t_fail "empty OUT refused" "rc=$rc $out"
# Mutants come from their own result files, saying when they were measured.
mkdir -p "$t/mut/v2.6.32"
printf '%s\n' "$good" | jq '.mutants = {G: {dropped: "g.patch", verdict: "REGRESSED", caught_by: "failing tests: x",
	measured_at: "2026-12-04T11:00:00Z", kit_commit: "def5678"}}' >"$t/mut/v2.6.32/result.json"
printf '%s\n' "$good" >"$t/out/v2.6.32/result.json"
out=$(OUT=$t/out MUTANTS_OUT=$t/mut REPORT=$t/r2.md sh scripts/report.sh 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q '^- v2.6.32: 2026-12-04T11:00:00Z, kit def5678$' "$t/r2.md" &&
	grep -q '^| v2.6.32 | G (g.patch) | REGRESSED | failing tests: x |$' "$t/r2.md" &&
	t_ok "mutants: from MUTANTS_OUT's result files, with when and by which kit commit" || t_fail "mutants table" "rc=$rc $out" "$(grep -A8 '^## Mutants' "$t/r2.md")"

t_done
