# shellcheck shell=sh
# Tiny TAP producer for the kit's shell tests.  Source it, then call
#   t_ok <name>            t_fail <name> [diagnostic...]
#   t_skip <name> <why>    t_check <name> <command...>   (ok iff command succeeds)
#   t_done                 (prints the plan; exit 1 if anything failed)
# Tests print TAP to stdout; ci/run-tests.sh counts the lines.
_t_n=0 _t_failed=0
t_ok()   { _t_n=$((_t_n + 1)); echo "ok $_t_n - $1"; }
t_fail() { _t_n=$((_t_n + 1)); _t_failed=$((_t_failed + 1)); echo "not ok $_t_n - $1"; shift
	for _l; do printf '#   %s\n' "$_l"; done; }
t_skip() { _t_n=$((_t_n + 1)); echo "ok $_t_n - $1 # SKIP $2"; echo "SKIP: $1: $2" >&2; }
t_check() { _nm=$1; shift
	if _o=$("$@" 2>&1); then t_ok "$_nm"; else t_fail "$_nm" "command: $*" "$(printf '%s' "$_o" | tail -5)"; fi; }
t_done() { echo "1..$_t_n"; [ "$_t_failed" -eq 0 ]; }
