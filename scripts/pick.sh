#!/bin/sh
# pick.sh [BRANCH]: the smallest series that closes the kit's fixes
# (CVE-2010-0307, CVE-2010-3081) on the architectures a product ships
# (ARCHES=, default all; scripts/arches.sh) without a regression the kit
# can test.  A pick is a subset of the branch's full series backports/<b>/
# (which it never touches): each patch copied whole, still one upstream
# commit, in the series' order.
#
# What goes in (docs/picks.md says why, patch by patch):
#   A, D   always: A is the fix, in generic code every architecture builds;
#          A without D loses PF_RANDOMIZE on every architecture
#   C      x86_64: D runs flush_thread() before SET_PERSONALITY()
#   F, G   x86_64: without them the patched x86_64 kernel is REGRESSED
#          (make mutants: F after C, G in the ia32 a.out loader)
#   H      x86_64, hardening, optional: HARDENING=0 leaves it out
#   B      sparc64, E powerpc: D needs them there (the ordering rule)
#   I      (CVE-2010-3081) any architecture of its INFO's Arches: line the
#          list names: x86_64 powerpc sparc64 parisc mips (their 32-bit
#          compat layer); kept whole, like A
# A change with no rule of its own here and an Arches: line in its INFO is
# in when the list names one of those architectures.
#
# Writes, each whole or not at all:
#   $OUT/<b>/pick-<name>/      series + patches (a quilt series: give it
#                              to SERIES_DIR=, or `make verify ARCHES=`)
#   $OUT/<b>/picks/<name>.json the record (format: scripts/README.md)
# and prints the pick folder.  <name>: "all", the architectures joined by
# '-' (x86_64-powerpc), "-nohardening" added for HARDENING=0.
# Each patch's "measured" comes from `make mutants` in the same output root
# (MUTANTS_OUT=<root> reads another): $root/<b>/result.json .mutants.<L>.
#
# pick.sh --table [--write]: the pick sizes of every branch that has a
# series, side by side (markdown); --write puts it into docs/picks.md
# between its markers.  Nothing is written under OUT.
#
# Exit 0; 1 a step failed (or a patch of a change pick.sh has no rule
# for); 2 bad input (unknown branch or architecture, no series).
set -eu
. "$(dirname "$0")/lib.sh"
. "$KIT_ROOT/scripts/arches.sh"
need_cmd git jq

