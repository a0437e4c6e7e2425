#!/bin/sh
# .gitlab-ci.yml names every branch of branches/ once (a verify job each;
# cross and mutants for the 2.6 ones), and ci/pipeline.sh, what its verify
# and report jobs run, holds the pipeline's gate: a branch that failed,
# stopped before its gate or left no result fails the report job; one whose
# source could not be reached with none configured is SKIP (as in make
# verify-all).  No kernel is built: the results are written here, and the
# one verify run finds its source unreachable.
cd "$(dirname "$0")/../.." || exit 2
. ci/tap.sh
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

# matrix YML JOB: the BRANCH values of JOB's parallel matrix in YML, one a
# line, sorted (the anchor &v26 and its aliases *v26 expanded).
matrix() {
	awk -v job="$2" '
	  /^[A-Za-z.][A-Za-z0-9._-]*:/ { cur = $1; sub(/:$/, "", cur) }
	  /^ *- BRANCH:/ {
		v = $0; sub(/^ *- BRANCH: */, "", v)
		if (v ~ /^&v26 /) { sub(/^&v26 /, "", v); v26 = v }
		else if (v == "*v26") v = v26
		if (cur == job) { gsub(/[][ ]/, "", v); n = split(v, a, ","); for (i = 1; i <= n; i++) print a[i] }
	  }' "$1" | sort
}
# names DIR [git]: the branches of DIR/*.conf (with "git", those with a git source).
names() {
	for f in "$1"/*.conf; do
		[ "${2:-}" != git ] || grep -q '^BR_SOURCE=git' "$f" || continue
		b=${f##*/}; echo "${b%.conf}"
	done | sort
}
# disagree YML DIR: what the YML's matrices and DIR's branches disagree on (nothing when they agree).
disagree() {
	_v=$(matrix "$1" verify) _x=$(matrix "$1" .extra)
	[ "$_v" = "$(names "$2")" ] ||
		echo "verify's matrix [$(echo $_v)] is not branches/ [$(echo $(names "$2"))]"
	[ "$_x" = "$(names "$2" git)" ] ||
		echo "cross and mutants' matrix (.extra) [$(echo $_x)] is not the git branches [$(echo $(names "$2" git))]"
	_o=$(awk '/^[A-Za-z.][A-Za-z0-9._-]*:/ { cur = $1; sub(/:$/, "", cur) }
	  /^ *- BRANCH:/ && cur != "verify" && cur != ".extra" { print cur }' "$1" | sort -u)
	[ -z "$_o" ] || echo "a BRANCH matrix outside verify and .extra: $_o"
}

why=$(disagree .gitlab-ci.yml branches)
[ -z "$why" ] && [ -n "$(matrix .gitlab-ci.yml verify)" ] &&
	t_ok "the pipeline has a verify job for each of the $(names branches | wc -l) branches and a cross and mutants job for each git branch" ||
	t_fail "the pipeline's matrices name exactly branches/" "$why"
# The check must be able to fail: a branch missing from the yml, one added
# to the folder, and a job of its own.
mkdir -p "$t/br"; cp branches/*.conf "$t/br/"
sed 's/v2\.6\.29, //' .gitlab-ci.yml >"$t/drop.yml"
why=$(disagree "$t/drop.yml" branches)
printf '%s' "$why" | grep -q "verify's matrix" && printf '%s' "$why" | grep -q "cross and mutants' matrix" &&
	t_ok "a branch dropped from the yml's list is named as a disagreement" || t_fail "a dropped branch is caught" "$why"
cp branches/v2.6.32.conf "$t/br/v2.6.33.conf"
why=$(disagree .gitlab-ci.yml "$t/br")
printf '%s' "$why" | grep -q 'v2.6.33' &&
	t_ok "a branch added to branches/ but not to the yml is named" || t_fail "a new branch is caught" "$why"
printf 'extra:\n  parallel:\n    matrix:\n      - BRANCH: [v2.6.32]\n' >"$t/own.yml"
cat .gitlab-ci.yml >>"$t/own.yml"
why=$(disagree "$t/own.yml" branches)
printf '%s' "$why" | grep -q 'outside verify and .extra: extra' &&
	t_ok "a job with a branch list of its own is named" || t_fail "a second list is caught" "$why"

# The report job: render, then the gate over every branch.  It runs in a
# copy of the kit whose scripts/report.sh is a stand-in that writes REPORT
# and exits REPORT_RC: what is tested here is that the job renders, and
# that a failed rendering fails it (the real report.sh: scripts/tests/report.t,
# and the whole pipeline: ci/e2e/60-gitlab-ci.t).
mkdir "$t/kit" && cp -a branches scripts ci "$t/kit/" || exit 1
printf '#!/bin/sh\necho "stand-in report of $OUT" >"$REPORT"\nexit ${REPORT_RC:-0}\n' >"$t/kit/scripts/report.sh"
o=$t/out
result() {	# result BRANCH GATE [ok of patched]
	mkdir -p "$o/$1"
	jq -n --arg b "$1" --arg g "$2" --argjson ok "${3:-true}" '{schema: 2, branch: $b,
	  boots: {unpatched: {verdict: "VULNERABLE", expected: "VULNERABLE", tests: {passed: 24, failed: 4, skipped: 0}, signature: "s"},
	          patched: {verdict: (if $ok then "SURVIVED" else "REGRESSED" end), expected: "SURVIVED", tests: {passed: 42, failed: 0, skipped: 0}, signature: "s"}},
	  gate: {status: $g, kernels: {unpatched: {verdict: "VULNERABLE", expected: "VULNERABLE", ok: true, failed_tests: []},
	          patched: {verdict: (if $ok then "SURVIVED" else "REGRESSED" end), expected: "SURVIVED", ok: $ok,
	                    failed_tests: (if $ok then [] else ["regress: brk randomised"] end)}}},
	  provenance: {kit_commit: "abc1234", recorded_at: "2026-12-05T00:00:00Z"}}' >"$o/$1/result.json"
	# the gate's record (scripts/gate.sh), which the report job reads
	jq '.gate + {schema: 1, name: .branch, reasons: (if .gate.status == "pass" then [] else
	  ["patched: verdict REGRESSED, must be SURVIVED (failing: regress: brk randomised)"] end)}' \
		"$o/$1/result.json" >"$o/$1/gate.json"
	printf '0 -\n' >"$o/$1/job.status"
}
report() { out=$(env OUT="$o" KIT_CONFIG=/nonexistent KIT_CACHE="$t/cache" "$@" sh "$t/kit/ci/pipeline.sh" report 2>&1); rc=$?; }
for b in $(names branches); do result "$b" pass; done
report
[ $rc -eq 0 ] && [ "$(cat "$o/results.md")" = "stand-in report of $o" ] &&
	! printf '%s' "$out" | grep -q FAILED &&
	t_ok "every branch passed: the report is written to \$OUT/results.md and the report job exits 0" ||
	t_fail "every branch passed: report and exit 0" "rc=$rc" "$out"

result v2.6.31 fail false
rm -r "$o/v2.6.30"
mkdir -p "$o/v2.6.29" && printf '1 -\n' >"$o/v2.6.29/job.status" && rm "$o/v2.6.29/result.json" "$o/v2.6.29/gate.json"
rm "$o/v2.6.28/gate.json" && printf '2 -\n' >"$o/v2.6.28/job.status"
rm "$o/v2.6.27/job.status"
report
row() { printf '%s\n' "$out" | grep -qE "^$1 +$2 +$3"; }
[ $rc -eq 1 ] && row v2.6.32 pass && row v2.6.31 FAILED 'patched: verdict REGRESSED, must be SURVIVED \(failing: regress: brk randomised\)' &&
	row v2.6.30 FAILED 'no result: its verify job left no artifacts' &&
	row v2.6.29 FAILED 'no gate: its verify job exited 1 before a verdict' &&
	row v2.6.28 FAILED 'no gate: its verify job exited 2 before a verdict' &&
	row v2.6.27 FAILED 'gate pass, but its verify job recorded no exit status' &&
	printf '%s' "$out" | grep -q 'gate FAILED for: v2.6.27 v2.6.28 v2.6.29 v2.6.30 v2.6.31 ' &&
	[ -s "$o/results.md" ] &&
	t_ok "a failed gate, a job that left nothing, one that stopped before a verdict, a passing gate whose job recorded no exit: each named, the report still written, exit 1" ||
	t_fail "the gate fails the report job, naming why" "rc=$rc" "$out"
# a gate record edited to pass over a REGRESSED patched kernel is no pass
for b in $(names branches); do result "$b" pass; done
jq '.kernels.patched |= (.verdict = "REGRESSED" | .ok = false)' "$o/v2.6.31/gate.json" >"$t/g" && mv "$t/g" "$o/v2.6.31/gate.json"
report
[ $rc -eq 1 ] && row v2.6.31 FAILED '.* is not a gate record this kit wrote: \.status is "pass", but its kernels disagree: patched is REGRESSED, must be SURVIVED' &&
	row v2.6.32 pass &&
	t_ok "a gate.json whose pass its verdicts do not bear out: FAILED, naming the field; the report job exits 1" ||
	t_fail "a lying gate record fails the report job" "rc=$rc" "$out"
for b in $(names branches); do result "$b" pass; done
report REPORT_RC=1 REPORT="$t/r.md"
[ $rc -eq 1 ] && [ -s "$t/r.md" ] && ! printf '%s' "$out" | grep -q 'gate FAILED' &&
	t_ok "a report that cannot be rendered fails the report job, though every gate passed" || t_fail "a failed rendering fails the job" "rc=$rc" "$out"

# The verify job's own record of an unreachable source decides SKIP or FAILED.
for b in $(names branches); do result "$b" pass; done
rm -r "$o/v2.6.32"
verify() { vout=$(env OUT="$o" KIT_CONFIG=/nonexistent KIT_CACHE="$t/cache" KIT_FETCH_TIMEOUT=10 \
	KERNEL_GIT=http://127.0.0.1:9/x.git "$@" sh ci/pipeline.sh verify v2.6.32 2>&1); vrc=$?; }
verify KIT_SOURCE_CONFIGURED=0
report
[ $vrc -eq 3 ] && [ "$(cat "$o/v2.6.32/job.status")" = "3 SKIP" ] && [ $rc -eq 3 ] && row v2.6.32 SKIP 'source not reachable and none configured' &&
	printf '%s\n' "$out" | grep -qx "pipeline.sh: 1 of $(names branches | wc -l) branches not verified: source not reachable; set KERNEL_GIT (v2.6.32)" &&
	t_ok "verify job: source unreachable, none configured: exit 3 (allowed), SKIP in the gate; the report job exits 3 (not green), one line naming it" ||
	t_fail "unreachable and unconfigured is SKIP" "verify rc=$vrc: $(printf '%s' "$vout" | tail -2)" "report rc=$rc" "$out"
verify KIT_SOURCE_CONFIGURED=1
report
[ $vrc -eq 3 ] && [ "$(cat "$o/v2.6.32/job.status")" = "3 FAILED" ] && [ $rc -eq 1 ] && row v2.6.32 FAILED 'no gate: its verify job exited 3' &&
	t_ok "verify job: source unreachable although KERNEL_GIT is configured: the report job fails" ||
	t_fail "unreachable but configured fails" "verify rc=$vrc" "report rc=$rc" "$out"

# A TREE= pipeline holds its own name, and refuses a tree that is not there.
report TREE="$t/nowhere"
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q "TREE='$t/nowhere' is not a folder" &&
	t_ok "a TREE that is not on the runner: exit 2, named" || t_fail "missing TREE refused" "rc=$rc" "$out"
mkdir -p "$t/linux-acme"
result tree-linux-acme pass
report TREE="$t/linux-acme"
[ $rc -eq 0 ] && row tree-linux-acme pass && [ "$(printf '%s\n' "$out" | grep -Ec '^(v2|debian)')" -eq 0 ] &&
	t_ok "a TREE= pipeline's gate holds that tree (named tree-<folder>), not the branches" ||
	t_fail "TREE= gate" "rc=$rc" "$out"
# a tree kept in a folder named like a branch is still tree-<folder>, and
# TREE_NAME=<a branch> is refused: a TREE= pipeline never holds a branch's
# result as its own
mkdir -p "$t/v2.6.32"
report TREE="$t/v2.6.32"
[ $rc -eq 1 ] && row tree-v2.6.32 FAILED 'no result' && ! printf '%s\n' "$out" | grep -q '^v2.6.32 ' &&
	t_ok "TREE= in a folder named v2.6.32: held as tree-v2.6.32, never as the branch v2.6.32" || t_fail "TREE named like a branch" "rc=$rc" "$out"
report TREE="$t/linux-acme" TREE_NAME=v2.6.32
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q 'NAME=v2.6.32 is a branch name' &&
	t_ok "TREE_NAME=<a branch>: refused, exit 2" || t_fail "TREE_NAME=branch refused" "rc=$rc" "$out"
t_done
