#!/bin/sh
# fetch.sh: the kit's verified, read-only exports of each branch's source.
#
#   fetch.sh BRANCH               make sure a verified export of BRANCH is in
#                                 the cache; print its path
#   fetch.sh --marker BRANCH      the same, the cached export checked by its
#                                 marker alone (not its stat digest, a walk
#                                 of every file): for a caller that reads
#                                 the marker and not the files (build.sh's
#                                 unpatched kernels, which build from a farm)
#   fetch.sh --probe BRANCH       could "fetch.sh BRANCH" get the source from
#                                 here?  Exports nothing (see probe() for what
#                                 it can and cannot know)
#   fetch.sh --copy BRANCH DEST   a writable copy of the export at DEST (which
#                                 must not exist), checked file by file against
#                                 the export's listing; prints that listing
#   fetch.sh --farm BRANCH DEST   the same tree at DEST made of hard links
#                                 (farm_to): writable folders, read-only
#                                 files shared with a private copy of the
#                                 export; checked and printed the same way
#   fetch.sh --verify BRANCH      every file of the cached export against the
#                                 source (git: the commit's blob ids); a
#                                 mismatch removes the export
#   fetch.sh --verify DIR BRANCH  is DIR exactly BRANCH's pinned commit?
#   fetch.sh --tree-farm BRANCH TREE DEST
#                                 DEST (new) holds TREE's content: hard
#                                 links to BRANCH's link source where a
#                                 file is the export's, copies of TREE's
#                                 files where not; checked against TREE's
#                                 listing (read first), which it prints.
#                                 TREE is only read, never linked
#   fetch.sh --git-dir BRANCH     a git dir here holding BRANCH's pinned
#                                 commit (KERNEL_GIT's path, or the cache's
#                                 mirror), to read its objects from; never
#                                 fetches (exit 3 when none holds it)
#   fetch.sh --listing DIR [BRANCH]  DIR's content: "mode id<TAB>path"
#                                 lines; with BRANCH, a file still linked
#                                 to BRANCH's link source is not hashed
#                                 again (its id from the link index)
#
#   exit 0  done (path or listing on stdout)
#   exit 1  a step failed, or a check found a difference
#   exit 2  bad input: unknown branch, a KERNEL_GIT that does not exist, is
#           no git repository, lacks the commit, or begins with '-'
#   exit 3  only this: the source cannot be reached (a network URL or the
#           apt mirror does not answer); callers report SKIP
#
# The cache holds one export per pinned commit (src/<commit>) or apt package
# version (src/<package>_<version>).  Its marker, .kit-verified, holds what
# it vouches for: the commit (or package, version and .deb digest), the
# export's listing (every path with its git blob id and mode), the listing's
# digest, and a digest of the export's stat data.  Every use checks it (see
# check_export).  Exports are made under src/.tmp.<key>.<pid>, verified, and
# published by a rename that cannot replace anything; one flock per export
# (src/.<key>.lock) serialises publishing and repair, and copies hold it
# shared.  src/.links.<key> is an export's link source (farm_to): a copy
# of it nothing uses but as the place work trees hard-link from;
# src/.links-index.<key> is its link index: each file's inode, size, mtime
# and blob id, written once the link source was checked file by file;
# src/.links-gitindex.<key> is git's index of a farm at the pinned commit
# (series.sh's: stat data only, the ids come from the commit), removed with
# the link source.  KERNEL_GIT's repository is only read.
set -eu
. "$(dirname "$0")/lib.sh"
TAB=$(printf '\t')

sha() { sha256sum | cut -d' ' -f1; }

# --- listings ---------------------------------------------------------------

# listing DIR: the content of DIR as sorted "mode id<TAB>path" lines, git's
# own terms: files "100644|100755 <blob id>", symlinks "120000 <blob id of
# the target>", directories "040000 -", anything else "000000 ?".  The
# marker, .kit-verified, at the top is left out.  With skip_git=1 (the
# --listing mode: a TREE= and the work trees) so is a top .git: "git status"
# in a tree that is a git checkout rewrites its index, not its source.  An
# export has no .git; one that appears in it is a change.  Writes nothing
# but, with index_out=FILE, the link index of DIR to FILE.
#
# A link index (a line "link-index 2", then "path<TAB>device inode size
# mtime<TAB>blob id" per file),
# named by index_in=FILE, spares the hashing where git's own index does: a
# file whose path, device, inode, size and mtime are the ones the index holds takes its
# id from there.  A work tree of hard links to a checked link source is then
# read in a fraction of a second, and what a patch or a build replaced (a
# new inode) or wrote into (a new mtime) is hashed.  What it cannot see: a
# write that sets the mtime back (touch -r) and keeps the size; "fetch.sh
# --verify BRANCH" hashes the link source too.  With writable_out=FILE, the
# paths of the files someone may write (a write bit in their mode) go to
# FILE: in a farm, files shared with its link source.
skip_git=0 index_in= index_out= writable_out=
listing() {
	_lt=$(mktemp -d)
	if [ "$skip_git" = 1 ]; then set -- "$1" -path ./.git -prune -o; else set -- "$1"; fi
	_lix=$index_in; [ -n "$_lix" ] && [ -r "$_lix" ] || _lix=/dev/null
	(
		_ld=$1; shift
		cd "$_ld" || exit 1
		# git hash-object --stdin-paths run below another repository's
		# work tree (OUT inside the kit's checkout, as in CI) reads the
		# paths from that repository's top, not from here: stop git's
		# search for a repository at this folder.
		GIT_CEILING_DIRECTORIES=$(dirname "$(pwd -P)")
		export GIT_CEILING_DIRECTORIES
		find . -mindepth 1 "$@" ! -path ./.kit-verified -printf '%y\t%m\t%P\t%D %i %s %T@\n' |
			LC_ALL=C sort -t "$TAB" -k3,3 >"$_lt/all" || exit 1
		# the files the index does not vouch for, in order
		awk -F'\t' -v ix="$_lix" '
		BEGIN { while ((getline l <ix) > 0) { split(l, a, "\t"); st[a[1]] = a[2] } }
		$1 == "f" && st[$3] != $4 { print $3 }' "$_lt/all" |
			git hash-object --no-filters --stdin-paths >"$_lt/blobs" || exit 1
		awk -F'\t' '$1 == "l" { print $3 }' "$_lt/all" | while IFS= read -r _l; do
			printf '%s' "$(readlink "$_l")" | git hash-object --stdin
		done >"$_lt/links" || exit 1
		awk -F'\t' -v ix="$_lix" -v blobs="$_lt/blobs" -v links="$_lt/links" -v out="${index_out:-/dev/null}" \
			-v wo="${writable_out:-/dev/null}" '
		BEGIN { while ((getline l <ix) > 0) { split(l, a, "\t"); st[a[1]] = a[2]; id[a[1]] = a[3] }
			print "link-index 2" >out; printf "" >wo }
		$1 == "f" {
			if (st[$3] == $4) i = id[$3]; else getline i <blobs
			print $3 "\t" $4 "\t" i >out
			if (substr($2, length($2) - 2) ~ /[2367]/) print $3 >wo
			# git keeps one bit: the owner may execute it or not
			m = substr($2, length($2) - 2, 1)
			print ((m % 2) ? "100755 " : "100644 ") i "\t" $3; next }
		$1 == "l" { getline i <links; print "120000 " i "\t" $3; next }
		$1 == "d" { print "040000 -\t" $3; next }
		{ print "000000 ?\t" $3 }' "$_lt/all"
	)
	_lrc=$?
	rm -rf "$_lt"
	return $_lrc
}

