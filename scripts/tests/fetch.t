#!/bin/sh
# fetch.sh: exports the pinned commit, verifies it, rejects what is not it,
# and says how to fix an unreachable or wrong source in one line.  Exit 3
# only when the source cannot be reached; a wrong source is exit 2.
# (The cache's own faults: scripts/tests/cache.t.)
. ci/tap.sh
kit=$(pwd)
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
# A tiny "kernel" history: two commits.
git init -q "$tmp/repo"
(cd "$tmp/repo" && git config user.email t@t && git config user.name t &&
	mkdir -p fs && echo 'int exec;' >fs/exec.c && printf '#!/bin/sh\n' >run.sh && chmod +x run.sh &&
	ln -s fs/exec.c link && git add -A && git commit -qm one &&
	echo 'int exec2;' >fs/exec.c && git commit -qam two)
c1=$(git -C "$tmp/repo" rev-parse HEAD~1) c2=$(git -C "$tmp/repo" rev-parse HEAD)
mkdir -p "$tmp/kit/branches" "$tmp/kit/scripts"
cp scripts/*.sh "$tmp/kit/scripts/"
printf 'BR_NAME=fake\nBR_VERSION=2.6.99\nBR_SOURCE=git\nBR_COMMIT=%s\n' "$c1" >"$tmp/kit/branches/fake.conf"
printf 'BR_NAME=short\nBR_VERSION=2.6.99\nBR_SOURCE=git\nBR_COMMIT=abc123\n' >"$tmp/kit/branches/short.conf"
run() { KIT_ROOT=$tmp/kit KIT_CONFIG=/nonexistent KIT_CACHE=$tmp/cache KERNEL_GIT=$1; shift
	export KIT_ROOT KIT_CONFIG KIT_CACHE KERNEL_GIT; sh "$tmp/kit/scripts/fetch.sh" "$@"; }

out=$(run "$tmp/repo" fake 2>"$tmp/err")
rc=$?
if [ $rc -eq 0 ] && [ "$out" = "$tmp/cache/src/$c1" ] && [ "$(cat "$out/fs/exec.c")" = 'int exec;' ]; then
	t_ok "exports the pinned commit into the cache"
else t_fail "exports the pinned commit into the cache" "rc=$rc out=$out" "$(cat "$tmp/err")"; fi
t_check "the export is read-only (no write bit anywhere)" sh -c "[ -z \"\$(find '$out' ! -type l -perm /222)\" ]"
t_check "the export keeps modes and symlinks" sh -c "[ -x '$out/run.sh' ] && [ -L '$out/link' ]"
t_check "the source repository is untouched" sh -c "[ -z \"\$(git -C '$tmp/repo' status --porcelain)\" ]"

# The pinned-id check: a tree of another commit is rejected.
mkdir "$tmp/other" && git -C "$tmp/repo" archive "$c2" | tar -x -C "$tmp/other"
if run "$tmp/repo" --verify "$tmp/other" fake 2>"$tmp/err"; then
	t_fail "a tree of a different commit is rejected" "verify accepted $c2 as $c1"
else
	grep -q "is not fake's pinned commit $c1" "$tmp/err" && t_ok "a tree of a different commit is rejected" ||
		t_fail "a tree of a different commit is rejected" "$(cat "$tmp/err")"
fi
mkdir "$tmp/same" && git -C "$tmp/repo" archive "$c1" | tar -x -C "$tmp/same"
t_check "the same commit's tree is accepted" run "$tmp/repo" --verify "$tmp/same" fake
chmod u+x "$tmp/same/fs/exec.c"
if run "$tmp/repo" --verify "$tmp/same" fake 2>/dev/null; then t_fail "a changed file mode is rejected"
else t_ok "a changed file mode is rejected"; fi

# One-line errors naming the fix (an empty cache each time: a cached
# export is used without asking the source).
rm -rf "$tmp/cache.full"; mv "$tmp/cache" "$tmp/cache.full"
err=$(run "$tmp/repo" nosuch 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] && echo "$err" | grep -q "unknown branch 'nosuch'.*known branches" &&
	t_ok "unknown branch: exit 2, one line naming the known branches" ||
	t_fail "unknown branch: exit 2, one line naming the known branches" "rc=$rc: $err"
err=$(run "$tmp/repo" short 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "BR_COMMIT must be a full 40-hex" &&
	t_ok "a short commit id in a definition is refused" || t_fail "a short commit id in a definition is refused" "rc=$rc: $err"
err=$(run "$tmp/nowhere" fake 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] && echo "$err" | grep -q "KERNEL_GIT=$tmp/nowhere does not exist; fix the path" &&
	t_ok "a local KERNEL_GIT that does not exist: exit 2 (a typo, not unreachable), one line naming the fix" ||
	t_fail "a local KERNEL_GIT that does not exist: exit 2, one line naming the fix" "rc=$rc: $err"
err=$(run "$tmp/nowhere" --probe fake 2>&1); rc=$?
[ $rc -eq 2 ] && t_ok "--probe says the same of it (exit 2)" || t_fail "--probe of a missing path" "rc=$rc: $err"
mkdir "$tmp/plain"
err=$(run "$tmp/plain" fake 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "is not a git repository" &&
	t_ok "a KERNEL_GIT folder that is no repository: exit 2" || t_fail "a folder that is no repository: exit 2" "rc=$rc: $err"

# KERNEL_GIT is data: an option-looking value never reaches git as one.
for bad in "--upload-pack=touch $tmp/pwned" "-c core.sshCommand=touch $tmp/pwned"; do
	err=$(run "$bad" fake 2>&1); rc=$?
	[ $rc -eq 2 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] && echo "$err" | grep -q "begins with '-'" && [ ! -e "$tmp/pwned" ] &&
		t_ok "KERNEL_GIT='${bad%% *} ...' is refused (exit 2) and runs nothing" ||
		t_fail "KERNEL_GIT='$bad' is refused" "rc=$rc: $err" "pwned: $(ls "$tmp/pwned" 2>&1)"
done
err=$(run "--upload-pack=touch $tmp/pwned" --probe fake 2>&1); rc=$?
[ $rc -eq 2 ] && [ ! -e "$tmp/pwned" ] && t_ok "... by --probe too" || t_fail "--probe refuses an option" "rc=$rc: $err"
git init -q "$tmp/empty"
err=$(run "$tmp/empty" fake 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "has no commit $c1" &&
	t_ok "a repository without the pinned commit: exit 2 naming the commit" ||
	t_fail "a repository without the pinned commit: exit 2 naming the commit" "rc=$rc: $err"
err=$(KIT_PROBE_TIMEOUT=10 run "http://127.0.0.1:9/linux.git" fake 2>&1); rc=$?
[ $rc -eq 3 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] && echo "$err" | grep -q "cannot reach http://127.0.0.1:9/linux.git.*set KERNEL_GIT" &&
	t_ok "unreachable URL: exit 3, one line naming KERNEL_GIT as the fix" || t_fail "unreachable URL: exit 3, one line naming KERNEL_GIT as the fix" "rc=$rc: $err"
err=$(KIT_PROBE_TIMEOUT=10 run "http://127.0.0.1:9/linux.git" --probe fake 2>&1); rc=$?
[ $rc -eq 3 ] && t_ok "--probe of an unreachable URL: exit 3" || t_fail "--probe of an unreachable URL: exit 3" "rc=$rc: $err"

# A git URL that answers but lacks the commit is a wrong source (exit 2).
err=$(run "file://$tmp/empty" fake 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "has no commit $c1" &&
	t_ok "a file:// URL is a local path: exit 2 when it lacks the commit" || t_fail "file:// lacking the commit" "rc=$rc: $err"

# An export that does not match the commit (a git that hands out other
# content; a shim adds a file to git archive's tar): exit 1, nothing
# published, the one line naming the file and the fix.
mkdir -p "$tmp/shim" "$tmp/extra"
echo evil >"$tmp/extra/evil.c"
printf '#!/bin/sh
for a; do [ "$a" = archive ] && { %s "$@" >"%s/a.tar" && tar -rf "%s/a.tar" -C "%s/extra" evil.c && cat "%s/a.tar"; exit; }; done
exec %s "$@"
' \
	"$(command -v git)" "$tmp" "$tmp" "$tmp" "$tmp" "$(command -v git)" >"$tmp/shim/git"
chmod +x "$tmp/shim/git"
rm -rf "$tmp/cache"
err=$(PATH=$tmp/shim:$PATH run "$tmp/repo" fake 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$err" | grep -q "error: the export of $c1 does not match the commit's tree (1 added: evil.c); check .* with 'git fsck'" &&
	[ ! -e "$tmp/cache/src/$c1" ] && [ -z "$(ls -d "$tmp/cache/src/".tmp.* 2>/dev/null)" ] &&
	t_ok "an export that does not match the commit: exit 1 naming the file, nothing published or left" ||
	t_fail "export mismatch" "rc=$rc" "$err" "$(ls -A "$tmp/cache/src")"

# A network source (git daemon on this machine): exported through the
# cache's mirror; one that answers but lacks the commit is exit 2.
port=$((20000 + $$ % 20000))
if git daemon --export-all --base-path="$tmp" --listen=127.0.0.1 --port=$port --detach \
	--pid-file="$tmp/daemon.pid" --reuseaddr 2>/dev/null && sleep 0.5 &&
	git ls-remote "git://127.0.0.1:$port/repo" >/dev/null 2>&1; then
	rm -rf "$tmp/cache"
	out=$(run "git://127.0.0.1:$port/repo" fake 2>"$tmp/err"); rc=$?
	[ $rc -eq 0 ] && [ "$(cat "$out/fs/exec.c")" = 'int exec;' ] && git --git-dir="$tmp/cache/git/mirror.git" cat-file -e "$c1" &&
		t_ok "a git:// source: fetched by commit id into the mirror, exported" || t_fail "git:// source" "rc=$rc" "$(cat "$tmp/err")"
	rm -rf "$tmp/cache"
	err=$(run "git://127.0.0.1:$port/empty" fake 2>&1); rc=$?
	[ $rc -eq 2 ] && echo "$err" | grep -q "answers but did not give commit $c1" &&
		t_ok "a git:// source that answers but lacks the commit: exit 2, not unreachable" || t_fail "git:// lacking the commit" "rc=$rc: $err"
	run "git://127.0.0.1:$port/empty" --probe fake 2>/dev/null; rc=$?
	[ $rc -eq 0 ] && t_ok "--probe of a git:// source that answers: exit 0 (what it holds is known by fetching)" || t_fail "--probe git://" "rc=$rc"
	kill "$(cat "$tmp/daemon.pid")"
else
	for n in "a git:// source" "a git:// source lacking the commit" "--probe of a git:// source"; do
		t_skip "$n" "git daemon did not start on 127.0.0.1:$port"
	done
fi

# --probe answers without exporting anything.
rm -rf "$tmp/cache"
run "$tmp/repo" --probe fake 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && [ -z "$(ls -A "$tmp/cache/src" 2>/dev/null | grep -v '\.lock$')" ] &&
	t_ok "--probe of a good source: exit 0, nothing exported" || t_fail "--probe of a good source" "rc=$rc" "$(cat "$tmp/err")"
err=$(run "$tmp/empty" --probe fake 2>&1); rc=$?
[ $rc -eq 2 ] && t_ok "--probe of a repository without the commit: exit 2" || t_fail "--probe without the commit" "rc=$rc: $err"
t_done
