# shellcheck shell=sh
# Helpers for the end-to-end tests: each runs the kit's real commands.
KIT_ROOT=$(pwd)
. ci/tap.sh
. scripts/lib.sh
mkdir -p "$OUT" || exit 1
# e2e_branches: the branches to run (E2E_BRANCHES narrows it).
e2e_branches() { echo "${E2E_BRANCHES:-$(list_branches | tr '\n' ' ')}"; }

# need_source <branch> <test name>: 0 when the branch's source is usable
# (exported and verified in the cache).  Otherwise prints one TAP line and
# returns 1:
#   SKIP     only when the source cannot be reached (fetch.sh exit 3) and no
#            source is configured (a fresh machine), or for the apt source;
#   not ok   when it cannot be reached although KERNEL_GIT was given, and for
#            every other reason (wrong commit, export mismatch, a local path
#            that does not exist): those are failures, not absences.
# Reachability is decided once per run: ci/check.sh sets KIT_RUN_DIR, and an
# unreachable source is remembered there, so the next test does not wait
# for the same timeout again.
need_source() {
	_nsb=$1 _nsn=$2
	load_branch "$_nsb"
	# the memo is per source: another KERNEL_GIT is asked afresh
	_memo=
	[ -z "${KIT_RUN_DIR:-}" ] ||
		_memo=$KIT_RUN_DIR/unreachable.$BR_SOURCE.$(printf '%s' "$KERNEL_GIT" | cksum | cut -d' ' -f1)
	if [ -n "$_memo" ] && [ -r "$_memo" ]; then
		_out=$(cat "$_memo"); _rc=3
	else
		_out=$(sh scripts/fetch.sh "$_nsb" 2>&1 >/dev/null); _rc=$?
		_out=$(printf '%s' "$_out" | grep 'error:' | tail -1 | sed 's/^[^:]*: error: //')
		[ $_rc -ne 3 ] || [ -z "$_memo" ] || printf '%s\n' "$_out" >"$_memo"
	fi
	[ $_rc -eq 0 ] && return 0
	if [ $_rc -eq 3 ] && [ "$(skip_or_fail "$_nsb")" = SKIP ]; then
		t_skip "$_nsn" "source not reachable: $_out"
	elif [ $_rc -eq 3 ]; then
		t_fail "$_nsn" "source not reachable although KERNEL_GIT is configured: $_out"
	else
		t_fail "$_nsn" "source unusable (fetch.sh exit $_rc): $_out"
	fi
	return 1
}

# need_series <branch> <test name>: 0 when backports/<branch>/series exists.
# A 2.6 branch without a committed series is a failure (a deleted series
# must not pass); a branch that carries the fix itself (apt) has none.
need_series() {
	load_branch "$1"
	[ -r "backports/$1/series" ] && return 0
	if [ "$BR_SOURCE" = apt ]; then t_skip "$2" "$1 carries the fix itself: no series to apply"
	else t_fail "$2" "backports/$1/series is missing; run 'make series BRANCH=$1' and commit it"; fi
	return 1
}
