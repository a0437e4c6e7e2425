#!/bin/sh
# verify-all.sh: make verify for every branch (BRANCHES= narrows it), one at
# a time, then a table: per branch the verdict of each kernel, its tests
# (passed/failed/skipped), and whether it is what it must be (the gate,
# scripts/verify.sh).  Failing branches are named with their failing tests.
#
# Exit 0 only when every branch is what it must be.  A branch whose source
# cannot be reached is SKIP on a machine with no source configured, and a
# failure when KERNEL_GIT was given (environment or config file).  Once one
# git branch finds its source unreachable the others are not tried again
# (reachability is decided once per run).
set -u
. "$(dirname "$0")/lib.sh"
rc=0
rows=$(mktemp) errf=$(mktemp)
trap 'rm -f "$rows" "$errf"' EXIT
unreachable=
branches=${BRANCHES:-$(list_branches)}
n=$(echo "$branches" | wc -w) i=0
for b in $branches; do
	i=$((i + 1))
	load_branch "$b"
	if [ "$BR_SOURCE" = git ] && [ -n "$unreachable" ]; then
		printf '%s\t%s\t-\t-\t%s\n' "$b" "$(skip_or_fail "$b")" "$unreachable" >>"$rows"
		[ "$(skip_or_fail "$b")" = SKIP ] || rc=1
		continue
	fi
	progress "$b" verify "branch $i of $n"
	sh "$KIT_ROOT/scripts/verify.sh" "$b" 2>"$errf"
	r=$?
	cat "$errf" >&2
	why=$(grep 'error:' "$errf" | tail -1 | sed 's/^[^:]*: error: //')
	j=$OUT/$b/result.json
	if [ $r -eq 3 ]; then
		st=$(skip_or_fail "$b")
		[ "$BR_SOURCE" = git ] && unreachable="source not reachable (decided on $b): $why"
		printf '%s\t%s\t-\t-\t%s\n' "$b" "$st" "$why" >>"$rows"
		[ "$st" = SKIP ] || rc=1
		continue
	fi
	[ $r -eq 0 ] || rc=1
	if [ -r "$j" ] && jq -e '.gate.kernels' "$j" >/dev/null 2>&1; then
		jq -r --arg rc "$r" --arg why "$why" '
		  def k(x): if x then "\(x.verdict) \(x.tests.passed)/\(x.tests.failed)/\(x.tests.skipped)" else "-" end;
		  [.branch,
		   (if $rc == "0" then "ok" else "FAILED" end),
		   k(.boots.unpatched),
		   (if .boots.patched then k(.boots.patched) else (.security.status // "no series") end),
		   ([.gate.kernels | to_entries[] | select(.value.ok | not)
		     | "\(.key) is \(.value.verdict), must be \(.value.expected)"
		       + (if (.value.failed_tests | length) > 0 then " (failing: \(.value.failed_tests | join(", ")))" else "" end)]
		    | if length > 0 then join("; ") elif $rc != "0" then $why else "" end)]
		  | @tsv' "$j" >>"$rows"
	else
		printf '%s\tFAILED\t-\t-\t%s\n' "$b" "$why" >>"$rows"
	fi
done
echo
printf '%-12s %-7s %-22s %-22s %s\n' branch gate "unpatched (p/f/s)" "patched (p/f/s)" "why not ok / reason"
while IFS='	' read -r b g u p w; do
	printf '%-12s %-7s %-22s %-22s %s\n' "$b" "$g" "$u" "$p" "$w"
done <"$rows"
if [ $rc -ne 0 ]; then
	echo "verify-all: gate FAILED for: $(awk -F'\t' '$2 != "ok" && $2 != "SKIP" { printf "%s ", $1 }' "$rows")" >&2
fi
exit $rc
