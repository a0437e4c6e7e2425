#!/bin/sh
# A build's work tree is a farm of hard links (fetch.sh --farm): its files
# are shared with the export's link source, src/.links.<key>, never with
# the export itself.  A patched build leaves the export exactly as it was
# (every entry's inode, link count, size, mtime and ctime) and the link
# source as the export's listing says; a link source something wrote into
# is found by the next build's check, removed, and that build copies
# instead; the one after makes it again.  The fake kernel of
# fakekernel.sh builds in a second.
. ci/tap.sh
. scripts/tests/fakekernel.sh
tmp=$(mktemp -d); trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
fake_git_branch "$tmp"
fake_series "$tmp/series"
build() { # build OUTNAME: a patched build, cache off; stderr in $tmp/err
	env KIT_BUILD_CACHE=0 OUT="$tmp/$1" SERIES_DIR="$tmp/series" KIT_ALLOW_MISORDER=1 \
		sh "$kit/scripts/build.sh" patched fake >/dev/null 2>"$tmp/err"
}
exp=$(sh "$kit/scripts/fetch.sh" fake) || { t_fail "fetch the fake branch" "$(cat "$tmp/err")"; t_done; exit; }
ls=$KIT_CACHE/src/.links.${exp##*/}
snap() { (cd "$exp" && find . -printf '%P %i %n %s %T@ %C@ %m\n' | LC_ALL=C sort | sha256sum); }
listing_ok() { # the link source holds what the export's marker lists
	sed '1,/^listing$/d' "$exp/.kit-verified" >"$tmp/want" &&
		sh "$kit/scripts/fetch.sh" --listing "$ls" >"$tmp/have" && cmp -s "$tmp/want" "$tmp/have"
}
before=$(snap)
build a && grep -q "patched build ok" "$tmp/err" &&
	[ "$(snap)" = "$before" ] && [ -d "$ls" ] && listing_ok &&
	[ "$(cat "$ls/fs/exec.c")" = "/* fs/exec.c */" ] &&
	t_ok "a patched build: the export's every inode, link count, size, mtime and ctime as before; the link source as the export's listing" ||
	t_fail "patched build from a farm" "$(tail -3 "$tmp/err")"
# the work tree kept in OUT shares the link source's files; a second build
# into the same OUT removes it (rmtree), and no file's mode changes there
[ -d "$tmp/a/fake/patched/src" ] && [ "$(stat -c %h "$tmp/a/fake/patched/src/mm/mmap.c")" -gt 1 ] &&
	build a && [ -z "$(find "$ls" -type f -perm /222)" ] &&
	t_ok "a kept work tree shares its files; removing it by a second build leaves every file of the link source read-only" ||
	t_fail "modes" "$(find "$ls" -type f -perm /222 | head -3)"

# something wrote into a linked file
chmod u+w "$ls/fs/exec.c"; echo '/* written through a farm */' >>"$ls/fs/exec.c"
build b; rc=$?
[ $rc -eq 0 ] && grep -q "warning: the link source .*/.links.* is not the export (1 changed: fs/exec.c): something wrote into a linked file; removing it and copying instead" "$tmp/err" &&
	[ ! -e "$ls" ] && [ "$(snap)" = "$before" ] &&
	t_ok "a link source written into: said in one line, removed, the build copies instead (exit 0)" ||
	t_fail "link source written into" "rc=$rc $(tail -3 "$tmp/err")"
build c && [ -d "$ls" ] && listing_ok && [ "$(snap)" = "$before" ] &&
	t_ok "the next build makes the link source again" || t_fail "link source made again" "$(tail -3 "$tmp/err")"

# the link index: made once from the hashed link source; a farm's check
# then hashes only what does not share its inode, size and mtime
ix=$KIT_CACHE/src/.links-index.${exp##*/}
[ -s "$ix" ] && [ "$(head -1 "$ix")" = "link-index 2" ] &&
	[ "$(($(wc -l <"$ix") - 1))" = "$(sed '1,/^listing$/d' "$exp/.kit-verified" | grep -c '^100')" ] &&
	t_ok "the link index holds a line for every file of the export" || t_fail "link index" "$(ls -l "$ix" 2>&1)"
# a write that keeps the size and sets the mtime back (touch -r) is what
# the index cannot see: the next farm takes it; fetch.sh --verify hashes
# the link source, finds it, and removes it (exit 1)
f=$ls/mm/mmap.c
chmod u+w "$f" && cp -p "$f" "$tmp/keep" && printf 'X' | dd of="$f" bs=1 count=1 conv=notrunc 2>/dev/null &&
	touch -r "$tmp/keep" "$f" && chmod a-w "$f"
build d; rc=$?
[ $rc -eq 0 ] && ! grep -q "is not the export" "$tmp/err" &&
	t_ok "a write that keeps size and mtime passes a farm's check (what --verify is for)" ||
	t_fail "stat-kept write" "rc=$rc $(tail -3 "$tmp/err")"
sh "$kit/scripts/fetch.sh" --verify fake >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "error: the link source .* was not the export (1 changed: mm/mmap.c); removed it" "$tmp/err" &&
	[ ! -e "$ls" ] && [ ! -e "$ix" ] && [ "$(snap)" = "$before" ] &&
	t_ok "fetch.sh --verify hashes the link source: exit 1, named, removed with its index, the export as before" ||
	t_fail "--verify of the link source" "rc=$rc $(cat "$tmp/err")"
build e && [ -d "$ls" ] && listing_ok && [ -s "$ix" ] &&
	t_ok "the next build makes the link source and its index again" || t_fail "made again" "$(tail -3 "$tmp/err")"

# --tree-farm: a tree of one's own as the export's farm plus its own files
mkdir "$tmp/own" && (cd "$exp" && find . -mindepth 1 -maxdepth 1 ! -name .kit-verified -exec cp -a {} "$tmp/own/" \;) &&
	find "$tmp/own" -type d -exec chmod u+w {} + && chmod u+w "$tmp/own/fs/exec.c" &&
	echo '/* the vendor */' >>"$tmp/own/fs/exec.c" && rm -f "$tmp/own/mm/mmap.c" &&
	mkdir -p "$tmp/own/vendor/x" && echo 'int v;' >"$tmp/own/vendor/x/v.c" && ln -s ../fs/exec.c "$tmp/own/vendor/l"
sh "$kit/scripts/fetch.sh" --listing "$tmp/own" >"$tmp/own.listing"
sh "$kit/scripts/fetch.sh" --tree-farm fake "$tmp/own" "$tmp/tf" >"$tmp/tf.out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && cmp -s "$tmp/tf.out" "$tmp/own.listing" &&
	sh "$kit/scripts/fetch.sh" --listing "$tmp/tf" | cmp -s - "$tmp/own.listing" &&
	sh "$kit/scripts/fetch.sh" --listing "$tmp/own" | cmp -s - "$tmp/own.listing" &&
	[ "$(stat -c %i "$tmp/tf/init/main.c")" = "$(stat -c %i "$ls/init/main.c")" ] &&
	[ "$(stat -c %i "$tmp/tf/fs/exec.c")" != "$(stat -c %i "$tmp/own/fs/exec.c")" ] &&
	[ "$(readlink "$tmp/tf/vendor/l")" = ../fs/exec.c ] && listing_ok && [ "$(snap)" = "$before" ] &&
	t_ok "--tree-farm: the tree's content (a file changed, one removed, a folder and a link added), the export's files linked, the tree's own copied; tree, link source and export as they were" ||
	t_fail "--tree-farm" "rc=$rc $(cat "$tmp/err")"
# relative TREE and DEST, from a third folder: the same tree, TREE untouched
mkdir "$tmp/cwd" && (cd "$tmp/cwd" && sh "$kit/scripts/fetch.sh" --tree-farm fake ../own ../tf-rel >/dev/null 2>"$tmp/err") &&
	sh "$kit/scripts/fetch.sh" --listing "$tmp/tf-rel" | cmp -s - "$tmp/own.listing" &&
	sh "$kit/scripts/fetch.sh" --listing "$tmp/own" | cmp -s - "$tmp/own.listing" && [ -z "$(ls -A "$tmp/cwd")" ] &&
	t_ok "--tree-farm with relative TREE and DEST: the tree's content, TREE untouched" ||
	t_fail "--tree-farm, relative paths" "$(cat "$tmp/err")"
# no export to link from: the tree copied whole, said
sh "$kit/scripts/fetch.sh" --tree-farm fake "$tmp/own" "$tmp/tf2" >/dev/null 2>"$tmp/err" &&
	[ "$(stat -c %h "$tmp/tf2/init/main.c")" -gt 1 ] &&
	KERNEL_GIT=$tmp/nothing-here KIT_CACHE=$tmp/empty-cache sh "$kit/scripts/fetch.sh" --tree-farm fake "$tmp/own" "$tmp/tf3" >"$tmp/tf3.out" 2>"$tmp/err" &&
	cmp -s "$tmp/tf3.out" "$tmp/own.listing" && grep -q "no export of fake in the cache to link from; copying .* whole" "$tmp/err" &&
	[ "$(stat -c %h "$tmp/tf3/init/main.c")" = 1 ] &&
	t_ok "--tree-farm with no export to link from: the tree copied whole, said in one line" ||
	t_fail "--tree-farm, no export" "$(cat "$tmp/err")"

# a file of the link source made writable (chmod through a farm, say): the
# next farm's own listing walk finds it and makes it read-only again
chmod u+w "$ls/mm/mmap.c"
sh "$kit/scripts/fetch.sh" --farm fake "$tmp/fw" >/dev/null 2>"$tmp/err" &&
	[ -z "$(find "$ls" -type f -perm /222)" ] && listing_ok &&
	t_ok "a link source file made writable: read-only again after the next farm" ||
	t_fail "writable link source file" "$(find "$ls" -type f -perm /222 | head -3) $(cat "$tmp/err")"

# --marker: the export by its marker alone (a farm's caller); a marker
# that does not vouch for it is refused there as everywhere: made again
m1=$(sh "$kit/scripts/fetch.sh" --marker fake 2>"$tmp/err") && [ "$m1" = "$exp" ] &&
	t_ok "--marker prints the export's path, as a plain fetch does" || t_fail "--marker" "$m1 $(cat "$tmp/err")"
chmod u+w "$exp" "$exp/.kit-verified" && echo '100644 0000000000000000000000000000000000000000	extra' >>"$exp/.kit-verified"
m2=$(sh "$kit/scripts/fetch.sh" --marker fake 2>"$tmp/err") && [ "$m2" = "$exp" ] &&
	! grep -q extra "$exp/.kit-verified" && grep -q "marker is damaged" "$tmp/err" &&
	t_ok "--marker with a damaged marker: said, the export made again" || t_fail "--marker, damaged marker" "$m2 $(cat "$tmp/err")"

# bad input
mkdir "$tmp/exists"
sh "$kit/scripts/fetch.sh" --farm fake "$tmp/exists" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "exists; --farm makes a new folder" "$tmp/err" && [ -z "$(ls "$tmp/exists")" ] &&
	t_ok "--farm onto a folder that exists: exit 2, nothing written" || t_fail "--farm onto a folder" "rc=$rc $(cat "$tmp/err")"
t_done
