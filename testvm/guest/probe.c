/*
 * probe.c - the guest's test subject, built twice: probe64 (x86_64) and
 * probe32 (-m32, runs under ia32 emulation).  init runs it with a mode and
 * reads what it prints on stdout; the probe itself judges nothing.
 *
 *   probe report                     print "R bits= pers= sp= brk= vsys="
 *   probe exec PATH ARGS...          execve(PATH, ARGS); on failure "X err="
 *   probe cvestate VICTIM            maps/personality before and after a
 *                                    failed execve(VICTIM): "S err= ..."
 *   probe reverse VICTIM PATH ARGS   failed execve(VICTIM), "V err= p0= p1=",
 *                                    then execve(PATH, ARGS)
 *   probe dump                       RLIMIT_CORE unlimited, then fault
 *   probe repro VICTIM               failed execve(VICTIM) ("P err="), then
 *                                    dump: the CVE-2010-0307 reproducer
 *                                    when run as probe32 with a 64-bit
 *                                    VICTIM whose PT_INTERP is missing
 */
#include "kit.h"

KIT_ENTRY(kit_start);

static char **envp;

/* 1 if /proc/self/maps has a "[vsyscall]" line, 0 if not, -errno */
static long has_vsyscall(void)
{
	static char buf[16384];
	ulong n = 0;
	long r, fd = sys_open("/proc/self/maps", O_RDONLY, 0);

	if (fd < 0)
		return fd;
	while (n < sizeof(buf) && (r = sys_read((int)fd, buf + n, sizeof(buf) - n)) > 0)
		n += (ulong)r;
	sys_close((int)fd);
	return kit_memstr(buf, n, "[vsyscall]") != 0;
}

static ulong pers(void)
{
	return (ulong)sys_personality(0xffffffffUL);
}

static void report(void)
{
	struct line l; l.n = 0;
	int local;

	l_s(&l, "R bits=");
	l_u(&l, KIT_BITS);
	l_s(&l, " pers=");
	l_x(&l, pers());
	l_s(&l, " sp=");
	l_x(&l, (ulong)&local);
	l_s(&l, " brk=");
	l_x(&l, (ulong)sys_brk(0));
	l_s(&l, " vsys=");
	l_d(&l, has_vsyscall());
	l_nl(&l, 1);
}

static long exec_victim(const char *victim)
{
	char *av[] = { (char *)victim, 0 };

	return -sys_execve(victim, av, envp);
}

static void do_exec(char **argv)
{
	struct line l; l.n = 0;
	long r = sys_execve(argv[0], argv, envp);

	l_s(&l, "X err=");
	l_d(&l, -r);
	l_nl(&l, 1);
	sys_exit(126);
}

static __attribute__((noreturn)) void dump(void)
{
	struct kit_rlimit rl = { ~0UL, ~0UL };
	long r = sys_setrlimit(RLIMIT_CORE, &rl);

	if (r < 0) {
		struct line l; l.n = 0;

		l_s(&l, "D setrlimit=");
		l_d(&l, r);
		l_nl(&l, 1);
		sys_exit(125);
	}
	*(volatile int *)0 = 0x2010;	/* SIGSEGV: the kernel dumps core */
	sys_exit(124);
}

static int run(int argc, char **argv)
{
	struct line l; l.n = 0;
	const char *m = argc > 1 ? argv[1] : "report";

	if (kit_streq(m, "report")) {
		report();
		return 0;
	}
	if (kit_streq(m, "exec") && argc > 2)
		do_exec(argv + 2);
	if (kit_streq(m, "cvestate") && argc > 2) {
		long vs0 = has_vsyscall(), vs1, err;
		ulong p0 = pers(), p1;

		err = exec_victim(argv[2]);
		vs1 = has_vsyscall();
		p1 = pers();
		l_s(&l, "S err=");
		l_d(&l, err);
		l_s(&l, " vs0=");
		l_d(&l, vs0);
		l_s(&l, " vs1=");
		l_d(&l, vs1);
		l_s(&l, " p0=");
		l_x(&l, p0);
		l_s(&l, " p1=");
		l_x(&l, p1);
		l_nl(&l, 1);
		return 0;
	}
	if (kit_streq(m, "reverse") && argc > 3) {
		ulong p0 = pers(), p1;
		long err = exec_victim(argv[2]);

		p1 = pers();
		l_s(&l, "V err=");
		l_d(&l, err);
		l_s(&l, " p0=");
		l_x(&l, p0);
		l_s(&l, " p1=");
		l_x(&l, p1);
		l_nl(&l, 1);
		do_exec(argv + 3);
	}
	if (kit_streq(m, "dump"))
		dump();
	if (kit_streq(m, "repro") && argc > 2) {
		long err = exec_victim(argv[2]);

		l_s(&l, "P err=");
		l_d(&l, err);
		l_nl(&l, 1);
		dump();
	}
	l_s(&l, "probe: bad mode ");
	l_s(&l, m);
	l_nl(&l, 2);
	return 2;
}

__attribute__((used)) void kit_start(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);

	envp = argv + argc + 1;
	sys_exit(run(argc, argv));
}
