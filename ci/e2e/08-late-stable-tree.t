#!/bin/sh
# lane: kernels
# A tree of the era, made from a pinned release with what late stable and
# vendor trees carry, goes to a verdict (docs/trees.md):
#  - v2.6.28 plus the four compat declarations 2.6.28.y appended at the end
#    of include/linux/compat.h, exactly where compat_alloc_user_space()'s
#    fix (c41d68a513c7) adds its own: `make verify TREE=` merges that hunk three ways against the
#    pinned release (scripts/merge3.sh) and the tree's patch says so;
#  - and a Kconfig option (OOM_KILLER, default y, as a Linux-VServer tree
#    has) that gates out_of_memory(), which allnoconfig leaves off and the
#    link then misses: the tree builds with its owner's configuration
#    (CONFIG=, here the kit's own v2.6.28 .config, which predates the
#    option) plus the kit's symbols, oldconfig giving the option its default.
# Every fix is what the gate holds it to on v2.6.28 (the fix whose hunk
# was merged VULNERABLE unpatched and SURVIVED patched), exit 0, and
# the tree comes out unchanged.
. ci/e2e/lib.sh
b=v2.6.28
need_source "$b" "a late stable tree ($b with a stable addition at a hunk's anchor)" || { t_done; exit; }
need_series "$b" "a late stable tree" || { t_done; exit; }
tmp=$(mktemp -d); trap 'rmtree "$tmp"' EXIT
t=$tmp/linux-2.6.28.10
# a farm of the export: every edit below replaces a file (sed -i, mv)
if ! err=$(sh scripts/fetch.sh --farm "$b" "$t" 2>&1 >/dev/null); then
	t_fail "a tree of the $b export for the late stable tree" "$err"; t_done; exit
