#!/bin/sh
# cross.sh [BRANCH] [CELL...]: the cross-compile matrix of one branch.
#
# For every cell of cross/matrix/ (or the CELLs named: x86_32 parisc ...):
# build the cell's objects (never a whole kernel) from a copy of the
# branch's verified export, with the branch's generic host patches, the
# cell's own host patches (branches/host/cross-*) and a miniconfig
# (allnoconfig + cross/matrix/common.config + <cell>.config), first
# unpatched, then pushing the security series backports/<branch>/ one
# patch at a time (quilt push --fuzz=0), rebuilding the objects after each.
# Then
#   - warnings: each object's compiler warnings, unpatched vs patched
#     (path and line numbers taken out); a new one fails the cell;
#   - objdiff: the functions each patch changed in each object, against
#     the expected set <fix>/cross/<change>.expect; an unexpected changed
#     function, or an expected one unchanged, fails the cell.
# A cell whose compiler is missing is SKIPPED ("install gcc-xxx (make
# cross-deps)"); one the release cannot configure is SKIPPED with the
# Kconfig dependency that makes it impossible (X_SKIP in its .conf).
#
# Output: $OUT/<b>/cross/<cell>/{unpatched,patched}/ (objects, logs,
# warnings), $OUT/<b>/cross/<cell>/steps/<n>-<patch>/ (objects and the
# functions that patch changed), $OUT/<b>/cross/<cell>.json (the cell's
# record), and for the run: $OUT/<b>/cross/cross.json (when it was
# measured, the kit's commit, every cell it ran), $OUT/<b>/cross/table.txt
# (also printed on stdout) and "cross" in $OUT/<b>/result.json, each
# written whole or not at all.  They hold only the cells this run ran: a
# record of an earlier run is never read back into a table.  Sources are
# removed after a cell (CROSS_KEEP=1 keeps them).
#
# The cross cache: an ok cell's result (its record and its folder without
# the sources) is kept in $KIT_CACHE/cross/<key>/, the key a sha256 of
# everything that decides it: the export (commit and content digest of its
# verified marker), the branch, the cell's .conf (every X_* it sets),
# .config and common.config, the series pushed (series file and patches:
# the pick's under ARCHES=) and the change each patch belongs to, the host
# patches, the expect files, the compiler flags, the versions of the cell's
# compiler, binutils, the host cc, make, quilt, patch and perl, and this
# script with every script and source it runs (lib.sh, check-config.sh,
# fix-state.sh, check-expect.sh, check-calls.sh, pin-line.h, objdiff).  A
# hit is said ("<cell> from the cross cache (<key>)"), needs no build lock,
# and is marked in the cell's record (.cache.hit; its measured_at and
# kit_commit are the measuring run's) and in cross.json (from_cache); the
# table is the same.  An entry is published by one rename and checked
# against its sha256sums (no file more or less) before it is served; a
# damaged one is removed and the cell built again.  A failed or skipped
# cell is never stored, nor is a cell of a source without a verified
# marker.  KIT_CROSS_CACHE=0 or KIT_BUILD_CACHE=0 builds and stores
# nothing; CROSS_KEEP=1 (the sources kept) builds too.
#
# Each cell runs in a subshell with errexit on: a step that fails without
# its own message (a cp, an objdiff that crashes) still fails the cell,
# never reads as "ok" or "reproducible".
#
# A cell's tree is a checked farm of hard links to the export's link
# source (fetch.sh --farm, under the export's lock).  A host patch goes only where its change is absent
# (apply_host_patches, as build.sh does): one the tree already has is
# skipped and named (host_series_present in the cell's record), one that is
# half there fails the cell.  Every make sets ARCH and CROSS_COMPILE (empty
# for a native cell): a tree's Makefile default never picks the compiler.
#
# ARCHES=<architectures shipped> (HARDENING=0): the branch's pick for them
# (scripts/pick.sh) is pushed instead of the full series, a cell of an
# architecture the pick is not for is marked "not in this pick" (neither ok
# nor failed, nothing built), and every output above goes under the pick's
# own name, $OUT/<b>-pick-<name>/ (as make verify ARCHES= does), so the
# branch's full-series matrix stays as it was.
#
#   exit 0 every cell ok, skipped or not in the pick, 1 a cell failed,
#   2 bad input, 3 the source cannot be reached
set -eu
. "$(dirname "$0")/lib.sh"
# every folder of backports/fixes/ is a fix with its FIX, or nothing runs
# (lib.sh kit_fixes: called here, not in $(...), so that its refusal stops us)
kit_fixes >/dev/null

BRANCH=${1:-${BRANCH:-}}
[ $# -gt 0 ] && shift
load_branch "$BRANCH"
[ "$BR_SOURCE" = git ] || die 2 "cross is for the 2.6 branches; $BRANCH has no security series"
need_cmd make patch quilt jq cc flock
# shellcheck disable=SC1090
. "$KIT_ROOT/branches/host/$BR_FLAGS.flags"
series_dir=$KIT_ROOT/backports/$BRANCH
[ -r "$series_dir/series" ] ||
	die 2 "no security series for $BRANCH ($series_dir/series); run 'make series BRANCH=$BRANCH' first"
mdir=$KIT_ROOT/cross/matrix
# the expected sets: every fix's cross/ folder (backports/fixes/README.md)
edir=$(for _f in $(kit_fixes); do printf '%s/%s/cross:' "$(kit_fixes_dir)" "$_f"; done)
edir=${edir%:}
# expect_files: every expected set and calls file, for the cache key (a
# fix may have none); calls_files: the fixes' calls files (check-calls.sh)
expect_files() {
	for _e in $(printf '%s' "$edir" | tr ':' ' '); do
		[ ! -d "$_e" ] || find "$_e" \( -name '*.expect' -o -name calls \)
	done | LC_ALL=C sort
}
calls_files=$(expect_files | grep '/calls$' | tr '\n' ' ')
all_cells=$(cd "$mdir" && ls -1 *.conf | sed 's/\.conf$//')
cells=${*:-$all_cells}

# The generic host patches of the branch (needed whatever the arch); the
# x86-only ones (vdso, uaccess, copy_user, mutex slowpath) stay out.
generic_host=
for p in $BR_HOST_SERIES; do
	case $p in compiler-gcc12-header | timeconst-perl-defined-array | make-4.3-*) generic_host="$generic_host $p" ;; esac