# Which changes a pick carries: the rule of docs/picks.md.
needs() { # needs <letter> <list> <hardening>: 0 in, 1 out, 2 no rule
	case $1 in
	A | D) return 0 ;;
	B) arches_has "$2" sparc64 ;;
	C | F | G) arches_has "$2" x86_64 ;;
	E) arches_has "$2" powerpc ;;
	H) arches_has "$2" x86_64 && [ "$3" = 1 ] ;;
	*)
		[ -n "$(arches_of "$1")" ] || return 2
		[ -n "$(serves "$1" "$2")" ] ;;
	esac
}
# arches_of <letter>: the Arches: line of the change's INFO, as the kit
# knows them (KIT_ARCHES; ia64 and s390 have no ARCHES= name, though the
# cross matrix compiles s390x and token-checks ia64 for change I).
arches_of() {
	_ao=$(printf '%s\n' "$change_map" | awk -F'\t' -v l="$1" '$2 == l { print $4; exit }')
	for _x in $KIT_ARCHES; do
		arches_has "$_ao" "$_x" && printf '%s ' "$_x"
	done
	:
}
# serves <letter> <list>: the architectures of the list the patch is in for.
serves() {
	case $1 in
	A | D) echo "$2" ;;
	B) echo sparc64 ;;
	E) echo powerpc ;;
	C | F | G | H) echo x86_64 ;;
	*)
		_sv=
		for _x in $(arches_of "$1"); do arches_has "$2" "$_x" && _sv="${_sv:+$_sv }$_x"; done
		echo "$_sv" ;;
	esac
}
# why <letter>: our words.  tests <letter>: the kit's tests built to catch
# its absence, one per line (the names testvm/guest/init.c prints).
why() {
	case $1 in
	A) echo "the fix: each loader sets the new personality only after the point of no return (setup_new_exec); generic code, built on every architecture. Kept whole: its arch files are loaders that must call setup_new_exec() (x86_64's ia32_aout, 2.6.26's mips irixelf) and a comment (sh)" ;;
	B) echo "sparc64: D runs flush_thread() before SET_PERSONALITY(), so the pending 32/64-bit flip of TIF_ABI_PENDING would land one exec late; B switches at once (the ordering rule: D needs B on sparc64)" ;;
	C) echo "x86_64: D runs flush_thread() before SET_PERSONALITY(), so the TIF_ABI_PENDING toggle would land one exec late; C switches at once (the ordering rule: D needs C on x86_64)" ;;
	D) echo "A alone clears PF_RANDOMIZE and runs flush_thread() after the loader chose them: every program loses stack and brk randomisation; generic code" ;;
	E) echo "powerpc: D runs flush_thread() before SET_PERSONALITY(), so the pending flip of TIF_ABI_PENDING would land one exec late; E switches at once (the ordering rule: D needs E on powerpc)" ;;
	F) echo "x86_64: C's set_personality_ia32() drops force_personality32, so with noexec32=off 32-bit programs lose READ_IMPLIES_EXEC" ;;
	G) echo "x86_64: the ia32 a.out loader clears mm->mmap after the flush and drops the argument pages; the patched kernel is held to SURVIVED and the a.out tests fail without it" ;;
	H) echo "hardening, optional: bounds x86's register-copy loops that turned the CVE's wrong regset view into memory corruption; the fixed kernel survives without it (HARDENING=0 leaves it out)" ;;
	I) echo "the fix for CVE-2010-3081: compat_alloc_user_space() checks access_ok() once, in kernel/compat.c, for every 32-bit compat layer. Kept whole: the generic function calls each architecture's renamed inline (seven compat.h), so none can be left out" ;;
	esac
}
tests() {
	case $1 in
	A) printf '%s\n' "cve-state: no [vsyscall] in a 32-bit process after a failed exec" \
		"cve-state: its core is ELF32 EM_386 with ia32 notes" "the reproducer (repro:)" ;;
	C) printf '%s\n' "the control phase (control probe32, probe64: a plain 32- and 64-bit exec)" ;;
	D) printf '%s\n' "regress: 64-bit stack and brk randomised across execs" \
		"regress: 32-bit stack and brk randomised across execs" ;;
	F) printf '%s\n' "regress: noexec32=off: 32-bit process has READ_IMPLIES_EXEC (1252f238db48)" ;;
	G) printf '%s\n' "regress: ia32 a.out program sees argv and envp (318f6b228ba8)" \
		"regress: ia32 a.out whose text cannot be mapped (RLIMIT_AS) is killed and leaks no memory (318f6b228ba8)" ;;
	I) printf '%s\n' "CVE-2010-3081 cve-state: the kernel did not write the caller's values at the kernel address compat_alloc_user_space() computed" ;;
	esac
}
# untested <letter>: why no kit test can fail without it.
untested() {
	case $1 in
	B) echo "no kit test runs sparc64 code: make cross ARCHES=sparc64 compiles B and checks the functions it changes" ;;
	E) echo "no kit test fails without it: make ppc64-boot boots a patched ppc64 kernel, never one without E; make cross ARCHES=powerpc compiles it" ;;
	H) echo "hardening: no test fails without it (make mutants leaves H out by default)" ;;
	esac
}

