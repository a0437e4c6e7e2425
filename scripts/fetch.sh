#!/bin/sh
# fetch.sh BRANCH: make sure a verified, read-only export of BRANCH's source
# exists in the kit's cache and print its path.
#
#   exit 0  path printed on stdout
#   exit 2  bad input (unknown branch, KERNEL_GIT lacks the commit, ...)
#   exit 3  the source cannot be reached from here (callers report SKIP)
#   exit 1  a step failed
#
# The cache holds one export per pinned commit (src/<commit>) or apt package
# version (src/<package>_<version>).  Exports are made in a temp folder,
# verified, made read-only and renamed into place, so a half-made export is
# never seen.  KERNEL_GIT's repository is only read.
set -eu
. "$(dirname "$0")/lib.sh"

if [ "${1:-}" = --verify ]; then
	# fetch.sh --verify DIR BRANCH: is DIR exactly BRANCH's pinned commit?
	VERIFY_DIR=${2:?usage: fetch.sh --verify DIR BRANCH}; shift 2
fi
BRANCH=${1:-${BRANCH:-}}
load_branch "$BRANCH"
need_cmd git tar
mkdir -p "$KIT_CACHE/src" || die 1 "cannot create the cache at $KIT_CACHE; set KIT_CACHE to a writable folder"

# verify_export <git-dir> <commit> <dir>: the files in <dir> are exactly
# <commit>'s tree (same paths, same blob ids, same modes).
verify_export() {
	_gd=$1 _c=$2 _d=$3
	_want=$(mktemp) _have=$(mktemp)
	git --git-dir="$_gd" ls-tree -r --full-tree "$_c" |
		awk -F'\t' '{ split($1, a, " "); print a[1] " " a[3] "\t" $2 }' |
		LC_ALL=C sort -k2 -t'	' >"$_want"
	(
		cd "$_d"
		# regular files: blob ids without writing anything to any repo
		find . -type f ! -name .kit-verified | sed 's|^\./||' | LC_ALL=C sort >"$_have.files"
		git hash-object --no-filters --stdin-paths <"$_have.files" >"$_have.ids"
		while IFS= read -r f; do
			if [ -x "$f" ]; then echo 100755; else echo 100644; fi
		done <"$_have.files" >"$_have.modes"
		paste -d' ' "$_have.modes" "$_have.ids" | paste -d'	' - "$_have.files"
		find . -type l | sed 's|^\./||' | while IFS= read -r l; do
			printf '120000 %s\t%s\n' "$(printf '%s' "$(readlink "$l")" | git hash-object --stdin)" "$l"
		done
	) | LC_ALL=C sort -k2 -t'	' >"$_have"
	rm -f "$_have.files" "$_have.ids" "$_have.modes"
	if cmp -s "$_want" "$_have"; then rm -f "$_want" "$_have"; return 0; fi
	diff "$_want" "$_have" | head -5 >&2
	rm -f "$_want" "$_have"
	return 1
}

# resolve_git_dir: print a git dir that holds $BR_COMMIT, or exit 2/3.
resolve_git_dir() {
	case $KERNEL_GIT in
	*://* | *@*:*)
		_m=$KIT_CACHE/git/mirror.git
		[ -d "$_m" ] || git init -q --bare "$_m"
		if ! git --git-dir="$_m" cat-file -e "$BR_COMMIT^{commit}" 2>/dev/null; then
			progress "$BRANCH" fetch "git fetch $KERNEL_GIT $BR_COMMIT"
			export GIT_TERMINAL_PROMPT=0 GIT_HTTP_LOW_SPEED_LIMIT=1000 GIT_HTTP_LOW_SPEED_TIME=30
			if ! _e=$(timeout "${KIT_FETCH_TIMEOUT:-120}" git --git-dir="$_m" fetch -q --depth=1 \
				"$KERNEL_GIT" "$BR_COMMIT" 2>&1); then
				_e=$(printf '%s' "${_e:-timed out}" | tail -1 | sed 's/^fatal: //')
				die 3 "cannot reach $KERNEL_GIT for $BRANCH ($_e); set KERNEL_GIT=<path of a local git copy holding $BR_COMMIT> (or put it in $KIT_CONFIG)"
			fi
		fi
		printf '%s\n' "$_m" ;;
	*)
		[ -d "$KERNEL_GIT" ] || die 3 "KERNEL_GIT=$KERNEL_GIT is not a folder; point it at a git repository holding $BR_COMMIT"
		_g=$(git -C "$KERNEL_GIT" rev-parse --absolute-git-dir 2>/dev/null) ||
			die 2 "KERNEL_GIT=$KERNEL_GIT is not a git repository; point it at one holding $BR_COMMIT"
		git --git-dir="$_g" cat-file -e "$BR_COMMIT^{commit}" 2>/dev/null ||
			die 2 "KERNEL_GIT=$KERNEL_GIT has no commit $BR_COMMIT ($BRANCH); use a repository with mainline history up to v$BR_VERSION"
		printf '%s\n' "$_g" ;;
	esac
}

