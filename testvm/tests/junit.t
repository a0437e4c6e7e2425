#!/bin/sh
# testvm/junit.sh: boot records (real serial logs from testvm/fixtures)
# turned into JUnit XML, read back with a real XML parser (python3's
# xml.etree): a failing guest test is a failed testcase with its
# diagnostics; a kernel that is not what it must be fails its gate case;
# an unpatched kernel's failing cve-state checks are the exposure, not
# failures; text is escaped; bad input leaves the old file.  Each
# record is the gate's (scripts/gate.sh), as make verify makes it.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=ci/tap.sh
. "$root/ci/tap.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fx=$root/testvm/fixtures
command -v python3 >/dev/null 2>&1 || { t_skip "junit" "python3 (the XML parser) is not installed"; t_done; exit; }

# vdir DIR VERDICT "FAILED_TESTS_JSON" LOG...: a verify folder as
# verify-kernel.sh leaves it, one boot per LOG (the second with noexec32=off)
vdir() {
	d=$1 v=$2 ft=$3; shift 3
	mkdir -p "$d"; n=0
	for l; do
		n=$((n + 1))
		c="console=ttyS0 panic=1 oops=panic kit.runs=3"; [ $n -eq 1 ] || c="$c noexec32=off"
		tail -n +2 "$l" >"$d/boot-$n.log"
		jq -n --arg v "$v" --arg c "$c" '{verdict: $v, signature: "sig <&> \"q\"", seconds: 1.5, cmdline: $c}' >"$d/boot-$n.json"
	done
	jq -n --arg v "$v" --argjson ft "$ft" '{verdict: $v, signature: "kernel sig", seconds: 2.5, failed_tests: $ft}' >"$d/boot.json"
}
# junit NAME OUTFILE KIND:MUST:VERIFYDIR[:FIX=MUST,...]...: the gate's
# record of those kernels, made by scripts/gate.sh from a run manifest
# that holds each to MUST (and each FIX to its MUST), then junit.sh on it
runs=0
junit() {
	_n=$1 _o=$2; shift 2
	runs=$((runs + 1)); _r=$tmp/run$runs; mkdir -p "$_r"
	for _a; do
		_k=${_a%%:*} _rest=${_a#*:}; _m=${_rest%%:*} _v=${_rest#*:} _fm=
		case $_v in *:CVE-*) _fm=${_v##*:} _v=${_v%:*} ;; esac
		mkdir -p "$_r/$_k"; ln -s "$_v" "$_r/$_k/verify"
		jq -n -c --arg k "$_k" --arg m "$_m" --arg fm "$_fm" '{($k): {expected: $m,
		  fixes: ($fm | split(",") | map(select(. != "") | split("=") | {key: .[0], value: {expected: .[1], why: "test"}}) | from_entries)}}'
	done | jq -s 'add | {schema: 1, name: "t", branch: "v2.6.32", kinds: .}' >"$_r/manifest.json"
	# boot records of this run: no older than its manifest
	for _a; do _v=${_a#*:}; _v=${_v#*:}; _v=${_v%%:CVE-*}; [ ! -e "$_v/boot.json" ] || touch "$_v/boot.json"; done
	KIT_CONFIG=/nonexistent sh "$root/scripts/gate.sh" "$_r" >/dev/null 2>"$_r/gate.err"
	[ $? -le 1 ] || { echo "gate.sh failed on $_r: $(cat "$_r/gate.err")" >&2; return 2; }
	sh "$root/testvm/junit.sh" "$_n" "$_o" "$_r/gate.json"
}
# q FILE PYTHON-EXPR: evaluate EXPR with r = the parsed root
q() {
	python3 -c 'import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
print(eval(sys.argv[2]))' "$1" "$2"
}

vdir "$tmp/p" REGRESSED '["regress: ia32 a.out"]' "$fx/regressed-v2.6.32-mutant-g-aout-leak.log"
vdir "$tmp/u" VULNERABLE '[]' "$fx/vulnerable-v2.6.32-noexec32-off-state.log"
if junit 'v2.6.32' "$tmp/j.xml" unpatched:VULNERABLE:"$tmp/u" patched:SURVIVED:"$tmp/p" 2>"$tmp/err"; then
	t_ok "written: exit 0"
else
	t_fail "written" "$(cat "$tmp/err")"
fi
got=$(q "$tmp/j.xml" 'len(r.findall("testsuite"))' 2>&1)
[ "$got" = 4 ] && t_ok "parses; a testsuite per boot and a gate suite per kernel (4)" || t_fail "4 testsuites" "got: $got"

