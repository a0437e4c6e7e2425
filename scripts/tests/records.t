#!/bin/sh
# records.sh: fix records (OSV JSON, cip-kernel-sec YAML) from fixture
# result files: both made, the OSV one valid against the OSV schema, the
# YAML parsed by a YAML parser and naming each branch; a branch claimed
# fixed only with the series its run verified (patch ids from the quilt
# patches, or from make mbox's mails when they are there); bad input
# refused with the records left as they were; the validator fails on
# broken records.  One record pair per fix of the series (CVE-2010-0307,
# CVE-2010-3081), each fix's status the gate's (scripts/gate.sh, run here
# on fixture boot records): "fixed" only where the branch's gate passed as
# a whole; none for a records/<CVE>.json no change references.  The
# cip-kernel-sec side: fixed-by under that project's branch names
# (mainline, stable/<version> from STABLE_GIT, kit/<branch>), each defined
# in kernel-sec-branches.yml or mainline, reporters from the FIX, checked
# with jq always; and with CIP_KERNEL_SEC=<path to a cip-kernel-sec tree>
# (a checkout or an export of it; none of its files is in the kit) by
# that project's own scripts/validate.py and kernel_sec/branch.py too,
# which need python3-yaml (and html5lib, stood in for when missing: it
# only reads kernel.org); unset, that case says SKIP with the reason
# (scripts/records/README.md).  One of the longest unit files: records.sh
# runs some fifteen times (its time in run-tests.sh's "--- FILE" line).
cd "$(dirname "$0")/../.." || exit 2
. ci/tap.sh
# the machine's STABLE_GIT (its configuration) is not this test's: none,
# but where a case sets its own
STABLE_GIT=; export STABLE_GIT
KIT_ROOT=$(pwd) . scripts/lib.sh
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
PY=/usr/bin/python3
yjson() { "$PY" -c 'import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout, default=str)' "$1"; }
# result <branch> <gate> <unpatched verdict> <patched verdict> <series sha256>
# writes the run as make verify leaves it: result.json, the manifest
# (both fixes missing: VULNERABLE unpatched, SURVIVED patched), each
# kernel's boot.json (every fix that kernel's verdict), and the gate's
# record made from them by scripts/gate.sh, which records.sh reads; the
# gate's status must come out as <gate>.
result() {
	mkdir -p "$t/out/$1"
	jq -n --arg b "$1" --arg u "$3" --arg p "$4" --arg d "$5" '
	  def boot(v; e; f): {verdict: v, expected: e, tests: {passed: 40, failed: f, skipped: 0}, seconds: 1.5, signature: "sig \(v)"};
	  {schema: 2, branch: $b, base_commit: "22763c5cf3690a681551162c15d34d935308c8d7",
	   boots: {unpatched: boot($u; "VULNERABLE"; 4), patched: boot($p; "SURVIVED"; (if $p == "SURVIVED" then 0 else 2 end))},
	   security: {status: "full series"},
	   provenance: {kit_commit: "abc1234", recorded_at: "2026-12-04T10:00:00Z", series_sha256: $d}}' >"$t/out/$1/result.json"
	jq -n --arg b "$1" '{schema: 1, name: $b, branch: $b, plan: "full series",
	  kinds: {unpatched: {expected: "VULNERABLE", fixes: {"CVE-2010-0307": {expected: "VULNERABLE", why: "t"}, "CVE-2010-3081": {expected: "VULNERABLE", why: "t"}}},
	          patched: {expected: "SURVIVED", fixes: {"CVE-2010-0307": {expected: "SURVIVED", why: "t"}, "CVE-2010-3081": {expected: "SURVIVED", why: "t"}}}}}' \
		>"$t/out/$1/manifest.json"
	for k in unpatched patched; do
		mkdir -p "$t/out/$1/$k/verify"
		jq --arg k "$k" '.boots[$k] | . + {fixes: {"CVE-2010-0307": {verdict, signature, tests}, "CVE-2010-3081": {verdict, signature, tests}}}' \
			"$t/out/$1/result.json" >"$t/out/$1/$k/verify/boot.json"
	done
	gate "$1" "$2"
}
# gate <branch> <status>: the gate over the branch's boots, as make verify runs it
gate() {
	OUT=$t/out sh scripts/gate.sh "$t/out/$1" >/dev/null 2>&1
	[ "$(jq -r .status "$t/out/$1/gate.json")" = "$2" ] || echo "records.t: the gate of $1 is not $2" >&2
}
osv=$t/out/records/CVE-2010-0307.osv.json yml=$t/out/records/CVE-2010-0307.yml
run() { out=$(OUT=$t/out sh scripts/records.sh 2>&1); rc=$?; }
same() { cmp -s "$osv" "$t/osv.before" && cmp -s "$yml" "$t/yml.before"; }
keep() { cp "$osv" "$t/osv.before" && cp "$yml" "$t/yml.before"; }

result v2.6.32 pass VULNERABLE SURVIVED "$(series_digest backports/v2.6.32)"
result v2.6.26 fail VULNERABLE REGRESSED "$(series_digest backports/v2.6.26)"
run
[ $rc -eq 0 ] && [ -s "$osv" ] && [ -s "$yml" ] && t_ok "two result files: both records written (exit 0)" ||
	t_fail "records written" "rc=$rc" "$out"
