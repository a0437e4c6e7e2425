#!/bin/sh
# mbox.sh on a synthetic source and series, no kernel tree: the mail
# headers and body come from the upstream commit or from a backport that
# names it (its own additions stripped), our [ backport: ] notes follow,
# the backporter signs only with SIGNOFF=1, a missing upstream text is said
# in one line, git am of the mails gives quilt's tree, a checkpatch error
# of ours fails the run and leaves the old mbox, bad input is one line.
# Everything here, the "upstream" text included, is made up at run time.
. ci/tap.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export KIT_CONFIG=$tmp/no-config OUT=$tmp/out KERNEL_GIT=$tmp/src
unset TREE NAME SERIES_DIR SIGNOFF CHECKPATCH BRANCH
# Git reads no config of this machine's user: commits made here have a
# fixed identity, and SIGNOFF=1's backporter is given per run (with_id).
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=$tmp/gitconfig
printf '[user]\n\tname = Unit Committer\n\temail = unit@localhost\n[gc]\n\tauto = 0\n' >"$tmp/gitconfig"
me="Kit Unit Backporter <backporter@unit.example>"
with_id() { GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0="${me% <*}" \
	GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1=backporter@unit.example "$@"; }
U2=2222222222222222222222222222222222222222 U3=3333333333333333333333333333333333333333
U4=4444444444444444444444444444444444444444

# commit_as DIR "NAME <EMAIL>" COMMITTER-EMAIL MESSAGE-FILE
commit_as() {
	GIT_AUTHOR_NAME=${2% <*} GIT_AUTHOR_EMAIL=$(echo "$2" | sed 's/.*<\(.*\)>/\1/') \
	GIT_AUTHOR_DATE="Thu, 28 Jan 2010 22:14:42 -0800" GIT_COMMITTER_NAME=Committer \
	GIT_COMMITTER_EMAIL=$3 git -C "$1" commit -q --allow-empty -F "$4"
}

# The source: an upstream commit (U1), a stable backport of U2 as a
# distribution carries it, a cherry-pick of U3, and an older revert that
# merely mentions U2 (picked first if a mention counted); nothing of U4.
mk_source() {
	s=$tmp/src; git init -q "$s"
	printf 'int a;\n' >"$s/a.h"; git -C "$s" add a.h; git -C "$s" commit -q -m base
	printf 'Revert "demo: second fix"\n\nThis reverts commit %s.\n\nSigned-off-by: Rev Erter <rev@up.example>\n' "$U2" >"$tmp/m0"
	commit_as "$s" "Rev Erter <rev@up.example>" rev@up.example "$tmp/m0"
	printf 'int upstream_style(struct x * y);\n' >>"$s/a.h"; git -C "$s" add a.h
	printf 'demo: first fix\n\nUpstream text of the first fix.\n\nSigned-off-by: Ann Upstream <ann@up.example>\nAcked-by: Bob Maint <bob@up.example>\nCc: stable@kernel.org\nSigned-off-by: Linus Example <linus@up.example>\n' >"$tmp/m1"
	commit_as "$s" "Ann Upstream <ann@up.example>" linus@up.example "$tmp/m1"
	printf 'demo: second fix\n\nBugLink: https://bugs.example/1\n\ncommit %s upstream.\n\nUpstream text of the second fix.\n\nSigned-off-by: Carol Author <carol@up.example>\nSigned-off-by: Linus Example <linus@up.example>\n[gkh: context]\nSigned-off-by: Greg Kroah-Hartman <gregkh@suse.de>\nAcked-by: Dee Distro <dee@distro.example>\nSigned-off-by: Eve Distro <eve@distro.example>\n' "$U2" >"$tmp/m2"
	commit_as "$s" "H. Carol Author <carol@up.example>" eve@distro.example "$tmp/m2"
	printf 'demo: third fix\n\nUpstream text of the third fix.\n\nSigned-off-by: Fay Upstream <fay@up.example>\n(backported from commit %s upstream)\n[ dee: adapted ]\nSigned-off-by: Dee Distro <dee@distro.example>\n' "$U3" >"$tmp/m3"
	commit_as "$s" "Fay Upstream <fay@up.example>" dee@distro.example "$tmp/m3"
	U1=$(git -C "$s" log --format=%H -1 --grep='^demo: first fix')
}

