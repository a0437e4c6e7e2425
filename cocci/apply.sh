#!/bin/sh
# cocci/apply.sh <rule.cocci> <tree> [--report]
#
# Run one semantic patch on a kernel tree without touching the tree.
#
#   patch mode (default): print on stdout the unified diff the rule makes,
#     paths a/<file> b/<file> relative to the tree root, files in the order
#     of the rule's "// Files:" line, no timestamps: the same tree gives the
#     same bytes.  On a tree with nothing left to change: no output, exit 0,
#     "already fixed" on stderr.
#   --report: print one line per unfixed site ("<file>:<line>:<cols>: <msg>",
#     relative paths, sorted) from the rule's report mode; nothing (and
#     "already fixed" on stderr) on a fixed tree.  Exit 0 either way.
#
# Either way it fails (exit 1, one line on stderr naming file and function)
# when spatch could not parse a function the rule must change (spatch skips
# those silently), or when the sites changed (patch) or reported (--report)
# differ from the sites expected.  Sites are counted from the tree itself,
# not by spatch: a function of the rule's "// Files:" whose body matches the
# rule's "// Sites:" regex and not its "// Fixed:" regex (POSIX ERE, comments
# ignored) is one site that must change.  A rule with "// Match: name" (a
# rename: the body stays as it was) has its Sites and Fixed matched against
# each definition's name instead; its functions are then paired by their
# order in the file, every site must be renamed to a name Fixed matches, and
# no definition may appear or vanish.  In patch mode it also checks that
# a second run on the result changes nothing and that report mode is silent
# on it.  Exit 2: bad arguments or a spatch other than the rule's
# "// Requires:" version.  The spatch version used goes to stderr.
#
# Never runs spatch on the tree itself: the files in scope are copied to a
# private temporary directory first.
set -eu

KIT_ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$KIT_ROOT/scripts/lib.sh"
export LC_ALL=C

usage="usage: cocci/apply.sh <rule.cocci> <tree> [--report]"
[ $# -ge 2 ] && [ $# -le 3 ] || die 2 "$usage"
rule=$1 tree=$2 mode=patch
if [ $# -eq 3 ]; then
	[ "$3" = --report ] || die 2 "unknown option '$3'; $usage"
	mode=report
fi
[ -r "$rule" ] || die 2 "rule '$rule' not found (rules live in backports/fixes/<fix>/cocci/*.cocci)"
[ -d "$tree" ] || die 2 "tree '$tree' is not a directory"
rule=$(cd "$(dirname "$rule")" && pwd)/$(basename "$rule")
tree=$(cd "$tree" && pwd)
name=$(basename "$rule" .cocci)
need_cmd spatch diff awk cmp

# --- the rule's header ---------------------------------------------------
hdr() { sed -n "s|^// $1:[[:space:]]*||p" "$rule" | head -1; }
files=$(hdr Files)
sites_re=$(hdr Sites)
fixed_re=$(hdr Fixed)
requires=$(hdr Requires)
options=$(hdr Options)
match=$(hdr Match)
[ -n "$files" ] || die 2 "$rule: no '// Files:' header line; say which files the rule may change"
[ -n "$sites_re" ] || die 2 "$rule: no '// Sites:' header line; say what marks a function the rule must change"
[ -n "$requires" ] || die 2 "$rule: no '// Requires:' header line; pin the spatch version"
case ${match:=body} in body | name) ;; *)
	die 2 "$rule: '// Match: $match' is neither body (Sites/Fixed match a function's body, the default) nor name (they match its name: a rename)" ;;
esac
[ "$match" = body ] || [ -n "$fixed_re" ] ||
	die 2 "$rule: '// Match: name' needs a '// Fixed:' line: the name each site must be renamed to"

# Options naming kit files (cocci/macros.h) are relative to the kit root.
# Each is kept in single quotes, for eval: the kit's path may have a space.
opts=
for o in $options; do
	case $o in cocci/*) o=$KIT_ROOT/$o ;; esac
	opts="$opts '$(printf '%s' "$o" | sed "s/'/'\\\\''/g")'"
done

# --- the pinned spatch -----------------------------------------------------
ver=$(spatch --version 2>/dev/null | sed -n 's/^spatch version \([^ ]*\).*/\1/p' | head -1)
ocaml=$(spatch --version 2>/dev/null | sed -n 's/.*OCaml version \([^ ]*\).*/\1/p' | head -1)
echo "apply.sh: $name: spatch $ver (OCaml $ocaml), rule requires $requires" >&2
[ "$ver" = "$requires" ] ||
	die 2 "$name: spatch $ver is installed but the rule is pinned to $requires; install Coccinelle $requires (Debian: apt-get install coccinelle)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cocci-apply.XXXXXX") || die 1 "cannot create a temporary directory"
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

