#!/bin/sh
# build-all.sh: build every branch whose source is reachable, one at a time
# (2 cores: one kernel build at a time), then print a summary table.
# An unreachable source is SKIP with the reason on a machine with no
# source configured, FAILED when KERNEL_GIT was given; failures do not stop
# the others but make the exit status 1.
set -u
. "$(dirname "$0")/lib.sh"
KIND=${KIND:-unpatched}
summary=$(mktemp)
rc=0
branches=${BRANCHES:-$(list_branches)}
n=$(echo "$branches" | wc -w) i=0
for b in $branches; do
	i=$((i + 1))
	progress "$b" branch "$i of $n"
	errf=$(mktemp)
	{ sh "$KIT_ROOT/scripts/build.sh" "$KIND" "$b"; echo $? >"$errf.rc"; } 2>&1 | tee "$errf" >&2
	brc=$(cat "$errf.rc"); rm -f "$errf.rc"
	r=$OUT/$b/result.json
	if [ "$brc" -eq 0 ]; then
		secs=$(jq -r ".build.$KIND.seconds // \"?\"" "$r" 2>/dev/null)
		printf '%s\tok\t%s\t%s\n' "$b" "$secs" "$OUT/$b/$KIND/bzImage" >>"$summary"
	elif [ "$brc" -eq 3 ]; then
		st=$(skip_or_fail "$b")
		[ "$st" = SKIP ] || rc=1
		printf '%s\t%s\t-\t%s\n' "$b" "$st" "$(grep -m1 'error:' "$errf" | sed 's/^[^:]*: error: //')" >>"$summary"
	else
		printf '%s\tFAILED\t-\t%s\n' "$b" "$(grep -m1 'error:' "$errf" | sed 's/^[^:]*: error: //')" >>"$summary"
		rc=1
	fi
	rm -f "$errf"
done
echo
printf '%-12s %-7s %-6s %s\n' branch status secs "bzImage / reason"
while IFS='	' read -r b s t w; do
	printf '%-12s %-7s %-6s %s\n' "$b" "$s" "$t" "$w"
done <"$summary"
rm -f "$summary"
exit $rc
