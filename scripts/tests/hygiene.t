#!/bin/sh
# Input hygiene: make clean removes exactly OUT and refuses what is not an
# output folder; NAME and BRANCH are plain names, checked before anything
# is read or written; make series honours TREE=.
#
# make clean runs on a copy of the kit (a git repository of its own), and
# every case that must be refused runs with rm and chmod replaced by stubs
# that only log: a regression fails the test, it never empties / or $HOME.
. ci/tap.sh
root=$(pwd)
tmp=$(mktemp -d); trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
kit=$tmp/kit
: >"$tmp/start"
mkdir -p "$kit" "$tmp/home" "$tmp/bin"
cp -R Makefile scripts branches "$kit/"
git -C "$kit" init -q && git -C "$kit" add -A &&
	git -C "$kit" -c user.name=t -c user.email=t@t commit -qm kit || exit 1
for c in rm chmod; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/stub.log"\n' "$c" "$tmp" >"$tmp/bin/$c"
	chmod +x "$tmp/bin/$c"
done
# clean [VAR=value...]: make clean in the copy; sets rc, err.
clean() {
	err=$(env -u OUT HOME="$tmp/home" KIT_CONFIG=/nonexistent KIT_CACHE="$tmp/cache" "$@" \
		make -s -C "$kit" clean 2>&1 >/dev/null); rc=$?
}
# refused NAME PATTERN [VAR=value...]: make clean exits 2 with PATTERN
# and removes nothing (the stubs were never called).
refused() {
	_n=$1 _p=$2; shift 2
	rm -f "$tmp/stub.log"
	clean PATH="$tmp/bin:$PATH" "$@"
	_l=$(printf '%s\n' "$err" | grep -Ev '^make(\[[0-9]+\])?: \*\*\*')
	if [ $rc -ne 0 ] && [ ! -e "$tmp/stub.log" ] && [ "$(printf '%s\n' "$_l" | wc -l)" -eq 1 ] &&
		printf '%s' "$_l" | grep -q -- "$_p"; then
		t_ok "$_n"
	else t_fail "$_n" "rc=$rc" "$err" "$(cat "$tmp/stub.log" 2>/dev/null)"; fi
}

mark=.stable-backport-kit-out
mkdir -p "$tmp/a b/sub" "$tmp/a" "$kit/b"
: >"$tmp/a b/sub/f"; : >"$tmp/a/keep"; : >"$kit/b/keep"; : >"$tmp/a b/$mark"
chmod a-w "$tmp/a b/sub"
clean OUT="$tmp/a b"
if [ $rc -eq 0 ] && [ ! -e "$tmp/a b" ] && [ -e "$tmp/a/keep" ] && [ -e "$kit/b/keep" ]; then
	t_ok "make clean OUT='<tmp>/a b' removes that folder (read-only parts too), not <tmp>/a nor ./b"
else t_fail "make clean OUT='<tmp>/a b' removes that folder, not <tmp>/a nor ./b" "rc=$rc" "$err"; fi
mkdir -p "$kit/out/x"; : >"$kit/out/$mark"
clean
[ $rc -eq 0 ] && [ ! -e "$kit/out" ] && [ -e "$kit/b/keep" ] &&
	t_ok "make clean with no OUT removes the kit's ./out" || t_fail "make clean with no OUT removes the kit's ./out" "rc=$rc" "$err"
clean OUT="$tmp/never-made"
[ $rc -eq 0 ] && t_ok "an OUT that does not exist: nothing to do, exit 0" || t_fail "an OUT that does not exist: nothing to do, exit 0" "$err"

mkdir -p "$kit/out"
refused "OUT= (empty) is refused" "OUT is empty" OUT=
refused "OUT=/ is refused" "OUT=/ is the root folder" OUT=/
refused "OUT=\$HOME is refused" "is or contains your home folder" OUT="$tmp/home"
refused "OUT=\$HOME/ (trailing slash) is refused" "is or contains your home folder" OUT="$tmp/home/"
refused "an OUT that contains \$HOME is refused" "is or contains your home folder" OUT="$tmp"
refused "OUT=<the kit> is refused" "is or contains the kit's repository" OUT="$kit"
refused "OUT=<the kit>/. is refused" "is or contains the kit's repository" OUT="$kit/."
refused "an OUT holding the kit's tracked files is refused" "holds files of the kit's repository" OUT="$kit/scripts"
mkdir -p "$tmp/outer/cache"
refused "an OUT that contains KIT_CACHE is refused" "contains the kit's cache" OUT="$tmp/outer" KIT_CACHE="$tmp/outer/cache"
ln -s "$tmp/a" "$tmp/link"
refused "an OUT that is a symbolic link is refused" "is a symbolic link" OUT="$tmp/link/"
: >"$tmp/file"
refused "an OUT that is a file is refused" "is not a folder" OUT="$tmp/file"

