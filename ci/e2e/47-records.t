#!/bin/sh
# after: 20-verify
# make records on the output root the verification (20-verify.t) wrote:
# for each fix of the series (backports/fixes/) the OSV record
# validates against the OSV schema, the YAML parses and names every branch
# verified, and each branch whose gate passed with that fix VULNERABLE
# unpatched and SURVIVED patched is claimed fixed with the upstream ids and
# git patch-ids of the patches of its committed series whose change says
# References: <that CVE> (the mails' ids when make mbox left them in OUT).
# Reads only: a few seconds.
. ci/e2e/lib.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/e2e-records.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
names=
for b in $(e2e_branches); do
	need_source "$b" "$b has a verified result to record" || continue
	if jq -e '.gate.status' "$OUT/$b/result.json" >/dev/null 2>&1; then names="$names $b"
	else t_fail "$b has a verified result to record" "no gate in $OUT/$b/result.json: did 20-verify.t run?"; fi
done
if [ -z "$names" ]; then t_done; exit $?; fi

out=$(sh scripts/records.sh 2>&1); rc=$?
[ $rc -eq 0 ] && t_ok "make records on this run's results (exit 0)" || t_fail "make records" "exit $rc" "$out"
# each fix of the series: every References: value of its changes
cves=$(for i in backports/fixes/*/changes/*/INFO; do sed -n '/^$/q; s/^References: //p' "$i"; done |
	tr ' ' '\n' | sed '/^$/d' | sort -u)
for cve in $cves; do
osv=$OUT/records/$cve.osv.json yml=$OUT/records/$cve.yml
# shellcheck disable=SC2086
c=$(sh scripts/records.sh --check "$osv" "$yml" $names 2>&1) &&
	t_ok "$cve: the OSV record validates against the OSV schema; the YAML parses and names$names" ||
	t_fail "$cve records valid and naming every branch" "$c"
/usr/bin/python3 -c 'import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)' "$yml" >"$tmp/y.json" ||
	t_fail "the $cve YAML parses"
ids=$(grep -l "^References: $cve\$" backports/fixes/*/changes/*/INFO | xargs sed -n 's/^Upstream: //p')
for b in $names; do
	r=$OUT/$b/result.json
	# this fix's verdicts (none in a result from before per-fix verdicts:
	# records.sh reads the gate's record, scripts/gate.sh)
	g=$(jq -r --arg c "$cve" '[.gate.status] + ([.gate.kernels.unpatched, .gate.kernels.patched]
	  | map(if . == null then "none" elif .fixes then (.fixes[$c].verdict // "none")
	        else "none" end)) | join(" ")' "$r")
	st=$(jq -r --arg b "$b" '.affected[0].database_specific.kit_branches[$b].status' "$osv")
	if [ "$g" != "pass VULNERABLE SURVIVED" ]; then
		[ "$st" != fixed ] && ! jq -e --arg k "kit/$b" '."fixed-by" | has($k)' "$tmp/y.json" >/dev/null &&
			t_ok "$cve: $b (gate: $g) is not claimed fixed ($st)" || t_fail "$cve: $b (gate: $g) is not claimed fixed" "status $st"
		continue
	fi
	# the series' patches of this record's fix: changes with References: $cve
	mine=$(for p in $(grep -v '^#' "backports/$b/series"); do
		u=$(sed -n 's/^Git-commit: //p' "backports/$b/$p")
		printf '%s\n' "$ids" | grep -qx "$u" && echo "$p"
	done)
	ups=$(for p in $mine; do sed -n 's/^Git-commit: //p' "backports/$b/$p"; done)
	pids=$(for p in $mine; do git patch-id --stable <"backports/$b/$p" | cut -d' ' -f1; done)
	got_u=$(jq -r --arg k "kit/$b" '."fixed-by"[$k][]?' "$tmp/y.json")
	got_p=$(jq -r --arg b "$b" '.affected[0].database_specific.kit_branches[$b].series.patches[]?.patch_id' "$osv")
	[ "$st" = fixed ] && [ -n "$ups" ] && [ "$got_u" = "$ups" ] && [ "$got_p" = "$pids" ] &&
		t_ok "$cve: $b is claimed fixed with its series' $(echo $ups | wc -w) upstream ids and patch ids ($(jq -r --arg b "$b" '.affected[0].database_specific.kit_branches[$b].series.patch_ids_from' "$osv"))" ||
		t_fail "$cve: $b claimed fixed with its series" "status $st" "upstream: $got_u" "patch ids: $got_p"
done
done
t_done
