#!/bin/sh
# verify.sh [BRANCH]: build what is missing, boot the unpatched kernel and,
# when the branch has a security series, the patched one, in the
# verification VM (testvm/, which judges blind), and record the verdicts in
# $OUT/<name>/result.json under boots.<kind>.  One line per boot.
#
# A tree that already carries the fix (debian-6.1; any tree in which
# scripts/fix-state.sh finds every change) gets no series: "already fixed",
# and only its own kernel is booted.  VERIFY_KINDS="unpatched" narrows a run to one kind.
set -eu
. "$(dirname "$0")/lib.sh"
BRANCH=${1:-${BRANCH:-}}
TREE=${TREE:-}
if [ -n "$TREE" ]; then
	BRANCH=$(sh "$KIT_ROOT/scripts/detect.sh" "$TREE") || exit $?
	NAME=${NAME:-$(basename "$(cd "$TREE" && pwd)")}
fi
load_branch "$BRANCH"
NAME=${NAME:-$BRANCH}
export NAME
result=$OUT/$NAME/result.json

if [ -n "$TREE" ]; then src=$(cd "$TREE" && pwd)
else src=$(sh "$KIT_ROOT/scripts/fetch.sh" "$BRANCH") || exit $?; fi
kinds=unpatched fixed=
mkdir -p "$OUT/$NAME"
if sh "$KIT_ROOT/scripts/plan-series.sh" "$BRANCH" "$src" "$OUT/$NAME/plan" >/dev/null; then
	if [ -r "$KIT_ROOT/backports/$BRANCH/series" ]; then
		kinds="unpatched patched"
	else
		progress "$NAME" verify "no security series in backports/$BRANCH: booting its own kernel only"
	fi
else
	rc=$?
	[ $rc -eq 4 ] || exit $rc
	fixed=1
fi
# VERIFY_KINDS=unpatched (or patched) narrows the run.
kinds=${VERIFY_KINDS:-$kinds}
for k in $kinds; do
	sh "$KIT_ROOT/scripts/build.sh" "$k" "$BRANCH" || exit $?
done
if [ -n "$fixed" ]; then
	result_update "$result" --slurpfile p "$OUT/$NAME/plan/plan.json" '.security = ($p[0] + {applied: []})'
	progress "$NAME" verify "already fixed: the tree carries every change; nothing applied"
fi

for k in $kinds; do
	bdir=$OUT/$NAME/$k
	progress "$NAME" boot "$k kernel in QEMU"
	line=$(sh "$KIT_ROOT/testvm/verify-kernel.sh" "$bdir/src/arch/x86/boot/bzImage" "$bdir/verify") ||
		die 1 "[$NAME] the verification VM failed on the $k kernel; see $bdir/verify/"
	result_update "$result" --arg k "$k" --slurpfile b "$bdir/verify/boot.json" \
		--arg commit "${BR_COMMIT:-}" --arg cfg "$(cat "$bdir/config.sha256")" \
		'.boots[$k] = ($b[0] + {inputs: ($b[0].inputs + {tree_commit: $commit,
		    build_config_sha256: $cfg, toolchain: .toolchain})})'
	printf '%-12s %-9s %s\n' "$NAME" "$k" "$line"
done
