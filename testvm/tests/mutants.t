#!/bin/sh
# scripts/mutants.sh reads each mutant's gate record (scripts/gate.sh):
# by the mutant's own fix, VULNERABLE and REGRESSED (with its failing
# tests) are catches, SURVIVED is a hole (exit 1), and so is an
# INCONCLUSIVE of the fix's own; another fix not SURVIVED beside it fails
# too (exit 1); a boot stopped in its control phase is booted once more,
# then INCONCLUSIVE, neither caught nor a hole; a declared Masked: pair is
# run together; a fix held to UNREACHABLE on the branch is UNOBSERVABLE
# there, unbuilt.  No kernel:
# a copy of the kit whose build.sh only makes an empty bzImage, and whose
# verify-kernel.sh runs the real one with a stand-in QEMU that replays a
# recorded serial log (testvm/fixtures) per mutant.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=ci/tap.sh
. "$root/ci/tap.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fx=$root/testvm/fixtures
k=$tmp/kit
mkdir -p "$k/scripts" "$k/branches" "$k/backports" "$k/testvm" || exit 1
cp "$root/scripts/lib.sh" "$root/scripts/mutants.sh" "$root/scripts/gate.sh" "$k/scripts/" &&
	cp "$root/branches/v2.6.32.conf" "$k/branches/" &&
	cp -R "$root/backports/v2.6.32" "$k/backports/" &&
	mkdir -p "$k/backports/fixes" &&
	cp -R "$root/backports/fixes/CVE-2010-0307" "$k/backports/fixes/" ||
	{ t_fail "copy the kit"; t_done; exit 1; }
