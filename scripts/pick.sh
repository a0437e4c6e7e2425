#!/bin/sh
# pick.sh [BRANCH]: the smallest series that closes the kit's fixes
# (backports/fixes/) on the architectures a product ships (ARCHES=,
# default all; scripts/arches.sh) without a regression the kit can test.
# A pick is a subset of the branch's full series backports/<b>/ (which it
# never touches): each patch copied whole, still one upstream commit, in
# the series' order.
#
# What goes in is data of each change's INFO (backports/README.md lists the
# keys; docs/picks.md says why, patch by patch, for the kit's fixes):
#   Serves: all          always (generic code every architecture builds)
#   Serves: <arch>...    when ARCHES names one of them
#   (no Serves:)         when ARCHES names one of the Arches: line's
#                        architectures (as the kit knows them)
#   Hardening: yes       left out by HARDENING=0
#   Pick-why:            our words: why it is in
#   Pick-test:           a kit test built to catch its absence (repeated;
#                        the names the guest prints)
#   Untested:            why no kit test can fail without it
# A change with neither Serves: nor Arches: has no rule: exit 1.
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
# pick.sh --rules: each change's rule, read from the fix folders, one TSV
# line each (letter, serves, hardening, why, tests joined by ';', untested).
#
# Exit 0; 1 a step failed (or a patch of a change with no rule); 2 bad
# input (unknown branch or architecture, no series).
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/result-check.sh"
# every folder of backports/fixes/ is a fix with its FIX, or nothing runs
# (lib.sh kit_fixes: called here, not in $(...), so that its refusal stops us)
kit_fixes >/dev/null
. "$KIT_ROOT/scripts/arches.sh"
need_cmd git jq

# change_map: "<upstream id>\t<letter>\t<subject>\t<arches>\t<change>"
# for every change of every fix, and each change's pick keys as R_<key>_<letter>
# variables: both read once, since a table asks for them per patch and set.
change_map=
for _c in $(kit_changes); do
	_d=$(change_dir "$_c")/INFO
	_l=$(header_field "$_d" Letter | head -1)
	case $_l in '' | *[!A-Z]*) die 2 "$_c: its INFO's Letter: '$_l' is not capital letters" ;; esac
	change_map="$change_map$(header_field "$_d" Upstream | head -1)	$_l	$(header_field "$_d" Subject | head -1)	$(header_field "$_d" Arches | head -1)	$_c
"
	eval "R_serves_$_l=\$(header_field \"\$_d\" Serves | tr '\\n' ' ')"
	eval "R_hardening_$_l=\$(header_field \"\$_d\" Hardening | head -1)"
	eval "R_why_$_l=\$(header_field \"\$_d\" Pick-why | head -1)"
	eval "R_tests_$_l=\$(header_field \"\$_d\" Pick-test)"
	eval "R_untested_$_l=\$(header_field \"\$_d\" Untested | head -1)"
	# a change whose fix declares it masked by another (FIX "Masked: L by
	# K: why") has no test of its own either: the declaration says why
	eval "_u=\$R_untested_$_l"
	if [ -z "$_u" ]; then
		_m=$(fix_field "$(fix_of "$_c")" Masked | sed -n "s/^$_l by \([A-Z]*\): */\1 /p" | head -1)
		[ -z "$_m" ] || eval "R_untested_$_l=\"masked by \${_m%% *} (FIX Masked:): \${_m#* }\""
	fi
done
# field <letter> <serves|hardening|why|tests|untested>: that key of the change
field() { case $1 in '' | *[!A-Z]*) return 0 ;; esac; eval "printf '%s' \"\${R_$2_$1-}\""; }

