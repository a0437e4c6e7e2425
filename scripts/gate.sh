#!/bin/sh
# gate.sh: the gate, computed once (docs/design.md "The gate").  Every
# output that says whether a branch passed (verify, verify-all, JUnit, the
# pipeline's report job, records, the report, mutants) reads what this
# writes; none derives a verdict of its own.
#
#   gate.sh manifest DIR BRANCH
#       write DIR/manifest.json before anything is built or booted: which
#       kernels are required and what each must be, per fix, from
#       DIR/plan/plan.json (the changes the tree misses) and the Expect:
#       lines of backports/fixes/<CVE>/FIX (backports/fixes/README.md).
#       TREE= and SERIES_DIR= (the environment) are recorded as the run's
#       source and series; they never change what is required.
#   gate.sh mutant-manifest DIR BRANCH VERIFYDIR
#       the manifest of one mutant (scripts/mutants.sh): one kernel,
#       "patched", whose boot record is VERIFYDIR/boot.json, held to what
#       BRANCH's patched kernel must be; a mutant is caught where its gate
#       fails on the fix it takes from.
#   gate.sh DIR
#       judge the boot record (testvm/verify-kernel.sh) of each kind
#       DIR/manifest.json requires (DIR/<kind>/verify/boot.json, or the
#       kind's "boot" folder); write DIR/gate.json.
#
# A required kind with no boot record of this run (none, or one older than
# the manifest) fails, as does every kernel or fix verdict other than the
# one the manifest holds it to; NOT-TESTED fails everywhere, UNREACHABLE
# passes only where a FIX's Expect: line says it for that branch and kind.
#
# Exit: 0 written and the gate passed; 1 written and it failed (or a step
# failed); 2 bad input (no plan or manifest, a FIX line the gate cannot
# read).
set -eu
. "$(dirname "$0")/lib.sh"
need_cmd jq

# The verdicts a FIX may hold a kernel to (testvm/README.md "Verdicts").
# NOT-TESTED is not among them: a fix the guest could not test is never
# proven, whatever a FIX says.
EXPECTABLE="VULNERABLE SURVIVED UNREACHABLE"

# fix_expect <CVE>: the fix's Expect: lines as JSON lines {branch, kind,
# verdict, why}; a line the gate cannot read stops the run (exit 2), so a
# typo never turns into the default silently.
fix_expect() {
	_fc=$1
	# header lines only (lib.sh fix_field): a sentence of the description
	# that starts with "Expect:" is no rule
	fix_field "$_fc" Expect >"$work/expect.$_fc" || exit $?
	while IFS= read -r _l; do
		_head=${_l%%:*} _why=${_l#*:}
		# shellcheck disable=SC2086
		set -- $_head
		[ $# -eq 3 ] && [ "$_head" != "$_l" ] && [ -n "$(printf '%s' "$_why" | tr -d ' ')" ] ||
			die 2 "backports/fixes/$_fc/FIX: 'Expect: $_l' is not '<branch> <kind> <verdict>: <why>'"
		[ -r "$KIT_ROOT/branches/$1.conf" ] ||
			die 2 "backports/fixes/$_fc/FIX: 'Expect: $_l' names branch '$1', which branches/ does not define"
		case $2 in unpatched | patched) ;; *)
			die 2 "backports/fixes/$_fc/FIX: 'Expect: $_l' names kind '$2'; a kind is unpatched or patched" ;; esac
		case " $EXPECTABLE " in *" $3 "*) ;; *)
			die 2 "backports/fixes/$_fc/FIX: 'Expect: $_l' holds a kernel to '$3'; the gate accepts only $EXPECTABLE (NOT-TESTED always fails)" ;; esac
		# a patched kernel left VULNERABLE, or an unpatched one that misses
		# the fix called SURVIVED without proof, would let the gate pass a
		# fix that was never shown to work: UNREACHABLE (proven by the
		# guest) is the only way to say a flaw cannot be shown
		case $2:$3 in patched:VULNERABLE | unpatched:SURVIVED)
			die 2 "backports/fixes/$_fc/FIX: 'Expect: $_l' may not hold the $2 kernel to $3; where the flaw cannot be shown, say UNREACHABLE (the guest must prove it)" ;; esac
		jq -n -c --arg b "$1" --arg k "$2" --arg v "$3" --arg w "$_why" \
			'{branch: $b, kind: $k, verdict: $v, why: ($w | sub("^ +"; ""))}'
	done <"$work/expect.$_fc"
}