changes=$KIT_ROOT/backports/changes
# "<upstream id>\t<letter>\t<subject>\t<arches>" for every change, read
# once (the first of each header line of each INFO, whatever their order).
change_map=$(awk 'FNR == 1 { if (id != "") print id "\t" l "\t" s "\t" a; id = l = s = a = "" }
	/^Upstream: / && id == "" { id = substr($0, 11) }
	/^Letter: / && l == "" { l = substr($0, 9) }
	/^Subject: / && s == "" { s = substr($0, 10) }
	/^Arches: / && a == "" { a = substr($0, 9) }
	/^$/ { nextfile }
	END { if (id != "") print id "\t" l "\t" s "\t" a }' "$changes"/*/INFO)

# branch_facts <branch> <file>: what the pick needs to know of each patch
# of the branch's full series, whatever the architectures, as TSV lines:
#   P <letter> <upstream id> <subject> <patch>       one per patch, in order
#   N <patch> <added> <removed> <file>              one per file it touches
# (counts from git apply --numstat: lines added and removed per file).
branch_facts() {
	full=$KIT_ROOT/backports/$1
	[ -r "$full/series" ] || die 2 "no security series for $1 ($full/series); run 'make series BRANCH=$1' first"
	: >"$2"
	for p in $(grep -v '^#' "$full/series"); do
		[ -r "$full/$p" ] || die 2 "$full/series names $p, which does not exist"
		id=$(sed -n 's/^commit \([0-9a-f]\{40\}\) upstream\.$/\1/p' "$full/$p" | head -1)
		L= subj=
		while IFS='	' read -r _id _l _s _a; do
			[ "$_id" = "$id" ] && { L=$_l subj=$_s; break; }
		done <<EOM
$change_map
EOM
		[ -n "$id" ] && [ -n "$L" ] ||
			die 1 "$1/$p names no upstream commit of backports/changes/ (no 'commit <id> upstream.' line, or no INFO with that Upstream:)"
		printf 'P\t%s\t%s\t%s\t%s\n' "$L" "$id" "$subj" "$p" >>"$2"
		git apply --numstat <"$full/$p" | awk -F'\t' -v p="$p" '{ print "N\t" p "\t" $1 "\t" $2 "\t" $3 }' >>"$2" ||
			die 1 "git apply --numstat cannot read $full/$p"
	done
}

# pick_lines <facts> <list> <hardening>: the facts with each P line marked
# in or out (P <in|out> <letter> ... <patch> <serves> <why or why not>
# <tests, \037-separated> <untested>); N lines as they are.
pick_lines() {
	while IFS='	' read -r k a b c d e; do
		[ "$k" = P ] || { printf '%s\t%s\t%s\t%s\t%s\n' "$k" "$a" "$b" "$c" "$d"; continue; }
		# P <letter> <id> <subject> <patch>: a b c d
		set +e; needs "$a" "$2" "$3"; in=$?; set -e
		[ $in -ne 2 ] || die 1 "$d is change $a, for which pick.sh has no rule; add it to needs() in scripts/pick.sh"
		if [ $in -eq 0 ]; then
			printf 'P\tin\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$a" "$b" "$c" "$d" "$(serves "$a" "$2")" \
				"$(why "$a")" "$(tests "$a" | tr '\n' '\037')" "$(untested "$a")"
		else
			case $a in
			H) because="HARDENING=0: the hardening is left out" ;;
			*) because="serves $(serves "$a" "$KIT_ARCHES"), which ARCHES does not name" ;;
			esac
			printf 'P\tout\t%s\t%s\t%s\t%s\t\t%s\t\t\n' "$a" "$b" "$c" "$d" "$because"
		fi
	done <"$1"
}

