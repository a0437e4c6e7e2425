#!/bin/sh
# all.sh: the main job: build, patch and verify every reachable branch.
set -u
. "$(dirname "$0")/lib.sh"
exec sh "$KIT_ROOT/scripts/verify-all.sh"
