#!/bin/sh
# A tree of your own builds with its own configuration (build.sh): CONFIG=
# the .config its owner ships, or without it the tree's defconfig, never the
# kit's allnoconfig; the kit sets only the symbols the verification needs
# over it (fragments marked "# kit-scope: miniconfig" are left out), runs
# oldconfig, and checks each one, naming a symbol the tree cannot give and
# why.  result.json says where the configuration came from and which
# symbols were checked; the configuration is an input of the build key.
# The fake kernel of fakekernel.sh builds in a second.
. ci/tap.sh
. scripts/tests/fakekernel.sh
tmp=$(mktemp -d); trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
kit=$tmp/kit
fake_kit "$kit"
printf '# kit-scope: miniconfig\nCONFIG_FAKE_SMALL=y\n' >"$kit/branches/config/small.config"
fake_tree "$tmp/tree"
# the branch's own source: the same tree, committed
fake_conf "$kit" fake BR_SOURCE=git "BR_COMMIT=$(fake_repo "$tmp/repo" "$tmp/tree")" 'BR_HOST_SERIES=""' 'BR_CONFIG="fake.config small.config"'
fake_env "$kit"
rec() { jq -r "$2" "$OUT/$1/result.json"; }
build() { # build [VAR=value...]: build.sh unpatched of TREE=$tmp/tree, stderr in $tmp/err
	env "$@" TREE="$tmp/tree" sh "$kit/scripts/build.sh" unpatched >/dev/null 2>"$tmp/err"
}
cfg=$OUT/tree-tree/unpatched/.config

build && grep -qx CONFIG_FAKE_DEFCONFIG=y "$cfg" && grep -qx CONFIG_FAKE=y "$cfg" && ! grep -q FAKE_SMALL "$cfg" &&
	[ "$(rec tree-tree .build.unpatched.config.from)" = "the tree's defconfig (x86_64)" ] &&
	[ "$(rec tree-tree '.build.unpatched.config.required_checked | join(" ")')" = CONFIG_FAKE=y ] &&
	t_ok "TREE= without CONFIG=: the tree's defconfig plus the kit's symbol, the miniconfig-only fragment left out; result.json says so" ||
	t_fail "TREE= builds from its defconfig" "$(cat "$tmp/err"; cat "$cfg")"

printf 'CONFIG_OWNER_OPTION=y\n# CONFIG_FAKE is not set\n' >"$tmp/owner.config"
build CONFIG="$tmp/owner.config" && grep -qx CONFIG_OWNER_OPTION=y "$cfg" && grep -qx CONFIG_FAKE=y "$cfg" &&
	! grep -q '# CONFIG_FAKE is not set' "$cfg" && ! grep -q FAKE_DEFCONFIG "$cfg" &&
	[ "$(rec tree-tree .build.unpatched.config.from)" = "CONFIG=$tmp/owner.config" ] &&
	t_ok "CONFIG=<file>: the owner's configuration, the kit's symbol set in place of the owner's line for it" ||
	t_fail "CONFIG= builds from the owner's .config" "$(cat "$tmp/err"; cat "$cfg")"
build CONFIG="$tmp/owner.config" && grep -q "up to date\|from the build cache" "$tmp/err" &&
	echo 'CONFIG_OTHER=y' >>"$tmp/owner.config" && build CONFIG="$tmp/owner.config" && grep -q "build ok" "$tmp/err" &&
	t_ok "the configuration is an input: the same CONFIG= is up to date, one line more builds again" ||
	t_fail "CONFIG= is in the build key" "$(cat "$tmp/err")"
cp "$tmp/owner.config" "$tmp/moved.config"
build CONFIG="$tmp/moved.config" && grep -q "up to date\|from the build cache" "$tmp/err" &&
	[ "$(rec tree-tree .build.unpatched.config.from)" = "CONFIG=$tmp/moved.config" ] &&
	t_ok "... by content, not path: the same file elsewhere is the same kernel, not built again; result.json names this run's CONFIG= path" ||
	t_fail "CONFIG= keyed by content, recorded by this run's path" "$(cat "$tmp/err")" "$(rec tree-tree .build.unpatched.config.from)"
