#!/bin/sh
# bench.sh: how long the kit's matrix takes, cold and warm, and what the kit
# adds to a bare kernel build.  A benchmark, never a test: nothing asserts
# on a figure; the figures go to $OUT/bench.json and `make report` puts
# them into docs/results.md with the machine they were measured on.
#
# Stages (BENCH_STAGES, default all six, in this order):
#   cold        verify-all into a new output root with an empty build cache
#               (the verified source exports are reused: fetching is not
#               building; `fetch.sh` times are in its own progress lines);
#               its seconds against the sum of what the compiler and QEMU
#               took in it: each kernel's config+make seconds and the
#               seconds of each QEMU run that gave a verdict (a kernel boots
#               once per command line), as its records say
#               (ratio_to_make_and_boots).  Every kernel is built from clean
#               (KIT_SEED=0): the ratio is what the kit adds to the
#               compiler's whole work, the sum of bare builds; a seeded
#               build does less of that work, which the check stage shows
#   warm        verify-all again, nothing changed (without cold before it,
#               an untimed verify-all first fills the output root from the
#               machine's own build cache, building what it lacks: the
#               stage always times a verify-all over an output root where
#               one already ran, as `make all` twice does)
#   one-series  verify-all from a copy of the kit whose series of one branch
#               (BENCH_SERIES_BRANCH, default the last of BENCH_BRANCHES)
#               differs by one byte: only that branch's patched kernel
#               should be built
#   overhead    each branch's (BENCH_OVERHEAD_BRANCHES, default the git
#               branches of the matrix) unpatched build through the kit,
#               cache off, against a bare `make -j$(nproc) bzImage` of the
#               same configured tree: a fresh work tree of the same source
#               with the host patches the kit applied and the kit's
#               .config, nothing built in it (make's own silentoldconfig
#               and host tools are timed, as the kit's allnoconfig is):
#               the seconds of each (the source read once before, so
#               that neither build reads it from disk) and their ratio per
#               branch, and the mean ratio.  BENCH_OVERHEAD_RUNS (default
#               2) pairs per branch, the kit first in odd pairs and the
#               bare make first in even ones; a figure is the mean of its
#               runs, each run kept.  The kit's .config comes from its
#               configuration cache where an earlier build made it (as it
#               does for a user); each run records whether it did
#   check-warm  the same with the machine's KIT_CACHE as it is (after a
#               check stage: the entries that stage made): a warm make check
#   check       make check (.ci/run, what CI runs) on a fresh clone of the
#               kit's HEAD with empty build caches: a new KIT_CACHE whose
#               builds/, configs/, cross/ and spatch/ start empty, its sources (src/,
#               apt/, git/) the machine's (fetching is not building), the
#               machine's build lock; its seconds, its phases (from its own
#               "make check took" line) and its summary.  The entries it made
#               then go to the machine's cache where their key is absent, so
#               the next make check finds them.  The check stage's output
#               root (the clone's out/: every branch verified, the mails and
#               cross cells its files made) is kept as $OUT/check-out, for
#               make report.
# BENCH_BRANCHES narrows the matrix (default every branch).  Each stage
# records seconds and how many kernels were built, served from the build
# cache or up to date, parsed from the kit's own progress lines.
#
# Exit 0 measured; 1 a stage failed (its log is named; the figures of the
# stages before it are kept); 2 bad input.
set -u
. "$(dirname "$0")/lib.sh"
need_cmd jq
stages=${BENCH_STAGES:-cold warm one-series overhead check check-warm}
for s in $stages; do
	case $s in cold | warm | one-series | overhead | check | check-warm) ;;
	*) die 2 "BENCH_STAGES names '$s'; the stages are: cold warm one-series overhead check check-warm" ;;
	esac
