#!/bin/sh
# detect.sh (TREE=): the code decides which branch a tree is, above all the
# code the kit's fixes touch (fix sites).  Without BRANCH the Makefile's
# release is taken when its fix sites are there, markers that fail only
# warned about (backports add and move such files); with BRANCH its fix
# sites decide; a branch with no series (debian-6.1) is told by its
# markers; an incomplete tree is called incomplete.
. ci/tap.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
CORE="kernel/fork.c kernel/exit.c fs/exec.c fs/binfmt_elf.c mm/mmap.c init/main.c
include/linux/sched.h arch/x86/Kconfig arch/x86/kernel/process_64.c
scripts/Makefile.build scripts/Kbuild.include"
# Files every tree from 2.6.30 on has (kernel/cred.c came in 2.6.29,
# fs/fscache in 2.6.30): v2.6.28's and v2.6.29's markers say they are not.
LATER="kernel/cred.c fs/fscache/main.c"
mktree() { # mktree DIR VERSION.PATCHLEVEL.SUBLEVEL EXTRAVERSION BRANCH FILE...: a complete tree with BRANCH's fix sites
	d=$1 v=$2 e=$3 b=$4; shift 4; mkdir -p "$d"
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\nEXTRAVERSION = %s\nNAME = x\n' \
		"${v%%.*}" "$(echo "$v" | cut -d. -f2)" "${v##*.}" "$e" >"$d/Makefile"
	for f in $CORE $(sh scripts/detect.sh --sites "$b") "$@"; do mkdir -p "$d/$(dirname "$f")"; : >"$d/$f"; done
}
is() { # is NAME WANT TREE [BRANCH]
	_o=$(sh scripts/detect.sh "$3" ${4:+"$4"} 2>"$tmp/err"); _rc=$?
	[ $_rc -eq 0 ] && [ "$_o" = "$2" ] && t_ok "$1" || t_fail "$1" "rc=$_rc out=$_o" "$(cat "$tmp/err")"
}
refused() { # refused NAME PATTERN TREE [BRANCH]: exit 2, one line, matching
	_o=$(sh scripts/detect.sh "$3" ${4:+"$4"} 2>&1); _rc=$?
	[ $_rc -eq 2 ] && [ "$(echo "$_o" | wc -l)" -eq 1 ] && echo "$_o" | grep -q -- "$2" && t_ok "$1" ||
		t_fail "$1" "rc=$_rc" "$_o"
}
said() { # said NAME PATTERN: the last run's stderr is one line matching
	[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- "$2" "$tmp/err" && t_ok "$1" || t_fail "$1" "$(cat "$tmp/err")"
}
quiet() { # quiet NAME: the last run said nothing on stderr
	[ ! -s "$tmp/err" ] && t_ok "$1" || t_fail "$1" "$(cat "$tmp/err")"
}

sh scripts/detect.sh --sites v2.6.32 >"$tmp/sites" 2>&1
grep -qx fs/exec.c "$tmp/sites" && grep -qx arch/x86/include/asm/compat.h "$tmp/sites" &&
	! grep -q -e '^arch/[^x]' -e /dev/null "$tmp/sites" && [ "$(sort "$tmp/sites" | uniq -d)" = "" ] &&
	t_ok "--sites v2.6.32: the files its series modifies, x86's and no architecture's, each once" ||
	t_fail "--sites v2.6.32" "$(cat "$tmp/sites")"
[ -z "$(sh scripts/detect.sh --sites debian-6.1)" ] &&
	t_ok "--sites debian-6.1: none (no committed series)" || t_fail "--sites debian-6.1 is empty"

mktree "$tmp/v32" 2.6.32 "" v2.6.32 $LATER kernel/perf_event.c
is "a plain 2.6.32 tree is v2.6.32" v2.6.32 "$tmp/v32"
quiet "... without a word on stderr"
mktree "$tmp/distro" 2.6.32 "-5.vendor" v2.6.32 $LATER kernel/perf_event.c
is "a vendor EXTRAVERSION still maps to v2.6.32" v2.6.32 "$tmp/distro"
mktree "$tmp/v26" 2.6.26 "" v2.6.26 include/asm-x86/thread_info_64.h include/asm-x86/thread_info.h
is "a 2.6.26 tree is v2.6.26" v2.6.26 "$tmp/v26"
mktree "$tmp/v30" 2.6.30 "" v2.6.30 $LATER
is "a 2.6.30 tree is v2.6.30" v2.6.30 "$tmp/v30"
mktree "$tmp/v61" 6.1.0 "" debian-6.1 kernel/events/core.c $LATER
is "a 6.1 tree is debian-6.1, by its markers (and not v2.6.30, whose markers it also had before)" debian-6.1 "$tmp/v61"
rm "$tmp/v61/kernel/events/core.c"
refused "a 6.1 tree without debian-6.1's marker is refused, naming it" \
	"Makefile says 6.1.0 but its code matches no branch's markers (kernel/events/core.c is missing for debian-6.1)" "$tmp/v61"

# An enterprise 2.6.32: its backports moved kernel/perf_event.c to
# kernel/events/core.c (6.1's marker); the fix sites say 2.6.32.
mktree "$tmp/ent" 2.6.32 "-131.el6" v2.6.32 $LATER kernel/events/core.c
is "an enterprise 2.6.32 whose backports moved files is v2.6.32" v2.6.32 "$tmp/ent"
said "... with one warning naming the marker it lacks and the one it has" \
	"warning: TREE=$tmp/ent: accepted as v2.6.32 by its Makefile and its fix sites; files that backports add or move differ: kernel/perf_event.c is missing; kernel/events/core.c is there (debian-6.1's marker)$"
is "... also with BRANCH=v2.6.32" v2.6.32 "$tmp/ent" v2.6.32
said "... with the same warning" "accepted as v2.6.32 by BRANCH= and its fix sites; .*kernel/perf_event.c is missing; kernel/events/core.c is there"

# The Makefile names one release, the markers another: the fix sites decide.
mktree "$tmp/liar" 2.6.32 "" v2.6.31 $LATER kernel/perf_counter.c
is "a Makefile whose fix sites are there wins over another release's marker" v2.6.32 "$tmp/liar"
said "... warning about the marker" "accepted as v2.6.32 by its Makefile and its fix sites; .*kernel/perf_event.c is missing; kernel/perf_counter.c is there (v2.6.31's marker)"
is "BRANCH= whose fix sites and markers match is honoured whatever the Makefile says" v2.6.31 "$tmp/liar" v2.6.31
grep -q "its Makefile says 2.6.32; its code matches v2.6.31" "$tmp/err" &&
	t_ok "... and the Makefile's other release is noted" || t_fail "the Makefile's release is noted" "$(cat "$tmp/err")"
is "BRANCH= whose fix sites match is honoured whatever its markers say" v2.6.31 "$tmp/v32" v2.6.31
grep -q "kernel/perf_counter.c is missing; kernel/perf_event.c is there (v2.6.32's marker)" "$tmp/err" &&
	t_ok "... warning about the markers" || t_fail "the markers are warned about" "$(cat "$tmp/err")"
mktree "$tmp/v27as32" 2.6.27 "" v2.6.32 $LATER kernel/perf_event.c
refused "a Makefile whose fix sites are missing, when another branch fits, offers BRANCH=" \
	"Makefile says 2.6.27 but its code looks like 2.6.32 (v2.6.32: +kernel/perf_event.c, and its fix sites are there), and it lacks v2.6.27's fix sites include/asm-x86/.*pass BRANCH=v2.6.32" "$tmp/v27as32"
refused "BRANCH= whose fix sites are missing is refused, naming them" \
	"is not v2.6.27: it lacks v2.6.27's fix sites include/asm-x86/[a-z_]*.h, include/asm-x86/[a-z_]*.h, include/asm-x86/[a-z_]*.h (3 of 17 files .*drop BRANCH=" "$tmp/v32" v2.6.27
refused "an unknown BRANCH= is refused" "unknown branch 'v2.6.99'" "$tmp/v32" v2.6.99
is "BRANCH= of a branch with no fix sites whose markers match is honoured" debian-6.1 "$tmp/ent" debian-6.1
refused "BRANCH= of a branch with no fix sites is refused when neither Makefile nor markers agree" \
	"is not debian-6.1: kernel/events/core.c is missing, and its code looks like 2.6.32" "$tmp/v32" debian-6.1

# A 2.6.32 Makefile on a tree the kit's fixes cannot apply to.
mktree "$tmp/nocompat" 2.6.32 "" v2.6.32 $LATER kernel/perf_event.c
rm "$tmp/nocompat/include/linux/compat.h"
refused "a tree that lacks a fix site of its Makefile's release is refused, naming it" \
	"Makefile says 2.6.32 but it lacks v2.6.32's fix sites include/linux/compat.h (1 of 18 files the kit's v2.6.32 backports modify)" "$tmp/nocompat"
refused "... also with that BRANCH=" "is not v2.6.32: it lacks v2.6.32's fix sites include/linux/compat.h (1 of 18" "$tmp/nocompat" v2.6.32

# Incomplete trees are called incomplete, never "looks like".
mktree "$tmp/cut" 2.6.31 "" v2.6.31 $LATER kernel/perf_counter.c
rm "$tmp/cut/fs/exec.c" "$tmp/cut/mm/mmap.c"
refused "a tree with files missing is incomplete, naming them" "is incomplete: it lacks fs/exec.c, mm/mmap.c (2 of 12" "$tmp/cut"
refused "... also when BRANCH= is given" "is incomplete" "$tmp/cut" v2.6.31
mktree "$tmp/nomk" 2.6.31 "" v2.6.31 $LATER kernel/perf_counter.c; rm "$tmp/nomk/Makefile"
refused "a tree without its top Makefile is incomplete" "is incomplete: it lacks Makefile" "$tmp/nomk"

mktree "$tmp/old" 2.6.18 "" debian-6.1
refused "an unsupported release is refused in one line" "Linux 2.6.18; no branch supports it" "$tmp/old"
mkdir "$tmp/empty"
refused "a folder that is no kernel tree is refused in one line" "no kernel Makefile" "$tmp/empty"
mkdir "$tmp/proj"; printf 'all:\n\ttrue\n' >"$tmp/proj/Makefile"
refused "a folder with some other Makefile is no kernel tree" "no kernel Makefile" "$tmp/proj"
refused "a TREE that does not exist" "is not a folder" "$tmp/nope"
refused "--sites of an unknown branch" "unknown branch 'v9'" --sites v9

# A symlink out of the tree: its target is not the tree's content (the
# tree's name would not change with it), so the tree is refused up front;
# a link inside the tree is content like any file.
mktree "$tmp/inlink" 2.6.32 "" v2.6.32 $LATER kernel/perf_event.c
ln -s exec.c "$tmp/inlink/fs/exec-alias.c"
is "a symlink inside the tree is content like any file" v2.6.32 "$tmp/inlink"
mktree "$tmp/outlink" 2.6.32 "" v2.6.32 $LATER kernel/perf_event.c
echo '/* elsewhere */' >"$tmp/outside.c"
rm "$tmp/outlink/fs/exec.c"; ln -s "$tmp/outside.c" "$tmp/outlink/fs/exec.c"
refused "a symlink out of the tree is refused, naming it and where it points" \
	"has a symlink out of the tree (fs/exec.c -> $tmp/outside.c).*cp -rL" "$tmp/outlink"
refused "... also with BRANCH=" "has a symlink out of the tree" "$tmp/outlink" v2.6.32
t_done
