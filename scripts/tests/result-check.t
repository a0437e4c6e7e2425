#!/bin/sh
# result-check.sh: a result file or gate record that lies is refused on
# read, with the field named: another layout version, a verdict the kit
# does not define, a negative test count, a gate whose status its verdicts
# do not bear out (issue 22).  The written schema
# (scripts/records/result.schema.json) says the same of what a schema can
# say, and takes the records the kit writes.
cd "$(dirname "$0")/../.." || exit 2
. ci/tap.sh
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
F=scripts/tests/fixtures/report-html
S=scripts/records/result.schema.json
# chk <result|gate> FILE: "ok", or the check's line
chk() {
	KIT_ROOT=$(pwd) KIT_CONFIG=/nonexistent sh -c '. scripts/lib.sh && . scripts/result-check.sh &&
		if [ "$1" = gate ]; then gate_check "$2"; else result_check "$2"; fi && echo ok' sh "$1" "$2"
}
# refused <name> <result|gate> <fixture> <jq edit> <the line's start>
refused() {
	jq "$4" "$3" >"$t/lie.json" || { t_fail "$1" "jq failed"; return; }
	_o=$(chk "$2" "$t/lie.json"); _rc=$?
	[ $_rc -eq 1 ] && [ "$(printf '%s\n' "$_o" | wc -l)" -eq 1 ] && case $_o in "$5"*) true ;; *) false ;; esac &&
		t_ok "$1: refused, '$5...'" || t_fail "$1" "rc=$_rc" "$_o"
}

for f in v2.6.32.result.json v2.6.26.result.json v2.6.32.mutants.json; do
	o=$(chk result "$F/$f"); [ "$o" = ok ] && t_ok "the kit's result file $f passes" || t_fail "$f passes" "$o"
done
for f in v2.6.32.gate.json v2.6.26.gate.json; do
	o=$(chk gate "$F/$f"); [ "$o" = ok ] && t_ok "the gate record $f passes" || t_fail "$f passes" "$o"
done

r=$F/v2.6.26.result.json
refused "another layout" result "$r" '.schema = 99' '.schema is 99, not 2'
refused "no layout version" result "$r" 'del(.schema)' '.schema is null, not 2'
refused "a boot verdict the kit does not define" result "$r" '.boots.patched.verdict = "PWNED"' \
	'.boots.patched.verdict is "PWNED", not a verdict the kit defines'
refused "a fix verdict the kit does not define" result "$r" '.boots.patched.fixes = {"CVE-2010-0307": {verdict: "FIXED"}}' \
	'.boots.patched.fixes.CVE-2010-0307.verdict is "FIXED", not a verdict'
refused "a per-fix verdict as a boot's verdict" result "$r" '.boots.unpatched.verdict = "UNREACHABLE"' \
	'.boots.unpatched.verdict is "UNREACHABLE", not a verdict'
refused "a negative count" result "$r" '.boots.unpatched.tests = {passed: 3, failed: 7, skipped: -2}' \
	'.boots.unpatched.tests.skipped is -2, not a count'
refused "a fractional count" result "$r" '.boots.patched.tests.passed = 1.5' '.boots.patched.tests.passed is 1.5, not a count'
refused "a count as text" result "$r" '.boots.patched.tests.failed = "0"' '.boots.patched.tests.failed is "0", not a count'
refused "result.json's gate passes over a REGRESSED patched kernel" result "$r" '.gate.status = "pass"' \
	'.gate.status is "pass", but its kernels disagree: patched is REGRESSED, must be SURVIVED'
refused "a boot the gate did not judge" result "$r" '.boots.patched.verdict = "SURVIVED"' \
	'.boots.patched.verdict is "SURVIVED", but .gate.kernels.patched.verdict is "REGRESSED"'
refused "a boot held to another expectation than the gate's" result "$r" '.boots.patched.expected = "VULNERABLE"' \
	'.boots.patched.expected is "VULNERABLE", but the gate held it to "SURVIVED"'
refused "a mutant verdict the kit does not record" result "$F/v2.6.32.mutants.json" '.mutants.G.verdict = "CAUGHT"' \
	'.mutants.G.verdict is "CAUGHT", not a verdict'