done
branches=${BENCH_BRANCHES:-$(list_branches)}
for b in $branches; do check_name BRANCH "$b"; load_branch "$b"; done
sb=${BENCH_SERIES_BRANCH:-$(echo "$branches" | tr ' ' '\n' | grep '^v' | tail -1)}
obs=${BENCH_OVERHEAD_BRANCHES:-${BENCH_OVERHEAD_BRANCH:-$(for b in $branches; do load_branch "$b"; [ "$BR_SOURCE" != git ] || echo "$b"; done)}}
check_name BRANCH "$sb"
for b in $obs; do check_name BRANCH "$b"; load_branch "$b"; done
oruns=${BENCH_OVERHEAD_RUNS:-2}
case $oruns in '' | *[!0-9]* | 0*) die 2 "BENCH_OVERHEAD_RUNS='$oruns' is not a positive whole number; set BENCH_OVERHEAD_RUNS=2" ;; esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kit-bench.XXXXXX") || die 1 "cannot make a temp folder"
trap 'rmtree "$tmp"' EXIT
out_root
bout=$tmp/out builds=$tmp/builds
res=$tmp/bench.json
jq -n --arg at "$(date -u +%FT%TZ)" --argjson prov "$(kit_provenance)" \
	--arg cpu "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)" \
	--argjson cores "$(nproc)" \
	--argjson mem "$(awk '/^MemTotal/ { print int($2 / 1024) }' /proc/meminfo)" \
	--arg branches "$branches" --arg kernel "$(uname -r)" \
	'{schema: 1, measured_at: $at, kit: $prov.kit_commit, provenance: $prov,
	  machine: {cpu: $cpu, cores: $cores, memory_mib: $mem, host_kernel: $kernel},
	  branches: ($branches | [splits("[ \n\t]+")] | map(select(. != ""))), stages: {}}' >"$res" ||
	die 1 "jq could not start the record"

