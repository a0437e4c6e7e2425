#!/bin/sh
# compile-check.sh [BRANCH]: build, for i386 with CONFIG_BINFMT_AOUT, the
# objects x86_64 never compiles (fs/binfmt_aout.o) with fs/binfmt_elf.o and
# fs/exec.o, unpatched and patched; check that every patched loader calls
# setup_new_exec and that the patched objects add no compiler warning.
# Results go to $OUT/<b>/result.json under compile_check.i386.
set -eu
. "$(dirname "$0")/lib.sh"
BRANCH=${1:-${BRANCH:-}}
load_branch "$BRANCH"
[ "$BR_SOURCE" = git ] || die 2 "compile-check is for the 2.6 branches; $BRANCH has no series"
. "$KIT_ROOT/branches/host/$BR_FLAGS.flags"
[ -r "$KIT_ROOT/backports/$BRANCH/series" ] || die 2 "no backports/$BRANCH/series; run 'make series BRANCH=$BRANCH'"
src=$(sh "$KIT_ROOT/scripts/fetch.sh" "$BRANCH") || exit $?
objs="fs/binfmt_aout.o fs/binfmt_elf.o fs/exec.o"
top=$OUT/$BRANCH/i386-aout
mkdir -p "$KIT_CACHE"
exec 9>"${KIT_LOCK:-/tmp/$KIT_NAME.build.lock}"
flock -n 9 || { progress "$BRANCH" wait "another kernel build is running; waiting for it"; flock 9; }
chmod -R u+w "$top" 2>/dev/null || true
rm -rf "$top"; mkdir -p "$top"
for kind in unpatched patched; do
	d=$top/$kind
	progress "$BRANCH" i386 "$kind: copy, host series$([ $kind = patched ] && echo ', security series')"
	cp -a "$src/." "$d"; rm -f "$d/.kit-verified"; chmod -R u+w "$d"
	for p in $BR_HOST_SERIES; do patch -d "$d" -p1 -F0 -s <"$KIT_ROOT/branches/host/$p.patch"; done
	if [ $kind = patched ]; then
		(cd "$d" && QUILT_PATCHES=$KIT_ROOT/backports/$BRANCH quilt push -a -q --fuzz=0 >/dev/null) ||
			die 1 "[$BRANCH] the series does not apply for the i386 check"
	fi
	(cd "$d" && make ARCH=i386 CC="gcc -m32 $KIT_CC_FLAGS" KCONFIG_ALLCONFIG="$KIT_ROOT/branches/config/i386-aout.config" allnoconfig >"$top/$kind.log" 2>&1) ||
		die 1 "[$BRANCH] i386 allnoconfig failed ($top/$kind.log)"
	sh "$KIT_ROOT/scripts/check-config.sh" "$KIT_ROOT/branches/config/i386-aout.config" "$d/.config" >>"$top/$kind.log" ||
		die 1 "[$BRANCH] i386 config: $(grep -m1 '^check-config: CONFIG' "$top/$kind.log")"
	progress "$BRANCH" i386 "$kind: make $objs"
	(cd "$d" && make ARCH=i386 CC="gcc -m32 $KIT_CC_FLAGS" -j"$JOBS" $objs >>"$top/$kind.log" 2>&1) ||
		die 1 "[$BRANCH] i386 $kind build of $objs failed: $(grep -m1 'error' "$top/$kind.log")"
	# warnings, with the tree path taken out so the two kinds compare
	grep -E 'warning:' "$top/$kind.log" | sed "s|$d/||g" | sed 's/:[0-9]*:[0-9]*:/:/' | LC_ALL=C sort -u >"$top/$kind.warnings"
done
new=$(LC_ALL=C comm -13 "$top/unpatched.warnings" "$top/patched.warnings")
calls=
for o in fs/binfmt_aout.o fs/binfmt_elf.o; do
	nm "$top/patched/$o" | grep -q ' U setup_new_exec$' && calls="$calls ${o#fs/}" ||
		die 1 "[$BRANCH] patched i386 $o does not call setup_new_exec"
done
nm "$top/patched/fs/exec.o" | grep -q ' T setup_new_exec$' || die 1 "[$BRANCH] patched i386 fs/exec.o does not define setup_new_exec"
[ -z "$new" ] || die 1 "[$BRANCH] the patched i386 objects add compiler warnings: $(echo "$new" | head -3 | tr '\n' ' ')"
result_update "$OUT/$BRANCH/result.json" --arg objs "$objs" --arg calls "${calls# }" \
	'.compile_check.i386 = {status: "ok", config: "branches/config/i386-aout.config", objects: ($objs | split(" ")),
	  setup_new_exec_called_by: ($calls | split(" ")), new_warnings: 0}'
chmod -R u+w "$top"; rm -rf "$top/unpatched" "$top/patched"
progress "$BRANCH" i386 "ok: $objs build unpatched and patched; setup_new_exec called by$calls; no new warnings"
