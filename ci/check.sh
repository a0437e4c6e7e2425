#!/bin/sh
# check.sh: what `make check` (and so CI) runs.  Unit tests first (no
# kernel tree needed), then the end-to-end runs for every branch.  A branch
# whose source cannot be reached SKIPs loudly with the reason on a machine
# with no source configured; once KERNEL_GIT is configured, that is a
# failure.  The last line is the summary: "N passed, N failed, N skipped";
# the exit status is non-zero when anything failed.
set -u
cd "$(dirname "$0")/.." || exit 2
echo "check: started $(date -u +%FT%TZ) on $(nproc) cores"
# One run, one decision on reachability (ci/e2e/lib.sh need_source).
KIT_RUN_DIR=$(mktemp -d) || exit 1
export KIT_RUN_DIR
trap 'rm -rf "$KIT_RUN_DIR"' EXIT
E2E=${E2E:-1} sh ci/run-tests.sh
