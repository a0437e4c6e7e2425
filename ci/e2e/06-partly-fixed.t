#!/bin/sh
# Already-fixed and partly-fixed trees: the kit applies only what is
# missing, says what it skipped, and refuses a tree whose fixes break the
# ordering rule (A without D) without touching it.  Trees are checked copies
# of the v2.6.32 export (fetch.sh --copy) plus patches of the committed series.
. ci/e2e/lib.sh
b=v2.6.32
need_source "$b" "partly-fixed trees" || { t_done; exit; }
need_series "$b" "partly-fixed trees" || { t_done; exit; }
tmp=$(mktemp -d); trap 'rmtree "$tmp"' EXIT
# mk NAME ERE: a checked tree of the export (a farm: patch replaces the
# files it changes) with the series patches whose names match, in order
mk() {
	d=$tmp/$1; sh scripts/fetch.sh --farm "$b" "$d" >/dev/null || return 1
	for p in $(grep -E "$2" "backports/$b/series"); do patch -d "$d" -p1 -s -F0 <"backports/$b/$p" || return 1; done
}
mk h-only 'ptrace' && out=$(sh scripts/plan-series.sh "$b" "$tmp/h-only" "$tmp/plan-h" 2>&1) && s=$(printf '%s' "$out" | tail -1)
if [ -r "$s/series" ] && ! grep -q ptrace "$s/series" && [ "$(wc -l <"$s/series")" -eq $(($(wc -l <"backports/$b/series") - 1)) ] &&
	printf '%s' "$out" | grep -q "skip .*ptrace.*already in the tree"; then
	t_ok "a tree that carries only the ptrace hardening gets every other patch, and is told H was skipped"
else t_fail "a tree with only H gets the rest" "$out"; fi
mk a-only '^split-flush_old_exec' && sh scripts/fetch.sh --listing "$tmp/a-only" "$b" >"$tmp/a-only.before"
out=$(sh scripts/plan-series.sh "$b" "$tmp/a-only" "$tmp/plan-a" 2>&1); rc=$?
if [ $rc -eq 2 ] && printf '%s' "$out" | grep -q "carries A-split-flush_old_exec but not .*D-fix-split.*stops without touching anything" &&
	sh scripts/fetch.sh --listing "$tmp/a-only" "$b" | cmp -s - "$tmp/a-only.before"; then
	t_ok "a tree with A but not D is refused, naming both, and left untouched"
else t_fail "a tree with A but not D is refused" "rc=$rc $out"; fi
mk all '.'
out=$(sh scripts/plan-series.sh "$b" "$tmp/all" "$tmp/plan-all" 2>&1); rc=$?
[ $rc -eq 4 ] && printf '%s' "$out" | grep -q "already fixed" && t_ok "a tree with the whole series is already fixed (exit 4, nothing applied)" ||
	t_fail "a tree with the whole series is already fixed" "rc=$rc $out"
t_done
