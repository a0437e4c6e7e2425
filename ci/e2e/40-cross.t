#!/bin/sh
# lane: kernels
# The cross matrix (make cross): every patched loader compiles on an
# architecture that builds it, unpatched and patched, with no new warning,
# and each patch changed exactly the functions its fix's cross/*.expect names.
# Tens of minutes a branch cold (its phase in make check's last line, and
# make bench's check stage), seconds when every cell comes from the cross
# cache; make check must stay within CI's
# budget even cold, so it runs the newest branch by default; CROSS_BRANCHES="v2.6.26 v2.6.32"
# adds the other end of the range (the IRIX caller, the old header
# layout), and `make cross-all` runs all seven (docs/results.md has the
# last whole run).
. ci/e2e/lib.sh
for b in ${CROSS_BRANCHES:-v2.6.32}; do
	need_series "$b" "$b cross matrix" || continue
	need_source "$b" "$b cross matrix" || continue
	sh scripts/cross.sh "$b" >"$OUT/cross-$b.log" 2>&1
	rc=$?
	table=$OUT/$b/cross/table.txt
	if [ ! -r "$table" ]; then
		t_fail "$b cross matrix ran" "exit $rc, no table; $(tail -2 "$OUT/cross-$b.log")"
		continue
	fi
	# one line per cell: ok, or skipped with its reason, or failed
	for c in $(tail -n +2 "$table" | awk '{ print $2 }' | sort -u); do
		rows=$(awk -v c="$c" 'NR > 1 && $2 == c' "$table")
		n=$(printf '%s\n' "$rows" | wc -l)
		if printf '%s\n' "$rows" | awk '{ $1 = $2 = $3 = ""; print }' | grep -q '^ *\(failed\|not run\|?\)'; then
			t_fail "$b $c" "$(printf '%s\n' "$rows" | grep -v ' ok$' | head -2)"
		elif printf '%s\n' "$rows" | grep -q ' skipped: '; then
			t_skip "$b $c" "$(printf '%s\n' "$rows" | head -1 | sed 's/.* skipped: //')"
		else
			t_ok "$b $c: $n objects build unpatched and patched, no new warning, changed functions as expected"
		fi
	done
	[ $rc -eq 0 ] || t_fail "$b cross.sh exit status" "exit $rc; log $OUT/cross-$b.log"
done
t_done
