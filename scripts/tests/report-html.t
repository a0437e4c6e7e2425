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
	cp "$F/$b.gate.json" "$o/$b/gate.json"
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

# 1b. under the summary: what to ship and what is open, in both outputs,
# from the run's files (gate, mbox, picks, provenance) and the change folders
md=$t/docs/results.md
flat() { tr '\n' ' ' <"$1"; }
[ "$(awk '/^\| v2.6.32 \| pass \|/ { getline; getline; print; exit }' "$md")" = '## What to ship' ] &&
	[ "$(grep -n '^## Open items$' "$md" | cut -d: -f1)" -gt "$(grep -n '^## What to ship$' "$md" | cut -d: -f1)" ] &&
	flat "$h" | grep -q '</table> *<h2 id="ship">What to ship</h2>.*<h2 id="open">Open items</h2>.*<h2 id="source">' &&
	t_ok "results.md and the page: 'What to ship' right under the summary matrix, then 'Open items'" ||
	t_fail "the two sections under the summary" "$(grep -n '^## ' "$md" | head -4)"
d32=$(digest backports/v2.6.32)
grep -qF -- '- **v2.6.26**: nothing to ship: gate fail' "$md" &&
	grep -qF -- '  - mbox: not made in this run: `make mbox BRANCH=v2.6.32`' "$md" &&
	grep -qF -- '  - picks: none made in this run (`make pick BRANCH=v2.6.32 ARCHES=...`)' "$md" &&
	grep -qF -- "  - series sha256 (verified): \`$d32\`" "$md" &&
	flat "$h" | grep -qF "<li><b>v2.6.26</b>: nothing to ship: gate fail</li>" &&
	t_ok "what to ship: v2.6.26 nothing (gate fail); v2.6.32 no mbox, no pick (the commands that make them), the verified series' sha256" ||
	t_fail "what to ship, nothing made" "$(sed -n '/^## What to ship/,/^## Open/p' "$md")"
