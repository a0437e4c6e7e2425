#!/bin/sh
# verify-kernel.sh BZIMAGE OUTDIR: boot a kernel in the verification guest,
# judge it blind, write OUTDIR/boot.json and print one line.
#
# Two boots of the same image: the default command line, then with
# noexec32=off (READ_IMPLIES_EXEC for 32-bit processes, which the CVE's
# personality leak and 1252f238db48 are about).  Each boot gets a verdict
# from parse, and the boots are merged into the kernel's verdict, both as
# defined in testvm/README.md, "## Verdicts".
#
# Environment: KIT_IMAGE_DIGESTS and KIT_RELEASE (the kernel the verdict
# is about: below), KIT_RUNS (reproducer runs per boot, default 3), TESTVM_OUT
# (guest build folder, default $OUT/testvm), KIT_BOOTS (the extra command
# lines, default "default noexec32=off"; "default" means none), and the
# watchdog settings of boot.sh.
#
# boot.json: {"verdict","signature","seconds","runs","tests":{"passed",
#   "failed","skipped"},"failed_tests":[names],"fixes":{"<CVE>":{"verdict",
#   "signature","tests","failed_tests"[,"unreachable"]}},"log","boots":
#   [per boot],"inputs":{...}}
#   seconds = the longest QEMU-start-to-verdict time of the boots;
#   failed_tests = every boot's not-ok tests, each name once;
#   fixes = each fix's verdicts of the boots merged the same way, with
#   NOT-TESTED then UNREACHABLE between REGRESSED and SURVIVED (a fix
#   NOT-TESTED in any boot is not SURVIVED; "unreachable" is the proof of
#   an UNREACHABLE fix: testvm/README.md "Verdicts").
set -u
# numbers the C way: awk's printf "%.2f" below writes "1,28" under de_DE,
# which jq's tonumber refuses (scripts/lib.sh sets the same for the kit)
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")" && pwd)
KIT_ROOT=${KIT_ROOT:-$(cd "$here/.." && pwd)}
[ $# -eq 2 ] || { echo "usage: verify-kernel.sh BZIMAGE OUTDIR" >&2; exit 2; }
kernel=$1 outdir=$2
die() { _rc=$1; shift; printf 'verify-kernel.sh: error: %s\n' "$*" >&2; exit "$_rc"; }
[ -r "$kernel" ] || die 2 "kernel '$kernel' is not readable; build it first (make build BRANCH=<b>)"
for c in jq sha256sum make gcc; do
	command -v "$c" >/dev/null 2>&1 || die 2 "'$c' is not installed; run 'make deps'"
done
runs=${KIT_RUNS:-3}
case $runs in ''|*[!0-9]*) die 2 "KIT_RUNS='$runs' is not a number" ;; esac
tvout=${TESTVM_OUT:-${OUT:-$KIT_ROOT/out}/testvm}
boots=${KIT_BOOTS:-default noexec32=off}
mkdir -p "$outdir" || die 1 "cannot create $outdir"
# Two verifications of one kernel at once (two `make verify` of a branch
# into one OUT) would remove and rewrite each other's boot files, and one
# would merge a single boot: one at a time per OUTDIR.
if command -v flock >/dev/null 2>&1; then
	exec 7>>"$outdir/.lock"
	flock 7 || die 1 "cannot lock $outdir/.lock"
fi

# verify-all may run several of us at once: one guest build at a time
mkdir -p "$tvout" || die 1 "cannot create $tvout"
if command -v flock >/dev/null 2>&1; then lock="flock $tvout/.lock"; else lock=; fi
$lock make -s -C "$here" OUT="$tvout" all >"$outdir/testvm-build.log" 2>&1 ||
	die 1 "building the guest image failed; see $outdir/testvm-build.log"
image=$tvout/initramfs.cpio

kernel_sha=$(sha256sum <"$kernel" | cut -d' ' -f1)
image_sha=$(sha256sum <"$image" | cut -d' ' -f1)
# The kernel a verdict is about.  KIT_IMAGE_DIGESTS: the digest list its
# build wrote (scripts/build.sh, <kernel dir>/sha256sums); the image must
# be the bzImage named there, or nothing boots.  KIT_RELEASE: the release
# the branch is (its BR_VERSION); a boot whose kernel says another
# ("Linux version ...") is INCONCLUSIVE, whatever its tests said.
# verify.sh and mutants.sh give both.
if [ -n "${KIT_IMAGE_DIGESTS:-}" ]; then
	rec=$(sed -n 's/^\([0-9a-f]\{64\}\)  bzImage$/\1/p' "$KIT_IMAGE_DIGESTS" 2>/dev/null | head -1)
	[ -n "$rec" ] ||
		die 1 "$KIT_IMAGE_DIGESTS names no digest of bzImage, so $kernel is not known to be the kernel its build made; build it again"
	[ "$rec" = "$kernel_sha" ] ||
		die 1 "$kernel is not the kernel its build made (sha256 $kernel_sha, recorded $rec in $KIT_IMAGE_DIGESTS); build it again"
