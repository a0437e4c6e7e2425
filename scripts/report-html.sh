#!/bin/sh
# report-html.sh: the results of one run as one self-contained HTML page
# (inline CSS; no script, font, image or other file; nothing from the
# network), for a release manager to open in a browser or hand on.
# `make report` runs it beside docs/results.md; it also runs alone.
#
#   OUT          the output root of the run reported
#   MUTANTS_OUT  where `make mutants` wrote its result files (default OUT)
#   REPORT_HTML  the page to write (default docs/results.html); a copy
#                always goes to $OUT/report.html
#
# Every figure comes from the run's files: <OUT>/<b>/result.json (verdicts,
# tests, seconds, signatures, provenance), the console log each verdict
# names (the oops excerpt), <MUTANTS_OUT>/<b>/result.json .mutants (why a
# patch is needed), <OUT>/<b>/picks/*.json (scripts/pick.sh); the summary,
# "What to ship" and "Open items" come first (scripts/summary.sh and
# scripts/ship.sh: gate records, mbox, picks).  The page fits a 1366 px
# window: cells, lists and code break long words instead of scrolling.  The patch
# table reads the series the run verified (its provenance names it) and
# says so when that series changed since.  Everything read is HTML-escaped.
#
# Exit 0 written; 1 a result file cannot be read, or is not one the kit
# wrote (scripts/result-check.sh; named; the pages are left as they
# were); 2 nothing to report (no result file under OUT).
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/result-check.sh"
. "$(dirname "$0")/report-lib.sh"
need_cmd jq awk sed
dst=${REPORT_HTML:-$KIT_ROOT/docs/results.html}
mroot=${MUTANTS_OUT:-$OUT}

