#!/bin/sh
# boot.sh KERNEL INITRD LOG [EXTRA_CMDLINE...]: one guest boot, serial to LOG.
#
# QEMU: -m 256 -cpu qemu64 (pinned, never the host's), no NIC and no VGA
# (no iPXE option ROM to scan: faster), TCG (KVM only with KIT_KVM=1: a
# /dev/kvm that opens is not one that works), -no-reboot so the guest's
# reboot or the kernel's panic=1 reboot ends it.  The command line always carries
# "console=ttyS0 panic=1 oops=panic".  Three watchdogs, so that no boot
# waits longer than it must:
#   panic    a "Kernel panic - not syncing" line: QEMU is stopped
#            KIT_PANIC_GRACE seconds later (default 0.3; a corrupted kernel
#            can hang in its own emergency restart, seen on v2.6.32); any
#            other oops line (Oops, BUG, double fault, ...): stopped
#            KIT_CRASH_GRACE seconds later (default 1.0, time for the trace
#            and the panic; a double fault on v2.6.32 never got to panic)
#   silence  no new serial output for KIT_BOOT_SILENCE seconds (default 10)
#   timeout  KIT_BOOT_TIMEOUT seconds in all (default 60)
# Prints one line on stdout:
#   end=<qemu|panic|crash|silence|timeout> seconds=<s> qemu_rc=<rc> accel=<a> cmdline=<...>
# Exit 0 when QEMU ran (whatever the guest did), 1 when it could not start.
set -u
# numbers the C way: seconds=<s> and the watchdog's sums, under any locale
LC_ALL=C
export LC_ALL
[ $# -ge 3 ] || { echo "usage: boot.sh KERNEL INITRD LOG [EXTRA_CMDLINE...]" >&2; exit 2; }
kernel=$1 initrd=$2 log=$3
shift 3
[ -r "$kernel" ] || { echo "boot.sh: error: kernel '$kernel' is not readable; build it first (make build BRANCH=...)" >&2; exit 2; }
[ -r "$initrd" ] || { echo "boot.sh: error: initrd '$initrd' is not readable; run 'make -C testvm'" >&2; exit 2; }
QEMU=${QEMU:-qemu-system-x86_64}
command -v "$QEMU" >/dev/null 2>&1 || { echo "boot.sh: error: $QEMU is not installed; run 'make deps' (Debian: qemu-system-x86)" >&2; exit 2; }
timeout_s=${KIT_BOOT_TIMEOUT:-60}
silence_s=${KIT_BOOT_SILENCE:-10}
grace=${KIT_PANIC_GRACE:-0.3}
cgrace=${KIT_CRASH_GRACE:-1.0}
crash_re='Oops: |double fault|BUG: |general protection fault|kernel BUG at|Thread overran stack|invalid opcode:'

cmdline="console=ttyS0 panic=1 oops=panic${*:+ $*}"

accel=tcg
if [ "${KIT_KVM:-0}" = 1 ]; then accel=kvm; fi

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

: >"$log" || { echo "boot.sh: error: cannot write $log" >&2; exit 1; }
t0=$(now)
"$QEMU" -m 256 -nographic -no-reboot -cpu qemu64 -accel "$accel" \
	-display none -monitor none -vga none -nic none -serial "file:$log" \
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
	</dev/null >"$log.qemu" 2>&1 &
qpid=$!
# Never leave an emulator behind, whatever ends this script.
trap 'kill "$qpid" 2>/dev/null || :' EXIT
trap 'exit 130' INT TERM

# One awk per tick decides: it reads the log (size, panic or oops line)
# and the clock.  Three processes a tick, so the watchdog does not slow the
# emulator it watches on a 2-core host.
end=qemu
state="0 $t0 - - -"	# size, last change, panic seen at, oops seen at, decision
while kill -0 "$qpid" 2>/dev/null; do
	sleep 0.1
	state=$(awk -v st="$state" -v now="$(now)" -v t0="$t0" -v lf="$log" \
		-v g="$grace" -v cg="$cgrace" -v sil="$silence_s" -v to="$timeout_s" \
		-v cre="$crash_re" 'BEGIN {
		split(st, a, " "); size = a[1]; chg = a[2]; pan = a[3]; cr = a[4]
		sz = 0
		while ((getline line < lf) > 0) {
			sz += length(line) + 1
			if (pan == "-" && index(line, "Kernel panic - not syncing")) pan = now
			if (cr == "-" && line ~ cre) cr = now
		}
		if (sz != size) { size = sz; chg = now }
		d = "-"
		if (pan != "-" && now - pan >= g) d = "panic"
		else if (cr != "-" && now - cr >= cg) d = "crash"
		else if (now - chg >= sil) d = "silence"
		else if (now - t0 >= to) d = "timeout"
		print size, chg, pan, cr, d }')
	case $state in *" -") ;; *) end=${state##* }; break ;; esac
done
panic_seen=0
if grep -q 'Kernel panic - not syncing' "$log"; then panic_seen=1
elif grep -Eq "$crash_re" "$log"; then panic_seen=2; fi
if kill -0 "$qpid" 2>/dev/null; then
	kill "$qpid" 2>/dev/null
	wait "$qpid" 2>/dev/null
	rc=killed
else
	wait "$qpid"; rc=$?
	[ "$panic_seen" = 1 ] && end=panic
	[ "$panic_seen" = 2 ] && end=crash
fi
secs=$(since "$t0")
if [ "$rc" != killed ] && [ "$rc" -ne 0 ] && [ ! -s "$log" ]; then
	echo "boot.sh: error: $QEMU failed (rc $rc): $(head -c 300 "$log.qemu")" >&2
	exit 1
fi
echo "end=$end seconds=$secs qemu_rc=$rc accel=$accel cmdline=$cmdline"
