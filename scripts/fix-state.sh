#!/bin/sh
# fix-state.sh TREE: which of the series' upstream changes TREE already
# carries.  One line per change: "<change> <upstream id> present|missing|n/a
# <why>".  Read-only on TREE.
#
# Each change has DETECT lines (backports/fixes/<fix>/changes/<c>/DETECT):
#   present FILE FUNCTION ERE   the ERE occurs (in FUNCTION's body, or
#   absent  FILE FUNCTION ERE   anywhere with "-") / does not occur
#                               (FUNCTION may be a|b: either definition)
#   affected FILE FUNCTION ERE  the ERE occurs: the tree has the code the
#                               change fixes (optional; see below)
# A line whose FILE does not exist in TREE does not apply (paths moved
# between releases: one line per location).  A named FUNCTION that does not
# exist makes a present/absent line fail (an affected line just does not
# hold).  The change is n/a when it has affected lines and none of them
# holds (the code it fixes is gone: compat_alloc_user_space() in 6.1), or
# when none of its present/absent lines applies (the files it touches are
# not in the tree, e.g. ia32_aout.c in 6.1); else present when all the
# present/absent lines that apply hold; missing otherwise.
#
# ARCHES=<the architectures a tree ships> with TREE= (scripts/arches.sh
# names; unset or all: every one): a change line whose FILE is another architecture's
# (arch/<dir>/, include/asm-<dir>/: arches_of_path) does not apply, as if
# the file were not there.  A vendor tree that ships x86_64 and powerpc is
# judged on their files: its sparc64 headers, which it never builds, make
# no change missing.  A change whose lines are all other architectures' is
# n/a, and says so.
#
# The changes are every fix's (kit_changes, lib.sh; KIT_FIXES=<dir> reads
# another fixes folder).  FIXSTATE_CHANGES=<dir> reads a bare folder of
# change folders instead, in the order of their names (tests).
#
# fix-state.sh --host PATCH TREE: the same question for a host-toolchain
# patch (branches/host/), one line:
#   "<name> missing"              the patch applies (no fuzz): apply it
#   "<name> present <how>"        its reverse applies (the tree has this very
#                                 change), or its "Detect:" header lines hold
#                                 (the tree fixed the same problem its own
#                                 way, as later stable releases did)
#   "<name> half <where>"         neither: part of the change is there, or
#                                 the code around it is another version
# Detect: lines in a patch's header use the DETECT grammar above.  Exit 0
# whatever the state; 2 for bad input.
set -eu
. "$(dirname "$0")/lib.sh"
host=0
if [ "${1:-}" = --host ]; then
	host=1 hpatch=${2:?usage: fix-state.sh --host PATCH TREE}; shift 2
	[ -r "$hpatch" ] || die 2 "host patch $hpatch cannot be read"
fi
tree=${1:?usage: fix-state.sh TREE | fix-state.sh --host PATCH TREE}
[ -d "$tree" ] || die 2 "$tree is not a folder; give the top of a kernel tree"
# change_list, change_path <c>: the changes to judge and where each is
if [ -n "${FIXSTATE_CHANGES:-}" ]; then
	change_list() { for _d in "$FIXSTATE_CHANGES"/*/; do [ -d "$_d" ] || continue; _d=${_d%/}; echo "${_d##*/}"; done | LC_ALL=C sort; }
	change_path() { echo "$FIXSTATE_CHANGES/$1"; }
else
	change_list() { kit_changes; }
	change_path() { change_dir "$1"; }
fi

# body FILE FUNC: the lines of FUNC's definition (from its name to the
# first "}" in column 0; for an assembler macro, from ".macro FUNC" to its
# ".endm"), or nothing when it is not defined in FILE.
body() {
	awk -v f="$2" '
	!inside && $0 ~ "^[ \t]*\\.macro[ \t]+" f "([ \t,]|$)" { inside = 2 }
	!inside && $0 ~ "(^|[^A-Za-z0-9_])" f "\\(" && $0 !~ /;[ \t]*$/ && $0 !~ /^[ \t]/ { inside = 1 }
	inside { print; if ((inside == 1 && $0 ~ /^}/) || (inside == 2 && $0 ~ /^[ \t]*\.endm/)) exit }' "$1"
}

# shipped FILE: FILE is generic or one of an architecture ARCHES names
# (always, without ARCHES)
shipped() {
	[ -n "$ship" ] || return 0
	for _sa in $(arches_of_path "$1"); do
		[ "$_sa" = generic ] || arches_has "$ARCHES_LIST" "$_sa" && return 0
	done
	return 1
}

