#!/bin/sh
# mutants.sh [BRANCH]: take each x86-relevant patch (A, C, D, F, G, and the
# ptrace hardening H) out of BRANCH's series in turn, build that kernel,
# verify it blind, and print a table: patch -> what caught its absence
# (VULNERABLE, the regression tests that failed, or INCONCLUSIVE when the
# kernel cannot even pass the control phase).  A mutant that comes out
# SURVIVED with every test passing is a hole in the suite: exit status 1.
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
rows=$(mktemp)
holes=0
for L in $letters; do
	id=$(id_of "$L")
	drop=
	for p in $(grep -v '^#' "$series"); do
		grep -q "^commit $id" "$KIT_ROOT/backports/$BRANCH/$p" && drop=$p
	done
	if [ -z "$drop" ]; then
		printf '%s\t%s\t-\tnot in the series\n' "$L" "$id" >>"$rows"; continue
	fi
	kind=mutant-$(echo "$L" | tr 'A-Z' 'a-z')
	sdir=$OUT/$BRANCH/$kind.series
	rm -rf "$sdir"; mkdir -p "$sdir"
	for p in $(grep -v '^#' "$series"); do
		[ "$p" = "$drop" ] && continue
		cp "$KIT_ROOT/backports/$BRANCH/$p" "$sdir/"; echo "$p" >>"$sdir/series"
	done
	progress "$BRANCH" mutant "$L: without $drop"
	if ! KIT_ALLOW_MISORDER=1 SERIES_DIR=$sdir sh "$KIT_ROOT/scripts/build.sh" "$kind" "$BRANCH"; then
		printf '%s\t%s\tBUILD FAILED\t(the series does not build without it)\n' "$L" "$id" >>"$rows"; continue
	fi
	vdir=$OUT/$BRANCH/$kind/verify
	sh "$KIT_ROOT/testvm/verify-kernel.sh" "$OUT/$BRANCH/$kind/src/arch/x86/boot/bzImage" "$vdir" >/dev/null ||
		{ printf '%s\t%s\tERROR\tverification VM failed\n' "$L" "$id" >>"$rows"; holes=$((holes + 1)); continue; }
	v=$(jq -r .verdict "$vdir/boot.json")
	dep=$(cat "$OUT/$BRANCH/$kind/skipped-patches" 2>/dev/null | sed 's/\.patch$//' | paste -sd, -)
	failed=$(cat "$vdir"/boot-*.log 2>/dev/null | sed -n 's/^not ok [0-9]* - \([^#]*\).*/\1/p' | sed 's/ *$//' | sort -u | paste -sd';' -)
	case $v in
	VULNERABLE) caught="VULNERABLE: $(jq -r .signature "$vdir/boot.json" | cut -c1-80)" ;;
	SURVIVED) if [ -n "$failed" ]; then caught="failing tests: $failed"; else caught="NOTHING (hole in the suite)"; holes=$((holes + 1)); fi ;;
	# INCONCLUSIVE is never a pass: the kernel without the patch cannot even
	# run the control phase (basic 32/64-bit execs and core dumps), so the
	# verifier refuses to call it fixed.  That is a catch, by the control
	# phase rather than by a CVE check, and the table says so.
	*) caught="INCONCLUSIVE (not accepted as fixed): $(jq -r .signature "$vdir/boot.json" | cut -c1-90)" ;;
	esac
	[ "$v" = SURVIVED ] || [ -z "$failed" ] || caught="$caught; failing tests: $failed"
	[ -z "$dep" ] || caught="$caught [also left out, dependent: $dep]"
	printf '%s\t%s\t%s\t%s\n' "$L" "$id" "$v" "$caught" >>"$rows"
	result_update "$result" --arg L "$L" --arg p "$drop" --arg v "$v" --arg c "$caught" --arg dep "$dep" \
		'.mutants[$L] = {dropped: $p, also_left_out: $dep, verdict: $v, caught_by: $c}'
done
echo
printf '%-3s %-13s %-13s %s\n' "" upstream verdict "what caught it"
while IFS='	' read -r L id v c; do printf '%-3s %-13s %-13s %s\n' "$L" "$id" "$v" "$c"; done <"$rows"
rm -f "$rows"
[ $holes -eq 0 ] || { echo "mutants: $holes mutant(s) not caught; add a test that fails without them" >&2; exit 1; }