fi
sed -i 's/^EXTRAVERSION =.*/EXTRAVERSION = .10/' "$t/Makefile"
# after compat_sys_timerfd_gettime's declaration and the blank line that
# follows it: where 2.6.28.y put them
awk '
	/^asmlinkage long compat_sys_timerfd_gettime\(/ { g = 1 }
	{ print }
	g == 1 && /;$/ { g = 2; next }
	g == 2 && /^$/ {
		g = 3
		print "asmlinkage long compat_sys_move_pages(pid_t pid, unsigned long nr_page,"
		print "\t\t\t\t      __u32 __user *pages,"
		print "\t\t\t\t      const int __user *nodes,"
		print "\t\t\t\t      int __user *status,"
		print "\t\t\t\t      int flags);"
		print "asmlinkage long compat_sys_futimesat(unsigned int dfd, char __user *filename,"
		print "\t\t\t\t     struct compat_timeval __user *t);"
		print "asmlinkage long compat_sys_newfstatat(unsigned int dfd, char __user * filename,"
		print "\t\t\t\t      struct compat_stat __user *statbuf,"
		print "\t\t\t\t      int flag);"
		print "asmlinkage long compat_sys_openat(unsigned int dfd, const char __user *filename,"
		print "\t\t\t\t  int flags, int mode);"
		print ""
	}' "$t/include/linux/compat.h" >"$tmp/compat.h" && mv "$tmp/compat.h" "$t/include/linux/compat.h"
# the vendor option: out_of_memory() only under CONFIG_OOM_KILLER
awk '/^void out_of_memory\(/ { print "#ifdef CONFIG_OOM_KILLER"; f = 1 } { print } f && /^}/ { print "#endif"; f = 0 }' \
	"$t/mm/oom_kill.c" >"$tmp/oom_kill.c" && mv "$tmp/oom_kill.c" "$t/mm/oom_kill.c"
{ cat "$t/mm/Kconfig"; printf '\nconfig OOM_KILLER\n\tbool "The out-of-memory killer (a vendor option)"\n\tdefault y\n'; } >"$tmp/Kconfig" &&
	mv "$tmp/Kconfig" "$t/mm/Kconfig"
digest() { sh scripts/fetch.sh --listing "$1" "$b" | sha256sum | cut -d' ' -f1; }
before=$(digest "$t")
i=$(grep -l '^commit c41d68a513c7' "backports/$b"/*.patch)
if patch -d "$t" -p1 -F0 --dry-run -s <"$i" >/dev/null 2>&1; then
	t_fail "the fixture puts a stable addition where the hunk anchors" "${i##*/} still applies exactly"
else
	t_ok "the fixture: ${i##*/} no longer applies to the tree as it is"
fi
o=$tmp/out
# the owner's configuration: the kit's own $b kernel's (the build cache
# serves it when make check's builds have made it)
if OUT=$o sh scripts/build.sh unpatched "$b" >"$tmp/ref.log" 2>&1 && ! grep -q OOM_KILLER "$o/$b/unpatched/.config"; then
	t_ok "the owner's configuration: the kit's $b .config, which has no OOM_KILLER"
else t_fail "the kit's $b kernel for its .config" "$(tail -2 "$tmp/ref.log")"; fi
cp "$o/$b/unpatched/.config" "$tmp/owner.config"
OUT=$o TREE=$t CONFIG=$tmp/owner.config sh scripts/verify.sh >"$tmp/verify.log" 2>&1
rc=$?
n=tree-${t##*/} r=$o/$n/result.json
for k in unpatched patched; do
	# (.config.from: the path is the one of the build that made a cache
	# entry; the content is what the key holds, so a later run's path may
	# differ: only the kind of start is checked)
	jq -e --arg k $k '.build[$k].config.from | startswith("CONFIG=")' "$r" >/dev/null 2>&1 &&
		jq -e --arg k $k '.build[$k].config.required_checked | index("CONFIG_IA32_EMULATION=y")' "$r" >/dev/null &&
		grep -qx CONFIG_OOM_KILLER=y "$o/$n/$k/.config" &&
		t_ok "$k: built with CONFIG= plus the kit's $(jq -r --arg k $k '.build[$k].config.required_checked | length' "$r") symbols, each checked and named in result.json; OOM_KILLER=y by its default" ||
		t_fail "$k: built with the owner's configuration" "$(jq -c --arg k $k '.build[$k] | {status, stage, error, config}' "$r" 2>/dev/null)"
done
sed -n 's/^.*series *\(.*merged three ways.*\)$/# \1/p' "$tmp/verify.log"
p=$o/$n/tree-series/${i##*/}
grep -q "^  include/linux/compat.h: hand hunk .*, merged three ways; the tree and the change both add lines at 1 place(s), kept both, the tree's first (git merge-file; base: include/linux/compat.h of $b at " "$p" 2>/dev/null &&
	grep -q '^+extern void __user \*compat_alloc_user_space(unsigned long len);' "$p" &&
	t_ok "the tree's series: the compat.h hunk merged three ways against $b, and the patch says so" ||
	t_fail "the tree's patch records the three-way merge" "$(grep 'compat.h' "$p" 2>/dev/null | head -2; tail -3 "$tmp/verify.log")"
if ! jq -e '.gate.kernels' "$r" >/dev/null 2>&1; then
	t_fail "make verify TREE= gives verdicts" "exit $rc: $(tail -3 "$tmp/verify.log")"
else
	# each fix on what the gate holds it to on v2.6.28 (a fix may be
	# unreachable there), and the merged fix itself VULNERABLE -> SURVIVED
	# (the fix the merged patch references)
	mfix=$(sed -n 's/^References: //p' "$i" | head -1)
	for k in unpatched patched; do
		want=SURVIVED; [ $k = patched ] || want=VULNERABLE
		said=$(jq -r --arg k $k '.gate.kernels[$k].fixes | to_entries | map("\(.key) \(.value.verdict) (must be \(.value.expected))") | join(", ")' "$r")
		bad=$(jq -r --arg k $k '.gate.kernels[$k].fixes | to_entries | map(select(.value.ok | not)) | map(.key) | join(" ")' "$r")
		[ -n "$said" ] && [ -z "$bad" ] && [ "$(jq -r --arg k $k --arg f "$mfix" '.gate.kernels[$k].fixes[$f].verdict' "$r")" = $want ] &&
			t_ok "$k: every fix as the gate holds it, $mfix (the merged hunk) $want: $said" ||
			t_fail "$k: every fix as the gate holds it, ${mfix:-the merged fix} $want" "$said"
	done
	[ $rc -eq 0 ] && [ "$(jq -r .gate.status "$r")" = pass ] && t_ok "make verify TREE= exits 0, gate pass" ||
		t_fail "make verify TREE= exits 0, gate pass" "exit $rc, gate $(jq -r .gate.status "$r"): $(grep 'error:' "$tmp/verify.log" | tail -1)"
fi
[ "$(digest "$t")" = "$before" ] && t_ok "the input tree is unchanged (its listing's digest before and after)" ||
	t_fail "the input tree is unchanged"
t_done