# want_listing GITDIR COMMIT: the same lines for a commit's tree.
want_listing() {
	git --git-dir="$1" ls-tree -r -t --full-tree "$2" |
		awk -F'\t' '{ split($1, a, " ")
			print (a[2] == "tree" ? "040000 -" : a[1] " " a[3]) "\t" $2 }' |
		LC_ALL=C sort -t "$TAB" -k2
}

# describe_diff WANT HAVE: one phrase naming what differs (a few paths each).
describe_diff() {
	awk -F'\t' '
	function add(k, p) { n[k]++; if (n[k] <= 3) l[k] = l[k] (n[k] > 1 ? ", " : "") p }
	FILENAME == ARGV[1] { w[$2] = $1; order[++nw] = $2; next }
	{ seen[$2] = 1; if (!($2 in w)) add("added", $2); else if (w[$2] != $1) add("changed", $2) }
	END {
		for (i = 1; i <= nw; i++) if (!(order[i] in seen)) add("missing", order[i])
		s = ""
		split("changed missing added", K, " ")
		for (i = 1; i <= 3; i++) if (n[K[i]])
			s = s (s == "" ? "" : "; ") n[K[i]] " " K[i] ": " l[K[i]] (n[K[i]] > 3 ? ", ..." : "")
		print s
	}' "$1" "$2"
}

# --- the marker -------------------------------------------------------------

# stat_digest DIR: sha256 over every entry's path, type, mode, size, inode,
# mtime and ctime.  This is the check every use that reads the export's
# files runs (an order of magnitude cheaper than hashing every file); a
# farm of a git export and --marker read the marker alone (check_export's marker mode).  It catches any write,
# chmod, rename, replacement, deletion or addition made through the file
# system, also one that keeps size and mtime (touch -r): such a change still
# moves ctime, which no user can set back.  It does not catch what bypasses
# the file system (a disk's bit rot, an edit through the block device or
# debugfs, a clock set back to the old ctime) nor a marker rewritten to
# match: "fetch.sh --verify BRANCH" hashes every file for those.  A digest
# that differs for an innocent reason (the cache copied to another disk,
# a hard link made to a file) only costs a full check, which then renews it.
stat_digest() {
	(cd "$1" && find . -mindepth 1 ! -path ./.kit-verified -printf '%P\t%y %m %s %i %T@ %C@\n') |
		LC_ALL=C sort | sha
}

marker_field() { sed -n "/^listing\$/q; s/^$2 //p" "$1/.kit-verified"; }
marker_listing() { sed '1,/^listing$/d' "$1/.kit-verified"; }

# write_marker DIR IDLINES LISTING: DIR is an unpublished export.
write_marker() {
	_sd=$(stat_digest "$1")
	{
		echo "kit-verified 2"
		printf '%s\n' "$2"
		echo "exported $(date -u +%FT%TZ)"
		echo "entries $(wc -l <"$3")"
		echo "content $(sha <"$3")"
		echo "stat $_sd"
		echo listing
		cat "$3"
	} >"$1/.kit-verified"
	chmod a-w "$1/.kit-verified"
}

# identity: the marker lines that name what an export of this branch is.
identity() {
	case $BR_SOURCE in
	git) printf 'commit %s' "$BR_COMMIT" ;;
	apt) printf 'package %s\nversion %s' "$BR_APT_PACKAGE" "$1" ;;
	esac
}

# check_export DIR VERSION MODE: 0 when DIR is what its marker vouches for,
# and the marker vouches for this branch's source.  MODE cheap: the stat
# digest must match; auto: when it does not, compare every file's content
# with the marker's listing (a match sets restat=1: renew the digest);
# full: always compare every file; marker: the marker alone (its identity
# and its listing's digest).  Otherwise returns 1 with $why set.
check_export() {
	_d=$1 _mode=$3 why= restat=0
	[ -d "$_d" ] || { why="it does not exist"; return 1; }
	[ -f "$_d/.kit-verified" ] && [ "$(head -1 "$_d/.kit-verified")" = "kit-verified 2" ] ||
		{ why="its marker .kit-verified is missing, empty or not the kit's (format 2)"; return 1; }
	[ "$(sed -n '/^listing$/q; /^commit /p; /^package /p; /^version /p' "$_d/.kit-verified")" = "$(identity "$2")" ] ||
		{ why="its marker does not vouch for $(identity "$2" | tr '\n' ' ')"; return 1; }
	[ "$(marker_listing "$_d" | sha)" = "$(marker_field "$_d" content)" ] ||
		{ why="its marker is damaged (the listing does not match its digest)"; return 1; }
	[ "$_mode" != marker ] || return 0
	if [ "$_mode" != full ]; then
		[ "$(stat_digest "$_d")" = "$(marker_field "$_d" stat)" ] && return 0
		[ "$_mode" = cheap ] && { why="its files changed since it was verified (stat data differ)"; return 1; }
	fi
	_ct=$(mktemp -d)
	marker_listing "$_d" >"$_ct/want"
	if ! listing "$_d" >"$_ct/have"; then
		why="its files cannot be read"; rm -rf "$_ct"; return 1
	fi
	if cmp -s "$_ct/want" "$_ct/have"; then
		rm -rf "$_ct"; restat=1; return 0
	fi
	why=$(describe_diff "$_ct/want" "$_ct/have")
	rm -rf "$_ct"
	return 1
}

