#!/bin/sh
# cocci/tests/rename-trees.t: cocci/compat_alloc_user_space-rename.cocci on
# the real releases v2.6.26..v2.6.32 (CVE-2010-3081, not yet in any series).
#
# cocci/apply.sh finds a rule's sites by function BODY; a rename leaves the
# body as it was, so this rule's guards are checked here instead, with the
# same meaning: for each release, every definition of the old name in the
# rule's // Files: is found in the text AND parsed by spatch (else spatch
# would skip it silently), the rule renames exactly those (seven per
# release: ia64 mips parisc powerpc s390 sparc64 x86) and changes no other
# line, a second run changes nothing, and report mode flags each one on the
# pristine files and nothing on the result.
# Trees: the kit's verified exports (read only; E2E=1, as make check) or
# $COCCI_TREES/<release>/ holding include/ and arch/ (see cocci/README.md).
. ci/tap.sh
set -u
rule=cocci/compat_alloc_user_space-rename.cocci
releases="v2.6.26 v2.6.27 v2.6.28 v2.6.29 v2.6.30 v2.6.31 v2.6.32"
expect="*=7"	# "<release>=<n> ... *=<n>"

command -v spatch >/dev/null 2>&1 || { t_skip "rename on real trees" "spatch is not installed"; t_done; exit; }
if [ -z "${COCCI_TREES:-}" ] && [ "${E2E:-0}" != 1 ]; then
	t_skip "rename on real trees" "make unit stays fast: runs in make check (E2E=1) or with COCCI_TREES set"
	t_done; exit
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rename-trees.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tree_of() {
	if [ -n "${COCCI_TREES:-}" ]; then echo "$COCCI_TREES/$1"; return; fi
	sh scripts/fetch.sh "$1" 2>"$tmp/fetch.err"
}
hdr() { sed -n "s|^// $1:[[:space:]]*||p" "$rule" | head -1; }
files=$(hdr Files)
old=$(hdr Sites | sed 's/^\^//; s/\$$//')
new=$(hdr Fixed | sed 's/^\^//; s/\$$//')
sp() { (cd "$1" && shift && spatch --very-quiet --no-includes "$@") 2>"$tmp/spatch.err"; }
# defs DIR NAME: "file:name" for each definition of NAME in the text: the
# name at the start of a header line or after its return type, then "(",
# and no ";" on that line (a prototype or a call is not a definition).
defs() {
	for f in $present; do
		grep -E "^([A-Za-z_][^;(]*[ *])?$2 ?\\(" "$1/$f" | grep -v ';' | sed "s|.*|$f:$2|"
	done
}

for v in $releases; do
	if ! tree=$(tree_of "$v") || [ ! -d "$tree/include" ]; then
		t_skip "$v: rename on the real release" "no tree: $(tail -1 "$tmp/fetch.err" 2>/dev/null)"
		continue
	fi
	want=
	for e in $expect; do case $e in "$v="*|"*="*) want=${e#*=}; break ;; esac; done
	rm -rf "$tmp/a" "$tmp/b"; present=
	for f in $files; do
		[ -f "$tree/$f" ] || continue
		present="$present $f"
		for d in a b; do mkdir -p "$tmp/$d/$(dirname "$f")"; cp "$tree/$f" "$tmp/$d/$f"; done
	done
	defs "$tmp/a" "$old" | sort >"$tmp/sites"
	n=$(grep -c . "$tmp/sites")
	t_check "$v: $want definitions of $old() in the rule's files" test "$n" -eq "$want"
	# shellcheck disable=SC2086
	sp "$tmp/a" --sp-file "$PWD/cocci/tools/functions.cocci" $present | awk -F'\t' -v n="$old" '$2 == n { print $1 ":" $2 }' | sort >"$tmp/parsed"
	if cmp -s "$tmp/sites" "$tmp/parsed"; then t_ok "$v: spatch parsed every one"
	else t_fail "$v: spatch parsed every one" "not parsed: $(comm -23 "$tmp/sites" "$tmp/parsed" | tr '\n' ' ')"; fi
	# shellcheck disable=SC2086
	sp "$tmp/b" -D patch --in-place --sp-file "$PWD/$rule" $present >/dev/null
	defs "$tmp/b" "$old" >"$tmp/left"
	defs "$tmp/b" "$new" | sed "s/:$new\$/:$old/" | sort >"$tmp/renamed"
	t_check "$v: every definition renamed, none left" sh -c "[ ! -s '$tmp/left' ] && cmp -s '$tmp/sites' '$tmp/renamed'"
	(cd "$tmp" && diff -ru a b) >"$tmp/d" || :
	minus=$(grep -c '^-[^-]' "$tmp/d"); plus=$(grep -c '^+[^+]' "$tmp/d")
	t_check "$v: the diff changes only those $want lines, name only" sh -c "
		[ $minus -eq $want ] && [ $plus -eq $want ] &&
		[ \"\$(grep '^-[^-]' '$tmp/d' | sed 's/^.//; s/\\b$old\\b/X/')\" = \"\$(grep '^+[^+]' '$tmp/d' | sed 's/^.//; s/\\b$new\\b/X/')\" ]"
	# shellcheck disable=SC2086
	sp "$tmp/b" -D patch --sp-file "$PWD/$rule" $present >"$tmp/again"
	t_check "$v: a second run changes nothing" test ! -s "$tmp/again"
	# shellcheck disable=SC2086
	sp "$tmp/a" -D report --sp-file "$PWD/$rule" $present >"$tmp/r"
	t_check "$v: report flags $want sites on the release" test "$(grep -c . "$tmp/r")" -eq "$want"
	# shellcheck disable=SC2086
	sp "$tmp/b" -D report --sp-file "$PWD/$rule" $present >"$tmp/r2"
	t_check "$v: report silent on the result" test ! -s "$tmp/r2"
	echo "# $v: $(tr '\n' ' ' <"$tmp/sites")"
done
t_done
