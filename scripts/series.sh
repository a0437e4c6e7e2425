#!/bin/sh
# series.sh [BRANCH]: regenerate backports/<BRANCH>/ (quilt series + one
# patch per upstream change) from the change definitions of every fix in
# backports/fixes/<fix>/changes/ (INFO, hand hunks per branch) and the
# Coccinelle rules their INFO names, against the branch's pinned tree.
#
# For each change, in series order (kit_changes: lib.sh), on a scratch copy
# of the tree with the earlier changes already in:
#   1. the branch's hand hunks  <change folder>/hunks/<branch>.diff
#      are applied with no fuzz (a hunk that does not apply is an error;
#      for TREE= it is merged three ways against the pinned release,
#      merge3.sh, and the patch says so);
#   2. each rule the INFO names runs through cocci/apply.sh, which fails
#      when a function it must change did not parse or a site was missed;
#   3. the difference becomes the patch: INFO's upstream facts, our
#      explanation, a line saying how each file was made, the diff.
# Output is written to a temp folder and renamed over backports/<branch>/
# only when every change is made, so a failed run loses nothing.
#
#   SERIES_OUT=<dir>   write there instead (make check compares it with
#                      the committed series)
#   TREE=<dir>         (make series TREE=) a series for a tree you have,
#                      as `make build/verify TREE=` make it: the branch is
#                      the tree's (detect.sh), the changes it already
#                      carries are left out, and the series is written to
#                      $OUT/<NAME>/tree-series/, never to backports/.
#                      Exit 4: the tree carries every change.
set -eu
. "$(dirname "$0")/lib.sh"
# every folder of backports/fixes/ is a fix with its FIX, or nothing runs
# (lib.sh kit_fixes: called here, not in $(...), so that its refusal stops us)
kit_fixes >/dev/null
BRANCH=${1:-${BRANCH:-}}
# NAME only names a TREE='s series folder: checked only then
check_inputs BRANCH ${TREE:+NAME}
tree_mode=
if [ -n "${TREE:-}" ] && [ -z "${SERIES_TREE:-}" ]; then
	tree_mode=1
	# The same branch and NAME rules as build.sh, checked before anything
	# is read from the tree or written.
	det=$(sh "$KIT_ROOT/scripts/detect.sh" "$TREE" ${BRANCH:+"$BRANCH"}) || exit $?
	[ -z "$BRANCH" ] || [ "$BRANCH" = "$det" ] ||
		die 2 "TREE=$TREE is $det, but BRANCH=$BRANCH was given; drop BRANCH= or use a $BRANCH tree"
	BRANCH=$det
	tree_run_name "$TREE"; NAME=$_trn
	check_name NAME "$NAME"
	SERIES_TREE=$TREE SERIES_OUT=$OUT/$NAME/tree-series
fi
load_branch "$BRANCH"
need_cmd git patch spatch
all_changes=$(kit_changes)
[ -n "$all_changes" ] || die 2 "no change in $(kit_fixes_dir)/*/changes/; a fix folder needs at least one"
if [ -n "${SERIES_TREE:-}" ]; then
	# A tree the kit was not tuned for (TREE=): the same hunks and rules,
	# against that tree; read only, like every source.
	[ -d "$SERIES_TREE" ] || die 2 "SERIES_TREE=$SERIES_TREE is not a folder"
	src=$(cd "$SERIES_TREE" && pwd)
	[ -n "${SERIES_OUT:-}" ] || die 2 "SERIES_TREE needs SERIES_OUT: a series for another tree never replaces backports/$BRANCH"
else
	src=   # the branch's export: linked below by fetch.sh --farm
fi

dest=${SERIES_OUT:-$KIT_ROOT/backports/$BRANCH}
work=$(mktemp -d "${TMPDIR:-/tmp}/series.$BRANCH.XXXXXX")
trap 'rmtree "$work"' EXIT

# A tree of its own: the changes it already carries are not made again;
# one that carries them all needs no series, and one whose changes break
# the ordering rule is refused as build.sh refuses it (plan-series.sh).
present= na=
if [ -n "${SERIES_TREE:-}" ]; then
	state=$(sh "$KIT_ROOT/scripts/fix-state.sh" "$src") || exit $?
	present=$(printf '%s\n' "$state" | awk '$3 == "present" { print $1 }')
	# n/a: the code it changes is not there, or (ARCHES=) is another
	# architecture's only: nothing to make, nothing to ship
	na=$(printf '%s\n' "$state" | awk '$3 == "n/a" { print $1 }')
	printf '%s\n' "$state" | awk '$3 == "missing" { m = 1 } END { exit !m }' ||
		die 4 "[$BRANCH] already fixed: $SERIES_TREE carries every change; no series to make"
	[ -z "$tree_mode" ] || sh "$KIT_ROOT/scripts/plan-series.sh" "$BRANCH" "$src" "$work/plan" >/dev/null || exit $?
