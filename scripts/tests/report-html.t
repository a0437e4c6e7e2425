#!/bin/sh
# report-html.sh: make report's HTML page comes from the run's result files
# alone, escapes what it reads, needs nothing but itself, refuses bad input
# without touching the old page, and a browser shows the verdicts it must
# (issue 10 item 4).  Fixtures: scripts/tests/fixtures/report-html/ and the
# real console logs of testvm/fixtures/.  Chromium part: ~5 s; SKIPs
# without chromium (make deps installs it).
# REPORT_HTML_T_KEEP=<dir>: keep the page and its screenshot there.
cd "$(dirname "$0")/../.." || exit 2
. ci/tap.sh
. scripts/tests/chromium.sh
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
F=scripts/tests/fixtures/report-html
L=testvm/fixtures
digest() { (cd "$1" && cat series $(grep -v '^#' series)) | sha256sum | cut -d' ' -f1; }

# A run: v2.6.32 fixed, v2.6.26 REGRESSED, with their console logs where
# verify leaves them (the logs' recorded paths are of another machine: the
# page finds them under this OUT), v2.6.32's mutants in their own root.
o=$t/out
for b in v2.6.32 v2.6.26; do
	mkdir -p "$o/$b/unpatched/verify" "$o/$b/patched/verify"
	jq --arg s "$(digest "backports/$b")" '.provenance.series_sha256 = $s' "$F/$b.result.json" >"$o/$b/result.json"
done
cp "$L/vulnerable-v2.6.32-timer-in-genregs_get.log" "$o/v2.6.32/unpatched/verify/boot-1.log"
cp "$L/survived-debian-6.1.log" "$o/v2.6.32/patched/verify/boot-1.log"
cp "$L/vulnerable-v2.6.26-getreg.log" "$o/v2.6.26/unpatched/verify/boot-1.log"
cp "$L/regressed-v2.6.32-mutant-g-aout-leak.log" "$o/v2.6.26/patched/verify/boot-1.log"
mkdir -p "$t/mut/v2.6.32" "$t/docs"
cp "$F/v2.6.32.mutants.json" "$t/mut/v2.6.32/result.json"
h=$t/docs/results.html
# report: the whole of make report (results.md, the page, then the fix
# records: tens of seconds, so once, and where it refuses early); page:
# the page alone
report() { OUT=$o MUTANTS_OUT=$t/mut REPORT=$t/docs/results.md sh scripts/report.sh 2>&1; }
page() { OUT=$o MUTANTS_OUT=$t/mut REPORT_HTML=$h sh scripts/report-html.sh 2>&1; }

# 1. make report writes the page beside results.md and into OUT
out=$(report); rc=$?
[ $rc -eq 0 ] && [ -s "$h" ] && cmp -s "$h" "$o/report.html" &&
	t_ok "make report writes results.html beside results.md, and the same page to OUT/report.html" ||
	t_fail "report writes the page" "rc=$rc $out"

# 2. escaping: what the files hold is shown as text, never as markup
grep -q '<script' "$h" && t_fail "no <script> element in the page" "$(grep -o '.\{30\}<script.\{30\}' "$h" | head -2)" ||
	t_ok "no <script> element in the page, though a signature holds one"
# (jq's @html writes an apostrophe as &#39; or &apos;, by version)
grep -qE "&lt;script&gt;alert\((&#39;|&apos;)sig(&#39;|&apos;)\)&lt;/script&gt;" "$h" &&
	grep -qF 'a &quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt; name' "$h" &&
	grep -qF 'is killed &amp; leaks &lt;no&gt; memory' "$h" &&
	grep -qF 'RIP: 0010:[&lt;ffffffff81039c50&gt;]' "$h" &&
	t_ok "a signature, a test name, a mutant's finding and the console log are HTML-escaped" ||
	t_fail "escaping" "$(grep -o 'alert.\{20\}\|quoted.\{30\}\|leaks.\{10\}\|RIP: 0010.\{20\}' "$h" | head -4)"
# a count that is not a number (an edited file) is shown as text too
mkdir -p "$t/o2/v2.6.32"
jq '.boots.patched.tests.passed = "<i>42</i>"' "$o/v2.6.32/result.json" >"$t/o2/v2.6.32/result.json"
OUT=$t/o2 REPORT_HTML=$t/o2.html sh scripts/report-html.sh 2>/dev/null && grep -qF 'tests: &lt;i&gt;42&lt;/i&gt; passed' "$t/o2.html" &&
	t_ok "a test count that is not a number is escaped like the rest" || t_fail "count escaped" "$(grep -o 'tests: .\{30\}' "$t/o2.html" | tail -1)"
# 3. self-contained and free of this machine's paths (the page is committed)
if grep -qiE '<link|<img|<iframe|<object|src=|url\(|@import|https?://' "$h"; then
	t_fail "the page refers to nothing outside itself" "$(grep -oiE '.{20}(<link|<img|src=|url\(|@import|https?://).{20}' "$h" | head -3)"
