# shellcheck shell=sh
# Common helpers for the kit's shell scripts.  Sourced, never run.
#
# Conventions: every error is one line on stderr that names the problem and
# the fix, then exit 2 (bad input) or 1 (a step failed).  Progress lines go
# to stderr as "[branch] stage: message (elapsed)".

KIT_ROOT=${KIT_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
KIT_NAME=cve-2010-0307-kit

# The kit's own configuration file (outside the repo; never committed).
# It may set KERNEL_GIT, KIT_CACHE, OUT, JOBS.  The environment wins.
KIT_CONFIG=${KIT_CONFIG:-${XDG_CONFIG_HOME:-$HOME/.config}/$KIT_NAME/config}
if [ -r "$KIT_CONFIG" ]; then
	_kg=${KERNEL_GIT-}; _kc=${KIT_CACHE-}; _out=${OUT-}
	# shellcheck disable=SC1090
	. "$KIT_CONFIG"
	[ -n "$_kg" ] && KERNEL_GIT=$_kg
	[ -n "$_kc" ] && KIT_CACHE=$_kc
	[ -n "$_out" ] && OUT=$_out
fi

KERNEL_GIT_DEFAULT=https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git
KERNEL_GIT=${KERNEL_GIT:-$KERNEL_GIT_DEFAULT}
KIT_CACHE=${KIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/$KIT_NAME}
OUT=${OUT:-$KIT_ROOT/out}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
export KERNEL_GIT KIT_CACHE OUT JOBS KIT_ROOT

KIT_T0=${KIT_T0:-$(date +%s)}
export KIT_T0

die() {
	# die <exit code> <message>
	_rc=$1; shift
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit "$_rc"
}

elapsed() {
	_now=$(date +%s)
	_e=$((_now - KIT_T0))
	printf '%dm%02ds' $((_e / 60)) $((_e % 60))
}

progress() {
	# progress <branch> <stage> <message...>
	_b=$1; _s=$2; shift 2
	printf '[%s] %-10s %s (%s)\n' "$_b" "$_s" "$*" "$(elapsed)" >&2
}

# rmtree DIR...: remove scratch folders from an EXIT trap. Never fails: under
# set -e a failing command in an EXIT trap turns a successful run's exit
# status into 1 (dash), so a cleanup hiccup must not fail the work it follows.
rmtree() {
	chmod -R u+w "$@" 2>/dev/null
	rm -rf "$@" 2>/dev/null || { sleep 2; rm -rf "$@"; } || :
}

need_cmd() {
	for _c; do
		command -v "$_c" >/dev/null 2>&1 ||
			die 2 "'$_c' is not installed; run 'make deps' (or apt-get install the package that provides it)"
	done
}

# Load a branch definition into BR_* variables.
load_branch() {
	_name=$1
	[ -n "$_name" ] || die 2 "no branch given; set BRANCH=<name> (one of: $(list_branches | tr '\n' ' '))"
	_f=$KIT_ROOT/branches/$_name.conf
	[ -r "$_f" ] || die 2 "unknown branch '$_name'; known branches: $(list_branches | tr '\n' ' ')(add branches/$_name.conf to define it)"
	BR_NAME= BR_VERSION= BR_SOURCE= BR_COMMIT= BR_HOST_SERIES= BR_CONFIG= \
	BR_FLAGS= BR_CONFIG_BASE= BR_MARKERS= BR_APT_PACKAGE= BR_ARCH=x86_64 BR_CC_FLAGS=
	# shellcheck disable=SC1090
	. "$_f"
	[ "$BR_NAME" = "$_name" ] || die 2 "branches/$_name.conf sets BR_NAME='$BR_NAME'; it must match the file name"
	case $BR_SOURCE in
	git) printf '%s\n' "$BR_COMMIT" | grep -Eq '^[0-9a-f]{40}$' ||
		die 2 "branches/$_name.conf: BR_COMMIT must be a full 40-hex commit id" ;;
	apt) [ -n "$BR_APT_PACKAGE" ] || die 2 "branches/$_name.conf: BR_SOURCE=apt needs BR_APT_PACKAGE" ;;
	*) die 2 "branches/$_name.conf: BR_SOURCE must be 'git' or 'apt', not '$BR_SOURCE'" ;;
	esac
}

list_branches() {
	for _f in "$KIT_ROOT"/branches/*.conf; do
		_b=${_f##*/}; printf '%s\n' "${_b%.conf}"
	done
}