# manifest DIR BRANCH [VERIFYDIR]: without VERIFYDIR, the run of make
# verify (from DIR/plan/plan.json); with it, a mutant's
manifest() {
	_d=$1 _b=$2 _mut=${3:-}
	load_branch "$_b"
	# (fixes_of, kit_fixes: lib.sh)
	_all=$(kit_fixes)
	[ -n "$_all" ] || die 2 "the kit carries no fix; nothing to hold a kernel to"
	_na=
	if [ -n "$_mut" ]; then
		_pst=mutant _missing=
	else
		_plan=$_d/plan/plan.json
		[ -r "$_plan" ] || die 2 "no plan in $_plan; the manifest is made from the plan (scripts/plan-series.sh)"
		_pst=$(jq -r '.status' "$_plan") || die 2 "$_plan is not a plan record"
		case $_pst in "full series" | "partly fixed" | "already fixed") ;; *)
			die 2 "$_plan says '$_pst'; a manifest needs a plan that is 'full series', 'partly fixed' or 'already fixed'" ;; esac
		# shellcheck disable=SC2046
		_missing=$(fixes_of $(jq -r '.changes[] | select(.state == "missing") | .change' "$_plan"))
		# a fix none of whose changes applies to the tree (each n/a by
		# its DETECT: the code it fixes is not there) is not affected
		for _f in $_all; do
			fix_changes "$_f" >"$work/changes.$_f"
			jq -e --rawfile c "$work/changes.$_f" '($c | split("\n") | map(select(. != ""))) as $c
			  | [.changes[] | select(.change as $x | $c | index($x)) | .state]
			  | length > 0 and all(. == "n/a")' "$_plan" >/dev/null && _na="$_na $_f"
		done
	fi
	# (a file, not a pipe: a bad Expect: line must stop this shell)
	: >"$work/expect.json"
	for _f in $_all; do
		fix_expect "$_f" >"$work/expect.one"
		jq -c --arg f "$_f" '. + {fix: $f}' "$work/expect.one" >>"$work/expect.json"
	done
	jq -s -c --arg b "$_b" '[.[] | select(.branch == $b)]' "$work/expect.json" >"$work/expect.b.json"
	# The series the patched kernel gets: SERIES_DIR=, else the plan's
	# (the branch's own, or the missing changes' for a partly fixed
	# tree); for TREE= the patched build makes one for the tree
	# (tree-series), whose plan then names it.
	if [ -n "$_mut" ]; then _sfrom=mutant _sdir=${SERIES_DIR:-}
	elif [ -n "${SERIES_DIR:-}" ]; then _sfrom=SERIES_DIR _sdir=$SERIES_DIR
	elif [ -n "${TREE:-}" ]; then _sfrom=tree-series _sdir=
	else _sfrom=plan _sdir=$(jq -r '.series_dir // ""' "$_plan"); fi
	# a 2.6 branch with no series file has nothing to push: its patched
	# kernel is still required, and cannot be booted
	_absent=
	if [ "$_pst" != "already fixed" ] && [ -z "$_mut" ] && [ -z "${SERIES_DIR:-}" ] && [ ! -r "$KIT_ROOT/backports/$_b/series" ]; then
		_absent="no security series (backports/$_b/series)"
	fi
	[ -z "${SERIES_DIR:-}" ] || [ -r "$SERIES_DIR/series" ] ||
		die 2 "SERIES_DIR=$SERIES_DIR has no series file; give a quilt series folder"
	_tree=
	[ -z "${TREE:-}" ] || _tree=$(cd "$TREE" && pwd)
	printf '%s\n' $_missing >"$work/missing"
	printf '%s\n' $_na >"$work/na"
	jq -n --arg name "$(basename "$_d")" --arg b "$_b" --arg commit "${BR_COMMIT:-}" --arg tree "$_tree" \
		--arg sfrom "$_sfrom" --arg sdir "$_sdir" --arg pst "$_pst" --arg absent "$_absent" \
		--arg all "$_all" --rawfile missing "$work/missing" --rawfile na "$work/na" --slurpfile ex "$work/expect.b.json" \
		--arg at "$(date -u +%FT%TZ)" --arg mut "$_mut" '
	  ($all | split("\n") | map(select(. != ""))) as $fixes
	  | ($missing | split("\n") | map(select(. != ""))) as $miss
	  | ($pst == "already fixed") as $fixed
	  | def nz: if . == "" then null else . end;
	    # one fix on one kind: the default, or the FIX file'"'"'s Expect: line
	    def want($k; $f):
	      ([$ex[0][] | select(.kind == $k and .fix == $f)] | last) as $e
	      | if $e then {expected: $e.verdict, why: "Expect: \($e.why) (backports/fixes/\($f)/FIX)"}
	        elif $k == "unpatched" and ($fixed | not) and ($miss | index($f)) then
	          {expected: "VULNERABLE", why: "the tree misses a change of \($f) (plan.json)"}
	        elif $k == "unpatched" then {expected: "SURVIVED", why: "the tree carries every change of \($f) (plan.json)"}
	        else {expected: "SURVIVED", why: "the patched kernel carries every change of \($f)"} end;
	    def kind($k): (reduce $fixes[] as $f ({}; .[$f] = want($k; $f))) as $fx
	      # the kernel as a whole: VULNERABLE when a fix must show its
	      # flaw there, else SURVIVED (an UNREACHABLE fix shows nothing)
	      | {expected: (if any($fx[]; .expected == "VULNERABLE") then "VULNERABLE" else "SURVIVED" end),
	         fixes: $fx};
	  {schema: 1, name: $name, branch: $b,
	   source: {commit: ($commit | nz), tree: ($tree | nz)},
	   plan: $pst,
	   not_affected: ($na | split("\n") | map(select(. != ""))),
	   series: (if $fixed then null else {from: $sfrom, dir: ($sdir | nz)} end),
	   written_at: $at,
	   kinds: (if $mut != "" then {patched: (kind("patched") + {boot: $mut})}
	     else {unpatched: kind("unpatched")}
	     + (if $fixed then {} else {patched: (kind("patched") + (if $absent == "" then {} else {absent: $absent} end))} end) end)}' \
		>"$work/manifest.json" || die 1 "cannot make the manifest of $_d"
	atomic_install "$work/manifest.json" "$_d/manifest.json"
}