# The spatch cache: one spatch run is a function of spatch itself, its
# arguments and the bytes of every file they name (the rule, the macro
# file, the inputs: --no-includes reads nothing else), so its output and
# the files it rewrote are kept in KIT_CACHE/spatch/<key>/ and a run with
# the same key is not run again.  An entry is written once (one rename),
# checked against its own sha256sums before it is served, and removed when
# it does not match; a failed run is never stored.  KIT_SPATCH_CACHE=0
# runs every time.  What each run was is counted on stderr at the end.
spatch_cache=${KIT_SPATCH_CACHE_DIR:-$KIT_CACHE/spatch}
# spatch itself: its version text, its binary, its standard.iso and
# standard.h, and the python3 its rules' scripts run in
spatch_id=$({
	spatch --version 2>/dev/null
	cat "$(command -v spatch)" /usr/lib/coccinelle/standard.iso /usr/lib/coccinelle/standard.h 2>/dev/null
	python3 --version 2>&1
} | sha256sum | cut -d' ' -f1)
hits=0 runs=0
# spatch_key <dir> <args...>: the key of one run
spatch_key() {
	_kd=$1; shift
	{
		echo "spatch-run 2 $spatch_id"
		eval "set -- --very-quiet $opts \"\$@\""
		# a file of the run's folder by its name (spatch's output names
		# it) and content; any other file (the rule, the macro file) by
		# its content alone: the same kit in another folder (each CI
		# clone) is the same run
		for _a; do
			if [ -f "$_kd/$_a" ]; then printf 'arg %s\n' "$_a"; cat "$_kd/$_a"; printf '\nend %s\n' "$_a"
			elif [ -f "$_a" ]; then printf 'arg (a file)\n'; cat "$_a"; printf '\nend\n'
			else printf 'arg %s\n' "$_a"; fi
		done
	} | sha256sum | cut -d' ' -f1
}
spatch_run() {
	# spatch_run <dir> <spatch args...>: run in <dir> (or served from the
	# cache), stdout as spatch's; keep stderr for errors
	_d=$1; shift
	_key= _e=
	if [ "${KIT_SPATCH_CACHE:-1}" = 1 ]; then
		_key=$(spatch_key "$_d" "$@") _e=$spatch_cache/$_key
		if [ -r "$_e/sha256sums" ]; then
			if (cd "$_e" && sha256sum -c --quiet sha256sums) >/dev/null 2>&1; then
				for _a; do
					[ ! -f "$_e/files/$_a" ] || cp "$_e/files/$_a" "$_d/$_a" || die 1 "$name: cannot copy $_a from the spatch cache"
				done
				cat "$_e/stdout"
				hits=$((hits + 1))
				return 0
			fi
			echo "apply.sh: warning: the spatch cache entry $_e does not match its checksums; removing it and running spatch" >&2
			chmod -R u+w "$_e" 2>/dev/null; rm -rf "$_e"
		fi
	fi
	runs=$((runs + 1))
	# what a killed store left (its pid is the name's last part)
	for _o in "$spatch_cache"/.tmp.*; do
		[ -e "$_o" ] && ! kill -0 "${_o##*.}" 2>/dev/null && rm -rf "$_o"
	done
	if ! (cd "$_d" && eval "spatch --very-quiet $opts \"\$@\"") >"$tmp/spatch.out" 2>"$tmp/spatch.err"; then
		die 1 "$name: spatch failed: $(grep -v '^warning' "$tmp/spatch.err" | tail -1)"
	fi
	cat "$tmp/spatch.out"
	[ -n "$_key" ] || return 0
	# store: the output and every input file as the run left it
	_t=$spatch_cache/.tmp.$_key.$$
	rm -rf "$_t"
	if mkdir -p "$_t/files" && cp "$tmp/spatch.out" "$_t/stdout" && (
		for _a; do
			[ -f "$_d/$_a" ] || continue
			mkdir -p "$_t/files/$(dirname "$_a")" && cp "$_d/$_a" "$_t/files/$_a" || exit 1
		done
		cd "$_t" && find . -type f ! -name sha256sums | LC_ALL=C sort | sed 's|^\./||' | xargs sha256sum >sha256sums
	) && mv -T "$_t" "$_e" 2>/dev/null; then :
	else rm -rf "$_t"; fi
}
# at the end: how many spatch runs were served from the cache
trap 'rm -rf "$tmp"; [ $((hits + runs)) -eq 0 ] || echo "apply.sh: $name: spatch runs: $runs run, $hits from the cache ($spatch_cache)" >&2' EXIT

