#!/bin/sh
# boot.sh and verify-kernel.sh without a kernel: a stand-in QEMU (a shell
# script) writes a serial log and then exits, hangs or keeps talking, and
# the watchdogs must end each case the right way and in time.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=ci/tap.sh
. "$root/ci/tap.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# fake qemu: FAKE_LOG is copied to the -serial file (FAKE_LOG_NX instead
# on the noexec32=off boot, when set); FAKE_MODE says what next
cat >"$tmp/qemu" <<'Q'
#!/bin/sh
[ "${1-}" = --version ] && { echo "QEMU emulator version 0.0-fake"; exit 0; }
printf '%s\n' "$*" >"$FAKE_ARGS"
case $* in *noexec32=off*) FAKE_LOG=${FAKE_LOG_NX:-${FAKE_LOG-}} ;; esac
while [ $# -gt 0 ]; do
	case $1 in -serial) serial=${2#file:}; shift ;; esac
	shift
done
[ -n "${FAKE_LOG-}" ] && tail -n +2 "$FAKE_LOG" >"$serial"
case ${FAKE_MODE:-exit} in
exit) exit 0 ;;
hang) exec sleep 30 ;;
chatter) while :; do echo tick >>"$serial"; sleep 0.2; done ;;
esac
Q
chmod +x "$tmp/qemu"
: >"$tmp/bzImage"
: >"$tmp/initrd"
fx=$root/testvm/fixtures
export QEMU="$tmp/qemu" FAKE_ARGS="$tmp/args"
# The stand-in's output is decided by FAKE_* variables, which no real
# emulator reads: verify-kernel.sh's up-to-date key cannot name them, so
# every case boots (KIT_REBOOT=1) but the ones that test that key, at the
# end.  The build lock the boots share is the test's own.
export KIT_REBOOT=1 KIT_LOCK="$tmp/build.lock"