# mk_patch DIR FILE ID AUTHOR SUBJECT NOTE: what is staged in $tmp/tree as
# one patch of the kit's format in series DIR, then committed there.
mk_patch() {
	t=$tmp/tree; mkdir -p "$1"; git -C "$t" add -A
	{
		printf 'From: %s\nSubject: %s\nGit-commit: %s\nPatch-mainline: v2.6.33\nReferences: CVE-2010-0307\n\n' "$4" "$5" "$3"
		printf 'commit %s upstream.\n\nOur own summary of %s.\n\n' "$3" "$5"
		[ -z "$6" ] || printf '[ adapted: %s ]\n\n' "$6"
		printf '[ v2.6.32: made by the kit (make series):\n  %s: hand hunk (backports/fixes/F/changes/X/hunks/v2.6.32.diff) ]\n\n---\n' \
			"$(git -C "$t" diff --cached --name-only | head -1)"
		git -C "$t" diff --cached --stat=72 | sed 's/^ */ /'
		echo
		git -C "$t" diff --cached --no-color --full-index
	} >"$1/$2"
	echo "$2" >>"$1/series"
	git -C "$t" commit -q -m "$2"
}

# mk_series DIR [OURBAD|UPBAD]: four patches on a tiny tree ($tmp/base
# stays the unpatched copy); the first respells upstream's "* y" as
# checkpatch wants, but with UPBAD, where it keeps upstream's line;
# OURBAD makes the second add a line checkpatch flags that upstream never
# had.
mk_series() {
	rm -rf "$tmp/tree"; mkdir "$tmp/tree"; t=$tmp/tree
	printf 'int a;\n' >"$t/a.h"; printf 'int b;\n' >"$t/b.c"; printf 'int c;\n' >"$t/c.c"
	git init -q "$t"; git -C "$t" add -A; git -C "$t" commit -q -m base
	rm -rf "$tmp/base"; cp -a "$t" "$tmp/base"; rm -rf "$tmp/base/.git"
	if [ "${2:-}" = UPBAD ]; then
		printf 'int upstream_style(struct x * y);\n' >>"$t/a.h"
		mk_patch "$1" demo-first-fix.patch "$U1" "Ann Upstream <ann@up.example>" "demo: first fix" \
			"a.h keeps the old style here, as upstream does"
	else
		printf 'int upstream_style(struct x *y);\n' >>"$t/a.h"
		mk_patch "$1" demo-first-fix.patch "$U1" "Ann Upstream <ann@up.example>" "demo: first fix" \
			"a.h spells upstream's \"* y\" as checkpatch wants"
	fi
	ours=; [ "${2:-}" != OURBAD ] || ours=' /* OURBAD */'
	printf 'int b2%s;\n' "$ours" >>"$t/b.c"
	mk_patch "$1" demo-second-fix.patch "$U2" "H. Carol Author <carol@up.example>" "demo: second fix" ""
	printf 'int c3; /* WARNME */\n' >>"$t/c.c"
	mk_patch "$1" demo-third-fix.patch "$U3" "Fay Upstream <fay@up.example>" "demo: third fix" ""
	printf 'int d4;\n' >"$t/d.c"
	mk_patch "$1" demo-fourth-fix.patch "$U4" "Gil Upstream <gil@up.example>" "demo: fourth fix" ""
}

# A stand-in for checkpatch.pl with 2.6's output format; the "do\s{"
# regex is what perl >= 5.26 refuses, so it compiles only through the
# copy mbox.sh makes of it.
mk_checkpatch() {
	cat >"$tmp/checkpatch.pl" <<'EOF'
my ($e, $w, $n, $sob) = (0, 0, 0, 0);
open(my $fh, '<', $ARGV[-1]) or die "cannot open $ARGV[-1]";
while (my $l = <$fh>) {
	chomp $l; $n++;
	next if $l =~ /\#\s*define.*do\s{/;
	$sob = 1 if $l =~ /^Signed-off-by:/;
	if ($l =~ /^\+.*(\* y\)|OURBAD)/) { print "ERROR: \"foo * bar\" should be \"foo *bar\"\n#$n: FILE: x:1:\n$l\n\n"; $e++; }
	if ($l =~ /^\+.*WARNME/) { print "WARNING: a warning\n#$n: FILE: c.c:1:\n$l\n\n"; $w++; }
}
if (!$sob) { print "ERROR: Missing Signed-off-by: line(s)\n\n"; $e++; }
print "total: $e errors, $w warnings, $n lines checked\n";
exit($e || $w ? 1 : 0);
EOF
}

mk_source; mk_series "$tmp/series"; mk_series "$tmp/series-bad" OURBAD; mk_series "$tmp/series-upbad" UPBAD
mk_checkpatch
export CHECKPATCH=$tmp/checkpatch.pl
run() { sh scripts/mbox.sh v2.6.32 >"$tmp/o" 2>"$tmp/e"; }
d=$OUT/demo/mbox
body() { sed '1,/^$/d; /^---$/,$d' "$d/$1"; }   # a mail's body, up to "---"

