#!/bin/sh
# report.sh: render docs/results.md from result files alone (no number is
# typed by hand, and no table is carried over from an earlier report).
#
#   OUT          the output root of the run reported (builds, verdicts, gate)
#   MUTANTS_OUT  where `make mutants` wrote its result files (default OUT)
#   CROSS_OUT    where `make cross` wrote its result files (default OUT)
#   REPORT       the file to write (default docs/results.md)
#   REPORT_HTML  the HTML page (default: REPORT with .html for .md;
#                scripts/report-html.sh, which also copies it to OUT)
#
# Each table says which result files it comes from and when they were
# measured.  A table whose results are absent says "not measured in this
# output root" and the command that measures it.
#
# Exit 0 written; 1 a result file (or gate record) cannot be read, or is
# not one the kit wrote (scripts/result-check.sh: named, with the field;
# the report is left as it was); 2 nothing to report (no result file under
# OUT).
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/result-check.sh"
need_cmd jq
dst=${REPORT:-$KIT_ROOT/docs/results.md}
mroot=${MUTANTS_OUT:-$OUT}
croot=${CROSS_OUT:-$OUT}

# Every result file that will be read must be a JSON object: a truncated
# or edited one is named, and nothing is written.
found=0
for root in "$OUT" "$mroot" "$croot"; do
	for b in $(list_branches); do
		r=$root/$b/result.json
		[ -e "$r" ] || continue
		[ "$root" = "$OUT" ] && found=$((found + 1))
		[ "$(jq -s 'length == 1 and (.[0] | type) == "object"' "$r" 2>/dev/null)" = true ] ||
			die 1 "$r is not a readable result file (truncated or not JSON); rerun 'make verify BRANCH=$b' (or remove it); $dst left as it was"
	done
done
[ "$found" -gt 0 ] ||
	die 2 "nothing to report: no <branch>/result.json under OUT=$OUT; run 'make verify-all' (or set OUT= to a run's output root); $dst left as it was"
# ... and one this kit wrote: its layout version, verdict names, test
# counts, and a gate that agrees with its verdicts (scripts/result-check.sh)
records_refuse "$dst left as it was" "$OUT" "$mroot" "$croot"

# rows <root> <jq program> [jq arguments after the file, e.g. --args ...]:
# the program over each branch's result file under <root>, in branch order.  jq's failure stops the report (set -e).
rows() {
	_root=$1 _prog=$2
	shift 2
	for _b in $(list_branches); do
		_r=$_root/$_b/result.json
		[ -r "$_r" ] || continue
		jq -r "$_prog" "$_r" "$@"
	done
}

# whence <root> <jq path of a timestamp>: "from <label>/<b>/result.json
# (<when>, kit <commit>)" for each branch that has the data: where and when
# the table's figures were measured.
whence() {
	rows "$1" "($2) as \$t | select(\$t != null)
	  | \"- \(.branch): \(\$t), kit \(.provenance.kit_commit // \"?\")\""
}

