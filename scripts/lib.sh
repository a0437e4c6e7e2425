# shellcheck shell=sh
# Common helpers for the kit's shell scripts.  Sourced, never run.
#
# Conventions: every error is one line on stderr that names the problem and
# the fix, then exit 2 (bad input) or 1 (a step failed).  Progress lines go
# to stderr as "[branch] stage: message (elapsed)".

KIT_ROOT=${KIT_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
# The kit's name in the paths it owns (config, cache, lock).  It carried
# one fix first and was named after it; KIT_OLD_NAME's paths are still
# read when the new ones do not exist (kit_path below).
KIT_NAME=stable-backport-kit
KIT_OLD_NAME=cve-2010-0307-kit

# Every tool the kit runs reads and writes numbers the C way: awk's
# printf "%.2f" under de_DE or tr_TR writes "1,28", which jq's tonumber
# refuses, and sort, comm and [a-z] follow the locale's collation.  The
# kit's own messages are ASCII, so nothing is lost; tools' messages come
# in English.  Exported: every tool and script the kit starts inherits it.
LC_ALL=C
export LC_ALL

KIT_T0=${KIT_T0:-$(date +%s)}
export KIT_T0

die() {
	# die <exit code> <message>
	_rc=$1; shift
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit "$_rc"
}

warn() { printf '%s: warning: %s\n' "${0##*/}" "$*" >&2; }

elapsed() {
	_now=$(date +%s)
	_e=$((_now - KIT_T0))
	printf '%dm%02ds' $((_e / 60)) $((_e % 60))
}

progress() {
	# progress <branch> <stage> <message...>
	_b=$1; _s=$2; shift 2
	# the old-name note (kit_path), once per command, with its first
	# progress line: never beside a one-line error
	if [ -n "${_kit_old_note:-}" ] && [ -z "${KIT_OLD_PATH_SAID:-}" ]; then
		printf '%s' "$_kit_old_note" >&2
		KIT_OLD_PATH_SAID=1
		export KIT_OLD_PATH_SAID
	fi
	printf '[%s] %-10s %s (%s)\n' "$_b" "$_s" "$*" "$(elapsed)" >&2
}

# The kit's own configuration file (outside the repo; never committed), e.g.
#
#   # where the 2.6 trees come from
#   KERNEL_GIT=/srv/git/linux.git
#   OUT="/scratch/kit-out"
#
# It is data, never run: KEY=value lines for KERNEL_GIT, STABLE_GIT,
# KIT_CACHE, OUT and JOBS, '#' comment lines and blank lines.  A value is taken as written: one
# pair of surrounding quotes is dropped and nothing is expanded; a value
# that asks for expansion ($VAR, $(...), `...`, a leading ~) is refused,
# not kept as a surprising literal folder name.  A comment may follow a
# value: it starts at the first '#' that has a blank (space or tab) just
# before it, outside quotes (KERNEL_GIT=/srv/linux.git  # mirror); a '#'
# with no blank before it is part of the value (https://host/x#y).  A
# UTF-8 byte order mark at the start of the file (some Windows editors
# write one) is skipped.  Each key may be set once: a second line for it
# is refused, naming both lines.  OUT and KIT_CACHE must be absolute
# paths.  For every key, a non-empty setting in the environment (or on
# make's command line) wins over the file, and the file wins over the
# defaults.  A line that is anything else stops every kit command with the
# file, the line number and the fix (exit 2).  KIT_CONFIG=<file> reads
# another file; a file that does not exist, and KIT_CONFIG=/dev/null, are
# no configuration.
#
# kit_path BASE [REST]: BASE/$KIT_NAME[/REST] in _kp, or the same under
# KIT_OLD_NAME when only that one exists (a machine set up before the
# rename): it keeps working, and the command's first progress line comes
# after a note saying how to move it.
kit_path() {
	_kp=$1/$KIT_NAME
	if [ ! -e "$_kp" ] && [ -e "$1/$KIT_OLD_NAME" ]; then
		_kp=$1/$KIT_OLD_NAME
		_kit_old_note="${_kit_old_note:-}[kit] note: using $_kp (the kit's old name); mv $_kp $1/$KIT_NAME to use the new one
"
	fi
	_kp=$_kp${2:+/$2}
}
[ -n "${KIT_CONFIG:-}" ] || { kit_path "${XDG_CONFIG_HOME:-$HOME/.config}" config; KIT_CONFIG=$_kp; }
_kit_cr=$(printf '\r')

# _kit_trim TEXT: TEXT without leading and trailing blanks, in _t.
_kit_trim() {
	_t=$1
	while :; do case $_t in [" 	$_kit_cr"]*) _t=${_t#?} ;; *) break ;; esac; done
	while :; do case $_t in *[" 	$_kit_cr"]) _t=${_t%?} ;; *) break ;; esac; done
}

