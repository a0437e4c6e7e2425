#!/bin/sh
# fix-state.sh tells present, missing and n/a changes apart from the code.
. ci/tap.sh
# FIXSTATE_CHANGES=<dir>: a bare folder of change folders, judged in the
# order of their names.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/ch/X" "$tmp/ch/Y" "$tmp/ch/Z" "$tmp/t/fs"
for c in X Y Z; do printf 'Upstream: %s\n' "$(printf '%040d' 0 | sed "s/^0/$c/" | tr XYZ abc)" >"$tmp/ch/$c/INFO"; done
printf 'present fs/exec.c - ^void setup_new_exec\\(\nabsent fs/exec.c setup_new_exec ^[[:space:]]*flush_thread\\(\\);\n' >"$tmp/ch/X/DETECT"
printf 'absent fs/old.c - TIF_ABI_PENDING\nabsent fs/new.c - TIF_ABI_PENDING\n' >"$tmp/ch/Y/DETECT"
printf 'absent arch/ia32_aout.c load_aout_binary mmap = NULL\n' >"$tmp/ch/Z/DETECT"
st() { FIXSTATE_CHANGES=$tmp/ch sh scripts/fix-state.sh "$tmp/t" | awk -v c="$1" '$1 == c { print $3 }'; }
cat >"$tmp/t/fs/exec.c" <<'C'
int flush_old_exec(void)
{
	flush_thread();
}
C
echo '#define TIF_ABI_PENDING 1' >"$tmp/t/fs/new.c"
[ "$(st X)" = missing ] && t_ok "no setup_new_exec(): missing" || t_fail "no setup_new_exec(): missing" "$(st X)"
[ "$(st Y)" = missing ] && t_ok "TIF_ABI_PENDING in the file that exists: missing" || t_fail "TIF_ABI_PENDING: missing" "$(st Y)"
[ "$(st Z)" = n/a ] && t_ok "a change whose files are not in the tree: n/a" || t_fail "n/a" "$(st Z)"
cat >"$tmp/t/fs/exec.c" <<'C'
int flush_old_exec(void)
{
	flush_thread();
}

void setup_new_exec(void)
{
	/* only updated in flush_thread() on some arches */
	x();
}
C
: >"$tmp/t/fs/new.c"
[ "$(st X)" = present ] && t_ok "flush_thread() only in a comment of setup_new_exec(): present" || t_fail "comment is not a call" "$(st X)"
[ "$(st Y)" = present ] && t_ok "TIF_ABI_PENDING gone: present" || t_fail "TIF_ABI_PENDING gone: present" "$(st Y)"
printf 'int flush_old_exec(void)\n{\n}\n\nvoid setup_new_exec(void)\n{\n\tflush_thread();\n}\n' >"$tmp/t/fs/exec.c"
[ "$(st X)" = missing ] && t_ok "flush_thread() called in setup_new_exec(): missing (A without D)" || t_fail "A without D" "$(st X)"
out=$(FIXSTATE_CHANGES=$tmp/ch sh scripts/fix-state.sh "$tmp/nope" 2>&1); rc=$?
[ $rc -eq 2 ] && t_ok "a missing tree is refused in one line" || t_fail "a missing tree is refused" "$out"

# --- affected lines: the code a change fixes is gone -> n/a ---------------
mkdir -p "$tmp/ch2/W" "$tmp/u"
printf 'Upstream: %040d\n' 0 >"$tmp/ch2/W/INFO"
printf 'affected lib/a.c - old_api\naffected lib/b.c - old_api\npresent lib/a.c new_api check\\(\n' >"$tmp/ch2/W/DETECT"
stw() { FIXSTATE_CHANGES=$tmp/ch2 sh scripts/fix-state.sh "$tmp/u" | awk '$1 == "W" { print $3 }'; }
mkdir -p "$tmp/u/lib"; printf 'int other(void)\n{\n}\n' >"$tmp/u/lib/a.c"
[ "$(stw)" = n/a ] && t_ok "affected lines, none holds: n/a (the code it fixes is gone)" || t_fail "affected, none holds: n/a" "$(stw)"
FIXSTATE_CHANGES=$tmp/ch2 sh scripts/fix-state.sh "$tmp/u" | grep -q '^W [0-9]* n/a the code it fixes is not in the tree' &&
	t_ok "... and says why" || t_fail "n/a says why" "$(FIXSTATE_CHANGES=$tmp/ch2 sh scripts/fix-state.sh "$tmp/u")"
