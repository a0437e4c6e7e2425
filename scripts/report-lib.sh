# shellcheck shell=sh
# report-lib.sh: what the writers of the report (report-html.sh, ship.sh)
# share; sourced after lib.sh (die, OUT, KIT_ROOT).

# readable <file> <what to run> [<what is left as it was>]: a result file
# must be one JSON object, or the run stops naming it.
readable() {
	[ "$(jq -s 'length == 1 and (.[0] | type) == "object"' "$1" 2>/dev/null)" = true ] ||
		die 1 "$1 is not a readable result file (truncated or not JSON); $2 (or remove it)${3:+; $3}"
}

# shown <path>: a path as the page shows it; never this machine's folders
# (the page is committed): <OUT>/..., a path in the kit, or the last two parts.
shown() {
	case $1 in
	"$OUT"/*) echo "<OUT>/${1#"$OUT"/}" ;;
	"$KIT_ROOT"/*) echo "${1#"$KIT_ROOT"/}" ;;
	*/*/*) echo ".../$(basename "$(dirname "$1")")/$(basename "$1")" ;;
	*) echo "$1" ;;
	esac
}
