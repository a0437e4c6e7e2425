# Stable-branch backport kit: user entry points.  Thin: every target calls a
# script that can be run and tested alone.  `make help` lists them.

SHELL := /bin/sh
BRANCH ?=
# OUT has no default here: given on the command line or in the environment
# it reaches the scripts as it is; otherwise scripts/lib.sh takes the
# config file's OUT, else ./out (a default here would hide the file's).
export BRANCH TREE NAME CONFIG KERNEL_GIT KIT_CACHE JOBS ARCHES HARDENING CVE UPSTREAM FROM_SOURCE OUT_FIXES
# Numbers the C way in every tool a target runs, whatever the user's locale
# (awk writes "1,28" under de_DE, which jq refuses; scripts/lib.sh).
export LC_ALL := C

.PHONY: help deps all check unit e2e build build-all seed-check verify verify-all \
	series series-all new-fix mbox mainline-tags pick picks-table mutants compile-check ppc64-boot cross cross-all cross-deps testvm report records clean

help:
	@echo 'Stable-branch backport kit: $(notdir $(patsubst %/FIX,%,$(wildcard backports/fixes/*/FIX))) on v2.6.26-v2.6.32'
	@echo '(one folder per fix in backports/fixes/; docs/adding-a-fix.md adds one)'
	@echo
	@echo 'Main job and tests (each installs the Debian packages it needs):'
	@echo '  make all                 build, patch and verify every reachable branch'
	@echo '  make check               unit tests, then end-to-end runs of reachable branches'
	@echo
	@echo 'Per branch (BRANCH=<name>, see branches/*.conf):'
	@echo '  make build BRANCH=b      fetch and build the unpatched kernel into $$(OUT)/b/'
	@echo '  make build-all           every branch whose source is reachable; summary table'
	@echo '  make verify BRANCH=b     build what is missing, boot in QEMU, give verdicts'
	@echo '  make verify-all          every reachable branch; table at the end'
	@echo '  make series BRANCH=b     regenerate backports/b/ from cocci/ rules and hand hunks'
	@echo '                           (TREE=<dir>: a series for that tree in $$(OUT)/<name>/tree-series/;'
	@echo '                           SERIES_OUT=<dir>: written there instead of backports/b/)'
	@echo '  make series-all          make series for every v2.6 branch'
	@echo '  make new-fix CVE=<id> UPSTREAM="<id> ..."  draft backports/fixes/<CVE>/ from the commits'
	@echo '                           as KERNEL_GIT carries them: FIX, changes with hunks where they'
	@echo '                           apply, skeletons; prints what is left by hand (FROM_SOURCE=)'
	@echo '  make mbox BRANCH=b       the series as mails git am takes and a cover letter, upstream changelog and chain (SIGNOFF=1 signs; MBOX_TO=/MBOX_CC= address them)'
	@echo '  make mainline-tags       each change'"'"'s Mainline: tag, confirmed by the tags of KERNEL_GIT/STABLE_GIT or INFO'"'"'s unconfirmed line'
	@echo '  make mutants BRANCH=b    drop each patch in turn, and each whole fix; show which fix'"'"'s'
	@echo '                           verdict catches it (MUTANTS="<letter> <fix> ...";'
	@echo '                           default: $(shell sh scripts/mutants.sh --list))'
	@echo '  make pick BRANCH=b ARCHES="x86_64 powerpc"  the smallest series for those architectures,'
	@echo '                           with why each patch is in: $$(OUT)/b/pick-<name>/, $$(OUT)/b/picks/<name>.json'
	@echo '                           (make verify/cross with ARCHES= prove it; docs/picks.md)'
	@echo '  make picks-table         rewrite the pick-size table of docs/picks.md (every branch)'
	@echo '  make cross BRANCH=b      cross-compile every patched loader, unpatched and patched;'
	@echo '                           warnings and per-patch function diff (cross-all: all branches;'
	@echo '                           CELLS="x86_32 ppc64" narrows it)'
	@echo '  make compile-check BRANCH=b  the x86_32 cell alone: binfmt_aout, which x86_64 never builds'
	@echo '  make ppc64-boot [BRANCH=b]   stretch: whole patched ppc64 kernel booted under QEMU pseries;'
	@echo '                           says how far it got (cross/README.md)'
	@echo
	@echo 'Pieces:'
	@echo '  make deps                install the Debian packages the kit uses (root or sudo)'
	@echo '  make cross-deps          only the cross compilers (make deps includes them)'
	@echo '  make unit                unit tests only (no kernel tree needed)'
	@echo '  make e2e                 end-to-end runs only'
	@echo '  make testvm              build the guest programs and image'
	@echo '  make report              render docs/results.md and docs/results.html (also'
	@echo '                           $$(OUT)/report.html) from out/*/result.json'
	@echo '  make records             fix records (OSV JSON, cip-kernel-sec YAML) in $$(OUT)/records/ (make report too)'
	@echo '  make bench               time the matrix cold, warm, one series changed, and the'
	@echo '                           kit against a bare make, a cold and a warm make check (out/bench.json; never a test)'
	@echo '  make seed-check [BRANCH=b]  a seeded build against clean ones: same outputs (default v2.6.32)'
	@echo '  make clean               remove $$(OUT), exactly that folder, when the kit made it (refuses'
	@echo '                           any other folder, /, $$HOME, the repository)'
	@echo
	@echo 'Variables:'
	@echo '  BRANCH=<name>    target branch: $(notdir $(basename $(wildcard branches/*.conf)))'
	@echo '  TREE=<dir>       use a tree you already have (copied, never edited)'
	@echo '  NAME=<name>      output folder name for TREE= (default: tree-<folder name>)'
	@echo '  CONFIG=<file>    with TREE=: build with that .config (default: the tree'"'"'s defconfig),'
	@echo '                   plus the symbols the verification needs (docs/trees.md)'
	@echo '  ARCHES="<arch> ..."  architectures shipped: verify, cross, pick use the pick for them'
	@echo '                   (x86_64 x86_32 powerpc sparc64 parisc m68knommu sh mips; default all)'
	@echo '  HARDENING=0      leave optional hardening out of a pick (changes whose INFO says Hardening: yes)'
	@echo '  KERNEL_GIT=<url or path>  git source of the 2.6 trees (default: kernel.org)'
	@echo '  STABLE_GIT="<p> ..."  more git sources of upstream text for mbox and records'
	@echo '                   (stable trees; paths or URLs, space-separated)'
	@echo '  KIT_CACHE=<dir>  verified read-only exports (default: ~/.cache/stable-backport-kit)'
	@echo '  OUT=<dir>        output root (default: the config file'"'"'s OUT, else ./out)'
	@echo '  JOBS=<n>         make -j for kernel builds (default: nproc)'
	@echo '  KIT_BUILD_CACHE=0  build every kernel, neither serve nor store one (default: 1)'
	@echo '  KIT_SEED=0       build every kernel from clean, never from the objects of an earlier'
	@echo '                   build'"'"'s tree in $$(OUT) (default: 1; make seed-check)'
	@echo '  BOOT_JOBS=<n>    kernels booted side by side (default: nproc/4, at least 1)'
	@echo '  VERIFY_JOBS=<n>  branches verify-all runs at once (default: nproc)'
	@echo '  CROSS_JOBS=<n>   cross cells built side by side, each make -j JOBS/CROSS_JOBS (default: JOBS)'
	@echo '  KIT_REBOOT=1     boot even a kernel whose verdict in OUT is up to date'
	@echo '  Settings may also live in ~/.config/stable-backport-kit/config (KIT_CONFIG=<file>):'
	@echo '  KEY=value lines for KERNEL_GIT STABLE_GIT KIT_CACHE OUT JOBS, read as data, never run;'
	@echo '  the command line and the environment win over the file.'

