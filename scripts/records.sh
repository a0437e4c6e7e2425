#!/bin/sh
# records.sh: machine-readable fix records for each fix the kit carries
# (every fix folder of backports/fixes/ that a change of the series
# references), made from the result files of one run
# (OUT/<branch>/result.json) and the kit's own facts
# (backports/fixes/<CVE>/record.json), written to $OUT/records/:
#
#   <CVE>.osv.json   an OSV record (OSV schema 1.7.5, id x_KIT-<CVE>: "x_"
#                    is the schema's prefix for a database OSV.dev does not
#                    aggregate)
#   <CVE>.yml        a cip-kernel-sec issue file (issues/CVE-*.yml), its
#                    fixed-by under the branch names that project's tooling
#                    uses: mainline, stable/<version>, kit/<branch>
#   kernel-sec-branches.yml
#                    one for all fixes: cip-kernel-sec's definitions (its
#                    conf/branches.yml layout) of the kit/<branch> and
#                    stable/<version> names the issue files use, for its
#                    tooling to load (~/.config/kernel-sec/branches.yml)
#
# What each says, and where it comes from: scripts/records/README.md.
# With STABLE_GIT (lib.sh; scripts/stable-src.sh), the OSV record also
# has a GIT range on the stable repository whose fixed events are the
# stable commits that carry the fix, each with its first release, read
# from those sources at run time, and the YAML lists them under the stable
# branch of that release; credits name the fix's upstream authors.
# What a branch is for a CVE is its gate's word (OUT/<branch>/gate.json,
# scripts/gate.sh: .fixes.<CVE>.status): "fixed" only when the branch's
# gate passed as a whole (every kernel the run's manifest required, every
# fix on each), never on one fix's entries while another failed; and only
# for the series that run verified (its sha256 in result.json must match
# the series now); each record carries the patches of the changes whose
# References: names its CVE; their patch ids come from the mails of `make
# mbox` in OUT/<b>/mbox/ when they are there (each checked against the
# series' patch), else from the quilt patches.
#
# Both records are checked before they are installed: the OSV one against
# the OSV JSON schema (scripts/records/osv-schema.json, Debian's
# python3-jsonschema), the YAML parsed by a YAML parser (Debian's
# python3-yaml), held to cip-kernel-sec's field rules
# (scripts/records/cip-issue.schema.json) and compared with what was meant.
#
#   records.sh                          write the records
#   records.sh --check OSV YAML [B...]  check two records; each B must be named
#
# Exit 0 written (or, --check, valid); 1 a result file or gate record
# cannot be read or is not one the kit wrote (scripts/result-check.sh:
# named, with the field), a claim cannot be backed (series or mbox
# changed since the run), a fix of the series has no
# backports/fixes/<CVE>/record.json, a FIX's Upstream: line is no change
# of that fix, or a record is not valid (the
# records in OUT are left as they were);
# 2 nothing to record (no result file under OUT), a tool is missing, or a
# STABLE_GIT word begins with '-' or is no git repository.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/stable-src.sh"
. "$(dirname "$0")/result-check.sh"
# every folder of backports/fixes/ is a fix with its FIX, or nothing runs
# (lib.sh kit_fixes: called here, not in $(...), so that its refusal stops us)
kit_fixes >/dev/null
need_cmd jq git
rec=$KIT_ROOT/scripts/records
# Debian's python3 (deps.sh installs python3-jsonschema and python3-yaml
# for it); a python3 earlier on PATH (a pyenv, say) may lack them.
PY=${KIT_PYTHON:-/usr/bin/python3}
JSONSCHEMA=${KIT_JSONSCHEMA:-/usr/bin/jsonschema}

need_validators() {
	[ -x "$JSONSCHEMA" ] ||
		die 2 "$JSONSCHEMA is not installed (the OSV record is checked with it); run 'make deps' (apt-get install python3-jsonschema)"
	"$PY" -c 'import yaml' 2>/dev/null ||
		die 2 "$PY cannot import yaml (the YAML record is parsed with it); run 'make deps' (apt-get install python3-yaml)"
}

# yaml_to_json FILE: the document a YAML parser reads in FILE, as JSON.
yaml_to_json() {
	"$PY" -c 'import json, sys, yaml
with open(sys.argv[1], encoding="utf-8") as f:
    json.dump(yaml.safe_load(f), sys.stdout, default=str)' "$1"
}

