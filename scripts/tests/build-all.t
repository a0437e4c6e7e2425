#!/bin/sh
# build-all: an unreachable source is SKIP with its reason, not an error.
. ci/tap.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
out=$(BRANCHES="v2.6.32 v2.6.26" OUT=$tmp/out KIT_CACHE=$tmp/cache KIT_CONFIG=/nonexistent \
	KERNEL_GIT=$tmp/no-such-repo sh scripts/build-all.sh 2>/dev/null); rc=$?
[ $rc -eq 0 ] && t_ok "unreachable sources do not fail build-all" || t_fail "unreachable sources do not fail build-all" "rc=$rc" "$out"
echo "$out" | grep -q '^v2.6.32 *SKIP .*KERNEL_GIT=.*no-such-repo is not a folder' &&
	t_ok "v2.6.32 is SKIP with the reason in the table" || t_fail "v2.6.32 is SKIP with the reason in the table" "$out"
echo "$out" | grep -q '^v2.6.26 *SKIP' && t_ok "v2.6.26 is SKIP too" || t_fail "v2.6.26 is SKIP too" "$out"
out=$(BRANCHES="v2.6.32" OUT=$tmp/out KIT_CACHE=$tmp/cache KIT_CONFIG=/nonexistent \
	KERNEL_GIT=http://127.0.0.1:9/linux.git KIT_FETCH_TIMEOUT=10 sh scripts/build-all.sh 2>/dev/null); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '^v2.6.32 *SKIP .*cannot reach http://127.0.0.1:9' &&
	t_ok "an unreachable URL is SKIP with git's reason" || t_fail "an unreachable URL is SKIP with git's reason" "rc=$rc" "$out"
t_done
