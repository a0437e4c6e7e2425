#!/bin/sh
# seed-check.sh [BRANCH]: show that a seeded build (build.sh: started from
# the objects of an earlier build's tree) makes what a clean build makes.
#
# In an output root of its own, with the build cache off: BRANCH's
# unpatched kernel, clean (the seed); its patched kernel seeded from it;
# and the patched kernel twice more from clean.  Every output the trees
# hold beyond their source is compared.  A kernel of the era writes its
# build's date into some (include/linux/compile.h, autoconf.h's header,
# the initramfs's file times) and so into what is made of them: what two
# clean builds differ in is that part.  The seeded build may differ from a
# clean one only there, and must have linked its kernel again (vmlinux
# and bzImage newer than the seed's build).  Prints the counts, and each output outside it.
#
#   exit 0 the seeded build's outputs are a clean build's, 1 they are not
#   (or a build failed), 2 bad input, 3 source unreachable (SKIP).
set -eu
. "$(dirname "$0")/lib.sh"
BRANCH=${1:-${BRANCH:-v2.6.32}}
check_inputs BRANCH
load_branch "$BRANCH"
base=$(mktemp -d "${TMPDIR:-/tmp}/seed-check.XXXXXX")
trap 'rmtree "$base"' EXIT
OUT=$base KIT_BUILD_CACHE=0
export OUT KIT_BUILD_CACHE
unset NAME TREE SERIES_DIR
# build NAME KIND [VAR=value...]
build() {
	_n=$1 _k=$2; shift 2
	progress "$BRANCH" seed-check "$_n: $_k kernel${*:+ ($*)}"
	env NAME="$_n" "$@" sh "$KIT_ROOT/scripts/build.sh" "$_k" "$BRANCH" 2>"$base/err" >/dev/null || {
		_rc=$?; cat "$base/err" >&2; exit "$_rc"; }
}
build seed unpatched KIT_SEED=0
build seeded patched
jq -e '.build.patched.seed.from' "$base/seeded/result.json" >/dev/null ||
	die 1 "the patched kernel was not seeded from the unpatched one: $(jq -c '.build.patched | {seed, objects_compiled}' "$base/seeded/result.json")"
build clean patched KIT_SEED=0
build clean2 patched KIT_SEED=0
# differs A B: the outputs whose digest differs between two trees (or
# that one of them lacks)
differs() {
	for _t in "$1" "$2"; do
		awk '{ print substr($0, 67) "\t" $1 }' "$base/$_t/patched/seed.sums" | LC_ALL=C sort >"$base/$_t.sums"
	done
	LC_ALL=C comm -3 "$base/$1.sums" "$base/$2.sums" | sed 's/^\t//' | cut -f1 | LC_ALL=C sort -u
}
differs clean clean2 >"$base/dated"
differs seeded clean >"$base/seeded.differs"
LC_ALL=C comm -23 "$base/seeded.differs" "$base/dated" >"$base/wrong"
# and the kernel the date makes differ was linked again, never kept from
# the seed (whose objects differ): newer than the seed's build
for f in vmlinux arch/x86/boot/bzImage; do
	[ "$base/seeded/patched/src/$f" -nt "$base/seed/unpatched/seed.key" ] ||
		echo "$f (kept from the seed, not linked again)"
done >>"$base/wrong"
n=$(wc -l <"$base/seeded/patched/seed.sums")
c=$(jq -r .build.patched.objects_compiled "$base/seeded/result.json")
cc=$(jq -r .build.patched.objects_compiled "$base/clean/result.json")
f=$(jq -r .build.patched.seed.files_differing "$base/seeded/result.json")
echo "$BRANCH: the patched kernel seeded from the unpatched one ($f files differ): $c objects compiled, $cc from clean"
echo "$BRANCH: $n outputs; two clean builds differ in $(wc -l <"$base/dated") (the build's date), the seeded one from a clean one in $(wc -l <"$base/seeded.differs")"
if [ -s "$base/wrong" ]; then
	echo "$BRANCH: the seeded build differs from a clean one where two clean builds do not:" >&2
	sed 's/^/  /' "$base/wrong" >&2
	exit 1
fi
echo "$BRANCH: seeded = clean: every output outside the build's date is the same"
