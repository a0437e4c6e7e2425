#!/bin/sh
# new-fix.sh: draft a new fix folder, backports/fixes/<CVE>/, from the
# upstream commits of the fix as the user's kernel source carries them.
#
#   CVE=<CVE-YYYY-NNNN> UPSTREAM="<id> ..." [FROM_SOURCE="<commit> ..."] \
#       [OUT_FIXES=<dir>] sh scripts/new-fix.sh        (make new-fix)
#
# Each upstream id is looked up in KERNEL_GIT (read only), in this order:
#   1. the id itself is a commit there;
#   2. a commit whose message names the id as the one it carries
#      ("commit <id> upstream.", "(cherry picked from commit <id>)"), the
#      oldest; failing that, one that names the id elsewhere (not as a
#      revert or a Fixes: line), the oldest;
#   3. the commits whose message names the CVE, when there are as many of
#      them (one per subject and author: a pick carried on several
#      branches counts once, mbox.sh's idea) as ids given: paired in
#      author-date order.  Else it stops and lists them: FROM_SOURCE=
#      names the source commits, one per upstream id, in the same order.
# stderr says which way each was found.
#
# What it drafts (all marked as drafts, nothing of upstream's changelog
# text copied): FIX (Title: the subject, marked to rewrite; Upstream:,
# Introduced-by: before-git, Arches: from the paths, Credit: from the
# author and Reported-by:), one change folder per id with the next free
# letters (INFO, a DETECT skeleton checked against the releases, a hunk
# per 2.6 branch where the source's diff applies to that branch's
# release), guest/ and cross/ skeletons, record.json with TODO values.
# No Guest: line: the guest does not build the skeleton until the test is
# written.  A hunk is made against the release with the committed series'
# earlier patches that touch the same files applied (what series.sh
# applies it to), by patch -F3 on a copy of those files; its diff is what
# the copy became, so it applies without fuzz.  A branch where the diff
# does not apply gets no hunk; the end of the run lists it, with the
# files, among what is left to do by hand.
#
# Everything is made in a hidden folder beside the new one and installed
# with one rename; a failure leaves nothing.  The exports and the source
# are only read; nothing read from the source is run.
#
# Exit: 0 drafted; 1 a step failed; 2 bad input (a CVE id of another form,
# a folder that exists, no or bad UPSTREAM ids, no local KERNEL_GIT, an
# id the source does not have under any of the three ways).
set -eu
. "$(dirname "$0")/lib.sh"
# every folder of backports/fixes/ is a fix with its FIX, or nothing runs
# (lib.sh kit_fixes: called here, not in $(...), so that its refusal stops us)
kit_fixes >/dev/null
LC_ALL=C
export LC_ALL

CVE=${CVE:-}
UPSTREAM=${UPSTREAM:-}
FROM_SOURCE=${FROM_SOURCE:-}
OUT_FIXES=${OUT_FIXES:-$KIT_ROOT/backports/fixes}

# --- input -------------------------------------------------------------------

printf '%s\n' "$CVE" | grep -Eqx 'CVE-[0-9]{4}-[0-9]{4,}' ||
	die 2 "CVE='$(printf '%.40s' "$CVE" | tr -d '\000-\037')' is not a CVE id; set CVE=CVE-YYYY-NNNN"
[ -n "$(printf '%s' "$UPSTREAM" | tr -d ' \t')" ] ||
	die 2 "UPSTREAM is empty; set UPSTREAM=\"<upstream commit id> ...\" (the fix's mainline commits, in order)"
ids=
for _u in $UPSTREAM; do
	printf '%s\n' "$_u" | grep -Eqx '[0-9a-fA-F]{7,40}' ||
		die 2 "UPSTREAM: '$(printf '%.50s' "$_u" | tr -d '\000-\037')' is not a commit id (7 to 40 hex digits)"
	_u=$(printf '%s' "$_u" | tr 'A-F' 'a-f')
	case " $ids " in *" $_u "*) die 2 "UPSTREAM names $_u twice" ;; esac
	ids="${ids:+$ids }$_u"
done
nids=$(printf '%s\n' $ids | wc -l)
if [ -n "$FROM_SOURCE" ]; then
	_n=0
	for _s in $FROM_SOURCE; do
		printf '%s\n' "$_s" | grep -Eqx '[0-9a-fA-F]{7,40}' ||
			die 2 "FROM_SOURCE: '$(printf '%.50s' "$_s" | tr -d '\000-\037')' is not a commit id"
		_n=$((_n + 1))
	done
	[ "$_n" -eq "$nids" ] ||
		die 2 "FROM_SOURCE names $_n commits for $nids upstream ids; give one source commit per UPSTREAM id, in the same order"
