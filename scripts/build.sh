#!/bin/sh
# build.sh KIND [BRANCH]: build BRANCH's kernel, KIND = unpatched | patched.
#
# KIND may also be any other lower-case label (mutant-a, ptrace-only, ...)
# together with SERIES_DIR=<a quilt series folder>: a patched build with
# that series instead of backports/<branch>, for mutation and partial-fix
# experiments.  KIT_ALLOW_MISORDER=1 lets such a series break the ordering
# rule (a mutant does on purpose); the kit's own series never may.
#
# Works on its own tree: $OUT/<name>/<KIND>/src is a farm of hard links to
# the verified export's link source (fetch.sh --farm; for TREE=, that farm
# with copies of the files the tree changed, fetch.sh --tree-farm), with
# the branch's host-toolchain series applied (and, for KIND=patched, the
# security series backports/<branch>/).  The tree is made under a temp
# name and renamed when the build is complete, so a failed build never
# leaves a half-made output that looks done.  A kit kernel's .config comes
# from allnoconfig, or from the configuration cache (KIT_CACHE/configs:
# the .config allnoconfig made of the same miniconfig and Kconfig files;
# KIT_CONFIG_CACHE=0 makes it every time).
#
# The tree is checked file by file against what its source vouches for
# (fetch.sh --farm: the export's listing; TREE=: the tree's own listing,
# taken before the copy), and after the patches it may differ from that
# listing only in the files the patches name.  Only then is the pinned
# commit recorded as the build's source.  A host-toolchain patch is applied
# only where its change is absent, skipped and named where the tree has it
# (fix-state.sh --host), and refused where it is half there.
#
#   exit 0 built (or already up to date), 3 source unreachable (SKIP),
#   2 bad input, 1 a step failed.
set -eu
. "$(dirname "$0")/lib.sh"

KIND=${1:?usage: build.sh unpatched|patched [BRANCH]}
case $KIND in
unpatched | patched) ;;
*[!a-z0-9-]* | "") die 2 "build kind must be 'unpatched' or 'patched' (or a lower-case label with SERIES_DIR=), not '$KIND'" ;;
*) [ -n "${SERIES_DIR:-}" ] || die 2 "build kind must be 'unpatched' or 'patched', not '$KIND' (a custom label needs SERIES_DIR=<series folder>)" ;;
esac
BRANCH=${2:-${BRANCH:-}}
TREE=${TREE:-}
# CONFIG=<file>: a TREE='s own .config (the one its distribution ships);
# never passed on to the kernel's own make
tree_config=${CONFIG:-}
unset CONFIG
check_inputs NAME BRANCH
if [ -n "$tree_config" ]; then
	[ -n "$TREE" ] ||
		die 2 "CONFIG= is for a tree of your own (TREE=); a branch builds with the kit's miniconfig, its reference: drop CONFIG= or add TREE=<dir>"
	[ -f "$tree_config" ] && [ -r "$tree_config" ] ||
		die 2 "CONFIG=$tree_config is not a readable file; give the .config your tree is built with"
	grep -q '^CONFIG_[A-Za-z0-9_]*=\|^# CONFIG_[A-Za-z0-9_]* is not set' "$tree_config" ||
		die 2 "CONFIG=$tree_config has no CONFIG_... line: it is not a kernel .config"
	tree_config=$(cd "$(dirname "$tree_config")" && pwd)/$(basename "$tree_config")
fi

if [ -n "$TREE" ]; then
	# BRANCH= given: honoured when the tree's code matches it, whatever its
	# Makefile says; refused, saying why, when it does not.
	BRANCH=$(sh "$KIT_ROOT/scripts/detect.sh" "$TREE" ${BRANCH:+"$BRANCH"}) || exit $?
	tree_run_name "$TREE"; NAME=$_trn
else
	NAME=${NAME:-$BRANCH}
fi
load_branch "$BRANCH"
# $OUT/$NAME is written below: a plain name, or nothing at all
check_name NAME "$NAME"
need_cmd gcc make perl patch quilt jq diff
# shellcheck disable=SC1090
. "$KIT_ROOT/branches/host/$BR_FLAGS.flags"


nodedir=$OUT/$NAME
bdir=$nodedir/$KIND
result=$nodedir/result.json

# Lists below hold names (host patches, fragments, series entries), never
# paths: the kit, OUT or a series may sit in a folder whose path has a
# space, and a path is made where it is used, quoted.
for p in $BR_HOST_SERIES; do
	[ -r "$KIT_ROOT/branches/host/$p.patch" ] ||
		die 2 "branches/$BRANCH.conf names host patch '$p', but branches/host/$p.patch does not exist"
done
sec_dir=
if [ "$KIND" != unpatched ]; then
	sec_dir=${SERIES_DIR:-$KIT_ROOT/backports/$BRANCH}
	[ -r "$sec_dir/series" ] ||
		die 2 "no security series for $BRANCH ($sec_dir/series); run 'make series BRANCH=$BRANCH' first"
	if [ "${KIT_ALLOW_MISORDER:-0}" != 1 ]; then
		# the rule for the architectures shipped (ARCHES=, default all),
		# and always for the one this kernel is built for
		ARCHES="${ARCHES:-all} $BR_ARCH" sh "$KIT_ROOT/scripts/series-order.sh" "$sec_dir/series" ||
			die 2 "$sec_dir/series breaks the ordering rule; see the message above"
	fi
fi
# The branch's config fragments.  A TREE= builds with its own
# configuration (CONFIG=, or its defconfig) plus only what the
# verification needs: a fragment marked "# kit-scope: miniconfig" only
# makes the kit's own kernels small, and is left out there.
frags=
for c in $BR_CONFIG; do
	f=$KIT_ROOT/branches/config/$c
	[ -r "$f" ] || die 2 "branches/$BRANCH.conf names config fragment '$c', but branches/config/$c does not exist"
	[ -z "$TREE" ] || ! grep -qx '# kit-scope: miniconfig' "$f" || continue
	frags="$frags $c"
