#!/bin/sh
# pipeline.sh verify BRANCH | verify-tree | report: the steps of the jobs
# of .gitlab-ci.yml that are more than one command, kept here so that they
# run, and are tested, outside GitLab too (docs/gitlab-ci.md).
#
#   verify BRANCH  `make verify BRANCH=<b>`, run as its script
#                  (scripts/verify.sh) so that its exit status survives
#                  (make turns every failure into 2, and 3 is the one that
#                  means "source not reachable"); then writes
#                  $OUT/<b>/job.status: "<exit status> <SKIP|FAILED|->",
#                  SKIP or FAILED being what an unreachable source counts
#                  as here (lib.sh skip_or_fail), decided by the job that
#                  saw it.  Exits with verify.sh's status.
#   verify-tree    the same for TREE= (a vendor tree on the runner), named
#                  TREE_NAME (default: the tree's folder name), with
#                  TREE_BRANCH as BRANCH= when set (scripts/detect.sh).
#   report         renders the report from the verify jobs' artifacts
#                  under OUT (scripts/report.sh; REPORT, default
#                  $OUT/results.md), then holds the pipeline's gate: every
#                  branch of branches/ (a TREE= pipeline: its name) must
#                  have a gate record (OUT/<name>/gate.json, scripts/gate.sh)
#                  that passed.  A table, one row per name; exit 1 when one
#                  failed, stopped before its gate, or left no record;
#                  else exit 3 when a branch's job found the source
#                  unreachable with none configured (SKIP, as make check
#                  counts it), with one line saying how many were not
#                  verified: the pipeline proved nothing for them, so it is
#                  not green (.gitlab-ci.yml does not allow the report
#                  job's 3, only the verify jobs').
set -u
. "$(dirname "$0")/../scripts/lib.sh"
. "$(dirname "$0")/../scripts/result-check.sh"
need_cmd jq

# tree_name: the output name of TREE= (what verify.sh calls NAME):
# TREE_NAME, else tree-<folder>; never a branch's name (lib.sh
# tree_run_name).
tree_name() {
	[ -d "${TREE:-}" ] || die 2 "TREE='${TREE:-}' is not a folder on this runner; set TREE to the path of a kernel tree"
	# shellcheck disable=SC2034 # read by tree_run_name
	NAME=${TREE_NAME:-}
	tree_run_name "$TREE"
	echo "$_trn"
}

# record NAME RC STATUS: NAME's job.status, for the report job.
record() {
	mkdir -p "$OUT/$1" && printf '%s %s\n' "$2" "$3" | atomic_write "$OUT/$1/job.status"
}

# gate_row NAME: "NAME<TAB>status<TAB>why" from NAME's gate record and
# job status; status is pass, SKIP or FAILED.
gate_row() {
	_g=$OUT/$1/gate.json _j=$OUT/$1/job.status
	_rc=- _st=-
	[ ! -r "$_j" ] || read -r _rc _st <"$_j"
	if [ ! -e "$_g" ]; then
		if [ "$_rc" = 3 ] && [ "$_st" = SKIP ]; then
			printf '%s\tSKIP\tsource not reachable and none configured (its verify job exited 3)\n' "$1"
		elif [ "$_rc" = - ]; then
			printf '%s\tFAILED\tno result: its verify job left no artifacts (see its log)\n' "$1"
		else
			printf '%s\tFAILED\tno gate: its verify job exited %s before a verdict (see its log)\n' "$1" "$_rc"
		fi
		return 0
	fi
	jq -e '.status == "pass" or .status == "fail"' "$_g" >/dev/null 2>&1 ||
		{ printf '%s\tFAILED\t%s is not a readable gate record\n' "$1" "$_g"; return 0; }
	# a status its own verdicts do not bear out is no pass (scripts/result-check.sh)
	_why=$(gate_check "$_g") ||
		{ printf '%s\tFAILED\t%s is not a gate record this kit wrote: %s\n' "$1" "$_g" "$_why"; return 0; }
	jq -r --arg n "$1" --arg rc "$_rc" '
	  if .status == "pass" and $rc == "0" then [$n, "pass", ""]
	  elif .status == "pass" and $rc == "-" then [$n, "FAILED", "gate pass, but its verify job recorded no exit status (killed before the end?); see its log"]
	  elif .status == "pass" then [$n, "FAILED", "gate pass, but its verify job exited \($rc) (see its log)"]
	  else [$n, "FAILED", (.reasons | join("; "))] end
	  | @tsv' "$_g"
}

report() {
	if [ -n "${TREE:-}" ]; then names=$(tree_name) || exit $?
	else names=$(list_branches); fi
	rc=0
	# The report covers the branches (scripts/report.sh reads those); a
	# TREE= pipeline has only its own result, and the table below.
	if [ -z "${TREE:-}" ] && ls "$OUT"/*/result.json >/dev/null 2>&1; then
		REPORT=${REPORT:-$OUT/results.md} sh "$KIT_ROOT/scripts/report.sh" || rc=1
	else
		echo "report: no branch result under OUT=$OUT to render; the gate below is the report" >&2
	fi
	rows=$(for n in $names; do gate_row "$n"; done) || exit 1
	echo
	printf '%-14s %-7s %s\n' name gate "why not pass"
	printf '%s\n' "$rows" | while IFS='	' read -r n g w; do
		printf '%-14s %-7s %s\n' "$n" "$g" "$w"
	done
	bad=$(printf '%s\n' "$rows" | awk -F'\t' '$2 == "FAILED" { printf "%s ", $1 }')
	if [ -n "$bad" ]; then
		echo "pipeline.sh: gate FAILED for: $bad(OUT=$OUT)" >&2
		rc=1
	fi
	skipped=$(printf '%s\n' "$rows" | awk -F'\t' '$2 == "SKIP" { printf "%s%s", s, $1; s = " " }')
	if [ -n "$skipped" ]; then
		echo "pipeline.sh: $(echo $skipped | wc -w) of $(echo $names | wc -w) branches not verified: source not reachable; set KERNEL_GIT ($skipped)" >&2
		[ $rc -ne 0 ] || rc=3
	fi
	return $rc
}

case ${1:-} in
verify)
	[ $# -eq 2 ] || die 2 "usage: pipeline.sh verify BRANCH"
	load_branch "$2"
	sh "$KIT_ROOT/scripts/verify.sh" "$2"
	rc=$? st=-
	[ $rc -ne 3 ] || st=$(skip_or_fail "$2")
	record "$2" $rc "$st"
	exit $rc ;;
verify-tree)
	n=$(tree_name) || exit $?
	check_name NAME "$n"
	# shellcheck disable=SC2086
	TREE=$TREE NAME=$n sh "$KIT_ROOT/scripts/verify.sh" ${TREE_BRANCH:-}
	rc=$? st=-
	[ $rc -ne 3 ] || st=FAILED	# a tree on the runner is never "unreachable"
	record "$n" $rc "$st"
	exit $rc ;;
report) report ;;
*) die 2 "usage: pipeline.sh verify BRANCH | verify-tree | report" ;;
esac
