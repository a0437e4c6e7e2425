#!/bin/sh
# cross-deps.sh: install the Debian cross compilers the cross matrix uses
# (cross/matrix/*.conf, X_PKG), only those missing.  Needs root or sudo
# when something is missing; says so in one line if not.
#
# Debian 12: the unversioned gcc-<arch>-linux-gnu packages Conflict with
# gcc-multilib, so installing them removes it (and the reverse).  The
# matrix uses the versioned gcc-12-<arch>-linux-gnu packages
# (<triplet>-gcc-12), which install beside gcc-12-multilib and
# libc6-dev-i386, the packages that really carry the 32-bit support.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
pkgs=$(sed -n 's/^X_PKG=\([a-z0-9.+-]*\).*/\1/p' "$root"/cross/matrix/*.conf | sort -u)
missing=
for p in $pkgs quilt jq make; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && { echo "cross-deps: all installed:" $pkgs >&2; exit 0; }
echo "cross-deps: installing:$missing" >&2
if [ "$(id -u)" -eq 0 ]; then SUDO=; elif command -v sudo >/dev/null; then SUDO=sudo
else echo "cross-deps.sh: error: missing packages:$missing; install them as root (apt-get install$missing)" >&2; exit 2; fi
$SUDO apt-get update -qq >&2
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >&2
# what gcc-multilib pulled in stays, even if apt removed gcc-multilib itself
for p in gcc-12-multilib libc6-dev-i386; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' && $SUDO apt-mark manual "$p" >/dev/null
done
true
