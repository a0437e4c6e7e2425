#!/bin/sh
# Host-toolchain patches go only where their change is absent (issue 9
# item 7): "fix-state.sh --host" tells missing, present (this very change,
# or the problem fixed another way: the patch's Detect lines) and half
# present apart, and build.sh applies, skips and names, or refuses.
#
# The trees are made from each patch's own hunks (scripts/tests/synth.awk
# is inline below): the old side is what the patch expects, the new side
# what it makes, "half" the first hunk new and the rest old.  Builds use
# the fake kernel of fakekernel.sh (a second each, no compiler run).
. ci/tap.sh
. scripts/tests/fakekernel.sh
tmp=$(mktemp -d); trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT

cat >"$tmp/synth.awk" <<'AWK'
function want(c) { return c == " " || (c == "-" && !newside) || (c == "+" && newside) }
/^--- / {
	if ((getline nx) > 0 && nx ~ /^\+\+\+ /) {
		o = $2; n = nx; sub(/^\+\+\+ /, "", n); sub(/[ \t].*/, "", n)
		f = (n == "/dev/null") ? o : n; sub(/^[^\/]*\//, "", f)
		path = dir "/" f; created = (o == "/dev/null"); deleted = (n == "/dev/null")
		inh = 0; next
	}
}
/^@@ / {
	hunk++; inh = 1
	newside = side == "new" || (side == "half" && hunk == 1)
	skip = (!newside && created) || (newside && deleted)
	if (!skip && !(path in made)) {
		d = path; sub(/\/[^\/]*$/, "", d); system("mkdir -p '" d "'"); printf "" > path; made[path] = 1
	}
	next
}
inh && /^[ +-]/ { if (!skip && want(substr($0, 1, 1))) print substr($0, 2) > path; next }
inh && /^\\/ { next }
{ inh = 0 }
AWK
# synth SIDE PATCH DIR: DIR gets the patch's files on that side (appended
# to what DIR has, so several patches can share a tree).
synth() {
	_s=$tmp/synth.$$; rm -rf "$_s"; mkdir -p "$_s" "$3"
	awk -v side="$1" -v dir="$_s" -f "$tmp/synth.awk" "$2"
	(cd "$_s" && find . -type f) | while read -r f; do
		mkdir -p "$3/$(dirname "$f")"; cat "$_s/$f" >>"$3/$f"
	done
	rm -rf "$_s"
}
hs() { sh scripts/fix-state.sh --host "$1" "$2"; }
hunks() { grep -c '^@@ ' "$1"; }

# --- every host patch: missing, present, half ------------------------------
for p in branches/host/*.patch; do
	n=$(basename "$p" .patch) d=$tmp/t.$n
	synth old "$p" "$d/old"; synth new "$p" "$d/new"
	out=$(hs "$p" "$d/old")
	[ "$out" = "$n missing" ] && t_ok "$n: its own old side is missing" || t_fail "$n: old side" "$out"
	out=$(hs "$p" "$d/new")
	[ "$out" = "$n present (its reverse applies)" ] && t_ok "$n: its own new side is present" || t_fail "$n: new side" "$out"
	if ! grep -q '^--- a/' "$p"; then
		# it only creates a file: a tree with its own version of that
		# file is the Detect case below
		continue
	elif [ "$(hunks "$p")" -gt 1 ]; then
		synth half "$p" "$d/half"
		what="the first of its $(hunks "$p") hunks in"
	else
		# one hunk: the code around it is another version
		synth old "$p" "$d/half"
		f=$(cd "$d/half" && find . -type f | head -1)
		sed -i '1s/^/ vendor: /' "$d/half/$f"
		what="a context line changed"
	fi
	out=$(hs "$p" "$d/half")
	case $out in
	"$n half "?*) t_ok "$n: $what: half present, naming the file (${out#"$n half "})" ;;
	*) t_fail "$n: $what: half present" "$out" ;;
	esac
done

# --- Detect lines: hold where the change is, fail where it is not ----------
for p in branches/host/*.patch; do
	grep -q '^Detect: ' "$p" || continue
	n=$(basename "$p" .patch) d=$tmp/t.$n ch=$tmp/ch.$n
	mkdir -p "$ch/h"; printf 'Upstream: %040d\n' 0 >"$ch/h/INFO"
	sed -n '/^diff /q; s/^Detect: //p' "$p" >"$ch/h/DETECT"
	o=$(FIXSTATE_CHANGES=$ch sh scripts/fix-state.sh "$d/old" | cut -d' ' -f3)
	w=$(FIXSTATE_CHANGES=$ch sh scripts/fix-state.sh "$d/new" | cut -d' ' -f3)
	[ "$o" != present ] && [ "$w" = present ] && t_ok "$n: its Detect lines fail on its old side ($o) and hold on its new side" ||
		t_fail "$n: Detect lines" "old: $o, new: $w"
done

# The make 3.82 fix as later stable releases took it (one rule per target,
# %config first): not this patch's text, but the problem is gone.
upstream_make() {
	cat <<'MK'
include $(srctree)/arch/$(SRCARCH)/Makefile
export KBUILD_DEFCONFIG KBUILD_KCONFIG

%config: scripts_basic outputmakefile FORCE
	$(Q)mkdir -p include/linux include/config
	$(Q)$(MAKE) $(build)=scripts/kconfig $@
config: scripts_basic outputmakefile FORCE
	$(Q)mkdir -p include/linux include/config
	$(Q)$(MAKE) $(build)=scripts/kconfig $@

# Modules
%/: prepare scripts FORCE
	$(cmd_crmodverdir)
	$(Q)$(MAKE) KBUILD_MODULES=$(if $(CONFIG_MODULES),1) \
	$(build)=$(build-dir)
/: prepare scripts FORCE
	$(cmd_crmodverdir)
	$(Q)$(MAKE) KBUILD_MODULES=$(if $(CONFIG_MODULES),1) \
	$(build)=$(build-dir)
MK
}
mkdir -p "$tmp/up"; upstream_make >"$tmp/up/Makefile"
out=$(hs branches/host/make-4.3-mixed-rules-2.6.28.patch "$tmp/up")
case $out in
*" present (in another form"*) t_ok "a Makefile with the upstream make 3.82 fix: present in another form" ;;
*) t_fail "a Makefile with the upstream make 3.82 fix: present in another form" "$out" ;;
esac
mkdir -p "$tmp/vendor/include/linux"; echo '#include <linux/compiler-gcc4.h> /* vendor */' >"$tmp/vendor/include/linux/compiler-gcc12.h"
out=$(hs branches/host/compiler-gcc12-header.patch "$tmp/vendor")
case $out in
*" present (in another form"*) t_ok "a tree with its own compiler-gcc12.h: present in another form" ;;
*) t_fail "a tree with its own compiler-gcc12.h: present in another form" "$out" ;;
esac