else t_ok "the page refers to nothing outside itself (no link, image, src, url(), @import, http)"; fi
grep -qF -e "$t" -e "$PWD" -e /nonexistent "$h" && t_fail "no path of this machine in the page" "$(grep -oF -e "$t" -e "$PWD" -e /nonexistent "$h" | head -2)" ||
	t_ok "no path of this machine in the page (logs shown as <OUT>/..., the series as backports/...)"

# 4. the patch table: how each file was made, architectures, why, diffstat
row=$(sed -n '/<h3 id="patches-v2.6.32">/,/<\/table>/p' "$h" | tr '\n' ' ' | sed 's#<tr>#\n<tr>#g' | grep 'x86-ia32_aout-do-not-kill-argument-mapping.patch')
printf '%s' "$row" | grep -qF '<code>arch/x86/ia32/ia32_aout.c</code>: Coccinelle rule backports/fixes/CVE-2010-0307/cocci/ia32_aout-keep-arg-mapping.cocci' &&
	printf '%s' "$row" | grep -qF '<td>x86</td>' &&
	printf '%s' "$row" | grep -qF 'without it (mutant G) the patched kernel is <b>REGRESSED</b>' &&
	printf '%s' "$row" | grep -qF '1 files, +' &&
	t_ok "G's row: the rule that made its file, x86, REGRESSED without it (make mutants), its diffstat" ||
	t_fail "G's row" "$row"
# the counts are git's
sa=$(git apply --numstat backports/v2.6.32/split-flush_old_exec-into-two-functions.patch | awk '{ n++; a += $1; d += $2 } END { print n " files, +" a " &minus;" d }')
tr '\n' ' ' <"$h" | sed 's#<tr>#\n<tr>#g' | grep 'split-flush_old_exec-into-two-functions.patch' | grep -q "hand hunk (backports/fixes/CVE-2010-0307/changes/A-split-flush_old_exec/hunks/v2.6.32.diff).*<td>$sa" &&
	t_ok "A's row on v2.6.32: hand hunks named, diffstat $sa as git apply --numstat counts" || t_fail "A's row" "want $sa"
n26=$(sed -n '/<h3 id="patches-v2.6.26">/,/<\/table>/p' "$h" | grep -c 'not measured in this run</span>')
[ "$n26" -eq "$(grep -vc '^#' backports/v2.6.26/series)" ] &&
	t_ok "v2.6.26 has no mutants result: each of its $n26 patches says 'not measured in this run'" || t_fail "v2.6.26 why" "$n26 rows say so"
# 5. oops excerpt, from the first crash line to the end of its trace
sed -n '/<h3 id="oops-v2.6.32">/,/<h2 id="picks">/p' "$h" | sed 's/ *$//' | tr '\n' '~' |
	grep -q '<pre class="oops">BUG: unable to handle kernel NULL pointer dereference at 0000000000000010~.*---\[ end trace fe50d1b32dbc1a7e \]---</pre>' &&
	t_ok "v2.6.32 unpatched: the oops excerpt runs from the BUG line to the end of the trace" || t_fail "oops excerpt"
grep -qF 'No oops in <code>&lt;OUT&gt;/v2.6.32/patched/verify/boot-1.log</code>' "$h" &&
	t_ok "v2.6.32 patched: no oops in its log, said so" || t_fail "no oops said"
# 6. picks: rendered when a record exists, else "not made in this run"
grep -q 'id="picks-none">Picks: not made in this run' "$h" && t_ok "no pick record: 'Picks: not made in this run'" ||
	t_fail "picks absent" "$(grep -A2 'id="picks"' "$h")"
mkdir -p "$o/v2.6.32/picks"; cp "$F/v2.6.32.pick-x86_64.json" "$o/v2.6.32/picks/x86_64.json"
out=$(page); rc=$?
[ $rc -eq 0 ] && grep -q '<td>v2.6.32</td><td>x86_64</td><td>x86_64</td><td>6 patches, 15 files, +55 &minus;78</td>' "$h" &&
	! grep -q 'picks-none' "$h" && grep -q '<b>H</b> .*(optional)' "$h" &&
	t_ok "a pick record (OUT/<b>/picks/*.json) renders: its size, each patch's reason, H optional" || t_fail "picks rendered" "rc=$rc $out"
# 7. a series changed since the run is said, not passed off as the run's
jq '.provenance.series_sha256 = "0000000000000000000000000000000000000000000000000000000000000000"' "$F/v2.6.26.result.json" >"$t/x" &&
	mv "$t/x" "$o/v2.6.26/result.json"
page >/dev/null; grep -q 'class="warn">This series changed since the run (the run verified sha256 000000000000)' "$h" &&
	t_ok "a series that changed since the run is flagged above its table" || t_fail "changed series flagged"
