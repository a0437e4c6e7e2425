#!/bin/sh
# The cache cannot feed a corrupted tree (issue 9 item 4): the marker holds
# what it vouches for, every use checks it, a mismatch is reported in one
# line and the export made again (never nested), publishing never replaces
# anything, two fetches of one branch end with one export, leftovers of
# interrupted fetches go, and a build names its source only from a tree
# that passed the check.  A tiny git "kernel" (fakekernel.sh) stands in for
# the real one; a shim git can slow "git archive" down to catch a fetch
# while it works.
. ci/tap.sh
. scripts/tests/fakekernel.sh
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
fake_git_branch "$tmp"
mkdir "$tmp/shim"
realgit=$(command -v git)
printf '#!/bin/sh\nfor a; do [ "$a" = archive ] && sleep "${SLOW_ARCHIVE:-0}"; done\nexec %s "$@"\n' "$realgit" >"$tmp/shim/git"
chmod +x "$tmp/shim/git"
fetch() { sh "$kit/scripts/fetch.sh" "$@"; }
src=$KIT_CACHE/src exp=$KIT_CACHE/src/$c

# only: the export, its link source (fetch.sh farm_to, once a build ran)
# and lock files, nothing else, nothing nested
clean_cache() {
	[ "$(cd "$src" && ls -A | grep -v '\.lock$' | grep -vx "\.links\.$c" | grep -vx "\.links-index\.$c" | grep -vx "\.links-gitindex\.$c")" = "$c" ] &&
		[ -z "$(find "$exp" -mindepth 1 -name "$c" -o -mindepth 1 -name '.tmp.*')" ]
}
# good: the export has the commit's content and the cache is clean;
# verified: the same, said by fetch.sh --verify (every blob id, slower)
good() { diff -r -x .kit-verified "$tmp/tree" "$exp" >/dev/null && clean_cache; }
verified() { fetch --verify fake 2>/dev/null && clean_cache; }
# rw CMD...: run CMD with the export writable (root needs no such thing:
# read-only modes do not stop it, which is why the digests are there)
rw() { chmod -R u+w "$exp"; "$@"; chmod -R a-w "$exp"; }

out=$(fetch fake 2>"$tmp/err"); rc=$?
[ $rc -eq 0 ] && [ "$out" = "$exp" ] && t_ok "the first fetch exports the commit" || t_fail "first fetch" "rc=$rc" "$(cat "$tmp/err")"
head -1 "$exp/.kit-verified" | grep -qx 'kit-verified 2' && grep -qx "commit $c" "$exp/.kit-verified" &&
	grep -q '^content [0-9a-f]\{64\}$' "$exp/.kit-verified" && grep -q '^stat [0-9a-f]\{64\}$' "$exp/.kit-verified" &&
	grep -q "^100644 [0-9a-f]\{40\}	fs/exec.c$" "$exp/.kit-verified" &&
	t_ok "its marker holds the commit, the listing (path, blob id, mode) and both digests" ||
	t_fail "the marker's content" "$(head -8 "$exp/.kit-verified")"
t_check "a cached fetch passes the check and prints the same path" sh -c "[ \"\$(sh '$kit/scripts/fetch.sh' fake)\" = '$exp' ]"

