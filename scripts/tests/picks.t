#!/bin/sh
# Picks (scripts/pick.sh, arches.sh; ARCHES= in order-rule, build, verify,
# cross): the ordering rule per architecture, what each pick carries and
# leaves out, its sizes, bad ARCHES values, the docs table, and the cross
# matrix's "not in this pick" cells.  No kernel is built: the picks are
# made from the committed series, the cross run is on a stub kit.
# Cost: 41 s measured on 2 cores with kernel builds running beside it
# (the docs table 10 s, each pick about 1 s, the stub cross run 5 s).
. ci/tap.sh
for c in jq git quilt make cc flock; do
	command -v $c >/dev/null 2>&1 || { t_skip "picks" "$c is not installed (make deps)"; t_done; exit; }
done
root=$(pwd)
tmp=$(mktemp -d); trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
A=221af7f87b97431e3ee21ce4b0e77d5411cf1549 B=94673e968cbcce07fa78dac4b0ae05d24b5816e1
C=05d43ed8a89c159ff641d472f970e3f1baa66318 D=7ab02af428c2d312c0cf8fb0b01cc1eb21131a3d
E=94f28da8409c6059135e89ac64a0839993124155
. scripts/arches.sh
# one_line_naming_all <text>: one line that names every known architecture
one_line_naming_all() {
	[ "$(printf '%s\n' "$1" | wc -l)" -eq 1 ] || return 1
	for a in $KIT_ARCHES; do printf '%s' "$1" | grep -q " $a" || return 1; done
}

# --- the ordering rule, per architecture ---------------------------------
# rule <name> <pass|refuse> <ARCHES> <what the message must say> <ids...>
rule() {
	_n=$1 _want=$2 _a=$3 _p=$4; shift 4
	_o=$(ARCHES=$_a sh scripts/order-rule.sh "$@" 2>&1); _r=$?
	if [ "$_want" = pass ] && [ $_r -eq 0 ]; then t_ok "$_n"
	elif [ "$_want" = refuse ] && [ $_r -eq 1 ] && printf '%s' "$_o" | grep -q -- "$_p"; then t_ok "$_n"
	else t_fail "$_n" "rc=$_r" "$_o"; fi
}
rule "x86_64: A C D passes (no B, no E)" pass x86_64 "" $A $C $D
rule "x86_64: A D without C is refused, naming C and x86_64" refuse x86_64 "without C .*x86_64 needs" $A $D
rule "x86_64: B and E do not stand in for C" refuse x86_64 "without C" $A $B $D $E
rule "sparc64: A D without B is refused" refuse sparc64 "without B .*sparc64 needs" $A $D
rule "sparc64: A B D passes" pass sparc64 "" $A $B $D
rule "powerpc: A D without E is refused" refuse powerpc "without E .*powerpc needs" $A $D
rule "x86_64 powerpc: A C D without E is refused" refuse "x86_64 powerpc" "without E" $A $C $D
rule "x86_64,powerpc: A C D E passes" pass "x86_64,powerpc" "" $A $C $D $E
rule "x86_32 (no TIF_ABI_PENDING): A D passes" pass x86_32 "" $A $D
rule "no ARCHES: every architecture, A C D still needs B and E" refuse "" "without B" $A $C $D
rule "any ARCHES: A without D is refused" refuse x86_64 "without D" $A $C
o=$(ARCHES=x86 sh scripts/order-rule.sh $A $D 2>&1); r=$?
[ $r -eq 2 ] && one_line_naming_all "$o" && t_ok "order-rule: unknown ARCHES is exit 2, one line naming the known ones" ||
	t_fail "order-rule: unknown ARCHES is exit 2, one line naming the known ones" "rc=$r" "$o"

