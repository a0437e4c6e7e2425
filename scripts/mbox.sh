#!/bin/sh
# mbox.sh [BRANCH]: a security series as mails `git am` takes, in the
# stable-queue form, written to $OUT/<name>/mbox/:
#
#   0000-cover-letter.patch  "[PATCH <branch> 0/m]": what the series fixes
#                       (each CVE and its title, from backports/fixes/),
#                       the proof of this OUT's make verify (each fix's
#                       verdict unpatched -> patched) or that there is none,
#                       where the report is, and how each file was made
#   NNNN-<patch>        one "[PATCH <branch> n/m]" mail per patch, in
#                       series order
#   series.mbox         the patch mails, for one `git am series.mbox`; the
#                       cover letter is not in it: it has no diff, and git
#                       am stops at an empty patch ("Patch is empty.")
#   checkpatch.txt      what the branch's own scripts/checkpatch.pl said
#
# Each mail: From: and Date: of the upstream author, the upstream subject,
# "commit <id> upstream.", upstream's changelog with its sign-off chain,
# the backporter's notes "[ <name>: Backported to <branch>: <why> ]" (the
# patch's [ adapted: ] notes; <name> is git config user.name with
# SIGNOFF=1, else the kit's name), the backporter's Signed-off-by
# (SIGNOFF=1 only, from git config, never made up), then the patch's
# diffstat and diff as the series has them, so the mails give the tree
# quilt gives.  The kit's own "made by the kit (make series)" lines of each
# patch go to the cover letter, not into the mails.
#
# Upstream's text is read at run time from KERNEL_GIT and the STABLE_GIT
# sources (lib.sh; scripts/stable-src.sh) and never kept in this
# repository; per change, the first of: the upstream commit itself; a
# commit of a STABLE_GIT source that is its stable form ("commit <id>
# upstream.", "[ Upstream commit <id> ]"); another backport that names it
# ("(backported from commit <id>...)", "(cherry picked from commit
# <id>...)", a distribution's pick of a stable commit); a commit with the
# change's subject and author (the mail says so).  What a backport added
# before upstream's text or after its chain is dropped (upstream_strip).
# Where no source has it, the mail says so in one line and carries the
# kit's own summary instead.  The cover letter names the commit each mail
# was made from and the first stable release that carries each change.
#
#   BRANCH=<b>             backports/<b>/          -> $OUT/<b>/mbox/
#   TREE=<dir> [NAME=<n>]  $OUT/<n>/tree-series/   -> $OUT/<n>/mbox/
#                          (made by make series/verify TREE=<dir>)
#   SERIES_DIR=<dir>       another quilt series for BRANCH (NAME=, default
#                          the branch, names the output)
#   SIGNOFF=1              add the backporter's Signed-off-by
#   CHECKPATCH=<file>      run that checkpatch.pl instead of the branch's own
#   STABLE_GIT="<p> ..."   further git sources of upstream's text
#                          (paths or URLs, space-separated; a word
#                          beginning with '-' or a path that is no git
#                          repository: exit 2)
#   MBOX_TO, MBOX_CC       To: and Cc: of every mail and the cover letter
#                          (addresses, comma-separated); from the
#                          environment only (not keys of the kit's
#                          config file); unset: no To:/Cc: header
#
# Without SIGNOFF=1 a mail whose upstream text the source lacks has no
# Signed-off-by at all: it is written all the same, named on stderr (one
# line a mail) and in checkpatch.txt, and checkpatch's "Missing
# Signed-off-by" on it is not counted as an error: the run made the
# unsigned mails it was asked for.  Sign them (SIGNOFF=1) before sending.
#
# Exit 0: written.  1: a step failed, or a mail has a checkpatch ERROR
# (ours, or on upstream's own lines; the mails then go to mbox.rejected/;
# mbox/ stays as it was).  2: bad input.  3: a remote KERNEL_GIT cannot be
# reached.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/stable-src.sh"
. "$(dirname "$0")/result-check.sh"
# every folder of backports/fixes/ is a fix with its FIX, or nothing runs
# (lib.sh kit_fixes: called here, not in $(...), so that its refusal stops us)
kit_fixes >/dev/null

# Stable-tree maintainers of the 2.6 era and since: the one sign-off the
# stable process appends after upstream's chain (see upstream_strip).
STABLE_SIGNERS="gregkh@suse.de gregkh@linuxfoundation.org greg@kroah.com
gregkh@kernel.org chrisw@sous-sol.org w@1wt.eu bunk@stusta.de
ben@decadent.org.uk paul.gortmaker@windriver.com sashal@kernel.org"

BRANCH=${1:-${BRANCH:-}}
case ${SIGNOFF:-} in '' | 0 | 1) ;; *)
	die 2 "SIGNOFF='$SIGNOFF' is neither 1 nor 0; SIGNOFF=1 adds your Signed-off-by (git config user.name/user.email)" ;;
esac

# check_recipients VAR: VAR (MBOX_TO or MBOX_CC) is unset, or one header
# line of comma-separated addresses, each with an @ (a newline would
# start another header in every mail).
check_recipients() {
	eval "_rv=\${$1:-}"
	[ -n "$_rv" ] || return 0
	_rc=$(printf '\r') _rt=$(printf '\t')
	case $_rv in *"
"* | *"$_rc"* | *"$_rt"*)
		die 2 "$1 holds a line break or tab; give the addresses on one line, comma-separated" ;;
	esac
	_rn=$(printf '%s\n' "$_rv" | tr ',' '\n' | grep -vc '@') || :
	[ "$_rn" -eq 0 ] ||
		die 2 "$1='$_rv' has an entry that is no mail address; give addresses, comma-separated, e.g. $1='stable@vger.kernel.org'"
}
check_recipients MBOX_TO
check_recipients MBOX_CC
check_stable_git

# resolve_series: BRANCH, NAME and sdir (the quilt series to mail).
resolve_series() {
	if [ -n "${TREE:-}" ]; then
		[ -z "${SERIES_DIR:-}" ] || die 2 "TREE= and SERIES_DIR= both given; use one"
		det=$(sh "$KIT_ROOT/scripts/detect.sh" "$TREE") || exit $?
		[ -z "$BRANCH" ] || [ "$BRANCH" = "$det" ] ||
			die 2 "TREE=$TREE is $det, but BRANCH=$BRANCH was given; drop BRANCH= or use a $BRANCH tree"
		BRANCH=$det
		tree_run_name "$TREE"; NAME=$_trn
		check_name NAME "$NAME"
		sdir=$OUT/$NAME/tree-series
		[ -r "$sdir/series" ] ||
			die 2 "no series for TREE=$TREE in $sdir; make it first: make series TREE=$TREE NAME=$NAME"
		verify_cmd="make verify TREE=$TREE NAME=$NAME"
		return 0
	fi
	load_branch "$BRANCH"
	NAME=${NAME:-$BRANCH}
	check_name NAME "$NAME"
	sdir=${SERIES_DIR:-$KIT_ROOT/backports/$BRANCH}
	if [ ! -r "$sdir/series" ]; then
		[ -z "${SERIES_DIR:-}" ] || die 2 "SERIES_DIR=$SERIES_DIR has no series file; give a quilt series folder"
		[ "$BR_SOURCE" != apt ] || die 2 "$BRANCH carries the fix itself: it has no series to mail"
		die 2 "backports/$BRANCH/series is missing; run 'make series BRANCH=$BRANCH' first"
	fi
	sdir=$(cd "$sdir" && pwd)
	verify_cmd="make verify BRANCH=$BRANCH${SERIES_DIR:+ SERIES_DIR=$SERIES_DIR}"
	[ "$NAME" = "$BRANCH" ] || verify_cmd="$verify_cmd NAME=$NAME"
}

