#!/bin/sh
# A tree the kit was not tuned for (TREE=, a vendor's 2.6.32): detected
# from its Makefile and code, given a series made for it from the same
# hunks and rules (what it already carries is not made), and, where a hand
# hunk does not fit and the vendor changed its very lines, refused with the
# file, the function and both sides named (scripts/merge3.sh).
. ci/e2e/lib.sh
b=v2.6.32
need_source "$b" "vendor trees" || { t_done; exit; }
tmp=$(mktemp -d); trap 'rmtree "$tmp"' EXIT
# a checked tree of the export (fetch.sh --farm, under its lock): hard
# links, so the vendor's edits below replace files (sed -i, patch)
if ! err=$(sh scripts/fetch.sh --farm "$b" "$tmp/vendor" 2>&1 >/dev/null); then
	t_fail "a tree of the $b export for the vendor tree" "$err"; t_done; exit
fi
sed -i 's/^EXTRAVERSION =.*/EXTRAVERSION = -42.vendor/' "$tmp/vendor/Makefile"
patch -d "$tmp/vendor" -p1 -s -F0 <"$(grep -l '^commit 04a1e62c2cec' backports/$b/*.patch)"
# the vendor tree's content (every file's mode and blob id), before each
# series run: no run may change it
content() { sh scripts/fetch.sh --listing "$tmp/vendor" "$b"; }
content >"$tmp/before1"
[ "$(sh scripts/detect.sh "$tmp/vendor")" = "$b" ] && t_ok "a vendor 2.6.32 (EXTRAVERSION -42.vendor) is detected as $b" || t_fail "vendor tree detected"
if out=$(SERIES_TREE=$tmp/vendor SERIES_OUT=$tmp/s sh scripts/series.sh "$b" 2>&1) &&
	[ "$(wc -l <"$tmp/s/series")" -eq $(($(wc -l <"backports/$b/series") - 1)) ] &&
	printf '%s' "$out" | grep -q "H-ptrace-genregs: already in the tree, not made" &&
	grep -q "made by the kit" "$tmp/s/split-flush_old_exec-into-two-functions.patch"; then
	t_ok "its own series: every patch but the ptrace hardening it carries, which is not made; each patch says how it was made"
else t_fail "a series made for the vendor tree" "$(printf '%s' "$out" | tail -3)"; fi
content >"$tmp/after1"
sed -i 's|bprm->mm = NULL;\t\t/\* We.re using it now \*/|bprm->mm = NULL;  /* vendor */|' "$tmp/vendor/fs/exec.c"
content >"$tmp/before2"
out=$(SERIES_TREE=$tmp/vendor SERIES_OUT=$tmp/s2 sh scripts/series.sh "$b" 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s' "$out" | tail -1 | grep -q "do not merge three ways: fs/exec.c, int flush_old_exec(struct linux_binprm \* bprm): the tree changed lines the hunk changes" &&
	printf '%s\n' "$out" | grep -q '^  --- the tree has:' && printf '%s\n' "$out" | grep -q '^  [[:space:]]*bprm->mm = NULL;  /\* vendor \*/' &&
	printf '%s\n' "$out" | grep -q '^  --- the change makes it:' &&
	t_ok "a hand hunk whose lines the vendor changed does not merge three ways: the file, the function and both sides are named" ||
	t_fail "a conflicting hand hunk names file, function and both sides" "rc=$rc $(printf '%s' "$out" | tail -12)"
cmp -s "$tmp/before1" "$tmp/after1" && content | cmp -s "$tmp/before2" - && [ ! -e "$tmp/s2" ] &&
	t_ok "the vendor tree is untouched and no half series was written" || t_fail "vendor tree untouched"
t_done
