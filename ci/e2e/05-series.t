#!/bin/sh
# after: trees
# Every committed series regenerates byte for byte from backports/fixes/
# (hand hunks and each fix's Coccinelle rules) against the pinned tree (drift fails loudly), and a
# regenerated series passes the ordering rule (series.sh checks it).
. ci/e2e/lib.sh
for b in $(e2e_branches); do
	need_series "$b" "$b series regenerates" || continue
	need_source "$b" "$b series regenerates" || continue
	tmp=$(mktemp -d)
	if SERIES_OUT=$tmp/s sh scripts/series.sh "$b" >"$tmp/log" 2>&1; then
		if d=$(diff -ru "backports/$b" "$tmp/s" 2>&1); then
			t_ok "$b series regenerates byte for byte ($(wc -l <"backports/$b/series") patches)"
		else
			t_fail "$b series regenerates byte for byte" "$(printf '%s' "$d" | head -20)"
		fi
	else
		t_fail "$b series regenerates" "$(tail -3 "$tmp/log")"
	fi
	rm -rf "$tmp"
done
t_done