# served from the build cache into another output root: the same
cp "$tmp/owner.config" "$tmp/third.config"
build OUT="$tmp/out3" CONFIG="$tmp/third.config" && grep -q "from the build cache" "$tmp/err" &&
	[ "$(jq -r .build.unpatched.config.from "$tmp/out3/tree-tree/result.json")" = "CONFIG=$tmp/third.config" ] &&
	t_ok "... served from the build cache, result.json names this run's CONFIG= path, not the one of the build that made the entry" ||
	t_fail "a cache hit records this run's CONFIG= path" "$(cat "$tmp/err")" "$(jq -r .build.unpatched.config.from "$tmp/out3/tree-tree/result.json")"

# a symbol the tree cannot give: named, with its Kconfig dependency
printf 'config FAKE_NEEDS_BROKEN\n\tbool "needs BROKEN"\n\tdepends on BROKEN\n' >>"$tmp/tree/arch/x86/Kconfig"
echo 'CONFIG_FAKE_NEEDS_BROKEN=y' >>"$kit/branches/config/fake.config"
build; rc=$?
[ $rc -eq 1 ] && tail -1 "$tmp/err" | grep -q "config failed: check-config: CONFIG_FAKE_NEEDS_BROKEN: .*a dependency is missing (arch/x86/Kconfig: depends on BROKEN)" &&
	t_ok "a symbol the tree cannot give stops the build, named with its dependency (arch/x86/Kconfig: depends on BROKEN)" ||
	t_fail "an ungivable symbol is named with why" "rc=$rc $(tail -1 "$tmp/err")"
sed -i '/FAKE_NEEDS_BROKEN/d' "$kit/branches/config/fake.config"

# the kit's own kernels keep the miniconfig, miniconfig-only fragment included
KERNEL_GIT=$tmp/repo sh "$kit/scripts/build.sh" unpatched fake >/dev/null 2>"$tmp/err" &&
	grep -qx CONFIG_FAKE_SMALL=y "$OUT/fake/unpatched/.config" && ! grep -q FAKE_DEFCONFIG "$OUT/fake/unpatched/.config" &&
	[ "$(rec fake .build.unpatched.config.from)" = miniconfig ] &&
	t_ok "a branch builds with the miniconfig, every fragment in it" || t_fail "branch miniconfig" "$(cat "$tmp/err")"

# bad input: one line, exit 2, nothing built
for c in "CONFIG=$tmp/owner.config:a branch" "CONFIG=$tmp/nonexistent:TREE" "CONFIG=$tmp/kit/scripts/lib.sh:TREE"; do
	v=${c%%:*} how=${c##*:}
	if [ "$how" = "a branch" ]; then
		env "$v" KERNEL_GIT=$tmp/repo sh "$kit/scripts/build.sh" unpatched fake >/dev/null 2>"$tmp/err"; rc=$?
	else build "$v"; rc=$?; fi
	[ $rc -eq 2 ] && [ "$(grep -c . "$tmp/err")" = 1 ] && t_ok "refused in one line (exit 2): $(cat "$tmp/err" | cut -c1-110)" ||
		t_fail "bad CONFIG= refused: $v with $how" "rc=$rc $(cat "$tmp/err")"
done
# A failed make names its first compiler or linker error, not a line of
# oldconfig's questions above it ("... hardware memory errors ...").
printf 'CONFIG_FAILS=y\n' >"$tmp/fails.config"
build CONFIG="$tmp/fails.config" NAME=fails FAKE_BZIMAGE_ERROR='init/mounts.c:1:1: error: boom'; rc=$?
[ $rc -eq 1 ] && grep -q 'make bzImage failed: init/mounts.c:1:1: error: boom' "$tmp/err" && ! grep -q MEMORY_FAILURE "$tmp/err" &&
	t_ok "a failed make names its first error line (init/mounts.c:1:1: error: boom), not oldconfig's question" ||
	t_fail "a failed make names its first error" "rc=$rc" "$(cat "$tmp/err")"
t_done
