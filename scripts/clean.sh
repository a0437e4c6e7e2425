#!/bin/sh
# clean.sh: remove the output root OUT (make clean), and nothing else.
#
# OUT comes from the command line or the environment, else the config
# file, else ./out (scripts/lib.sh).  It is removed as one quoted path, so
# OUT='/tmp/a b' removes '/tmp/a b' and not /tmp/a and ./b.  Only an
# output root of the kit is removed: one that carries the mark the kit
# writes when it creates an OUT (.stable-backport-kit-out, lib.sh
# out_root), or, for an OUT made before the mark existed, one that holds
# nothing but what the kit writes there (kit_entry below).  Refused, with
# nothing removed: any other folder (OUT is a common variable name:
# `export OUT=~/important` once made make clean remove it), an empty OUT
# (make clean OUT=), a symbolic link, the root folder, a folder that is or
# holds your home, the kit's repository or its cache, and a folder holding
# files the repository tracks.  The refusal says where OUT came from.
#
#   exit 0 removed (or nothing there), 2 refused, 1 removal failed.
set -eu
# OUT= given but empty: a typo that, passed on unquoted, once made
# `rm -rf` remove whatever came next.  Decided before lib.sh, which takes an
# empty OUT for "not set".
if [ "${OUT+set}" = set ] && [ -z "$OUT" ]; then
	echo "${0##*/}: error: OUT is empty; give the output folder to remove (make clean OUT=<dir>), or leave OUT unset for ./out" >&2
	exit 2
fi
# where OUT comes from, for the refusal (lib.sh fills in an unset one)
out_from="from the environment or make's command line"
[ -n "${OUT:-}" ] || out_from=
. "$(dirname "$0")/lib.sh"
if [ -z "$out_from" ]; then
	if [ -n "$_cfg_out" ]; then out_from="from $KIT_CONFIG line $_cfg_out_n"; else out_from="the default, the kit's ./out"; fi
fi

# canon DIR: DIR with every symbolic link resolved; nothing if it is no
# folder; fails if it is one that cannot be entered.
canon() {
	if [ -d "$1" ]; then (cd -P -- "$1" && pwd -P); fi
}
# within A B: A is B or lies below B.
within() { case $1 in "$2" | "$2"/*) return 0 ;; esac; return 1; }

out=$OUT
while :; do case $out in */) [ "$out" = / ] && break; out=${out%/} ;; *) break ;; esac; done
if [ -L "$out" ]; then
	die 2 "OUT=$OUT is a symbolic link; give the folder itself, so that what is removed is what you named"
fi
if [ ! -e "$out" ]; then
	echo "${0##*/}: $out does not exist; nothing to remove" >&2
	exit 0
fi
[ -d "$out" ] || die 2 "OUT=$OUT is not a folder; the kit's output root is one, so nothing was removed"
o=$(canon "$out") && [ -n "$o" ] || die 1 "cannot enter $OUT to check what it is; nothing was removed"
[ "$o" != / ] || die 2 "OUT=$OUT is the root folder; set OUT to the kit's output folder"
for what in "HOME:your home folder:${HOME:-}" "KIT_ROOT:the kit's repository:$KIT_ROOT" \
	"KIT_CACHE:the kit's cache:$KIT_CACHE"; do
	name=${what%%:*} rest=${what#*:}
	label=${rest%%:*} path=${rest#*:}
	[ -n "$path" ] || continue
	p=$(canon "$path") || die 1 "cannot enter $path ($name) to check that OUT does not contain it; nothing was removed"
	[ -n "$p" ] || continue
	within "$p" "$o" && die 2 "OUT=$OUT is or contains $label ($name=$path); set OUT to the kit's output folder"
done
# Inside the repository, only what git does not track (./out is ignored):
# OUT=./branches would otherwise remove the kit's own files.
r=$(canon "$KIT_ROOT")
if within "$o" "$r" && command -v git >/dev/null 2>&1 &&
	[ -n "$(git -C "$r" ls-files -- "${o#"$r"/}" 2>/dev/null | head -1)" ]; then
	die 2 "OUT=$OUT holds files of the kit's repository; set OUT to the kit's output folder"
fi
# kit_entry NAME: NAME (in OUT) is something the kit writes at the top of
# an output root: a branch's or NAME='s folder (its result.json, or a CI
# job's job.status), a mutant's or gate test's *.series, the guest build
# (testvm), the fix records, the reports and tables, bench and end-to-end
# logs.  Used only for an OUT without the mark.
kit_entry() {
	case $1 in
	testvm | records | *.series) [ -d "$o/$1" ] ;;
	report.html | report.png | results.md | cross-table.txt | bench.json | bench-*.log | .e2e-*.log) [ -f "$o/$1" ] ;;
	*) [ -d "$o/$1" ] && { [ -f "$o/$1/result.json" ] || [ -f "$o/$1/job.status" ]; } ;;
	esac
}
if [ ! -f "$o/$KIT_OUT_MARK" ]; then
	foreign=
	for e in "$o"/* "$o"/.[!.]* "$o"/..?*; do
		[ -e "$e" ] || [ -L "$e" ] || continue
		# the name as one printable line, whatever the folder holds
		kit_entry "${e##*/}" || { foreign=$(printf '%s' "${e##*/}" | tr -d '\000-\037\177' | cut -c1-60); break; }
	done
	[ -z "$foreign" ] ||
		die 2 "OUT=$OUT ($out_from) is not an output folder the kit made: it has no $KIT_OUT_MARK and holds '$foreign', which the kit does not write; nothing was removed (if it is the kit's, touch $o/$KIT_OUT_MARK and run make clean again)"
fi
# Copies of the read-only exports need their folders' write bit back
# before rm can empty them; never the files' (a work tree's are shared
# with its link source, fetch.sh farm_to); whatever chmod cannot change,
# rm reports.
find "$o" -type d ! -perm -u=w -exec chmod u+w {} + 2>/dev/null || :
rm -rf -- "$o" || die 1 "could not remove all of $o; see the message above"
echo "${0##*/}: removed $o" >&2
