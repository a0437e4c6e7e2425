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
# change letter, or a fix: a folder of backports/fixes/).
# mutants.sh --list prints the default list and exits.
#
# A mutant is judged by the verdict of the fix it takes from (the guest
# gives one per fix, testvm/README.md "Per fix"; verdicts as in "Verdicts"):
#   VULNERABLE    caught by a state check or a crash
#   REGRESSED     caught by the regression tests it names
#   INCONCLUSIVE  not accepted as fixed (the control phase, say)
#   SURVIVED      nothing caught it: a hole in the suite, exit status 1
# and every other fix must stay SURVIVED (its patches are all there): one
# that does not is a failure too ("other fix"), exit status 1.  A
# verification VM that could not run is an error: exit 1.
#
# Each mutant's record goes to $OUT/<b>/result.json under .mutants.<name>
# with its verdict, the fix's verdicts, failing tests, measured_at (UTC)
# and kit_commit, so the report is made from what was measured, never from
# an earlier report.
#
# Mutants break the ordering rule on purpose (A without D, ...), so their
# builds run with KIT_ALLOW_MISORDER=1; the kit's own series never do.
set -u
. "$(dirname "$0")/lib.sh"
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
# change of its folder)
members() {
	if is_fix "$1"; then fix_changes "$1"; else change_of_letter "$1"; fi
}
# judged_by <mutant>: the fix it is judged by
judged_by() {
	if is_fix "$1"; then echo "$1"; else fix_of "$(change_of_letter "$1")"; fi
}
# id_of <mutant>: the upstream ids it takes out, short
id_of() {
	for _c in $(members "$1"); do info_field "$_c" Upstream | cut -c1-12; done | paste -sd, -
}
for L in $letters; do	# a bad name stops before any build
	[ -n "$(members "$L" 2>/dev/null)" ] ||
		die 2 "MUTANTS names '$L', which is neither a change letter nor a fix of backports/fixes/ (letters: $(for c in $(kit_changes); do info_field "$c" Letter; done | paste -sd' ' -); fixes: $(echo $kit_fixes))"
done
kit=$(git -C "$KIT_ROOT" describe --always --dirty 2>/dev/null) || kit=unknown
rows=$(mktemp) || die 1 "cannot create a temp file"
trap 'rm -f "$rows"' EXIT
holes=0

# record <M> <patches dropped> <verdict> <caught by> [<dependent> [<failed tests, ;-separated> [<fixes json>]]]
record() {
	printf '%s\t%s\t%s\t%s\n' "$1" "$(id_of "$1")" "$3" "$4" >>"$rows"
	[ "$2" != - ] || return 0
	result_update "$result" --arg L "$1" --arg p "$2" --arg v "$3" --arg c "$4" \
		--arg dep "${5-}" --arg f "${6-}" --argjson fx "${7:-null}" --arg fix "$(judged_by "$1")" \
		--arg at "$(date -u +%FT%TZ)" --arg kit "$kit" \
		'.mutants[$L] = {dropped: $p, also_left_out: $dep, fix: $fix, verdict: $v, caught_by: $c,
		   failed_tests: ($f | if . == "" then [] else split(";") end), fixes: $fx,
		   measured_at: $at, kit_commit: $kit}'
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
	kind=mutant-$(echo "$1" | tr 'A-Z' 'a-z')
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
	if ! sh "$KIT_ROOT/testvm/verify-kernel.sh" "$OUT/$BRANCH/$kind/bzImage" "$vdir" >/dev/null; then
		record "$1" "$(echo "$drop" | tr ' ' ,)" ERROR "verification VM failed; see $vdir"; holes=$((holes + 1)); return 0
	fi
	judge_mutant "$1" "$(echo "$drop" | tr ' ' ,)" "$OUT/$BRANCH/$kind" "$vdir/boot.json"
}