fi
case $OUT_FIXES in /*) ;; *) OUT_FIXES=$PWD/$OUT_FIXES ;; esac
[ -d "$OUT_FIXES" ] || die 2 "OUT_FIXES=$OUT_FIXES is not a folder"
[ ! -e "$OUT_FIXES/$CVE" ] && [ ! -L "$OUT_FIXES/$CVE" ] ||
	die 2 "$OUT_FIXES/$CVE already exists; edit it, or remove it to draft it again"
source_configured ||
	die 2 "no KERNEL_GIT configured; set KERNEL_GIT=<a local git repository of the kernel source> (or in $KIT_CONFIG)"
case $KERNEL_GIT in
-*) die 2 "KERNEL_GIT='$KERNEL_GIT' begins with '-'; write the path from / or ./" ;;
*://* | *@*:*) die 2 "KERNEL_GIT=$KERNEL_GIT is not a local repository; new-fix reads the commits from a local clone (set KERNEL_GIT=<path>)" ;;
esac
gd=$(git -C "$KERNEL_GIT" rev-parse --absolute-git-dir 2>/dev/null) ||
	die 2 "KERNEL_GIT=$KERNEL_GIT is not a git repository; set KERNEL_GIT=<a local clone of the kernel source>"
need_cmd patch diff git awk sed
src() { git --git-dir="$gd" "$@"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/new-fix.XXXXXX") || die 1 "cannot create a scratch folder"
stage=
cleanup() { rmtree "$work" ${stage:+"$stage"}; }
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

say() { printf '[%s] %-10s %s\n' "$CVE" "$1" "$2" >&2; }

# --- 1. the commits in the source --------------------------------------------

# names_re ID: a line that names ID as the commit a backport carries
# (mbox.sh's markers; ID may be a prefix: the rest of the hex is allowed)
names_re() {
	_x="$1[0-9a-f]*"
	printf '%s' "^(commit $_x( upstream\\.?)?|\\[ ?[Uu]pstream commit $_x ?\\]|\\((backported|cherry picked) from commit $_x( upstream)?\\)?)[[:space:]]*\$"
}

# found_<n>: "<upstream 40 hex> <source commit> <how>"
i=0
for id in $ids; do
	i=$((i + 1))
	up=$id sc='' how=''
	if [ -n "$FROM_SOURCE" ]; then
		s=$(printf '%s\n' $FROM_SOURCE | sed -n "${i}p")
		sc=$(src rev-parse -q --verify "$s^{commit}" 2>/dev/null) ||
			die 2 "FROM_SOURCE: $s is not a commit of $KERNEL_GIT"
		how="named by FROM_SOURCE"
	elif full=$(src rev-parse -q --verify "$id^{commit}" 2>/dev/null); then
		sc=$full up=$full how="the upstream commit itself"
	else
		p12=$(printf '%.12s' "$id")
		src log --all -F --grep="$p12" --reverse --format=%H >"$work/cand" ||
			die 1 "git log in $KERNEL_GIT failed"
		strict='' loose=''
		while read -r c; do
			src show -s --format=%B "$c" >"$work/msg"
			if [ -z "$strict" ] && grep -Eq "$(names_re "$p12")" "$work/msg"; then strict=$c; break; fi
			[ -n "$loose" ] || ! grep -i "$p12" "$work/msg" | grep -Eiqv 'revert|fixes' || loose=$c
		done <"$work/cand"
		if [ -n "$strict" ]; then sc=$strict how="a backport whose message names it as its upstream commit"
		elif [ -n "$loose" ]; then sc=$loose how="a commit whose message mentions the id (not as its upstream marker: check it)"
		fi
		if [ -n "$sc" ]; then
			src show -s --format=%B "$sc" >"$work/msg"
			# the full id, when the message spells it out
			f=$(grep -o "${p12}[0-9a-f]*" "$work/msg" | awk 'length($0) == 40 { print; exit }')
			[ -z "$f" ] || up=$f
		fi
	fi
	[ -z "$sc" ] || { echo "$up $sc $how" >"$work/found.$i"; continue; }
	: >"$work/found.$i.missing"
done

# 3. by the CVE id, for those not found yet
missing=$(ls "$work" | sed -n 's/^found\.\([0-9]*\)\.missing$/\1/p' | sort -n)
if [ -n "$missing" ]; then
	# one line per subject and author (the oldest), in author-date order
	src log --all -F --grep="$CVE" --format='%at%x09%H%x09%an <%ae>%x09%s' >"$work/bycve" ||
		die 1 "git log in $KERNEL_GIT failed"
	sort -t '	' -k1,1n -k2,2 "$work/bycve" | awk -F'\t' '!seen[$3 "\t" $4]++' >"$work/bycve.u"
	ncve=$(wc -l <"$work/bycve.u")
	if [ "$ncve" -ne "$nids" ]; then
		awk -F'\t' '{ printf "  %.12s %s  %s\n", $2, strftime("%Y-%m-%d", $1), $4 }' "$work/bycve.u" >&2 2>/dev/null ||
			awk -F'\t' '{ printf "  %.12s  %s\n", $2, $4 }' "$work/bycve.u" >&2
		nm=$(printf '%s\n' $missing | wc -l)
		die 2 "$nm of the $nids upstream ids are not in $KERNEL_GIT under their id nor named by a commit, and $ncve commits there name $CVE (listed above); set FROM_SOURCE=\"<source commit> ...\", one per UPSTREAM id in order"
	fi
	n=0
	while IFS='	' read -r _at c _au _s; do
		n=$((n + 1))
		[ -e "$work/found.$n.missing" ] || continue
		id=$(printf '%s\n' $ids | sed -n "${n}p")
		echo "$id $c a commit whose message names $CVE (paired in author-date order, $n of $ncve)" >"$work/found.$n"
		rm -f "$work/found.$n.missing"
	done <"$work/bycve.u"
	for m in $missing; do
		[ ! -e "$work/found.$m.missing" ] ||
			die 2 "upstream $(printf '%s\n' $ids | sed -n "${m}p") is not in $KERNEL_GIT; set FROM_SOURCE=\"<source commit> ...\""
	done
fi
i=0
for id in $ids; do
	i=$((i + 1))
	read -r up sc how <"$work/found.$i"
	printf '%s\n' "$up" | grep -Eqx '[0-9a-f]{40}' ||
		die 2 "upstream $up: only part of the id was given and the source does not spell it out; give all 40 hex digits in UPSTREAM"
	say found "$(printf '%.12s' "$up") is $(printf '%.12s' "$sc") in the source: $how"
done

# --- 2. letters, names, paths ------------------------------------------------

# the letters every fix folder uses (the kit's, and OUT_FIXES when it is
# another folder): a new fix takes the ones after the last
used=$(for d in "$(kit_fixes_dir)" "$OUT_FIXES"; do
	for f in "$d"/*/changes/*/INFO; do [ -r "$f" ] && header_field "$f" Letter; done
done | sort -u)
last=$(printf '%s\n' $used | grep -x '[A-Z]' | tail -1)
letters=$(printf '%s\n' A B C D E F G H I J K L M N O P Q R S T U V W X Y Z |
	awk -v l="${last:-@}" '$0 > l' | head -"$nids")
[ "$(printf '%s\n' $letters | wc -l)" -eq "$nids" ] && [ -n "$letters" ] ||
	die 1 "no free letters after ${last:-none} for $nids changes; the kit's change letters run A..Z"

slugify() {
	# the subject without its "area: " prefixes, lower case, at most 40
	printf '%s' "$1" | sed 's/^\([A-Za-z0-9_./, -]*: \)*//' | tr 'A-Z' 'a-z' |
		sed 's/[^a-z0-9_]\{1,\}/-/g; s/^-//; s/-$//' |
		awk '{ s = $0; if (length(s) > 40) { c = substr(s, 41, 1); s = substr(s, 1, 40); if (c != "-") sub(/-[^-]*$/, "", s) } print s }'
}

