#!/bin/sh
# ppc64-boot.sh [BRANCH]: issue 5's stretch.  Build the patched BRANCH
# (default v2.6.32) as a whole ppc64 pSeries kernel with Debian's
# powerpc64-linux-gnu-gcc-12, build a freestanding guest with the same
# compiler (cross/boot/guest/ppc-init.c as PID 1; the probe.c and victim.c
# of the fix folder whose guest/ holds them, backports/fixes/<fix>/guest/,
# as 64- and 32-bit powerpc programs), boot it under
# qemu-system-ppc64 -M pseries (SLOF firmware, hvc console) and run the
# 32/64-bit exec tests there.  result.txt says how far it got:
#   passed    the guest ran its TAP plan, every test ok
#   failed    the guest ran, a test failed or the plan was cut short
#   console   the kernel booted but the guest never reported
#   prom_init SLOF entered the kernel, which never printed
#   firmware  SLOF never entered the kernel
#   build     the kernel or the guest did not build
# Output: $OUT/<b>/ppc64-boot/{host.log,build.log,boot.log,result.txt}.  Exit 0
# only for "passed".  Not part of make check (a whole kernel build).
# Measured on v2.6.32 only; other branches may need more (say so if so).
set -eu
KIT_ROOT=${KIT_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$KIT_ROOT/scripts/lib.sh"
BRANCH=${1:-${BRANCH:-v2.6.32}}
load_branch "$BRANCH"
[ "$BR_SOURCE" = git ] || die 2 "ppc64-boot is for the 2.6 branches"
. "$KIT_ROOT/branches/host/$BR_FLAGS.flags"
need_cmd powerpc64-linux-gnu-gcc-12 quilt flock
command -v qemu-system-ppc64 >/dev/null 2>&1 ||
	die 2 "qemu-system-ppc64 is not installed; apt-get install qemu-system-ppc (Debian 12)"
series_dir=$KIT_ROOT/backports/$BRANCH
# the source first: an unreachable one leaves the last run's output as it was
sh "$KIT_ROOT/scripts/fetch.sh" "$BRANCH" >/dev/null || exit $?
top=$OUT/$BRANCH/ppc64-boot
build_lock_ready	# KIT_LOCK: scripts/lib.sh
exec 9>>"$KIT_LOCK"
flock -n 9 || { progress "$BRANCH" wait "another kernel build is running; waiting for it"; flock 9; }
chmod -R u+w "$top" 2>/dev/null || :
out_root
rm -rf "$top"; mkdir -p "$top"
result() { echo "$1" >"$top/result.txt"; progress "$BRANCH" ppc64-boot "$1"; }

progress "$BRANCH" ppc64-boot "copy, host patches, security series"
# a checked, writable copy made under the export's lock (fetch.sh --copy)
sh "$KIT_ROOT/scripts/fetch.sh" --copy "$BRANCH" "$top/src" >/dev/null || exit $?
# the branch's generic host patches (as scripts/cross.sh picks them), then
# the powerpc ones; each only where its change is absent (as build.sh)
ppc_host="cross-powerpc-mtraceback-no cross-powerpc-vdso-cmpli cross-powerpc-toc-align-256"
host=
for p in $BR_HOST_SERIES $ppc_host; do
	case $p in compiler-gcc12-header | timeconst-perl-defined-array | make-4.3-* | cross-powerpc-*) ;; *) continue ;; esac
	host="$host $KIT_ROOT/branches/host/$p.patch"
done
# shellcheck disable=SC2086
apply_host_patches "$BRANCH" "$top/src" "$top/host.log" $host ||
	die $? "[$BRANCH] $host_why (log: $top/host.log)"
(cd "$top/src" && QUILT_PATCHES=$series_dir QUILT_PC=.pc quilt push -a -q --fuzz=0 >/dev/null) ||
	die 1 "[$BRANCH] the security series does not apply"
flags=$(printf '%s\n' $KIT_CC_FLAGS | grep -v '^-m' | tr '\n' ' ')
# --no-toc-optimize: ld 2.40 turns head_64.S's "ld r8,__bss_start@got(r2)"
# into "addi r8,r2,..." (a run-time address) while __bss_stop, out of
# range, stays a link-time one: the BSS clear then runs off the end of RAM
# right after prom_init.  2.6.32's early code wants link-time addresses.
mk() { (cd "$top/src" && nice -n 10 make ARCH=powerpc CROSS_COMPILE=powerpc64-linux-gnu- \
	CC="powerpc64-linux-gnu-gcc-12 $flags" LDFLAGS_vmlinux="-Bstatic --no-toc-optimize" "$@"); }
progress "$BRANCH" ppc64-boot "allnoconfig + cross/boot/ppc64.config, make vmlinux"
if ! { mk KCONFIG_ALLCONFIG="$KIT_ROOT/cross/boot/ppc64.config" allnoconfig &&
	sh "$KIT_ROOT/scripts/check-config.sh" "$KIT_ROOT/cross/boot/ppc64.config" "$top/src/.config" &&
	mk -j"$JOBS" vmlinux; } >"$top/build.log" 2>&1; then
	result "build: $(grep -m1 -E 'Error|error:|check-config: CONFIG' "$top/build.log" || tail -1 "$top/build.log")"
	exit 1