with_id env SIGNOFF=1 SERIES_DIR="$tmp/series" NAME=demo sh scripts/mbox.sh v2.6.32 >"$tmp/o" 2>"$tmp/e"; rc=$?
[ $rc -eq 0 ] && [ "$(ls "$d" | tr '\n' ' ')" = "0001-demo-first-fix.patch 0002-demo-second-fix.patch 0003-demo-third-fix.patch 0004-demo-fourth-fix.patch checkpatch.txt series.mbox " ] &&
	t_ok "SIGNOFF=1: four mails in series order, series.mbox and checkpatch.txt" ||
	t_fail "SIGNOFF=1 writes the mbox" "rc=$rc $(ls "$d" 2>&1 | tr '\n' ' ') $(tail -2 "$tmp/e")"
m1=$d/0001-demo-first-fix.patch
[ "$(sed -n '2,4p' "$m1")" = "From: Ann Upstream <ann@up.example>
Date: Thu, 28 Jan 2010 22:14:42 -0800
Subject: [PATCH 1/4] demo: first fix" ] && [ "$(head -1 "$m1")" = "From $U1 Mon Sep 17 00:00:00 2001" ] &&
	t_ok "From:, Date: and subject of the upstream commit, [PATCH 1/4]" || t_fail "upstream headers" "$(sed -n 1,4p "$m1")"
expect="commit $U1 upstream.

Upstream text of the first fix.

Signed-off-by: Ann Upstream <ann@up.example>
Acked-by: Bob Maint <bob@up.example>
Cc: stable@kernel.org
Signed-off-by: Linus Example <linus@up.example>
[ backport: a.h spells upstream's \"* y\" as checkpatch wants ]
[ backport: v2.6.32: made by the kit (make series):
  a.h: hand hunk (backports/fixes/F/changes/X/hunks/v2.6.32.diff) ]
Signed-off-by: $me"
[ "$(body 0001-demo-first-fix.patch)" = "$expect" ] &&
	t_ok "body: commit <id> upstream., upstream's changelog and chain, our [ backport: ] lines, the backporter last" ||
	t_fail "mail body in stable-queue form" "$(body 0001-demo-first-fix.patch | diff - "$(printf '%s\n' "$expect" >"$tmp/x"; echo "$tmp/x")" | head -8)"
expect="commit $U2 upstream.

Upstream text of the second fix.

Signed-off-by: Carol Author <carol@up.example>
Signed-off-by: Linus Example <linus@up.example>
[ backport: v2.6.32: made by the kit (make series):"
[ "$(body 0002-demo-second-fix.patch | head -7)" = "$expect" ] &&
	grep -q '^From: "H. Carol Author" <carol@up.example>$' "$d/0002-demo-second-fix.patch" &&
	t_ok "a stable backport: its BugLink, commit line, stable and distribution sign-offs stripped; upstream's chain kept; a dotted name quoted" ||
	t_fail "stable backport stripped to upstream's text" "$(body 0002-demo-second-fix.patch | head -12)"
[ "$(body 0003-demo-third-fix.patch | sed -n '3,6p')" = "Upstream text of the third fix.

Signed-off-by: Fay Upstream <fay@up.example>
[ backport: v2.6.32: made by the kit (make series):" ] &&
	t_ok "a cherry-pick: upstream's text ends at its (backported from commit ...) line" ||
	t_fail "backported-from form" "$(body 0003-demo-third-fix.patch | head -8)"
m4=$d/0004-demo-fourth-fix.patch
[ "$(grep -c "lacks upstream's changelog" "$m4")" -eq 1 ] && grep -q '^Our own summary of demo: fourth fix\.$' "$m4" &&
	grep -q '^From: Gil Upstream <gil@up.example>$' "$m4" && ! grep -q '^Date:' "$m4" &&
	t_ok "an id the source lacks: one line says so, our summary follows, From: from the patch, no Date:" ||
	t_fail "source lacks it" "$(body 0004-demo-fourth-fix.patch | head -6)"
grep -q '^  WARNING: a warning' "$d/checkpatch.txt" &&
	[ "$(tail -1 "$d/checkpatch.txt")" = "total: 4 mails, 0 errors of ours, 0 errors on upstream's own lines, 1 warnings" ] &&
	t_ok "checkpatch.txt: warnings listed, totals" || t_fail "checkpatch.txt" "$(cat "$d/checkpatch.txt")"
cp "$d/series.mbox" "$tmp/good.mbox"
with_id env SIGNOFF=1 SERIES_DIR="$tmp/series-upbad" NAME=demo sh scripts/mbox.sh v2.6.32 >/dev/null 2>"$tmp/e"; rc=$?
r=$d.rejected/checkpatch.txt
[ $rc -eq 1 ] && cmp -s "$d/series.mbox" "$tmp/good.mbox" &&
	grep -q "^0001-demo-first-fix.patch: 1 errors (1 on upstream's own lines)" "$r" &&
	grep -q "^  ERROR (upstream's own line): " "$r" &&
	[ "$(tail -1 "$r")" = "total: 4 mails, 0 errors of ours, 1 errors on upstream's own lines, 1 warnings" ] &&
	tail -1 "$tmp/e" | grep -q "0 checkpatch error(s) of ours and 1 on upstream's own lines .*respell" &&
	t_ok "an error on upstream's own line is named as such, and fails the run too (exit 1, mbox/ unchanged)" ||
	t_fail "upstream's line" "rc=$rc $(tail -1 "$tmp/e") $(cat "$r")"

# git am of series.mbox on the unpatched tree gives the tree quilt gives.
cp -a "$tmp/base" "$tmp/am"; git init -q "$tmp/am"; git -C "$tmp/am" add -A; git -C "$tmp/am" commit -q -m base
cp -a "$tmp/base" "$tmp/q"
(cd "$tmp/q" && QUILT_PATCHES=$tmp/series QUILT_PC=$tmp/pc quilt push -a -q --fuzz=0 >/dev/null) &&
	git init -q "$tmp/q" && git -C "$tmp/q" add -A && qt=$(git -C "$tmp/q" write-tree) || qt=quilt-failed
git -C "$tmp/am" am -q "$d/series.mbox" >"$tmp/am.log" 2>&1 || echo "git am failed" >>"$tmp/am.log"
[ "$(git -C "$tmp/am" rev-parse 'HEAD^{tree}')" = "$qt" ] &&
	[ "$(git -C "$tmp/am" log -1 --skip=2 --format='%an|%s')" = "H. Carol Author|demo: second fix" ] &&
	t_ok "git am of series.mbox gives quilt's tree, with upstream's author and subject" ||
	t_fail "git am = quilt" "quilt $qt, am $(git -C "$tmp/am" rev-parse 'HEAD^{tree}') $(tail -2 "$tmp/am.log")"

# Without SIGNOFF: nobody signs the fourth mail, checkpatch says so: the
# run fails, the mails go to mbox.rejected/, the signed mbox/ stays.
SERIES_DIR=$tmp/series NAME=demo run; rc=$?
[ $rc -eq 1 ] && grep -q "Signed-off-by: $me" "$m1" && ! grep -rq "Kit Unit Backporter" "$d.rejected" &&
	grep -q '^  ERROR: Missing Signed-off-by' "$d.rejected/checkpatch.txt" &&
	tail -1 "$tmp/e" | grep -q '^mbox.sh: error: \[demo\] 1 checkpatch error(s) of ours' &&
	t_ok "without SIGNOFF no backporter line; the unsigned mail fails checkpatch, the old mbox/ stays" ||
	t_fail "no SIGNOFF" "rc=$rc $(cat "$tmp/e")"
with_id env SIGNOFF=1 SERIES_DIR="$tmp/series-bad" NAME=demo sh scripts/mbox.sh v2.6.32 >/dev/null 2>"$tmp/e"; rc=$?
[ $rc -eq 1 ] && ! grep -q OURBAD "$d/series.mbox" && grep -q 'OURBAD' "$d.rejected/checkpatch.txt" &&
	tail -1 "$tmp/e" | grep -q '1 checkpatch error(s) of ours' &&
	t_ok "a checkpatch error on a line upstream does not have fails the run (exit 1), mbox/ unchanged" ||
	t_fail "our checkpatch error" "rc=$rc $(tail -1 "$tmp/e")"

# A remote source: the upstream commit is fetched by id; it cannot be
# searched for backports, so those mails say the source lacks them.
with_id env SIGNOFF=1 SERIES_DIR="$tmp/series" NAME=remote KERNEL_GIT="file://$tmp/src" sh scripts/mbox.sh v2.6.32 >/dev/null 2>"$tmp/e"; rc=$?
r=$OUT/remote/mbox
[ $rc -eq 0 ] && grep -q '^Upstream text of the first fix\.$' "$r/0001-demo-first-fix.patch" &&
	grep -q "lacks upstream's changelog" "$r/0002-demo-second-fix.patch" &&
	t_ok "a remote KERNEL_GIT: the upstream commit fetched by id" || t_fail "remote source" "rc=$rc $(tail -2 "$tmp/e")"
SERIES_DIR=$tmp/series NAME=remote KERNEL_GIT="file://$tmp/nowhere" run; rc=$?
[ $rc -eq 3 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && t_ok "an unreachable remote KERNEL_GIT: exit 3, one line" ||
	t_fail "unreachable remote" "rc=$rc $(cat "$tmp/e")"

# Bad input: exit 2, one line naming the problem, nothing written.
bad() {
	_name=$1 _want=$2; shift 2
	rm -rf "$OUT/bad"
	env NAME=bad "$@" sh scripts/mbox.sh >"$tmp/o" 2>"$tmp/e"; _rc=$?
	if [ $_rc -eq 2 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && grep -q "^mbox.sh: error: .*$_want" "$tmp/e" && [ ! -e "$OUT/bad/mbox" ]; then
		t_ok "bad input: $_name"
	else t_fail "bad input: $_name" "rc=$_rc $(cat "$tmp/e")"; fi
}
sed '/^Git-commit:/d' "$tmp/series/demo-first-fix.patch" >"$tmp/nogit.patch"
mkdir "$tmp/s-nogit" "$tmp/s-missing" "$tmp/plain"
cp "$tmp/nogit.patch" "$tmp/s-nogit/"; echo nogit.patch >"$tmp/s-nogit/series"
echo missing.patch >"$tmp/s-missing/series"
bad "SIGNOFF=yes" "SIGNOFF='yes' is neither 1 nor 0" BRANCH=v2.6.32 SERIES_DIR="$tmp/series" SIGNOFF=yes
bad "SIGNOFF=1 with no git identity" "git config user.name/user.email is not set" BRANCH=v2.6.32 SERIES_DIR="$tmp/series" SIGNOFF=1 \
	GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0= GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1=
bad "no branch" "no branch given"
bad "unknown branch" "unknown branch 'v9.9'" BRANCH=v9.9
bad "SERIES_DIR without a series" "has no series file" BRANCH=v2.6.32 SERIES_DIR="$tmp/plain"
bad "a patch without Git-commit:" "nogit.patch has no 'Git-commit: <40-hex id>' header" BRANCH=v2.6.32 SERIES_DIR="$tmp/s-nogit"
bad "a series naming a missing patch" "names missing.patch, which does not exist" BRANCH=v2.6.32 SERIES_DIR="$tmp/s-missing"
bad "KERNEL_GIT not a repository" "is not a git repository" BRANCH=v2.6.32 SERIES_DIR="$tmp/series" KERNEL_GIT="$tmp/plain"
bad "CHECKPATCH missing" "is not a readable file" BRANCH=v2.6.32 SERIES_DIR="$tmp/series" CHECKPATCH="$tmp/nope.pl"
bad "debian-6.1 has no series" "carries the fix itself" BRANCH=debian-6.1
# TREE= whose series was never made: a tree detect.sh takes for v2.6.32
v=$tmp/vendor
for f in Makefile kernel/fork.c kernel/exit.c fs/exec.c fs/binfmt_elf.c mm/mmap.c init/main.c \
	include/linux/sched.h arch/x86/Kconfig arch/x86/kernel/process_64.c scripts/Makefile.build \
	scripts/Kbuild.include kernel/perf_event.c $(sh scripts/detect.sh --sites v2.6.32); do mkdir -p "$(dirname "$v/$f")"; : >"$v/$f"; done
printf 'VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 32\n' >"$v/Makefile"
bad "TREE= without its tree-series" "no series for TREE=$v in $OUT/bad/tree-series; make it first" TREE="$v"
# KERNEL_GIT is never an option to git, even on mbox's own path to the
# source (CHECKPATCH given, so fetch.sh is not asked first).
rm -f "$tmp/pwned"
out=$(KERNEL_GIT="--upload-pack=touch $tmp/pwned;@h:" SERIES_DIR="$tmp/series" NAME=demo2 sh scripts/mbox.sh v2.6.32 2>&1); rc=$?
[ $rc -eq 2 ] && [ ! -e "$tmp/pwned" ] && printf '%s' "$out" | grep -q "begins with '-', which git would take as an option" &&
	t_ok "KERNEL_GIT=--upload-pack=...: refused (exit 2), no command run" || t_fail "KERNEL_GIT option refused" "rc=$rc $out"

t_done
