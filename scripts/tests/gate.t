#!/bin/sh
# The gate (scripts/gate.sh), computed once from a run manifest written
# before anything boots, and the holes it closes (issue 21), each held
# here without a kernel: verify.sh runs in a copy of the kit whose
# fetch, plan, build and verification VM are stand-ins (the VM writes a
# boot.json made here with jq, the build an empty bzImage); gate.sh runs
# on fixture boot records; verify-all on a source that cannot be reached.
#   - required kinds come from the manifest: VERIFY_KINDS=unpatched
#     boots the patched kernel anyway, and no patched boot fails the gate;
#   - UNREACHABLE passes only where a FIX's Expect: line says so for that
#     branch and kind; NOT-TESTED never passes, not even declared;
#   - a boot record older than the run's manifest is no boot;
#   - TREE= in a folder named like a branch writes OUT/tree-<folder>/,
#     never OUT/<branch>/; NAME=<branch> with TREE= is refused;
#   - provenance names the series pushed: the plan's for a partly fixed
#     tree, tree-series for TREE=, SERIES_DIR=;
#   - verify-all with no source reachable exits 3 with one line.
# About 80 s (verify.sh in the stub kit runs 20 times, 3-4 s each).
cd "$(dirname "$0")/../.." || exit 2
. ci/tap.sh
root=$(pwd)
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

# --- a stub kit ------------------------------------------------------------
k=$t/kit
mkdir -p "$k/testvm" && cp -R scripts branches backports "$k/" && cp testvm/junit.sh "$k/testvm/" ||
	{ t_fail "copy the kit"; t_done; exit 1; }
# The cases below hold two fixes apart (F1, F2: the kit's first two, in
# folder order); the stub kit keeps only those, whatever else the kit
# carries, so that a new fix folder changes no case here.
F1= F2=
for d in "$k"/backports/fixes/*/; do
	[ -r "$d/FIX" ] || continue
	d=${d%/}
	if [ -z "$F1" ]; then F1=${d##*/}
	elif [ -z "$F2" ]; then F2=${d##*/}
	else rm -rf "$d"; fi
done
# fetch: the source is a folder (the plan stand-in never reads it)
printf '#!/bin/sh\nmkdir -p "$OUT/src" && echo "$OUT/src"\n' >"$k/scripts/fetch.sh"
# detect: any TREE is v2.6.32 (or BRANCH= when given)
printf '#!/bin/sh\necho "${2:-v2.6.32}"\n' >"$k/scripts/detect.sh"
# plan: FAKE_PLAN=full (every change missing) or partly (only I missing:
# a series of I's patch alone in DIR/series.d); exit 4 for fixed;
# FAKE_NA=<ERE>: the changes it matches are n/a
cat >"$k/scripts/plan-series.sh" <<'P'
#!/bin/sh
. "$(dirname "$0")/lib.sh"
b=$1 dir=$3 sd=${PLAN_SERIES_DIR:-$KIT_ROOT/backports/$1}
mkdir -p "$dir"
printf '%s\n' "${ARCHES:-}" >"$dir/arches.seen"
case ${FAKE_PLAN:-full} in
full) st="full series" miss='.' ;;
partly) st="partly fixed" miss='^I-'
	rm -rf "$dir/series.d"; mkdir -p "$dir/series.d"
	p=$(tail -1 "$sd/series"); cp "$sd/$p" "$dir/series.d/" && echo "$p" >"$dir/series.d/series"
	sd=$dir/series.d ;;
