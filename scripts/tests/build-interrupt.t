#!/bin/sh
# A build stopped half-way (build.sh): Ctrl-C (SIGINT to the run's process
# group, as a terminal sends it) ends it, its make in the background
# included; what a run killed half-way leaves in OUT/<name>/ (its work tree
# .<kind>.tmp.<pid>, a whole kernel tree for a real one) is removed by the
# next run once that pid is gone, even one the build cache serves or finds
# up to date; a live run's is never touched.  The fake kernel of
# fakekernel.sh builds in a second (FAKE_BZIMAGE_SLEEP= makes it slow).
. ci/tap.sh
. scripts/tests/fakekernel.sh
tmp=$(mktemp -d)
live=
cleanup() {
	[ -z "$live" ] || kill "$live" 2>/dev/null
	chmod -R u+w "$tmp"; rm -rf "$tmp"
}
trap cleanup EXIT
fake_git_branch "$tmp"
build() { # build [VAR=value...]: build.sh unpatched fake, stderr in $tmp/err
	env "$@" sh "$kit/scripts/build.sh" unpatched fake >/dev/null 2>"$tmp/err"
}
n=$OUT/fake

build && grep -q "build ok" "$tmp/err" && [ -z "$(ls -A "$n" | grep '\.tmp')" ] &&
	t_ok "a build leaves no work tree beside its kernel" || t_fail "first build" "$(cat "$tmp/err")" "$(ls -A "$n")"

# leftovers: a dead run's work tree and cache copy, the fixed name earlier
# builds used, and the work tree of a run that is still going (a sleep)
sleep 60 & live=$!
for d in .unpatched.tmp.999999999 .patched.tmp.999999999 .unpatched.cache.999999999 .unpatched.tmp ".unpatched.tmp.$live"; do
	mkdir -p "$n/$d/src/fs" && echo 'int x;' >"$n/$d/src/fs/exec.c" && chmod -R a-w "$n/$d"
done
build && grep -q "kernel is up to date" "$tmp/err" &&
	[ "$(ls -A "$n" | grep '\.tmp\|\.cache')" = ".unpatched.tmp.$live" ] && [ -r "$n/.unpatched.tmp.$live/src/fs/exec.c" ] &&
	t_ok "a run found up to date removes a dead run's work tree and cache copy (read-only) and the old fixed name; a live run's is kept whole" ||
	t_fail "leftovers swept by an up-to-date run" "$(cat "$tmp/err")" "$(ls -A "$n")"
mkdir -p "$n/.unpatched.tmp.999999999/src" "$n/.patched.cache.999999999"
chmod -R u+w "$n/unpatched" && rm -rf "$n/unpatched"
build && grep -q "kernel from the build cache" "$tmp/err" &&
	[ "$(ls -A "$n" | grep '\.tmp\|\.cache')" = ".unpatched.tmp.$live" ] &&
	t_ok "... and so does a run served from the build cache" ||
	t_fail "leftovers swept by a cache hit" "$(cat "$tmp/err")" "$(ls -A "$n")"
kill "$live"; wait "$live" 2>/dev/null; live=

# Ctrl-C during make bzImage: SIGINT to the run's process group (as a
# terminal sends it); make runs in the background, where SIGINT is ignored
# (a job started with & has SIGINT ignored, which a shell cannot undo:
# perl gives the run the default disposition a terminal's would have)
( cd "$tmp" && exec setsid perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die' env OUT="$tmp/int" \
	KIT_BUILD_CACHE=0 FAKE_BZIMAGE_SLEEP=60 sh "$kit/scripts/build.sh" unpatched fake >"$tmp/int.out" 2>&1 ) &
run=$!	# (setsid did not fork: the run's session and group are this pid)
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	ps -o args= -s "$run" 2>/dev/null | grep -q '^sleep 60' && break; sleep 0.5
done
if ! ps -o args= -s "$run" 2>/dev/null | grep -q '^sleep 60'; then
	t_fail "Ctrl-C ends the build" "make bzImage never started: $(cat "$tmp/int.out")"
else
	kill -INT "-$run"
	sleep 2
	if left=$(ps -o pid=,args= -s "$run" 2>/dev/null) && [ -n "$left" ]; then
		t_fail "Ctrl-C ends the build" "left running: $left" "$(cat "$tmp/int.out")"; kill -KILL "-$run" 2>/dev/null
	else t_ok "Ctrl-C (SIGINT to the process group) during make bzImage: no make, no process of the run left two seconds later"; fi
fi
wait
# its work tree goes with the next run
build OUT="$tmp/int" KIT_BUILD_CACHE=0 && grep -q "build ok" "$tmp/err" && [ -z "$(ls -A "$tmp/int/fake" | grep '\.tmp')" ] &&
	t_ok "the interrupted build's work tree is removed by the next run" ||
	t_fail "interrupted work tree swept" "$(cat "$tmp/err")" "$(ls -A "$tmp/int/fake")"
t_done