# check_patches: every patch the series names exists and is one the kit
# wrote (a Git-commit: line with a full id, a "---" line before the diff).
check_patches() {
	patches=$(grep -v '^#' "$sdir/series" | grep -v '^[[:space:]]*$') ||
		die 2 "$sdir/series names no patch"
	for p in $patches; do
		is_plain_name "$p" || die 2 "$sdir/series names '$p', which is not a plain file name"
		[ -r "$sdir/$p" ] || die 2 "$sdir/series names $p, which does not exist"
		grep -Eq '^Git-commit: [0-9a-f]{40}$' "$sdir/$p" ||
			die 2 "$sdir/$p has no 'Git-commit: <40-hex id>' header; regenerate it with make series"
		grep -q '^---$' "$sdir/$p" ||
			die 2 "$sdir/$p has no '---' line before its diff; regenerate it with make series"
	done
}

# signoff_line: the backporter's own line, from git config only.
signoff_line() {
	_n=$(git -C "$KIT_ROOT" config user.name) || _n=
	_e=$(git -C "$KIT_ROOT" config user.email) || _e=
	[ -n "$_n" ] && [ -n "$_e" ] ||
		die 2 "SIGNOFF=1 but git config user.name/user.email is not set; set both (git config --global user.name ...) or drop SIGNOFF"
	printf 'Signed-off-by: %s <%s>\n' "$_n" "$_e"
}