# The patches of a pick's lines as JSON objects, and their size: files
# touched (each once), lines added and removed.
jq_defs='
def nz: if . == "" then null else . end;
def size(ps): (ps | map(.files) | add // [] | unique) as $f
  | {patches: (ps | length), files: ($f | length),
     added: (ps | map(.added) | add // 0), removed: (ps | map(.removed) | add // 0)}
  | .lines = .added + .removed;
def patches($mut):
  (split("\n") | map(select(. != "") | split("\t"))) as $rows
  | [$rows[] | select(.[0] == "N")] as $n
  | [$rows[] | select(.[0] == "P") | . as $r
     | [$n[] | select(.[1] == $r[5])] as $mine
     | {letter: .[2], upstream: .[3], subject: .[4], patch: .[5], in: (.[1] == "in"),
        files: ($mine | map(.[4])), added: ($mine | map(.[2] | tonumber) | add // 0),
        removed: ($mine | map(.[3] | tonumber) | add // 0)}
     + if .[1] == "in" then
         {serves: (.[6] | split(" ")), why: .[7], optional: (.[2] == "H"),
          tests: (.[8] | split("\u001f") | map(select(. != ""))), untested: (.[9] | nz),
          measured: ($mut[$r[2]] // null)}
       else {why_not: .[7]} end];
'

# make_pick <branch> <list> <hardening>: write the pick and its record.
make_pick() {
	_b=$1 _list=$2 _h=$3
	name=$(arches_name "$_list" "$_h")
	pdir=$OUT/$_b/pick-$name
	rec=$OUT/$_b/picks/$name.json
	full=$KIT_ROOT/backports/$_b
	out_root
	mkdir -p "$OUT/$_b/picks" || die 1 "cannot create $OUT/$_b/picks"
	tmp=$OUT/$_b/.pick-$name.tmp.$$
	rmtree "$tmp"
	mkdir -p "$tmp/series.d" || die 1 "cannot create $tmp"
	branch_facts "$_b" "$tmp/facts.tsv"
	pick_lines "$tmp/facts.tsv" "$_list" "$_h" >"$tmp/pick.tsv"
	awk -F'\t' '$1 == "P" && $2 == "in" { print $6 }' "$tmp/pick.tsv" >"$tmp/series.d/series"
	[ -s "$tmp/series.d/series" ] || die 1 "the pick for $_b, ARCHES=$_list, is empty"
	for p in $(cat "$tmp/series.d/series"); do
		cp "$full/$p" "$tmp/series.d/$p" || die 1 "cannot copy $p into $tmp"
	done
	ARCHES=$_list sh "$KIT_ROOT/scripts/series-order.sh" "$tmp/series.d/series" ||
		die 1 "the pick for $_b, ARCHES=$_list, breaks the ordering rule: a bug in needs() of scripts/pick.sh"
	# what make mutants measured in this output root (or MUTANTS_OUT)
	mres=${MUTANTS_OUT:-$OUT}/$_b/result.json
	[ -r "$mres" ] || mres=
	mut='{}'
	if [ -n "$mres" ]; then
		mut=$(jq -c --arg src "$mres" '.mutants // {} | map_values({verdict, caught_by, failed_tests, measured_at, kit_commit, result: $src})' "$mres") ||
			die 1 "$mres is not a readable result file; remove it, or set MUTANTS_OUT= to another output root"
	fi
	# a verification recorded for this very series is kept
	digest=$(series_digest "$tmp/series.d")
	old_verify=null
	if [ -r "$rec" ]; then
		old_verify=$(jq -c --arg d "$digest" 'if .series_sha256 == $d then (.verify // null) else null end' "$rec" 2>/dev/null) ||
			old_verify=null
	fi
	kit=$(git -C "$KIT_ROOT" describe --always --dirty 2>/dev/null) || kit=unknown
	jq -R -s --arg b "$_b" --arg name "$name" --arg list "$_list" \
		--argjson h "$_h" --arg dir "$pdir" --arg d "$digest" --arg full "backports/$_b" \
		--arg at "$(date -u +%FT%TZ)" --arg kit "$kit" --argjson v "$old_verify" \
		--arg mres "$mres" --argjson mut "$mut" "$jq_defs"'
		patches($mut) as $all
		| [$all[] | select(.in) | del(.in)] as $in
		| {schema: 1, branch: $b, name: $name, arches: ($list | split(" ")), hardening: ($h == 1),
		   series_dir: $dir, series_sha256: $d, full_series: $full,
		   made_at: $at, kit_commit: $kit, mutants_from: ($mres | nz),
		   patches: $in, left_out: [$all[] | select(.in | not) | del(.in)],
		   files: ($in | map(.files) | add // [] | unique),
		   size: size($in), full_size: size($all),
		   verify: $v}' "$tmp/pick.tsv" >"$tmp/record.json" || die 1 "cannot write the record of the pick"
	# into place: the folder by renames (the old one kept until the new is
	# there), the record by one rename
	rmtree "$pdir.old"
	[ ! -e "$pdir" ] || mv "$pdir" "$pdir.old" || die 1 "cannot move $pdir aside"
	mv "$tmp/series.d" "$pdir" || die 1 "cannot put the pick in $pdir"
	rmtree "$pdir.old"
	atomic_install "$tmp/record.json" "$rec"
	rmtree "$tmp"
	progress "$_b" pick "$name: $(jq -r '"\(.size.patches) of \(.full_size.patches) patches (\(.patches | map(.letter) | join(" "))), \(.size.files) files, \(.size.lines) lines"' "$rec"): $pdir"
}

# --table: every branch with a series, the sets below, side by side: the
# same facts, rule and sizes as a pick's record, nothing written.
table_sets="all|1 x86_64|1 x86_64,powerpc|1 x86_64,sparc64|1 x86_64|0"
# table <temp folder>
table() {
	_t=$1
	printf '| branch |'
	for s in $table_sets; do
		printf ' ARCHES=%s%s |' "$(printf '%s' "${s%|*}" | tr , ' ')" "$([ "${s#*|}" = 1 ] || echo ', HARDENING=0')"
	done
	printf '\n|---|%s\n' "$(for s in $table_sets; do printf -- '---|'; done)"
	for _tb in $(list_branches); do
		[ -r "$KIT_ROOT/backports/$_tb/series" ] || continue
		branch_facts "$_tb" "$_t/facts.tsv"
		for s in $table_sets; do
			arches_canon "${s%|*}" || die 1 "$ARCHES_WHY"
			pick_lines "$_t/facts.tsv" "$ARCHES_LIST" "${s#*|}" >"$_t/$s.tsv"
		done
		(cd "$_t" && for s in $table_sets; do cat "$s.tsv"; echo '--'; done) |
			jq -R -s -r --arg b "$_tb" "$jq_defs"'
			split("--\n") | map(select(. != "")) | map(patches({}) | map(select(.in)))
			| "| \($b) | " + (map("\(map(.letter) | join(" ")): \(size(.) | "\(.files) files, \(.lines) lines (+\(.added) -\(.removed))")") | join(" | ")) + " |"'
	done
}

case ${1:-} in
--table)
	tt=$(mktemp -d "${TMPDIR:-/tmp}/picks.XXXXXX") || die 1 "cannot create a temp folder"
	trap 'rmtree "$tt"' EXIT
	if [ "${2:-}" = --write ]; then
		doc=$KIT_ROOT/docs/picks.md
		begin='<!-- pick-table: made by `sh scripts/pick.sh --table --write`; do not edit -->'
		end='<!-- pick-table: end -->'
		grep -qxF "$begin" "$doc" && grep -qxF "$end" "$doc" ||
			die 2 "$doc lacks the marker lines of the table ($begin ... $end)"
		table "$tt" >"$tt/table.md"
		awk -v b="$begin" -v e="$end" -v t="$tt/table.md" '
			$0 == b { print; while ((getline l < t) > 0) print l; skip = 1; next }
			$0 == e { skip = 0 }
			!skip' "$doc" >"$tt/doc.md"
		atomic_install "$tt/doc.md" "$doc"
		echo "pick.sh: table written to docs/picks.md" >&2
	else
		table "$tt"
	fi
	exit 0 ;;
-*) die 2 "unknown option '$1'; use pick.sh [BRANCH] (ARCHES=, HARDENING=) or pick.sh --table [--write]" ;;
esac

BRANCH=${1:-${BRANCH:-}}
load_branch "$BRANCH"
arches_canon "${ARCHES:-}" || die 2 "$ARCHES_WHY"
hardening_check "${HARDENING:-1}" || die 2 "$ARCHES_WHY"
make_pick "$BRANCH" "$ARCHES_LIST" "${HARDENING:-1}"
echo "$pdir"
