#!/bin/sh
# after: 10-build 20-verify
# After the real builds of 10-build and 20-verify: the kernels were built
# in hard-link farms (fetch.sh --farm), so every file the build or the
# series changed must have been replaced, never written into.  Each
# branch's link source (KIT_CACHE/src/.links.<key>: a git commit's, or an
# apt package version's, debian-6.1) still holds exactly
# what its export's marker lists, and the export's stat data are those
# its marker holds (no inode of it was linked or touched).
# A link source no build made yet (every kernel from the build cache) has
# nothing to show: SKIP, said.
. ci/e2e/lib.sh
for b in $(e2e_branches); do
	load_branch "$b"
	need_source "$b" "$b link source" || continue
	exp=$(sh scripts/fetch.sh "$b" 2>/dev/null) || { t_fail "$b export" "fetch.sh $b failed"; continue; }
	ls=$KIT_CACHE/src/.links.${exp##*/}
	if [ ! -d "$ls" ]; then
		t_skip "$b link source intact" "no build of $b made a work tree here (its kernels came from the build cache)"
		continue
	fi
	sed '1,/^listing$/d' "$exp/.kit-verified" >"$OUT/.e2e-want"
	# the export's stat data as its marker holds them (fetch.sh
	# stat_digest: a link made to one of its files would move its ctime)
	st=$(cd "$exp" && find . -mindepth 1 ! -path ./.kit-verified -printf '%P\t%y %m %s %i %T@ %C@\n' | LC_ALL=C sort | sha256sum | cut -d' ' -f1)
	sh scripts/fetch.sh --listing "$ls" >"$OUT/.e2e-have" &&
		cmp -s "$OUT/.e2e-want" "$OUT/.e2e-have" && grep -qx "stat $st" "$exp/.kit-verified" &&
		t_ok "$b: the link source the builds linked from is the export, file by file; the export's stat digest held" ||
		t_fail "$b link source intact" "$(diff "$OUT/.e2e-want" "$OUT/.e2e-have" | head -5)"
done
rm -f "$OUT/.e2e-want" "$OUT/.e2e-have"
t_done