done
# cat_frags: the fragments built with, in order
cat_frags() { for _c in $frags; do cat "$KIT_ROOT/branches/config/$_c"; done; }
# where a TREE='s configuration starts: an input of the build like any other
if [ -z "$TREE" ]; then config_from=miniconfig
elif [ -n "$tree_config" ]; then config_from="CONFIG=$tree_config"
else config_from="the tree's defconfig ($BR_ARCH)"; fi

# Inputs checked; now the source (exit 3 when unreachable).  TREE= is
# named by its content (the digest of its listing), never by its path: an
# edited tree is another input.
if [ -n "$TREE" ]; then
	src=$(cd "$TREE" && pwd)
	src_listing=$(mktemp)
	trap 'rm -f "$src_listing"' EXIT
	sh "$KIT_ROOT/scripts/fetch.sh" --listing "$src" >"$src_listing" ||
		die 1 "cannot read every file of TREE=$TREE"
	src_id=tree-content:$(sha256sum <"$src_listing" | cut -d' ' -f1)
	commit=
else
	# make verify hands over the source it fetched and verified in this
	# run (KIT_RUN_SRC), and the series it planned for it (KIT_RUN_PLAN):
	# the same calls, made once per branch rather than once per kernel
	src=${KIT_RUN_SRC:-}
	# (an unpatched kernel reads the export's marker, not its files: its
	# tree is a farm held to the marker's listing; a patched one's plan
	# reads the files)
	[ -n "$src" ] && [ -r "$src/.kit-verified" ] ||
		src=$(sh "$KIT_ROOT/scripts/fetch.sh" $([ "$KIND" != unpatched ] || echo --marker) "$BRANCH") || exit $?
	src_id=$(sed -n '/^listing$/q; s/^commit //p; s/^deb_sha256 /deb:/p' "$src/.kit-verified" | head -1)
	commit=${BR_COMMIT:-}
fi

