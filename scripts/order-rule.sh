#!/bin/sh
# order-rule.sh ID...: the upstream commits present in a tree or a series,
# in order.  Exit 1, naming what is present and what is missing, when they
# break a fix's ordering rule; exit 2 for an ARCHES value naming no known
# architecture.
#
# The rule is data of the changes' INFO (backports/README.md), never of
# this script:
#   Needs: <L>: <why>             when this change is present, change L
#                                 must be present too, after it
#   Needs-for: <arch> <L>: <why>  when this change is present and the
#                                 architecture is shipped (ARCHES=, default
#                                 all: scripts/arches.sh), L must be present
# An id no change names, or a change with neither key, passes wherever it
# stands: fixes are independent unless their INFO says otherwise.
set -eu
. "$(dirname "$0")/lib.sh"
# every folder of backports/fixes/ is a fix with its FIX, or nothing runs
# (lib.sh kit_fixes: called here, not in $(...), so that its refusal stops us)
kit_fixes >/dev/null
. "$KIT_ROOT/scripts/arches.sh"
arches_canon "${ARCHES:-}" || { echo "order-rule: $ARCHES_WHY" >&2; exit 2; }
present=" $* "
in_set() { case $present in *" $1 "*) return 0 ;; esac; return 1; }
pos() { i=0; for x in $present; do i=$((i + 1)); [ "$x" = "$1" ] && { echo $i; return; }; done; echo 0; }
# map: "<letter>\t<upstream id>\t<subject>" of every change
map=$(for c in $(kit_changes); do
	printf '%s\t%s\t%s\n' "$(info_field "$c" Letter | head -1)" "$(info_field "$c" Upstream | head -1)" "$(info_field "$c" Subject | head -1)"
done)
id_of() { printf '%s\n' "$map" | awk -F'\t' -v l="$1" '$1 == l { print $2; exit }'; }
# name <letter>: "L (<12-hex id>, <subject>)", as the messages give a change
name() { printf '%s\n' "$map" | awk -F'\t' -v l="$1" '$1 == l { printf "%s (%s, %s)", l, substr($2, 1, 12), $3; exit }'; }
err=
add() { err="${err:+$err; }$*"; }
for c in $(kit_changes); do
	L=$(info_field "$c" Letter | head -1) id=$(info_field "$c" Upstream | head -1)
	in_set "$id" || continue
	# Needs: <L>: <why>
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		n=${line%%:*} why=${line#*: }
		nid=$(id_of "$n")
		[ -n "$nid" ] || die 2 "$c: Needs: names $n, which no change's Letter: is"
		if ! in_set "$nid"; then
			add "$(name "$L") is present without $(name "$n"): $why"
		elif [ "$(pos "$nid")" -lt "$(pos "$id")" ]; then
			add "$(name "$n") comes before $L ($(printf '%.12s' "$id")); $n must follow $L: $why"
		fi
	done <<EOT
$(info_field "$c" Needs)
EOT
	# Needs-for: <arch> <L>: <why>
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		arch=${line%% *} rest=${line#* }
		n=${rest%%:*} why=${rest#*: }
		nid=$(id_of "$n")
		[ -n "$nid" ] || die 2 "$c: Needs-for: names $n, which no change's Letter: is"
		arches_has "$ARCHES_LIST" "$arch" || continue
		in_set "$nid" || add "$(name "$L") is present without $(name "$n"), which $arch needs: $why (ARCHES: $ARCHES_LIST)"
	done <<EOT
$(info_field "$c" Needs-for)
EOT
done
if [ -n "$err" ]; then echo "order-rule: $err" >&2; exit 1; fi
