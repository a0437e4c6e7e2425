#!/bin/sh
# detect.sh TREE [BRANCH]: print the branch whose definition matches TREE.
# detect.sh --sites BRANCH: print BRANCH's fix sites, one per line.
#
# The code decides, not the version string, and above all the code the
# kit's fixes touch.  A branch's fix sites are the files its committed
# series (backports/<b>/series) modifies, less other architectures' files
# (arch/<a>/, include/asm-<a>/ for a not x86: the kit builds x86_64, and a
# vendor may drop them); they match a tree when each is a file in it.  A
# branch with no series (debian-6.1, fetched through apt) has none: its
# markers alone decide.  Markers (BR_MARKERS, files whose presence or
# absence tells releases apart) are files that backports add or move: an
# enterprise 2.6.32 whose backports moved kernel/perf_event.c to
# kernel/events/core.c is still a 2.6.32 for the kit's fixes.
#
#   detect.sh TREE          the release named by TREE's top Makefile
#                           (VERSION, PATCHLEVEL, SUBLEVEL; vendors edit
#                           EXTRAVERSION), when its fix sites match; its
#                           markers failing is a one-line warning.  When
#                           they do not match, refused: suggesting
#                           BRANCH=<b> when exactly one other branch's
#                           markers and fix sites match, else naming the
#                           missing sites.  A branch with no fix sites is
#                           confirmed by its markers; when the Makefile
#                           names no branch or several, the one whose
#                           markers and fix sites match is
#   detect.sh TREE BRANCH   BRANCH, when its fix sites match TREE whatever
#                           the Makefile or the markers say (a vendor's
#                           Makefile may name another release); with no fix
#                           sites, when the Makefile agrees or its markers
#                           match.  Refused, naming what fails, otherwise
#
# A tree that lacks files every kernel tree of the era has (an interrupted
# copy) is called incomplete, never "looks like" some release.  Exit 0 with
# the branch on stdout, 2 with one line naming the problem and the fix.
# Read-only on TREE.
set -eu
. "$(dirname "$0")/lib.sh"

# sites B...: one line per B, "B SITE...": the files B's series modifies
# (--- a/<path>; /dev/null is a new file), x86's or no architecture's, each
# once.  One awk for every branch: it runs on every call.
sites() {
	awk -v dir="$KIT_ROOT/backports" -v me="${0##*/}" '
	function site(p) {
		sub(/^--- a\//, "", p); sub(/[ \t].*/, "", p)
		if (p ~ /^arch\// && p !~ /^arch\/x86\//) return ""
		if (p ~ /^include\/asm-/ && p !~ /^include\/asm-(x86|generic)\//) return ""
		return p
	}
	BEGIN {
		for (i = 1; i < ARGC; i++) {
			b = ARGV[i]; out = b; split("", seen); s = dir "/" b "/series"
			while ((getline l < s) > 0) {
				sub(/#.*/, "", l)
				if (split(l, w, " ") == 0) continue
				f = dir "/" b "/" w[1]
				while ((r = getline x < f) > 0)
					if (x ~ /^--- a\// && (p = site(x)) != "" && !(p in seen)) { seen[p]; out = out " " p }
				if (r < 0) {
					printf "%s: error: backports/%s/series names %s, which is not there; restore it (git checkout -- backports/%s)\n", me, b, w[1], b > "/dev/stderr"
					exit 2
				}
				close(f)
			}
			close(s)
			print out
		}
	}' "$@"
}

if [ "${1:-}" = --sites ]; then
	load_branch "${2:-}"
	_s=$(sites "$2") || exit 2
	# shellcheck disable=SC2086 # sites are plain paths
	set -- $_s; shift
	[ $# -eq 0 ] || printf '%s\n' "$@"
	exit 0
fi

tree=${1:?usage: detect.sh TREE [BRANCH] | detect.sh --sites BRANCH}
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
# A symlink out of the tree: the build would read what it points at, which
# the tree's name (the digest of its listing, where a link is its target's
# name) does not cover: another file there would be another kernel under
# the same name.
real=$(cd "$tree" && pwd -P)
esc=$(cd "$real" && find . -type l -print | while IFS= read -r l; do
	t=$(readlink -f -- "$l") || t=
	case $t in "$real"/*) ;; *) printf '%s -> %s' "${l#./}" "$(readlink -- "$l")"; break ;; esac
done)
[ -z "$esc" ] ||
	die 2 "TREE=$tree has a symlink out of the tree ($esc): the kit names a tree by its content and would build from a file outside it; give a copy with the links resolved (cp -rL)"

mkv() { sed -n "s/^$1 *= *\([0-9]*\).*/\1/p" "$mf" | head -1; }
v=$(mkv VERSION).$(mkv PATCHLEVEL)
s=$(mkv SUBLEVEL)
base=$v${s:+.$s}

# marker_fails MARKERS: the markers that do not hold, in words, "; "
# between them; nothing when all hold.
marker_fails() {
	_mf=
	for m in $1; do
		case $m in
		+*) [ -e "$tree/${m#+}" ] || _mf="$_mf; ${m#+} is missing" ;;
		-*) [ ! -e "$tree/${m#-}" ] || _mf="$_mf; ${m#-} exists" ;;
		esac
	done
	echo "${_mf#; }"
}

# Per branch: its markers match (matched); it fits, its markers and its fix
# sites, if any, both match (fit); the Makefile names it (cand).  For want
# and the candidates, the sites it has and those the tree lacks.
matched="" fit="" cand="" wsites="" wmiss="" csites="" cmiss=""
# shellcheck disable=SC2046 # branch names are plain words
allsites=$(sites $(list_branches)) || exit 2
while read -r b bs; do
	load_branch "$b"
	bmiss=
	for f in $bs; do [ -f "$tree/$f" ] || bmiss="$bmiss $f"; done
	mk=
	[ -n "$BR_MARKERS" ] && [ -z "$(marker_fails "$BR_MARKERS")" ] && mk=1 matched="$matched $b"
	[ -n "$mk" ] && [ -z "$bmiss" ] && fit="$fit $b"
	[ "$b" = "$want" ] && wsites=$bs wmiss=$bmiss
	case $BR_VERSION in
	"$v" | "$base") cand="$cand $b" csites=$bs cmiss=$bmiss ;;
	2.6.*) [ "$v" = 2.6 ] && [ "2.6.$s" = "$BR_VERSION" ] && cand="$cand $b" csites=$bs cmiss=$bmiss ;;
	esac
done <<EOF
$allsites
EOF
matched=${matched# } fit=${fit# } cand=${cand# }
in_list() { case " $2 " in *" $1 "*) return 0 ;; esac; return 1; }
looks() {
	case $(echo $fit | wc -w) in
	0) echo "its code fits no branch's markers and fix sites" ;;
	1) load_branch "$fit"
	   if [ -f "$KIT_ROOT/backports/$fit/series" ]; then
		echo "its code looks like $BR_VERSION ($fit: $BR_MARKERS, and its fix sites are there)"
	   else
		echo "its code looks like $BR_VERSION ($fit: $BR_MARKERS)"
	   fi ;;
	*) echo "its code fits the markers and fix sites of $(echo $fit | sed 's/ /, /g')" ;;
	esac
}
# lacking B SITES MISSING: "B's fix sites a, b, c, ... (n of N files the
# kit's B backports modify)"
lacking() { echo "$1's fix sites $(few $3) ($(echo $3 | wc -w) of $(echo $2 | wc -w) files the kit's $1 backports modify)"; }
# accepted B WHY: B is taken; when its markers fail, one warning saying how
# the tree differs, and which other branch's markers it has instead.
accepted() {
	load_branch "$1"
	_d=$(marker_fails "$BR_MARKERS")
	if [ -n "$_d" ]; then
		for o in $matched; do
			[ "$o" != "$1" ] || continue
			load_branch "$o"
			for m in $BR_MARKERS; do
				case $m in +*) _d="$_d; ${m#+} is there ($o's marker)" ;; esac
			done
		done
		warn "TREE=$tree: accepted as $1 by $2; files that backports add or move differ: $_d"
	fi
	echo "$1"; exit 0
}

