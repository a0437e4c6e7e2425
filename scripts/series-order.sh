#!/bin/sh
# series-order.sh SERIES: refuse a security series that breaks the rule
# "never A without D, nor D without B, C and E" (order-rule.sh; with
# ARCHES=, D needs only the removals of the architectures named: C x86_64,
# B sparc64, E powerpc).  Each patch names its upstream commit on a
# "commit <id> upstream." line.  CVE-2010-3081's I needs nothing of A-H:
# it passes after H (its place in every series) or anywhere else.
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
