#!/bin/sh
# Seeded builds (build.sh): a build starts from the objects of the tree in
# OUT that differs least from its own (same branch, compiler, flags and
# recipe, under the same fixed name for kbuild's paths), and make compiles
# only what differs.  What it makes equals a clean build's; the export it
# links to keeps its files and their times; a seed that does not hold what
# its build made (seed.sums) is not used, and says so, nor is one that
# lacks a header the build has; KIT_SEED=0 builds from clean.  The fake kernel of fakekernel.sh "compiles" fs/exec.o and
# kernel/fork.o from their .c when the .c is newer, as make does.
. ci/tap.sh
. scripts/tests/fakekernel.sh
tmp=$(mktemp -d); trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
fake_git_branch "$tmp"
KIT_BUILD_CACHE=0; export KIT_BUILD_CACHE
fake_series "$tmp/fix"
# a second series: kernel/fork.c gains a line
mkdir -p "$tmp/fork"
printf -- '--- a/kernel/fork.c\n+++ b/kernel/fork.c\n@@ -1 +1,2 @@\n /* kernel/fork.c */\n+/* forked */\n' >"$tmp/fork/fork.patch"
echo fork.patch >"$tmp/fork/series"
build() { # build KIND SERIES [VAR=value...]: build.sh's stderr in $tmp/err
	_k=$1 _s=$2; shift 2
	env "$@" ${_s:+SERIES_DIR="$tmp/$_s"} sh "$kit/scripts/build.sh" "$_k" fake >/dev/null 2>"$tmp/err"
}
compiled() { grep '^  CC ' "$OUT/${2:-fake}/$1/build.log" | awk '{print $2}' | LC_ALL=C sort | tr '\n' ' '; }
rec() { jq -r "$2" "$OUT/${3:-fake}/result.json" | sed "s|^$OUT/||"; }
# same_outputs A B: the two built trees hold the same objects and image
same_outputs() {
	for _o in fs/exec.o kernel/fork.o arch/x86/boot/bzImage; do
		cmp -s "$OUT/$1/src/$_o" "$OUT/$2/src/$_o" || return 1
	done
}
# the export's files and its link source's (what the work trees link to),
# with their inode, size, time and mode: what no build may change
sh "$kit/scripts/fetch.sh" fake >/dev/null 2>&1
export_state() { (cd "$KIT_CACHE/src" && find . -path './*/*' -type f -printf '%P %i %s %T@ %m\n' | LC_ALL=C sort); }

build unpatched "" && export_state >"$tmp/export.before" && [ "$(compiled unpatched)" = "fs/exec.o kernel/fork.o " ] &&
	[ "$(rec . .build.unpatched.seed)" = null ] && [ -s "$OUT/fake/unpatched/seed.sums" ] &&
	t_ok "a first build compiles everything and leaves its outputs' digests for a later one (seed.sums)" ||
	t_fail "first build" "$(compiled unpatched); $(cat "$tmp/err")"
build fix fix && [ "$(compiled fix)" = "fs/exec.o " ] &&
	[ "$(rec . .build.fix.seed.from)" = fake/unpatched ] && [ "$(rec . .build.fix.seed.files_differing)" = 1 ] &&
	grep -q 'seed .*starting from the objects of .*fake/unpatched (1 files differ)' "$tmp/err" &&
	grep -q '(seeded)' "$tmp/err" && cmp -s "$OUT/fake/fix/src/fs/exec.c" "$OUT/fake/fix/src/fs/exec.o" &&
	t_ok "fs/exec.c patched: seeded from the unpatched tree, said and recorded, only fs/exec.o compiled" ||
	t_fail "seeded build" "compiled: $(compiled fix); $(cat "$tmp/err")"
build fix fix KIT_SEED=0 NAME=clean && [ "$(compiled fix clean)" = "fs/exec.o kernel/fork.o " ] &&
	[ "$(rec . .build.fix.seed clean)" = null ] &&
	same_outputs fake/fix clean/fix &&
	t_ok "KIT_SEED=0 builds from clean, and makes the objects the seeded build made" ||
	t_fail "clean build" "compiled: $(compiled fix clean); $(cat "$tmp/err")"
build fix fix NAME=again && [ -z "$(compiled fix again)" ] && [ "$(rec . .build.fix.seed.files_differing again)" = 0 ] &&
	cmp -s "$OUT/fake/fix/src/fs/exec.o" "$OUT/again/fix/src/fs/exec.o" &&
	t_ok "the same series again: its patched fs/exec.c takes the seed's time, nothing is compiled" ||
	t_fail "same series" "compiled: $(compiled fix again); $(cat "$tmp/err")"

# a seed whose file fs/exec.c is patched and this tree's is the export's
# (a hard link): copied, made newer, compiled again; the export untouched
chmod -R u+w "$OUT"; rm -rf "$OUT/fake/unpatched" "$OUT/clean" "$OUT/again"
build fork fork && [ "$(compiled fork)" = "fs/exec.o kernel/fork.o " ] &&
	[ "$(rec . .build.fork.seed.from)" = fake/fix ] &&
	cmp -s "$tmp/tree/fs/exec.c" "$OUT/fake/fork/src/fs/exec.o" && grep -q forked "$OUT/fake/fork/src/kernel/fork.o" &&
	[ "$(stat -c %h "$OUT/fake/fork/src/fs/exec.c")" = 1 ] &&
	t_ok "a file the seed patched and this tree shares with the export: copied, compiled again from the export's text" ||
	t_fail "link broken" "compiled: $(compiled fork); $(cat "$tmp/err")"
export_state >"$tmp/export.after"
cmp -s "$tmp/export.before" "$tmp/export.after" &&
	[ -n "$(ls -d "$KIT_CACHE"/src/.links.* 2>/dev/null)" ] &&
	t_ok "the export and its link source keep every file, inode and time through the builds (quilt's pushes included)" ||
	t_fail "export changed" "$(diff "$tmp/export.before" "$tmp/export.after" | head -4)"

# a header the seed lacks may stand before another of its name on the
# include path, where no object's dependencies name it: built from clean
mkdir -p "$tmp/hdr"
printf -- '--- /dev/null\n+++ b/include/linux/new.h\n@@ -0,0 +1 @@\n+/* new */\n' >"$tmp/hdr/new.patch"
echo new.patch >"$tmp/hdr/series"
build hdr hdr && [ "$(compiled hdr)" = "fs/exec.o kernel/fork.o " ] && [ "$(rec . .build.hdr.seed)" = null ] &&
	grep -q 'not starting from the objects of .*: the header include/linux/new.h is new; building from clean' "$tmp/err" &&
	t_ok "a header the seed lacks: built from clean, and said" ||
	t_fail "new header" "compiled: $(compiled hdr); $(cat "$tmp/err")"

# a seed changed after its build: not used, said; the build is clean
echo tampered >>"$OUT/fake/fork/src/kernel/fork.o"
rm -rf "$OUT/fake/fix" "$OUT/fake/hdr"
build unpatched "" && [ "$(compiled unpatched)" = "fs/exec.o kernel/fork.o " ] &&
	grep -q 'fake/fork/src does not hold what its build made (seed.sums); building from clean' "$tmp/err" &&
	[ "$(rec . .build.unpatched.seed)" = null ] &&
	t_ok "a seed whose outputs changed after its build is not used, and the run says so" ||
	t_fail "tampered seed" "compiled: $(compiled unpatched); $(cat "$tmp/err")"
t_done
