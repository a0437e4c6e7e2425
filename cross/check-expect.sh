#!/bin/sh
# check-expect.sh CELLDIR BRANCH CELL "OBJECTS" EXPECTDIR: compare the
# functions each patch changed (CELLDIR/steps/<n>-<change>/<object>.diff,
# objdiff output) with the expected sets EXPECTDIR/<change>.expect.
# EXPECTDIR may be several folders joined by ':' (each fix keeps its own,
# backports/fixes/<fix>/cross/); the first that has the change's file wins.
#
# An .expect file has one line per function a change is expected to
# change (or add, or remove) in an object:
#
#   [?]<object glob> <function glob> [<branch glob> [<cell glob>]]
#
# A leading '?' marks a function the change MAY change (the compiler's
# inlining decisions differ between architectures); without it the
# function MUST change wherever that object is built.  An object of the
# cell that no line names must not change at all.
#
# Prints one line per (change, object): "OK ..." or "FAIL <object> ...";
# exit 1 when any FAIL.  No step at all, or a step without its change name
# or an object's diff, is a FAIL too: what was not measured is never "OK".
set -u
cdir=$1 branch=$2 cell=$3 objs=$4 edir=$5
rc=0
matches() { # matches <value> <glob>
	case $1 in $2) return 0 ;; esac
	return 1
}
# base <function>: the function a compiler-made fragment belongs to.  gcc
# moves a function's unlikely paths into <fn>.cold and clones it into
# <fn>.part.N / .isra.N / .constprop.N; which of them exist differs between
# compilers and arches (seen: load_aout_binary.cold on i386 2.6.26).  A
# change to a fragment is a change to its function, and counts for it.
base() { printf '%s\n' "$1" | sed -E 's/(\.(cold|part|isra|constprop|lto_priv|clone)(\.[0-9]+)?)+$//'; }
fmatches() { matches "$1" "$2" || matches "$(base "$1")" "$2"; }
steps=0
for sd in "$cdir"/steps/*; do
	[ -d "$sd" ] || continue
	steps=$((steps + 1))
	if [ ! -s "$sd/change" ]; then
		echo "FAIL * ${sd##*/}: the step has no change name ($sd/change)"
		rc=1
		continue
	fi
	chg=$(cat "$sd/change")
	ef=${edir%%:*}/$chg.expect
	_ed=$edir
	while [ ! -r "$ef" ] && [ "${_ed#*:}" != "$_ed" ]; do
		_ed=${_ed#*:}; ef=${_ed%%:*}/$chg.expect
	done
	if [ ! -r "$ef" ]; then
		echo "FAIL * $chg: no expected set ($ef); write one"
		rc=1
		continue
	fi
	for o in $objs; do
		must= may=
		while read -r eo fn br ce _; do
			case $eo in '' | '#'*) continue ;; esac
			opt=
			case $eo in '?'*) opt=1 eo=${eo#?} ;; esac
			matches "$o" "$eo" || continue
			matches "$branch" "${br:-*}" || continue
			matches "$cell" "${ce:-*}" || continue
			if [ -n "$opt" ]; then may="$may $fn"; else must="$must $fn"; fi
		done <"$ef"
		if [ ! -r "$sd/$o.diff" ]; then
			echo "FAIL $o $chg: no objdiff output ($sd/$o.diff); the step did not finish"
			rc=1
			continue
		fi
		got=$(cut -d' ' -f2 "$sd/$o.diff" | tr '\n' ' ')
		bad=0
		for f in $got; do
			ok=0
			for e in $must $may; do fmatches "$f" "$e" && { ok=1; break; }; done
			if [ $ok -eq 0 ]; then
				echo "FAIL $o $chg: unexpected changed function $f ($(grep " $f\$" "$sd/$o.diff" | cut -d' ' -f1))"
				bad=1
			fi
		done
		for e in $must; do
			hit=0
			for f in $got; do fmatches "$f" "$e" && { hit=1; break; }; done
			if [ $hit -eq 0 ]; then
				echo "FAIL $o $chg: expected $e to change, but it did not"
				bad=1
			fi
		done
		[ $bad -eq 0 ] && echo "OK $o $chg: changed {$(echo $got | sed 's/ /, /g')}" || rc=1
	done
done
if [ $steps -eq 0 ]; then
	echo "FAIL * no step under $cdir/steps: the series was not pushed, nothing was compared"
	rc=1
fi
exit $rc
