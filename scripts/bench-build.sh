#!/bin/sh
# bench-build.sh [BRANCH...]: time a from-scratch unpatched build of each
# branch into a throw-away OUT (the kit's real build path: copy, host
# series, config, make, audit) and print one line each.  A benchmark, not a
# test: nothing asserts on the figures.  Run it on an otherwise idle machine.
set -eu
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench.XXXXXX")
trap 'rmtree "$tmp"' EXIT
printf '%-12s %8s %8s  %s\n' branch make_s total_s "load average before"
for b in ${*:-$(list_branches)}; do
	la=$(cut -d' ' -f1-3 /proc/loadavg)
	OUT=$tmp sh "$KIT_ROOT/scripts/build.sh" unpatched "$b" 2>/dev/null ||
		{ printf '%-12s %8s %8s  %s\n' "$b" - - "build failed or source unreachable"; continue; }
	printf '%-12s %8s %8s  %s\n' "$b" "$(jq -r .build.unpatched.seconds "$tmp/$b/result.json")" \
		"$(jq -r .build.unpatched.total_seconds "$tmp/$b/result.json")" "$la"
	rmtree "$tmp/$b"
done