# renew_stat DIR: same content, new stat data (cache moved, hard link made).
renew_stat() {
	_nm=$KIT_CACHE/src/.tmp.$key.$$.marker
	sed "s/^stat .*/stat $(stat_digest "$1")/" "$1/.kit-verified" >"$_nm"
	chmod u+w "$1"
	mv -f "$_nm" "$1/.kit-verified"
	chmod a-w "$1/.kit-verified" "$1"
}

# --- the cache: locks, leftovers, publishing ----------------------------------

# lock_export KEY: fd 8 is the export's lock (shared: in use; exclusive:
# being made, repaired or removed).
lock_export() {
	key=$1
	exec 8>>"$KIT_CACHE/src/.$key.lock"
}
lock_exclusive() {
	flock -n -x 8 && return 0
	progress "$BRANCH" fetch "another run is making or checking $key; waiting for it"
	flock -x 8
}

# sweep: remove what interrupted runs left (.tmp.<key>.<pid>...).  A leftover
# is one whose export lock nobody holds: a live run holds it exclusively for
# as long as its temp folder exists.  Older kits named them .tmp.XXXXXX
# without a lock: those go when an hour old.
sweep() {
	for _t in "$KIT_CACHE"/src/.tmp.*; do
		[ -e "$_t" ] || continue
		# the key from the right: apt keys hold dots (linux-source-6.1_6.1.x)
		_k=${_t##*/.tmp.}
		case ${_k##*.} in *[!a-z]* | '') ;; *) _k=${_k%.*} ;; esac	# .marker, .bad ...
		case ${_k##*.} in *[!0-9]* | '') _k= ;; *) _k=${_k%.*} ;; esac	# .<pid>
		if [ -z "$_k" ]; then
			[ -z "$(find "$_t" -maxdepth 0 -mmin +60)" ] || rmtree "$_t"
		elif [ "$_k" = "$key" ]; then
			rmtree "$_t"
		elif [ -e "$KIT_CACHE/src/.$_k.lock" ]; then
			( flock -n -x 7 && rmtree "$_t" ) 7>>"$KIT_CACHE/src/.$_k.lock" || :
		elif [ -n "$(find "$_t" -maxdepth 0 -mmin +60)" ]; then
			rmtree "$_t"
		fi
	done
}

# discard DIR WHY: report a bad export in one line and remove it (under the
# exclusive lock).  Renamed away first, so nobody sees it half removed.
discard() {
	warn "the cached export $1 does not match what its marker vouches for ($2); removing it and making it again"
	_bad=$KIT_CACHE/src/.tmp.$key.$$.bad
	if [ -L "$1" ] || [ ! -d "$1" ]; then rm -f -- "$1"; return; fi
	chmod u+w "$1"
	mv -T -- "$1" "$_bad"
	rmtree "$_bad"
}

# publish TMP DST: rename TMP to DST, never onto anything that exists.
# mv -n asks for renameat2(RENAME_NOREPLACE), which refuses even an empty
# DST (a plain rename would replace that one, and "mv TMP DST" onto a
# folder moves TMP into it).  coreutils 9.1 then exits 0 without moving,
# later ones exit 1: whether TMP is gone is the answer.
publish() {
	chmod u+w "$1"
	mv -n -T -- "$1" "$2" 2>/dev/null || :
	[ ! -e "$1" ] || die 1 "cannot publish the export: $2 appeared while it was made (only fetch.sh may create it); remove $2 and run again"
	chmod a-w "$2"
}

# --- the git source -------------------------------------------------------------

# source_kind: "url" or "path" (a local folder); bad input exits 2.
source_kind() {
	case $KERNEL_GIT in
	-*) die 2 "KERNEL_GIT='$KERNEL_GIT' begins with '-', which git would take as an option; give a path (./$KERNEL_GIT) or a URL" ;;
	'') die 2 "KERNEL_GIT is empty; give a path or URL of a git repository holding $BR_COMMIT" ;;
	esac
	if [ -e "$KERNEL_GIT" ]; then echo path; return; fi
	case $KERNEL_GIT in
	file://*) echo path ;;
	*://* | [!/]*@*:* | [!/.]*:*) echo url ;;
	*) echo path ;;
	esac
}

# local_git_dir: KERNEL_GIT's git dir when it is a local repository holding
# the commit; otherwise exit 2 with what to fix.
local_git_dir() {
	_p=${KERNEL_GIT#file://}
	[ -d "$_p" ] ||
		die 2 "KERNEL_GIT=$KERNEL_GIT does not exist; fix the path (or the URL) to a git repository holding $BR_COMMIT, here or in $KIT_CONFIG"
	if ! _g=$(git -C "$_p" rev-parse --absolute-git-dir 2>/dev/null); then
		# git (2.35.2 on) refuses a repository another user owns, a
		# root-owned mirror read by a normal user say, unless it is named
		# in safe.directory; "not a git repository" would send the user
		# looking for the wrong fault.  git's own line gives the path to
		# name (the top of the work tree, or the bare repository).
		_ge=$(git -C "$_p" rev-parse --absolute-git-dir 2>&1 >/dev/null) && _ge=
		case $_ge in *'dubious ownership'*)
			_sd=$(printf '%s\n' "$_ge" | sed -n 's/^[[:space:]]*git config --global --add safe\.directory //p' | head -1)
			die 2 "KERNEL_GIT=$KERNEL_GIT belongs to another user, and git refuses such a repository unless safe.directory names it; if you trust it, run: git config --global --add safe.directory ${_sd:-$_p}" ;;
		esac
		die 2 "KERNEL_GIT=$KERNEL_GIT is not a git repository; point it at one holding $BR_COMMIT"
	fi
	git --git-dir="$_g" cat-file -e "$BR_COMMIT^{commit}" 2>/dev/null ||
		die 2 "KERNEL_GIT=$KERNEL_GIT has no commit $BR_COMMIT ($BRANCH); use a repository with mainline history up to v$BR_VERSION"
	printf '%s\n' "$_g"
}

# reach URL: 0 when a git server answers at URL (within the probe timeout);
# otherwise 1 with git's last line in $why.
reach() {
	# never wait for a password or a host key: no answer is "unreachable"
	GIT_SSH_COMMAND=${GIT_SSH_COMMAND:-ssh -o BatchMode=yes}
	export GIT_TERMINAL_PROMPT=0 GIT_HTTP_LOW_SPEED_LIMIT=1000 GIT_HTTP_LOW_SPEED_TIME=30 GIT_SSH_COMMAND
	if _e=$(timeout "${KIT_PROBE_TIMEOUT:-${KIT_FETCH_TIMEOUT:-30}}" git -c protocol.ext.allow=never \
		ls-remote -- "$1" HEAD 2>&1 >/dev/null); then return 0; fi
	why=$(printf '%s' "${_e:-timed out}" | tail -1 | sed 's/^fatal: //')
	return 1
}