printf 'int x(void)\n{\n\told_api();\n}\n' >"$tmp/u/lib/b.c"
[ "$(stw)" = missing ] && t_ok "one affected line holds: judged by present/absent (missing)" || t_fail "affected holds: missing" "$(stw)"
printf 'int new_api(void)\n{\n\treturn check();\n}\n' >"$tmp/u/lib/a.c"
[ "$(stw)" = present ] && t_ok "... present once its present line holds" || t_fail "affected holds: present" "$(stw)"

# --- ARCHES=: a tree judged on the architectures it ships ------------------
# S: sparc64's TIF_ABI_PENDING removal alone (as B); T: a rename in every
# architecture's compat.h (as I), x86 done, sparc64 not; U: a line in
# include/asm-generic/, which belongs to every architecture.
mkdir -p "$tmp/cha/S" "$tmp/cha/T" "$tmp/cha/U" "$tmp/v/arch/sparc/include/asm" "$tmp/v/arch/x86/include/asm" "$tmp/v/include/asm-generic"
for c in S T U; do printf 'Upstream: %040d\n' 0 >"$tmp/cha/$c/INFO"; done
printf 'absent arch/sparc/include/asm/thread_info_64.h - TIF_ABI_PENDING\n' >"$tmp/cha/S/DETECT"
printf 'absent arch/x86/include/asm/compat.h - (^|[^_[:alnum:]])compat_alloc_user_space\nabsent arch/sparc/include/asm/compat.h - (^|[^_[:alnum:]])compat_alloc_user_space\n' >"$tmp/cha/T/DETECT"
printf 'absent include/asm-generic/x.h - old_thing\nabsent arch/sparc/include/asm/compat.h - compat_alloc_user_space\n' >"$tmp/cha/U/DETECT"
echo '#define TIF_ABI_PENDING 1' >"$tmp/v/arch/sparc/include/asm/thread_info_64.h"
echo 'static void *compat_alloc_user_space(long len);' >"$tmp/v/arch/sparc/include/asm/compat.h"
echo 'static void *arch_compat_alloc_user_space(long len);' >"$tmp/v/arch/x86/include/asm/compat.h"
echo 'old_thing' >"$tmp/v/include/asm-generic/x.h"
# (ARCHES= is read with TREE=, a tree's run; without it, ARCHES= is a
# pick.  STA_TREE= gives TREE= another value: make exports TREE, empty.)
sta() { FIXSTATE_CHANGES=$tmp/cha TREE=${STA_TREE-$tmp/v} sh scripts/fix-state.sh "$tmp/v" | awk '{ printf "%s=%s ", $1, $3 }'; }
[ "$(sta)" = "S=missing T=missing U=missing " ] && t_ok "no ARCHES: every architecture's files read (S, T missing by sparc64)" ||
	t_fail "no ARCHES: all read" "$(sta)"
[ "$(ARCHES=all sta)" = "S=missing T=missing U=missing " ] && t_ok "ARCHES=all: the same" || t_fail "ARCHES=all" "$(ARCHES=all sta)"
[ "$(ARCHES='x86_64 powerpc' sta)" = "S=n/a T=present U=missing " ] &&
	t_ok "ARCHES='x86_64 powerpc': sparc64's files not read: S n/a, T present by x86; asm-generic still read (U missing)" ||
	t_fail "ARCHES without sparc64" "$(ARCHES='x86_64 powerpc' sta)"
FIXSTATE_CHANGES=$tmp/cha ARCHES=x86_64 TREE=$tmp/v sh scripts/fix-state.sh "$tmp/v" |
	grep -qx "S 000000000000 n/a its files here are other architectures' than those shipped (ARCHES: x86_64)" &&
	t_ok "... and S says why it is n/a" || t_fail "S n/a says why" "$(FIXSTATE_CHANGES=$tmp/cha ARCHES=x86_64 TREE=$tmp/v sh scripts/fix-state.sh "$tmp/v")"
[ "$(ARCHES='x86_64,sparc64' sta)" = "S=missing T=missing U=missing " ] && t_ok "ARCHES naming sparc64: its files read again" ||
	t_fail "ARCHES with sparc64" "$(ARCHES='x86_64,sparc64' sta)"
[ "$(ARCHES='x86_64 powerpc' STA_TREE= sta)" = "S=missing T=missing U=missing " ] &&
	t_ok "ARCHES= without TREE= (a pick of a branch): every architecture's files read" ||
	t_fail "ARCHES without TREE" "$(ARCHES='x86_64 powerpc' STA_TREE= sta)"