# judge DIR
judge() {
	_d=$1 _m=$1/manifest.json
	[ -r "$_m" ] || die 2 "no manifest in $_d (manifest.json); make verify writes it before anything boots"
	jq -e '.schema == 1 and (.kinds | type) == "object" and (.kinds | length) > 0' "$_m" >/dev/null 2>&1 ||
		die 2 "$_m is not a run manifest (schema 1 with kinds); run make verify again"
	# each required kind's boot record of this run: boot.json no older
	# than the manifest (verify-kernel.sh rewrites it even when the
	# verdict is up to date), else none
	: >"$work/boots"
	for _k in $(jq -r '.kinds | keys_unsorted[]' "$_m"); do
		check_name kind "$_k"
		_bd=$(jq -r --arg k "$_k" '.kinds[$k].boot // ""' "$_m")
		[ -n "$_bd" ] || _bd=$_d/$_k/verify
		_bj=$_bd/boot.json
		# (find -newer, not test -ot, which POSIX leaves undefined)
		if [ -r "$_bj" ] && [ -z "$(find "$_m" -newer "$_bj")" ]; then
			jq -c --arg k "$_k" --arg dir "$_bd" '{kind: $k, dir: $dir, boot: .}' "$_bj" >>"$work/boots" ||
				die 1 "$_bj is not a boot record (truncated?); boot the $_k kernel again"
		elif [ -r "$_bj" ]; then
			jq -n -c --arg k "$_k" '{kind: $k, stale: true}' >>"$work/boots"
		fi
	done
	jq --slurpfile bs "$work/boots" --arg at "$(date -u +%FT%TZ)" --arg m "$_m" '
	  . as $man
	  | ($bs | map({key: .kind, value: .}) | from_entries) as $boots
	  | def fixv($b; $f): $b.fixes[$f] // null;
	    def kernel($k; $want):
	      $boots[$k] as $x
	      | if $x == null or $x.stale then
	          {booted: false, verdict: "none", expected: $want.expected, ok: false, verdict_ok: false,
	           why: (if $want.absent then "required, not booted: \($want.absent)"
	                 elif $x.stale then "required, not booted in this run (its boot record is older than the manifest)"
	                 else "required, not booted (no boot record)" end),
	           failed_tests: [],
	           fixes: ($want.fixes | map_values({verdict: "none", expected, ok: false, why}))}
	        else $x.boot as $b
	          | ($want.fixes | to_entries | map(.key as $f | .value as $w | fixv($b; $f) as $v
	              | {key: $f, value: {verdict: ($v.verdict // "none"), expected: $w.expected, why: $w.why,
	                  signature: ($v.signature // "the boot gave this fix no verdict"),
	                  tests: ($v.tests // null), failed_tests: ($v.failed_tests // []),
	                  ok: (($v.verdict // "none") == $w.expected and $v.verdict != "NOT-TESTED")}})
	             | from_entries) as $fx
	          # a boot that stopped in its control phase (parse'"'"'s "phase",
	          # or a fix'"'"'s own control_failed: each fix program has its own;
	          # testvm/README.md) judged nothing of that fix: mutants retry it
	          | ($b.verdict == "INCONCLUSIVE" and any(($b.boots // [])[]; .verdict == "INCONCLUSIVE"
	              and (.phase == "control" or any((.fixes // {})[]; .control_failed == true)))) as $ctl
	          | {booted: true, boot: $x.dir, verdict: $b.verdict, expected: $want.expected, control_failed: $ctl,
	             verdict_ok: ($b.verdict == $want.expected),
	             ok: ($b.verdict == $want.expected and all($fx[]; .ok)),
	             signature: $b.signature, tests: $b.tests, seconds: $b.seconds,
	             up_to_date: ($b.up_to_date // false),
	             failed_tests: ($b.failed_tests // []), fixes: $fx} end;
	    (.kinds | to_entries | map({key: .key, value: kernel(.key; .value)}) | from_entries) as $ks
	  | ([$ks | to_entries[] | .key as $k | .value
	      | if .booted | not then "\($k): \(.why)"
	        else (if .verdict_ok then empty else "\($k): verdict \(.verdict), must be \(.expected)"
	               + (if (.failed_tests | length) > 0 then " (failing: \(.failed_tests | join(", ")))" else "" end) end),
	             (.fixes | to_entries[] | select(.value.ok | not)
	              | "\($k): \(.key) \(.value.verdict), must be \(.value.expected)"
	                + (if .value.verdict == "NOT-TESTED" then " (NOT-TESTED never passes: \(.value.signature))" else "" end))
	        end]) as $reasons
	  | ($reasons | length == 0) as $pass
	  # what the run says of each fix on this branch: "fixed" only where
	  # the gate passed as a whole
	  | (reduce ([$ks[] | .fixes | keys[]] | unique[]) as $f ({};
	      ($ks.unpatched.fixes[$f] // null) as $u | ($ks.patched.fixes[$f] // null) as $p
	      | .[$f] = (if $pass | not then
	          (if any($ks[]; (.fixes[$f].verdict // "none") as $v | $v == "NOT-TESTED" or $v == "none")
	           then {status: "not tested"} else {status: "not fixed"} end)
	          + {why: "the branch'"'"'s gate failed: \($reasons | join("; "))"}
	        elif ($u.expected == "UNREACHABLE") or ($p.expected // "") == "UNREACHABLE" then
	          (if $u.expected == "UNREACHABLE" then $u else $p end).why as $w
	          # the plan decides which: the tree has none of the code the
	          # fix changes (each change n/a), or has it and the patched
	          # kernel carries the fix
	          | if ($man.not_affected // []) | index([$f]) then
	              {status: "not affected", summary: "not affected (its changes are n/a here)", why: $w}
	            elif $p != null then
	              {status: "unreachable", summary: "flaw present, not reachable; fix applied", why: $w}
	            else {status: "unreachable", summary: "flaw present, not reachable", why: $w} end
	        elif $u.expected == "SURVIVED" and ($p == null or $p.expected == "SURVIVED") then {status: "already fixed", why: $u.why}
	        elif $u.expected == "VULNERABLE" and $p != null and $p.expected == "SURVIVED" then
	          {status: "fixed", why: "unpatched VULNERABLE, patched SURVIVED, the gate passed"}
	        else {status: "not fixed", why: "the run did not hold an unpatched kernel to VULNERABLE and a patched one to SURVIVED for it"} end)))
	    as $fixes
	  | {schema: 1, name: .name, branch: .branch, status: (if $pass then "pass" else "fail" end),
	     reasons: $reasons, kernels: $ks, fixes: $fixes, plan: .plan, series: .series,
	     manifest: $m, computed_at: $at}' "$_m" >"$work/gate.json" || die 1 "cannot judge $_d (jq failed)"
	atomic_install "$work/gate.json" "$_d/gate.json"
	[ "$(jq -r .status "$_d/gate.json")" = pass ]
}

work=$(mktemp -d "${TMPDIR:-/tmp}/kit-gate.XXXXXX") || die 1 "cannot make a temp folder"
trap 'rmtree "$work"' EXIT
case ${1:-} in
manifest)
	[ $# -eq 3 ] || die 2 "usage: gate.sh manifest DIR BRANCH"
	[ -d "$2" ] || die 2 "'$2' is not a folder; give OUT/<name>"
	manifest "$2" "$3" ;;
mutant-manifest)
	[ $# -eq 4 ] || die 2 "usage: gate.sh mutant-manifest DIR BRANCH VERIFYDIR"
	[ -d "$2" ] || die 2 "'$2' is not a folder"
	manifest "$2" "$3" "$4" ;;
'' | -*) die 2 "usage: gate.sh DIR, or gate.sh manifest DIR BRANCH" ;;
*)
	[ $# -eq 1 ] || die 2 "usage: gate.sh DIR | manifest DIR BRANCH | mutant-manifest DIR BRANCH VERIFYDIR"
	judge "$1" ;;
esac
