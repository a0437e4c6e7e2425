#!/bin/sh
# gcl.sh [gitlab-ci-local arguments...]: run .gitlab-ci.yml's jobs on this
# machine with gitlab-ci-local (installed in ci/npm/ by make deps), the way
# a shell runner would: each job in a fresh copy of the project's tracked
# files (--shell-isolation; .gitlab-ci-local/make-check/builds/<job>), its
# artifacts kept in .gitlab-ci-local/make-check/artifacts/ and handed to
# the jobs that need them, never copied into this work tree.
#
# The jobs get a clean environment (HOME, PATH, LANG, KIT_CONFIG), as on a
# runner: nothing of the calling kit script (KIT_ROOT, OUT, ...) leaks in.
# Two variables come from this machine's settings (environment, else the
# kit's config file): KIT_CACHE, so that a job reuses the exports and the
# build cache every other run here uses, and KERNEL_GIT when one is
# configured (else the jobs decide as any kit command does: SKIP).
#
# Exit: gitlab-ci-local's; 2 when it is not installed.
set -u
. "$(dirname "$0")/../scripts/lib.sh"
cd "$KIT_ROOT" || exit 2
glc=$KIT_ROOT/ci/npm/node_modules/.bin/gitlab-ci-local
[ -x "$glc" ] || die 2 "gitlab-ci-local is not installed in ci/npm; run 'make deps'"
set -- --shell-isolation --no-artifacts-to-source --no-color \
	--state-dir .gitlab-ci-local/make-check --variable "KIT_CACHE=$KIT_CACHE" "$@"
! source_configured || set -- --variable "KERNEL_GIT=$KERNEL_GIT" "$@"
exec env -i HOME="$HOME" PATH="$PATH" LANG=C.UTF-8 ${KIT_CONFIG:+KIT_CONFIG="$KIT_CONFIG"} \
	"$glc" "$@"
