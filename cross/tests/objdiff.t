#!/bin/sh
# objdiff (cross/objdiff) and the expected-set check (cross/check-expect.sh)
# on tiny objects compiled here from C snippets: no kernel tree needed.
# Seconds.  Cross compilers are used when installed (make cross-deps), else
# those checks SKIP.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/ci/tap.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cd "$t" || exit 2

if ! make -s -C "$root/cross/objdiff" O="$t" >build.log 2>&1; then
	t_fail "objdiff builds with the host cc" "$(tail -3 build.log)"
	t_done; exit 1
fi
[ ! -s build.log ] && t_ok "objdiff builds with the host cc, -Wall -Wextra clean" ||
	t_fail "objdiff builds with the host cc, -Wall -Wextra clean" "$(head -5 build.log)"
OD=$t/objdiff
# the same source with every function's hash forced to collide: equality
# must come from the bytes and relocations, not from the hash
mkdir -p collide
make -s -C "$root/cross/objdiff" O="$t/collide" \
	CFLAGS="-O2 -Wall -Wextra -std=c99 -D_POSIX_C_SOURCE=200809L -DOBJDIFF_TEST_COLLIDE" >collide.log 2>&1 ||
	t_fail "objdiff builds with colliding hashes" "$(tail -3 collide.log)"
ODC=$t/collide/objdiff
CFLAGS="-O2 -fno-pie -fno-inline -ffunction-sections -fdata-sections"

# A "kernel file" with a loader, a helper, strings and a static table.
cat >base.c <<'C'
extern int printk(const char *, ...);
extern void flush(void);
static int table[4] = { 1, 2, 3, 4 };
static int helper(int x) { return printk("helper %d\n", x) + table[x & 3]; }
int load_binary(int x)
{
	int r = helper(x);
	flush();
	printk("point of no return\n");
	return r * 3;
}
int other(int x) { printk("other %d\n", x); return helper(x) + 1; }
int bystander(int x) { return printk("bystander %d\n", table[x & 3]); }
C
# the expected change: load_binary gains a call and a string
sed 's|^\tflush();|\tflush();\n\tprintk("setup_new_exec\\n");|' base.c >good.c
# a deliberately wrong hunk: the same, plus a stray change in bystander()
sed 's|bystander %d|bystander: %d|' good.c >wrong.c
# a hunk that forgets the loader: only other() changes
sed 's|return helper(x) + 1;|return helper(x) + 2;|' base.c >miss.c
# a new function and a new static string ahead of everything else
{ head -1 base.c; printf '%s\n' 'int newfn(int x) { return printk("new %d\n", x); }'; tail -n +2 base.c; } >added.c
# lines inserted above: a line number in the code must not count
{ printf '#define WARN_HERE() printk("line %%d\\n", __LINE__)\n'; cat base.c; echo 'int warner(void) { WARN_HERE(); return 0; }'; } >line1.c
{ printf '#define WARN_HERE() printk("line %%d\\n", __LINE__)\n\n\n\n'; cat base.c; echo 'int warner(void) { WARN_HERE(); return 0; }'; } >line2.c

for f in base good wrong miss added line1 line2; do
	cc $CFLAGS -c $f.c -o $f.o || { t_fail "compile $f.c"; t_done; exit 1; }
done

t_check "identical objects: no difference" sh -c "[ -z \"\$($OD base.o base.o)\" ]"
out=$($ODC -l base.o | awk '{ print $3 }' | sort -u)
[ "$out" = 0000000000000000 ] && [ "$($ODC base.o good.o)" = "changed load_binary" ] &&
	[ -z "$($ODC base.o base.o)" ] && [ "$($ODC base.o wrong.o | wc -l)" = 2 ] &&
	t_ok "every hash equal: changed functions still found, equal ones still equal (bytes compared)" ||
	t_fail "every hash equal: changes found from the bytes" "hashes: $out; base/good: $($ODC base.o good.o)"
cc $CFLAGS -c base.c -o base2.o
t_check "two builds of one source: no difference" sh -c "[ -z \"\$($OD base.o base2.o)\" ]"
out=$($OD good.o base.o >/dev/null; $OD base.o good.o)
[ "$out" = "changed load_binary" ] && t_ok "the expected hunk: only load_binary changed" ||
	t_fail "the expected hunk: only load_binary changed" "got: $out"
