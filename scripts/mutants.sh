#!/bin/sh
# mutants.sh [BRANCH]: take each patch that a kit test should miss, and
# each whole fix that has more than one patch, out of BRANCH's series in
# turn, build that kernel, verify it blind, and print a table: mutant ->
# what caught its absence.  The default list is derived from the fix
# folders (backports/fixes/README.md): every change of the series except
# those whose INFO says Untested: (no kit test can fail without them: code
# of an architecture the guest never runs, or hardening the fixed kernel
# survives without), then every fix with more than one change (a fix of one
# change is that change's mutant already).  MUTANTS= names others (any
# change letter, a fix: a folder of backports/fixes/, or letters joined by
# '+', taken out together).  mutants.sh --list prints the default list.

#
# Each mutant is judged by the gate (scripts/gate.sh), never by reading a
# verdict's text: its kernel is held to what BRANCH's patched kernel must
# be (OUT/<b>/mutants/<M>/manifest.json), and its gate record
# (.../gate.json) says, per fix, whether it is:
#   the fix it takes from not ok, VULNERABLE   caught by a state check or a crash
#   ... REGRESSED                              caught by the regression tests it names
#   ... ok (SURVIVED, or what an Expect:       nothing caught it: a hole in the
#       line allows), INCONCLUSIVE, NOT-TESTED  suite, exit status 1
# and every other fix must be ok (its patches are all there): one that is
# not is a failure too ("other fix"), exit status 1.  A boot that stopped
# in its control phase (the gate's control_failed) judged no fix: it is
# booted once more, and if it stops there again the mutant is
# INCONCLUSIVE, neither caught nor a hole.  A change L that a FIX declares
# `Masked: L by K: <why>` (backports/fixes/README.md) is not observable
# alone while K is applied: L alone is reported "masked by K (declared)"
# without a build, and L+K, taken out together, is run and must be caught.
# A verification VM that could not run is an error: exit 1.  On a branch
# where a fix's FIX says `Expect: BRANCH patched UNREACHABLE: ...` its
# mutants are UNOBSERVABLE, reported without a build: no kernel there can
# show the flaw, so neither a catch nor a hole can be measured.
#
# Each mutant's record goes to $OUT/<b>/result.json under .mutants.<name>
# with its verdict, the fix's verdicts, failing tests, its gate record,
# measured_at (UTC) and kit_commit, so the report is made from what was
# measured, never from an earlier report.
#
# Mutants break the ordering rule on purpose (A without D, ...), so their
# builds run with KIT_ALLOW_MISORDER=1; the kit's own series never do.
set -u
. "$(dirname "$0")/lib.sh"
# every folder of backports/fixes/ is a fix with its FIX, or nothing runs
# (lib.sh kit_fixes: called here, not in $(...), so that its refusal stops us)
kit_fixes >/dev/null
# default_mutants: the default list (above), from the fix folders
default_mutants() {
	for _c in $(kit_changes); do
		[ -n "$(info_field "$_c" Untested)" ] || info_field "$_c" Letter
	done
	for _f in $(kit_fixes); do
		[ "$(fix_changes "$_f" | wc -l)" -lt 2 ] || echo "$_f"
	done
}
if [ "${1:-}" = --list ]; then default_mutants | paste -sd' ' -; exit 0; fi
BRANCH=${1:-${BRANCH:-}}
# NAME reaches build.sh, which refuses a bad one only after the first
# mutant's series is made: refused here first
check_inputs NAME BRANCH
load_branch "$BRANCH"
series=$KIT_ROOT/backports/$BRANCH/series
[ -r "$series" ] || die 2 "no security series for $BRANCH; run 'make series BRANCH=$BRANCH' first"
result=$OUT/$BRANCH/result.json
letters=${MUTANTS:-$(default_mutants | paste -sd' ' -)}
kit_fixes=$(kit_fixes)
# is_fix <mutant>: true when it names a whole fix (a fix folder)
is_fix() { printf '%s\n' $kit_fixes | grep -qxF -- "$1"; }
# members <mutant>: the changes it takes out (a letter: one; a fix: every
# change of its folder; L+K: each letter's)
members() {
	case $1 in
	*+*) for _l in $(printf '%s' "$1" | tr + ' '); do change_of_letter "$_l" || return 1; done ;;
	*) if is_fix "$1"; then fix_changes "$1"; else change_of_letter "$1"; fi ;;
	esac
}
# judged_by <mutant>: the fix it is judged by (L+K: L's)
judged_by() {
	if is_fix "$1"; then echo "$1"; else fix_of "$(change_of_letter "${1%%+*}")"; fi
}
# masked <letter>: "K<TAB>why" when the letter's fix declares
# `Masked: <letter> by K: why` in its FIX (backports/fixes/README.md)
masked() {
	case $1 in *+*) return 0 ;; esac
	! is_fix "$1" || return 0
	fix_field "$(judged_by "$1")" Masked | sed -n "s/^$1 by \([A-Z]\): *\(.*\)\$/\1	\2/p" | head -1
}
# unreachable_here <fix>: the why of its `Expect: BRANCH patched
# UNREACHABLE: why` line, empty when it has none
unreachable_here() {
	# read as gate.sh reads it: the words before the first ':' are the
	# branch, the kind and the verdict, whatever the spacing
	fix_field "$1" Expect | awk -v b="$BRANCH" '{
		i = index($0, ":"); if (i == 0) next
		n = split(substr($0, 1, i - 1), w, /[ \t]+/)
		if (n == 3 && w[1] == b && w[2] == "patched" && w[3] == "UNREACHABLE") {
			why = substr($0, i + 1); sub(/^[ \t]+/, "", why); print why; exit
		}
	}'
}
# id_of <mutant>: the upstream ids it takes out, short
id_of() {
	for _c in $(members "$1"); do info_field "$_c" Upstream | cut -c1-12; done | paste -sd, -
}
for L in $letters; do	# a bad name stops before any build
	[ -n "$(members "$L" 2>/dev/null)" ] ||
		die 2 "MUTANTS names '$L', which is neither a change letter nor a fix of backports/fixes/ (letters: $(for c in $(kit_changes); do info_field "$c" Letter; done | paste -sd' ' -); fixes: $(echo $kit_fixes))"