# kit architecture names of a path (arch/<a>/, include/asm-<a>/)
arch_of_path() {
	case $1 in
	arch/*/*) _a=${1#arch/}; _a=${_a%%/*} ;;
	include/asm-*/*) _a=${1#include/asm-}; _a=${_a%%/*} ;;
	*) return 0 ;;
	esac
	case $_a in
	x86 | x86_64) echo x86_64 ;;
	i386) echo x86_32 ;;
	sparc | sparc64) echo sparc64 ;;
	powerpc | ppc) echo powerpc ;;
	mips | parisc | sh | m68knommu | ia64 | s390) echo "$_a" ;;
	*) echo "?$_a" ;;
	esac
}
arch_order="x86_64 x86_32 powerpc sparc64 parisc m68knommu sh mips ia64 s390"

# the same file in the other layout (asm headers moved into arch/ from
# 2.6.28 on, sparc64's last); the first that exists in the release is used
alt_paths() {
	case $1 in
	arch/*/include/asm/*)
		_a=${1#arch/}; _a=${_a%%/*}; _r=${1#arch/"$_a"/include/asm/}
		case $_a in
		sparc) echo "include/asm-sparc64/$_r include/asm-sparc/$_r" ;;
		*) echo "include/asm-$_a/$_r" ;;
		esac ;;
	include/asm-*/*)
		_a=${1#include/asm-}; _a=${_a%%/*}; _r=${1#include/asm-"$_a"/}
		case $_a in
		sparc64) echo "arch/sparc/include/asm/$_r" ;;
		*) echo "arch/$_a/include/asm/$_r" ;;
		esac ;;
	esac
}