# the first cases: a kit of one fix (A-H, CVE-2010-0307; its series without I), as the old logs are
cat >"$k/scripts/build.sh" <<'B'
#!/bin/sh
# stand-in build: build.sh <kind> <branch>, with its digest list
[ -z "${FAKE_BUILD_RC:-}" ] || exit "$FAKE_BUILD_RC"
mkdir -p "$OUT/$2/$1" && : >"$OUT/$2/$1/bzImage" && (cd "$OUT/$2/$1" && sha256sum bzImage >sha256sums)
B
# stand-in verifier: the real one, its QEMU replaying MUTANT_LOG_<letter>
cat >"$k/testvm/verify-kernel.sh" <<'V'
#!/bin/sh
case $1 in */mutant-*) l=${1#*/mutant-}; l=$(echo "${l%%/*}" | tr - _) ;; esac
eval "FAKE_LOG=\${MUTANT_LOG_$l:?no log for mutant $l}"
# MUTANT_LOG2_<l>: the log of that mutant's second boot
eval "log2=\${MUTANT_LOG2_$l:-}"
if [ -n "$log2" ] && [ -e "$2.booted" ]; then FAKE_LOG=$log2; fi
mkdir -p "$2" && : >"$2.booted"
export FAKE_LOG
exec sh "$REAL_TESTVM/verify-kernel.sh" "$@"
V
cat >"$tmp/qemu" <<'Q'
#!/bin/sh
[ "${1-}" = --version ] && { echo "QEMU emulator version 0.0-fake"; exit 0; }
while [ $# -gt 0 ]; do case $1 in -serial) serial=${2#file:}; shift ;; esac; shift; done
# the replayed logs stand for kernels of the branch mutants.sh builds
# (KIT_RELEASE): some were recorded on 6.1
tail -n +2 "$FAKE_LOG" | sed "s/Linux version [^ ]*/Linux version $KIT_RELEASE/" >"$serial"
Q
chmod +x "$tmp/qemu"
(cd "$k" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm t) ||
	{ t_fail "a git repo for the kit copy"; t_done; exit 1; }
export KIT_ROOT="$k" OUT="$tmp/out" KIT_CONFIG="$tmp/none" QEMU="$tmp/qemu" \
	REAL_TESTVM="$root/testvm" TESTVM_OUT="$tmp/tv" KIT_BOOTS=default KIT_LOCK="$tmp/build.lock"
export MUTANT_LOG_a="$fx/vulnerable-v2.6.32-noexec32-off-state.log" \
	MUTANT_LOG_c="$fx/inconclusive-oops-in-control.log" \
	MUTANT_LOG_d="$fx/regressed-derived-noexec32-off-no-rie.log" \
	MUTANT_LOG_f="$fx/survived-debian-6.1.log" \
	MUTANT_LOG_g="$fx/regressed-v2.6.32-mutant-g-aout-leak.log"
r=$OUT/v2.6.32/result.json

MUTANTS="A C D G" sh "$k/scripts/mutants.sh" v2.6.32 >"$tmp/o1" 2>"$tmp/e1"; rc=$?
t_check "every mutant caught (VULNERABLE, INCONCLUSIVE, REGRESSED): exit 0" test "$rc" = 0
t_check "table: G caught by its failing test" grep -q \
	'^G *318f6b228ba8 *REGRESSED *CVE-2010-0307 failing tests: CVE-2010-0307 regress: ia32 a.out whose text cannot be mapped' "$tmp/o1"
t_check "result.json: G is REGRESSED with its failing test named" jq -e '.mutants.G |
	.verdict == "REGRESSED" and (.failed_tests == ["CVE-2010-0307 regress: ia32 a.out whose text cannot be mapped (RLIMIT_AS) is killed and leaks no memory (318f6b228ba8)"])' "$r"
t_check "result.json: every record has measured_at (UTC) and the kit commit" jq -e --arg kit \
	"$(git -C "$k" describe --always --dirty)" '[.mutants[]] | length == 4 and
	all(.measured_at | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$")) and all(.kit_commit == $kit)' "$r"
t_check "result.json: A VULNERABLE, C INCONCLUSIVE" jq -e \
	'.mutants.A.verdict == "VULNERABLE" and .mutants.C.verdict == "INCONCLUSIVE"' "$r"

MUTANTS="F" sh "$k/scripts/mutants.sh" v2.6.32 >"$tmp/o2" 2>"$tmp/e2"; rc=$?
t_check "a mutant that comes out SURVIVED, every test passing: exit 1, named a hole" sh -c "
	test $rc = 1 && grep -q '^F .*SURVIVED *NOTHING (hole in the suite)' '$tmp/o2' &&
	grep -q 'not caught' '$tmp/e2'"
t_check "result.json keeps the earlier records beside F's" jq -e \
	'.mutants.F.verdict == "SURVIVED" and .mutants.G.verdict == "REGRESSED"' "$r"
MUTANTS="A Q" sh "$k/scripts/mutants.sh" v2.6.32 >"$tmp/o3" 2>"$tmp/e3"; rc=$?
t_check "an unknown letter: exit 2 before any build, one line naming it" sh -c "
	test $rc = 2 && test \$(wc -l <'$tmp/e3') = 1 && grep -q \"MUTANTS names 'Q', which is neither\" '$tmp/e3' &&
	! grep -q . '$tmp/o3'"
FAKE_BUILD_RC=3 MUTANTS="A" sh "$k/scripts/mutants.sh" v2.6.32 >"$tmp/o4" 2>"$tmp/e4"; rc=$?
t_check "a build that never started (source unreachable, exit 3) is no finding: exit 3, not 'BUILD FAILED'" sh -c "
	test $rc = 3 && ! grep -q 'BUILD FAILED' '$tmp/o4' && grep -q 'before any kernel was built' '$tmp/e4'"
FAKE_BUILD_RC=1 MUTANTS="A" sh "$k/scripts/mutants.sh" v2.6.32 >"$tmp/o5" 2>"$tmp/e5"; rc=$?
t_check "a kernel that does not build without the patch: BUILD FAILED in the table" grep -q '^A .*BUILD FAILED' "$tmp/o5"

# Two fixes: I (CVE-2010-3081) is in the kit and in the series.
cp -R "$root/backports/fixes/CVE-2010-3081" "$k/backports/fixes/" &&
	(cd "$k" && git add -A &&
	git -c user.name=t -c user.email=t@t commit -qm I) || { t_fail "add I to the kit copy"; t_done; exit 1; }
export MUTANT_LOG_cve_2010_0307="$fx/survived-3081-v2.6.32-net-0307-unfixed.log" \
	MUTANT_LOG_i="$fx/vulnerable-3081-v2.6.32-net.log"
MUTANTS="CVE-2010-0307" sh "$k/scripts/mutants.sh" v2.6.32 >"$tmp/o6" 2>"$tmp/e6"; rc=$?
t_check "the whole of CVE-2010-0307 dropped: caught by that fix, CVE-2010-3081 SURVIVED: exit 0" sh -c "
	test $rc = 0 && grep -q '^CVE-2010-0307 .*VULNERABLE *CVE-2010-0307 VULNERABLE: .*other fixes SURVIVED' '$tmp/o6'"
t_check "result.json: the mutant dropped all eight patches, its fixes' verdicts recorded" jq -e '.mutants["CVE-2010-0307"] |
	(.dropped | split(",") | length) == 8 and .fix == "CVE-2010-0307" and .fixes["CVE-2010-3081"].verdict == "SURVIVED"' "$r"
MUTANTS="I" sh "$k/scripts/mutants.sh" v2.6.32 >"$tmp/o7" 2>"$tmp/e7"; rc=$?
t_check "I dropped, but the kernel also VULNERABLE for CVE-2010-0307: caught, yet the other fix is named and exit 1" sh -c "
	test $rc = 1 && grep -q '^I .*c41d68a513c7 *VULNERABLE *CVE-2010-3081 VULNERABLE: .*OTHER FIX NOT SURVIVED: CVE-2010-0307 VULNERABLE' '$tmp/o7' &&
	grep -q 'another fix not SURVIVED' '$tmp/e7'"
# I dropped, and its program's precondition failed (a made-up log: 6.1's,
# both fixes SURVIVED, with CVE-2010-3081's precond turned to not ok):
# INCONCLUSIVE is a catch only when the boot's control phase failed, so
# this is a hole, exit 1 (KIT_REBOOT: the same stand-in image was judged above).
sed 's/^ok \([0-9]*\) - CVE-2010-3081 precond:/not ok \1 - CVE-2010-3081 precond:/' \
	"$fx/survived-3081-debian-6.1-net.log" >"$tmp/i-precond.log"
KIT_REBOOT=1 MUTANT_LOG_i="$tmp/i-precond.log" MUTANTS="I" sh "$k/scripts/mutants.sh" v2.6.32 >"$tmp/o9" 2>"$tmp/e9"; rc=$?
t_check "I dropped, CVE-2010-3081 INCONCLUSIVE by its precondition: no catch (a hole), exit 1" sh -c "
	test $rc = 1 && grep -q '^I .*INCONCLUSIVE *NOTHING (INCONCLUSIVE is no catch for CVE-2010-3081' '$tmp/o9'"
# C dropped, the control phase oopses on both boots: no fix was judged,
# so the mutant is INCONCLUSIVE, neither caught nor a hole (exit 0); the
# gate's record (control_failed) decided it, not the signature's words.
# The same for the whole CVE-2010-0307 dropped.
rm -f "$OUT"/v2.6.32/mutant-*/verify.booted
KIT_REBOOT=1 MUTANTS="C" sh "$k/scripts/mutants.sh" v2.6.32 >"$tmp/o10" 2>"$tmp/e10"; rc=$?
t_check "C dropped, the control phase fails twice: booted once more, then INCONCLUSIVE, neither caught nor a hole, exit 0" sh -c "
	test $rc = 0 && grep -q '^C .*INCONCLUSIVE *INCONCLUSIVE (neither caught nor a hole): the boot stopped in its control phase twice' '$tmp/o10' &&
	test \$(grep -c 'booting it once more' '$tmp/e10') = 1 && grep -q '1 mutant(s) INCONCLUSIVE' '$tmp/e10' && ! grep -q 'not caught' '$tmp/e10'"
t_check "result.json: C's record names its gate record, which says the control phase failed" sh -c "
	g=\$(jq -r '.mutants.C.gate' '$r') && jq -e '.kernels.patched.control_failed == true and .status == \"fail\"' \"\$g\" >/dev/null"
# C dropped as it is on a real v2.6.32: every 32-bit program faults at its
# start, no oops; CVE-2010-0307's own control phase fails (probe32), the
# boot's phase is done: its control_failed (parse, per fix) decides.
rm -f "$OUT"/v2.6.32/mutant-*/verify.booted
KIT_REBOOT=1 MUTANT_LOG_c="$fx/inconclusive-v2.6.32-mutant-c-32bit-segfault.log" MUTANTS="C" \
	sh "$k/scripts/mutants.sh" v2.6.32 >"$tmp/o10b" 2>"$tmp/e10b"; rc=$?
t_check "C dropped on a real v2.6.32 (32-bit programs fault, a fix's own control phase fails, no oops): INCONCLUSIVE, neither caught nor a hole, exit 0" sh -c "
	test $rc = 0 && grep -q '^C .*INCONCLUSIVE *INCONCLUSIVE (neither caught nor a hole): the boot stopped in its control phase twice' '$tmp/o10b' &&
	! grep -q 'not caught' '$tmp/e10b'"
rm -f "$OUT"/v2.6.32/mutant-*/verify.booted
KIT_REBOOT=1 MUTANT_LOG_cve_2010_0307="$fx/inconclusive-oops-in-control.log" MUTANTS="CVE-2010-0307" \
	sh "$k/scripts/mutants.sh" v2.6.32 >"$tmp/o11" 2>"$tmp/e11"; rc=$?
t_check "the whole CVE-2010-0307 dropped, the control phase fails twice: INCONCLUSIVE, no other fix judged, exit 0" sh -c "
	test $rc = 0 && grep -q '^CVE-2010-0307 .*INCONCLUSIVE (neither caught nor a hole)' '$tmp/o11' && ! grep -q 'OTHER FIX' '$tmp/o11'"
# A control phase that fails once, then passes: the second boot decides.
rm -f "$OUT"/v2.6.32/mutant-*/verify.booted
KIT_REBOOT=1 MUTANT_LOG2_c="$fx/survived-3081-v2.6.32-net-0307-unfixed.log" MUTANTS="C" \
	sh "$k/scripts/mutants.sh" v2.6.32 >"$tmp/o12" 2>"$tmp/e12"; rc=$?
t_check "C dropped, the control phase fails once: booted once more, then caught by the second boot (VULNERABLE), exit 0" sh -c "
	test $rc = 0 && grep -q '^C .*VULNERABLE *CVE-2010-0307 VULNERABLE: ' '$tmp/o12' && grep -q 'booting it once more' '$tmp/e12'"
# Masked: F by G declared in the fix's FIX: F alone is reported masked and
# not built; F+G, taken out together, is run and caught.
mkdir -p "$k/backports/fixes/CVE-2010-0307" &&
	printf 'Id: CVE-2010-0307\nMasked: F by G: a made-up pair for this test\n' >"$k/backports/fixes/CVE-2010-0307/FIX"
MUTANT_LOG_f_g="$fx/survived-3081-v2.6.32-net-0307-unfixed.log" MUTANTS="F" \
	sh "$k/scripts/mutants.sh" v2.6.32 >"$tmp/o13" 2>"$tmp/e13"; rc=$?
t_check "F declared masked by G: F 'masked by G (declared)', no build for it; F+G run and caught, exit 0" sh -c "
	test $rc = 0 && grep -q '^F .*MASKED *masked by G (declared): a made-up pair for this test' '$tmp/o13' &&
	grep -q '^F+G .*VULNERABLE *CVE-2010-0307 VULNERABLE: .*other fixes SURVIVED' '$tmp/o13' && ! grep -q 'F: without' '$tmp/e13' &&
	grep -q 'F+G: without' '$tmp/e13'"
# A FIX that holds this branch's patched kernel to UNREACHABLE: no kernel
# there can show the flaw, so its mutants are UNOBSERVABLE, not built,
# neither caught nor a hole (exit 0).
printf 'Id: CVE-2010-0307\nExpect: v2.6.32 patched UNREACHABLE: a made-up route closed for this test\n' \
	>"$k/backports/fixes/CVE-2010-0307/FIX"
MUTANTS="F CVE-2010-0307" sh "$k/scripts/mutants.sh" v2.6.32 >"$tmp/o14" 2>"$tmp/e14"; rc=$?
t_check "patched held to UNREACHABLE: F and the whole fix UNOBSERVABLE, nothing built, exit 0" sh -c "
	test $rc = 0 && grep -q '^F .*UNOBSERVABLE *not observable on v2.6.32: CVE-2010-0307 is held to UNREACHABLE here (a made-up route closed for this test)' '$tmp/o14' &&
	grep -q '^CVE-2010-0307 .*UNOBSERVABLE' '$tmp/o14' && ! grep -q 'without' '$tmp/e14'"
rm -rf "$k/backports/fixes"
MUTANTS="CVE-2010-9999" sh "$k/scripts/mutants.sh" v2.6.32 >"$tmp/o8" 2>"$tmp/e8"; rc=$?
t_check "a fix the kit does not carry: exit 2, named" sh -c "test $rc = 2 && grep -q \"MUTANTS names 'CVE-2010-9999'\" '$tmp/e8'"

t_done
