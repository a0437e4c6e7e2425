#!/bin/sh
# check-config.sh FRAGMENT DOTCONFIG: every "CONFIG_X=y" in FRAGMENT is set
# in DOTCONFIG and every "# CONFIG_X is not set" is not.  miniconfig drops
# what Kconfig cannot satisfy without a word; this says which symbol.
set -eu
frag=$1 cfg=$2
bad=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		sym=${line%%=*}
		grep -qx "$line" "$cfg" || {
			echo "check-config: $sym: fragment asks '$line' but .config has '$(grep -E "^$sym=|^# $sym is not set" "$cfg" || echo "no such symbol")'; a dependency is missing"
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