# --- picks of the committed series ---------------------------------------
# the branch series a pick is made from, file by file (what must not change)
full_state() { (cd backports && find v2.6.* -type f | LC_ALL=C sort | xargs sha256sum); }
before=$(full_state)
# pick <branch> [VAR=value...]: make it into $tmp/out; sets rc, err, rec, dir
pick() {
	_b=$1; shift
	dir=$(env "$@" OUT="$tmp/out" MUTANTS_OUT="$tmp/none" KIT_CONFIG=/nonexistent sh scripts/pick.sh "$_b" 2>"$tmp/err"); rc=$?
	err=$(cat "$tmp/err")
	rec=$tmp/out/$_b/picks/$(basename "${dir:-none}" | sed 's/^pick-//').json
}
# The picks below are of the kit's first two fixes' changes (A-I): a fix
# added later may join a pick without breaking these cases, so letters
# and left_out are read for those changes only.
letters() { jq -r '[.patches[].letter | select(test("^[A-I]$"))] | join(" ")' "$rec"; }
# whole_subset: every patch of the pick is the branch's own, byte for byte,
# in the full series' order
whole_subset() {
	_full=$root/backports/$1
	for _p in $(cat "$dir/series"); do cmp -s "$_full/$_p" "$dir/$_p" || return 1; done
	[ "$(grep -Fxf "$dir/series" "$_full/series" | tr '\n' ' ')" = "$(tr '\n' ' ' <"$dir/series")" ]
}
branches=$(ls backports/v2.6.*/series | cut -d/ -f2)
[ "$(echo $branches | wc -w)" -eq 7 ] && t_ok "seven branches with a series (v2.6.26 ... v2.6.32)" ||
	t_fail "seven branches with a series (v2.6.26 ... v2.6.32)" "$branches"
for b in $branches; do
	pick "$b" ARCHES=x86_64
	# I (CVE-2010-3081) is kept whole: its sparc and powerpc compat.h come with it
	n="$b x86_64: A C D F G H I, whole patches of the full series in its order, no sparc or powerpc file but I's compat.h"
	if [ $rc -eq 0 ] && [ "$(letters)" = "A C D F G H I" ] && whole_subset "$b" &&
		[ "$dir" = "$tmp/out/$b/pick-x86_64" ] &&
		! jq -r '.patches[] | select(.letter != "I") | .files[]' "$rec" | grep -q 'sparc\|powerpc' &&
		jq -e '.patches[] | select(.letter == "I") | .files | all(test("compat\\.[ch]$"))' "$rec" >/dev/null; then t_ok "$n"
	else t_fail "$n" "rc=$rc" "$err" "$(jq -c '.files' "$rec" 2>&1)"; fi
done
b=v2.6.32
pick $b ARCHES=x86_64
t_check "$b x86_64: every patch says why, the architecture it serves, and a test (or why none)" jq -e '
	.arches == ["x86_64"] and (.patches | all(.why != "" and (.serves | length) > 0 and (.serves - ["x86_64"]) == []
	  and ((.tests | length) > 0 or .untested != null)))
	and ([.patches[] | select(.optional) | .letter] == ["H"])
	and ([.left_out[] | .letter | select(test("^[A-I]$"))] == ["B", "E"]) and (.left_out | all(.why_not | test("ARCHES")))' "$rec"
pick $b ARCHES=x86_64 HARDENING=0
[ $rc -eq 0 ] && [ "$(letters)" = "A C D F G I" ] && jq -e '.name == "x86_64-nohardening"
	and ([.left_out[] | select(.letter == "H") | .why_not | test("HARDENING=0")] == [true])' "$rec" >/dev/null &&
	t_ok "HARDENING=0 leaves H out and says so" || t_fail "HARDENING=0 leaves H out and says so" "rc=$rc" "$err"
pick $b ARCHES="powerpc x86_64"
[ $rc -eq 0 ] && [ "$(letters)" = "A C D E F G H I" ] && [ "$(basename "$dir")" = pick-x86_64-powerpc ] &&
	! jq -r '.patches[] | select(.letter != "I") | .files[]' "$rec" | grep -q sparc && jq -r '.files[]' "$rec" | grep -q powerpc &&
	jq -e '.patches[] | select(.letter == "I") | .serves == ["x86_64", "powerpc"]' "$rec" >/dev/null &&
	t_ok "x86_64 powerpc: A C D E F G H I, named x86_64-powerpc, powerpc files, no sparc file but I's, I serving both" ||
	t_fail "x86_64 powerpc: A C D E F G H I, named x86_64-powerpc, powerpc files, no sparc file but I's, I serving both" "rc=$rc" "$err"
