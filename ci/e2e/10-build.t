#!/bin/sh
# lane: kernels
# Every reachable branch builds unpatched with the host toolchain; its work
# tree differs from the pinned commit only in its host series' files (the
# build checks that), and the flag audit passes (the build runs it).
. ci/e2e/lib.sh
for b in $(e2e_branches); do
	need_source "$b" "$b builds unpatched" || continue
	if sh scripts/build.sh unpatched "$b" >"$OUT/.e2e-build.log" 2>&1; then
		st=$(jq -r '.build.unpatched.status' "$OUT/$b/result.json")
		secs=$(jq -r '.build.unpatched.seconds' "$OUT/$b/result.json")
		[ "$st" = ok ] && t_ok "$b builds unpatched (config+make ${secs}s)" ||
			t_fail "$b builds unpatched" "result.json says $st"
	else
		t_fail "$b builds unpatched" "$(tail -3 "$OUT/.e2e-build.log")"
	fi
done
rm -f "$OUT/.e2e-build.log"
t_done