out_root
mkdir -p "$nodedir"
# What a run killed half-way left in $nodedir (Ctrl-C, a lost machine): its
# work tree (.<kind>.tmp.<pid>, a whole kernel tree) and its copy from the
# cache (.<kind>.cache.<pid>).  Removed when that pid is gone; a live run's,
# or one whose pid this user cannot signal, is kept.
for _o in "$nodedir"/.*.tmp.* "$nodedir"/.*.cache.*; do
	case ${_o##*.} in '' | *[!0-9]*) continue ;; esac
	# (kill -0 fails for another user's live process too: /proc says)
	if [ -d "$_o" ] && ! kill -0 "${_o##*.}" 2>/dev/null && [ ! -d "/proc/${_o##*.}" ]; then rmtree "$_o"; fi
done
# The fixed name earlier builds worked in (.<kind>.tmp) names no pid: it is
# removed only when no build of this user runs (the build lock is free).
for _o in "$nodedir"/.*.tmp; do
	[ -d "$_o" ] && [ ! -L "$KIT_LOCK" ] || continue
	{ flock -n 8 && rmtree "$_o"; } 8>>"$KIT_LOCK" 2>/dev/null || :
done

# The kit's own series goes only where the tree lacks it: a tree that
# already carries some changes gets the missing ones (and is refused if what
# it carries breaks the ordering rule); one that carries all is not patched.
if [ "$KIND" = patched ] && [ -z "${SERIES_DIR:-}" ]; then
	plan_dir=
	if [ -n "$TREE" ]; then
		# A tree the kit was not tuned for: make its own series from the
		# same hunks and rules (each patch says how it was made); a hunk
		# that does not fit names the file and function.
		set +e
		sh "$KIT_ROOT/scripts/plan-series.sh" "$BRANCH" "$src" "$nodedir/plan" >/dev/null
		prc=$?
		set -e
		[ $prc -eq 4 ] && die 4 "[$NAME] already fixed: the tree carries every change; nothing to apply, nothing built"
		[ $prc -eq 0 ] || exit $prc
		progress "$NAME" series "making a series for this tree (TREE=)"
		SERIES_TREE=$src SERIES_OUT=$nodedir/tree-series sh "$KIT_ROOT/scripts/series.sh" "$BRANCH" ||
			die 1 "[$NAME] no series could be made for $TREE; see the message above"
		plan_dir=$nodedir/tree-series
	fi
	set +e
	if [ -z "$TREE" ] && [ -n "${KIT_RUN_PLAN:-}" ] && [ "$src" = "${KIT_RUN_SRC:-}" ] && [ -r "$KIT_RUN_PLAN/series" ]; then
		sec_dir=$KIT_RUN_PLAN prc=0
	else
		sec_dir=$(PLAN_SERIES_DIR=$plan_dir sh "$KIT_ROOT/scripts/plan-series.sh" "$BRANCH" "$src" "$nodedir/plan")
		prc=$?
	fi
	set -e
	[ $prc -eq 4 ] && die 4 "[$NAME] already fixed: the tree carries every change; nothing to apply, nothing built"
	[ $prc -eq 0 ] || exit $prc
fi

ver() { "$@" 2>/dev/null | head -1; }

# Everything that decides the build, hashed: a matching stamp means the
# bzImage in $bdir is what these inputs make.
stamp=$(
	{
		# Bump when the recipe below changes what it builds; the scripts
		# that make and check a build are inputs too, byte for byte.
		echo "recipe 3 $src_id $KIND $KIT_CC_FLAGS $BR_ARCH $BR_CONFIG_BASE misorder=${KIT_ALLOW_MISORDER:-0}"
		# a TREE='s own configuration, by content (never by path)
		[ -z "$tree_config" ] || { echo "config CONFIG="; cat "$tree_config"; }
		[ -z "$TREE" ] || [ -n "$tree_config" ] || echo "config defconfig"
		(cd "$KIT_ROOT/scripts" && cat build.sh lib.sh check-config.sh flag-audit.sh fix-state.sh)
		# the toolchain that turns the same source into another kernel
		ver gcc --version; ver ld --version; ver as --version; ver make --version
		perl -e 'print "perl $^V\n"'
		for p in $BR_HOST_SERIES; do cat "$KIT_ROOT/branches/host/$p.patch"; done
		cat_frags
		cat "$KIT_ROOT/branches/host/$BR_FLAGS.flags"
		[ -z "$sec_dir" ] || series_code "$sec_dir"
	} | sha256sum | cut -d' ' -f1
)
# digests_complete DIR FILE...: DIR/sha256sums has a line for each FILE
# (sha256sum -c checks only the lines there: a file whose line was taken
# out would pass it)
digests_complete() {
	_dd=$1; shift
	[ -r "$_dd/sha256sums" ] || return 1
	for _df; do
		grep -q "^[0-9a-f]\{64\}  $_df\$" "$_dd/sha256sums" || return 1
	done
}
# up_to_date: the kernel in $bdir is what these inputs made (its stamp)
# and what its build wrote (every file matches the build's digest list).
# A list that is missing or short is no proof: built again.  A file that
# does not match its digest was changed after the build: stop, naming it.
up_to_date() {
	[ -f "$bdir/bzImage" ] && [ "$(cat "$bdir/stamp" 2>/dev/null)" = "$stamp" ] || return 1
	# shellcheck disable=SC2086
	digests_complete "$bdir" $cache_files build.json || {
		warn "[$NAME] $bdir has no complete digest list (sha256sums); building the $KIND kernel again"
		return 1
	}
	_bad=$(cd "$bdir" && sha256sum -c sha256sums 2>/dev/null | sed -n 's/: FAILED.*//p' | head -1)
	[ -z "$_bad" ] || [ ! -e "$bdir/$_bad" ] ||
		die 1 "[$NAME] $bdir/$_bad is not the file its build wrote (sha256 differs from $bdir/sha256sums); remove $bdir and run again"
	[ -z "$_bad" ] || die 1 "[$NAME] $bdir/$_bad is missing (named in $bdir/sha256sums); remove $bdir and run again"
	# the build's record, again: a result.json moved away or rewritten
	# since gets it from the build's own record; where the configuration
	# came from is this run's (CONFIG= is keyed by content: the build that
	# made the kernel may have named the same file by another path)
	result_update "$result" --arg b "$NAME" --arg br "$BRANCH" --arg k "$KIND" --arg src "$src_id" \
		--arg commit "$commit" --arg tree "${TREE:+$src}" \
		--arg log "$bdir/build.log" --arg img "$bdir/bzImage" --slurpfile rec "$bdir/build.json" \
		--arg cfrom "$config_from" \
		'.branch = $b | .definition = $br | .base_commit = (if $commit == "" then null else $commit end)
		 | .source = $src | .tree = (if $tree == "" then null else $tree end)
		 | .build[$k] = ($rec[0].build + {log: $log, bzImage: $img, up_to_date: true, cache: (.build[$k].cache // null)})
		 | .build[$k].config.from = $cfrom | .toolchain = $rec[0].toolchain'
	progress "$NAME" build "$KIND kernel is up to date ($bdir/bzImage, every file as its build wrote it)"
}

# The build cache: $KIT_CACHE/builds/<stamp>/ (KIT_BUILDS= elsewhere) holds what a finished build
# leaves beside its work tree (bzImage, .config, System.map, the loader
# objects' symbols, logs and checks) and the build's own record.  An entry
# is published by one rename that fails when the key exists, and checked
# against its own sha256sums before it is served; one that does not match
# stops the run, naming it.  A source the kit cannot name (no commit, no
# content digest) is never cached.
cache_dir=${KIT_BUILDS:-$KIT_CACHE/builds}
cache_files="bzImage .config System.map symbols.txt config.sha256 required.config flags.txt changed-files expected-files build.log"
from_cache() {
	[ "${KIT_BUILD_CACHE:-1}" = 1 ] && [ -n "$src_id" ] || return 1
	# what an interrupted store left (its pid is the name's last part)
	for _o in "$cache_dir"/.tmp.*; do
		[ -e "$_o" ] && ! kill -0 "${_o##*.}" 2>/dev/null && rmtree "$_o"
	done
	_e=$cache_dir/$stamp
	[ -r "$_e/build.json" ] || return 1
	# An entry is published whole by one rename and never written again:
	# one that does not match is another kernel put there (or a disk
	# that lost it), never served and never rebuilt over in silence.
	_fix="it is not what a build stored there: remove it (chmod -R u+w '$_e'; rm -rf '$_e') and run again"
	for _f in $cache_files build.json; do
		digests_complete "$_e" "$_f" ||
			die 1 "[$NAME] the build cache entry $_e has no line for $_f in its sha256sums; $_fix"
	done
	_bad=$(cd "$_e" && sha256sum -c sha256sums 2>/dev/null | sed -n 's/: FAILED.*//p' | head -1)
	[ -z "$_bad" ] ||
		die 1 "[$NAME] the build cache entry $_e: $_bad does not match its sha256sums; $_fix"
	_t=$nodedir/.$KIND.cache.$$
	rmtree "$_t"
	mkdir -p "$_t" && (cd "$_e" && cp -p $cache_files build.json sha256sums "$_t"/) &&
		{ [ ! -r "$_e/skipped-patches" ] || cp -p "$_e/skipped-patches" "$_t"/; } &&
		printf '%s\n' "$stamp" >"$_t/stamp" || { rmtree "$_t"; return 1; }
	rmtree "$bdir" "$bdir.failed"
	mv "$_t" "$bdir" || die 1 "cannot move the cached kernel into $bdir"
	# the entry's build, this run's configuration source (as up_to_date)
	result_update "$result" --arg b "$NAME" --arg br "$BRANCH" --arg k "$KIND" \
		--arg commit "$commit" --arg src "$src_id" --arg tree "${TREE:+$src}" \
		--arg log "$bdir/build.log" --arg img "$bdir/bzImage" --arg e "$_e" \
		--slurpfile rec "$bdir/build.json" --arg cfrom "$config_from" \
		'.branch = $b | .definition = $br | .base_commit = (if $commit == "" then null else $commit end)
		 | .source = $src | .tree = (if $tree == "" then null else $tree end)
		 | .build[$k] = ($rec[0].build + {log: $log, bzImage: $img,
		     cache: {hit: true, key: $rec[0].build.inputs_sha256, entry: $e, built_at: $rec[0].built_at}})
		 | .build[$k].config.from = $cfrom | .toolchain = $rec[0].toolchain'
	progress "$NAME" build "$KIND kernel from the build cache (key ${stamp%"${stamp#????????????}"}, built $(jq -r .built_at "$bdir/build.json"), $(jq -r .build.seconds "$bdir/build.json")s then): $bdir/bzImage"
}
# to_cache: publish $bdir (just built) under its key; a failure to store is
# a warning, never a failed build.
to_cache() {
	[ "${KIT_BUILD_CACHE:-1}" = 1 ] && [ -n "$src_id" ] || return 0
	mkdir -p "$cache_dir" || { warn "cannot create $cache_dir; the kernel is not cached"; return 0; }
	_t=$cache_dir/.tmp.$stamp.$$
	rmtree "$_t"
	if mkdir "$_t" && (cd "$bdir" && cp -p $cache_files build.json "$_t"/) &&
		{ [ ! -r "$bdir/skipped-patches" ] || cp -p "$bdir/skipped-patches" "$_t"/; } &&
		(cd "$_t" && sha256sum $cache_files build.json $(ls skipped-patches 2>/dev/null) >sha256sums) &&
		chmod -R a-w "$_t" && mv -T "$_t" "$cache_dir/$stamp" 2>/dev/null; then
		progress "$NAME" cache "stored in the build cache: $cache_dir/$stamp"
	else
		# the key exists (another run stored it first) or the copy failed
		rmtree "$_t"
	fi
}
up_to_date && exit 0
# A kernel these very inputs made before, in this or any output root or
# clone on the machine (the build cache, keyed by the digest above).
from_cache && exit 0

# The kernel's own make splits paths at spaces and takes a colon for a rule:
# it cannot build in such a folder (the kit's scripts can, and a kernel
# served above needs no make).
case $OUT in *[[:space:]:]*)
	die 2 "[$NAME] OUT=$OUT has a space or a colon in its path, where the kernel's make cannot build; set OUT=<a folder whose path has neither>" ;;
esac

# One kernel build at a time (2 cores), whatever cache or output root the
# run uses: the user's build lock (scripts/lib.sh, KIT_LOCK).
mkdir -p "$KIT_CACHE"
build_lock_ready
exec 9>>"$KIT_LOCK"
if ! flock -n 9; then
	progress "$NAME" wait "another kernel build is running; waiting for it"
	flock 9
fi
# The same build started twice (two "make verify" of one branch): the
# other may have made it since the check above; building it again would
# pull the bzImage from under the other's boot.
up_to_date && exit 0

# kbuild names its tree by absolute path in every command it records
# (-I$(srctree)/arch/x86/include) and in every header an object depends on,
# so a tree's objects serve a later make only at the path they were built
# at.  Every build runs make with srctree= and objtree= set to one fixed
# name, a link to the work tree: this user's, next to the build lock that
# lets one build run at a time.  Then a built tree's commands are the same
# wherever it has moved, and a later build can start from its objects (the
# seed, below).  A name make cannot take (not absolute; a space, a colon,
# or a character make or the shell reads as its own) or a folder standing
# there: the work tree's own path, as make gives it, and no seed.
tree_link=$KIT_LOCK.tree
case $tree_link in /*) ;; *) tree_link= ;; esac
case $tree_link in *[[:space:]:*?[\\\$#\'\"\`]*) tree_link= ;; esac
[ -z "$tree_link" ] || [ -L "$tree_link" ] || [ ! -e "$tree_link" ] || tree_link=
kbuild_paths=${tree_link:+"srctree=$tree_link objtree=$tree_link"}

t0=$(date +%s)
# the work tree is this run's own (swept above once the run is gone); the
# old fixed name, if a build held the lock then, goes now
rmtree "$nodedir/.$KIND.tmp"
tmp=$nodedir/.$KIND.tmp.$$
rmtree "$tmp"
mkdir -p "$tmp"
if [ -n "$TREE" ]; then
	# the export's farm where TREE= has the release's files, copies of
	# TREE='s own (fetch.sh --tree-farm; TREE= is only read), checked
	# against TREE='s listing, which must still be the one named above
	progress "$NAME" copy "a work tree of $src_id: $BRANCH's files linked, the tree's own copied"
	sh "$KIT_ROOT/scripts/fetch.sh" --tree-farm "$BRANCH" "$src" "$tmp/src" >"$tmp/source.listing" ||
		die 1 "cannot make a work tree of TREE=$TREE (see above)"
	cmp -s "$src_listing" "$tmp/source.listing" ||
		die 1 "TREE=$TREE changed while it was copied; run again when nothing writes to it"
else
	# hard links to the export's link source (fetch.sh farm_to): the
	# export is checked before and after, and the work tree against the
	# export's listing (exit 1 with the reason otherwise)
	progress "$NAME" copy "linking a work tree of $src_id"
	sh "$KIT_ROOT/scripts/fetch.sh" --farm "$BRANCH" "$tmp/src" >"$tmp/source.listing" || exit $?
fi
log=$tmp/build.log
: >"$log"

fail() {
	# fail <stage> <message> [exit code]: record the failure, keep the log, stop.
	mkdir -p "$bdir.failed"
	cp "$log" "$bdir.failed/build.log" 2>/dev/null || true
	result_update "$result" --arg b "$NAME" --arg k "$KIND" --arg stage "$1" \
		--arg msg "$2" --arg log "$bdir.failed/build.log" \
		'.branch = $b | .build[$k] = {status: "failed", stage: $stage, error: $msg, log: $log}'
	die "${3:-1}" "[$NAME] $KIND $1 failed: $2 (log: $bdir.failed/build.log)"
}

# first_error LOG LINE: the first line from LINE on that says what broke:
# a compiler's or the linker's error (not a warning: ld warns of multiple
# definitions too), else make's "***", else the last.
first_error() {
	tail -n +"$2" "$1" | grep -v 'warning:' | grep -m1 -E ': (fatal )?error:|: Error: |undefined reference to|multiple definition of|No rule to make target' ||
		tail -n +"$2" "$1" | grep -m1 -F '***' || tail -1 "$1"
}

# The files a list of patches touches (from their +++ lines).
patch_files() {
	for _p; do
		sed -n 's|^+++ [^/]*/\([^	 ]*\).*|\1|p' "$_p"
		sed -n 's|^--- [^/]*/\([^	 ]*\).*|\1|p' "$_p"
	done | grep -v '^dev/null$' | LC_ALL=C sort -u
}

# Each host patch only where its change is absent, in order (a later one
# may need an earlier one's change): a tree that already has it (a late
# stable release, a vendor's tree) keeps its own, named; one that has part
# of it is refused, naming the file.
progress "$NAME" host "host-toolchain series ($(echo $BR_HOST_SERIES | wc -w) patches), each where its change is absent"
set --
for p in $BR_HOST_SERIES; do set -- "$@" "$KIT_ROOT/branches/host/$p.patch"; done
apply_host_patches "$NAME" "$tmp/src" "$log" "$@" || fail host "$host_why" $?
# the names applied: every one not skipped as present (host_applied holds
# paths, split at spaces)
host_done=
for p in $BR_HOST_SERIES; do
	case " $host_present " in *" $p "*) ;; *) host_done="$host_done $p" ;; esac
done
sec_names=
if [ -n "$sec_dir" ]; then
	if [ "${KIT_ALLOW_MISORDER:-0}" = 1 ]; then
		# A mutant (a series with one patch taken out): later patches
		# written against the missing one may no longer apply.  Apply each
		# with some fuzz; one that still does not apply is left out too and
		# named in skipped-patches, so the mutant is what the series means
		# without that patch and its dependents.
		progress "$NAME" series "applying $sec_dir patch by patch (mutant)"
		: >"$tmp/skipped-patches"
		for p in $(grep -v '^#' "$sec_dir/series"); do
			if patch -d "$tmp/src" -p1 -F3 --dry-run -s <"$sec_dir/$p" >>"$log" 2>&1; then
				patch -d "$tmp/src" -p1 -F3 --no-backup-if-mismatch -s <"$sec_dir/$p" >>"$log" 2>&1 ||
					fail series "$p applied in a dry run but not for real"
				sec_names="$sec_names $p"
			else
				echo "$p" >>"$tmp/skipped-patches"
				progress "$NAME" series "left out $p: it does not apply without the dropped patch"
			fi
		done
	else
		progress "$NAME" series "quilt push -a ($sec_dir)"
		set --
		for p in $(grep -v '^#' "$sec_dir/series"); do set -- "$@" "$sec_dir/$p"; done
		patch_files "$@" | unshare_files "$tmp/src" || fail series "cannot copy the files $sec_dir patches"
		(cd "$tmp/src" && QUILT_PATCHES=$sec_dir QUILT_PC=.pc quilt push -a -q --fuzz=0) >>"$log" 2>&1 ||
			fail series "quilt push -a of $sec_dir failed"
		rm -rf "$tmp/src/.pc"
		sec_names=$(grep -v '^#' "$sec_dir/series")
	fi
fi

# The work tree may differ from its verified source (the listing the copy
# was checked against) only in the files the applied patches name: nothing
# else slipped in.
set --
for p in $host_done; do set -- "$@" "$KIT_ROOT/branches/host/$p.patch"; done
for p in $sec_names; do set -- "$@" "$sec_dir/$p"; done
patch_files "$@" >"$tmp/expected-files"
# (what still shares its inode with the link source is not hashed again:
# fetch.sh's link index)
sh "$KIT_ROOT/scripts/fetch.sh" --listing "$tmp/src" "$BRANCH" >"$tmp/work.listing" ||
	fail tree "cannot read the work tree"
# (folders left out: a new file's new folder is that file's change)
grep -v '^040000 ' "$tmp/source.listing" | LC_ALL=C sort >"$tmp/a"
grep -v '^040000 ' "$tmp/work.listing" | LC_ALL=C sort >"$tmp/b"
LC_ALL=C comm -3 "$tmp/a" "$tmp/b" | sed 's/^\t//' | cut -f2 | LC_ALL=C sort -u >"$tmp/changed-files"
rm -f "$tmp/a" "$tmp/b"
if ! cmp -s "$tmp/expected-files" "$tmp/changed-files"; then
	diff "$tmp/expected-files" "$tmp/changed-files" >>"$log" || true
	fail tree "the work tree differs from $src_id in files no series names"
fi

# make runs in this tree under the fixed name (above)
[ -z "$tree_link" ] || ln -sfn "$tmp/src" "$tree_link" || fail tree "cannot point $tree_link at the work tree"

# The seed: a tree an earlier build of this branch left in OUT, built under
# the same fixed name with the same compiler, flags and recipe, whose files
# differ least from this work tree's.  Its build's outputs are copied in,
# each file that differs from the seed's is made newer than them, and each
# of this tree's own copies that equals the seed's gets the seed's time:
# kbuild's make then compiles what the difference reaches and nothing else
# (a mutant, one file short of the patched kernel: that file's object and
# the link).  The outputs are held to the digests the seed's build wrote
# (seed.sums); a seed that does not match them is not used.  A file this
# tree shares with the export (a hard link) is copied before its time is
# set, never touched in place.  KIT_SEED=0 builds from clean.
seed_key=$({
	echo "seed 1 $BRANCH $BR_ARCH $tree_link $KIT_CC_FLAGS"
	ver gcc --version; ver ld --version; ver as --version; ver make --version
	# what else makes an output a later build keeps: the host programs'
	# C library, the compressors and cpio of the image and initramfs
	ver ldd --version; ver gzip --version; ver bzip2 --help; ver lzma --version; ver cpio --version
	perl -e 'print "perl $^V\n"'
	cat "$KIT_ROOT/branches/host/$BR_FLAGS.flags" "$KIT_ROOT/scripts/build.sh"
} | sha256sum | cut -d' ' -f1)
# seed_differs LISTING_A LISTING_B: B's files that A lacks or holds with
# other content or mode, one "<mode in B><TAB>new|changed<TAB><path>" line
# each
seed_differs() {
	awk -F'\t' 'FILENAME == ARGV[1] { if ($1 !~ /^040000/) s[$2] = $1; next }
		$1 !~ /^040000/ {
			if (!($2 in s)) k = "new"; else if (s[$2] != $1) k = "changed"; else next
			split($1, m, " "); print m[1] "\t" k "\t" $2 }' "$1" "$2"
}
seed= seed_n=
if [ "${KIT_SEED:-1}" = 1 ] && [ -n "$tree_link" ]; then
	for _k in "$OUT"/*/*/seed.key; do
		_d=${_k%/seed.key}
		[ "$(cat "$_k" 2>/dev/null)" = "$seed_key" ] && [ -d "$_d/src" ] &&
			[ -s "$_d/work.listing" ] && [ -s "$_d/seed.sums" ] || continue
		_n=$(seed_differs "$_d/work.listing" "$tmp/work.listing" | wc -l)
		[ -n "$seed" ] && [ "$_n" -ge "$seed_n" ] || { seed=$_d seed_n=$_n; }
	done
	if [ -n "$seed" ] && ! (cd "$seed/src" && sha256sum -c --quiet --status ../seed.sums) 2>/dev/null; then
		warn "[$NAME] $seed/src does not hold what its build made (seed.sums); building from clean"
		seed=
	fi
fi
if [ -n "$seed" ]; then
	seed_differs "$seed/work.listing" "$tmp/work.listing" >"$tmp/seed.differs" ||
		fail seed "cannot compare the work tree with $seed"
	# What make's times cannot tell: a symbolic link that points elsewhere
	# (make reads its target's time), and a header the seed lacks (it may
	# stand before another of its name on the include path, and no
	# object's dependencies name it yet): built from clean.
	_why=$(awk -F'\t' '$1 == "120000" { print "the symbolic link " $3 " differs"; exit }
		$2 == "new" && $3 ~ /\.h$/ { print "the header " $3 " is new"; exit }' "$tmp/seed.differs")
	if [ -n "$_why" ]; then
		progress "$NAME" seed "not starting from the objects of $seed: $_why; building from clean"
		seed=
	fi
fi
if [ -n "$seed" ]; then
	progress "$NAME" seed "starting from the objects of $seed ($seed_n files differ)"
	cut -f3 "$tmp/seed.differs" | LC_ALL=C sort >"$tmp/seed.paths" &&
		cut -f2 "$tmp/work.listing" | LC_ALL=C sort >"$tmp/seed.source" && [ -s "$tmp/seed.source" ] ||
		fail seed "cannot list the work tree's files"
	# each step checked: errexit does not hold inside a group whose
	# status is tested
	(
		cd "$tmp/src" || exit 1
		# this tree's own copies (the patches wrote them, after the seed's
		# tree was made) equal to the seed's: the seed's time
		find . -type f -links 1 -newer "$seed/work.listing" -printf '%P\n' >"$tmp/seed.own" || exit 1
		LC_ALL=C sort "$tmp/seed.own" | LC_ALL=C comm -23 - "$tmp/seed.paths" >"$tmp/seed.same" || exit 1
		while IFS= read -r f; do touch -r "$seed/src/$f" "$f" || exit 1; done <"$tmp/seed.same"
		# each file that differs: its own copy, newer than every output
		unshare_files . <"$tmp/seed.paths" || exit 1
		while IFS= read -r f; do
			[ ! -f "$f" ] || [ -L "$f" ] || touch "$f" || exit 1
		done <"$tmp/seed.paths"
		# the seed's outputs, less what this tree holds as source, and
		# less .version (the link counts builds in it: a clean one says #1);
		# a file of the same name here is replaced, never written into
		cut -c67- "$seed/seed.sums" | LC_ALL=C sort | LC_ALL=C comm -23 - "$tmp/seed.source" |
			grep -v -x -e .version -e .old_version >"$tmp/seed.outputs"
		[ -s "$tmp/seed.outputs" ] || exit 1
		cd "$seed/src" && xargs -r -d '\n' cp -p --parents --remove-destination -t "$tmp/src" <"$tmp/seed.outputs"
	) || fail seed "cannot start from the objects of $seed"
	rm -f "$tmp"/seed.differs "$tmp"/seed.paths "$tmp"/seed.source "$tmp"/seed.own "$tmp"/seed.same "$tmp"/seed.outputs
fi

tb=$(date +%s)
cat_frags >"$tmp/required.config"
# ARCH and CROSS_COMPILE on every make: a vendor's top Makefile may default
# them to its own board (ARCH ?= arm, CROSS_COMPILE ?= arm-linux-).  The
# kit builds x86_64 on x86_64: no prefix.  "kmake exec ...": make takes the
# place of the shell running the function (in the background, so that a
# signal sent to the job's pid reaches make, not a shell that leaves make
# running).
kmake() {
	_kx=; [ "$1" != exec ] || { _kx=exec; shift; }
	# shellcheck disable=SC2086
	$_kx make ARCH="$BR_ARCH" CROSS_COMPILE= CC="gcc $KIT_CC_FLAGS" $kbuild_paths "$@"
}
# kmake_dir: into the work tree for make, by the fixed name where there is
# one: a cd through the link keeps it in PWD, which the compiler takes for
# the folder it names in an object's debug information (the boot code's),
# so that no object holds the work tree's own path
kmake_dir() { cd "${tree_link:-$tmp/src}"; }
config_key= config_hit=false
if [ -z "$TREE" ]; then
	# the kit's own kernels: small, from allnoconfig (its reference)
	{
		for b in $BR_CONFIG_BASE; do cat "$tmp/src/$b"; done
		cat "$tmp/required.config"
	} >"$tmp/kit.config"
	# The configuration cache: allnoconfig's .config is decided by the
	# miniconfig, the architecture and what Kconfig reads: every Kconfig
	# file, everything under scripts/ (kconfig itself, and the helpers a
	# later Kconfig runs: cc-version.sh, Kconfig.include's cc-option...),
	# the top Makefile (the version), each file named by its blob id in
	# the work tree's listing; and the compiler it asks (CC with the
	# kit's flags, the versions of gcc, binutils, make, and pahole and
	# rustc where present).  A .config made from the same is taken as the
	# bare "make bzImage" of a configured tree takes its own: the build's
	# silentoldconfig (syncconfig) and check-config.sh below read it as
	# they read a new one.
	config_key=$({
		echo "config 2 $BR_ARCH allnoconfig CC=gcc $KIT_CC_FLAGS"
		ver gcc --version; ver ld --version; ver as --version; ver make --version
		ver pahole --version; ver rustc --version
		cat "$tmp/kit.config"
		awk -F'\t' '$2 ~ /(^|\/)Kconfig[^\/]*$/ || $2 ~ /^scripts\// || $2 == "Makefile"' "$tmp/work.listing"
	} | sha256sum | cut -d' ' -f1)
	config_entry=$KIT_CACHE/configs/$config_key
	# what an interrupted store left (its pid is the name's last part)
	for _o in "$KIT_CACHE/configs"/.tmp.*; do
		[ -e "$_o" ] && ! kill -0 "${_o##*.}" 2>/dev/null && rmtree "$_o"
	done
	if [ "${KIT_CONFIG_CACHE:-1}" = 1 ] && [ -r "$config_entry/sha256sums" ]; then
		if (cd "$config_entry" && sha256sum -c --quiet sha256sums >/dev/null 2>&1) && grep -q ' config$' "$config_entry/sha256sums"; then
			# (a new file of the user's mode: the entry's is read-only)
			cat "$config_entry/config" >"$tmp/src/.config" || fail config "cannot copy $config_entry/config"
			config_hit=true
		else
			warn "[$NAME] the configuration cache entry $config_entry does not match its sha256sums; made again"
			rmtree "$config_entry"
		fi
	fi
	if [ "$config_hit" = true ]; then
		progress "$NAME" config "miniconfig: $BR_CONFIG, its .config from the configuration cache (${config_key%"${config_key#????????????}"})"
	else
		progress "$NAME" config "miniconfig: $BR_CONFIG"
		(kmake_dir && kmake -j"$JOBS" KCONFIG_ALLCONFIG="$tmp/kit.config" allnoconfig) >>"$log" 2>&1 ||
			fail config "make allnoconfig failed"
	fi
else
	# a tree of its own: its configuration, then the symbols the
	# verification needs in place of the tree's lines for them, then
	# oldconfig answering every new question with its default
	progress "$NAME" config "$config_from, plus the kit's symbols ($(grep -c '^CONFIG_\|^# CONFIG_' "$tmp/required.config"))"
	if [ -n "$tree_config" ]; then
		cp "$tree_config" "$tmp/src/.config"
	else
		(kmake_dir && kmake -j"$JOBS" defconfig) >>"$log" 2>&1 || fail config "make defconfig failed"
	fi
	sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1/p; s/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1/p' "$tmp/required.config" |
		sed 's/.*/^(&=|# & is not set$)/' >"$tmp/required.syms"
	{ grep -v -E -f "$tmp/required.syms" "$tmp/src/.config" || :; cat "$tmp/required.config"; } >"$tmp/src/.config.new"
	mv "$tmp/src/.config.new" "$tmp/src/.config"
	(kmake_dir && yes '' | kmake oldconfig) >>"$log" 2>&1 || fail config "make oldconfig failed"
fi
sh "$KIT_ROOT/scripts/check-config.sh" "$tmp/required.config" "$tmp/src/.config" ${TREE:+"$tmp/src"} >>"$log" 2>&1 ||
	fail config "$(grep -m1 "^check-config: CONFIG" "$log")"
# a .config allnoconfig made, checked: kept for the next build of these
# inputs (published by one rename; a failure to store is no failure)
if [ -n "$config_key" ] && [ "$config_hit" = false ] && [ "${KIT_CONFIG_CACHE:-1}" = 1 ]; then
	_ct=$KIT_CACHE/configs/.tmp.$config_key.$$
	{ mkdir -p "$_ct" && cp "$tmp/src/.config" "$_ct/config" && (cd "$_ct" && sha256sum config >sha256sums) &&
		chmod -R a-w "$_ct" && mv -T "$_ct" "$config_entry"; } 2>/dev/null || rmtree "$_ct"
fi

# the seed's configuration, unchanged: its time too (a newer .config makes
# kbuild write its configuration headers again, and compile what reads them)
[ -z "$seed" ] || ! cmp -s "$seed/src/.config" "$tmp/src/.config" || touch -r "$seed/src/.config" "$tmp/src/.config"

progress "$NAME" build "make -j$JOBS bzImage ($KIND)"
# where make's own lines start in the log: the first error is looked for
# there (oldconfig's questions above it hold words like "errors")
make_from=$(($(wc -l <"$log") + 1))
(
	kmake_dir
	# (a job started with & ignores SIGINT: Ctrl-C reaches make through
	# the trap, as SIGTERM, which make passes on to what it runs)
	kmake exec -j"$JOBS" bzImage >>"$log" 2>&1 &
	pid=$!
	# a progress line every 15 s from a ticker beside make (its sleep
	# holds no output of the run, and goes with it); make's end is seen
	# when it comes, by wait, not at the next look of a polling loop
	(
		s=
		trap '[ -z "$s" ] || kill $s 2>/dev/null; exit 0' TERM
		while :; do
			sleep 15 </dev/null >/dev/null 2>&1 &
			s=$!
			wait $s
			kill -0 $pid 2>/dev/null || exit 0
			progress "$NAME" build "$(grep -c '^  CC ' "$log") objects compiled"
		done
	) 9>&- &
	tick=$!
	trap 'kill $pid $tick 2>/dev/null' INT TERM
	# (a wait the trap broke into is waited again: make is still ending)
	while :; do
		rc=0; wait $pid || rc=$?
		kill -0 $pid 2>/dev/null || break
	done
	kill $tick 2>/dev/null || :
	exit $rc
) || fail build "make bzImage failed: $(first_error "$log" "$make_from")"
secs=$(($(date +%s) - tb))

progress "$NAME" audit "flag audit: $REQUIRED_CFLAGS"
sh "$KIT_ROOT/scripts/flag-audit.sh" "$tmp/src" $REQUIRED_CFLAGS >"$tmp/flags.txt" 2>>"$log" ||
	fail audit "$(tail -1 "$log")"

cp "$tmp/src/arch/x86/boot/bzImage" "$tmp/bzImage"
# What the boot and the checks read, beside the work tree, so that a build
# served from the cache (which has no work tree) is read the same way.
cp "$tmp/src/.config" "$tmp/src/System.map" "$tmp"/ || fail build "no .config or System.map in the work tree"
(cd "$tmp/src" && nm -A $(ls fs/*.o arch/x86/ia32/*.o 2>/dev/null | grep -v 'built-in') 2>/dev/null) >"$tmp/symbols.txt" || :
sha256sum "$tmp/src/.config" | cut -d' ' -f1 >"$tmp/config.sha256"
printf '%s\n' "$stamp" >"$tmp/stamp"
# what the build made in its tree, by digest, and under which key: a later
# build's seed (above)
if [ -n "$tree_link" ]; then
	cut -f2 "$tmp/work.listing" | LC_ALL=C sort >"$tmp/seed.source"
	{ (cd "$tmp/src" && find . -type f -printf '%P\n' | LC_ALL=C sort | LC_ALL=C comm -23 - "$tmp/seed.source" |
		xargs -r -d '\n' sha256sum) >"$tmp/seed.sums" && printf '%s\n' "$seed_key" >"$tmp/seed.key"; } ||
		rm -f "$tmp/seed.sums" "$tmp/seed.key"
	rm -f "$tmp/seed.source"
fi
# (rmtree: folders made writable, never the files a work tree shares
# with its link source)
rmtree "$bdir" "$bdir.failed"
mv "$tmp" "$bdir"

total=$(($(date +%s) - t0))
# base_commit: the pinned id, only for a build from the checked export
# (a TREE= build is named by its content in .source)
result_update "$result" --arg b "$NAME" --arg br "$BRANCH" --arg k "$KIND" \
	--arg commit "$commit" --arg src "$src_id" --argjson s "$secs" --argjson total "$total" \
	--arg applied "$host_done" \
	--arg present "$host_present" --arg tree "${TREE:+$src}" \
	--arg log "$bdir/build.log" --arg img "$bdir/bzImage" \
	--arg cfg "$(cat "$bdir/config.sha256")" --arg cflags "$(cat "$bdir/flags.txt")" \
	--arg ccflags "$KIT_CC_FLAGS" --arg series "$BR_HOST_SERIES" \
	--arg gcc "$(ver gcc --version)" --arg ld "$(ver ld --version)" --arg gas "$(ver as --version)" \
	--arg make "$(ver make --version)" --arg perl "$(perl -e 'print $^V')" \
	--arg stamp "$stamp" --rawfile changed "$bdir/changed-files" \
	--arg cfrom "$config_from" --rawfile req "$bdir/required.config" \
	--arg ckey "$config_key" --argjson chit "$config_hit" \
	--arg seed "$seed" --argjson seedn "${seed_n:-0}" --argjson ncc "$(grep -c '^  CC ' "$bdir/build.log" || :)" \
	'.branch = $b | .definition = $br | .base_commit = (if $commit == "" then null else $commit end)
	 | .source = $src | .tree = (if $tree == "" then null else $tree end)
	 | .build[$k] = {status: "ok", seconds: $s, total_seconds: $total, log: $log, bzImage: $img,
	    config_sha256: $cfg, cflags: $cflags, kit_cc_flags: $ccflags,
	    config: {from: $cfrom, cache: (if $ckey == "" then null else {hit: $chit, key: $ckey} end),
	      required_checked: ($req | split("\n")
	      | map(select(test("^CONFIG_[A-Za-z0-9_]*=|^# CONFIG_[A-Za-z0-9_]* is not set$"))))},
	    host_series: ($series | split(" ") | map(select(. != ""))), inputs_sha256: $stamp,
	    host_series_applied: ($applied | split(" ") | map(select(. != ""))),
	    host_series_present: ($present | split(" ") | map(select(. != ""))),
	    files_changed_from_source: ($changed | split("\n") | map(select(. != ""))),
	    objects_compiled: $ncc,
	    seed: (if $seed == "" then null else {from: $seed, files_differing: $seedn} end)}
	 | .toolchain = {gcc: $gcc, binutils: $ld, "as": $gas, make: $make, perl: $perl}'
if [ "$KIND" = patched ] && [ -r "$nodedir/plan/plan.json" ]; then
	result_update "$result" --slurpfile p "$nodedir/plan/plan.json" '.security = $p[0]'
fi
# the build's record, for the cache: what a later hit reports as its
# build; then the digest list of everything the boot and the checks read
# (up_to_date and verify-kernel.sh hold the kernel to it)
# shellcheck disable=SC2086
jq --arg k "$KIND" --arg at "$(date -u +%FT%TZ)" \
	'{built_at: $at, build: (.build[$k] | del(.cache)), toolchain: .toolchain}' "$result" >"$bdir/build.json" &&
	(cd "$bdir" && sha256sum $cache_files build.json $(ls skipped-patches 2>/dev/null) >sha256sums.tmp && mv -f sha256sums.tmp sha256sums) ||
	fail build "cannot write the digest list $bdir/sha256sums"
to_cache
result_update "$result" --arg k "$KIND" --arg key "$stamp" --arg e "$cache_dir/$stamp" \
	'.build[$k].cache = {hit: false, key: $key, entry: (if ($e | length) > 0 then $e else null end)}'
progress "$NAME" done "$KIND build ok: config+make ${secs}s, ${total}s with copy and audit, $(jq -r ".build[\"$KIND\"].objects_compiled" "$result") objects compiled${seed:+ (seeded)}: $bdir/bzImage"
