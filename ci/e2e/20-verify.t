#!/bin/sh
# lane: kernels
# The proof and the gate: unpatched 2.6 kernels are VULNERABLE; patched ones
# and the Debian 6.1 oracle SURVIVE with every regression test passing; and
# verify.sh's exit status says so (0 only when every kernel is what it must
# be).  Each fix the series carries is held on its own verdict from the
# same boot (gate.kernels.<kind>.fixes.<CVE>): VULNERABLE unpatched (or,
# on a tree that already has it, SURVIVED), SURVIVED patched.  Each
# kernel's line says whether it was built or served from the build cache.  Verdicts: testvm/README.md "Verdicts".
. ci/e2e/lib.sh
kit_fixes=$(KIT_ROOT=$PWD sh -c '. scripts/lib.sh && kit_fixes')
for b in $(e2e_branches); do
	need_source "$b" "$b verify" || continue
	sh scripts/verify.sh "$b" >"$OUT/.e2e-verify.log" 2>&1
	rc=$?
	r=$OUT/$b/result.json
	if ! jq -e '.gate.kernels' "$r" >/dev/null 2>&1; then
		t_fail "$b verify gives verdicts" "exit $rc: $(tail -3 "$OUT/.e2e-verify.log")"; continue
	fi
	load_branch "$b"
	u=$(jq -r '.boots.unpatched.verdict' "$r")
	if [ "$BR_SOURCE" = apt ]; then
		f=$(jq -r '.boots.unpatched.tests.failed' "$r")
		[ "$u" = SURVIVED ] && [ "$f" = 0 ] && t_ok "$b (already fixed) SURVIVED, suite passes" ||
			t_fail "$b (already fixed) SURVIVED, suite passes" "verdict $u, failed $f: $(jq -r .boots.unpatched.signature "$r")"
	else
		[ "$u" = VULNERABLE ] && t_ok "$b unpatched is VULNERABLE: $(jq -r .boots.unpatched.signature "$r" | cut -c1-100)" ||
			t_fail "$b unpatched is VULNERABLE" "verdict $u: $(jq -r .boots.unpatched.signature "$r")"
		if need_series "$b" "$b patched SURVIVED"; then
			p=$(jq -r '.boots.patched.verdict' "$r") f=$(jq -r '.boots.patched.tests.failed' "$r")
			[ "$p" = SURVIVED ] && [ "$f" = 0 ] && t_ok "$b patched SURVIVED, suite passes ($(jq -r .boots.patched.runs "$r") reproducer runs)" ||
				t_fail "$b patched SURVIVED, suite passes" "verdict $p, failed $f: $(jq -r .boots.patched.signature "$r")"
			# Every x86_64 loader object calls setup_new_exec once patched
			# (the build's nm of its loader objects: symbols.txt).
			miss=
			for o in fs/binfmt_elf.o fs/compat_binfmt_elf.o arch/x86/ia32/ia32_aout.o; do
				grep -q "^$o: *U setup_new_exec\$" "$OUT/$b/patched/symbols.txt" 2>/dev/null || miss="$miss $o"
			done
			[ -z "$miss" ] && t_ok "$b patched: binfmt_elf, compat_binfmt_elf and ia32_aout call setup_new_exec" ||
				t_fail "$b patched: loaders call setup_new_exec" "not in:$miss"
		fi
	fi
	# every fix, on every kernel booted, held on its own verdict
	for k in $(jq -r '.gate.kernels | keys[]' "$r"); do
		bad= said=
		for fx in $kit_fixes; do
			v=$(jq -r --arg k "$k" --arg f "$fx" '.gate.kernels[$k].fixes[$f] | "\(.verdict) (must be \(.expected))\(if .ok then "" else " NOT OK" end)"' "$r")
			said="$said $fx $v;"
			case $v in *"NOT OK"* | null* | "") bad="$bad $fx" ;; esac
		done
		[ -z "$bad" ] && t_ok "$b $k, each fix on its own verdict:$said" ||
			t_fail "$b $k, each fix on its own verdict" "not ok:$bad;$said"
		echo "# $b $k build: $(jq -r --arg k "$k" '.build[$k] | if . == null then "none (a tree already fixed is booted as it is)"
			elif .cache.hit then "served from the build cache (\(.cache.key[0:12]))"
			else "built by this OUT'"'"'s build step in \(.seconds)s (not from the cache)" end' "$r")"
	done
	g=$(jq -r '.gate.status' "$r")
	[ $rc -eq 0 ] && [ "$g" = pass ] && t_ok "$b make verify exits 0, gate pass" ||
		t_fail "$b make verify exits 0, gate pass" "exit $rc, gate $g: $(grep 'error:' "$OUT/.e2e-verify.log" | tail -1)"
done
rm -f "$OUT/.e2e-verify.log"
t_done
