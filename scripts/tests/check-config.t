#!/bin/sh
# check-config.sh: a symbol miniconfig dropped is named.
. ci/tap.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf 'CONFIG_A=y\n# CONFIG_B is not set\n' >"$tmp/frag"
printf 'CONFIG_A=y\n# CONFIG_B is not set\n' >"$tmp/good"
printf '# CONFIG_A is not set\n' >"$tmp/dropped"
printf 'CONFIG_A=y\nCONFIG_B=y\n' >"$tmp/on"
t_check "all requested symbols set: pass" sh scripts/check-config.sh "$tmp/frag" "$tmp/good"
out=$(sh scripts/check-config.sh "$tmp/frag" "$tmp/dropped" 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "CONFIG_A: fragment asks 'CONFIG_A=y'" && t_ok "a dropped symbol is named" || t_fail "a dropped symbol is named" "$out"
out=$(sh scripts/check-config.sh "$tmp/frag" "$tmp/on" 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "CONFIG_B: fragment asks it off" && t_ok "a symbol asked off but on is named" || t_fail "a symbol asked off but on is named" "$out"
t_done
