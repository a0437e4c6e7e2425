#!/bin/sh
# ship.sh [--html]: the two sections a release manager reads after the
# summary (scripts/summary.sh), from the run's files and the kit's own
# change folders, nothing typed: make report puts them under the summary
# of docs/results.md (Markdown) and of the HTML page (--html).
#
# "What to ship", per branch with a gate record (<OUT>/<b>/gate.json):
# the mails (<OUT>/<b>/mbox/series.mbox, make mbox), the pick per set of
# architectures (<OUT>/<b>/picks/*.json, make pick) and the digest of the
# series the run verified (result.json .provenance.series_sha256).  A
# branch whose gate did not pass ships nothing, and says so; so does one
# whose every fix is already fixed or not affected (nothing was applied).
#
# "Open items", what the run does not prove:
#   - a change whose patch in backports/<b>/ touches no x86 and no generic
#     file (only arch/<a>/ or include/asm-<a>/): the x86_64 guest never
#     runs it; with the cross cells (CROSS_OUT, default OUT) that
#     compiled it and objdiffed a function it changed, if any;
#   - a change whose Mainline: tag no git source's tags confirm
#     (scripts/mainline-tags.sh): its tag and INFO's one-line
#     Mainline-checked:, or why it is wrong;
#   - a branch whose gate did not pass, or that has no gate record.
# "none" when there is nothing.
#
# Exit 0 written; 1 a file cannot be read, or is a result file or gate
# record the kit did not write (scripts/result-check.sh), named.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/result-check.sh"
. "$(dirname "$0")/report-lib.sh"
# every folder of backports/fixes/ is a fix with its FIX, or nothing runs
kit_fixes >/dev/null
need_cmd jq git awk sed
fmt=md
case ${1:-} in --html) fmt=html ;; '') ;; *) die 2 "usage: ship.sh [--html]" ;; esac
croot=${CROSS_OUT:-$OUT}
# every result file and gate record read below, checked before a line is
# printed (scripts/result-check.sh)
records_refuse "" "$OUT" "$croot"

# clean: what a file says, on one line, with no mark-up of ours in it
# (tabs and control characters out, a backquote made a quote).
clean() { LC_ALL=C tr -d '\000-\010\013-\037\177' | tr '\t\n`' "  '" | sed 's/ *$//'; }

