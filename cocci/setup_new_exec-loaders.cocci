/// Call setup_new_exec(bprm) in every binary loader other than ELF, right
/// after the loader has set the new personality following flush_old_exec().
///
/// CVE-2010-0307: flush_old_exec() used to both tear down the old image
/// and start the new one, so the new personality (32-bit on x86-64) could
/// only be set before the point of no return and leaked into a task whose
/// exec then failed.  Upstream split it; the second half, setup_new_exec(),
/// must run in every loader once its personality is set.  This rule makes
/// the loader half of that change; fs/exec.c (the split itself) and
/// include/linux/binfmts.h are hand hunks, and load_elf_binary() is
/// setup_new_exec-elf.cocci.
///
/// Placement, per function that calls flush_old_exec() and not yet
/// setup_new_exec():
///  - after the last personality statement reachable from the flush
///    without passing another function call (set_personality(),
///    SET_AOUT_PERSONALITY(), current->personality = ..., the x86-64
///    TIF_IA32/TIF_ABI_PENDING flag calls, an "if (elf_read_implies_exec())"
///    test);
///  - if that statement sits in a preprocessor conditional opened after the
///    flush (binfmt_aout's #ifdef __alpha__ ... #else ... #endif), before the
///    first statement after the matching #endif, so every configuration
///    gets the call;
///  - if no personality statement follows the flush (2.6.26's IRIX loader,
///    which sets it only after mapping the image), before the first
///    statement after the flush's error check: where the old
///    flush_old_exec() did that work.
/// In arch/x86/ia32/ia32_aout.c the 32-bit register reset moves from
/// before the personality to after setup_new_exec(), as upstream did.
/// Limits: blank lines around the new call may differ from upstream's; a
/// loader whose flush sits in a macro or whose personality is set through
/// a helper not listed above gets the call after the flush check.
///
// Confidence: High
// Copyright: (C) 2025 the cve-2010-0307-kit authors.  GPLv2.
// Comments: sites: every function that calls flush_old_exec() and not
//  setup_new_exec() in the files below (one new call each).
// Options: --macro-file cocci/macros.h --no-includes
// Requires: 1.1.1
// Upstream: 221af7f87b97 ("Split 'flush_old_exec' into two functions")
// Branches: v2.6.26..v2.6.32
// Files: fs/binfmt_aout.c arch/x86/ia32/ia32_aout.c fs/binfmt_elf_fdpic.c fs/binfmt_flat.c fs/binfmt_som.c arch/mips/kernel/irixelf.c
// Sites: flush_old_exec[[:space:]]*\(
// Fixed: setup_new_exec[[:space:]]*\(

virtual patch
virtual report

@initialize:python@
@@
import re

fixed = set()	# (file, function) that already call setup_new_exec()
pers = {}	# (file, function) -> [(line, col), ...] of personality statements
check = {}	# (file, function) -> last line of the flush error check
stmts = {}	# file -> [(line, col), ...] of its statements
target = {}	# (file, function) -> ("after"|"before", line, col)

_cpp_if = re.compile(r'^\s*#\s*if')
_cpp_endif = re.compile(r'^\s*#\s*endif')

def key(p, f):
	return (p[0].file, f)

def cpp_close_line(fname, flush_line, last_line):
	"""If last_line sits inside a preprocessor conditional that opened after
	flush_line, return the line of the #endif that closes it, else None."""
	with open(fname) as fh:
		lines = fh.read().split('\n')
	depth = 0
	for l in lines[flush_line:last_line - 1]:
		if _cpp_if.match(l):
			depth += 1
		elif _cpp_endif.match(l) and depth > 0:
			depth -= 1
	if depth == 0:
		return None
	for n in range(last_line, len(lines)):
		l = lines[n]
		if _cpp_if.match(l):
			depth += 1
		elif _cpp_endif.match(l):
			depth -= 1
			if depth == 0:
				return n + 1
	return None

def source_text(pstart, pend):
	"""The original text from the start of pstart to the end of pend."""
	with open(pstart[0].file) as fh:
		lines = fh.read().split('\n')
	l0, c0 = int(pstart[0].line), int(pstart[0].column)
	l1, c1 = int(pend[0].line_end), int(pend[0].column_end)
	if l0 == l1:
		return lines[l0 - 1][c0:c1]
	return '\n'.join([lines[l0 - 1][c0:]] + lines[l0:l1 - 1] +
			 [lines[l1 - 1][:c1]])

def is_target(p, mode):
	for k, t in target.items():
		if k[0] == p[0].file and t[0] == mode and \
		   (t[1], t[2]) == (int(p[0].line), int(p[0].column)):
			return True
	return False

// Functions already fixed: never touched again (second run is empty).
@done@
identifier f;
position p;
@@
f@p(...) { <+... setup_new_exec(...) ...+> }

@script:python@
f << done.f;
p << done.p;
@@
fixed.add(key(p, f))

