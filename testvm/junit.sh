#!/bin/sh
# junit.sh NAME OUTFILE GATE.JSON: the verification of one branch (or
# TREE= name) as JUnit XML, for a CI engine's test report, made from the
# gate's record (scripts/gate.sh, docs/design.md "The gate"): which kernels
# were required, the verdict each had to get, per fix, and whether it did.
# Nothing is judged here.
#
# For each required kernel that booted (its verify folder, as
# verify-kernel.sh wrote it): one testsuite per boot ("NAME KIND
# [cmdline]"), its verdict, each fix's verdict and signature, and its
# command line as properties, a testcase per guest test (TAP "ok"/"not ok"
# lines of the boot's log; "not ok" is a failure whose text is the test's
# "# ..." diagnostics; "# SKIP" is skipped) under its fix: classname
# "NAME.KIND.<ID>", the fix its name starts with (every fix program names
# its tests "<ID> <class>: ...", testvm/README.md "Fix programs").
# Then, for every required kernel, one testsuite "NAME KIND gate": a
# testcase for the kernel's verdict and one per fix, each failing where
# the gate says it is not ok; a kernel that was not booted has one failing
# testcase saying why.
#
# A fix the gate holds to VULNERABLE (without per-fix entries, every fix
# of a kernel held to VULNERABLE) must fail its "cve-state:" checks: that
# is the exposure shown, so those testcases pass there and say in their
# output that they were not ok, as expected.  Every other failing test
# fails, on every kernel, a fix the tree already has included.
#
# Written atomically (temp file, then rename).  Exit 0 written, 1 a record
# cannot be read, 2 bad usage.
set -u
die() { _rc=$1; shift; printf 'junit.sh: error: %s\n' "$*" >&2; exit "$_rc"; }
[ $# -eq 3 ] || die 2 "usage: junit.sh NAME OUTFILE GATE.JSON"
name=$1 outfile=$2 gate=$3
command -v jq >/dev/null 2>&1 || die 2 "jq is not installed; run 'make deps'"
[ -r "$gate" ] && jq -e '(.kernels | type) == "object"' "$gate" >/dev/null 2>&1 ||
	die 1 "$gate is not a gate record (scripts/gate.sh); run make verify again"

# XML text: escape the five specials, drop control characters but tab.
esc() { LC_ALL=C tr -d '\000-\010\013-\037\177' | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g'; }

tmp=$(mktemp "$outfile.XXXXXX") || die 1 "cannot write beside $outfile"
trap 'rm -f "$tmp" "$tmp.cases" "$tmp.counts" "$tmp.meta" "$tmp.gate" "$tmp.kinds"' EXIT
# KIND<tab>MUST<tab>VERIFYDIR<tab>FIX=MUST,... per required kernel, from the
# gate (VERIFYDIR "-": not booted); one line each, so that a folder with
# blanks in its path stays one field
jq -r '.kernels | to_entries[] | [.key, .value.expected, (.value.boot // "-"),
  ((.value.fixes // {}) | to_entries | map("\(.key)=\(.value.expected)") | join(","))] | @tsv' "$gate" >"$tmp.kinds" ||
	die 1 "cannot read $gate"
tab=$(printf '\t')
{
	echo '<?xml version="1.0" encoding="UTF-8"?>'
	printf '<testsuites name="%s">\n' "$(printf '%s' "$name verification" | esc)"
	while IFS=$tab read -r kind must vdir fixmust <&3; do
		if [ "$vdir" = - ]; then
			printf '  <testsuite name="%s" tests="1" failures="1" skipped="0" errors="0" time="0">\n' "$(printf '%s' "$name $kind gate" | esc)"
			printf '    <testcase classname="%s" name="%s">\n' "$(printf '%s' "$name.$kind" | esc)" "$(printf '%s' "not booted (must be $must)" | esc)"
			printf '      <failure message="not booted">%s</failure>\n' \
				"$(jq -r --arg k "$kind" '.kernels[$k].why // "no boot record"' "$gate" | esc)"
			echo '    </testcase>'
			echo '  </testsuite>'
			continue
		fi
		[ -r "$vdir/boot.json" ] || die 1 "no boot record in $vdir (boot.json); was the $kind kernel booted?"
		verdict=$(jq -r .verdict "$vdir/boot.json") || die 1 "cannot read $vdir/boot.json"
		for bj in "$vdir"/boot-*.json; do
			[ -r "$bj" ] || continue
			log=${bj%.json}.log
			# one jq per boot: its tag and seconds, then its properties
			jq -r --arg kv "$verdict" --arg must "$must" --arg log "$log" '
				def esc: gsub("[\\x00-\\x08\\x0b-\\x1f\\x7f]"; "") | gsub("&"; "&amp;")
				         | gsub("<"; "&lt;") | gsub(">"; "&gt;") | gsub("\""; "&quot;");
				def prop(n; v): "      <property name=\"\(n)\" value=\"\(v | tostring | esc)\"/>";
				(.cmdline | sub("^console=ttyS0 panic=1 oops=panic ?"; "") | sub("kit.runs=[0-9]+ ?"; "")
				 | if . == "" then "default" else . end) + "\t\(.seconds)\t\(.fixes // {} | keys_unsorted | first // "")",
				prop("boot_verdict"; .verdict), prop("kernel_verdict"; $kv), prop("must_be"; $must),
				(.fixes // {} | to_entries[] | prop("fix \(.key) verdict"; .value.verdict),
				                               prop("fix \(.key) signature"; .value.signature)),
				prop("cmdline"; .cmdline), prop("signature"; .signature), prop("log"; $log)' \
				"$bj" >"$tmp.meta" || die 1 "cannot read $bj"
			IFS='	' read -r tag secs base <"$tmp.meta"
			suite="$name $kind [$tag]"
			tr -d '\r' <"$log" 2>/dev/null | awk -v must="$must" -v fm="$fixmust" -v cls="$(printf '%s' "$name.$kind" | esc)" -v base="$base" '
				function flush() {
					if (tname == "") return
					n++
					body = body "    <testcase classname=\"" cls tfix "\" name=\"" tname "\">\n"
					if (state == "fail") {
						f++
						body = body "      <failure message=\"not ok\">" diag "</failure>\n"
					} else if (state == "xfail") {
						body = body "      <system-out>not ok on this kernel, as it must be where the fix is missing (the exposure shown)" (diag == "" ? "" : ": " diag) "</system-out>\n"
					} else if (state == "skip") {
						s++
						body = body "      <skipped message=\"" why "\"/>\n"
					}
					body = body "    </testcase>\n"
					tname = ""; diag = ""
				}
				function mustof(fx,   i, n, a, kv) {
					if (fm == "") return must
					n = split(fm, a, ",")
					for (i = 1; i <= n; i++) { split(a[i], kv, "="); if (kv[1] == fx) return kv[2] }
					return "SURVIVED"
				}
				function x(t) { gsub(/&/, "\\&amp;", t); gsub(/</, "\\&lt;", t); gsub(/>/, "\\&gt;", t); gsub(/"/, "\\&quot;", t); gsub(/[\001-\010\013-\037\177]/, "", t); return t }
				/^(not )?ok [0-9]+/ {
					flush()
					line = $0
					notok = (line ~ /^not ok/)
					sub(/^(not )?ok [0-9]+( - )?/, "", line)
					why = ""
					if (match(line, /[ \t]*# *SKIP/)) { why = x(substr(line, RSTART + RLENGTH)); sub(/^ */, "", why); line = substr(line, 1, RSTART - 1); state = "skip" }
					else if (!notok) state = "pass"
					else {
						fx = match(line, /^CVE-[0-9]+-[0-9]+ /) ? substr(line, 1, RLENGTH - 1) : base
						state = (mustof(fx) == "VULNERABLE" && line ~ /^(CVE-[0-9]+-[0-9]+ )?cve-state:/) ? "xfail" : "fail"
					}
					tname = x(line)
					tfix = match(line, /^CVE-[0-9]+-[0-9]+ /) ? "." substr(line, 1, RLENGTH - 1) : (base == "" ? "" : "." base)
					next
				}
				/^# / && tname != "" && (state == "fail" || state == "xfail") { d = $0; sub(/^# /, "", d); diag = diag (diag == "" ? "" : "\n") x(d); next }
				END { flush(); printf "%d %d %d\n", n, f, s > "/dev/stderr"; printf "%s", body }
			' >"$tmp.cases" 2>"$tmp.counts" || die 1 "cannot read $log"
			read -r n f s <"$tmp.counts"
			printf '  <testsuite name="%s" tests="%s" failures="%s" skipped="%s" errors="0" time="%s">\n' \
				"$(printf '%s' "$suite" | esc)" "$n" "$f" "$s" "$secs"
			echo '    <properties>'
			sed 1d "$tmp.meta"
			echo '    </properties>'
			cat "$tmp.cases"
			echo '  </testsuite>'
		done
		# the gate: this kernel's verdict against the one it must get, then
		# each fix's (FIX=MUST) against the one that fix must get
		kok=$(jq -r --arg k "$kind" '.kernels[$k].verdict_ok' "$gate") || die 1 "cannot read $gate"
		gf=0; [ "$kok" = true ] || gf=1
		gn=1
		: >"$tmp.gate"
		for fm in $(printf '%s' "$fixmust" | tr ',' ' '); do
			fx=${fm%%=*} fwant=${fm#*=}
			fgot=$(jq -r --arg f "$fx" '.fixes[$f].verdict // "none (not judged in this boot)"' "$vdir/boot.json") ||
				die 1 "cannot read $vdir/boot.json"
			gn=$((gn + 1))
			printf '    <testcase classname="%s" name="%s">\n' "$(printf '%s' "$name.$kind.$fx" | esc)" \
				"$(printf '%s' "$fx verdict $fgot (must be $fwant)" | esc)" >>"$tmp.gate"
			fok=$(jq -r --arg k "$kind" --arg f "$fx" '.kernels[$k].fixes[$f].ok' "$gate") || die 1 "cannot read $gate"
			if [ "$fok" != true ]; then
				gf=$((gf + 1))
				printf '      <failure message="%s">%s</failure>\n' "$(printf '%s' "$fx verdict $fgot, must be $fwant" | esc)" \
					"$(jq -r --arg f "$fx" '.fixes[$f].signature // "the boot gave this fix no verdict"' "$vdir/boot.json" | esc)" >>"$tmp.gate"
			fi
			echo '    </testcase>' >>"$tmp.gate"
		done
		printf '  <testsuite name="%s" tests="%s" failures="%s" skipped="0" errors="0" time="%s">\n' \
			"$(printf '%s' "$name $kind gate" | esc)" "$gn" "$gf" \
			"$(jq -r .seconds "$vdir/boot.json")"
		printf '    <properties><property name="verdict" value="%s"/><property name="must_be" value="%s"/>%s</properties>\n' \
			"$(printf '%s' "$verdict" | esc)" "$must" \
			"$(jq -r 'def esc: gsub("&"; "&amp;") | gsub("<"; "&lt;") | gsub(">"; "&gt;") | gsub("\""; "&quot;");
				.fixes // {} | to_entries | map("<property name=\"fix \(.key | esc) verdict\" value=\"\(.value.verdict | esc)\"/>")
				| join("")' "$vdir/boot.json")"
		printf '    <testcase classname="%s" name="%s">\n' "$(printf '%s' "$name.$kind" | esc)" \
			"$(printf '%s' "verdict $verdict (must be $must)" | esc)"
		[ "$kok" = true ] ||
			printf '      <failure message="verdict %s, must be %s">%s</failure>\n' "$verdict" "$must" \
				"$(jq -r '.signature + (if (.failed_tests // []) == [] then "" else "; failing tests: " + (.failed_tests | join("; ")) end)' "$vdir/boot.json" | esc)"
		echo '    </testcase>'
		cat "$tmp.gate"
		echo '  </testsuite>'
	done 3<"$tmp.kinds"
	echo '</testsuites>'
} >"$tmp" || exit $?
mv -f "$tmp" "$outfile" || die 1 "cannot write $outfile"
