/*
 * sys.h - the guest programs' only way into the kernel.
 *
 * Guest programs are freestanding: a static glibc program dies before main
 * on 2.6.26 (no AT_RANDOM before 2.6.29), so every program talks to the
 * kernel through these raw system calls.  The same source builds as x86_64
 * (`syscall`) and as i386 (`int $0x80`, which reaches the ia32 emulation
 * layer the CVE lives in); only the numbers and the trap differ.
 *
 * Every wrapper returns the raw kernel value: -errno on failure.
 */
#ifndef KIT_SYS_H
#define KIT_SYS_H

typedef unsigned long ulong;

/* i386 and powerpc (32 and 64) share their numbers up to exit_group */
#define KIT_NR_CLASSIC(exit_group)						\
	enum {								\
		NR_exit = 1, NR_fork = 2, NR_read = 3, NR_write = 4, NR_open = 5, \
		NR_close = 6, NR_unlink = 10, NR_execve = 11, NR_chdir = 12,	\
		NR_getpid = 20, NR_mount = 21, NR_mkdir = 39, NR_pipe = 42,	\
		NR_brk = 45, NR_dup2 = 63, NR_setrlimit = 75, NR_reboot = 88,	\
		NR_wait4 = 114, NR_personality = 136, NR_exit_group = exit_group, \
	}


#if defined(__x86_64__)
#define KIT_BITS 64
enum {
	NR_read = 0, NR_write = 1, NR_open = 2, NR_close = 3, NR_brk = 12,
	NR_pipe = 22, NR_dup2 = 33, NR_getpid = 39, NR_fork = 57,
	NR_execve = 59, NR_exit = 60, NR_wait4 = 61, NR_chdir = 80,
	NR_mkdir = 83, NR_unlink = 87, NR_setrlimit = 160, NR_mount = 165,
	NR_reboot = 169, NR_personality = 135, NR_exit_group = 231,
};

static inline long sc(long n, long a, long b, long c, long d, long e)
{
	long r;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;

	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
			 : "rcx", "r11", "memory");
	return r;
}

/* six arguments: mmap's offset is the sixth (%r9) */
static inline long sc6(long n, long a, long b, long c, long d, long e, long f)
{
	long r;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return r;
}
/*
 * `int $0x80` from 64-bit code: the ia32 entry (ia32_syscall) entered by a
 * 64-bit process, with the i386 number and no arguments.  The compat entry
 * clobbers %r8-%r11 and reads the others as arguments.
 */