/usr/bin/jsonschema -i "$osv" scripts/records/osv-schema.json >"$t/err" 2>&1 &&
	t_ok "the OSV record validates against the OSV schema (jsonschema, Debian)" ||
	t_fail "OSV record valid" "$(cat "$t/err")"
jq -e '.id == "x_KIT-CVE-2010-0307" and .aliases == ["CVE-2010-0307"]
  and .affected[0].package == {ecosystem: "Linux", name: "Kernel"}
  and .affected[0].ranges[0].events == [{introduced: "0"}, {fixed: "221af7f87b97431e3ee21ce4b0e77d5411cf1549"}]
  and .affected[0].versions == ["2.6.26", "2.6.32"]
  and (.affected[0].database_specific.kit_branches | .["v2.6.32"].status == "fixed" and .["v2.6.26"].status == "not fixed"
       and .["v2.6.26"].series == null)' "$osv" >/dev/null &&
	t_ok "OSV: our own id with the CVE as alias, Linux/Kernel, fixed at 221af7f87b97, per-branch status" ||
	t_fail "OSV content" "$(jq -c '{id, aliases, a: .affected[0] | {package, ranges, versions}}' "$osv")"
if yjson "$yml" >"$t/y.json" 2>"$t/err"; then
	jq -e '(.comments | has("kit/v2.6.32") and has("kit/v2.6.26"))
	  and (."fixed-by" | has("kit/v2.6.32") and (has("kit/v2.6.26") | not))
	  and ."fixed-by".mainline[0] == "221af7f87b97431e3ee21ce4b0e77d5411cf1549"
	  and ."introduced-by".mainline == ["1da177e4c3f41524e886b7f1b8a0c1fc7321cac2"]' "$t/y.json" >/dev/null &&
		t_ok "the YAML parses (PyYAML), names each branch, and lists in fixed-by only the branch whose gate passed" ||
		t_fail "YAML content" "$(jq -c '{c: (.comments | keys), f: ."fixed-by"}' "$t/y.json")"
else t_fail "the YAML parses" "$(tail -2 "$t/err")"; fi
# The patch ids are those of the committed series, computed here apart:
# the patches of the changes whose INFO says References: CVE-2010-0307
# (A-H; I, CVE-2010-3081, is in the series but not in this record).
ids0307=$(grep -l '^References: CVE-2010-0307$' backports/fixes/*/changes/*/INFO | xargs sed -n 's/^Upstream: //p')
want=$(for p in $(grep -v '^#' backports/v2.6.32/series); do
	u=$(sed -n 's/^Git-commit: //p' "backports/v2.6.32/$p")
	printf '%s\n' "$ids0307" | grep -qx "$u" && git patch-id --stable <"backports/v2.6.32/$p" | cut -d' ' -f1
done)
got=$(jq -r '.affected[0].database_specific.kit_branches["v2.6.32"].series | select(.patch_ids_from == "quilt") | .patches[].patch_id' "$osv")
[ -n "$want" ] && [ "$want" = "$got" ] && grep -q "$(printf '%s\n' "$want" | head -1)" "$yml" &&
	t_ok "no mbox in OUT: the patch ids are the quilt patches' (git patch-id --stable), in both records" ||
	t_fail "patch ids from the quilt patches" "want: $want" "got: $got"