# Only an output root of the kit: one with the mark the kit writes when it
# creates an OUT, or (made before the mark) one holding only kit outputs.
mkdir -p "$tmp/important/sub"; echo notes >"$tmp/important/notes.txt"; : >"$tmp/important/sub/f"
refused "OUT=<a folder the kit did not make> (environment): exit 2, says so and where OUT came from" \
	"OUT=$tmp/important (from the environment or make's command line) is not an output folder the kit made: it has no $mark and holds 'notes.txt'" \
	OUT="$tmp/important"
[ "$(cat "$tmp/important/notes.txt")" = notes ] && [ -e "$tmp/important/sub/f" ] &&
	t_ok "... and that folder is intact" || t_fail "... and that folder is intact"
printf 'OUT=%s\n' "$tmp/important" >"$tmp/config"
refused "the same OUT from the config file: the message names the file and line" \
	"OUT=$tmp/important (from $tmp/config line 1) is not an output folder the kit made" KIT_CONFIG="$tmp/config"
# An OUT the kit creates carries the mark, and is removed whatever is in it;
# an existing folder the kit writes into does not become the kit's.
kit_writes() { # kit_writes OUT: a result.json written the way build.sh does
	env KIT_ROOT="$kit" KIT_CONFIG=/nonexistent OUT="$1" sh -c '. "$KIT_ROOT/scripts/lib.sh"; result_update "$OUT/v2.6.32/result.json" ".x = 1"'
}
kit_writes "$tmp/made/deep"
echo notes >"$tmp/made/deep/notes.txt"
clean OUT="$tmp/made/deep"
[ $rc -eq 0 ] && [ ! -e "$tmp/made/deep" ] && [ -d "$tmp/made" ] &&
	t_ok "an OUT the kit created (marked) is removed, whatever it holds; its parent stays" ||
	t_fail "an OUT the kit created (marked) is removed" "rc=$rc" "$err"
kit_writes "$tmp/important"
[ ! -e "$tmp/important/$mark" ] && t_ok "a folder that existed before the kit wrote into it gets no mark" ||
	t_fail "a folder that existed before the kit wrote into it gets no mark"
refused "... so make clean still refuses it" "holds 'notes.txt'" OUT="$tmp/important"
# Made before the mark existed: only what the kit writes there.
mkdir -p "$tmp/old/v2.6.32/patched" "$tmp/old/testvm" "$tmp/old/records" "$tmp/old/ci-job"
echo '{}' >"$tmp/old/v2.6.32/result.json"; : >"$tmp/old/report.html"; : >"$tmp/old/.e2e-build.log"
: >"$tmp/old/ci-job/job.status"; : >"$tmp/old/bench-cold.log"
clean OUT="$tmp/old"
[ $rc -eq 0 ] && [ ! -e "$tmp/old" ] && t_ok "an unmarked OUT holding only kit outputs (made before the mark) is removed" ||
	t_fail "an unmarked OUT holding only kit outputs (made before the mark) is removed" "rc=$rc" "$err"
mkdir -p "$tmp/old/v2.6.32" "$tmp/old/photos"; echo '{}' >"$tmp/old/v2.6.32/result.json"
refused "an unmarked OUT holding one folder the kit does not write is refused, naming it" "holds 'photos'" OUT="$tmp/old"
rm -rf "$kit/out"; mkdir -p "$kit/out/scratch"
refused "the default ./out, unmarked, with something else in it: refused, saying it is the default" \
	"OUT=$kit/out (the default, the kit's ./out) is not an output folder the kit made"

# NAME and BRANCH: plain names, refused before anything is written.
mktree() { # mktree DIR SUBLEVEL FILE...: a stub tree detect.sh recognises (with v2.6.SUBLEVEL's fix sites)
	_d=$1 _s=$2; shift 2; mkdir -p "$_d"
	printf 'VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = %s\nEXTRAVERSION =\nNAME = x\n' "$_s" >"$_d/Makefile"
	for _f in kernel/fork.c kernel/exit.c fs/exec.c fs/binfmt_elf.c mm/mmap.c init/main.c \
		include/linux/sched.h arch/x86/Kconfig arch/x86/kernel/process_64.c \
		scripts/Makefile.build scripts/Kbuild.include $(sh "$root/scripts/detect.sh" --sites "v2.6.$_s") "$@"; do
		mkdir -p "$_d/$(dirname "$_f")"; : >"$_d/$_f"
	done
}
mktree "$tmp/v32" 32 kernel/perf_event.c
mktree "$tmp/v27" 27 include/asm-x86/thread_info.h
# one_line NAME PATTERN CMD...: exit 2, one line matching, OUT never made.
one_line() {
	_n=$1 _p=$2; shift 2
	_o=$(cd "$root" && env KIT_CONFIG=/nonexistent OUT="$tmp/out" KIT_CACHE="$tmp/cache" "$@" 2>&1); _rc=$?
	if [ $_rc -eq 2 ] && [ "$(printf '%s\n' "$_o" | grep -Evc '^make(\[[0-9]+\])?: \*\*\*')" -eq 1 ] &&
		printf '%s' "$_o" | grep -q -- "$_p" && [ ! -e "$tmp/out" ] && [ ! -e "$tmp/escape" ]; then
		t_ok "$_n"
	else t_fail "$_n" "rc=$_rc" "$_o" "$(ls -d "$tmp/out" "$tmp/escape" 2>/dev/null)"; fi
}
one_line "check_name refuses NAME=../../tmp/escape" "NAME='../../tmp/escape' is not a plain name" \
	sh -c '. scripts/lib.sh; check_name NAME ../../tmp/escape'