out=$($OD base.o wrong.o)
[ "$out" = "changed bystander
changed load_binary" ] && t_ok "the wrong hunk: bystander reported too" || t_fail "the wrong hunk: bystander reported too" "got: $out"
out=$($OD base.o added.o)
[ "$out" = "added newfn" ] && t_ok "a new function (and string) moves the others, which still compare equal" ||
	t_fail "a new function moves the others, which still compare equal" "got: $out"
out=$($OD added.o base.o)
[ "$out" = "removed newfn" ] && t_ok "a removed function is reported" || t_fail "a removed function is reported" "got: $out"
$OD -q base.o base.o; a=$?
$OD -q base.o good.o >/dev/null; b=$?
[ $a -eq 0 ] && [ $b -eq 1 ] && t_ok "-q: exit 0 same, 1 different" || t_fail "-q: exit 0 same, 1 different" "got $a $b"
$OD -v base.o good.o | grep -q '^changed load_binary (size [0-9]* -> [0-9]*)$' &&
	t_ok "-v says why (size)" || t_fail "-v says why" "$($OD -v base.o good.o)"
$OD -d other base.o | grep -q 'str:"other %d\\x0a"' && $OD -d other base.o | grep -q ' helper' &&
	t_ok "-d: references are names and string contents, not addresses" ||
	t_fail "-d: references are names and string contents" "$($OD -d other base.o)"
$OD base.o /etc/hostname >/dev/null 2>err; rc=$?
[ $rc -eq 2 ] && grep -q 'not an ELF file' err && t_ok "a non-ELF input: exit 2 and says so" || t_fail "a non-ELF input: exit 2" "rc=$rc $(cat err)"

# __LINE__: unpinned, the inserted lines change warner(); pinned (as
# scripts/cross.sh builds), they do not.
out=$($OD line1.o line2.o)
[ "$out" = "changed warner" ] && t_ok "unpinned __LINE__: an insertion above changes a line-number user" ||
	t_fail "unpinned __LINE__ changes warner" "got: $out"
for f in line1 line2; do cc $CFLAGS -U__LINE__ -D__LINE__=0 -c $f.c -o $f.pin.o 2>/dev/null; done
out=$($OD line1.pin.o line2.pin.o)
[ -z "$out" ] && t_ok "pinned __LINE__: the same insertion changes nothing" || t_fail "pinned __LINE__ changes nothing" "got: $out"

# The expected-set check, on the steps layout cross.sh writes.
mkstep() { # mkstep <dir> <change> <old.o> <new.o>
	mkdir -p "$1/steps/1-$2/fs"
	echo "$2" >"$1/steps/1-$2/change"
	$OD "$3" "$4" >"$1/steps/1-$2/fs/loader.o.diff"
}
mkdir -p exp
printf '# test\nfs/loader.o load_binary\n?fs/loader.o helper\n' >exp/X-test.expect
mkstep good X-test base.o good.o
sh "$root/cross/check-expect.sh" good v2.6.32 c fs/loader.o exp >good.txt 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^OK fs/loader.o X-test: changed {load_binary}' good.txt &&
	t_ok "expected set: the right hunk passes" || t_fail "expected set: the right hunk passes" "$(cat good.txt)"
mkstep wrong X-test base.o wrong.o
sh "$root/cross/check-expect.sh" wrong v2.6.32 c fs/loader.o exp >wrong.txt 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q '^FAIL fs/loader.o X-test: unexpected changed function bystander' wrong.txt &&
	t_ok "expected set: a deliberately wrong hunk is caught (unexpected changed function)" ||
	t_fail "expected set: the wrong hunk is caught" "$(cat wrong.txt)"
mkstep miss X-test base.o miss.o
sh "$root/cross/check-expect.sh" miss v2.6.32 c fs/loader.o exp >miss.txt 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q 'expected load_binary to change, but it did not' miss.txt &&
	grep -q 'unexpected changed function other' miss.txt &&
	t_ok "expected set: a hunk that misses the loader is caught (expected unchanged)" ||
	t_fail "expected set: the missing change is caught" "$(cat miss.txt)"
printf 'fs/loader.o load_binary v2.6.2[6-8]\n' >exp/Y-test.expect
mkstep branchsel Y-test base.o good.o
sh "$root/cross/check-expect.sh" branchsel v2.6.32 c fs/loader.o exp >bs.txt 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q 'unexpected changed function load_binary' bs.txt &&
	t_ok "expected set: a line limited to other branches does not apply" || t_fail "branch globs" "$(cat bs.txt)"
# compiler-made fragments (.cold, .part.N, ...) count for their function,
# and only for it
mkdir -p frag/steps/1-X-test/fs && echo X-test >frag/steps/1-X-test/change
printf 'changed load_binary.cold\n' >frag/steps/1-X-test/fs/loader.o.diff
sh "$root/cross/check-expect.sh" frag v2.6.32 c fs/loader.o exp >frag.txt 2>&1; rc=$?
[ $rc -eq 0 ] && t_ok "expected set: load_binary.cold counts as load_binary" || t_fail "fragment of an expected function" "$(cat frag.txt)"
printf 'changed load_binary\nchanged bystander.part.0\n' >frag/steps/1-X-test/fs/loader.o.diff
sh "$root/cross/check-expect.sh" frag v2.6.32 c fs/loader.o exp >frag.txt 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q 'unexpected changed function bystander.part.0' frag.txt &&
	t_ok "expected set: a fragment of an unexpected function is caught" || t_fail "fragment of an unexpected function" "$(cat frag.txt)"
mkstep noexp Z-none base.o good.o
sh "$root/cross/check-expect.sh" noexp v2.6.32 c fs/loader.o exp >ne.txt 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q 'no expected set' ne.txt && t_ok "a change without an expected set fails" || t_fail "missing .expect" "$(cat ne.txt)"

# An assembler file: entries that end with END (a global label, no type)
# are functions too, each running to the next entry less the alignment
# no-ops before it; a change inside one names it, and another entry that
# calls out, or jumps to an aligned global entry (kept a relocation by
# -mshared, as the x86_64 cell assembles), is unchanged though it moved
# (host as, x86-64: the ia32entry.S case).
if printf 'nop\n' | as --64 -mshared -o /dev/null - >/dev/null 2>&1; then
	cat >asm-base.s <<'S'
	.text
	.globl entry_one
entry_one:
	cmpl $300,%eax
	jae 1f
	call *table(,%rax,8)
1:	ret
	.globl entry_two
entry_two:
	call helper_c
	ret
	.globl stub_one
stub_one:
	leaq 8(%rsp),%rdi
	jmp entry_three
	.p2align 4, 0x90
	.type entry_three,@function
	.globl entry_three
entry_three:
	ret
	.size entry_three,.-entry_three
S
	sed 's/cmpl \$300,%eax/cmpq $300,%rax/' asm-base.s >asm-new.s
	as --64 -mshared -o asm-base.o asm-base.s && as --64 -mshared -o asm-new.o asm-new.s || t_fail "assemble the asm fixtures"
	[ "$($OD -l asm-base.o | cut -d' ' -f1 | paste -sd' ' -)" = "entry_one entry_three entry_two stub_one" ] &&
		[ "$($OD asm-base.o asm-new.o)" = "changed entry_one" ] &&
		t_ok "asm: untyped global entries are functions; a 64-bit compare names its entry alone, the padding that moved does not" ||
		t_fail "asm entries" "$($OD -l asm-base.o | tr '\n' ' ')" "$($OD -v asm-base.o asm-new.o | tr '\n' ' ')"
else
	t_skip "asm: untyped global entries" "the host as cannot assemble x86-64 (binutils)"
fi

# Every change of every fix has an expected set in its fix's cross/ folder.
miss=
for c in $(KIT_ROOT=$root sh -c '. "$KIT_ROOT/scripts/lib.sh" && kit_changes'); do
	f=$(KIT_ROOT=$root sh -c '. "$KIT_ROOT/scripts/lib.sh" && fix_of "$1"' - "$c")
	[ -r "$root/backports/fixes/$f/cross/$c.expect" ] || miss="$miss $c"
done
[ -z "$miss" ] && t_ok "every change of backports/fixes/*/changes/ has its <fix>/cross/<change>.expect" || t_fail "expected sets missing:$miss"

# The same normalisation on every cross compiler that is installed: big
# endian, REL and RELA, labels kept in the symbol table (hppa .LC, mips $LC),
# ppc64 function descriptors.
for cc in "gcc -m32" hppa-linux-gnu-gcc sparc64-linux-gnu-gcc powerpc64-linux-gnu-gcc m68k-linux-gnu-gcc sh4-linux-gnu-gcc mips-linux-gnu-gcc; do
	case $cc in *-gcc) command -v $cc >/dev/null 2>&1 || cc=$cc-12 ;; esac
	if ! echo 'int x;' | $cc -x c -c -o /dev/null - >/dev/null 2>&1; then
		t_skip "$cc: wrong hunk caught, layout ignored" "$cc not installed (make cross-deps)"
		continue
	fi
	ok=1 msg=
	for f in base good wrong added; do $cc $CFLAGS -c $f.c -o x-$f.o 2>/dev/null || { ok=0; msg="compile $f"; }; done
	[ "$($OD x-base.o x-good.o)" = "changed load_binary" ] || { ok=0; msg="$msg good: $($OD -v x-base.o x-good.o | tr '\n' ' ')"; }
	[ "$($OD x-base.o x-wrong.o | tr '\n' ' ')" = "changed bystander changed load_binary " ] || { ok=0; msg="$msg wrong: $($OD x-base.o x-wrong.o | tr '\n' ' ')"; }
	[ "$($OD x-base.o x-added.o)" = "added newfn" ] || { ok=0; msg="$msg added: $($OD -v x-base.o x-added.o | tr '\n' ' ')"; }
	[ $ok -eq 1 ] && t_ok "$cc: wrong hunk caught, layout ignored" || t_fail "$cc: wrong hunk caught, layout ignored" "$msg"