# funcs <dir> <file>: "name<TAB>site|fixed|-" for every function definition
# of <file>, in file order (kernel style: header at column 0, body from "{"
# to "}" at column 0); with FUNC_DUMP=<dir> also writes each body to
# <dir>/<name>.  Match: name judges the name instead of the body.
funcs() {
	SITES=$sites_re FIXED=$fixed_re MATCH=$match awk '
	function done_fn() {
		if (fn == "") return
		# by name: a site keeps the old name, a fixed one has the new
		if (ENVIRON["MATCH"] == "name") { fix = (fn ~ ENVIRON["FIXED"]); hit = fix || fn ~ ENVIRON["SITES"] }
		st = "-"
		if (hit) st = "site"
		if (hit && ENVIRON["FIXED"] != "" && fix) st = "fixed"
		print fn "\t" st
		fn = ""
	}
	{
		line = $0
		# drop comments, keeping the code around them
		if (incom) {
			if (index(line, "*/")) { sub(/^.*\*\//, "", line); incom = 0 }
			else line = ""
		}
		gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, "", line)
		if (index(line, "/*")) { sub(/\/\*.*$/, "", line); incom = 1 }
		sub(/\/\/.*$/, "", line)
	}
	!inbody && $0 ~ /^[A-Za-z_]/ && $0 !~ /^(typedef|struct|union|enum|extern)[^A-Za-z0-9_]/ && index(line, "(") {
		s = line; sub(/\(.*$/, "", s); sub(/[^A-Za-z0-9_]+$/, "", s)
		n = split(s, w, /[^A-Za-z0-9_]+/)
		if (n > 0) cand = w[n]
	}
	!inbody && /^\{/ { inbody = 1; fn = cand; hit = 0; fix = 0 }
	inbody {
		if (line ~ ENVIRON["SITES"]) hit = 1
		if (ENVIRON["FIXED"] != "" && line ~ ENVIRON["FIXED"]) fix = 1
		if (ENVIRON["FUNC_DUMP"] != "") print $0 >> (ENVIRON["FUNC_DUMP"] "/" fn)
	}
	inbody && /^\}/ { done_fn(); inbody = 0 }
	' "$1/$2"
}

# --- the sites the tree has -------------------------------------------------
mkdir -p "$tmp/a" "$tmp/b"
present= expected=
for f in $files; do
	[ -f "$tree/$f" ] || continue
	present="$present $f"
	mkdir -p "$tmp/a/$(dirname "$f")" "$tmp/b/$(dirname "$f")"
	cp "$tree/$f" "$tmp/a/$f"
	cp "$tree/$f" "$tmp/b/$f"
	for fn in $(funcs "$tmp/a" "$f" | awk -F'\t' '$2 == "site" { print $1 }'); do
		expected="$expected $f:$fn"
	done
done
[ -n "$present" ] || die 1 "$name: none of the rule's files ($files) is in $tree; is it a kernel tree?"
nexp=$(echo $expected | wc -w)

# --- every site must have parsed ---------------------------------------------
if [ "$nexp" -gt 0 ]; then
	# shellcheck disable=SC2046
	spatch_run "$tmp/a" --sp-file "$KIT_ROOT/cocci/tools/functions.cocci" \
		$(for s in $expected; do echo "${s%%:*}"; done | sort -u) >"$tmp/parsed"
	for s in $expected; do
		f=${s%%:*} fn=${s#*:}
		grep -qx "$f	$fn" "$tmp/parsed" ||
			die 1 "$name: $f: $fn() did not parse with spatch $ver, so the rule would skip it silently; run 'spatch --parse-c --macro-file cocci/macros.h $f' and add what it needs to cocci/macros.h"
	done
fi

if [ "$mode" = report ]; then
	# shellcheck disable=SC2086
	spatch_run "$tmp/a" -D report --sp-file "$rule" $present >"$tmp/report"
	sort -t: -k1,1 -k2,2n "$tmp/report" >"$tmp/report.sorted"
	nrep=$(grep -c . "$tmp/report.sorted" || true)
	if [ "$nrep" -ne "$nexp" ]; then
		for s in $expected; do
			f=${s%%:*} fn=${s#*:}
			grep -q "^$f:.* $fn()" "$tmp/report.sorted" ||
				die 1 "$name: $f: $fn() needs the change but report mode did not flag it ($nrep reported, $nexp expected)"
		done
		die 1 "$name: report mode flagged $nrep sites, the tree has $nexp:$(echo $expected | sed 's/^/ /')"
	fi
	if [ "$nexp" -eq 0 ]; then
		echo "apply.sh: $name: already fixed ($(echo $present | wc -w) files checked)" >&2
		exit 0
	fi
	cat "$tmp/report.sorted"
	echo "apply.sh: $name: $nexp unfixed sites:$(echo $expected | sed 's/^/ /')" >&2
	exit 0
fi

# --- patch mode ---------------------------------------------------------------
# shellcheck disable=SC2086
spatch_run "$tmp/b" -D patch --in-place --sp-file "$rule" $present >/dev/null

changed=
for f in $present; do
	cmp -s "$tmp/a/$f" "$tmp/b/$f" && continue
	da=$tmp/fa/$f db=$tmp/fb/$f
	mkdir -p "$da" "$db"
	FUNC_DUMP=$da funcs "$tmp/a" "$f" >"$da.list"
	FUNC_DUMP=$db funcs "$tmp/b" "$f" >"$db.list"
	if [ "$match" = body ]; then
		for fn in $( (ls "$da"; ls "$db") | sort -u); do
			cmp -s "$da/$fn" "$db/$fn" 2>/dev/null || changed="$changed $f:$fn"
		done
		continue
	fi
	# a rename: the n-th definition before is the n-th after
	[ "$(wc -l <"$da.list")" -eq "$(wc -l <"$db.list")" ] ||
		die 1 "$name: $f: the rule added or removed a function definition ($(wc -l <"$da.list") before, $(wc -l <"$db.list") after); a rename keeps every one"
	left=$(awk -F'\t' '$2 == "site" { printf " %s", $1 }' "$db.list")
	[ -z "$left" ] ||
		die 1 "$name: $f:$left still defined under the old name after the rule (Sites: $sites_re); the rule does not know this shape"
	for fn in $(paste "$da.list" "$db.list" | awk -F'\t' '{ print $1 "/" $3 }'); do
		o=${fn%/*} n=${fn#*/}
		if [ "$o" != "$n" ]; then
			case $(grep -m1 "^$n	" "$db.list" | cut -f2) in fixed) ;; *)
				die 1 "$name: $f: $o() was renamed $n(), which the rule's Fixed ($fixed_re) does not match" ;;
			esac
			cmp -s "$da/$o" "$db/$n" ||
				die 1 "$name: $f: $o() was renamed $n() and its body changed too; a Match: name rule only renames"
			changed="$changed $f:$o"
		elif ! cmp -s "$da/$o" "$db/$n"; then
			changed="$changed $f:$o"
		fi
	done
done

for s in $expected; do
	case " $changed " in *" $s "*) ;; *)
		die 1 "$name: ${s%%:*}: ${s#*:}() must change but the rule left it as it was ($(echo $changed | wc -w) of $nexp sites changed); the rule does not know this shape" ;;
	esac
