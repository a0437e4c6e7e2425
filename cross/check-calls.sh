#!/bin/sh
# check-calls.sh NM OBJECT: the fix's one non-negotiable fact about a
# patched object, read off its symbol table.  A loader (fs/binfmt_*.o,
# compat_binfmt_elf.o, *aout*.o, irixelf.o) must call setup_new_exec
# (an undefined reference to it); fs/exec.o must define it.  Any other
# object: nothing to say (exit 0, no output).
#
# NM is the nm of the object's architecture (<triplet>-nm, or nm).  ppc64
# ELFv1 defines a function as its descriptor (D, in .opd) and older
# toolchains named its code '.name', so D and a leading dot are accepted.
# Prints one line; exit 1 when the object does not have what it must.
set -u
nm=$1 obj=$2
[ -r "$obj" ] || { echo "check-calls: $obj: no such object" >&2; exit 2; }
case $obj in
*/exec.o | exec.o) want=TD what="define setup_new_exec" ;;
*binfmt_*.o | *aout*.o | *irixelf.o) want=U what="call setup_new_exec" ;;
*) exit 0 ;;
esac
syms=$("$nm" "$obj" 2>/dev/null) || { echo "check-calls: $nm cannot read $obj" >&2; exit 2; }
if printf '%s\n' "$syms" | grep -Eq " [$want] \\.?setup_new_exec\$"; then
	echo "ok: $obj does $what"
else
	echo "$obj does not $what"
	exit 1
fi
