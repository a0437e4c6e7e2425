/*
 * init.c - PID 1 of the verification guest (x86_64, freestanding): a plain
 * runner in the kselftest way.  It knows no fix: it runs every program of
 * kit_fixes[] (fixes.h, generated from backports/fixes/<ID>/FIX at build
 * time) in that order, each in a process of its own, and prints on the
 * serial console (fd 1 is /dev/console) the lines testvm/parse.c keys on:
 *
 *   KIT: init v3 runs=N proc=ok|FAIL  start; runs from /proc/cmdline
 *                                     (kit.runs=N, default 3)
 *   TAP version 13 / 1..N             the whole plan: every fix's results
 *   KIT: fix <ID> plan M              M of them are fix <ID>'s
 *   KIT: fix <ID> start               then its program, run as
 *                                     "PROG <first> <runs>", prints its own
 *                                     results and markers (guest/kit.h)
 *   KIT: fix <ID> end status=0x..     its wait status
 *   KIT: done programs=P failed=F     F: programs that did not exit 0
 *
 * Crash isolation: a program that faults or is killed ends its own run,
 * and the next one starts.  The fixes whose reproducer brings an unfixed
 * kernel down (Guest: ... last) come after every other one in kit_fixes[],
 * so that their crash cannot hide another fix's results.  Then
 * reboot(RESTART): QEMU runs with -no-reboot and exits.
 */
#include "kit.h"
#include "fixes.h"

KIT_ENTRY(kit_start);

/* the environment every fix program starts with; its own children get its own */
static char *child_env[] = { "PATH=/bin", 0 };

/* kit.runs=N from /proc/cmdline: the fixes' reproducer runs */
static int read_runs(void)
{
	const char *cl;
	ulong n = kit_cmdline(&cl);
	unsigned long long v;

	if (kit_getval(cl, n, "kit.runs", &v) && v > 0 && v < 100)
		return (int)v;
	return 3;
}

static int plan_of(const struct kit_fix *f, int runs)
{
	return f->tests + runs * f->per_run;
}

/* one fix's program, numbered from first; returns its wait status */
static int run_fix(const struct kit_fix *f, int first, int runs)
{
	struct line a, b, l;
	char *av[] = { f->prog, a.b, b.b, 0 };
	int status = -1;
	long pid;

	a.n = b.n = l.n = 0;
	l_u(&a, (ulong)first);
	a.b[a.n] = 0;
	l_u(&b, (ulong)runs);
	b.b[b.n] = 0;
	l_s(&l, "KIT: fix ");
	l_s(&l, f->id);
	l_s(&l, " start");
	l_nl(&l, 1);
	pid = sys_fork();
	if (pid == 0) {
		long e = sys_execve(f->prog, av, child_env);

		l_s(&l, "# cannot run ");
		l_s(&l, f->prog);
		l_s(&l, ": execve error ");
		l_d(&l, -e);
		l_nl(&l, 1);
		sys_exit(127);
	}
	if (pid > 0)
		while (sys_wait4(pid, &status, 0) == -KIT_EINTR)
			;
	l_s(&l, "KIT: fix ");
	l_s(&l, f->id);
	l_s(&l, " end status=");
	l_x(&l, (unsigned)status);
	l_nl(&l, 1);
	return status;
}

__attribute__((used)) void kit_start(long *sp)
{
	struct line l; l.n = 0;
	int k, runs, ntests = 0, first = 1, failed = 0;
	long r;

	(void)sp;
	r = sys_mount("proc", "/proc", "proc", 0, 0);
	runs = read_runs();
	l_s(&l, "KIT: init v3 runs=");
	l_u(&l, (unsigned)runs);
	l_s(&l, r < 0 ? " proc=FAIL" : " proc=ok");
	l_nl(&l, 1);

	for (k = 0; k < KIT_NFIXES; k++)
		ntests += plan_of(&kit_fixes[k], runs);
	l_s(&l, "TAP version 13\n1..");
	l_u(&l, (unsigned)ntests);
	l_nl(&l, 1);
	for (k = 0; k < KIT_NFIXES; k++) {
		l_s(&l, "KIT: fix ");
		l_s(&l, kit_fixes[k].id);
		l_s(&l, " plan ");
		l_u(&l, (unsigned)plan_of(&kit_fixes[k], runs));
		l_nl(&l, 1);
	}
	for (k = 0; k < KIT_NFIXES; k++) {
		failed += run_fix(&kit_fixes[k], first, runs) != 0;
		first += plan_of(&kit_fixes[k], runs);
	}

	l_s(&l, "KIT: done programs=");
	l_u(&l, (unsigned)KIT_NFIXES);
	l_s(&l, " failed=");
	l_u(&l, (unsigned)failed);
	l_nl(&l, 1);
	sys_reboot(0x01234567);	/* LINUX_REBOOT_CMD_RESTART; -no-reboot ends QEMU */
	for (;;)
		sys_reboot(0x4321fedc);	/* POWER_OFF, should RESTART be refused */
}
