#!/bin/sh
# A fix is one folder, all the way out: a copy of the kit with the toy fix
# folder added (fixtures/toy-fix/CVE-2099-0001: changes Y and Z, their
# hand hunks for v2.6.32, a Guest: line and its program, a record.json)
# and no other file edited takes it up in every output a run makes:
#
#   series  series.sh makes Y's and Z's patches from their hunks, against
#           a tiny tree that lacks them (SERIES_TREE=), and fix-state.sh
#           finds both present once that series is applied.  What is not
#           covered: the kit's own changes need the branch's real export
#           and spatch (cocci rules), so this series.sh run reads the toy
#           folder alone (KIT_FIXES=, lib.sh's switch for tests; a symlink
#           to the copy's folder, not a copy of it).  The whole kit is
#           read by plan-series.sh next: over the same tree it marks Y and
#           Z missing (every change of the kit's own n/a: none of its
#           files is there) and points the plan at that series.
#   parse   testvm/parse.c, built in the copy (make -C testvm host: its
#           fixes.h from the copy's fix folders, the toy's Guest: line
#           among them), judges CVE-2099-0001 from its own "KIT: fix ...
#           plan 3" block of a made-up serial log: SURVIVED, VULNERABLE
#           with its cve-state check failing, and NOT-TESTED in a log
#           without its block (it knows the fix from the folder).
#   gate    gate.sh manifest from that plan holds CVE-2099-0001 to
#           VULNERABLE unpatched and SURVIVED patched; boot records whose
#           toy entries are the parser's verdicts (every other fix
#           SURVIVED, as the plan wants) pass the gate with the toy
#           "fixed"; a patched boot left VULNERABLE fails it, naming it.
#   JUnit   testvm/junit.sh on those gate records: a testcase for it,
#           failing only in the failed gate.
#   records records.sh writes CVE-2099-0001.osv.json and .yml (it
#           validates both itself) carrying the series' Y and Z patches.
#   report  report.sh names it in the summary sentence at the top
#           (summary.sh) and in the gate table.
#
# Not covered either: no kernel is built or booted (verify.sh and
# verify-kernel.sh do not run): the boot records are made here with jq,
# the toy's entries from the parser, the other fixes' made up; and
# backports/v2.6.32 is not regenerated: the run verifies the toy series
# as the plan's series (result.json's series_dir), which records.sh reads
# by its sha256.
#
# Everything a run writes goes under OUT and the series folder, outside
# the copy; `git status` there shows only the new folder.  No kernel, no
# network; spatch only as a tool series.sh asks for (the toy's changes
# name no rule), so without it the series, and the records that need it,
# are skipped.  About 20 s (records.sh and report.sh are most of it).
. ci/tap.sh
for c in git make tar jq patch cc; do
	command -v $c >/dev/null 2>&1 || { t_skip "a toy fix's outputs" "$c is not installed (make deps)"; t_done; exit; }
done
root=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/toy-outputs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
k=$tmp/kit out=$tmp/out b=v2.6.32
toy=CVE-2099-0001
Y=1111111111111111111111111111111111111111 Z=2222222222222222222222222222222222222222

# the kit as tracked in this checkout, in a repository of its own, then
# the toy folder added and nothing else (scripts/tests/toy-kit.sh)
. scripts/tests/toy-kit.sh
toy_kit "$k" "$toy" || { t_fail "a copy of the kit with the toy fix folder"; t_done; exit 1; }
kenv() { env KIT_ROOT="$k" KIT_CONFIG=/nonexistent KIT_CACHE="$tmp/cache" OUT="$out" "$@"; }
fixes=$(kenv sh -c '. "$KIT_ROOT/scripts/lib.sh" && kit_fixes')
printf '%s\n' "$fixes" | grep -qx "$toy" || { t_fail "kit_fixes of the copy lists the toy fix" "$fixes"; t_done; exit 1; }

# --- series -----------------------------------------------------------------
# a tree with the file the toy changes, without them
mkdir -p "$tmp/tree/fs"
printf '/* fs/toy.c */\n' >"$tmp/tree/fs/toy.c"
mkdir -p "$tmp/fx" && ln -s "$k/backports/fixes/$toy" "$tmp/fx/$toy"
s=$tmp/series
have_series=
if ! command -v spatch >/dev/null 2>&1; then
	t_skip "series.sh makes the toy's patches" "spatch is not installed (series.sh needs it; make deps)"
