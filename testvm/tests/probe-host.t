#!/bin/sh
# The guest's probes run natively on the build host (a modern kernel that
# carries the fix), as a smoke test of the freestanding programs without
# QEMU.  Only the harmless modes: never init (it mounts and reboots) and
# never dump/repro (no core dumps on the host).  32-bit cases SKIP when
# the host cannot run ia32 programs.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=ci/tap.sh
. "$root/ci/tap.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
o=$tmp/o
if ! make -s -C "$root/testvm" OUT="$o" all >"$tmp/build.log" 2>&1; then
	t_fail "guest programs build" "$(tail -5 "$tmp/build.log")"; t_done; exit 1
fi
val() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -1; }

r=$("$o/probe64" report)
t_check "probe64 report: bits=64, PER_LINUX, stack above 4 GiB" sh -c "
	test '$(val "$r" bits)' = 64 && test \$(( $(val "$r" pers) & 0xff )) -eq 0 &&
	test \$(( $(val "$r" sp) > 0xffffffff )) -eq 1"
t_check "probe64: unknown mode exits 2" sh -c "'$o/probe64' nosuchmode 2>/dev/null; test \$? -eq 2"
t_check "probe64 exec: missing file reports ENOENT" sh -c \
	"'$o/probe64' exec /nonexistent/x | grep -q '^X err=2\$'"
r=$("$o/probe64" reverse "$o/victim32" "$o/probe64" report 2>&1)
t_check "probe64 reverse: ENOENT, personality unchanged, then a 64-bit report" sh -c "
	test '$(val "$r" err)' = 2 && test '$(val "$r" p0)' = '$(val "$r" p1)' &&
	printf '%s' '$r' | grep -q '^R bits=64 '"
if r=$("$o/probe32" report 2>&1) && [ "$(val "$r" bits)" = 32 ]; then
	t_check "probe32 report: bits=32, stack below 4 GiB, no [vsyscall]" sh -c "
		test \$(( $(val "$r" sp) <= 0xffffffff )) -eq 1 && test '$(val "$r" vsys)' = 0"
	r=$("$o/probe32" cvestate "$o/victim64")
	t_check "probe32 cvestate on a fixed kernel: ENOENT, no [vsyscall], personality kept" sh -c "
		test '$(val "$r" err)' = 2 && test '$(val "$r" vs1)' = 0 &&
		test '$(val "$r" p0)' = '$(val "$r" p1)'"
	r=$("$o/probe32" exec "$o/probe64" report)
	t_check "probe32 exec probe64: the new image is 64-bit" sh -c "printf '%s' '$r' | grep -q '^R bits=64 '"
else
	t_skip "probe32 on the host" "the host kernel cannot run ia32 programs"
fi
t_done