done

# Every cell named and every host patch it needs, checked before anything
# is written.
for c in $cells; do
	is_plain_name "$c" && [ -r "$mdir/$c.conf" ] ||
		die 2 "unknown cell '$c'; cells: $(echo $all_cells)"
	# shellcheck disable=SC1090
	for p in $generic_host $(X_HOST=; . "$mdir/$c.conf"; echo "$X_HOST"); do
		[ -r "$KIT_ROOT/branches/host/$p.patch" ] ||
			die 2 "cell $c needs host patch '$p', but branches/host/$p.patch does not exist"
	done
done

# The pick, when ARCHES= names the architectures shipped: every cell must
# have an architecture (scripts/arches.sh) to be in it or not.
pick= pick_arches=
if [ -n "${ARCHES:-}" ] || [ "${HARDENING:-1}" != 1 ]; then
	. "$KIT_ROOT/scripts/arches.sh"
	{ arches_canon "${ARCHES:-}" && hardening_check "${HARDENING:-1}"; } || die 2 "$ARCHES_WHY"
	for c in $cells; do
		arch_of_cell "$c" >/dev/null ||
			die 2 "cell '$c' has no architecture for ARCHES=; add it to arch_of_cell in scripts/arches.sh"
	done
	pick_arches=$ARCHES_LIST
	pick=$(arches_name "$ARCHES_LIST" "${HARDENING:-1}")
	series_dir=$(sh "$KIT_ROOT/scripts/pick.sh" "$BRANCH") || exit $?
fi

# Compiler flags: the kit's 2.6 flags without the x86-only -m ones, plus
# what makes objects comparable: -ffunction-sections -fdata-sections (calls
# between functions stay relocations) and __LINE__ pinned to 0 (a line
# inserted above a function would otherwise change every BUG()/WARN() line
# immediate below it: kpatch has to recognise such changes, we remove them;
# cross/pin-line.h).  A cell may add its own (X_CFLAGS).
base_flags=$(printf '%s\n' $KIT_CC_FLAGS | grep -v '^-m' | tr '\n' ' ')
obj_flags="-ffunction-sections -fdata-sections -include $KIT_ROOT/cross/pin-line.h"
# cells built side by side (see the main loop below)
CROSS_JOBS=${CROSS_JOBS:-$JOBS}
case $CROSS_JOBS in '' | *[!0-9]* | 0*) die 2 "CROSS_JOBS='$CROSS_JOBS' is not a positive whole number; set CROSS_JOBS=<cells at a time>, e.g. CROSS_JOBS=2" ;; esac

# Patch -> change folder (by the upstream id in its Git-commit: line).
change_of() {
	_id=$(sed -n 's/^Git-commit: *//p' "$1" | head -1)
	for _c in $(kit_changes); do
		[ "$(info_field "$_c" Upstream)" != "$_id" ] || { echo "$_c"; return; }
	done
	echo unknown
}
patch_files() { sed -n 's|^+++ [^/]*/\([^	 ]*\).*|\1|p' "$@" | LC_ALL=C sort -u; }

src=$(sh "$KIT_ROOT/scripts/fetch.sh" "$BRANCH") || exit $?
# the export as its verified marker names it (the cross cache's key): a
# source it cannot name is never served from the cache nor stored in it
src_id=$(sed -n '/^listing$/q; s/^commit /commit /p; s/^content /content /p' "$src/.kit-verified" 2>/dev/null | tr '\n' ' ')
case $src_id in commit\ *content\ *) ;; *) src_id= ;; esac
measured_at=$(date -u +%FT%TZ)
kit_commit=$(git -C "$KIT_ROOT" describe --always --dirty 2>/dev/null) || kit_commit=unknown
node=$BRANCH${pick:+-pick-$pick}
top=$OUT/$node/cross
out_root
mkdir -p "$top"
result=$OUT/$node/result.json
table=$top/table.txt

# The host tool, built once per output root.
bindir=$OUT/.cross-bin
mkdir -p "$bindir"
make -s -C "$KIT_ROOT/cross/objdiff" O="$bindir" >/dev/null || die 1 "cannot build cross/objdiff"
OBJDIFF=$bindir/objdiff

# Warnings of one make log, comparable across trees: no path, no line.
warnings_of() {
	grep -E 'warning:' "$1" | sed "s|$2/||g; s/:[0-9]*:[0-9]*:/:/; s/:[0-9]*:/:/" | LC_ALL=C sort -u
}

# cell_json <cell> <status> <reason> [objects-json]: record one cell.
cell_json() {
	_o=${4:-}; [ -n "$_o" ] || _o='{}'
	jq -n --arg c "$1" --arg s "$2" --arg r "$3" --arg d "${X_DESC:-}" \
		--argjson o "$_o" --arg flags "${X_ALL_FLAGS:-}" --arg host "${X_HOST_ALL:-}" \
		--arg planned "${X_OBJS:-} ${X_TOKENS:-}" --argjson tok "$(tokens_json)" \
		--arg cc "${cc_version:-}" --arg at "$measured_at" --arg kit "$kit_commit" \
		--arg present "${host_present:-}" \
		'{cell: $c, description: $d, status: $s, reason: $r, flags: $flags, compiler: $cc,
		  measured_at: $at, kit_commit: $kit,
		  host_series: ($host | split(" ") | map(select(. != ""))),
		  host_series_present: ($present | split(" ") | map(select(. != ""))),
		  planned: ($planned | split(" ") | map(select(. != ""))), tokens: $tok, objects: $o}' >"$top/$1.json.tmp.$$"
	mv -f "$top/$1.json.tmp.$$" "$top/$1.json"
}