else
	kenv KIT_FIXES="$tmp/fx" SERIES_TREE="$tmp/tree" SERIES_OUT="$s" sh "$k/scripts/series.sh" $b >"$tmp/series.log" 2>&1; rc=$?
	want="toy-open-the-door.patch
toy-close-the-door.patch"
	if [ $rc -eq 0 ] && [ "$(cat "$s/series" 2>/dev/null)" = "$want" ] &&
		grep -q "^commit $Y upstream\.\$" "$s/toy-open-the-door.patch" &&
		grep -q "^commit $Z upstream\.\$" "$s/toy-close-the-door.patch" &&
		grep -q "^References: $toy\$" "$s/toy-close-the-door.patch" &&
		grep -q "fs/toy.c: hand hunk (.*/$toy/changes/Y-toy-open/hunks/$b.diff)" "$s/toy-open-the-door.patch"; then
		have_series=1
		t_ok "series.sh makes Y's then Z's patch from their hunks, with INFO's facts"
	else
		t_fail "series.sh makes the toy's patches" "rc=$rc" "$(tail -3 "$tmp/series.log")" "$(cat "$s/series" 2>&1)"
	fi
fi
if [ -n "$have_series" ]; then
	cp -R "$tmp/tree" "$tmp/patched"
	for p in $(cat "$s/series"); do patch -s -d "$tmp/patched" -p1 <"$s/$p" || echo "$p does not apply"; done >"$tmp/apply.log" 2>&1
	before=$(kenv sh "$k/scripts/fix-state.sh" "$tmp/tree" 2>&1 | grep -e '^Y-' -e '^Z-' | cut -d' ' -f1,3 | paste -sd' ' -)
	after=$(kenv sh "$k/scripts/fix-state.sh" "$tmp/patched" 2>&1 | grep -e '^Y-' -e '^Z-' | cut -d' ' -f1,3 | paste -sd' ' -)
	[ ! -s "$tmp/apply.log" ] && [ "$before" = "Y-toy-open missing Z-toy-close missing" ] &&
		[ "$after" = "Y-toy-open present Z-toy-close present" ] &&
		t_ok "the series applied to the tree: fix-state.sh (the whole kit) finds Y and Z present, missing before" ||
		t_fail "the series gives the tree Y and Z" "$(cat "$tmp/apply.log")" "before: $before" "after: $after"
fi

# the plan of a run over that tree: the whole kit, the series above
mkdir -p "$out/$b"
got=$(kenv PLAN_SERIES_DIR="$s" sh "$k/scripts/plan-series.sh" $b "$tmp/tree" "$out/$b/plan" 2>&1); rc=$?
[ $rc -eq 0 ] && [ "$got" = "$s" ] &&
	jq -e '.status == "full series" and ([.changes[] | select(.state == "missing") | .change] == ["Y-toy-open", "Z-toy-close"])
	  and ([.changes[] | select(.state != "missing") | .state] | all(. == "n/a"))' "$out/$b/plan/plan.json" >/dev/null &&
	t_ok "plan-series.sh over the tree: Y and Z missing (the kit's own changes n/a), the toy series planned" ||
	t_fail "plan-series.sh names Y and Z missing" "rc=$rc" "$got" "$(jq -c '[.status, (.changes[] | [.change, .state])]' "$out/$b/plan/plan.json" 2>&1)"

# --- parse ------------------------------------------------------------------
# the parser as make builds it in the copy: its fixes.h from the copy's
# fix folders (testvm/Makefile's default FIXES), written outside the copy
make -s -C "$k/testvm" OUT="$tmp/testvm" host >"$tmp/testvm.log" 2>&1 ||
	{ t_fail "build the parser from the copy's fix folders" "$(tail -5 "$tmp/testvm.log")"; t_done; exit 1; }
grep -q "{ \"$toy\", \"/bin/toy-64\", 3, 0, 0 }" "$tmp/testvm/fixes.h" &&
	t_ok "the copy's fixes.h lists the toy fix from its Guest: line" || t_fail "fixes.h lists the toy fix" "$(grep '{ "' "$tmp/testvm/fixes.h")"
