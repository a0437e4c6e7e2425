#!/bin/sh
# flag-audit.sh: required flags must be in effect in every kernel C object.
. ci/tap.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
good="gcc -fno-pie -std=gnu89 -Wall -fno-strict-aliasing -fno-delete-null-pointer-checks -O2"
mkobj() { mkdir -p "$tmp/$1/$(dirname "$2")"; printf 'cmd_%s := %s -c -o %s %s\n' "$2" "$3" "$2" "${2%.o}.c" >"$tmp/$1/$(dirname "$2")/.$(basename "$2").cmd"; }
req="-fno-pie -std=gnu89 -fno-strict-aliasing -fno-delete-null-pointer-checks"
mkobj ok fs/exec.o "$good"; mkobj ok kernel/fork.o "$good"
mkobj ok arch/x86/kernel/entry_64.o "gcc -D__ASSEMBLY__ -fno-pie"
mkobj ok arch/x86/boot/main.o "gcc -m16 -fPIE"
t_check "a build with every required flag passes" sh scripts/flag-audit.sh "$tmp/ok" $req
t_check "it prints the effective command of fs/exec.o" sh -c "sh scripts/flag-audit.sh '$tmp/ok' $req 2>/dev/null | grep -q -- '-fno-delete-null-pointer-checks'"
mkobj drop fs/exec.o "$good"; mkobj drop kernel/fork.o "gcc -fno-pie -std=gnu89 -fno-strict-aliasing -O2"
err=$(sh scripts/flag-audit.sh "$tmp/drop" $req 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$err" | grep -q "kernel/fork.o: -fno-delete-null-pointer-checks is not in effect" &&
	t_ok "a dropped -fno-delete-null-pointer-checks fails the audit, naming the object" ||
	t_fail "a dropped -fno-delete-null-pointer-checks fails the audit, naming the object" "rc=$rc $err"
mkobj late fs/exec.o "$good -fPIE"
err=$(sh scripts/flag-audit.sh "$tmp/late" $req 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$err" | grep -q "fs/exec.o: -fno-pie is not in effect (last: -fPIE)" &&
	t_ok "-fno-pie overridden by a later -fPIE fails" || t_fail "-fno-pie overridden by a later -fPIE fails" "rc=$rc $err"
mkobj std fs/exec.o "$good -std=gnu11"
err=$(sh scripts/flag-audit.sh "$tmp/std" $req 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$err" | grep -q "std=gnu89 is not in effect (last: -std=gnu11)" &&
	t_ok "a later -std= overrides gnu89 and fails" || t_fail "a later -std= overrides gnu89 and fails" "rc=$rc $err"
mkdir -p "$tmp/none"
err=$(sh scripts/flag-audit.sh "$tmp/none" $req 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$err" | grep -q "was it built" && t_ok "an unbuilt tree is not a pass" || t_fail "an unbuilt tree is not a pass" "$err"
err=$(sh scripts/flag-audit.sh "$tmp/nowhere" $req 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] && echo "$err" | grep -q "is not a folder" &&
	t_ok "a tree that does not exist: exit 2, one line" || t_fail "a tree that does not exist: exit 2, one line" "rc=$rc $err"
# The real flags file: the audit must fail if a required flag is taken out
# of what the kit passes (for branches whose Makefile does not add it).
# (-fno-strict-aliasing is left out: every 2.6 top Makefile adds it.)
. branches/host/linux-2.6.flags
lacks=
for f in $REQUIRED_CFLAGS; do
	case " $KIT_CC_FLAGS " in *" $f "*) ;; *) [ "$f" = -fno-strict-aliasing ] || lacks="$lacks $f" ;; esac
done
if [ -n "$REQUIRED_CFLAGS" ] && [ -z "$lacks" ]; then
	t_ok "linux-2.6.flags passes every required flag the old Makefiles may lack"
else
	t_fail "linux-2.6.flags passes every required flag the old Makefiles may lack" "missing:${lacks:- REQUIRED_CFLAGS is empty}"
fi
t_done