# check_records OSV YAML [BRANCH...]: prints each problem on a line of its
# own; returns 1 when there is one.
check_records() {
	_co=$1 _cy=$2; shift 2
	_cbad=0
	_ce=$(mktemp "${TMPDIR:-/tmp}/records-check.XXXXXX")
	if ! "$JSONSCHEMA" -i "$_co" "$rec/osv-schema.json" >"$_ce" 2>&1; then
		echo "$_co does not validate against the OSV schema: $(tr '\n' ' ' <"$_ce" | cut -c1-400)"; _cbad=1
	fi
	if ! yaml_to_json "$_cy" >"$_ce.json" 2>"$_ce"; then
		echo "$_cy does not parse as YAML: $(tail -1 "$_ce")"; _cbad=1
	elif ! "$JSONSCHEMA" -i "$_ce.json" "$rec/cip-issue.schema.json" >"$_ce" 2>&1; then
		echo "$_cy breaks cip-kernel-sec's field rules: $(tr '\n' ' ' <"$_ce" | cut -c1-400)"; _cbad=1
	else
		for _cb; do
			jq -e --arg k "kit/$_cb" '.comments[$k] | type == "string"' "$_ce.json" >/dev/null 2>&1 ||
				{ echo "$_cy does not name branch $_cb (no comments: kit/$_cb)"; _cbad=1; }
		done
	fi
	rm -f "$_ce" "$_ce.json"
	return $_cbad
}

