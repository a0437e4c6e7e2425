# shellcheck shell=sh
# The architectures a pick can be made for (ARCHES=), and the cross cells
# that compile each.  Sourced, never run; needs nothing else (order-rule.sh
# sources it alone).
#
# The list is what the kit knows an architecture by: the cross matrix
# (cross/matrix/<cell>.conf) and the changes that touch arch code (their
# INFO's Serves: or Arches: lines, backports/fixes/*/changes/).  An
# architecture a change's Arches: names but ARCHES= cannot (ia64, s390:
# cells that exist for one change's compat code) is never in a pick.  A cell
# added to the matrix needs its line in arch_of_cell (scripts/tests/
# picks.t fails until it has one).
KIT_ARCHES="x86_64 x86_32 powerpc sparc64 parisc m68knommu sh mips"

# arch_of_cell CELL: the architecture a cross cell compiles for; nothing
# (status 1) for a cell this list does not know.
arch_of_cell() {
	case $1 in
	x86_64) echo x86_64 ;;
	x86_32) echo x86_32 ;;
	ppc64) echo powerpc ;;
	sparc64) echo sparc64 ;;
	parisc | parisc64) echo parisc ;;
	m68knommu) echo m68knommu ;;
	sh-nommu | sh64) echo sh ;;
	mips-irix | mips64) echo mips ;;
	s390x) echo s390 ;;
	ia64) echo ia64 ;;
	*) return 1 ;;
	esac
}

# arches_of_path FILE: the architectures (KIT_ARCHES names) a kernel
# source file belongs to, by its folder (arch/<dir>/, include/asm-<dir>/);
# "generic" for a file of no architecture (include/asm-generic/ too); the
# folder's own name for one ARCHES= cannot name (ia64, s390, arm, ...).
arches_of_path() {
	case $1 in
	arch/*/*) _ap=${1#arch/} ;;
	include/asm-*/*) _ap=${1#include/asm-} ;;
	*) echo generic; return ;;
	esac
	case ${_ap%%/*} in
	generic) echo generic ;;
	x86 | x86_64 | i386) echo x86_64 x86_32 ;;
	sparc | sparc64) echo sparc64 ;;
	powerpc | ppc | ppc64) echo powerpc ;;
	m68knommu | m68k) echo m68knommu ;;
	sh | sh64) echo sh ;;
	*) echo "${_ap%%/*}" ;;
	esac
}

# arches_canon VALUE: VALUE (architectures separated by blanks or commas;
# "all", or nothing, for every one) as the canonical list, in KIT_ARCHES
# order, each once, in ARCHES_LIST.  Status 1 and a one-line reason in
# ARCHES_WHY for a name the kit does not know.
arches_canon() {
	ARCHES_LIST= ARCHES_WHY=
	case $1 in *[!A-Za-z0-9_,\ \	-]*)
		ARCHES_WHY="ARCHES='$1': architectures are names separated by blanks or commas; known: $KIT_ARCHES (or all)"
		return 1 ;;
	esac
	_ac_v=" $(printf '%s' "$1" | tr ',\t\n' '   ') "
	case $_ac_v in *[!\ ]*) ;; *) _ac_v=" all " ;; esac
	for _ac in $_ac_v; do
		[ "$_ac" = all ] && continue
		case " $KIT_ARCHES " in *" $_ac "*) ;; *)
			ARCHES_WHY="ARCHES='$1': unknown architecture '$_ac'; known: $KIT_ARCHES (or all)"
			return 1 ;;
		esac
	done
	for _ac in $KIT_ARCHES; do
		case $_ac_v in *" all "* | *" $_ac "*) ARCHES_LIST="${ARCHES_LIST:+$ARCHES_LIST }$_ac" ;; esac
	done
}

# arches_has LIST ARCH: ARCH is in the (canonical) LIST.
arches_has() {
	case " $1 " in *" $2 "*) return 0 ;; esac
	return 1
}

# arches_name LIST HARDENING: the pick's name, a plain path component:
# "all" for every architecture, else the architectures joined by '-' (no
# name holds a '-'), with "-nohardening" when HARDENING=0.
arches_name() {
	if [ "$1" = "$KIT_ARCHES" ]; then _an=all
	else _an=$(printf '%s' "$1" | tr ' ' '-'); fi
	[ "$2" != 0 ] || _an=$_an-nohardening
	printf '%s\n' "$_an"
}

# hardening_check VALUE: 1 (default: H is in) or 0 (H left out); status 1
# and ARCHES_WHY otherwise.
hardening_check() {
	case $1 in 0 | 1) return 0 ;; esac
	ARCHES_WHY="HARDENING='$1' must be 1 (carry H, 04a1e62c2cec, the default) or 0 (leave it out)"
	return 1
}
