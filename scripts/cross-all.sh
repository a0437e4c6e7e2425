#!/bin/sh
# cross-all.sh: scripts/cross.sh for every 2.6 branch, one at a time, then
# one table (branch x cell x object: ok / failed / skipped with the reason).
# BRANCHES="v2.6.26 v2.6.32" narrows it; CELLS="x86_32 sparc64" too.
# A branch whose source is unreachable is SKIP with the reason; a failed
# cell does not stop the others but makes the exit status 1.
set -u
. "$(dirname "$0")/lib.sh"
branches=${BRANCHES:-$(list_branches | grep '^v2\.6\.')}
n=$(echo "$branches" | wc -w) i=0 rc=0
all=$OUT/cross-table.txt
tmp=$(mktemp)
for b in $branches; do
	i=$((i + 1))
	progress "$b" cross "branch $i of $n"
	# shellcheck disable=SC2086
	sh "$KIT_ROOT/scripts/cross.sh" "$b" ${CELLS:-}
	brc=$?
	case $brc in
	0) ;;
	3) printf '%-8s %-10s %-34s %s\n' "$b" '*' '*' "skipped: source unreachable" >>"$tmp" ;;
	*) rc=1 ;;
	esac
	[ -r "$OUT/$b/cross/table.txt" ] && [ $brc -ne 3 ] && tail -n +2 "$OUT/$b/cross/table.txt" >>"$tmp"
done
{
	printf '%-8s %-10s %-34s %s\n' branch cell object result
	cat "$tmp"
} >"$all"
rm -f "$tmp"
echo
cat "$all"
echo
printf 'cross-all: %s ok, %s failed, %s skipped (table: %s)\n' \
	"$(grep -c ' ok$' "$all")" "$(grep -c ' failed' "$all")" "$(grep -c ' skipped' "$all")" "$all"
exit $rc
