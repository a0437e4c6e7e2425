/// load_elf_binary(): drop the early SET_PERSONALITY() calls and call
/// setup_new_exec(bprm) where arch_pick_mmap_layout() was, after the
/// personality is set following flush_old_exec().
///
/// CVE-2010-0307: the ELF loader switched the personality (32-bit on
/// x86-64) before flush_old_exec(), once in the PT_INTERP loop and once
/// for executables without an interpreter; an exec that failed after that
/// (a missing interpreter) returned to the old image with the new
/// personality.  Upstream removed both and relies on the SET_PERSONALITY()
/// that already follows the flush, then calls setup_new_exec(), which now
/// does arch_pick_mmap_layout() itself.  fs/compat_binfmt_elf.c and the
/// arch binfmt_elf32.c wrappers include fs/binfmt_elf.c and need no change.
///
/// What the rule makes: the three edits above, with either SET_PERSONALITY()
/// arity (2.6.26-2.6.27 pass (ex, ibcs2), later releases (ex)); an early
/// call in an else branch of its own goes with its branch (and comment).
/// What it leaves to hand hunks: fs/exec.c, where setup_new_exec() must
/// start with arch_pick_mmap_layout() (upstream A) and flush_old_exec()
/// must clear PF_RANDOMIZE, call flush_thread() and apply per_clear
/// (upstream 7ab02af428c2, "D").  D changes no line of binfmt_elf.c: it
/// moves those three out of setup_new_exec() so the PF_RANDOMIZE that
/// load_elf_binary() sets just before the call survives it.  Without D
/// this rule's output loses stack and brk randomisation.
/// Limits: the long comment before the PT_INTERP call is removed only if
/// spatch attaches it to that statement (it does for 2.6.26..2.6.32);
/// upstream's blank line before setup_new_exec() is not reproduced.
///
// Confidence: High
// Copyright: (C) 2025 the cve-2010-0307-kit authors.  GPLv2.
// Comments: sites: every function of fs/binfmt_elf.c that calls
//  flush_old_exec() and not setup_new_exec() (load_elf_binary).
// Options: --macro-file cocci/macros.h --no-includes
// Requires: 1.1.1
// Upstream: 221af7f87b97 ("Split 'flush_old_exec' into two functions")
// Branches: v2.6.26..v2.6.32
// Files: fs/binfmt_elf.c
// Sites: flush_old_exec[[:space:]]*\(
// Fixed: setup_new_exec[[:space:]]*\(

virtual patch
virtual report

@initialize:python@
@@
fixed = set()

@done@
identifier f;
position p;
@@
f@p(...) { <+... setup_new_exec(...) ...+> }

@script:python@
f << done.f;
p << done.p;
@@
fixed.add((p[0].file, f))

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
if (pfun[0].file, f) in fixed:
	cocci.include_match(False)

@script:python depends on report@
f << site.f;
pf << site.pf;
@@
coccilib.report.print_report(pf[0],
	"%s() calls flush_old_exec() but never setup_new_exec(): SET_PERSONALITY() before the point of no return (CVE-2010-0307, upstream 221af7f87b97)" % f)

// "else { SET_PERSONALITY(); }" before the flush: the whole branch goes.
// (Positions cannot be inherited over modifications: these rules find the
// site again by function name.)
@early_else depends on patch exists@
identifier site.f;
expression site.B;
expression C;
statement S;
@@
f(...) {
 ... when any
 if (C) S
- else { SET_PERSONALITY(...); }
 ... when any
 flush_old_exec(B)
 ... when any
}

// Any other SET_PERSONALITY() from which the flush is reachable.
@early depends on patch exists@
identifier site.f;
expression site.B;
@@
f(...) {
 ... when any
- SET_PERSONALITY(...);
 ... when any
 flush_old_exec(B)
 ... when any
}

// After the flush: setup_new_exec() replaces arch_pick_mmap_layout(),
// which it now calls itself, once the personality is set.
@late depends on patch exists@
identifier site.f;
expression site.B;
@@
f(...) {
 ... when any
 flush_old_exec(B)
 ... when any
 SET_PERSONALITY(...);
 ... when any
- arch_pick_mmap_layout(current->mm);
+ setup_new_exec(B);
 ... when any
}
