#!/bin/sh
# The build cache (build.sh): a finished kernel is kept in
# KIT_CACHE/builds/<key>, the key a digest of everything that decides it
# (source, host and the code of the security series, config, flags, toolchain versions,
# the build scripts themselves).  Another output root gets it without a
# build and says so; one byte changed in any input misses; an entry that
# does not match its checksums, or whose list does not name every file,
# stops the run naming it (never served, never built over); a kernel in
# OUT changed after its build stops the run;
# KIT_BUILD_CACHE=0 builds.  The fake kernel of fakekernel.sh builds in a
# second.
. ci/tap.sh
. scripts/tests/fakekernel.sh
tmp=$(mktemp -d); trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
fake_git_branch "$tmp"
# a one-patch series for a "patched" build (SERIES_DIR=, a custom kind)
fake_series "$tmp/series"
build() { # build OUTNAME KIND [VAR=value...]: build.sh's stderr in $tmp/err
	_o=$1 _k=$2; shift 2
	env "$@" OUT="$tmp/$_o" SERIES_DIR="$tmp/series" KIT_ALLOW_MISORDER=1 \
		sh "$kit/scripts/build.sh" "$_k" fake >/dev/null 2>"$tmp/err"
}
hit() { grep -q "kernel from the build cache" "$tmp/err"; }
built() { grep -q "build ok" "$tmp/err"; }
rec() { jq -r "$2" "$tmp/$1/fake/result.json"; }

build a unpatched && built && ! hit && [ "$(rec a .build.unpatched.cache.hit)" = false ] &&
	key=$(rec a .build.unpatched.cache.key) && [ -r "$KIT_CACHE/builds/$key/bzImage" ] &&
	stat -c %A "$KIT_CACHE/builds/$key/bzImage" | grep -qv w && grep -q "stored in the build cache" "$tmp/err" &&
	t_ok "first build: built, stored read-only under its key, recorded as a miss" ||
	t_fail "first build" "$(cat "$tmp/err")"
build b unpatched && hit && ! built && [ "$(rec b .build.unpatched.cache.hit)" = true ] &&
	cmp -s "$tmp/a/fake/unpatched/bzImage" "$tmp/b/fake/unpatched/bzImage" &&
	[ -r "$tmp/b/fake/unpatched/.config" ] && [ -r "$tmp/b/fake/unpatched/System.map" ] &&
	[ "$(rec b .base_commit)" = "$c" ] &&
	t_ok "another output root: served from the cache (said, recorded), same image, .config and System.map beside it" ||
	t_fail "hit in another OUT" "$(cat "$tmp/err")"
build a p && built && build b p && hit && t_ok "a patched build: stored, then served" || t_fail "patched hit" "$(cat "$tmp/err")"

# one byte of the series changed: only the patched kernel misses
sed -i 's|/\* fixed \*/|/* fixeD */|' "$tmp/series/fix.patch"
build c unpatched && hit && build c p && built && ! hit &&
	t_ok "one byte of the series changed: the unpatched kernel is served, the patched one built again" ||
	t_fail "series byte" "$(cat "$tmp/err")"
# the patch's header (upstream's text, our notes) is not what quilt
# applies: a note written above the diff builds nothing again; a line
# written where a diff starts ("--- ") is kept in the key
{ printf 'Subject: fix\n\n[ adapted: a note of ours ]\n\n'; cat "$tmp/series/fix.patch"; } >"$tmp/fix.new"
mv "$tmp/fix.new" "$tmp/series/fix.patch"
build c2 p && hit && ! built &&
	t_ok "a note added to the patch's header: the patched kernel is served, not built again" ||
	t_fail "header note" "$(cat "$tmp/err")"
sed -i 's|^\[ adapted: a note of ours \]$|[ adapted: another note ]|' "$tmp/series/fix.patch"
build c3 p && hit && t_ok "the note reworded: still served" || t_fail "note reworded" "$(cat "$tmp/err")"
# the recipe: a build script changed by a comment is another input
echo '# a comment' >>"$kit/scripts/lib.sh"
build d unpatched && built && ! hit && t_ok "a build script changed: built again" || t_fail "script change" "$(cat "$tmp/err")"
key=$(rec d .build.unpatched.cache.key)

# a damaged entry stops the run, naming it and the file: an entry is
# published whole and never written again, so one that does not match is
# another kernel put there; it is neither served nor built over
chmod u+w "$KIT_CACHE/builds/$key" "$KIT_CACHE/builds/$key/bzImage"
echo tampered >>"$KIT_CACHE/builds/$key/bzImage"
build e unpatched; rc=$?
[ $rc -eq 1 ] && [ "$(grep -c 'error:' "$tmp/err")" -eq 1 ] && ! built && ! hit &&
	grep -q "error: \[fake\] the build cache entry .*/$key: bzImage does not match its sha256sums; it is not what a build stored there: remove it" "$tmp/err" &&
	[ ! -e "$tmp/e/fake/unpatched/bzImage" ] && grep -q tampered "$KIT_CACHE/builds/$key/bzImage" &&
	t_ok "a tampered entry: exit 1, one line naming the entry and bzImage; nothing served, the entry left as found" ||
	t_fail "tampered entry" "rc=$rc" "$(cat "$tmp/err")"