# resolve_git_dir: print a git dir that holds $BR_COMMIT, or exit 2/3.
resolve_git_dir() {
	[ "$(source_kind)" = path ] && { local_git_dir; return; }
	_m=$KIT_CACHE/git/mirror.git
	mkdir -p "$KIT_CACHE/git"
	# one fetch into the shared mirror at a time (git's shallow.lock)
	exec 7>>"$KIT_CACHE/git/.mirror.lock"
	flock -x 7
	[ -d "$_m" ] || git init -q --bare "$_m"
	if ! git --git-dir="$_m" cat-file -e "$BR_COMMIT^{commit}" 2>/dev/null; then
		reach "$KERNEL_GIT" ||
			die 3 "cannot reach $KERNEL_GIT for $BRANCH ($why); set KERNEL_GIT=<path of a local git copy holding $BR_COMMIT> (or put it in $KIT_CONFIG)"
		progress "$BRANCH" fetch "git fetch $KERNEL_GIT $BR_COMMIT"
		_rc=0
		_e=$(timeout "${KIT_FETCH_TIMEOUT:-120}" git -c protocol.ext.allow=never \
			--git-dir="$_m" fetch -q --depth=1 -- "$KERNEL_GIT" "$BR_COMMIT" 2>&1) || _rc=$?
		# it answered, then stopped answering: still unreachable
		[ $_rc -ne 124 ] ||
			die 3 "cannot reach $KERNEL_GIT for $BRANCH (git fetch timed out after ${KIT_FETCH_TIMEOUT:-120}s); set KERNEL_GIT=<path of a local git copy holding $BR_COMMIT> (or put it in $KIT_CONFIG)"
		[ $_rc -eq 0 ] ||
			die 2 "$KERNEL_GIT answers but did not give commit $BR_COMMIT ($BRANCH): $(printf '%s' "$_e" | tail -1 | sed 's/^fatal: //'); use a repository that holds it"
	fi
	exec 7>&-
	printf '%s\n' "$_m"
}

# export_git DST: export the commit, verify it, publish it at DST.
export_git() {
	gd=$(resolve_git_dir) || exit $?
	tmp=$KIT_CACHE/src/.tmp.$key.$$
	mkdir "$tmp"
	progress "$BRANCH" fetch "exporting $BR_COMMIT"
	git --git-dir="$gd" archive --format=tar "$BR_COMMIT" | tar -x -C "$tmp" ||
		die 1 "git archive of $BR_COMMIT failed"
	progress "$BRANCH" fetch "verifying the export against $BR_COMMIT"
	want_listing "$gd" "$BR_COMMIT" >"$tmp.want"
	listing "$tmp" >"$tmp.have" || die 1 "cannot read the export in $tmp"
	cmp -s "$tmp.want" "$tmp.have" ||
		die 1 "the export of $BR_COMMIT does not match the commit's tree ($(describe_diff "$tmp.want" "$tmp.have")); check $KERNEL_GIT with 'git fsck'"
	chmod -R a-w "$tmp"
	chmod u+w "$tmp"   # the top only: the marker goes there
	write_marker "$tmp" "$(identity)" "$tmp.want"
	rm -f "$tmp.want" "$tmp.have"
	publish "$tmp" "$1"
}

# --- the apt source --------------------------------------------------------------

apt_version() {
	apt-cache policy "$BR_APT_PACKAGE" 2>/dev/null | awk '/Candidate:/ { print $2 }'
}

# apt_deb VERSION: a .deb of the package whose sha256 is the one apt's
# signed index gives; downloaded when there is none (exit 3 when apt's
# mirror does not answer).
apt_deb() {
	_want=$(apt-cache show --no-all-versions "$BR_APT_PACKAGE=$1" 2>/dev/null | sed -n 's/^SHA256: //p' | head -1)
	mkdir -p "$KIT_CACHE/apt"
	for _deb in "$KIT_CACHE/apt/${BR_APT_PACKAGE}_"*"$1"*.deb; do
		[ -f "$_deb" ] || continue
		[ -z "$_want" ] || [ "$(sha <"$_deb")" = "$_want" ] && { printf '%s\n' "$_deb"; return 0; }
		warn "$_deb does not have the sha256 apt's index gives ($_want); removing it and downloading it again"
		rm -f "$_deb"
	done
	progress "$BRANCH" fetch "apt-get download $BR_APT_PACKAGE=$1"
	(cd "$tmp" && timeout 600 apt-get download -q "$BR_APT_PACKAGE=$1" >&2) ||
		die 3 "apt-get download $BR_APT_PACKAGE=$1 failed; check the Debian mirror in /etc/apt/sources.list"
	# apt-get download checks the .deb against the signed archive index.
	_deb=$(ls "$tmp"/*.deb)
	mv -f "$_deb" "$KIT_CACHE/apt/"
	printf '%s\n' "$KIT_CACHE/apt/${_deb##*/}"
}

# export_apt DST VERSION: unpack the package's tarball, publish it at DST.
export_apt() {
	need_cmd apt-get dpkg-deb xz
	tmp=$KIT_CACHE/src/.tmp.$key.$$
	mkdir "$tmp"
	deb=$(apt_deb "$2") || exit $?
	progress "$BRANCH" fetch "unpacking $(basename "$deb")"
	mkdir "$tmp/deb" "$tmp/x"
	dpkg-deb -x "$deb" "$tmp/deb"
	tarball=$(ls "$tmp"/deb/usr/src/linux-source-*.tar.* 2>/dev/null | head -1)
	[ -n "$tarball" ] || die 1 "$deb holds no linux-source tarball"
	tar -xf "$tarball" -C "$tmp/x"
	mv "$tmp/x/$(ls "$tmp/x")" "$tmp/tree"
	listing "$tmp/tree" >"$tmp/listing" || die 1 "cannot read the unpacked tree in $tmp/tree"
	chmod -R a-w "$tmp/tree"
	chmod u+w "$tmp/tree"
	write_marker "$tmp/tree" "$(identity "$2")
deb_sha256 $(sha <"$deb")" "$tmp/listing"
	publish "$tmp/tree" "$1"
	rmtree "$tmp"
}

