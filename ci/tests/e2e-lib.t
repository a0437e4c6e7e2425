#!/bin/sh
# ci/e2e/lib.sh: an end-to-end test SKIPs only when the source cannot be
# reached and none is configured; every other reason (a missing local
# path, a configured source that does not answer, a missing series) is a
# failure.  An unreachable source is tried once per run.
cd "$(dirname "$0")/../.." || exit 2
. ci/tap.sh
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir "$t/kit" && cp -a branches scripts ci "$t/kit/"
# run <env...> -- <shell code>: the code after sourcing ci/e2e/lib.sh in a
# copy of the kit that has no backports/.
run() {
	_e=; while [ "$1" != -- ]; do _e="$_e $1"; shift; done; shift
	# KIT_RUN_DIR of the run this test is part of (make check) must never
	# receive this test's answers: each case gets none unless it asks.
	out=$(cd "$t/kit" && env OUT="$t/out" KIT_CACHE="$t/cache" KIT_CONFIG=/nonexistent KIT_FETCH_TIMEOUT=10 KIT_RUN_DIR= $_e \
		sh -c ". ci/e2e/lib.sh; $1" 2>&1)
}
run KERNEL_GIT="$t/none" -- 'need_source v2.6.32 probe'
printf '%s' "$out" | grep -q '^not ok 1 - probe' && printf '%s' "$out" | grep -q 'does not exist' &&
	t_ok "a KERNEL_GIT path that does not exist is a failing test, with the reason" || t_fail "missing path fails" "$out"
run KERNEL_GIT=http://127.0.0.1:9/x.git KIT_SOURCE_CONFIGURED=1 -- 'need_source v2.6.32 probe'
printf '%s' "$out" | grep -q '^not ok 1 - probe' && printf '%s' "$out" | grep -q 'although KERNEL_GIT is configured' &&
	t_ok "an unreachable source that was configured is a failing test" || t_fail "configured unreachable fails" "$out"
run KERNEL_GIT=http://127.0.0.1:9/x.git KIT_SOURCE_CONFIGURED=0 -- 'need_source v2.6.32 probe'
printf '%s' "$out" | grep -q '^ok 1 - probe # SKIP source not reachable' &&
	t_ok "no source configured and unreachable: SKIP with the reason" || t_fail "fresh machine SKIPs" "$out"
mkdir -p "$t/run"
# The first answer is remembered (the memo is rewritten here so that a
# second attempt would show), and only for that source.
run KERNEL_GIT=http://127.0.0.1:9/x.git KIT_SOURCE_CONFIGURED=0 KIT_RUN_DIR="$t/run" -- \
	'need_source v2.6.32 a; for m in "$KIT_RUN_DIR"/unreachable.git.*; do echo remembered >"$m"; done
	 need_source v2.6.26 b; KERNEL_GIT=http://127.0.0.1:9/y.git need_source v2.6.26 c'
printf '%s' "$out" | grep -q '^ok 2 - b # SKIP source not reachable: remembered$' &&
	printf '%s' "$out" | grep -q '^ok 3 - c # SKIP source not reachable: cannot reach http://127.0.0.1:9/y.git' &&
	t_ok "reachability is decided once per run and per source: the second branch reuses the answer, another source is asked" ||
	t_fail "decided once per run" "$out"
run -- 'need_series v2.6.32 s; need_series debian-6.1 d'
printf '%s' "$out" | grep -q '^not ok 1 - s' && printf '%s' "$out" | grep -q 'backports/v2.6.32/series is missing' &&
	printf '%s' "$out" | grep -q '^ok 2 - d # SKIP' &&
	t_ok "a missing 2.6 series is a failure; a branch that carries the fix SKIPs" || t_fail "missing series fails" "$out"
t_done
