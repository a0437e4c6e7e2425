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

# bad input
mkdir "$tmp/exists"
sh "$kit/scripts/fetch.sh" --farm fake "$tmp/exists" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "exists; --farm makes a new folder" "$tmp/err" && [ -z "$(ls "$tmp/exists")" ] &&
	t_ok "--farm onto a folder that exists: exit 2, nothing written" || t_fail "--farm onto a folder" "rc=$rc $(cat "$tmp/err")"
t_done
