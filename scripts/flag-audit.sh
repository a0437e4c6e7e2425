#!/bin/sh
# flag-audit.sh TREE FLAG...: every kernel object built in TREE was compiled
# with each FLAG in effect (the last of -fX / -fno-X on its command line,
# the last -std=), read from kbuild's .cmd files.  Prints the effective
# flags of fs/exec.o on success; on failure one line per object and flag.
#
# Objects that set their own flags on purpose (the real-mode boot code, the
# decompressor, the vdso) are not kernel C and are left out, and so are
# assembler sources (-D__ASSEMBLY__), which no C flag reaches.
set -eu
tree=${1:?usage: flag-audit.sh TREE FLAG...}; shift
[ $# -gt 0 ] || { echo "flag-audit: no required flags given" >&2; exit 2; }
[ -d "$tree" ] || { echo "flag-audit: $tree is not a folder; give the built kernel tree" >&2; exit 2; }
cd "$tree"
cmds=$(find fs kernel mm arch/x86/kernel arch/x86/ia32 arch/x86/mm -name '.*.o.cmd' 2>/dev/null |
	grep -v -e '/boot/' -e '/vdso/' | LC_ALL=C sort)
[ -n "$cmds" ] || { echo "flag-audit: no .o.cmd files under $tree; was it built?" >&2; exit 1; }
# shellcheck disable=SC2086
awk -v req="$*" '
function family(t) {
	# -fno-pie, -fPIE, -fpic ... are one switch; so are -fX and -fno-X.
	if (t ~ /^-f(no-)?(pie|PIE|pic|PIC)$/) return "pic";
	if (t ~ /^-std=/) return "std";
	if (t ~ /^-fno-/) return "f:" substr(t, 6);
	if (t ~ /^-f/) return "f:" substr(t, 3);
	return "";
}
function wants(r, t) {
	if (family(r) == "pic") return t ~ /^-fno-(pie|PIE)$/ && 1;
	return r == t;
}
FNR == 1 {
	if ($0 !~ /^cmd_/ || $0 !~ / -c / || $0 ~ /-D__ASSEMBLY__/) { nextfile }
	split(req, R, " ");
	delete last;
	line = $0; sub(/^[^=]*:= /, "", line);
	nt = split(line, T, /[ \t]+/);
	for (i = 1; i <= nt; i++) { f = family(T[i]); if (f != "") last[f] = T[i]; }
	for (j in R) {
		f = family(R[j]); e = (f in last) ? last[f] : "(absent)";
		if (!wants(R[j], e)) {
			obj = FILENAME; sub(/\.cmd$/, "", obj); sub(/\/\./, "/", obj);
			printf "flag-audit: %s: %s is not in effect (last: %s)\n", obj, R[j], e > "/dev/stderr";
			bad++;
		}
	}
	checked++;
	nextfile
}
END {
	if (checked == 0) { print "flag-audit: no compile command found" > "/dev/stderr"; exit 1 }
	if (bad) { printf "flag-audit: %d missing flag(s) in %d objects checked; the build cannot be trusted\n", bad, checked > "/dev/stderr"; exit 1 }
	printf "flag-audit: %d objects checked, all with: %s\n", checked, req > "/dev/stderr";
}' $cmds
sed -n '1s/^[^=]*:= //p' fs/.exec.o.cmd
