#!/bin/sh
# report.sh: render docs/results.md from $OUT/*/result.json alone (no
# number is typed by hand).  REPORT=<file> writes elsewhere; MUTANTS_OUT
# takes the mutants table from another output root.
set -eu
. "$(dirname "$0")/lib.sh"
need_cmd jq
dst=${REPORT:-$KIT_ROOT/docs/results.md}
{
	echo "# Results"
	echo
	echo "Rendered by \`make report\` from out/*/result.json on $(date -u +%F);"
	echo "every figure below comes from a run, not from a hand."
	echo
	echo "## Builds (unpatched and patched, this machine's toolchain)"
	echo
	echo "| branch | base | unpatched | config+make s | patched | config+make s | gcc | host series |"
	echo "|---|---|---|---|---|---|---|---|"
	for b in $(list_branches); do
		r=$OUT/$b/result.json
		[ -r "$r" ] || { echo "| $b | - | not run | | | | | |"; continue; }
		jq -r '"| \(.branch) | \((.base_commit // .source // "-") | .[0:12]) | \(.build.unpatched.status // "-") | \(.build.unpatched.seconds // "-") | \(.build.patched.status // "-") | \(.build.patched.seconds // "-") | \(.toolchain.gcc // "-" | sub("gcc \\(Debian "; "") | sub("\\).*"; "")) | \((.build.unpatched.host_series // []) | length) patches |"' "$r"
	done
	echo
	echo "## Verdicts (QEMU, blind verifier)"
	echo
	echo "| branch | unpatched | tests p/f/s | s to verdict | patched | tests p/f/s | s to verdict |"
	echo "|---|---|---|---|---|---|---|"
	for b in $(list_branches); do
		r=$OUT/$b/result.json
		[ -r "$r" ] || continue
		jq -r 'def t(x): if x then "\(x.tests.passed)/\(x.tests.failed)/\(x.tests.skipped)" else "-" end;
		  "| \(.branch) | \(.boots.unpatched.verdict // "-") | \(t(.boots.unpatched)) | \(.boots.unpatched.seconds // "-") | \(.boots.patched.verdict // (.security.status // "-")) | \(t(.boots.patched)) | \(.boots.patched.seconds // "-") |"' "$r"
	done
	echo
	echo "## Signatures"
	echo
	for b in $(list_branches); do
		r=$OUT/$b/result.json
		[ -r "$r" ] || continue
		jq -r '[(.boots // {}) | to_entries[] | "- \(.key): \(.value.verdict): \(.value.signature)"] as $l
		  | if ($l | length) > 0 then "### \(.branch)\n\n" + ($l | join("\n")) + "\n" else empty end' "$r"
	done
	echo
	echo "## Mutants (make mutants): each x86 patch taken out in turn"
	echo
	[ "${MUTANTS_OUT:-$OUT}" = "$OUT" ] || echo "(from the run in another output root: mutants are not part of make check)"
	echo
	echo "| branch | patch | verdict | what caught it |"
	echo "|---|---|---|---|"
	for b in $(list_branches); do
		r=${MUTANTS_OUT:-$OUT}/$b/result.json
		[ -r "$r" ] || continue
		jq -r '(.mutants // {}) | to_entries[] | "| \(input_filename | split("/") | .[-2]) | \(.key) (\(.value.dropped)) | \(.value.verdict) | \(.value.caught_by | gsub("\\|"; "/")) |"' "$r"
	done
	echo
	echo "## Cross matrix (make cross / cross-all): every patched loader compiled where it builds"
	echo
	[ "${CROSS_OUT:-$OUT}" = "$OUT" ] || echo "(from the run in another output root)"
	echo
	echo "Each object built unpatched and patched with Debian's cross compilers; 'ok'"
	echo "means no new warning and the functions each patch changed (objdiff) are"
	echo "exactly cross/expect/<change>.expect."
	echo
	echo "| branch | cell | status | objects | note |"
	echo "|---|---|---|---|---|"
	for b in $(list_branches); do
		r=${CROSS_OUT:-$OUT}/$b/result.json
		[ -r "$r" ] || continue
		jq -r '(.cross.cells // {}) | to_entries[] | .value as $c
		  | "| \(input_filename | split("/") | .[-2]) | \(.key) | \($c.status) | \(
		      if (($c.objects // {}) | length) > 0 then (($c.objects // {}) | to_entries | map("\(.key | split("/") | .[-1]) \(.value.status)") | join(", "))
		      else (($c.planned // []) | map(split("/") | .[-1]) | join(", ")) end) | \(
		      if $c.status == "skipped" then ($c.reason | gsub("\\|"; "/")) + (if (($c.tokens // {}) | length) > 0 then " (tokens: " + (($c.tokens // {}) | to_entries | map(.value) | join(", ")) + ")" else "" end)
		      elif $c.status == "failed" then ($c.reason | gsub("\\|"; "/"))
		      else "\([$c.changed_functions[]? | .function] | unique | length) functions changed across the series" end) |"' "$r"
	done
	echo
	echo "### Functions changed per patch (union over cells)"
	echo
	echo "| branch | patch | functions |"
	echo "|---|---|---|"
	for b in $(list_branches); do
		r=${CROSS_OUT:-$OUT}/$b/result.json
		[ -r "$r" ] || continue
		jq -r '[(.cross.cells // {})[] | .changed_functions[]?] | group_by(.change)[]
		  | "| \(input_filename | split("/") | .[-2]) | \(.[0].change) | \(map(.function) | unique | join(", ")) |"' "$r"
	done
} | atomic_write "$dst"
echo "report: wrote ${dst#"$KIT_ROOT"/}" >&2
