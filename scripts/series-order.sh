#!/bin/sh
# series-order.sh SERIES: refuse a security series that breaks a fix's
# ordering rule (order-rule.sh: the Needs: and Needs-for: lines of the
# changes' INFO; with ARCHES=, only the architectures named).  Each patch
# names its upstream commit on a "commit <id> upstream." line.  A change
# with no such line in its INFO, nor named by one, passes anywhere.
set -eu
series=$1
dir=$(dirname "$series")
ids=
for p in $(grep -v '^#' "$series"); do
	[ -r "$dir/$p" ] || { echo "series-order: $series names $p, which does not exist" >&2; exit 2; }
	id=$(sed -n 's/^commit \([0-9a-f]\{40\}\) upstream\.$/\1/p' "$dir/$p" | head -1)
	ids="$ids ${id:-none}"
done
sh "$(dirname "$0")/order-rule.sh" $ids
