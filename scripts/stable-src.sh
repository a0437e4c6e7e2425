# stable-src.sh: sourced by mbox.sh and records.sh (after lib.sh).  The
# further git sources of upstream's text that STABLE_GIT names (stable
# trees, distribution kernels): which commits in them carry an upstream
# change, and the first stable release each is in.  Everything is read at
# run time from the user's repositories; nothing of it is kept here.
#
# STABLE_GIT is data: its words (blanks between them) are paths or URLs,
# never globbed, never evaluated.

# stable_words: the STABLE_GIT words, one a line (no globbing).
stable_words() {
	set -f
	# shellcheck disable=SC2086
	[ -z "${STABLE_GIT:-}" ] || printf '%s\n' $STABLE_GIT
	set +f
}

# check_stable_git: every word is a path to a git repository or a URL;
# anything else stops the run in one line (exit 2).
check_stable_git() {
	_sw=$(stable_words)
	[ -n "$_sw" ] || return 0
	printf '%s\n' "$_sw" | while IFS= read -r _s; do
		case $_s in -*)
			die 2 "STABLE_GIT word '$_s' begins with '-', which git would take as an option; give paths (./...) or URLs, space-separated" ;;
		esac
		case $_s in
		*://* | *@*:*) ;;
		*)
			[ -d "$_s" ] || die 2 "STABLE_GIT word '$_s' is not a folder; give git repositories (paths or URLs), space-separated"
			git -C "$_s" rev-parse --absolute-git-dir >/dev/null 2>&1 ||
				die 2 "STABLE_GIT word '$_s' is not a git repository; give git repositories (paths or URLs), space-separated"
			;;
		esac
	done || exit $?
}

# stable_names_re ID: the line a stable commit carries for the upstream
# commit it is ("commit <id> upstream.", "[ Upstream commit <id> ]",
# "upstream commit <id>"), as an ERE.
stable_names_re() {
	printf '%s' "^(commit $1 upstream\\.?|\\[ ?[Uu]pstream commit $1 ?\\]|[Uu]pstream commit $1\\.?)[[:space:]]*\$"
}

# first_release GITDIR COMMIT: the first stable release that contains
# COMMIT, as "<version> <how>": the oldest tag containing it (tag), else
# the oldest "Linux <version>" release commit that has it as an ancestor
# (release-commit; a history fetched without its tags still has those).
# Nothing printed when none does.  The release list is kept per source in
# the caller's scratch folder $work.
# shellcheck disable=SC2154
first_release() {
	_t=$(git --git-dir="$1" tag --contains "$2" 2>/dev/null | grep -E '^v[0-9]+(\.[0-9]+)+$' | sort -V | head -1) || :
	if [ -n "$_t" ]; then printf '%s tag\n' "$_t"; return 0; fi
	_rl=$work/releases.$(printf '%s' "$1" | cksum | cut -d' ' -f1)
	[ -e "$_rl" ] ||
		git --git-dir="$1" log --all -E --grep='^Linux [0-9]+(\.[0-9]+)+$' --format='%H %ct %s' 2>/dev/null |
		awk 'NF == 4 && $3 == "Linux" && $4 ~ /^[0-9]+(\.[0-9]+)+$/ { print "v" $4, $1, $2 }' | sort -V -k1,1 >"$_rl"
	# a release committed before the commit cannot contain it: not asked
	# (each such question walks the history down to it)
	_ct=$(git --git-dir="$1" show -s --format=%ct "$2" 2>/dev/null) || return 0
	while read -r _v _h _rt; do
		[ "$_rt" -ge "$_ct" ] || continue
		if git --git-dir="$1" merge-base --is-ancestor "$2" "$_h" 2>/dev/null; then
			printf '%s release-commit\n' "$_v"; return 0
		fi
	done <"$_rl"
}

# stable_commits ID: each commit of a local STABLE_GIT source whose
# message names ID in the stable form, oldest first per source, as
# "<commit> <first release or -> <how or -> <source>" lines.  A URL
# source cannot be searched and is skipped.
#
# STABLE_IDS (the ids a run will ask for, blank-separated): the first call
# searches each source for all of them in one walk of its history, kept
# in $work (the caller's scratch folder), each candidate commit with its
# message; a call for one of them takes its candidates from there (an id
# not named there is searched for alone).
stable_commits() {
	stable_words | while IFS= read -r _s; do
		case $_s in *://* | *@*:*) continue ;; esac
		_g=$(git -C "$_s" rev-parse --absolute-git-dir) || continue
		case " ${STABLE_IDS:-} " in
		*" $1 "*)
			_sc=$work/stable-scan.$(printf '%s' "$_g" | cksum | cut -d' ' -f1)
			if [ ! -e "$_sc" ]; then
				# (each id a --grep: git log keeps a commit matching any)
				set -f
				# shellcheck disable=SC2046
				git --git-dir="$_g" log --all -F $(printf -- '--grep=%s ' $STABLE_IDS) --reverse --format=%H 2>/dev/null >"$_sc.c" || :
				set +f
				while read -r _c; do
					git --git-dir="$_g" show -s --format=%B "$_c" | sed "s/^/$_c /"
				done <"$_sc.c" >"$_sc.m"
				mv -f "$_sc.m" "$_sc"
			fi
			# (a line: the commit, a blank, a line of its message)
			awk -v id="$1" 'index(substr($0, 42), id) && !seen[$1]++ { print $1 }' "$_sc" ;;
		*) git --git-dir="$_g" log --all -F --grep="$1" --reverse --format=%H 2>/dev/null ;;
		esac |
		while read -r _c; do
			git --git-dir="$_g" show -s --format=%B "$_c" | grep -Eq "$(stable_names_re "$1")" || continue
			_r=$(first_release "$_g" "$_c")
			printf '%s %s %s\n' "$_c" "${_r:-- -}" "$_s"
		done
	done
}
