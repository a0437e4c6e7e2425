/// arch/x86/ia32/ia32_aout.c: do not set current->mm->mmap to NULL after
/// flush_old_exec().
///
/// By then exec has already mapped the argument and environment pages into
/// the new mm (variable-length argument support, 2.6.23); clearing the VMA
/// list head loses that mapping, so a 32-bit a.out program starts without
/// its argv.  Present in all seven releases; it went into the 2.6.32.y
/// CVE-2010-0307 stable series with the fix.  The rule
/// removes the statement wherever it follows flush_old_exec() in the
/// files below.
/// Limits: 2.6.26's IRIX loader (arch/mips/kernel/irixelf.c, BROKEN in
/// Kconfig) has the same line; upstream never touched it and neither does
/// this rule.
///
// Confidence: High
// Copyright: (C) 2025 the cve-2010-0307-kit authors.  GPLv2.
// Comments: sites: every function in the file below with
//  "current->mm->mmap = NULL" (one removal each).
// Options: --macro-file cocci/macros.h --no-includes
// Requires: 1.1.1
// Upstream: 318f6b228ba8 ("x86, ia32_aout: do not kill argument mapping")
// Branches: v2.6.26..v2.6.32
// Files: arch/x86/ia32/ia32_aout.c
// Sites: current->mm->mmap[[:space:]]*=[[:space:]]*NULL
// Fixed:

virtual patch
virtual report

@g depends on patch exists@
expression B;
@@
 flush_old_exec(B)
 ... when any
- current->mm->mmap = NULL;

@r depends on report exists@
expression B;
identifier f;
position p;
@@
f(...) {
 ... when any
 flush_old_exec(B)
 ... when any
 current->mm->mmap@p = NULL;
 ... when any
}

@script:python depends on report@
f << r.f;
p << r.p;
@@
coccilib.report.print_report(p[0],
	"%s() sets current->mm->mmap to NULL after flush_old_exec(): loses the argument mapping (upstream 318f6b228ba8)" % f)
