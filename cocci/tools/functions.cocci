/// List every function definition spatch parsed, as "file<TAB>name".
/// A function spatch could not parse is missing from the list: that is
/// how cocci/apply.sh notices a site the rule would skip silently.
// Requires: 1.1.1

@fn@
identifier f;
position p;
@@
f@p(...) { ... }

@script:python@
f << fn.f;
p << fn.p;
@@
print("%s\t%s" % (p[0].file, f))