# --- one export, whatever the source -----------------------------------------

# cleanup: what this run made under its temp names (EXIT trap).
cleanup() {
	for _c in "$KIT_CACHE/src/.tmp.$key.$$" "$KIT_CACHE/src/.tmp.$key.$$".*; do
		[ -e "$_c" ] && rmtree "$_c"
	done
}

# ensure [MODE]: make sure a verified export is in the cache; sets $export.
# MODE (check_export's) is how an export in the cache is checked before it
# serves: cheap (its stat digest), or marker for a caller that reads only
# its marker (a farm, held to the marker's listing file by file).
ensure() {
	_emode=${1:-cheap}
	mkdir -p "$KIT_CACHE/src" ||
		die 1 "cannot create the cache at $KIT_CACHE; set KIT_CACHE to a writable folder"
	ver=
	case $BR_SOURCE in
	git) source_kind >/dev/null; key=$BR_COMMIT ;;
	apt)
		ver=$(apt_version)
		if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
			# apt cannot answer: a cached export of any version serves
			for export in "$KIT_CACHE/src/${BR_APT_PACKAGE}_"*; do
				[ -d "$export" ] || continue
				lock_export "${export##*/}"
				ver=${key#"${BR_APT_PACKAGE}_"}
				flock -s 8
				check_export "$export" "$ver" cheap && return 0
				exec 8>&-
			done
			die 3 "apt knows no package $BR_APT_PACKAGE; run 'apt-get update' (Debian 12's main archive carries it)"
		fi
		key=${BR_APT_PACKAGE}_$ver ;;
	esac
	export=$KIT_CACHE/src/$key
	lock_export "$key"
	flock -s 8
	check_export "$export" "$ver" "$_emode" && return 0
	# Missing or changed: only one run makes or repairs it, and no copy
	# runs meanwhile.  Another run may have done it while we waited.
	lock_exclusive
	# set +e: a cleanup hiccup in an EXIT trap must not turn a good run
	# into exit 1 (dash)
	trap 'set +e; cleanup' EXIT
	trap 'exit 130' INT; trap 'exit 143' TERM; trap 'exit 129' HUP
	sweep
	if check_export "$export" "$ver" auto; then
		[ "$restat" = 0 ] || renew_stat "$export"
		return 0
	fi
	[ ! -e "$export" ] && [ ! -L "$export" ] || discard "$export" "$why"
	case $BR_SOURCE in
	git) export_git "$export" ;;
	apt) export_apt "$export" "$ver" ;;
	esac
	check_export "$export" "$ver" cheap || die 1 "the new export $export fails its own check ($why)"
}

# probe: 0 when "fetch.sh BRANCH" would find its source: a good export is
# cached, or KERNEL_GIT is a local repository holding the commit, or a git
# server answers at its URL (whether it then serves the commit is known
# only by fetching), or apt's index knows the package.  Exit 3 when a URL
# does not answer or apt knows no package, 2 for bad input.
probe() {
	case $BR_SOURCE in
	git)
		_k=$(source_kind)
		[ -d "$KIT_CACHE/src/$BR_COMMIT" ] && check_export "$KIT_CACHE/src/$BR_COMMIT" "" cheap && return 0
		if [ "$_k" = path ]; then local_git_dir >/dev/null; return 0; fi
		git --git-dir="$KIT_CACHE/git/mirror.git" cat-file -e "$BR_COMMIT^{commit}" 2>/dev/null && return 0
		reach "$KERNEL_GIT" ||
			die 3 "cannot reach $KERNEL_GIT for $BRANCH ($why); set KERNEL_GIT=<path of a local git copy holding $BR_COMMIT> (or put it in $KIT_CONFIG)" ;;
	apt)
		_v=$(apt_version)
		[ -n "$_v" ] && [ "$_v" != "(none)" ] && return 0
		for _e in "$KIT_CACHE/src/${BR_APT_PACKAGE}_"*; do
			_v=${_e##*/}; _v=${_v#"${BR_APT_PACKAGE}_"}
			[ -d "$_e" ] && check_export "$_e" "$_v" cheap && return 0
		done
		die 3 "apt knows no package $BR_APT_PACKAGE; run 'apt-get update' (Debian 12's main archive carries it)" ;;
	esac
}

# copy_to DEST: a writable copy of the export, checked against its listing.
copy_to() {
	_dest=$1
	[ ! -e "$_dest" ] || die 2 "$_dest exists; --copy makes a new folder"
	ensure
	# the exclusive lock of ensure() is given back: a shared one is enough
	flock -s 8
	_ct=$(mktemp -d)
	mkdir -- "$_dest" || die 1 "cannot create $_dest"
	cp -a "$export/." "$_dest/" || { rmtree "$_dest"; die 1 "cannot copy $export to $_dest"; }
	# still what it was before the copy, and its listing read under the lock
	_ok=1; check_export "$export" "$ver" cheap || _ok=0
	marker_listing "$export" >"$_ct/want"
	exec 8>&-
	[ $_ok = 1 ] || { rmtree "$_dest" "$_ct"; die 1 "the export $export changed while it was copied ($why); run again: it will be made anew"; }
	# writable first: removing the marker needs a writable top folder,
	# which the read-only copy has only for root
	chmod -R u+w "$_dest"
	rm -f "$_dest/.kit-verified"
	listing "$_dest" >"$_ct/have" || { rmtree "$_dest" "$_ct"; die 1 "cannot read the copy $_dest"; }
	if ! cmp -s "$_ct/want" "$_ct/have"; then
		_w=$(describe_diff "$_ct/want" "$_ct/have")
		rmtree "$_dest" "$_ct"
		die 1 "the copy $_dest differs from the export $export ($_w); is the disk full?"
	fi
	cat "$_ct/want"
	rm -rf "$_ct"
}

# link_index DIR: the link index of the link source DIR was farmed from:
# the commit's, or for apt the index of the package's link source that
# DIR's COPYING (or README) is a hard link into (another version's index
# would vouch for nothing here; none found: nothing, every file hashed)
link_index() {
	if [ "$BR_SOURCE" = git ]; then
		echo "$KIT_CACHE/src/.links-index.$BR_COMMIT"
		return
	fi
	for _li in "$KIT_CACHE/src/.links.${BR_APT_PACKAGE}_"*; do
		[ -d "$_li" ] || continue
		for _lf in COPYING README; do
			if [ -f "$1/$_lf" ] && [ "$1/$_lf" -ef "$_li/$_lf" ]; then
				echo "$KIT_CACHE/src/.links-index.${_li##*/.links.}"
				return
			fi
		done
	done
}