found=0
for b in $(list_branches); do
	for r in "$OUT/$b/result.json" "$mroot/$b/result.json"; do
		[ -e "$r" ] || continue
		readable "$r" "rerun 'make verify BRANCH=$b'" "${dst#"$KIT_ROOT"/} left as it was"
	done
	[ -e "$OUT/$b/result.json" ] && found=$((found + 1))
	for r in "$OUT/$b"/picks/*.json; do
		[ -e "$r" ] || continue
		readable "$r" "rerun 'make pick BRANCH=$b'" "${dst#"$KIT_ROOT"/} left as it was"
	done
done
[ "$found" -gt 0 ] ||
	die 2 "nothing to report: no <branch>/result.json under OUT=$OUT; run 'make verify-all' (or set OUT= to a run's output root); ${dst#"$KIT_ROOT"/} left as it was"
# each one the kit wrote, its gate agreeing with its verdicts (result-check.sh)
records_refuse "${dst#"$KIT_ROOT"/} left as it was" "$OUT" "$mroot"

# esc: stdin HTML-escaped, control characters (but tab and newline) dropped.
esc() {
	LC_ALL=C tr -d '\000-\010\013-\037\177' |
		LC_ALL=C sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g' -e "s/'/\&#39;/g"
}
# J <file> <jq program> [jq args]: the program's raw output, @html applied
# by the program itself wherever it prints what it read.
J() { _f=$1 _p=$2; shift 2; jq -r "$@" "$_p" "$_f"; }
branches() {
	for _b in $(list_branches); do [ -r "$OUT/$_b/result.json" ] && echo "$_b"; done
	return 0
}

style() {
	cat <<'EOF'
<style>
body { font: 14px/1.45 sans-serif; margin: 1.5em auto; max-width: 76em; padding: 0 1em; color: #1b1b1b; }
h1 { font-size: 1.6em; margin-bottom: .2em; } h2 { border-bottom: 2px solid #ccc; margin-top: 1.8em; }
table { border-collapse: collapse; margin: .6em 0; max-width: 100%; } th, td { border: 1px solid #bbb; padding: .3em .5em; vertical-align: top; text-align: left; }
th { background: #eee; } code, pre { font-family: monospace; font-size: .92em; }
th, td, li, p, code { overflow-wrap: anywhere; }
pre { background: #f6f6f6; border: 1px solid #ddd; padding: .5em; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
.verdict { font-weight: bold; font-size: 1.15em; display: block; }
.VULNERABLE { background: #fde2e1; } .SURVIVED { background: #dff3df; } .REGRESSED { background: #fff0c2; } .INCONCLUSIVE { background: #e6e6f5; }
.pass { background: #dff3df; font-weight: bold; } .fail { background: #fde2e1; font-weight: bold; }
.ok { color: #1d6b1d; } .notok { color: #a11; font-weight: bold; } .muted { color: #666; }
td.cell small, table.patches small { display: block; } ul { margin: .2em 0; padding-left: 1.2em; }
.warn { background: #fff0c2; border: 1px solid #e0c060; padding: .4em .6em; }
</style>
EOF
}

# The verdict matrix: one row per branch, one cell per kernel.
matrix() {
	echo '<h2 id="matrix">Verdict matrix</h2>'
	echo '<p>Each kernel booted in QEMU and judged blind (testvm/README.md, "Verdicts"): the unpatched kernel must be VULNERABLE, the patched one SURVIVED; the gate passes when both are what they must be.</p>'
	echo '<table id="verdicts"><tr><th>branch</th><th>gate</th><th>unpatched</th><th>patched</th></tr>'
	for b in $(branches); do
		J "$OUT/$b/result.json" '
		def n(x): x // "?" | tostring | @html;
		def cell($k): .boots[$k] as $x | (.gate.kernels[$k] // {}) as $g
		  | if $x then
		      "<td class=\"cell \($x.verdict | @html)\" id=\"verdict-\(.branch | @html)-\($k)\" data-verdict=\"\($x.verdict | @html)\">"
		      + "<span class=\"verdict\">\($x.verdict | @html)</span>"
		      + "<small>must be \(($x.expected // "?") | @html) "
		      + (if $x.as_expected == true then "<span class=\"ok\">(as it must)</span>"
		         elif $x.as_expected == false then "<span class=\"notok\">(NOT as it must)</span>" else "" end) + "</small>"
		      + "<small class=\"tests\">tests: \(n($x.tests.passed)) passed, \(n($x.tests.failed)) failed, \(n($x.tests.skipped)) skipped</small>"
		      + "<small>\($x.seconds // "?" | tostring | @html) s to verdict</small>"
		      + (($x.fixes // {}) | to_entries | if length > 0 then "<small>per fix:</small><ul class=\"fixes\">"
		         + (map("<li class=\"fix\" data-fix=\"\(.key | @html)\" data-verdict=\"\(.value.verdict | @html)\">\(.key | @html): \(.value.verdict | @html)"
		            + (if .value.verdict == "NOT-TESTED" then " (\(.value.signature // "" | @html))" else "" end) + "</li>") | join(""))
		         + "</ul>" else "" end)
		      + (($x.failed_tests // []) as $f | if ($f | length) > 0
		         then "<small>failing tests:</small><ul class=\"failed\">" + ($f | map("<li>\(@html)</li>") | join("")) + "</ul>" else "" end)
		      + "</td>"
		    elif $g.why then "<td class=\"cell\" id=\"verdict-\(.branch | @html)-\($k)\"><span class=\"verdict\">none</span><small>\($g.why | @html)</small></td>"
		    else "<td class=\"cell muted\" id=\"verdict-\(.branch | @html)-\($k)\">not booted in this run</td>" end;
		"<tr><th>\(.branch | @html)</th><td class=\"\((.gate.status // "") | @html)\" id=\"gate-\(.branch | @html)\">\((.gate.status // "not run") | @html)</td>\(cell("unpatched"))\(cell("patched"))</tr>"'
	done
	echo '</table>'
}

# patch_row <n> <patch> <branch>: the patch's table row but for the "why"
# cell (WHY, from the environment: HTML already).  Read from the header
# `make series` wrote: subject, upstream id, "adapted" notes and the
# "made by the kit" lines (the rule or hand hunk of each file); the
# diffstat from git apply --numstat.  One awk, every value escaped in it.
patch_row() {
	_ns=$(git apply --numstat "$2") ||
		die 1 "$(shown "$2") is not a patch git apply can read; run 'make series BRANCH=$3' (or fix SERIES_DIR); the report is left as it was"
	printf '%s\n' "$_ns" | LC_ALL=C awk -F'\t' -v n="$1" -v b="$3" -v p="${2##*/}" '
	function esc(s) { gsub(/[\001-\010\013-\037\177]/, "", s); gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s)
	                  gsub(/>/, "\\&gt;", s); gsub(/"/, "\\&quot;", s); gsub(/\047/, "\\&#39;", s); return s }
	function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
	# the architecture a file belongs to; "generic" for the rest
	function arch(f, a) { a = "generic"
	                      if (f ~ /^arch\//) { a = substr(f, 6); sub(/\/.*/, "", a) }
	                      else if (f ~ /^include\/asm-/ && f !~ /^include\/asm-generic\//) { a = substr(f, 13); sub(/\/.*/, "", a) }
	                      return a == "sparc64" ? "sparc" : a }
	NR == FNR { if (NF == 3) { nf++; file[nf] = $3; add[nf] = $1; del[nf] = $2 }; next }
	done { next }
	/^---$/ || /^diff / || /^--- / { done = 1; next }
	/^Subject: / && sub_ == "" { sub_ = substr($0, 10) }
	/^Git-commit: / && up == "" { up = trim(substr($0, 13)) }
	/^commit [0-9a-f]+ upstream\.$/ && up == "" { up = $0; sub(/^commit /, "", up); sub(/ .*/, "", up) }
	/^\[ adapted: / { s = substr($0, 12); sub(/ \]$/, "", s); adapted = adapted "<small>adapted: " esc(s) "</small>" }
	index($0, "[ " b ": made by the kit") == 1 { made = 1; next }
	made { s = $0; end = sub(/ \]$/, "", s); s = trim(s); i = index(s, ": ")
	       if (i) how[substr(s, 1, i - 1)] = substr(s, i + 2); if (end) made = 0 }
	END {
		printf "<tr><td>%d</td><td><code>%s</code></td><td>%s<br><small class=\"muted\">%s</small></td><td><ul>", \
			n, esc(substr(up == "" ? "?" : up, 1, 12)), esc(sub_), esc(p)
		for (i = 1; i <= nf; i++) {
			printf "<li><code>%s</code>: %s</li>", esc(file[i]), esc((file[i] in how) ? how[file[i]] : "not recorded in the header")
			a = arch(file[i]); if (!(a in seen)) { seen[a] = 1; arches = arches (arches == "" ? "" : ", ") esc(a) }
			ta += add[i]; td += del[i]
			stat = stat sprintf("<small><code>%s</code> +%s &minus;%s</small>", esc(file[i]), esc(add[i]), esc(del[i]))
		}
		printf "</ul>%s</td><td>%s</td><td>%s</td><td>%d files, +%d &minus;%d%s</td></tr>\n", \
			adapted, arches, ENVIRON["WHY"], nf, ta, td, stat
	}' - "$2"
}

# why_needed <branch> <patch name>: from make mutants' result files.
why_needed() {
	_m=$mroot/$1/result.json
	if [ ! -r "$_m" ] || [ "$(jq '(.mutants // {}) | length' "$_m")" = 0 ]; then
		echo '<span class="muted">not measured in this run</span>'
		return 0
	fi
	jq -r --arg p "$2" '[(.mutants // {}) | to_entries[] | select(.value.dropped == $p)] as $e
	  | if ($e | length) == 0 then "<span class=\"muted\">not measured in this run (make mutants did not take it out)</span>"
	    else $e[0] | "without it (mutant \(.key | @html)) the patched kernel is <b>\(.value.verdict | @html)</b>: \(.value.caught_by | @html) <small class=\"muted\">(measured \((.value.measured_at // "time not recorded") | @html), kit \((.value.kit_commit // "?") | @html))</small>" end' "$_m"
}

# The patches of the series each branch's run verified.
patches() {
	echo '<h2 id="patches">Patches</h2>'
	echo '<p>How each file of each patch was made (a Coccinelle rule or a hand hunk, from the patch header that <code>make series</code> writes), the architectures it touches, why it is needed (from <code>make mutants</code>: the kernel without that one patch), and its diffstat.</p>'
	for b in $(branches); do
		r=$OUT/$b/result.json
		sdir=$(jq -r '.provenance.series_dir // empty' "$r")
		[ -n "$sdir" ] || sdir=$KIT_ROOT/backports/$b
		echo "<h3 id=\"patches-$b\">$b</h3>"
		if [ ! -r "$sdir/series" ]; then
			printf '<p class="warn">The series this run verified (%s) is not here any more: no patch table.</p>\n' "$(shown "$sdir" | esc)"
			continue
		fi
		want=$(jq -r '.provenance.series_sha256 // empty' "$r")
		have=$(series_digest "$sdir")
		printf '<p>Series: <code>%s</code>, sha256 <code>%s</code>.</p>\n' "$(shown "$sdir" | esc)" "$(printf %.12s "$have")"
		if [ -n "$want" ] && [ "$want" != "$have" ]; then
			printf '<p class="warn">This series changed since the run (the run verified sha256 %s): the table shows the series as it is now.</p>\n' "$(printf %.12s "$want" | esc)"
		fi
		echo '<table class="patches"><tr><th>#</th><th>upstream</th><th>subject</th><th>files: how each was made</th><th>architectures</th><th>why it is needed</th><th>diffstat</th></tr>'
		n=0
		for p in $(grep -v '^#' "$sdir/series"); do
			n=$((n + 1))
			WHY=$(why_needed "$b" "$p") patch_row "$n" "$sdir/$p" "$b"
		done
		echo '</table>'
	done
}

# oops_excerpt <log>: from the first crash line (testvm/parse.c is_crash)
# to the end of its trace, at most 80 lines.
oops_excerpt() {
	awk '
	/^(KIT:|#|ok |not ok )/ { if (!on) next }
	!on && /BUG: |kernel BUG at|Oops: |general protection fault|Kernel panic - not syncing|Thread overran stack|stack-protector:|double fault|invalid opcode:|Unable to handle kernel|Kernel stack is corrupted/ { on = 1 }
	on { print; if (++n >= 80 || /---\[ end trace|Kernel panic - not syncing/) exit }' "$1"
}

oopses() {
	echo '<h2 id="oops">Oops excerpts and signatures</h2>'
	echo '<p>The signature is what the verifier read from the console; the excerpt is the first crash in the console log of the boot that decided the verdict.</p>'
	for b in $(branches); do
		r=$OUT/$b/result.json
		echo "<h3 id=\"oops-$b\">$b</h3>"
		kinds=$(jq -r '[(.boots // {}) | keys[]] | sort_by(if . == "unpatched" then 0 elif . == "patched" then 1 else 2 end)[]' "$r")
		[ -n "$kinds" ] || { echo '<p class="muted">No kernel booted in this run.</p>'; continue; }
		for k in $kinds; do
			J "$r" '.boots[$k] | "<h4>\($k): <span class=\"\(.verdict | @html)\">\(.verdict | @html)</span></h4><p>Signature: <code class=\"signature\">\(.signature // "none" | @html)</code></p>"' --arg k "$k"
			# the log the verdict names; or, when OUT was moved, the same file here
			log=$(jq -r --arg k "$k" '.boots[$k].log // empty' "$r")
			[ -z "$log" ] || [ -f "$log" ] || log=$OUT/$b/$k/verify/${log##*/}
			if [ -z "$log" ] || [ ! -f "$log" ] || [ ! -r "$log" ]; then
				echo '<p class="muted">The console log is not kept in this output root.</p>'
				continue
			fi
			ex=$(oops_excerpt "$log")
			if [ -n "$ex" ]; then
				printf '<p>From <code>%s</code>:</p><pre class="oops">%s</pre>\n' "$(shown "$log" | esc)" "$(printf '%s\n' "$ex" | esc)"
			else
				printf '<p>No oops in <code>%s</code>.</p>\n' "$(shown "$log" | esc)"
			fi
		done
	done
}

# The picks (scripts/pick.sh): rendered when their records exist.
picks() {
	echo '<h2 id="picks">Picks</h2>'
	recs=$(for b in $(list_branches); do for f in "$OUT/$b"/picks/*.json; do [ ! -r "$f" ] || echo "$f"; done; done)
	if [ -z "$recs" ]; then
		echo '<p id="picks-none">Picks: not made in this run (<code>make pick BRANCH=&lt;b&gt; ARCHES=...</code> makes one; <code>make verify ARCHES=...</code> proves it).</p>'
		return 0
	fi
	echo '<p>The smallest series per set of architectures (scripts/pick.sh), and its verdicts where <code>make verify ARCHES=</code> proved it.</p>'
	echo '<table id="picks-table"><tr><th>branch</th><th>pick</th><th>architectures</th><th>size</th><th>patches: why each is in</th><th>proven</th></tr>'
	for f in $recs; do
		J "$f" '"<tr><td>\(.branch // "?" | @html)</td><td>\(.name // "?" | @html)</td><td>\((.arches // []) | join(", ") | @html)</td>"
		  + "<td>\((.patches // []) | length) patches, \([(.patches // [])[] | .files[]?] | unique | length) files, +\([(.patches // [])[] | .added // 0] | add // 0 | tostring | @html) &minus;\([(.patches // [])[] | .removed // 0] | add // 0 | tostring | @html)</td><td><ul>"
		  + ([(.patches // [])[] | "<li><b>\(.letter // "?" | @html)</b> <code>\(.upstream // "?" | .[0:12] | @html)</code> \(.subject // "" | @html): \(.why // "" | @html)\(if .optional == true then " <i>(optional)</i>" else "" end)</li>"] | join(""))
		  + "</ul></td><td>\(if .verify then "\(.verify.status // "?" | @html): " + ([(.verify.kernels // {}) | to_entries[] | "\(.key | @html) \(.value.verdict // "?" | @html)"] | join(", ")) else "not verified in this run" end)</td></tr>"'
	done
	echo '</table>'
}

provenance() {
	echo '<h2 id="provenance">Provenance</h2>'
	echo '<p>What made each verdict: the kit commit, the series and host series (sha256), the tree commit and the tools.</p>'
	echo '<table id="provenance-table"><tr><th>branch</th><th>recorded</th><th>kit</th><th>tree commit</th><th>series sha256</th><th>host series sha256</th><th>gcc</th><th>binutils</th><th>spatch</th><th>QEMU</th><th>accel</th></tr>'
	for b in $(branches); do
		J "$OUT/$b/result.json" 'def s: (. // "-") | tostring | .[0:12] | @html;
		  (.provenance // {}) as $p
		  | "<tr><td>\(.branch | @html)</td><td>\($p.recorded_at // "-" | @html)</td><td>\($p.kit_commit // "-" | @html)</td><td><code>\(.base_commit // .source | s)</code></td>"
		  + "<td><code>\($p.series_sha256 | s)</code></td><td><code>\($p.host_series_sha256 | s)</code></td>"
		  + "<td>\($p.gcc // .toolchain.gcc // "-" | @html)</td><td>\($p.binutils // .toolchain.binutils // "-" | @html)</td>"
		  + "<td>\($p.spatch // "-" | @html)</td><td>\($p.qemu // "-" | @html)</td><td>\([(.boots // {})[] | .inputs.accel // empty] | unique | join(", ") | @html)</td></tr>"'
	done
	echo '</table>'
}

render() {
	echo '<!DOCTYPE html>'
	echo '<html lang="en"><head><meta charset="utf-8">'
	echo '<meta name="viewport" content="width=device-width, initial-scale=1">'
	echo '<title>Stable-branch backport kit: results</title>'
	style
	echo '</head><body>'
	echo '<h1>Stable-branch backport kit: results</h1>'
	# the sentence and the branch x fix matrix first (scripts/summary.sh;
	# exit 2: no branch has a gate record)
	_src=0; sh "$KIT_ROOT/scripts/summary.sh" --html 2>/dev/null || _src=$?
	case $_src in
	0) ;;
	2) echo '<p class="summary"><b>Summary:</b> no branch of this run has a gate record (<code>make verify</code> writes it): nothing was judged.</p>' ;;
	*) die 1 "scripts/summary.sh --html failed (exit $_src) on OUT=$OUT; nothing replaced" ;;
	esac
	# what a release manager ships, and what the run does not prove
	sh "$KIT_ROOT/scripts/ship.sh" --html || die 1 "scripts/ship.sh --html failed on OUT=$OUT; nothing replaced"
	echo '<h2 id="source">Where the figures come from</h2>'
	printf '<p>Rendered by <code>make report</code> on %s from the result files of one run (<code>&lt;OUT&gt;/&lt;branch&gt;/result.json</code>); every figure comes from that run, none from an earlier report. Verdicts recorded:</p><ul>\n' "$(date -u +%F)"
	for b in $(branches); do
		J "$OUT/$b/result.json" '"<li>\(.branch | @html): \(.provenance.recorded_at // "time not recorded" | @html), kit \(.provenance.kit_commit // "?" | @html)</li>"'
	done
	echo '</ul>'
	echo '<p><a href="#ship">What to ship</a> &middot; <a href="#open">Open items</a> &middot; <a href="#matrix">Verdict matrix</a> &middot; <a href="#patches">Patches</a> &middot; <a href="#oops">Oops excerpts</a> &middot; <a href="#picks">Picks</a> &middot; <a href="#provenance">Provenance</a></p>'
	matrix
	patches
	oopses
	picks
	provenance
	echo '</body></html>'
}

tmp=$(mktemp "${TMPDIR:-/tmp}/report-html.XXXXXX")
trap 'rm -f "$tmp"' EXIT
render >"$tmp"
# both copies or neither (a read-only OUT must not leave a new page here)
for d in "$dst" "$OUT/report.html"; do
	[ -w "$(dirname "$d")" ] || die 1 "cannot write to $(dirname "$d") (for ${d##*/}); nothing replaced"
done
atomic_install "$tmp" "$dst"
[ "$dst" -ef "$OUT/report.html" ] || atomic_install "$tmp" "$OUT/report.html"
# a page to hand on: readable by all, as a web server or a colleague needs
chmod 644 "$dst" "$OUT/report.html"
echo "report: wrote $(shown "$dst") and <OUT>/report.html" >&2
