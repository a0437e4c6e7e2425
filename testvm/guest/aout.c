/*
 * aout.c - an ia32 a.out (QMAGIC) program: prints what it finds in its
 * argv and envp ("A argc= argv1= env=").  The a.out loader's initial stack
 * is argc, then pointers to argv[] and envp[] (create_aout_tables()), not
 * the ELF layout.  Linked flat at 0x1020 (QMAGIC text starts at 0x1000,
 * header included); host/mkaout.c writes the 32-byte exec header.
 * Upstream 318f6b228ba8 ("x86, ia32_aout: do not kill argument mapping").
 */
/* first in .text (-fno-toplevel-reorder): the entry point is 0x1020 */
__asm__(".text\n.globl _start\n_start:\n"
	"\txor %ebp,%ebp\n\tmov %esp,%eax\n"
	"\tand $-16,%esp\n\tsub $12,%esp\n\tpush %eax\n"
	"\tcall aout_start\n\thlt\n");

#include "kit.h"


static const char *find_env(char **ev, const char *key)
{
	ulong kl = kit_strlen(key), i;

	for (; ev && *ev; ev++) {
		for (i = 0; i < kl && (*ev)[i] == key[i]; i++)
			;
		if (i == kl && (*ev)[kl] == '=')
			return *ev;
	}
	return "(none)";
}

__attribute__((used)) void aout_start(unsigned int *sp)
{
	struct line l; l.n = 0;
	int argc = (int)sp[0];
	char **argv = (char **)(ulong)sp[1];
	char **envp = (char **)(ulong)sp[2];

	l_s(&l, "A argc=");
	l_d(&l, argc);
	l_s(&l, " argv1=");
	l_s(&l, argc > 1 ? argv[1] : "(none)");
	l_s(&l, " env=");
	l_s(&l, find_env(envp, "KIT_AOUT"));
	l_nl(&l, 1);
	sys_exit(0);
}
