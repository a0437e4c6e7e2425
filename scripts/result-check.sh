# shellcheck shell=sh
# result-check.sh: what every reader of a run's records holds them to
# before it shows a word of them; sourced after lib.sh (KIT_RESULT_SCHEMA,
# die).  The layout itself is written down in
# scripts/records/result.schema.json; this is the fast check run on every
# read, and what it adds: the gate and the verdicts must agree.
#
#   result_check FILE   OUT/<b>/result.json (or a MUTANTS_OUT one)
#   gate_check FILE     OUT/<b>/gate.json (scripts/gate.sh)
#   result_refuse FILE KIND WHAT [LEFT]
#                       the reader's refusal: exit 1, one line naming the
#                       file and the field, what to run, and what is left
#                       as it was
#
# Each check returns 0, or 1 with one line on stdout: the field and what is
# wrong with it.  They hold a record to:
#   - result.json's .schema: the kit's layout version (lib.sh
#     KIT_RESULT_SCHEMA); a gate record's .schema, when it has one: 1;
#   - every verdict a name the kit defines (testvm/README.md "Verdicts"):
#     a boot's VULNERABLE, REGRESSED, INCONCLUSIVE or SURVIVED, a fix's
#     those or NOT-TESTED or UNREACHABLE; the gate's "none" for a kernel
#     or fix it has no verdict of; what a kernel must be VULNERABLE or
#     SURVIVED, a fix also UNREACHABLE (gate.sh EXPECTABLE); a mutant's
#     also the words scripts/mutants.sh records;
#   - every test count (passed, failed, skipped) an integer >= 0;
#   - the gate as gate.sh computes it: a kernel is ok when it booted, its
#     verdict is what it must be and so is every fix's (NOT-TESTED never);
#     the gate passes when every kernel is ok, and has reasons only when it
#     fails; a fix is "fixed" only where the gate passed with its unpatched
#     kernel VULNERABLE and its patched one SURVIVED; a failed gate calls a
#     fix only "not fixed" or "not tested"; a kernel's or fix's own "ok"
#     says the same as its verdicts;
#   - result.json's boots the ones its gate judged: the same verdicts, the
#     same expectation, as_expected the gate's ok.