# corrupt NAME CMD...: corrupt the export with CMD; the next fetch must say
# so in one line naming WHAT, make it again, and leave one good export.
corrupt() {
	_n=$1 _what=$2; shift 2
	"$@"
	out=$(fetch fake 2>"$tmp/err"); rc=$?
	w=$(grep -c 'warning:' "$tmp/err")
	if [ $rc -eq 0 ] && [ "$out" = "$exp" ] && [ "$w" -eq 1 ] && grep -q "warning: the cached export .*(.*$_what.*); removing it and making it again" "$tmp/err" && good; then
		t_ok "$_n: reported in one line ($_what), made again, one good export"
	else
		t_fail "$_n" "rc=$rc warnings=$w" "$(cat "$tmp/err")" "$(ls -A "$src")"
	fi
}
edit_keep_stat() { # same size, same mtime
	cp -p "$exp/fs/exec.c" "$tmp/ref"
	sed 's/exec/EXEC/' "$tmp/ref" >"$exp/fs/exec.c"
	touch -r "$tmp/ref" "$exp/fs/exec.c"
}
corrupt "a file edited (same size, same mtime)" "1 changed: fs/exec.c" rw edit_keep_stat
corrupt "a file deleted" "1 missing: mm/mmap.c" rw rm "$exp/mm/mmap.c"
corrupt "a file added" "1 added: kernel/evil.c" rw sh -c "echo 'int x;' >'$exp/kernel/evil.c'"
corrupt "an empty folder added" "1 added: drivers" rw mkdir "$exp/drivers"
corrupt "a .git folder added" "added: .git" rw sh -c "mkdir '$exp/.git' && echo x >'$exp/.git/HEAD'"
corrupt "a file's mode changed" "1 changed: init/main.c" chmod u+x "$exp/init/main.c"
corrupt "an empty marker" "marker .kit-verified is missing, empty" rw sh -c ": >'$exp/.kit-verified'"
corrupt "the marker deleted" "marker .kit-verified is missing" rw rm "$exp/.kit-verified"
corrupt "a marker of an older kit" "missing, empty or not the kit's" rw sh -c "printf 'commit $c\nverified x\n' >'$exp/.kit-verified'"
corrupt "a marker for another commit" "does not vouch for commit $c" rw sed -i "s/^commit .*/commit $(printf '%040d' 7)/" "$exp/.kit-verified"
corrupt "a marker whose listing was edited" "marker is damaged" rw sed -i 's/\tfs\/exec.c$/\tfs\/exec2.c/' "$exp/.kit-verified"
corrupt "the export replaced by an empty folder" "missing, empty" sh -c "chmod -R u+w '$exp'; rm -rf '$exp'; mkdir '$exp'"

# A change of stat data alone (a hard link, a cache copied elsewhere)
# costs a full check, not a new export.
ino=$(stat -c %i "$exp")
ln "$exp/fs/exec.c" "$tmp/hardlink"; rm "$tmp/hardlink"
old=$(sed -n 's/^stat //p' "$exp/.kit-verified")
fetch fake >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && ! grep -q warning "$tmp/err" && [ "$(stat -c %i "$exp")" = "$ino" ] &&
	[ "$(sed -n 's/^stat //p' "$exp/.kit-verified")" != "$old" ] && good &&
	t_ok "stat data changed, content the same: checked in full, digest renewed, export kept" ||
	t_fail "stat-only change" "rc=$rc" "$(cat "$tmp/err")"

# What the cheap check cannot see (a marker rewritten to match a changed
# file): --verify hashes every file against the commit.
rw edit_keep_stat
forged=$(cd "$exp" && find . -mindepth 1 ! -path ./.kit-verified -printf '%P\t%y %m %s %i %T@ %C@\n' | LC_ALL=C sort | sha256sum | cut -d' ' -f1)
# (the top folder and the marker are outside the digest)
chmod u+w "$exp" "$exp/.kit-verified"
sed "s/^stat .*/stat $forged/" "$exp/.kit-verified" >"$tmp/m"; cat "$tmp/m" >"$exp/.kit-verified"
chmod a-w "$exp" "$exp/.kit-verified"
fetch fake >/dev/null 2>"$tmp/err" && ! grep -q warning "$tmp/err" &&
	t_ok "(a marker forged to match passes the cheap check: the case --verify is for)" || t_fail "forged marker passes cheap check" "$(cat "$tmp/err")"
