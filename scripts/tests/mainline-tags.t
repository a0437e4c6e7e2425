#!/bin/sh
# mainline-tags.sh: a change's Mainline: tag is read from a git source
# that holds mainline's tags (the oldest mainline tag containing its
# upstream commit; stable tags vX.Y.Z.N never count): confirmed when it
# is INFO's, wrong (exit 1) when it is another; with no source holding
# it, INFO's Mainline-checked: line stands, and must say "unconfirmed".
cd "$(dirname "$0")/../.." || exit 2
. ci/tap.sh
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
# a made-up mainline: v2.6.98, the fix, v2.6.99-rc1, v2.6.99; and a stable
# tag v2.6.98.1 on a commit after the fix
s=$t/mainline; git init -q "$s"
n=0
ci() { n=$((n + 1)); GIT_COMMITTER_DATE="2010-01-0$n 12:00:00 +0000" GIT_AUTHOR_DATE="2010-01-0$n 12:00:00 +0000" \
	git -C "$s" -c user.name=t -c user.email=t@t commit -q --allow-empty -m "$1"; }
ci base; git -C "$s" tag v2.6.98
ci fix; fix=$(git -C "$s" rev-parse HEAD)
ci stable; git -C "$s" tag v2.6.98.1
ci rc; git -C "$s" tag v2.6.99-rc1
ci final; git -C "$s" tag v2.6.99
# the toy fix, its change Y upstream the made-up fix
f=$t/fixes; mkdir "$f"; cp -R scripts/tests/fixtures/toy-fix/CVE-2099-0001 "$f/"
rm -rf "$f/CVE-2099-0001/changes/Z-toy-close"
info=$f/CVE-2099-0001/changes/Y-toy-open/INFO
sed -i "s/^Upstream: .*/Upstream: $fix/" "$info"
# (the machine's configuration file is not this test's)
KIT_CONFIG=/dev/null; export KIT_CONFIG
run() { env KIT_FIXES="$f" STABLE_GIT= "$@" sh scripts/mainline-tags.sh >"$t/o" 2>"$t/e"; }

sed -i 's/^Mainline: .*/Mainline: v2.6.99-rc1/' "$info"
run KERNEL_GIT="$s"; rc=$?
[ $rc -eq 0 ] && [ "$(cut -f1-3 "$t/o")" = "Y	v2.6.99-rc1	confirmed" ] && grep -q "is first in v2.6.99-rc1, in mainline$" "$t/o" &&
	t_ok "the oldest mainline tag holding the commit is INFO's: confirmed, the stable tag v2.6.98.1 not counted" ||
	t_fail "confirmed" "rc=$rc $(cat "$t/o" "$t/e")"
sed -i 's/^Mainline: .*/Mainline: v2.6.99/' "$info"
run KERNEL_GIT="$s"; rc=$?
[ $rc -eq 1 ] && [ "$(cut -f3 "$t/o")" = wrong ] && grep -q "INFO says v2.6.99, but $(printf %.12s "$fix") is first in v2.6.99-rc1, in mainline: correct Mainline:" "$t/o" &&
	t_ok "another tag in INFO: wrong, exit 1, both named" || t_fail "wrong tag" "rc=$rc $(cat "$t/o" "$t/e")"
# a source without the commit: STABLE_GIT only (KERNEL_GIT a repository without it)
e=$t/empty; git init -q "$e"; git -C "$e" -c user.name=t -c user.email=t@t commit -q --allow-empty -m x
run KERNEL_GIT="$e"; rc=$?
[ $rc -eq 1 ] && [ "$(cut -f3 "$t/o")" = wrong ] && grep -q "does not begin with 'unconfirmed'" "$t/o" &&
	t_ok "no source holds it and Mainline-checked: claims more than dates: wrong, exit 1" || t_fail "unconfirmed claim" "rc=$rc $(cat "$t/o" "$t/e")"
sed -i 's/^Mainline-checked: .*/Mainline-checked: unconfirmed (from dates): written 2010-01-02/' "$info"
run KERNEL_GIT="$e"; rc=$?
[ $rc -eq 0 ] && [ "$(cut -f3- "$t/o")" = "unconfirmed	unconfirmed (from dates): written 2010-01-02" ] &&
	t_ok "no source holds it: INFO's unconfirmed line stands, exit 0" || t_fail "unconfirmed" "rc=$rc $(cat "$t/o" "$t/e")"
run KERNEL_GIT="$e" STABLE_GIT="$s"; rc=$?
[ $rc -eq 1 ] && grep -q "is first in v2.6.99-rc1, in mainline" "$t/o" &&
	t_ok "a STABLE_GIT source with the tags is read too" || t_fail "STABLE_GIT read" "rc=$rc $(cat "$t/o" "$t/e")"
# the kit's own changes: each one line, each state one of the three
env STABLE_GIT= KERNEL_GIT= sh scripts/mainline-tags.sh >"$t/o" 2>"$t/e"; rc=$?
[ $rc -eq 0 ] && [ "$(wc -l <"$t/o")" -eq "$(ls -d backports/fixes/*/changes/* | wc -l)" ] &&
	! cut -f3 "$t/o" | grep -vqx 'confirmed\|unconfirmed' &&
	t_ok "the kit's changes: one line each, every Mainline-checked: line one line that says unconfirmed or is confirmed" ||
	t_fail "kit's changes" "rc=$rc $(cat "$t/o" "$t/e")"
t_done