I=c41d68a513c71e35a14f66d71782d27a79a81ea6
# patch_of <upstream id>: the patch of backports/v2.6.32 that carries it
patch_of() { grep -l "^commit $1 upstream.\$" backports/v2.6.32/*.patch | head -1; }
[ "$(printf '%s\n' "$want" | wc -l)" -eq 8 ] && [ -n "$(patch_of $I)" ] &&
	jq -e --arg i "$I" '(.database_specific.upstream_changes | map(.upstream) | index($i) == null)
	  and (.database_specific.upstream_changes | length == 8)
	  and (.affected[0].database_specific.kit_branches["v2.6.32"].series | (.patches | map(.upstream) | index($i) == null) and (.patches | length == 8))' "$osv" >/dev/null &&
	jq -e --arg i "$I" '."fixed-by"["kit/v2.6.32"] | length == 8 and index($i) == null' "$t/y.json" >/dev/null &&
	t_ok "CVE-2010-3081's I, a patch of the verified series, is in neither CVE-2010-0307 record (References: decides)" ||
	t_fail "I is not in the CVE-2010-0307 records" "$(jq -c '.database_specific.upstream_changes | map(.letter)' "$osv")"
grep -q -e "$t" -e "$(pwd)" "$osv" "$yml" && t_fail "no path of this machine in the records" ||
	t_ok "no path of this machine in the records"

# make mbox's mails, when there: the ids come from them, each checked.
mkdir -p "$t/out/v2.6.32/mbox"
n=0; for p in $(grep -v '^#' backports/v2.6.32/series); do
	n=$((n + 1)); cp "backports/v2.6.32/$p" "$t/out/v2.6.32/mbox/$(printf '%04d' $n)-$p"
done
run
[ $rc -eq 0 ] && jq -e '.affected[0].database_specific.kit_branches["v2.6.32"].series.patch_ids_from == "mbox"' "$osv" >/dev/null &&
	grep -q 'patch-id --stable from the make mbox mails' "$yml" &&
	t_ok "with OUT/<b>/mbox/ the patch ids are the mails', and both records say so" || t_fail "patch ids from the mbox" "rc=$rc" "$out"
keep
m=$(ls "$t/out/v2.6.32/mbox/" | sed -n 3p)
# (patch-id ignores white space: the change must be a word)
sed -i '0,/^+[^+]/s/^+\([^+].*\)$/+\1 stale/' "$t/out/v2.6.32/mbox/$m"
run
[ $rc -eq 1 ] && printf '%s' "$out" | grep -q "mail .*$m does not carry" && same &&
	t_ok "a mail whose diff is not the series' patch: exit 1, the mail named, the records unchanged" ||
	t_fail "a stale mail refused" "rc=$rc" "$out"
rm -rf "$t/out/v2.6.32/mbox"

# A gate-pass result whose series changed since: no claim is made.
result v2.6.32 pass VULNERABLE SURVIVED 0000
run
[ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'verified the series with sha256 0000' && same &&
	t_ok "the series changed since the run: exit 1, says so, the records unchanged" || t_fail "changed series refused" "rc=$rc" "$out"
# The unpatched kernel not booted in this run: the gate fails, not "fixed".
result v2.6.32 pass VULNERABLE SURVIVED "$(series_digest backports/v2.6.32)"
rm "$t/out/v2.6.32/unpatched/verify/boot.json"
gate v2.6.32 fail
run
[ $rc -eq 0 ] && yjson "$yml" | jq -e '."fixed-by" | has("kit/v2.6.32") | not' >/dev/null &&
	jq -e '.affected[0].database_specific.kit_branches["v2.6.32"] | .status != "fixed" and .gate == "fail"' "$osv" >/dev/null &&
	t_ok "the unpatched kernel not booted: the gate failed, not claimed fixed, not in fixed-by" || t_fail "no unpatched boot" "rc=$rc" "$out"
result v2.6.32 pass VULNERABLE SURVIVED "$(series_digest backports/v2.6.32)"
run; keep

# A record that lies is refused before anything is claimed from it
# (scripts/result-check.sh), in one line naming the file and the field.
# lie <name> <file> <jq edit> <field and what is wrong>
lie() {
	jq "$3" "$2" >"$t/lie" && mv "$t/lie" "$2"
	run
	[ $rc -eq 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
		printf '%s' "$out" | grep -qF "records.sh: error: $2 is not a" && printf '%s' "$out" | grep -qF -- "$4" && same &&
		t_ok "$1: exit 1, one line naming the file and the field, the records unchanged" || t_fail "$1" "rc=$rc" "$out"
	result v2.6.26 fail VULNERABLE REGRESSED "$(series_digest backports/v2.6.26)"
}
r26=$t/out/v2.6.26/result.json g26=$t/out/v2.6.26/gate.json
lie "result.json of another layout (schema 99)" "$r26" '.schema = 99' '.schema is 99, not 2'
lie "a verdict the kit does not define (PWNED)" "$r26" '.boots.patched.verdict = "PWNED"' '.boots.patched.verdict is "PWNED", not a verdict the kit defines'
lie "a test count below zero (3/7/-2)" "$r26" '.boots.unpatched.tests = {passed: 3, failed: 7, skipped: -2}' '.boots.unpatched.tests.skipped is -2, not a count'
lie "a gate record that passes over a patched REGRESSED and calls the fix fixed" "$g26" \
	'.status = "pass" | .reasons = [] | .fixes |= map_values({status: "fixed", why: "x"})' '.status is "pass", but its kernels disagree: patched is REGRESSED, must be SURVIVED'
lie "a fix called fixed by a failed gate" "$g26" '.fixes["CVE-2010-0307"].status = "fixed"' \
	'.fixes.CVE-2010-0307.status is "fixed", but the gate failed'
run
[ $rc -eq 0 ] && same && t_ok "the records made again from the good files are the same" || t_fail "good again" "rc=$rc" "$out"

head -c 100 "$t/out/v2.6.26/result.json" >"$t/r" && mv "$t/r" "$t/out/v2.6.26/result.json"
run
[ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'v2.6.26/result.json is not a readable result file' && same &&
	t_ok "a truncated result.json: exit 1, the file named, the records unchanged" || t_fail "truncated result refused" "rc=$rc" "$out"
out=$(OUT=$t/empty sh scripts/records.sh 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q 'nothing to record' && [ ! -e "$t/empty/records" ] &&
	t_ok "an empty output root: exit 2, nothing to record, nothing written" || t_fail "empty OUT refused" "rc=$rc" "$out"

# The validator can fail: each broken record is refused.
check() { out=$(sh scripts/records.sh --check "$@" 2>&1); rc=$?; }
check "$osv" "$yml" v2.6.32
[ $rc -eq 0 ] && t_ok "--check passes the records written" || t_fail "--check on good records" "rc=$rc" "$out"
broken() { # broken <name> <pattern> <osv> <yml> [branch...]
	_n=$1 _p=$2; shift 2; check "$@"
	# the message names the broken file, and only it
	_f=$1; case $_p in *YAML* | *cip* | *"name branch"*) _f=$2 ;; esac
	[ $rc -eq 1 ] && printf '%s' "$out" | grep -qF -- "$_f $_p" &&
		[ "$(printf '%s\n' "$out" | grep -c ' does not \| breaks ')" -eq 1 ] && t_ok "$_n" || t_fail "$_n" "rc=$rc" "$out"
}
jq '.id = "KIT-CVE-2010-0307"' "$osv" >"$t/b1.json"
broken "an OSV id without a known prefix or x_ fails the schema" "does not validate against the OSV schema" "$t/b1.json" "$yml"
jq '.affected[0].ranges[0].events[1].fixed = "221af7f87b97"' "$osv" >"$t/b2.json"
broken "a short commit id in a GIT range fails the schema" "does not validate against the OSV schema" "$t/b2.json" "$yml"
jq 'del(.modified)' "$osv" >"$t/b3.json"
broken "an OSV record without modified fails the schema" "does not validate against the OSV schema" "$t/b3.json" "$yml"
sed 's/"221af7f87b97431e3ee21ce4b0e77d5411cf1549"/"221af7f87b97"/' "$yml" >"$t/b4.yml"
broken "a short id in fixed-by breaks cip-kernel-sec's rules" "breaks cip-kernel-sec's field rules" "$osv" "$t/b4.yml"
{ cat "$yml"; echo "tracker-notes: something cip-kernel-sec does not know"; } >"$t/b5.yml"
broken "a field cip-kernel-sec does not know breaks its rules" "breaks cip-kernel-sec's field rules" "$osv" "$t/b5.yml"
sed '1s/^description: |-$/description: [unclosed/' "$yml" >"$t/b6.yml"
broken "YAML that does not parse is refused" "does not parse as YAML" "$osv" "$t/b6.yml"
broken "a branch the YAML does not name is refused" "does not name branch v2.6.30" "$osv" "$yml" v2.6.30

# Both fixes of the series: one OSV and one YAML each, valid.
o81=$t/out/records/CVE-2010-3081.osv.json y81=$t/out/records/CVE-2010-3081.yml
[ -s "$o81" ] && [ -s "$y81" ] && check "$o81" "$y81" v2.6.32 && [ $rc -eq 0 ] &&
	jq -e '.id == "x_KIT-CVE-2010-3081" and .aliases == ["CVE-2010-3081"]
	  and .affected[0].ranges[0].events == [{introduced: "42908c69f61f75dd70e424263ab89ee52040382b"}, {fixed: "c41d68a513c71e35a14f66d71782d27a79a81ea6"}]
	  and (.database_specific.upstream_changes | map(.letter)) == ["I"]' "$o81" >/dev/null &&
	t_ok "CVE-2010-3081's records written beside CVE-2010-0307's, valid (OSV schema, YAML, cip rules), introduced at its FIX's Introduced-by (42908c69), fixed at c41d68a5, change I only" ||
	t_fail "CVE-2010-3081 records" "rc=$rc" "$out" "$(ls "$t/out/records")"

# Per-fix verdicts: fx <branch> <fix> <unpatched verdict> <patched
# verdict> sets that fix's verdict in both boots, then the gate again.
fx() {
	for k in unpatched patched; do
		v=$3; [ $k = unpatched ] || v=$4
		jq --arg c "$2" --arg v "$v" '.fixes[$c] = {verdict: $v, signature: "\($c) sig \($v)",
		  tests: {passed: 7, failed: (if $v == "SURVIVED" then 0 else 1 end), skipped: 0}, failed_tests: []}' \
			"$t/out/$1/$k/verify/boot.json" >"$t/r" && mv "$t/r" "$t/out/$1/$k/verify/boot.json"
	done
	OUT=$t/out sh scripts/gate.sh "$t/out/$1" >/dev/null 2>&1
}
st() { jq -r --arg b "$2" '.affected[0].database_specific.kit_branches[$b].status' "$t/out/records/$1.osv.json"; }
claimed() { yjson "$t/out/records/$1.yml" | jq -e --arg k "kit/$2" '."fixed-by" | has($k)' >/dev/null; }
rm -rf "$t/out/v2.6.26"
I_id=$(git patch-id --stable <"$(patch_of $I)" | cut -d' ' -f1)
result v2.6.32 pass VULNERABLE SURVIVED "$(series_digest backports/v2.6.32)"
fx v2.6.32 CVE-2010-0307 VULNERABLE SURVIVED
# A patched kernel that is not SURVIVED for one fix fails the branch's
# gate, and then no fix of that branch is claimed fixed: the other fix's
# SURVIVED was measured on a kernel the gate did not accept.
for v in REGRESSED VULNERABLE NOT-TESTED; do
	fx v2.6.32 CVE-2010-3081 VULNERABLE $v
	run
	[ $rc -eq 0 ] && [ "$(st CVE-2010-0307 v2.6.32)" = "not fixed" ] && ! claimed CVE-2010-0307 v2.6.32 &&
		[ "$(st CVE-2010-3081 v2.6.32)" = "$([ $v = NOT-TESTED ] && echo 'not tested' || echo 'not fixed')" ] &&
		! claimed CVE-2010-3081 v2.6.32 &&
		jq -e '.affected[0].database_specific.kit_branches["v2.6.32"] | .series == null and .gate == "fail" and .verdicts.patched.verdict == "'$v'"' "$o81" >/dev/null &&
		jq -e '.affected[0].database_specific.kit_branches["v2.6.32"] | .series == null and .gate == "fail"' "$osv" >/dev/null &&
		yjson "$yml" | jq -e '.comments["kit/v2.6.32"] | startswith("v2.6.32 (mainline 2.6.32, 22763c5cf369): not fixed; gate fail (the branch'"'"'s gate failed: patched: CVE-2010-3081 '$v', must be SURVIVED")' >/dev/null &&
		t_ok "patched kernel $v for CVE-2010-3081, SURVIVED for CVE-2010-0307: the gate failed, neither fix claimed, the branch's text says why" ||
		t_fail "patched $v in one fix: nothing claimed" "rc=$rc" "$out" "0307: $(st CVE-2010-0307 v2.6.32), 3081: $(st CVE-2010-3081 v2.6.32)" \
			"$(yjson "$yml" | jq -r '.comments["kit/v2.6.32"]' | head -2)"
done
fx v2.6.32 CVE-2010-3081 VULNERABLE SURVIVED
run
[ $rc -eq 0 ] && [ "$(st CVE-2010-3081 v2.6.32)" = fixed ] && claimed CVE-2010-3081 v2.6.32 &&
	jq -e --arg i "$I_id" '.affected[0].database_specific.kit_branches["v2.6.32"].series.patches
	  | length == 1 and .[0].letter == "I" and .[0].patch_id == $i and .[0].n == 9' "$o81" >/dev/null &&
	[ "$(yjson "$y81" | jq -c '."fixed-by"["kit/v2.6.32"]')" = '["c41d68a513c71e35a14f66d71782d27a79a81ea6"]' ] &&
	jq -e '.affected[0].database_specific.kit_branches["v2.6.32"].series.patches | length == 8' "$osv" >/dev/null &&
	t_ok "both fixes SURVIVED: CVE-2010-3081 claimed with I alone (9th patch, its patch id), CVE-2010-0307 with A-H" ||
	t_fail "3081 claimed with I" "rc=$rc" "$out" "$(jq -c '.affected[0].database_specific.kit_branches["v2.6.32"].series' "$o81")"
# the unpatched kernel must show the fix too
fx v2.6.32 CVE-2010-3081 NOT-TESTED SURVIVED
run
[ $rc -eq 0 ] && [ "$(st CVE-2010-3081 v2.6.32)" = "not tested" ] && ! claimed CVE-2010-3081 v2.6.32 &&
	[ "$(st CVE-2010-0307 v2.6.32)" = "not fixed" ] && ! claimed CVE-2010-0307 v2.6.32 &&
	t_ok "CVE-2010-3081 NOT-TESTED on the unpatched kernel: the gate failed; 'not tested', neither fix claimed" ||
	t_fail "3081 unpatched NOT-TESTED" "rc=$rc" "$out" "3081: $(st CVE-2010-3081 v2.6.32)"
# manifest <jq>: change what the run's manifest requires, then the gate again
manifest() {
	jq "$1" "$t/out/v2.6.32/manifest.json" >"$t/r" && mv "$t/r" "$t/out/v2.6.32/manifest.json" &&
		touch "$t"/out/v2.6.32/*/verify/boot.json && OUT=$t/out sh scripts/gate.sh "$t/out/v2.6.32" >/dev/null 2>&1
}
# a tree that already carries CVE-2010-3081's fix: the manifest requires
# its unpatched kernel SURVIVED for it, and got it
fx v2.6.32 CVE-2010-3081 SURVIVED SURVIVED
manifest '.kinds.unpatched.fixes["CVE-2010-3081"].expected = "SURVIVED"'
run
[ $rc -eq 0 ] && [ "$(st CVE-2010-3081 v2.6.32)" = "already fixed" ] && ! claimed CVE-2010-3081 v2.6.32 &&
	[ "$(st CVE-2010-0307 v2.6.32)" = fixed ] && claimed CVE-2010-0307 v2.6.32 &&
	t_ok "CVE-2010-3081 SURVIVED unpatched where the manifest required it (the tree has the fix): 'already fixed', no series claimed; CVE-2010-0307 fixed" ||
	t_fail "3081 already in the tree" "rc=$rc" "$out" "3081: $(st CVE-2010-3081 v2.6.32)"
