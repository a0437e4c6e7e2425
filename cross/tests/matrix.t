#!/bin/sh
# The cross matrix definitions (cross/matrix/*.conf) for every 2.6 branch:
# each cell either names objects, a compiler package, a config fragment and
# host patches that exist, or is skipped with a reason.  No kernel tree.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/ci/tap.sh"
cd "$root" || exit 2
for f in branches/v2.6.*.conf; do
	BR_VERSION=$(sed -n 's/^BR_VERSION=//p' "$f")
	b=$(basename "$f" .conf)
	for c in cross/matrix/*.conf; do
		cell=$(basename "$c" .conf)
		out=$(
			X_DESC= X_ARCH= X_CC= X_CROSS= X_PKG= X_OBJS= X_SKIP= X_FORCED= X_HOST= X_TOKENS= X_RENAME= X_CFLAGS= X_CONFIG_EXTRA= X_MAKEVARS=
			. "./$c"
			bad=
			[ -n "$X_DESC" ] || bad="$bad no X_DESC"
			if [ -n "$X_SKIP" ]; then
				[ -n "$X_DESC" ] && echo "skip $X_SKIP"
			else
				[ -n "$X_ARCH" ] || bad="$bad no X_ARCH"
				[ -n "$X_OBJS" ] || bad="$bad no X_OBJS"
				[ -n "$X_PKG" ] || bad="$bad no X_PKG (what make cross-deps installs)"
				[ -r "cross/matrix/$cell.config" ] || bad="$bad no cross/matrix/$cell.config"
				for o in $X_OBJS; do case $o in *.o) ;; *) bad="$bad object $o is not a .o" ;; esac; done
				for p in $X_HOST; do [ -r "branches/host/$p.patch" ] || bad="$bad host patch $p missing"; done
				echo "build"
			fi
			[ -z "$bad" ] || echo "BAD$bad"
		)
		# A cell the release cannot build is a SKIP with its reason,
		# never an ok: nothing about it was shown to work.
		case $out in
		*BAD*) t_fail "$b $cell: ${out#*BAD}" ;;
		"skip "?*) t_skip "$b $cell" "${out#skip }" ;;
		build) t_ok "$b $cell: objects, package, fragment and host patches defined" ;;
		*) t_fail "$b $cell: the definition could not be read" "$out" ;;
		esac
	done
done
# Change I (CVE-2010-3081) per branch: every asm/compat.h its patch renames
# in is compiled by a cell that builds kernel/compat.o and fs/compat.o for
# that architecture, or, with no compiler, checked token by token
# (X_TOKENS naming that file, X_RENAME set); a token-checked file must be
# one the branch's series patches (a wrong path would prove nothing).
for f in branches/v2.6.*.conf; do
	BR_VERSION=$(sed -n 's/^BR_VERSION=//p' "$f")
	b=$(basename "$f" .conf)
	ip=$(ls backports/$b/compat-make-compat_alloc_user_space-*.patch 2>/dev/null | head -1)
	[ -n "$ip" ] || { t_skip "$b: I's cells" "no I patch in backports/$b"; continue; }
	miss=
	for h in $(sed -n 's|^+++ b/\(.*/compat\.h\)$|\1|p' "$ip" | grep -v '^include/linux/'); do
		hit=
		for c in cross/matrix/*.conf; do
			hit=$(
				X_ARCH= X_OBJS= X_SKIP= X_TOKENS= X_RENAME= X_PROCESS=
				. "./$c"
				a=${X_ARCH%64}; a=${a%_}
				case " $X_TOKENS " in *" $h "*) [ -n "$X_RENAME" ] && echo tokens; exit ;; esac
				[ -z "$X_SKIP" ] || exit
				case " $X_OBJS " in *" kernel/compat.o "*) ;; *) exit ;; esac
				case " $X_OBJS " in *" fs/compat.o "*) ;; *) exit ;; esac
				case $h in *asm-$X_ARCH/* | *asm-$a/* | arch/$a/*) echo built ;; esac
			)
			[ -z "$hit" ] || break
		done
		[ -n "$hit" ] || miss="$miss $h"
	done
	tok=
	for c in cross/matrix/*.conf; do
		for t in $(X_TOKENS=; . "./$c"; echo "$X_TOKENS"); do
			grep -q "^+++ b/$t\$" backports/$b/*.patch || tok="$tok $t"
		done
	done
	[ -z "$miss$tok" ] && t_ok "$b: each compat.h of I compiled (kernel/compat.o, fs/compat.o) or token-checked; token files are in the series" ||
		t_fail "$b: I's compat.h coverage" "no cell for:$miss" "token-checked but not in the series:$tok"
done
# Every cross host patch says what breaks, why it is safe, and who uses it
# (a cell in cross/matrix/, or cross/boot/).
for p in branches/host/cross-*.patch; do
	grep -q '^Breaks with:' "$p" && grep -q '^Safe because:' "$p" && grep -Eq 'cross/(matrix|boot)' "$p" &&
		t_ok "$(basename "$p"): Breaks with / Safe because / which cell" || t_fail "$(basename "$p") lacks Breaks with/Safe because/cell"
done
t_check "common.config turns off verbose BUG (file/line in code)" grep -qx '# CONFIG_DEBUG_BUGVERBOSE is not set' cross/matrix/common.config
t_check "cross.sh parses" sh -n scripts/cross.sh
t_check "cross-all.sh parses" sh -n scripts/cross-all.sh
t_check "cross-deps.sh parses" sh -n scripts/cross-deps.sh
t_done