pick $b ARCHES=sparc64
[ $rc -eq 0 ] && [ "$(letters)" = "A B D I" ] && t_ok "sparc64: A B D (the rule: D needs B there), I (its compat layer)" ||
	t_fail "sparc64: A B D (the rule: D needs B there), I (its compat layer)" "rc=$rc $(letters 2>&1)" "$err"
pick $b ARCHES=x86_32
[ $rc -eq 0 ] && [ "$(letters)" = "A D" ] &&
	jq -e '[.left_out[] | select(.letter == "I") | .why_not] == ["serves x86_64 powerpc sparc64 parisc mips, which ARCHES does not name"]' "$rec" >/dev/null &&
	t_ok "x86_32 (no TIF_ABI_PENDING, no compat layer): A D; I left out naming the architectures it serves" ||
	t_fail "x86_32 (no TIF_ABI_PENDING, no compat layer): A D; I left out naming the architectures it serves" "rc=$rc $(letters 2>&1)" "$err"
for a in parisc mips; do
	pick $b ARCHES=$a
	[ $rc -eq 0 ] && [ "$(letters)" = "A D I" ] && jq -e --arg a $a '[.patches[] | select(.letter == "I") | .serves] == [[$a]]' "$rec" >/dev/null &&
		t_ok "$a: A D and I, from I's Arches: line" || t_fail "$a: A D and I, from I's Arches: line" "rc=$rc $(letters 2>&1)" "$err"
done
pick $b
[ $rc -eq 0 ] && [ "$(basename "$dir")" = pick-all ] && cmp -s "$dir/series" "backports/$b/series" &&
	jq -e '.size == .full_size and .left_out == []' "$rec" >/dev/null &&
	t_ok "no ARCHES (all): the full series, the same size" || t_fail "no ARCHES (all): the full series, the same size" "rc=$rc" "$err"
t_check "making picks never writes into backports/<b>/" [ "$(full_state)" = "$before" ]

# a series with the x86_64 pick less C: refused by series-order and by build.sh
mkdir -p "$tmp/noC"
for p in $(grep -v '^x86-get-rid' "$tmp/out/$b/pick-x86_64/series"); do
	cp "$tmp/out/$b/pick-x86_64/$p" "$tmp/noC/" && echo "$p" >>"$tmp/noC/series"
done
o=$(ARCHES=x86_64 sh scripts/series-order.sh "$tmp/noC/series" 2>&1); r=$?
[ $r -eq 1 ] && printf '%s' "$o" | grep -q "without C" && t_ok "an x86_64 pick without C is refused (series-order.sh)" ||
	t_fail "an x86_64 pick without C is refused (series-order.sh)" "rc=$r" "$o"
o=$(ARCHES=x86_64 OUT=$tmp/bout KIT_CONFIG=/nonexistent SERIES_DIR=$tmp/noC sh scripts/build.sh pick-noc $b 2>&1); r=$?
[ $r -eq 2 ] && printf '%s' "$o" | grep -q "breaks the ordering rule" && [ ! -e "$tmp/bout/$b/pick-noc" ] &&
	t_ok "build.sh refuses an x86_64 pick without C before building" || t_fail "build.sh refuses an x86_64 pick without C before building" "rc=$r" "$o"
o=$(ARCHES=powerpc OUT=$tmp/bout KIT_CONFIG=/nonexistent SERIES_DIR=$(pick $b ARCHES=powerpc; echo "$dir") \
	sh scripts/build.sh pick-ppc $b 2>&1); r=$?
