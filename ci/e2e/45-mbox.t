#!/bin/sh
# make mbox, end to end, on v2.6.26 and v2.6.32 (E2E_BRANCHES= names
# others): `git am` of the mails onto a fresh git repository of the
# verified export gives exactly the tree `quilt push -a` of the committed
# series gives; every mail names its upstream commit first and, where the
# kit's source holds upstream's text, carries it with its sign-off chain;
# the branch's own checkpatch finds no error at all (ours or on upstream's
# own lines; v2.6.27's with upstream's anchoring fix, scripts/mbox.sh
# prep_checkpatch).  Each mail's subject is "[PATCH <branch> n/m]"; the
# cover letter 0000-cover-letter.patch ("[PATCH <branch> 0/m]", not in
# series.mbox: git am stops at a mail without a diff) carries how each
# file was made, which the mails no longer do.  Without SIGNOFF=1 the run
# writes the mails (exit 0); the mails with no Signed-off-by at all are
# exactly those whose upstream text the source lacks (nobody has signed
# those), each named on one line as needing a sign-off, and checkpatch's
# "Missing Signed-off-by" on them is the only error, counted apart.
# Each patch's code is upstream's, or the difference is named in a note
# (upstream-compare.txt, one line per patch in the cover letter).
. ci/e2e/lib.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/e2e-mbox.XXXXXX")
trap 'rmtree "$tmp"' EXIT
# The backporter SIGNOFF=1 reads from git config: the test's own identity,
# given through the environment (it wins over every config file).
id="Kit E2E Backporter <kit-e2e@localhost>"
with_id() { GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0="${id% <*}" \
	GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1=kit-e2e@localhost "$@"; }
g() { _d=$1; shift; git -C "$_d" -c user.name=kit -c user.email=kit@localhost -c gc.auto=0 \
	-c maintenance.auto=false -c core.autocrlf=false "$@"; }

# unsigned_ok RC DIR LOG: a run without SIGNOFF wrote mbox/ (exit 0); a
# mail without any Signed-off-by is one whose upstream text the source
# lacks (checkpatch.txt says so), named on a "needs a sign-off" line of
# LOG, and checkpatch found no error of ours or on upstream's lines.
unsigned_ok() {
	[ "$1" -eq 0 ] && [ -r "$2/mbox/checkpatch.txt" ] && [ ! -e "$2/mbox.rejected" ] || return 1
	case $(tail -1 "$2/mbox/checkpatch.txt") in
	*" 0 errors of ours, 0 errors on upstream's own lines,"*) ;;
	*) return 1 ;;
	esac
	! grep '^  ERROR' "$2/mbox/checkpatch.txt" | grep -vq 'ERROR (no sign-off yet' || return 1
	for _m in "$2/mbox/"[0-9]*; do
		case ${_m##*/} in 0000-cover-letter.patch) continue ;; esac
		sed '/^---$/q' "$_m" | grep -q '^Signed-off-by: ' && continue
		grep -q "^${_m##*/}: .*upstream text: not in the source.*; no Signed-off-by yet$" "$2/mbox/checkpatch.txt" || return 1
		grep -q "${_m##*/} needs a sign-off" "$3" || return 1
	done
}

# mail_block MAIL: the mail's upstream text (after "commit <id> upstream."
# and its blank line, before our first "[ <name>: Backported to <branch>:"
# note or, without one, the backporter's Signed-off-by).
mail_block() {
	awk -v me="Signed-off-by: $id" 'n == 1 && (/^\[ .*: Backported to / || $0 == me || /^---$/) { exit } n == 1 { print } /^commit [0-9a-f]+ upstream\.$/ { n = 1; getline }' "$1"
}

