#!/bin/sh
# check-config.sh FRAGMENT DOTCONFIG [TREE]: every "CONFIG_X=y" in FRAGMENT
# is set in DOTCONFIG and every "# CONFIG_X is not set" is not.  miniconfig
# (and oldconfig) drop what Kconfig cannot satisfy without a word; this
# says which symbol, and with TREE, why: where the tree's Kconfig defines
# it and what it depends on (or that it defines no such symbol).
set -eu
frag=$1 cfg=$2 tree=${3:-}
bad=0
# why SYM: " (<Kconfig file>: depends on ...)" from TREE's Kconfig files
why() {
	[ -n "$tree" ] || return 0
	_s=${1#CONFIG_}
	_k=$(cd "$tree" && grep -rl --include='Kconfig*' -E "^[[:space:]]*(menu)?config[[:space:]]+${_s}[[:space:]]*\$" . 2>/dev/null | head -1)
	if [ -z "$_k" ]; then printf ' (no Kconfig of the tree defines %s)' "$_s"; return 0; fi
	_d=$(awk -v s="$_s" '
		$1 ~ /^(menu)?config$/ { on = ($2 == s); next }
		on && $1 ~ /^(config|menuconfig|menu|endmenu|choice|endchoice|if|endif|source|comment)$/ { on = 0 }
		on && /^[[:space:]]*depends on/ { sub(/^[[:space:]]*/, ""); d = d (d ? "; " : "") $0 }
		END { print d }' "$tree/${_k#./}")
	printf ' (%s%s)' "${_k#./}" "${_d:+: $_d}"
}
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		sym=${line%%=*}
		grep -qx "$line" "$cfg" || {
			echo "check-config: $sym: fragment asks '$line' but .config has '$(grep -E "^$sym=|^# $sym is not set" "$cfg" || echo "no such symbol")'; a dependency is missing$(why "$sym")"
			bad=1
		} ;;
	"# CONFIG_"*" is not set")
		sym=${line#\# }; sym=${sym%% *}
		if grep -q "^$sym=" "$cfg"; then
			echo "check-config: $sym: fragment asks it off but .config has '$(grep "^$sym=" "$cfg")'"
			bad=1
		fi ;;
	esac
done <"$frag"
[ $bad -eq 0 ] || { echo "check-config: required symbols missing from .config (see above)"; exit 1; }