done
# a masked letter brings its pair (L+K) into the list, run after it
list=
for L in $letters; do
	list="$list $L"
	m=$(masked "$L")
	[ -z "$m" ] || case " $letters $list " in *" $L+${m%%	*} "*) ;; *) list="$list $L+${m%%	*}" ;; esac
done
letters=${list# }
kit=$(git -C "$KIT_ROOT" describe --always --dirty 2>/dev/null) || kit=unknown
rows=$(mktemp) || die 1 "cannot create a temp file"
trap 'rm -f "$rows"' EXIT
holes=0 inconclusive=0

# record <M> <patches dropped> <verdict> <caught by> [<dependent> [<failed tests, ;-separated> [<fixes json> [<gate record>]]]]
record() {
	printf '%s\t%s\t%s\t%s\n' "$1" "$(id_of "$1")" "$3" "$4" >>"$rows"
	[ "$2" != - ] || return 0
	result_update "$result" --arg L "$1" --arg p "$2" --arg v "$3" --arg c "$4" \
		--arg dep "${5-}" --arg f "${6-}" --argjson fx "${7:-null}" --arg fix "$(judged_by "$1")" \
		--arg at "$(date -u +%FT%TZ)" --arg kit "$kit" --arg g "${8-}" \
		'.mutants[$L] = {dropped: $p, also_left_out: $dep, fix: $fix, verdict: $v, caught_by: $c,
		   failed_tests: ($f | if . == "" then [] else split(";") end), fixes: $fx,
		   gate: (if $g == "" then null else $g end), measured_at: $at, kit_commit: $kit}'
}

