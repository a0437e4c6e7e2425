#!/bin/sh
# The kit in a folder whose path has a space ("a b/kit"), with the tree,
# CONFIG=, the series, the kernel's git and the caches there too: build.sh
# applies its host patches and series and records them, fetch.sh exports
# and copies, cocci/apply.sh finds its macro file.  The kernel's own make
# cannot build in such a folder: an OUT with a space is refused in one line
# before a build (exit 2), and still served a kernel the build cache holds.
# The fake kernel of fakekernel.sh builds in a second.
. ci/tap.sh
. scripts/tests/fakekernel.sh
tmp=$(mktemp -d); trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
sp="$tmp/a b"
kit=$sp/kit
fake_kit "$kit"
fake_tree "$sp/tree"
git init -q "$sp/repo" && cp -a "$sp/tree/." "$sp/repo/" &&
	(cd "$sp/repo" && git -c user.email=t@t -c user.name=t add -A && git -c user.email=t@t -c user.name=t commit -qm one)
# a host patch the fake tree lacks (a new header): applied, then recorded
fake_conf "$kit" fake BR_SOURCE=git "BR_COMMIT=$(git -C "$sp/repo" rev-parse HEAD)" 'BR_HOST_SERIES="compiler-gcc12-header"'
fake_env "$kit"	# KIT_CACHE in the spaced folder too
OUT=$tmp/out
KERNEL_GIT=$sp/repo; export KERNEL_GIT
fake_series "$sp/series"
printf 'CONFIG_OWNER_OPTION=y\n' >"$sp/owner.config"
rec() { jq -r "$2" "$OUT/$1/result.json"; }

env TREE="$sp/tree" CONFIG="$sp/owner.config" sh "$kit/scripts/build.sh" unpatched >/dev/null 2>"$tmp/err" &&
	grep -q "build ok" "$tmp/err" &&
	[ "$(rec tree-tree '.build.unpatched.host_series_applied | join(" ")')" = compiler-gcc12-header ] &&
	[ "$(rec tree-tree '.build.unpatched.files_changed_from_source | join(" ")')" = include/linux/compiler-gcc12.h ] &&
	[ "$(rec tree-tree .build.unpatched.config.from)" = "CONFIG=$sp/owner.config" ] &&
	t_ok "TREE= and CONFIG= in a path with a space, from a kit there: the host patch applied and recorded by name" ||
	t_fail "TREE= build from a spaced path" "$(cat "$tmp/err")"
for m in 0 1; do
	env TREE="$sp/tree" SERIES_DIR="$sp/series" KIT_ALLOW_MISORDER=$m sh "$kit/scripts/build.sh" "p$m" >/dev/null 2>"$tmp/err" &&
		grep -q "build ok" "$tmp/err" &&
		[ "$(rec tree-tree ".build.p$m.files_changed_from_source | join(\" \")")" = "fs/exec.c include/linux/compiler-gcc12.h" ] &&
		t_ok "SERIES_DIR= in a path with a space ($([ $m = 1 ] && echo patch by patch || echo quilt)): applied, the changed files as the patches name them" ||
		t_fail "SERIES_DIR= in a spaced path, KIT_ALLOW_MISORDER=$m" "$(cat "$tmp/err")"
done
# a branch: fetch.sh exports from the spaced git into the spaced cache, and
# copies it (--copy) to the work tree
sh "$kit/scripts/build.sh" unpatched fake >/dev/null 2>"$tmp/err" && grep -q "build ok" "$tmp/err" &&
	[ "$(rec fake '.build.unpatched.host_series_applied | join(" ")')" = compiler-gcc12-header ] &&
	t_ok "a branch whose git and cache are in a path with a space: exported, copied, built" ||
	t_fail "a branch from a spaced KERNEL_GIT and KIT_CACHE" "$(cat "$tmp/err")"
sh "$kit/scripts/fetch.sh" --copy fake "$sp/copy" >/dev/null 2>"$tmp/err" && [ -w "$sp/copy/fs/exec.c" ] &&
	[ ! -e "$sp/copy/.kit-verified" ] &&
	t_ok "fetch.sh --copy to a path with a space: a writable copy, no marker" || t_fail "fetch.sh --copy" "$(cat "$tmp/err")"

# OUT with a space: a kernel the cache holds is served; one to build is refused
env OUT="$sp/out" sh "$kit/scripts/build.sh" unpatched fake >/dev/null 2>"$tmp/err" &&
	grep -q "kernel from the build cache" "$tmp/err" &&
	t_ok "OUT with a space: a kernel from the build cache is served (no make runs)" ||
	t_fail "OUT with a space, cache hit" "$(cat "$tmp/err")"
env OUT="$sp/out2" KIT_BUILD_CACHE=0 sh "$kit/scripts/build.sh" unpatched fake >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ "$(grep -c . "$tmp/err")" = 1 ] &&
	grep -q "error: \[fake\] OUT=$sp/out2 has a space or a colon in its path, where the kernel's make cannot build" "$tmp/err" &&
	[ ! -e "$sp/out2/fake/unpatched" ] && [ -z "$(ls -A "$sp/out2/fake" | grep '\.tmp')" ] &&
	t_ok "OUT with a space, a kernel to build: refused in one line (exit 2), nothing copied or built" ||
	t_fail "OUT with a space refused" "rc=$rc" "$(cat "$tmp/err")"

# cocci/apply.sh from the spaced kit: its rule's --macro-file cocci/macros.h
# is a path in the kit
if ! command -v spatch >/dev/null 2>&1; then
	t_skip "cocci/apply.sh from a path with a space" "spatch is not installed (apt-get install coccinelle)"
else
	cp -a cocci "$kit/"
	r=$(ls backports/fixes/*/cocci/setup_new_exec-loaders.cocci | head -1)
	mkdir -p "$kit/$(dirname "$r")" "$sp/t1/fs"
	cp "$r" "$kit/$r"
	cp "$(dirname "$r")/tests/setup_new_exec-loaders/som.c" "$sp/t1/fs/binfmt_som.c"
	KIT_SPATCH_CACHE_DIR=$sp/spatch sh "$kit/cocci/apply.sh" "$kit/$r" "$sp/t1" >"$tmp/d" 2>"$tmp/err" &&
		grep -qx -- '+++ b/fs/binfmt_som.c' "$tmp/d" && grep -q '1 sites\? changed' "$tmp/err" &&
		t_ok "cocci/apply.sh from a kit in a path with a space, on a tree there: the macro file found, the site changed" ||
		t_fail "cocci/apply.sh from a spaced path" "$(cat "$tmp/err")"
fi
t_done
