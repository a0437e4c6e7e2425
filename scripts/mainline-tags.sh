#!/bin/sh
# mainline-tags.sh: each change's `Mainline:` tag (its INFO), read where a
# git source holds mainline's tags instead of reasoned from dates.  For
# every change, the oldest mainline tag (vX.Y[.Z][-rcN], never a stable
# vX.Y.Z.N) that contains its upstream commit, in KERNEL_GIT and each
# local STABLE_GIT source (`git for-each-ref --contains`, oldest first),
# one line per change on stdout:
#
#   <letter> <TAB> <Mainline:> <TAB> <state> <TAB> <what>
#
#   confirmed    a source's first tag holding the commit is Mainline:
#   wrong        it is another tag: INFO is to be corrected (exit 1)
#   unconfirmed  no source holds the commit under a mainline tag: the
#                INFO's Mainline-checked: line, which must then begin
#                with "unconfirmed" (a line that claims more is wrong)
#
# Read at run time, never written back: the INFO is what a reviewer
# committed; this says whether the user's sources bear it out.  ship.sh
# (What to ship, Open items) reads it.
. "$(dirname "$0")/lib.sh"
need_cmd git awk

# the git directories of the sources, one a line (URLs are not searched)
srcs=$(
	{ printf '%s\n' "$KERNEL_GIT"; . "$KIT_ROOT/scripts/stable-src.sh"; stable_words; } |
	while IFS= read -r _s; do
		case $_s in '' | *://* | *@*:*) continue ;; esac
		_g=$(git -C "$_s" rev-parse --absolute-git-dir 2>/dev/null) && printf '%s\n' "$_g"
	done
)

# first_tag GITDIR COMMIT: the oldest mainline tag containing COMMIT.
first_tag() {
	git --git-dir="$1" cat-file -e "$2^{commit}" 2>/dev/null || return 0
	git --git-dir="$1" for-each-ref --contains "$2" --sort=creatordate --format='%(refname:short)' refs/tags 2>/dev/null |
		grep -E '^v(2\.6\.[0-9]+|[3-9]\.[0-9]+)(-rc[0-9]+)?$' | head -1
}

# source_name GITDIR: how outputs name a source (its folder, never this
# machine's path).
source_name() {
	case ${1%/.git} in */repo) _p=${1%/.git}; _p=${_p%/repo}; echo "${_p##*/}" ;; *) _p=${1%/.git}; echo "${_p##*/}" ;; esac
}

rc=0
for c in $(kit_changes); do
	d=$(change_dir "$c") || exit 1
	l=$(header_field "$d/INFO" Letter | head -1)
	m=$(header_field "$d/INFO" Mainline | head -1)
	id=$(header_field "$d/INFO" Upstream | head -1)
	chk=$(header_field "$d/INFO" Mainline-checked | head -1)
	state=unconfirmed what=$chk
	# one source a line: a path may hold blanks
	_oifs=$IFS; IFS='
'
	set -f; set -- $srcs; set +f
	IFS=$_oifs
	for g; do
		t=$(first_tag "$g" "$id")
		[ -n "$t" ] || continue
		if [ "$t" = "$m" ]; then
			state=confirmed what="git for-each-ref --contains: $(printf %.12s "$id") is first in $t, in $(source_name "$g")"
		else
			state=wrong what="INFO says $m, but $(printf %.12s "$id") is first in $t, in $(source_name "$g"): correct Mainline: in $d/INFO"
			rc=1
		fi
		break
	done
	if [ "$state" = unconfirmed ]; then
		case $chk in
		unconfirmed*) ;;
		*) state=wrong rc=1
		   what="no source here holds the tag, but $d/INFO's Mainline-checked: does not begin with 'unconfirmed': '$(printf '%.60s' "$chk")'" ;;
		esac
	fi
	printf '%s\t%s\t%s\t%s\n' "$l" "$m" "$state" "$what"
done
exit $rc
