#!/bin/sh
# check-calls.sh NM OBJECT [CALLS...]: what the fixes say must hold of a
# patched object, read off its symbol table.  Each CALLS file (a fix's
# backports/fixes/<fix>/cross/calls) has lines
#
#   <object glob> define|call <symbol>
#
# (`define`: the object defines the function; `call`: it references it,
# an undefined symbol), '#' comments and blank lines.  The first line of a
# file whose glob matches the object applies, and every file is asked.  An
# object no line matches: nothing to say (exit 0, no output).
#
# NM is the nm of the object's architecture (<triplet>-nm, or nm).  ppc64
# ELFv1 defines a function as its descriptor (D, in .opd) and older
# toolchains named its code '.name', so D and a leading dot are accepted.
# Prints one line per rule that applies; exit 1 when the object does not
# have what one says, 2 for bad input.
set -u
nm=$1 obj=$2; shift 2
[ -r "$obj" ] || { echo "check-calls: $obj: no such object" >&2; exit 2; }
rc=0 syms=
for calls; do
	[ -r "$calls" ] || { echo "check-calls: $calls: cannot be read" >&2; exit 2; }
	rule=$(while read -r glob kind sym; do
		case $glob in '' | \#*) continue ;; esac
		# the glob is the calls file's pattern: matched as a glob on purpose
		# shellcheck disable=SC2254
		case $obj in $glob) echo "$kind $sym"; break ;; esac
	done <"$calls")
	[ -n "$rule" ] || continue
	kind=${rule%% *} sym=${rule#* }
	case $kind in
	define) want=TD what="define $sym" ;;
	call) want=U what="call $sym" ;;
	*) echo "check-calls: $calls: '$kind' is neither define nor call" >&2; exit 2 ;;
	esac
	[ -n "$syms" ] || syms=$("$nm" "$obj" 2>/dev/null) || { echo "check-calls: $nm cannot read $obj" >&2; exit 2; }
	if printf '%s\n' "$syms" | grep -Eq " [$want] \\.?$sym\$"; then
		echo "ok: $obj does $what"
	else
		echo "$obj does not $what"
		rc=1
	fi
done
exit $rc
