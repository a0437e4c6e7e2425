#!/bin/sh
# lane: kernels
# v2.6.32 with only the ptrace hardening (04a1e62c2cec) applied: the core
# dump no longer corrupts memory, so no panic, yet the kernel is still
# exposed and the state checks must say VULNERABLE.
. ci/e2e/lib.sh
b=v2.6.32
need_source "$b" "$b + ptrace hardening only is VULNERABLE without a panic" || { t_done; exit; }
h=$(grep -l '^commit 04a1e62c2cec' backports/$b/*.patch 2>/dev/null | head -1)
[ -n "$h" ] || { t_fail "$b + ptrace hardening only is VULNERABLE without a panic" "backports/$b carries no 04a1e62c2cec patch"; t_done; exit; }
sdir=$OUT/$b/ptrace-only.series
rm -rf "$sdir"; mkdir -p "$sdir"; cp "$h" "$sdir/"; basename "$h" >"$sdir/series"
if SERIES_DIR=$sdir sh scripts/build.sh ptrace-only "$b" >"$OUT/.e2e-ptrace.log" 2>&1 &&
	sh testvm/verify-kernel.sh "$OUT/$b/ptrace-only/bzImage" "$OUT/$b/ptrace-only/verify" >>"$OUT/.e2e-ptrace.log" 2>&1; then
	j=$OUT/$b/ptrace-only/verify/boot.json
	v=$(jq -r .verdict "$j")
	[ "$v" = VULNERABLE ] && t_ok "$b + ptrace hardening only is VULNERABLE: $(jq -r .signature "$j" | cut -c1-90)" ||
		t_fail "$b + ptrace hardening only is VULNERABLE" "verdict $v: $(jq -r .signature "$j")"
	if grep -q 'Kernel panic\|BUG: unable to handle\|Oops' "$OUT/$b/ptrace-only/verify"/boot-*.log; then
		t_fail "$b + ptrace hardening only does not panic" "$(grep -m2 'Kernel panic\|BUG:\|Oops' "$OUT/$b/ptrace-only/verify"/boot-*.log)"
	else t_ok "$b + ptrace hardening only does not panic"; fi
else
	t_fail "$b + ptrace hardening only builds and boots" "$(tail -3 "$OUT/.e2e-ptrace.log")"
fi
rm -f "$OUT/.e2e-ptrace.log"
t_done
