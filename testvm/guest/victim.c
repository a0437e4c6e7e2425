/*
 * victim.c - an image that must never run.  Linked as a PIE whose
 * PT_INTERP names /nonexistent/ld.so, so execve() fails with ENOENT only
 * after the ELF loader has already switched the caller's personality: the
 * exact path of CVE-2010-0307.  Built as victim64 and victim32.
 */
#include "sys.h"

void _start(void)
{
	sys_exit(99);
}