# plain relative paths only: no '..', nothing absolute, no odd bytes
path_ok() {
	case /$1/ in */../* | */./* | //*) return 1 ;; esac
	printf '%s\n' "$1" | grep -Eqx '[A-Za-z0-9_.+,/-]+'
}

# files of a diff: "<old>\t<new>" per file (/dev/null for created/deleted)
diff_files() {
	awk '/^--- / { o = $2; sub(/^a\//, "", o) }
	     /^\+\+\+ / { n = $2; sub(/^b\//, "", n); print o "\t" n }' "$1"
}

# --- 3. per change: the diff, its files, its facts ------------------------------

branches=$(list_branches | grep '^v2\.6\.' || :)
[ -n "$branches" ] || die 1 "no branches/v2.6.*.conf in $KIT_ROOT"

# the committed series' earlier patches, each with its upstream id, for
# the base a hunk is made against (only those of changes the kit has)
kit_ids=$(for c in $(kit_changes); do info_field "$c" Upstream; done | sort -u)

stage=$(mktemp -d "$OUT_FIXES/.new-fix.$CVE.XXXXXX") || die 1 "cannot create a folder in $OUT_FIXES"
fx=$stage
mkdir -p "$fx/changes" "$fx/guest" "$fx/cross"

todo=$work/todo
: >"$todo"
arches=
credits=
i=0
for id in $ids; do
	i=$((i + 1))
	read -r up sc how <"$work/found.$i"
	L=$(printf '%s\n' $letters | sed -n "${i}p")
	subj=$(src show -s --format=%s "$sc")
	auth=$(src show -s --format='%an <%ae>' "$sc")
	slug=$(slugify "$subj"); [ -n "$slug" ] || slug=change
	ch=$L-$slug
	cd_=$fx/changes/$ch
	mkdir -p "$cd_/hunks"
	say change "$ch: $(printf '%.12s' "$up") ($(printf '%.12s' "$sc") in the source): $subj"
	[ "$i" -gt 1 ] || title=$subj
	credits="$credits
Credit: $auth ($(printf '%.12s' "$up"))"
	src show -s --format=%B "$sc" | sed -n 's/^[[:space:]]*Reported-by:[[:space:]]*//p' >>"$work/reporters"

	# the diff, as the source's commit has it (first parent for a merge)
	src show --format= --no-renames --no-color --no-ext-diff -m --first-parent "$sc" >"$work/d.$i"
	[ -s "$work/d.$i" ] || die 1 "$(printf '%.12s' "$sc") in the source has no diff"
	! grep -Eq '^(GIT binary patch|Binary files )' "$work/d.$i" ||
		die 1 "$(printf '%.12s' "$sc") changes a binary file; draft this change by hand"
	diff_files "$work/d.$i" >"$work/f.$i"
	while IFS='	' read -r o n; do
		for p in "$o" "$n"; do
			[ "$p" = /dev/null ] || path_ok "$p" || die 1 "$(printf '%.12s' "$sc") names a path new-fix does not take: '$p'"
		done
		p=$n; [ "$n" != /dev/null ] || p=$o
		echo "$p" >>"$work/files.$i"
		a=$(arch_of_path "$p")
		case $a in
		'') ;;
		'?'*) grep -qx "${a#?}" "$work/odd-arches" 2>/dev/null || echo "${a#?}" >>"$work/odd-arches" ;;
		*) case " $arches " in *" $a "*) ;; *) arches="$arches $a" ;; esac ;;
		esac
	done <"$work/f.$i"
	touch "$work/odd-arches"

	# hunks, branch by branch
	drafted=
	for b in $branches; do
		bw=$work/$i/$b
		mkdir -p "$bw"
		rc=0; exp=$(sh "$KIT_ROOT/scripts/fetch.sh" "$b" 2>"$bw/fetch.err") || rc=$?
		if [ $rc -ne 0 ] || [ ! -d "$exp" ]; then
			why=$(tail -1 "$bw/fetch.err" | sed 's/^[^:]*: error: //')
			say "$b" "no export (fetch.sh exit $rc): $why"
			echo "$b	$ch	no hunk: the release could not be exported (fetch.sh exit $rc: $why)" >>"$todo"
			continue
		fi
		# map each file to where this release has it
		: >"$bw/map"
		while read -r p; do
			q=$p
			if [ ! -e "$exp/$p" ]; then
				for alt in $(alt_paths "$p"); do
					[ -e "$exp/$alt" ] && { q=$alt; break; }
				done
			fi
			printf '%s\t%s\n' "$p" "$q" >>"$bw/map"
			[ "$q" = "$p" ] || say "$b" "$p is $q in this release"
		done <"$work/files.$i"
		awk 'NR == FNR { split($0, f, "\t"); m[f[1]] = f[2]; next }
			/^diff --git / { next }
			/^(--- a|\+\+\+ b)\// { p = substr($0, 7); if (p in m) $0 = substr($0, 1, 6) m[p] }
			{ print }' "$bw/map" "$work/d.$i" >"$bw/diff"
		# the files of this diff and of the earlier patches that touch
		# them (to a fixpoint), from the release
		cut -f2 "$bw/map" | sort -u >"$bw/set"
		sdir=$KIT_ROOT/backports/$b
		: >"$bw/earlier"
		if [ -r "$sdir/series" ]; then
			for pf in $(grep -v '^#' "$sdir/series" | grep -v '^[[:space:]]*$'); do
				pid=$(sed -n 's/^Git-commit: //p' "$sdir/$pf" | head -1)
				printf '%s\n' "$kit_ids" | grep -qx "$pid" || continue
				[ "$pid" != "$up" ] || continue
				echo "$pf" >>"$bw/earlier"
			done
			while :; do
				before=$(wc -l <"$bw/set")
				while read -r pf; do
					diff_files "$sdir/$pf" | cut -f2 >"$bw/pfiles"
					! grep -qxFf "$bw/set" "$bw/pfiles" || cat "$bw/pfiles" >>"$bw/set"
				done <"$bw/earlier"
				grep -vx /dev/null "$bw/set" | sort -u >"$bw/set.n"; mv "$bw/set.n" "$bw/set"
				[ "$(wc -l <"$bw/set")" -ne "$before" ] || break
			done
		fi
		mkdir "$bw/base"
		while read -r q; do
			[ -f "$exp/$q" ] || continue
			mkdir -p "$bw/base/$(dirname "$q")"
			cat "$exp/$q" >"$bw/base/$q"	# a plain file, never a link into the export
		done <"$bw/set"
		based="the release"
		if [ -s "$bw/earlier" ]; then
			applied=
			while read -r pf; do
				diff_files "$sdir/$pf" | cut -f2 >"$bw/pfiles"
				grep -qxFf "$bw/set" "$bw/pfiles" || continue
				if patch -d "$bw/base" -p1 -F0 -N -s --no-backup-if-mismatch <"$sdir/$pf" >"$bw/earlier.log" 2>&1; then
					applied="$applied ${pf%.patch}"
				else
					say "$b" "warning: the committed patch $pf does not apply to the release's files; the hunk is drafted against the release alone"
					rm -rf "$bw/base"; mkdir "$bw/base"
					while read -r q; do
						[ -f "$exp/$q" ] || continue
						mkdir -p "$bw/base/$(dirname "$q")"; cat "$exp/$q" >"$bw/base/$q"
					done <"$bw/set"
					applied=; break
				fi
			done <"$bw/earlier"
			[ -z "$applied" ] || based="the release with the series' earlier$applied"
		fi
		cp -R "$bw/base" "$bw/changed"
		if patch -d "$bw/changed" -p1 -F3 -N --dry-run <"$bw/diff" >"$bw/patch.log" 2>&1 &&
			patch -d "$bw/changed" -p1 -F3 -N --no-backup-if-mismatch <"$bw/diff" >"$bw/patch.log" 2>&1; then
			: >"$bw/hunk"
			while IFS='	' read -r p q; do
				drc=0
				(cd "$bw" && diff -upN --label "a/$q" --label "b/$q" "base/$q" "changed/$q") >>"$bw/hunk" || drc=$?
				[ $drc -le 1 ] || die 1 "diff failed on $q ($b)"
			done <"$bw/map"
			if [ ! -s "$bw/hunk" ]; then
				say "$b" "$ch: the diff applies but changes nothing: already in this release?"
				echo "$b	$ch	no hunk: the diff changes nothing here (already in the release?); check, and leave $b out of Branches:" >>"$todo"
				continue
			fi
			fz=$(grep -Ec 'with fuzz|offset' "$bw/patch.log" || :)
			# one file per distinct hunk: a branch whose hunk is the same
			# as an earlier branch's is a link to it (as I's are)
			ln_to=
			for d0 in $drafted; do
				[ ! -L "$cd_/hunks/$d0.diff" ] || continue
				cmp -s "$bw/hunk" "$cd_/hunks/$d0.diff" && { ln_to=$d0; break; }
			done
			if [ -n "$ln_to" ]; then ln -s "$ln_to.diff" "$cd_/hunks/$b.diff"
			else cat "$bw/hunk" >"$cd_/hunks/$b.diff"; fi
			drafted="$drafted $b"
			note="against $based"
			[ "$fz" -eq 0 ] || note="$note; $fz hunks needed an offset or fuzz: read them"
			say "$b" "$ch: hunk drafted ($note)"
			echo "$b	$ch	hunk drafted, $note: review hunks/$b.diff" >>"$todo"
		else
			# which files fail: git apply --reject on another copy
			cp -R "$bw/base" "$bw/rej"
			(cd "$bw/rej" && GIT_CEILING_DIRECTORIES=$bw git apply -p1 --reject --verbose "$bw/diff") >"$bw/rej.log" 2>&1 || :
			bad=$(sed -n 's/^Applying patch \(.*\) with [0-9]* reject.*/\1 (hunks rejected)/p; s/^error: \(.*\): No such file or directory/\1 (not in this release)/p; s/^error: \(.*\): does not exist in index/\1 (not in this release)/p' "$bw/rej.log" |
				sort -u | paste -sd',' - | sed 's/,/, /g')
			[ -n "$bad" ] || bad=$(grep -E 'FAILED|can.t find file' "$bw/patch.log" | head -3 | paste -sd';' -)
			say "$b" "$ch: does not apply: $bad"
			echo "$b	$ch	did not apply: $bad; write hunks/$b.diff by hand (or leave $b out of Branches: with the reason)" >>"$todo"
		fi
	done
	echo "$drafted" >"$work/drafted.$i"

	# DETECT: per file, the first added line (else a removed one) that
	# every drafted branch's release lacks (has) and its hunk has (lacks)
	{
		echo "# present|absent|affected FILE FUNCTION|- ERE   (see scripts/fix-state.sh)"
		echo "# DRAFT by make new-fix: one line per touched file, from one line the diff"
		echo "# adds; check each line, name the function, add affected lines, keep the"
		echo "# lines that say the fix is in and drop the others."
	} >"$cd_/DETECT"
	while read -r p; do
		awk -v f="$p" '
			/^diff --git / { on = 0 }
			/^--- / { o = $2; sub(/^a\//, "", o); next }
			/^\+\+\+ / { n = $2; sub(/^b\//, "", n); on = (n == f || (n == "/dev/null" && o == f)); next }
			on && /^\+/ { print "+" substr($0, 2) }
			on && /^-/ { print "-" substr($0, 2) }' "$work/d.$i" |
		sed 's/^\([+-]\)[[:space:]]*/\1/; s/[[:space:]]*$//' |
		awk 'length($0) >= 9 && /[A-Za-z_][A-Za-z0-9_][A-Za-z0-9_]/ && !/^.(\/\*|\*|\/\/)/' >"$work/cand.$i"
		# added lines first, and of each those that call or define
		# something (a '(') before the others
		{ grep '^+.*(' "$work/cand.$i" || :; grep '^+' "$work/cand.$i" | grep -v '(' || :
		  grep '^-.*(' "$work/cand.$i" || :; grep '^-' "$work/cand.$i" | grep -v '(' || :; } >"$work/cand.o"
		# removed lines that come back (moved) say nothing
		sed -n 's/^+//p' "$work/cand.$i" | sort -u >"$work/plus"
		sed -n 's/^-//p' "$work/cand.$i" | sort -u >"$work/minus"
		pick='' kind='' checked=0
		while IFS= read -r l; do
			t=${l#?}
			if [ "${l%"$t"}" = + ]; then k=present; ! grep -qxF -- "$t" "$work/minus" || continue
			else k=absent; ! grep -qxF -- "$t" "$work/plus" || continue; fi
			r=$(printf '%s\n' "$t" | sed 's/[][\\.^$*+?(){}|]/\\&/g; s/[[:space:]]\{1,\}/[[:space:]]+/g')
			ok=0; [ -z "$drafted" ] || ok=1
			for b in $drafted; do
				q=$(awk -F'\t' -v p="$p" '$1 == p { print $2 }' "$work/$i/$b/map")
				inb=0; inw=0
				[ ! -f "$work/$i/$b/base/$q" ] || ! grep -Eq -- "$r" "$work/$i/$b/base/$q" || inb=1
				[ ! -f "$work/$i/$b/changed/$q" ] || ! grep -Eq -- "$r" "$work/$i/$b/changed/$q" || inw=1
				if [ $k = present ]; then [ $inb = 0 ] && [ $inw = 1 ] || ok=0
				else [ $inb = 1 ] && [ $inw = 0 ] || ok=0; fi
			done
			[ -n "$pick" ] || pick=$r kind=$k
			if [ $ok = 1 ]; then pick=$r kind=$k checked=1; break; fi
		done <"$work/cand.o"
		# one line per location the releases have the file at
		locs=$(for b in $drafted; do
			awk -F'\t' -v p="$p" '$1 == p { print $2 }' "$work/$i/$b/map"; done | sort -u)
		[ -n "$locs" ] || locs=$p
		if [ -z "$pick" ]; then
			echo "# TODO $p: no line of the diff to look for; write one" >>"$cd_/DETECT"
			continue
		fi
		if [ "$checked" = 1 ]; then
			echo "# $p: the releases with a drafted hunk lack this before the hunk and have it after" >>"$cd_/DETECT"
		else
			echo "# TODO $p: NOT checked (no line of the diff tells a drafted release from its hunk)" >>"$cd_/DETECT"
		fi
		for q in $locs; do echo "$kind $q - $pick" >>"$cd_/DETECT"; done
	done <"$work/files.$i"

	# INFO: upstream's facts, our placeholders; no changelog text
	nb=$(printf '%s\n' $drafted | grep -c . || :)
	if [ "$nb" -eq 0 ]; then brs=none
	elif [ "$nb" -eq "$(printf '%s\n' $branches | wc -l)" ]; then brs=all
	else brs=$(printf '%s\n' $drafted | paste -sd' ' -); fi
	ca=
	for a in $arch_order; do
		for p in $(cat "$work/files.$i"); do
			[ "$(arch_of_path "$p")" = "$a" ] && { ca="$ca $a"; break; }
		done
	done
	{
		echo "Letter: $L"
		echo "Upstream: $up"
		echo "Subject: $subj"
		echo "From: $auth"
		echo "Mainline: TODO"
		echo "Mainline-checked: unconfirmed (from dates, no tag read): TODO: the dates that place it, in one line (make mainline-tags reads the tag where a source has it)"
		echo "References: $CVE"
		echo "Branches: $brs"
		if [ -n "$ca" ]; then echo "Arches:$ca"; else echo "Serves: all"; fi
		echo "Pick-why: TODO: one line, why a pick carries it"
		echo
		echo "TODO: our own words.  DRAFT made by make new-fix from $(printf '%.12s' "$sc") in"
		echo "the kernel source, found as: $how."
		echo "Say what the change does and why it is needed, in the kit's words:"
		echo "this text goes into every branch's patch."
		echo "Do not copy upstream's changelog here.  Check the DETECT lines and each"
		echo "hunks/<branch>.diff; say how a branch's hunk differs from upstream in"
		echo "notes/<branch> ([ adapted: ... ] lines)."
	} >"$cd_/INFO"
	{
		echo "# DRAFT by make new-fix: the functions $ch is expected to change, per object (cross/README.md); fill in from a first make cross run."
	} >"$fx/cross/$ch.expect"
	echo "$L $ch" >>"$work/changes"
done

# --- 4. the fix's files -----------------------------------------------------------

# Arches: kit names in the kit's order; nothing arch-specific: x86_64
fa=
for a in $arch_order; do case " $arches " in *" $a "*) fa="$fa $a" ;; esac; done
[ -n "$fa" ] || fa=" x86_64"
stem=c${CVE#CVE-*-}
{
	echo "Id: $CVE"
	echo "Title: TODO rewrite in our words (upstream subject, draft): $title"
	for i in $(seq 1 "$nids"); do read -r up _ <"$work/found.$i"; echo "Upstream: $up"; done
	echo "Introduced-by: before-git"
	echo "Arches:$fa"
	sort -u "$work/reporters" 2>/dev/null | sed 's/^\(.*\)$/Credit: \1 (reporter)/'
	printf '%s\n' "$credits" | sed '/^$/d'
	echo
	echo "TODO: our own words.  DRAFT made by make new-fix: write one paragraph on"
	echo "the flaw, who can reach it and how upstream closed it, in the kit's words"
	echo "(never upstream's changelog).  TODO: Introduced-by: is a placeholder;"
	echo "name the commit that brought the flaw in, or keep before-git if it is"
	echo "older than mainline's history.  Add Stable: and Expect: lines where they"
	echo "apply, and the Guest: line once guest/$stem.c tests the flaw."
} >"$fx/FIX"

up1=$(sed -n 1p "$work/found.1" | cut -d' ' -f1)
cat >"$fx/guest/$stem.c" <<EOF
/*
 * $stem.c - $CVE guest test: a DRAFT made by make new-fix, not built.
 * The FIX file has no Guest: line yet, so the kit's guest does not build
 * or run this program.  Write the tests (testvm/README.md, "Fix
 * programs"; the other fixes' guest programs are examples), then add
 *	Guest: $stem.c <32|64> <tests> <tests per reproducer run>
 * to FIX.  Until then it prints its plan and one test that is not written.
 */
#include "kit.h"

KIT_ENTRY(kit_start);

#define T_STATE	"cve-state: TODO # TODO the state test is not written yet"

static void tests(void)
{
	kit_begin(T_STATE);
	kit_result(0, T_STATE, "TODO: write the test for $CVE ($(printf '%.12s' "$up1"))");
}

/* "$stem-<bits> [first runs]": sp[0] is argc, sp[1..] argv */
__attribute__((used)) void kit_start(long *sp)
{
	int pid1 = sys_getpid() == 1, status;

	if (pid1) {
		sys_mkdir("/proc", 0755);
		sys_mount("proc", "/proc", "proc", 0, 0);
	}
	kit_fix_args(sp);
	tests();
	status = kit_fix_done();
	if (pid1)
		sys_reboot(0x01234567);	/* LINUX_REBOOT_CMD_RESTART: -no-reboot ends QEMU */
	sys_exit(status);
}
EOF
cat >"$fx/guest/README.md" <<EOF
# $CVE's guest program (DRAFT)

\`$stem.c\` is a skeleton made by \`make new-fix\`: it prints its plan and
one test that is not written (\`not ok ... # TODO\`).  The FIX file has no
\`Guest:\` line, so the kit's guest does not build it.  To wire it: write
its tests (\`regress:\`, \`precond:\`, \`cve-state:\`, \`repro:\`,
\`cleanup:\`; testvm/README.md, "Fix programs"), then add
\`Guest: $stem.c <32|64> <tests> <tests per run>\` to FIX and describe
the tests here, in our words.
EOF

# record.json: the shape of the kit's others, every value a TODO
roles=$(while read -r L ch; do
	printf '    "%s": {"role": "TODO fix | regression fix | related fix | hardening", "note": "TODO: what %s does, in our words"}\n' "$L" "$ch"
done <"$work/changes" | sed '$!s/$/,/')
cat >"$fx/record.json" <<EOF
{
  "cve": "$CVE",
  "osv_id": "x_KIT-$CVE",
  "osv_schema_version": "1.7.5",
  "summary": "TODO (draft from make new-fix): one line, in our words",
  "description": "TODO (draft from make new-fix): the flaw, who can reach it, how upstream fixed it, in our words",
  "introduced_by": {
    "mainline": [],
    "comment": "TODO: the commit that brought the flaw in and how it was found"
  },
  "fixed_by_comment": "fixed-by mainline lists the change that closes the issue",
  "roles": {
$roles
  }
}
EOF
if command -v jq >/dev/null 2>&1; then
	jq -e . "$fx/record.json" >/dev/null || die 1 "the drafted record.json is not JSON (a bug of new-fix.sh)"
fi

# --- 5. install: one rename ----------------------------------------------------------

chmod "$(printf '%o' $((0777 & ~0$(umask))))" "$fx"
[ ! -e "$OUT_FIXES/$CVE" ] || die 2 "$OUT_FIXES/$CVE appeared while drafting; nothing was installed"
mv -T "$fx" "$OUT_FIXES/$CVE" || die 1 "cannot rename the draft to $OUT_FIXES/$CVE"
stage=
dst=$OUT_FIXES/$CVE
rel=${dst#"$KIT_ROOT"/}

# --- 6. what is left to do -------------------------------------------------------------

echo "drafted $rel: $(cut -d' ' -f2 "$work/changes" | paste -sd' ' -)"
echo "per branch:"
for b in $branches; do
	awk -F'\t' -v b="$b" '$1 == b { printf "  %-8s %s: %s\n", b, $2, $3 }' "$todo"
done
if [ -s "$work/odd-arches" ]; then
	echo "  architectures the kit has no name for, left out of Arches:: $(paste -sd' ' - <"$work/odd-arches")"
fi
cat <<EOF
left to do by hand:
  - FIX: rewrite Title: and write the description in our words (TODO lines)
  - FIX: Introduced-by: (a placeholder, before-git); Stable: lines
  - FIX: Expect: lines for branches where a kernel must be other than the default
  - each change's INFO: our explanation, Mainline:, Mainline-checked:, Pick-why:
    (and Pick-test:/Untested:, Needs:); check Branches: and its DETECT lines
  - hunks: read each drafted one; write the ones that did not apply (above)
  - guest/$stem.c: write the test, then add its Guest: line to FIX (none yet:
    the kit's guest does not build it)
  - cross/<change>.expect from a first make cross run
  - record.json: every TODO value (make records reads it once the series carries the fix)
  - then make series-all, and the proof in docs/adding-a-fix.md sections 6-11
EOF
