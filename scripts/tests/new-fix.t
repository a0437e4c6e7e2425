#!/bin/sh
# make new-fix drafts a fix folder from the user's source: in a copy of the
# kit with CVE-2010-3081's folder removed (its letter and name free), it
# drafts CVE-2010-3081 again from c41d68a513c7, which the source carries
# only as a distribution's backport under another id.  Shown: the folder
# is made and found its commit (and says how); how many of the seven
# branches got a hunk, each checked with patch --dry-run on a copy of the
# release's files; DETECT tells the release from the release with the
# hunk; no upstream changelog text in the folder; no Guest: line; bad
# input exits 2 with one line; a second run refuses; the kit's cheap
# readers take the draft; git status shows only the new folder.
# Needs the kernel source (KERNEL_GIT) and the cached exports; no build.
. ci/tap.sh
for c in git make tar patch; do
	command -v $c >/dev/null 2>&1 || { t_skip "make new-fix" "$c is not installed (make deps)"; t_done; exit; }
done
root=$(pwd)
kg=$(KIT_ROOT=$root sh -c '. scripts/lib.sh && source_configured && printf "%s\n" "$KERNEL_GIT"' 2>/dev/null) || kg=
if [ -z "$kg" ] || ! git -C "$kg" rev-parse --git-dir >/dev/null 2>&1; then
	t_skip "make new-fix" "no local KERNEL_GIT configured (~/.config/stable-backport-kit/config)"; t_done; exit
fi
git -C "$kg" cat-file -e '72162ded8b52ed3237dbfc0b848f27b5cb2bf653^{commit}' 2>/dev/null || {
	t_skip "make new-fix" "KERNEL_GIT=$kg does not carry 72162ded8b52 (the backport of c41d68a513c7 this test drafts from)"; t_done; exit; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/new-fix.XXXXXX") || exit 1
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
k=$tmp/kit
cve=CVE-2010-3081 up=c41d68a513c71e35a14f66d71782d27a79a81ea6
printf 'KERNEL_GIT=%s\n' "$kg" >"$tmp/config"

# the kit as tracked here, without CVE-2010-3081's folder, in a repository
# of its own
mkdir -p "$k" &&
	git -C "$root" ls-files -z | (cd "$root" && tar --null -T - -cf -) | tar -xf - -C "$k" &&
	rm -rf "$k/backports/fixes/$cve" &&
	(cd "$k" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm kit) ||
	{ t_fail "a copy of the kit without $cve"; t_done; exit 1; }
kenv() { env -u KERNEL_GIT KIT_ROOT="$k" KIT_CONFIG="$tmp/config" OUT="$tmp/out" "$@"; }

kenv make -s -C "$k" new-fix CVE=$cve UPSTREAM=$up >"$tmp/run.out" 2>"$tmp/run.err"; rc=$?
f=$k/backports/fixes/$cve
if [ $rc -eq 0 ] && [ -r "$f/FIX" ]; then t_ok "make new-fix CVE=$cve UPSTREAM=$up: the folder is made"
else t_fail "make new-fix made the folder" "rc=$rc" "$(tail -5 "$tmp/run.err")"; t_done; exit 1; fi
how=$(sed -n 's/^\[[^]]*\] found *//p' "$tmp/run.err")
case $how in
*"is 72162ded8b52 in the source: "*) t_ok "found in the source as 72162ded8b52; stderr says how: ${how#*in the source: }" ;;
*) t_fail "found as 72162ded8b52, said on stderr" "$how" ;;
esac
ch=$(ls "$f/changes")
case $ch in L-*) t_ok "one change, the next free letter: $ch" ;; *) t_fail "one change with letter L" "$ch" ;; esac
c=$f/changes/$ch

# hunks: each one applies to a copy of its release's files
n=0 ok=0 bad='' left=''
for b in v2.6.26 v2.6.27 v2.6.28 v2.6.29 v2.6.30 v2.6.31 v2.6.32; do
	h=$c/hunks/$b.diff
	[ -e "$h" ] || { left="$left $b"; continue; }
	n=$((n + 1))
	exp=$(KIT_CONFIG="$tmp/config" sh "$root/scripts/fetch.sh" "$b" 2>"$tmp/fetch.err"); frc=$?
	if [ $frc -ne 0 ]; then t_skip "hunk for $b applies to its release" "fetch.sh $b exit $frc: $(tail -1 "$tmp/fetch.err")"; continue; fi
	d=$tmp/apply/$b
	mkdir -p "$d"
	for p in $(sed -n 's|^+++ b/||p' "$h"); do
		[ -f "$exp/$p" ] || continue
		mkdir -p "$d/$(dirname "$p")"; cat "$exp/$p" >"$d/$p"
	done
	if patch -d "$d" -p1 -F0 --dry-run -s <"$h" >"$tmp/p.log" 2>&1; then ok=$((ok + 1))
	else bad="$bad $b: $(head -2 "$tmp/p.log" | paste -sd' ' -);"; fi
	# DETECT: missing on those files, present with the hunk applied
	patch -d "$d" -p1 -F0 -s <"$h" >/dev/null 2>&1
	mkdir -p "$tmp/fs/one" && rm -rf "$tmp/fs/one/$ch" && cp -R "$c" "$tmp/fs/one/"
	st=$(FIXSTATE_CHANGES=$tmp/fs/one kenv sh "$k/scripts/fix-state.sh" "$d" 2>&1)
	st0=$(FIXSTATE_CHANGES=$tmp/fs/one kenv sh "$k/scripts/fix-state.sh" "$exp" 2>&1)
	case "$st0|$st" in
	"$ch ${up%"${up#????????????}"} missing"*"|$ch ${up%"${up#????????????}"} present"*) ;;
	*) bad="$bad $b DETECT: release '$st0', with the hunk '$st';" ;;
	esac