# Atomic write: write stdin to "$1" via a temp file in the same folder.
# The writer's failure must reach here: pipe a generator into atomic_write
# only when the generator's status does not matter; otherwise render into
# a file first and use atomic_install.
atomic_write() {
	_dst=$1
	_tmp=$(mktemp "$_dst.XXXXXX") || die 1 "cannot create a temp file beside $_dst"
	if cat >"$_tmp"; then mv -f "$_tmp" "$_dst"
	else rm -f "$_tmp"; die 1 "cannot write $_dst"; fi
}

# atomic_install <rendered file> <dst>: put a finished rendering in place
# with one rename (same folder); the old <dst> stays until then.
atomic_install() {
	_dst=$2
	_tmp=$(mktemp "$_dst.XXXXXX") || die 1 "cannot create a temp file beside $_dst"
	if cat "$1" >"$_tmp" && mv -f "$_tmp" "$_dst"; then :
	else rm -f "$_tmp"; die 1 "cannot write $_dst"; fi
}

# result.json's layout version: bump when a field changes meaning.
KIT_RESULT_SCHEMA=2

# result.json: merge a jq expression into $OUT/<b>/result.json atomically.
# result_update <file> <jq args...>
# verify, build, cross and mutants may run at once on one branch: the
# read-modify-write is serialised by a lock beside the file, or one
# update would silently drop the other's.
result_update() {
	_rf=$1; shift
	_rd=$(dirname "$_rf")
	mkdir -p "$_rd" || die 1 "cannot create $_rd"
	(
		flock 8 || die 1 "cannot lock $_rf.lock"
		if [ -s "$_rf" ]; then
			jq -e 'type == "object"' "$_rf" >/dev/null 2>&1 ||
				die 1 "$_rf is not a JSON object (truncated or edited?); move it away or 'make clean', then run again"
		else
			printf '{}\n' >"$_rf"
		fi
		_tmp=$(mktemp "$_rf.XXXXXX") || die 1 "cannot create a temp file beside $_rf"
		# every writer stamps the layout version; an empty or non-object
		# output (the first jq failed) is refused, never installed
		jq "$@" "$_rf" | jq --argjson s "$KIT_RESULT_SCHEMA" '.schema = $s' >"$_tmp"
		if jq -e 'type == "object"' "$_tmp" >/dev/null 2>&1; then
			mv -f "$_tmp" "$_rf"
		else
			rm -f "$_tmp"; die 1 "cannot update $_rf (jq failed)"
		fi
	) 8>>"$_rf.lock" || exit $?
}

# kit_provenance: one JSON object naming what made a result: the kit's
# own commit, and the versions of every tool that decides a verdict.
kit_provenance() {
	_v() { "$@" 2>/dev/null | head -1; }
	jq -n --arg kit "$(git -C "$KIT_ROOT" describe --always --dirty 2>/dev/null || echo unknown)" \
		--arg gcc "$(_v gcc --version)" --arg ld "$(_v ld --version)" \
		--arg spatch "$(_v spatch --version)" --arg qemu "$(_v "${QEMU:-qemu-system-x86_64}" --version)" \
		--arg at "$(date -u +%FT%TZ)" \
		'{kit_commit: $kit, gcc: $gcc, binutils: $ld, spatch: $spatch, qemu: $qemu, recorded_at: $at}'
}

# series_digest DIR: sha256 of a quilt series (the series file and every
# patch it names, in order); "-" when DIR has no series.
series_digest() {
	[ -r "$1/series" ] || { echo -; return 0; }
	(cd "$1" && cat series $(grep -v '^#' series)) | sha256sum | cut -d' ' -f1
}

# source_configured: true when the user named a kernel source (KERNEL_GIT
# in the environment or the config file).  Then a 2.6 branch that cannot
# be reached is a failure, not a SKIP: the user expects it to run.
source_configured() {
	[ "${KIT_SOURCE_CONFIGURED:-0}" = 1 ]
}

# skip_or_fail <branch>: the status a branch whose source cannot be
# reached gets: SKIP on a machine with no source configured (or for a
# source the user does not configure: apt), FAILED when one was.
skip_or_fail() {
	load_branch "$1"
	if [ "$BR_SOURCE" = git ] && source_configured; then echo FAILED; else echo SKIP; fi
}
