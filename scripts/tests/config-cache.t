#!/bin/sh
# The configuration cache (build.sh): the .config allnoconfig makes of a
# kit kernel's miniconfig is kept in KIT_CACHE/configs/<key>, the key a
# digest of the miniconfig, the architecture and the blob ids of every
# Kconfig file, scripts/kconfig/ and the top Makefile in the work tree
# after its patches.  A build of the same inputs takes it instead of
# running allnoconfig, says so and records it; a series that changes a
# Kconfig file, or another miniconfig, misses; an entry that does not
# match its checksums is said, removed and made again;
# KIT_CONFIG_CACHE=0 runs allnoconfig and stores nothing.  The fake
# kernel of fakekernel.sh (its allnoconfig copies the miniconfig).
. ci/tap.sh
. scripts/tests/fakekernel.sh
tmp=$(mktemp -d); trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
fake_git_branch "$tmp"
fake_series "$tmp/series"
# a series that changes a Kconfig file
mkdir -p "$tmp/kseries"
printf -- '--- a/arch/x86/Kconfig\n+++ b/arch/x86/Kconfig\n@@ -1 +1,2 @@\n /* arch/x86/Kconfig */\n+/* a new option */\n' >"$tmp/kseries/k.patch"
echo k.patch >"$tmp/kseries/series"
build() { # build OUTNAME KIND SERIES [VAR=value...]: build.sh's stderr in $tmp/err
	_o=$1 _k=$2 _s=$3; shift 3
	env "$@" KIT_BUILD_CACHE=0 OUT="$tmp/$_o" SERIES_DIR="$_s" KIT_ALLOW_MISORDER=1 \
		sh "$kit/scripts/build.sh" "$_k" fake >/dev/null 2>"$tmp/err"
}
rec() { jq -r "$2" "$tmp/$1/fake/result.json"; }
said() { grep -q "from the configuration cache" "$tmp/err"; }
entries() { ls "$KIT_CACHE/configs" 2>/dev/null | grep -vc '^\.tmp\.'; }

build a unpatched "$tmp/series" && ! said && [ "$(rec a .build.unpatched.config.cache.hit)" = false ] &&
	key=$(rec a .build.unpatched.config.cache.key) && [ -r "$KIT_CACHE/configs/$key/config" ] &&
	cmp -s "$KIT_CACHE/configs/$key/config" "$tmp/a/fake/unpatched/.config" &&
	! stat -c %A "$KIT_CACHE/configs/$key/config" | grep -q w &&
	t_ok "first build: allnoconfig ran, its .config stored read-only under the key, recorded as a miss" ||
	t_fail "first build stores its .config" "$(cat "$tmp/err")"

build b unpatched "$tmp/series" && said && grep -q "build ok" "$tmp/err" &&
	[ "$(rec b .build.unpatched.config.cache.hit)" = true ] && [ "$(rec b .build.unpatched.config.cache.key)" = "$key" ] &&
	cmp -s "$tmp/a/fake/unpatched/.config" "$tmp/b/fake/unpatched/.config" &&
	t_ok "the same inputs in another output root: the .config from the cache (said, recorded), the kernel built" ||
	t_fail "a hit" "$(cat "$tmp/err")"

build c p "$tmp/series" && said && [ "$(rec c .build.p.config.cache.key)" = "$key" ] &&
	t_ok "a series that changes no Kconfig file: the same key, a hit" ||
	t_fail "series without Kconfig" "$(cat "$tmp/err")"

build d k "$tmp/kseries" && ! said && [ "$(rec d .build.k.config.cache.hit)" = false ] &&
	[ "$(rec d .build.k.config.cache.key)" != "$key" ] && [ "$(entries)" -eq 2 ] &&
	t_ok "a series that changes arch/x86/Kconfig: another key, allnoconfig ran" ||
	t_fail "series with Kconfig" "$(cat "$tmp/err")"

echo 'CONFIG_FAKE_MORE=y' >>"$kit/branches/config/fake.config"
build e unpatched "$tmp/series" && ! said && [ "$(rec e .build.unpatched.config.cache.key)" != "$key" ] &&
	grep -q '^CONFIG_FAKE_MORE=y' "$tmp/e/fake/unpatched/.config" &&
	t_ok "another miniconfig: another key, allnoconfig ran with it" ||
	t_fail "miniconfig changed" "$(cat "$tmp/err")"
sed -i '/^CONFIG_FAKE_MORE=y/d' "$kit/branches/config/fake.config"

# a damaged entry: never read into a build; said, removed, made again
chmod u+w "$KIT_CACHE/configs/$key" "$KIT_CACHE/configs/$key/config"
echo 'CONFIG_TAMPERED=y' >>"$KIT_CACHE/configs/$key/config"
build f unpatched "$tmp/series" && ! said &&
	grep -q "warning: \[fake\] the configuration cache entry .*/$key does not match its sha256sums; made again" "$tmp/err" &&
	! grep -q TAMPERED "$tmp/f/fake/unpatched/.config" && ! grep -q TAMPERED "$KIT_CACHE/configs/$key/config" &&
	(cd "$KIT_CACHE/configs/$key" && sha256sum -c --quiet sha256sums) &&
	t_ok "a tampered entry: a warning naming it, allnoconfig ran, the entry stored good again" ||
	t_fail "tampered entry" "$(cat "$tmp/err")" "$(cat "$tmp/f/fake/unpatched/.config" 2>&1)"

# KIT_CONFIG_CACHE=0: a good entry is there and not read; another
# miniconfig's .config is not stored
n=$(entries)
build g unpatched "$tmp/series" KIT_CONFIG_CACHE=0 && ! said && [ "$(rec g .build.unpatched.config.cache.hit)" = false ] &&
	[ "$(rec g .build.unpatched.config.cache.key)" = "$key" ] && [ -r "$KIT_CACHE/configs/$key/config" ] &&
	echo 'CONFIG_FAKE_OFF=y' >>"$kit/branches/config/fake.config" &&
	build g2 unpatched "$tmp/series" KIT_CONFIG_CACHE=0 && ! said && [ "$(entries)" -eq "$n" ] &&
	t_ok "KIT_CONFIG_CACHE=0: an entry with the key is not read; a new .config is not stored" ||
	t_fail "config cache off" "$(cat "$tmp/err")"
sed -i '/^CONFIG_FAKE_OFF=y/d' "$kit/branches/config/fake.config"

# a TREE= build configures from its own configuration: no key, no entry
cp -a "$tmp/tree" "$tmp/t1"
env OUT="$tmp/h" TREE="$tmp/t1" NAME=t KIT_BUILD_CACHE=0 sh "$kit/scripts/build.sh" unpatched >/dev/null 2>"$tmp/err" &&
	[ "$(jq -r .build.unpatched.config.cache "$tmp/h/t/result.json")" = null ] && ! said &&
	t_ok "a TREE= build: its own configuration, no configuration cache" || t_fail "TREE= config" "$(cat "$tmp/err")"
[ -z "$(ls -A "$KIT_CACHE/configs" | grep '^\.tmp\.')" ] && t_ok "no temp entries left in the configuration cache" ||
	t_fail "temp entries" "$(ls -A "$KIT_CACHE/configs")"
t_done