# UNREACHABLE where a FIX's Expect: line allows it: the gate passes, and
# the records say what is true, which is not "fixed"
fx v2.6.32 CVE-2010-3081 UNREACHABLE SURVIVED
manifest '.kinds.unpatched.fixes["CVE-2010-3081"].expected = "UNREACHABLE"'
run
[ $rc -eq 0 ] && [ "$(st CVE-2010-3081 v2.6.32)" = "flaw present, not reachable; fix applied" ] && ! claimed CVE-2010-3081 v2.6.32 &&
	[ "$(st CVE-2010-0307 v2.6.32)" = fixed ] &&
	t_ok "CVE-2010-3081 UNREACHABLE unpatched where expected: 'flaw present, not reachable; fix applied', not in fixed-by" ||
	t_fail "3081 unreachable" "rc=$rc" "$out" "3081: $(st CVE-2010-3081 v2.6.32)"

# Which fixes get records is the series' References: lines, in a copy of
# the kit (the committed tree is never edited): a fix folder with a FIX
# and a record.json but no change makes none.
k=$t/kit; mkdir -p "$k"; cp -r scripts backports branches "$k/"
jq '.cve = "CVE-2099-0001" | .osv_id = "x_KIT-CVE-2099-0001" | .roles = {"Z": {role: "fix", note: "none"}}' \
	backports/fixes/CVE-2010-3081/record.json >"$t/r" && mkdir -p "$k/backports/fixes/CVE-2099-0001" &&
	mv "$t/r" "$k/backports/fixes/CVE-2099-0001/record.json" &&
	printf 'Id: CVE-2099-0001\nTitle: a fix folder with no change (a test)\n' >"$k/backports/fixes/CVE-2099-0001/FIX"