# run_mutant <M>: build and verify the series without M's patches
run_mutant() {
	drop=
	for c in $(members "$1"); do
		id=$(info_field "$c" Upstream)
		for p in $(grep -v '^#' "$series"); do
			grep -q "^commit $id" "$KIT_ROOT/backports/$BRANCH/$p" && drop="$drop $p"
		done
	done
	drop=${drop# }
	[ -n "$drop" ] || { record "$1" - - "not in the series"; return 0; }
	# where the fix's FIX holds this branch's patched kernel to
	# UNREACHABLE, no kernel can show the flaw with or without the
	# mutant's patches: nothing to build, and no hole either
	u=$(unreachable_here "$(judged_by "$1")")
	if [ -n "$u" ]; then
		record "$1" "$(echo "$drop" | tr ' ' ,)" UNOBSERVABLE "not observable on $BRANCH: $(judged_by "$1") is held to UNREACHABLE here ($u); judge it on a branch where the flaw is reachable"
		return 0
	fi
	m=$(masked "$1")
	if [ -n "$m" ]; then
		record "$1" "$(echo "$drop" | tr ' ' ,)" MASKED "masked by ${m%%	*} (declared): ${m#*	}; $1+${m%%	*} is judged instead"
		return 0
	fi
	kind=mutant-$(echo "$1" | tr 'A-Z+' 'a-z-')
	sdir=$OUT/$BRANCH/$kind.series
	out_root
	rm -rf "$sdir"; mkdir -p "$sdir" || die 1 "cannot create $sdir"
	for p in $(grep -v '^#' "$series"); do
		case " $drop " in *" $p "*) continue ;; esac
		cp "$KIT_ROOT/backports/$BRANCH/$p" "$sdir/" || die 1 "cannot copy $p to $sdir"
		echo "$p" >>"$sdir/series"
	done
	touch "$sdir/series"
	progress "$BRANCH" mutant "$1: without $drop"
	KIT_ALLOW_MISORDER=1 SERIES_DIR=$sdir sh "$KIT_ROOT/scripts/build.sh" "$kind" "$BRANCH"
	_brc=$?
	# Only a kernel that fails to build is "does not build without it";
	# bad input (2) or an unreachable source (3) is no finding: stop.
	case $_brc in
	0) ;;
	2 | 3) die "$_brc" "[$BRANCH] mutant $1: build.sh exit $_brc before any kernel was built; see the message above" ;;
	*) record "$1" "$(echo "$drop" | tr ' ' ,)" "BUILD FAILED" "(the series does not build without it)"; return 0 ;;
	esac
	vdir=$OUT/$BRANCH/$kind/verify
	gdir=$OUT/$BRANCH/mutants/$kind
	mkdir -p "$gdir" || die 1 "cannot create $gdir"
	# the gate's manifest first: a boot record older than it is no boot
	sh "$KIT_ROOT/scripts/gate.sh" mutant-manifest "$gdir" "$BRANCH" "$vdir" || exit $?
	attempt=1 reboot=${KIT_REBOOT:-0}
	while :; do
		if ! KIT_REBOOT=$reboot KIT_RELEASE=$BR_VERSION KIT_IMAGE_DIGESTS=$OUT/$BRANCH/$kind/sha256sums \
			sh "$KIT_ROOT/testvm/verify-kernel.sh" "$OUT/$BRANCH/$kind/bzImage" "$vdir" >/dev/null; then
			record "$1" "$(echo "$drop" | tr ' ' ,)" ERROR "verification VM failed; see $vdir"; holes=$((holes + 1)); return 0
		fi
		grc=0; sh "$KIT_ROOT/scripts/gate.sh" "$gdir" || grc=$?
		[ $grc -le 1 ] || exit $grc
		# a boot stopped in its control phase judged no fix: once more
		[ "$(jq -r '.kernels.patched.control_failed' "$gdir/gate.json")" = true ] && [ $attempt -eq 1 ] || break
		progress "$BRANCH" mutant "$1: the boot stopped in its control phase; booting it once more"
		attempt=2 reboot=1
	done
	judge_mutant "$1" "$(echo "$drop" | tr ' ' ,)" "$OUT/$BRANCH/$kind" "$gdir/gate.json"
}

