#!/bin/sh
# ppc64-boot.sh [BRANCH]: the stretch of issue 5, measured rather than
# promised.  Build the patched BRANCH (default v2.6.32) as a whole ppc64
# pSeries kernel with Debian's powerpc64-linux-gnu-gcc-12, boot it under
# qemu-system-ppc64 -M pseries (SLOF firmware, hvc console), and say how
# far it got:
#   console   the kernel printed its banner on hvc0 (it booted)
#   prom_init SLOF ran the kernel's prom_init, the kernel never printed
#   firmware  SLOF never entered the kernel
#   build     the kernel did not build
# Output: $OUT/<b>/ppc64-boot/{build.log,boot.log,result.txt}.  Exit 0
# only for "console".  Not part of make check: no guest tests run yet
# (cross/README.md, "The stretch").
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
src=$(sh "$KIT_ROOT/scripts/fetch.sh" "$BRANCH") || exit $?
top=$OUT/$BRANCH/ppc64-boot
exec 9>"${KIT_LOCK:-/tmp/$KIT_NAME.build.lock}"
flock -n 9 || { progress "$BRANCH" wait "another kernel build is running; waiting for it"; flock 9; }
chmod -R u+w "$top" 2>/dev/null || :
rm -rf "$top"; mkdir -p "$top"
result() { echo "$1" >"$top/result.txt"; progress "$BRANCH" ppc64-boot "$1"; }

progress "$BRANCH" ppc64-boot "copy, host patches, security series"
cp -a "$src/." "$top/src"; rm -f "$top/src/.kit-verified"; chmod -R u+w "$top/src"
for p in compiler-gcc12-header timeconst-perl-defined-array cross-powerpc-mtraceback-no cross-powerpc-vdso-cmpli; do
	case " $BR_HOST_SERIES cross-powerpc-mtraceback-no cross-powerpc-vdso-cmpli " in *" $p "*) ;; *) continue ;; esac
	patch -d "$top/src" -p1 -F0 -s <"$KIT_ROOT/branches/host/$p.patch" || die 1 "[$BRANCH] host patch $p does not apply"
done
(cd "$top/src" && QUILT_PATCHES=$series_dir QUILT_PC=.pc quilt push -a -q --fuzz=0 >/dev/null) ||
	die 1 "[$BRANCH] the security series does not apply"
flags=$(printf '%s\n' $KIT_CC_FLAGS | grep -v '^-m' | tr '\n' ' ')
mk() { (cd "$top/src" && nice -n 10 make ARCH=powerpc CROSS_COMPILE=powerpc64-linux-gnu- \
	CC="powerpc64-linux-gnu-gcc-12 $flags" "$@"); }
progress "$BRANCH" ppc64-boot "allnoconfig + cross/boot/ppc64.config, make vmlinux"
if ! { mk KCONFIG_ALLCONFIG="$KIT_ROOT/cross/boot/ppc64.config" allnoconfig &&
	sh "$KIT_ROOT/scripts/check-config.sh" "$KIT_ROOT/cross/boot/ppc64.config" "$top/src/.config" &&
	mk -j"$JOBS" vmlinux; } >"$top/build.log" 2>&1; then
	result "build: $(grep -m1 -E 'Error|error:|check-config: CONFIG' "$top/build.log" || tail -1 "$top/build.log")"
	exit 1
fi
progress "$BRANCH" ppc64-boot "qemu-system-ppc64 -M pseries -cpu POWER7 (60 s watchdog)"
timeout 60 qemu-system-ppc64 -M pseries -cpu POWER7 -m 512 -nographic -no-reboot \
	-kernel "$top/src/vmlinux" -append "console=hvc0 panic=1" </dev/null >"$top/boot.log" 2>&1 || :
chmod -R u+w "$top/src"; rm -rf "$top/src"
if grep -q 'Linux version' "$top/boot.log"; then
	result "console: the kernel printed its banner on hvc0"
	exit 0
elif grep -q 'Booting from memory' "$top/boot.log"; then
	# SLOF's client interface answers a call to an unknown service with
	# "<name> NOT FOUND": what prom_init asked for, as SLOF read it.
	asked=$(sed -n '/Booting from memory/,$p' "$top/boot.log" | tr -d '\r' | grep -v '^ *$' | sed -n '2,4p' | paste -sd'|' -)
	result "prom_init: SLOF entered the kernel, which never printed; after entry SLOF shows: $asked"
else
	result "firmware: SLOF never entered the kernel ($(tail -1 "$top/boot.log" | tr -d '\r'))"
fi
exit 1