// The sites: every function that calls flush_old_exec() and is not fixed.
@site exists@
identifier f;
expression B;
position pf, pfun;
@@
f@pfun(...) { <+... flush_old_exec@pf(B) ...+> }

@script:python site_ok@
f << site.f;
pfun << site.pfun;
@@
if key(pfun, f) in fixed:
	cocci.include_match(False)

@script:python depends on report@
f << site.f;
pf << site.pf;
@@
coccilib.report.print_report(pf[0],
	"%s() calls flush_old_exec() but never setup_new_exec(): personality set before the point of no return (CVE-2010-0307, upstream 221af7f87b97)" % f)

// Personality statements reachable from the flush without another call.
@pers depends on patch exists@
expression site.B;
position site.pf;
position pp;
identifier G !~ "^(set_personality|SET_AOUT_PERSONALITY|SET_PERSONALITY|set_thread_flag|clear_thread_flag|elf_read_implies_exec|flush_old_exec)$";
expression E;
statement S;
@@
 flush_old_exec@pf(B)
 ... when != G(...)
     when any
(
 set_personality@pp(...);
|
 SET_AOUT_PERSONALITY@pp(...);
|
 SET_PERSONALITY@pp(...);
|
 set_thread_flag@pp(TIF_IA32);
|
 clear_thread_flag@pp(TIF_ABI_PENDING);
|
 current@pp->personality = E;
|
 if (elf_read_implies_exec@pp(...)) S
)

@script:python@
f << site.f;
pp << pers.pp;
@@
pers.setdefault(key(pp, f), []).append((int(pp[0].line), int(pp[0].column)))

// The flush's error check: the statement right after the flush.
@chk depends on patch@
identifier site.f;
expression site.B;
position site.pf;
expression R;
statement S;
position pc;
@@
f(...) {
 ...
 R = flush_old_exec@pf(B);
 S@pc
 ...
}

@script:python@
f << site.f;
pc << chk.pc;
@@
check[key(pc, f)] = int(pc[0].line_end)

// Every statement of the file, candidates for "insert before".  (A CTL
// "flush ... S" enumeration takes minutes on load_flat_file(); the choice
// below only needs the first statement after a given line.)
@stmt depends on patch@
statement S;
position ps;
@@
 S@ps

@script:python@
ps << stmt.ps;
@@
stmts.setdefault(ps[0].file, []).append((int(ps[0].line), int(ps[0].column)))

@script:python choose depends on patch@
f << site.f;
pf << site.pf;
@@
k = key(pf, f)
ps = sorted(set(pers.get(k, [])))
cand = sorted(set(stmts.get(pf[0].file, [])))
if ps:
	last = ps[-1]
	endif = cpp_close_line(pf[0].file, int(pf[0].line), last[0])
	if endif is None:
		target[k] = ("after", last[0], last[1])
	else:
		nxt = [c for c in cand if c[0] > endif]
		if nxt:
			target[k] = ("before", nxt[0][0], nxt[0][1])
elif k in check:
	nxt = [c for c in cand if c[0] > check[k]]
	if nxt:
		target[k] = ("before", nxt[0][0], nxt[0][1])

@ins_after depends on patch@
identifier site.f;
expression site.B;
position pp : script:python() { is_target(pp, "after") };
expression E;
statement S;
@@
f(...) {
 <...
(
 set_personality@pp(...);
+ setup_new_exec(B);
|
 SET_AOUT_PERSONALITY@pp(...);
+ setup_new_exec(B);
|
 SET_PERSONALITY@pp(...);
+ setup_new_exec(B);
|
 set_thread_flag@pp(TIF_IA32);
+ setup_new_exec(B);
|
 clear_thread_flag@pp(TIF_ABI_PENDING);
+ setup_new_exec(B);
|
 current@pp->personality = E;
+ setup_new_exec(B);
|
 if (elf_read_implies_exec@pp(...)) S
+ setup_new_exec(B);
)
 ...>
}

@ins_before depends on patch@
identifier site.f;
expression site.B;
statement S;
position ps : script:python() { is_target(ps, "before") };
@@
f(...) {
 <...
+ setup_new_exec(B);
 S@ps
 ...>
}

// ia32_aout: reset the 32-bit registers after setup_new_exec(), as
// upstream did, not before the personality.  The chained r8..r15 assignment
// is re-added with its original text (spatch would re-print it on one
// 97-column line).
@regs_at depends on patch@
identifier site.f;
expression site.B;
expression E;
position p2, pe;
@@
f(...) {
 <...
 regs->cs = __USER32_CS;
 regs@p2->r8 = E@pe;
 ...
 setup_new_exec(B);
 ...>
}

@regs depends on patch@
identifier site.f;
expression site.B;
expression regs_at.E;
position regs_at.p2, regs_at.pe;
fresh identifier T = script:python(p2, pe) { source_text(p2, pe) };
@@
f(...) {
 <...
- regs->cs = __USER32_CS;
- regs@p2->r8 = E@pe;
 ...
 setup_new_exec(B);
+ regs->cs = __USER32_CS;
+ T;
 ...>
}