done
# check-calls.sh: with a fix's calls file saying so, a patched loader must
# call setup_new_exec and fs/exec.o define it (read off nm); a loader
# without the call fails, naming it; with no calls file nothing is said.
# Host nm, and ppc64's dot symbols where that compiler is installed.
mkdir -p calls/fs calls/arch
printf '# a fixture fix\n*/exec.o define setup_new_exec\n*binfmt_*.o call setup_new_exec\n*aout*.o call setup_new_exec\n' >calls/calls
printf 'extern void setup_new_exec(void *);\nint load_x_binary(void *b) { setup_new_exec(b); return 0; }\n' >calls/fixed.c
printf 'extern void flush_old_exec(void *);\nint load_x_binary(void *b) { flush_old_exec(b); return 0; }\n' >calls/unfixed.c
printf 'void setup_new_exec(void *b) { (void)b; }\n' >calls/exec.c
CC_PPC=powerpc64-linux-gnu-gcc; command -v $CC_PPC >/dev/null 2>&1 || CC_PPC=$CC_PPC-12
for pair in "cc nm" "$CC_PPC powerpc64-linux-gnu-nm"; do
	set -- $pair
	if ! echo 'int x;' | $1 -x c -c -o /dev/null - >/dev/null 2>&1; then
		t_skip "check-calls with $1" "$1 not installed (make cross-deps)"; continue
	fi
	$1 -O2 -c calls/fixed.c -o calls/fs/binfmt_x.o && $1 -O2 -c calls/unfixed.c -o calls/arch/ia32_aout.o &&
		$1 -O2 -c calls/exec.c -o calls/fs/exec.o && $1 -O2 -c calls/exec.c -o calls/fs/other.o || { t_fail "check-calls: compile with $1"; continue; }
	ok=1 msg=
	sh "$root/cross/check-calls.sh" $2 calls/fs/binfmt_x.o calls/calls >/dev/null || { ok=0; msg="fixed loader refused"; }
	sh "$root/cross/check-calls.sh" $2 calls/fs/exec.o calls/calls >/dev/null || { ok=0; msg="$msg; exec.o refused"; }
	out=$(sh "$root/cross/check-calls.sh" $2 calls/arch/ia32_aout.o calls/calls); rc=$?
	[ $rc -eq 1 ] && [ "$out" = "calls/arch/ia32_aout.o does not call setup_new_exec" ] || { ok=0; msg="$msg; unfixed loader: rc $rc '$out'"; }
	[ -z "$(sh "$root/cross/check-calls.sh" $2 calls/fs/other.o calls/calls)" ] || { ok=0; msg="$msg; other object judged"; }
	[ -z "$(sh "$root/cross/check-calls.sh" $2 calls/arch/ia32_aout.o)" ] || { ok=0; msg="$msg; judged with no calls file"; }
	[ $ok -eq 1 ] && t_ok "check-calls ($1): a loader without setup_new_exec is caught, exec.o must define it" ||
		t_fail "check-calls ($1)" "$msg"
done
t_done