# the patched kernel: test 21 failed, with its diagnostics; 20 passed
s='[s for s in r.findall("testsuite") if s.get("name") == "v2.6.32 patched [default]"][0]'
got=$(q "$tmp/j.xml" "($s.get('tests'), $s.get('failures'), [c.get('name') for c in $s.findall('testcase') if c.find('failure') is not None])" 2>&1)
case $got in
"('21', '1', ['CVE-2010-0307 regress: ia32 a.out whose text cannot be mapped (RLIMIT_AS) is killed and leaks no memory (318f6b228ba8)'])") t_ok "a failing guest test is a failed testcase: $got" ;;
*) t_fail "a failing guest test is a failed testcase" "got: $got" ;;
esac
got=$(q "$tmp/j.xml" "[c.find('failure').text for c in $s.findall('testcase') if c.find('failure') is not None][0]" 2>&1)
case $got in *"AnonPages+PageTables grew by 516 kB"*) t_ok "its failure text is the test's diagnostics" ;; *) t_fail "failure text" "got: $got" ;; esac
got=$(q "$tmp/j.xml" "{p.get('name'): p.get('value') for p in $s.find('properties')}['boot_verdict'] + ' ' + {p.get('name'): p.get('value') for p in $s.find('properties')}['signature']" 2>&1)
[ "$got" = 'REGRESSED sig <&> "q"' ] && t_ok "the verdict is a property; text round-trips escaped" || t_fail "verdict property, escaping" "got: $got"

# gates: patched REGRESSED must be SURVIVED -> failure naming the test; unpatched VULNERABLE passes
g='{s.get("name"): (s.find("testcase").get("name"), s.find("testcase").find("failure") is not None) for s in r.findall("testsuite") if s.get("name").endswith(" gate")}'
got=$(q "$tmp/j.xml" "$g" 2>&1)
case $got in
*"'v2.6.32 unpatched gate': ('verdict VULNERABLE (must be VULNERABLE)', False)"*"'v2.6.32 patched gate': ('verdict REGRESSED (must be SURVIVED)', True)"*)
	t_ok "gate cases: unpatched VULNERABLE passes, patched REGRESSED fails" ;;
*) t_fail "gate cases" "got: $got" ;;
esac
got=$(q "$tmp/j.xml" "[s for s in r.findall('testsuite') if s.get('name') == 'v2.6.32 patched gate'][0].find('testcase').find('failure').text" 2>&1)
case $got in *"failing tests: regress: ia32 a.out"*) t_ok "the gate failure names the failing tests" ;; *) t_fail "gate failure text" "got: $got" ;; esac

# unpatched, held to VULNERABLE: its not-ok cve-state checks are the exposure
s='[s for s in r.findall("testsuite") if s.get("name") == "v2.6.32 unpatched [default]"][0]'
got=$(q "$tmp/j.xml" "($s.get('failures'), len([c for c in $s.findall('testcase') if c.get('name').split(' ', 1)[-1].startswith('cve-state:') and 'as it must be' in (c.findtext('system-out') or '')]))" 2>&1)
case $got in "('0', "[1-9]*) t_ok "unpatched: failing cve-state checks shown as the exposure, not failures: $got" ;; *) t_fail "unpatched cve-state" "got: $got" ;; esac
# ... but the same checks failing on a kernel held to SURVIVED are failures
junit x "$tmp/k.xml" patched:SURVIVED:"$tmp/u" 2>/dev/null
got=$(q "$tmp/k.xml" "[s for s in r.findall('testsuite') if s.get('name') == 'x patched [default]'][0].get('failures')" 2>&1)
case $got in [1-9]*) t_ok "cve-state failures on a kernel that must survive are failures ($got)" ;; *) t_fail "cve-state on patched" "got: $got" ;; esac

