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

mkdir -p "$tmp/a b/sub" "$tmp/a" "$kit/b"
: >"$tmp/a b/sub/f"; : >"$tmp/a/keep"; : >"$kit/b/keep"
chmod a-w "$tmp/a b/sub"
clean OUT="$tmp/a b"
if [ $rc -eq 0 ] && [ ! -e "$tmp/a b" ] && [ -e "$tmp/a/keep" ] && [ -e "$kit/b/keep" ]; then
	t_ok "make clean OUT='<tmp>/a b' removes that folder (read-only parts too), not <tmp>/a nor ./b"
else t_fail "make clean OUT='<tmp>/a b' removes that folder, not <tmp>/a nor ./b" "rc=$rc" "$err"; fi
mkdir -p "$kit/out/x"
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

# NAME and BRANCH: plain names, refused before anything is written.
mktree() { # mktree DIR SUBLEVEL FILE...: a stub tree detect.sh recognises
	_d=$1 _s=$2; shift 2; mkdir -p "$_d"
	printf 'VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = %s\nEXTRAVERSION =\nNAME = x\n' "$_s" >"$_d/Makefile"
	for _f in kernel/fork.c kernel/exit.c fs/exec.c fs/binfmt_elf.c mm/mmap.c init/main.c \
		include/linux/sched.h arch/x86/Kconfig arch/x86/kernel/process_64.c \
		scripts/Makefile.build scripts/Kbuild.include "$@"; do
		mkdir -p "$_d/$(dirname "$_f")"; : >"$_d/$_f"
	done
}
mktree "$tmp/v32" 32 kernel/perf_event.c
mktree "$tmp/v31" 31 kernel/perf_counter.c
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
one_line "make series TREE=<2.6.31 tree> BRANCH=v2.6.32: the conflict is refused" "v2.6.32.*drop BRANCH=" \
	make -s series TREE="$tmp/v31" BRANCH=v2.6.32
t_check "backports/ is untouched by all of it" sh -c "[ -z \"\$(find '$root/backports' -newer '$tmp/start' | head -1)\" ]"
t_done