sed -i '/^Credit: .*(reporter)$/d' "$k/backports/fixes/CVE-2010-3081/FIX"
rm -rf "$t/out/records"
out=$(OUT=$t/out KIT_ROOT=$k sh "$k/scripts/records.sh" 2>&1); rc=$?
want=$(for f in $(KIT_ROOT=$PWD sh -c '. scripts/lib.sh && kit_fixes'); do printf '%s.osv.json %s.yml ' "$f" "$f"; done; echo "kernel-sec-branches.yml ")
[ $rc -eq 0 ] && [ "$(cd "$t/out/records" && ls | tr '\n' ' ')" = "$want" ] &&
	[ "$(yjson "$t/out/records/CVE-2010-3081.yml" | jq -c .reporters)" = null ] &&
	t_ok "a <fix>/record.json no change of the series references makes no record; a FIX without a (reporter) Credit: line, no reporters key" ||
	t_fail "no record without a change" "rc=$rc" "$out" "$(ls "$t/out/records" 2>&1)"
keep_all() { for f in "$t"/out/records/*; do cp "$f" "$f.before"; done; }
keep_all
# a FIX Upstream: line naming no change of that fix (I is CVE-2010-3081's):
# refused, nothing written
cp "$k/backports/fixes/CVE-2010-0307/FIX" "$t/fix.0307"
sed -i "0,/^Upstream: /s//Upstream: $I\nUpstream: /" "$k/backports/fixes/CVE-2010-0307/FIX"
out=$(OUT=$t/out KIT_ROOT=$k sh "$k/scripts/records.sh" 2>&1); rc=$?
unchanged=1; for f in "$t"/out/records/*.before; do cmp -s "$f" "${f%.before}" || unchanged=; done
[ $rc -eq 1 ] && [ "$(printf '%s\n' "$out" | grep -c 'error')" -eq 1 ] &&
	printf '%s' "$out" | grep -q "FIX: Upstream: $I is no change of CVE-2010-0307 (" && [ -n "$unchanged" ] &&
	t_ok "a FIX Upstream: line naming another fix's change: exit 1, named, the records unchanged" ||
	t_fail "FIX Upstream: of another fix's change refused" "rc=$rc" "$out"
cp "$t/fix.0307" "$k/backports/fixes/CVE-2010-0307/FIX"
rm "$k/backports/fixes/CVE-2010-3081/record.json"
out=$(OUT=$t/out KIT_ROOT=$k sh "$k/scripts/records.sh" 2>&1); rc=$?
unchanged=1; for f in "$t"/out/records/*.before; do cmp -s "$f" "${f%.before}" || unchanged=; done
[ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'carries CVE-2010-3081 (References: of I-compat-alloc-user-space) but backports/fixes/CVE-2010-3081/record.json does not exist' &&
	[ -n "$unchanged" ] &&
	t_ok "a fix of the series without its <fix>/record.json: exit 1, named, the records unchanged" ||
	t_fail "fix without facts refused" "rc=$rc" "$out"

# STABLE_GIT: a made-up stable tree (no kernel text: an empty-tree history
# whose one message names A's upstream id in the stable form, tags
# v2.6.32.7 before it and v2.6.32.8 after).  The OSV record gets a GIT
# range on the stable repository with that commit as a fixed event and
# its first release; an OSV consumer's check (a commit is affected by a
# GIT range when it descends from an introduced event and from no fixed
# event in the repository) then counts v2.6.32.8, by tag or by commit, as
# fixed for CVE-2010-0307 and v2.6.32.7 as affected.  Files 0644 under
# umask 022.
A_up=$(sed -n 's/^Upstream: //p' backports/fixes/CVE-2010-0307/changes/A-*/INFO)
sg=$t/stable; git init -q "$sg"
gc() { GIT_AUTHOR_NAME=U GIT_AUTHOR_EMAIL=u@unit.example GIT_COMMITTER_NAME=U GIT_COMMITTER_EMAIL=u@unit.example \
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null git -C "$sg" "$@"; }
gc commit -q --allow-empty -m base; gc tag v2.6.32.7
gc commit -q --allow-empty -m "demo: stand-in for A