# open_one N SPEC VAR: source N (0: KERNEL_GIT; 1...: the STABLE_GIT
# words, VAR names which) opened: $work/gd.N holds a git dir to read
# upstream's text from, $work/spec.N what the user gave.  A remote source
# is asked for each upstream id (depth 2: the commit and its parent, for
# its diff) into a scratch repository; it cannot be searched for
# backports ($work/remote.N says so).
open_one() {
	# never an option to git (fetch.sh refuses the same; --upload-pack=…
	# would run a command)
	case $2 in -*)
		die 2 "$3='$2' begins with '-', which git would take as an option; give a path (./...) or a URL" ;;
	esac
	case $2 in
	*://* | *@*:*)
		_g=$work/upstream.$1.git
		git init -q --bare "$_g"
		if ! timeout "${KIT_FETCH_TIMEOUT:-120}" git -c protocol.ext.allow=never ls-remote -- "$2" HEAD >/dev/null 2>"$work/ls.err"; then
			# KERNEL_GIT is the kit's source: without it nothing is
			# known; a further STABLE_GIT source out of reach is one
			# source less, said, and the mails say where each text came from
			[ "$3" = STABLE_GIT ] ||
				die 3 "cannot reach $2 ($(tail -1 "$work/ls.err" | sed 's/^fatal: //')); set $3 to a local git repository"
			warn "cannot reach STABLE_GIT source $2 ($(tail -1 "$work/ls.err" | sed 's/^fatal: //')); going on without it"
			return 1
		fi
		for _id in $(cat "$work/ids"); do
			timeout "${KIT_FETCH_TIMEOUT:-120}" git -c protocol.ext.allow=never --git-dir="$_g" fetch -q --depth=2 \
				-- "$2" "$_id" 2>/dev/null || :   # not there: the mail says so
		done
		: >"$work/remote.$1" ;;
	*)
		[ -d "$2" ] || die 2 "$3=$2 is not a folder; point it at the kit's git source"
		_g=$(git -C "$2" rev-parse --absolute-git-dir 2>/dev/null) ||
			die 2 "$3=$2 is not a git repository; point it at the kit's git source" ;;
	esac
	printf '%s\n' "$_g" >"$work/gd.$1"
	printf '%s\n' "$2" >"$work/spec.$1"
	# the name outputs give it (mails go to other people): a URL, else
	# its remote's URL, with no user or password in either; else the
	# folder's name, never this machine's path
	_nm=$2
	case $_nm in *://* | *@*:*) ;; *) _nm=$(git --git-dir="$_g" config --get remote.origin.url 2>/dev/null) || _nm= ;; esac
	case $_nm in
	*://*@*) _nm=${_nm%%://*}://${_nm#*://*@} ;;
	*://*) ;;
	*@*:*) _nm=${_nm#*@} ;;
	*) _nm=$(cd "$2" && case ${PWD##*/} in repo | .git) _p=${PWD%/*}; echo "${_p##*/}" ;; *) echo "${PWD##*/}" ;; esac) ;;
	esac
	printf '%s\n' "$_nm" >"$work/name.$1"
}

# open_source: KERNEL_GIT as source 0, then each STABLE_GIT word; nsrc is
# how many.
open_source() {
	open_one 0 "$KERNEL_GIT" KERNEL_GIT
	nsrc=1
	stable_words >"$work/stable.words"
	while IFS= read -r _s; do
		open_one "$nsrc" "$_s" STABLE_GIT || continue
		nsrc=$((nsrc + 1))
	done <"$work/stable.words"
}

# names_id ID: awk program text true on a line that names ID as the
# commit this one is (a backport's marker), not a mere mention ("This
# reverts commit ID", "Fixes: ID").
names_re() {
	printf '%s' "^(commit $1 upstream\\.?|\\[ ?[Uu]pstream commit $1 ?\\]|[Uu]pstream commit $1\\.?|\\((backported|cherry picked) from commit $1( upstream)?\\)?)[[:space:]]*\$"
}

# find_upstream: for each id, $work/up/<id> holds the source commit that
# carries upstream's text, as "<kind> <commit> <source number>", the
# first of, in this order:
#   self      the upstream commit itself (KERNEL_GIT first, then the
#             STABLE_GIT sources in the order given);
#   stable    a commit of a STABLE_GIT source that is the stable form of
#             it ("commit <id> upstream.", "[ Upstream commit <id> ]"):
#             upstream's text with the least added;
#   backport  any other commit that names it as the one it is (a
#             distribution's pick of a stable commit, "(cherry picked
#             from commit <id>)"), KERNEL_GIT first;
#   subject   same subject and author (find_by_subject).
# Within a kind and a source the oldest wins: the nearest to upstream
# (later ones are picks of picks).  One pass over each source's history
# for all ids.  $work/stable/<id> lists every stable-form commit of the
# STABLE_GIT sources, for the cover letter's releases.
find_upstream() {
	mkdir "$work/up" "$work/cand" "$work/stable"
	for _id in $(cat "$work/ids"); do
		_i=0
		while [ "$_i" -lt "$nsrc" ]; do
			if git --git-dir="$(cat "$work/gd.$_i")" cat-file -e "$_id^{commit}" 2>/dev/null; then
				echo "self $_id $_i" >"$work/up/$_id"; break
			fi
			_i=$((_i + 1))
		done
	done
	_grep=
	for _id in $(cat "$work/ids"); do _grep="$_grep --grep=$_id"; done
	_i=0
	while [ "$_i" -lt "$nsrc" ]; do
		[ ! -e "$work/remote.$_i" ] || { _i=$((_i + 1)); continue; }
		_g=$(cat "$work/gd.$_i") _sp=$(cat "$work/spec.$_i")
		progress "$NAME" mbox "searching $_sp for commits that name the upstream ids"
		# shellcheck disable=SC2086
		git --git-dir="$_g" log --all -F $_grep --reverse --format=%H >"$work/cand.list" ||
			die 1 "git log in $_sp failed"
		while read -r _c; do
			git --git-dir="$_g" show -s --format=%B "$_c" >"$work/cand.msg"
			for _id in $(cat "$work/ids"); do
				grep -Eq "$(names_re "$_id")" "$work/cand.msg" || continue
				# rank 1: the stable form in a stable source; 2: any other naming
				_rk=2
				[ "$_i" -eq 0 ] || ! grep -Eq "$(stable_names_re "$_id")" "$work/cand.msg" || {
					_rk=1; echo "$_c $_i" >>"$work/stable/$_id"; }
				echo "$_rk $_i $_c" >>"$work/cand/$_id"
			done
		done <"$work/cand.list"
		_i=$((_i + 1))
	done
	for _id in $(cat "$work/ids"); do
		[ ! -e "$work/up/$_id" ] && [ -e "$work/cand/$_id" ] || continue
		# stable sort: rank, then source; the oldest (first listed) within
		sort -s -n -k1,1 -k2,2 "$work/cand/$_id" | head -1 |
			awk '{ print ($1 == 1 ? "stable" : "backport"), $3, $2 }' >"$work/up/$_id"
	done
	find_by_subject
}

# find_by_subject: an id no commit names may still have a backport that
# carries upstream's text without naming it (a distribution's pick): the
# oldest commit whose subject is the change's Subject: exactly and whose
# author is its From: (name and address, from the change's INFO) is taken,
# as "subject <commit>", and the mail says it was matched that way.
# KERNEL_GIT first, then the STABLE_GIT sources.
find_by_subject() {
	for _id in $(cat "$work/ids"); do
		[ ! -e "$work/up/$_id" ] || continue
		_ch=
		for _c in $(kit_changes); do
			[ "$(info_field "$_c" Upstream)" = "$_id" ] && { _ch=$_c; break; }
		done
		[ -n "$_ch" ] || continue
		_subj=$(info_field "$_ch" Subject) _au=$(info_field "$_ch" From)
		[ -n "$_subj" ] && [ -n "$_au" ] || continue
		_i=0
		while [ "$_i" -lt "$nsrc" ] && [ ! -e "$work/up/$_id" ]; do
			[ ! -e "$work/remote.$_i" ] || { _i=$((_i + 1)); continue; }
			git --git-dir="$(cat "$work/gd.$_i")" log --all -F --grep="$_subj" --reverse --format='%H%x09%an <%ae>%x09%s' >"$work/subj" ||
				die 1 "git log in $(cat "$work/spec.$_i") failed"
			_hit=$(awk -F'\t' -v s="$_subj" -v a="$_au" '$2 == a && $3 == s { print $1; exit }' "$work/subj")
			[ -z "$_hit" ] || echo "subject $_hit $_i" >"$work/up/$_id"
			_i=$((_i + 1))
		done
	done
}

# upstream_strip ID COMMITTER-EMAIL: a backport's message (stdin, without
# its subject line) reduced to upstream's changelog and chain (stdout).
#
# What a backport adds to upstream's text, and how it is told apart:
#  - the stable form puts "commit <id> upstream." (or "[ Upstream commit
#    <id> ]") above upstream's text, and a distribution may put more above
#    it (BugLink:): everything down to that line is the backporter's;
#    without such a line, leading BugLink: lines and lines of bare CVE ids
#    (a distribution's pick) are dropped;
#  - `git cherry-pick -x` style ("(backported from commit <id>)",
#    "(cherry picked from commit <id>)") is written right after upstream's
#    chain, and what follows it is the distribution's own;
#  - otherwise the chain only grows at its end, so the added lines are the
#    last ones: those by the backport's committer or their mail domain
#    (the distribution that committed it: its Signed-off-by, Acked-by,
#    BugLink:), then at most one sign-off of a stable maintainer (the
#    stable process adds exactly one, right after upstream's chain, with
#    any "[name: ...]" note of theirs just above it).  Nothing above that
#    is touched, so upstream's own chain stays whole; the one case this
#    gets wrong is an upstream chain that itself ends with a stable
#    maintainer's sign-off and no stable one after it.
upstream_strip() {
	awk -v re="$(names_re "$1")" -v ce="$2" -v stable=" $(printf '%s' "$STABLE_SIGNERS" | tr '\n' ' ') " '
	function email(s) { if (match(s, /<[^>]*>/)) return substr(s, RSTART + 1, RLENGTH - 2); return "" }
	function dom(s) { sub(/^[^@]*@/, "", s); return tolower(s) }
	{ l[++n] = $0 }
	END {
		first = 1; last = n; cut = 0
		for (i = 1; i <= n; i++) if (l[i] ~ re && l[i] !~ /^\(/) { first = i + 1; break }
		for (i = first; i <= n; i++) if (l[i] ~ re && l[i] ~ /^\(/) { last = i - 1; cut = 1; break }
		if (!cut) {
			cd = dom(ce)
			for (; last >= first; last--) {
				if (l[last] ~ /^[[:space:]]*$/ || l[last] ~ /^BugLink:/) continue
				if (l[last] !~ /^[A-Za-z-]+: / || email(l[last]) == "") break
				if (tolower(email(l[last])) != tolower(ce) && dom(email(l[last])) != cd) break
			}
			if (last >= first && l[last] ~ /^Signed-off-by: / && index(stable, " " tolower(email(l[last])) " ")) {
				for (last--; last >= first && l[last] ~ /^\[[^ ]+: .*\]$/; last--) ;
			}
		}
		# head lines a distribution adds with no marker line after them
		# (a pick matched by subject): its BugLink: and bare CVE id lines
		while (first <= last && (l[first] ~ /^[[:space:]]*$/ || l[first] ~ /^BugLink: / ||
		       l[first] ~ /^CVE-[0-9][0-9][0-9][0-9]-[0-9]+([ ,]+CVE-[0-9][0-9][0-9][0-9]-[0-9]+)*[[:space:]]*$/)) first++
		while (last >= first && l[last] ~ /^[[:space:]]*$/) last--
		for (i = first; i <= last; i++) print l[i]
	}'
}

# upstream_text ID PREFIX: PREFIX.meta (author name, email, date, subject,
# committer email), PREFIX.log (changelog and chain), PREFIX.diff and
# PREFIX.from (where it was read) from the commit find_upstream chose.
upstream_text() {
	read -r _kind _c _si <"$work/up/$1"
	gd=$(cat "$work/gd.$_si")
	git --git-dir="$gd" show -s --format='%an%n%ae%n%aD%n%s%n%ce' "$_c" >"$2.meta"
	git --git-dir="$gd" show -s --format=%b "$_c" >"$2.body"
	if [ "$_kind" = self ]; then
		sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$2.body" >"$2.log"
	else
		upstream_strip "$1" "$(sed -n 5p "$2.meta")" <"$2.body" >"$2.log"
	fi
	# its added lines: a checkpatch complaint about one of these is
	# about upstream's own code, not about our adaptation of it
	git --git-dir="$gd" show --format= --no-color --no-ext-diff "$_c" >"$2.diff" 2>/dev/null ||
		: >"$2.diff"   # a shallow remote commit without its parent: no diff to compare
	printf '%s (%s %s; in %s)\n' "$_kind" "$_c" "$(sed -n 4p "$2.meta")" "$(cat "$work/name.$_si")" >"$2.from"
}

# parse_patch PATCH PREFIX: the kit's patch header into PREFIX.{from,
# subject,id}, its bracket notes into PREFIX.notes, the kit's "[ <branch>:
# made by the kit (make series): ... ]" block into PREFIX.made (for the
# cover letter), our own explanation into PREFIX.expl and everything from
# "---" on into PREFIX.tail.
parse_patch() {
	: >"$2.notes"; : >"$2.expl"; : >"$2.made"
	awk -v p="$2" '
	part == "" && /^$/ { part = "body"; next }
	part == "" { if (sub(/^From: /, "")) print > (p ".from")
		else if (sub(/^Subject: /, "")) print > (p ".subject")
		else if (sub(/^Git-commit: /, "")) print > (p ".id")
		next }
	part == "body" && /^---$/ { part = "tail" }
	part == "tail" { print > (p ".tail"); next }
	/^commit [0-9a-f]+ upstream\.$/ && !seen++ { next }
	/^\[ / { inb = 1; made = /^\[ [^ ]+: made by the kit / }
	inb { print > (p (made ? ".made" : ".notes")); if (/ \]$/) inb = 0; next }
	{ print > (p ".expl") }' "$1"
}

# backport_lines NOTES: our bracket notes ("[ adapted: <why> ]", or any
# other "[ <why> ]") as the stable form's backporter notes, "[ <name>:
# Backported to <branch>: <why> ]" (<name>: $bp_name); a long note is
# wrapped at 75 columns for mail readers, its continuation lines indented.
backport_lines() {
	BP_PRE="[ $bp_name: Backported to $BRANCH: " awk '
	/^\[ / { sub(/^\[ (adapted: )?/, ""); $0 = ENVIRON["BP_PRE"] $0 }
	/^ / || length($0) <= 75 { print; next }
	{
		out = ""; n = split($0, w, " ")
		for (i = 1; i <= n; i++) {
			if (out != "" && out != "  " && length(out) + length(w[i]) + 1 > 75) { print out; out = "  " }
			out = out (out == "" || out == "  " ? "" : " ") w[i]
		}
		print out
	}' "$1"
}

# mail_from NAME EMAIL: a From: value; a name with characters outside an
# RFC 5322 atom ("H. Peter Anvin") is quoted, as git format-patch does.
mail_from() {
	if printf '%s' "$1" | LC_ALL=C grep -q "[^A-Za-z0-9 !#\$%&'*+/=?^_\`{|}~-]"; then
		printf '"%s" <%s>' "$(printf '%s' "$1" | sed 's/[\\"]/\\&/g')" "$2"
	else
		printf '%s <%s>' "$1" "$2"
	fi
}

# trim FILE: FILE without its leading and trailing blank lines.
trim() {
	awk '/[^[:space:]]/ { for (; b > 0; b--) print ""; print; seen = 1; next } seen { b++ }' "$1"
}

# wrap INDENT: stdin's lines wrapped at 75 columns, at blanks, each
# continuation line indented by INDENT (a word longer than a line stays
# whole).
wrap() {
	awk -v ind="$1" 'length($0) <= 75 { print; next }
	{
		match($0, /^ */); out = substr($0, 1, RLENGTH); lead = out; n = split($0, w, " ")
		for (i = 1; i <= n; i++) {
			if (out != lead && length(out) + length(w[i]) + 1 > 75) { print out; out = lead = ind }
			out = out (out == lead ? "" : " ") w[i]
		}
		print out
	}'
}

# recipients: the To: and Cc: lines of MBOX_TO and MBOX_CC (none unset).
recipients() {
	[ -z "${MBOX_TO:-}" ] || printf 'To: %s\n' "$MBOX_TO"
	[ -z "${MBOX_CC:-}" ] || printf 'Cc: %s\n' "$MBOX_CC"
}

# make_mail N M PREFIX MAIL: mail N of M from the parsed patch PREFIX.
make_mail() {
	_id=$(cat "$3.id")
	if [ -r "$work/up/$_id" ]; then
		upstream_text "$_id" "$3.up"
		_have=1
		_from=$(mail_from "$(sed -n 1p "$3.up.meta")" "$(sed -n 2p "$3.up.meta")")
		_date=$(sed -n 3p "$3.up.meta") _subj=$(sed -n 4p "$3.up.meta")
		[ "$_subj" = "$(cat "$3.subject")" ] ||
			progress "$NAME" mbox "warning: ${_id%"${_id#????????????}"}: the source's subject '$_subj' differs from the patch's '$(cat "$3.subject")'"
	else
		_have='' _date='' _subj=$(cat "$3.subject") _f=$(cat "$3.from")
		_from=$(mail_from "${_f% <*}" "$(printf '%s' "$_f" | sed 's/.*<\(.*\)>.*/\1/')")
	fi
	{
		printf 'From %s Mon Sep 17 00:00:00 2001\n' "$_id"
		printf 'From: %s\n' "$_from"
		[ -z "$_date" ] || printf 'Date: %s\n' "$_date"
		printf 'Subject: [PATCH %s %d/%d] %s\n' "$BRANCH" "$1" "$2" "$_subj"
		recipients
		printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n\n'
		printf 'commit %s upstream.\n\n' "$_id"
		if [ -n "$_have" ]; then
			cat "$3.up.log"
			if [ "$(cut -d' ' -f1 "$3.up.from")" = subject ]; then
				echo
				printf '[ upstream text: from %s, matched by subject and author (it names no upstream id) ]\n' \
					"$(cut -d' ' -f2 "$3.up.from" | tr -d '(' | cut -c1-12)"
			fi
		else
			echo "[ adapted: the kit's source lacks upstream's changelog; our summary follows ]" >"$3.lack"
			backport_lines "$3.lack"
			echo
			trim "$3.expl"
			echo
		fi
		backport_lines "$3.notes"
		[ -z "$sign" ] || printf '%s\n' "$sign"
		cat "$3.tail"
	} >"$4"
}

# cover_letter M MAIL: mail 0 of M, "[PATCH <branch> 0/M]": the fixes the
# series carries (each patch's References: CVE ids, titled from
# backports/fixes/<CVE>/FIX), the proof this OUT holds for them, where the
# report is, and how each file of each patch was made (the kit's lines
# the patches carry, which the mails leave out).  It has no diff: git am
# would stop on it, so it is not in series.mbox.
cover_letter() {
	_n=0
	: >"$work/cves"
	for p in $patches; do
		_n=$((_n + 1))
		for _cve in $(header_field "$sdir/$p" References | tr ',' ' '); do
			case $_cve in CVE-*) printf '%s %d\n' "$_cve" "$_n" >>"$work/cves" ;; esac
		done
	done
	_cves=$(awk '!seen[$1]++ { print $1 }' "$work/cves")
	_r=$OUT/$NAME/result.json
	{
		printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
		printf 'From: %s\n' "$cover_from"
		printf 'Subject: [PATCH %s 0/%d] %s\n' "$BRANCH" "$1" \
			"$(if [ -n "$_cves" ]; then printf 'security fixes: %s' "$(echo $_cves | sed 's/ /, /g')"; else echo 'backported fixes'; fi)"
		recipients
		printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n\n'
		printf 'This series backports to %s the upstream fixes below, %d patches\n' "$BRANCH" "$1"
		printf '(each mail names its upstream commit; git am takes them in order).\n\n'
		echo 'What it fixes:'
		[ -n "$_cves" ] || echo "  the patches name no CVE (no References: CVE-... line)"
		for _cve in $_cves; do
			_nums=$(awk -v c="$_cve" '$1 == c { printf "%s%s", (n++ ? ", " : ""), $2 }' "$work/cves")
			printf '  %s, patch%s %s:\n' "$_cve" "$(case $_nums in *,*) echo es ;; esac)" "$_nums"
			if [ -r "$(kit_fixes_dir)/$_cve/FIX" ]; then
				printf '    %s\n' "$(fix_field "$_cve" Title | head -1)" | wrap '    '
			else
				printf '    (no fix folder %s/%s)\n' "$(kit_fixes_dir | sed "s|^$KIT_ROOT/||")" "$_cve"
			fi
		done
		echo
		proof "$_r"
		echo
		if [ -r "$OUT/report.html" ]; then
			printf 'Report: %s (make report on this OUT); the kit'\''s own: docs/results.html\n\n' "$OUT/report.html"
		else
			printf 'Report: the kit'\''s docs/results.html; for this OUT, make report writes %s\n\n' "$OUT/report.html"
		fi
		echo 'Code against upstream (git patch-id --stable, then the added lines; upstream-compare.txt lists them):'
		_n=0
		for p in $patches; do
			_n=$((_n + 1))
			printf '  %d/%d %s: %s\n' "$_n" "$1" "$p" "$(cut -d' ' -f2- "$work/p/$_n.cmp")" | wrap '      '
		done
		echo
		sources_and_releases "$1"
		echo 'How each file was made (the kit'\''s make series; not in the mails):'
		_n=0
		for p in $patches; do
			_n=$((_n + 1))
			printf '  %d/%d %s\n' "$_n" "$1" "$p"
			# the block without its "[ <branch>: made by ... (make series):" head and " ]" tail
			sed -e '1d' -e 's/ \]$//' "$work/p/$_n.made" | sed 's/^ */    /'
			[ -s "$work/p/$_n.made" ] || echo "    (the patch carries no made-by lines)"
		done
		printf '\n-- \n%s\n' "$KIT_NAME"
	} >"$2"
}

# sources_and_releases M: per patch, which commit of which source gave
# its upstream text (the kinds of find_upstream), and the stable releases
# that carry the change: each stable-form commit of the STABLE_GIT
# sources, with the first release containing it (first_release).  Read
# at run time; a blank line after.
sources_and_releases() {
	echo 'Upstream text and stable releases (read from the git sources at run time):'
	_n=0
	for p in $patches; do
		_n=$((_n + 1))
		_id=$(cat "$work/p/$_n.id")
		if [ -r "$work/up/$_id" ]; then
			read -r _k _c _si <"$work/up/$_id"
			_w=$(case $_k in self) echo "the upstream commit" ;; stable) echo "stable commit" ;;
				backport) echo "backport" ;; subject) echo "same subject and author" ;; esac)
			printf '  %d/%d %s: text from %s %.12s in %s\n' "$_n" "$1" "$p" "$_w" "$_c" "$(cat "$work/name.$_si")" | wrap '      '
		else
			printf '  %d/%d %s: no source carries upstream'\''s text (the mail says so)\n' "$_n" "$1" "$p" | wrap '      '
		fi
		if [ -s "$work/stable/$_id" ]; then
			awk '!seen[$1]++' "$work/stable/$_id" | while read -r _c _si; do
				_r=$(first_release "$(cat "$work/gd.$_si")" "$_c")
				if [ -n "$_r" ]; then
					printf '    stable commit %.12s, first released in %s (%s)\n' "$_c" "${_r% *}" \
						"$(case ${_r#* } in tag) echo "its first tag" ;; *) echo "the first 'Linux <version>' commit after it" ;; esac)"
				else
					printf '    stable commit %.12s: in no release the source shows\n' "$_c"
				fi
			done
		elif [ -s "$work/stable.words" ]; then
			echo "    in no stable release of the STABLE_GIT sources"
		fi
	done
	echo
}