fi
# The kernel's .config and System.map: the build layer's output
# (out/<b>/<kind>/ holds bzImage, .config and System.map, built here or
# served from the build cache) or an in-tree image
# (<tree>/arch/x86/boot/bzImage).  The .config is hashed into the inputs;
# System.map names functions in kernels without KALLSYMS.
kdir=$(dirname "$kernel")
tree=
for t in "$kdir" "$kdir/../../.."; do
	if [ -r "$t/.config" ] || [ -r "$t/System.map" ]; then tree=$t; break; fi
done
config_sha=
set --
if [ -n "$tree" ]; then
	[ -r "$tree/.config" ] && config_sha=$(sha256sum <"$tree/.config" | cut -d' ' -f1)
	[ -r "$tree/System.map" ] && set -- --map "$tree/System.map"
fi
qemu_v=$(${QEMU:-qemu-system-x86_64} --version | head -1)
gcc_v=$(gcc --version | head -1)
ld_v=$(ld --version | head -1)

# Up to date: a conclusive verdict (VULNERABLE or SURVIVED) of this very
# kernel image, guest image, .config, QEMU, command lines, runs, watchdog
# settings and judging code (boot.sh, parse, this script) is not booted
# again in the same OUTDIR, as make does not rebuild what is newer than
# its inputs.  The key names every one of them; anything else (no key,
# another key, INCONCLUSIVE, REGRESSED) boots.  KIT_REBOOT=1 always boots.
# boot.json says which: .up_to_date, and .booted_at the boot's own time.
key=$(printf '%s\n' "kernel $kernel_sha" "image $image_sha" "config $config_sha" "qemu $qemu_v" \
	"emulator $(sha256sum <"$(command -v "${QEMU:-qemu-system-x86_64}")" | cut -d' ' -f1)" "boots $boots" "runs $runs" \
	"watchdog ${KIT_BOOT_SILENCE:-} ${KIT_BOOT_TIMEOUT:-} ${KIT_PANIC_GRACE:-} ${KIT_CRASH_GRACE:-} ${KIT_KVM:-}" \
	"release ${KIT_RELEASE:-}" \
	"judge $(cat "$here/boot.sh" "$0" "$tvout/parse" | sha256sum | cut -d' ' -f1)" | sha256sum | cut -d' ' -f1)
if [ "${KIT_REBOOT:-0}" != 1 ] && [ -r "$outdir/boot.json" ] && [ "$(cat "$outdir/boot.key" 2>/dev/null)" = "$key" ] &&
	jq -e '.verdict == "VULNERABLE" or .verdict == "SURVIVED"' "$outdir/boot.json" >/dev/null 2>&1; then
	# rewritten every time, not only the first: the gate (scripts/gate.sh)
	# takes a boot.json older than its run's manifest for no boot at all
	{ jq --arg at "$(date -u +%FT%TZ)" '.up_to_date = true | .checked_at = $at' "$outdir/boot.json" >"$outdir/boot.json.tmp" &&
	  mv -f "$outdir/boot.json.tmp" "$outdir/boot.json"; } || die 1 "cannot write $outdir/boot.json"
	jq -r '"\(.verdict) runs=\(.runs) tests=\(.tests.passed)/\(.tests.failed)/\(.tests.skipped) (pass/fail/skip) seconds=\(.seconds): \(.signature) (up to date: booted \(.booted_at), inputs unchanged; KIT_REBOOT=1 boots again)"' \
		"$outdir/boot.json"
	exit 0