done
[ -z "$bad" ] && [ $n -gt 0 ] &&
	t_ok "hunks drafted for $n of the 7 branches v2.6.26..v2.6.32${left:+ (none for$left)}; each applies with patch -p1 --dry-run (no fuzz) to a copy of its release's files, and DETECT says missing on the release, present with the hunk" ||
	t_fail "hunks drafted apply, DETECT tells them apart ($n drafted, $ok apply)" "$bad"
[ $n -eq 7 ] && t_ok "all seven branches have a drafted hunk" || t_fail "all seven branches have a drafted hunk" "none for:$left" "$(grep -E 'did not apply|no hunk' "$tmp/run.out")"

# FIX and INFO: the facts, placeholders, no Guest: line, none of upstream's text
hdr() { sed -n '/^$/q; p' "$1"; }
fx=$(hdr "$f/FIX")
printf '%s\n' "$fx" | grep -qx "Upstream: $up" &&
	printf '%s\n' "$fx" | grep -qx 'Introduced-by: before-git' &&
	printf '%s\n' "$fx" | grep -qx 'Arches: x86_64 powerpc sparc64 parisc mips ia64 s390' &&
	printf '%s\n' "$fx" | grep -qx 'Credit: Ben Hawkes <hawkes@sota.gen.nz> (reporter)' &&
	printf '%s\n' "$fx" | grep -q '^Title: TODO' && grep -q 'TODO: our own words' "$f/FIX" &&
	! printf '%s\n' "$fx" | grep -q '^Guest:' &&
	t_ok "FIX: Upstream, Introduced-by placeholder, Arches from the paths, Credit from Reported-by, a draft Title, no Guest: line" ||
	t_fail "FIX as drafted" "$fx"
inf=$(hdr "$c/INFO")
printf '%s\n' "$inf" | grep -qx 'Letter: L' && printf '%s\n' "$inf" | grep -qx "References: $cve" &&
	printf '%s\n' "$inf" | grep -qx 'Mainline: TODO' && printf '%s\n' "$inf" | grep -q '^Branches: ' &&
	t_ok "INFO: Letter L, References, Branches, Mainline: TODO" || t_fail "INFO as drafted" "$inf"
git -C "$kg" show -s --format=%b 72162ded8b52 | grep -v -E '^[[:space:]]*([A-Za-z-]+-by:|Cc:|\(cherry|commit |BugLink|CVE-)' |
	awk 'length($0) >= 25' >"$tmp/upstream-text"
copied=$(grep -rhFf "$tmp/upstream-text" "$f" | head -3)
[ -s "$tmp/upstream-text" ] && [ -z "$copied" ] &&
	t_ok "no line of the source's changelog ($(wc -l <"$tmp/upstream-text") lines checked) is in the folder" ||
	t_fail "no upstream changelog text in the folder" "$copied"
for x in "guest/c3081.c" "guest/README.md" "cross/$ch.expect" record.json "changes/$ch/DETECT"; do
	[ -s "$f/$x" ] || miss="${miss:-} $x"
done
[ -z "${miss:-}" ] && grep -q 'not ok\|kit_result(0' "$f/guest/c3081.c" && grep -q '# TODO' "$f/guest/c3081.c" &&
	{ ! command -v jq >/dev/null 2>&1 || jq -e '.cve == "'$cve'" and (.roles | has("L")) and (.summary | test("TODO"))' "$f/record.json" >/dev/null; } &&
	t_ok "skeletons: guest/c3081.c (a TODO test), guest/README.md, cross/$ch.expect, DETECT, record.json (JSON, TODO values, a role for L)" ||
	t_fail "skeletons" "missing:${miss:-}"