# proof RESULT: the cover letter's lines on what this OUT's make verify
# proved for each fix in $_cves, or that it proved nothing for this series.
proof() {
	if [ ! -r "$1" ] || ! jq -e '.gate.kernels | type == "object"' "$1" >/dev/null 2>&1; then
		printf 'Proof: not verified in this OUT: %s\n' "$verify_cmd"
		return 0
	fi
	_want=$(jq -r '.provenance.series_sha256 // "none"' "$1")
	_have=$(series_digest "$sdir")
	if [ "$_want" != "$_have" ]; then
		printf 'Proof: not verified in this OUT: %s verified another series (sha256 %.12s, this one %.12s): %s\n' \
			"$1" "$_want" "$_have" "$verify_cmd"
		return 0
	fi
	need_cmd jq
	jq -r '"Proof: make verify, gate \(.gate.status // "unknown") (\(input_filename)\(if .provenance.kit_commit then ", kit " + .provenance.kit_commit else "" end)),",
	  "each fix'\''s verdict unpatched -> patched:"' "$1"
	for _cve in $_cves; do
		jq -r --arg f "$_cve" '.gate.kernels as $k
		  | if ([$k[] | .fixes // {} | has($f)] | any | not) then "  \($f): not judged by this run'\''s gate" else
		    def v($x): ($k[$x].fixes[$f].verdict // "none");
		    def e($x): ($k[$x].fixes[$f].expected // "none");
		  "  \($f): unpatched \(v("unpatched")) -> patched \(v("patched"))"
		  + (if ($k.unpatched.fixes[$f].ok // false) and ($k.patched.fixes[$f].ok // false) then ""
		     else " (the gate expects \(e("unpatched")) -> \(e("patched")))" end) end' "$1" | wrap '      '
	done
}

# prep_checkpatch: $work/checkpatch.pl, a copy of the branch's own (from
# its verified export) or of CHECKPATCH=, runnable by this perl: 2.6-era
# checkpatch.pl has unescaped "{" after \s, \) and "do" in a few regexes,
# a syntax error since perl 5.26; the copy escapes exactly those, which
# changes nothing they match.  And one upstream fix of checkpatch itself:
# before c1ab33269a84 ("checkpatch: include/asm checks should be anchored",
# Andy Whitcroft, 2008-10-15, in v2.6.28) the "do not modify files in
# include/asm" ERROR matched include/asm/ anywhere in the path, so v2.6.27's
# checkpatch refuses every arch/<arch>/include/asm/ file, the very place
# that release moved those headers to; the copy anchors it as that commit
# did, and the header of checkpatch.txt says so when it applied.  The
# export itself is never touched.
prep_checkpatch() {
	if [ -n "${CHECKPATCH:-}" ]; then
		[ -r "$CHECKPATCH" ] || die 2 "CHECKPATCH=$CHECKPATCH is not a readable file; give a checkpatch.pl"
		_cp=$CHECKPATCH cp_args=--no-tree cp_what="CHECKPATCH=$CHECKPATCH"
	else
		_src=$(sh "$KIT_ROOT/scripts/fetch.sh" "$BRANCH") || exit $?
		_cp=$_src/scripts/checkpatch.pl cp_args=--root=$_src
		cp_what="$BRANCH's own scripts/checkpatch.pl (commit $(sed -n 's/^commit //p' "$_src/.kit-verified" | head -1))"
		[ -r "$_cp" ] || die 1 "$BRANCH's export has no scripts/checkpatch.pl"
	fi
	sed -e 's/\\s{/\\s\\{/g' -e 's/\\){/\\)\\{/g' -e 's|/do{/|/do\\{/|g' \
		-e 's|^\(\t*if (\$realfile =~ m@\)include/asm/@) {$|\1^include/asm/@) {|' "$_cp" >"$work/checkpatch.pl"
	grep -q '^	*if ($realfile =~ m@include/asm/@) {$' "$_cp" &&
		cp_what="$cp_what, with upstream's c1ab33269a84 (include/asm checks anchored) applied to the copy"
	perl -c "$work/checkpatch.pl" >"$work/cp.log" 2>&1 ||
		die 1 "$cp_what does not compile under $(perl -e 'print $^V'): $(grep -v 'syntax OK' "$work/cp.log" | head -1)"
}

# checkpatch_mail MAIL PREFIX [UNSIGNED]: run checkpatch on MAIL; its
# findings, each marked as ours or as one on upstream's own line (every
# line it quotes is added verbatim by the commit the source holds for it),
# go to PREFIX.cpr; "<errors ours> <errors upstream's> <warnings>
# <no-sign-off errors>" to stdout.  UNSIGNED (a mail with no Signed-off-by
# in a run without SIGNOFF=1): checkpatch's "Missing Signed-off-by" is the
# mail's known state, counted apart, not as an error of ours.
checkpatch_mail() {
	# its exit status also counts warnings: the totals line is read instead
	perl "$work/checkpatch.pl" "$cp_args" "$1" >"$2.cp" 2>&1 || :
	grep -Eq '^total: [0-9]+ errors, [0-9]+ warnings' "$2.cp" ||
		die 1 "checkpatch.pl did not finish on ${1##*/}: $(tail -1 "$2.cp")"
	[ -r "$2.up.diff" ] || : >"$2.up.diff"
	awk -v upf="$2.up.diff" -v out="$2.cpr" -v unsigned="${3:-}" '
	BEGIN { while ((getline l < upf) > 0) if (l ~ /^\+/) up[l] = 1 }
	function flush(  tag) {
		if (!inb) return; inb = 0
		if (kind == "ERROR" && unsigned != "" && blk ~ /Missing Signed-off-by/) { es++; tag = "ERROR (no sign-off yet: SIGNOFF=1 signs it)" }
		else if (kind == "ERROR" && q > 0 && own == q) { eu++; tag = "ERROR (upstream'\''s own line)" }
		else if (kind == "ERROR") { eo++; tag = "ERROR" }
		else { w++; tag = kind }
		printf "  %s:%s\n", tag, blk > out
	}
	/^(ERROR|WARNING|CHECK): / { flush(); kind = $1; sub(/:$/, "", kind); blk = substr($0, length(kind) + 2); q = own = 0; inb = 1; next }
	/^total: / { flush(); split($0, t, /[ ,]+/); te = t[2]; tw = t[4]; next }
	inb && /^$/ { flush(); next }
	inb { blk = blk "\n  " $0; s = $0; sub(/^#[0-9]+: /, "", s)
		if (s ~ /^\+/) { q++; if (s in up) own++ } }
	END { flush(); if (te != eo + eu + es || tw != w) print "mismatch"; else print eo + 0, eu + 0, w + 0, es + 0 }' "$2.cp"
}

# added_lines: the lines a diff (stdin) adds, as "<file>\t<line with no
# blanks>\t<line>", sorted (compared without blanks, as git patch-id
# does; shown as written).  What a backport
# removes is the branch's own code, which differs from release to release;
# what it adds is the fix, and must be upstream's.  A header that moved
# since (include/asm-<arch>/F, arch/<arch>/include/asm/F from 2.6.27/28
# on) is one file.
added_lines() {
	awk '/^diff --git / { f = $NF; sub(/^b\//, "", f)
		if (match(f, /^include\/asm-[a-z0-9]+\//)) f = "arch/" substr(f, 13, RLENGTH - 13) "/include/asm/" substr(f, RLENGTH + 1)
		next }
	f == "" || /^(\+\+\+|---) / { next }
	/^\+/ { s = $0; gsub(/[ \t]+/, "", s); if (s != "+") print f "\t" s "\t" $0 }' | LC_ALL=C sort
}

# added_diff OURS THEIRS: the added lines (added_lines) of one and not
# the other, compared without blanks, as "ours|theirs\t<file>\t<line>".
# A line one adds in one file and the other in another is a file that
# moved between the releases (include/asm-sparc64/elf.h, later
# arch/sparc/include/asm/elf_64.h), not a difference.
added_diff() {
	awk -F'\t' 'FNR == 1 { side++ }
	{ r = $0; sub(/^[^\t]*\t[^\t]*\t/, "", r) }
	side == 1 { o[$1 "\t" $2] = r; next }
	{ t[$1 "\t" $2] = r }
	END {
		for (k in o) if (!(k in t)) { split(k, a, "\t"); on[a[2]] = 1 }
		for (k in t) if (!(k in o)) { split(k, a, "\t"); tn[a[2]] = 1 }
		for (k in o) if (!(k in t)) { split(k, a, "\t"); if (!(a[2] in tn)) print "ours\t" a[1] "\t" o[k] }
		for (k in t) if (!(k in o)) { split(k, a, "\t"); if (!(a[2] in on)) print "theirs\t" a[1] "\t" t[k] }
	}' "$1" "$2" | LC_ALL=C sort -t'	' -k2,2 -k1,1r
}

# explained FILE PREFIX: a note of the patch (PREFIX.notes) says why the
# added lines of FILE differ (PREFIX.cmpd): it names, as a whole word, an
# identifier with an underscore of those lines ("no bprm->per_clear"
# explains a missing per_clear line), or, where every line that differs is
# a comment, it names the file.  A file's name alone never excuses code.
explained() {
	awk -F'\t' -v f="$1" '$2 == f { sub(/^[^\t]*\t[^\t]*\t/, ""); print }' "$2.cmpd" >"$2.xl"
	for _w in $(grep -oE '[A-Za-z_][A-Za-z0-9_]*_[A-Za-z0-9_]*' "$2.xl" | LC_ALL=C sort -u); do
		grep -qwF -- "$_w" "$2.notes" && return 0
	done
	# comment lines: "+" then blanks, then /*, * or */ (C and gas)
	grep -qvE '^\+[[:space:]]*(/\*|\*)' "$2.xl" && return 1
	grep -qF -- "${1##*/}" "$2.notes"
}

# compare_code PATCH PREFIX: the patch's code against every commit the
# sources hold for its change (the one its text came from and every
# stable-form one): first by git patch-id --stable, then by the lines
# each adds (added_lines).  PREFIX.cmp gets one line, "<state> <what>":
#   identical   the patch-id of one of them;
#   context     the same added lines as one of them, its context (and
#               what it removes) the branch's own;
#   named       added lines differ from the nearest one, and a note of
#               the patch ([ ... ], from the change's notes/<branch>)
#               explains each file where they do (explained);
#   unnamed     as named, but no note explains a file;
#   none        no source holds a diff of the change.
# PREFIX.cmpd lists the differing lines ("ours" / "theirs").
compare_code() {
	_id=$(cat "$2.id")
	git patch-id --stable <"$1" | cut -d' ' -f1 >"$2.pid"
	added_lines <"$1" >"$2.add"
	{ [ ! -r "$work/up/$_id" ] || cut -d' ' -f2,3 "$work/up/$_id"; [ ! -r "$work/stable/$_id" ] || cat "$work/stable/$_id"; } |
		awk '!seen[$1]++' >"$2.cands"
	_best='' _bn='' _st=none
	: >"$2.cmpd"
	while read -r _c _si; do
		git --git-dir="$(cat "$work/gd.$_si")" show --format= --no-color --no-ext-diff "$_c" >"$2.theirs" 2>/dev/null &&
			[ -s "$2.theirs" ] || continue   # a shallow remote commit: no diff
		_what="$(case $(awk -v c="$_c" '$2 == c { print $1 }' "$work/up/$_id" 2>/dev/null) in self) echo "upstream commit" ;; *) echo "commit" ;; esac) $(printf '%.12s' "$_c") in $(cat "$work/name.$_si")"
		if [ "$(git patch-id --stable <"$2.theirs" | cut -d' ' -f1)" = "$(cat "$2.pid")" ]; then
			_st=identical _best=$_what; break
		fi
		added_lines <"$2.theirs" >"$2.tadd"
		added_diff "$2.add" "$2.tadd" >"$2.cmpx"
		_cn=$(wc -l <"$2.cmpx")
		if [ -z "$_bn" ] || [ "$_cn" -lt "$_bn" ]; then
			_bn=$_cn _best=$_what
			mv "$2.cmpx" "$2.cmpd"
		fi
	done <"$2.cands"
	if [ "$_st" = identical ]; then : >"$2.cmpd"
	elif [ -z "$_bn" ]; then _st=none
	elif [ "$_bn" -eq 0 ]; then _st=context
	else
		_st=named _miss=
		for _f in $(cut -f2 "$2.cmpd" | LC_ALL=C sort -u); do
			explained "$_f" "$2" || _miss="$_miss ${_f}"
		done
		[ -z "$_miss" ] || { _st=unnamed; printf '%s\n' $_miss >"$2.miss"; }
	fi
	case $_st in
	identical) printf 'identical identical to %s (git patch-id)\n' "$_best" ;;
	context) printf 'context the same added lines as %s; context adapted to %s\n' "$_best" "$BRANCH" ;;
	named) printf 'named %d added line(s) differ from %s, in %s: the backporter note says why\n' "$_bn" "$_best" "$(cut -f2 "$2.cmpd" | LC_ALL=C sort -u | tr '\n' ' ' | sed 's/ $//')" ;;
	unnamed) printf 'unnamed %d added line(s) differ from %s, in %s: no note of the patch explains %s\n' "$_bn" "$_best" \
		"$(cut -f2 "$2.cmpd" | LC_ALL=C sort -u | tr '\n' ' ' | sed 's/ $//')" "$(tr '\n' ' ' <"$2.miss" | sed 's/ $//')" ;;
	none) echo "none no source holds a diff of the change to compare with" ;;
	esac >"$2.cmp"
}

# install_dir DIR DEST: DIR becomes DEST with one rename; the old DEST
# stays until then.
install_dir() {
	rm -rf "$2.new"
	mv "$1" "$2.new"
	rm -rf "$2.old"
	[ ! -e "$2" ] || mv "$2" "$2.old"
	mv "$2.new" "$2"
	rm -rf "$2.old"
}

# signed MAIL: true when the mail's message (before "---") has a
# Signed-off-by line.
signed() { sed '/^---$/q' "$1" | grep -q '^Signed-off-by: '; }

# mails: the cover letter and every patch of the series as a mail in
# $work/mbox/, checked; $unsigned lists the mails with no Signed-off-by.
mails() {
	mkdir "$work/mbox" "$work/p"
	_m=$(echo $patches | wc -w) _n=0 eo=0 eu=0 w=0 unsigned= unnamed=
	printf 'checkpatch: %s\n\n' "$cp_what" >"$work/mbox/checkpatch.txt"
	printf '%s\n\n' "Each patch's code against the commits the git sources hold for its change (git patch-id --stable, then the lines each adds; ours / theirs below):" >"$work/mbox/upstream-compare.txt"
	for p in $patches; do
		_n=$((_n + 1))
		_x=$work/p/$_n _mail=$(printf '%04d-%s' "$_n" "$p")
		parse_patch "$sdir/$p" "$_x"
		make_mail "$_n" "$_m" "$_x" "$work/mbox/$_mail"
		_u=
		signed "$work/mbox/$_mail" || { _u=1; unsigned="$unsigned $_mail"; }
		_c=$(checkpatch_mail "$work/mbox/$_mail" "$_x" "$_u")
		[ "$_c" != mismatch ] || die 1 "checkpatch's totals for $_mail differ from the findings read; see its output format"
		set -- $_c
		eo=$((eo + $1)) eu=$((eu + $2)) w=$((w + $3))
		_src=$(cat "$_x.up.from" 2>/dev/null) || _src="not in the source: the mail says so"
		{
			printf '%s: %d errors (%d on upstream'\''s own lines), %d warnings; upstream text: %s%s\n' \
				"$_mail" $(($1 + $2)) "$2" "$3" "$_src" "${_u:+; no Signed-off-by yet}"
			[ ! -s "$_x.cpr" ] || cat "$_x.cpr"
		} >>"$work/mbox/checkpatch.txt"
		cat "$work/mbox/$_mail" >>"$work/mbox/series.mbox"
		[ "$1" -eq 0 ] || progress "$NAME" mbox "$_mail: $1 checkpatch error(s) of ours"
		compare_code "$sdir/$p" "$_x"
		read -r _st _cw <"$_x.cmp"
		{
			printf '%s: %s\n' "$_mail" "$_cw"
			[ ! -s "$_x.cmpd" ] || sed 's/^/  /' "$_x.cmpd"
		} >>"$work/mbox/upstream-compare.txt"
		[ "$_st" != unnamed ] || { unnamed="$unnamed $_mail"; progress "$NAME" mbox "$_mail: $_cw"; }
	done
	printf '\ntotal: %s\n' "$(cut -d' ' -f1 "$work"/p/*.cmp | LC_ALL=C sort | uniq -c |
		awk '{ printf "%s%d %s", (NR > 1 ? ", " : ""), $1, ($2 == "context" ? "context-adapted" : $2 == "named" ? "differing, each explained in a note" : $2 == "unnamed" ? "differing where no note says why" : $2 == "none" ? "with nothing to compare" : $2) }')" \
		>>"$work/mbox/upstream-compare.txt"
	progress "$NAME" mbox "code against upstream: $(sed -n 's/^total: //p' "$work/mbox/upstream-compare.txt")"
	cover_letter "$_m" "$work/mbox/0000-cover-letter.patch"
	_nu=$(echo $unsigned | wc -w)
	printf '\ntotal: %d mails, %d errors of ours, %d errors on upstream'\''s own lines, %d warnings%s\n' \
		"$_m" "$eo" "$eu" "$w" "$(if [ "$_nu" -gt 0 ]; then printf ', %d without a Signed-off-by (SIGNOFF=1 signs them)' "$_nu"; fi)" \
		>>"$work/mbox/checkpatch.txt"
}