# Per fix: a boot of the guest with CVE-2010-3081's tests (real log, both
# fixes missing).  fixes FILE: add a fixes object, as parse writes it.
fixes() {
	jq '.fixes = {"CVE-2010-0307": {verdict: "VULNERABLE", signature: "s0307"},
	              "CVE-2010-3081": {verdict: "VULNERABLE", signature: "s3081 <&>"}}' "$1" >"$1.tmp" && mv "$1.tmp" "$1"
}
vdir "$tmp/f" VULNERABLE '[]' "$fx/vulnerable-3081-v2.6.32-net.log"
fixes "$tmp/f/boot-1.json"; fixes "$tmp/f/boot.json"
junit v2.6.32 "$tmp/f.xml" unpatched:VULNERABLE:"$tmp/f" 2>"$tmp/err" || t_fail "per-fix record written" "$(cat "$tmp/err")"
s='[s for s in r.findall("testsuite") if s.get("name") == "v2.6.32 unpatched [default]"][0]'
got=$(q "$tmp/f.xml" "sorted(set(c.get('classname') for c in $s.findall('testcase')))" 2>&1)
[ "$got" = "['v2.6.32.unpatched.CVE-2010-0307', 'v2.6.32.unpatched.CVE-2010-3081']" ] &&
	t_ok "testcases under their fix: classname NAME.KIND.<CVE>" || t_fail "classnames per fix" "got: $got"
got=$(q "$tmp/f.xml" "sorted((c.get('classname')[-13:], c.get('name').startswith('CVE-2010-3081 ')) for c in $s.findall('testcase')).count(('CVE-2010-3081', True)), all(c.get('classname').endswith('CVE-2010-3081') == c.get('name').startswith('CVE-2010-3081 ') for c in $s.findall('testcase'))" 2>&1)
[ "$got" = "(8, True)" ] && t_ok "CVE-2010-3081's eight tests, and only they, under CVE-2010-3081" ||
	t_fail "CVE-2010-3081's tests" "got: $got"
got=$(q "$tmp/f.xml" "($s.get('failures'), [c.findtext('system-out').startswith('not ok on this kernel, as it must be where the fix is missing') for c in $s.findall('testcase') if c.get('name').startswith('CVE-2010-3081 cve-state:')])" 2>&1)
case $got in "('0', [True])") t_ok "held to VULNERABLE: CVE-2010-3081's failing cve-state check is the exposure, not a failure" ;;
*) t_fail "CVE-2010-3081 cve-state on unpatched" "got: $got" ;; esac
got=$(q "$tmp/f.xml" "{p.get('name'): p.get('value') for p in $s.find('properties')}" 2>&1)
case $got in *"'fix CVE-2010-0307 verdict': 'VULNERABLE'"*"'fix CVE-2010-3081 verdict': 'VULNERABLE', 'fix CVE-2010-3081 signature': 's3081 <&>'"*)
	t_ok "each fix's verdict and signature are properties of the boot's suite" ;;
*) t_fail "per-fix properties" "got: $got" ;; esac
got=$(q "$tmp/f.xml" "{p.get('name'): p.get('value') for p in [s for s in r.findall('testsuite') if s.get('name') == 'v2.6.32 unpatched gate'][0].find('properties')}" 2>&1)
[ "$got" = "{'verdict': 'VULNERABLE', 'must_be': 'VULNERABLE', 'fix CVE-2010-0307 verdict': 'VULNERABLE', 'fix CVE-2010-3081 verdict': 'VULNERABLE'}" ] &&
	t_ok "the gate suite carries each fix's verdict" || t_fail "gate per-fix properties" "got: $got"
junit x "$tmp/g.xml" patched:SURVIVED:"$tmp/f" 2>/dev/null
got=$(q "$tmp/g.xml" "[c.get('name').split(':')[0] for c in [s for s in r.findall('testsuite') if s.get('name') == 'x patched [default]'][0].findall('testcase') if c.find('failure') is not None]" 2>&1)
[ "$got" = "['CVE-2010-3081 cve-state', 'CVE-2010-0307 cve-state']" ] &&
	t_ok "held to SURVIVED: both fixes' failing cve-state checks are failures" || t_fail "cve-state on patched, per fix" "got: $got"
# FIX=MUST: the same unpatched boot on a tree that already has CVE-2010-3081
# (it must be SURVIVED there): its failing cve-state check is a failure,
# CVE-2010-0307's stays the exposure, and the gate has a failing case for
# CVE-2010-3081 alone; a fix the boot did not judge fails its case too.
junit v2.6.32 "$tmp/h.xml" \
	unpatched:VULNERABLE:"$tmp/f":CVE-2010-0307=VULNERABLE,CVE-2010-3081=SURVIVED,CVE-2099-0001=SURVIVED 2>"$tmp/err" ||
	t_fail "per-fix musts written" "$(cat "$tmp/err")"
got=$(q "$tmp/h.xml" "[c.get('name').split(':')[0] for c in [s for s in r.findall('testsuite') if s.get('name') == 'v2.6.32 unpatched [default]'][0].findall('testcase') if c.find('failure') is not None]" 2>&1)
[ "$got" = "['CVE-2010-3081 cve-state']" ] &&
	t_ok "FIX=MUST: a fix held to SURVIVED fails its cve-state check; the one held to VULNERABLE shows the exposure" ||
	t_fail "FIX=MUST per-fix cve-state" "got: $got"