# a serial log as the guest prints it (testvm/tests/toy-unreachable.log):
# only the toy's program ran, its block planned 3 tests
cat >"$tmp/survived.log" <<LOG
Linux version 0.0.0-toy (made up for scripts/tests/toy-fix-outputs.t: no kernel printed it)
KIT: init v3 runs=3 proc=ok
TAP version 13
1..3
KIT: fix $toy plan 3
KIT: fix $toy start
KIT: run 1 $toy precond: the toy door exists
ok 1 - $toy precond: the toy door exists
KIT: run 2 $toy cve-state: the toy door is shut after a failed open
ok 2 - $toy cve-state: the toy door is shut after a failed open
KIT: run 3 $toy regress: a good open still opens
ok 3 - $toy regress: a good open still opens
# $toy done passed=3 failed=0 skipped=0
KIT: fix $toy end status=0x0
KIT: done programs=1 failed=0
LOG
sed 's/^ok 2 - /not ok 2 - /; s/passed=3 failed=0/passed=2 failed=1/' "$tmp/survived.log" >"$tmp/vulnerable.log"
for v in survived vulnerable; do
	"$tmp/testvm/parse" --runs 3 "$tmp/$v.log" >"$tmp/$v.json" 2>"$tmp/parse.err" ||
		echo "parse exited $? on $v.log: $(cat "$tmp/parse.err")" >>"$tmp/parse.fail"
done
jq -e --arg f "$toy" '.fixes[$f] | .verdict == "SURVIVED" and .tests.planned == 3 and .tests.passed == 3' "$tmp/survived.json" >/dev/null &&
	t_ok "parse: the toy's block, every test passed: $toy SURVIVED" ||
	t_fail "parse: the toy's block SURVIVED" "$(cat "$tmp/parse.fail" 2>/dev/null)" "$(jq -c .fixes "$tmp/survived.json" 2>&1)"
jq -e --arg f "$toy" '.fixes[$f] | .verdict == "VULNERABLE" and (.failed_tests == ["\($f) cve-state: the toy door is shut after a failed open"])' "$tmp/vulnerable.json" >/dev/null &&
	t_ok "parse: its cve-state check failing: $toy VULNERABLE, the check named" ||
	t_fail "parse: the toy's block VULNERABLE" "$(jq -c .fixes "$tmp/vulnerable.json" 2>&1)"
# the parser knows the fix from the copy's folder, not from the log: an
# image whose runner ran no program still gets a verdict for it, never
# proven (a parser that did not know it would leave it out)
{ sed -n 1,3p "$tmp/survived.log"; printf '1..0\nKIT: done programs=0 failed=0\n'; } >"$tmp/none.log"
"$tmp/testvm/parse" --runs 3 "$tmp/none.log" >"$tmp/none.json" 2>&1
jq -e --arg f "$toy" '.fixes[$f].verdict == "NOT-TESTED" and .verdict != "SURVIVED"' "$tmp/none.json" >/dev/null &&
	t_ok "parse: a log without the toy's block: $toy NOT-TESTED, the boot not SURVIVED" ||
	t_fail "parse: the toy fix is known without its block" "$(cat "$tmp/none.log")" "$(cat "$tmp/none.json")"

# --- gate -------------------------------------------------------------------
kenv sh "$k/scripts/gate.sh" manifest "$out/$b" $b >"$tmp/gate.log" 2>&1; rc=$?
[ $rc -eq 0 ] && jq -e --arg f "$toy" '.kinds.unpatched.fixes[$f].expected == "VULNERABLE" and .kinds.patched.fixes[$f].expected == "SURVIVED"
  and .kinds.unpatched.expected == "VULNERABLE"' "$out/$b/manifest.json" >/dev/null &&
	t_ok "gate.sh manifest from the plan: $toy must be VULNERABLE unpatched, SURVIVED patched" ||
	t_fail "the manifest holds the toy fix" "rc=$rc" "$(cat "$tmp/gate.log")" "$(jq -c '.kinds | map_values(.fixes | map_values(.expected))' "$out/$b/manifest.json" 2>&1)"