# since T0: the seconds from T0 (date +%s.%N) to now, to a tenth (a
# point for the decimal, whatever the locale: the figure goes to JSON)
since() { LC_ALL=C awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
# counts LOG: "built served uptodate booted" from the kit's progress and
# verdict lines (booted: kernels booted, their verdict not up to date)
counts() {
	printf '%s %s %s %s' "$(grep -c ' build ok: ' "$1")" "$(grep -c 'kernel from the build cache' "$1")" \
		"$(grep -c 'kernel is up to date' "$1")" \
		"$(grep -E '^[^ []+ +(unpatched|patched) +[A-Z]+ runs=' "$1" | grep -vc '(up to date: booted ')"
}
# stage NAME LOG SECONDS RC [extra jq args and filter]: record one stage
stage() {
	_n=$1 _l=$2 _s=$3 _r=$4
	set -- $(counts "$_l")
	jq --arg n "$_n" --argjson s "$_s" --argjson rc "$_r" --argjson b "$1" --argjson c "$2" --argjson u "$3" --argjson k "$4" \
		--arg la "$la" \
		'.stages[$n] = {seconds: $s, exit: $rc, kernels_built: $b, kernels_from_cache: $c,
		   kernels_up_to_date: $u, kernels_booted: $k, load_before: $la}' "$res" >"$res.new" && mv "$res.new" "$res"
	progress bench "$_n" "${_s}s: $1 kernels built, $2 from the build cache, $3 up to date; $4 booted (exit $_r)"
	# what of it the compiler and QEMU took: each kernel built here, its
	# config+make seconds (build.sh's own), and each QEMU run's seconds,
	# start to verdict (every command line a kernel is booted with; its
	# record's .seconds is only the longest), from the run's records; the
	# stage against their sum
	[ "$_n" = cold ] && [ "$1" -gt 0 ] || return 0
	cat "$bout"/*/result.json 2>/dev/null | jq -s --arg n "$_n" --slurpfile r "$res" '
		([.[] | .build // {} | .[] | select((.cache.hit // false) == false and (.up_to_date // false) == false) | .seconds // 0] | add // 0) as $m
		| ([.[] | .boots // {} | .[] | ((.boots // []) | map(.seconds // 0) | add) // .seconds // 0] | add // 0) as $bt
		| $r[0] | .stages[$n] += {make_seconds: $m, boot_seconds: (($bt * 10 | round) / 10),
		    ratio_to_make_and_boots: (if ($m + $bt) > 0 then (.stages[$n].seconds / ($m + $bt) * 1000 | round) / 1000 else null end)}' \
		>"$res.new" && mv "$res.new" "$res" || rm -f "$res.new"
}
# cpu_busy: the machine's CPU time so far, every core, in clock ticks
# (/proc/stat: all but idle and iowait)
cpu_busy() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }
# check_run STAGE CACHE WHAT: make check (.ci/run, what CI runs) on a
# fresh clone of the kit's HEAD with KIT_CACHE=CACHE (WHAT says which):
# its seconds, exit, phases (its own "make check took" line) and summary
# into .stages[STAGE]; its log in $OUT/bench-STAGE.log
check_run() {
	need_cmd git
	git -C "$KIT_ROOT" rev-parse --verify -q HEAD >/dev/null ||
		die 2 "bench stage $1 clones the kit's HEAD; $KIT_ROOT is no git work tree with a commit"
	_clone=$tmp/$1/kit
	rmtree "$tmp/$1"
	mkdir -p "$tmp/$1" && git clone -q "$KIT_ROOT" "$_clone" || die 1 "bench stage $1: cannot clone $KIT_ROOT"
	la=$(cut -d' ' -f1-3 /proc/loadavg)
	progress bench "$1" "make check on a fresh clone of $(git -C "$_clone" rev-parse --short HEAD), build caches $3"
	_t0=$(date +%s)
	_cpu0=$(cpu_busy)
	# (KIT_ROOT, OUT and KIT_T0, which lib.sh exported for this script,
	# would send the clone's scripts to this kit's copies and its outputs
	# into the bench's: the clone's own, as CI has, and an OUT in it, not
	# the one a configuration file names)
	(cd "$_clone" && KIT_CACHE=$2 KIT_LOCK=$KIT_LOCK OUT=$_clone/out env -u KIT_ROOT -u KIT_T0 sh .ci/run) >"$tmp/$1.log" 2>&1
	_r=$?
	_s=$(($(date +%s) - _t0))
	_cpu=$(( ($(cpu_busy) - _cpu0) / $(getconf CLK_TCK) ))
	cp "$tmp/$1.log" "$OUT/bench-$1.log"
	if [ "$1" = check ] && [ -d "$_clone/out" ]; then
		rmtree "$OUT/check-out"
		mv "$_clone/out" "$OUT/check-out" || warn "cannot keep the check stage's output root in $OUT/check-out"
	fi
	# "make check took N s (phases: unit 375 s, trees 250 s, ...)"
	_took=$(grep '^make check took ' "$tmp/$1.log" | tail -1)
	_sum=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$tmp/$1.log" | tail -1)
	_ph=$(printf '%s\n' "$_took" | sed -n 's/.*(phases: \(.*\))$/\1/p' | tr ',' '\n' |
		sed -n 's/^ *\([^ ]*\) \([0-9]*\) s$/\1 \2/p' |
		jq -R -s 'split("\n") | map(select(. != "") | split(" ") | {key: .[0], value: (.[1] | tonumber)}) | from_entries')
	jq --arg n "$1" --argjson s "$_s" --argjson rc "$_r" --arg la "$la" --arg took "$_took" --arg sum "$_sum" \
		--arg commit "$(git -C "$_clone" rev-parse HEAD)" --argjson ph "${_ph:-null}" --arg c "$3" \
		--argjson cpu "$_cpu" --argjson cores "$(nproc)" \
		'.stages[$n] = {seconds: $s, exit: $rc, kit_commit: $commit, took_line: $took, summary: $sum,
		   phases: $ph, caches: $c, load_before: $la,
		   cpu_seconds: $cpu, cores: $cores, cores_busy: (if $s > 0 then ($cpu / $s * 100 | round) / 100 else null end)}' \
		"$res" >"$res.new" && mv "$res.new" "$res"
	publish
	rmtree "$tmp/$1"
	progress bench "$1" "${_s}s, exit $_r: ${_sum:-no summary line}; log: $OUT/bench-$1.log"
}
# overhead_kit BRANCH RUN: the kit's unpatched build of BRANCH, build
# cache off, into $o (kit_s: its seconds; kit_m: its config+make seconds;
# kit_c: whether its .config came from the configuration cache)
overhead_kit() {
	progress bench overhead "$1 ($2): unpatched build through the kit, build cache off"
	rmtree "$o/$1"
	_t0=$(date +%s.%N)
	KIT_BUILD_CACHE=0 OUT=$o sh "$KIT_ROOT/scripts/build.sh" unpatched "$1" >"$tmp/overhead.log" 2>&1 ||
		{ cp "$tmp/overhead.log" "$OUT/bench-overhead.log"; die 1 "bench stage overhead: the kit's build of $1 failed; see $OUT/bench-overhead.log"; }
	kit_s=$(since "$_t0")
	kit_m=$(jq .build.unpatched.seconds "$o/$1/result.json")
	kit_c=$(jq '.build.unpatched.config.cache.hit // false' "$o/$1/result.json")
	rm -f "$tmp/overhead.config" && cp "$o/$1/unpatched/.config" "$tmp/overhead.config" &&
		jq -r '.build.unpatched.host_series_applied[]' "$o/$1/result.json" >"$tmp/overhead.host" ||
		die 1 "bench stage overhead: the kit's build of $1 left no .config or record in $o/$1"
}
# overhead_bare BRANCH RUN: a bare make -j bzImage of BRANCH's configured
# tree: a fresh farm of the same source, the host patches the kit's last
# build applied and its .config (bare_s: its seconds)
overhead_bare() {
	load_branch "$1"
	# shellcheck disable=SC1090
	. "$KIT_ROOT/branches/host/$BR_FLAGS.flags"
	progress bench overhead "$1 ($2): the same configured tree, fresh: bare make -j$JOBS bzImage"
	bare=$o/bare
	mkdir -p "$o"
	rmtree "$bare"
	sh "$KIT_ROOT/scripts/fetch.sh" --farm "$1" "$bare" >/dev/null 2>"$tmp/bare.log" ||
		{ cp "$tmp/bare.log" "$OUT/bench-bare.log"; die 1 "bench stage overhead: no fresh tree of $1; see $OUT/bench-bare.log"; }
	for p in $(cat "$tmp/overhead.host"); do
		patch -d "$bare" -p1 -F0 -s <"$KIT_ROOT/branches/host/$p.patch" >>"$tmp/bare.log" 2>&1 ||
			{ cp "$tmp/bare.log" "$OUT/bench-bare.log"; die 1 "bench stage overhead: host patch $p does not apply to a fresh $1; see $OUT/bench-bare.log"; }
	done
	cp "$tmp/overhead.config" "$bare/.config"
	_t0=$(date +%s.%N)
	(cd "$bare" && make ARCH="$BR_ARCH" CROSS_COMPILE= CC="gcc $KIT_CC_FLAGS" -j"$JOBS" bzImage >>"$tmp/bare.log" 2>&1) ||
		{ cp "$tmp/bare.log" "$OUT/bench-bare.log"; die 1 "bench stage overhead: the bare make of $1 failed; see $OUT/bench-bare.log"; }
	bare_s=$(since "$_t0")
	rmtree "$bare"
}
publish() {
	atomic_install "$res" "$OUT/bench.json"
}
# matrix NAME [env...]: verify-all over the branches, timed
matrix() {
	_n=$1; shift
	la=$(cut -d' ' -f1-3 /proc/loadavg)
	progress bench "$_n" "verify-all over: $branches"
	_t0=$(date +%s)
	env "$@" KIT_ROOT="$kroot" OUT="$bout" KIT_BUILDS="$builds" BRANCHES="$branches" sh "$kroot/scripts/verify-all.sh" \
		>"$tmp/$_n.log" 2>&1
	_r=$?
	stage "$_n" "$tmp/$_n.log" $(($(date +%s) - _t0)) $_r
	publish
	cp "$tmp/$_n.log" "$OUT/bench-$_n.log"
	[ $_r -eq 0 ] || die 1 "bench stage $_n: verify-all exit $_r; see $OUT/bench-$_n.log"
}

kroot=$KIT_ROOT
for s in $stages; do
	case $s in
	cold)
		matrix cold KIT_SEED=0; primed="the cold stage"
		jq '.stages.cold.seeded = false' "$res" >"$res.new" && mv "$res.new" "$res" && publish
		;;
	warm)
		if [ -z "${primed:-}" ]; then
			progress bench warm "not timed: a first verify-all over $branches from the machine's build cache"
			KIT_ROOT=$kroot OUT=$bout BRANCHES=$branches sh "$kroot/scripts/verify-all.sh" >"$tmp/prime.log" 2>&1 ||
				{ cp "$tmp/prime.log" "$OUT/bench-prime.log"; die 1 "bench stage warm: the first verify-all failed; see $OUT/bench-prime.log"; }
			primed="an untimed verify-all from the machine's build cache"
		fi
		matrix warm
		jq --arg a "$primed" '.stages.warm.after = $a' "$res" >"$res.new" && mv "$res.new" "$res" && publish
		;;
	one-series)
		# a copy of the kit (tracked files), one byte more in one patch's
		# description: quilt applies it as before, its digest differs
		mkdir -p "$tmp/kit"
		(cd "$KIT_ROOT" && git ls-files -z | xargs -0 tar -cf - 2>/dev/null) | tar -xf - -C "$tmp/kit" ||
			die 1 "cannot copy the kit's tracked files"
		p=$(grep -v '^#' "$tmp/kit/backports/$sb/series" | head -1)
		[ -n "$p" ] || die 2 "backports/$sb has no series to change"
		sed -i '1a\ ' "$tmp/kit/backports/$sb/$p"
		kroot=$tmp/kit
		matrix one-series
		kroot=$KIT_ROOT
		jq --arg b "$sb" --arg p "$p" '.stages["one-series"].changed = "\($b): one byte in \($p)"' "$res" >"$res.new" &&
			mv "$res.new" "$res" && publish
		;;
	overhead)
		jq --argjson n "$oruns" '.stages.overhead = {branches: {}, runs: $n}' "$res" >"$res.new" && mv "$res.new" "$res"
		for ob in $obs; do
			la=$(cut -d' ' -f1-3 /proc/loadavg)
			o=$tmp/overhead
			# both builds on a warm page cache: the source read once
			# before either is timed (the first build read it from disk,
			# the second from memory)
			# (the files of the farms: the link source, its files shared)
			load_branch "$ob"
			sh "$KIT_ROOT/scripts/fetch.sh" --farm "$ob" "$tmp/warm-up" >/dev/null 2>&1 &&
				find "$tmp/warm-up/" -type f -exec cat {} + >/dev/null 2>&1 || :
			rmtree "$tmp/warm-up"
			# BENCH_OVERHEAD_RUNS pairs, the kit first in odd ones and the
			# bare make first in even ones (whatever the order costs falls
			# on both); each figure is the mean of its runs
			ks= ms= bs= hits=
			r=0
			rm -f "$tmp/overhead.config" "$tmp/overhead.host"
			while [ $r -lt "$oruns" ]; do
				r=$((r + 1))
				if [ $((r % 2)) = 1 ]; then
					overhead_kit "$ob" "$r/$oruns" && overhead_bare "$ob" "$r/$oruns"
				else
					overhead_bare "$ob" "$r/$oruns" && overhead_kit "$ob" "$r/$oruns"
				fi
				ks="$ks $kit_s" ms="$ms $kit_m" bs="$bs $bare_s" hits="$hits $kit_c"
				rmtree "$o"
			done
			jq --arg b "$ob" --arg k "$ks" --arg m "$ms" --arg bare "$bs" --arg c "$hits" --arg la "$la" \
				'def nums: split(" ") | map(select(. != "") | tonumber);
				 def mean: (add / length * 10 | round) / 10;
				 ($k | nums) as $k | ($m | nums) as $m | ($bare | nums) as $bare
				 | .stages.overhead.branches[$b] = {kit_build_seconds: ($k | mean), kit_config_make_seconds: ($m | mean),
				   bare_make_seconds: ($bare | mean), runs: {kit: $k, kit_config_make: $m, bare: $bare,
				     kit_config_from_cache: ($c | split(" ") | map(select(. != "")))},
				   overhead_seconds: (((($k | mean) - ($bare | mean)) * 10 | round) / 10),
				   ratio: (if ($bare | mean) > 0 then (($k | mean) / ($bare | mean) * 1000 | round) / 1000 else null end), load_before: $la}
				 | .stages.overhead.mean_ratio = ([.stages.overhead.branches[].ratio | select(. != null)]
				     | if length > 0 then (add / length * 1000 | round) / 1000 else null end)' "$res" >"$res.new" &&
				mv "$res.new" "$res"
			publish
			progress bench overhead "$ob: kit$ks s (config+make$ms s), bare make$bs s"
		done
		;;
	check)
		# (the cache beside the machine's: its entries then move there by
		# a rename, never a copy other runs could see half made)
		mkdir -p "$KIT_CACHE" && ccache=$(mktemp -d "$KIT_CACHE/.bench-check.XXXXXX") ||
			die 1 "bench stage check: cannot make a cache folder in $KIT_CACHE"
		trap 'rmtree "$tmp" "$ccache"' EXIT
		for d in src apt git; do
			[ ! -d "$KIT_CACHE/$d" ] || ln -s "$KIT_CACHE/$d" "$ccache/$d"
		done
		check_run check "$ccache" "empty: builds, configs, cross, spatch (sources: the machine's)"
		# what it built, into the machine's cache where the key is absent
		# (an entry is a folder published whole: moved by one rename)
		for d in builds configs cross spatch; do
			[ -d "$ccache/$d" ] || continue
			mkdir -p "$KIT_CACHE/$d"
			for e in "$ccache/$d"/*; do
				[ -d "$e" ] && [ ! -e "$KIT_CACHE/$d/${e##*/}" ] || continue
				_m=$(stat -c %a "$e")
				chmod u+w "$e" 2>/dev/null
				mv -n -T "$e" "$KIT_CACHE/$d/${e##*/}" 2>/dev/null || :
				# (its mode back only where it moved: an entry another
				# run published meanwhile is that run's)
				[ -e "$e" ] || chmod "$_m" "$KIT_CACHE/$d/${e##*/}" 2>/dev/null || :
			done
		done
		rmtree "$ccache"
		[ $_r -eq 0 ] || die 1 "bench stage check: make check exit $_r; see $OUT/bench-check.log"
		;;
	check-warm)
		check_run check-warm "$KIT_CACHE" "the machine's (as an earlier make check or check stage left them)"
		[ $_r -eq 0 ] || die 1 "bench stage check-warm: make check exit $_r; see $OUT/bench-check-warm.log"
		;;
	esac
done
progress bench done "figures in $OUT/bench.json; make report puts them into docs/results.md"
