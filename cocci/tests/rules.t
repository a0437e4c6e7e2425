#!/bin/sh
# cocci/tests/rules.t: every rule on its samples, as Coccinelle's own tests.
#
# For each rule of every fix, backports/fixes/<fix>/cocci/<rule>.cocci, and
# each sample beside it, backports/fixes/<fix>/cocci/tests/<rule>/<s>.c:
#   - patch mode on <s>.c gives exactly <s>.res;
#   - a second patch run on <s>.res changes nothing (idempotent);
#   - report mode flags <s>.c and is silent on <s>.res.
# Plus: the samples that need cocci/macros.h fail to parse without it and
# parse with it; apply.sh's errors (a site that did not parse, a site the
# rule cannot change) fire on crafted trees.
. ci/tap.sh
set -u
root=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cocci-rules.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# apply.sh's spatch cache: the test's own, never the user's (its trees are
# made here and thrown away)
KIT_SPATCH_CACHE_DIR=$tmp/spatch-cache; export KIT_SPATCH_CACHE_DIR

if ! command -v spatch >/dev/null 2>&1; then
	t_skip "coccinelle rules" "spatch is not installed (apt-get install coccinelle)"
	t_done; exit
fi
ver=$(spatch --version | sed -n 's/^spatch version \([^ ]*\).*/\1/p')
echo "# spatch $ver"

sp() { spatch --very-quiet --macro-file "$root/cocci/macros.h" --no-includes "$@" 2>/dev/null; }