[ $r -eq 2 ] && printf '%s' "$o" | grep -q "without C .*x86_64" &&
	t_ok "build.sh holds a powerpc-only pick (A D E) to the rule of the x86_64 it builds" ||
	t_fail "build.sh holds a powerpc-only pick (A D E) to the rule of the x86_64 it builds" "rc=$r" "$o"

# --- bad input --------------------------------------------------------------
for cmd in "scripts/pick.sh $b" "scripts/verify.sh $b" "scripts/cross.sh $b x86_64"; do
	o=$(ARCHES="x86_64 x86" OUT=$tmp/bad KIT_CONFIG=/nonexistent sh $cmd 2>&1); r=$?
	[ $r -eq 2 ] && one_line_naming_all "$o" && [ ! -e "$tmp/bad" ] &&
		t_ok "${cmd%% *}: ARCHES naming an unknown architecture: exit 2, one line naming the known ones, nothing written" ||
		t_fail "${cmd%% *}: ARCHES naming an unknown architecture: exit 2, one line naming the known ones, nothing written" "rc=$r" "$o"
done
o=$(ARCHES='x86_64;*' OUT=$tmp/bad KIT_CONFIG=/nonexistent sh scripts/pick.sh $b 2>&1); r=$?
[ $r -eq 2 ] && one_line_naming_all "$o" && t_ok "ARCHES with a character no name has is refused the same way" ||
	t_fail "ARCHES with a character no name has is refused the same way" "rc=$r" "$o"
o=$(HARDENING=yes OUT=$tmp/bad KIT_CONFIG=/nonexistent sh scripts/pick.sh $b 2>&1); r=$?
[ $r -eq 2 ] && [ "$(printf '%s\n' "$o" | wc -l)" -eq 1 ] && printf '%s' "$o" | grep -q "HARDENING='yes' must be 1" &&
	t_ok "HARDENING other than 0 or 1 is refused in one line" || t_fail "HARDENING other than 0 or 1 is refused in one line" "rc=$r" "$o"
o=$(ARCHES=powerpc OUT=$tmp/bad KIT_CONFIG=/nonexistent sh scripts/verify.sh $b 2>&1); r=$?
[ $r -eq 2 ] && [ "$(printf '%s\n' "$o" | wc -l)" -eq 1 ] && printf '%s' "$o" | grep -q "has no x86_64.*make cross" && [ ! -e "$tmp/bad" ] &&
	t_ok "verify.sh: a pick without x86_64 is refused (it boots x86_64), naming make cross" ||
	t_fail "verify.sh: a pick without x86_64 is refused (it boots x86_64), naming make cross" "rc=$r" "$o"

