#!/bin/sh
# after: 20-verify
# The HTML page of make report (scripts/report-html.sh) on the result files
# the verification (20-verify.t) wrote: headless Chromium renders it and
# every verdict cell says what result.json says (verdict, tests passed/
# failed/skipped, seconds), every gate cell the gate's status.  The page and
# its screenshot stay in OUT (report.html, report.png), not in docs/: the
# checkout is left as it was.  Reads only: a few seconds.
. ci/e2e/lib.sh
. scripts/tests/chromium.sh
names=
for b in $(e2e_branches); do
	need_source "$b" "$b has verdicts to show" || continue
	if jq -e '.boots | length > 0' "$OUT/$b/result.json" >/dev/null 2>&1; then names="$names $b"
	else t_fail "$b has verdicts to show" "no boots in $OUT/$b/result.json: did 20-verify.t run?"; fi
done
if [ -z "$names" ]; then t_done; exit $?; fi

page=$OUT/report.html png=$OUT/report.png
out=$(REPORT_HTML=$page sh scripts/report-html.sh 2>&1); rc=$?
[ $rc -eq 0 ] && [ -s "$page" ] && t_ok "the page of this run's results: <OUT>/report.html" ||
	{ t_fail "report-html.sh on this run's results" "exit $rc: $out"; t_done; exit; }
if ! chromium_find; then
	t_skip "Chromium shows the verdicts result.json holds" "chromium is not installed (make deps installs it)"
	t_done; exit
fi
dom=$(mktemp "${TMPDIR:-/tmp}/e2e-report-dom.XXXXXX")
trap 'rm -f "$dom"' EXIT
chromium_run --dump-dom "file://$page" >"$dom"; rc=$?
[ $rc -eq 0 ] && grep -q 'id="verdicts"' "$dom" ||
	{ t_fail "Chromium renders the page" "exit $rc: $CHROMIUM_ERR"; t_done; exit; }
for b in $names; do
	r=$OUT/$b/result.json
	bad= shown=
	for k in $(jq -r '(.boots // {}) | keys[]' "$r"); do
		v=$(jq -r --arg k "$k" '.boots[$k].verdict' "$r")
		tt=$(jq -r --arg k "$k" '.boots[$k].tests | "tests: \(.passed) passed, \(.failed) failed, \(.skipped) skipped"' "$r")
		s=$(jq -r --arg k "$k" '"\(.boots[$k].seconds) s to verdict"' "$r")
		c=$(cell "$dom" "verdict-$b-$k")
		case $c in
		"$v "*"$tt"*"$s"*) shown="$shown $k $v" ;;
		*) bad="$bad; $k: page '$c', result.json '$v, $tt, $s'" ;;
		esac
	done
	g=$(jq -r '.gate.status // "not run"' "$r")
	[ "$(cell "$dom" "gate-$b")" = "$g" ] || bad="$bad; gate: page '$(cell "$dom" "gate-$b")', result.json '$g'"
	[ -z "$bad" ] && t_ok "$b in the browser: gate $g,$shown, with their tests and seconds as result.json says" ||
		t_fail "$b verdict cells as result.json says" "${bad#; }"
done
chromium_run --hide-scrollbars --window-size=1400,1000 --screenshot="$png" "file://$page" >/dev/null; rc=$?
[ $rc -eq 0 ] && [ "$(head -c 8 "$png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
	t_ok "a screenshot of the verdict matrix: <OUT>/report.png ($(wc -c <"$png") bytes)" ||
	t_fail "screenshot" "exit $rc: $CHROMIUM_ERR"
t_done