done
for s in $changed; do
	case " $expected " in *" $s "*) ;; *)
		die 1 "$name: ${s%%:*}: ${s#*:}() changed but is not a site of this rule (sites:$(echo $expected | sed 's/^/ /'))" ;;
	esac
done

if [ "$nexp" -eq 0 ]; then
	echo "apply.sh: $name: already fixed ($(echo $present | wc -w) files checked)" >&2
	exit 0
fi

# A second run on the result changes nothing, and report mode is silent.
# The second run is the very run (arguments and files) that apply.sh on
# the patched tree makes (cocci/tests/trees.t, a series made on a tree
# that has the change): from the spatch cache there.
mkdir -p "$tmp/c"
(cd "$tmp/b" && cp -R . "$tmp/c")
# shellcheck disable=SC2086
spatch_run "$tmp/c" -D patch --in-place --sp-file "$rule" $present >/dev/null
for f in $present; do
	cmp -s "$tmp/b/$f" "$tmp/c/$f" ||
		die 1 "$name: a second run on the result changes $f again; the rule is not idempotent"
done
# shellcheck disable=SC2086
spatch_run "$tmp/b" -D report --sp-file "$rule" $present >"$tmp/again"
[ ! -s "$tmp/again" ] ||
	die 1 "$name: report mode still flags the result: $(head -1 "$tmp/again")"

for f in $present; do
	cmp -s "$tmp/a/$f" "$tmp/b/$f" && continue
	(cd "$tmp" && diff -u -p --label "a/$f" --label "b/$f" "a/$f" "b/$f") || [ $? -eq 1 ] ||
		die 1 "$name: diff failed on $f"
done
echo "apply.sh: $name: $nexp sites changed:$(echo $expected | sed 's/^/ /')" >&2