err=$(fetch --verify fake 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$err" | grep -q "1 changed: fs/exec.c" && [ ! -e "$exp" ] &&
	t_ok "--verify finds it (exit 1, the file named) and removes the export" || t_fail "--verify finds a forged marker" "rc=$rc" "$err"
fetch fake >/dev/null 2>&1 && good && t_ok "the next fetch makes it again" || t_fail "refetch after --verify"

# Leftovers: a dead fetch's temp folder goes, a live one's stays.
mkdir -p "$src/.tmp.$c.99999/fs" "$src/.tmp.$(printf '%040d' 5).4242" "$src/.tmp.abcdef" "$src/.tmp.ghijkl"
: >"$src/.$(printf '%040d' 5).lock"
touch -d '2 hours ago' "$src/.tmp.abcdef"
chmod a-w "$src/.tmp.$c.99999/fs" "$src/.tmp.$c.99999"
rw sh -c ": >'$exp/kernel/evil.c'"   # so that the fetch takes the repair path
flock "$src/.$(printf '%040d' 5).lock" sleep 30 &
holder=$!
sleep 0.3
fetch fake >/dev/null 2>&1
[ ! -e "$src/.tmp.$c.99999" ] && [ ! -e "$src/.tmp.abcdef" ] &&
	t_ok "leftovers of dead fetches are removed (read-only, or an older kit's an hour old)" || t_fail "leftovers removed" "$(ls -A "$src")"
[ -d "$src/.tmp.$(printf '%040d' 5).4242" ] && [ -d "$src/.tmp.ghijkl" ] &&
	t_ok "a live fetch's temp folder (its lock held) and a fresh older-kit one stay" || t_fail "live temp kept" "$(ls -A "$src")"
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
rm -rf "$src/.tmp.$(printf '%040d' 5).4242" "$src/.tmp.ghijkl"

# Interrupted: SIGINT (dash runs no EXIT trap on it by itself) and SIGKILL.
# setsid: its own process group, as a terminal's ^C reaches the whole job.
interrupt() { # interrupt SIGNAL: a slow fetch, signalled while it exports
	[ ! -e "$exp" ] || { chmod -R u+w "$exp"; rm -rf "$exp"; }
	SLOW_ARCHIVE=3 PATH=$tmp/shim:$PATH setsid env --default-signal=INT sh "$kit/scripts/fetch.sh" fake >/dev/null 2>&1 &
	_p=$!
	for _i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		[ -n "$(ls -d "$src"/.tmp.* 2>/dev/null)" ] && break; sleep 0.2
	done
	kill -s "$1" -- "-$_p"; wait "$_p" 2>/dev/null
}
interrupt INT; rc=$?
[ $rc -ne 0 ] && [ -z "$(ls -d "$src"/.tmp.* 2>/dev/null)" ] && [ ! -e "$exp" ] &&
	t_ok "SIGINT under dash: exit $rc, its temp folder removed, nothing published" || t_fail "SIGINT cleanup" "rc=$rc" "$(ls -A "$src")"
interrupt KILL
[ -n "$(ls -d "$src"/.tmp.* 2>/dev/null)" ] && t_ok "(SIGKILL leaves a temp folder)" || t_fail "SIGKILL leaves a temp folder" "$(ls -A "$src")"
fetch fake >/dev/null 2>&1 && verified && t_ok "... which the next fetch removes, ending with one good export" || t_fail "SIGKILL leftover" "$(ls -A "$src")"

# Two fetches of one branch at once: one export, both callers use it.
chmod -R u+w "$exp"; rm -rf "$exp"
(SLOW_ARCHIVE=1 PATH=$tmp/shim:$PATH sh "$kit/scripts/fetch.sh" fake >"$tmp/o1" 2>"$tmp/e1"; echo $? >"$tmp/r1") &
(SLOW_ARCHIVE=1 PATH=$tmp/shim:$PATH sh "$kit/scripts/fetch.sh" fake >"$tmp/o2" 2>"$tmp/e2"; echo $? >"$tmp/r2") &
wait
[ "$(cat "$tmp/r1" "$tmp/r2")" = "0
0" ] && [ "$(cat "$tmp/o1")" = "$exp" ] && [ "$(cat "$tmp/o2")" = "$exp" ] && verified &&
	t_ok "two fetches at once: both exit 0 with the same path, one export, not nested, --verify clean" ||
	t_fail "two fetches at once" "rc: $(cat "$tmp/r1" "$tmp/r2" | tr '\n' ' ')" "$(cat "$tmp/e1" "$tmp/e2")" "$(ls -A "$src" "$exp")"
[ "$(grep -c 'exporting' "$tmp/e1" "$tmp/e2" | awk -F: '{ s += $2 } END { print s }')" -eq 1 ] &&
	t_ok "... only one of them exported (the other waited for it)" || t_fail "one exporter" "$(cat "$tmp/e1" "$tmp/e2")"

# Publishing never replaces what is there, even an empty folder.
chmod -R u+w "$exp"; rm -rf "$exp"
SLOW_ARCHIVE=2 PATH=$tmp/shim:$PATH sh "$kit/scripts/fetch.sh" fake >/dev/null 2>"$tmp/err" &
p=$!
sleep 1; mkdir "$exp"
wait $p; rc=$?
[ $rc -eq 1 ] && grep -q "appeared while it was made" "$tmp/err" && [ -d "$exp" ] && [ -z "$(ls -A "$exp")" ] &&
	[ -z "$(ls -d "$src"/.tmp.* 2>/dev/null)" ] &&
	t_ok "an empty folder made at the target meanwhile: not replaced, exit 1 naming it, no leftovers" ||
	t_fail "publish onto an empty folder" "rc=$rc" "$(cat "$tmp/err")" "$(ls -A "$src" "$exp")"
rmdir "$exp"

# --copy: a writable copy, checked against the export's listing.
fetch fake >/dev/null 2>&1
fetch --copy fake "$tmp/copy" >"$tmp/listing" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && [ ! -e "$tmp/copy/.kit-verified" ] && [ -w "$tmp/copy/fs/exec.c" ] &&
	[ "$(sed '1,/^listing$/d' "$exp/.kit-verified" | sha256sum)" = "$(sha256sum <"$tmp/listing")" ] &&
	t_ok "--copy: writable, no marker, prints the listing it was checked against" || t_fail "--copy" "rc=$rc" "$(cat "$tmp/err")"
err=$(fetch --copy fake "$tmp/copy" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "exists" && t_ok "--copy onto an existing folder: exit 2" || t_fail "--copy onto existing" "rc=$rc: $err"

# build.sh: the pinned id is the source only of a checked tree.
OUT=$tmp/out1 sh "$kit/scripts/build.sh" unpatched fake >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && [ "$(jq -r '.base_commit + " " + .source' "$tmp/out1/fake/result.json")" = "$c $c" ] &&
	t_ok "a build from the export records the pinned commit as its source" || t_fail "build from the export" "rc=$rc" "$(tail -3 "$tmp/err")"
rw edit_keep_stat
# (the build cache off: this is about the export, not about a kernel
# the same inputs made before)  An unpatched build reads the export's
# marker only (fetch.sh --marker): its tree is the link source's farm,
# held to the marker's listing, so what it builds is the verified tree
# whatever happened to the export; the next reader of the export's files
# (a plain fetch, as a patched build's plan does) finds the edit, says
# so and makes the export again.
KIT_BUILD_CACHE=0 OUT=$tmp/out2 sh "$kit/scripts/build.sh" unpatched fake >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && [ "$(jq -r '.build.unpatched.files_changed_from_source | length' "$tmp/out2/fake/result.json")" = 0 ] &&
	! grep -q EXEC "$tmp/out2/fake/unpatched/src/fs/exec.c" &&
	fetch fake >/dev/null 2>"$tmp/err" && grep -q "warning: .*1 changed: fs/exec.c.*making it again" "$tmp/err" && good &&
	t_ok "a corrupted export: the unpatched build is of the verified tree (the farm); the next fetch says so and makes the export again" ||
	t_fail "build after corruption" "rc=$rc" "$(cat "$tmp/err")"

# The same build started twice at once: one builds, the other waits and
# then finds it made (not built again from under the first one's boot).
rm -rf "$tmp/out3"
(KIT_BUILD_CACHE=0 OUT=$tmp/out3 sh "$kit/scripts/build.sh" unpatched fake >/dev/null 2>"$tmp/b1"; echo $? >"$tmp/r1") &
(KIT_BUILD_CACHE=0 OUT=$tmp/out3 sh "$kit/scripts/build.sh" unpatched fake >/dev/null 2>"$tmp/b2"; echo $? >"$tmp/r2") &
wait
[ "$(cat "$tmp/r1" "$tmp/r2" | tr '\n' ' ')" = "0 0 " ] && [ "$(cat "$tmp/b1" "$tmp/b2" | grep -c 'build ok')" -eq 1 ] &&
	cat "$tmp/b1" "$tmp/b2" | grep -q "is up to date" &&
	t_ok "the same build twice at once: built once, the other finds it up to date" ||
	t_fail "the same build twice at once" "$(cat "$tmp/r1" "$tmp/r2")" "$(cat "$tmp/b1" "$tmp/b2")"

err=$(TREE=$tmp/tree NAME=../../escape sh "$kit/scripts/build.sh" unpatched 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "NAME='../../escape' is not a plain name" && [ ! -e "$tmp/escape" ] && [ ! -e "$OUT/../../escape" ] &&
	t_ok "NAME=../../escape is refused before anything is written" || t_fail "NAME escape" "rc=$rc: $err"

# TREE=: the stamp is the tree's content (not its path) and the toolchain.
cp -a "$tmp/tree" "$tmp/tree2"
up() { grep -q "is up to date" "$tmp/err"; }
TREE=$tmp/tree NAME=t sh "$kit/scripts/build.sh" unpatched >/dev/null 2>"$tmp/err" &&
	jq -r .source "$OUT/t/result.json" | grep -q '^tree-content:[0-9a-f]\{64\}$' &&
	[ "$(jq -r .base_commit "$OUT/t/result.json")" = null ] &&
	t_ok "a TREE= build is named by its content, with no pinned commit" || t_fail "TREE= source" "$(cat "$tmp/err")"
TREE=$tmp/tree2 NAME=t sh "$kit/scripts/build.sh" unpatched >/dev/null 2>"$tmp/err"; up &&
	t_ok "the same content at another path is up to date" || t_fail "same content, other path" "$(cat "$tmp/err")"
mkdir "$tmp/tree2/.git"; echo 'ref: x' >"$tmp/tree2/.git/HEAD"
TREE=$tmp/tree2 NAME=t sh "$kit/scripts/build.sh" unpatched >/dev/null 2>"$tmp/err"; up &&
	t_ok "a TREE that is a git checkout: its .git is not its content" || t_fail "TREE .git ignored" "$(cat "$tmp/err")"
echo '/* edited */' >>"$tmp/tree2/kernel/fork.c"
TREE=$tmp/tree2 NAME=t sh "$kit/scripts/build.sh" unpatched >/dev/null 2>"$tmp/err"; ! up && [ -f "$OUT/t/unpatched/bzImage" ] &&
	t_ok "an edited tree at the same path is built again" || t_fail "edited tree rebuilt" "$(cat "$tmp/err")"
mkdir "$tmp/gcc"
printf '#!/bin/sh\n[ "$1" = --version ] && { echo "gcc (Other) 13.0"; exit 0; }\nexec /usr/bin/gcc "$@"\n' >"$tmp/gcc/gcc"
chmod +x "$tmp/gcc/gcc"
PATH=$tmp/gcc:$PATH TREE=$tmp/tree2 NAME=t sh "$kit/scripts/build.sh" unpatched >/dev/null 2>"$tmp/err"; ! up &&
	t_ok "another compiler version: built again (the stamp holds gcc's and binutils' versions)" || t_fail "compiler in stamp" "$(cat "$tmp/err")"

# The apt source (debian-6.1) takes the same checks.  Shims stand in for
# apt: the index gives version 9.9-1 and the .deb's sha256 (APT_VER empty:
# apt knows nothing), "apt-get download" copies a .deb made here and counts.
mkdir -p "$tmp/deb/DEBIAN" "$tmp/deb/usr/src" "$tmp/apt" "$tmp/lsrc"
printf 'Package: linux-source-9.9\nVersion: 9.9-1\nArchitecture: all\nMaintainer: t <t@t>\nDescription: t\n' >"$tmp/deb/DEBIAN/control"
cp -a "$tmp/tree" "$tmp/lsrc/linux-source-9.9"
tar -cJf "$tmp/deb/usr/src/linux-source-9.9.tar.xz" -C "$tmp/lsrc" linux-source-9.9
dpkg-deb -b "$tmp/deb" "$tmp/the.deb" >/dev/null
cat >"$tmp/apt/apt-cache" <<'SH'
#!/bin/sh
case $1 in
policy) printf '%s:\n  Installed: (none)\n  Candidate: %s\n' "$2" "${APT_VER:-(none)}" ;;
show) [ -n "$APT_VER" ] && printf 'Package: x\nSHA256: %s\n' "$(sha256sum <"$APT_DEB" | cut -d' ' -f1)" ;;
esac
SH
cat >"$tmp/apt/apt-get" <<'SH'
#!/bin/sh
[ "$1" = download ] || exit 100
echo download >>"$APT_LOG"
cp "$APT_DEB" "linux-source-9.9_9.9-1_all.deb"
SH
chmod +x "$tmp/apt/apt-cache" "$tmp/apt/apt-get"
fake_conf "$kit" fakeapt BR_SOURCE=apt BR_APT_PACKAGE=linux-source-9.9 'BR_HOST_SERIES=""'
aexp=$KIT_CACHE/src/linux-source-9.9_9.9-1
apt_fetch() { APT_VER=${APT_VER-9.9-1} APT_DEB=$tmp/the.deb APT_LOG=$tmp/apt.log PATH=$tmp/apt:$PATH sh "$kit/scripts/fetch.sh" "$@"; }
agood() { diff -r -x .kit-verified "$tmp/tree" "$aexp" >/dev/null; }
out=$(apt_fetch fakeapt 2>"$tmp/err"); rc=$?
[ $rc -eq 0 ] && [ "$out" = "$aexp" ] && agood && grep -qx 'package linux-source-9.9' "$aexp/.kit-verified" &&
	grep -q '^deb_sha256 [0-9a-f]\{64\}$' "$aexp/.kit-verified" && grep -q '^stat ' "$aexp/.kit-verified" &&
	t_ok "apt: the package is unpacked into a marked export (package, version, .deb digest, listing)" ||
	t_fail "apt export" "rc=$rc" "$(cat "$tmp/err")"
chmod u+w "$aexp/fs"; echo 'int x;' >"$aexp/fs/evil.c"; chmod a-w "$aexp/fs"
out=$(apt_fetch fakeapt 2>"$tmp/err"); rc=$?
[ $rc -eq 0 ] && grep -q "warning: .*(1 added: fs/evil.c); removing it" "$tmp/err" && agood && [ "$(wc -l <"$tmp/apt.log")" -eq 1 ] &&
	t_ok "apt: a file added to the export is reported, the export made again from the cached .deb" ||
	t_fail "apt: corrupted export" "rc=$rc" "$(cat "$tmp/err")"
echo junk >>"$KIT_CACHE/apt/linux-source-9.9_9.9-1_all.deb"
chmod -R u+w "$aexp"; rm -rf "$aexp"
out=$(apt_fetch fakeapt 2>"$tmp/err"); rc=$?
[ $rc -eq 0 ] && grep -q "warning: .*does not have the sha256 apt's index gives" "$tmp/err" && agood && [ "$(wc -l <"$tmp/apt.log")" -eq 2 ] &&
	t_ok "apt: a cached .deb that is not the index's is downloaded again" || t_fail "apt: corrupted .deb" "rc=$rc" "$(cat "$tmp/err")"
# An apt export is farmed as a git one is: hard links to its link source
# (keyed by package and version), the farm held to the marker's listing;
# the work tree's listing reads the link index; --verify hashes the link
# source too, and one written through a farm is removed and copied around.
als=$KIT_CACHE/src/.links.linux-source-9.9_9.9-1
out=$(apt_fetch --farm fakeapt "$tmp/afarm" 2>"$tmp/err"); rc=$?
ino() { stat -c %i "$1"; }
[ $rc -eq 0 ] && diff -r "$tmp/tree" "$tmp/afarm" >/dev/null && [ -r "$KIT_CACHE/src/.links-index.linux-source-9.9_9.9-1" ] &&
	[ "$(ino "$tmp/afarm/fs/exec.c")" = "$(ino "$als/fs/exec.c")" ] && [ "$(ino "$tmp/afarm/fs/exec.c")" != "$(ino "$aexp/fs/exec.c")" ] &&
	[ "$out" = "$(apt_fetch --listing "$tmp/afarm" fakeapt)" ] && [ "$out" = "$(apt_fetch --listing "$aexp")" ] &&
	t_ok "apt: --farm links a work tree to the package's link source, held to the export's listing" ||
	t_fail "apt farm" "rc=$rc" "$(cat "$tmp/err")"
err=$(apt_fetch --verify fakeapt 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$err" | grep -q "$als matches it too" &&
	t_ok "apt: --verify hashes the link source too" || t_fail "apt --verify link source" "rc=$rc: $err"
chmod u+w "$als/fs/exec.c"; echo '/* written through a farm */' >>"$als/fs/exec.c"; chmod a-w "$als/fs/exec.c"
chmod -R u+w "$tmp/afarm"; rm -rf "$tmp/afarm"
out=$(apt_fetch --farm fakeapt "$tmp/afarm" 2>"$tmp/err"); rc=$?
[ $rc -eq 0 ] && grep -q "the link source .* is not the export" "$tmp/err" && diff -r "$tmp/tree" "$tmp/afarm" >/dev/null && [ ! -e "$als" ] &&
	t_ok "apt: a link source written through a farm is found, removed, and the work tree copied" ||
	t_fail "apt: written link source" "rc=$rc" "$(cat "$tmp/err")"
chmod -R u+w "$tmp/afarm"; rm -rf "$tmp/afarm"
out=$(apt_fetch --farm fakeapt "$tmp/afarm" 2>"$tmp/err") && [ -d "$als" ] &&
	chmod u+w "$als/fs/exec.c" && echo '/* again */' >>"$als/fs/exec.c" && chmod a-w "$als/fs/exec.c"
err=$(apt_fetch --verify fakeapt 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$err" | grep -q "the link source $als was not the export" && [ ! -e "$als" ] &&
	t_ok "apt: --verify removes a link source that is not the export" || t_fail "apt --verify bad link source" "rc=$rc: $err"
chmod -R u+w "$tmp/afarm"; rm -rf "$tmp/afarm"
out=$(APT_VER= apt_fetch fakeapt 2>"$tmp/err"); rc=$?
[ $rc -eq 0 ] && [ "$out" = "$aexp" ] && t_ok "apt knows nothing: the checked cached export serves" || t_fail "apt offline, cached" "rc=$rc" "$(cat "$tmp/err")"
chmod -R u+w "$aexp"; rm -rf "$aexp"
err=$(APT_VER= apt_fetch fakeapt 2>&1); rc=$?
[ $rc -eq 3 ] && echo "$err" | grep -q "apt knows no package linux-source-9.9" &&
	t_ok "apt knows nothing and nothing is cached: exit 3 (unreachable)" || t_fail "apt offline, nothing cached" "rc=$rc: $err"
t_done
