#!/bin/sh
# fetch.sh --listing (what the cache marker and every checked copy rest
# on) must hash the folder it is given, even when that folder lies inside
# another git work tree: CI's OUT is ./out inside the kit's own checkout,
# and git hash-object --stdin-paths there reads paths from the checkout's
# top instead ("could not open '.clang-format'").
cd "$(dirname "$0")/../.." || exit 2
. ci/tap.sh
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
git init -q "$t/repo"
mkdir -p "$t/repo/out/tree/fs" "$t/plain/fs"
for d in "$t/repo/out/tree" "$t/plain"; do
	printf 'a\n' >"$d/.clang-format"; printf 'b\n' >"$d/fs/exec.c"
done
want=$(printf '%s\t.clang-format\n%s\tfs/exec.c\n' "$(printf 'a\n' | git hash-object --stdin)" "$(printf 'b\n' | git hash-object --stdin)")
have() { KIT_CONFIG=/nonexistent sh scripts/fetch.sh --listing "$1" 2>&1 | awk -F'\t' '$1 !~ /^040000/ { split($1, a, " "); print a[2] "\t" $2 }'; }
[ "$(have "$t/plain")" = "$want" ] && t_ok "a folder outside any repository is hashed" || t_fail "plain folder" "$(have "$t/plain")"
[ "$(have "$t/repo/out/tree")" = "$want" ] && t_ok "a folder inside another git work tree is hashed as itself" ||
	t_fail "folder inside a work tree" "$(have "$t/repo/out/tree")"
t_done
