# shellcheck shell=sh
# Helpers for the end-to-end tests: each runs the kit's real commands.
KIT_ROOT=$(pwd)
. ci/tap.sh
. scripts/lib.sh
mkdir -p "$OUT" || exit 1
# e2e_branches: the branches to run (E2E_BRANCHES narrows it).
e2e_branches() { echo "${E2E_BRANCHES:-$(list_branches | tr '\n' ' ')}"; }
# reachable <branch>: 0 if its source is in the cache or reachable now;
# otherwise prints the reason.
reachable() {
	_out=$(sh scripts/fetch.sh "$1" 2>&1 >/dev/null); _rc=$?
	[ $_rc -eq 0 ] && return 0
	printf '%s' "$(printf '%s' "$_out" | tail -1 | sed 's/^[^:]*: error: //')"
	return $_rc
}