# eval_detect WHAT: read DETECT lines on stdin; sets $applied (how many
# present/absent lines apply to TREE), $failed (the last one that does not
# hold), $affected (how many affected lines apply), $affected_hit (how
# many of those hold) and $unshipped (lines left out: another
# architecture's file, ARCHES=).
eval_detect() {
	applied=0 failed= affected=0 affected_hit=0 unshipped=0
	while read -r kind file func re; do
		case $kind in present | absent | affected) ;; '' | \#*) continue ;;
		*) die 2 "$1: unknown kind '$kind' (present, absent or affected)" ;; esac
		[ -f "$tree/$file" ] || continue
		shipped "$file" || { unshipped=$((unshipped + 1)); continue; }
		if [ "$kind" = affected ]; then affected=$((affected + 1)); else applied=$((applied + 1)); fi
		if [ "$func" = - ]; then
			text=$(cat "$tree/$file") where=$file
		else
			# FUNCTION may list alternatives, a|b: the bodies of those defined
			text=$(for f in $(echo "$func" | tr '|' ' '); do body "$tree/$file" "$f"; done)
			where="$file ($func)"
			[ -n "$text" ] || { [ "$kind" = affected ] || failed="$file: no function $func"; continue; }
		fi
		if printf '%s\n' "$text" | grep -Eq -- "$re"; then hit=1; else hit=0; fi
		case $kind$hit in
		present0) failed="$where: no '$re'" ;;
		absent1) failed="$where: still has '$re'" ;;
		affected1) affected_hit=$((affected_hit + 1)) ;;
		esac
	done
}

# dry PATCH [-R]: does PATCH (or its reverse) apply to TREE with no fuzz?
# -f: never guess that a patch is reversed; each direction is asked alone.
dry() { _dp=$1; shift; patch -d "$tree" -p1 -F0 -f --dry-run -s "$@" <"$_dp" >/dev/null 2>&1; }

# host_state PATCH: one line, see the top.
host_state() {
	_p=$1 _n=$(basename "$1" .patch)
	if dry "$_p"; then echo "$_n missing"; return; fi
	if dry "$_p" -R; then echo "$_n present (its reverse applies)"; return; fi
	sed -n '/^diff /q; /^--- /q; s/^Detect: //p' "$_p" >"$ht/detect"
	if [ -s "$ht/detect" ]; then
		eval_detect "branches/host/$_n.patch: Detect" <"$ht/detect"
		if [ "$applied" -gt 0 ] && [ -z "$failed" ]; then
			echo "$_n present (in another form: its Detect lines hold)"; return
		fi
	fi
	# Neither: say where, file by file (the patch cut at its "diff " lines).
	awk -v d="$ht" '/^diff / { n++ } n { print > (d "/part." n) }' "$_p"
	fwd= rev= odd=
	for _s in "$ht"/part.*; do
		[ -e "$_s" ] || { _s=$_p; }
		_f=$(sed -n 's|^+++ [^/]*/\([^	 ]*\).*|\1|p' "$_s" | head -1)
		[ "$_f" != dev/null ] || _f=$(sed -n 's|^--- [^/]*/\([^	 ]*\).*|\1|p' "$_s" | head -1)
		if dry "$_s"; then fwd="$fwd $_f"
		elif dry "$_s" -R; then rev="$rev $_f"
		else odd="$odd $_f"; fi
	done
	if [ -n "$odd" ]; then
		echo "$_n half ${odd# }: neither the change nor its reverse applies there (part of it is there, or the code around it is another version)"
	else
		echo "$_n half${fwd}: its change is in${rev} but not there"
	fi
}

# ARCHES with TREE: judge the changes on the shipped architectures' files
# only (a host patch is x86 build machinery: never filtered; a pick of a
# branch, ARCHES= without TREE=, chooses patches, not what a tree carries)
ship=
if [ "$host" = 0 ] && [ -n "${ARCHES:-}" ] && [ -n "${TREE:-}" ]; then
	. "$KIT_ROOT/scripts/arches.sh"
	arches_canon "$ARCHES" || die 2 "$ARCHES_WHY"
	[ "$ARCHES_LIST" = "$KIT_ARCHES" ] || ship=1
fi

if [ "$host" = 1 ]; then
	ht=$(mktemp -d)
	trap 'rm -rf "$ht"' EXIT
	host_state "$hpatch"
	exit 0
fi

for c in $(change_list); do
	d=$(change_path "$c")
	id=$(header_field "$d/INFO" Upstream | cut -c1-12)
	[ -r "$d/DETECT" ] || die 2 "${d#"$KIT_ROOT"/}/DETECT is missing; every change needs one"
	eval_detect "${d#"$KIT_ROOT"/}/DETECT" <"$d/DETECT"
	if grep -q '^affected[[:space:]]' "$d/DETECT" && [ $affected_hit -eq 0 ]; then
		echo "$c $id n/a the code it fixes is not in the tree (no affected line of its DETECT holds; $affected checked)"
	elif [ $applied -eq 0 ] && [ $unshipped -gt 0 ]; then
		echo "$c $id n/a its files here are other architectures' than those shipped (ARCHES: $ARCHES_LIST)"
	elif [ $applied -eq 0 ]; then
		echo "$c $id n/a none of the files it touches is in the tree"
	elif [ -n "$failed" ]; then
		echo "$c $id missing $failed"
	else
		echo "$c $id present"
	fi
done