fi
rm -f "$outdir/boot.key" "$outdir"/boot-*.json "$outdir"/boot-*.log.attempt1
# Never beside a kernel build of the kit: a TCG guest starved by a build on
# a 2-core machine panics "IO-APIC + timer doesn't work!" (measured on
# v2.6.31 and v2.6.32).  Boots share the machine-wide build lock (the
# builds take it alone), so they run beside each other but not beside a
# build.  The wait is not part of a boot's seconds.
if command -v flock >/dev/null 2>&1; then
	# the user's build lock: scripts/lib.sh exports KIT_LOCK, and decides it
	# for a run of this script alone too
	[ -n "${KIT_LOCK:-}" ] || KIT_LOCK=$(KIT_ROOT=$KIT_ROOT sh -c '. "$KIT_ROOT/scripts/lib.sh" && printf %s "$KIT_LOCK"') ||
		die 2 "cannot tell where the build lock is; set KIT_LOCK=<a file you can write>"
	[ ! -L "$KIT_LOCK" ] && mkdir -p "$(dirname "$KIT_LOCK")" 2>/dev/null && (true >>"$KIT_LOCK") 2>/dev/null ||
		die 2 "cannot open the build lock $KIT_LOCK for writing (a symbolic link, owned by another user, or its folder is read-only); set KIT_LOCK=<a file you can write>, or remove that file"
	exec 6>>"$KIT_LOCK"
	if ! flock -n -s 6; then
		echo "verify-kernel.sh: a kernel build is running; the boot waits for it" >&2
		flock -s 6 || die 1 "cannot take the build lock"
	fi
