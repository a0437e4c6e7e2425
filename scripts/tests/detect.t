#!/bin/sh
# detect.sh (TREE=): the base version comes from the Makefile and is
# cross-checked against the code.
. ci/tap.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mktree() { # mktree DIR SUBLEVEL EXTRAVERSION FILE...
	d=$1 s=$2 e=$3; shift 3; mkdir -p "$d"
	printf 'VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = %s\nEXTRAVERSION = %s\nNAME = x\n' "$s" "$e" >"$d/Makefile"
	for f; do mkdir -p "$d/$(dirname "$f")"; : >"$d/$f"; done
}
mktree "$tmp/v32" 32 "" kernel/perf_event.c
t_check "a plain 2.6.32 tree is v2.6.32" sh -c "[ \"\$(sh scripts/detect.sh '$tmp/v32')\" = v2.6.32 ]"
mktree "$tmp/distro" 32 "-5.vendor" kernel/perf_event.c
t_check "a vendor EXTRAVERSION still maps to v2.6.32" sh -c "[ \"\$(sh scripts/detect.sh '$tmp/distro')\" = v2.6.32 ]"
mktree "$tmp/v26" 26 "" include/asm-x86/thread_info_64.h
t_check "a 2.6.26 tree is v2.6.26" sh -c "[ \"\$(sh scripts/detect.sh '$tmp/v26')\" = v2.6.26 ]"
mktree "$tmp/v30" 30 "" fs/fscache/main.c kernel/cred.c
t_check "a 2.6.30 tree is v2.6.30" sh -c "[ \"\$(sh scripts/detect.sh '$tmp/v30')\" = v2.6.30 ]"
mktree "$tmp/liar" 32 "" kernel/perf_counter.c
err=$(sh scripts/detect.sh "$tmp/liar" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "Makefile says 2.6.32 but its code looks like 2.6.31" &&
	t_ok "a Makefile that disagrees with the code is named" || t_fail "a Makefile that disagrees with the code is named" "rc=$rc $err"
mktree "$tmp/old" 18 ""
err=$(sh scripts/detect.sh "$tmp/old" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "Linux 2.6.18; no branch supports it" &&
	t_ok "an unsupported release is refused in one line" || t_fail "an unsupported release is refused in one line" "rc=$rc $err"
mkdir "$tmp/empty"
err=$(sh scripts/detect.sh "$tmp/empty" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] && echo "$err" | grep -q "no kernel Makefile" &&
	t_ok "a folder that is no kernel tree is refused in one line" || t_fail "a folder that is no kernel tree is refused in one line" "rc=$rc $err"
t_done
