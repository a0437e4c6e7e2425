#!/bin/sh
# deps.sh: install the Debian packages the kit uses, only those missing.
# Needs root or sudo when something is missing; says so in one line if not.
set -eu
# gcc-12-multilib + libc6-dev-i386, not the gcc-multilib metapackage: that
# one Conflicts with Debian 12's cross compilers (make cross-deps), and
# installing either removed the other on every run (seen: make check pulled
# the cross compilers out from under a running make cross-all).
pkgs="git quilt gcc gcc-12-multilib libc6-dev-i386 make perl bc cpio flex bison libelf-dev jq
qemu-system-x86 coccinelle xz-utils diffutils patch binutils rsync python3"
# rsync: gitlab-ci-local copies the project for each job with it;
# python3: make check parses the pipeline's JUnit XML with a real parser.
# python3-jsonschema, python3-yaml: scripts/records.sh checks the OSV record
# against its JSON schema and parses the cip-kernel-sec YAML it writes.
pkgs="$pkgs python3-jsonschema python3-yaml"
# chromium: the report page's tests render it headless and check the
# verdict cells (scripts/tests/report-html.t, ci/e2e/50-report-html.t).
pkgs="$pkgs chromium"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
# npm for ci/npm/ (Debian's, unless the machine has a Node.js of its own)
command -v npm >/dev/null || missing="$missing nodejs npm"
if [ -n "$missing" ]; then
	echo "deps: installing:$missing" >&2
	if [ "$(id -u)" -eq 0 ]; then SUDO=; elif command -v sudo >/dev/null; then SUDO=sudo
	else echo "deps.sh: error: missing packages:$missing; install them as root (apt-get install$missing)" >&2; exit 2; fi
	$SUDO apt-get update -qq >&2
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >&2
fi
# ci/npm/: the npm tools CI uses (gitlab-ci-local runs the pipeline in
# make check), exactly as its package-lock.json pins them; installed again
# only when that file changed.
npm_dir=$(cd "$(dirname "$0")/../ci/npm" && pwd)
if ! cmp -s "$npm_dir/package-lock.json" "$npm_dir/node_modules/.kit-installed-lock"; then
	echo "deps: npm ci in ci/npm" >&2
	npm ci --prefix "$npm_dir" --no-audit --no-fund --prefer-offline >&2
	cp "$npm_dir/package-lock.json" "$npm_dir/node_modules/.kit-installed-lock"
fi
