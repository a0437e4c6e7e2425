#!/bin/sh
# result.json: concurrent writers (verify, cross, mutants on one branch) all
# land; a damaged file is refused and left for the user to see, never
# overwritten with a partial merge; every record carries its layout version.
cd "$(dirname "$0")/../.." || exit 2
. ci/tap.sh
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
r=$t/result.json
KIT_ROOT=$(pwd) KIT_CONFIG=/nonexistent sh -c '
	. scripts/lib.sh
	for i in $(seq 1 30); do result_update "$1" --arg i "$i" ".writers[\$i] = true" & done
	wait' sh "$r" 2>"$t/err"
n=$(jq '.writers | length' "$r" 2>/dev/null)
[ "$n" = 30 ] && t_ok "30 concurrent result_update calls: all 30 writes kept" || t_fail "concurrent updates kept" "kept ${n:-none} of 30" "$(head -3 "$t/err")"
[ "$(jq .schema "$r")" = 2 ] && t_ok "the record carries its schema version (2)" || t_fail "schema version recorded" "$(jq .schema "$r")"
head -c 20 "$r" >"$t/trunc"; cp "$t/trunc" "$r"
out=$(KIT_ROOT=$(pwd) KIT_CONFIG=/nonexistent sh -c '. scripts/lib.sh; result_update "$1" ".x = 1"' sh "$r" 2>&1); rc=$?
left=$(ls "$t" | grep -c 'result\.json\.[^l]')
[ $rc -eq 1 ] && printf '%s' "$out" | grep -q "result.json is not a JSON object" && cmp -s "$r" "$t/trunc" && [ "$left" -eq 0 ] &&
	t_ok "a truncated result.json is refused (exit 1, named) and left as it was, no temp file" || t_fail "truncated result.json refused" "rc=$rc left=$left $out"
out=$(KIT_ROOT=$(pwd) KIT_CONFIG=/nonexistent sh -c '. scripts/lib.sh; printf "{}\n" >"$1"; result_update "$1" ".x = (1 | error)"' sh "$r" 2>&1); rc=$?
[ $rc -eq 1 ] && [ "$(cat "$r")" = "{}" ] && t_ok "a failing jq program leaves the old record (exit 1)" || t_fail "failing jq leaves the record" "rc=$rc $(cat "$r")"
KIT_ROOT=$(pwd) KIT_CONFIG=/nonexistent sh -c '. scripts/lib.sh; kit_provenance' >"$t/p" 2>&1
jq -e '.kit_commit != "" and (.gcc | test("gcc")) and has("binutils") and has("spatch") and has("qemu")' "$t/p" >/dev/null &&
	t_ok "provenance names the kit commit, gcc, binutils, spatch and QEMU" || t_fail "provenance" "$(cat "$t/p")"
t_done