_kit_config_bad() {
	# _kit_config_bad <line number> <what is wrong and the fix>
	die 2 "$KIT_CONFIG line $1: $2"
}
_kit_config_form="the file is data, not shell: write KEY=value (KEY one of KERNEL_GIT STABLE_GIT KIT_CACHE OUT JOBS), a '#' comment or a blank line"

# _kit_config_line <n> <text>: one line of the file into _cfg_<key>.
_kit_config_line() {
	_kit_trim "$2"
	case $_t in '' | '#'*) return 0 ;; esac
	case $_t in *=*) ;; *) _kit_config_bad "$1" "'$(printf '%.60s' "$_t")' is not KEY=value; $_kit_config_form" ;; esac
	_cfl=$_t
	_kit_trim "${_cfl%%=*}"; _cfk=$_t
	_kit_trim "${_cfl#*=}"; _cfv=$_t
	case $_cfv in
	\"* | \'*)
		# quoted: the value runs to the same quote; after it only blanks,
		# or blanks and a comment
		_cfq=${_cfv%"${_cfv#?}"}; _cfb=${_cfv#?}
		case $_cfb in *"$_cfq"*) ;; *)
			_kit_config_bad "$1" "$_cfk has a stray quote in '$_cfv'; quote the whole value or nothing" ;; esac
		_cfv=${_cfb%%"$_cfq"*}; _cfa=${_cfb#*"$_cfq"}
		_kit_trim "$_cfa"
		case $_cfa in
		'') ;;
		[" 	"]*) case $_t in '#'*) ;; *)
			_kit_config_bad "$1" "$_cfk has a stray quote in '$_cfq$_cfb'; quote the whole value or nothing (a comment after it starts with ' #')" ;; esac ;;
		*) _kit_config_bad "$1" "$_cfk has a stray quote in '$_cfq$_cfb'; quote the whole value or nothing (a comment after it starts with ' #')" ;;
		esac
		;;
	*)
		# unquoted: a comment starts at the first '#' with a blank before it
		case $_cfv in *[" 	"]#*) _kit_trim "${_cfv%%[" 	"]#*}"; _cfv=$_t ;; esac
		;;
	esac
	case $_cfv in
	*[\"\']*) _kit_config_bad "$1" "$_cfk has a stray quote in '$_cfv'; quote the whole value or nothing" ;;
	*'$'* | *'`'* | '~'*) _kit_config_bad "$1" "$_cfk='$_cfv' asks for expansion, which this file never does; write the value out in full" ;;
	esac
	case $_cfk in
	OUT | KIT_CACHE) case $_cfv in '' | /*) ;; *)
		_kit_config_bad "$1" "$_cfk='$_cfv' is a relative path; write it from /" ;; esac ;;
	esac
	# each key once: of two lines for one key, which did the user mean?
	case $_cfk in
	KERNEL_GIT) _cfp=$_cfg_kg_n ;;
	STABLE_GIT) _cfp=$_cfg_sg_n ;;
	KIT_CACHE) _cfp=$_cfg_kc_n ;;
	OUT) _cfp=$_cfg_out_n ;;
	JOBS) _cfp=$_cfg_jobs_n ;;
	*) _kit_config_bad "$1" "unknown key '$(printf '%.40s' "$_cfk")'; $_kit_config_form" ;;
	esac
	[ -z "$_cfp" ] ||
		_kit_config_bad "$1" "$_cfk is set twice, on line $_cfp and line $1; keep one of the two lines"
	case $_cfk in
	KERNEL_GIT) _cfg_kg=$_cfv _cfg_kg_n=$1 ;;
	STABLE_GIT) _cfg_sg=$_cfv _cfg_sg_n=$1 ;;
	KIT_CACHE) _cfg_kc=$_cfv _cfg_kc_n=$1 ;;
	OUT) _cfg_out=$_cfv _cfg_out_n=$1 ;;
	JOBS) _cfg_jobs=$_cfv _cfg_jobs_n=$1 _cfg_jobs_at="$KIT_CONFIG line $1" ;;
	esac
}

_kit_read_config() {
	_cfg_kg= _cfg_sg= _cfg_kc= _cfg_out= _cfg_jobs= _cfg_jobs_at=
	_cfg_kg_n= _cfg_sg_n= _cfg_kc_n= _cfg_out_n= _cfg_jobs_n=
	# /dev/null: no configuration, said on purpose (a test, or a machine
	# whose ~/.config holds a file for another setup)
	[ "$KIT_CONFIG" != /dev/null ] || return 0
	[ -e "$KIT_CONFIG" ] || return 0
	[ -f "$KIT_CONFIG" ] && [ -r "$KIT_CONFIG" ] ||
		die 2 "KIT_CONFIG=$KIT_CONFIG is not a readable file; fix its permissions, or point KIT_CONFIG at the kit's KEY=value file (/dev/null for none)"
	_cfn=0
	_cfbom=$(printf '\357\273\277')
	while IFS= read -r _cfr || [ -n "$_cfr" ]; do
		_cfn=$((_cfn + 1))
		# a UTF-8 byte order mark is no part of the first key
		[ "$_cfn" -ne 1 ] || _cfr=${_cfr#"$_cfbom"}
		_kit_config_line "$_cfn" "$_cfr"
	done <"$KIT_CONFIG"
}
_kit_read_config

# A kernel source named by the user (environment or file): an unreachable
# 2.6 branch is then a failure, not a SKIP (source_configured).  Decided
# once, by the first kit script, and inherited: its children see the
# default KERNEL_GIT exported and must not take it for the user's choice.
if [ -z "${KIT_SOURCE_CONFIGURED:-}" ]; then
	KIT_SOURCE_CONFIGURED=0
	[ -z "${KERNEL_GIT:-}$_cfg_kg" ] || KIT_SOURCE_CONFIGURED=1
fi
_kit_jobs_from="from the environment"
[ -n "${JOBS:-}" ] || _kit_jobs_from="from $_cfg_jobs_at"

KERNEL_GIT_DEFAULT=https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git
KERNEL_GIT=${KERNEL_GIT:-${_cfg_kg:-$KERNEL_GIT_DEFAULT}}
# Further git sources of upstream's changelog text (stable trees,
# distribution kernels), space-separated paths or URLs, read by mbox.sh
# and records.sh beside KERNEL_GIT; words of data, never evaluated.  Set
# and empty in the environment: none, whatever the file says.
STABLE_GIT=${STABLE_GIT-$_cfg_sg}
if [ -z "${KIT_CACHE:-}" ]; then
	if [ -n "$_cfg_kc" ]; then KIT_CACHE=$_cfg_kc; else kit_path "${XDG_CACHE_HOME:-$HOME/.cache}"; KIT_CACHE=$_kp; fi
fi
OUT=${OUT:-${_cfg_out:-$KIT_ROOT/out}}
# Scripts cd into trees and pass OUT on: one absolute path for all of them.
case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac
JOBS=${JOBS:-$_cfg_jobs}
case $JOBS in
'') JOBS=$(nproc 2>/dev/null || echo 2) ;;
*[!0-9]* | 0*) die 2 "JOBS='$JOBS' ($_kit_jobs_from) is not a positive whole number; set JOBS=<n>, e.g. JOBS=2" ;;
esac
export KERNEL_GIT STABLE_GIT KIT_CACHE OUT JOBS KIT_ROOT KIT_SOURCE_CONFIGURED

# The build lock: one kernel build at a time, boots beside each other but
# never beside a build (build.sh, cross.sh, testvm/verify-kernel.sh).  It
# is the user's own file: in $XDG_RUNTIME_DIR (a folder only its user can
# write, per login), else in the kit cache.  A single path in /tmp was
# created by whoever ran first, and every other user then failed to open
# it.  KIT_LOCK=<file> names another one (the tests each use their own).
if [ -z "${KIT_LOCK:-}" ]; then
	if [ -n "${XDG_RUNTIME_DIR:-}" ] && [ -d "$XDG_RUNTIME_DIR" ] && [ -w "$XDG_RUNTIME_DIR" ] && [ -O "$XDG_RUNTIME_DIR" ]; then
		KIT_LOCK=$XDG_RUNTIME_DIR/$KIT_NAME.build.lock
	else
		KIT_LOCK=$KIT_CACHE/build.lock
	fi
fi
export KIT_LOCK

# build_lock_ready: KIT_LOCK can be opened for appending, so that the
# caller's `exec N>>"$KIT_LOCK"` cannot fail with a raw shell error (which
# also ends the script): exit 2 with the path and the fix otherwise.
# Opened with >>, never >: a lock is never truncated, and a file of the
# same name that is not the kit's keeps its content.  A symbolic link is
# refused rather than followed: the lock is a plain file the kit makes.
# (A shell cannot open without following links: between the check and
# the open a link could still appear, but only from someone who may write
# the folder: $XDG_RUNTIME_DIR is the user's alone, and a KIT_CACHE shared
# on purpose is shared with users the user trusts.)
build_lock_ready() {
	[ ! -L "$KIT_LOCK" ] ||
		die 2 "the build lock $KIT_LOCK is a symbolic link, which the kit does not follow; remove it (rm $KIT_LOCK), or set KIT_LOCK=<a file of your own>"
	if ! mkdir -p -- "$(dirname -- "$KIT_LOCK")" 2>/dev/null || ! (true >>"$KIT_LOCK") 2>/dev/null; then
		die 2 "cannot open the build lock $KIT_LOCK for writing (owned by another user, or its folder is read-only); set KIT_LOCK=<a file you can write>, or remove that file"
	fi
}

# unshare_files DIR: each file named on stdin (a path in DIR) that DIR shares
# with another folder (a hard link: a farm's file and its link source's)
# replaced by a copy of its own, with the same mode and times.  What sets
# a file's time in place needs it first: quilt's backup of a file it
# patches is a hard link to it whose time quilt sets, and so the link
# source's, and every tree's that shares it.
unshare_files() {
	while IFS= read -r _u; do
		_uf=$1/$_u
		[ -f "$_uf" ] && [ ! -L "$_uf" ] && [ "$(stat -c %h "$_uf")" -gt 1 ] || continue
		cp -p "$_uf" "$_uf.kit-own" && mv -f "$_uf.kit-own" "$_uf" || return 1
	done
}

# rmtree DIR...: remove scratch folders from an EXIT trap. Never fails: under
# set -e a failing command in an EXIT trap turns a successful run's exit
# status into 1 (dash), so a cleanup hiccup must not fail the work it follows.
# chmod fails for a DIR that is already gone (or was never made): that is
# the state rmtree wants, not an error.  What rm cannot remove after a
# second try is named by rm on stderr, and the caller goes on.
rmtree() {
	# removing a file needs its folder writable, not the file: a hard-linked
	# work tree's files are shared with its link source (fetch.sh farm_to),
	# whose modes a chmod of them would change
	find "$@" -type d ! -perm -u=w -exec chmod u+w {} + 2>/dev/null || :
	rm -rf "$@" 2>/dev/null || { sleep 2; rm -rf "$@"; } || :
}

need_cmd() {
	for _c; do
		command -v "$_c" >/dev/null 2>&1 ||
			die 2 "'$_c' is not installed; run 'make deps' (or apt-get install the package that provides it)"
	done
}

# is_plain_name VALUE: VALUE is one harmless path component (letters,
# digits, '.', '_', '-', starting with a letter or digit): never '/', '.',
# '..', empty, or an option.
is_plain_name() {
	case $1 in
	[A-Za-z0-9]*) case $1 in *[!A-Za-z0-9._-]*) return 1 ;; esac; return 0 ;;
	esac
	return 1
}

# The longest NAME: it names a folder in OUT, a column of the verdict
# table, and with a suffix a pick's or a mutant's folder.  A longer one
# (beyond the file system's 255) failed only when its folder was made,
# after minutes of work, with exit 1.
KIT_NAME_MAX=64

# check_name WHAT VALUE: refuse (exit 2) a NAME, BRANCH ... that is not a
# plain name, before anything is read or written with it: $OUT/<name> and
# branches/<name>.conf must stay where they are (NAME=../../tmp/x would
# write outside OUT; BRANCH=../../x would source any *.conf).
check_name() {
	is_plain_name "$2" ||
		die 2 "$1='$(printf '%s' "$2" | tr -d '\000-\037\177' | cut -c1-80)' is not a plain name; use letters, digits, '.', '_' and '-' only, starting with a letter or digit (no '/', no blank)"
	[ ${#2} -le $KIT_NAME_MAX ] ||
		die 2 "$1='$(printf '%.40s' "$2")...' is ${#2} characters long; use at most $KIT_NAME_MAX"
}

# check_branch VALUE: BRANCH is a plain name (load_branch then says whether
# there is such a branch).
check_branch() {
	is_plain_name "$1" ||
		die 2 "BRANCH='$(printf '%s' "$1" | tr -d '\000-\037\177' | cut -c1-80)' is not a branch name; set BRANCH=<name>, one of: $(list_branches | tr '\n' ' ')"
}

# check_inputs WHAT...: NAME and/or BRANCH as the user gave them, checked
# first thing, before any work (a bad NAME was once found only after
# minutes of spatch); a NAME the script derives is checked where it is.
check_inputs() {
	for _ci; do
		case $_ci in
		NAME) [ -z "${NAME:-}" ] || check_name NAME "$NAME" ;;
		BRANCH) [ -z "${BRANCH:-}" ] || check_branch "$BRANCH" ;;
		esac
	done
}

# tree_run_name TREE: the output name of a TREE= run, in _trn: NAME= when
# given, else "tree-<the tree folder's name>".  A TREE= run never writes
# into a branch's folder (OUT/<branch>/, which the report and the records
# present as the kit's own branch): the default cannot be a branch name,
# and NAME= equal to one is refused (exit 2).
tree_run_name() {
	if [ -n "${NAME:-}" ]; then _trn=$NAME
	else _trn=tree-$(basename "$(cd "$1" && pwd)"); fi
	check_name NAME "$_trn"
	[ ! -e "$KIT_ROOT/branches/$_trn.conf" ] ||
		die 2 "NAME=$_trn is a branch name; a TREE= run writes to OUT/<name>/ and must not overwrite the branch's result: set NAME=<another name> (default tree-<folder>)"
}

# Load a branch definition into BR_* variables.
load_branch() {
	_name=$1
	[ -n "$_name" ] || die 2 "no branch given; set BRANCH=<name> (one of: $(list_branches | tr '\n' ' '))"
	check_branch "$_name"
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

# umask_mode FILE: give FILE the mode a plain `>` would have given it,
# 0666 less the umask.  mktemp makes its file 0600 whatever the umask, and
# the rename below keeps that mode: result.json and the records were
# unreadable to a group that `umask 002` meant to share them with.
umask_mode() {
	_um=$(umask)
	chmod "$(printf '%o' $((0666 & ~0$_um)))" "$1"
}

# Atomic write: write stdin to "$1" via a temp file in the same folder.
# The writer's failure must reach here: pipe a generator into atomic_write
# only when the generator's status does not matter; otherwise render into
# a file first and use atomic_install.
atomic_write() {
	_dst=$1
	_tmp=$(mktemp "$_dst.XXXXXX") || die 1 "cannot create a temp file beside $_dst"
	if cat >"$_tmp" && umask_mode "$_tmp"; then mv -f "$_tmp" "$_dst"
	else rm -f "$_tmp"; die 1 "cannot write $_dst"; fi
}

# atomic_install <rendered file> <dst>: put a finished rendering in place
# with one rename (same folder); the old <dst> stays until then.
atomic_install() {
	_dst=$2
	_tmp=$(mktemp "$_dst.XXXXXX") || die 1 "cannot create a temp file beside $_dst"
	if cat "$1" >"$_tmp" && umask_mode "$_tmp" && mv -f "$_tmp" "$_dst"; then :
	else rm -f "$_tmp"; die 1 "cannot write $_dst"; fi
}

# The output root's mark: the kit writes it into an OUT it creates, and
# make clean (scripts/clean.sh) removes only a folder that carries it (or
# one that holds nothing but what the kit writes there).  OUT is a common
# variable name: `export OUT=~/important` must never make it the kit's.
KIT_OUT_MARK=.stable-backport-kit-out

# out_root: create OUT, marked as the kit's, when it does not exist.  An
# OUT that exists is left as it is: a folder the user made (or named by
# mistake) does not become the kit's by being written into.  Call it
# before the first write under OUT (out_root_for does it for a path).
out_root() {
	[ ! -d "$OUT" ] || return 0
	mkdir -p -- "$(dirname -- "$OUT")" || die 1 "cannot create $(dirname -- "$OUT")"
	# mkdir without -p: of two runs making OUT at once, exactly one marks it
	if mkdir -- "$OUT" 2>/dev/null; then
		printf 'The output root of stable-backport-kit, made by it: make clean (scripts/clean.sh) removes this folder.\n' \
			>"$OUT/$KIT_OUT_MARK" || die 1 "cannot write $OUT/$KIT_OUT_MARK"
	elif [ ! -d "$OUT" ]; then
		die 1 "cannot create OUT=$OUT"
	fi
}
# out_root_for PATH: out_root when PATH lies under OUT.
out_root_for() {
	case $1 in "$OUT"/*) out_root ;; esac
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
	out_root_for "$_rf"
	mkdir -p "$_rd" || die 1 "cannot create $_rd"
	(
		flock 8 || die 1 "cannot lock $_rf.lock"
		if [ -s "$_rf" ]; then
			[ "$(jq -s 'length == 1 and (.[0] | type) == "object"' "$_rf" 2>/dev/null)" = true ] ||
				die 1 "$_rf is not a JSON object (truncated or edited?); move it away or 'make clean', then run again"
		else
			printf '{}\n' >"$_rf"
		fi
		_tmp=$(mktemp "$_rf.XXXXXX") || die 1 "cannot create a temp file beside $_rf"
		# every writer stamps the layout version; an empty or non-object
		# output (the first jq failed) is refused, never installed
		# (jq 1.6 -e exits 0 on empty input: test for the object explicitly)
		jq "$@" "$_rf" | jq --argjson s "$KIT_RESULT_SCHEMA" '.schema = $s' >"$_tmp"
		if [ "$(jq -s 'length == 1 and (.[0] | type) == "object"' "$_tmp" 2>/dev/null)" != true ]; then
			rm -f "$_tmp"; die 1 "cannot update $_rf (jq failed)"
		fi
		umask_mode "$_tmp" && mv -f "$_tmp" "$_rf" || { rm -f "$_tmp"; die 1 "cannot write $_rf"; }
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

# The fixes the kit carries, enumerated: a fix is one folder
# backports/fixes/<id>/ (its FIX file, its changes/<L>-<slug>/ folders,
# backports/fixes/README.md), and no engine holds a list of them.
# KIT_FIXES=<dir> reads another fixes folder (tests, a copy of the kit).
#   kit_fixes               every fix (folder), in folder order; a folder
#                           without a FIX file stops the run (exit 2)
#   kit_changes             every change of every fix, in series order (the
#                           change folders' names: their letters, A, B, ...)
#   fix_changes <fix>       the changes of one fix, in series order
#   change_dir <change>     the change's folder (dies when there is none)
#   fix_of <change>         the fix the change belongs to (its folder)
#   fixes_of <change>...    the fixes of those changes, each once
#   fix_field <fix> <Key>   the values of a FIX header key, one a line
#   info_field <change> <Key>  the values of an INFO header key, one a line
#   change_of_letter <L>    the change whose INFO says Letter: <L>
# Header keys are read from the lines before the first blank line only:
# the text after it is our prose, never data.
kit_fixes_dir() { printf '%s\n' "${KIT_FIXES:-$KIT_ROOT/backports/fixes}"; }
kit_fixes() {
	# a folder without its FIX would have its changes in the series and
	# no gate to judge them: refused, never skipped
	for _kf in "$(kit_fixes_dir)"/*/; do
		[ -d "$_kf" ] || continue
		_kf=${_kf%/}
		[ -r "$_kf/FIX" ] ||
			die 2 "$_kf has no FIX file; every folder of $(kit_fixes_dir) is a fix and needs one (backports/fixes/README.md), or move it out"
		printf '%s\n' "${_kf##*/}"
	done
}
kit_changes() {
	# the folders' names across every fix, in byte order whatever the
	# locale: the letter first, so A..Z is the series order
	kit_fixes >/dev/null || exit $?
	for _kc in "$(kit_fixes_dir)"/*/changes/*/; do
		[ -d "$_kc" ] || continue
		_kc=${_kc%/}; printf '%s\n' "${_kc##*/}"
	done | LC_ALL=C sort
}
fix_changes() {
	for _kc in "$(kit_fixes_dir)/$1"/changes/*/; do
		[ -d "$_kc" ] || continue
		_kc=${_kc%/}; printf '%s\n' "${_kc##*/}"
	done | LC_ALL=C sort
}
change_dir() {
	for _cd in "$(kit_fixes_dir)"/*/changes/"$1"; do
		[ -d "$_cd" ] && { printf '%s\n' "$_cd"; return 0; }
	done
	die 2 "no change '$1' in $(kit_fixes_dir)/*/changes/ (changes: $(kit_changes | paste -sd' ' -))"
}
fix_of() {
	_fo=$(change_dir "$1") || exit $?
	_fo=${_fo%/changes/*}; printf '%s\n' "${_fo##*/}"
}
fixes_of() {
	# (no pipe around fix_of: its failure must reach the caller)
	_fos=
	for _c; do _fo1=$(fix_of "$_c") || exit $?; _fos="$_fos $_fo1"; done
	[ -z "$_fos" ] || printf '%s\n' $_fos | LC_ALL=C sort -u
}
# header_field <file> <Key>: the values of Key in the file's header
header_field() { sed -n '/^$/q; s/^'"$2"': //p' "$1"; }
fix_field() {
	[ -r "$(kit_fixes_dir)/$1/FIX" ] || die 2 "no fix '$1': $(kit_fixes_dir)/$1/FIX does not exist"
	header_field "$(kit_fixes_dir)/$1/FIX" "$2"
}
info_field() {
	_if=$(change_dir "$1") || exit $?
	header_field "$_if/INFO" "$2"
}
change_of_letter() {
	for _cl in $(kit_changes); do
		[ "$(info_field "$_cl" Letter)" = "$1" ] && { printf '%s\n' "$_cl"; return 0; }
	done
	return 1
}

