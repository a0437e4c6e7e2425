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
atomic_write() {
	_dst=$1
	_tmp=$(mktemp "$_dst.XXXXXX") || die 1 "cannot create a temp file beside $_dst"
	if cat >"$_tmp"; then mv -f "$_tmp" "$_dst"
	else rm -f "$_tmp"; die 1 "cannot write $_dst"; fi
}

# result.json: merge a jq expression into $OUT/<b>/result.json atomically.
# result_update <file> <jq args...>
result_update() {
	_rf=$1; shift
	[ -s "$_rf" ] || printf '{}\n' >"$_rf"
	_tmp=$(mktemp "$_rf.XXXXXX") || die 1 "cannot create a temp file beside $_rf"
	if jq "$@" "$_rf" >"$_tmp"; then mv -f "$_tmp" "$_rf"
	else rm -f "$_tmp"; die 1 "cannot update $_rf (jq failed)"; fi
}