# Which changes a pick carries: the rule of docs/picks.md, from INFO.
needs() { # needs <letter> <list> <hardening>: 0 in, 1 out, 2 no rule
	[ -n "$(field "$1" serves)" ] || [ -n "$(arches_of "$1")" ] || return 2
	[ "$3" = 1 ] || [ "$(field "$1" hardening)" != yes ] || return 1
	[ -n "$(serves "$1" "$2")" ]
}
# arches_of <letter>: the Arches: line of the change's INFO, as the kit
# knows them (KIT_ARCHES; ia64 and s390 have no ARCHES= name, though the
# cross matrix compiles s390x and token-checks ia64).
arches_of() {
	_ao=$(printf '%s\n' "$change_map" | awk -F'\t' -v l="$1" '$2 == l { print $4; exit }')
	for _x in $KIT_ARCHES; do
		arches_has "$_ao" "$_x" && printf '%s ' "$_x"
	done
	:
}
# serves <letter> <list>: the architectures of the list the patch is in for.
serves() {
	_sr=$(field "$1" serves)
	case " $_sr " in *" all "*) echo "$2"; return 0 ;; esac
	[ -n "$_sr" ] || _sr=$(arches_of "$1")
	_sv=
	for _x in $_sr; do arches_has "$2" "$_x" && _sv="${_sv:+$_sv }$_x"; done
	echo "$_sv"
}
# why <letter>: our words.  tests <letter>: the kit's tests built to catch
# its absence, one per line.  untested <letter>: why no kit test can fail
# without it.
why() { field "$1" why; }
tests() { field "$1" tests; echo; }
untested() { field "$1" untested; }

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
		while IFS='	' read -r _id _l _s _a _c; do
			[ "$_id" = "$id" ] && { L=$_l subj=$_s; break; }
		done <<EOM
$change_map
EOM
		[ -n "$id" ] && [ -n "$L" ] ||
			die 1 "$1/$p names no upstream commit of a change of backports/fixes/ (no 'commit <id> upstream.' line, or no INFO with that Upstream:)"
		printf 'P\t%s\t%s\t%s\t%s\n' "$L" "$id" "$subj" "$p" >>"$2"
		git apply --numstat <"$full/$p" | awk -F'\t' -v p="$p" '{ print "N\t" p "\t" $1 "\t" $2 "\t" $3 }' >>"$2" ||
			die 1 "git apply --numstat cannot read $full/$p"
	done
}

# pick_lines <facts> <list> <hardening>: the facts with each P line marked
# in or out (P <in|out> <letter> ... <patch> <serves> <why or why not>
# <tests, \037-separated> <untested> <hardening: yes or empty>); N lines as
# they are.
pick_lines() {
	while IFS='	' read -r k a b c d e; do
		[ "$k" = P ] || { printf '%s\t%s\t%s\t%s\t%s\n' "$k" "$a" "$b" "$c" "$d"; continue; }
		# P <letter> <id> <subject> <patch>: a b c d
		set +e; needs "$a" "$2" "$3"; in=$?; set -e
		[ $in -ne 2 ] || die 1 "$d is change $a, which has no pick rule: give its INFO a Serves: line (or an Arches: line; backports/README.md)"
		if [ $in -eq 0 ]; then
			printf 'P\tin\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$a" "$b" "$c" "$d" "$(serves "$a" "$2")" \
				"$(why "$a")" "$(tests "$a" | tr '\n' '\037')" "$(untested "$a")" "$(field "$a" hardening)"
		else
			if [ "$3" != 1 ] && [ "$(field "$a" hardening)" = yes ]; then
				because="HARDENING=0: the hardening is left out"
			else
				because="serves $(serves "$a" "$KIT_ARCHES"), which ARCHES does not name"
			fi
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
         {serves: (.[6] | split(" ")), why: .[7], optional: (.[10] == "yes"),
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
	# what make mutants measured is read below: one result file the kit
	# wrote (scripts/result-check.sh), or no pick
	[ ! -r "${MUTANTS_OUT:-$OUT}/$_b/result.json" ] ||
		result_refuse "${MUTANTS_OUT:-$OUT}/$_b/result.json" result "rerun 'make mutants BRANCH=$_b', or set MUTANTS_OUT= to another output root" "$rec left as it was"
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
--rules)
	for L in $(printf '%s\n' "$change_map" | cut -f2); do
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$L" "$(serves "$L" "$KIT_ARCHES")" "$(field "$L" hardening)" \
			"$(why "$L")" "$(tests "$L" | sed '/^$/d' | paste -sd';' -)" "$(untested "$L")"
	done
	exit 0 ;;
-*) die 2 "unknown option '$1'; use pick.sh [BRANCH] (ARCHES=, HARDENING=), pick.sh --table [--write] or pick.sh --rules" ;;
esac

BRANCH=${1:-${BRANCH:-}}
load_branch "$BRANCH"
arches_canon "${ARCHES:-}" || die 2 "$ARCHES_WHY"
hardening_check "${HARDENING:-1}" || die 2 "$ARCHES_WHY"
make_pick "$BRANCH" "$ARCHES_LIST" "${HARDENING:-1}"
echo "$pdir"
