#!/bin/sh
# Every branch definition loads and names only files that exist.
. ci/tap.sh
KIT_ROOT=$(pwd) . scripts/lib.sh
for b in $(list_branches); do
	if ( load_branch "$b" ) 2>"${TMPDIR:-/tmp}/def.$$"; then
		load_branch "$b"
		bad=
		[ -r "branches/host/$BR_FLAGS.flags" ] || bad="$bad flags:$BR_FLAGS"
		for p in $BR_HOST_SERIES; do [ -r "branches/host/$p.patch" ] || bad="$bad host:$p"; done
		for c in $BR_CONFIG; do [ -r "branches/config/$c" ] || bad="$bad config:$c"; done
		[ -n "$BR_MARKERS" ] || bad="$bad no-markers"
		[ -z "$bad" ] && t_ok "$b loads; its flags, host patches and fragments exist" || t_fail "$b: missing$bad"
	else t_fail "$b loads" "$(cat "${TMPDIR:-/tmp}/def.$$")"; fi
done
rm -f "${TMPDIR:-/tmp}/def.$$"
# Pinned ids are the mainline release commits (NOTES.md's table).
t_check "v2.6.32 is pinned to 22763c5cf369" grep -q '^BR_COMMIT=22763c5cf3690a681551162c15d34d935308c8d7$' branches/v2.6.32.conf
t_check "v2.6.26 is pinned to bce7f793daec" grep -q '^BR_COMMIT=bce7f793daec3e65ec5c5705d2457b81fe7b5725$' branches/v2.6.26.conf
# Every host patch says what breaks and why the change is safe.
for p in branches/host/*.patch; do
	grep -q '^Breaks with:' "$p" && grep -q '^Safe because:' "$p" && t_ok "$(basename "$p") has Breaks with/Safe because" ||
		t_fail "$(basename "$p") lacks a 'Breaks with:' or 'Safe because:' line"
done
t_done