# shellcheck disable=SC2016
RESULT_CHECK_JQ='
  def bootv: ["VULNERABLE", "REGRESSED", "INCONCLUSIVE", "SURVIVED"];
  def fixv: bootv + ["NOT-TESTED", "UNREACHABLE"];
  def isin($l): . as $x | $l | index([$x]) != null;
  def q: tojson;
  def name($p; $l): select(isin($l) | not)
    | "\($p) is \(q), not a verdict the kit defines (\($l | join(", ")); testvm/README.md \"Verdicts\")";
  def must($p; $l): select(isin($l) | not) | "\($p) is \(q), not one of \($l | join(", "))";
  def count: type == "number" and . >= 0 and . == floor;
  def tests($p): if . == null then empty
    elif type != "object" then "\($p) is \(q), not the test counts"
    else ("passed", "failed", "skipped") as $c | .[$c] | select(count | not)
      | "\($p).\($c) is \(q), not a count (an integer >= 0)" end;
  def obj($p): select(type != "object") | "\($p) is \(q), not an object";
  def fixok: .verdict == .expected and .verdict != "NOT-TESTED";
  def kok: .booted != false and .verdict == .expected and all((.fixes // {})[]; fixok);
  # the gate record at path $p, as scripts/gate.sh writes it
  def gate($p):
    if type != "object" then "\($p) is \(q), not a gate record"
    elif has("schema") and .schema != 1 then "\($p).schema is \(.schema | q), not 1 (scripts/gate.sh)"
    elif (.status | isin(["pass", "fail"]) | not) then "\($p).status is \(.status | q), not pass or fail"
    elif (.kernels | type) != "object" or (.kernels | length) == 0 then "\($p).kernels is \(.kernels | q), not the kernels judged"
    elif ([.kernels[] | type == "object" and ((.fixes // {}) | type) == "object"
           and all((.fixes // {})[]; type == "object")] | all | not) then
      "\($p).kernels holds a kernel or fix that is not an object"
    else
      (.kernels | to_entries[] | .key as $k | .value as $x | "\($p).kernels.\($k)" as $r
       | ($x.verdict | name("\($r).verdict"; bootv + ["none"])),
         ($x.expected | must("\($r).expected"; ["VULNERABLE", "SURVIVED"])),
         (if $x.booted == false and $x.verdict != "none" then "\($r).verdict is \($x.verdict | q), but the kernel did not boot" else empty end),
         (if $x.booted == true and $x.verdict == "none" then "\($r).verdict is \"none\", but the kernel booted" else empty end),
         ($x.tests | tests("\($r).tests")),
         (($x.fixes // {}) | to_entries[] | .key as $f | .value as $y | "\($r).fixes.\($f)" as $s
          | ($y.verdict | name("\($s).verdict"; fixv + ["none"])),
            ($y.expected | must("\($s).expected"; ["VULNERABLE", "SURVIVED", "UNREACHABLE"])),
            ($y.tests | tests("\($s).tests")),
            (if $y | has("ok") and .ok != ($y | fixok) then
               "\($s).ok is \($y.ok), but its verdict is \($y.verdict | q) and it must be \($y.expected | q)" else empty end)),
         (if $x | has("ok") and .ok != ($x | kok) then
            "\($r).ok is \($x.ok), but its verdicts say \($x | kok) (verdict \($x.verdict | q), must be \($x.expected | q))" else empty end)),
      (([.kernels | to_entries[] | select(.value | kok | not)
         | .key as $k | .value | if .booted == false then "\($k) did not boot"
           elif .verdict != .expected then "\($k) is \(.verdict), must be \(.expected)"
           else "\($k): " + ([.fixes | to_entries[] | select(.value | fixok | not)
             | "\(.key) \(.value.verdict), must be \(.value.expected)"] | first) end]) as $bad
       | if .status == "pass" and ($bad | length) > 0 then "\($p).status is \"pass\", but its kernels disagree: \($bad | join("; "))"
         elif .status == "fail" and ($bad | length) == 0 then "\($p).status is \"fail\", but every kernel is what it must be"
         elif (.reasons | type) == "array" and ((.reasons | length) == 0) != (.status == "pass") then
           "\($p).reasons \(if .status == "pass" then "name a failure of a gate that passed" else "are empty for a gate that failed" end)"
         else empty end),
      (.status as $st | .kernels as $ks | (.fixes // {}) | obj("\($p).fixes"),
       (select(type == "object") | to_entries[] | .key as $f | .value.status as $w | "\($p).fixes.\($f).status" as $s
        | ($w | must($s; ["fixed", "unreachable", "not affected", "already fixed", "not fixed", "not tested"])),
          (if $st == "fail" and ($w | isin(["not fixed", "not tested"]) | not) then
             "\($s) is \($w | q), but the gate failed (a failed gate calls a fix not fixed or not tested)" else empty end),
          (if $w == "fixed" then
             ($ks.unpatched.fixes[$f] // {}) as $u | ($ks.patched.fixes[$f] // {}) as $pp
             | if $u.verdict != "VULNERABLE" or $u.expected != "VULNERABLE" then
                 "\($s) is \"fixed\", but the unpatched kernel was \($u.verdict // "not judged" | q) for it (must be and be held to VULNERABLE)"
               elif $pp.verdict != "SURVIVED" or $pp.expected != "SURVIVED" then
                 "\($s) is \"fixed\", but the patched kernel was \($pp.verdict // "not judged" | q) for it (must be and be held to SURVIVED)"
               else empty end
           else empty end)))
    end;
  if type != "object" then "the file is not a JSON object"
  elif $what == "gate" then gate("")
  elif .schema != $schema then ".schema is \(.schema | q), not \($schema) (the layout this kit writes and reads; scripts/lib.sh KIT_RESULT_SCHEMA)"
  else
    (.boots // {} | obj(".boots")),
    (.boots // {} | select(type == "object") | to_entries[] | .key as $k | .value as $b | ".boots.\($k)" as $r
     | ($b | obj($r)),
       ($b | select(type == "object")
        | (.verdict | name("\($r).verdict"; bootv)),
          (select(has("expected")) | .expected | must("\($r).expected"; ["VULNERABLE", "SURVIVED"])),
          (.tests | tests("\($r).tests")),
          (.fixes // {} | obj("\($r).fixes"),
            (select(type == "object") | to_entries[] | .key as $f | "\($r).fixes.\($f)" as $s | .value
             | obj($s), (select(type == "object") | (.verdict | name("\($s).verdict"; fixv)), (.tests | tests("\($s).tests"))))))),
    (.mutants // {} | obj(".mutants"),
     (select(type == "object") | to_entries[] | .key as $m | ".mutants.\($m)" as $r | .value | obj($r),
      (select(type == "object") | (.verdict | name("\($r).verdict"; fixv + ["none", "UNOBSERVABLE", "MASKED", "BUILD FAILED", "ERROR"])),
       (.fixes // {} | select(type == "object") | to_entries[] | .key as $f | .value.verdict // empty
        | name("\($r).fixes.\($f).verdict"; fixv + ["none"]))))),
    (select(has("gate")) | .gate | gate(".gate")),
    # the boots are the ones the gate judged
    (select((.gate | type) == "object" and (.gate.kernels | type) == "object" and (.boots | type) == "object")
     | .boots as $bs | .gate.kernels | to_entries[] | .key as $k | .value as $g | $bs[$k] as $b
     | select($b != null and ($b | type) == "object" and $g.verdict != "none")
     | (if $b.verdict != $g.verdict then ".boots.\($k).verdict is \($b.verdict | q), but .gate.kernels.\($k).verdict is \($g.verdict | q)" else empty end),
       (if ($b | has("expected")) and $b.expected != $g.expected then ".boots.\($k).expected is \($b.expected | q), but the gate held it to \($g.expected | q)" else empty end),
       (if ($b | has("as_expected")) and ($g | has("ok")) and $b.as_expected != $g.ok then ".boots.\($k).as_expected is \($b.as_expected), but the gate says ok \($g.ok)" else empty end),
       (($b.fixes // {}) | to_entries[] | .key as $f | select(($g.fixes // {}) | has($f))
        | select(.value.verdict != $g.fixes[$f].verdict)
        | ".boots.\($k).fixes.\($f).verdict is \(.value.verdict | q), but .gate.kernels.\($k).fixes.\($f).verdict is \($g.fixes[$f].verdict | q)"))
  end'

# _record_check <result|gate> FILE: the first problem of FILE, on stdout
_record_check() {
	_rc_out=$(jq -s -r --arg what "$1" --argjson schema "$KIT_RESULT_SCHEMA" \
		"if length != 1 then \"the file is not one JSON document\" else .[0] | first($RESULT_CHECK_JQ) // empty end" \
		"$2" 2>/dev/null) || _rc_out="the file is not JSON (truncated or edited?)"
	[ -z "$_rc_out" ] && return 0
	printf '%s\n' "$_rc_out" | head -1 | tr -d '\000-\010\013-\037\177'
	return 1
}
result_check() { _record_check result "$1"; }
gate_check() { _record_check gate "$1"; }

# result_refuse FILE <result|gate> WHAT [LEFT]: check FILE; on a problem
# stop the run (exit 1) with one line: FILE, the field and what is wrong,
# WHAT to run, and LEFT (the outputs left as they were).
result_refuse() {
	_rr_why=$(_record_check "$2" "$1") ||
		die 1 "$1 is not a $2 record this kit wrote: $_rr_why; $3 (or remove it)${4:+; $4}"
}

# records_refuse LEFT ROOT...: every OUT/<b>/result.json and gate.json
# under each ROOT that exists, held to both checks before anything is
# read; the first that fails stops the run (exit 1), naming it, with LEFT
# (the outputs left as they were) at the end of the line.
records_refuse() {
	_rl=$1; shift
	for _rroot; do
		for _rb in $(list_branches); do
			for _rf in "$_rroot/$_rb/result.json" "$_rroot/$_rb/gate.json"; do
				[ -e "$_rf" ] || continue
				[ "$(jq -s 'length == 1 and (.[0] | type) == "object"' "$_rf" 2>/dev/null)" = true ] ||
					die 1 "$_rf is not a readable result file (truncated or not JSON); rerun 'make verify BRANCH=$_rb' (or remove it)${_rl:+; $_rl}"
				case $_rf in */gate.json) _rk=gate ;; *) _rk=result ;; esac
				result_refuse "$_rf" $_rk "rerun 'make verify BRANCH=$_rb'" "$_rl"
			done
		done
	done
}