fi
# The guest: freestanding, raw syscalls (testvm/guest/sys.h's powerpc half)
progress "$BRANCH" ppc64-boot "guest: ppc-init, probe64/32, victim64/32 (powerpc64-linux-gnu-gcc-12)"
g=$top/guest
mkdir -p "$g"
G="-O2 -Wall -Wextra -Werror -std=gnu11 -ffreestanding -fno-builtin -fno-stack-protector
 -fno-asynchronous-unwind-tables -fno-toplevel-reorder -nostdlib -I$KIT_ROOT/testvm/guest -Wl,--build-id=none"
V="-fPIE -pie -Wl,--dynamic-linker=/nonexistent/ld.so -Wl,-z,norelro"
gcc_ppc() { powerpc64-linux-gnu-gcc-12 $G "$@"; }
# the exec probes are a fix's guest programs: found by name, not by fix id
pv=$(find "$KIT_ROOT/backports/fixes" -path '*/guest/probe.c' | LC_ALL=C sort | head -1)
pv=${pv%/probe.c}
[ -n "$pv" ] && [ -r "$pv/victim.c" ] || { result "build: guest: no backports/fixes/*/guest/ holds probe.c and victim.c"; exit 1; }
if ! { gcc_ppc -m64 -static -fno-pie -no-pie -o "$g/init" "$KIT_ROOT/cross/boot/guest/ppc-init.c" &&
	gcc_ppc -m64 -static -fno-pie -no-pie -o "$g/probe64" "$pv/probe.c" &&
	gcc_ppc -m32 -static -fno-pie -no-pie -o "$g/probe32" "$pv/probe.c" "$KIT_ROOT/cross/boot/guest/lshrdi3.c" &&
	gcc_ppc -m64 $V -o "$g/victim64" "$pv/victim.c" &&
	gcc_ppc -m32 $V -o "$g/victim32" "$pv/victim.c"; } >"$top/guest.log" 2>&1; then
	result "build: guest: $(grep -m1 'error' "$top/guest.log" || tail -1 "$top/guest.log")"
	exit 1
fi
{
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "dir /bin 0755 0 0"
	echo "file /init $g/init 0755 0 0"
	for f in probe64 probe32 victim64 victim32; do echo "file /bin/$f $g/$f 0755 0 0"; done
} >"$g/list"
"$top/src/usr/gen_init_cpio" "$g/list" >"$g/initramfs.cpio" || die 1 "[$BRANCH] gen_init_cpio failed"

progress "$BRANCH" ppc64-boot "qemu-system-ppc64 -M pseries -cpu POWER7 (120 s watchdog)"
t0=$(date +%s)
timeout 120 qemu-system-ppc64 -M pseries -cpu POWER7 -m 512 -nographic -no-reboot \
	-kernel "$top/src/vmlinux" -initrd "$g/initramfs.cpio" -append "console=hvc0 panic=1" \
	</dev/null >"$top/boot.log" 2>&1 || :
secs=$(($(date +%s) - t0))
chmod -R u+w "$top/src"; rm -rf "$top/src"
log=$(tr -d '\r' <"$top/boot.log")
plan=$(printf '%s\n' "$log" | sed -n 's/^1\.\.\([0-9]*\)$/\1/p' | head -1)
okn=$(printf '%s\n' "$log" | grep -c '^ok ' || :)
bad=$(printf '%s\n' "$log" | grep '^not ok ' || :)
if [ -n "$plan" ] && printf '%s\n' "$log" | grep -q '^KIT: done passed='; then
	if [ -z "$bad" ] && [ "$okn" -eq "$plan" ]; then
		result "passed: the patched kernel booted in ${secs}s; $okn of $plan exec tests ok ($(printf '%s\n' "$log" | grep '^ok ' | sed 's/^ok [0-9]* - //' | sort -u | paste -sd';' -))"
		exit 0
	fi
	result "failed: $okn of $plan ok; $(printf '%s\n' "$bad" | head -2 | paste -sd';' -)"
elif [ -n "$plan" ]; then
	result "failed: the TAP stream stopped after $okn ok of $plan ($(printf '%s\n' "$log" | tail -1))"
elif printf '%s\n' "$log" | grep -q 'Linux version'; then
	result "console: the kernel booted, the guest never reported ($(printf '%s\n' "$log" | grep -v '^$' | tail -1))"
elif printf '%s\n' "$log" | grep -q 'Booting from memory'; then
	# SLOF's client interface answers a call to an unknown service with
	# "<name> NOT FOUND": what prom_init asked for, as SLOF read it.
	result "prom_init: SLOF entered the kernel, which never printed; SLOF shows: $(printf '%s\n' "$log" | sed -n '/Booting from memory/,$p' | grep -v '^ *$' | sed -n '2,4p' | paste -sd'|' -)"
else
	result "firmware: SLOF never entered the kernel ($(printf '%s\n' "$log" | tail -1))"
fi
exit 1