if [ "${1:-}" = --check ]; then
	[ $# -ge 3 ] || die 2 "usage: records.sh --check OSV.json ISSUE.yml [BRANCH...]"
	shift
	need_validators
	for f in "$1" "$2"; do [ -r "$f" ] || die 2 "$f cannot be read"; done
	check_records "$@" >&2 || die 1 "the records are not valid (see above)"
	exit 0
fi
[ $# -eq 0 ] || die 2 "unknown argument '$1'; usage: records.sh, or records.sh --check OSV YAML [BRANCH...]"
need_validators
check_stable_git
dst=$OUT/records
# the cip-kernel-sec branch definitions, beside the records
kbf=kernel-sec-branches.yml

# The same refusal as report.sh: every result file must be one JSON object.
found=
for b in $(list_branches); do
	r=$OUT/$b/result.json
	[ -e "$r" ] || continue
	[ "$(jq -s 'length == 1 and (.[0] | type) == "object"' "$r" 2>/dev/null)" = true ] ||
		die 1 "$r is not a readable result file (truncated or not JSON); rerun 'make verify BRANCH=$b' (or remove it); $dst left as it was"
	found="$found $b"
done
[ -n "$found" ] ||
	die 2 "nothing to record: no <branch>/result.json under OUT=$OUT; run 'make verify-all' (or set OUT= to a run's output root); $dst left as it was"
# ... one the kit wrote, and its gate (result.json's and gate.json) agrees
# with its verdicts: a gate "pass" over a patched VULNERABLE never becomes
# "fixed" here (scripts/result-check.sh)
records_refuse "$dst left as it was" "$OUT"

work=$(mktemp -d "${TMPDIR:-/tmp}/records.XXXXXX")
trap 'rmtree "$work"' EXIT

# Every upstream change of the series, from each fix's changes/*/INFO (its
# header lines; References: names the fixes it belongs to) ...
fixes_dir=$(kit_fixes_dir)
for c in $(kit_changes); do
	sed '/^$/q' "$(change_dir "$c")/INFO" | jq -R -s --arg c "$c" '
	  [split("\n")[] | capture("^(?<key>[A-Za-z-]+): (?<value>.*)$")] | from_entries
	  | {change: $c, letter: .Letter, upstream: .Upstream, subject: .Subject, mainline: .Mainline,
	     fix: (.References // "" | split(" ") | map(select(. != "")))}'
done | jq -s . >"$work/all-changes.json"
# ... the fixes the kit carries: every References: value of the series
# (one record each; a record.json no change references makes none) ...
fixes=$(jq -r '[.[].fix[]] | unique[]' "$work/all-changes.json")
[ -n "$fixes" ] || die 1 "no change of backports/fixes/*/changes/ has a References: line; nothing names a fix to record"
# ... and per fix, its changes with the role the kit gives each
# (backports/fixes/<CVE>/record.json).  The other fixes' patches are in the series the run
# verified but not in this fix's records.
for cve in $fixes; do
	[ -r "$fixes_dir/$cve/record.json" ] ||
		die 1 "the series carries $cve (References: of $(jq -r --arg c "$cve" '[.[] | select(.fix | index($c)) | .change] | join(", ")' "$work/all-changes.json")) but backports/fixes/$cve/record.json does not exist; write it (scripts/records/README.md says what it holds)"
	jq --slurpfile f "$fixes_dir/$cve/record.json" --arg cve "$cve" \
		'map(select(.fix | index($f[0].cve)) | del(.fix) + $f[0].roles[.letter])
		 | if $f[0].cve == $cve and length > 0 and all(.role != null and (.upstream | test("^[0-9a-f]{40}$"))) then . else
		  error("a change without a 40-hex Upstream: line or a role in backports/fixes/\($cve)/record.json, or its cve is not \($cve)") end' \
		"$work/all-changes.json" >"$work/changes.$cve.json"
done

# status <gate> <fix>: what the run says of the branch for that fix, as
# its gate decided it ("not verified": no gate record), in the gate's
# words: its summary where it has one (an UNREACHABLE fix is "flaw
# present, not reachable; fix applied", or "not affected" where the tree
# has none of its code: docs/design.md "The gate record"), else its status
# (a gate record older than the summary says "unreachable" alone).
status() {
	[ -r "$1" ] || { echo "not verified"; return 0; }
	jq -r --arg c "$2" '.fixes[$c] | if . == null then "not verified"
	  else .summary // (if .status == "unreachable" then "flaw present, not reachable" else .status end) end' "$1"
}

# patches <branch> <result>: the verified series as JSON lines, one per
# patch: {n, file, upstream, patch_id}, and sets pid_src.  Dies when the
# series or its mails are not the ones the run verified.
patches() {
	_b=$1 _r=$2
	_sd=$(jq -r '.provenance.series_dir // empty' "$_r")
	[ -n "$_sd" ] || _sd=$KIT_ROOT/backports/$_b
	_want=$(jq -r '.provenance.series_sha256 // "none"' "$_r")
	_have=$(series_digest "$_sd")
	[ "$_want" = "$_have" ] ||
		die 1 "[$_b] $_r verified the series with sha256 $_want, but $_sd now has $_have; rerun 'make verify BRANCH=$_b' before making records; $dst left as it was"
	_mb=$OUT/$_b/mbox
	pid_src=quilt
	[ -d "$_mb" ] && pid_src=mbox
	_n=0
	for _p in $(grep -v '^#' "$_sd/series" | grep -v '^[[:space:]]*$'); do
		_n=$((_n + 1))
		_up=$(sed -n 's/^Git-commit: \([0-9a-f]\{40\}\)$/\1/p' "$_sd/$_p" | head -1)
		[ -n "$_up" ] || die 1 "[$_b] $_sd/$_p has no 'Git-commit: <40-hex id>' line; regenerate it with 'make series BRANCH=$_b'"
		_id=$(git patch-id --stable <"$_sd/$_p" | cut -d' ' -f1)
		[ -n "$_id" ] || die 1 "[$_b] $_sd/$_p has no diff git patch-id can read"
		if [ $pid_src = mbox ]; then
			_m=$_mb/$(printf '%04d' $_n)-$_p
			[ -r "$_m" ] ||
				die 1 "[$_b] $_mb has no mail $(printf '%04d' $_n)-$_p for the verified series; rerun 'make mbox BRANCH=$_b' (or remove $_mb); $dst left as it was"
			_mid=$(git patch-id --stable <"$_m" | cut -d' ' -f1)
			[ "$_mid" = "$_id" ] ||
				die 1 "[$_b] mail $_m does not carry $_p of the verified series (patch-id $_mid, not $_id); rerun 'make mbox BRANCH=$_b'; $dst left as it was"
		fi
		jq -n -c --argjson n $_n --arg f "$_p" --arg u "$_up" --arg i "$_id" \
			'{n: $n, file: $f, upstream: $u, patch_id: $i}'
	done
	[ $_n -gt 0 ] || die 1 "[$_b] $_sd/series names no patch"
	[ $pid_src = mbox ] || return 0
	_k=0
	# (make mbox's 0000-cover-letter.patch carries no patch)
	for _m in "$_mb"/[0-9][0-9][0-9][0-9]-*; do
		case ${_m##*/} in 0000-cover-letter.patch) continue ;; esac
		[ -e "$_m" ] && _k=$((_k + 1))
	done
	[ $_k -eq $_n ] ||
		die 1 "[$_b] $_mb holds $_k mails, the verified series $_n patches; rerun 'make mbox BRANCH=$_b'; $dst left as it was"
}

# One JSON object per branch and fix: the evidence the records carry.
for b in $found; do
	r=$OUT/$b/result.json
	load_branch "$b"
	pid_src=
	sts='' anyfixed=''
	g=$OUT/$b/gate.json
	[ ! -e "$g" ] || jq -e '.status == "pass" or .status == "fail"' "$g" >/dev/null 2>&1 ||
		die 1 "$g is not a readable gate record (truncated or not JSON); rerun 'make verify BRANCH=$b' (or remove it); $dst left as it was"
	for cve in $fixes; do
		st=$(status "$g" "$cve")
		sts="$sts${sts:+, }$cve $st"
		[ "$st" != fixed ] || anyfixed=1
		printf '%s\n' "$st" >"$work/status.$b.$cve"
	done
	: >"$work/patches.$b"
	if [ -n "$anyfixed" ]; then
		patches "$b" "$r" >"$work/patches.$b"
	fi
	# the series the run pushed, named without this machine's paths
	sdir=$(jq -r --arg b "$b" '.provenance as $p | ($p.series_dir // "") as $d
	  | if $p.series_from == "SERIES_DIR" or ($p.series_from == null and $d != "") then "SERIES_DIR=" + ($d | split("/") | .[-1])
	    elif $d == "" or ($d | endswith("/backports/" + $b)) then "backports/" + $b
	    elif $p.series_from == "tree-series" or ($d | endswith("/tree-series")) then "tree-series (made for TREE=)"
	    else "the plan'"'"'s series (the changes the tree missed)" end' "$r")
	jq -e -s --slurpfile a "$work/all-changes.json" 'map(.upstream) - ($a[0] | map(.upstream)) | length == 0' \
		"$work/patches.$b" >/dev/null ||
		die 1 "[$b] a patch of the series names an upstream commit none of backports/fixes/*/changes/*/INFO has"
	for cve in $fixes; do
		st=$(cat "$work/status.$b.$cve")
		# the series only where this fix is claimed
		pf=/dev/null
		[ "$st" != fixed ] || pf=$work/patches.$b
		gj=$g; [ -r "$gj" ] || gj=/dev/null
		jq -s --slurpfile r "$r" --slurpfile gg "$gj" --slurpfile ch "$work/changes.$cve.json" --arg b "$b" --arg st "$st" \
			--arg ver "$BR_VERSION" --arg src "$pid_src" --arg sdir "$sdir" \
			--arg cve "$cve" '
		  ($r[0]) as $x | ($gg[0] // {}) as $g | ($ch[0] | map({key: .upstream, value: .}) | from_entries) as $c
		  | def boot(k): ($g.kernels // {})[k] as $o | if $o == null then null
		      elif ($o.booted | not) then {verdict: "none", expected: $o.expected, tests: null, seconds: null, signature: $o.why}
		      else ($o.fixes[$cve] // {verdict: "none", tests: null, expected: null,
		              signature: "this boot has no verdict for \($cve)"}) as $v
		        | {verdict: $v.verdict, expected: $v.expected,
		           tests: ($v.tests // $o.tests), seconds: $o.seconds, signature: $v.signature} end;
		  {branch: $b, base_version: $ver, base_commit: ($x.base_commit // null), status: $st,
		   gate: ($g.status // "not run"), why: ($g.fixes[$cve].why // null),
		   verdicts: {unpatched: boot("unpatched"), patched: boot("patched")},
		   kit_commit: ($x.provenance.kit_commit // null), recorded_at: ($x.provenance.recorded_at // null),
		   series: (if length == 0 then null else
		     {source: $sdir, sha256: $x.provenance.series_sha256, patch_ids_from: $src,
		      patches: map(select($c[.upstream] != null) | . + {letter: $c[.upstream].letter,
		                        subject: $c[.upstream].subject, role: $c[.upstream].role})} end)}' \
			"$pf" >"$work/branch.$b.$cve.json"
	done
	progress "$b" records "$sts${pid_src:+ (patch ids from $pid_src)}"
done

# The stable commits that carry each fix, read at run time from the
# STABLE_GIT sources (scripts/stable-src.sh): every commit there that is
# the stable form of a change with role "fix", with the first release it
# is in.  The OSV range on the stable repository lists each as a fixed
# event.  Its repo: the source's URL when STABLE_GIT gives one, else
# kernel.org's linux-stable, whose ids every clone of it keeps.
STABLE_REPO_DEFAULT=https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git
# every id asked below, searched for in one walk per source (stable-src.sh)
STABLE_IDS=$(for cve in $fixes; do jq -r '.[] | select(.role == "fix") | .upstream' "$work/changes.$cve.json"; done | sort -u | tr '\n' ' ')
for cve in $fixes; do
	jq -r '.[] | select(.role == "fix") | "\(.letter) \(.upstream)"' "$work/changes.$cve.json" |
	while read -r _l _u; do
		stable_commits "$_u" | while read -r _c _rel _how _src; do
			_repo=$STABLE_REPO_DEFAULT
			case $_src in *://* | *@*:*) _repo=$_src ;; esac
			jq -n -c --arg l "$_l" --arg u "$_u" --arg c "$_c" --arg rel "$_rel" --arg how "$_how" --arg repo "$_repo" \
				'{letter: $l, upstream: $u, commit: $c, repo: $repo,
				  release: (if $rel == "-" then null else ($rel | ltrimstr("v")) end),
				  release_from: (if $how == "-" then null elif $how == "tag" then "tag" else "Linux <version> release commit" end)}'
		done
	done | jq -s 'unique_by(.commit)' >"$work/stable.$cve.json"
	# credits: the upstream author (INFO's From:) of each change with
	# role "fix" as the developer of the remedy, and anyone an INFO names in a Reported-by:
	# header line as reporter
	for _c in $(jq -r '.[] | select(.role == "fix") | .change' "$work/changes.$cve.json"); do
		sed '/^$/q' "$(change_dir "$_c")/INFO" | sed -n 's/^From: /REMEDIATION_DEVELOPER /p; s/^Reported-by: /REPORTER /p'
	done | jq -R -s '[split("\n")[] | select(. != "") | capture("^(?<type>[A-Z_]+) (?<who>.*)$")
	  | (.who | capture("^(?<name>.*?) *<(?<mail>[^>]*)>$") // {name: .who, mail: null}) as $w
	  | {name: $w.name, type} + (if $w.mail then {contact: ["mailto:\($w.mail)"]} else {} end)]
	  | unique_by([.type, .name]) | sort_by(.type != "REPORTER")' >"$work/credits.$cve.json"
	# cip-kernel-sec's fixed-by per stable branch, named as its tooling
	# names one (kernel_sec/branch.py: stable/<base version>, 2.6.32 for
	# 2.6.32.8, 6.1 for 6.1.55): one stable commit per change with role
	# "fix", in series order (the first release's, where a branch has two),
	# and a branch only when it has every one of them, as its
	# import_stable.py records a branch: fixed-by on a branch means fixed
	# there, and part of a fix is not.  A commit no stable release contains
	# yet names no branch.
	jq -n --slurpfile st "$work/stable.$cve.json" --slurpfile ch "$work/changes.$cve.json" '
	  def base: if . == null then null else split(".") as $p
	    | if ($p | all(test("^[0-9]+$")) | not) then null
	      elif $p[0] == "2" then (if ($p | length) == 4 then $p[0:3] | join(".") else null end)
	      else (if ($p | length) == 3 then $p[0:2] | join(".") else null end) end end;
	  def vkey: split(".") | map(tonumber);
	  [$ch[0][] | select(.role == "fix") | .upstream] as $need
	  | [$st[0][] | (.release | base) as $b | select($b != null) | . + {base: $b}]
	  | group_by(.base)
	  | map(. as $g | [$need[] as $u | $g | map(select(.upstream == $u)) | sort_by(.release | vkey) | .[0]]
	      | select(all(. != null))
	      | {key: "stable/\($g[0].base)", value: map(.commit), complete_in: (map(.release) | sort_by(vkey) | .[-1])})
	  | sort_by(.key | ltrimstr("stable/") | vkey)' >"$work/stablefix.$cve.json"
	_ns=$(jq length "$work/stable.$cve.json")
	[ -z "$(stable_words)" ] ||
		progress records records "$cve: $_ns stable commit(s) carry its fix in the STABLE_GIT sources; $(jq -r 'if length == 0 then "no stable branch has every change with role fix" else "fixed-by " + (map(.key) | join(", ")) + " (every change with role fix)" end' "$work/stablefix.$cve.json")"
done

# The branches file: cip-kernel-sec's definition (its conf/branches.yml
# layout, which its tooling also loads from ~/.config/kernel-sec/
# branches.yml) of every branch name the issue files use that its
# tooling does not track by itself: kit/<b> for each branch read (the
# mainline release of base_ver with the kit's series; no git remote, so
# its import scripts leave it alone and its reports place it by the
# v<base_ver> tag), and each stable/<version> a fixed-by names, in the
# form its branch.py gives a stable branch (it takes only the ones
# kernel.org lists as maintained, not an end-of-life 2.6.32).
for b in $found; do
	load_branch "$b"
	jq -n -c --arg b "$b" --arg v "$BR_VERSION" '{short_name: "kit/\($b)", base_ver: $v}'
done >"$work/kitbranches.jsonl"
for cve in $fixes; do jq -c '.[] | .key | ltrimstr("stable/")' "$work/stablefix.$cve.json"; done | jq -s -c 'unique | sort_by(split(".") | map(tonumber))[]
  | . as $v | ($v | gsub("\\."; "\\.")) as $e
  | {short_name: "stable/\($v)", base_ver: $v, git_remote: "stable", git_name: "linux-\($v).y",
     tag_regexp: "(^v\($e)$|^v\($e)\\.\\d+$)", patch_queue: "stable-queue"}' >>"$work/kitbranches.jsonl"
jq -s . "$work/kitbranches.jsonl" >"$work/kitbranches.json"
{
	echo "# cip-kernel-sec branch definitions for the names the issue files beside"
	echo "# this one use and its tooling does not track by itself: kit/<branch>,"
	echo "# a mainline release (base_ver) with the $KIT_NAME's quilt series"
	echo "# applied, and each stable/<version> a fixed-by names (its tooling tracks"
	echo "# only the stable branches kernel.org lists as maintained)."
	echo "# Its tooling loads conf/branches.yml and ~/.config/kernel-sec/branches.yml:"
	echo "# append these entries to either.  Made by scripts/records.sh."
	jq -r '.[] | to_entries | "- " + (map("\(.key): \(.value | tojson)") | join("\n  "))' "$work/kitbranches.json"
} >"$work/$kbf"
if ! yaml_to_json "$work/$kbf" >"$work/kbf.json" 2>/dev/null ||
	[ "$(jq -S . "$work/kbf.json")" != "$(jq -S . "$work/kitbranches.json")" ] ||
	! jq -e 'type == "array" and length > 0 and all(.[]; (.short_name | type) == "string" and (.base_ver | type) == "string")' "$work/kbf.json" >/dev/null; then
	die 1 "the branches file $kbf made does not parse to the branch list meant (a quoting bug in records.sh); $dst left as it was"
fi

now=$(date -u +%FT%TZ)
# Per fix: its OSV record and its cip-kernel-sec issue, both checked.
for cve in $fixes; do
	# the OSV range starts where the FIX says the flaw came in: its
	# Introduced-by commit, or "0" (every version) for a flaw older than
	# mainline's git history
	introduced=$(fix_field "$cve" Introduced-by)
	case $introduced in
	before-git) introduced=0 ;;
	*[!0-9a-f]* | '') die 1 "backports/fixes/$cve/FIX: Introduced-by: '$introduced' is neither a 40-hex commit nor before-git" ;;
	esac
	[ "$introduced" = 0 ] || [ ${#introduced} -eq 40 ] ||
		die 1 "backports/fixes/$cve/FIX: Introduced-by: '$introduced' is not a 40-hex commit id"
	for b in $found; do cat "$work/branch.$b.$cve.json"; done | jq -s . >"$work/branches.json"
	# The FIX's Upstream: lines name the mainline commits of the fix: each
	# must be a change of this fix (References: it), or the records would
	# leave out a commit the FIX calls part of it.  What each is, is
	# record.json's role: fixed-by mainline lists the changes with role
	# "fix" (its fixed_by_comment says why a fix needs each), the comment
	# names the others with their role.
	for _u in $(fix_field "$cve" Upstream); do
		jq -e --arg u "$_u" 'any(.[]; .upstream == $u)' "$work/changes.$cve.json" >/dev/null ||
			die 1 "backports/fixes/$cve/FIX: Upstream: $_u is no change of $cve (no changes/*/INFO with that Upstream: and References: $cve); $dst left as it was"
	done
	# reporters, as cip-kernel-sec lists them (names, no address): the FIX's
	# "Credit: <name> [<mail>] (reporter)" lines; none, no key
	fix_field "$cve" Credit | sed -n 's/^\(.*[^ ]\) *(reporter)$/\1/p' | sed 's/ *<[^>]*>$//' |
		jq -R -s 'reduce (split("\n")[] | select(. != "")) as $n ([]; if index([$n]) then . else . + [$n] end)' >"$work/reporters.$cve.json"
	jq -n --arg kit "$KIT_NAME" --slurpfile f "$fixes_dir/$cve/record.json" --slurpfile ch "$work/changes.$cve.json" \
		--slurpfile br "$work/branches.json" --arg repo "$KERNEL_GIT_DEFAULT" --arg now "$now" \
		--arg intro "$introduced" --slurpfile st "$work/stable.$cve.json" --slurpfile info "$work/credits.$cve.json" '
	  $f[0] as $f | $ch[0] as $ch | $br[0] as $br | $st[0] as $st
	  | ([$br[] | .recorded_at | select(. != null)] | max // $now) as $mod
	  | ($ch | map(select(.role == "fix")) | .[0].upstream) as $fix
	  | {schema_version: $f.osv_schema_version, id: $f.osv_id, modified: $mod,
	     aliases: [$f.cve], summary: $f.summary,
	     details: ($f.description + "\n\nThis record is made by the stable-branch backport kit (\($kit)) from one run of its verifier: per branch (database_specific.kit_branches), the quilt series it applies to that mainline release, each patch'"'"'s upstream commit and git patch-id, and the QEMU verdicts of the unpatched and patched kernels.  A branch is listed as fixed only when its gate passed as a whole: every kernel the run required was what it must be for every fix (the unpatched one VULNERABLE, the patched one SURVIVED the reproducers and the regression tests); a branch whose gate failed is never listed as fixed.  versions lists the releases this run showed VULNERABLE, not every affected release; the GIT range is the full claim."),
	     affected: [{
	       package: {ecosystem: "Linux", name: "Kernel"},
	       ranges: ([{type: "GIT", repo: $repo, events: [{introduced: $intro}, {fixed: $fix}]}]
	         + [$st | group_by(.repo)[] | {type: "GIT", repo: .[0].repo,
	             events: ([{introduced: $intro}, {fixed: $fix}] + [.[] | {fixed: .commit}]),
	             database_specific: {stable_fixes: [.[] | {commit, upstream, letter, first_release: .release, release_from}]}}]),
	       versions: [$br[] | select(.verdicts.unpatched.verdict == "VULNERABLE") | .base_version],
	       database_specific: {kit_branches: ($br | map({key: .branch, value: .}) | from_entries)}}],
	     credits: $info[0],
	     references: [$ch[] | {type: (if .role == "fix" then "FIX" else "WEB" end),
	                           url: "https://git.kernel.org/linus/\(.upstream)"}],
	     database_specific: {
	       made_by: "\($kit) (scripts/records.sh)",
	       kit_commits: ([$br[] | .kit_commit | select(. != null)] | unique),
	       introduced_by: $f.introduced_by,
	       upstream_changes: $ch}}' >"$work/$cve.osv.json"

	# The cip-kernel-sec issue, first as the JSON it must parse to.
	jq -n --arg kit "$KIT_NAME" --slurpfile f "$fixes_dir/$cve/record.json" --slurpfile ch "$work/changes.$cve.json" \
		--slurpfile br "$work/branches.json" --slurpfile sf "$work/stablefix.$cve.json" \
		--slurpfile rp "$work/reporters.$cve.json" --arg kbf "$kbf" '
	  $f[0] as $f | $ch[0] as $ch | $br[0] as $br | $sf[0] as $sf
	  | def sh: .[0:12];
	    def verdict(k): .verdicts[k] as $v | if $v == null then "\(k): not booted" else
	      "\(k): \($v.verdict) (must be \($v.expected // "?")), tests \($v.tests.passed // "?") passed, \($v.tests.failed // "?") failed, \($v.tests.skipped // "?") skipped" end;
	  {description: $f.description,
	   references: [$ch[] | "https://git.kernel.org/linus/\(.upstream)"],
	   comments: ({($kit): ($f.introduced_by.comment + "\n\n" + $f.fixed_by_comment + ":\n" + ([$ch[] | select(.role == "fix") | "\(.letter) \(.upstream | sh) \(.subject) (\(.mainline))"] | join("\n")) + ([$ch[] | select(.role != "fix") | "\(.letter) \(.upstream | sh) \(.subject) (\(.mainline)): \(.role), \(.note)"] | if length == 0 then "" else "\nnot listed there, carried by the kit'"'"'s series:\n" + join("\n") end) + "\n\nkit/<branch> is that mainline release with the kit'"'"'s quilt series applied, defined for cip-kernel-sec in \($kbf) beside this file; its fixed-by list holds the upstream commits the series carries (they are patches, not commits of a published branch).  Each branch'"'"'s comment gives the patches'"'"' git patch-ids and the verdicts that prove it."
	     + (if ($sf | length) == 0 then "" else "\n\nstable/<version>: the stable commits that carry each change listed under mainline, in that order, found in the stable sources of this run; a branch is listed only with all of them (" + ($sf | map("\(.key) from \(.complete_in)") | join(", ")) + ")." end))}
	     + ($br | map({key: "kit/\(.branch)", value: (
	        "\(.branch) (mainline \(.base_version)\(if .base_commit then ", " + (.base_commit | sh) else "" end)): \(.status); gate \(.gate)"
	        + (if .gate == "fail" and .why then " (\(.why))" else "" end)
	        + (if .kit_commit then ", verified by kit \(.kit_commit) at \(.recorded_at)" else "" end) + "\n"
	        + verdict("unpatched") + "\n" + verdict("patched")
	        + (if .series then "\nseries \(.series.source) (sha256 \(.series.sha256 | sh)), git patch-id --stable from the \(if .series.patch_ids_from == "mbox" then "make mbox mails" else "quilt patches" end):\n"
	             + (.series.patches | map("\(.n) \(.letter) \(.upstream | sh) \(.role) \(.patch_id) \(.file)") | join("\n"))
	           else "" end))}) | from_entries)),
	   "introduced-by": {mainline: $f.introduced_by.mainline},
	   "fixed-by": ({mainline: [$ch[] | select(.role == "fix") | .upstream]}
	     + ($sf | map({key, value}) | from_entries)
	     + ($br | map(select(.series != null) | {key: "kit/\(.branch)", value: [.series.patches[] | .upstream]}) | from_entries))}
	  + (if ($rp[0] | length) > 0 then {reporters: $rp[0]} else {} end)' \
		>"$work/$cve.issue.json"

	# ... then as YAML, by hand: block scalars for text, JSON-quoted scalars
	# (valid YAML) for the rest, in cip-kernel-sec's field order.
	jq -r '
	  def block(ind): "|-\n" + (split("\n") | map(if . == "" then "" else ind + . end) | join("\n"));
	  def q: tojson;
	  "description: " + (.description | block("  ")),
	  "references:", (.references[] | "- " + q),
	  "comments:", (.comments | to_entries[] | "  " + (.key | q) + ": " + (.value | block("    "))),
	  (select(.reporters) | "reporters:", (.reporters[] | "- " + q)),
	  (("introduced-by", "fixed-by") as $k | "\($k):",
	    (.[$k] | to_entries[] | "  " + (.key | q) + ": [" + (.value | map(q) | join(", ")) + "]"))' \
		"$work/$cve.issue.json" >"$work/$cve.yml"

	# shellcheck disable=SC2086
	check_records "$work/$cve.osv.json" "$work/$cve.yml" $found >&2 ||
		die 1 "the $cve records made are not valid (see above); $dst left as it was"
	yaml_to_json "$work/$cve.yml" >"$work/parsed.json"
	# every branch the issue names is one cip-kernel-sec's tooling knows:
	# mainline, or one the branches file defines
	_undef=$(jq -r --slurpfile k "$work/kitbranches.json" '([$k[0][] | .short_name] + ["mainline"]) as $d
	  | [(."fixed-by", ."introduced-by" | keys[]), (.comments | keys[] | select(startswith("kit/") or startswith("stable/")))]
	  | unique - $d | join(", ")' "$work/parsed.json")
	[ -z "$_undef" ] ||
		die 1 "the $cve YAML names branches $kbf does not define: $_undef (a bug in records.sh); $dst left as it was"
	[ "$(jq -S . "$work/parsed.json")" = "$(jq -S . "$work/$cve.issue.json")" ] ||
		die 1 "the $cve YAML written does not parse to the record meant (a quoting bug in records.sh); $dst left as it was"
	jq -r '"\(length) branches: " + ([.[] | "\(.branch) \(.status)"] | join(", "))' \
		"$work/branches.json" >"$work/$cve.summary"
done

# Installed only once every fix's records are valid.
out_root_for "$dst"
mkdir -p "$dst" || die 1 "cannot create $dst"
atomic_install "$work/$kbf" "$dst/$kbf"
for cve in $fixes; do
	atomic_install "$work/$cve.osv.json" "$dst/$cve.osv.json"
	atomic_install "$work/$cve.yml" "$dst/$cve.yml"
	echo "records: wrote $dst/$cve.osv.json and $cve.yml ($(cat "$work/$cve.summary"))" >&2
done
