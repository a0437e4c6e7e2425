#!/bin/sh
# deps.sh: install the Debian packages the kit uses, only those missing.
# Needs root or sudo when something is missing; says so in one line if not.
set -eu
# gcc-12-multilib + libc6-dev-i386, not the gcc-multilib metapackage: that
# one Conflicts with Debian 12's cross compilers (make cross-deps), and
# installing either removed the other on every run (seen: make check pulled
# the cross compilers out from under a running make cross-all).
pkgs="git quilt gcc gcc-12-multilib libc6-dev-i386 make perl bc cpio flex bison libelf-dev jq
qemu-system-x86 coccinelle xz-utils diffutils patch binutils"
# python3-jsonschema, python3-yaml: scripts/records.sh checks the OSV record
# against its JSON schema and parses the cip-kernel-sec YAML it writes.
pkgs="$pkgs python3-jsonschema python3-yaml"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing:$missing" >&2
if [ "$(id -u)" -eq 0 ]; then SUDO=; elif command -v sudo >/dev/null; then SUDO=sudo
else echo "deps.sh: error: missing packages:$missing; install them as root (apt-get install$missing)" >&2; exit 2; fi
$SUDO apt-get update -qq >&2
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >&2