grep -q 'Guest: line' "$tmp/run.out" && grep -q 'make series-all' "$tmp/run.out" && grep -q 'Introduced-by' "$tmp/run.out" &&
	t_ok "it ends with what is left by hand (per branch, then the fixed list)" || t_fail "left-to-do list" "$(cat "$tmp/run.out")"

# the kit's cheap readers take the draft
kenv make -s -C "$k" help 2>/dev/null | head -1 | grep -q "$cve" && t_ok "make help names the drafted fix" || t_fail "make help names the draft"
case " $(kenv sh "$k/scripts/mutants.sh" --list 2>&1) " in *" L "*) t_ok "mutants.sh --list takes L" ;; *) t_fail "mutants.sh --list takes L" ;; esac
kenv sh "$k/scripts/pick.sh" --rules 2>&1 | grep -q '^L	x86_64' && t_ok "pick.sh --rules reads L's Arches:" || t_fail "pick.sh --rules reads L"
t_check "order-rule.sh passes the drafted id" kenv sh "$k/scripts/order-rule.sh" $up

# way 3: an id the source has neither as itself nor named: the commits
# that name the CVE, one here, are taken (OUT_FIXES: written elsewhere)
mkdir "$tmp/fixes3"
o=$(kenv env CVE=$cve UPSTREAM=1234567890abcdef1234567890abcdef12345678 OUT_FIXES="$tmp/fixes3" \
	sh "$k/scripts/new-fix.sh" 2>&1 >/dev/null); rc=$?
[ $rc -eq 0 ] && printf '%s\n' "$o" | grep -q "1234567890ab is 72162ded8b52 in the source: a commit whose message names $cve" &&
	grep -qx 'Upstream: 1234567890abcdef1234567890abcdef12345678' "$tmp/fixes3/$cve/FIX" &&
	t_ok "an id the source does not name: found by the commit naming $cve, the given upstream id kept (OUT_FIXES= elsewhere)" ||
	t_fail "found by the CVE id" "rc=$rc" "$(printf '%s\n' "$o" | head -3)"
mkdir -p "$tmp/fixes3/x"
o=$(kenv env CVE=$cve "UPSTREAM=1234567890abcdef1234567890abcdef12345678 2234567890abcdef1234567890abcdef12345678" \
	OUT_FIXES="$tmp/fixes3/x" sh "$k/scripts/new-fix.sh" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && printf '%s\n' "$o" | tail -1 | grep -q 'FROM_SOURCE=' && [ -z "$(ls -A "$tmp/fixes3/x")" ] &&
	t_ok "two ids and one commit naming the CVE: it stops (exit 2), lists the commit and asks for FROM_SOURCE=, nothing made" ||
	t_fail "two ids, one commit naming the CVE" "rc=$rc" "$o"

# bad input: exit 2, one line, nothing made
one() { # one NAME PATTERN VAR=value...: exit 2, one line matching
	_n=$1 _p=$2; shift 2
	_o=$(kenv env "$@" sh "$k/scripts/new-fix.sh" 2>&1 >/dev/null); _rc=$?
	if [ $_rc -eq 2 ] && [ "$(printf '%s\n' "$_o" | wc -l)" -eq 1 ] && printf '%s' "$_o" | grep -q -- "$_p"; then t_ok "$_n"
	else t_fail "$_n" "rc=$_rc" "$_o"; fi
}
one "CVE=CVE-10-1: exit 2, one line" "is not a CVE id" CVE=CVE-10-1 UPSTREAM=$up
one "CVE of another form (cve-2010-9999): exit 2" "is not a CVE id" CVE=cve-2010-9999 UPSTREAM=$up
one "UPSTREAM empty: exit 2, one line" "UPSTREAM is empty" CVE=CVE-2010-9999 UPSTREAM=
one "UPSTREAM not hex: exit 2, one line" "is not a commit id" CVE=CVE-2010-9999 "UPSTREAM=$up xyz123"
one "no KERNEL_GIT configured: exit 2, one line" "no KERNEL_GIT configured" CVE=CVE-2010-9999 UPSTREAM=$up KIT_CONFIG=/dev/null
one "a second run refuses: the folder exists (exit 2, one line)" "already exists" CVE=$cve UPSTREAM=$up
[ ! -e "$k/backports/fixes/CVE-2010-9999" ] && [ -z "$(find "$k/backports/fixes" -mindepth 1 -maxdepth 1 -name '.*')" ] &&
	t_ok "the refused runs left nothing (no folder, no hidden draft)" || t_fail "refused runs left nothing" "$(ls -A "$k/backports/fixes")"

st=$(git -C "$k" status --porcelain --untracked-files=normal)
[ "$st" = "?? backports/fixes/$cve/" ] && t_ok "git status in the copy: only the new folder" || t_fail "git status: only the new folder" "$st"
t_done