# link_tree FROM DEST INDEX: DEST (an empty folder) gets FROM's tree as
# hard links, made by $JOBS cp -al at once (at most 4), each over a share
# of FROM's top entries dealt out by their number of files in INDEX (FROM's
# link index; an entry it lacks counts one), largest first, each to the
# share with the fewest so far; 1 when any of them failed.  The cp's pids
# are in _lp (farm_to's traps stop them: a job in the background ignores
# SIGINT).  The shares are written under _ct.
link_tree() {
	_n=${JOBS:-1}
	[ "$_n" -ge 1 ] 2>/dev/null || _n=1
	[ "$_n" -le 4 ] || _n=4
	[ "$_n" -gt 1 ] && [ -r "$3" ] || { cp -al "$1/." "$2/"; return; }
	_lw=$_ct/shares
	mkdir -p "$_lw" && (cd "$1" && ls -A) >"$_lw/top" || return 1
	awk -F'\t' '
		FILENAME == ARGV[1] { if (FNR > 1) { sub(/\/.*/, "", $1); c[$1]++ } next }
		{ print ((($0 in c) ? c[$0] : 1) "\t" $0) }' "$3" "$_lw/top" |
		LC_ALL=C sort -t "$TAB" -k1,1nr | awk -F'\t' -v n="$_n" -v w="$_lw" '
		{ b = 0; for (i = 1; i < n; i++) if (load[i] < load[b]) b = i
		  load[b] += $1; print $2 > (w "/share." b) }' || return 1
	_lp=
	for _sf in "$_lw"/share.*; do
		[ -e "$_sf" ] || continue
		# (the subshell becomes the cp: its pid is the cp's)
		(
			cd "$1" || exit 1
			_ld=$2
			set --
			while IFS= read -r _le; do set -- "$@" "$_le"; done <"$_sf"
			exec cp -al -- "$@" "$_ld"/
		) &
		_lp="$_lp $!"
	done
	_lrc=0
	for _p in $_lp; do wait "$_p" || _lrc=1; done
	_lp=
	return $_lrc
}

# farm_to DEST: DEST is the export's tree, made of hard links to its link
# source, src/.links.<key>: a copy of the export (cp -a, once per export)
# that nothing reads but to link from.  A work tree then costs its folders
# and links, not a copy of every byte (the copy is most of a build's time
# outside make), and the export itself is never linked: its files' ctime,
# which its stat digest holds, stays.  DEST's folders are writable and its
# files read-only and shared: what changes a file must replace it (patch,
# quilt push, kconfig and make do), never write into it.  DEST's listing
# is checked against the export's marker, as a copy's is: a link source
# written through an earlier farm differs there, is removed, and this run
# copies instead (copy_to).  Git and apt exports alike (an apt export's
# key is its package and version).  A
# work tree kept after its build (OUT/<b>/<kind>/src) shares its files
# too: its files are read-only, and the next farm's check finds an edit
# made through one of them anyway.  Its links are made by a few cp -al
# side by side, one per share of the top folders (the links are the
# farm's cost: system time, spread over the cores).
farm_to() {
	_dest=$1
	[ ! -e "$_dest" ] || die 2 "$_dest exists; --farm makes a new folder"
	# The export's files are read only to make the link source: once it
	# and its index are there, the export's marker is all the farm reads
	# (its listing, which the farm is held to file by file below), and
	# its stat digest (a walk of every file) is left to the callers that
	# read the export itself.  (An apt export's key needs apt's answer,
	# which ensure asks: it is checked whole.)
	if [ "$BR_SOURCE" = git ] && [ -d "$KIT_CACHE/src/.links.$BR_COMMIT" ] &&
		[ "$(head -1 "$KIT_CACHE/src/.links-index.$BR_COMMIT" 2>/dev/null)" = "link-index 2" ]; then
		ensure marker
	else
		ensure
	fi
	_ls=$KIT_CACHE/src/.links.$key _ix=$KIT_CACHE/src/.links-index.$key
	# (and git's index of a farm, series.sh's: the stat data of the link
	# source's files, gone with them)
	_gx=$KIT_CACHE/src/.links-gitindex.$key
	flock -s 8
	_ct=$(mktemp -d)
	# (cleanup: a half-made link source, .tmp.<key>.<pid>.links)
	_lp=
	trap 'set +e; [ -z "$_lp" ] || kill $_lp 2>/dev/null; rmtree "$_ct"; cleanup' EXIT
	trap 'exit 130' INT; trap 'exit 143' TERM; trap 'exit 129' HUP
	if [ ! -d "$_ls" ]; then
		rm -f "$_ix" "$_gx"
		# made aside, published by a rename that replaces nothing (two
		# runs may make it at once: the second one's goes); sweep()
		# removes a .tmp.<key>.<pid>.links an interrupted run left
		_lt=$KIT_CACHE/src/.tmp.$key.$$.links
		rmtree "$_lt"
		mkdir -- "$_lt" && cp -a "$export/." "$_lt/" && chmod u+w "$_lt" && rm -f "$_lt/.kit-verified" ||
			{ rmtree "$_lt" "$_ct"; die 1 "cannot copy $export to its link source $_lt; is the disk full?"; }
		mv -n -T -- "$_lt" "$_ls" 2>/dev/null || :
		rmtree "$_lt"
	fi
	# the link index: made once, from every file of the link source
	# hashed and held to the marker (one that is not the export is
	# removed below); then each farm's check hashes only what changed
	if [ "$(head -1 "$_ix" 2>/dev/null)" != "link-index 2" ]; then
		marker_listing "$export" >"$_ct/want"
		index_out=$_ct/index
		if listing "$_ls" >"$_ct/have" && cmp -s "$_ct/want" "$_ct/have"; then
			# (published by a rename in src/; sweep() removes a .tmp.*
			# an interrupted run left)
			_it=$KIT_CACHE/src/.tmp.$key.$$.index
			mv -f "$_ct/index" "$_it" && mv -f "$_it" "$_ix" || rm -f "$_it"
		fi
		index_out=
	fi
	mkdir -- "$_dest" || die 1 "cannot create $_dest"
	_farm=1
	link_tree "$_ls" "$_dest" "$_ix" 2>"$_ct/err" || _farm=0
	# (the export is not read here: ensure() checked it, and the shared
	# lock kept every repair away since; the farm is held to its marker)
	marker_listing "$export" >"$_ct/want"
	exec 8>&-
	# the folders only: chmod on a file would change the shared inode
	find "$_dest" -type d ! -perm -u=w -exec chmod u+w {} +
	index_in=$_ix writable_out=$_ct/writable
	[ $_farm = 0 ] || listing "$_dest" >"$_ct/have" || _farm=0
	index_in= writable_out=
	if [ $_farm = 1 ] && cmp -s "$_ct/want" "$_ct/have"; then
		# read-only files, whatever chmod reached them since (through
		# the farm: the inode is the link source's): a writer that opens
		# one in place then fails for a normal user (root is stopped by
		# this listing check, on the next farm)
		[ ! -s "$_ct/writable" ] || (cd "$_dest" && tr '\n' '\0' <"$_ct/writable" | xargs -0 chmod a-w -- 2>/dev/null) || :
		cat "$_ct/want"
		rm -rf "$_ct"
		return 0
	fi
	if [ $_farm = 0 ]; then
		# no hard link to be made (DEST on another file system, say):
		# nothing is wrong with the link source; a copy serves
		progress "$BRANCH" copy "cannot hard-link from $_ls ($(head -1 "$_ct/err")); copying instead"
		rmtree "$_dest" "$_ct"
		copy_to "$_dest"
		return
	fi
	warn "the link source $_ls is not the export ($(describe_diff "$_ct/want" "$_ct/have")): something wrote into a linked file; removing it and copying instead"
	rmtree "$_dest" "$_ct"
	drop_link_source
	copy_to "$_dest"
}

