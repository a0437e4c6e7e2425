#!/bin/sh
# fix-state.sh tells present, missing and n/a changes apart from the code.
. ci/tap.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/ch/X" "$tmp/ch/Y" "$tmp/ch/Z" "$tmp/t/fs"
printf 'X\nY\nZ\n' >"$tmp/ch/series"
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
t_done
