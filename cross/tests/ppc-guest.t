#!/bin/sh
# The ppc64 boot's guest (cross/boot/, make ppc64-boot) builds with
# Debian's powerpc64 cross compiler, as the script builds it, and each
# program is what the boot needs: class, machine, static or PIE with the
# missing interpreter, and ELFv1's entry through a function descriptor.
# No kernel, no QEMU: seconds.  SKIP without the compiler (make cross-deps).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/ci/tap.sh"
cc=powerpc64-linux-gnu-gcc-12
if ! command -v $cc >/dev/null 2>&1; then
	t_skip "powerpc guest builds" "$cc not installed (make cross-deps)"; t_done; exit 0
fi
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
# the same flags as cross/boot/ppc64-boot.sh
G=$(sed -n '/^G="/,/"$/p' "$root/cross/boot/ppc64-boot.sh" | tr '\n' ' ' | sed 's/^G="//; s/" *$//' | sed "s|\$KIT_ROOT|$root|g")
V=$(sed -n 's/^V="\(.*\)"$/\1/p' "$root/cross/boot/ppc64-boot.sh")
[ -n "$G" ] && [ -n "$V" ] && t_ok "guest flags read from ppc64-boot.sh" || t_fail "guest flags read from ppc64-boot.sh"
b() { out=$1; shift; $cc $G "$@" -o "$t/$out" 2>"$t/$out.err" || { t_fail "build $out" "$(head -3 "$t/$out.err")"; return 1; }; }
hdr() { powerpc64-linux-gnu-readelf -h "$t/$1" | sed -n "s/^ *$2: *//p"; }
if b init -m64 -static -fno-pie -no-pie "$root/cross/boot/guest/ppc-init.c" &&
	b probe64 -m64 -static -fno-pie -no-pie "$root/backports/fixes/CVE-2010-0307/guest/probe.c" &&
	b probe32 -m32 -static -fno-pie -no-pie "$root/backports/fixes/CVE-2010-0307/guest/probe.c" "$root/cross/boot/guest/lshrdi3.c" &&
	b victim64 -m64 $V "$root/backports/fixes/CVE-2010-0307/guest/victim.c" && b victim32 -m32 $V "$root/backports/fixes/CVE-2010-0307/guest/victim.c"; then
	t_ok "init, probe64/32, victim64/32 build for powerpc, freestanding"
	for p in init:ELF64:PowerPC64:EXEC probe64:ELF64:PowerPC64:EXEC probe32:ELF32:PowerPC:EXEC victim64:ELF64:PowerPC64:DYN victim32:ELF32:PowerPC:DYN; do
		IFS=: read -r f cl m ty <<EOT
$p
EOT
		got="$(hdr "$f" Class):$(hdr "$f" Machine):$(hdr "$f" Type | cut -d' ' -f1)"
		[ "$got" = "$cl:$m:$ty" ] && t_ok "$f: $cl $m $ty" || t_fail "$f: $cl $m $ty" "got $got"
	done
	for f in victim64 victim32; do
		powerpc64-linux-gnu-readelf -l "$t/$f" | grep -q 'interpreter: /nonexistent/ld.so' &&
			t_ok "$f: PT_INTERP /nonexistent/ld.so (exec fails ENOENT)" || t_fail "$f: PT_INTERP"
	done
	# ELFv1: e_entry is _start's descriptor in .opd, whose first word is code
	e=$(hdr probe64 'Entry point address')
	opd=$(powerpc64-linux-gnu-readelf -S -W "$t/probe64" | awk '{ for (i = 1; i < NF; i++) if ($i == ".opd") print $(i + 2) }')
	[ -n "$opd" ] && [ $((e)) -ge $((0x$opd)) ] && t_ok "probe64: entry is a descriptor in .opd" ||
		t_fail "probe64: entry is a descriptor in .opd" "entry $e, .opd at ${opd:-none}"
	# the powerpc half must not leak into x86: no libgcc call but our own
	powerpc64-linux-gnu-nm "$t/probe32" | grep ' U ' && t_fail "probe32 links everything it calls" || t_ok "probe32 links everything it calls"
fi
t_done