# --- the architecture list against the cross matrix ------------------------
bad=
for f in cross/matrix/*.conf; do c=$(basename "$f" .conf); arch_of_cell "$c" >/dev/null || bad="$bad $c"; done
for a in $KIT_ARCHES; do
	hit=; for f in cross/matrix/*.conf; do [ "$(arch_of_cell "$(basename "$f" .conf)")" = "$a" ] && hit=1; done
	[ -n "$hit" ] || bad="$bad $a(no cell)"
done
[ -z "$bad" ] && t_ok "every cross cell has an architecture, every architecture a cell" ||
	t_fail "every cross cell has an architecture, every architecture a cell" "$bad"

# --- the docs table is what the command makes -------------------------------
sh scripts/pick.sh --table >"$tmp/table" 2>"$tmp/err"; r=$?
sed -n '/^<!-- pick-table: made/,/^<!-- pick-table: end/p' docs/picks.md | sed '1d;$d' >"$tmp/doc-table"
if [ $r -eq 0 ] && [ -s "$tmp/table" ] && cmp -s "$tmp/table" "$tmp/doc-table"; then
	t_ok "docs/picks.md's table is what 'sh scripts/pick.sh --table' makes"
else t_fail "docs/picks.md's table is what 'sh scripts/pick.sh --table' makes" "rc=$r; run 'make picks-table'" "$(diff "$tmp/doc-table" "$tmp/table" | head -5)"; fi
rows=$(grep -c '^| v2\.6\.' "$tmp/table")
[ "$rows" -eq "$(echo $branches | wc -w)" ] && grep -q '^| v2.6.26 | .* | A C D F G H I: ' "$tmp/table" &&
	t_ok "the table has a row per branch with a series, the x86_64 pick in it" || t_fail "the table has a row per branch with a series" "$rows rows"

# --- a stub kit: sizes counted right, a change with no rule, cross cells ----
kit=$tmp/kit id=1111111111111111111111111111111111111111
fx=$kit/backports/fixes/CVE-0000-0001
mkdir -p "$kit/scripts" "$kit/branches/host" "$kit/backports/fake" "$kit/cross/matrix" "$fx/cross" \
	"$kit/cross/objdiff" "$tmp/tree/fs" "$tmp/tree/include"
cp scripts/pick.sh scripts/arches.sh scripts/lib.sh scripts/order-rule.sh scripts/series-order.sh scripts/cross.sh \
	scripts/check-config.sh scripts/fix-state.sh scripts/result-check.sh "$kit/scripts/"
cp cross/check-expect.sh cross/check-calls.sh cross/pin-line.h "$kit/cross/"
cp cross/objdiff/objdiff.c cross/objdiff/Makefile "$kit/cross/objdiff/"
cat >"$kit/scripts/fetch.sh" <<'EOF'
#!/bin/sh
if [ "$1" = --farm ]; then mkdir "$3" && cp -R "$FAKE_SRC/." "$3/" && chmod -R u+w "$3"; exit; fi
printf '%s\n' "$FAKE_SRC"
EOF
printf 'BR_NAME=fake\nBR_VERSION=2.6.99\nBR_SOURCE=git\nBR_COMMIT=%s\nBR_FLAGS=fake\n' "$id" >"$kit/branches/fake.conf"
printf 'KIT_CC_FLAGS="-O2"\n' >"$kit/branches/host/fake.flags"
printf 'Id: CVE-0000-0001\nTitle: a stub fix\n\nOurs.\n' >"$fx/FIX"
for x in A:$A:A-split:all B:$B:B-sparc:sparc64 D:$D:D-fix:all; do
	l=${x%%:*} c=${x#*:*:}; c=${c%%:*} u=${x#*:}; u=${u%%:*} sv=${x##*:}
	mkdir -p "$fx/changes/$c"
	printf 'Letter: %s\nUpstream: %s\nSubject: change %s\nServes: %s\n\nOurs.\n' "$l" "$u" "$l" "$sv" >"$fx/changes/$c/INFO"
done
cat >"$tmp/tree/Makefile" <<'EOF'
allnoconfig:
	cp $(KCONFIG_ALLCONFIG) .config
prepare:
	@:
fs/exec.o: fs/exec.c
	@echo '  CC      $@'
	$(CC) -c -o $@ fs/exec.c && echo "cmd_fs/exec.o := $(CC) -c -o $@ fs/exec.c" >fs/.exec.o.cmd
EOF
printf 'int do_exec(int x)\n{\n\treturn x + 1;\n}\n' >"$tmp/tree/fs/exec.c"
printf '/* d */\n-- old\n' >"$tmp/tree/include/dash.h"
# A: fs/exec.c +4, include/dash.h +1 -1 (lines that read like file
# headers), include/new.h +2 (a new file): 7 added, 1 removed, 3 files
cat >"$kit/backports/fake/a.patch" <<EOF
Subject: change A

commit $A upstream.

--- a/fs/exec.c
+++ b/fs/exec.c
@@ -2,3 +2,7 @@
 {
 	return x + 1;
 }
+
+void setup_new_exec(void)
+{
+}
--- a/include/dash.h
+++ b/include/dash.h
@@ -1,2 +1,2 @@
 /* d */
--- old
+++ new
--- /dev/null
+++ b/include/new.h
@@ -0,0 +1,2 @@
+/* new */
+/* file */
EOF
# B: a sparc file, +1
cat >"$kit/backports/fake/b.patch" <<EOF
commit $B upstream.

