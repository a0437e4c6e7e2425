#!/bin/sh
# The kit's config file (~/.config/stable-backport-kit/config, KIT_CONFIG=)
# is read as data: KEY=value, comments, blank lines; nothing in it runs; a
# bad line names the file, the line and the fix (exit 2); the environment
# wins over it for every key; its OUT and JOBS take effect.
. ci/tap.sh
root=$(pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# probe: source lib.sh as every kit script does and print what it decided.
cat >"$tmp/probe.sh" <<'EOF'
. "$KIT_ROOT/scripts/lib.sh"
printf 'KERNEL_GIT=%s\nSTABLE_GIT=%s\nKIT_CACHE=%s\nOUT=%s\nJOBS=%s\nCONFIGURED=%s\n' \
	"$KERNEL_GIT" "$STABLE_GIT" "$KIT_CACHE" "$OUT" "$JOBS" "$KIT_SOURCE_CONFIGURED"
EOF
# probe FILE [VAR=value...]: run the probe with only the settings given;
# sets rc, out (stdout) and err (stderr).
probe() {
	_f=$1; shift
	out=$(cd "$tmp" && env -u OUT -u JOBS -u KERNEL_GIT -u STABLE_GIT -u KIT_CACHE -u KIT_SOURCE_CONFIGURED \
		KIT_ROOT="$root" KIT_CONFIG="$_f" "$@" sh "$tmp/probe.sh" 2>"$tmp/err")
	rc=$?; err=$(cat "$tmp/err")
}
has() { printf '%s\n' "$out" | grep -qxF -- "$1"; }
cfg() { printf '%s\n' "$@" >"$tmp/config"; }
# refused NAME LINE PATTERN: exit 2, one line naming the file and LINE.
refused() {
	if [ $rc -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
		printf '%s' "$err" | grep -qF -- "$tmp/config line $2: " && printf '%s' "$err" | grep -q -- "$3"; then
		t_ok "$1"
	else t_fail "$1" "rc=$rc" "$err"; fi
}

cr=$(printf '\r')
cfg '# the kit' '' '   # indented comment' 'KERNEL_GIT=/srv/git/linux.git' "KIT_CACHE = \"/srv/kit cache\"$cr" \
	"OUT='/srv/kit out'" 'JOBS=3'
probe "$tmp/config"
if [ $rc -eq 0 ] && has 'KERNEL_GIT=/srv/git/linux.git' && has 'KIT_CACHE=/srv/kit cache' &&
	has 'OUT=/srv/kit out' && has 'JOBS=3' && has 'CONFIGURED=1'; then
	t_ok "KEY=value lines, comments, blank lines, quotes, blanks and CRLF are read"
else t_fail "KEY=value lines, comments, blank lines, quotes, blanks and CRLF are read" "rc=$rc" "$out" "$err"; fi

probe "$tmp/config" OUT=/env/out JOBS=7 KERNEL_GIT=/env/git KIT_CACHE=/env/cache
if [ $rc -eq 0 ] && has 'OUT=/env/out' && has 'JOBS=7' && has 'KERNEL_GIT=/env/git' && has 'KIT_CACHE=/env/cache'; then
	t_ok "the environment beats the file for OUT, JOBS, KERNEL_GIT and KIT_CACHE"
else t_fail "the environment beats the file for OUT, JOBS, KERNEL_GIT and KIT_CACHE" "$out" "$err"; fi

# STABLE_GIT: further sources of upstream text, several words kept as
# written (never split into commands), the environment winning
cfg 'STABLE_GIT="/srv/stable.git https://example.org/linux-stable.git"  # more text sources'
probe "$tmp/config"
if [ $rc -eq 0 ] && has 'STABLE_GIT=/srv/stable.git https://example.org/linux-stable.git'; then
	probe "$tmp/config" STABLE_GIT=/env/stable
	has 'STABLE_GIT=/env/stable' && t_ok "STABLE_GIT is read as written from the file; the environment wins" ||
		t_fail "STABLE_GIT: the environment wins" "$out" "$err"
	probe "$tmp/config" STABLE_GIT=
	has 'STABLE_GIT=' && ! has 'STABLE_GIT=/srv/stable.git https://example.org/linux-stable.git' &&
		t_ok "STABLE_GIT set empty in the environment: no further source, whatever the file says" ||
		t_fail "STABLE_GIT= empty wins" "$out" "$err"
else t_fail "STABLE_GIT is read as written from the file" "rc=$rc" "$out" "$err"; fi
cfg 'STABLE_GIT=/a $(id)'
probe "$tmp/config"
refused "STABLE_GIT asking for expansion is refused" 1 "STABLE_GIT='/a \$(id)' asks for expansion"

probe "$tmp/nonexistent"
if [ $rc -eq 0 ] && has "OUT=$root/out" && has "CONFIGURED=0" && has "KERNEL_GIT=https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git"; then
	t_ok "no file: the defaults (./out of the kit, kernel.org, no source configured)"
else t_fail "no file: the defaults (./out of the kit, kernel.org, no source configured)" "$out" "$err"; fi
probe "$tmp/nonexistent" OUT=rel
has "OUT=$tmp/rel" && t_ok "a relative OUT becomes absolute (scripts cd into trees)" || t_fail "a relative OUT becomes absolute" "$out"

# Nothing in the file runs: the files these would create never appear.
cfg 'JOBS=2' "KERNEL_GIT=\$(touch $tmp/ran-dollar)"
probe "$tmp/config"
refused "\$(...) in a value is refused, not run (file and line named)" 2 "asks for expansion"
cfg "OUT=\`touch $tmp/ran-backtick\`"
probe "$tmp/config"
refused "backticks in a value are refused, not run" 1 "asks for expansion"
cfg "\$(touch $tmp/ran-key)=1"
probe "$tmp/config"
refused "\$(...) as a key is refused, not run" 1 "unknown key"
cfg '# fine' "touch $tmp/ran-line"
probe "$tmp/config"
refused "a shell command line is refused, not run" 2 "is not KEY=value; the file is data, not shell"
cfg "KERNEL_GIT=/x; touch $tmp/ran-semicolon"
probe "$tmp/config"
[ $rc -eq 0 ] && has "KERNEL_GIT=/x; touch $tmp/ran-semicolon" &&
	t_ok "a value is taken literally, ';' and all" || t_fail "a value is taken literally, ';' and all" "rc=$rc" "$out" "$err"
t_check "none of them ran (no file they would create exists)" \
	sh -c "! ls '$tmp'/ran-* 2>/dev/null | grep -q ."

cfg 'KERNEL_GIT=/a' '' 'this: not a setting'
probe "$tmp/config"
refused "a garbage line names the file, the line and the fix" 3 "write KEY=value (KEY one of KERNEL_GIT STABLE_GIT KIT_CACHE OUT JOBS)"
cfg 'NAME=x'
probe "$tmp/config"
refused "an unknown key is named" 1 "unknown key 'NAME'"
cfg 'OUT=relative/out'
probe "$tmp/config"
refused "a relative OUT in the file is refused" 1 "is a relative path; write it from /"
cfg 'KIT_CACHE=~/cache'
probe "$tmp/config"
refused "~ is refused, not kept as a folder named ~" 1 "asks for expansion"
cfg 'KERNEL_GIT="/a"# comment'
probe "$tmp/config"
refused "a '#' right after a closing quote (no blank before it) is a stray quote" 1 "stray quote"

# Trailing comments: from the first '#' with a blank just before it,
# outside quotes; a '#' with no blank before it is part of the value.
cfg 'KERNEL_GIT=https://example.org/linux.git#main   # the mirror' "OUT=\"/srv/out #1\" # quoted: its '#' stays" \
	"KIT_CACHE=/srv/cache	# a tab before it, and a quote in it: it's fine" "JOBS=3 # three$cr"
probe "$tmp/config"
if [ $rc -eq 0 ] && has 'KERNEL_GIT=https://example.org/linux.git#main' && has 'OUT=/srv/out #1' &&
	has 'KIT_CACHE=/srv/cache' && has 'JOBS=3'; then
	t_ok "a trailing ' # comment' is dropped; '#' without a blank before it, or inside quotes, is kept"
else t_fail "a trailing ' # comment' is dropped; '#' without a blank before it, or inside quotes, is kept" "rc=$rc" "$out" "$err"; fi

# A UTF-8 byte order mark (Notepad writes one) before the first key.
printf '\357\273\277KERNEL_GIT=/srv/bom.git\nJOBS=2\n' >"$tmp/config"
probe "$tmp/config"
[ $rc -eq 0 ] && has 'KERNEL_GIT=/srv/bom.git' && has 'JOBS=2' &&
	t_ok "a UTF-8 byte order mark at the start is skipped" ||
	t_fail "a UTF-8 byte order mark at the start is skipped" "rc=$rc" "$out" "$err"
printf 'JOBS=2\n\357\273\277KERNEL_GIT=/srv/bom.git\n' >"$tmp/config"
probe "$tmp/config"
refused "a byte order mark anywhere else is not skipped" 2 "unknown key"

# A key set twice: neither line is taken, both are named.
cfg 'KERNEL_GIT=/srv/a.git' '# later:' '' 'KERNEL_GIT=/srv/b.git'
probe "$tmp/config"
refused "a key set twice is refused, naming both lines" 4 "KERNEL_GIT is set twice, on line 1 and line 4; keep one of the two lines"
cfg 'OUT=' 'OUT=/srv/out'
probe "$tmp/config"
refused "an empty setting counts as a setting (OUT= then OUT=/x)" 2 "OUT is set twice, on line 1 and line 2"

# KIT_CONFIG=/dev/null: no configuration, on purpose.
probe /dev/null
[ $rc -eq 0 ] && [ -z "$err" ] && has "OUT=$root/out" && has "CONFIGURED=0" &&
	t_ok "KIT_CONFIG=/dev/null is no configuration (the defaults), not an error" ||
	t_fail "KIT_CONFIG=/dev/null is no configuration (the defaults), not an error" "rc=$rc" "$out" "$err"

cfg '' 'JOBS=0'
probe "$tmp/config"
[ $rc -eq 2 ] && printf '%s' "$err" | grep -q "JOBS='0' (from $tmp/config line 2) is not a positive whole number" &&
	t_ok "JOBS=0 in the file: exit 2 naming JOBS, the file and the line" || t_fail "JOBS=0 in the file: exit 2 naming JOBS, the file and the line" "rc=$rc" "$err"
probe "$tmp/nonexistent" JOBS=many
[ $rc -eq 2 ] && printf '%s' "$err" | grep -q "JOBS='many' (from the environment) is not a positive whole number" &&
	t_ok "JOBS=many in the environment: exit 2 naming JOBS" || t_fail "JOBS=many in the environment: exit 2 naming JOBS" "rc=$rc" "$err"
mkdir "$tmp/dir"
probe "$tmp/dir"
[ $rc -eq 2 ] && printf '%s' "$err" | grep -q "KIT_CONFIG=$tmp/dir is not a readable file" &&
	t_ok "a KIT_CONFIG that is a folder is refused" || t_fail "a KIT_CONFIG that is a folder is refused" "rc=$rc" "$err"

# The default paths carry the kit's name; a machine set up under its old
# name (cve-2010-0307-kit) keeps its config and cache, and a note with the
# command's first progress line says how to move them (never beside a
# one-line error); the new folders win once they exist.
cat >"$tmp/probe-progress.sh" <<'EOF2'
. "$KIT_ROOT/scripts/lib.sh"
[ "${1:-}" != die ] || die 2 "a bad input"
printf 'KERNEL_GIT=%s\nKIT_CACHE=%s\n' "$KERNEL_GIT" "$KIT_CACHE"
progress probe stage "one"
progress probe stage "two"
EOF2
home_probe() {
	out=$(cd "$tmp" && env -u OUT -u JOBS -u KERNEL_GIT -u STABLE_GIT -u KIT_CACHE -u KIT_CONFIG -u KIT_SOURCE_CONFIGURED \
		-u KIT_OLD_PATH_SAID KIT_ROOT="$root" XDG_CONFIG_HOME="$tmp/home/config" XDG_CACHE_HOME="$tmp/home/cache" \
		sh "$tmp/probe-progress.sh" "$@" 2>"$tmp/err")
	rc=$?; err=$(cat "$tmp/err")
}
notes() { printf '%s\n' "$err" | grep -c "^\[kit\] note: using .*/cve-2010-0307-kit (the kit's old name); mv .*/cve-2010-0307-kit .*/stable-backport-kit to use the new one$"; }
mkdir -p "$tmp/home/config" "$tmp/home/cache"
home_probe
[ $rc -eq 0 ] && has "KIT_CACHE=$tmp/home/cache/stable-backport-kit" && [ "$(notes)" = 0 ] &&
	t_ok "no config, no cache: the cache is ~/.cache/stable-backport-kit, no note" ||
	t_fail "no config, no cache: the cache is ~/.cache/stable-backport-kit, no note" "rc=$rc" "$out" "$err"
mkdir -p "$tmp/home/config/cve-2010-0307-kit" "$tmp/home/cache/cve-2010-0307-kit"
echo 'KERNEL_GIT=/srv/old.git' >"$tmp/home/config/cve-2010-0307-kit/config"
home_probe
if [ $rc -eq 0 ] && has 'KERNEL_GIT=/srv/old.git' && has "KIT_CACHE=$tmp/home/cache/cve-2010-0307-kit" &&
	[ "$(notes)" = 2 ] && [ "$(printf '%s\n' "$err" | sed -n 3p | cut -c1-7)" = "[probe]" ] &&
	[ "$(printf '%s\n' "$err" | wc -l)" = 4 ]; then
	t_ok "old-name config and cache keep working; the first progress line comes after one note for each, saying the mv"
else t_fail "old-name config and cache keep working; the first progress line comes after one note for each, saying the mv" "rc=$rc" "$out" "$err"; fi
home_probe die
[ $rc -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] &&
	t_ok "old-name folders: a bad input is still one line (the note waits for progress)" ||
	t_fail "old-name folders: a bad input is still one line" "rc=$rc" "$err"
mkdir -p "$tmp/home/config/stable-backport-kit" "$tmp/home/cache/stable-backport-kit"
echo 'KERNEL_GIT=/srv/new.git' >"$tmp/home/config/stable-backport-kit/config"
home_probe
[ $rc -eq 0 ] && has 'KERNEL_GIT=/srv/new.git' && has "KIT_CACHE=$tmp/home/cache/stable-backport-kit" && [ "$(notes)" = 0 ] &&
	t_ok "once the new folders exist they win, no note" ||
	t_fail "once the new folders exist they win, no note" "rc=$rc" "$out" "$err"

# OUT from the file reaches the scripts through make: the Makefile no
# longer sets one of its own.  On a copy of the kit, so that a Makefile
# that did would only empty the copy's ./out.
mkdir -p "$tmp/kit/out" "$tmp/cfg-out"
cp -R Makefile scripts branches "$tmp/kit/"
: >"$tmp/kit/out/keep"; : >"$tmp/cfg-out/made"
# both made by the kit (make clean removes only an OUT with the kit's mark)
: >"$tmp/kit/out/.stable-backport-kit-out"; : >"$tmp/cfg-out/.stable-backport-kit-out"
cfg "OUT=$tmp/cfg-out"
env -u OUT KIT_CONFIG="$tmp/config" make -s -C "$tmp/kit" clean >/dev/null 2>&1
if [ ! -e "$tmp/cfg-out" ] && [ -e "$tmp/kit/out/keep" ]; then
	t_ok "make clean with OUT only in the file removes the file's OUT, not ./out"
else t_fail "make clean with OUT only in the file removes the file's OUT, not ./out"; fi
mkdir -p "$tmp/cfg-out" "$tmp/cmd-out"
: >"$tmp/cfg-out/.stable-backport-kit-out"; : >"$tmp/cmd-out/.stable-backport-kit-out"
env -u OUT KIT_CONFIG="$tmp/config" make -s -C "$tmp/kit" clean OUT="$tmp/cmd-out" >/dev/null 2>&1
[ -e "$tmp/cfg-out" ] && [ ! -e "$tmp/cmd-out" ] &&
	t_ok "OUT on make's command line beats the file's" || t_fail "OUT on make's command line beats the file's"
t_done