cell_fail() {
	# cell_fail <cell> <stage> <message>
	progress "$BRANCH" cross "$1: FAILED at $2: $3 (log: $top/$1/cell.log)"
	cell_json "$1" failed "$2: $3"
}

# cell_aborted <cell> <exit status>: the cell's subshell stopped on a
# failed step (errexit) after or without writing its record: the record
# says failed, whatever it said before.
cell_aborted() {
	_why="a step failed (exit $2) without its own message; see $top/$1/cell.log"
	progress "$BRANCH" cross "$1: FAILED: $_why"
	if [ -r "$top/$1.json" ]; then
		jq --arg w "$_why" '.status = "failed" | .reason = $w' "$top/$1.json" >"$top/$1.json.tmp.$$"
	else
		jq -n --arg c "$1" --arg w "$_why" --arg at "$measured_at" --arg kit "$kit_commit" \
			'{cell: $c, status: "failed", reason: $w, measured_at: $at, kit_commit: $kit,
			  planned: [], tokens: {}, objects: {}}' >"$top/$1.json.tmp.$$"
	fi
	mv -f "$top/$1.json.tmp.$$" "$top/$1.json"
}

# The cross cache (see the top of this file).
xcache_dir=$KIT_CACHE/cross
xcache_on() {
	[ "${KIT_BUILD_CACHE:-1}" = 1 ] && [ "${KIT_CROSS_CACHE:-1}" = 1 ] && [ "${CROSS_KEEP:-0}" != 1 ] && [ -n "$src_id" ]
}
ver() { "$@" 2>/dev/null | head -1; }
# xcache_key: the key of $cell as run_cell has set it up (compiler found,
# flags made); fails when an input cannot be read.  Files are named
# relative to the kit, so every clone on the machine shares the entries.
xcache_key() {
	_kf=$top/.$cell.key.$$
	# shellcheck disable=SC2046,SC2086
	{
		printf 'cross cell, recipe 1\nbranch %s %s\ncell %s\nsource %s\ncc %s\n' "$BRANCH" "$BR_VERSION" "$cell" "$src_id" "$cc"
		printf 'flags %s\n' "$X_ALL_FLAGS" | sed "s|$KIT_ROOT/|<kit>/|g"
		printf 'X_%s=%s\n' ARCH "$X_ARCH" CC "$X_CC" CROSS "$X_CROSS" OBJS "$X_OBJS" FORCED "$X_FORCED" \
			TOKENS "$X_TOKENS" RENAME "$X_RENAME" CFLAGS "$X_CFLAGS" CONFIG_EXTRA "$X_CONFIG_EXTRA" MAKEVARS "$X_MAKEVARS" HOST_ALL "$X_HOST_ALL"
		ver $cc --version; ver "${X_CROSS}as" --version; ver "${X_CROSS}ld" --version; ver "$NM_X" --version
		ver cc --version; ver make --version; ver quilt --version; ver patch --version
		ver perl -e 'print "perl $^V\n"'
		# the change each patch is counted for (change_of)
		for _c in $(kit_changes); do
			printf 'change %s %s\n' "$_c" "$(info_field "$_c" Upstream | tr '\n' ' ')"
		done
	} >"$_kf" &&
		(cd "$KIT_ROOT" && sha256sum -- scripts/cross.sh scripts/lib.sh scripts/check-config.sh scripts/fix-state.sh \
			cross/check-expect.sh cross/check-calls.sh cross/pin-line.h $(find cross/objdiff -type f \( -name Makefile -o -name '*.[ch]' \) | LC_ALL=C sort) \
			$(expect_files | sed "s|^$KIT_ROOT/||") cross/matrix/common.config "cross/matrix/$cell.conf" "cross/matrix/$cell.config" \
			$(for _p in $X_HOST_ALL; do echo "branches/host/$_p.patch"; done)) >>"$_kf" &&
		series_code "$series_dir" >>"$_kf" &&
		_k=$(sha256sum <"$_kf") && rm -f "$_kf" && echo "${_k%% *}" && return 0
	rm -f "$_kf"
	return 1
}
# xcache_sound <entry>: the entry holds exactly the files its sha256sums
# names, each with its sum, and nothing but folders and files.
xcache_sound() {
	(cd "$1" && sha256sum -c --quiet sha256sums) >/dev/null 2>&1 &&
		[ -z "$(cd "$1" && find . ! -type f ! -type d)" ] &&
		[ "$(cd "$1" && find . -type f ! -path ./sha256sums | LC_ALL=C sort)" = \
			"$(sed 's/^[0-9a-f]*  //' "$1/sha256sums" | LC_ALL=C sort)" ]
}
# xcache_get: serve $cell from the cache into $cdir and its record; 1 when
# there is no sound entry (a damaged one is removed).
xcache_get() {
	_e=$xcache_dir/$xkey
	[ -e "$_e" ] || return 1
	if [ ! -r "$_e/record.json" ] || ! xcache_sound "$_e"; then
		warn "the cross cache entry $_e does not match its checksums; removing it and building $cell again"
		rmtree "$_e"
		return 1
	fi
	_t=$top/.$cell.cache.$$
	rmtree "$_t"
	if cp -R "$_e/cell" "$_t" && chmod -R u+w "$_t" &&
		jq --arg k "$xkey" --arg e "$_e" --arg flags "$X_ALL_FLAGS" \
			'.flags = $flags | .cache = {hit: true, key: $k, entry: $e}' \
			"$_e/record.json" >"$top/$cell.json.tmp.$$"; then
		rmtree "$cdir"
		mv "$_t" "$cdir" && mv -f "$top/$cell.json.tmp.$$" "$top/$cell.json" && {
			progress "$BRANCH" cross "$cell from the cross cache (${xkey%"${xkey#????????????}"}): $(jq -r '.status + ", measured " + .measured_at' "$top/$cell.json")"
			return 0
		}
	fi
	rmtree "$_t"; rm -f "$top/$cell.json.tmp.$$"
	return 1
}
# xcache_put: store $cell (just judged ok) under its key, and say so in its
# record; a failure to store is a warning, never a failed cell.
xcache_put() {
	_st=
	_t=$xcache_dir/.tmp.$xkey.$$
	rmtree "$_t"
	if mkdir -p "$_t" && cp -R "$cdir" "$_t/cell" && cp "$top/$cell.json" "$_t/record.json" &&
		(cd "$_t" && find . -type f ! -path ./sha256sums -exec sha256sum -- {} + | LC_ALL=C sort -k2 >sha256sums) &&
		chmod -R a-w "$_t" && mv -T "$_t" "$xcache_dir/$xkey" 2>/dev/null; then
		_st=$xcache_dir/$xkey
		progress "$BRANCH" cache "stored in the cross cache: $_st"
	else
		# the key exists (another run stored it first) or the copy failed
		rmtree "$_t"
	fi
	if ! jq --arg k "$xkey" --arg e "$_st" '.cache = {hit: false, key: $k, entry: (if $e == "" then null else $e end)}' \
		"$top/$cell.json" >"$top/$cell.json.tmp.$$" || ! mv -f "$top/$cell.json.tmp.$$" "$top/$cell.json"; then
		rm -f "$top/$cell.json.tmp.$$"
		warn "cannot note the cross cache in $top/$cell.json"
	fi
}

# run_cell <cell>: one cell, in the subshell the main loop gives it (its
# variables stay there): skip it, or build, push, rebuild and judge.
run_cell() {
	cell=$1
	X_DESC= X_ARCH= X_CC= X_CROSS= X_PKG= X_OBJS= X_SKIP= X_FORCED= X_HOST= X_TOKENS= X_RENAME= X_ALL_FLAGS= X_HOST_ALL= X_CFLAGS= X_CONFIG_EXTRA= X_MAKEVARS=
	# shellcheck disable=SC1090
	. "$mdir/$cell.conf"
	cdir=$top/$cell
	rmtree "$cdir"
	mkdir -p "$cdir"
	log=$cdir/cell.log
	: >"$log"
	if [ -n "$X_TOKENS" ]; then
		tokens_check "$cell"
		# what stands in for a compiler must hold: any other result
		# (tokens changed, a rename missing, a hunk that does not apply,
		# a file the tree lacks) fails the cell, skipped or not
		_tbad=$(grep -v -E ' (untouched|comments-only|renamed-only)$' "$cdir/tokens/result" | head -1)
		if [ -n "$_tbad" ]; then cell_fail "$cell" tokens "$_tbad"; return 1; fi
	fi
	if [ -n "$X_SKIP" ]; then
		progress "$BRANCH" cross "$cell: SKIPPED: $X_SKIP"
		cell_json "$cell" skipped "$X_SKIP"
		return 0
	fi
	# Debian's cross compilers Conflict with the gcc-multilib metapackage;
	# the kit installs gcc-12-multilib (which they do not conflict with) and
	# the versioned gcc-12-<arch>-linux-gnu ones, named <triplet>-gcc-12.
	cc=${X_CC:-${X_CROSS}gcc}
	if [ -z "$X_CC" ] && ! command -v "$cc" >/dev/null 2>&1 && command -v "${X_CROSS}gcc-12" >/dev/null 2>&1; then
		cc=${X_CROSS}gcc-12
	fi
	if ! echo 'int x;' | $cc -x c -c -o /dev/null - >/dev/null 2>&1; then
		why="compiler '$cc' not installed or not working: install $X_PKG (make cross-deps)"
		progress "$BRANCH" cross "$cell: SKIPPED: $why"
		cell_json "$cell" skipped "$why"
		return 0
	fi
	cc_version=$($cc --version 2>/dev/null | head -1)
	X_HOST_ALL="$generic_host $X_HOST"
	X_ALL_FLAGS="$base_flags $obj_flags${X_CFLAGS:+ $X_CFLAGS}"
	NM_X=${X_CROSS}nm
	command -v "$NM_X" >/dev/null 2>&1 || NM_X=nm
	u=$cdir/unpatched pd=$cdir/patched
	xkey=
	if xcache_on; then
		xkey=$(xcache_key) || { warn "cannot read every input of cell $cell; it is not cached"; xkey=; }
		if [ -n "$xkey" ] && xcache_get; then return 0; fi
	fi
	# one cell build at a time on this machine (2 cores), beside the
	# kit's kernel builds: the lock is machine-wide
	if ! flock -n 9; then
		progress "$BRANCH" wait "another kernel build is running; waiting for it"
		flock 9
		# what we waited for may have been this very cell (another OUT)
		if [ -n "$xkey" ] && xcache_get; then return 0; fi
	fi
	# plain calls, never "|| return": errexit must stay on inside them
	cell_unpatched
	cell_steps
	cell_rebuild
	cell_judge
	[ -z "$xkey" ] || xcache_put
}

# mk <tree> <make args...>: make in a cell's tree with its arch and
# compiler.  CROSS_COMPILE is always given, empty for a native cell: a
# tree whose Makefile says "CROSS_COMPILE ?= arm-linux-" must not pick ld.
mk() {
	# shellcheck disable=SC2086
	(cd "$1" && shift && nice -n 10 make ARCH="$X_ARCH" CROSS_COMPILE="$X_CROSS" CC="$cc $X_ALL_FLAGS" $X_MAKEVARS "$@")
}

# cell_unpatched: copy, host series, miniconfig, prepare, the objects.
cell_unpatched() {
	mkdir -p "$u/obj"
	progress "$BRANCH" cross "$cell: copy, host series ($(echo $X_HOST_ALL | wc -w) patches), miniconfig"
	# a checked tree of hard links to the export's link source (fetch.sh
	# --farm), made under the export's lock: a repair of the export
	# running meanwhile cannot hand this cell half a tree; the host
	# patches and kbuild replace the files they change (cell_steps copies
	# the configured tree, objects and all, before the series)
	sh "$KIT_ROOT/scripts/fetch.sh" --farm "$BRANCH" "$u/src" >/dev/null 2>>"$log" ||
		{ cell_fail "$cell" copy "fetch.sh --farm failed: $(sed -n 's/^[^:]*: error: //p' "$log" | tail -1)"; return 1; }
	# shellcheck disable=SC2046
	apply_host_patches "$BRANCH" "$u/src" "$log" $(for p in $X_HOST_ALL; do echo "$KIT_ROOT/branches/host/$p.patch"; done) ||
		{ cell_fail "$cell" host "$host_why"; return 1; }
	{ cat "$mdir/common.config" "$mdir/$cell.config"; [ -z "$X_CONFIG_EXTRA" ] || printf '%s\n' $X_CONFIG_EXTRA; } >"$cdir/kit.config"
	mk "$u/src" KCONFIG_ALLCONFIG="$cdir/kit.config" allnoconfig >>"$log" 2>&1 ||
		{ cell_fail "$cell" config "make allnoconfig failed"; return 1; }
	sh "$KIT_ROOT/scripts/check-config.sh" "$cdir/kit.config" "$u/src/.config" >>"$log" 2>&1 ||
		{ cell_fail "$cell" config "$(grep -m1 '^check-config: CONFIG' "$log")"; return 1; }
	progress "$BRANCH" cross "$cell: make prepare ($X_ARCH, ${X_CROSS:-host} gcc)"
	mk "$u/src" -j"$JOBS_X" prepare >>"$log" 2>&1 ||
		{ cell_fail "$cell" prepare "$(grep -m1 -E 'error|Error' "$log" || tail -1 "$log")"; return 1; }
	progress "$BRANCH" cross "$cell: unpatched $X_OBJS"
	build_objs unpatched "$u"
}

# build_objs STAGE DIR: the cell's objects built by one make in DIR/src
# (-O: each target's output kept together), each copied to DIR/obj with
# its own log and warnings (split_log); a failure fails the cell at STAGE.
# The kernel's make gets none of the kit's make flags: -s (make -s cross)
# or KBUILD_VERBOSE would take away the kbuild lines the logs are split at.
build_objs() {
	for o in $X_OBJS; do mkdir -p "$2/obj/$(dirname "$o")"; done
	# shellcheck disable=SC2086
	(unset MAKEFLAGS MAKELEVEL MAKEOVERRIDES KBUILD_VERBOSE; mk "$2/src" -j"$JOBS_X" -O $X_OBJS) >"$2/obj/make.log" 2>&1 ||
		{ cat "$2/obj/make.log" >>"$log"; cell_fail "$cell" "$1" "$(grep -m1 -E 'error|Error' "$2/obj/make.log" || tail -1 "$2/obj/make.log")"; return 1; }
	_miss=$(split_log "$2/obj/make.log" "$2/obj")
	[ -z "$_miss" ] || { cell_fail "$cell" "$1" "make built no $_miss (no kbuild line for it in $2/obj/make.log)"; return 1; }
	for o in $X_OBJS; do
		cp "$2/src/$o" "$2/obj/$o"
		warnings_of "$2/obj/$o.log" "$2/src" >"$2/obj/$o.warnings"
	done
}

# split_log LOG DIR: each object's log, DIR/<object>.log, from one make -O
# LOG: its own lines (its kbuild line, "  CC      fs/exec.o", and what its
# compiler said, up to the next kbuild line: -O keeps a target's output
# together), after every line that is no object's: what make redid before
# them (asm-offsets, bounds: a header's new warning there shows in each
# object, as in a make of that object alone) and make's own messages
# (wherever make put them).  Prints the objects with no kbuild line (each
# was removed before: make must have built it).
split_log() {
	awk -v d="$2" -v objs="$X_OBJS" '
		BEGIN { n = split(objs, a, " "); for (i = 1; i <= n; i++) want[a[i]] = 1 }
		/^make(\[[0-9]+\])?: / { common[++nc] = $0; next }
		/^  [A-Z][A-Z0-9_]*( \[M\])? +[^ ]+$/ { cur = ($NF in want) ? $NF : ""; if (cur != "") seen[cur] = 1 }
		cur != "" { own[cur] = own[cur] $0 "\n"; next }
		{ common[++nc] = $0 }
		END {
			for (i = 1; i <= n; i++) {
				f = d "/" a[i] ".log"; printf "" >f
				for (j = 1; j <= nc; j++) print common[j] >f
				printf "%s", own[a[i]] >f; close(f)
				if (!(a[i] in seen)) miss = miss " " a[i]
			}
			if (miss != "") print substr(miss, 2)
		}' "$1"
}

# cell_steps: the configured tree copied, the series pushed one patch at a
# time, the objects rebuilt after each (make rebuilds what depends on the
# files the patch touched) and diffed against the step before.
cell_steps() {
	mkdir -p "$pd/obj" "$cdir/steps"
	cp -a "$u/src" "$pd/src"
	n=0 prev=$u/obj
	for p in $(grep -v '^#' "$series_dir/series"); do
		n=$((n + 1))
		chg=$(change_of "$series_dir/$p")
		sd=$cdir/steps/$n-$chg
		mkdir -p "$sd"
		(cd "$pd/src" && QUILT_PATCHES=$series_dir QUILT_PC=.pc quilt push -q --fuzz=0) >>"$log" 2>&1 ||
			{ cell_fail "$cell" series "quilt push --fuzz=0 of $p failed"; return 1; }
		patch_files "$series_dir/$p" >"$sd/files"
		echo "$chg" >"$sd/change"
		if ! step_touches "$sd/files"; then
			progress "$BRANCH" cross "$cell: after $chg: no object depends on its files; not rebuilt"
			for o in $X_OBJS; do
				mkdir -p "$sd/$(dirname "$o")"
				cp "$prev/$o" "$sd/$o"; : >"$sd/$o.diff"; : >"$sd/$o.why"
			done
			prev=$sd
			continue
		fi
		progress "$BRANCH" cross "$cell: after $chg: rebuild $X_OBJS"
		# shellcheck disable=SC2086
		mk "$pd/src" -j"$JOBS_X" $X_OBJS >"$sd/make.log" 2>&1 ||
			{ cat "$sd/make.log" >>"$log"; cell_fail "$cell" patched "after $p: $(grep -m1 -E 'error|Error' "$sd/make.log" || tail -1 "$sd/make.log")"; return 1; }
		for o in $X_OBJS; do
			mkdir -p "$sd/$(dirname "$o")"
			cp "$pd/src/$o" "$sd/$o"
			"$OBJDIFF" "$prev/$o" "$sd/$o" >"$sd/$o.diff" ||
				{ cell_fail "$cell" objdiff "objdiff failed on $o after $chg"; return 1; }
			"$OBJDIFF" -v "$prev/$o" "$sd/$o" >"$sd/$o.why" ||
				{ cell_fail "$cell" objdiff "objdiff -v failed on $o after $chg"; return 1; }
		done
		prev=$sd
	done
}

# step_touches <files list>: some object depends on one of the files (the
# basename in kbuild's .cmd dependency lists: include/asm is a symlink in
# some releases, so the path may differ).  A patch none of whose files any
# object depends on cannot change them.
step_touches() {
	for f in $(sed 's|.*/||' "$1" | sort -u); do
		for o in $X_OBJS; do
			if grep -q "/$f \|^ *$f \|/$f\$" "$pd/src/$(dirname "$o")/.$(basename "$o").cmd" 2>/dev/null; then
				return 0
			fi
		done
	done
	return 1
}

# cell_rebuild: every object rebuilt from scratch for its complete
# warnings; it must equal what the steps made (the build is reproducible).
cell_rebuild() {
	progress "$BRANCH" cross "$cell: patched $X_OBJS (clean rebuild)"
	for o in $X_OBJS; do rm -f "$pd/src/$o"; done
	build_objs patched "$pd"
	for o in $X_OBJS; do
		# an objdiff that fails says nothing about reproducibility
		"$OBJDIFF" "$prev/$o" "$pd/obj/$o" >"$pd/obj/$o.repro" ||
			{ cell_fail "$cell" objdiff "objdiff failed on $o (clean rebuild against the steps)"; return 1; }
	done
}

# cell_judge: warnings, reproducibility, expected functions, the call; the
# cell's record.
cell_judge() {
	erc=0
	sh "$KIT_ROOT/cross/check-expect.sh" "$cdir" "$BRANCH" "$cell" "$X_OBJS" "$edir" >"$cdir/expect.txt" 2>&1 || erc=$?
	status=ok objs_json='{}'
	for o in $X_OBJS; do
		new=$(LC_ALL=C comm -13 "$u/obj/$o.warnings" "$pd/obj/$o.warnings")
		ostat=ok why=
		if [ -n "$new" ]; then ostat=failed why="new warning: $(echo "$new" | head -1)"; fi
		if [ -s "$pd/obj/$o.repro" ]; then ostat=failed why="${why:+$why; }not reproducible: $(head -1 "$pd/obj/$o.repro")"; fi
		bad=$(grep "^FAIL $o " "$cdir/expect.txt" | head -1 | cut -d' ' -f3-)
		[ -z "$bad" ] || { ostat=failed; why="${why:+$why; }$bad"; }
		# whatever objdiff says: what a fix's cross/calls says must hold of
		# the patched object (a loader must call setup_new_exec, say)
		# shellcheck disable=SC2086
		calls=$(sh "$KIT_ROOT/cross/check-calls.sh" "$NM_X" "$pd/obj/$o" $calls_files 2>&1) || { ostat=failed; why="${why:+$why; }$calls"; }
		changed=$(for s in "$cdir"/steps/*; do
			if [ -s "$s/$o.diff" ]; then
				printf '%s: %s; ' "$(cut -c1 "$s/change")" "$(cut -d' ' -f2 "$s/$o.diff" | tr '\n' ' ' | sed 's/ $//')"
			fi
		done)
		[ "$ostat" = ok ] || status=failed
		objs_json=$(printf '%s' "$objs_json" | jq --arg o "$o" --arg s "$ostat" --arg w "$why" \
			--arg forced "$(case " $X_FORCED " in *" $o "*) echo yes ;; esac)" \
			--rawfile uw "$u/obj/$o.warnings" --rawfile pw "$pd/obj/$o.warnings" --arg ch "$changed" \
			'.[$o] = {status: $s, reason: $w, forced_past_kconfig: ($forced == "yes"),
			   warnings_unpatched: ($uw | split("\n") | map(select(. != "")) | length),
			   warnings_patched: ($pw | split("\n") | map(select(. != "")) | length),
			   changed_by_patch: $ch}')
	done
	reason=$(grep '^FAIL' "$cdir/expect.txt" | head -3 | tr '\n' ' ')
	if [ $erc -ne 0 ]; then
		status=failed
		[ -n "$reason" ] || reason="cross/check-expect.sh failed (exit $erc): $(tail -1 "$cdir/expect.txt")"
	fi
	steps_json=$(for s in "$cdir"/steps/*; do
		for o in $X_OBJS; do
			while read -r kind fn; do
				jq -n --arg c "$(cat "$s/change")" --arg o "$o" --arg k "$kind" --arg f "$fn" '{change: $c, object: $o, kind: $k, function: $f}'
			done <"$s/$o.diff"
		done
	done | jq -s '.')
	cell_json "$cell" "$status" "$reason" "$objs_json"
	jq --argjson s "$steps_json" '.changed_functions = $s' "$top/$cell.json" >"$top/$cell.json.tmp.$$"
	mv -f "$top/$cell.json.tmp.$$" "$top/$cell.json"
	if [ "${CROSS_KEEP:-0}" != 1 ]; then
		rmtree "$u/src" "$pd/src"
	fi
	progress "$BRANCH" cross "$cell: $status ($(grep -c '^OK' "$cdir/expect.txt") expectations met, $(grep -c '^FAIL' "$cdir/expect.txt") failed)"
	[ "$status" = ok ]
}

# tokens_check <cell>: for a file no compiler here can build, show that the
# series changes no C token in it (comments only): preprocess both versions
# with -fpreprocessed (comments out, macros untouched) and compare.  A file
# the tree lacks or cc cannot read is said so, never "comments-only".
# With X_RENAME="<old> <new>" the series must rename an identifier and do
# nothing else: <new> absent before and present after, and the patched
# tokens with <new> put back to <old> equal the unpatched ones
# ("renamed-only"); a file the series leaves alone is "rename-missing".
tokens_check() {
	_tc=$top/$1/tokens
	mkdir -p "$_tc/a" "$_tc/b"
	: >"$_tc/result"
	for _f in $X_TOKENS; do
		_n=$(echo "$_f" | tr / _)
		if [ ! -r "$src/$_f" ]; then echo "$_f missing-from-tree" >>"$_tc/result"; continue; fi
		cp "$src/$_f" "$_tc/a/$_n"
		cp "$src/$_f" "$_tc/b/$_n"; chmod u+w "$_tc/b/$_n"
		for _p in $(grep -v '^#' "$series_dir/series"); do
			if grep -q "^+++ b/$_f" "$series_dir/$_p"; then
				filterdiff_one "$series_dir/$_p" "$_f" | patch -s -p1 -F0 --no-backup-if-mismatch "$_tc/b/$_n" >/dev/null 2>&1 ||
					echo "$_f: $_p does not apply" >>"$_tc/result"
			fi
		done
		_same=untouched _cmt=comments-only
		[ -z "$X_RENAME" ] || _same=rename-missing _cmt=rename-missing
		if cmp -s "$_tc/a/$_n" "$_tc/b/$_n"; then echo "$_f $_same" >>"$_tc/result"
		elif ! cc -fpreprocessed -E -P "$_tc/a/$_n" >"$_tc/a/$_n.i" 2>>"$_tc/cc.log" ||
			! cc -fpreprocessed -E -P "$_tc/b/$_n" >"$_tc/b/$_n.i" 2>>"$_tc/cc.log"; then
			echo "$_f cannot-preprocess" >>"$_tc/result"
		elif cmp -s "$_tc/a/$_n.i" "$_tc/b/$_n.i"; then echo "$_f $_cmt" >>"$_tc/result"
		elif [ -n "$X_RENAME" ] && renamed_only "$_tc/a/$_n.i" "$_tc/b/$_n.i" $X_RENAME; then
			echo "$_f renamed-only" >>"$_tc/result"
		else echo "$_f tokens-changed" >>"$_tc/result"; fi
	done
}
# renamed_only <a.i> <b.i> <old> <new>: b is a with the identifier <old>
# renamed <new>, and nothing else.
renamed_only() {
	! grep -qw -- "$4" "$1" && grep -qw -- "$4" "$2" && grep -qw -- "$3" "$1" &&
		sed "s/\\<$4\\>/$3/g" "$2" | cmp -s - "$1"
}
# filterdiff_one <patch> <file>: the part of a patch for one file.
filterdiff_one() {
	awk -v f="$2" '/^diff --git /{on = ($3 == "a/" f)} on' "$1"
}
tokens_json() {
	[ -s "$top/${cell:-}/tokens/result" ] || { echo '{}'; return 0; }
	jq -Rn '[inputs | split(" ") | {(.[0]): .[1]}] | add // {}' <"$top/$cell/tokens/result"
}

# render: this run's table, its record and result.json, from the records
# of the cells this run ran, one line per object so no cell is silently
# missing; a cell without a record failed before writing one.
# record_of <cell>: the cell's record, or a failed one saying why there is
# none.
record_of() {
	if jq -e 'type == "object"' "$top/$1.json" >/dev/null 2>&1; then cat "$top/$1.json"
	else jq -n --arg c "$1" '{cell: $c, status: "failed", reason: "no readable record (the cell stopped before writing one)",
		planned: [], tokens: {}, objects: {}}'; fi
}
render() {
	for c in $cells; do
		record_of "$c" >"$top/record.tmp.$$"
		jq -r --arg b "$BRANCH" '. as $c
			| (if (.planned | length) == 0 then ["-"] else .planned end)[] as $o
			| [$b, $c.cell, $o,
			   (if $c.status == "not-in-pick" then "not in this pick (" + $c.reason + ")"
			    elif $c.status == "skipped" then "skipped: " + $c.reason
			      + (if $c.tokens[$o] then " [" + $o + ": " + $c.tokens[$o] + "]" else "" end)
			    elif $c.objects[$o] then
			      ($c.objects[$o].status + (if $c.objects[$o].reason != "" then ": " + $c.objects[$o].reason else "" end)
			       + (if $c.objects[$o].forced_past_kconfig then " (forced past Kconfig)" else "" end))
			    elif $c.status == "failed" then "failed: " + $c.reason
			    else "?" end)]
			| @tsv' "$top/record.tmp.$$" | awk -F'\t' '{ printf "%-8s %-10s %-34s %s\n", $1, $2, $3, $4 }'
	done >"$top/rows.tmp.$$"
	{ printf '%-8s %-10s %-34s %s\n' branch cell object result; cat "$top/rows.tmp.$$"; } >"$table.tmp.$$"
	rm -f "$top/rows.tmp.$$" "$top/record.tmp.$$"
	mv -f "$table.tmp.$$" "$table"
	for c in $cells; do record_of "$c"; done | jq -s --arg b "$BRANCH" --arg at "$measured_at" --arg kit "$kit_commit" --arg cells "$cells" \
		--arg pick "$pick" --arg pa "$pick_arches" --arg sd "$series_dir" \
		'{branch: $b, measured_at: $at, kit_commit: $kit, tool: "cross/objdiff", table: "cross/table.txt",
		  pick: (if $pick == "" then null else {name: $pick, arches: ($pa | split(" ")), series_dir: $sd} end),
		  cells_run: ($cells | split("\\s+"; null) | map(select(. != ""))),
		  cells: (map({(.cell): .}) | add // {})}
		 | .from_cache = [.cells[] | select(.cache.hit == true) | .cell]
		 | .status = (if ([.cells[] | select(.status == "failed")] | length) > 0 then "failed"
		              elif ([.cells[] | select(.status == "ok")] | length) > 0 then "ok" else "skipped" end)' >"$top/cross.json.tmp.$$"
	mv -f "$top/cross.json.tmp.$$" "$top/cross.json"
	# this run replaces whatever an earlier one recorded: no cell carried over
	result_update "$result" --slurpfile r "$top/cross.json" '.cross = $r[0]'
}

# The cells run CROSS_JOBS at a time (default: JOBS, at most the cells), each
# make with JOBS/CROSS_JOBS jobs: a cell's make has a few objects, and between
# its makes a cell configures, pushes patches and compares objects on one
# core, so two cells beside each other keep two cores busy where one cell
# with make -j2 left one idle half the time.  Together they are one
# kernel build's worth of work: they hold the user's build lock (2 cores;
# taken by a cell after the cache, scripts/lib.sh KIT_LOCK) as one, each
# worker on the lock file this script opened, released when the last
# cell is done.  A record left by an earlier run of a cell is removed
# first: the table must not show it as this run's.
mkdir -p "$KIT_CACHE"
build_lock_ready
exec 9>>"$KIT_LOCK"
if xcache_on; then
	mkdir -p "$xcache_dir" || die 1 "cannot create $xcache_dir"
	# what an interrupted store left (its pid is the name's last part)
	for o in "$xcache_dir"/.tmp.*; do
		if [ -e "$o" ] && ! kill -0 "${o##*.}" 2>/dev/null; then rmtree "$o"; fi
	done
elif [ -z "$src_id" ]; then
	progress "$BRANCH" cross "the source has no verified marker naming it ($src/.kit-verified): the cross cache is not used"
fi
ncells=$(echo $cells | wc -w)
[ "$CROSS_JOBS" -le "$ncells" ] || CROSS_JOBS=$ncells
JOBS_X=$((JOBS / CROSS_JOBS)); [ "$JOBS_X" -ge 1 ] || JOBS_X=1; [ "$JOBS_X" -le 2 ] || JOBS_X=2
# the queue: the cells not yet taken, one per line, those with the most
# objects first (the longest, so that no long cell starts last); next_cell
# takes the first (under its own lock: the workers share it)
queue=$top/.queue.$$
for c in $cells; do
	# shellcheck disable=SC1090
	printf '%s %s\n' "$(X_OBJS= X_SKIP=; . "$mdir/$c.conf"; [ -n "$X_SKIP" ] || echo $X_OBJS | wc -w)" "$c"
done | sort -s -k1,1nr | cut -d' ' -f2 >"$queue"
next_cell() {
	flock 7
	_c=$(head -1 "$queue")
	[ -n "$_c" ] && sed -i 1d "$queue"
	flock -u 7
	[ -n "$_c" ] && echo "$_c"
}
# worker: cells from the queue until it is empty; a failed one is named
# in $top/.failed.<pid>
worker() {
	while c=$(next_cell); do
		rm -f "$top/$c.json"
		if [ -n "$pick" ] && ! arches_has "$pick_arches" "$(arch_of_cell "$c")"; then
			progress "$BRANCH" cross "$c: not in this pick (ARCHES=$pick_arches)"
			cell_json "$c" not-in-pick "ARCHES=$pick_arches has no $(arch_of_cell "$c")"
			continue
		fi
		# errexit inside the cell: run_cell in an || list (or an if)
		# would run with errexit off (POSIX), and a failed step would go
		# unnoticed.
		set +e
		(set -e; run_cell "$c")
		crc=$?
		set -e
		if [ $crc -ne 0 ]; then
			echo "$c" >>"$top/.failed.$$"
			jq -e '.status == "failed"' "$top/$c.json" >/dev/null 2>&1 || cell_aborted "$c" "$crc"
		fi
	done
}
rm -f "$top/.failed.$$"
workers=
trap '[ -z "$workers" ] || kill $workers 2>/dev/null; rm -f "$queue" "$queue.lock" "$top/.failed.$$" || :' EXIT
trap 'exit 130' INT; trap 'exit 143' TERM
w=0
while [ $w -lt "$CROSS_JOBS" ]; do
	worker 7>>"$queue.lock" &
	workers="$workers $!"
	w=$((w + 1))
done
# (each worker's status is in .failed: a worker itself stops only when
# the queue is empty)
# shellcheck disable=SC2086
wait $workers || :
workers=
flock -u 9
rc=0
[ ! -s "$top/.failed.$$" ] || rc=1
render
cat "$table"
exit $rc