# The sections as lines "<kind>\t<text>": H heading (id first, then the
# title), P paragraph, 1 item, 2 item under the last 1.  In <text>,
# `...` is code and **...** bold; everything else is text, escaped when
# rendered as HTML.
ship() {
	printf 'H\tship What to ship\n'
	printf 'P\tPer branch whose gate passed: the mails (`make mbox`), the pick per set of architectures (`make pick`) and the sha256 of the series the run verified; from `<OUT>/<branch>/gate.json`, `mbox/`, `picks/*.json` and `result.json`.\n'
	_n=0
	for _b in $(list_branches); do
		_g=$OUT/$_b/gate.json
		[ -r "$_g" ] || continue
		readable "$_g" "rerun 'make verify BRANCH=$_b'"
		_n=$((_n + 1))
		_st=$(jq -r '.status // "not recorded"' "$_g" | clean)
		if [ "$_st" != pass ]; then
			printf '1\t**%s**: nothing to ship: gate %s\n' "$_b" "$_st"
			continue
		fi
		# a tree that carries every fix already (or is not affected):
		# the kit applied nothing, so nothing goes out
		if jq -e '(.fixes // {}) | length > 0 and all(.status == "already fixed" or .status == "not affected")' "$_g" >/dev/null; then
			printf '1\t**%s**: gate pass; nothing to ship: %s\n' "$_b" \
				"$(jq -r '[.fixes | to_entries[] | "\(.key) \(.value.status)"] | join(", ")' "$_g" | clean)"
			continue
		fi
		printf '1\t**%s**: gate pass\n' "$_b"
		_m=$OUT/$_b/mbox/series.mbox
		if [ -r "$_m" ]; then
			_tot=$(sed -n 's/^total: //p' "$OUT/$_b/mbox/checkpatch.txt" 2>/dev/null | tail -1 | clean)
			printf '2\tmbox: `%s`%s\n' "$(shown "$_m" | clean)" "${_tot:+ (checkpatch.txt: $_tot)}"
		else
			printf '2\tmbox: not made in this run: `make mbox BRANCH=%s`%s\n' "$_b" \
				"$([ ! -d "$OUT/$_b/mbox.rejected" ] || echo "; its last mails were refused (checkpatch errors): \`$(shown "$OUT/$_b/mbox.rejected" | clean)/checkpatch.txt\`")"
		fi
		_np=0
		for _p in "$OUT/$_b"/picks/*.json; do
			[ -r "$_p" ] || continue
			readable "$_p" "rerun 'make pick BRANCH=$_b'"
			_np=$((_np + 1))
			_sd=$(jq -r '.series_dir // ""' "$_p")
			jq -r --arg dir "$([ -z "$_sd" ] || shown "$_sd")" '
			  def c: tostring | gsub("[\u0000-\u001f`]"; " ");
			  "2\tpick for \((.arches // []) | join(", ") | c): "
			  + (if $dir != "" then "`\($dir | c)`, " else "" end)
			  + "\((.patches // []) | length) patches (\([(.patches // [])[] | .letter // "?" | c] | join(" ")))"
			  + (if .series_sha256 then ", sha256 `\(.series_sha256 | c | .[0:12])`" else "" end)
			  + "; proven: " + (if .verify then "gate \(.verify.status // "?" | c)" else "not verified in this run (`make verify BRANCH=\(.branch // "?" | c) ARCHES=...`)" end)' "$_p" ||
				die 1 "$_p: jq failed"
		done
		[ "$_np" -gt 0 ] || printf '2\tpicks: none made in this run (`make pick BRANCH=%s ARCHES=...`)\n' "$_b"
		_r=$OUT/$_b/result.json
		if [ -r "$_r" ]; then
			readable "$_r" "rerun 'make verify BRANCH=$_b'"
			jq -r 'def c: tostring | gsub("[\u0000-\u001f`]"; " ");
			  .provenance.series_sha256 as $s | .provenance.series_dir as $d
			  | if $s == null then "2\tseries sha256: not recorded in result.json"
			    elif $s == "-" then "2\tseries sha256: none (this run pushed no series)"
			    else "2\tseries sha256 (verified): `\($s | c)`" end' "$_r" || die 1 "$_r: jq failed"
		else
			printf '2\tseries sha256: no `%s`\n' "$(shown "$_r" | clean)"
		fi
	done
	[ "$_n" -gt 0 ] || printf '1\tnothing: no branch of this run has a gate record (`make verify` writes it)\n'
}

# change_map: "<upstream id>\t<letter>\t<change>" for every change.
change_map() {
	for _c in $(kit_changes); do
		_d=$(change_dir "$_c") || exit $?
		printf '%s\t%s\t%s\n' "$(header_field "$_d/INFO" Upstream | head -1)" "$(header_field "$_d/INFO" Letter | head -1)" "$_c"
	done
}