# boot DIR KIND TOY.JSON: DIR/KIND/verify/boot.json, as verify-kernel.sh
# leaves it: the toy's entry the parser's, every other fix of the copy
# SURVIVED (the plan has none of their changes missing), the kernel's
# verdict the toy's
boot() {
	mkdir -p "$1/$2/verify" &&
	jq --arg f "$toy" --arg all "$fixes" '.fixes[$f] as $t
	  | {verdict: $t.verdict, signature: "\($f): \($t.signature)", seconds: 1.5, tests: $t.tests, failed_tests: $t.failed_tests,
	     fixes: (reduce ($all | split("\n")[] | select(. != "")) as $x ({};
	       .[$x] = {verdict: "SURVIVED", signature: "made up", tests: {planned: 1, passed: 1, failed: 0, skipped: 0}})
	       | .[$f] = $t)}' "$3" >"$1/$2/verify/boot.json"
}
boot "$out/$b" unpatched "$tmp/vulnerable.json"
boot "$out/$b" patched "$tmp/survived.json"
kenv sh "$k/scripts/gate.sh" "$out/$b" >"$tmp/gate.log" 2>&1; rc=$?
[ $rc -eq 0 ] && jq -e --arg f "$toy" '.status == "pass" and .fixes[$f].status == "fixed"
  and .kernels.unpatched.fixes[$f].verdict == "VULNERABLE" and .kernels.patched.fixes[$f].verdict == "SURVIVED"' "$out/$b/gate.json" >/dev/null &&
	t_ok "gate.sh: the gate passes, $toy fixed (unpatched VULNERABLE, patched SURVIVED)" ||
	t_fail "the gate: the toy fix fixed" "rc=$rc" "$(cat "$tmp/gate.log")" "$(jq -c --arg f "$toy" '{status, reasons, f: .fixes[$f]}' "$out/$b/gate.json" 2>&1)"
# the same run with the patched kernel left VULNERABLE by the toy
bad=$tmp/bad/$b
mkdir -p "$bad" && cp -R "$out/$b/plan" "$bad/" && cp "$out/$b/manifest.json" "$bad/"
boot "$bad" unpatched "$tmp/vulnerable.json"
boot "$bad" patched "$tmp/vulnerable.json"
kenv sh "$k/scripts/gate.sh" "$bad" >"$tmp/gate.log" 2>&1; rc=$?
[ $rc -eq 1 ] && jq -e --arg f "$toy" '.status == "fail" and .fixes[$f].status == "not fixed"
  and (.reasons | index("patched: \($f) VULNERABLE, must be SURVIVED") != null)' "$bad/gate.json" >/dev/null &&
	t_ok "gate.sh: a patched kernel the toy leaves VULNERABLE fails the gate (exit 1), the reason naming $toy" ||
	t_fail "a patched VULNERABLE toy fails the gate" "rc=$rc" "$(jq -c '{status, reasons}' "$bad/gate.json" 2>&1)"

# --- JUnit ------------------------------------------------------------------
# junit GATE.JSON FILE: "<failures> <name>" of the toy's testcase in the
# patched kernel's gate suite
junit() {
	sh "$k/testvm/junit.sh" $b "$2" "$1" 2>"$tmp/junit.err" &&
		python3 -c 'import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
for s in r.iter("testsuite"):
    if s.get("name") == sys.argv[3] + " patched gate":
        for c in s.iter("testcase"):
            if sys.argv[2] in c.get("name"):
                print(len(c.findall("failure")), c.get("name"))' "$2" "$toy" $b
}
if command -v python3 >/dev/null 2>&1; then
	j=$(junit "$out/$b/gate.json" "$tmp/j.xml")
	case $j in "0 "*"$toy"*) t_ok "junit.sh: the patched gate suite has a passing testcase for $toy ($j)" ;;
	*) t_fail "junit.sh: a testcase for the toy fix" "$j" "$(cat "$tmp/junit.err")" ;; esac
	j=$(junit "$bad/gate.json" "$tmp/jbad.xml")
	case $j in "1 "*"$toy"*) t_ok "junit.sh: in the failed gate that testcase fails" ;;
	*) t_fail "junit.sh: the toy's testcase fails in the failed gate" "$j" "$(cat "$tmp/junit.err")" ;; esac
else
	t_skip "junit.sh: a testcase for the toy fix" "python3 (the XML parser) is not installed"
fi