# rdir <rule name>: the cocci/ folder of the fix that holds the rule
rdir() { for _r in backports/fixes/*/cocci/"$1".cocci; do dirname "$_r"; return; done; }
for rule in backports/fixes/*/cocci/*.cocci; do
	[ -r "$rule" ] || continue
	name=$(basename "$rule" .cocci)
	req=$(sed -n 's|^// Requires:[[:space:]]*||p' "$rule")
	t_check "$name: header pins spatch $ver" test "$req" = "$ver"
	for h in '///' '// Confidence:' '// Options:' '// Upstream:' '// Branches:' '// Trees:' '// Files:' '// Sites:' 'virtual patch' 'virtual report'; do
		grep -q "^$h" "$rule" || t_fail "$name: header has '$h'"
	done
	set -- "$(dirname "$rule")/tests/$name"/*.c
	[ -f "$1" ] || { t_fail "$name: has samples in $(dirname "$rule")/tests/$name/"; continue; }
	for c in "$@"; do
		s=${c%.c}; res=$s.res; b=$name/$(basename "$s")
		[ -f "$res" ] || { t_fail "$b: has a .res"; continue; }
		cp "$c" "$tmp/x.c"
		sp -D patch --sp-file "$rule" "$tmp/x.c" -o "$tmp/out.c" >/dev/null
		[ -f "$tmp/out.c" ] || cp "$tmp/x.c" "$tmp/out.c"
		if cmp -s "$tmp/out.c" "$res"; then t_ok "$b: patch gives .res"
		else t_fail "$b: patch gives .res" "$(diff -u "$res" "$tmp/out.c" | head -20)"; fi
		rm -f "$tmp/out.c"
		cp "$res" "$tmp/x.c"
		out=$(sp -D patch --sp-file "$rule" "$tmp/x.c")
		if [ -z "$out" ]; then t_ok "$b: second run on .res changes nothing"
		else t_fail "$b: second run on .res changes nothing" "$(echo "$out" | head -10)"; fi
		cp "$c" "$tmp/x.c"
		n=$(sp -D report --sp-file "$rule" "$tmp/x.c" | grep -c .)
		if [ "$n" -ge 1 ]; then t_ok "$b: report flags the unfixed sample"
		else t_fail "$b: report flags the unfixed sample"; fi
		cp "$res" "$tmp/x.c"
		out=$(sp -D report --sp-file "$rule" "$tmp/x.c")
		if [ -z "$out" ]; then t_ok "$b: report silent on .res"
		else t_fail "$b: report silent on .res" "$out"; fi
	done
done

# apply.sh's own checks below run on two real rules, found by name in
# whichever fix folder holds them.
L=$(rdir setup_new_exec-loaders)/setup_new_exec-loaders.cocci LT=$(rdir setup_new_exec-loaders)/tests
# The macro file: the samples with DUMP_SEEK/NEW_AUX_ENT/elf_addr_t need it.
fns() { spatch --very-quiet --no-includes "$@" --sp-file cocci/tools/functions.cocci 2>/dev/null | cut -f2; }
for c in setup_new_exec-loaders/fdpic.c:sample_tables; do
	f=$LT/${c%%:*} fn=${c#*:}
	if fns "$f" | grep -qx "$fn"; then t_fail "macros: $fn does not parse without cocci/macros.h (else the test proves nothing)"
	else t_ok "macros: $fn does not parse without cocci/macros.h"; fi
	if fns --macro-file cocci/macros.h "$f" | grep -qx "$fn"; then t_ok "macros: $fn parses with cocci/macros.h"
	else t_fail "macros: $fn parses with cocci/macros.h"; fi
done
if fns --macro-file cocci/macros.h $LT/setup_new_exec-loaders/aout-alpha.c | grep -qx sample_core_dump; then
	t_ok "macros: DUMP_WRITE/DUMP_SEEK core dump parses"
else t_fail "macros: DUMP_WRITE/DUMP_SEEK core dump parses"; fi

# apply.sh on crafted trees built from the samples.
mk() { mkdir -p "$tmp/$1/$(dirname "$2")"; cp "$3" "$tmp/$1/$2"; }
mk t1 fs/binfmt_som.c $LT/setup_new_exec-loaders/som.c
mk t1 fs/binfmt_flat.c $LT/setup_new_exec-loaders/flat.c
sh cocci/apply.sh $L "$tmp/t1" >"$tmp/d1" 2>"$tmp/e1"; rc=$?
t_check "apply.sh: two sites changed on a two-loader tree" sh -c "[ $rc -eq 0 ] && grep -q '2 sites changed' '$tmp/e1'"
t_check "apply.sh: diff paths are a/ b/ relative to the tree" sh -c "grep -qx -- '--- a/fs/binfmt_flat.c' '$tmp/d1' && grep -qx -- '+++ b/fs/binfmt_som.c' '$tmp/d1'"
t_check "apply.sh: spatch version recorded on stderr" grep -q "spatch $ver" "$tmp/e1"
sh cocci/apply.sh $L "$tmp/t1" >"$tmp/d1b" 2>"$tmp/e1b"
t_check "apply.sh: output is byte-reproducible" cmp "$tmp/d1" "$tmp/d1b"
# the second run of the same rule on the same files: every spatch run
# served from the cache (said), the same diff; a damaged entry is said,
# removed and run again, the same diff
t_check "apply.sh: the first run ran spatch and stored it, the second took each run from the cache" sh -c "
	grep -q 'spatch runs: [1-9][0-9]* run, 0 from the cache' '$tmp/e1' && grep -q 'spatch runs: 0 run, [1-9][0-9]* from the cache' '$tmp/e1b'"
for e in "$KIT_SPATCH_CACHE_DIR"/*/stdout; do echo 'damaged' >>"$e"; break; done
sh cocci/apply.sh $L "$tmp/t1" >"$tmp/d1c" 2>"$tmp/e1c"
t_check "apply.sh: a damaged spatch cache entry is said, removed and run again; the same diff" sh -c "
	grep -q 'spatch cache entry .* does not match its checksums' '$tmp/e1c' && grep -q 'spatch runs: 1 run' '$tmp/e1c' && cmp -s '$tmp/d1' '$tmp/d1c'"
KIT_SPATCH_CACHE=0 sh cocci/apply.sh $L "$tmp/t1" >"$tmp/d1d" 2>"$tmp/e1d"
t_check "apply.sh: KIT_SPATCH_CACHE=0 runs spatch every time; the same diff" sh -c "
	grep -q 'spatch runs: [1-9][0-9]* run, 0 from the cache' '$tmp/e1d' && cmp -s '$tmp/d1' '$tmp/d1d'"
(cd "$tmp/t1" && patch -s -p1 <"$tmp/d1")
sh cocci/apply.sh $L "$tmp/t1" >"$tmp/d2" 2>"$tmp/e2"; rc=$?
t_check "apply.sh: fixed tree gives no diff and says already fixed" sh -c "[ $rc -eq 0 ] && [ ! -s '$tmp/d2' ] && grep -q 'already fixed' '$tmp/e2'"
t_check "apply.sh: ... from the spatch cache: the first run's idempotence check was this very run" \
	grep -q 'spatch runs: 0 run, [1-9][0-9]* from the cache' "$tmp/e2"
sh cocci/apply.sh $L "$tmp/t1" --report >"$tmp/d3" 2>"$tmp/e3"; rc=$?
t_check "apply.sh --report: silent on the fixed tree" sh -c "[ $rc -eq 0 ] && [ ! -s '$tmp/d3' ] && grep -q 'already fixed' '$tmp/e3'"
mk t1r fs/binfmt_som.c $LT/setup_new_exec-loaders/som.c
sh cocci/apply.sh $L "$tmp/t1r" --report >"$tmp/d4" 2>/dev/null; rc=$?
t_check "apply.sh --report: one line for the unfixed loader" sh -c "[ $rc -eq 0 ] && [ \$(grep -c . '$tmp/d4') -eq 1 ] && grep -q '^fs/binfmt_som.c:[0-9]*:.*load_sample_som()' '$tmp/d4'"

# A site spatch cannot parse: an unbalanced macro use inside the loader.
mk t2 fs/binfmt_som.c $LT/setup_new_exec-loaders/som.c
sed -i 's/^\tcurrent->thread.task_size = 0xc0000000;/\tBROKEN_MACRO(x, ) ) ;\n&/' "$tmp/t2/fs/binfmt_som.c"
sh cocci/apply.sh $L "$tmp/t2" >"$tmp/d5" 2>"$tmp/e5"; rc=$?
t_check "apply.sh: fails naming file and function that did not parse" sh -c "[ $rc -eq 1 ] && [ ! -s '$tmp/d5' ] && grep -q 'fs/binfmt_som.c: load_sample_som() did not parse' '$tmp/e5'"

# A site the rule cannot change: flush_old_exec() in a shape it does not know
# (here: no "R = flush_old_exec(...)" check and no personality) is an error.
mk t3 fs/binfmt_som.c /dev/null
cat >"$tmp/t3/fs/binfmt_som.c" <<'C'
static int load_odd(struct linux_binprm *bprm)
{
	if (flush_old_exec(bprm))
		return -1;
	return 0;
}
C
sh cocci/apply.sh $L "$tmp/t3" >"$tmp/d6" 2>"$tmp/e6"; rc=$?
t_check "apply.sh: fails naming a site the rule left unchanged" sh -c "[ $rc -eq 1 ] && [ ! -s '$tmp/d6' ] && grep -q 'fs/binfmt_som.c: load_odd() must change' '$tmp/e6'"

sh cocci/apply.sh $L "$tmp/nonexistent" 2>/dev/null; rc=$?
t_check "apply.sh: a missing tree is bad input (exit 2)" test "$rc" -eq 2

# "// Match: name" (a rename, CVE-2010-3081's rule): sites are definitions
# by name, each must end up under a name Fixed matches, bodies unchanged.
rn=$(rdir compat_alloc_user_space-rename)/compat_alloc_user_space-rename.cocci rs=$(rdir compat_alloc_user_space-rename)/tests/compat_alloc_user_space-rename
mk t5 arch/x86/include/asm/compat.h $rs/x86.c
mk t5 include/asm-ia64/compat.h $rs/ia64.c
sh cocci/apply.sh $rn "$tmp/t5" >"$tmp/d7" 2>"$tmp/e7"; rc=$?
t_check "apply.sh, Match: name: both definitions renamed, 2 sites" sh -c "[ $rc -eq 0 ] && grep -q '2 sites changed: include/asm-ia64/compat.h:compat_alloc_user_space arch/x86/include/asm/compat.h:compat_alloc_user_space' '$tmp/e7'"
cp -R "$tmp/t5" "$tmp/t5p"; (cd "$tmp/t5p" && patch -s -p1 <"$tmp/d7")
t_check "apply.sh, Match: name: the diff gives the samples' .res" sh -c "cmp -s '$tmp/t5p/arch/x86/include/asm/compat.h' $rs/x86.res && cmp -s '$tmp/t5p/include/asm-ia64/compat.h' $rs/ia64.res"
sh cocci/apply.sh $rn "$tmp/t5" --report >"$tmp/d8" 2>/dev/null; rc=$?
t_check "apply.sh --report, Match: name: one line per definition" sh -c "[ $rc -eq 0 ] && [ \$(grep -c . '$tmp/d8') -eq 2 ]"
sh cocci/apply.sh $rn "$tmp/t5p" >"$tmp/d9" 2>"$tmp/e9"; rc=$?
t_check "apply.sh, Match: name: renamed tree is already fixed" sh -c "[ $rc -eq 0 ] && [ ! -s '$tmp/d9' ] && grep -q 'already fixed' '$tmp/e9'"
# the guards, with broken copies of the rule
bad() { # bad <name> <sed script>: a copy of the rename rule, edited
	sed "$2" $rn >"$tmp/$1.cocci"
	sh cocci/apply.sh "$tmp/$1.cocci" "$tmp/t5" >"$tmp/$1.d" 2>"$tmp/$1.e"; echo $? >"$tmp/$1.rc"
}
bad wrongname 's/^+ arch_compat_alloc_user_space$/+ compat_alloc_user_space_old/'
t_check "apply.sh, Match: name: a new name Fixed does not match fails, naming it" sh -c "[ \$(cat '$tmp/wrongname.rc') -eq 1 ] && [ ! -s '$tmp/wrongname.d' ] && grep -q 'renamed compat_alloc_user_space_old(), which the rule.s Fixed' '$tmp/wrongname.e'"
bad norename 's/^- compat_alloc_user_space$/- compat_alloc_user_space_nowhere/'
t_check "apply.sh, Match: name: a definition left under the old name fails, naming it" sh -c "[ \$(cat '$tmp/norename.rc') -eq 1 ] && grep -q 'compat_alloc_user_space() must change but the rule left it' '$tmp/norename.e'"
bad body 's/^ (\.\.\.) { \.\.\. }$/ (...) {\n ... when any\n+ barrier();\n }/'
t_check "apply.sh, Match: name: a rename rule that also changes a body fails" sh -c "[ \$(cat '$tmp/body.rc') -eq 1 ] && grep -q 'body changed' '$tmp/body.e'"
bad badmatch 's|^// Match: name$|// Match: names|'
t_check "apply.sh: an unknown Match: is bad input (exit 2)" sh -c "[ \$(cat '$tmp/badmatch.rc') -eq 2 ] && grep -q 'Match: names' '$tmp/badmatch.e'"
bad nofixed '/^\/\/ Fixed:/d'
t_check "apply.sh: Match: name without a Fixed: line is bad input (exit 2)" sh -c "[ \$(cat '$tmp/nofixed.rc') -eq 2 ] && grep -q 'needs a .// Fixed:. line' '$tmp/nofixed.e'"
t_done