# never_booted: "<letter>\t<change>\t<branch>\t<arches>" per patch of a
# reported branch's series that touches only other architectures' files.
never_booted() {
	_map=$(change_map) || exit 1
	for _b in $(list_branches); do
		[ -r "$OUT/$_b/result.json" ] && [ -r "$KIT_ROOT/backports/$_b/series" ] || continue
		for _p in $(grep -v '^#' "$KIT_ROOT/backports/$_b/series"); do
			_f=$KIT_ROOT/backports/$_b/$_p
			[ -r "$_f" ] || die 1 "backports/$_b/series names $_p, which does not exist; run 'make series BRANCH=$_b'"
			_id=$(sed -n 's/^Git-commit: *//p' "$_f" | head -1)
			_ns=$(git apply --numstat "$_f") || die 1 "backports/$_b/$_p is not a patch git apply can read"
			printf '%s\n' "$_ns" | awk -F'\t' -v id="$_id" -v b="$_b" -v p="$_p" -v map="$_map" '
			BEGIN { n = split(map, m, "\n"); for (i = 1; i <= n; i++) { split(m[i], x, "\t"); L[x[1]] = x[2]; C[x[1]] = x[3] } }
			NF == 3 { a = ""
			          if ($3 ~ /^arch\//) { a = substr($3, 6); sub(/\/.*/, "", a) }
			          else if ($3 ~ /^include\/asm-/ && $3 !~ /^include\/asm-generic\//) { a = substr($3, 13); sub(/\/.*/, "", a) }
			          if (a == "sparc64") a = "sparc"
			          if (a == "" || a == "x86" || a == "x86_64" || a == "i386") booted = 1
			          else if (!(a in seen)) { seen[a] = 1; arches = arches (arches == "" ? "" : " ") a } }
			END { if (!booted && arches != "")
			        print (id in L ? L[id] : "?") "\t" (id in C ? C[id] : p) "\t" b "\t" arches }'
		done
	done
}

# cross_cells <change> <branch>: "<branch> <cell> (<status>)" for each cross
# cell of that branch that objdiffed a function the change changed.
cross_cells() {
	_r=$croot/$2/result.json
	[ -r "$_r" ] || return 0
	readable "$_r" "rerun 'make cross BRANCH=$2'"
	jq -r --arg c "$1" --arg b "$2" '(.cross.cells // {}) | to_entries[]
	  | select(any(.value.changed_functions[]?; .change == $c))
	  | "\($b) \(.key) (\(.value.status // "?"))" | gsub("[\u0000-\u001f`,]"; " ")' "$_r" || die 1 "$_r: jq failed"
}

open_items() {
	printf 'H\topen Open items\n'
	printf 'P\tWhat this run does not prove, derived from its files and the change folders (`backports/fixes/*/changes/*/INFO`, `backports/<branch>/`).\n'
	_any=0
	_nb=$(never_booted) || exit 1
	if [ -n "$_nb" ]; then
		_any=1
		printf '1\tcompiled at most, never booted: each patch touches no x86 and no generic file, so the x86_64 guest cannot run it\n'
		for _c in $(printf '%s\n' "$_nb" | cut -f2 | LC_ALL=C sort -u); do
			_l=$(printf '%s\n' "$_nb" | awk -F'\t' -v c="$_c" '$2 == c { print $1; exit }')
			_a=$(printf '%s\n' "$_nb" | awk -F'\t' -v c="$_c" '$2 == c { n = split($4, x, " "); for (i = 1; i <= n; i++) if (!(x[i] in s)) { s[x[i]] = 1; o = o (o == "" ? "" : ", ") x[i] } } END { print o }')
			_bs=$(printf '%s\n' "$_nb" | awk -F'\t' -v c="$_c" '$2 == c { print $3 }')
			_cells=$(for _b in $_bs; do cross_cells "$_c" "$_b"; done | paste -sd, - | sed 's/,/, /g')
			_nocross=$(for _b in $_bs; do [ -r "$croot/$_b/result.json" ] && [ "$(jq '(.cross.cells // {}) | length' "$croot/$_b/result.json")" -gt 0 ] || printf '%s ' "$_b"; done)
			if [ -n "$_cells" ]; then _what="compiled in the cross cells $_cells"
			elif [ -n "$_nocross" ]; then _what="not in a cross run of this output root (\`make cross BRANCH=$(echo $_nocross | cut -d' ' -f1)\`)"
			else _what="no cross cell of this run shows a function it changed"; fi
			printf '2\t%s (%s): %s; never booted (%s)\n' "$_l" "$_a" "$_what" "$(echo $_bs | sed 's/ /, /g')"
		done
	fi
	# each change's tag as the git sources bear it out (mainline-tags.sh:
	# confirmed by a source's tags, else INFO's one "unconfirmed" line, or
	# wrong); anything but confirmed is open
	_mtf=$(mktemp) || die 1 "cannot make a temp file"
	_mrc=0; sh "$KIT_ROOT/scripts/mainline-tags.sh" >"$_mtf" || _mrc=$?
	# 1: a tag found wrong, in the lines; anything else: it did not finish
	[ "$_mrc" -le 1 ] || { rm -f "$_mtf"; die 1 "scripts/mainline-tags.sh failed (exit $_mrc); see its message above"; }
	_mt=$(awk -F'\t' 'NF == 4 && $3 != "confirmed" { printf "2\t%s (%s): %s%s\n", $1, $2, ($3 == "wrong" ? "wrong: " : ""), $4 }' "$_mtf")
	rm -f "$_mtf"
	if [ -n "$_mt" ]; then
		_any=1
		printf '1\tmainline tag not confirmed by a git source'"'"'s tags (make mainline-tags; INFO `Mainline:` and its `Mainline-checked:` line)\n'
		printf '%s\n' "$_mt"
	fi
	_gt=$(for _b in $(list_branches); do
		_g=$OUT/$_b/gate.json
		if [ -r "$_g" ]; then
			readable "$_g" "rerun 'make verify BRANCH=$_b'"
			jq -r --arg b "$_b" 'def c: tostring | gsub("[\u0000-\u001f`]"; " ");
			  select(.status != "pass") | "2\t\($b): gate \(.status // "not recorded" | c)"
			  + (if ((.reasons // []) | length) > 0 then ": " + (.reasons | map(c) | join("; ")) else "" end)' "$_g" ||
				die 1 "$_g: jq failed"
		elif [ -r "$OUT/$_b/result.json" ]; then
			printf '2\t%s: no gate record (`make verify BRANCH=%s`)\n' "$_b" "$_b"
		fi
	done) || exit 1
	if [ -n "$_gt" ]; then
		_any=1
		printf '1\tgate not passed\n'
		printf '%s\n' "$_gt"
	fi
	[ "$_any" = 1 ] || printf '1\tnone\n'
}

# render: the lines as Markdown or HTML (one awk, every text escaped in it
# before our `code` and **bold** marks become tags).
render() {
	LC_ALL=C awk -F'\t' -v fmt="$fmt" '
	function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s)
	                  gsub(/"/, "\\&quot;", s); gsub(/\047/, "\\&#39;", s); return s }
	function marks(s, op, cl, tag,   o, i) {
		o = ""
		while ((i = index(s, op)) > 0) {
			o = o substr(s, 1, i - 1); s = substr(s, i + length(op))
			if ((i = index(s, cl)) == 0) { o = o op; break }
			o = o "<" tag ">" substr(s, 1, i - 1) "</" tag ">"; s = substr(s, i + length(cl))
		}
		return o s
	}
	function html(s) { return marks(marks(esc(s), "`", "`", "code"), "**", "**", "b") }
	# depth: 0 no list open, 1 an item of the list open, 2 an item under it
	function close_to(l) { while (depth > l) { print "</li></ul>"; depth-- } }
	fmt == "md" {
		if ($1 == "H") { if (NR > 1) print ""; t = $2; sub(/^[^ ]* /, "", t); print "## " t; print "" }
		else if ($1 == "P") { print $2; print "" }
		else if ($1 == "1") print "- " $2
		else if ($1 == "2") print "  - " $2
		next
	}
	$1 == "H" || $1 == "P" { close_to(0) }
	$1 == "H" { id = $2; sub(/ .*/, "", id); t = $2; sub(/^[^ ]* /, "", t); print "<h2 id=\"" id "\">" esc(t) "</h2>"; next }
	$1 == "P" { print "<p>" html($2) "</p>"; next }
	$1 == "1" { if (depth == 0) { print "<ul class=\"ship\">"; depth = 1 } else { close_to(1); print "</li>" }
	            printf "<li>%s", html($2); next }
	$1 == "2" { if (depth == 1) { print "<ul>"; depth = 2 } else print "</li>"
	            printf "<li>%s", html($2); next }
	END { if (fmt == "html") close_to(0) }'
}

tmp=$(mktemp "${TMPDIR:-/tmp}/ship.XXXXXX")
trap 'rm -f "$tmp"' EXIT
{ ship; open_items; } >"$tmp"
render <"$tmp"