run() { # run <mode> <fixture> [extra...]: prints boot.sh's line
	_m=$1 _f=$2; shift 2
	FAKE_MODE=$_m FAKE_LOG=$_f sh "$root/testvm/boot.sh" "$tmp/bzImage" "$tmp/initrd" "$tmp/log" "$@"
}
secs() { printf '%s\n' "$1" | sed -n 's/.* seconds=\([0-9.]*\) .*/\1/p'; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

r=$(run exit "$fx/survived-debian-6.1.log" kit.runs=3)
t_check "QEMU exits by itself: end=qemu" sh -c "printf '%s' '$r' | grep -q '^end=qemu '"
t_check "serial log is what the guest wrote" sh -c "tail -n +2 '$fx/survived-debian-6.1.log' | cmp -s - '$tmp/log'"
a=$(cat "$tmp/args")
t_check "QEMU line: -m 256 -cpu qemu64 -no-reboot, TCG" sh -c "printf '%s' '$a' |
	grep -q -- '-m 256 ' && printf '%s' '$a' | grep -q -- '-cpu qemu64 ' &&
	printf '%s' '$a' | grep -q -- '-no-reboot ' && printf '%s' '$a' | grep -q -- '-accel tcg '"
t_check "command line: console=ttyS0 panic=1 oops=panic + extras" sh -c \
	"printf '%s' '$a' | grep -q -- '-append console=ttyS0 panic=1 oops=panic kit.runs=3'"

r=$(KIT_BOOT_SILENCE=20 run hang "$fx/vulnerable-v2.6.32-timer-in-genregs_get.log")
t_check "panic line then hang: stopped at once (end=panic, < 3 s)" sh -c \
	"printf '%s' '$r' | grep -q '^end=panic ' && awk 'BEGIN { exit !($(secs "$r") < 3) }'"
r=$(KIT_BOOT_SILENCE=20 run hang "$fx/vulnerable-v2.6.31-double-fault.log")
t_check "oops without panic then hang: stopped (end=crash, < 4 s)" sh -c \
	"printf '%s' '$r' | grep -q '^end=crash ' && awk 'BEGIN { exit !($(secs "$r") < 4) }'"
r=$(KIT_BOOT_SILENCE=1 run hang "$fx/inconclusive-hang-in-repro.log")
t_check "silent hang: silence watchdog (end=silence, < 4 s)" sh -c \
	"printf '%s' '$r' | grep -q '^end=silence ' && awk 'BEGIN { exit !($(secs "$r") < 4) }'"
r=$(KIT_BOOT_SILENCE=5 KIT_BOOT_TIMEOUT=1.5 run chatter "$fx/inconclusive-hang-in-repro.log")
t_check "endless output: total timeout (end=timeout, < 5 s)" sh -c \
	"printf '%s' '$r' | grep -q '^end=timeout ' && awk 'BEGIN { exit !($(secs "$r") < 5) }'"
t_check "missing kernel: exit 2 with a message" sh -c \
	"sh '$root/testvm/boot.sh' '$tmp/nope' '$tmp/initrd' '$tmp/log' 2>&1 | grep -q 'not readable'"

# verify-kernel.sh end to end on a replayed log (one boot, blind).  The
# guest it builds knows the fixes the recorded logs name, and no others:
# a fix added to the kit later is absent from every log recorded before it
# and would be judged as missing in each (FIXES=, testvm/Makefile).  A
# fixture whose header says "knows: ID..." (recorded with more fixes in
# its image, parse.t) is not one of those logs.
mkdir -p "$tmp/fixes"
for id in $(for f in "$fx"/*.log; do
	head -1 "$f" | grep -q '| knows: ' || sed -n 's/^KIT: fix \(CVE-[0-9]*-[0-9]*\) plan.*/\1/p' "$f"
done | sort -u); do
	cp -R "$root/backports/fixes/$id" "$tmp/fixes/"
done
FIXES=$tmp/fixes; export FIXES
o=$tmp/v
line=$(FAKE_MODE=hang FAKE_LOG="$fx/vulnerable-v2.6.32-timer-in-genregs_get.log" KIT_BOOTS=default \
	TESTVM_OUT="$tmp/tv" sh "$root/testvm/verify-kernel.sh" "$tmp/bzImage" "$o" 2>&1)
t_check "verify-kernel.sh prints one VULNERABLE line" sh -c \
	"test $(printf '%s\n' "$line" | wc -l) -eq 1 && printf '%s' '$line' | grep -q '^VULNERABLE '"
t_check "boot.json: verdict, signature, seconds, runs, tests, log" jq -e \
	'.verdict == "VULNERABLE" and (.signature | length > 0) and .seconds > 0 and .runs == 1
	 and .tests.passed > 0 and .tests.failed > 0 and (.log | test("boot-1.log$"))' "$o/boot.json"
t_check "boot.json: inputs recorded" jq -e \
	'.inputs | (.kernel_sha256 | test("^[0-9a-f]{64}$")) and (.image_sha256 | test("^[0-9a-f]{64}$"))
	 and .cpu_model == "qemu64" and (.qemu_version | test("fake")) and (.gcc_version | length > 0)
	 and (.cmdlines[0] | test("oops=panic kit.runs=3"))' "$o/boot.json"
line=$(FAKE_MODE=exit FAKE_LOG="$fx/survived-debian-6.1.log" TESTVM_OUT="$tmp/tv" \
	sh "$root/testvm/verify-kernel.sh" "$tmp/bzImage" "$o" 2>&1)
t_check "two boots, both clean: SURVIVED" sh -c "printf '%s' '$line' | grep -q '^SURVIVED '"
t_check "two boots recorded, noexec32=off the second" jq -e \
	'(.boots | length) == 2 and (.inputs.cmdlines[1] | test("noexec32=off"))' "$o/boot.json"
t_check "both clean: failed_tests empty" jq -e '.failed_tests == [] and .tests.failed == 0' "$o/boot.json"

# The kernel a verdict is about (issue 22): with the build's digest list
# (KIT_IMAGE_DIGESTS) an image that is not the one named there never boots
# (exit 1, one line naming it), nor one the list does not name; with the
# branch's release (KIT_RELEASE) a boot whose banner names another release
# is INCONCLUSIVE, every fix too, though its tests passed.
echo 'the kernel its build made' >"$tmp/bz-built"
(cd "$tmp" && sha256sum bz-built | sed 's/bz-built$/bzImage/' >"$tmp/digests")
echo 'another kernel, copied over it' >"$tmp/bz-swapped"
out=$(FAKE_MODE=exit FAKE_LOG="$fx/survived-debian-6.1.log" TESTVM_OUT="$tmp/tv" KIT_IMAGE_DIGESTS="$tmp/digests" \
	sh "$root/testvm/verify-kernel.sh" "$tmp/bz-swapped" "$tmp/bind" 2>&1); rc=$?
t_check "an image that is not the one its build recorded: exit 1, one line naming it, nothing booted" sh -c "
	test $rc = 1 && test $(printf '%s\n' "$out" | wc -l) = 1 &&
	printf '%s' '$out' | grep -q 'bz-swapped is not the kernel its build made' && test ! -e '$tmp/bind/boot.json'"
sed '/ bzImage$/d' "$tmp/digests" >"$tmp/digests-short"
out=$(FAKE_MODE=exit FAKE_LOG="$fx/survived-debian-6.1.log" TESTVM_OUT="$tmp/tv" KIT_IMAGE_DIGESTS="$tmp/digests-short" \
	sh "$root/testvm/verify-kernel.sh" "$tmp/bz-built" "$tmp/bind" 2>&1); rc=$?
t_check "a digest list without the bzImage line: exit 1, nothing booted" sh -c "
	test $rc = 1 && printf '%s' '$out' | grep -q 'names no digest of bzImage' && test ! -e '$tmp/bind/boot.json'"
FAKE_MODE=exit FAKE_LOG="$fx/survived-debian-6.1.log" TESTVM_OUT="$tmp/tv" KIT_IMAGE_DIGESTS="$tmp/digests" \
	KIT_RELEASE=2.6.26 sh "$root/testvm/verify-kernel.sh" "$tmp/bz-built" "$tmp/bind" >"$tmp/bind.line" 2>&1
t_check "the recorded image, but its banner says 6.1.192 and the branch is 2.6.26: INCONCLUSIVE, each fix too" sh -c "
	grep -q \"^INCONCLUSIVE .*Linux version 6.1.192' (boot-1.log), but the branch is 2.6.26\" '$tmp/bind.line' &&
	jq -e '[.fixes[].verdict] | length > 0 and all(. == \"INCONCLUSIVE\")' '$tmp/bind/boot.json' >/dev/null"
line=$(FAKE_MODE=exit FAKE_LOG="$fx/survived-debian-6.1.log" TESTVM_OUT="$tmp/tv" KIT_IMAGE_DIGESTS="$tmp/digests" \
	KIT_RELEASE=6.1 sh "$root/testvm/verify-kernel.sh" "$tmp/bz-built" "$tmp/bind" 2>&1)
t_check "the same boot held to 6.1 (its release, 6.1.192): SURVIVED" sh -c "printf '%s' '$line' | grep -q '^SURVIVED '"
line=$(FAKE_MODE=exit FAKE_LOG="$fx/vulnerable-v2.6.32-noexec32-off-state.log" TESTVM_OUT="$tmp/tv" KIT_BOOTS=default \
	KIT_RELEASE=2.6.3 sh "$root/testvm/verify-kernel.sh" "$tmp/bz-built" "$tmp/bind" 2>&1)
t_check "release 2.6.32 is not release 2.6.3 (a prefix must end at a non-digit)" sh -c "printf '%s' '$line' | grep -q '^INCONCLUSIVE '"

printf 'SeaBIOS (version 1.16.2-debian-1.16.2-1)\nBooting from ROM..\n' >"$tmp/firmware-only.log"
line=$(FAKE_MODE=exit FAKE_LOG="$tmp/firmware-only.log" TESTVM_OUT="$tmp/tv" KIT_BOOTS=default \
	KIT_RELEASE=2.6.32 sh "$root/testvm/verify-kernel.sh" "$tmp/bz-built" "$tmp/bind" 2>&1)
t_check "a boot with the firmware's lines only (a kernel that resets before its console): INCONCLUSIVE, no banner, not 'another kernel'" sh -c "
	printf '%s' \"\$1\" | grep -q \"^INCONCLUSIVE .*no 'Linux version' banner in boot-1.log (the boot ended: \" &&
	! printf '%s' \"\$1\" | grep -q 'another kernel'" sh "$line"

# Merging two boots (testvm/README.md "Verdicts"): VULNERABLE over
# INCONCLUSIVE over REGRESSED over SURVIVED; failing tests of every boot.
merge() { # merge <log of boot 1> <log of boot 2>: the one line
	FAKE_MODE=exit FAKE_LOG="$fx/$1" FAKE_LOG_NX="$fx/$2" TESTVM_OUT="$tmp/tv" \
		sh "$root/testvm/verify-kernel.sh" "$tmp/bzImage" "$o" 2>&1
}
rie=' regress: noexec32=off: 32-bit process has READ_IMPLIES_EXEC (1252f238db48)'	# after the fix's id
line=$(merge survived-debian-6.1.log regressed-derived-noexec32-off-no-rie.log)
t_check "SURVIVED + REGRESSED: REGRESSED, signature of the failing boot" sh -c \
	"printf '%s' '$line' | grep -q '^REGRESSED .*\\[noexec32=off\\] CVE-[0-9-]*: regression tests failed: test 7 '"
t_check "boot.json names the failing test" jq -e --arg t "$rie" \
	'.verdict == "REGRESSED" and (.failed_tests | length) == 1 and (.failed_tests[0] | endswith($t)) and .tests.failed == 1' "$o/boot.json"
line=$(merge regressed-v2.6.32-mutant-g-aout-leak.log vulnerable-v2.6.32-noexec32-off-state.log)
t_check "REGRESSED + VULNERABLE: VULNERABLE (state checks fail; regressions do not change it)" sh -c \
	"printf '%s' '$line' | grep -q '^VULNERABLE .*state checks failed'"
t_check "boot.json: failing tests of both boots, each once" jq -e '
	(.failed_tests | length) == 4 and (.failed_tests[0] | test("^CVE-[0-9-]* regress: ia32 a.out whose text"))
	and (.failed_tests[1:] | all(test("^CVE-[0-9-]* cve-state:")))' "$o/boot.json"
line=$(merge regressed-v2.6.32-mutant-g-aout-leak.log inconclusive-truncated-tap.log)
t_check "REGRESSED + INCONCLUSIVE: INCONCLUSIVE" sh -c "printf '%s' '$line' | grep -q '^INCONCLUSIVE .*truncated TAP'"
line=$(merge regressed-derived-noexec32-off-no-rie.log regressed-v2.6.32-mutant-g-aout-leak.log)
t_check "REGRESSED + REGRESSED: REGRESSED, the first boot's signature, both boots' tests" sh -c "
	printf '%s' '$line' | grep -q '^REGRESSED .*\\[default\\] CVE-[0-9-]*: regression tests failed: test 7 ' &&
	jq -e '(.failed_tests | length) == 2' '$o/boot.json'"
# Per fix (testvm/README.md "Verdicts"): each fix's verdicts of the two
# boots merged as the kernel's are; NOT-TESTED in a boot keeps a fix from
# SURVIVED.
line=$(merge notested-3081-no-net-v2.6.32-patched.log survived-3081-debian-6.1-net.log)
t_check "fix NOT-TESTED in one boot, SURVIVED in the other: NOT-TESTED, tagged; CVE-2010-0307 SURVIVED; the kernel SURVIVED" jq -e '
	.verdict == "SURVIVED" and .fixes["CVE-2010-0307"].verdict == "SURVIVED"
	and .fixes["CVE-2010-3081"].verdict == "NOT-TESTED"
	and .fixes["CVE-2010-3081"].signature == "[default] socketcall ENOSYS: kernel built without CONFIG_NET"
	and .fixes["CVE-2010-3081"].tests == {passed: 9, failed: 0, skipped: 7}' "$o/boot.json"
line=$(merge survived-3081-debian-6.1-net.log vulnerable-3081-v2.6.32-net.log)
t_check "fix SURVIVED, then VULNERABLE: VULNERABLE with the failing boot's tag and test, per fix" jq -e '
	.verdict == "VULNERABLE" and (.fixes | keys) == ["CVE-2010-0307", "CVE-2010-3081"]
	and (.fixes["CVE-2010-3081"] | .verdict == "VULNERABLE"
	     and (.signature | startswith("[noexec32=off] state checks failed: the kernel did not write"))
	     and (.failed_tests | length) == 1 and (.failed_tests[0] | startswith("CVE-2010-3081 cve-state:")))
	and .fixes["CVE-2010-0307"].verdict == "VULNERABLE"' "$o/boot.json"
line=$(merge survived-3081-debian-6.1-net.log survived-3081-debian-6.1-net.log)
t_check "both fixes SURVIVED in both boots: SURVIVED each, the kernel SURVIVED with nothing left untested" jq -e '
	.verdict == "SURVIVED" and ([.fixes[].verdict] | unique) == ["SURVIVED"] and (.signature | test("not tested") | not)' "$o/boot.json"
line=$(merge survived-debian-6.1.log survived-debian-6.1-noexec32-off.log)
t_check "an image from before per-fix tests: CVE-2010-0307 is the kernel's verdict, CVE-2010-3081 NOT-TESTED" jq -e '
	.verdict == "SURVIVED" and .fixes["CVE-2010-0307"].verdict == "SURVIVED" and .fixes["CVE-2010-3081"].verdict == "NOT-TESTED"' "$o/boot.json"

# UNREACHABLE through the merge: a toy fix proven unreachable in one boot
# and SURVIVED in the other stays UNREACHABLE, its proof carried into
# boot.json (testvm/tests/toy-unreachable.log, a synthetic log).
{ echo "# toy"; cat "$root/testvm/tests/toy-unreachable.log"; } >"$tmp/toy.log"
{ echo "# toy"; sed 's/ # UNREACHABLE .*$//; s/ # SKIP unreachable.*$//' "$root/testvm/tests/toy-unreachable.log"; } >"$tmp/toy-s.log"
FAKE_MODE=exit FAKE_LOG="$tmp/toy.log" FAKE_LOG_NX="$tmp/toy-s.log" TESTVM_OUT="$tmp/tv" \
	sh "$root/testvm/verify-kernel.sh" "$tmp/bzImage" "$tmp/toy" >/dev/null 2>&1
t_check "a fix UNREACHABLE in one boot, SURVIVED in the other: UNREACHABLE, its proof in boot.json" jq -e '
	.fixes["CVE-2099-0001"] | .verdict == "UNREACHABLE" and (.unreachable | startswith("orig_ax written as 0x100000014"))
	and (.signature | startswith("[default] flaw present, not reachable: "))' "$tmp/toy/boot.json"

# Two verifications of one kernel into one outdir at once (two `make verify`
# of a branch): each must merge its own two boots, never one of them.
( FAKE_MODE=exit FAKE_LOG="$fx/survived-debian-6.1.log" TESTVM_OUT="$tmp/tv" \
	sh "$root/testvm/verify-kernel.sh" "$tmp/bzImage" "$tmp/race" >"$tmp/race-a" 2>&1; echo $? >>"$tmp/race-a" ) &
( FAKE_MODE=exit FAKE_LOG="$fx/survived-debian-6.1.log" TESTVM_OUT="$tmp/tv" \
	sh "$root/testvm/verify-kernel.sh" "$tmp/bzImage" "$tmp/race" >"$tmp/race-b" 2>&1; echo $? >>"$tmp/race-b" ) &
wait
t_check "two verifications of one kernel at once: each line merges two boots (runs=6), both exit 0" sh -c \
	"grep -q '^SURVIVED runs=6 ' '$tmp/race-a' && grep -q '^SURVIVED runs=6 ' '$tmp/race-b' &&
	 tail -n 1 '$tmp/race-a' | grep -qx 0 && tail -n 1 '$tmp/race-b' | grep -qx 0"

# Up to date: a conclusive verdict of the same kernel, guest image,
# emulator, command lines and judging code is not booted again in the same
# folder; anything else boots.
unset KIT_REBOOT
vk() { # vk <kernel> <outdir> <fixture>: the one line; $tmp/args exists if QEMU ran
	rm -f "$tmp/args"
	FAKE_MODE=exit FAKE_LOG="$fx/$3" TESTVM_OUT="$tmp/tv" sh "$root/testvm/verify-kernel.sh" "$1" "$2" 2>&1
}
vk "$tmp/bzImage" "$tmp/u" survived-debian-6.1.log >/dev/null
line=$(vk "$tmp/bzImage" "$tmp/u" regressed-derived-noexec32-off-no-rie.log)
t_check "same inputs, SURVIVED before: not booted again, the line says up to date and when it booted" sh -c "
	printf '%s' '$line' | grep -q '^SURVIVED .*(up to date: booted 20[0-9-]*T[0-9:]*Z, inputs unchanged' &&
	test ! -e '$tmp/args' && jq -e '.up_to_date == true and .verdict == \"SURVIVED\"' '$tmp/u/boot.json'"
printf x >"$tmp/bzImage2"
line=$(vk "$tmp/bzImage2" "$tmp/u" regressed-derived-noexec32-off-no-rie.log)
t_check "another kernel image (one byte): booted, judged anew" sh -c "
	printf '%s' '$line' | grep -q '^REGRESSED ' && test -e '$tmp/args' &&
	jq -e '.up_to_date == false' '$tmp/u/boot.json'"
line=$(vk "$tmp/bzImage2" "$tmp/u" survived-debian-6.1.log)
t_check "REGRESSED before: booted again, not reused" sh -c "printf '%s' '$line' | grep -q '^SURVIVED ' && test -e '$tmp/args'"
line=$(KIT_BOOTS=default vk "$tmp/bzImage2" "$tmp/u" survived-debian-6.1.log)
t_check "other command lines (KIT_BOOTS): booted" sh -c "printf '%s' '$line' | grep -q '^SURVIVED runs=3 ' && test -e '$tmp/args'"
line=$(KIT_REBOOT=1 KIT_BOOTS=default vk "$tmp/bzImage2" "$tmp/u" survived-debian-6.1.log)
t_check "KIT_REBOOT=1: booted though up to date" sh -c "printf '%s' '$line' | grep -qv 'up to date' && test -e '$tmp/args'"
vk "$tmp/bzImage" "$tmp/i" inconclusive-truncated-tap.log >/dev/null
line=$(vk "$tmp/bzImage" "$tmp/i" survived-debian-6.1.log)
t_check "INCONCLUSIVE before: booted again" sh -c "printf '%s' '$line' | grep -q '^SURVIVED ' && test -e '$tmp/args'"

t_done