# drop_link_source: the export's link source and its indexes removed (the
# folder first moved aside, so no farm links from half of it)
drop_link_source() {
	rm -f "$KIT_CACHE/src/.links-index.$key" "$KIT_CACHE/src/.links-gitindex.$key"
	mv -T -- "$KIT_CACHE/src/.links.$key" "$KIT_CACHE/src/.tmp.$key.$$.bad" 2>/dev/null &&
		rmtree "$KIT_CACHE/src/.tmp.$key.$$.bad"
}

# tree_farm_to TREE DEST: DEST holds TREE's content, the export's farm
# (farm_to) with what TREE has otherwise: a path the export has and TREE
# lacks, or holds other content or mode, is taken out of DEST; what TREE
# has that DEST then lacks is copied from TREE (cp -P -p: a link stays a
# link).  A tree of the era is mostly its release: a work tree then costs
# the files it changed, not a copy of every byte.  TREE is read twice, by
# its listing before and through the copies; DEST is checked against that
# listing (exit 1 naming what differs: TREE changed meanwhile).  A TREE
# with a special file (a fifo, a device) is copied whole.
tree_farm_to() {
	[ ! -e "$2" ] || die 2 "$2 exists; --tree-farm makes a new folder"
	# both absolute: the steps below run in one and name the other
	_tree=$(cd "$1" && pwd -P) && _dest=$(cd "$(dirname "$2")" && pwd -P)/${2##*/} ||
		die 2 "cannot enter $1 or the folder of $2"
	_tt=$(mktemp -d)
	skip_git=1
	listing "$_tree" >"$_tt/tree" || { rm -rf "$_tt"; die 1 "cannot read every file of $_tree"; }
	skip_git=0
	_whole=0
	if [ "$BR_SOURCE" != git ] || grep -q '^000000 ' "$_tt/tree"; then
		_whole=1
	elif [ ! -d "$KIT_CACHE/src/$BR_COMMIT" ]; then
		# a tree of one's own needs no source: none is fetched for it
		progress "$BRANCH" copy "no export of $BRANCH in the cache to link from; copying $_tree whole"
		_whole=1
	elif ! ( farm_to "$_dest" ) >"$_tt/export" 2>"$_tt/err"; then
		# no export to link from (the source unreachable, say): the
		# tree is all there is
		progress "$BRANCH" copy "no export of $BRANCH to link from ($(sed -n 's/^[^:]*: error: //p' "$_tt/err" | tail -1)); copying $_tree whole"
		rmtree "$_dest"
		_whole=1
	fi
	if [ $_whole = 1 ]; then
		mkdir -- "$_dest" && (cd "$_tree" && find . -mindepth 1 -maxdepth 1 ! -name .git ! -name .kit-verified -exec cp -a {} "$_dest/" \;) &&
			find "$_dest" -type d ! -perm -u=w -exec chmod u+w {} + ||
			{ rmtree "$_dest"; rm -rf "$_tt"; die 1 "cannot copy $_tree to $_dest"; }
	else
		# out: what the export has and TREE does not (files and links
		# first, then folders, deepest first); in: what TREE has and DEST
		# then lacks (folders first)
		awk -F'\t' 'FILENAME == ARGV[1] { t[$2] = $1; next } !($2 in t) || t[$2] != $1 { print $1 "\t" $2 }' \
			"$_tt/tree" "$_tt/export" >"$_tt/out"
		awk -F'\t' 'FILENAME == ARGV[1] { e[$2] = $1; next } !($2 in e) || e[$2] != $1 { print $1 "\t" $2 }' \
			"$_tt/export" "$_tt/tree" >"$_tt/in"
		(
			cd "$_dest" || exit 1
			grep -v '^040000 ' "$_tt/out" | cut -f2- | while IFS= read -r _p; do rm -f -- "$_p" || exit 1; done &&
			grep '^040000 ' "$_tt/out" | cut -f2- | LC_ALL=C sort -r | while IFS= read -r _p; do
				[ ! -d "$_p" ] || rmdir -- "$_p" 2>/dev/null || rmtree "$_p" || exit 1
			done &&
			grep '^040000 ' "$_tt/in" | cut -f2- | while IFS= read -r _p; do
				rm -f -- "$_p"; mkdir -p -- "$_p" || exit 1
			done &&
			grep -v '^040000 ' "$_tt/in" | cut -f2- | while IFS= read -r _p; do
				rm -f -- "$_p" && cp -P -p -- "$_tree/$_p" "$_p" || exit 1
			done
		) || { rmtree "$_dest"; rm -rf "$_tt"; die 1 "cannot make $_dest from $_tree and the export's link source"; }
		index_in=$KIT_CACHE/src/.links-index.$BR_COMMIT
	fi
	skip_git=1
	listing "$_dest" >"$_tt/have" || { rmtree "$_dest"; rm -rf "$_tt"; die 1 "cannot read $_dest"; }
	index_in=
	if ! cmp -s "$_tt/tree" "$_tt/have"; then
		_w=$(describe_diff "$_tt/tree" "$_tt/have")
		rmtree "$_dest"; rm -rf "$_tt"
		die 1 "$_dest is not $_tree ($_w): $_tree changed while it was read; run again when nothing writes to it"
	fi
	cat "$_tt/tree"
	rm -rf "$_tt"
}

# check_link_source DIR: the export's link source, if there is one, hashed
# file by file against DIR/want, the export's listing (the farms' check
# trusts its link index's stat data); one that differs is removed, and the
# run stops saying so (exit 1: the next build makes it again).
check_link_source() {
	_ls=$KIT_CACHE/src/.links.$key
	[ -d "$_ls" ] || return 0
	if listing "$_ls" >"$1/links" && cmp -s "$1/want" "$1/links"; then
		echo "$_ls matches it too (every blob id checked)" >&2
		return 0
	fi
	flock -x 8
	_w=$(describe_diff "$1/want" "$1/links")
	drop_link_source
	rm -rf "$1"
	die 1 "the link source $_ls was not the export ($_w); removed it: the next build makes it again"
}

# verify_cached: every file of the cached export against the source.
verify_cached() {
	ensure
	flock -s 8
	if [ "$BR_SOURCE" = git ]; then
		gd=$(resolve_git_dir) || exit $?
		_vt=$(mktemp -d)
		want_listing "$gd" "$BR_COMMIT" >"$_vt/want"
		listing "$export" >"$_vt/have" || { rm -rf "$_vt"; die 1 "cannot read $export"; }
		marker_listing "$export" >"$_vt/marker"
		why=
		# the files are the commit's, and the marker vouches for them
		if cmp -s "$_vt/want" "$_vt/have" && check_export "$export" "" marker &&
			cmp -s "$_vt/marker" "$_vt/have"; then
			echo "$export matches $BR_COMMIT ($(marker_field "$export" entries) entries, every blob id checked)" >&2
			check_link_source "$_vt"
			rm -rf "$_vt"
			return 0
		fi
		if [ -z "$why" ] && ! cmp -s "$_vt/want" "$_vt/have"; then
			why=$(describe_diff "$_vt/want" "$_vt/have")
		fi
		why=${why:-its marker's listing is not the commit's}
		rm -rf "$_vt"
	else
		_vt=$(mktemp -d)
		if check_export "$export" "$ver" full; then
			echo "$export matches its listing (from $(marker_field "$export" deb_sha256))" >&2
			marker_listing "$export" >"$_vt/want"
			check_link_source "$_vt"
			rm -rf "$_vt"
			return 0
		fi
		rm -rf "$_vt"
	fi
	lock_exclusive
	sweep
	[ ! -e "$export" ] || discard "$export" "$why"
	die 1 "the cached export of $BRANCH did not match its source ($why); removed it: the next fetch makes it again"
}

# --- main ----------------------------------------------------------------------

mode=fetch
case ${1:-} in
--probe) mode=probe; shift ;;
--marker) mode=marker; shift ;;
--copy) mode=copy; COPY_DEST=${3:?usage: fetch.sh --copy BRANCH DEST}; set -- "$2" ;;
--farm) mode=farm; COPY_DEST=${3:?usage: fetch.sh --farm BRANCH DEST}; set -- "$2" ;;
--listing)
	[ -d "${2:-}" ] || die 2 "usage: fetch.sh --listing DIR [BRANCH] (DIR must be a folder)"
	skip_git=1
	if [ -n "${3:-}" ]; then
		load_branch "$3"
		index_in=$(link_index "$2")
	fi
	listing "$2"; exit ;;
