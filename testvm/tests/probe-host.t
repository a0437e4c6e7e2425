#!/bin/sh
# The guest's probes run natively on the build host (a modern kernel that
# carries the fix), as a smoke test of the freestanding programs without
# QEMU.  Only the harmless modes: never init (it mounts and reboots) and
# never dump/repro (no core dumps on the host).
#
# What the host's own kernel can run is not the kit's business (nothing a
# fix is judged by runs here), so whether it runs 32-bit programs (IA32
# emulation) is decided once, below, and every case that needs it SKIPs
# with that one reason.  KIT_HOST_IA32=0 or 1 forces the answer (to try
# the other path: with 1 on a host without IA32 those cases must fail).
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

# host_ia32: sets ia32 (1 or 0) and noia32 (the SKIP reason).  probe64
# execs the static probe32: a report means the kernel ran it; execve's
# ENOEXEC (8) means it has no loader for ELF32, i.e. no IA32 emulation.
# Anything else is a broken probe, not a host property: a failure.
host_ia32() {
	noia32=
	case ${KIT_HOST_IA32-} in
	0) ia32=0 noia32="KIT_HOST_IA32=0: the host's IA32 emulation is not used"
	   t_ok "host IA32 emulation: forced off (KIT_HOST_IA32=0)"; return ;;
	1) ia32=1; t_ok "host IA32 emulation: forced on (KIT_HOST_IA32=1)"; return ;;
	'') ;;
	*) t_fail "KIT_HOST_IA32 is 0, 1 or unset" "got '$KIT_HOST_IA32'"; ia32=0
	   noia32="KIT_HOST_IA32='$KIT_HOST_IA32' is not 0 or 1"; return ;;
	esac
	d=$("$o/probe64" exec "$o/probe32" report 2>&1)
	if [ "$(val "$d" bits)" = 32 ]; then
		ia32=1; t_ok "host IA32 emulation: yes (probe32 ran and reported bits=32)"
	elif [ "$(val "$d" err)" = 8 ]; then
		ia32=0 noia32="the host kernel cannot run 32-bit programs (execve of a static ELF32: ENOEXEC, no IA32 emulation)"
		t_ok "host IA32 emulation: no (execve of probe32: ENOEXEC)"
	else
		ia32=0 noia32="IA32 detection failed (see the test above)"
		t_fail "host IA32 emulation: detected" "probe64 exec probe32 said: $d"
	fi
}
# the cases that need the host to run 32-bit programs
ia32_cases() {
	set -- "probe64 reverse: the 32-bit victim fails with ENOENT (its interpreter is missing)" \
		"probe32 report: bits=32, stack below 4 GiB, no [vsyscall]" \
		"probe32 cvestate on a fixed kernel: ENOENT, no [vsyscall], personality kept" \
		"probe32 exec probe64: the new image is 64-bit"
	if [ "$ia32" = 0 ]; then
		for c; do t_skip "$c" "$noia32"; done
		return
	fi
	t_check "$1" test "$(val "$r" err)" = 2
	p=$("$o/probe32" report 2>&1)
	t_check "$2" sh -c "test '$(val "$p" bits)' = 32 &&
		test \$(( $(val "$p" sp) <= 0xffffffff )) -eq 1 && test '$(val "$p" vsys)' = 0"
	p=$("$o/probe32" cvestate "$o/victim64" 2>&1)
	t_check "$3" sh -c "test '$(val "$p" err)' = 2 && test '$(val "$p" vs1)' = 0 &&
		test '$(val "$p" p0)' = '$(val "$p" p1)'"
	p=$("$o/probe32" exec "$o/probe64" report 2>&1)
	t_check "$4" sh -c "printf '%s' '$p' | grep -q '^R bits=64 '"
}
host_ia32

r=$("$o/probe64" report)
t_check "probe64 report: bits=64, PER_LINUX, stack above 4 GiB" sh -c "
	test '$(val "$r" bits)' = 64 && test \$(( $(val "$r" pers) & 0xff )) -eq 0 &&
	test \$(( $(val "$r" sp) > 0xffffffff )) -eq 1"
t_check "probe64: unknown mode exits 2" sh -c "'$o/probe64' nosuchmode 2>/dev/null; test \$? -eq 2"
t_check "probe64 exec: missing file reports ENOENT" sh -c \
	"'$o/probe64' exec /nonexistent/x | grep -q '^X err=2\$'"
# reverse: the failed exec of a 32-bit ELF; whatever error the host gives,
# the personality must stay and the next 64-bit exec must run
r=$("$o/probe64" reverse "$o/victim32" "$o/probe64" report 2>&1)
t_check "probe64 reverse: exec fails, personality unchanged, then a 64-bit report" sh -c "
	test '$(val "$r" err)' -gt 0 && test '$(val "$r" p0)' = '$(val "$r" p1)' &&
	printf '%s' '$r' | grep -q '^R bits=64 '"
ia32_cases
t_done
