# shellcheck shell=sh
# Helpers for the unit tests of fetch.sh, detect.sh and build.sh: a copy of
# the kit with a branch of its own, and a tiny tree that detect.sh takes for
# a complete kernel tree and whose build takes a second.  Sourced by tests.
#
#   fake_kit DIR             the kit's scripts, branches/host and a config
#                            fragment, at DIR (KIT_ROOT=DIR)
#   fake_conf DIR NAME LINE...  DIR/branches/NAME.conf: BR_NAME=NAME,
#                            BR_VERSION=2.6.99, markers "+fake/marker", then
#                            the given BR_...=... lines
#   fake_tree DIR            the tree (see below)
#   fake_repo DIR TREE       a git repository of TREE's files; its commit
#   fake_git_branch DIR      all of the above for branch "fake" (below)
#   fake_env KIT             the environment a test run of the kit needs:
#                            no config file, its own cache, OUT and build lock
#
# The tree's Makefile says 2.6.99 and, like a vendor board's, defaults to
# ARCH ?= arm and CROSS_COMPILE ?= arm-linux-.  make reads its GNUmakefile
# first: "allnoconfig" copies the miniconfig to .config, "defconfig" writes
# CONFIG_FAKE_DEFCONFIG=y, "oldconfig" drops CONFIG_FAKE_NEEDS_BROKEN (a
# symbol whose dependency the tree cannot give), "bzImage" fails
# unless ARCH=x86_64 and $(CROSS_COMPILE)ld runs, "compiles" fs/exec.o and
# kernel/fork.o (the .c written anew, made when the .c is newer, as make
# does, saying "  CC      <object>"), and writes fs/.exec.o.cmd
# with $(CC) (what flag-audit.sh reads), arch/x86/boot/bzImage and System.map.
# FAKE_BZIMAGE_SLEEP=N makes bzImage take N seconds; FAKE_BZIMAGE_ERROR=<line>
# makes oldconfig ask a question with "errors" in it and bzImage fail,
# printing <line>.
# FAKE_BZIMAGE_SLEEP=N in the environment of the build makes "bzImage" sleep
# N seconds first (a build long enough to interrupt).

fake_kit() {
	mkdir -p "$1/scripts" "$1/branches/host" "$1/branches/config"
	cp scripts/*.sh "$1/scripts/"
	cp branches/host/* "$1/branches/host/"
	echo 'CONFIG_FAKE=y' >"$1/branches/config/fake.config"
}

fake_conf() {
	_d=$1 _n=$2; shift 2
	{
		printf 'BR_NAME=%s\nBR_VERSION=2.6.99\nBR_FLAGS=linux-2.6\n' "$_n"
		printf 'BR_CONFIG=fake.config\nBR_MARKERS="+fake/marker"\n'
		for _l; do printf '%s\n' "$_l"; done
	} >"$_d/branches/$_n.conf"
}

fake_tree() {
	_t=$1
	mkdir -p "$_t"
	for _f in kernel/fork.c kernel/exit.c fs/exec.c fs/binfmt_elf.c mm/mmap.c \
		init/main.c include/linux/sched.h arch/x86/Kconfig arch/x86/kernel/process_64.c \
		scripts/Makefile.build scripts/Kbuild.include fake/marker; do
		mkdir -p "$_t/${_f%/*}"
		printf '/* %s */\n' "$_f" >"$_t/$_f"
	done
	[ -f "$_t/Makefile" ] || : >"$_t/Makefile"
	{
		printf 'VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 99\nEXTRAVERSION =\nNAME = fake\n'
		printf 'ARCH ?= arm\nCROSS_COMPILE ?= arm-linux-\n'
		cat "$_t/Makefile"
	} >"$_t/Makefile.new"
	mv "$_t/Makefile.new" "$_t/Makefile"
	cat >"$_t/GNUmakefile" <<'MK'
ARCH ?= arm
CROSS_COMPILE ?= arm-linux-
allnoconfig:
	cp $(KCONFIG_ALLCONFIG) .config
defconfig:
	echo 'CONFIG_FAKE_DEFCONFIG=y' >.config
oldconfig:
	sed -i '/^CONFIG_FAKE_NEEDS_BROKEN=/d' .config
	$(if $(FAKE_BZIMAGE_ERROR),echo 'Enable recovery from hardware memory errors (MEMORY_FAILURE) [N/y/?] (NEW)')
%.o: %.c
	@echo '  CC      $@'
	cat $< >$@
bzImage: fs/exec.o kernel/fork.o
	$(if $(FAKE_BZIMAGE_SLEEP),sleep $(FAKE_BZIMAGE_SLEEP))
	@$(if $(FAKE_BZIMAGE_ERROR),echo 'warning: not this one' && echo 'ld: x.o: warning: multiple definition of y' && echo '$(FAKE_BZIMAGE_ERROR)' && false)
	test "$(ARCH)" = x86_64
	$(CROSS_COMPILE)ld --version >/dev/null
	echo 'cmd_fs/exec.o := $(CC) -fno-strict-aliasing -c -o fs/exec.o fs/exec.c' >fs/.exec.o.cmd
	mkdir -p arch/x86/boot
	echo 'ARCH=$(ARCH) CROSS_COMPILE=$(CROSS_COMPILE)' >arch/x86/boot/bzImage
	echo '0000000000000000 T _text' >System.map
MK
}

# fake_repo DIR TREE: a git repository at DIR whose one commit holds TREE's
# files (a branch's source, BR_SOURCE=git); prints the commit's id.
fake_repo() {
	git init -q "$1" && cp -a "$2/." "$1/" &&
		git -C "$1" -c user.email=t@t -c user.name=t add -A &&
		git -C "$1" -c user.email=t@t -c user.name=t commit -qm one &&
		git -C "$1" rev-parse HEAD
}

# fake_git_branch DIR: the whole setup of a branch built from git: the kit
# at DIR/kit (kit=), the tree at DIR/tree, committed in DIR/repo (c= its
# commit, KERNEL_GIT= the repo), branch "fake" with no host series, and
# the test's environment (fake_env).
fake_git_branch() {
	kit=$1/kit
	fake_kit "$kit"
	fake_tree "$1/tree"
	c=$(fake_repo "$1/repo" "$1/tree")
	fake_conf "$kit" fake BR_SOURCE=git "BR_COMMIT=$c" 'BR_HOST_SERIES=""'
	fake_env "$kit"
	KERNEL_GIT=$1/repo; export KERNEL_GIT
}

fake_env() {
	KIT_ROOT=$1 KIT_CONFIG=/nonexistent KIT_CACHE=$1/cache OUT=$1/out KIT_LOCK=$1/build.lock
	export KIT_ROOT KIT_CONFIG KIT_CACHE OUT KIT_LOCK
	unset BRANCH TREE NAME SERIES_DIR
}

# fake_series DIR: a one-patch series for a "patched" build of the fake
# tree (SERIES_DIR=DIR): fs/exec.c gains a line.
fake_series() {
	mkdir -p "$1"
	printf -- '--- a/fs/exec.c\n+++ b/fs/exec.c\n@@ -1 +1,2 @@\n /* fs/exec.c */\n+/* fixed */\n' >"$1/fix.patch"
	echo fix.patch >"$1/series"
}