jq --arg s "$(digest backports/v2.6.26)" '.provenance.series_sha256 = $s' "$F/v2.6.26.result.json" >"$o/v2.6.26/result.json"
page >/dev/null

# 8. bad input: refused, the old page (and results.md) left as they were
cp "$h" "$t/h.good"; cp "$t/docs/results.md" "$t/md.good"
unchanged() { cmp -s "$h" "$t/h.good" && cmp -s "$o/report.html" "$t/h.good" && cmp -s "$t/docs/results.md" "$t/md.good" &&
	[ -z "$(ls "$t/docs" | grep -v '^results\.\(html\|md\)$')" ]; }
head -c 200 "$F/v2.6.26.result.json" >"$o/v2.6.26/result.json"
out=$(report); rc=$?
[ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'v2.6.26/result.json is not a readable result file' && unchanged &&
	t_ok "a truncated result.json: exit 1, named, page and results.md unchanged, no temp file" || t_fail "truncated result refused" "rc=$rc $out"
jq --arg s "$(digest backports/v2.6.26)" '.provenance.series_sha256 = $s' "$F/v2.6.26.result.json" >"$o/v2.6.26/result.json"
printf '{"branch": "v2.6.32", "patches": [' >"$o/v2.6.32/picks/x86_64.json"
out=$(report); rc=$?
[ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'picks/x86_64.json is not a readable result file' && unchanged &&
	t_ok "a truncated pick record: exit 1, named, page unchanged" || t_fail "bad pick refused" "rc=$rc $out"
out=$(OUT=$t/empty REPORT_HTML=$h sh scripts/report-html.sh 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q 'nothing to report' && unchanged &&
	t_ok "an empty output root (report-html.sh alone): exit 2, page unchanged" || t_fail "empty OUT" "rc=$rc $out"
rm -r "$o/v2.6.32/picks"
out=$(page); rc=$?
[ $rc -eq 0 ] && ! cmp -s "$h" "$t/h.good" && t_ok "good files again: rendered anew" || t_fail "good again" "rc=$rc $out"

# 9. in a browser: the rendered DOM shows each verdict where it must be
if ! chromium_find; then
	t_skip "Chromium renders the verdict matrix" "chromium is not installed (make deps installs it)"
	t_done; exit
fi
chromium_run --dump-dom "file://$h" >"$t/dom.html"; rc=$?
if [ $rc -ne 0 ] || ! grep -q 'id="verdicts"' "$t/dom.html"; then
	t_fail "Chromium renders the page" "exit $rc: $CHROMIUM_ERR"
	t_done; exit
fi
bad=
for want in "verdict-v2.6.32-unpatched VULNERABLE" "verdict-v2.6.32-patched SURVIVED" \
	"verdict-v2.6.26-unpatched VULNERABLE" "verdict-v2.6.26-patched REGRESSED" "gate-v2.6.32 pass" "gate-v2.6.26 fail"; do
	c=$(cell "$t/dom.html" "${want% *}")
	case $c in "${want#* }"*) ;; *) bad="$bad; ${want% *}: '$c'" ;; esac
done
[ -z "$bad" ] && t_ok "the rendered matrix: v2.6.32 VULNERABLE/SURVIVED, gate pass; v2.6.26 VULNERABLE/REGRESSED, gate fail" ||
	t_fail "rendered verdict cells" "${bad#; }"
c=$(cell "$t/dom.html" verdict-v2.6.26-patched)
case $c in *"tests: 40 passed, 1 failed, 1 skipped"*"5.25 s to verdict"*"failing tests: regress: ia32 a.out whose text cannot be mapped (RLIMIT_AS) is killed and leaks no memory (318f6b228ba8)"*)
	t_ok "the REGRESSED cell shows its tests (40/1/1), seconds and the failing test" ;;
*) t_fail "the REGRESSED cell" "$c" ;; esac
c=$(cell "$t/dom.html" verdict-v2.6.32-unpatched)
case $c in *'cve-state: a "quoted" & <b>bold</b> name'*) t_ok "in the browser, a test name holding markup reads as the text it is" ;;
*) t_fail "markup in a test name shown as text" "$c" ;; esac
grep -q '<script\|<b>bold' "$t/dom.html" && t_fail "no element made from the files' text in the DOM" ||
	t_ok "no element made from the files' text in the DOM (no script, no bold)"
png=${h%.html}.png
chromium_run --hide-scrollbars --window-size=1400,1000 --screenshot="$png" "file://$h" >/dev/null; rc=$?
[ $rc -eq 0 ] && [ "$(head -c 8 "$png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
	[ "$(wc -c <"$png")" -gt 20000 ] &&
	t_ok "a screenshot next to the page: ${png##*/}, $(wc -c <"$png") bytes of PNG" || t_fail "screenshot" "exit $rc: $CHROMIUM_ERR"
[ -z "${REPORT_HTML_T_KEEP:-}" ] || cp "$h" "$png" "$REPORT_HTML_T_KEEP/"
t_done
