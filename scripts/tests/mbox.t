#!/bin/sh
# mbox.sh on a synthetic source and series, no kernel tree: the mail
# headers and body come from the upstream commit or from a backport that
# names it (its own additions stripped), the subject reads "[PATCH <branch>
# n/m]", our notes follow as "[ <name>: Backported to <branch>: ... ]"
# (<name>: git config user.name with SIGNOFF=1, else the kit's), the
# backporter signs only with SIGNOFF=1, a missing upstream text is said in
# one line, the cover letter (0/m, its own file, not in series.mbox) says
# what the series fixes, the proof in OUT or its absence, the report and
# how each file was made, To:/Cc: come from MBOX_TO/MBOX_CC, git am of the
# mails gives quilt's tree, an unsigned run writes the mails and names
# each one still without a sign-off, a checkpatch error of ours fails the
# run and leaves the old mbox, bad input is one line.  With STABLE_GIT (a
# made-up stable tree) the upstream commit wins, then a stable commit
# naming it, then another backport; a distribution's lines around
# upstream's text are dropped; the cover letter gives the first stable
# release of each change.
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
	printf 'demo: third fix\n\nCVE-2010-0307\n\nUpstream text of the third fix.\n\nSigned-off-by: Fay Upstream <fay@up.example>\n(backported from commit %s upstream)\n[ dee: adapted ]\nSigned-off-by: Dee Distro <dee@distro.example>\n' "$U3" >"$tmp/m3"
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
hd() { sed '/^$/q' "$1"; }                        # a mail's header

with_id env SIGNOFF=1 SERIES_DIR="$tmp/series" NAME=demo sh scripts/mbox.sh v2.6.32 >"$tmp/o" 2>"$tmp/e"; rc=$?
[ $rc -eq 0 ] && [ "$(ls "$d" | tr '\n' ' ')" = "0000-cover-letter.patch 0001-demo-first-fix.patch 0002-demo-second-fix.patch 0003-demo-third-fix.patch 0004-demo-fourth-fix.patch checkpatch.txt series.mbox upstream-compare.txt " ] &&
	! for f in "$d"/0*.patch; do hd "$f"; done | grep -q '^\(To\|Cc\): ' &&
	t_ok "SIGNOFF=1: a cover letter, four mails in series order, series.mbox, checkpatch.txt and upstream-compare.txt; no To:/Cc: unless asked" ||
	t_fail "SIGNOFF=1 writes the mbox" "rc=$rc $(ls "$d" 2>&1 | tr '\n' ' ') $(tail -2 "$tmp/e")"