got=$(q "$tmp/h.xml" "[(c.get('classname'), c.get('name'), c.find('failure') is not None) for c in [s for s in r.findall('testsuite') if s.get('name') == 'v2.6.32 unpatched gate'][0].findall('testcase')]" 2>&1)
[ "$got" = "[('v2.6.32.unpatched', 'verdict VULNERABLE (must be VULNERABLE)', False), ('v2.6.32.unpatched.CVE-2010-0307', 'CVE-2010-0307 verdict VULNERABLE (must be VULNERABLE)', False), ('v2.6.32.unpatched.CVE-2010-3081', 'CVE-2010-3081 verdict VULNERABLE (must be SURVIVED)', True), ('v2.6.32.unpatched.CVE-2099-0001', 'CVE-2099-0001 verdict none (not judged in this boot) (must be SURVIVED)', True)]" ] &&
	t_ok "FIX=MUST: the gate suite has a case per fix, failing where the fix's verdict is not the one it must get or is missing" ||
	t_fail "FIX=MUST gate cases" "got: $got"
[ "$(q "$tmp/h.xml" "[s.get('failures') for s in r.findall('testsuite') if s.get('name') == 'v2.6.32 unpatched gate'][0]")" = 2 ] &&
	t_ok "FIX=MUST: the gate suite counts its two failures" || t_fail "FIX=MUST gate failure count"
s='[s for s in r.findall("testsuite") if s.get("name") == "v2.6.32 patched [default]"][0]'
got=$(q "$tmp/j.xml" "all(c.get('classname') == 'v2.6.32.patched.' + c.get('name').split(' ')[0] for c in $s.findall('testcase'))" 2>&1)
[ "$got" = True ] && t_ok "a boot record without fixes: each test under the fix its name carries (classname NAME.KIND.<CVE>)" ||
	t_fail "classname without fixes" "got: $got"

# a required kernel never booted: its gate suite has one failing case
# saying so; no gate record: exit 1, the old file left as it was
mkdir -p "$tmp/none"
junit v2.6.32 "$tmp/n.xml" unpatched:VULNERABLE:"$tmp/u" patched:SURVIVED:"$tmp/none" 2>"$tmp/err"
got=$(q "$tmp/n.xml" "[(c.get('name'), c.find('failure').text) for c in [s for s in r.findall('testsuite') if s.get('name') == 'v2.6.32 patched gate'][0].findall('testcase')]" 2>&1)
[ "$got" = "[('not booted (must be SURVIVED)', 'required, not booted (no boot record)')]" ] &&
	t_ok "a required kernel that was not booted: its gate suite fails, saying so" || t_fail "not booted" "got: $got" "$(cat "$tmp/err")"
cp "$tmp/j.xml" "$tmp/j.before"
sh "$root/testvm/junit.sh" v2.6.32 "$tmp/j.xml" "$tmp/none/gate.json" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && cmp -s "$tmp/j.xml" "$tmp/j.before" && [ "$(ls "$tmp" | grep -c '^j\.xml\.')" = 0 ] &&
	grep -q "$tmp/none/gate.json is not a gate record" "$tmp/err" &&
	t_ok "no gate record: exit 1, names it, old file untouched, no temp left" ||
	t_fail "no gate record" "exit $rc: $(cat "$tmp/err"); $(ls "$tmp")"
sh "$root/testvm/junit.sh" v2.6.32 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q usage "$tmp/err" && t_ok "bad usage: exit 2" || t_fail "bad usage" "exit $rc"
# an output root with a blank in its path (OUT='/tmp/a b'): each boot
# folder stays one field
top=$tmp tmp="$tmp/out with blank"; mkdir -p "$tmp"
vdir "$tmp/u" VULNERABLE '[]' "$fx/vulnerable-v2.6.32-noexec32-off-state.log"
if junit 'v2.6.32' "$tmp/j.xml" unpatched:VULNERABLE:"$tmp/u" 2>"$tmp/err" &&
	[ "$(q "$tmp/j.xml" "len(r.findall('testsuite'))")" -ge 2 ]; then
	t_ok "a boot folder whose path has a blank: read whole, its suites written"
else
	t_fail "boot folder path with a blank" "$(cat "$tmp/err")"
fi
tmp=$top
t_done