for n in . .. -rf 'a b' a/b ''; do
	one_line "check_name refuses NAME='$n'" "is not a plain name" sh -c '. scripts/lib.sh; check_name NAME "$1"' sh "$n"
done
t_check "check_name takes v2.6.32, linux-2.6.32.y and my_tree.1" \
	sh -c '. scripts/lib.sh; check_name N v2.6.32 && check_name N linux-2.6.32.y && check_name N my_tree.1'
long=$(printf 'n%.0s' $(seq 1 65))
one_line "check_name refuses a NAME of 65 characters, naming its length" "NAME='nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn...' is 65 characters long; use at most 64" \
	sh -c '. scripts/lib.sh; check_name NAME "$1"' sh "$long"
t_check "check_name takes a NAME of 64 characters" sh -c '. scripts/lib.sh; check_name NAME "$1"' sh "${long#n}"
# Each script that takes NAME refuses a bad one first thing: before the
# tree is read (TREE= does not exist here), a series or pick is made, or
# anything is built; OUT is never made.
for cmd in "build.sh unpatched" "verify.sh" "mutants.sh"; do
	one_line "${cmd%% *} refuses a NAME of 65 characters at once (before TREE, source or series)" "is 65 characters long" \
		env NAME="$long" BRANCH=v2.6.32 TREE="$tmp/nope" sh scripts/$cmd
done
one_line "verify.sh ARCHES=x86_64 refuses NAME='a b' before making the pick" "NAME='a b' is not a plain name" \
	env NAME='a b' ARCHES=x86_64 sh scripts/verify.sh v2.6.32
one_line "series.sh TREE= refuses NAME=x/y before reading the tree" "NAME='x/y' is not a plain name" \
	env NAME=x/y TREE="$tmp/nope" sh scripts/series.sh
one_line "make verify NAME=<65 characters>: exit 2, one line" "is 65 characters long" \
	make -s verify BRANCH=v2.6.32 NAME="$long"
one_line "load_branch refuses BRANCH=../../tmp/x before sourcing it" "BRANCH='../../tmp/x' is not a branch name" \
	sh scripts/series.sh ../../tmp/x
mkdir -p "$tmp/evil/branches"
printf 'touch "%s/escape"\n' "$tmp" >"$tmp/evil/branches/x.conf"
one_line "a BRANCH naming another *.conf is never sourced" "is not a branch name" \
	env BRANCH="../../../../../../../../$tmp/evil/branches/x" sh scripts/build.sh unpatched
one_line "make series TREE=<tree> NAME=../../tmp/escape: refused, nothing written" "NAME='../../tmp/escape' is not a plain name" \
	make -s series TREE="$tmp/v32" NAME=../../tmp/escape
one_line "make series TREE=<tree named 'my tree'>: the fix is NAME=" "NAME='tree-my tree' is not a plain name" \
	sh -c 'cp -R "$1/v32" "$1/my tree" && make -s series TREE="$1/my tree"' sh "$tmp"

# make series honours TREE= (it used to ignore it and regenerate backports/).
one_line "make series TREE=<not a kernel tree> is refused by the tree's check" "no kernel Makefile" \
	make -s series TREE="$tmp/home"
one_line "make series TREE=<missing> is refused" "is not a folder" \
	make -s series TREE="$tmp/nope"
one_line "make series TREE=<2.6.27 tree> BRANCH=v2.6.32: the conflict is refused" "v2.6.32.*drop BRANCH=" \
	make -s series TREE="$tmp/v27" BRANCH=v2.6.32
t_check "backports/ is untouched by all of it" sh -c "[ -z \"\$(find '$root/backports' -newer '$tmp/start' | head -1)\" ]"
t_done
