#!/bin/sh
# Bad input gets one line naming the problem and the fix, and exit 2.
. ci/tap.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
one_line() { # one_line NAME PATTERN CMD...
	_n=$1 _p=$2; shift 2
	_o=$(OUT=$tmp/out "$@" 2>&1); _rc=$?
	if [ $_rc -eq 2 ] && [ "$(printf '%s\n' "$_o" | wc -l)" -eq 1 ] && printf '%s' "$_o" | grep -q -- "$_p"; then
		t_ok "$_n"
	else t_fail "$_n" "rc=$_rc" "$_o"; fi
}
one_line "build: unknown branch names the known ones" "unknown branch 'v2.6.99'; known branches: debian-6.1 v2.6.26" sh scripts/build.sh unpatched v2.6.99
one_line "build: no branch given says BRANCH=" "no branch given; set BRANCH=<name>" env BRANCH= sh scripts/build.sh unpatched
one_line "build: a wrong kind is refused" "must be 'unpatched' or 'patched'" sh scripts/build.sh fixed v2.6.32
one_line "build: TREE= that is not a kernel tree" "no kernel Makefile" env TREE="$tmp" sh scripts/build.sh unpatched
one_line "verify: TREE= that does not exist" "is not a folder" env TREE="$tmp/nope" sh scripts/verify.sh
one_line "series: unknown branch" "unknown branch 'nope'" sh scripts/series.sh nope
one_line "series: a BRANCH with a path is refused" "BRANCH='../x' is not a branch name" sh scripts/series.sh ../x
one_line "verify: a BRANCH with a path is refused" "is not a branch name" env BRANCH=v2.6.32/../v2.6.32 sh scripts/verify.sh
one_line "build: JOBS=0 is refused" "JOBS='0' (from the environment) is not a positive whole number" env JOBS=0 sh scripts/build.sh unpatched v2.6.32
one_line "cross: an unknown cell names the cells" "unknown cell 'nosuchcell'; cells: " sh scripts/cross.sh v2.6.32 nosuchcell
one_line "cross: a branch without a series is refused" "cross is for the 2.6 branches" sh scripts/cross.sh debian-6.1
one_line "clean: an empty OUT is refused" "OUT is empty" env OUT= sh scripts/clean.sh
t_check "nothing was written for bad input" sh -c "[ ! -e '$tmp/out' ]"
t_done
