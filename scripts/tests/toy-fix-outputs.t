#!/bin/sh
# A fix is one folder, all the way out: a copy of the kit with the toy fix
# folder added (fixtures/toy-fix/CVE-2099-0001: changes Y and Z, their
# hand hunks for v2.6.32, a Guest: line and its program, a record.json)
# and no other file edited takes it up in every output a run makes:
#
#   series  series.sh makes Y's and Z's patches from their hunks, against
#           a tiny tree that lacks them (SERIES_TREE=), and fix-state.sh
#           finds both present once that series is applied.  What is not
#           covered: the kit's own changes need the branch's real export
#           and spatch (cocci rules), so this series.sh run reads the toy
#           folder alone (KIT_FIXES=, lib.sh's switch for tests; a symlink
#           to the copy's folder, not a copy of it).  The whole kit is
#           read by plan-series.sh next: over the same tree it marks Y and
#           Z missing (every change of the kit's own n/a: none of its
#           files is there) and points the plan at that series.
#   parse   testvm/parse.c, built from the copy's fix folders (make -C
#           testvm host FIXES=), judges CVE-2099-0001 from its own
#           "KIT: fix ... plan 3" block of a made-up serial log: SURVIVED,
#           and VULNERABLE with its cve-state check failing.
#   gate    gate.sh manifest from that plan holds CVE-2099-0001 to
#           VULNERABLE unpatched and SURVIVED patched; boot records whose
#           toy entries are the parser's verdicts (every other fix
#           SURVIVED, as the plan wants) pass the gate with the toy
#           "fixed"; a patched boot left VULNERABLE fails it, naming it.
#   JUnit   testvm/junit.sh on those gate records: a testcase for it,
#           failing only in the failed gate.
#   records records.sh writes CVE-2099-0001.osv.json and .yml (it
#           validates both itself) carrying the series' Y and Z patches.
#   report  report.sh names it in the summary sentence at the top
#           (summary.sh) and in the gate table.
#
# Everything a run writes goes under OUT and the series folder, outside
# the copy; `git status` there shows only the new folder.  No kernel, no
# network; spatch only as a tool series.sh asks for (the toy's changes
# name no rule), so without it the series, and the records that need it,
# are skipped.  About 20 s (records.sh and report.sh are most of it).
. ci/tap.sh
for c in git make tar jq patch cc; do
	command -v $c >/dev/null 2>&1 || { t_skip "a toy fix's outputs" "$c is not installed (make deps)"; t_done; exit; }
done
root=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/toy-outputs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
k=$tmp/kit out=$tmp/out b=v2.6.32
toy=CVE-2099-0001
Y=1111111111111111111111111111111111111111 Z=2222222222222222222222222222222222222222

# the kit as tracked in this checkout (committed or not), in a repository
# of its own, then the toy folder added and nothing else
mkdir -p "$k" &&
	git -C "$root" ls-files -z | (cd "$root" && tar --null -T - -cf -) | tar -xf - -C "$k" &&
	(cd "$k" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm kit) &&
	cp -R "$root/scripts/tests/fixtures/toy-fix/$toy" "$k/backports/fixes/" ||
	{ t_fail "a copy of the kit with the toy fix folder"; t_done; exit 1; }
kenv() { env KIT_ROOT="$k" KIT_CONFIG=/nonexistent KIT_CACHE="$tmp/cache" OUT="$out" "$@"; }
fixes=$(kenv sh -c '. "$KIT_ROOT/scripts/lib.sh" && kit_fixes')
case " $(echo $fixes) " in *" $toy "*) ;; *) t_fail "kit_fixes of the copy lists the toy fix" "$fixes"; t_done; exit 1 ;; esac

# --- series -----------------------------------------------------------------
# a tree with the file the toy changes, without them
mkdir -p "$tmp/tree/fs"
printf '/* fs/toy.c */\n' >"$tmp/tree/fs/toy.c"
mkdir -p "$tmp/fx" && ln -s "$k/backports/fixes/$toy" "$tmp/fx/$toy"
s=$tmp/series
have_series=
if ! command -v spatch >/dev/null 2>&1; then
	t_skip "series.sh makes the toy's patches" "spatch is not installed (series.sh needs it; make deps)"
else
	kenv KIT_FIXES="$tmp/fx" SERIES_TREE="$tmp/tree" SERIES_OUT="$s" sh "$k/scripts/series.sh" $b >"$tmp/series.log" 2>&1; rc=$?
	want="toy-open-the-door.patch
toy-close-the-door.patch"
	if [ $rc -eq 0 ] && [ "$(cat "$s/series" 2>/dev/null)" = "$want" ] &&
		grep -q "^commit $Y upstream\.\$" "$s/toy-open-the-door.patch" &&
		grep -q "^commit $Z upstream\.\$" "$s/toy-close-the-door.patch" &&
		grep -q "^References: $toy\$" "$s/toy-close-the-door.patch" &&
		grep -q "fs/toy.c: hand hunk (.*/$toy/changes/Y-toy-open/hunks/$b.diff)" "$s/toy-open-the-door.patch"; then
		have_series=1
		t_ok "series.sh makes Y's then Z's patch from their hunks, with INFO's facts"
	else
		t_fail "series.sh makes the toy's patches" "rc=$rc" "$(tail -3 "$tmp/series.log")" "$(cat "$s/series" 2>&1)"
	fi
fi
if [ -n "$have_series" ]; then
	cp -R "$tmp/tree" "$tmp/patched"
	for p in $(cat "$s/series"); do patch -s -d "$tmp/patched" -p1 <"$s/$p" || echo "$p does not apply"; done >"$tmp/apply.log" 2>&1
	before=$(kenv sh "$k/scripts/fix-state.sh" "$tmp/tree" 2>&1 | grep -e '^Y-' -e '^Z-' | cut -d' ' -f1,3 | paste -sd' ' -)
	after=$(kenv sh "$k/scripts/fix-state.sh" "$tmp/patched" 2>&1 | grep -e '^Y-' -e '^Z-' | cut -d' ' -f1,3 | paste -sd' ' -)
	[ ! -s "$tmp/apply.log" ] && [ "$before" = "Y-toy-open missing Z-toy-close missing" ] &&
		[ "$after" = "Y-toy-open present Z-toy-close present" ] &&
		t_ok "the series applied to the tree: fix-state.sh (the whole kit) finds Y and Z present, missing before" ||
		t_fail "the series gives the tree Y and Z" "$(cat "$tmp/apply.log")" "before: $before" "after: $after"
fi

# the plan of a run over that tree: the whole kit, the series above
mkdir -p "$out/$b"
got=$(kenv PLAN_SERIES_DIR="$s" sh "$k/scripts/plan-series.sh" $b "$tmp/tree" "$out/$b/plan" 2>&1); rc=$?
[ $rc -eq 0 ] && [ "$got" = "$s" ] &&
	jq -e '.status == "full series" and ([.changes[] | select(.state == "missing") | .change] == ["Y-toy-open", "Z-toy-close"])
	  and ([.changes[] | select(.state != "missing") | .state] | all(. == "n/a"))' "$out/$b/plan/plan.json" >/dev/null &&
	t_ok "plan-series.sh over the tree: Y and Z missing (the kit's own changes n/a), the toy series planned" ||
	t_fail "plan-series.sh names Y and Z missing" "rc=$rc" "$got" "$(jq -c '[.status, (.changes[] | [.change, .state])]' "$out/$b/plan/plan.json" 2>&1)"

t_done