render() {
	echo "# Results"
	echo
	# the sentence and the branch x fix matrix first (scripts/summary.sh;
	# exit 2: no branch has a gate record)
	_src=0; sh "$KIT_ROOT/scripts/summary.sh" 2>/dev/null || _src=$?
	case $_src in
	0) ;;
	2) echo "**Summary:** no branch of this run has a gate record (\`make verify\` writes it): nothing was judged." ;;
	*) die 1 "scripts/summary.sh failed (exit $_src) on OUT=$OUT; $dst left as it was" ;;
	esac
	echo
	# what a release manager ships, and what the run does not prove
	# (scripts/ship.sh: "What to ship", "Open items")
	sh "$KIT_ROOT/scripts/ship.sh" || die 1 "scripts/ship.sh failed on OUT=$OUT; $dst left as it was"
	echo
	echo "## Where the figures come from"
	echo
	echo "Rendered by \`make report\` on $(date -u +%F) from the result files of one"
	echo "run (\`<OUT>/<branch>/result.json\`); every figure comes from a run, not"
	echo "from a hand, and no table is carried over from an earlier report."
	echo "What each verdict means: testvm/README.md, \"Verdicts\"."
	echo
	echo "Verdicts and builds, recorded:"
	echo
	whence "$OUT" '.provenance.recorded_at'
	echo
	echo "## Gate (make verify / verify-all: is every kernel what it must be?)"
	echo
	echo "Each branch's gate record (\`<OUT>/<branch>/gate.json\`, scripts/gate.sh;"
	echo "docs/design.md \"The gate\"), as it was computed; nothing is judged here."
	echo
	echo "| branch | gate | unpatched: verdict (must be) | patched: verdict (must be) | per fix | why not pass |"
	echo "|---|---|---|---|---|---|"
	for _b in $(list_branches); do
		_g=$OUT/$_b/gate.json
		if [ ! -r "$_g" ]; then
			[ ! -r "$OUT/$_b/result.json" ] || echo "| $_b | not run | - | - | - | no gate record |"
			continue
		fi
		jq -r 'def k(x): if x == null then "-" elif (x.booted | not) then "not booted (\(x.expected))"
		    else "\(x.verdict) (\(x.expected))" end;
		  def cell: gsub("\\|"; "/");
		  "| \(.name) | \(.status) | \(k(.kernels.unpatched)) | \(if .kernels.patched then k(.kernels.patched) else (.plan // "-") end) | \(
		    [.fixes | to_entries[] | "\(.key) \(.value.summary // (if .value.status == "unreachable" then "flaw present, not reachable" else .value.status end))"]
		    | if length == 0 then "-" else join("; ") | cell end) | \(if (.reasons | length) > 0 then (.reasons | join("; ") | cell) else "-" end) |"' "$_g"
	done
	echo
	echo "## Builds (unpatched and patched, this machine's toolchain)"
	echo
	echo "| branch | base | unpatched | config+make s | patched | config+make s | gcc | host series |"
	echo "|---|---|---|---|---|---|---|---|"
	rows "$OUT" '"| \(.branch) | \((.base_commit // .source // "-") | .[0:12]) | \(.build.unpatched.status // "-") | \(.build.unpatched.seconds // "-") | \(.build.patched.status // "-") | \(.build.patched.seconds // "-") | \(.toolchain.gcc // "-" | sub("gcc \\(Debian "; "") | sub("\\).*"; "")) | \((.build.unpatched.host_series // []) | length) patches |"'
	echo
	echo "## Verdicts (QEMU, blind verifier)"
	echo
	echo "| branch | unpatched | tests p/f/s | s to verdict | patched | tests p/f/s | s to verdict |"
	echo "|---|---|---|---|---|---|---|"
	rows "$OUT" 'def t(x): if x then "\(x.tests.passed)/\(x.tests.failed)/\(x.tests.skipped)" else "-" end;
	  "| \(.branch) | \(.boots.unpatched.verdict // "-") | \(t(.boots.unpatched)) | \(.boots.unpatched.seconds // "-") | \(.boots.patched.verdict // (.security.status // "-")) | \(t(.boots.patched)) | \(.boots.patched.seconds // "-") |"'
	echo
	echo "## Per fix (one boot per kernel runs every fix's tests)"
	echo
	# the fixes any boot of this run reports (boots.<kind>.fixes), in order
	_fixes=$(rows "$OUT" '(.boots // {}) | .[] | (.fixes // {}) | keys[]' | sort -u | tr '\n' ' ')
	if [ -z "$_fixes" ]; then
		echo "No boot of this run reports verdicts per fix (a guest older than the per-fix one)."
	else
		printf '| branch | kernel |'; for _f in $_fixes; do printf ' %s |' "$_f"; done; echo
		printf '|---|---|'; for _f in $_fixes; do printf -- '---|'; done; echo
		rows "$OUT" '.branch as $branch | (.boots // {}) | to_entries[] | .key as $k | .value as $b
		  | "| \($branch) | \($k) | " +
		    ([$ARGS.positional[] as $f | ($b.fixes[$f] // null)
		      | if . == null then "-" elif .verdict == "NOT-TESTED" then "NOT-TESTED (\(.signature // "?"))" else .verdict end]
		     | join(" | ")) + " |"' --args $_fixes
	fi
	echo
	echo "## Signatures"
	echo
	rows "$OUT" '[(.boots // {}) | to_entries[] | "- \(.key): \(.value.verdict): \(.value.signature)"] as $l
	  | if ($l | length) > 0 then "### \(.branch)\n\n" + ($l | join("\n")) + "\n" else empty end'
	echo
	echo "## Provenance"
	echo
	echo "| branch | kit | series sha256 | host series sha256 | gcc | binutils | spatch | QEMU |"
	echo "|---|---|---|---|---|---|---|---|"
	rows "$OUT" 'def s(x): (x // "-") | tostring | .[0:12];
	  .provenance as $p | select($p != null)
	  | "| \(.branch) | \($p.kit_commit) | \(s($p.series_sha256)) | \(s($p.host_series_sha256)) | \($p.gcc | sub("gcc \\(Debian "; "") | sub("\\).*"; "")) | \($p.binutils | sub(".*\\) "; "")) | \($p.spatch | sub("spatch version "; "") | sub(" .*"; "")) | \($p.qemu | sub("QEMU emulator version "; "") | sub(" .*"; "")) |"'
	echo
	echo "## Mutants (make mutants): each patch, and each whole fix, taken out in turn; judged by that fix's verdict, every other fix SURVIVED"
	echo
	m=$(rows "$mroot" '(.mutants // {}) | to_entries[] | "| \(.value.branch // (input_filename | split("/") | .[-2])) | \(.key) (\(.value.dropped)) | \(.value.verdict) | \(.value.caught_by | gsub("\\|"; "/")) |"')
	if [ -n "$m" ]; then
		echo "Measured:"
		echo
		rows "$mroot" '(.mutants // {}) as $m | select(($m | length) > 0)
		  | "- \(.branch // (input_filename | split("/") | .[-2])): \([$m[] | .measured_at // "time not recorded"] | unique | join(", ")), kit \([$m[] | .kit_commit // "?"] | unique | join(", "))"'
		echo
		echo "| branch | patch | verdict | what caught it |"
		echo "|---|---|---|---|"
		printf '%s\n' "$m"
	else
		echo "Not measured in this output root (a kernel build per patch, so not part"
		echo "of make check): \`make mutants BRANCH=<b>\`, then \`MUTANTS_OUT=<that OUT> make report\`."
	fi
	echo
	echo "## Cross matrix (make cross / cross-all): every patched loader compiled where it builds"
	echo
	c=$(rows "$croot" '(.cross.cells // {}) | to_entries[] | .value as $c
	  | "| \(input_filename | split("/") | .[-2]) | \(.key) | \($c.status)\(
	      if $c.cache.hit then " (cross cache, measured \($c.measured_at))" else "" end) | \(
	      if (($c.objects // {}) | length) > 0 then (($c.objects // {}) | to_entries | map("\(.key | split("/") | .[-1]) \(.value.status)") | join(", "))
	      else (($c.planned // []) | map(split("/") | .[-1]) | join(", ")) end) | \(
	      if $c.status == "skipped" then ($c.reason | gsub("\\|"; "/")) + (if (($c.tokens // {}) | length) > 0 then " (tokens: " + (($c.tokens // {}) | to_entries | map(.value) | join(", ")) + ")" else "" end)
	      elif $c.status == "failed" then ($c.reason | gsub("\\|"; "/"))
	      else "\([$c.changed_functions[]? | .function] | unique | length) functions changed across the series" end) |"')
	if [ -n "$c" ]; then
		echo "Measured:"
		echo
		whence "$croot" '.cross.measured_at // .cross.date'
		echo
		echo "Each object built unpatched and patched with Debian's cross compilers; 'ok'"
		echo "means no new warning, the functions each patch changed (objdiff) are"
		echo "exactly backports/fixes/<fix>/cross/<change>.expect, and every patched object"
		echo "defines or calls what its fixes' cross/calls name (cross/check-calls.sh)."
		echo "A cell marked 'cross cache' was"
		echo "served from KIT_CACHE/cross under a key naming all its inputs; its"
		echo "figures are those of the run that measured it (docs/design.md)."
		echo
		echo "| branch | cell | status | objects | note |"
		echo "|---|---|---|---|---|"
		printf '%s\n' "$c"
		echo
		echo "### Functions changed per patch (union over cells)"
		echo
		echo "| branch | patch | functions |"
		echo "|---|---|---|"
		rows "$croot" '[(.cross.cells // {})[] | .changed_functions[]?] | group_by(.change)[]
		  | "| \(input_filename | split("/") | .[-2]) | \(.[0].change) | \(map(.function) | unique | join(", ")) |"'
	else
		echo "Not measured in this output root: \`make cross BRANCH=<b>\` (or cross-all),"
		echo "then \`CROSS_OUT=<that OUT> make report\`."
	fi
	echo
	echo "## ppc64 boot (make ppc64-boot): the stretch, how far it got"
	echo
	echo "A whole patched ppc64 pSeries kernel under qemu-system-ppc64 (cross/README.md)."
	echo
	n=0
	for b in $(list_branches); do
		t=$croot/$b/ppc64-boot/result.txt
		[ -r "$t" ] || continue
		echo "- $b: $(cat "$t")"
		n=$((n + 1))
	done
	[ $n -gt 0 ] || echo "- not run in this output root"
	echo
	echo "## Benchmark (make bench): measured, never asserted"
	echo
	b=${BENCH_OUT:-$OUT}/bench.json
	if [ -r "$b" ]; then
		jq -e .stages "$b" >/dev/null 2>&1 || die 1 "$b is not a bench record; run make bench again"
		jq -r '"Measured \(.measured_at) by kit \(.kit) on \(.machine.cores) cores (\(.machine.cpu)), \(.machine.memory_mib) MiB, host kernel \(.machine.host_kernel); branches: \(.branches | join(" ")).",
		  (if [.stages | keys[] | select(. != "overhead" and . != "check" and . != "check-warm")] == [] then empty else
		   "", "| stage | seconds | kernels built | from the build cache | up to date | booted | exit | load before |",
		   "|---|---|---|---|---|---|---|---|" end),
		  (.stages | to_entries[] | select(.key != "overhead" and .key != "check" and .key != "check-warm") | .value as $v
		   | "| \(.key)\(if $v.changed then " (" + $v.changed + ")" else "" end)\(if $v.after then " (after " + $v.after + ")" else "" end) | \($v.seconds) | \($v.kernels_built) | \($v.kernels_from_cache) | \($v.kernels_up_to_date) | \($v.kernels_booted // "-") | \($v.exit) | \($v.load_before) |"),
		  (.stages | to_entries[] | select(.value.ratio_to_make_and_boots != null) | .value as $v
		   | "", "\(.key): \($v.seconds) s against the \($v.make_seconds) s its kernels'"'"' config+make took\(if $v.seeded == false then " (every kernel built from clean, KIT_SEED=0)" else "" end) and the \($v.boot_seconds) s of its QEMU runs (every command line of every kernel): \($v.ratio_to_make_and_boots) times their sum."),
		  (.stages.overhead // empty
		   | if .branches then
		       "", "Overhead: the kit'"'"'s whole unpatched build (build cache off) against a bare make -j bzImage of the same configured tree (a fresh tree of the same source and host patches, the kit'"'"'s .config, nothing built), per branch\(if .runs then ", each the mean of \(.runs) runs (the kit first in odd ones, the bare make in even ones)" else "" end); mean ratio \(.mean_ratio // "-").",
		       "", "| branch | kit, whole build (s) | kit, config+make (s) | bare make (s) | ratio | kit runs (s) | bare runs (s) | kit .config from the configuration cache | load before |", "|---|---|---|---|---|---|---|---|---|",
		       (.branches | to_entries[] | "| \(.key) | \(.value.kit_build_seconds) | \(.value.kit_config_make_seconds) | \(.value.bare_make_seconds) | \(.value.ratio // "-") | \(.value.runs.kit // [] | map(tostring) | join(", ")) | \(.value.runs.bare // [] | map(tostring) | join(", ")) | \(.value.runs.kit_config_from_cache // [] | join(", ")) | \(.value.load_before) |")
		     else "", "Overhead, \(.branch): the kit'"'"'s whole build \(.kit_build_seconds) s (config+make \(.kit_config_make_seconds) s) against a bare make -j bzImage of the same configured tree \(.bare_make_seconds) s." end),
		  (.stages | to_entries[] | select(.key == "check" or .key == "check-warm") | .value
		   | "", "make check on a fresh clone of kit \(.kit_commit[0:12]), build caches \(.caches): \(.seconds) s, exit \(.exit); \(if .summary == "" then "no summary line" else .summary end); load before \(.load_before)."
		     + (if .cpu_seconds then " The machine'"'"'s CPU time meanwhile: \(.cpu_seconds) s, \(.cores_busy) cores busy on average (of \(.cores)): a run whose cores stay busy takes no less than its CPU time over the cores." else "" end),
		     (if .phases then "", "Its phases (where its line says the unit phase ran beside the others, or the end-to-end files in two lanes, they add up to more than the whole):",
		       "", "| phase | seconds |", "|---|---|", (.phases | to_entries[] | "| \(.key) | \(.value) |") else empty end))' "$b"
	else
		echo "Not measured in this output root: \`make bench\` (then \`make report\`; BENCH_OUT=<that OUT>)."
	fi
}

tmp=$(mktemp "${TMPDIR:-/tmp}/report.XXXXXX")
trap 'rm -f "$tmp"' EXIT
render >"$tmp"
# Every output or none: each folder written to must take a new file before
# the first is replaced (a read-only OUT once left a new results.html
# beside the old results.md)
html=${REPORT_HTML:-${dst%.md}.html}
for d in "$dst" "$html" "$OUT/report.html"; do
	[ -w "$(dirname "$d")" ] || die 1 "cannot write to $(dirname "$d") (for ${d##*/}); nothing replaced: $dst, $html and $OUT/report.html are as they were"
done
# the same run as one HTML page beside it (and in OUT): scripts/report-html.sh;
# its refusal keeps this report as it was too
REPORT_HTML=$html sh "$KIT_ROOT/scripts/report-html.sh"
atomic_install "$tmp" "$dst"
echo "report: wrote ${dst#"$KIT_ROOT"/}" >&2
# The fix records (OSV JSON, cip-kernel-sec YAML) from the same result
# files, in $OUT/records/ (scripts/records.sh; its exit status is ours).
sh "$KIT_ROOT/scripts/records.sh"
