#!/bin/sh
# Any locale: the kit runs its tools under LC_ALL=C (scripts/lib.sh, the
# Makefile, testvm/boot.sh and verify-kernel.sh), so that a comma-decimal
# locale cannot turn a boot's seconds into "1,28", which jq's tonumber
# refuses.  The locale is made here with localedef (LOCPATH), so the test
# needs no locale installed on the machine.
. ci/tap.sh
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
loc=de_DE.UTF-8
skip_all() {
	for _n in "the locale writes a decimal comma (the fault is real here)" \
		"lib.sh: awk's %.2f writes a point under $loc" "the Makefile runs targets under LC_ALL=C" \
		"boot.sh under $loc: seconds=<n>.<nn>" "verify-kernel.sh under $loc: exit 0, boot.json seconds a number"; do
		t_skip "$_n" "$1"
	done
	t_done; exit
}
command -v localedef >/dev/null 2>&1 || skip_all "no localedef on this machine (Debian: libc-bin)"
mkdir "$tmp/loc"
localedef -i de_DE -f UTF-8 "$tmp/loc/$loc" >"$tmp/localedef.log" 2>&1 ||
	skip_all "localedef could not make $loc: $(tail -1 "$tmp/localedef.log")"
# under_de CMD...: CMD in the comma-decimal locale, as a user would run it
under_de() { env LOCPATH="$tmp/loc" LC_ALL=$loc "$@"; }

got=$(under_de awk 'BEGIN { printf "%.2f", 1.5 }')
[ "$got" = "1,50" ] && t_ok "the locale writes a decimal comma (the fault is real here)" ||
	t_fail "the locale writes a decimal comma (the fault is real here)" "awk wrote '$got'"

got=$(under_de env KIT_ROOT="$root" KIT_CONFIG=/nonexistent sh -c '. "$KIT_ROOT/scripts/lib.sh"; awk "BEGIN { printf \"%.2f\", 1.5 }"')
[ "$got" = "1.50" ] && t_ok "lib.sh: awk's %.2f writes a point under $loc" ||
	t_fail "lib.sh: awk's %.2f writes a point under $loc" "'$got'"

got=$(printf 'kit-locale-probe:\n\t@printf "%%s" "$$LC_ALL"\n' | under_de make -s -f Makefile -f - kit-locale-probe 2>&1)
[ "$got" = C ] && t_ok "the Makefile runs targets under LC_ALL=C" || t_fail "the Makefile runs targets under LC_ALL=C" "'$got'"

# boot.sh and verify-kernel.sh with a stand-in QEMU that writes a replayed
# serial log and exits (as testvm/tests/boot.t does).
cat >"$tmp/qemu" <<'Q'
#!/bin/sh
[ "${1-}" = --version ] && { echo "QEMU emulator version 0.0-fake"; exit 0; }
while [ $# -gt 0 ]; do
	case $1 in -serial) serial=${2#file:}; shift ;; esac
	shift
done
tail -n +2 "$FAKE_LOG" >"$serial"
sleep 0.3
Q
chmod +x "$tmp/qemu"
: >"$tmp/bzImage"; : >"$tmp/initrd"
export QEMU="$tmp/qemu" FAKE_LOG="$root/testvm/fixtures/survived-debian-6.1.log" KIT_REBOOT=1 KIT_LOCK="$tmp/build.lock"
line=$(under_de sh testvm/boot.sh "$tmp/bzImage" "$tmp/initrd" "$tmp/log" 2>&1)
case $line in
end=qemu\ seconds=[0-9]*.[0-9][0-9]\ *) t_ok "boot.sh under $loc: seconds=<n>.<nn>" ;;
*) t_fail "boot.sh under $loc: seconds=<n>.<nn>" "$line" ;;
esac
line=$(under_de env KIT_BOOTS=default TESTVM_OUT="$tmp/tv" sh testvm/verify-kernel.sh "$tmp/bzImage" "$tmp/v" 2>&1)
rc=$?
if [ $rc -eq 0 ] && jq -e '(.seconds | type) == "number" and .seconds > 0 and (.boots[0].seconds | type) == "number"' "$tmp/v/boot.json" >/dev/null 2>&1; then
	t_ok "verify-kernel.sh under $loc: exit 0, boot.json seconds a number"
else t_fail "verify-kernel.sh under $loc: exit 0, boot.json seconds a number" "rc=$rc" "$line"; fi
t_done