commit $A_up upstream.

Made-up text."
S=$(gc rev-parse HEAD)
# ... and after it the stand-ins for B-E (CVE-2010-0307's other changes
# with role fix) and for J alone of CVE-2010-3301's J and K
for L in B C D E J; do
	gc commit -q --allow-empty -m "demo: stand-in for $L

commit $(sed -n 's/^Upstream: //p' backports/fixes/*/changes/$L-*/INFO) upstream.

Made-up text."
	eval "S_$L=\$(gc rev-parse HEAD)"
done
gc commit -q --allow-empty -m 'Linux 2.6.32.8'; gc tag v2.6.32.8
rm -rf "$t/out/records"
out=$(umask 022 && OUT=$t/out STABLE_GIT="$sg" sh scripts/records.sh 2>&1); rc=$?
srepo=https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git
[ $rc -eq 0 ] && jq -e --arg s "$S" --arg r "$srepo" '[.affected[0].ranges[] | select(.repo == $r)] | length == 1 and
	  (.[0].events | index({fixed: $s}) != null) and (.[0].database_specific.stable_fixes | any(.commit == $s and .letter == "A" and .first_release == "2.6.32.8"))' "$osv" >/dev/null &&
	jq -e '.credits | any(.name == "Linus Torvalds" and .type == "REMEDIATION_DEVELOPER")' "$osv" >/dev/null &&
	[ "$(stat -c %a "$osv" "$yml" | sort -u)" = 644 ] &&
	t_ok "STABLE_GIT: the stable commit naming A is a fixed event of a GIT range on the stable repository, with its first release (tag v2.6.32.8); credits; files 0644" ||
	t_fail "stable fixed events" "rc=$rc" "$out" "$(jq -c '.affected[0].ranges' "$osv" 2>&1 | cut -c1-600)"