fi
if [ -n "$src" ]; then
	# the export's farm with the tree's own files copied in (fetch.sh
	# --tree-farm: the tree is only read)
	progress "$BRANCH" series "scratch tree of $(basename "$src"): $BRANCH's files linked, the tree's own copied"
	sh "$KIT_ROOT/scripts/fetch.sh" --tree-farm "$BRANCH" "$src" "$work/tree" >/dev/null || exit $?
else
	# a checked tree of the export, made under its lock: a repair running
	# meanwhile cannot hand us half a tree.  Hard links (fetch.sh --farm):
	# every writer below replaces a file (patch, merge3.sh), never writes
	# into one.
	progress "$BRANCH" series "scratch tree of $BR_COMMIT (hard links)"
	sh "$KIT_ROOT/scripts/fetch.sh" --farm "$BRANCH" "$work/tree" >/dev/null || exit $?
fi
# the source repository, for the pinned commit's objects (a tree of its own
# shares most of them; for one, nothing is fetched: only where the
# branch's export is in the cache, and so its commit where it came from)
gd=
if [ "$BR_SOURCE" = git ] && { [ -z "$src" ] || [ -d "$KIT_CACHE/src/$BR_COMMIT" ]; }; then
	gd=$(sh "$KIT_ROOT/scripts/fetch.sh" --git-dir "$BRANCH" 2>/dev/null) || gd=
fi
# gc.auto=0: a kernel tree is ~25k loose objects, past git's auto-gc limit;
# a detached background gc would still be writing .git/objects when the
# EXIT trap removes the scratch copy (seen in CI: rm failed, series.sh exit 1).
# core.trustctime=false: a farm's files are the link source's inodes, and
# each hard link made to one moves its ctime (git's index of an earlier
# farm then still holds every other stat field of the file).
g() { git -C "$work/tree" -c user.name=kit -c user.email=kit@localhost -c core.autocrlf=false -c gc.auto=0 -c maintenance.auto=false -c core.trustctime=false "$@"; }
g init -q
if [ -n "$gd" ]; then
	# The pinned commit's objects read from the source repository
	# (alternates: read, never written) and its tree read into the index:
	# "git add" then hashes every file but writes into .git only what the
	# commit lacks (nothing, for the branch's own tree), rather than every
	# file as a new object (most of a branch's time)
	printf '%s\n' "$gd/objects" >"$work/tree/.git/objects/info/alternates"
	# The stat data of an earlier farm's index (fetch.sh's link source
	# shares its inodes with every farm): read-tree -m takes each id from
	# the commit and keeps the stat data of an entry with that id, so the
	# refresh below hashes only what no earlier farm had (a tree's own
	# files), not every file.  One that git cannot read is left out.  The
	# check below then trusts stat data as the farm's own check did just
	# before (fetch.sh's link index; a write that keeps size and mtime is
	# for "fetch.sh --verify", which removes the link source and this
	# index with it).
	gix=$KIT_CACHE/src/.links-gitindex.$BR_COMMIT
	{ [ -r "$gix" ] && cp "$gix" "$work/tree/.git/index" && g read-tree -m "$BR_COMMIT" 2>/dev/null; } || {
		rm -f "$work/tree/.git/index"
		g read-tree "$BR_COMMIT" || die 1 "git read-tree $BR_COMMIT failed in the scratch tree ($gd)"
	}
	# stat data first: a file the commit has is then not added again
	# (git add would "freshen" that object's file in the source
	# repository, a write there)
	g update-index -q --refresh >/dev/null || :
	g add -A -f
	if [ -z "$src" ]; then
		g diff-index --cached --quiet "$BR_COMMIT" ||
			die 1 "the scratch tree of $BRANCH is not its pinned commit $BR_COMMIT; run 'fetch.sh --verify $BRANCH'"
		# for the next run: kept where the link source is (written aside,
		# renamed into place; a cache this user cannot write goes without)
		[ -r "$gix" ] || { cp "$work/tree/.git/index" "$gix.$$" 2>/dev/null && mv -f "$gix.$$" "$gix"; } 2>/dev/null ||
			rm -f "$gix.$$" 2>/dev/null || :
	fi
else
	g add -A -f
fi
g commit -q --allow-empty -m base
mkdir "$work/out"

info() { header_field "$2" "$1" | head -1; }