# judge_mutant <M> <dropped> <build dir> <boot.json>: what caught it, by
# the verdict of M's fix; every other fix must be SURVIVED
judge_mutant() {
	fix=$(judged_by "$1")
	fx=$(jq -c '.fixes // {} | map_values({verdict, signature, failed_tests})' "$4") || die 1 "cannot read $4"
	v=$(jq -r --arg f "$fix" '.fixes[$f].verdict // "none"' "$4")
	sig=$(jq -r --arg f "$fix" '.fixes[$f].signature // .signature' "$4")
	failed=$(jq -r --arg f "$fix" '.fixes[$f].failed_tests // [] | join(";")' "$4")
	# The control phase is init's own (basic 32/64-bit execs and core
	# dumps, before any fix's tests): when it failed, the boot as a whole
	# is INCONCLUSIVE and no fix's tests ran.
	ctl=$(jq -r '.signature // ""' "$4" | grep -E 'oops in the control phase|control phase failed|control phase did not finish' || :)
	others=$(for f in $kit_fixes; do
		[ "$f" = "$fix" ] && continue
		ov=$(jq -r --arg f "$f" '.fixes[$f].verdict // "none"' "$4")
		[ "$ov" = SURVIVED ] || printf '%s %s; ' "$f" "$ov"
	done)
	dep=$(sed 's/\.patch$//' "$3/skipped-patches" 2>/dev/null | paste -sd, -)
	case $v in
	VULNERABLE) caught="$fix VULNERABLE: $(printf '%s' "$sig" | cut -c1-80)" ;;
	REGRESSED) caught="$fix failing tests: $failed" ;;
	# INCONCLUSIVE is never a pass: the kernel without the patch cannot
	# even run the control phase, so the verifier refuses to call it
	# fixed.  A catch, by the control phase rather than by a CVE check,
	# and the table says so.  A fix's INCONCLUSIVE for any other reason
	# (a precondition of its own program failed) is no catch: the table
	# calls it a hole, and the run fails.
	INCONCLUSIVE)
		if [ -n "$ctl" ]; then
			caught="$fix INCONCLUSIVE (not accepted as fixed): $(printf '%s' "$sig" | cut -c1-90)"
		else
			caught="NOTHING (INCONCLUSIVE is no catch for $fix when the control phase passed): $(printf '%s' "$sig" | cut -c1-90)"
			holes=$((holes + 1))
		fi ;;
	# SURVIVED means every test passed: nothing noticed the patch missing;
	# NOT-TESTED (or none): the guest never reached the fix's code
	*) caught="NOTHING (hole in the suite): $fix $v${failed:+, failing tests: $failed}"; holes=$((holes + 1)) ;;
	esac
	case $v in VULNERABLE|INCONCLUSIVE) [ -z "$failed" ] || caught="$caught; failing tests: $failed" ;; esac
	# Another fix must stay SURVIVED beside the mutant, except where the
	# control phase failed under a one-patch mutant: then no fix's tests
	# ran in that kernel, which the table says.  Dropping a whole fix
	# leaves the others' code intact, and they must be SURVIVED.
	whole=0; is_fix "$1" && whole=1
	if [ -n "$others" ] && [ -n "$ctl" ] && [ $whole = 0 ] && [ "$v" = INCONCLUSIVE ]; then
		caught="$caught; other fixes not judged (no fix's tests run once the control phase failed): ${others%; }"
	elif [ -n "$others" ]; then
		caught="$caught; OTHER FIX NOT SURVIVED: ${others%; }"; holes=$((holes + 1))
	else
		caught="$caught; other fixes SURVIVED"
	fi
	[ -z "$dep" ] || caught="$caught [also left out, dependent: $dep]"
	record "$1" "$2" "$v" "$caught" "$dep" "$failed" "$fx"
}

for L in $letters; do
	run_mutant "$L"
done
echo
printf '%-13s %-13s %-13s %s\n' mutant upstream verdict "what caught it"
while IFS='	' read -r L id v c; do printf '%-13s %-13s %-13s %s\n' "$L" "$id" "$v" "$c"; done <"$rows"
[ $holes -eq 0 ] || { echo "mutants: $holes mutant(s) not caught, or another fix not SURVIVED beside them; add a test that fails without them" >&2; exit 1; }
