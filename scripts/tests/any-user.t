#!/bin/sh
# Any user: the build lock is the user's own file (XDG_RUNTIME_DIR, else the
# kit cache), opened without truncation and never through a symbolic link,
# and a lock that cannot be opened is one line naming it; a KERNEL_GIT
# another user owns is named as git's safe.directory refusal; what the kit
# writes takes the umask's modes.  A normal user made for the test builds
# beside a lock root made first (SKIP with the reason when no user can be
# made).
. ci/tap.sh
. scripts/tests/fakekernel.sh
tmp=$(mktemp -d)
user=
cleanup() {
	[ -z "$user" ] || userdel "$user" 2>/dev/null || :
	chmod -R u+w "$tmp" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
# other users must reach the kit copy and the tree (mktemp -d is 0700)
chmod 755 "$tmp"
kit=$tmp/kit
fake_kit "$kit"
fake_conf "$kit" fake BR_SOURCE=git "BR_COMMIT=$(printf '%040d' 1)"
fake_tree "$tmp/tree"
fake_env "$kit"
# one_line_err RC WANT-RC PATTERN: exit WANT-RC and one stderr line ($err)
# matching PATTERN
one_line_err() {
	[ "$1" -eq "$2" ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && printf '%s' "$err" | grep -q -- "$3"
}
# lib_says VAR [VAR=value...]: what lib.sh makes of VAR in that environment
lib_says() {
	_v=$1; shift
	env -u KIT_LOCK -u XDG_RUNTIME_DIR "$@" sh -c '. "$KIT_ROOT/scripts/lib.sh"; eval "printf %s \"\$$1\""' sh "$_v"
}

# --- where the lock is ------------------------------------------------------
mkdir -m 700 "$tmp/run"
got=$(lib_says KIT_LOCK XDG_RUNTIME_DIR="$tmp/run")
[ "$got" = "$tmp/run/stable-backport-kit.build.lock" ] &&
	t_ok "the build lock is in \$XDG_RUNTIME_DIR when there is one" ||
	t_fail "the build lock is in \$XDG_RUNTIME_DIR when there is one" "$got"
got=$(lib_says KIT_LOCK)
[ "$got" = "$kit/cache/build.lock" ] &&
	t_ok "without XDG_RUNTIME_DIR it is in the kit cache (KIT_CACHE/build.lock), not /tmp" ||
	t_fail "without XDG_RUNTIME_DIR it is in the kit cache (KIT_CACHE/build.lock), not /tmp" "$got"
got=$(lib_says KIT_LOCK XDG_RUNTIME_DIR="$tmp/nonexistent")
[ "$got" = "$kit/cache/build.lock" ] &&
	t_ok "an XDG_RUNTIME_DIR that does not exist is passed over for the cache" ||
	t_fail "an XDG_RUNTIME_DIR that does not exist is passed over for the cache" "$got"

# A build with no KIT_LOCK: the lock appears in the runtime folder.  (A
# build the build cache serves takes no lock: KIT_BUILD_CACHE=0 below.)
if env -u KIT_LOCK XDG_RUNTIME_DIR="$tmp/run" TREE="$tmp/tree" NAME=t1 \
	sh "$kit/scripts/build.sh" unpatched >"$tmp/log" 2>&1 && [ -f "$tmp/run/stable-backport-kit.build.lock" ]; then
	t_ok "a build takes its lock in \$XDG_RUNTIME_DIR"
else t_fail "a build takes its lock in \$XDG_RUNTIME_DIR" "$(tail -3 "$tmp/log")"; fi

# --- how it is opened ---------------------------------------------------------
# >> and not >: a file that happens to be there keeps what it holds.
echo 'not the kit'"'"'s' >"$tmp/held.lock"
if KIT_BUILD_CACHE=0 KIT_LOCK=$tmp/held.lock TREE="$tmp/tree" NAME=t2 sh "$kit/scripts/build.sh" unpatched >"$tmp/log" 2>&1 &&
	[ "$(cat "$tmp/held.lock")" = "not the kit's" ]; then
	t_ok "the lock is opened without truncation: a file already there keeps its content"
else t_fail "the lock is opened without truncation" "$(cat "$tmp/held.lock")" "$(tail -3 "$tmp/log")"; fi

echo precious >"$tmp/target"
ln -s "$tmp/target" "$tmp/link.lock"
rc=$(KIT_BUILD_CACHE=0 KIT_LOCK=$tmp/link.lock TREE="$tmp/tree" NAME=t3 sh "$kit/scripts/build.sh" unpatched 2>"$tmp/err" >/dev/null; echo $?)
err=$(grep -v '^\[' "$tmp/err")
if one_line_err "$rc" 2 "build lock $tmp/link.lock is a symbolic link" && [ "$(cat "$tmp/target")" = precious ] &&
	[ ! -e "$OUT/t3/unpatched/bzImage" ]; then
	t_ok "a lock that is a symbolic link: exit 2, one line naming it, its target untouched, nothing built"
else t_fail "a lock that is a symbolic link: exit 2, one line naming it" "rc=$rc" "$err"; fi

: >"$tmp/a-file"
rc=$(KIT_BUILD_CACHE=0 KIT_LOCK=$tmp/a-file/build.lock TREE="$tmp/tree" NAME=t4 sh "$kit/scripts/build.sh" unpatched 2>"$tmp/err" >/dev/null; echo $?)
err=$(grep -v '^\[' "$tmp/err")
one_line_err "$rc" 2 "cannot open the build lock $tmp/a-file/build.lock for writing.*set KIT_LOCK=" &&
	t_ok "a lock that cannot be opened: exit 2, one line naming the path and the fix (no raw shell error)" ||
	t_fail "a lock that cannot be opened: exit 2, one line naming the path and the fix" "rc=$rc" "$(cat "$tmp/err")"

# --- file modes -----------------------------------------------------------------
rm -rf "$OUT"
(umask 002 && TREE="$tmp/tree" NAME=m1 sh "$kit/scripts/build.sh" unpatched >/dev/null 2>&1)
m=$(stat -c %a "$OUT/m1/result.json" 2>&1)
[ "$m" = 664 ] && t_ok "result.json under umask 002 is 664 (was 600 whatever the umask)" ||
	t_fail "result.json under umask 002 is 664" "$m"
m=$(umask 027 && sh -c '. "$KIT_ROOT/scripts/lib.sh"; echo x | atomic_write "$1"; printf "{}\n" >"$1.r"; atomic_install "$1.r" "$1.i"
	result_update "$1.j" ".x = 1"; stat -c %a "$1" "$1.i" "$1.j"' sh "$tmp/mode" | tr '\n' ' ')
[ "$m" = "640 640 640 " ] && t_ok "atomic_write, atomic_install, result_update under umask 027: 640 each" ||
	t_fail "atomic_write, atomic_install, result_update under umask 027: 640 each" "$m"

# --- a repository another user owns -------------------------------------------
git init -q "$tmp/repo"
(cd "$tmp/repo" && git config user.email t@t && git config user.name t &&
	echo x >f && git add f && git commit -qm one)
c=$(git -C "$tmp/repo" rev-parse HEAD)
fake_conf "$kit" mine BR_SOURCE=git "BR_COMMIT=$c"
mkdir -p "$tmp/home"
# git's ownership check: the repository belongs to a uid that is not ours
# (no such user needs to exist; as root, SUDO_UID would excuse it)
if [ "$(id -u)" -ne 0 ] || ! chown -R 54321 "$tmp/repo" 2>/dev/null; then
	t_skip "a repository another user owns: names safe.directory" "cannot chown a repository to another uid (not root)"
elif git config --system --get-all safe.directory >/dev/null 2>&1; then
	t_skip "a repository another user owns: names safe.directory" "this machine's /etc/gitconfig sets safe.directory"
else
	rc=$(env -u SUDO_UID HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" KERNEL_GIT="$tmp/repo" \
		sh "$kit/scripts/fetch.sh" mine 2>"$tmp/err" >/dev/null; echo $?)
	err=$(cat "$tmp/err")
	one_line_err "$rc" 2 "KERNEL_GIT=$tmp/repo belongs to another user.*safe.directory.*run: git config --global --add safe.directory $tmp/repo\$" &&
		t_ok "a repository another user owns: exit 2, one line with the exact safe.directory command" ||
		t_fail "a repository another user owns: exit 2, one line with the exact safe.directory command" "rc=$rc" "$err"
	git config --file "$tmp/home/.gitconfig" --add safe.directory "$tmp/repo"
	rc=$(env -u SUDO_UID HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" KERNEL_GIT="$tmp/repo" \
		sh "$kit/scripts/fetch.sh" mine 2>"$tmp/err" >/dev/null; echo $?)
	[ "$rc" -eq 0 ] && t_ok "once that command has run, the same fetch works" ||
		t_fail "once that command has run, the same fetch works" "rc=$rc" "$(cat "$tmp/err")"
	chown -R "$(id -u)" "$tmp/repo"
fi

# --- a normal user, after root -----------------------------------------------------
# Root ran first: its lock file is root's, 0644.  A normal user's build takes
# its own lock, and a KIT_LOCK it cannot open is one line.
why=
if [ "$(id -u)" -ne 0 ]; then why="not root: cannot make a user"
elif ! command -v useradd >/dev/null 2>&1 || ! command -v setpriv >/dev/null 2>&1; then why="no useradd or setpriv on this machine"
else
	user=kitu$$
	useradd -M -N -d "$tmp/uhome" -s /bin/sh "$user" 2>"$tmp/err" || { why="useradd failed: $(head -1 "$tmp/err")"; user=; }
fi
if [ -n "$why" ]; then
	t_skip "a normal user builds after root made its lock" "$why"
	t_skip "a normal user's fetch --copy: a writable copy without the export's marker" "$why"
	t_skip "a normal user given root's lock: exit 2, one line" "$why"
else
	mkdir -p "$tmp/uhome"; chown "$user" "$tmp/uhome"
	: >"$tmp/root.lock"; chmod 644 "$tmp/root.lock"
	as_user() {
		setpriv --reuid="$user" --regid="$(id -g "$user")" --clear-groups \
			env -u KIT_LOCK -u XDG_RUNTIME_DIR HOME="$tmp/uhome" KIT_CACHE="$tmp/uhome/cache" OUT="$tmp/uhome/out" "$@"
	}
	if as_user BRANCH=fake TREE="$tmp/tree" NAME=u1 sh "$kit/scripts/build.sh" unpatched >"$tmp/log" 2>&1 &&
		[ -f "$tmp/uhome/out/u1/unpatched/bzImage" ] && [ -O "$tmp/root.lock" ] &&
		[ "$(stat -c %U "$tmp/uhome/cache/build.lock" 2>&1)" = "$user" ]; then
		t_ok "a normal user builds after root made its lock (its own lock, in its cache)"
	else t_fail "a normal user builds after root made its lock" "$(tail -3 "$tmp/log")"; fi
	# fetch --copy of a read-only export as that user: the copy is made
	# writable before its marker is removed (only root could do the reverse)
	printf '[safe]\n\tdirectory = %s\n' "$tmp/repo" >"$tmp/uhome/.gitconfig"
	if as_user KERNEL_GIT="$tmp/repo" sh "$kit/scripts/fetch.sh" --copy mine "$tmp/uhome/copy" >/dev/null 2>"$tmp/err" &&
		[ -w "$tmp/uhome/copy" ] && [ ! -e "$tmp/uhome/copy/.kit-verified" ] && [ -f "$tmp/uhome/copy/f" ]; then
		t_ok "a normal user's fetch --copy: a writable copy without the export's marker"
	else t_fail "a normal user's fetch --copy: a writable copy without the export's marker" "$(cat "$tmp/err")"; fi
	rc=$(as_user KIT_BUILD_CACHE=0 KIT_LOCK="$tmp/root.lock" BRANCH=fake TREE="$tmp/tree" NAME=u2 sh "$kit/scripts/build.sh" unpatched 2>"$tmp/err" >/dev/null; echo $?)
	err=$(grep -v '^\[' "$tmp/err")
	one_line_err "$rc" 2 "cannot open the build lock $tmp/root.lock for writing" &&
		t_ok "a normal user given root's lock: exit 2, one line naming it and the fix" ||
		t_fail "a normal user given root's lock: exit 2, one line naming it and the fix" "rc=$rc" "$(cat "$tmp/err")"
fi
t_done
