#!/bin/sh
# The loader x86_64 never builds (binfmt_aout) compiles for i386 with
# CONFIG_BINFMT_AOUT, unpatched and patched, calls setup_new_exec once
# patched, and the patch adds no compiler warning.
. ci/e2e/lib.sh
for b in $(e2e_branches); do
	case $b in v2.6.*) ;; *) continue ;; esac
	[ -r "backports/$b/series" ] || { t_skip "$b i386 compile check" "no backports/$b yet"; continue; }
	why=$(reachable "$b") || { t_skip "$b i386 compile check" "source not reachable: $why"; continue; }
	if out=$(sh scripts/compile-check.sh "$b" 2>&1); then
		t_ok "$b: $(printf '%s' "$out" | tail -1 | sed 's/^\[[^]]*\] *i386 *//; s/ ([0-9m]*s)$//')"
	else t_fail "$b i386 compile check" "$(printf '%s' "$out" | tail -2)"; fi
done
t_done