# chain_ok MAIL SERIES-PATCH CHECKPATCH.TXT: the mail's first body line
# names the patch's upstream id; where the source held upstream's text,
# that text is a contiguous part of the source commit's message, ends in
# its trailer lines (a Signed-off-by among them; upstream's chain may end
# with Acked-by or Cc, as c41d68a513c7's does), has the author's own *-by
# line and none by the
# backport's committer (a distribution's sign-off).  Prints what is wrong.
chain_ok() {
	_id=$(sed -n 's/^Git-commit: //p' "$2")
	[ "$(sed -n '/^$/{n;p;q}' "$1")" = "commit $_id upstream." ] || { echo "no 'commit $_id upstream.' first"; return; }
	_c=$(grep "^${1##*/}: " "$3" | sed -n 's/.*upstream text: \(self\|backport\) (\([0-9a-f]*\) .*/\2/p')
	[ -n "$_c" ] || return 0   # the source lacks it: unsigned_ok checked the line
	mail_block "$1" >"$tmp/block"
	git --git-dir="$gd" show -s --format=%B "$_c" >"$tmp/msg"
	awk -v bf="$tmp/block" 'BEGIN { while ((getline l < bf) > 0) b = b l "\n" } { m = m $0 "\n" } END { exit !(length(b) > 1 && index(m, b)) }' "$tmp/msg" ||
		{ echo "its upstream text is not a contiguous part of $_c's message"; return; }
	grep -v '^$' "$tmp/block" | tail -1 | grep -qE '^([A-Z][A-Za-z-]*-by|Cc): ' &&
		awk 'BEGIN { RS = "" } { last = $0 } END { exit !(last ~ /(^|\n)Signed-off-by: /) }' "$tmp/block" ||
		{ echo "its upstream text does not end with its trailers, a Signed-off-by among them"; return; }
	_ae=$(git --git-dir="$gd" show -s --format=%ae "$_c") _ce=$(git --git-dir="$gd" show -s --format=%ce "$_c")
	grep -q "^[A-Za-z-]*-by: .*<$_ae>" "$tmp/block" || { echo "no *-by line of the author <$_ae>"; return; }
	[ "$_ae" = "$_ce" ] || ! grep -q "^[A-Za-z-]*-by: .*<$_ce>" "$tmp/block" || echo "the backport's committer <$_ce> signs it"
}

# trees_equal B MBOX: prints "<quilt tree> <am tree> <commits>" for B's
# verified export + quilt push -a, and the same export + git am MBOX.
trees_equal() {
	_t=$tmp/tree-$1
	# a farm of the export (quilt, git reset and git am replace the files
	# they write), its base the pinned commit read through alternates
	sh scripts/fetch.sh --farm "$1" "$_t" >/dev/null && _gd=$(sh scripts/fetch.sh --git-dir "$1") || return 1
	load_branch "$1"
	g "$_t" init -q && printf '%s\n' "$_gd/objects" >"$_t/.git/objects/info/alternates" &&
		g "$_t" read-tree "$BR_COMMIT" && { g "$_t" update-index -q --refresh >/dev/null || :; } &&
		g "$_t" add -A -f && g "$_t" commit -q -m "$1 export" || return 1
	(cd "$_t" && QUILT_PATCHES=$KIT_ROOT/backports/$1 QUILT_PC=$tmp/pc-$1 quilt push -a -q --fuzz=0 >/dev/null) || return 1
	g "$_t" add -A -f && _q=$(g "$_t" write-tree) && g "$_t" reset -q --hard HEAD || return 1
	[ -z "$(g "$_t" status --porcelain)" ] || return 1
	g "$_t" am -q "$2" || return 1
	echo "$_q $(g "$_t" rev-parse 'HEAD^{tree}') $(g "$_t" rev-list --count HEAD)"
}

