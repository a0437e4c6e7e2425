#!/bin/sh
# check.sh: what `make check` (and so CI) runs.  Unit tests first (no
# kernel tree needed), then the end-to-end runs for every branch whose
# source is reachable; unreachable ones SKIP loudly with the reason.
# The last line is the summary: "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.." || exit 2
echo "check: started $(date -u +%FT%TZ) on $(nproc) cores"
E2E=${E2E:-1} exec sh ci/run-tests.sh
