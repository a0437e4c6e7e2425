#!/bin/sh
# report.sh: render docs/results.md from $OUT/*/result.json alone (no
# number is typed by hand).  REPORT=<file> writes elsewhere; MUTANTS_OUT
# and CROSS_OUT take the mutants table and the cross matrix (with the
# ppc64 boot) from other output roots.  Without any mutants, the previous
# report's table is kept and labelled as such.
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
	mrows=$(for b in $(list_branches); do
		r=${MUTANTS_OUT:-$OUT}/$b/result.json
		[ -r "$r" ] || continue
		jq -r '(.mutants // {}) | to_entries[] | "| \(input_filename | split("/") | .[-2]) | \(.key) (\(.value.dropped)) | \(.value.verdict) | \(.value.caught_by | gsub("\\|"; "/")) |"' "$r"
	done)
	prev=$KIT_ROOT/docs/results.md
	if [ -z "$mrows" ] && [ -r "$prev" ] && grep -q '^## Mutants' "$prev"; then
		# Mutants are not part of make check (a kernel build per patch):
		# an output root without them keeps the previous report's table,
		# said so, rather than losing it.
		sed -n '/^## Mutants/,/^## /p' "$prev" | sed '$ { /^## /d; }' | sed '/^(kept from/,/^$/d' | sed '/^$/d' |
			sed '1a \\n(kept from the previous report: this output root has no mutants; `make mutants BRANCH=<b>` refreshes it)\n'
		echo
	else
		echo "## Mutants (make mutants): each x86 patch taken out in turn"
		echo
		[ "${MUTANTS_OUT:-$OUT}" = "$OUT" ] || echo "(from the run in another output root: mutants are not part of make check)"
		echo
		echo "| branch | patch | verdict | what caught it |"
		echo "|---|---|---|---|"
		[ -z "$mrows" ] || printf '%s\n' "$mrows"
		echo
	fi
	echo "## Cross matrix (make cross / cross-all): every patched loader compiled where it builds"
	echo
	[ "${CROSS_OUT:-$OUT}" = "$OUT" ] || echo "(from the run in another output root)"
	echo
	echo "Each object built unpatched and patched with Debian's cross compilers; 'ok'"
	echo "means no new warning, the functions each patch changed (objdiff) are"
	echo "exactly cross/expect/<change>.expect, and every patched loader calls"
	echo "setup_new_exec (cross/check-calls.sh)."
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
	echo
	echo "## ppc64 boot (make ppc64-boot): the stretch, how far it got"
	echo
	echo "A whole patched ppc64 pSeries kernel under qemu-system-ppc64 (cross/README.md)."
	echo
	n=0
	for b in $(list_branches); do
		t=${CROSS_OUT:-$OUT}/$b/ppc64-boot/result.txt
		[ -r "$t" ] || continue
		echo "- $b: $(cat "$t")"
		n=$((n + 1))
	done
	[ $n -gt 0 ] || echo "- not run in this output root"
} | atomic_write "$dst"
echo "report: wrote ${dst#"$KIT_ROOT"/}" >&2
