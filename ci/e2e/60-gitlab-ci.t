#!/bin/sh
# after: 20-verify
# The pipeline (.gitlab-ci.yml) runs, here, as a shell runner would run it
# (gitlab-ci-local, ci/gcl.sh): it lists one verify job per branch and the
# report job; the unit job ran (ci/check.sh runs the unit phase as that
# job; run alone, this test runs it); the verify job of v2.6.32 gives the
# verdicts, a result.json and a JUnit file that a real XML parser reads;
# the report job renders the report from that job's artifacts and fails
# the pipeline, naming them, for the branches whose verify job did not run
# here.  The verify job uses this machine's KIT_CACHE: its exports, and
# its build cache once 10-build/20-verify made these kernels.
. ci/e2e/lib.sh
state=.gitlab-ci-local/make-check
# ci/check.sh's unit phase runs the unit job with gitlab-ci-local in this
# very folder (its state in $state): not beside this test's own runs.  Its
# record (unit.seconds, written last) is awaited while it runs.
if [ -r "${KIT_RUN_DIR:-/nonexistent}/unit.pid" ]; then
	while [ ! -e "$KIT_RUN_DIR/unit.seconds" ] && kill -0 "$(cat "$KIT_RUN_DIR/unit.pid")" 2>/dev/null; do sleep 2; done
fi
log=$(mktemp -d); trap 'rm -rf "$log"' EXIT

# The jobs, as gitlab-ci-local reads the file.
sh ci/gcl.sh --list-csv >"$log/list" 2>"$log/list.err"
rc=$?
want=$(list_branches | sed 's/.*/verify: [&]/' | sort)
got=$(cut -d';' -f1 "$log/list" | grep '^verify: \[' | sort)
[ $rc -eq 0 ] && [ "$want" = "$got" ] && grep -q '^report;report;always;' "$log/list" &&
	t_ok "gitlab-ci-local --list: one verify job per branch ($(echo "$got" | wc -l)) and the report job" ||
	t_fail "gitlab-ci-local --list: a verify job per branch and the report job" "exit $rc" \
		"want: $(echo $want)" "got: $(echo $got)" "$(tail -3 "$log/list.err")"

# The unit job: ci/check.sh ran it (its record is in KIT_RUN_DIR), or it runs now.
if [ -r "${KIT_RUN_DIR:-/nonexistent}/unit-job.rc" ]; then
	urc=$(cat "$KIT_RUN_DIR/unit-job.rc") ulog=$KIT_RUN_DIR/unit-job.log where="in this make check's unit phase"
else
	sh ci/gcl.sh unit >"$log/unit" 2>&1; urc=$? ulog=$log/unit where="here (not run by ci/check.sh)"
fi
sum=$(sed -n 's/^unit *> \([0-9]* passed, [0-9]* failed, [0-9]* skipped\)$/\1/p' "$ulog" | tail -1)
[ "$urc" = 0 ] && [ -n "$sum" ] && grep -q '^unit *> === ' "$ulog" && grep -q 'PASS *unit' "$ulog" &&
	t_ok "the unit job ran with the shell executor $where: $sum" ||
	t_fail "the unit job ran with the shell executor" "exit $urc, summary '$sum'" "$(grep -v '^unit *> ok ' "$ulog" | tail -5)"

