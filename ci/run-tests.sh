#!/bin/sh
# run-tests.sh [GLOB...]: run the kit's test files and count their TAP lines.
#
# A test file is any executable */tests/*.t (unit, seconds) or, with
# E2E=1, ci/e2e/*.t (end-to-end: builds and boots kernels).  Each prints
# TAP (see ci/tap.sh).  The last line printed is the summary the CI reads:
#   "N passed, N failed, N skipped"
# After each file a "--- FILE: ... in Ns (elapsed Ns)" line: where CI time goes.
# A test file that exits non-zero without printing "not ok" counts as one
# failure, so a crashed test is never silent.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
pass=0 fail=0 skip=0
t0=$(date +%s)
files=$(ls -1 ./*/tests/*.t 2>/dev/null | sort)
[ "${E2E:-0}" = 1 ] && files="$files $(ls -1 ci/e2e/*.t 2>/dev/null | sort)"
[ $# -gt 0 ] && files="$*"
for f in $files; do
	echo "=== $f"
	f0=$(date +%s)
	out=$(mktemp)
	sh "$f" >"$out" 2>&1
	rc=$?
	cat "$out"
	p=$(grep -E '^ok ' "$out" | grep -vc '# SKIP')
	s=$(grep -Ec '^ok .*# SKIP' "$out")
	n=$(grep -Ec '^not ok ' "$out")
	if [ "$rc" -ne 0 ] && [ "$n" -eq 0 ]; then
		echo "not ok - $f exited $rc without a failing test line"
		n=1
	fi
	pass=$((pass + p)) skip=$((skip + s)) fail=$((fail + n))
	rm -f "$out"
	now=$(date +%s)
	echo "--- $f: ${p} ok, ${n} not ok, ${s} skip in $((now - f0))s (elapsed $((now - t0))s)"
done
echo
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