# a swap that edits the digest list too: the entry's bzImage replaced and
# its line taken out (sha256sum -c checks only the lines there)
chmod u+w "$KIT_CACHE/builds/$key/sha256sums"
echo 'another kernel' >"$KIT_CACHE/builds/$key/bzImage" && sed -i '/  bzImage$/d' "$KIT_CACHE/builds/$key/sha256sums"
build e2 unpatched; rc=$?
[ $rc -eq 1 ] && [ "$(grep -c 'error:' "$tmp/err")" -eq 1 ] && ! built &&
	grep -q "the build cache entry .*/$key has no line for bzImage in its sha256sums; it is not what a build stored there" "$tmp/err" &&
	[ ! -e "$tmp/e2/fake/unpatched/bzImage" ] &&
	t_ok "a swapped entry whose bzImage line was taken out of sha256sums: exit 1, one line naming it; nothing served" ||
	t_fail "swapped entry with a short digest list" "rc=$rc" "$(cat "$tmp/err")"
# removed as the message says, the kernel is built again and stored good
chmod -R u+w "$KIT_CACHE/builds/$key" && rm -rf "$KIT_CACHE/builds/$key"
build e2 unpatched && built && ! hit && (cd "$KIT_CACHE/builds/$key" && sha256sum -c --quiet sha256sums) &&
	t_ok "... removed as the message says: built again and stored good" || t_fail "rebuilt after removal" "$(cat "$tmp/err")"
# the same swap in OUT: the kernel there is not what its build wrote; up to
# date by its stamp, but not by its digests: exit 1, one line naming it
cp "$tmp/e2/fake/unpatched/bzImage" "$tmp/bz.good"
echo 'another kernel' >"$tmp/e2/fake/unpatched/bzImage"
build e2 unpatched; rc=$?
[ $rc -eq 1 ] && [ "$(grep -c 'error:' "$tmp/err")" -eq 1 ] &&
	grep -q "e2/fake/unpatched/bzImage is not the file its build wrote" "$tmp/err" &&
	t_ok "a bzImage in OUT changed after its build: exit 1, one line naming it" ||
	t_fail "swapped OUT bzImage" "rc=$rc" "$(cat "$tmp/err")"
cp "$tmp/bz.good" "$tmp/e2/fake/unpatched/bzImage"
# up to date, and the build record written again when result.json is gone
rm "$tmp/e2/fake/result.json"
build e2 unpatched && grep -q "kernel is up to date" "$tmp/err" && [ "$(rec e2 .build.unpatched.up_to_date)" = true ] &&
	[ "$(rec e2 .base_commit)" = "$c" ] &&
	t_ok "up to date with result.json moved away: the build record is written again from the build's own" ||
	t_fail "up to date rewrites the record" "$(cat "$tmp/err")"
# a digest list taken out of OUT: no proof, built (or served) again
rm "$tmp/e2/fake/unpatched/sha256sums"
build e2 unpatched && grep -q "no complete digest list" "$tmp/err" && hit &&
	t_ok "a kernel in OUT without its digest list is not up to date: served again from the cache" ||
	t_fail "no digest list in OUT" "$(cat "$tmp/err")"

# KIT_BUILD_CACHE=0: neither served nor stored
build f unpatched KIT_BUILD_CACHE=0 && built && ! hit && ! grep -q "stored in the build cache" "$tmp/err" &&
	t_ok "KIT_BUILD_CACHE=0 builds and stores nothing" || t_fail "cache off" "$(cat "$tmp/err")"

# a TREE= build is keyed by the tree's content: an edit misses
cp -a "$tmp/tree" "$tmp/t1"
env OUT="$tmp/g" TREE="$tmp/t1" NAME=t sh "$kit/scripts/build.sh" unpatched >/dev/null 2>"$tmp/err" && built &&
	env OUT="$tmp/h" TREE="$tmp/t1" NAME=t sh "$kit/scripts/build.sh" unpatched >/dev/null 2>"$tmp/err" && hit &&
	echo '/* vendor */' >>"$tmp/t1/mm/mmap.c" &&
	env OUT="$tmp/i" TREE="$tmp/t1" NAME=t sh "$kit/scripts/build.sh" unpatched >/dev/null 2>"$tmp/err" && built &&
	t_ok "TREE=: the same content is served, an edited tree is built" || t_fail "TREE= keys" "$(cat "$tmp/err")"
# what a store killed half-way leaves (a dead pid) is swept by the next store
mkdir -p "$KIT_CACHE/builds/.tmp.$key.999999999"
build j unpatched && hit &&
	[ -z "$(ls -A "$KIT_CACHE/builds" | grep '^\.tmp\.')" ] && t_ok "no temp entries left in the cache; a dead store's is swept" ||
	t_fail "temp entries" "$(ls -A "$KIT_CACHE/builds")"
t_done