--git-dir) mode=git-dir; shift ;;
--tree-farm)
	mode=tree-farm; FARM_TREE=${3:?usage: fetch.sh --tree-farm BRANCH TREE DEST}
	COPY_DEST=${4:?usage: fetch.sh --tree-farm BRANCH TREE DEST}
	[ -d "$FARM_TREE" ] || die 2 "$FARM_TREE is not a folder"
	set -- "$2" ;;
--verify)
	if [ $# -ge 3 ]; then mode=verify-dir; VERIFY_DIR=$2; shift 2
	else mode=verify; shift; fi ;;
-*) die 2 "unknown option '$1'; see the comment at the top of scripts/fetch.sh" ;;
esac
BRANCH=${1:-${BRANCH:-}}
load_branch "$BRANCH"
need_cmd git tar flock

case $mode in
fetch) ensure; printf '%s\n' "$export" ;;
marker) ensure marker; printf '%s\n' "$export" ;;
probe) probe ;;
copy) copy_to "$COPY_DEST" ;;
farm) farm_to "$COPY_DEST" ;;
tree-farm) tree_farm_to "$FARM_TREE" "$COPY_DEST" ;;
verify) verify_cached ;;
git-dir)
	# what is here already: KERNEL_GIT's path, or the cache's mirror
	# holding the commit; never a fetch (exit 3 otherwise)
	[ "$BR_SOURCE" = git ] || die 2 "--git-dir is for git branches; $BRANCH comes from apt"
	if [ "$(source_kind)" = path ]; then local_git_dir
	elif git --git-dir="$KIT_CACHE/git/mirror.git" cat-file -e "$BR_COMMIT^{commit}" 2>/dev/null; then
		printf '%s\n' "$KIT_CACHE/git/mirror.git"
	else die 3 "no git repository here holds $BR_COMMIT ($BRANCH); 'fetch.sh $BRANCH' fetches it"; fi ;;
verify-dir)
	[ "$BR_SOURCE" = git ] || die 2 "--verify DIR works on git branches; $BRANCH comes from apt"
	[ -d "$VERIFY_DIR" ] || die 2 "$VERIFY_DIR is not a folder"
	gd=$(resolve_git_dir) || exit $?
	vt=$(mktemp -d)
	want_listing "$gd" "$BR_COMMIT" >"$vt/want"
	listing "$VERIFY_DIR" >"$vt/have" || { rm -rf "$vt"; die 1 "cannot read $VERIFY_DIR"; }
	if cmp -s "$vt/want" "$vt/have"; then
		rm -rf "$vt"; echo "$VERIFY_DIR matches $BR_COMMIT" >&2; exit 0
	fi
	w=$(describe_diff "$vt/want" "$vt/have"); rm -rf "$vt"
	die 1 "$VERIFY_DIR is not $BRANCH's pinned commit $BR_COMMIT ($w)" ;;
esac