# judge_mutant <M> <dropped> <build dir> <gate.json>: what caught it, read
# from the mutant's gate record: the fix it takes from must be not ok
# there, every other fix ok
judge_mutant() {
	fix=$(judged_by "$1")
	g=$4
	jq -e --arg f "$fix" '.kernels.patched.booted and (.kernels.patched.fixes | has($f))' "$g" >/dev/null ||
		die 1 "[$BRANCH] mutant $1: $g has no verdict for $fix; see $(dirname "$g")"
	fx=$(jq -c '.kernels.patched.fixes | map_values({verdict, signature, failed_tests, ok})' "$g") || die 1 "cannot read $g"
	v=$(jq -r --arg f "$fix" '.kernels.patched.fixes[$f].verdict' "$g")
	ok=$(jq -r --arg f "$fix" '.kernels.patched.fixes[$f].ok' "$g")
	sig=$(jq -r --arg f "$fix" '.kernels.patched.fixes[$f].signature' "$g")
	failed=$(jq -r --arg f "$fix" '.kernels.patched.fixes[$f].failed_tests | join(";")' "$g")
	ctl=$(jq -r '.kernels.patched.control_failed' "$g")
	others=$(jq -r --arg f "$fix" '[.kernels.patched.fixes | to_entries[] | select(.key != $f and (.value.ok | not))
	  | "\(.key) \(.value.verdict)"] | join("; ")' "$g")
	dep=$(sed 's/\.patch$//' "$3/skipped-patches" 2>/dev/null | paste -sd, -)
	if [ "$ctl" = true ]; then
		# twice stopped before any fix's tests: no finding either way
		caught="INCONCLUSIVE (neither caught nor a hole): the boot stopped in its control phase twice: $(printf '%s' "$sig" | cut -c1-90)"
		v=INCONCLUSIVE
		inconclusive=$((inconclusive + 1))
	else
		case $ok:$v in
		false:VULNERABLE) caught="$fix VULNERABLE: $(printf '%s' "$sig" | cut -c1-80)" ;;
		false:REGRESSED) caught="$fix failing tests: $failed" ;;
		# INCONCLUSIVE (a precondition of its own program failed) or
		# NOT-TESTED (its tests could not run) judged nothing: no catch
		false:*) caught="NOTHING ($v is no catch for $fix): $(printf '%s' "$sig" | cut -c1-90)"; holes=$((holes + 1)) ;;
		# ok: the kernel is what the patched one must be; nothing noticed
		*) caught="NOTHING (hole in the suite): $fix $v${failed:+, failing tests: $failed}"; holes=$((holes + 1)) ;;
		esac
		[ "$v" != VULNERABLE ] || [ -z "$failed" ] || caught="$caught; failing tests: $failed"
		# another fix must stay what the patched kernel must be beside
		# the mutant: its code is all there
		if [ -n "$others" ]; then
			caught="$caught; OTHER FIX NOT SURVIVED: $others"; holes=$((holes + 1))
		else
			caught="$caught; other fixes SURVIVED"
		fi
	fi
	[ -z "$dep" ] || caught="$caught [also left out, dependent: $dep]"
	record "$1" "$2" "$v" "$caught" "$dep" "$failed" "$fx" "$g"
}

for L in $letters; do
	run_mutant "$L"
done
echo
printf '%-13s %-13s %-13s %s\n' mutant upstream verdict "what caught it"
while IFS='	' read -r L id v c; do printf '%-13s %-13s %-13s %s\n' "$L" "$id" "$v" "$c"; done <"$rows"
[ $inconclusive -eq 0 ] ||
	echo "mutants: $inconclusive mutant(s) INCONCLUSIVE: their boot stopped in the control phase twice; neither caught nor a hole" >&2
[ $holes -eq 0 ] || { echo "mutants: $holes mutant(s) not caught, or another fix not SURVIVED beside them; add a test that fails without them" >&2; exit 1; }