gd=$(git -C "$KERNEL_GIT" rev-parse --absolute-git-dir 2>/dev/null) || gd=
for b in ${E2E_BRANCHES:-v2.6.26 v2.6.32}; do
	need_series "$b" "$b mbox" || continue
	need_source "$b" "$b mbox" || continue
	o=$tmp/out-$b
	# the script itself: make turns every failure into exit 2
	OUT=$o sh scripts/mbox.sh "$b" >"$tmp/log" 2>&1
	if unsigned_ok $? "$o/$b" "$tmp/log"; then
		t_ok "$b mbox without SIGNOFF: written (exit 0); only mails without upstream's text lack a sign-off, each named as needing one"
	else t_fail "$b mbox without SIGNOFF" "$(tail -3 "$tmp/log")"; fi
	if ! with_id env OUT="$o" make -s mbox BRANCH="$b" SIGNOFF=1 >"$tmp/log" 2>&1; then
		t_fail "$b mbox SIGNOFF=1" "$(tail -3 "$tmp/log")"; continue
	fi
	d=$o/$b/mbox n=0 bad=
	for p in $(grep -v '^#' "backports/$b/series"); do
		n=$((n + 1)) m=$(printf '%s/%04d-%s' "$d" "$n" "$p")
		[ -r "$m" ] || { bad="$bad; no mail $m"; continue; }
		why=$(chain_ok "$m" "backports/$b/$p" "$d/checkpatch.txt")
		[ -z "$why" ] || bad="$bad; ${m##*/}: $why"
		[ "$(sed -n '/^---$/{x;p;q};h' "$m")" = "Signed-off-by: $id" ] || bad="$bad; ${m##*/}: not signed last by $id"
		grep -q "^Subject: \[PATCH $b $n/[0-9]*\] " "$m" || bad="$bad; ${m##*/}: subject not [PATCH $b $n/m]"
		! grep -q 'made by the kit\|^\[ backport:' "$m" || bad="$bad; ${m##*/}: carries the kit's made-by or [ backport: ] lines"
	done
	c=$d/0000-cover-letter.patch
	if [ -r "$c" ] && grep -q "^Subject: \[PATCH $b 0/$n\] " "$c" && ! grep -q '^diff ' "$c" &&
		[ "$(sed -n '/^How each file was made/,/^$/p' "$c" | grep -c "^  [0-9]*/$n ")" -eq "$n" ] &&
		[ "$(grep -c '^Subject: ' "$d/series.mbox")" -eq "$n" ]; then
		t_ok "$b: cover letter [PATCH $b 0/$n] with how each of the $n patches was made, apart from series.mbox"
	else
		t_fail "$b: cover letter" "$(sed -n '1,/^$/p' "$c" 2>&1 | grep '^Subject' ) $(ls "$d")"
	fi
	[ -z "$bad" ] && t_ok "$b: $n mails, each names its upstream commit first and carries upstream's chain where the source holds it, signed last by SIGNOFF=1's git identity" ||
		t_fail "$b mails in stable-queue form" "${bad#; }"
	tot=$(tail -1 "$d/checkpatch.txt")
	case $tot in
	*" 0 errors of ours, 0 errors on upstream's own lines,"*) t_ok "$b checkpatch: $tot" ;;
	*) t_fail "$b checkpatch: no error, ours or on upstream's lines" "$tot" ;;
	esac
	# every patch's code against what the sources hold for its change:
	# upstream's, or a difference a note of the patch explains
	ct=$(sed -n 's/^total: //p' "$d/upstream-compare.txt")
	if [ -n "$ct" ] && [ "$(grep -c '^0[0-9]*-.*\.patch: ' "$d/upstream-compare.txt")" -eq "$n" ] &&
		! grep -q ': no note of the patch explains ' "$d/upstream-compare.txt" &&
		[ "$(sed -n '/^Code against upstream/,/^$/p' "$c" | grep -cE "^  [0-9]+/$n( |$)")" -eq "$n" ]; then
		t_ok "$b code against upstream: $ct"
	else t_fail "$b code against upstream" "$ct $(grep 'no note' "$d/upstream-compare.txt")"; fi
	# the stable releases the sources show for each change (the cover
	# letter's "first released in") are the FIX file's Stable: lines
	if [ -z "${STABLE_GIT:-}" ]; then
		t_skip "$b: FIX Stable: lines hold the releases STABLE_GIT shows" "no STABLE_GIT configured (README.md: STABLE_GIT)"
	else
		miss= nrel=0 i=0
		# "<patch number> <release>" from the section (its lines wrap)
		sed -n '/^Upstream text and stable releases/,/^$/p' "$c" | awk -v n="$n" '
			$1 ~ "^[0-9]+/" n "$" { split($1, a, "/"); k = a[1] }
			/^    stable commit [0-9a-f]+, first released in v/ { print k, $7 }' >"$tmp/rel"
		for p in $(grep -v '^#' "backports/$b/series"); do
			i=$((i + 1))
			up=$(sed -n 's/^Git-commit: //p' "backports/$b/$p" | head -1)
			info=$(grep -l "^Upstream: $up" backports/fixes/*/changes/*/INFO | head -1)
			l=$(sed -n 's/^Letter: //p' "$info") fix=${info%/changes/*}/FIX
			for r in $(awk -v i="$i" '$1 == i { print $2 }' "$tmp/rel"); do
				nrel=$((nrel + 1))
				grep -Eq "^Stable: $r( [A-Z])* $l( |\$)" "$fix" || miss="$miss $l:$r"
			done
		done
		[ -z "$miss" ] && [ "$nrel" -gt 0 ] && t_ok "$b: the $nrel stable releases STABLE_GIT shows for the series' changes are all in the FIX files' Stable: lines" ||
			t_fail "$b: FIX Stable: lines hold the releases STABLE_GIT shows" "missing (letter:release):$miss; $nrel read"
	fi
	if r=$(trees_equal "$b" "$d/series.mbox"); then
		set -- $r
		[ "$1" = "$2" ] && [ "$3" -eq $((n + 1)) ] &&
			t_ok "$b: git am of series.mbox gives quilt's tree $1 ($n commits)" ||
			t_fail "$b: git am gives quilt's tree" "quilt $1, git am $2, $3 commits for $n mails"
	else
		t_fail "$b: git am gives quilt's tree" "the quilt or git am step failed"
	fi
	rmtree "$tmp/tree-$b" "$tmp/pc-$b"
done
t_done