# --- build.sh: apply, skip and name, refuse ---------------------------------
x86=$(sed -n 's/^BR_HOST_SERIES="\(.*\)"/\1/p' branches/v2.6.*.conf | tr ' ' '\n' | awk '!s[$0]++' | tr '\n' ' ')
kit=$tmp/kit
fake_kit "$kit"
fake_conf "$kit" fake BR_SOURCE=git "BR_COMMIT=$(printf '%040d' 1)" "BR_HOST_SERIES=\"$x86\""
fake_env "$kit"

# Every branch's host patch already in the tree (the 2.6.28 make fix in
# upstream's form): each named as present, the build goes on.
for p in $x86; do
	[ "$p" = make-4.3-mixed-rules-2.6.28 ] || synth new "branches/host/$p.patch" "$tmp/has"
done
upstream_make >>"$tmp/has/Makefile"
fake_tree "$tmp/has"
TREE=$tmp/has NAME=has sh "$kit/scripts/build.sh" unpatched >"$tmp/log" 2>&1; rc=$?
[ $rc -eq 0 ] && t_ok "a tree that has every host change builds" || t_fail "a tree that has every host change builds" "rc=$rc" "$(tail -5 "$tmp/log")"
miss=
for p in $x86; do
	grep -q "host patch $p is already present .*: skipped" "$tmp/log" || miss="$miss $p"
