#!/bin/sh
# The generated guest binaries and image, checked at readelf level: every
# program the image lists is ELF32 EM_386 or ELF64 as its name says and
# links nothing, the victims carry a PT_INTERP that does not exist, the
# a.out header is QMAGIC M_386 with the entry where the code starts, and
# the image is reproducible.  Then the build on the toy fixes of
# testvm/tests/toy-fixes: gen-fixes.sh takes up any fix folder, in the
# runner's order, refuses a bad Guest: line, and a toy fix's program run
# as the runner runs it is judged by the parser built beside it.
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

# every program of the image, by the word size its name ends in
progs=$(sed -n 's|^file /bin/\([^ ]*\) .*|\1|p' "$o/initramfs.list")
t_check "the image lists the fix programs gen-fixes.sh names, in its order, after /init" sh -c "
	sh '$root/testvm/gen-fixes.sh' list '$root/backports/fixes' >'$tmp/l' &&
	sed -n '/^file \/init /,\$p' '$o/initramfs.list' | sed 1d | head -n \$(wc -l <'$tmp/l') | cmp -s - '$tmp/l'"
for p in init $progs; do
	case $p in aout*) continue ;; esac	# an a.out, not ELF: checked below
	case $p in
	init | *64) t_check "$p: ELF64 X86-64" test "$(hdr "$o/$p" Machine)" = 'Advanced Micro Devices X86-64' ;;
	*32) t_check "$p: ELF32 EM_386" sh -c "test '$(hdr "$o/$p" Class)' = ELF32 &&
		test '$(hdr "$o/$p" Machine)' = 'Intel 80386'" ;;
	esac
	case $p in victim*) continue ;; esac	# a PIE with a missing interpreter: below
	t_check "$p: static, no interpreter, nothing undefined" sh -c "
		test -z \"\$(interp '$o/$p')\" && test '$(hdr "$o/$p" Type | cut -d' ' -f1)' = EXEC &&
		! readelf -d '$o/$p' 2>/dev/null | grep -q NEEDED && test -z \"\$(nm -u '$o/$p')\""
done
for v in $(printf '%s\n' $progs | grep '^victim'); do
	t_check "$v: PT_INTERP is /nonexistent/ld.so" test "$(interp "$o/$v")" = /nonexistent/ld.so
	t_check "$v: a PIE (ET_DYN)" sh -c "readelf -h '$o/$v' | grep -q 'Type: *DYN'"
done
# The syscall trap lives in guest/sys.h only: no assembler string that
# traps (a comment or a test's name may still say "int $0x80").
t_check "no syscall asm outside guest/sys.h" sh -c \
	"! grep -lE '\"int \\\$0x80|\"syscall\"' '$root'/testvm/guest/*.c '$root'/backports/fixes/*/guest/*.c"

# a.out: struct exec, little-endian u32s (where a fix's guest builds one)
if [ -e "$o/aout32" ]; then
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

fi

# image: contents and reproducibility
list=$(cpio -it <"$o/initramfs.cpio" 2>/dev/null | sort | tr '\n' ' ')
# shellcheck disable=SC2046,SC2086 # the program names, split on purpose
t_check "image lists /init, /dev/console, /proc, /cores and every program of its list" test "$list" = \
	"$(printf '%s\n' bin cores dev dev/console init proc $(printf 'bin/%s\n' $progs) | sort | tr '\n' ' ')"
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
(trap '' XFSZ; ulimit -f 16; exec "$o/mkcpio" "$o/initramfs.list" "$o" "$tmp/x.cpio") 2>"$tmp/err"
rc=$?
t_check "mkcpio, disk full: exit 1, one line, old image kept, no temp file left" sh -c "
	test $rc = 1 && test \$(wc -l <'$tmp/err') = 1 &&
	grep -q '^mkcpio: error: cannot write $tmp/x.cpio: ' '$tmp/err' && $(kept && echo true || echo false)"
old_image
"$o/mkcpio" "$o/initramfs.list" "$tmp/nowhere" "$tmp/x.cpio" 2>"$tmp/err"; rc=$?
t_check "mkcpio, an input missing: exit 1 naming list line and file, old image kept" sh -c "
	test $rc = 1 && grep -q 'initramfs.list:[0-9]*: cannot read $tmp/nowhere/' '$tmp/err' &&
	$(kept && echo true || echo false)"
"$o/mkcpio" "$o/initramfs.list" "$o" "$tmp/x.cpio" 2>"$tmp/err"; rc=$?
t_check "mkcpio over an old image: replaced, same bytes as the build's" sh -c \
	"test $rc = 0 && cmp '$tmp/x.cpio' '$o/initramfs.cpio' && set -- '$tmp'/x.cpio* && test \$# = 1"
# The toy fixes: the whole guest build from a folder of fix folders the
# kit has never seen, nothing named anywhere else.
tf=$root/testvm/tests/toy-fixes
ty=$tmp/toy
if make -s -C "$root/testvm" OUT="$ty" FIXES="$tf" all >"$tmp/toy.log" 2>&1; then
	t_ok "toy fixes: runner, programs, image and parser build"
else
	t_fail "toy fixes: runner, programs, image and parser build" "$(tail -5 "$tmp/toy.log")"
