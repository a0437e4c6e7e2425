#!/bin/sh
# detect.sh (TREE=): the code decides which branch a tree is.  Without
# BRANCH the Makefile's release must agree with the markers; with BRANCH
# the markers alone decide; an incomplete tree is called incomplete.
. ci/tap.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
CORE="kernel/fork.c kernel/exit.c fs/exec.c fs/binfmt_elf.c mm/mmap.c init/main.c
include/linux/sched.h arch/x86/Kconfig arch/x86/kernel/process_64.c
scripts/Makefile.build scripts/Kbuild.include"
mktree() { # mktree DIR VERSION.PATCHLEVEL.SUBLEVEL EXTRAVERSION FILE...: a complete tree
	d=$1 v=$2 e=$3; shift 3; mkdir -p "$d"
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\nEXTRAVERSION = %s\nNAME = x\n' \
		"${v%%.*}" "$(echo "$v" | cut -d. -f2)" "${v##*.}" "$e" >"$d/Makefile"
	for f in $CORE "$@"; do mkdir -p "$d/$(dirname "$f")"; : >"$d/$f"; done
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

mktree "$tmp/v32" 2.6.32 "" kernel/perf_event.c
is "a plain 2.6.32 tree is v2.6.32" v2.6.32 "$tmp/v32"
mktree "$tmp/distro" 2.6.32 "-5.vendor" kernel/perf_event.c
is "a vendor EXTRAVERSION still maps to v2.6.32" v2.6.32 "$tmp/distro"
mktree "$tmp/v26" 2.6.26 "" include/asm-x86/thread_info_64.h include/asm-x86/thread_info.h
is "a 2.6.26 tree is v2.6.26" v2.6.26 "$tmp/v26"
mktree "$tmp/v30" 2.6.30 "" fs/fscache/main.c kernel/cred.c
is "a 2.6.30 tree is v2.6.30" v2.6.30 "$tmp/v30"
mktree "$tmp/v61" 6.1.0 "" kernel/events/core.c fs/fscache/main.c kernel/cred.c
is "a 6.1 tree is debian-6.1 (and not v2.6.30, whose markers it also had before)" debian-6.1 "$tmp/v61"

# The Makefile names one release, the code is another.
mktree "$tmp/liar" 2.6.32 "" kernel/perf_counter.c
refused "a Makefile that disagrees with the code is named, and BRANCH= offered" \
	"Makefile says 2.6.32 but its code looks like 2.6.31.*pass BRANCH=v2.6.31" "$tmp/liar"
is "BRANCH= that the code matches is honoured whatever the Makefile says" v2.6.31 "$tmp/liar" v2.6.31
grep -q "its Makefile says 2.6.32; its code matches v2.6.31" "$tmp/err" &&
	t_ok "... and the Makefile's other release is noted" || t_fail "the Makefile's release is noted" "$(cat "$tmp/err")"
refused "BRANCH= that the code contradicts is refused, saying which marker fails" \
	"is not v2.6.31: kernel/perf_counter.c is missing, and its code looks like 2.6.32.*drop BRANCH=" "$tmp/v32" v2.6.31
refused "BRANCH= the Makefile agrees with but the code does not is refused too" \
	"is not v2.6.32: kernel/perf_event.c is missing" "$tmp/liar" v2.6.32
refused "an unknown BRANCH= is refused" "unknown branch 'v2.6.99'" "$tmp/v32" v2.6.99

# Incomplete trees are called incomplete, never "looks like".
mktree "$tmp/cut" 2.6.31 "" kernel/perf_counter.c
rm "$tmp/cut/fs/exec.c" "$tmp/cut/mm/mmap.c"
refused "a tree with files missing is incomplete, naming them" "is incomplete: it lacks fs/exec.c, mm/mmap.c (2 of 12" "$tmp/cut"
refused "... also when BRANCH= is given" "is incomplete" "$tmp/cut" v2.6.31
mktree "$tmp/nomk" 2.6.31 "" kernel/perf_counter.c; rm "$tmp/nomk/Makefile"
refused "a tree without its top Makefile is incomplete" "is incomplete: it lacks Makefile" "$tmp/nomk"

mktree "$tmp/old" 2.6.18 ""
refused "an unsupported release is refused in one line" "Linux 2.6.18; no branch supports it" "$tmp/old"
mkdir "$tmp/empty"
refused "a folder that is no kernel tree is refused in one line" "no kernel Makefile" "$tmp/empty"
mkdir "$tmp/proj"; printf 'all:\n\ttrue\n' >"$tmp/proj/Makefile"
refused "a folder with some other Makefile is no kernel tree" "no kernel Makefile" "$tmp/proj"
refused "a TREE that does not exist" "is not a folder" "$tmp/nope"
t_done
