#!/bin/sh
# detect.sh TREE [BRANCH]: print the branch whose definition matches TREE.
#
# The code decides, not the version string: each branch definition names
# files that tell its release from the others (BR_MARKERS), and a tree is
# a branch only when that branch's markers match it.
#
#   detect.sh TREE          the release named by TREE's top Makefile
#                           (VERSION, PATCHLEVEL, SUBLEVEL; vendors edit
#                           EXTRAVERSION), confirmed by its markers
#   detect.sh TREE BRANCH   BRANCH, when its markers match TREE, whatever
#                           the Makefile says (a vendor's Makefile may name
#                           another release); refused, saying which marker
#                           fails, when they do not
#
# A tree that lacks files every kernel tree of the era has (an interrupted
# copy) is called incomplete, never "looks like" some release.  Exit 0 with
# the branch on stdout, 2 with one line naming the problem and the fix.
# Read-only on TREE.
set -eu
. "$(dirname "$0")/lib.sh"
tree=${1:?usage: detect.sh TREE [BRANCH]}
want=${2:-}
[ -d "$tree" ] || die 2 "TREE=$tree is not a folder; give the top of a kernel source tree"

# Files every tree from 2.6.26 to 6.1 has, across the folders a copy walks.
CORE="Makefile kernel/fork.c kernel/exit.c fs/exec.c fs/binfmt_elf.c mm/mmap.c
init/main.c include/linux/sched.h arch/x86/Kconfig arch/x86/kernel/process_64.c
scripts/Makefile.build scripts/Kbuild.include"
have=0 lacks=
for f in $CORE; do
	if [ -f "$tree/$f" ]; then have=$((have + 1)); else lacks="$lacks $f"; fi
done
mf=$tree/Makefile
if [ $have -eq 0 ] || { [ $have -eq 1 ] && [ -f "$mf" ] && ! grep -q '^PATCHLEVEL *=' "$mf"; }; then
	die 2 "TREE=$tree has no kernel Makefile with VERSION/PATCHLEVEL; give the top of a kernel source tree"
fi
# few WORDS: "a, b, c, ..." (three at most)
few() { echo $* | awk '{ for (i = 1; i <= NF && i <= 3; i++) printf "%s%s", (i > 1 ? ", " : ""), $i; if (NF > 3) printf ", ..." }'; }
[ -z "$lacks" ] ||
	die 2 "TREE=$tree is incomplete: it lacks $(few $lacks) ($(echo $lacks | wc -w) of $(echo $CORE | wc -w) files every kernel tree has; an interrupted copy?); copy the whole tree again"

mkv() { sed -n "s/^$1 *= *\([0-9]*\).*/\1/p" "$mf" | head -1; }
v=$(mkv VERSION).$(mkv PATCHLEVEL)
s=$(mkv SUBLEVEL)
base=$v${s:+.$s}

# marker_fails MARKERS: the first marker that does not hold, in words;
# nothing when all hold.
marker_fails() {
	for m in $1; do
		case $m in
		+*) [ -e "$tree/${m#+}" ] || { echo "${m#+} is missing"; return; } ;;
		-*) [ ! -e "$tree/${m#-}" ] || { echo "${m#-} exists"; return; } ;;
		esac
	done
}

# The branches whose markers match, and those the Makefile names.
matched= cand=
for b in $(list_branches); do
	load_branch "$b"
	[ -n "$BR_MARKERS" ] && [ -z "$(marker_fails "$BR_MARKERS")" ] && matched="$matched $b"
	case $BR_VERSION in
	"$v" | "$base") cand="$cand $b" ;;
	2.6.*) [ "$v" = 2.6 ] && [ "2.6.$s" = "$BR_VERSION" ] && cand="$cand $b" ;;
	esac
done
matched=${matched# } cand=${cand# }
in_list() { case " $2 " in *" $1 "*) return 0 ;; esac; return 1; }
looks() {
	case $(echo $matched | wc -w) in
	0) echo "its code matches no branch's markers" ;;
	1) load_branch "$matched"; echo "its code looks like $BR_VERSION ($matched: $BR_MARKERS)" ;;
	*) echo "its code matches the markers of $(echo $matched | sed 's/ /, /g')" ;;
	esac
}

if [ -n "$want" ]; then
	load_branch "$want"
	if in_list "$want" "$matched"; then
		[ -z "$cand" ] || in_list "$want" "$cand" ||
			printf '%s: note: TREE=%s: its Makefile says %s; its code matches %s, as BRANCH=%s says\n' \
				"${0##*/}" "$tree" "${base:-nothing}" "$want" "$want" >&2
		echo "$want"; exit 0
	fi
	why=$(marker_fails "$BR_MARKERS")
	die 2 "TREE=$tree is not $want: ${why:-$want has no markers}, and $(looks); drop BRANCH= or give a $want tree"
fi

[ -n "$(mkv PATCHLEVEL)" ] ||
	die 2 "TREE=$tree: its top Makefile names no VERSION/PATCHLEVEL; pass BRANCH=<name> to say which release it is"
both=
for b in $cand; do in_list "$b" "$matched" && both="$both $b"; done
both=${both# }
case $(echo $both | wc -w) in
1) echo "$both"; exit 0 ;;
0) ;;
*) die 2 "TREE=$tree: its Makefile says $base and the markers of $(echo $both | sed 's/ /, /g') all match; pass BRANCH=<name>" ;;
esac
if [ -z "$cand" ] && [ -z "$matched" ]; then
	die 2 "TREE=$tree is Linux $base; no branch supports it (known: $(list_branches | tr '\n' ' '))"
fi
case $(echo $matched | wc -w) in
1) die 2 "TREE=$tree: its Makefile says $base but $(looks); pass BRANCH=$matched to build it as $matched, or fix the Makefile" ;;
0) load_branch "${cand%% *}"
   die 2 "TREE=$tree: its Makefile says $base but its code matches no branch's markers ($(marker_fails "$BR_MARKERS") for ${cand%% *}); is it a kernel tree of that release?" ;;
*) die 2 "TREE=$tree: its Makefile says $base and $(looks); pass BRANCH=<name>" ;;
esac
