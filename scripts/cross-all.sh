#!/bin/sh
# cross-all.sh: scripts/cross.sh for every 2.6 branch, one at a time, then
# one table (branch x cell x object: ok / failed / skipped with the reason)
# in $OUT/cross-table.txt.  BRANCHES="v2.6.26 v2.6.32" narrows it; CELLS="x86_32
# sparc64" too.
#
# Each branch's rows are the table its cross.sh run printed, so a branch
# whose run stopped before its table is a failed row, never the table an
# earlier run left behind.  A branch whose source cannot be reached is SKIP
# with the reason on a machine with no source configured, and FAILED once
# KERNEL_GIT is configured (lib.sh skip_or_fail).  A failed cell does not
# stop the others but makes the exit status 1.
set -u
. "$(dirname "$0")/lib.sh"
branches=${BRANCHES:-$(list_branches | grep '^v2\.6\.')}
for b in $branches; do load_branch "$b"; done
n=$(echo "$branches" | wc -w) i=0 rc=0
all=$OUT/cross-table.txt
out_root
tmp=$(mktemp -d) || die 1 "cannot create a temp folder"
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/rows"
for b in $branches; do
	i=$((i + 1))
	progress "$b" cross "branch $i of $n"
	# shellcheck disable=SC2086
	sh "$KIT_ROOT/scripts/cross.sh" "$b" ${CELLS:-} >"$tmp/table"
	brc=$?
	if [ $brc -eq 3 ]; then
		st=$(skip_or_fail "$b")
		[ "$st" = SKIP ] || rc=1
		case $st in SKIP) st=skipped ;; *) st=failed ;; esac
		printf '%-8s %-10s %-34s %s\n' "$b" '*' '*' "$st: source unreachable" >>"$tmp/rows"
		continue
	fi
	[ $brc -eq 0 ] || rc=1
	if [ -s "$tmp/table" ]; then
		tail -n +2 "$tmp/table" >>"$tmp/rows"
	else
		printf '%-8s %-10s %-34s %s\n' "$b" '*' '*' \
			"failed: cross.sh exited $brc before its table (see the message above)" >>"$tmp/rows"
	fi
done
# beside the table, so the rename is atomic (same file system)
{
	printf '%-8s %-10s %-34s %s\n' branch cell object result
	cat "$tmp/rows"
} >"$all.tmp.$$" && mv -f "$all.tmp.$$" "$all" || { rm -f "$all.tmp.$$"; die 1 "cannot write $all"; }
echo
cat "$all"
echo
printf 'cross-all: %s ok, %s failed, %s skipped (table: %s)\n' \
	"$(grep -c ' ok$' "$all")" "$(grep -c ' failed' "$all")" "$(grep -c ' skipped' "$all")" "$all"
exit $rc
