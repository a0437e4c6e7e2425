#!/bin/sh
# plan-series.sh BRANCH SRC DIR: decide what of backports/BRANCH to apply
# to the tree SRC, from what SRC already carries (fix-state.sh).
#
#   nothing present      -> the whole series
#   some present         -> only the missing changes' patches (not those
#                           present, nor those n/a: their code is not there,
#                           or, ARCHES=, is another architecture's), copied with
#                           a new series file into DIR; prints which were
#                           skipped and why
#   all present or n/a   -> "already fixed", exit 4 (apply nothing)
#   present set breaks the ordering rule (A without D ...) -> names what is
#                           present and what is missing, exit 2, touches
#                           nothing
# Prints the series folder to use on stdout; DIR/plan.json records it.
set -eu
. "$(dirname "$0")/lib.sh"
# every folder of backports/fixes/ is a fix with its FIX, or nothing runs
# (lib.sh kit_fixes: called here, not in $(...), so that its refusal stops us)
kit_fixes >/dev/null
BRANCH=$1 src=$2 dir=$3
# PLAN_SERIES_DIR: a series made for this very tree (TREE=) instead of
# the committed one.
series_dir=${PLAN_SERIES_DIR:-$KIT_ROOT/backports/$BRANCH}
state=$(sh "$KIT_ROOT/scripts/fix-state.sh" "$src") || exit $?
present=$(printf '%s\n' "$state" | awk '$3 == "present" { print $1 }')
missing=$(printf '%s\n' "$state" | awk '$3 == "missing" { print $1 }')
na=$(printf '%s\n' "$state" | awk '$3 == "n/a" { print $1 }')
mkdir -p "$dir"
plan() { # plan <status> <series dir>
	printf '%s\n' "$state" | jq -R -s --arg st "$1" --arg dir "$2" --arg arches "${TREE:+${ARCHES:-}}" '
	  split("\n") | map(select(. != "") | split(" ")) |
	  {status: $st, series_dir: $dir,
	   arches: (if $arches == "" then "all" else $arches end),
	   changes: map({change: .[0], upstream: .[1], state: .[2], why: (.[3:] | join(" "))})}' \
		| atomic_write "$dir/plan.json"
}
if [ -z "$missing" ]; then
	plan "already fixed" ""
	progress "$BRANCH" plan "already fixed: every change is present or n/a ($(echo $na | tr ' ' ',') n/a); nothing to apply"
	exit 4
fi
if [ -z "$present" ]; then
	plan "full series" "$series_dir"
	printf '%s\n' "$series_dir"
	exit 0
fi
# Partly fixed: the present set alone must obey the ordering rule.
ids=
for c in $present; do ids="$ids $(info_field "$c" Upstream)"; done
# shellcheck disable=SC2086
if ! why=$(sh "$KIT_ROOT/scripts/order-rule.sh" $ids 2>&1); then
	plan "refused" ""
	die 2 "the tree carries $(echo $present | tr ' ' ',') but not $(echo $missing | tr ' ' ','): ${why#order-rule: }; the kit stops without touching anything"
fi
[ -r "$series_dir/series" ] || die 2 "no security series for $BRANCH; run 'make series BRANCH=$BRANCH'"
# "<upstream id> <change>" of every change, read once
idmap=$(for c in $(kit_changes); do echo "$(info_field "$c" Upstream | head -1) $c"; done)
out=$dir/series.d
rm -rf "$out"; mkdir -p "$out"
for p in $(grep -v '^#' "$series_dir/series"); do
	id=$(sed -n 's/^commit \([0-9a-f]\{40\}\) upstream\.$/\1/p' "$series_dir/$p" | head -1)
	c=$(printf '%s\n' "$idmap" | awk -v id="$id" '$1 == id { print $2; exit }')
	if printf '%s\n' $present | grep -qx "$c"; then
		progress "$BRANCH" plan "skip $p: $c is already in the tree"
	elif printf '%s\n' $na | grep -qx "$c"; then
		progress "$BRANCH" plan "skip $p: $c is n/a in the tree"
	else
		cp "$series_dir/$p" "$out/"; echo "$p" >>"$out/series"
	fi
done
plan "partly fixed" "$out"
printf '%s\n' "$out"