fetch_git() {
	dst=$KIT_CACHE/src/$BR_COMMIT
	if [ -f "$dst/.kit-verified" ]; then
		printf '%s\n' "$dst"; return 0
	fi
	gd=$(resolve_git_dir) || exit $?
	tmp=$(mktemp -d "$KIT_CACHE/src/.tmp.XXXXXX")
	trap 'rmtree "$tmp"' EXIT
	progress "$BRANCH" fetch "exporting $BR_COMMIT"
	git --git-dir="$gd" archive --format=tar "$BR_COMMIT" | tar -x -C "$tmp" ||
		die 1 "git archive of $BR_COMMIT failed"
	progress "$BRANCH" fetch "verifying the export against $BR_COMMIT"
	verify_export "$gd" "$BR_COMMIT" "$tmp" ||
		die 1 "the export of $BR_COMMIT does not match the commit's tree; check $KERNEL_GIT with 'git fsck'"
	printf 'commit %s\nverified %s\n' "$BR_COMMIT" "$(date -u +%FT%TZ)" >"$tmp/.kit-verified"
	chmod -R a-w "$tmp"
	chmod u+w "$tmp"   # the folder itself, so that rename works
	mv "$tmp" "$dst" 2>/dev/null || {
		# another run won the race: keep theirs
		[ -f "$dst/.kit-verified" ] || die 1 "cannot move the export into $dst"
	}
	chmod a-w "$dst"
	trap - EXIT
	printf '%s\n' "$dst"
}

fetch_apt() {
	need_cmd apt-get dpkg-deb xz
	ver=$(apt-cache policy "$BR_APT_PACKAGE" 2>/dev/null | awk '/Candidate:/ { print $2 }')
	# a cached export of any version serves when apt cannot answer
	if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
		for d in "$KIT_CACHE/src/${BR_APT_PACKAGE}_"*; do
			[ -f "$d/.kit-verified" ] && { printf '%s\n' "$d"; return 0; }
		done
		die 3 "apt knows no package $BR_APT_PACKAGE; run 'apt-get update' (Debian 12's main archive carries it)"
	fi
	dst=$KIT_CACHE/src/${BR_APT_PACKAGE}_$ver
	if [ -f "$dst/.kit-verified" ]; then printf '%s\n' "$dst"; return 0; fi
	mkdir -p "$KIT_CACHE/apt"
	tmp=$(mktemp -d "$KIT_CACHE/src/.tmp.XXXXXX")
	trap 'rmtree "$tmp"' EXIT
	deb=$(ls "$KIT_CACHE/apt/${BR_APT_PACKAGE}_"*"$ver"*.deb 2>/dev/null | head -1 || true)
	if [ -z "$deb" ]; then
		progress "$BRANCH" fetch "apt-get download $BR_APT_PACKAGE=$ver"
		(cd "$tmp" && timeout 600 apt-get download -q "$BR_APT_PACKAGE=$ver" >&2) ||
			die 3 "apt-get download $BR_APT_PACKAGE=$ver failed; check the Debian mirror in /etc/apt/sources.list"
		# apt-get download checks the .deb against the signed archive index.
		mv "$tmp"/*.deb "$KIT_CACHE/apt/"
		deb=$(ls "$KIT_CACHE/apt/${BR_APT_PACKAGE}_"*.deb | head -1)
	fi
	progress "$BRANCH" fetch "unpacking $(basename "$deb")"
	mkdir "$tmp/deb"
	dpkg-deb -x "$deb" "$tmp/deb"
	tarball=$(ls "$tmp"/deb/usr/src/linux-source-*.tar.* | head -1)
	[ -n "$tarball" ] || die 1 "$deb holds no linux-source tarball"
	mkdir "$tmp/x"
	tar -xf "$tarball" -C "$tmp/x"
	top=$(ls "$tmp/x")
	mv "$tmp/x/$top" "$tmp/tree"
	printf 'package %s\nversion %s\ndeb_sha256 %s\nverified %s\n' "$BR_APT_PACKAGE" "$ver" \
		"$(sha256sum "$deb" | cut -d' ' -f1)" "$(date -u +%FT%TZ)" >"$tmp/tree/.kit-verified"
	chmod -R a-w "$tmp/tree"
	chmod u+w "$tmp/tree"
	mv "$tmp/tree" "$dst" || die 1 "cannot move the export into $dst"
	chmod a-w "$dst"
	chmod -R u+w "$tmp"; rm -rf "$tmp"
	trap - EXIT
	printf '%s\n' "$dst"
}

if [ -n "${VERIFY_DIR:-}" ]; then
	[ "$BR_SOURCE" = git ] || die 2 "--verify works on git branches; $BRANCH comes from apt"
	gd=$(resolve_git_dir) || exit $?
	verify_export "$gd" "$BR_COMMIT" "$VERIFY_DIR" ||
		die 1 "$VERIFY_DIR is not $BRANCH's pinned commit $BR_COMMIT"
	echo "$VERIFY_DIR matches $BR_COMMIT" >&2
	exit 0
fi

case $BR_SOURCE in
git) fetch_git ;;
apt) fetch_apt ;;
esac
