#!/bin/sh
# summary.sh [--html]: what a release manager reads first, from the gate
# records of one run (OUT/<branch>/gate.json, scripts/gate.sh) and nothing
# else: one sentence, then a branch x fix matrix.  make report puts it at
# the top of docs/results.md (Markdown) and of the HTML page (--html).
#
# The sentence counts, per fix, the branches by the gate's word for that
# fix (fixed and proven, flaw present but not reachable, not affected,
# already fixed, not fixed, not tested) and says on how many branches the
# gate passed.  A cell of the matrix is the gate's word for that fix on
# that branch; an unpatched kernel that is VULNERABLE where it must be is
# the expected result and is not shown as an alarm: only a failed gate is.
# A branch with no gate record is "not run".
#
# Exit 0 written; 1 a gate record the kit did not write (its status and
# its verdicts disagree, a verdict it does not define: scripts/result-check.sh),
# named, nothing printed; 2 no gate record under OUT.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/result-check.sh"
# every folder of backports/fixes/ is a fix with its FIX, or nothing runs
# (lib.sh kit_fixes: called here, not in $(...), so that its refusal stops us)
kit_fixes >/dev/null
need_cmd jq
fmt=md
case ${1:-} in --html) fmt=html ;; '') ;; *) die 2 "usage: summary.sh [--html]" ;; esac

n=0
for b in $(list_branches); do [ ! -r "$OUT/$b/gate.json" ] || n=$((n + 1)); done
[ "$n" -gt 0 ] || die 2 "nothing to summarise: no <branch>/gate.json under OUT=$OUT; run 'make verify-all'"
# each a gate record whose status agrees with its verdicts
# (scripts/result-check.sh), before the first line is printed
for b in $(list_branches); do
	[ ! -e "$OUT/$b/gate.json" ] || result_refuse "$OUT/$b/gate.json" gate "rerun 'make verify BRANCH=$b'"
done
for b in $(list_branches); do
	g=$OUT/$b/gate.json
	[ -r "$g" ] || continue
	jq -c --arg b "$b" '{branch: $b, status, fixes: (.fixes | map_values({status, summary}))}' "$g" ||
		die 1 "$g is not a gate record; rerun 'make verify BRANCH=$b'"
done | jq -s -r --arg fmt "$fmt" --arg fixes "$(kit_fixes | paste -sd' ' -)" '
  . as $rows
  | ($fixes | split(" ") | map(select(. != ""))) as $fx
  | def word: {"fixed": "fixed and proven", "unreachable": "unreachable",
               "not affected": "not affected", "already fixed": "already fixed",
               "not fixed": "NOT FIXED", "not tested": "NOT TESTED"}[.] // .;
    # a cell: the gate'"'"'s own summary of that fix there, else its status
    def cell($r): . as $f | ($r.fixes[$f] // {status: "not run"}) | .summary // (.status | word);
    def esc: if $fmt == "html" then @html else gsub("\\|"; "/") end;
    ($rows | length) as $n
  | ([$rows[] | select(.status == "pass")] | length) as $pass
  | ([$fx[] as $f
      | ([$rows[] | .fixes[$f].status // "not run"] | group_by(.) | map({w: (.[0] | word), n: length})
         | sort_by(-.n) | map("\(.w) on \(.n)") | join(", ")) as $c
      | "\($f): \($c)"] | join("; ")) as $per
  | "\($per); gate passed on \($pass) of \($n) branches." as $sentence
  | if $fmt == "md" then
      "**Summary:** \($sentence | esc)",
      "",
      "| branch | gate | \($fx | join(" | ")) |",
      "|---|---|\($fx | map("---|") | join(""))",
      ($rows[] | . as $r
       | "| \(.branch) | \(if .status == "pass" then "pass" else "**FAIL**" end) | \([$fx[] | cell($r) | esc] | join(" | ")) |")
    else
      "<p class=\"summary\"><b>Summary:</b> \($sentence | esc)</p>",
      "<table class=\"summary\"><tr><th>branch</th><th>gate</th>\([$fx[] | "<th>\(esc)</th>"] | join(""))</tr>",
      ($rows[] | . as $r
       | "<tr><td>\(.branch | esc)</td><td class=\"\(if .status == "pass" then "ok" else "bad" end)\">\(.status | esc)</td>\([$fx[] | ($r.fixes[.].status // "not run") as $s | "<td class=\"\(if $s == "not fixed" or $s == "not tested" then "notok" else "ok" end)\">\(cell($r) | esc)</td>"] | join(""))</tr>"),
      "</table>"
    end' || die 1 "cannot summarise the gate records under OUT=$OUT (jq failed)"