fi
t_check "toy fixes: fixes.h in folder order, the 'last' one after every other" sh -c "
	grep -o 'CVE-2099-000[12]' '$ty/fixes.h' | tr '\n' ' ' | grep -qx 'CVE-2099-0002 CVE-2099-0001 '"
t_check "toy fixes: each program in the image as <source>-<bits>, in that order" sh -c "
	sed -n 's|^file /bin/||p' '$ty/initramfs.list' | cut -d' ' -f1 | tr '\n' ' ' | grep -qx 'toy2-64 toy-32 '"
t_check "toy fixes: toy-32 is ELF32, toy2-64 ELF64" sh -c "test '$(hdr "$ty/toy-32" Class)' = ELF32 &&
	test '$(hdr "$ty/toy2-64" Class)' = ELF64"
# what the runner would print, with each program run here as it runs them
# ("PROG <first> <runs>"), then the parser built on the same fixes.h
if [ "$(hdr "$ty/toy-32" Class)" = ELF32 ] && "$ty/toy-32" 1 1 >/dev/null 2>&1; then
	{
		echo "Linux version 0.0.0-toy (the build host; generators.t)"
		echo "KIT: init v3 runs=2 proc=ok"
		printf 'TAP version 13\n1..6\nKIT: fix CVE-2099-0002 plan 2\nKIT: fix CVE-2099-0001 plan 4\n'
		echo "KIT: fix CVE-2099-0002 start"; "$ty/toy2-64" 1 2; echo "KIT: fix CVE-2099-0002 end status=0x100"
		echo "KIT: fix CVE-2099-0001 start"; "$ty/toy-32" 3 2; echo "KIT: fix CVE-2099-0001 end status=0x0"
		echo "KIT: done programs=2 failed=1"
	} >"$tmp/toy-run.log"
	"$ty/parse" --runs 2 "$tmp/toy-run.log" >"$tmp/toy.json"
	t_check "toy fixes: each judged on its own results (REGRESSED; UNREACHABLE with its proof), no other fix known" jq -e '
		(.fixes | keys) == ["CVE-2099-0001", "CVE-2099-0002"] and .fixes["CVE-2099-0002"].verdict == "REGRESSED"
		and .fixes["CVE-2099-0001"].verdict == "UNREACHABLE"
		and .fixes["CVE-2099-0001"].unreachable == "toy proof: the value read back narrowed"
		and .verdict == "REGRESSED"' "$tmp/toy.json"
	sed 's/^\(KIT: fix CVE-2099-0002 end status=\).*/\10x200/' "$tmp/toy-run.log" >"$tmp/toy-miscount.log"
	t_check "toy fixes: its program exits 2 (it counted other than planned): INCONCLUSIVE" sh -c "
		'$ty/parse' --runs 2 '$tmp/toy-miscount.log' | jq -e '.fixes[\"CVE-2099-0002\"] | .verdict == \"INCONCLUSIVE\" and (.signature | test(\"exit 2\"))'"
	sed '/^KIT: fix CVE-2099-0001 plan/d' "$tmp/toy-run.log" >"$tmp/toy-noplan.log"
	t_check "toy fixes: its plan line lost: INCONCLUSIVE, though every result is there" sh -c "
		'$ty/parse' --runs 2 '$tmp/toy-noplan.log' | jq -e '.fixes[\"CVE-2099-0001\"].verdict == \"INCONCLUSIVE\"'"
else
	t_skip "toy fixes: their programs run as the runner runs them" "the build host cannot run a 32-bit program (no IA32 emulation)"
	t_skip "toy fixes: its plan line lost" "the build host cannot run a 32-bit program (no IA32 emulation)"
fi
# a fix folder taken away: the next build of the same OUT drops it from
# the runner's list and the image (no file's time says so)
cp -R "$tf" "$tmp/less" && make -s -C "$root/testvm" OUT="$tmp/lo" FIXES="$tmp/less" image >/dev/null 2>&1 &&
	rm -r "$tmp/less/CVE-2099-0002" && make -s -C "$root/testvm" OUT="$tmp/lo" FIXES="$tmp/less" image >/dev/null 2>&1
t_check "a fix folder removed: the next build drops it from fixes.h and the image" sh -c "
	! grep -q CVE-2099-0002 '$tmp/lo/fixes.h' && grep -q CVE-2099-0001 '$tmp/lo/fixes.h' &&
	! cpio -it <'$tmp/lo/initramfs.cpio' 2>/dev/null | grep -q toy2"
# a bad Guest: line stops the build, naming the file
cp -R "$tf" "$tmp/bad" && sed -i 's/^Guest: toy.c 32 /Guest: toy.c 48 /' "$tmp/bad/CVE-2099-0001/FIX"
sh "$root/testvm/gen-fixes.sh" h "$tmp/bad" >/dev/null 2>"$tmp/err"; rc=$?
t_check "gen-fixes.sh: a Guest: line with 48 bits: exit 1, one line naming the FIX file" sh -c "
	test $rc = 1 && test \$(wc -l <'$tmp/err') = 1 && grep -q 'CVE-2099-0001/FIX: Guest: bits .48. is not 32 or 64' '$tmp/err'"
t_done