--- /dev/null
+++ b/arch/sparc/include/asm/b.h
@@ -0,0 +1 @@
+/* b */
EOF
# D: fs/exec.c +1 -1 (two lines of context on each side: quilt pushes
# it with no fuzz after A)
printf 'commit %s upstream.\n\n--- a/fs/exec.c\n+++ b/fs/exec.c\n@@ -1,5 +1,5 @@\n int do_exec(int x)\n {\n-\treturn x + 1;\n+\treturn x + 2;\n }\n \n' "$D" >"$kit/backports/fake/d.patch"
for x in a:$A b:$B d:$D; do	# cross.sh names a patch's change by its Git-commit: line
	{ printf 'Git-commit: %s\n\n' "${x#*:}"; cat "$kit/backports/fake/${x%%:*}.patch"; } >"$tmp/p" &&
		mv "$tmp/p" "$kit/backports/fake/${x%%:*}.patch"
done
printf 'a.patch\nb.patch\nd.patch\n' >"$kit/backports/fake/series"
printf 'fs/exec.o setup_new_exec\n' >"$fx/cross/A-split.expect"
printf 'fs/exec.o do_exec\n' >"$fx/cross/D-fix.expect"
: >"$fx/cross/B-sparc.expect"
printf 'CONFIG_STUB=y\n' >"$kit/cross/matrix/common.config"
for c in x86_32 sparc64; do
	printf 'X_DESC="host cc"\nX_ARCH=x86\nX_CC=cc\nX_PKG=gcc\nX_OBJS=fs/exec.o\n' >"$kit/cross/matrix/$c.conf"
	: >"$kit/cross/matrix/$c.config"
done
chmod -R a-w "$tmp/tree"
kit_env() { env KIT_ROOT="$kit" KIT_CONFIG=/nonexistent KIT_CACHE="$tmp/cache" KIT_LOCK="$tmp/lock" \
	OUT="$tmp/kout" JOBS=1 FAKE_SRC="$tmp/tree" "$@"; }

# (the stub has A B D: x86_32 is the architecture whose pick is A D)
o=$(kit_env ARCHES=x86_32 sh "$kit/scripts/pick.sh" fake 2>&1); r=$?
krec=$tmp/kout/fake/picks/x86_32.json
if [ $r -eq 0 ] && jq -e '
	(.patches | map(.letter)) == ["A", "D"]
	and .patches[0].files == ["fs/exec.c", "include/dash.h", "include/new.h"]
	and .patches[0].added == 7 and .patches[0].removed == 1
	and .patches[1].added == 1 and .patches[1].removed == 1
	and .files == ["fs/exec.c", "include/dash.h", "include/new.h"]
	and .size == {patches: 2, files: 3, added: 8, removed: 2, lines: 10}
	and .full_size == {patches: 3, files: 4, added: 9, removed: 2, lines: 11}' "$krec" >/dev/null; then
	t_ok "sizes: per patch and per pick, files each once, header-like lines counted as lines"
else t_fail "sizes: per patch and per pick, files each once, header-like lines counted as lines" "rc=$r" "$o" "$(jq -c '.size, .full_size, [.patches[] | {letter, files, added, removed}]' "$krec" 2>&1)"; fi

# make mutants' results, in the same output root, become each patch's "measured"
mkdir -p "$tmp/kout/fake"
printf '{"schema": 2, "mutants": {"D": {"verdict": "REGRESSED", "failed_tests": ["regress: x"], "caught_by": "failing tests: regress: x", "measured_at": "2026-01-01T00:00:00Z", "kit_commit": "k"}}}\n' >"$tmp/kout/fake/result.json"
kit_env ARCHES=x86_32 sh "$kit/scripts/pick.sh" fake >/dev/null 2>&1
t_check "a mutant measured in the output root is the patch's 'measured'; none is null" jq -e '
	.patches[1].measured.verdict == "REGRESSED" and .patches[1].measured.failed_tests == ["regress: x"]
	and .patches[0].measured == null and (.mutants_from | endswith("/fake/result.json"))' "$krec"
