#!/bin/sh
# cocci/tests/trees.t: cocci/apply.sh on the real releases v2.6.26..v2.6.32.
#
# Needs pristine trees: the kit's verified exports (KERNEL_GIT reachable
# or already cached), or extracted trees, one folder per release, under $COCCI_TREES
# (e.g. COCCI_TREES=/tmp/cocci-trees with /tmp/cocci-trees/v2.6.26/fs/...;
# only fs/, arch/x86/ia32/, for v2.6.26 arch/mips/kernel/irixelf.c, and
# each architecture's compat.h (include/asm-<arch>/, arch/<arch>/include/asm/)
# are read).  Nothing from those trees is ever copied into the repo.
# For every rule of every fix (backports/fixes/*/cocci/*.cocci) and
# release: the expected sites changed (the rule's "// Trees:" header line),
# the diff applies, and a second apply.sh run on the result prints nothing
# and says "already fixed"; report mode flags the pristine tree with as
# many lines as sites and is silent on the patched one.  A rename rule
# ("// Match: name") must also change exactly one line per site, and only
# the name on it.
. ci/tap.sh
set -u
releases="v2.6.26 v2.6.27 v2.6.28 v2.6.29 v2.6.30 v2.6.31 v2.6.32"

command -v spatch >/dev/null 2>&1 || { t_skip "real trees" "spatch is not installed"; t_done; exit; }
# Without COCCI_TREES, the kit's own verified exports (scripts/fetch.sh:
# read-only, already in the cache or fetched from KERNEL_GIT); apply.sh only
# reads a tree, and the patched copy below is the test's own.
tree_of() {
	if [ -n "${COCCI_TREES:-}" ]; then echo "$COCCI_TREES/$1"; return; fi
	sh scripts/fetch.sh "$1" 2>"$tmp/fetch.err"
}
if [ -z "${COCCI_TREES:-}" ] && [ "${E2E:-0}" != 1 ]; then
	# ~3 minutes on 2 cores: part of make check (E2E=1), not of make unit
	t_skip "real trees" "make unit stays fast: the rules on v2.6.26..v2.6.32 run in make check (E2E=1) or with COCCI_TREES set"
	t_done; exit
fi
if [ -n "${COCCI_TREES:-}" ] && [ ! -d "$COCCI_TREES" ]; then
	t_fail "COCCI_TREES=$COCCI_TREES is not a folder; unset it to use the kit's cache"; t_done; exit
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cocci-trees.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

for v in $releases; do
	if ! tree=$(tree_of "$v") || [ ! -d "$tree/fs" ]; then
		t_skip "$v: rules on the real release" "no tree: ${COCCI_TREES:+no $tree/fs}$(tail -1 "$tmp/fetch.err" 2>/dev/null) (set COCCI_TREES or KERNEL_GIT, see cocci/README.md)"
		continue
	fi
	for rule in backports/fixes/*/cocci/*.cocci; do
		[ -r "$rule" ] || continue
		name=$(basename "$rule" .cocci)
		# expected sites: "<release>=<n> ... *=<n>" (* = any other release)
		tab=$(sed -n 's|^// Trees:[[:space:]]*||p' "$rule")
		[ -n "$tab" ] || { t_fail "$name: has a '// Trees:' line (expected sites per release)"; continue; }
		want=
		for e in $tab; do case $e in "$v="*|"*="*) want=${e#*=}; break ;; esac; done
		if ! sh cocci/apply.sh "$rule" "$tree" >"$tmp/d" 2>"$tmp/e"; then
			t_fail "$v $name: apply.sh" "$(tail -1 "$tmp/e")"; continue
		fi
		got=$(sed -n 's/.*: \([0-9]*\) sites changed.*/\1/p' "$tmp/e")
		if [ "${got:-0}" = "$want" ]; then t_ok "$v $name: $want sites changed"
		else t_fail "$v $name: $want sites changed" "got ${got:-0}: $(tail -1 "$tmp/e")"; fi
		sh cocci/apply.sh "$rule" "$tree" --report >"$tmp/r" 2>/dev/null
		t_check "$v $name: report flags $want sites" test "$(grep -c . "$tmp/r")" -eq "$want"
		# the patched copy: only the rule's files
		rm -rf "$tmp/p"; mkdir -p "$tmp/p"
		for f in $(sed -n 's|^// Files:||p' "$rule"); do
			[ -f "$tree/$f" ] || continue
			mkdir -p "$tmp/p/$(dirname "$f")"; cp "$tree/$f" "$tmp/p/$f"
		done
		if ! (cd "$tmp/p" && patch -s -p1 <"$tmp/d"); then
			t_fail "$v $name: diff applies"; continue
		fi
		sh cocci/apply.sh "$rule" "$tmp/p" >"$tmp/d2" 2>"$tmp/e2"
		t_check "$v $name: second run on the result is empty, already fixed" \
			sh -c "[ ! -s '$tmp/d2' ] && grep -q 'already fixed' '$tmp/e2'"
		sh cocci/apply.sh "$rule" "$tmp/p" --report >"$tmp/r2" 2>/dev/null
		t_check "$v $name: report silent on the result" test ! -s "$tmp/r2"
		grep -q '^// Match: name$' "$rule" || continue
		# a rename: one line per site, the same but for the name
		old=$(sed -n 's|^// Sites:[[:space:]]*^\(.*\)\$$|\1|p' "$rule")
		new=$(sed -n 's|^// Fixed:[[:space:]]*^\(.*\)\$$|\1|p' "$rule")
		grep '^-[^-]' "$tmp/d" | sed "s/^.//; s/\\b$old\\b/X/" >"$tmp/minus"
		grep '^+[^+]' "$tmp/d" | sed "s/^.//; s/\\b$new\\b/X/" >"$tmp/plus"
		t_check "$v $name: $want lines changed, only the name on each" sh -c "
			[ -n '$old' ] && [ -n '$new' ] && [ \$(grep -c . '$tmp/minus') -eq $want ] && cmp -s '$tmp/minus' '$tmp/plus'"
	done
done
t_done