# series_digest DIR: sha256 of a quilt series (the series file and every
# patch it names, in order); "-" when DIR has no series.
series_digest() {
	[ -r "$1/series" ] || { echo -; return 0; }
	(cd "$1" && cat series $(grep -v '^#' series)) | sha256sum | cut -d' ' -f1
}

# series_code DIR: what quilt applies of a series, for the build and
# cross keys: the series file, then each patch's name and its text from
# the first line a diff can start with (diff, Index:, "--- ", "*** ") on.
# The header above (upstream's changelog, our notes) changes no kernel:
# a note edited builds nothing again.  Everything from there on is kept;
# what the header could still carry for patch(1) (a normal or ed-style
# diff before any unified one) is left to the series' review.
series_code() {
	(cd "$1" && cat series && for _sp in $(grep -v '^#' series); do
		printf 'patch %s\n' "$_sp"
		awk '/^(diff |Index: |--- |\*\*\* )/ { on = 1 } on' "$_sp"
	done)
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

# apply_host_patches TAG TREE LOG PATCH...: each host-toolchain patch
# (branches/host/*.patch) only where its change is absent, in order (a
# later one may need an earlier one's change), as fix-state.sh --host
# tells: "missing" is applied (no fuzz; patch's output goes to LOG),
# "present" is skipped and named in a progress line under TAG (a late
# stable release or a vendor's tree has the fix its own way), "half" is
# refused.  Sets host_applied (the patch files applied) and host_present
# (the names skipped).  Returns 0; or 2 (the tree needs its own version of
# that fix) or 1 (a step failed) with the one-line reason in host_why.
# Callers use it in an || list, where errexit is off: every step is
# checked here.
apply_host_patches() {
	_aht=$1 _ahtree=$2 _ahlog=$3; shift 3
	host_applied='' host_present='' host_why=''
	for _ahp; do
		_ahn=${_ahp##*/}; _ahn=${_ahn%.patch}
		_ahst=$(sh "$KIT_ROOT/scripts/fix-state.sh" --host "$_ahp" "$_ahtree") ||
			{ host_why="cannot tell whether $_ahn.patch is in the tree"; return 1; }
		# "<name> <state> <detail>"
		_ahs=${_ahst#"$_ahn" }; _ahd=${_ahs#* }; _ahs=${_ahs%% *}
		case $_ahs in
		missing)
			patch -d "$_ahtree" -p1 -F0 -N --no-backup-if-mismatch -s <"$_ahp" >>"$_ahlog" 2>&1 ||
				{ host_why="$_ahn.patch applied in a dry run but not for real"; return 1; }
			host_applied="$host_applied $_ahp" ;;
		present)
			progress "$_aht" host "host patch $_ahn is already present $_ahd: skipped"
			host_present="$host_present $_ahn" ;;
		half)
			host_why="host patch $_ahn is half present in $_ahd; the tree needs its own version of this host fix (branches/host/$_ahn.patch)"
			return 2 ;;
		*) host_why="fix-state.sh --host said '$_ahst' for $_ahn"; return 1 ;;
		esac
	done
}
