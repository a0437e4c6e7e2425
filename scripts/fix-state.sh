#!/bin/sh
# fix-state.sh TREE: which of the series' upstream changes TREE already
# carries.  One line per change: "<change> <upstream id> present|missing|n/a
# <why>".  Read-only on TREE.
#
# Each change has backports/changes/<c>/DETECT lines:
#   present FILE FUNCTION ERE   the ERE occurs (in FUNCTION's body, or
#   absent  FILE FUNCTION ERE   anywhere with "-") / does not occur
#                               (FUNCTION may be a|b: either definition)
# A line whose FILE does not exist in TREE does not apply (paths moved
# between releases: one line per location).  A named FUNCTION that does not
# exist makes the line fail.  The change is present when at least one line
# applies and all that apply hold; n/a when none applies (the code it
# touches is not in the tree, e.g. ia32_aout.c in 6.1); missing otherwise.
#
# FIXSTATE_CHANGES=<dir> reads another changes folder (tests).
set -eu
. "$(dirname "$0")/lib.sh"
tree=${1:?usage: fix-state.sh TREE}
[ -d "$tree" ] || die 2 "$tree is not a folder; give the top of a kernel tree"
changes=${FIXSTATE_CHANGES:-$KIT_ROOT/backports/changes}

# body FILE FUNC: the lines of FUNC's definition (from its name to the
# first "}" in column 0), or nothing when it is not defined in FILE.
body() {
	awk -v f="$2" '
	!inside && $0 ~ "(^|[^A-Za-z0-9_])" f "\\(" && $0 !~ /;[ \t]*$/ && $0 !~ /^[ \t]/ { inside = 1 }
	inside { print; if ($0 ~ /^}/) exit }' "$1"
}

for c in $(grep -v '^#' "$changes/series"); do
	d=$changes/$c
	id=$(sed -n 's/^Upstream: //p' "$d/INFO" | cut -c1-12)
	[ -r "$d/DETECT" ] || die 2 "backports/changes/$c/DETECT is missing; every change needs one"
	applied=0 failed=
	while read -r kind file func re; do
		case $kind in present | absent) ;; '' | \#*) continue ;;
		*) die 2 "backports/changes/$c/DETECT: unknown kind '$kind'" ;; esac
		[ -f "$tree/$file" ] || continue
		applied=$((applied + 1))
		if [ "$func" = - ]; then
			text=$(cat "$tree/$file") where=$file
		else
			# FUNCTION may list alternatives, a|b: the bodies of those defined
			text=$(for f in $(echo "$func" | tr '|' ' '); do body "$tree/$file" "$f"; done)
			where="$file ($func)"
			[ -n "$text" ] || { failed="$file: no function $func"; continue; }
		fi
		if printf '%s\n' "$text" | grep -Eq -- "$re"; then hit=1; else hit=0; fi
		case $kind$hit in
		present0) failed="$where: no '$re'" ;;
		absent1) failed="$where: still has '$re'" ;;
		esac
	done <"$d/DETECT"
	if [ $applied -eq 0 ]; then
		echo "$c $id n/a none of the files it touches is in the tree"
	elif [ -n "$failed" ]; then
		echo "$c $id missing $failed"
	else
		echo "$c $id present"
	fi
done