g=$F/v2.6.32.gate.json
refused "a gate record of another layout" gate "$g" '.schema = 99' '.schema is 99, not 1'
refused "a gate status that is no status" gate "$g" '.status = "ok"' '.status is "ok", not pass or fail'
refused "a gate that passes over a VULNERABLE patched kernel" gate "$g" '.kernels.patched.verdict = "VULNERABLE"' \
	'.kernels.patched.ok is true, but its verdicts say false'
refused "... and with its ok changed to match" gate "$g" '.kernels.patched |= (.verdict = "VULNERABLE" | .ok = false)' \
	'.status is "pass", but its kernels disagree: patched is VULNERABLE, must be SURVIVED'
refused "a gate that passes over a fix that is not what it must be" gate "$g" \
	'.kernels.patched.fixes["CVE-2010-0307"] |= (.verdict = "VULNERABLE" | .ok = false) | .kernels.patched.ok = false' \
	'.status is "pass", but its kernels disagree: patched: CVE-2010-0307 VULNERABLE, must be SURVIVED'
refused "a gate that passes over a NOT-TESTED fix held to it" gate "$g" \
	'.kernels.patched.fixes["CVE-2010-0307"] |= (.verdict = "NOT-TESTED" | .expected = "NOT-TESTED" | del(.ok)) | del(.kernels.patched.ok)' \
	'.kernels.patched.fixes.CVE-2010-0307.expected is "NOT-TESTED", not one of'
refused "a kernel that did not boot, passed" gate "$g" '.kernels.unpatched |= (.booted = false | .verdict = "none" | del(.ok))' \
	'.status is "pass", but its kernels disagree: unpatched did not boot'
refused "a passed gate with reasons" gate "$g" '.reasons = ["patched: verdict REGRESSED, must be SURVIVED"]' \
	'.reasons name a failure of a gate that passed'
refused "a failed gate whose kernels are all what they must be" gate "$g" '.status = "fail"' \
	'.status is "fail", but every kernel is what it must be'
refused "a fix called fixed by a failed gate" gate "$F/v2.6.26.gate.json" '.fixes["CVE-2010-0307"].status = "fixed"' \
	'.fixes.CVE-2010-0307.status is "fixed", but the gate failed'
refused "a fix called fixed whose patched kernel was UNREACHABLE for it" gate "$g" \
	'.kernels.patched.fixes["CVE-2010-0307"] |= (.verdict = "UNREACHABLE" | .expected = "UNREACHABLE")' \
	'.fixes.CVE-2010-0307.status is "fixed", but the patched kernel was "UNREACHABLE" for it'
refused "a fix called fixed with no verdict of it" gate "$g" 'del(.kernels[].fixes)' \
	'.fixes.CVE-2010-0307.status is "fixed", but the unpatched kernel was "not judged" for it'
refused "a fix status the gate never writes" gate "$g" '.fixes["CVE-2010-0307"].status = "proven"' \
	'.fixes.CVE-2010-0307.status is "proven", not one of'
printf '{"schema": 2}\n{"schema": 2}\n' >"$t/two.json"
o=$(chk result "$t/two.json"); [ "$o" = "the file is not one JSON document" ] && t_ok "two documents in one file: refused" || t_fail "two documents" "$o"

# the written schema: the kit's files validate, each lie it can express does not
if [ ! -x /usr/bin/jsonschema ]; then
	t_skip "the written schema" "python3-jsonschema is not installed (make deps)"
else
	bad=
	for f in v2.6.32.result.json v2.6.26.result.json v2.6.32.mutants.json; do
		/usr/bin/jsonschema -i "$F/$f" "$S" >"$t/err" 2>&1 || bad="$bad $f: $(head -1 "$t/err")"
	done
	for e in '.schema = 99' '.boots.patched.verdict = "PWNED"' '.boots.unpatched.tests.failed = -2' '.gate.status = "passed"' \
		'.gate.kernels.patched.fixes = {"CVE-2010-0307": {verdict: "FIXED", expected: "SURVIVED"}}'; do
		jq "$e" "$F/v2.6.26.result.json" >"$t/lie.json"
		/usr/bin/jsonschema -i "$t/lie.json" "$S" >/dev/null 2>&1 && bad="$bad [$e validates]"
	done
	[ -z "$bad" ] && t_ok "the written schema takes the kit's result files and refuses another layout, PWNED, -2, a gate status and a fix verdict it does not define" ||
		t_fail "the written schema" "$bad"
fi
t_done
