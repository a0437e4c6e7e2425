#!/bin/sh
# verify-all.sh: make verify for every branch whose source is reachable,
# one at a time, then a table of verdicts.  Unreachable ones are SKIP.
set -u
. "$(dirname "$0")/lib.sh"
rc=0
rows=$(mktemp)
for b in ${BRANCHES:-$(list_branches)}; do
	progress "$b" verify "starting"
	errf=$(mktemp)
	sh "$KIT_ROOT/scripts/verify.sh" "$b" 2>"$errf"
	r=$?
	cat "$errf" >&2
	if [ $r -eq 3 ]; then
		printf '%s\tSKIP\t-\t%s\n' "$b" "$(grep -m1 'error:' "$errf" | sed 's/^[^:]*: error: //')" >>"$rows"
	elif [ $r -ne 0 ]; then
		printf '%s\tFAILED\t-\t%s\n' "$b" "$(grep -m1 'error:' "$errf" | sed 's/^[^:]*: error: //')" >>"$rows"
		rc=1
	else
		j=$OUT/$b/result.json
		printf '%s\t%s\t%s\t%s\n' "$b" \
			"$(jq -r '.boots.unpatched.verdict' "$j")" \
			"$(jq -r '.boots.patched.verdict // (.security.status // "no series")' "$j")" \
			"$(jq -r '"\(.boots.unpatched.seconds)s / \(.boots.patched.seconds // "-")s"' "$j")" >>"$rows"
	fi
	rm -f "$errf"
done
echo
printf '%-12s %-13s %-13s %s\n' branch unpatched patched "seconds to verdict (unpatched / patched) or reason"
while IFS='	' read -r b u p s; do printf '%-12s %-13s %-13s %s\n' "$b" "$u" "$p" "$s"; done <"$rows"
rm -f "$rows"
exit $rc