out=$(FIXSTATE_CHANGES=$tmp/cha ARCHES=vax TREE=$tmp/v sh scripts/fix-state.sh "$tmp/v" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s' "$out" | grep -q "unknown architecture 'vax'" &&
	t_ok "ARCHES=vax: refused, exit 2, one line" || t_fail "ARCHES=vax refused" "rc=$rc" "$out"
# a host patch's Detect: lines on x86 files hold in this tree; with
# ARCHES=powerpc (x86 not shipped) they are still read
mkdir -p "$tmp/h/arch/x86/boot"; echo 'fixed here' >"$tmp/h/arch/x86/boot/x.c"
printf 'Detect: present arch/x86/boot/x.c - fixed here\n\ndiff -u a/arch/x86/boot/x.c b/arch/x86/boot/x.c\n--- a/arch/x86/boot/x.c\n+++ b/arch/x86/boot/x.c\n@@ -1 +1 @@\n-broken\n+fixed\n' >"$tmp/h.patch"
out=$(ARCHES=powerpc TREE=$tmp/h sh scripts/fix-state.sh --host "$tmp/h.patch" "$tmp/h" 2>&1); rc=$?
[ $rc -eq 0 ] && [ "$out" = "h present (in another form: its Detect lines hold)" ] &&
	t_ok "--host: ARCHES=powerpc never filters a host patch (x86 build machinery): its x86 Detect line read" ||
	t_fail "--host with ARCHES" "rc=$rc" "$out"

# --- CVE-2010-3081 (change I): its real DETECT on trees shaped like the releases
I=$(echo backports/fixes/*/changes/I-compat-alloc-user-space)
mkdir -p "$tmp/chI/I"
cp "$I/INFO" "$I/DETECT" "$tmp/chI/I/"
sti() { FIXSTATE_CHANGES=$tmp/chI sh scripts/fix-state.sh "$1" | awk '$1 == "I" { print $3 }'; }
# mk3081 DIR LAYOUT(old|new) STATE(unpatched|renamed|fixed|unchecked)
mk3081() {
	rm -rf "$1"; mkdir -p "$1/kernel" "$1/include/linux"
	if [ "$2" = old ]; then h=$1/include/asm-x86/compat.h; g=$1/include/asm-ia64/compat.h
	else h=$1/arch/x86/include/asm/compat.h; g=$1/arch/ia64/include/asm/compat.h; fi
	mkdir -p "$(dirname "$h")" "$(dirname "$g")"
	n=compat_alloc_user_space; [ "$3" = unpatched ] || n=arch_compat_alloc_user_space
	printf 'static inline void __user *%s(long len)\n{\n\treturn (void __user *)regs->sp - len;\n}\n' "$n" >"$h"
	printf 'static __inline__ void __user *\n%s (long len)\n{\n\treturn 0;\n}\n' "$n" >"$g"
	printf 'long compat_sys_x(void)\n{\n\tp = compat_alloc_user_space(8);\n}\n' >"$1/kernel/compat.c"
	case $3 in
	fixed) printf '\nvoid __user *compat_alloc_user_space(unsigned long len)\n{\n\tvoid __user *p = arch_compat_alloc_user_space(len);\n\tif (unlikely(!access_ok(VERIFY_WRITE, p, len)))\n\t\treturn NULL;\n\treturn p;\n}\n' >>"$1/kernel/compat.c" ;;
	unchecked) printf '\nvoid __user *compat_alloc_user_space(unsigned long len)\n{\n\treturn arch_compat_alloc_user_space(len);\n}\n' >>"$1/kernel/compat.c" ;;
	esac
	: >"$1/include/linux/compat.h"
}
for lay in old new; do
	mk3081 "$tmp/r" $lay unpatched
	[ "$(sti "$tmp/r")" = missing ] && t_ok "I, $lay layout: the unchecked inline: missing" || t_fail "I $lay unpatched: missing" "$(sti "$tmp/r")"
	mk3081 "$tmp/r" $lay fixed
	[ "$(sti "$tmp/r")" = present ] && t_ok "I, $lay layout: renamed, generic function checks access_ok: present" || t_fail "I $lay fixed: present" "$(sti "$tmp/r")"
done
mk3081 "$tmp/r" new renamed
[ "$(sti "$tmp/r")" = missing ] && t_ok "I: inlines renamed but no generic function: missing" || t_fail "I renamed only: missing" "$(sti "$tmp/r")"
mk3081 "$tmp/r" new unchecked
[ "$(sti "$tmp/r")" = missing ] && t_ok "I: a generic function without access_ok(): missing" || t_fail "I unchecked: missing" "$(sti "$tmp/r")"
mk3081 "$tmp/r" new fixed
printf 'static inline void __user *compat_alloc_user_space(long len)\n{\n\treturn 0;\n}\n' >"$tmp/r/arch/ia64/include/asm/compat.h"
[ "$(sti "$tmp/r")" = missing ] && t_ok "I: one architecture's inline left under the old name: missing" || t_fail "I one arch left: missing" "$(sti "$tmp/r")"
rm -rf "$tmp/r"; mkdir -p "$tmp/r/kernel" "$tmp/r/include/linux" "$tmp/r/arch/x86/include/asm"
printf 'long compat_sys_x(void)\n{\n}\n' >"$tmp/r/kernel/compat.c"
: >"$tmp/r/include/linux/compat.h"; : >"$tmp/r/arch/x86/include/asm/compat.h"
[ "$(sti "$tmp/r")" = n/a ] && t_ok "I: compat code with no compat_alloc_user_space at all (6.1's shape): n/a" || t_fail "I 6.1 shape: n/a" "$(sti "$tmp/r")"

# --- the real trees, when the kit's cache holds them (read only) ----------
# Every 2.6 release lacks I; debian-6.1 is already fixed (I n/a: no
# compat_alloc_user_space() left; A-H present or n/a), so the kit applies
# nothing to it.  ~1 s per tree; SKIP for a tree not in the cache.
cache=$(KIT_ROOT=$(pwd) . scripts/lib.sh && echo "$KIT_CACHE")
for b in v2.6.26 v2.6.27 v2.6.28 v2.6.29 v2.6.30 v2.6.31 v2.6.32; do
	c=$(sed -n 's/^BR_COMMIT=//p' "branches/$b.conf")
	if [ ! -f "$cache/src/$c/.kit-verified" ]; then t_skip "$b: I missing in the real tree" "not in the cache (make fetch BRANCH=$b)"; continue; fi
	st=$(sh scripts/fix-state.sh "$cache/src/$c")
	# the changes made for this release (INFO Branches:) are missing; a
	# change for later releases only (a flaw younger than this one) is n/a
	for_b=$(KIT_ROOT=$(pwd) sh -c '. scripts/lib.sh; for ch in $(kit_changes); do
		case " $(info_field "$ch" Branches) " in *" all "* | *" '"$b"' "*) echo "$ch" ;; esac; done')
	printf '%s\n' "$st" | awk -v want="$(echo $for_b)" 'BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) f[w[i]] = 1 }
		$1 ~ /^I-/ { i = $3 } ($1 in f) != ($3 == "missing") { bad = 1 } END { exit !(i == "missing" && !bad) }' &&
		t_ok "$b: every change made for it missing in the real tree, I included; the others n/a" ||
		t_fail "$b: every change made for it missing, I included" "$st"
done
d61=$(ls -d "$cache"/src/linux-source-6.1_* 2>/dev/null | tail -1)
if [ -n "$d61" ] && [ -f "$d61/.kit-verified" ]; then
	st=$(sh scripts/fix-state.sh "$d61")
	printf '%s\n' "$st" | grep -q '^I-compat-alloc-user-space c41d68a513c7 n/a the code it fixes is not in the tree' &&
		t_ok "debian-6.1: I n/a, no compat_alloc_user_space() left" || t_fail "debian-6.1: I n/a" "$st"
	sh scripts/plan-series.sh debian-6.1 "$d61" "$tmp/plan" >/dev/null 2>"$tmp/plan.err"; rc=$?
	[ $rc -eq 4 ] && jq -e '.status == "already fixed"' "$tmp/plan/plan.json" >/dev/null &&
		t_ok "debian-6.1: already fixed for both fixes, nothing to apply (plan-series exit 4)" ||
		t_fail "debian-6.1: already fixed (exit 4)" "rc=$rc $(cat "$tmp/plan.err")"
else
	t_skip "debian-6.1: I n/a in the real tree" "not in the cache (make fetch BRANCH=debian-6.1)"
	t_skip "debian-6.1: already fixed for both fixes" "not in the cache"
fi
t_done
