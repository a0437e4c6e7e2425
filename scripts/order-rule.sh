#!/bin/sh
# order-rule.sh ID...: the upstream commits present in a tree or a series,
# in order.  Exit 1, naming what is present and what is missing, when they
# break the rule: A needs D after it; D needs, per architecture shipped
# (ARCHES=, default all: scripts/arches.sh), C on x86_64, B on sparc64 and
# E on powerpc.  Exit 2 for an ARCHES value naming no known architecture.
# The rule is CVE-2010-0307's: I (c41d68a513c7, CVE-2010-3081) needs
# nothing of A-H and nothing of A-H needs it, so an id the rule does not
# name passes wherever it stands.
set -eu
. "$(dirname "$0")/arches.sh"
arches_canon "${ARCHES:-}" || { echo "order-rule: $ARCHES_WHY" >&2; exit 2; }
A=221af7f87b97431e3ee21ce4b0e77d5411cf1549
B=94673e968cbcce07fa78dac4b0ae05d24b5816e1
C=05d43ed8a89c159ff641d472f970e3f1baa66318
D=7ab02af428c2d312c0cf8fb0b01cc1eb21131a3d
E=94f28da8409c6059135e89ac64a0839993124155
present=" $* "
in_set() { case $present in *" $1 "*) return 0 ;; esac; return 1; }
pos() { i=0; for x in $present; do i=$((i + 1)); [ "$x" = "$1" ] && { echo $i; return; }; done; echo 0; }
err=
if in_set $A && ! in_set $D; then err="A (221af7f87b97, split flush_old_exec) is present without D (7ab02af428c2, fix the split): A alone loses PF_RANDOMIZE"; fi
if in_set $A && in_set $D && [ "$(pos $D)" -lt "$(pos $A)" ]; then err="D (7ab02af428c2) comes before A (221af7f87b97); D fixes A and must follow it"; fi
if in_set $D; then
	for x in B:$B:sparc64 C:$C:x86_64 E:$E:powerpc; do
		l=${x%%:*} arch=${x##*:} id=${x#*:}; id=${id%:*}
		arches_has "$ARCHES_LIST" "$arch" || continue
		in_set "$id" || err="${err:+$err; }D (7ab02af428c2) is present without $l ($id), which $arch needs; D runs flush_thread() before SET_PERSONALITY, which needs the TIF_ABI_PENDING removal of every architecture shipped (ARCHES: $ARCHES_LIST)"
	done
fi
if [ -n "$err" ]; then echo "order-rule: $err" >&2; exit 1; fi