rm -f "$tmp/kout/fake/result.json"

chmod u+w "$fx/changes/D-fix/INFO"
sed -i 's/^Serves: all/Servez: all/' "$fx/changes/D-fix/INFO"
o=$(kit_env sh "$kit/scripts/pick.sh" fake 2>&1); r=$?
[ $r -eq 1 ] && printf '%s' "$o" | grep -q "d.patch is change D, which has no pick rule" &&
	t_ok "a patch of a change with no pick rule (no Serves:, no Arches:) stops it (never silently in or out)" ||
	t_fail "a patch of a change with no pick rule (no Serves:, no Arches:) stops it (never silently in or out)" "rc=$r" "$o"
sed -i 's/^Servez: all/Serves: all/' "$fx/changes/D-fix/INFO"
# a change with no Serves: but an Arches: line: in or out by it
chmod u+w "$fx/changes/B-sparc/INFO"
sed -i 's/^Letter: B/Letter: Y\nArches: sparc64 s390/; /^Serves: /d' "$fx/changes/B-sparc/INFO"
o=$(kit_env ARCHES=x86_32 sh "$kit/scripts/pick.sh" fake 2>&1); r=$?
[ $r -eq 0 ] && jq -e '(.patches | map(.letter)) == ["A", "D"] and .left_out == [.left_out[0]]
	and .left_out[0].letter == "Y" and .left_out[0].why_not == "serves sparc64, which ARCHES does not name"' "$krec" >/dev/null &&
	t_ok "a change with no Serves: but an INFO Arches: line is left out when ARCHES names none of them" ||
	t_fail "a change with no Serves: but an INFO Arches: line is left out when ARCHES names none of them" "rc=$r" "$o"
o=$(kit_env ARCHES=sparc64 sh "$kit/scripts/pick.sh" fake 2>&1); r=$?
[ $r -eq 0 ] && jq -e '(.patches | map(.letter)) == ["A", "Y", "D"] and .patches[1].serves == ["sparc64"]' \
	"$tmp/kout/fake/picks/sparc64.json" >/dev/null &&
	t_ok "... and in, serving the ones ARCHES names, when it names one" ||
	t_fail "... and in, serving the ones ARCHES names, when it names one" "rc=$r" "$o"
sed -i 's/^Arches: .*/Serves: sparc64/; s/^Letter: Y/Letter: B/' "$fx/changes/B-sparc/INFO"

o=$(kit_env ARCHES=x86_32 sh "$kit/scripts/cross.sh" fake 2>"$tmp/err"); r=$?
ptop=$tmp/kout/fake-pick-x86_32/cross
row() { awk -v c="$1" '$2 == c' "$ptop/table.txt" | cut -c56-; }
if [ $r -eq 0 ] && [ "$(row x86_32)" = ok ] && [ "$(row sparc64)" = "not in this pick (ARCHES=x86_32 has no sparc64)" ] &&
	jq -e '.pick.name == "x86_32" and .cells.sparc64.status == "not-in-pick" and .cells.x86_32.status == "ok"
		and .status == "ok"' "$ptop/cross.json" >/dev/null; then
	t_ok "cross ARCHES=x86_32: its cell ok, the sparc64 cell 'not in this pick' (neither ok nor failed), exit 0"
else t_fail "cross ARCHES=x86_32: its cell ok, the sparc64 cell 'not in this pick'" "rc=$r" "$o" "$(tail -3 "$tmp/err")"; fi
t_check "cross ARCHES=x86_32 pushed the pick (A, D), not the full series (A B D)" \
	[ "$(ls "$ptop/x86_32/steps" | tr '\n' ' ')" = "1-A-split 2-D-fix " ]
t_check "cross ARCHES= writes under <b>-pick-<name>; the branch's own matrix is untouched, nothing built for sparc64" \
	[ ! -e "$tmp/kout/fake/cross" -a ! -e "$ptop/sparc64" -a -r "$tmp/kout/fake-pick-x86_32/result.json" ]
t_done
