# shellcheck shell=sh
# Headless Chromium for the report page's tests (scripts/tests/report-html.t,
# ci/e2e/50-report-html.t).  Source it.
#   chromium_find          sets CHROMIUM; 1 when no browser is installed
#   chromium_run ARGS...   headless, a throw-away profile, no sandbox as root
#                          (Chromium refuses to run as root with one), cut
#                          after 120 s; stderr kept in CHROMIUM_ERR
#   cell DOM ID            the text of element ID in a dumped DOM: tags
#                          dropped, entities decoded, blanks squeezed
chromium_find() {
	CHROMIUM=$(command -v chromium || command -v chromium-browser) || return 1
}
chromium_run() {
	_cud=$(mktemp -d) || return 1
	_csb=
	[ "$(id -u)" -ne 0 ] || _csb=--no-sandbox
	# shellcheck disable=SC2086
	timeout -k 5 120 "$CHROMIUM" --headless $_csb --disable-gpu --no-first-run \
		--disable-extensions --user-data-dir="$_cud" "$@" 2>"$_cud.err"
	_crc=$?
	CHROMIUM_ERR=$(grep -v 'dbus\|Fontconfig' "$_cud.err" | tail -3)
	rm -rf "$_cud" "$_cud.err"
	return $_crc
}
cell() {
	tr '\n' ' ' <"$1" | sed -n "s/.*id=\"$2\"[^>]*>//p" | sed 's#</td>.*##; s#</li>#; #g; s/<[^>]*>/ /g' |
		sed 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&#39;/'"'"'/g; s/&nbsp;/ /g; s/&amp;/\&/g' | tr -s ' ' | sed 's/^ //; s/ $//'
}