# The verify job of v2.6.32, with the artifacts of this run only.
b=v2.6.32
if need_source "$b" "verify [$b] job"; then
	rm -rf "$state/artifacts"
	t0=$(date +%s)
	sh ci/gcl.sh "verify: [$b]" >"$log/verify" 2>&1; vrc=$?
	vs=$(($(date +%s) - t0))
	hits=$(grep -c 'kernel from the build cache' "$log/verify")
	echo "# verify [$b] job: ${vs}s, $hits of 2 kernels from the build cache"
	a=$(ls -d "$state"/artifacts/*/out/"$b" 2>/dev/null | head -1)
	r=$a/result.json
	if [ $vrc -eq 0 ] && [ -r "$r" ] && grep -q "PASS *verify: \[$b\]" "$log/verify"; then
		t_ok "verify [$b] job passed with the shell executor (${vs}s, $hits of 2 kernels from the build cache)"
	else
		t_fail "verify [$b] job passed" "exit $vrc" "$(grep -E 'error|FAIL|NOT OK' "$log/verify" | tail -5)"
	fi
	u=$(jq -r '.boots.unpatched.verdict' "$r" 2>/dev/null) p=$(jq -r '.boots.patched.verdict' "$r" 2>/dev/null)
	g=$(jq -r '.gate.status' "$r" 2>/dev/null)
	[ "$u" = VULNERABLE ] && [ "$p" = SURVIVED ] && [ "$g" = pass ] &&
		t_ok "its artifact result.json: unpatched VULNERABLE, patched SURVIVED, gate pass" ||
		t_fail "its artifact result.json: unpatched VULNERABLE, patched SURVIVED, gate pass" "got $u / $p / gate $g ($r)"
	# The JUnit report GitLab shows, read by Python's XML parser: a suite
	# per boot and a gate suite per kernel, each verdict a property, no
	# failing testcase on a passing gate.
	j=$(python3 - "$a/junit.xml" <<-'EOF' 2>&1
		import sys, xml.etree.ElementTree as ET
		root = ET.parse(sys.argv[1]).getroot()
		suites = root.findall("testsuite")
		cases = root.findall("testsuite/testcase")
		failed = [c.get("name") for c in cases if c.find("failure") is not None]
		verdicts = sorted({p.get("value") for p in root.iter("property") if p.get("name") == "verdict"})
		gates = [s.get("name") for s in suites if s.get("name", "").endswith(" gate")]
		print(len(suites), len(cases), len(failed), ",".join(verdicts), len(gates))
		EOF
	)
	set -- $j
	[ $# -eq 5 ] && [ "$1" -ge 4 ] && [ "$2" -ge 20 ] && [ "$3" -eq 0 ] && [ "$4" = SURVIVED,VULNERABLE ] && [ "$5" -eq 2 ] &&
		t_ok "its artifact junit.xml parses (xml.etree): $1 testsuites, $2 testcases, none failed, verdicts $4 as properties" ||
		t_fail "its artifact junit.xml parses with a suite per boot, the verdicts as properties, no failure" "$j ($a/junit.xml)"
	for f in job.status unpatched/verify/boot.json patched/build.log; do
		[ -s "$a/$f" ] || miss="${miss:-} $f"
	done
	[ -z "${miss:-}" ] && t_ok "its artifacts carry the job status, the boot records and the build logs" ||
		t_fail "its artifacts carry the job status, the boot records and the build logs" "missing:$miss"

	# The report job: the report from the artifacts, and the pipeline's
	# gate, which must fail for every branch whose verify job did not run.
	sh ci/gcl.sh report >"$log/report" 2>&1; rrc=$?
	md=$state/artifacts/report/out/results.md
	others=$(list_branches | grep -vx "$b" | tr '\n' ' ')
	[ $rrc -ne 0 ] && grep -Eq "^report *> $b +pass" "$log/report" &&
		grep -q "gate FAILED for: $others" "$log/report" &&
		t_ok "the report job fails the pipeline, naming the $(echo $others | wc -w) branches whose verify job did not run here" ||
		t_fail "the report job fails for the branches not run here" "exit $rrc" "$(grep -E 'report *> ' "$log/report" | tail -12)"
	grep -q "^| $b | pass | VULNERABLE (VULNERABLE) | SURVIVED (SURVIVED) |" "$md" 2>/dev/null &&
		t_ok "the report job rendered results.md from the verify job's artifacts ($b: gate pass)" ||
		t_fail "the report job rendered results.md from the verify job's artifacts" "$(ls "$state/artifacts/report/out" 2>&1)" \
			"$(grep -E 'report *> .*(error|wrote)' "$log/report" | tail -3)"
	# the jobs' copies of the project (the verify job's holds kernels)
	rm -rf "$state/builds"
fi
t_done