deps:
	@sh scripts/deps.sh
	@sh scripts/cross-deps.sh

cross-deps:
	@sh scripts/cross-deps.sh

all: deps
	@sh scripts/all.sh

check: deps
	@sh ci/check.sh

unit:
	@sh ci/run-tests.sh

e2e:
	@E2E=1 sh ci/run-tests.sh ci/e2e/*.t

build:
	@sh scripts/build.sh unpatched

build-all:
	@sh scripts/build-all.sh

verify:
	@sh scripts/verify.sh

verify-all:
	@sh scripts/verify-all.sh

series:
	@sh scripts/series.sh

mbox:
	@sh scripts/mbox.sh

mainline-tags:
	@sh scripts/mainline-tags.sh

new-fix:
	@sh scripts/new-fix.sh

series-all:
	@for b in $(notdir $(basename $(wildcard branches/v*.conf))); do \
		sh scripts/series.sh $$b || exit 1; done

mutants:
	@sh scripts/mutants.sh

pick:
	@sh scripts/pick.sh

picks-table:
	@sh scripts/pick.sh --table --write

seed-check:
	@sh scripts/seed-check.sh

compile-check:
	@sh scripts/cross.sh "$${BRANCH:-}" x86_32

ppc64-boot: cross-deps
	@sh cross/boot/ppc64-boot.sh "$${BRANCH:-}"

cross: cross-deps
	@sh scripts/cross.sh "$${BRANCH:-}" $(CELLS)

cross-all: cross-deps
	@sh scripts/cross-all.sh

testvm:
	@KIT_ROOT=$(CURDIR) sh -c '. scripts/lib.sh && exec $(MAKE) -C testvm OUT="$$OUT/testvm"'

clean:
	@sh scripts/clean.sh

report:
	@sh scripts/report.sh

records:
	@sh scripts/records.sh

bench: deps
	@sh scripts/bench.sh
