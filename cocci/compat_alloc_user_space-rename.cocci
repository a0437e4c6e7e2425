/// Rename each architecture's inline compat_alloc_user_space() to
/// arch_compat_alloc_user_space(), the mechanical half of CVE-2010-3081.
///
/// Every 64-bit architecture with a 32-bit compat layer defines
/// compat_alloc_user_space(len) in its compat.h as "the user stack pointer
/// minus len", with no check that the result is still user space; callers
/// were meant to check it and some did not.  Upstream kept those inlines
/// under a new name and added one generic compat_alloc_user_space() in
/// kernel/compat.c that refuses a length above half the compat address
/// space and returns NULL unless access_ok() holds for the whole area.
/// This rule makes the rename; the generic function and its declaration in
/// include/linux/compat.h are hand hunks (without them nothing links).
///
/// The seven definitions (ia64, mips, parisc, powerpc, s390, sparc64, x86)
/// are in include/asm-<arch>/compat.h on 2.6.26, partly moved to
/// arch/<arch>/include/asm/compat.h on 2.6.27, all there from 2.6.28: the
/// Files line names every place; apply.sh skips the absent ones.  Bodies
/// are left as they are (upstream changed only the name).
/// Limits: only definitions are renamed; a caller of the inline would now
/// reach the generic function, which is the point.  ia64 writes the name on
/// its own line with a space before the parenthesis; spatch keeps that.
///
// Confidence: High
// Copyright: (C) 2025 the cve-2010-0307-kit authors.  GPLv2.
// Comments: sites: every definition named compat_alloc_user_space in the
//  files below (one per file, seven per release).  Sites and Fixed match the
//  definition's NAME, not its body (a pure rename leaves the body as it
//  was): "Match: name" tells cocci/apply.sh so.  Patch I of every series
//  (backports/changes/I-compat-alloc-user-space).
// Options: --no-includes
// Requires: 1.1.1
// Upstream: c41d68a513c7 ("compat: Make compat_alloc_user_space() incorporate the access_ok()")
// Branches: v2.6.26..v2.6.32
// Files: include/asm-ia64/compat.h include/asm-mips/compat.h include/asm-parisc/compat.h include/asm-powerpc/compat.h include/asm-s390/compat.h include/asm-sparc64/compat.h include/asm-x86/compat.h arch/ia64/include/asm/compat.h arch/mips/include/asm/compat.h arch/parisc/include/asm/compat.h arch/powerpc/include/asm/compat.h arch/s390/include/asm/compat.h arch/sparc/include/asm/compat.h arch/x86/include/asm/compat.h
// Match: name
// Sites: ^compat_alloc_user_space$
// Fixed: ^arch_compat_alloc_user_space$

virtual patch
virtual report

@rn depends on patch@
type T;
@@
 T
- compat_alloc_user_space
+ arch_compat_alloc_user_space
 (...) { ... }

@r depends on report@
type T;
position p;
@@
 T compat_alloc_user_space@p(...) { ... }

@script:python depends on report@
p << r.p;
@@
coccilib.report.print_report(p[0],
	"compat_alloc_user_space() defined inline with no access_ok() on its result (upstream c41d68a513c7 renames it arch_compat_alloc_user_space())")