# osv_affected COMMIT: the consumer's answer for the record's stable-repo ranges
osv_affected() {
	jq -r --arg r "$srepo" '.affected[].ranges[] | select(.type == "GIT" and .repo == $r) | .events | @json' "$osv" |
	while IFS= read -r ev; do
		in=; fixed=
		for i in $(printf '%s' "$ev" | jq -r '.[] | .introduced // empty'); do
			{ [ "$i" = 0 ] || gc merge-base --is-ancestor "$i" "$1" 2>/dev/null; } && in=1
		done
		for f in $(printf '%s' "$ev" | jq -r '.[] | .fixed // empty'); do
			gc merge-base --is-ancestor "$f" "$1" 2>/dev/null && fixed=1
		done
		[ -n "$in" ] && [ -z "$fixed" ] && echo affected
	done | grep -q affected
}
if ! osv_affected "$(gc rev-parse 'v2.6.32.8^{commit}')" && ! osv_affected "$S" &&
	osv_affected "$(gc rev-parse 'v2.6.32.7^{commit}')"; then
	t_ok "an OSV consumer's GIT-range check: stable 2.6.32.8 (its tag) and the stable commit count as fixed for CVE-2010-0307, 2.6.32.7 as affected"
else t_fail "OSV consumer check on the stable range" "$(jq -c '.affected[0].ranges[1]' "$osv" 2>&1 | cut -c1-400)"; fi
out=$(OUT=$t/out STABLE_GIT="$t/nothing-here" sh scripts/records.sh 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s' "$out" | grep -q "STABLE_GIT word '$t/nothing-here' is not a folder" &&
	t_ok "a STABLE_GIT word that is no folder: exit 2, one line" || t_fail "bad STABLE_GIT refused" "rc=$rc" "$out"

# cip-kernel-sec: the issue files and the branches file as that project's
# own tooling reads them.  The branch names of every fixed-by are ones it
# knows: mainline, or defined in kernel-sec-branches.yml (kit/<b>, and the
# stable/<version> it drops once kernel.org lists it as end-of-life);
# stable/2.6.32 lists the stable commits of A-E (all five, in that order),
# CVE-2010-3301 none (the stable history has J, not K); reporters from
# the FIX's "(reporter)" Credit: lines.  Checked here with jq, always.
kbf=$t/out/records/kernel-sec-branches.yml
if yjson "$kbf" >"$t/kbf.json" 2>"$t/err"; then
	bad=
	for f in "$t"/out/records/CVE-*.yml; do
		yjson "$f" | jq -e --slurpfile k "$t/kbf.json" '([$k[0][] | .short_name] + ["mainline"]) as $d
		  | [."fixed-by", ."introduced-by" | keys[]] - $d | length == 0' >/dev/null || bad="$bad ${f##*/}"
	done
	[ -z "$bad" ] &&
		jq -e '(map(select(.short_name == "kit/v2.6.32")) == [{short_name: "kit/v2.6.32", base_ver: "2.6.32"}])
		  and (map(select(.short_name == "stable/2.6.32")) == [{short_name: "stable/2.6.32", base_ver: "2.6.32",
		       git_remote: "stable", git_name: "linux-2.6.32.y", tag_regexp: "(^v2\\.6\\.32$|^v2\\.6\\.32\\.\\d+$)",
		       patch_queue: "stable-queue"}])' "$t/kbf.json" >/dev/null &&
		[ "$(yjson "$yml" | jq -r '."fixed-by" | keys_unsorted | join(" ")')" = "mainline stable/2.6.32 kit/v2.6.32" ] &&
		[ "$(yjson "$yml" | jq -r '."fixed-by"["stable/2.6.32"][]' | tr '\n' ' ')" = "$S $S_B $S_C $S_D $S_E " ] &&
		[ "$(yjson "$t/out/records/CVE-2010-3301.yml" | jq -r '."fixed-by" | keys | join(" ")')" = mainline ] &&
		[ "$(yjson "$yml" | jq -c .reporters)" = '["Mathias Krause"]' ] &&
		[ "$(yjson "$y81" | jq -c .reporters)" = '["Ben Hawkes"]' ] &&
		t_ok "cip-kernel-sec names: every fixed-by branch is mainline or defined in kernel-sec-branches.yml; stable/2.6.32 lists A-E's stable commits, in order; no stable branch with J alone; reporters from Credit:" ||
		t_fail "cip-kernel-sec names" "undefined in:$bad" "$(cat "$kbf")" "$(yjson "$yml" | jq -c '{f: ."fixed-by", reporters}')"
else t_fail "kernel-sec-branches.yml parses" "$(tail -2 "$t/err")"; fi

# CIP_KERNEL_SEC=<a cip-kernel-sec tree> (its scripts/ and conf/; the kit
# keeps none of its files): its scripts/validate.py on the issue files laid
# out as its issues/, and its kernel_sec.branch loading the branches file as
# ~/.config/kernel-sec/branches.yml, the branch names coming out, and its
# affects_branch() on them.  Offline: its list of maintained stable
# branches comes from its own cache file (import/stable_branches.yml,
# written fresh here by its own code), never kernel.org; html5lib, which it
# needs only to read kernel.org, is stood in for when not installed.
if [ -z "${CIP_KERNEL_SEC:-}" ]; then
	t_skip "cip-kernel-sec's validate.py and branch loading" "CIP_KERNEL_SEC is not set (a cip-kernel-sec tree to run them from)"
elif [ ! -r "$CIP_KERNEL_SEC/scripts/validate.py" ] || [ ! -r "$CIP_KERNEL_SEC/scripts/kernel_sec/branch.py" ]; then
	t_fail "cip-kernel-sec's validate.py and branch loading" "CIP_KERNEL_SEC=$CIP_KERNEL_SEC has no scripts/validate.py and scripts/kernel_sec/branch.py"
else
	ck=$t/cks; mkdir -p "$ck/issues" "$ck/home/.config/kernel-sec"
	cp -r "$CIP_KERNEL_SEC/conf" "$ck/"
	cp "$t"/out/records/CVE-*.yml "$ck/issues/"
	cp "$kbf" "$ck/home/.config/kernel-sec/branches.yml"
	vout=$(cd "$ck" && "$PY" "$CIP_KERNEL_SEC/scripts/validate.py" 2>&1); vrc=$?
	sed 's/^\(  "mainline": \["221af7f87b97\)[0-9a-f]*"/\1"/' "$ck/issues/CVE-2010-0307.yml" >"$t/short.yml"
	bout=$(cd "$ck" && "$PY" "$CIP_KERNEL_SEC/scripts/validate.py" "$t/short.yml" 2>&1); brc=$?
	[ $vrc -eq 0 ] && [ -z "$vout" ] && [ $brc -eq 1 ] && printf '%s' "$bout" | grep -q 'fixed-by must be a mapping of branch names to changes' &&
		t_ok "cip-kernel-sec's validate.py accepts every issue file written ($(ls "$ck/issues" | wc -l)), and refuses one with a short fixed-by id" ||
		t_fail "cip-kernel-sec's validate.py" "all: rc=$vrc $vout" "short id: rc=$brc $bout"
	lout=$(cd "$ck" && HOME=$ck/home PYTHONPATH=$CIP_KERNEL_SEC/scripts "$PY" -c '
import sys, types, urllib.request
def offline(*a, **k): raise OSError("offline: kernel.org is not read here")
urllib.request.urlopen = offline
try:
    import html5lib
except ImportError:
    m = types.ModuleType("html5lib"); m.parse = offline; sys.modules["html5lib"] = m
    print("# html5lib is not installed (python3-html5lib): stood in for, kernel.org is not read")
import os, yaml
from kernel_sec import branch, issue
os.makedirs("import", exist_ok=True)
with open("import/stable_branches.yml", "w") as f:
    yaml.safe_dump([branch._get_base_ver_stable_branch("6.12")], f)
names = [b["short_name"] for b in branch.get_live_branches(branch.get_remotes([]))]
print("branches:", " ".join(names))
for cve in sorted(issue.get_list()):
    i = issue.load(cve)
    intro = set(i.get("introduced-by", {}).get("mainline", []))
    for b in branch.get_live_branches(branch.get_remotes([])):
        if b["short_name"].startswith(("kit/", "stable/2.")):
            # every branch here has the commit that brought the flaw and
            # none of mainline'"'"'s fix (2.6.33-rc6): only fixed-by decides
            print(cve, b["short_name"], "affected" if issue.affects_branch(i, b, lambda c, _b: c in intro) else "not-affected")
' 2>&1); lrc=$?
	printf '%s\n' "$lout" | grep '^# ' || :
	[ $lrc -eq 0 ] && printf '%s\n' "$lout" | grep -q '^branches: .* kit/v2.6.32 stable/2.6.32 .*mainline$' &&
		printf '%s\n' "$lout" | grep -qx 'CVE-2010-0307 kit/v2.6.32 not-affected' &&
		printf '%s\n' "$lout" | grep -qx 'CVE-2010-0307 stable/2.6.32 not-affected' &&
		printf '%s\n' "$lout" | grep -qx 'CVE-2010-3301 stable/2.6.32 affected' &&
		t_ok "cip-kernel-sec's branch.py loads kernel-sec-branches.yml as ~/.config/kernel-sec/branches.yml: kit/v2.6.32 and stable/2.6.32 come out, and its affects_branch() calls CVE-2010-0307 fixed on both, CVE-2010-3301 not on stable/2.6.32" ||
		t_fail "cip-kernel-sec's branch loading" "rc=$lrc" "$lout"
fi
t_done