resolve_series
check_patches
need_cmd git perl awk
sign=
bp_name=$KIT_NAME cover_from="$KIT_NAME <$KIT_NAME@invalid>"
if [ "${SIGNOFF:-}" = 1 ]; then
	sign=$(signoff_line)
	bp_name=$(git -C "$KIT_ROOT" config user.name)
	cover_from=$(mail_from "$bp_name" "$(git -C "$KIT_ROOT" config user.email)")
fi
# the proof in the cover letter comes from this OUT's result file: one the
# kit wrote, its gate agreeing with its verdicts (scripts/result-check.sh)
[ ! -e "$OUT/$NAME/result.json" ] ||
	result_refuse "$OUT/$NAME/result.json" result "rerun 'make verify BRANCH=$NAME'" "$OUT/$NAME/mbox left as it was"
out_root
mkdir -p "$OUT/$NAME" || die 1 "cannot create $OUT/$NAME"
work=$(mktemp -d "$OUT/$NAME/.mbox.XXXXXX") || die 1 "cannot create a temp folder in $OUT/$NAME"
trap 'rmtree "$work"' EXIT
for p in $patches; do sed -n 's/^Git-commit: //p' "$sdir/$p" | head -1; done | sort -u >"$work/ids"
prep_checkpatch
open_source
find_upstream
mails
dest=$OUT/$NAME/mbox
if [ $((eo + eu)) -gt 0 ]; then
	install_dir "$work/mbox" "$dest.rejected"
	# Upstream's own style is no excuse: the hunks are ours, and a mail a
	# stable reviewer runs checkpatch on must pass it.
	hint=
	[ "$eu" -eq 0 ] ||
		hint=" (respell upstream's lines in the hand hunk and say so in the change's notes/<branch> file, backports/README.md)"
	die 1 "[$NAME] $eo checkpatch error(s) of ours and $eu on upstream's own lines in the mails$hint (listed in $dest.rejected/checkpatch.txt); ${dest#"$OUT"/} is unchanged"
