#!/bin/sh
# mutants.sh [BRANCH]: take each x86-relevant patch (A, C, D, F, G, and the
# ptrace hardening H) out of BRANCH's series in turn, build that kernel,
# verify it blind, and print a table: patch -> what caught its absence.
# Verdicts as defined in testvm/README.md ("## Verdicts"):
#   VULNERABLE    caught by a state check or a crash
#   REGRESSED     caught by the regression tests it names
#   INCONCLUSIVE  not accepted as fixed (the control phase, say)
#   SURVIVED      nothing caught it: a hole in the suite, exit status 1
# (a verification VM that could not run is an error: exit 1 too).
#
# Each mutant's record goes to $OUT/<b>/result.json under .mutants.<L>
# with its verdict, failing tests, measured_at (UTC) and kit_commit, so
# the report is made from what was measured, never from an earlier report.
#
# Mutants break the ordering rule on purpose (A without D, ...), so their
# builds run with KIT_ALLOW_MISORDER=1; the kit's own series never do.
set -u
. "$(dirname "$0")/lib.sh"
BRANCH=${1:-${BRANCH:-}}
load_branch "$BRANCH"
series=$KIT_ROOT/backports/$BRANCH/series
[ -r "$series" ] || die 2 "no security series for $BRANCH; run 'make series BRANCH=$BRANCH' first"
result=$OUT/$BRANCH/result.json
letters=${MUTANTS:-"A C D F G"}   # H is defence in depth: the fixed kernel survives without it
id_of() {
	case $1 in
	A) echo 221af7f87b97 ;; C) echo 05d43ed8a89c ;; D) echo 7ab02af428c2 ;;
	F) echo 1252f238db48 ;; G) echo 318f6b228ba8 ;; H) echo 04a1e62c2cec ;;
	*) die 2 "unknown mutant letter '$1' (A C D F G H)" ;;
	esac
}
for L in $letters; do id_of "$L" >/dev/null; done	# a bad letter stops before any build
kit=$(git -C "$KIT_ROOT" describe --always --dirty 2>/dev/null) || kit=unknown
rows=$(mktemp) || die 1 "cannot create a temp file"
trap 'rm -f "$rows"' EXIT
holes=0

# record <L> <patch dropped> <verdict> <caught by> [<dependent> [<failed tests, ;-separated>]]
record() {
	printf '%s\t%s\t%s\t%s\n' "$1" "$(id_of "$1")" "$3" "$4" >>"$rows"
	[ "$2" != - ] || return 0
	result_update "$result" --arg L "$1" --arg p "$2" --arg v "$3" --arg c "$4" \
		--arg dep "${5-}" --arg f "${6-}" --arg at "$(date -u +%FT%TZ)" --arg kit "$kit" \
		'.mutants[$L] = {dropped: $p, also_left_out: $dep, verdict: $v, caught_by: $c,
		   failed_tests: ($f | if . == "" then [] else split(";") end),
		   measured_at: $at, kit_commit: $kit}'
}

# run_mutant <L>: build and verify the series without L's patch
run_mutant() {
	id=$(id_of "$1")
	drop=
	for p in $(grep -v '^#' "$series"); do
		grep -q "^commit $id" "$KIT_ROOT/backports/$BRANCH/$p" && drop=$p
	done
	[ -n "$drop" ] || { record "$1" - - "not in the series"; return 0; }
	kind=mutant-$(echo "$1" | tr 'A-Z' 'a-z')
	sdir=$OUT/$BRANCH/$kind.series
	rm -rf "$sdir"; mkdir -p "$sdir" || die 1 "cannot create $sdir"
	for p in $(grep -v '^#' "$series"); do
		[ "$p" = "$drop" ] && continue
		cp "$KIT_ROOT/backports/$BRANCH/$p" "$sdir/" || die 1 "cannot copy $p to $sdir"
		echo "$p" >>"$sdir/series"
	done
	progress "$BRANCH" mutant "$1: without $drop"
	KIT_ALLOW_MISORDER=1 SERIES_DIR=$sdir sh "$KIT_ROOT/scripts/build.sh" "$kind" "$BRANCH"
	_brc=$?
	# Only a kernel that fails to build is "does not build without it";
	# bad input (2) or an unreachable source (3) is no finding: stop.
	case $_brc in
	0) ;;
	2 | 3) die "$_brc" "[$BRANCH] mutant $1: build.sh exit $_brc before any kernel was built; see the message above" ;;
	*) record "$1" "$drop" "BUILD FAILED" "(the series does not build without it)"; return 0 ;;
	esac
	vdir=$OUT/$BRANCH/$kind/verify
	if ! sh "$KIT_ROOT/testvm/verify-kernel.sh" "$OUT/$BRANCH/$kind/bzImage" "$vdir" >/dev/null; then
		record "$1" "$drop" ERROR "verification VM failed; see $vdir"; holes=$((holes + 1)); return 0
	fi
	judge_mutant "$1" "$drop" "$OUT/$BRANCH/$kind" "$vdir/boot.json"
}

# judge_mutant <L> <dropped> <build dir> <boot.json>: what caught it
judge_mutant() {
	v=$(jq -r .verdict "$4") || die 1 "cannot read $4"
	sig=$(jq -r .signature "$4")
	failed=$(jq -r '.failed_tests // [] | join(";")' "$4") || die 1 "cannot read $4"
	dep=$(sed 's/\.patch$//' "$3/skipped-patches" 2>/dev/null | paste -sd, -)
	case $v in
	VULNERABLE) caught="VULNERABLE: $(printf '%s' "$sig" | cut -c1-80)" ;;
	REGRESSED) caught="failing tests: $failed" ;;
	# INCONCLUSIVE is never a pass: the kernel without the patch cannot
	# even run the control phase (basic 32/64-bit execs and core dumps),
	# so the verifier refuses to call it fixed.  A catch, by the control
	# phase rather than by a CVE check, and the table says so.
	INCONCLUSIVE) caught="INCONCLUSIVE (not accepted as fixed): $(printf '%s' "$sig" | cut -c1-90)" ;;
	# SURVIVED means every test passed: nothing noticed the patch missing
	*) caught="NOTHING (hole in the suite): $v${failed:+, failing tests: $failed}"; holes=$((holes + 1)) ;;
	esac
	case $v in VULNERABLE|INCONCLUSIVE) [ -z "$failed" ] || caught="$caught; failing tests: $failed" ;; esac
	[ -z "$dep" ] || caught="$caught [also left out, dependent: $dep]"
	record "$1" "$2" "$v" "$caught" "$dep" "$failed"
}

for L in $letters; do
	run_mutant "$L"
done
echo
printf '%-3s %-13s %-13s %s\n' "" upstream verdict "what caught it"
while IFS='	' read -r L id v c; do printf '%-3s %-13s %-13s %s\n' "$L" "$id" "$v" "$c"; done <"$rows"
[ $holes -eq 0 ] || { echo "mutants: $holes mutant(s) not caught; add a test that fails without them" >&2; exit 1; }