fi
n=0
for b in $boots; do
	n=$((n + 1))
	extra="kit.runs=$runs"
	[ "$b" = default ] || extra="$extra $b"
	log=$outdir/boot-$n.log
	# A boot that never reached init (v2.6.31 under TCG on a loaded host
	# sometimes panics "IO-APIC + timer doesn't work!") is tried once more;
	# the first log is kept beside the second and the retry recorded.
	attempt=1
	while :; do
		t0=$(date +%s.%N)
		# shellcheck disable=SC2086 # $extra is a word list on purpose
		res=$(sh "$here/boot.sh" "$kernel" "$image" "$log" $extra) ||
			die 1 "QEMU could not run the guest; see $log.qemu"
		end=$(printf '%s\n' "$res" | sed -n 's/^end=\([a-z]*\) .*/\1/p')
		"$tvout/parse" --runs "$runs" --end "$end" "$@" "$log" >"$outdir/boot-$n.parse.json" ||
			die 1 "the parser failed on $log"
		[ "$attempt" -eq 1 ] || break
		grep -q 'KIT: init ' "$log" && break
		jq -e '.verdict == "INCONCLUSIVE"' "$outdir/boot-$n.parse.json" >/dev/null || break
		mv -f "$log" "$log.attempt1"
		attempt=2
	done
	t1=$(date +%s.%N)
	if [ -n "${KIT_RELEASE:-}" ]; then
		rel=$(sed -n 's/.*Linux version \([^ ]*\) .*/\1/p' "$log" | head -1 | tr -d '\r')
		case $rel in
		"$KIT_RELEASE" | "$KIT_RELEASE"[!0-9]*) ;;
		*)
			if [ -z "$rel" ]; then
				# nothing of the kernel on the console: it stopped before it
				# (a reset, a fault this early), or the image is no kernel
				why="no 'Linux version' banner in ${log##*/} (the boot ended: ${end:-?}): the kernel stopped before its console printed anything; no test ran"
			else
				why="the booted kernel says 'Linux version $rel' (${log##*/}), but the branch is $KIT_RELEASE: a verdict about another kernel"
			fi
			jq --arg w "$why" '.verdict = "INCONCLUSIVE" | .signature = $w
			  | .fixes = ((.fixes // {}) | map_values(.verdict = "INCONCLUSIVE" | .signature = $w))' \
				"$outdir/boot-$n.parse.json" >"$outdir/boot-$n.parse.tmp" &&
				mv -f "$outdir/boot-$n.parse.tmp" "$outdir/boot-$n.parse.json" || die 1 "jq failed on $outdir/boot-$n.parse.json"
			;;
		esac
	fi
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	jq -c --arg log "$log" --arg res "$res" --arg secs "$secs" --argjson attempts "$attempt" \
		--arg cmdline "${res#*cmdline=}" --arg stop "$end" \
		'. + {log: $log, seconds: ($secs | tonumber), cmdline: $cmdline, "end": $stop,
		      attempts: $attempts, boot: $res}' "$outdir/boot-$n.parse.json" >"$outdir/boot-$n.json" ||
		die 1 "jq failed on $outdir/boot-$n.parse.json"
	rm -f "$outdir/boot-$n.parse.json"
done
exec 6>&-	# the shared build lock: the boots are over

nb=$(ls "$outdir"/boot-*.json 2>/dev/null | wc -l)
[ "$nb" -eq "$n" ] || die 1 "$outdir holds $nb boot records for $n boots; was it written by another run at the same time?"
accel=$(jq -r '.boot' "$outdir/boot-1.json" | sed -n 's/.* accel=\([a-z]*\) .*/\1/p')
# the kernel says which compiler built it
banner=$(grep -ho 'Linux version .*' "$outdir"/boot-*.log 2>/dev/null | head -1 | tr -d '\r')
jq -s --arg ksha "$kernel_sha" --arg isha "$image_sha" --arg csha "$config_sha" --arg at "$(date -u +%FT%TZ)" \
	--arg qemu "$qemu_v" --arg gcc "$gcc_v" --arg ld "$ld_v" --arg accel "$accel" --arg banner "$banner" '
	def tag: (.cmdline | sub("^console=ttyS0 panic=1 oops=panic ?"; "")
	           | sub("kit.runs=[0-9]+ ?"; "") | if . == "" then "default" else . end) as $c
	         | "[\($c)] ";
	# records (each with .cmdline) merged: the first with the worst verdict
	# in the order $rank decides; tests added, failing tests each once
	def merge($rank):
	  . as $all |
	  (map(select(.verdict as $x | $rank | index($x) | not)) | first) as $odd |
	  (first($rank[] as $r | $all | map(select(.verdict == $r)) | first // empty)) as $w |
	  {
	    verdict: (if $odd then "INCONCLUSIVE" else $w.verdict end),
	    signature: (if $odd then ($odd | tag) + "unknown verdict from parse: " + $odd.verdict
	                elif $w.verdict == "SURVIVED" then .[0].signature
	                else ($w | tag) + $w.signature end),
	    tests: {passed: (map(.tests.passed) | add), failed: (map(.tests.failed) | add),
	            skipped: (map(.tests.skipped) | add)},
	    failed_tests: (reduce (.[].failed_tests // [] | .[]) as $t ([];
	                   if any(.[]; . == $t) then . else . + [$t] end)),
	    log: (if $odd then $odd.log else $w.log end)
	  } + (if ($odd | not) and $w.verdict == "UNREACHABLE" then {unreachable: $w.unreachable} else {} end);
	. as $all |
	merge(["VULNERABLE", "INCONCLUSIVE", "REGRESSED", "SURVIVED"]) as $k |
	# every fix any boot judged, in the order parse gives them
	(reduce (.[] | .fixes // {} | keys_unsorted[]) as $id ([];
	  if any(.[]; . == $id) then . else . + [$id] end)) as $ids |
	{
	  verdict: $k.verdict,
	  signature: $k.signature,
	  seconds: (map(.seconds) | max),
	  runs: (map(.runs) | add),
	  tests: $k.tests,
	  failed_tests: $k.failed_tests,
	  fixes: (reduce $ids[] as $id ({}; . + {($id):
	          ([$all[] | (.fixes[$id] // {verdict: "INCONCLUSIVE", signature: "parse gave no verdict for this fix",
	                                       tests: {passed: 0, failed: 0, skipped: 0}, failed_tests: []})
	                     + {cmdline: .cmdline, log: .log}]
	           | merge(["VULNERABLE", "INCONCLUSIVE", "REGRESSED", "NOT-TESTED", "UNREACHABLE", "SURVIVED"]) | del(.log))})),
	  log: $k.log,
	  boots: map(del(.boot)),
	  booted_at: $at, up_to_date: false,
	  inputs: {kernel_sha256: $ksha, config_sha256: $csha, cmdlines: map(.cmdline),
	           qemu_version: $qemu, cpu_model: "qemu64", accel: $accel, memory_mb: 256,
	           image_sha256: $isha, gcc_version: $gcc, ld_version: $ld,
	           kernel_banner: $banner}
	}' "$outdir"/boot-*.json >"$outdir/boot.json.tmp" || die 1 "jq could not merge the boots"
mv -f "$outdir/boot.json.tmp" "$outdir/boot.json" || die 1 "cannot write $outdir/boot.json"
printf '%s\n' "$key" >"$outdir/boot.key.tmp" && mv -f "$outdir/boot.key.tmp" "$outdir/boot.key" ||
	die 1 "cannot write $outdir/boot.key"

jq -r '"\(.verdict) runs=\(.runs) tests=\(.tests.passed)/\(.tests.failed)/\(.tests.skipped) (pass/fail/skip) seconds=\(.seconds): \(.signature)"' \
	"$outdir/boot.json"