# --- records ----------------------------------------------------------------
# the run's result file as make verify leaves it: its boots the gate's
# kernels, the series it verified the toy series above (by its sha256)
digest=$(kenv sh -c '. "$KIT_ROOT/scripts/lib.sh" && series_digest "$1"' - "$s")
jq --arg d "$digest" --arg sd "$s" '{schema: 2, branch, base_commit: "22763c5cf3690a681551162c15d34d935308c8d7",
  boots: (.kernels | map_values({verdict, expected, tests, signature, seconds})),
  security: {status: "full series"},
  provenance: {kit_commit: "abc1234", recorded_at: "2026-12-04T10:00:00Z", series_sha256: $d, series_dir: $sd, series_from: "plan",
    gcc: "gcc (Debian 12.2.0-14) 12.2.0", binutils: "GNU ld (GNU Binutils for Debian) 2.40",
    spatch: "spatch version 1.1.1 x", qemu: "QEMU emulator version 7.2.22 (Debian)"}}' \
	"$out/$b/gate.json" >"$out/$b/result.json"
if [ -z "$have_series" ]; then
	t_skip "records.sh: the toy fix's records" "no series was made (see above)"
elif [ ! -x /usr/bin/jsonschema ] || ! /usr/bin/python3 -c 'import yaml' 2>/dev/null; then
	t_skip "records.sh: the toy fix's records" "python3-jsonschema or python3-yaml is not installed (make deps): records.sh validates with them"
else
	kenv sh "$k/scripts/records.sh" >"$tmp/records.log" 2>&1; rc=$?
	osv=$out/records/$toy.osv.json yml=$out/records/$toy.yml
	[ $rc -eq 0 ] && [ -s "$yml" ] && jq -e --arg b $b --arg y $Y --arg z $Z '.id == "x_KIT-CVE-2099-0001" and .aliases == ["CVE-2099-0001"]
	  and .affected[0].ranges[0].events == [{introduced: "0"}, {fixed: $y}]
	  and (.affected[0].database_specific.kit_branches[$b] | .status == "fixed"
	       and ([.series.patches[] | [.letter, .upstream, .role]] == [["Y", $y, "fix"], ["Z", $z, "related fix"]]))' "$osv" >/dev/null &&
		grep -q "^  \"kit/$b\": \[\"$Y\", \"$Z\"\]\$" "$yml" &&
		t_ok "records.sh writes $toy.osv.json and .yml (validated by records.sh), $b fixed by the series' Y and Z" ||
		t_fail "records.sh: the toy fix's records" "rc=$rc" "$(tail -3 "$tmp/records.log")" "$(jq -c '.affected[0].database_specific.kit_branches' "$osv" 2>&1 | cut -c1-400)"
fi

# --- report -----------------------------------------------------------------
kenv REPORT="$tmp/results.md" sh "$k/scripts/report.sh" >"$tmp/report.log" 2>&1; rc=$?
sed -n 3p "$tmp/results.md" 2>/dev/null >"$tmp/summary"
[ $rc -eq 0 ] && grep -q "^\*\*Summary:\*\* .*$toy: fixed and proven on 1;" "$tmp/summary" &&
	grep -q "^| branch | gate | .*| $toy |\$" "$tmp/results.md" && grep -q "^| $b | pass | .* | fixed and proven |\$" "$tmp/results.md" &&
	t_ok "report.sh: the summary sentence at the top names $toy fixed, and its matrix has a $toy column" ||
	t_fail "report.sh: the summary names the toy fix" "rc=$rc" "$(tail -3 "$tmp/report.log")" "$(sed -n 3,7p "$tmp/results.md" 2>&1)"
grep -q "^| $b | pass | .*$toy fixed" "$tmp/results.md" &&
	t_ok "report.sh: the gate table's $b row names $toy fixed" ||
	t_fail "report.sh: the gate table names the toy fix" "$(grep "^| $b |" "$tmp/results.md" 2>&1 | head -5)"

# --- nothing else was edited ------------------------------------------------
st=$(git -C "$k" status --porcelain --untracked-files=normal)
[ "$st" = "?? backports/fixes/$toy/" ] && t_ok "git status in the copy: only the new folder (every output went to OUT or the series folder)" ||
	t_fail "git status: only the new folder" "$st"
t_done
