#!/bin/sh
# verify-all.sh: make verify for every branch (BRANCHES= narrows it), then
# a table: per branch the verdict of each kernel, its tests
# (passed/failed/skipped), and whether it is what it must be (the gate,
# scripts/verify.sh).  Failing branches are named with their failing tests.
#
# VERIFY_JOBS branches at once (default: the machine's cores).  Each is its
# own make verify, its verdicts decided alone; kernel builds still run one
# at a time (the build lock) and no boot runs beside one (verify-kernel.sh
# shares that lock), so on a cold run the branches mostly queue, and a
# warm one (kernels and verdicts up to date) is spread over the cores.
#
# Each branch's row is read from its gate record (OUT/<b>/gate.json,
# scripts/gate.sh); nothing is judged here.
#
# Exit 0 only when every branch's gate passed.  1 when one failed, or
# stopped before its gate.  3 when none failed but a branch was not
# verified because its source cannot be reached: a run that proved nothing
# for a branch it was asked for is not a pass; the last line says how many
# and why ("7 of 8 branches not verified: source not reachable; set
# KERNEL_GIT").  A branch whose source cannot be reached is SKIP in the
# table on a machine with no source configured (as make check counts it),
# and a failure (exit 1) when KERNEL_GIT was given (environment or config
# file).  Once one git branch finds its source unreachable the others are
# not tried again (reachability is decided once per run).
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/result-check.sh"
# every folder of backports/fixes/ is a fix with its FIX, or nothing runs
# (lib.sh kit_fixes: called here, not in $(...), so that its refusal stops us)
kit_fixes >/dev/null
# Each branch is verified under its own name into OUT/<b>/, where its row
# is read: a NAME= or TREE= (one tree's run) or ARCHES=/HARDENING= (a
# pick, written under another name) would send every branch elsewhere and
# leave the table reading older records.
[ -z "${NAME:-}" ] && [ -z "${TREE:-}" ] ||
	die 2 "verify-all verifies every branch under its own name; drop NAME= and TREE= (one tree: make verify TREE=... NAME=...)"
[ -z "${ARCHES:-}" ] && [ "${HARDENING:-1}" = 1 ] ||
	die 2 "verify-all verifies each branch's full series; drop ARCHES= and HARDENING= (a pick: make verify BRANCH=<b> ARCHES=...)"
rc=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kit-verify-all.XXXXXX") || die 1 "cannot make a temp folder"
trap 'rmtree "$tmp"' EXIT
rows=$tmp/rows
: >"$rows"
jobs=${VERIFY_JOBS:-$(nproc)}
case $jobs in '' | *[!0-9]* | 0) die 2 "VERIFY_JOBS='$jobs' is not a positive whole number" ;; esac
branches=${BRANCHES:-$(list_branches)}
n=$(echo "$branches" | wc -w) i=0 running=0 gitseen=

# row B R: branch B's table row from its make verify's exit R and stderr
row() {
	_b=$1 _r=$2
	load_branch "$_b"
	_why=$(grep 'error:' "$tmp/$_b.err" | tail -1 | sed 's/^[^:]*: error: //')
	if [ "$_r" -eq 3 ]; then
		_st=$(skip_or_fail "$_b")
		# reachability is decided once per run: the branches not yet
		# started are not tried again
		[ "$BR_SOURCE" = git ] && echo "source not reachable (decided on $_b): $_why" >"$tmp/unreachable"
		printf '%s\t%s\t-\t-\t%s\n' "$_b" "$_st" "$_why"
		return
	fi
	_g=$OUT/$_b/gate.json
	# a gate record whose status its verdicts do not bear out is no row
	# of a pass (scripts/result-check.sh)
	if [ -r "$_g" ] && ! _gw=$(gate_check "$_g"); then
		printf '%s\tFAILED\t-\t-\t%s\n' "$_b" "$_g is not a gate record this kit wrote: $_gw"
		return
	fi
	if [ -r "$_g" ] && jq -e '.kernels' "$_g" >/dev/null 2>&1; then
		jq -r --arg rc "$_r" --arg why "$_why" '
		  def k(x): if x == null then "-" elif x.booted | not then "not booted"
		    else "\(x.verdict) \(x.tests.passed)/\(x.tests.failed)/\(x.tests.skipped)" end;
		  [.name,
		   (if .status == "pass" and $rc == "0" then "ok" else "FAILED" end),
		   k(.kernels.unpatched),
		   (if .kernels.patched then k(.kernels.patched) else (.plan // "-") end),
		   (if (.reasons | length) > 0 then .reasons | join("; ") elif $rc != "0" then $why else "" end)]
		  | @tsv' "$_g"
	else
		printf '%s\tFAILED\t-\t-\t%s\n' "$_b" "${_why:-no gate record (see the lines above)}"
	fi
}

# one branch: make verify, its stderr shown as it comes and kept for the
# row, then its row; in the background when VERIFY_JOBS > 1
one() {
	{ { sh "$KIT_ROOT/scripts/verify.sh" "$1"; echo $? >"$tmp/$1.rc"; } 2>&1 1>&3 |
		tee "$tmp/$1.err" >&2; } 3>&1
	row "$1" "$(cat "$tmp/$1.rc" 2>/dev/null || echo 1)" >"$tmp/$1.row"
}
for b in $branches; do
	i=$((i + 1))
	load_branch "$b"
	if [ "$running" -ge "$jobs" ]; then wait; running=0; fi
	if [ "$BR_SOURCE" = git ] && [ -r "$tmp/unreachable" ]; then
		printf '%s\t%s\t-\t-\t%s\n' "$b" "$(skip_or_fail "$b")" "$(cat "$tmp/unreachable")" >"$tmp/$b.row"
		continue
	fi
	progress "$b" verify "branch $i of $n"
	# the first git branch runs alone in front: it decides reachability
	# for the others before they start
	if [ "$jobs" -eq 1 ] || { [ "$BR_SOURCE" = git ] && [ -z "$gitseen" ]; }; then one "$b"
	else one "$b" & running=$((running + 1)); fi
	[ "$BR_SOURCE" != git ] || gitseen=1
done
wait
for b in $branches; do
	cat "$tmp/$b.row" >>"$rows" 2>/dev/null || printf '%s\tFAILED\t-\t-\t%s\n' "$b" "no result (see the lines above)" >>"$rows"
done
awk -F'\t' '$2 != "ok" && $2 != "SKIP" { bad = 1 } END { exit bad }' "$rows" || rc=1
skipped=$(awk -F'\t' '$2 == "SKIP" { n++ } END { print n + 0 }' "$rows")
echo
printf '%-12s %-7s %-22s %-22s %s\n' branch gate "unpatched (p/f/s)" "patched (p/f/s)" "why not ok / reason"
while IFS='	' read -r b g u p w; do
	printf '%-12s %-7s %-22s %-22s %s\n' "$b" "$g" "$u" "$p" "$w"
done <"$rows"
if [ $rc -ne 0 ]; then
	echo "verify-all: gate FAILED for: $(awk -F'\t' '$2 != "ok" && $2 != "SKIP" { printf "%s ", $1 }' "$rows")" >&2
fi
if [ "$skipped" -gt 0 ]; then
	echo "verify-all: $skipped of $n branches not verified: source not reachable; set KERNEL_GIT ($(awk -F'\t' '$2 == "SKIP" { printf "%s%s", s, $1; s = " " }' "$rows"))" >&2
	[ $rc -ne 0 ] || rc=3
fi
exit $rc