static inline long sc_int80(long n)
{
	long r;
	__asm__ volatile("int $0x80"
			 : "=a"(r)
			 : "a"(n)
			 : "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "memory");
	return r;
}
/* Entry: the kernel leaves argc at (%rsp); pass that to kit_start(). */
#define KIT_ENTRY(fn)							\
	__asm__(".text\n.globl _start\n_start:\n"			\
		"\txor %ebp,%ebp\n\tmov %rsp,%rdi\n"			\
		"\tand $-16,%rsp\n\tcall " #fn "\n\thlt\n")

#elif defined(__i386__)
#define KIT_BITS 32
KIT_NR_CLASSIC(252);

/* Built with -fno-pic, so %ebx is free for the first argument. */
static inline long sc(long n, long a, long b, long c, long d, long e)
{
	long r;

	__asm__ volatile("int $0x80"
			 : "=a"(r)
			 : "a"(n), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
			 : "memory");
	return r;
}

#define KIT_ENTRY(fn)							\
	__asm__(".text\n.globl _start\n_start:\n"			\
		"\txor %ebp,%ebp\n\tmov %esp,%eax\n"			\
		"\tand $-16,%esp\n\tsub $12,%esp\n\tpush %eax\n"	\
		"\tcall " #fn "\n\thlt\n")

/*
 * A two-argument call entered with %esp = sp (its page mapped and
 * writable): the kernel's compat scratch space is computed from the user
 * stack pointer, so a fix's program can aim it (backports/fixes/).  %edi
 * keeps ours.
 */
static inline long sc2_on_stack(long n, long a, long b, ulong sp)
{
	long r;

	__asm__ volatile("mov %%esp, %%edi\n\t"
			 "mov %4, %%esp\n\t"
			 "int $0x80\n\t"
			 "mov %%edi, %%esp"
			 : "=a"(r)
			 : "a"(n), "b"(a), "c"(b), "d"(sp)
			 : "edi", "memory");
	return r;
}
#elif defined(__powerpc__)
/*
 * powerpc, 32- and 64-bit (cross/boot: the ppc64 stretch boot only).  One
 * table for both; `sc` with the number in r0, arguments in r3..r8, the
 * result in r3 and CR0.SO set on error (r3 then holds the positive errno).
 */
#ifdef __powerpc64__
#define KIT_BITS 64
#else
#define KIT_BITS 32
#endif
KIT_NR_CLASSIC(234);

static inline long sc(long n, long a, long b, long c, long d, long e)
{
	register long r0 __asm__("r0") = n;
	register long r3 __asm__("r3") = a;
	register long r4 __asm__("r4") = b;
	register long r5 __asm__("r5") = c;
	register long r6 __asm__("r6") = d;
	register long r7 __asm__("r7") = e;

	__asm__ volatile("sc\n\tbns+ 1f\n\tneg %1,%1\n1:"
			 : "+r"(r0), "+r"(r3), "+r"(r4), "+r"(r5), "+r"(r6), "+r"(r7)
			 :
			 : "r8", "r9", "r10", "r11", "r12", "cr0", "ctr", "xer", "memory");
	return r3;
}

/*
 * Entry: r1 points at argc.  ELFv1 ppc64 enters through a function
 * descriptor (.opd), which the kernel reads for the code address and TOC.
 */
#ifdef __powerpc64__
#define KIT_ENTRY(fn)							\
	__asm__(".section .opd,\"aw\"\n.align 3\n.globl _start\n"	\
		"_start: .quad .L_start,.TOC.@tocbase,0\n.previous\n"	\
		".text\n.L_start:\n\tmr 3,1\n\tclrrdi 1,1,4\n"		\
		"\tli 0,0\n\tstdu 0,-128(1)\n\tbl " #fn "\n\tnop\n\ttrap\n")
#else
#define KIT_ENTRY(fn)							\
	__asm__(".text\n.globl _start\n_start:\n\tmr 3,1\n"		\
		"\tclrrwi 1,1,4\n\tli 0,0\n\tstwu 0,-16(1)\n"		\
		"\tbl " #fn "\n\ttrap\n")
#endif
#else
#error "sys.h: x86_64, i386 or powerpc only"
#endif

#define sc0(n)			sc((n), 0, 0, 0, 0, 0)
#define sc1(n, a)		sc((n), (long)(a), 0, 0, 0, 0)
#define sc2(n, a, b)		sc((n), (long)(a), (long)(b), 0, 0, 0)
#define sc3(n, a, b, c)		sc((n), (long)(a), (long)(b), (long)(c), 0, 0)
#define sc4(n, a, b, c, d)	sc((n), (long)(a), (long)(b), (long)(c), (long)(d), 0)
#define sc5(n, a, b, c, d, e)	sc((n), (long)(a), (long)(b), (long)(c), (long)(d), (long)(e))

/* errno values the programs look at */
#define KIT_ENOENT	2
#define KIT_ENOEXEC	8
#define KIT_EINTR	4

#define O_RDONLY	0
#define O_WRONLY	1
#define O_RDWR		2
#define O_CREAT		0100
#define O_TRUNC		01000

#define SIGKILL		9
#define SIGSEGV		11
#define RLIMIT_AS	9
#define RLIMIT_CORE	4
#define READ_IMPLIES_EXEC 0x0400000

struct kit_rlimit { ulong cur, max; };	/* "long" on both ABIs */

static inline long sys_read(int fd, void *b, ulong n) { return sc3(NR_read, fd, b, n); }
static inline long sys_write(int fd, const void *b, ulong n) { return sc3(NR_write, fd, b, n); }
static inline long sys_open(const char *p, int fl, int mode) { return sc3(NR_open, p, fl, mode); }
static inline long sys_close(int fd) { return sc1(NR_close, fd); }
static inline long sys_brk(ulong a) { return sc1(NR_brk, a); }
static inline long sys_pipe(int *fds) { return sc1(NR_pipe, fds); }
static inline long sys_dup2(int a, int b) { return sc2(NR_dup2, a, b); }
static inline long sys_getpid(void) { return sc0(NR_getpid); }
static inline long sys_fork(void) { return sc0(NR_fork); }
static inline long sys_execve(const char *p, char *const *av, char *const *ev)
{ return sc3(NR_execve, p, av, ev); }
static inline long sys_wait4(long pid, int *st, int opt) { return sc4(NR_wait4, pid, st, opt, 0); }
static inline long sys_chdir(const char *p) { return sc1(NR_chdir, p); }
static inline long sys_mkdir(const char *p, int mode) { return sc2(NR_mkdir, p, mode); }
static inline long sys_unlink(const char *p) { return sc1(NR_unlink, p); }
static inline long sys_setrlimit(int r, const struct kit_rlimit *l) { return sc2(NR_setrlimit, r, l); }
static inline long sys_mount(const char *s, const char *t, const char *fs, ulong fl, const void *d)
{ return sc5(NR_mount, s, t, fs, fl, d); }
static inline long sys_reboot(unsigned int cmd)
{ return sc4(NR_reboot, 0xfee1dead, 672274793, cmd, 0); }
static inline long sys_personality(ulong p) { return sc1(NR_personality, p); }
static inline __attribute__((noreturn)) void sys_exit(int code)
{
	sc1(NR_exit_group, code);
	for (;;)
		sc1(NR_exit, code);
}

#endif