fixed) st="already fixed" miss='^$' sd= ;;
esac
kit_changes | jq -R -s --arg st "$st" --arg sd "$sd" --arg m "$miss" '
  split("\n") | map(select(. != "")) | {status: $st, series_dir: $sd,
  changes: map({change: ., state: (if test(env.FAKE_NA // "^$") and . != "" then "n/a" elif test($m) then "missing" else "present" end)})}' >"$dir/plan.json"
[ "$st" != "already fixed" ] || exit 4
echo "$sd"
P
# build: an empty kernel; for TREE= the patched build makes tree-series
# and plans with it, as build.sh does
cat >"$k/scripts/build.sh" <<'B'
#!/bin/sh
. "$(dirname "$0")/lib.sh"
NAME=${NAME:-$2}
[ "${FAKE_BUILD_FAIL:-}" != "$1" ] || { echo "build.sh: error: stand-in build of $1 failed" >&2; exit 1; }
mkdir -p "$OUT/$NAME/$1" && : >"$OUT/$NAME/$1/bzImage" && echo cfg >"$OUT/$NAME/$1/config.sha256"
echo "$1" >>"$OUT/$NAME/built"
if [ "$1" = patched ] && [ -n "${TREE:-}" ]; then
	ts=$OUT/$NAME/tree-series; rm -rf "$ts"; mkdir -p "$ts"
	cp "$KIT_ROOT/backports/$2/"*.patch "$KIT_ROOT/backports/$2/series" "$ts/"
	echo "# made for this tree" >>"$ts/series"
	PLAN_SERIES_DIR=$ts sh "$KIT_ROOT/scripts/plan-series.sh" "$2" "$TREE" "$OUT/$NAME/plan" >/dev/null
fi
exit 0
B
# the VM: FAKE_<KIND> is the kernel's verdict, FAKE_<KIND>_FIXES its
# fixes' ("CVE=VERDICT ..."); no FAKE_<KIND>: the VM fails
cat >"$k/testvm/verify-kernel.sh" <<'V'
#!/bin/sh
kind=$(basename "$(dirname "$1")")
eval "v=\${FAKE_$kind:-}; f=\${FAKE_${kind}_FIXES:-}"
[ -n "$v" ] || { echo "stand-in VM: no FAKE_$kind" >&2; exit 1; }
mkdir -p "$2"
echo "$kind" >>"$2/../../booted"
printf '%s\n' $f | jq -R -s --arg v "$v" '{verdict: $v, signature: "sig \($v)", seconds: 1,
  tests: {passed: 9, failed: 0, skipped: 0}, failed_tests: [], inputs: {},
  fixes: (split("\n") | map(select(. != "") | split("=") | {key: .[0], value: {verdict: .[1], signature: "\(.[0]) \(.[1])"}}) | from_entries)}' \
	>"$2/boot.json"
[ -z "${FAKE_PID:-}" ] || echo $$ >"$FAKE_PID"
[ -z "${FAKE_SLEEP:-}" ] || sleep "$FAKE_SLEEP"
echo "$v (stand-in)"
V
(cd "$k" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm t) ||
	{ t_fail "a git repo for the kit copy"; t_done; exit 1; }
both_vuln="$F1=VULNERABLE $F2=VULNERABLE" both_surv="$F1=SURVIVED $F2=SURVIVED"
verify() { # verify VAR=value...: verify.sh in the stub kit
	out=$(env KIT_ROOT="$k" KIT_CONFIG=/nonexistent KIT_CACHE="$t/cache" OUT="$t/out" KIT_LOCK="$t/lock" \
		FAKE_unpatched=VULNERABLE FAKE_unpatched_FIXES="$both_vuln" "$@" sh "$k/scripts/verify.sh" 2>&1); rc=$?
}
g() { jq -r "$1" "$t/out/$2/gate.json"; }

# --- required kinds come from the manifest ---------------------------------
verify BRANCH=v2.6.32 FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv"
[ $rc -eq 0 ] && [ "$(g .status v2.6.32)" = pass ] &&
	[ "$(jq -r '.kinds | keys_unsorted | join(" ")' "$t/out/v2.6.32/manifest.json")" = "unpatched patched" ] &&
	jq -e '.gate.status == "pass" and .boots.patched.as_expected' "$t/out/v2.6.32/result.json" >/dev/null &&
	t_ok "a full run: the manifest requires unpatched and patched, both booted, gate pass (exit 0), result.json carries the gate" ||
	t_fail "full run passes" "rc=$rc" "$out"
verify BRANCH=v2.6.32 VERIFY_KINDS=unpatched FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv"
[ $rc -eq 0 ] && [ "$(tail -2 "$t/out/v2.6.32/booted" | tr '\n' ' ')" = "unpatched patched " ] &&
	printf '%s' "$out" | grep -q "VERIFY_KINDS='unpatched' is not read" &&
	t_ok "VERIFY_KINDS=unpatched: not read (said once); the patched kernel is booted all the same" ||
	t_fail "VERIFY_KINDS ignored" "rc=$rc" "$out"
verify BRANCH=v2.6.32 VERIFY_KINDS=unpatched
[ $rc -eq 1 ] && [ "$(g .status v2.6.32)" = fail ] &&
	[ "$(g '.kernels.patched | "\(.booted) \(.ok)"' v2.6.32)" = "false false" ] &&
	printf '%s\n' "$out" | grep -q '^v2.6.32 *patched *none: the verification VM failed.*\[NOT OK: required, not booted' &&
	printf '%s' "$out" | grep -q 'gate failed: patched: required, not booted.*the verification VM failed on: patched' &&
	jq -e '.gate.status == "fail"' "$t/out/v2.6.32/result.json" >/dev/null &&
	t_ok "VERIFY_KINDS=unpatched and no patched boot: the gate fails (exit 1), naming the patched kernel not booted" ||
	t_fail "no patched boot fails the gate" "rc=$rc" "$out"
# two verifies of one branch into one OUT at once: the second waits for
# the first and says so; both exit 0 with the gate passed
( verify BRANCH=v2.6.32 FAKE_SLEEP=2 FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv"
  printf '%s\n' "$rc" "$out" >"$t/race-a" ) &
sleep 1
verify BRANCH=v2.6.32 FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv"
wait
[ $rc -eq 0 ] && [ "$(head -1 "$t/race-a")" = 0 ] && [ "$(g .status v2.6.32)" = pass ] &&
	printf '%s' "$out" | grep -q 'another make verify of v2.6.32 into .* is running; waiting for it' &&
	t_ok "two verifies of one branch into one OUT: the second waits and says so, both exit 0, the gate passes" ||
	t_fail "two verifies at once" "rc=$rc" "$out" "first: $(cat "$t/race-a")"
# Ctrl-C: SIGINT to the run's process group (as a terminal sends it) ends
# it, the boots in the background included (they start with SIGINT
# ignored): no stand-in VM is left two seconds later
rm -f "$t/vm.pid"
# (a job started with & has SIGINT ignored, which a shell cannot undo:
# perl gives the run the default disposition a terminal's would have)
( cd "$t" && exec setsid perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die' env KIT_ROOT="$k" KIT_CONFIG=/nonexistent KIT_CACHE="$t/cache" OUT="$t/out" KIT_LOCK="$t/lock" \
	BRANCH=v2.6.32 FAKE_SLEEP=60 FAKE_PID="$t/vm.pid" FAKE_unpatched=VULNERABLE FAKE_unpatched_FIXES="$both_vuln" \
	FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv" sh "$k/scripts/verify.sh" >"$t/int.out" 2>&1 ) &
run=$!	# (setsid did not fork: the run's session and group are this pid)
for i in 1 2 3 4 5 6 7 8 9 10; do [ -s "$t/vm.pid" ] && break; sleep 0.5; done
vm=$(cat "$t/vm.pid" 2>/dev/null)
# the boot's own group (verify.sh starts each boot in one); SIGINT goes to
# the run's group, as a terminal sends it
vpg=$(ps -o pgid= -p "$vm" 2>/dev/null | tr -d ' ')
[ -n "$vpg" ] && kill -INT "-$run"
sleep 2
if [ -z "$vpg" ]; then t_fail "Ctrl-C ends the run" "the stand-in VM never started: $(cat "$t/int.out")"
elif left=$(ps -o pid=,args= -g "$run,$vpg" 2>/dev/null) && [ -n "$left" ]; then
	t_fail "Ctrl-C ends the run" "left running: $left" "$(cat "$t/int.out")"; kill -KILL "-$run" "-$vpg" 2>/dev/null
else t_ok "Ctrl-C (SIGINT to the process group) during a boot: nothing of the run is left two seconds later"; fi
wait
# a boot record from an earlier run is no boot of this one
verify BRANCH=v2.6.32 FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv" FAKE_PLAN=full
cp "$t/out/v2.6.32/manifest.json" "$t/m" && sleep 1 && cp "$t/m" "$t/out/v2.6.32/manifest.json"
out=$(KIT_CONFIG=/nonexistent sh scripts/gate.sh "$t/out/v2.6.32" 2>&1); rc=$?
[ $rc -eq 1 ] && g '.reasons[]' v2.6.32 | grep -q 'unpatched: required, not booted in this run (its boot record is older than the manifest)' &&
	t_ok "a boot record older than the run's manifest counts as no boot: gate fail (exit 1)" ||
	t_fail "stale boot record" "rc=$rc" "$out" "$(g .reasons v2.6.32)"
# a build that fails: its exit status stands, and the gate record says
# the kernel was not booted
verify BRANCH=v2.6.32 FAKE_BUILD_FAIL=patched FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv"
[ $rc -eq 1 ] && [ "$(g .status v2.6.32)" = fail ] && g '.reasons[]' v2.6.32 | grep -q '^patched: required, not booted' &&
	t_ok "the patched build fails: exit 1, and gate.json fails naming the patched kernel not booted" ||
	t_fail "build failure leaves a failed gate" "rc=$rc" "$out" "$(g .reasons v2.6.32)"
# a tree that carries every change: its own kernel alone, every fix SURVIVED
verify BRANCH=v2.6.32 FAKE_PLAN=fixed FAKE_unpatched=SURVIVED FAKE_unpatched_FIXES="$both_surv"
[ $rc -eq 0 ] && [ "$(jq -r '.kinds | keys | join(" ")' "$t/out/v2.6.32/manifest.json")" = unpatched ] &&
	[ "$(g '[.fixes[].status] | unique | join(" ")' v2.6.32)" = "already fixed" ] &&
	t_ok "an already fixed tree: the manifest requires its own kernel only, every fix SURVIVED; 'already fixed'" ||
	t_fail "already fixed" "rc=$rc" "$out"

# --- per fix: UNREACHABLE only where declared, NOT-TESTED never ----------
verify BRANCH=v2.6.32 FAKE_patched=SURVIVED FAKE_patched_FIXES="$F1=SURVIVED $F2=NOT-TESTED"
[ $rc -eq 1 ] && g '.reasons[]' v2.6.32 | grep -q "^patched: $F2 NOT-TESTED, must be SURVIVED (NOT-TESTED never passes" &&
	t_ok "a fix NOT-TESTED on the patched kernel fails the gate" || t_fail "NOT-TESTED fails" "rc=$rc" "$out"
verify BRANCH=v2.6.32 FAKE_unpatched_FIXES="$F1=VULNERABLE $F2=UNREACHABLE" FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv"
[ $rc -eq 1 ] && g '.reasons[]' v2.6.32 | grep -q "^unpatched: $F2 UNREACHABLE, must be VULNERABLE" &&
	t_ok "UNREACHABLE where no FIX allows it: the gate fails" || t_fail "undeclared UNREACHABLE fails" "rc=$rc" "$out"
fixf=$k/backports/fixes/$F2/FIX
# header_line LINE: LINE among FIX's header lines (the engines read no
# rule from the description after the blank line)
header_line() { sed -i "1a\\$1" "$fixf"; }
cp "$fixf" "$t/FIX.orig"
header_line 'Expect: v2.6.32 unpatched UNREACHABLE: ptrace narrows orig_ax on this release (a test line)'
verify BRANCH=v2.6.32 FAKE_unpatched_FIXES="$F1=VULNERABLE $F2=UNREACHABLE" FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv"
[ $rc -eq 0 ] && [ "$(g ".kernels.unpatched.fixes[\"$F2\"].expected" v2.6.32)" = UNREACHABLE ] &&
	[ "$(g ".fixes[\"$F2\"].status" v2.6.32)" = unreachable ] && [ "$(g ".fixes[\"$F1\"].status" v2.6.32)" = fixed ] &&
	t_ok "UNREACHABLE where the FIX's Expect: line allows it (that branch, that kind): the gate passes, the fix 'unreachable', not 'fixed'" ||
	t_fail "declared UNREACHABLE passes" "rc=$rc" "$out"
[ "$(g ".fixes[\"$F2\"].summary" v2.6.32)" = "flaw present, not reachable; fix applied" ] &&
	t_ok "... and its summary says the flaw is there, not reachable, and the fix applied" ||
	t_fail "unreachable summary" "$(g ".fixes[\"$F2\"]" v2.6.32)"
# the same, on a tree where every change of F2 is n/a by its DETECT: the
# plan makes it "not affected", not "flaw present"
header_line 'Expect: v2.6.32 patched UNREACHABLE: as unpatched (a test line)'
F2_NA=$(KIT_FIXES=$k/backports/fixes sh -c ". scripts/lib.sh; fix_changes $F2" | sed 's/^/^/' | paste -sd'|' -)
verify FAKE_NA="$F2_NA" BRANCH=v2.6.32 FAKE_unpatched_FIXES="$F1=VULNERABLE $F2=UNREACHABLE" FAKE_patched=SURVIVED FAKE_patched_FIXES="$F1=SURVIVED $F2=UNREACHABLE"
[ $rc -eq 0 ] && [ "$(g ".fixes[\"$F2\"].status" v2.6.32)" = "not affected" ] && [ "$(g ".fixes[\"$F1\"].status" v2.6.32)" = fixed ] &&
	t_ok "UNREACHABLE on a tree where each of the fix's changes is n/a: 'not affected' (from the plan), not 'flaw present'" ||
	t_fail "not affected from the plan" "rc=$rc" "$out" "$(g ".fixes[\"$F2\"]" v2.6.32)"
cp "$t/FIX.orig" "$fixf"
header_line 'Expect: v2.6.32 unpatched UNREACHABLE: ptrace narrows orig_ax on this release (a test line)'
verify BRANCH=v2.6.31 FAKE_unpatched_FIXES="$F1=VULNERABLE $F2=UNREACHABLE" FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv"
[ $rc -eq 1 ] && t_ok "the same line does not allow it on another branch" || t_fail "Expect: is per branch" "rc=$rc" "$out"
verify BRANCH=v2.6.32 FAKE_unpatched_FIXES="$both_vuln" FAKE_patched=SURVIVED FAKE_patched_FIXES="$F1=SURVIVED $F2=UNREACHABLE"
[ $rc -eq 1 ] && g '.reasons[]' v2.6.32 | grep -q "^patched: $F2 UNREACHABLE, must be SURVIVED" &&
	t_ok "... nor on another kind of the same branch" || t_fail "Expect: is per kind" "rc=$rc" "$out"
cp "$t/FIX.orig" "$fixf"; header_line 'Expect: v2.6.32 patched NOT-TESTED: no route'
verify BRANCH=v2.6.32 FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv"
[ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | grep -c 'error:')" -eq 1 ] &&
	printf '%s' "$out" | grep -q "holds a kernel to 'NOT-TESTED'; the gate accepts only VULNERABLE SURVIVED UNREACHABLE" &&
	t_ok "an Expect: line holding a kernel to NOT-TESTED is refused (exit 2, one line)" || t_fail "Expect NOT-TESTED refused" "rc=$rc" "$out"
cp "$t/FIX.orig" "$fixf"; header_line 'Expect: v2.6.32 patched'
verify BRANCH=v2.6.32 FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv"
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q "'Expect: v2.6.32 patched' is not '<branch> <kind> <verdict>: <why>'" &&
	t_ok "a malformed Expect: line is refused, never read as the default (exit 2)" || t_fail "malformed Expect refused" "rc=$rc" "$out"
cp "$t/FIX.orig" "$fixf"
for bad in 'patched VULNERABLE' 'unpatched SURVIVED'; do
	header_line "Expect: v2.6.32 $bad: a test line"
	verify BRANCH=v2.6.32 FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv"
	[ $rc -eq 2 ] && printf '%s' "$out" | grep -q "may not hold the ${bad% *} kernel to ${bad#* }; where the flaw cannot be shown, say UNREACHABLE" &&
		t_ok "an Expect: line holding the $bad is refused (exit 2): only a proven UNREACHABLE may stand in for the default" ||
		t_fail "Expect $bad refused" "rc=$rc" "$out"
	cp "$t/FIX.orig" "$fixf"
done
# a rule is a header line: the same line in the description is prose
printf '\nExpect: v2.6.32 unpatched UNREACHABLE: prose, not a rule\n' >>"$fixf"
verify BRANCH=v2.6.32 FAKE_unpatched_FIXES="$F1=VULNERABLE $F2=UNREACHABLE" FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv"
[ $rc -eq 1 ] && g '.reasons[]' v2.6.32 | grep -q "^unpatched: $F2 UNREACHABLE, must be VULNERABLE" &&
	t_ok "an Expect: line after FIX's blank line is description, not a rule: UNREACHABLE is not allowed by it" ||
	t_fail "Expect: in the description ignored" "rc=$rc" "$out"
cp "$t/FIX.orig" "$fixf"

# --- TREE= never writes a branch's folder ------------------------------------
mkdir -p "$t/vendor/v2.6.32" "$t/out/v2.6.32"
: >"$t/out/v2.6.32/marker"
ls -lR --time-style=+%s "$t/out/v2.6.32" >"$t/before"
verify TREE="$t/vendor/v2.6.32" FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv"
ls -lR --time-style=+%s "$t/out/v2.6.32" >"$t/after"
[ $rc -eq 0 ] && [ -r "$t/out/tree-v2.6.32/gate.json" ] && cmp -s "$t/before" "$t/after" &&
	printf '%s\n' "$out" | grep -q '^tree-v2.6.32 *patched' &&
	t_ok "TREE= in a folder named v2.6.32: written to OUT/tree-v2.6.32/, OUT/v2.6.32/ untouched" ||
	t_fail "TREE named like a branch" "rc=$rc" "$out" "$(diff "$t/before" "$t/after")"
ls -lR --time-style=+%s "$t/out" >"$t/before"
verify TREE="$t/vendor/v2.6.32" NAME=v2.6.31 FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv"
ls -lR --time-style=+%s "$t/out" >"$t/after"
[ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
	printf '%s' "$out" | grep -q "NAME=v2.6.31 is a branch name; a TREE= run writes to OUT/<name>/" && cmp -s "$t/before" "$t/after" &&
	t_ok "TREE= with NAME=<a branch>: refused, exit 2, one line, nothing written" || t_fail "NAME=branch refused" "rc=$rc" "$out"

# --- TREE= with ARCHES=: the architectures the tree ships -------------------
verify TREE="$t/vendor/v2.6.32" ARCHES=powerpc,x86_64 FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv"
[ $rc -eq 0 ] && [ "$(cat "$t/out/tree-v2.6.32/plan/arches.seen")" = "x86_64 powerpc" ] &&
	printf '%s\n' "$out" | grep -q "the tree ships x86_64 powerpc (ARCHES=)" &&
	t_ok "TREE= with ARCHES=powerpc,x86_64: no pick; the plan (its fix state) gets the canonical list, and the run says so" ||
	t_fail "TREE= with ARCHES" "rc=$rc" "$out" "$(cat "$t/out/tree-v2.6.32/plan/arches.seen")"
for a in "ARCHES=powerpc|has no x86_64, and make verify boots x86_64 kernels" \
	"ARCHES=vax|unknown architecture 'vax'" \
	"HARDENING=0|HARDENING=0 makes a pick of the branch's own series; a TREE= run applies what the tree lacks"; do
	verify TREE="$t/vendor/v2.6.32" "${a%%|*}" FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv"
	[ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s' "$out" | grep -qF "${a#*|}" &&
		t_ok "TREE= with ${a%%|*}: refused, exit 2, one line" || t_fail "TREE= with ${a%%|*}" "rc=$rc" "$out"
done

# --- provenance names the series pushed ------------------------------------
prov() { jq -r ".provenance.$1" "$t/out/$2/result.json"; }
verify BRANCH=v2.6.32 FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv"
[ "$(prov series_dir v2.6.32)" = "$k/backports/v2.6.32" ] &&
	[ "$(prov series_sha256 v2.6.32)" = "$(KIT_ROOT=$k sh -c '. scripts/lib.sh; series_digest "$1"' sh "$k/backports/v2.6.32")" ] &&
	t_ok "a full series: provenance names backports/<b> and its digest" || t_fail "full series provenance" "$(jq -c .provenance "$t/out/v2.6.32/result.json")"
verify BRANCH=v2.6.32 FAKE_PLAN=partly FAKE_unpatched_FIXES="$F1=SURVIVED $F2=VULNERABLE" FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv"
sd=$t/out/v2.6.32/plan/series.d
[ $rc -eq 0 ] && [ "$(prov series_dir v2.6.32)" = "$sd" ] &&
	[ "$(prov series_sha256 v2.6.32)" = "$(KIT_ROOT=$k sh -c '. scripts/lib.sh; series_digest "$1"' sh "$sd")" ] &&
	[ "$(prov series_sha256 v2.6.32)" != "$(KIT_ROOT=$k sh -c '. scripts/lib.sh; series_digest "$1"' sh "$k/backports/v2.6.32")" ] &&
	t_ok "a partly fixed tree: provenance names the plan's series (the missing change alone) and its digest, not backports/<b>" ||
	t_fail "partly fixed provenance" "rc=$rc" "$out" "$(jq -c .provenance "$t/out/v2.6.32/result.json")"
verify TREE="$t/vendor/v2.6.32" FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv"
ts=$t/out/tree-v2.6.32/tree-series
[ $rc -eq 0 ] && [ "$(prov series_dir tree-v2.6.32)" = "$ts" ] && [ "$(prov series_from tree-v2.6.32)" = tree-series ] &&
	[ "$(prov series_sha256 tree-v2.6.32)" = "$(KIT_ROOT=$k sh -c '. scripts/lib.sh; series_digest "$1"' sh "$ts")" ] &&
	t_ok "TREE=: provenance names tree-series, the series made for the tree, and its digest" ||
	t_fail "TREE= provenance" "rc=$rc" "$out" "$(jq -c .provenance "$t/out/tree-v2.6.32/result.json")"
mkdir -p "$t/own" && cp "$k/backports/v2.6.32/"* "$t/own/"
verify BRANCH=v2.6.32 SERIES_DIR="$t/own" NAME=own FAKE_patched=SURVIVED FAKE_patched_FIXES="$both_surv"
[ $rc -eq 0 ] && [ "$(prov series_dir own)" = "$t/own" ] && [ "$(prov series_from own)" = SERIES_DIR ] &&
	t_ok "SERIES_DIR=: provenance names it" || t_fail "SERIES_DIR provenance" "rc=$rc" "$out"

# --- a run that proved nothing -----------------------------------------------
va() { out=$(env OUT="$t/va" KIT_CONFIG=/nonexistent KIT_CACHE="$t/cache2" KIT_FETCH_TIMEOUT=10 \
	KERNEL_GIT=http://127.0.0.1:9/x.git BRANCHES="v2.6.31 v2.6.32" VERIFY_JOBS=1 "$@" sh scripts/verify-all.sh 2>&1); rc=$?; }
va KIT_SOURCE_CONFIGURED=0
[ $rc -eq 3 ] && [ "$(printf '%s\n' "$out" | grep -c 'branches not verified')" -eq 1 ] &&
	printf '%s\n' "$out" | grep -qx 'verify-all: 2 of 2 branches not verified: source not reachable; set KERNEL_GIT (v2.6.31 v2.6.32)' &&
	t_ok "verify-all with no source reachable (none configured): exit 3, one line naming the branches not verified" ||
	t_fail "verify-all proves nothing: exit 3" "rc=$rc" "$out"
va KIT_SOURCE_CONFIGURED=1
[ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'gate FAILED for: v2.6.31 v2.6.32' &&
	t_ok "... and with KERNEL_GIT configured: a failure, exit 1" || t_fail "configured unreachable fails" "rc=$rc" "$out"
t_done
