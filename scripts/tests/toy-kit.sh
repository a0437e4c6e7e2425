# shellcheck shell=sh
# toy-kit.sh: sourced by toy-fix.t and toy-fix-outputs.t.
# toy_kit DIR FIX: the kit as tracked in this checkout (committed or not),
# in a git repository of its own at DIR, with the fixture fix folder
# scripts/tests/fixtures/toy-fix/FIX added and nothing else.  Run from the
# checkout's top.
toy_kit() {
	mkdir -p "$1" &&
		git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$1" &&
		(cd "$1" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm kit) &&
		cp -R "scripts/tests/fixtures/toy-fix/$2" "$1/backports/fixes/"
}