if [ -n "$want" ]; then
	load_branch "$want"
	note() {
		[ -z "$cand" ] || in_list "$want" "$cand" ||
			printf '%s: note: TREE=%s: its Makefile says %s; its code matches %s, as BRANCH=%s says\n' \
				"${0##*/}" "$tree" "${base:-nothing}" "$want" "$want" >&2
	}
	if [ -n "$wsites" ]; then
		[ -n "$wmiss" ] ||
			{ note; accepted "$want" "BRANCH= and its fix sites"; }
		die 2 "TREE=$tree is not $want: it lacks $(lacking "$want" "$wsites" "$wmiss"), and $(looks); drop BRANCH= or give a $want tree"
	fi
	in_list "$want" "$matched" && { note; echo "$want"; exit 0; }
	in_list "$want" "$cand" && accepted "$want" "BRANCH= and its Makefile"
	why=$(marker_fails "$BR_MARKERS")
	die 2 "TREE=$tree is not $want: ${why:-$want has no markers}, and $(looks); drop BRANCH= or give a $want tree"
fi

[ -n "$(mkv PATCHLEVEL)" ] ||
	die 2 "TREE=$tree: its top Makefile names no VERSION/PATCHLEVEL; pass BRANCH=<name> to say which release it is"
# One release named, with fix sites: they decide.
if [ -n "$cand" ] && [ "$cand" = "${cand%% *}" ] && [ -n "$csites" ]; then
	[ -n "$cmiss" ] || accepted "$cand" "its Makefile and its fix sites"
	# (a branch with no fix sites, debian-6.1, is no advice for a tree
	# whose Makefile names a release that has them)
	if [ "$(echo $fit | wc -w)" -eq 1 ] && [ -f "$KIT_ROOT/backports/$fit/series" ]; then
		die 2 "TREE=$tree: its Makefile says $base but $(looks), and it lacks $(lacking "$cand" "$csites" "$cmiss"); pass BRANCH=$fit to build it as $fit, or fix the Makefile"
	fi
	die 2 "TREE=$tree: its Makefile says $base but it lacks $(lacking "$cand" "$csites" "$cmiss"); give a $cand tree that has them, or pass BRANCH=<name> of the release its code is"
fi
both=
for b in $cand; do in_list "$b" "$fit" && both="$both $b"; done
both=${both# }
case $(echo $both | wc -w) in
1) echo "$both"; exit 0 ;;
0) ;;
*) die 2 "TREE=$tree: its Makefile says $base and the markers of $(echo $both | sed 's/ /, /g') all match; pass BRANCH=<name>" ;;
esac
if [ -z "$cand" ] && [ -z "$fit" ]; then
	die 2 "TREE=$tree is Linux $base; no branch supports it (known: $(list_branches | tr '\n' ' '))"
fi
case $(echo $fit | wc -w) in
1) die 2 "TREE=$tree: its Makefile says $base but $(looks); pass BRANCH=$fit to build it as $fit, or fix the Makefile" ;;
0) load_branch "${cand%% *}"
   die 2 "TREE=$tree: its Makefile says $base but its code matches no branch's markers ($(marker_fails "$BR_MARKERS") for ${cand%% *}); is it a kernel tree of that release?" ;;
*) die 2 "TREE=$tree: its Makefile says $base and $(looks); pass BRANCH=<name>" ;;
esac
