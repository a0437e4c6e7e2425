#!/bin/sh
# merge3.sh DIFF TREE BASE: apply the hand hunks DIFF to TREE (a scratch
# copy of a tree the kit was not tuned for, TREE=) by three-way merge,
# the way a maintainer rebases a patch onto a later stable release.
#
#   base    BASE/<file>: the pinned release's file for the tree's branch,
#           with the series' earlier changes (what DIFF was written against)
#   ours    TREE/<file>: the tree's file
#   theirs  the base with DIFF's hunks for that file
#
# A file whose hunks apply exactly (patch -F0) is patched as it is; only the
# others are merged, with `git merge-file --diff3`.  A merge is taken when
# it is clean, or when its only conflicts are lines that both sides added
# at one place and neither removed anything there (a stable release adds
# declarations at the end of a header, where the hunk adds its own): both
# are kept, the tree's first, as a maintainer would.  Any other conflict
# stops with the file, the function and both sides, and TREE is left as it
# was: every file is made in a temp folder and written only when all are.
#
# Prints one line per merged file, "<file>\t<how>", for the patch's header.
# Exit 0 done, 1 a conflict (or DIFF fits neither TREE nor BASE), 2 bad input.
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -eq 3 ] || die 2 "usage: merge3.sh DIFF TREE BASE"
diff=$1 tree=$2 base=$3
[ -r "$diff" ] && [ -d "$tree" ] && [ -d "$base" ] || die 2 "merge3.sh: DIFF must be readable and TREE, BASE folders"
need_cmd git patch awk
tmp=$(mktemp -d "${TMPDIR:-/tmp}/merge3.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# a marker no C source line starts with
m=31

# the files DIFF changes, in order
files=$(sed -n 's|^+++ [^/]*/\([^	 ]*\).*|\1|p' "$diff")
[ -n "$files" ] || die 2 "merge3.sh: $diff changes no file"
# a hunk that makes or removes a whole file has nothing to merge
! grep -q '^[-+][-+][-+] /dev/null' "$diff" ||
	die 1 "$diff makes or removes a file; it applies exactly or not at all"
i=0
for f in $files; do
	i=$((i + 1))
	# DIFF's hunks for this one file
	awk -v f="$f" '
		/^diff / { on = 0; next }
		/^--- / { hold = $0; on = 0; next }
		/^\+\+\+ / { cur = $2; sub(/^[^\/]*\//, "", cur); on = (cur == f); if (on) print hold; }
		on { print }' "$diff" >"$tmp/$i.diff"
	if [ -e "$tree/$f" ] && patch -F0 -s --dry-run "$tree/$f" <"$tmp/$i.diff" >/dev/null 2>&1; then
		patch -F0 -s -o "$tmp/$i.out" "$tree/$f" <"$tmp/$i.diff" >/dev/null
		printf '%s\t%s\n' "$f" exact >>"$tmp/how"
		continue
	fi
	[ -e "$tree/$f" ] || die 1 "$f: the hunks change it, but the tree has no such file; nothing to merge into"
	[ -e "$base/$f" ] || die 1 "$f: the pinned release has no such file either; the hunks are not for this branch"
	patch -F0 -s -o "$tmp/$i.theirs" "$base/$f" <"$tmp/$i.diff" >/dev/null 2>&1 ||
		die 1 "$f: the hunks do not apply to the pinned release either; run 'make series' for the branch and check its hunks"
	set +e
	git merge-file --diff3 --marker-size=$m -p -L tree -L base -L change \
		"$tree/$f" "$base/$f" "$tmp/$i.theirs" >"$tmp/$i.merged" 2>"$tmp/$i.err"
	rc=$?
	set -e
	[ $rc -ge 0 ] && [ $rc -lt 128 ] || die 1 "$f: git merge-file failed: $(head -1 "$tmp/$i.err")"
	if [ $rc -eq 0 ]; then
		cp "$tmp/$i.merged" "$tmp/$i.out"
		printf '%s\t%s\n' "$f" "merged three ways, clean" >>"$tmp/how"
		continue
	fi
	# Conflicts: resolve those where the base side is empty (both only
	# added lines at one place); report the first other one.
	awk -v m=$m -v out="$tmp/$i.out" -v bad="$tmp/$i.conflict" '
		function mark(c) { s = ""; for (k = 0; k < m; k++) s = s c; return s }
		BEGIN { o = mark("<"); b = mark("|"); e = mark("="); c = mark(">"); st = 0; fn = "top of file" }
		st == 0 && index($0, o) == 1 { st = 1; ours = ""; bs = ""; th = ""; at = fn; next }
		st == 1 && index($0, b) == 1 { st = 2; next }
		st == 2 && index($0, e) == 1 { st = 3; next }
		st == 3 && index($0, c) == 1 {
			st = 0
			if (bs == "") { printf "%s%s", ours, th > out; stacked++; next }
			if (!nbad++) printf "%s\n--- the tree has:\n%s--- the pinned release had:\n%s--- the change makes it:\n%s", at, ours, bs, th > bad
			next
		}
		st == 1 { ours = ours $0 "\n"; next }
		st == 2 { bs = bs $0 "\n"; next }
		st == 3 { th = th $0 "\n"; next }
		{ print > out; if ($0 ~ /^[A-Za-z_].*\(/ && $0 !~ /;[ \t]*$/) fn = $0 }
		END { if (nbad) exit 1; print stacked + 0 > (out ".stacked") }' "$tmp/$i.merged" || {
		at=$(head -1 "$tmp/$i.conflict")
		sed 1d "$tmp/$i.conflict" | sed 's/^/  /' >&2
		die 1 "$f, $at: the tree changed lines the hunk changes (both sides above); nothing was written"
	}
	printf '%s\t%s\n' "$f" "merged three ways; the tree and the change both add lines at $(cat "$tmp/$i.out.stacked") place(s), kept both, the tree's first" >>"$tmp/how"
done
# every file made: now write them
i=0
for f in $files; do
	i=$((i + 1))
	# replaced, never written into (the tree may share its files: a farm),
	# its mode kept but writable (a farm's shared files are read-only)
	[ ! -L "$tree/$f" ] || die 1 "merge3.sh: $tree/$f is a symbolic link; merge into the file it names"
	cat "$tmp/$i.out" >"$tree/$f.merge3.$$" && chmod --reference="$tree/$f" "$tree/$f.merge3.$$" &&
		chmod u+w "$tree/$f.merge3.$$" && mv -f "$tree/$f.merge3.$$" "$tree/$f" ||
		{ rm -f "$tree/$f.merge3.$$"; die 1 "merge3.sh: cannot write $tree/$f"; }
done
grep -v '	exact$' "$tmp/how" || :