fi
if [ -n "$unnamed" ]; then
	install_dir "$work/mbox" "$dest.rejected"
	# Upstream's code unless we must differ, and then the mail says why.
	die 1 "[$NAME] $(echo $unnamed | wc -w) mail(s) add code upstream's commits do not, in a file no note explains:$unnamed (listed in $dest.rejected/upstream-compare.txt): use upstream's lines, or say why in the change's notes/$NAME and run 'make series BRANCH=$NAME'; ${dest#"$OUT"/} is unchanged"
fi
rm -rf "$dest.rejected"
install_dir "$work/mbox" "$dest"
_m=$(echo $patches | wc -w)
progress "$NAME" mbox "$_m mails and a cover letter in $dest: no checkpatch error, $w warning(s)"
# Which mails still need a sign-off, one line each: the unsigned ones are
# written (the run made what it was asked for) but are not to be sent so.
for _mail in $unsigned; do
	progress "$NAME" mbox "$_mail needs a sign-off: it has no Signed-off-by at all (the source lacks upstream's text); SIGNOFF=1 signs it as you"
done
if [ -z "$sign" ]; then
	_ns=$((_m - $(echo $unsigned | wc -w)))
	[ "$_ns" -eq 0 ] ||
		progress "$NAME" mbox "$_ns mail(s) carry upstream's sign-off chain but not yours; SIGNOFF=1 adds your Signed-off-by before you send them"
fi
