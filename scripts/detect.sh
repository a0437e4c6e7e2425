#!/bin/sh
# detect.sh TREE: print the branch whose definition matches TREE.
#
# The base version comes from TREE's top Makefile (VERSION, PATCHLEVEL,
# SUBLEVEL); vendors edit that Makefile (EXTRAVERSION, sometimes more), so
# the answer is cross-checked against files that tell releases apart
# (BR_MARKERS in each branch definition).  Exit 2 with a one-line reason
# when TREE is not a kernel tree or nothing matches.
set -eu
. "$(dirname "$0")/lib.sh"
tree=${1:?usage: detect.sh TREE}
[ -d "$tree" ] || die 2 "TREE=$tree is not a folder; give the top of a kernel source tree"
mf=$tree/Makefile
[ -r "$mf" ] && grep -q '^PATCHLEVEL *=' "$mf" ||
	die 2 "TREE=$tree has no kernel Makefile with VERSION/PATCHLEVEL; give the top of a kernel source tree"
mkv() { sed -n "s/^$1 *= *\([0-9]*\).*/\1/p" "$mf" | head -1; }
v=$(mkv VERSION).$(mkv PATCHLEVEL)
s=$(mkv SUBLEVEL)
base=$v${s:+.$s}

markers_match() {
	for m in $1; do
		case $m in
		+*) [ -e "$tree/${m#+}" ] || return 1 ;;
		-*) [ ! -e "$tree/${m#-}" ] || return 1 ;;
		esac
	done
}

cand=
for b in $(list_branches); do
	load_branch "$b"
	case $BR_VERSION in
	"$v" | "$base") cand="$cand $b" ;;
	2.6.*) [ "$v" = 2.6 ] && [ "2.6.$s" = "$BR_VERSION" ] && cand="$cand $b" ;;
	esac
done
cand=${cand# }
[ -n "$cand" ] || die 2 "TREE=$tree is Linux $base; no branch supports it (known: $(list_branches | tr '\n' ' '))"
for b in $cand; do
	load_branch "$b"
	if markers_match "$BR_MARKERS"; then
		echo "$b"; exit 0
	fi
done
# The Makefile says one release, the code another: say which it looks like.
for b in $(list_branches); do
	load_branch "$b"
	[ -n "$BR_MARKERS" ] && markers_match "$BR_MARKERS" && {
		die 2 "TREE=$tree: its Makefile says $base but its code looks like $BR_VERSION (markers: $BR_MARKERS); fix the Makefile or pass BRANCH=<name> with a tree that matches"
	}
done
die 2 "TREE=$tree: its Makefile says $base but the code matches no branch's markers; is it a complete tree?"
