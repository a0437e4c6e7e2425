#!/bin/sh
# The generated guest binaries and image, checked at readelf level: the
# victims carry a PT_INTERP that does not exist, 32-bit programs are ELF32
# EM_386, guest programs link nothing, the a.out header is QMAGIC M_386
# with the entry where the code starts, and the image is reproducible.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=ci/tap.sh
. "$root/ci/tap.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
o=$tmp/a
if ! make -s -C "$root/testvm" OUT="$o" all >"$tmp/build.log" 2>&1; then
	t_fail "guest programs and image build" "$(tail -5 "$tmp/build.log")"
	t_done; exit 1
fi
t_ok "guest programs and image build"

hdr() { readelf -h "$1" 2>/dev/null | sed -n "s/^ *$2: *//p"; }
interp() { readelf -l "$1" 2>/dev/null | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p'; }

for v in victim64 victim32; do
	t_check "$v: PT_INTERP is /nonexistent/ld.so" test "$(interp "$o/$v")" = /nonexistent/ld.so
	t_check "$v: a PIE (ET_DYN)" sh -c "readelf -h '$o/$v' | grep -q 'Type: *DYN'"
done
t_check "victim64: ELF64 X86-64" sh -c "test '$(hdr "$o/victim64" Class)' = ELF64 &&
	test '$(hdr "$o/victim64" Machine)' = 'Advanced Micro Devices X86-64'"
for p in probe32 victim32 c3081-32; do
	t_check "$p: ELF32 EM_386" sh -c "test '$(hdr "$o/$p" Class)' = ELF32 &&
		test '$(hdr "$o/$p" Machine)' = 'Intel 80386'"
done
for p in init probe64; do
	t_check "$p: ELF64 X86-64" test "$(hdr "$o/$p" Machine)" = 'Advanced Micro Devices X86-64'
done
for p in init probe64 probe32 c3081-32; do
	t_check "$p: static, no interpreter, nothing undefined" sh -c "
		test -z \"\$(interp '$o/$p')\" && test '$(hdr "$o/$p" Type | cut -d' ' -f1)' = EXEC &&
		! readelf -d '$o/$p' 2>/dev/null | grep -q NEEDED && test -z \"\$(nm -u '$o/$p')\""
done
# The syscall trap lives in guest/sys.h only.
t_check "no syscall asm outside guest/sys.h" sh -c \
	"! grep -lE 'int \\\$0x80|\"syscall\"' '$root'/testvm/guest/*.c"

# a.out: struct exec, little-endian u32s
a=$o/aout32
w() { od -A n -t u4 -j "$1" -N 4 "$a" | tr -d ' '; }
t_check "aout32: a_info is QMAGIC (0314) for M_386 (100)" test "$(w 0)" = $(((100 << 16) | 0314))
t_check "aout32: a_entry 0x1020 (first byte after the header at 0x1000)" test "$(w 20)" = 4128
t_check "aout32: a_text page multiple, file = a_text + a_data, no relocs" sh -c "
	t=$(w 4) d=$(w 8); test \$((t % 4096)) -eq 0 && test \$((t + d)) -eq $(wc -c <"$a") &&
	test $(w 24) -eq 0 && test $(w 28) -eq 0"
t_check "aout32: code at 0x1020 is _start" sh -c \
	"test \"\$(nm '$o/aout32.elf' | awk '\$3 == \"_start\" { print \$1 }')\" = 00001020"
t_check "aout32: its text begins with _start's bytes" sh -c \
	"cmp -s -i 32:0 -n 16 '$a' '$o/aout32.flat'"

# image: contents and reproducibility
list=$(cpio -it <"$o/initramfs.cpio" 2>/dev/null | sort | tr '\n' ' ')
t_check "image lists init, programs, /dev/console, /proc, /cores" test "$list" = \
	"bin bin/aout32 bin/c3081-32 bin/probe32 bin/probe64 bin/victim32 bin/victim64 cores dev dev/console init proc "
t_check "image: /dev/console is char 5,1" sh -c \
	"cpio -itv <'$o/initramfs.cpio' 2>/dev/null | grep -Eq '^c.* 5, +1 .*dev/console'"
t_check "image: every mtime is 0" sh -c \
	"cpio -itv --numeric-uid-gid <'$o/initramfs.cpio' 2>/dev/null | grep -v ' 1970 ' | grep -q . && exit 1 || exit 0"
b=$tmp/b
make -s -C "$root/testvm" OUT="$b" all >"$tmp/build2.log" 2>&1
t_check "image: same inputs, same bytes (two builds)" cmp "$o/initramfs.cpio" "$b/initramfs.cpio"
t_check "image: sha256 recorded" sh -c "cd '$o' && sha256sum -c --quiet initramfs.sha256"

# mkcpio's failures: exit 1 with one line naming the file, the previous
# image kept, nothing half-written left.  A full disk is a file size limit
# (SIGXFSZ ignored, so write() says EFBIG), as a user's quota would be.
old_image() { echo old >"$tmp/x.cpio"; }
kept() { # the old image, and no x.cpio.XXXXXX beside it
	set -- "$tmp"/x.cpio*
	test "$(cat "$tmp/x.cpio")" = old && test $# = 1
}
old_image
(trap '' XFSZ; ulimit -f 16; exec "$o/mkcpio" "$root/testvm/initramfs.list" "$o" "$tmp/x.cpio") 2>"$tmp/err"
rc=$?
t_check "mkcpio, disk full: exit 1, one line, old image kept, no temp file left" sh -c "
	test $rc = 1 && test \$(wc -l <'$tmp/err') = 1 &&
	grep -q '^mkcpio: error: cannot write $tmp/x.cpio: ' '$tmp/err' && $(kept && echo true || echo false)"
old_image
"$o/mkcpio" "$root/testvm/initramfs.list" "$tmp/nowhere" "$tmp/x.cpio" 2>"$tmp/err"; rc=$?
t_check "mkcpio, an input missing: exit 1 naming list line and file, old image kept" sh -c "
	test $rc = 1 && grep -q 'initramfs.list:[0-9]*: cannot read $tmp/nowhere/' '$tmp/err' &&
	$(kept && echo true || echo false)"
"$o/mkcpio" "$root/testvm/initramfs.list" "$o" "$tmp/x.cpio" 2>"$tmp/err"; rc=$?
t_check "mkcpio over an old image: replaced, same bytes as the build's" sh -c \
	"test $rc = 0 && cmp '$tmp/x.cpio' '$o/initramfs.cpio' && set -- '$tmp'/x.cpio* && test \$# = 1"
t_done