m1=$d/0001-demo-first-fix.patch
[ "$(sed -n '2,4p' "$m1")" = "From: Ann Upstream <ann@up.example>
Date: Thu, 28 Jan 2010 22:14:42 -0800
Subject: [PATCH v2.6.32 1/4] demo: first fix" ] && [ "$(head -1 "$m1")" = "From $U1 Mon Sep 17 00:00:00 2001" ] &&
	t_ok "From:, Date: and subject of the upstream commit, [PATCH v2.6.32 1/4]" || t_fail "upstream headers" "$(sed -n 1,4p "$m1")"
expect="commit $U1 upstream.

Upstream text of the first fix.

Signed-off-by: Ann Upstream <ann@up.example>
Acked-by: Bob Maint <bob@up.example>
Cc: stable@kernel.org
Signed-off-by: Linus Example <linus@up.example>
[ Kit Unit Backporter: Backported to v2.6.32: a.h spells upstream's \"* y\"
  as checkpatch wants ]
Signed-off-by: $me"
[ "$(body 0001-demo-first-fix.patch)" = "$expect" ] &&
	! grep -q 'made by the kit\|\[ backport:' "$d"/000[1-4]-* &&
	t_ok "body: commit <id> upstream., upstream's changelog and chain, [ <git name>: Backported to v2.6.32: ] notes, the backporter last; no made-by lines" ||
	t_fail "mail body in stable-queue form" "$(body 0001-demo-first-fix.patch | diff - "$(printf '%s\n' "$expect" >"$tmp/x"; echo "$tmp/x")" | head -8)"
expect="commit $U2 upstream.

Upstream text of the second fix.

Signed-off-by: Carol Author <carol@up.example>
Signed-off-by: Linus Example <linus@up.example>
Signed-off-by: $me"
[ "$(body 0002-demo-second-fix.patch)" = "$expect" ] &&
	grep -q '^From: "H. Carol Author" <carol@up.example>$' "$d/0002-demo-second-fix.patch" &&
	t_ok "a stable backport: its BugLink, commit line, stable and distribution sign-offs stripped; upstream's chain kept; a dotted name quoted" ||
	t_fail "stable backport stripped to upstream's text" "$(body 0002-demo-second-fix.patch | head -12)"
[ "$(body 0003-demo-third-fix.patch | sed -n '3,6p')" = "Upstream text of the third fix.

Signed-off-by: Fay Upstream <fay@up.example>
Signed-off-by: $me" ] &&
	t_ok "a cherry-pick: the distribution's CVE line before upstream's text dropped; upstream's text ends at its (backported from commit ...) line" ||
	t_fail "backported-from form" "$(body 0003-demo-third-fix.patch | head -8)"
m4=$d/0004-demo-fourth-fix.patch
[ "$(grep -c "^\[ Kit Unit Backporter: Backported to v2.6.32: the kit's source lacks$" "$m4")" -eq 1 ] && grep -q '^Our own summary of demo: fourth fix\.$' "$m4" &&
	grep -q '^From: Gil Upstream <gil@up.example>$' "$m4" && ! grep -q '^Date:' "$m4" &&
	t_ok "an id the source lacks: one line says so, our summary follows, From: from the patch, no Date:" ||
	t_fail "source lacks it" "$(body 0004-demo-fourth-fix.patch | head -6)"
grep -q '^  WARNING: a warning' "$d/checkpatch.txt" &&
	[ "$(tail -1 "$d/checkpatch.txt")" = "total: 4 mails, 0 errors of ours, 0 errors on upstream's own lines, 1 warnings" ] &&
	t_ok "checkpatch.txt: warnings listed, totals" || t_fail "checkpatch.txt" "$(cat "$d/checkpatch.txt")"

# The cover letter: its own file, first; no diff, so not in series.mbox
# (git am stops at an empty patch: checked here, the reason it is apart).
c=$d/0000-cover-letter.patch
[ "$(hd "$c" | grep '^Subject: ')" = "Subject: [PATCH v2.6.32 0/4] security fixes: CVE-2010-0307" ] &&
	hd "$c" | grep -q "^From: $me$" && ! grep -q '^diff \|^---$' "$c" &&
	[ "$(grep -c '^Subject: ' "$d/series.mbox")" -eq 4 ] && ! grep -q '0/4' "$d/series.mbox" &&
	t_ok "cover letter [PATCH v2.6.32 0/4], from the SIGNOFF=1 backporter, no diff, not in series.mbox" ||
	t_fail "cover letter headers" "$(hd "$c")"
title=$(sed -n 's/^Title: //p' backports/fixes/CVE-2010-0307/FIX | cut -d' ' -f1-6)
sed -n '/^What it fixes:$/,/^$/p' "$c" | grep -q '^  CVE-2010-0307, patches 1, 2, 3, 4:$' &&
	sed -n '/^What it fixes:$/,/^$/p' "$c" | grep -qF "    $title" &&
	grep -qx "Proof: not verified in this OUT: make verify BRANCH=v2.6.32 SERIES_DIR=$tmp/series NAME=demo" "$c" &&
	grep -qx "Report: the kit's docs/results.html; for this OUT, make report writes $OUT/report.html" "$c" &&
	t_ok "cover letter: each CVE with its FIX title and patch numbers; no result.json: 'not verified in this OUT' and the make verify to run; the report's paths" ||
	t_fail "cover letter: fixes, proof, report" "$(cat "$c")"
[ "$(sed -n '/^How each file was made/,/^$/p' "$c" | sed -n '2,3p;8,9p')" = "  1/4 demo-first-fix.patch
    a.h: hand hunk (backports/fixes/F/changes/X/hunks/v2.6.32.diff)
  4/4 demo-fourth-fix.patch
    d.c: hand hunk (backports/fixes/F/changes/X/hunks/v2.6.32.diff)" ] &&
	t_ok "cover letter: how each file of each patch was made (the lines the mails no longer carry)" ||
	t_fail "cover letter: made-by" "$(sed -n '/^How each file was made/,$p' "$c")"
git init -q "$tmp/am0"; git -C "$tmp/am0" commit -q --allow-empty -m base
git -C "$tmp/am0" am "$c" >"$tmp/am0.log" 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q 'Patch is empty' "$tmp/am0.log" &&
	t_ok "git am stops at the cover letter (an empty patch): that is why series.mbox leaves it out" ||
	t_fail "git am and the cover letter" "rc=$rc $(cat "$tmp/am0.log")"

# The proof: this OUT's result.json of the same series gives each fix's
# verdicts; of another series, it is no proof for this one.
# shellcheck disable=SC2046
dig=$( (cd "$tmp/series" && cat series $(grep -v '^#' series)) | sha256sum | cut -d' ' -f1)
mk_result() {
	jq -n --arg d "$1" '{schema: 2, branch: "v2.6.32", provenance: {kit_commit: "abc1234", series_sha256: $d},
	  gate: {status: "pass", kernels: {
	    unpatched: {verdict: "VULNERABLE", expected: "VULNERABLE", ok: true,
	      fixes: {"CVE-2010-0307": {verdict: "VULNERABLE", expected: "VULNERABLE", ok: true}}},
	    patched: {verdict: "SURVIVED", expected: "SURVIVED", ok: true,
	      fixes: {"CVE-2010-0307": {verdict: "SURVIVED", expected: "SURVIVED", ok: true}}}}}}' >"$OUT/demo/result.json"
}
mk_result "$dig"
with_id env SIGNOFF=1 SERIES_DIR="$tmp/series" NAME=demo sh scripts/mbox.sh v2.6.32 >/dev/null 2>"$tmp/e"; rc=$?
[ $rc -eq 0 ] && grep -qx "Proof: make verify, gate pass ($OUT/demo/result.json, kit abc1234)," "$c" &&
	grep -qx '  CVE-2010-0307: unpatched VULNERABLE -> patched SURVIVED' "$c" &&
	t_ok "cover letter with this OUT's result.json: the gate and each fix's verdict unpatched -> patched" ||
	t_fail "cover letter proof" "rc=$rc $(sed -n '/^Proof/,/^$/p' "$c") $(tail -1 "$tmp/e")"
mk_result 0000000000000000000000000000000000000000000000000000000000000000
with_id env SIGNOFF=1 SERIES_DIR="$tmp/series" NAME=demo sh scripts/mbox.sh v2.6.32 >/dev/null 2>"$tmp/e"; rc=$?
[ $rc -eq 0 ] && grep -q "^Proof: not verified in this OUT: $OUT/demo/result.json verified another series (sha256 000000000000, this one $(printf %.12s "$dig")): make verify BRANCH=v2.6.32" "$c" &&
	! grep -q 'VULNERABLE' "$c" &&
	t_ok "a result.json of another series is no proof: the cover letter says so" ||
	t_fail "cover letter, stale proof" "rc=$rc $(sed -n '/^Proof/,/^$/p' "$c")"
# a result.json whose gate passes over a patched VULNERABLE proves nothing:
# refused (scripts/result-check.sh), the mails as they were
mk_result "$dig"
jq '.gate.kernels.patched |= (.verdict = "VULNERABLE" | .ok = false)' "$OUT/demo/result.json" >"$tmp/lie" &&
	mv "$tmp/lie" "$OUT/demo/result.json"
cp "$c" "$tmp/c.before"
out=$(with_id env SIGNOFF=1 SERIES_DIR="$tmp/series" NAME=demo sh scripts/mbox.sh v2.6.32 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && cmp -s "$c" "$tmp/c.before" &&
	printf '%s' "$out" | grep -qF "mbox.sh: error: $OUT/demo/result.json is not a result record this kit wrote: .gate.status is \"pass\", but its kernels disagree: patched is VULNERABLE, must be SURVIVED" &&
	t_ok "a result.json whose gate passes over a patched VULNERABLE: exit 1, one line naming it and the field, the mails as they were" ||
	t_fail "lying result.json refused by mbox" "rc=$rc $out"
rm -f "$OUT/demo/result.json"

# To: and Cc: from MBOX_TO / MBOX_CC, on every mail and the cover letter.
with_id env SIGNOFF=1 SERIES_DIR="$tmp/series" NAME=rcpt MBOX_TO="stable@vger.kernel.org" \
	MBOX_CC="A Reviewer <rev@unit.example>, list@unit.example" sh scripts/mbox.sh v2.6.32 >/dev/null 2>"$tmp/e"; rc=$?
n=0
for f in "$OUT/rcpt/mbox"/0*.patch; do
	[ "$(hd "$f" | grep '^\(To\|Cc\): ')" = "To: stable@vger.kernel.org
Cc: A Reviewer <rev@unit.example>, list@unit.example" ] && n=$((n + 1))
done
[ $rc -eq 0 ] && [ $n -eq 5 ] && t_ok "MBOX_TO and MBOX_CC: To: and Cc: on the cover letter and every mail" ||
	t_fail "To:/Cc: from the environment" "rc=$rc $n of 5 $(tail -1 "$tmp/e")"
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

# git am of series.mbox (with To:/Cc:) on the unpatched tree gives the
# tree quilt gives; the "[PATCH v2.6.32 n/m]" prefix is not in the subject.
cp -a "$tmp/base" "$tmp/am"; git init -q "$tmp/am"; git -C "$tmp/am" add -A; git -C "$tmp/am" commit -q -m base
cp -a "$tmp/base" "$tmp/q"
(cd "$tmp/q" && QUILT_PATCHES=$tmp/series QUILT_PC=$tmp/pc quilt push -a -q --fuzz=0 >/dev/null) &&
	git init -q "$tmp/q" && git -C "$tmp/q" add -A && qt=$(git -C "$tmp/q" write-tree) || qt=quilt-failed
git -C "$tmp/am" am -q "$OUT/rcpt/mbox/series.mbox" >"$tmp/am.log" 2>&1 || echo "git am failed" >>"$tmp/am.log"
[ "$(git -C "$tmp/am" rev-parse 'HEAD^{tree}')" = "$qt" ] &&
	[ "$(git -C "$tmp/am" log -1 --skip=2 --format='%an|%s')" = "H. Carol Author|demo: second fix" ] &&
	t_ok "git am of series.mbox gives quilt's tree, with upstream's author and subject" ||
	t_fail "git am = quilt" "quilt $qt, am $(git -C "$tmp/am" rev-parse 'HEAD^{tree}') $(tail -2 "$tmp/am.log")"

# Without SIGNOFF: nobody signs the fourth mail (no upstream text).  The
# run writes the mails all the same (exit 0), names that mail in one line
# as still needing a sign-off, and the notes carry the kit's name.
SERIES_DIR=$tmp/series NAME=demo run; rc=$?
[ $rc -eq 0 ] && ! grep -rq "Kit Unit Backporter" "$d" && [ ! -e "$d.rejected" ] &&
	grep -q "^\[ stable-backport-kit: Backported to v2.6.32: a.h spells upstream's" "$m1" &&
	hd "$d/0000-cover-letter.patch" | grep -qx 'From: stable-backport-kit <stable-backport-kit@invalid>' &&
	[ "$(grep -c 'needs a sign-off' "$tmp/e")" -eq 1 ] &&
	grep -q '^\[demo\] mbox  *0004-demo-fourth-fix.patch needs a sign-off: it has no Signed-off-by at all' "$tmp/e" &&
	grep -q "3 mail(s) carry upstream's sign-off chain but not yours" "$tmp/e" &&
	grep -q '^  ERROR (no sign-off yet: SIGNOFF=1 signs it): Missing Signed-off-by' "$d/checkpatch.txt" &&
	grep -q '^0004-demo-fourth-fix.patch: .*; no Signed-off-by yet$' "$d/checkpatch.txt" &&
	[ "$(tail -1 "$d/checkpatch.txt")" = "total: 4 mails, 0 errors of ours, 0 errors on upstream's own lines, 1 warnings, 1 without a Signed-off-by (SIGNOFF=1 signs them)" ] &&
	t_ok "without SIGNOFF: exit 0, notes by stable-backport-kit, one line per mail still needing a sign-off, checkpatch's missing sign-off counted apart" ||
	t_fail "no SIGNOFF" "rc=$rc $(cat "$tmp/e") $(tail -1 "$d/checkpatch.txt")"
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
	grep -q "the kit's source lacks$" "$r/0002-demo-second-fix.patch" &&
	t_ok "a remote KERNEL_GIT: the upstream commit fetched by id" || t_fail "remote source" "rc=$rc $(tail -2 "$tmp/e")"
SERIES_DIR=$tmp/series NAME=remote KERNEL_GIT="file://$tmp/nowhere" run; rc=$?
[ $rc -eq 3 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && t_ok "an unreachable remote KERNEL_GIT: exit 3, one line" ||
	t_fail "unreachable remote" "rc=$rc $(cat "$tmp/e")"
with_id env SIGNOFF=1 SERIES_DIR="$tmp/series" NAME=remote2 STABLE_GIT="file://$tmp/nowhere" sh scripts/mbox.sh v2.6.32 >/dev/null 2>"$tmp/e"; rc=$?
[ $rc -eq 0 ] && [ -r "$OUT/remote2/mbox/0001-demo-first-fix.patch" ] &&
	[ "$(grep -c "warning: cannot reach STABLE_GIT source file://$tmp/nowhere (.*); going on without it" "$tmp/e")" -eq 1 ] &&
	t_ok "an unreachable STABLE_GIT URL: one warning, the mails made from the other sources (exit 0)" ||
	t_fail "unreachable STABLE_GIT" "rc=$rc $(cat "$tmp/e")"

# STABLE_GIT: a made-up stable tree beside the source.  Per change the
# upstream commit itself wins (U1); else a stable commit naming it (U2:
# over the source's distribution backport); U4, which the source lacks,
# comes from a stable commit as a distribution carries it: its lines
# before "commit <id> upstream." and its own after upstream's chain go.
# The releases: the first tag containing the stable commit, else the
# first "Linux <version>" commit after it.
st=$tmp/stable; git init -q "$st"; git -C "$st" commit -q --allow-empty -m base
printf 'demo: first fix\n\ncommit %s upstream.\n\nStable text of the first fix.\n\nSigned-off-by: Ann Upstream <ann@up.example>\nSigned-off-by: Greg Kroah-Hartman <gregkh@suse.de>\n' "$U1" >"$tmp/s1"
commit_as "$st" "Ann Upstream <ann@up.example>" gregkh@suse.de "$tmp/s1"
printf 'demo: second fix\n\ncommit %s upstream.\n\nUpstream text of the second fix.\n\nSigned-off-by: Carol Author <carol@up.example>\nSigned-off-by: Linus Example <linus@up.example>\nSigned-off-by: Greg Kroah-Hartman <gregkh@suse.de>\n' "$U2" >"$tmp/s2"
commit_as "$st" "H. Carol Author <carol@up.example>" gregkh@suse.de "$tmp/s2"
S2=$(git -C "$st" rev-parse HEAD)
git -C "$st" commit -q --allow-empty -m 'Linux 9.9.1'; git -C "$st" tag v9.9.1
printf 'demo: fourth fix\n\nBugLink: https://bugs.example/4\n\nCVE-2010-0307\n\ncommit %s upstream.\n\nUpstream text of the fourth fix.\n\nSigned-off-by: Gil Upstream <gil@up.example>\nSigned-off-by: Greg Kroah-Hartman <gregkh@suse.de>\nAcked-by: Stan Distro <stan@distro.example>\nSigned-off-by: Stan Distro <stan@distro.example>\n' "$U4" >"$tmp/s4"
commit_as "$st" "Gil Upstream <gil@up.example>" stan@distro.example "$tmp/s4"
S4=$(git -C "$st" rev-parse HEAD)
git -C "$st" commit -q --allow-empty -m 'Linux 9.9.2'
with_id env SIGNOFF=1 SERIES_DIR="$tmp/series" NAME=stable STABLE_GIT="$st" sh scripts/mbox.sh v2.6.32 >/dev/null 2>"$tmp/e"; rc=$?
d=$OUT/stable/mbox
expect="commit $U4 upstream.

Upstream text of the fourth fix.

Signed-off-by: Gil Upstream <gil@up.example>
Signed-off-by: $me"
[ $rc -eq 0 ] && [ "$(body 0004-demo-fourth-fix.patch)" = "$expect" ] &&
	grep -qx 'Date: Thu, 28 Jan 2010 22:14:42 -0800' "$d/0004-demo-fourth-fix.patch" &&
	t_ok "STABLE_GIT: a change the source lacks gets upstream's text, Date and chain from a stable commit; the distribution's lines before and after it dropped" ||
	t_fail "STABLE_GIT: text from a stable commit" "rc=$rc $(tail -2 "$tmp/e") $(body 0004-demo-fourth-fix.patch)"
grep -q "^0001-demo-first-fix.patch: .*upstream text: self ($U1 " "$d/checkpatch.txt" &&
	grep -q '^Upstream text of the first fix\.$' "$d/0001-demo-first-fix.patch" &&
	grep -q "^0002-demo-second-fix.patch: .*upstream text: stable ($S2 .*; in ${st##*/})" "$d/checkpatch.txt" && ! grep -qF "$st" "$d/checkpatch.txt" "$d/0000-cover-letter.patch" &&
	grep -q "^0003-demo-third-fix.patch: .*upstream text: backport (" "$d/checkpatch.txt" &&
	grep -q "^0004-demo-fourth-fix.patch: .*upstream text: stable ($S4 " "$d/checkpatch.txt" &&
	t_ok "STABLE_GIT: the upstream commit first, then a stable commit naming it, then another backport" ||
	t_fail "STABLE_GIT preference" "$(grep 'upstream text' "$d/checkpatch.txt")"
c=$d/0000-cover-letter.patch
sed -n '/^Upstream text and stable releases/,/^$/p' "$c" >"$tmp/rel"
grep -qx "    stable commit $(printf %.12s "$S2"), first released in v9.9.1 (its first tag)" "$tmp/rel" &&
	grep -qx "    stable commit $(printf %.12s "$S4"), first released in v9.9.2 (the first 'Linux <version>' commit after it)" "$tmp/rel" &&
	grep -qx "    in no stable release of the STABLE_GIT sources" "$tmp/rel" &&
	t_ok "cover letter: the first stable release carrying each change (a tag, else a release commit), read from STABLE_GIT" ||
	t_fail "cover letter releases" "$(cat "$tmp/rel")"

# Upstream's code unless a note says why: each patch against the
# commits the sources hold for its change.  A stable tree whose commits
# carry real diffs: U2 as ours (identical patch-id), U4 with other
# context (the same added lines), U3 adding another line than ours, which
# no note of ours explains: refused, the old mbox kept, the lines listed;
# with a note naming the file, written and said in the cover letter.
sc=$tmp/stable-code; git init -q "$sc"
printf 'int b;\n' >"$sc/b.c"; printf 'int c;\n' >"$sc/c.c"; printf 'int d;\n' >"$sc/d.c"
git -C "$sc" add -A; git -C "$sc" commit -q -m base
stable_code() { # FILE LINE ID SUBJECT
	printf '%s\n' "$2" >>"$sc/$1"; git -C "$sc" add -A
	printf '%s\n\ncommit %s upstream.\n\nText.\n\nSigned-off-by: Up Stream <up@up.example>\n' "$4" "$3" >"$tmp/sc.msg"
	commit_as "$sc" "Up Stream <up@up.example>" gregkh@suse.de "$tmp/sc.msg"
}
stable_code b.c 'int b2;' "$U2" "demo: second fix"
stable_code c.c 'int c3_upstream;' "$U3" "demo: third fix"
stable_code d.c 'int d4;' "$U4" "demo: fourth fix"
run_code() { with_id env SIGNOFF=1 SERIES_DIR="$1" NAME=code STABLE_GIT="$sc" sh scripts/mbox.sh v2.6.32 >/dev/null 2>"$tmp/e"; }
run_code "$tmp/series"; rc=$?
d=$OUT/code/mbox.rejected
[ $rc -eq 1 ] && [ ! -e "$OUT/code/mbox" ] &&
	grep -q "error: \[code\] 1 mail(s) add code upstream's commits do not, in a file no note explains: 0003-demo-third-fix.patch (listed in .*/upstream-compare.txt): use upstream's lines, or say why in the change's notes/code" "$tmp/e" &&
	grep -q "^0003-demo-third-fix.patch: 2 added line(s) differ from commit $(git -C "$sc" log -1 --format=%h --abbrev=12 --grep='third') in stable-code, in c.c: no note of the patch explains c.c$" "$d/upstream-compare.txt" &&
	grep -qx '  ours	c.c	+int c3; /\* WARNME \*/' "$d/upstream-compare.txt" && grep -qx '  theirs	c.c	+int c3_upstream;' "$d/upstream-compare.txt" &&
	grep -q "^0002-demo-second-fix.patch: identical to commit .* in stable-code (git patch-id)$" "$d/upstream-compare.txt" &&
	grep -q "^0004-demo-fourth-fix.patch: the same added lines as commit .* in stable-code; context adapted to v2.6.32$" "$d/upstream-compare.txt" &&
	t_ok "code against upstream: identical, context adapted, and a difference no note names (exit 1, refused, both sides' lines listed)" ||
	t_fail "code compare refused" "rc=$rc $(cat "$tmp/e") $(cat "$d/upstream-compare.txt" 2>/dev/null)"
cp -r "$tmp/series" "$tmp/series-noted"
sed -i 's/^\[ v2.6.32: made by the kit/[ adapted: c.c keeps the name c3 the rest of this release uses, not c3_upstream ]\n\n&/' "$tmp/series-noted/demo-third-fix.patch"
run_code "$tmp/series-noted"; rc=$?
d=$OUT/code/mbox
[ $rc -eq 0 ] && [ ! -e "$OUT/code/mbox.rejected" ] &&
	grep -q "^0003-demo-third-fix.patch: 2 added line(s) differ from .*, in c.c: the backporter note says why$" "$d/upstream-compare.txt" &&
	grep -q "^\[ $(printf '%s' "${me% <*}"): Backported to v2.6.32: c.c keeps the name c3" "$d/0003-demo-third-fix.patch" &&
	grep -q "^  3/4 demo-third-fix.patch: 2 added line(s) differ" "$d/0000-cover-letter.patch" &&
	grep -qx "total: 1 context-adapted, 2 identical, 1 differing, each explained in a note" "$d/upstream-compare.txt" &&
	t_ok "code against upstream: the difference named in a note: written, the note in the mail, a line per patch in the cover letter" ||
	t_fail "code compare named" "rc=$rc $(cat "$tmp/e") $(cat "$d/upstream-compare.txt" 2>/dev/null)"

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
bad "MBOX_TO with a line break" "MBOX_TO holds a line break or tab" BRANCH=v2.6.32 SERIES_DIR="$tmp/series" MBOX_TO="a@b.example
Bcc: x@y.example"
bad "MBOX_CC entry without an address" "MBOX_CC='a@b.example, nobody' has an entry that is no mail address" BRANCH=v2.6.32 SERIES_DIR="$tmp/series" MBOX_CC="a@b.example, nobody"
bad "SIGNOFF=1 with no git identity" "git config user.name/user.email is not set" BRANCH=v2.6.32 SERIES_DIR="$tmp/series" SIGNOFF=1 \
	GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0= GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1=
bad "no branch" "no branch given"
bad "unknown branch" "unknown branch 'v9.9'" BRANCH=v9.9
bad "SERIES_DIR without a series" "has no series file" BRANCH=v2.6.32 SERIES_DIR="$tmp/plain"
bad "a patch without Git-commit:" "nogit.patch has no 'Git-commit: <40-hex id>' header" BRANCH=v2.6.32 SERIES_DIR="$tmp/s-nogit"
bad "a series naming a missing patch" "names missing.patch, which does not exist" BRANCH=v2.6.32 SERIES_DIR="$tmp/s-missing"
bad "KERNEL_GIT not a repository" "is not a git repository" BRANCH=v2.6.32 SERIES_DIR="$tmp/series" KERNEL_GIT="$tmp/plain"
bad "STABLE_GIT word not a repository" "STABLE_GIT word '$tmp/plain' is not a git repository" BRANCH=v2.6.32 SERIES_DIR="$tmp/series" STABLE_GIT="$tmp/stable $tmp/plain"
bad "STABLE_GIT word taken for an option" "STABLE_GIT word '--upload-pack=x' begins with '-'" BRANCH=v2.6.32 SERIES_DIR="$tmp/series" STABLE_GIT="--upload-pack=x"
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