done
[ -z "$miss" ] && t_ok "each present host patch is named in a progress line ($(echo $x86 | wc -w))" || t_fail "present patches named" "not named:$miss"
got=$(jq -r '.build.unpatched.host_series_present | join(" ")' "$OUT/has/result.json" 2>&1)
[ "$got" = "$(echo $x86)" ] && t_ok "result.json lists them as host_series_present" || t_fail "result.json host_series_present" "$got"
[ "$(cat "$OUT/has/unpatched/bzImage" 2>&1)" = "ARCH=x86_64 CROSS_COMPILE=" ] &&
	t_ok "make ran with ARCH=x86_64 and an empty CROSS_COMPILE, not the Makefile's arm defaults" ||
	t_fail "ARCH and CROSS_COMPILE set by the kit" "$(cat "$OUT/has/unpatched/bzImage" 2>&1)"

# None of them: each applied, and the work tree differs from the tree in
# exactly their files.  (One make-4.3 patch: with both releases' Makefile
# text in one file, patch's hunk order rule lets only one of them apply.)
x86=$(echo "$x86" | sed 's/make-4.3-mixed-rules-2.6.26-27 //')
fake_conf "$kit" fake BR_SOURCE=git "BR_COMMIT=$(printf '%040d' 1)" "BR_HOST_SERIES=\"$x86\""
for p in $x86; do synth old "branches/host/$p.patch" "$tmp/lacks"; done
fake_tree "$tmp/lacks"
# (fake_tree writes its own scripts/Kbuild.include: that patch's old side
# again, after it)
synth old branches/host/make-4.3-cmd-pound.patch "$tmp/lacks"
TREE=$tmp/lacks NAME=lacks sh "$kit/scripts/build.sh" unpatched >"$tmp/log" 2>&1; rc=$?
want=$(for p in $x86; do sed -n 's|^+++ b/||p' "branches/host/$p.patch"; done | LC_ALL=C sort -u | tr '\n' ' ')
got=$(jq -r '.build.unpatched.files_changed_from_source | join(" ")' "$OUT/lacks/result.json" 2>&1)
[ $rc -eq 0 ] && [ "$got " = "$want" ] && t_ok "a tree that lacks them gets each, and only their files change" ||
	t_fail "a tree that lacks them gets each" "rc=$rc" "want: $want" "got: $got" "$(tail -3 "$tmp/log")"

# Half there: refused naming the patch and the file; the tree untouched.
fake_conf "$kit" fake BR_SOURCE=git "BR_COMMIT=$(printf '%040d' 1)" 'BR_HOST_SERIES="make-4.3-mixed-rules-2.6.28"'
synth half branches/host/make-4.3-mixed-rules-2.6.28.patch "$tmp/half"
fake_tree "$tmp/half"
before=$(sh scripts/fetch.sh --listing "$tmp/half" | sha256sum)
err=$(TREE=$tmp/half NAME=half sh "$kit/scripts/build.sh" unpatched 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "error: .*host patch make-4.3-mixed-rules-2.6.28 is half present in Makefile" &&
	t_ok "a tree with half a host change: exit 2, naming the patch and the file" || t_fail "half present refused" "rc=$rc" "$err"
[ "$(echo "$err" | grep -c 'error:')" -eq 1 ] && t_ok "... in one error line" || t_fail "one error line" "$err"
[ "$(sh scripts/fetch.sh --listing "$tmp/half" | sha256sum)" = "$before" ] && [ ! -e "$OUT/half/unpatched/bzImage" ] &&
	t_ok "... the tree is untouched and nothing is built" || t_fail "tree untouched"
t_done
