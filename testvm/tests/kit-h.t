#!/bin/sh
# guest/kit.h at its edges, built as the guest programs are (freestanding,
# 64-bit, so it runs on any x86_64 build host) plus gcc's array-bounds
# check trapping in place (-fsanitize=bounds, no runtime needed): a write
# past a fixed buffer dies by SIGILL instead of passing unnoticed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=ci/tap.sh
. "$root/ci/tap.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# kit_getval builds " key=" in a 32-byte buffer: 29 characters are the
# longest key that fits with its NUL, 30 must be refused, not written.
cat >"$tmp/getval.c" <<'C'
#include "kit.h"
KIT_ENTRY(kit_start);
__attribute__((used)) void kit_start(long *sp)
{
	static const char rep[] = "R k29aaaaaaaaaaaaaaaaaaaaaaaaaa=7 k30aaaaaaaaaaaaaaaaaaaaaaaaaaa=9";
	unsigned long long v = 0;
	int rc = 0;

	(void)sp;
	if (!kit_getval(rep, sizeof(rep) - 1, "k29aaaaaaaaaaaaaaaaaaaaaaaaaa", &v) || v != 7)
		rc |= 1;
	if (kit_getval(rep, sizeof(rep) - 1, "k30aaaaaaaaaaaaaaaaaaaaaaaaaaa", &v))
		rc |= 2;
	if (kit_getval(rep, sizeof(rep) - 1, "k29", &v))
		rc |= 4;	/* a prefix of a key is not the key */
	sys_exit(rc);
}
C
if ! gcc -m64 -Os -Wall -Wextra -Werror -std=gnu11 -ffreestanding -fno-builtin \
	-fno-stack-protector -fno-asynchronous-unwind-tables -fcf-protection=none \
	-nostdlib -static -fno-pie -no-pie -fsanitize=bounds -fsanitize-undefined-trap-on-error \
	-I"$root/testvm/guest" -o "$tmp/getval" "$tmp/getval.c" >"$tmp/cc.log" 2>&1; then
	t_fail "kit_getval test program builds" "$(tail -5 "$tmp/cc.log")"; t_done; exit 1
fi
"$tmp/getval"; rc=$?
case $rc in
0) t_ok "kit_getval: a 29-character key is found, a 30-character one refused, nothing written past the key buffer" ;;
132) t_fail "kit_getval: nothing written past the key buffer" "the bounds check trapped (SIGILL): the key buffer overflowed" ;;
*) t_fail "kit_getval: 29 found (bit 1), 30 refused (bit 2), a prefix not a match (bit 4)" "exit $rc" ;;
esac
t_done