# where_failed DIFF: "file, function (hunk N)" for each hunk of DIFF that
# does not apply to the scratch tree, read from the hunk headers.
where_failed() {
	awk '/^\+\+\+ / { f = $2; sub(/^[^\/]*\//, "", f); n = 0 }
	     /^@@ / { n++; fn = $0; sub(/^@@[^@]*@@ ?/, "", fn); print f "\t" n "\t" fn }' "$1" |
	while IFS='	' read -r f n fn; do
		# apply that one hunk alone, dry run
		awk -v f="$f" -v n="$n" '
			/^diff / { on = 0; next }
			/^--- / { on = 0; next }
			/^\+\+\+ / { cur = $2; sub(/^[^\/]*\//, "", cur); k = 0; on = 0; next }
			/^@@ / { k++; on = (cur == f && k == n); if (on) printf "--- a/%s\n+++ b/%s\n", f, f }
			on { print }' "$1" >"$work/one.diff"
		patch -d "$work/tree" -p1 -F0 --dry-run -s <"$work/one.diff" >/dev/null 2>&1 ||
			printf '%s, %s (hunk %s); ' "$f" "${fn:-top of file}" "$n"
	done
}
# base_upto CHANGE: $work/base is the branch's pinned release with every
# change before CHANGE in series order, as the committed series makes
# them: the base a TREE='s three-way merges are made against.  Made on
# first need (a farm of the export: the branch's source must be reachable;
# patch replaces the files it changes).
base_applied=
base_upto() {
	if [ ! -d "$work/base" ]; then
		progress "$BRANCH" series "three-way merge base: $BRANCH's pinned release ($BR_COMMIT), linked"
		sh "$KIT_ROOT/scripts/fetch.sh" --farm "$BRANCH" "$work/base" >/dev/null ||
			die 1 "a three-way merge needs $BRANCH's pinned release as its base, and no tree of it could be made (see above); set KERNEL_GIT"
	fi
	for _c in $all_changes; do
		[ "$_c" != "$1" ] || break
		case " $base_applied " in *" $_c "*) continue ;; esac
		base_applied="$base_applied $_c"
		_p=$(slug "$(info Subject "$(change_dir "$_c")/INFO")").patch
		# a change that is not for this branch has no patch in its series
		grep -qxF "$_p" "$KIT_ROOT/backports/$BRANCH/series" 2>/dev/null || continue
		patch -d "$work/base" -p1 -F0 -s --no-backup-if-mismatch <"$KIT_ROOT/backports/$BRANCH/$_p" >/dev/null 2>&1 ||
			die 1 "backports/$BRANCH/$_p does not apply to $BRANCH's pinned release; run 'make series BRANCH=$BRANCH'"
	done
}
slug() { printf '%s' "$1" | tr 'A-Z' 'a-z' | sed "s/[^a-z0-9_]\{1,\}/-/g; s/^-//; s/-\$//"; }

n=0
for c in $all_changes; do
	d=$(change_dir "$c")
	rel=${d#"$KIT_ROOT"/}
	if printf '%s\n' $present | grep -qx "$c"; then
		progress "$BRANCH" series "$c: already in the tree, not made"
		continue
	fi
	if printf '%s\n' $na | grep -qx "$c"; then
		progress "$BRANCH" series "$c: n/a in the tree ($(printf '%s\n' "$state" | awk -v c="$c" '$1 == c { $1 = $2 = $3 = ""; sub(/^ +/, ""); print }')), not made"
		continue
	fi
	[ -r "$d/INFO" ] || die 2 "$rel/INFO is missing"
	branches=$(info Branches "$d/INFO")
	case " ${branches:-all} " in *" all "* | *" $BRANCH "*) ;; *)
		progress "$BRANCH" series "$c: not for this branch (Branches: $branches)"; continue ;;
	esac
	n=$((n + 1))
	made=
	if [ -e "$d/hunks/$BRANCH.diff" ]; then
		: >"$work/merged"
		# dry run first: on failure the tree is untouched and each hunk
		# can be tried alone to name the file and function that differ
		if patch -d "$work/tree" -p1 -F0 -N --dry-run -s <"$d/hunks/$BRANCH.diff" >"$work/patch.log" 2>&1; then
			patch -d "$work/tree" -p1 -F0 -N --no-backup-if-mismatch -s <"$d/hunks/$BRANCH.diff" >"$work/patch.log" 2>&1 ||
				die 1 "$c: hand hunks $rel/hunks/$BRANCH.diff applied in a dry run but not for real"
		elif [ -n "${SERIES_TREE:-}" ]; then
			# A tree of its own (a later stable release, a vendor's):
			# merged three ways against the pinned release (merge3.sh)
			misfit=$(where_failed "$d/hunks/$BRANCH.diff")
			progress "$BRANCH" series "$c: hand hunks do not apply exactly (${misfit%; }); merging three ways against $BRANCH's pinned release"
			base_upto "$c"
			sh "$KIT_ROOT/scripts/merge3.sh" "$d/hunks/$BRANCH.diff" "$work/tree" "$work/base" >"$work/merged" 2>"$work/merge.err" || {
				sed '$d' "$work/merge.err" >&2
				die 1 "$c: hand hunks $rel/hunks/$BRANCH.diff do not apply and do not merge three ways: $(tail -1 "$work/merge.err" | sed 's/^[^:]*: error: //')"
			}
		else
			die 1 "$c: hand hunks $rel/hunks/$BRANCH.diff do not apply: $(where_failed "$d/hunks/$BRANCH.diff")"
		fi
		for f in $(sed -n 's|^+++ [^/]*/\([^	 ]*\).*|\1|p' "$d/hunks/$BRANCH.diff"); do
			how=$(awk -F'\t' -v f="$f" '$1 == f { print $2 }' "$work/merged")
			made="$made
  $f: hand hunk ($rel/hunks/$BRANCH.diff)${how:+, $how (git merge-file; base: $f of $BRANCH at ${BR_COMMIT%"${BR_COMMIT#????????????}"} with the earlier changes)}"
			[ -z "$how" ] || progress "$BRANCH" series "$c: $f $how"
		done
	fi
	for r in $(info Rules "$d/INFO"); do
		[ -r "$KIT_ROOT/$r" ] || die 2 "$c: INFO names rule $r, which does not exist"
		sh "$KIT_ROOT/cocci/apply.sh" "$KIT_ROOT/$r" "$work/tree" >"$work/rule.diff" 2>"$work/rule.log" ||
			die 1 "$c: $r failed on $BRANCH: $(grep -v '^spatch' "$work/rule.log" | tail -1)"
		if [ -s "$work/rule.diff" ]; then
			patch -d "$work/tree" -p1 -F0 -s <"$work/rule.diff" ||
				die 1 "$c: the diff $r produced does not apply"
			for f in $(sed -n 's|^+++ [^/]*/\([^	 ]*\).*|\1|p' "$work/rule.diff"); do
				made="$made
  $f: Coccinelle rule $r"
			done
		fi
	done
	g add -A -f
	if g diff --cached --quiet; then
		die 1 "$c made no change on $BRANCH; a change that does nothing is a bug in its hunks or rules"
	fi
	subject=$(info Subject "$d/INFO")
	file=$(slug "$subject").patch
	{
		printf 'From: %s\n' "$(info From "$d/INFO")"
		printf 'Subject: %s\n' "$subject"
		printf 'Git-commit: %s\n' "$(info Upstream "$d/INFO")"
		printf 'Patch-mainline: %s\n' "$(info Mainline "$d/INFO")"
		printf 'References: %s\n' "$(info References "$d/INFO")"
		echo
		printf 'commit %s upstream.\n' "$(info Upstream "$d/INFO")"
		echo
		sed '1,/^$/d' "$d/INFO"
		if [ -r "$d/notes/$BRANCH" ]; then echo; cat "$d/notes/$BRANCH"; fi
		echo
		printf '[ %s: made by the kit (make series):%s ]\n' "$BRANCH" "$(printf '%s' "$made" | LC_ALL=C sort -u)"
		echo
		echo '---'
		g diff --cached --stat=72 | sed 's/^/ /' | sed 's/^  */ /'
		echo
		g diff --cached --no-color --no-ext-diff --no-renames --full-index
	} >"$work/out/$file"
	echo "$file" >>"$work/out/series"
	g commit -q -m "$c"
	progress "$BRANCH" series "$c -> $file"
done
[ -s "$work/out/series" ] || die 1 "no change applies to $BRANCH"
sh "$KIT_ROOT/scripts/series-order.sh" "$work/out/series" ||
	die 1 "the generated series for $BRANCH breaks the ordering rule"

# Rename into place (or into SERIES_OUT).
out_root_for "$dest"
mkdir -p "$(dirname "$dest")"
rm -rf "$dest.new"
mv "$work/out" "$dest.new"
rm -rf "$dest.old"
[ ! -e "$dest" ] || mv "$dest" "$dest.old"
mv "$dest.new" "$dest"
rm -rf "$dest.old"
progress "$BRANCH" series "$(wc -l <"$dest/series") patches in ${dest#"$KIT_ROOT"/}"