# open items: the patches that touch only another architecture's files,
# each change's Mainline-checked: line, the failed gate
only=$(for b in v2.6.26 v2.6.32; do for p in $(grep -v '^#' backports/$b/series); do
	git apply --numstat "backports/$b/$p" | awk -F'\t' '$3 !~ /^(arch\/|include\/asm-)/ || $3 ~ /^(arch\/x86|include\/asm-(x86|generic))/ { x = 1 } END { exit x }' &&
		sed -n 's/^Subject: //p' "backports/$b/$p" | head -1
done; done | sort -u | paste -sd'|' -)
mj=$(sed -n 's/^Mainline: //p' backports/fixes/*/changes/J-*/INFO)
grep -q '^  - B (sparc): not in a cross run of this output root (`make cross BRANCH=v2.6.26`); never booted (v2.6.26, v2.6.32)$' "$md" &&
	grep -q '^  - E (powerpc): ' "$md" && [ "$(sed -n '/^- compiled at most, never booted/,/^- [^ ]/p' "$md" | grep -c '^  - ')" -eq 2 ] &&
	[ "$only" = "powerpc: TIF_ABI_PENDING bit removal|sparc: TIF_ABI_PENDING bit removal" ] &&
	grep -qF -- "  - J ($mj): unconfirmed (from dates, no tag read): written 2010-09-14" "$md" &&
	grep -qF -- '  - v2.6.26: gate fail: patched: verdict REGRESSED, must be SURVIVED' "$md" &&
	flat "$h" | grep -qF '<li>B (sparc): not in a cross run of this output root (<code>make cross BRANCH=v2.6.26</code>); never booted (v2.6.26, v2.6.32)</li>' &&
	t_ok "open items: B (sparc) and E (powerpc) never booted (only their patches touch no x86 or generic file), J's tag unconfirmed, v2.6.26's gate" ||
	t_fail "open items" "only=$only" "$(sed -n '/^## Open items/,/^## Where/p' "$md" | head -8)"

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
# a count that is not a number (an edited file) never reaches the page:
# the file is refused, named with the field (scripts/result-check.sh)
mkdir -p "$t/o2/v2.6.32"
jq '.boots.patched.tests.passed = "<i>42</i>"' "$o/v2.6.32/result.json" >"$t/o2/v2.6.32/result.json"
out=$(OUT=$t/o2 REPORT_HTML=$t/o2.html sh scripts/report-html.sh 2>&1); rc=$?
[ $rc -eq 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
	printf '%s' "$out" | grep -qF "o2/v2.6.32/result.json is not a result record this kit wrote: .boots.patched.tests.passed is \"<i>42</i>\", not a count" &&
	[ ! -e "$t/o2.html" ] &&
	t_ok "a test count that is not a number: refused in one line naming the file and the field, no page written" || t_fail "count refused" "rc=$rc $out"
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
# what to ship names the pick and, once make mbox wrote it, the mbox
mkdir -p "$o/v2.6.32/mbox"; : >"$o/v2.6.32/mbox/series.mbox"
printf 'x.patch: 0 errors\n\ntotal: 11 mails, 0 errors of ours, 0 errors on upstream'"'"'s own lines, 3 warnings\n' >"$o/v2.6.32/mbox/checkpatch.txt"
out=$(page); rc=$?
[ $rc -eq 0 ] && flat "$h" | grep -qF "<li>mbox: <code>&lt;OUT&gt;/v2.6.32/mbox/series.mbox</code> (checkpatch.txt: 11 mails, 0 errors of ours, 0 errors on upstream&#39;s own lines, 3 warnings)</li>" &&
	flat "$h" | grep -qF '<li>pick for x86_64: <code>.../v2.6.32/pick-x86_64</code>, 6 patches (A C D F G H), sha256 <code>2f08b09db41f</code>; proven: not verified in this run' &&
	t_ok "what to ship: the mbox make mbox wrote (its checkpatch total) and the pick for x86_64 (its patches, sha256, not verified)" ||
	t_fail "what to ship, mbox and pick" "rc=$rc $out" "$(sed -n '/id="ship"/,/id="open"/p' "$h")"
# a cross cell that compiled B is said; a gate's words are escaped
mkdir -p "$t/o3/v2.6.32" "$t/o3/v2.6.26"
jq '.cross = {cells: {sparc64: {status: "ok", changed_functions: [{change: "B-sparc-tif_abi_pending", object: "fs/exec.o", kind: "changed", function: "flush_thread"}]}}}' \
	"$o/v2.6.32/result.json" >"$t/o3/v2.6.32/result.json"
cp "$o/v2.6.26/result.json" "$t/o3/v2.6.26/result.json"; cp "$o/v2.6.32/gate.json" "$t/o3/v2.6.32/gate.json"
jq '.reasons = ["<b>bold</b> & more"]' "$o/v2.6.26/gate.json" >"$t/o3/v2.6.26/gate.json"
out=$(OUT=$t/o3 sh scripts/ship.sh --html 2>&1); rc=$?
[ $rc -eq 0 ] && printf '%s' "$out" | grep -qF '<li>B (sparc): compiled in the cross cells v2.6.32 sparc64 (ok); never booted (v2.6.26, v2.6.32)</li>' &&
	printf '%s' "$out" | grep -qF '<li>v2.6.26: gate fail: &lt;b&gt;bold&lt;/b&gt; &amp; more</li>' &&
	t_ok "open items: a cross cell that objdiffed B's function is named; a gate reason holding markup is escaped" ||
	t_fail "cross cell named, reason escaped" "rc=$rc $out"
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
# 10. in a 1366x900 window (a laptop's): the summary sentence is the first
# text under the title, and nothing scrolls sideways.  The page carries no
# script (section 2), so a copy of it gets one that writes what the
# browser measured into the DOM Chromium dumps.
m=$t/measure.html
sed 's#</body>#<script>(function () { var d = document.documentElement, p = document.createElement("pre"), l = document.body.innerText.split("\\n").filter(function (s) { return s.trim() != ""; }); p.id = "kit-measure"; p.textContent = "scroll=" + d.scrollWidth + " client=" + d.clientWidth + "\\nfirst=" + l[0] + "\\nsecond=" + l[1]; document.body.appendChild(p); })();</script></body>#' "$h" >"$m"
chromium_run --window-size=1366,900 --dump-dom "file://$m" >"$t/m.dom"; rc=$?
meas=$(sed -n '/<pre id="kit-measure">/,/<\/pre>/p' "$t/m.dom" | sed 's/.*<pre id="kit-measure">//; s#</pre>.*##; s/&amp;/\&/g')
sw=$(printf '%s\n' "$meas" | sed -n 's/^scroll=\([0-9]*\) client=.*/\1/p')
cw=$(printf '%s\n' "$meas" | sed -n 's/^scroll=[0-9]* client=\([0-9]*\)$/\1/p')
sentence=$(sed -n 's/^\*\*Summary:\*\* //p' "$md")
if [ $rc -ne 0 ] || [ -z "$sw" ] || [ -z "$cw" ]; then
	t_fail "Chromium measures the page at 1366x900" "exit $rc: $CHROMIUM_ERR"
else
	[ "$(printf '%s\n' "$meas" | sed -n 's/^first=//p')" = "Stable-branch backport kit: results" ] &&
		[ "$(printf '%s\n' "$meas" | sed -n 's/^second=//p')" = "Summary: $sentence" ] && [ -n "$sentence" ] &&
		t_ok "at 1366x900 the first text under the title is the summary sentence (results.md's)" ||
		t_fail "the summary first in the browser" "$meas" "want: Summary: $sentence"
	[ "$cw" -gt 1300 ] && [ "$cw" -le 1366 ] && [ "$sw" -le 1366 ] && [ "$sw" -le "$cw" ] &&
		t_ok "at 1366x900 nothing scrolls sideways: scrollWidth $sw <= the window's $cw px" ||
		t_fail "no sideways scrolling at 1366 px" "scrollWidth $sw, clientWidth $cw"
fi
# narrower still (the page before its tables wrapped needed 1209 px, so
# 1366 alone would not catch a table that stopped wrapping)
chromium_run --window-size=1024,768 --dump-dom "file://$m" >"$t/m2.dom"
m2=$(sed -n 's/.*<pre id="kit-measure">scroll=\([0-9]*\) client=\([0-9]*\)$/\1 \2/p' "$t/m2.dom")
[ -n "$m2" ] && [ "${m2% *}" -le "${m2#* }" ] && [ "${m2#* }" -le 1024 ] &&
	t_ok "at 1024x768 too: scrollWidth ${m2% *} <= the window's ${m2#* } px (long paths and tables wrap)" ||
	t_fail "no sideways scrolling at 1024 px" "scrollWidth/clientWidth: '$m2' $CHROMIUM_ERR"
grep -q '<h2 id="ship">What to ship</h2>' "$t/m.dom" && grep -q '<h2 id="open">Open items</h2>' "$t/m.dom" &&
	t_ok "the rendered page has both sections under their headings" || t_fail "sections in the DOM"
[ -z "${REPORT_HTML_T_KEEP:-}" ] || cp "$h" "$png" "$REPORT_HTML_T_KEEP/"
t_done
