/*
 * ppc-init.c - PID 1 of the ppc64 stretch boot (cross/boot/ppc64-boot.sh).
 * The x86 guest's exec tests, cut to what applies on powerpc: the exec
 * matrix across 32/64 bits, a 32-bit process that fails to exec a 64-bit
 * ELF (and the reverse) keeps its personality, and the reproducer's core
 * dump after such a failed exec is an ELF32 EM_PPC core.  The probes and
 * victims are the first fix's guest/probe.c and victim.c (backports/fixes/)
 * built for powerpc.  TAP on
 * the console, then restart (-no-reboot ends QEMU).
 */
#include "kit.h"

KIT_ENTRY(kit_start);

#define RUNS 3
static int tno, npass, nfail;
static char *env[] = { "PATH=/bin", 0 };
struct res { char out[2048]; ulong n; int status; };

static void spawn(char *const av[], struct res *r)
{
	int fds[2];
	long pid, n;

	r->n = 0;
	r->status = -1;
	sys_unlink("/core");
	if (sys_pipe(fds) < 0)
		return;
	pid = sys_fork();
	if (pid == 0) {
		sys_close(fds[0]);
		sys_dup2(fds[1], 1);
		sys_chdir("/");
		sys_execve(av[0], av, env);
		sys_exit(127);
	}
	sys_close(fds[1]);
	while (r->n < sizeof(r->out) - 1 &&
	       ((n = sys_read(fds[0], r->out + r->n, sizeof(r->out) - 1 - r->n)) > 0 || n == -KIT_EINTR))
		if (n > 0)
			r->n += (ulong)n;
	r->out[r->n] = 0;
	sys_close(fds[0]);
	while (pid > 0 && sys_wait4(pid, &r->status, 0) == -KIT_EINTR)
		;
}

static void tap(const char *name, const char *why, const struct res *r)
{
	struct line l; l.n = 0;

	tno++;
	why ? nfail++ : npass++;
	l_s(&l, why ? "not ok " : "ok ");
	l_u(&l, (ulong)tno);
	l_s(&l, " - ");
	l_s(&l, name);
	if (why) {
		l_s(&l, "\n# ");
		l_s(&l, why);
		l_s(&l, "; wait status ");
		l_x(&l, (unsigned)r->status);
		l_s(&l, "; output: ");
		l_s(&l, r->out);
	}
	l_nl(&l, 1);
}

static int val(const struct res *r, const char *k, unsigned long long *v)
{
	return kit_getval(r->out, r->n, k, v);
}

static const char *report(const struct res *r, int bits)
{
	unsigned long long b, p;

	if (r->status != 0)
		return "probe did not exit 0";
	if (!val(r, "bits", &b) || !val(r, "pers", &p))
		return "no report from the probe";
	if ((int)b != bits)
		return bits == 64 ? "image did not run as 64-bit" : "image did not run as 32-bit";
	if ((p & 0xff) != 0)
		return "personality type is not PER_LINUX";
	return 0;
}

static void t_matrix(const char *name, char *from, char *to, int bits)
{
	char *av[] = { from, "exec", to, "report", 0 };
	struct res r;

	spawn(av, &r);
	tap(name, report(&r, bits), &r);
}

/* the core file /core: ELF, class, ET_CORE, machine (big endian) */
static const char *core_is(int bits, int machine)
{
	static unsigned char h[20];
	long fd = sys_open("/core", O_RDONLY, 0), n;

	if (fd < 0)
		return "no core file";
	n = sys_read((int)fd, h, sizeof(h));
	sys_close((int)fd);
	if (n != sizeof(h) || h[0] != 0x7f || h[1] != 'E' || h[2] != 'L' || h[3] != 'F')
		return "core is not ELF";
	if (h[4] != (bits == 32 ? 1 : 2))
		return bits == 32 ? "core is not ELF32" : "core is not ELF64";
	if ((h[16] << 8 | h[17]) != 4)
		return "core is not ET_CORE";
	if ((h[18] << 8 | h[19]) != machine)
		return machine == 20 ? "core e_machine is not EM_PPC" : "core e_machine is not EM_PPC64";
	return 0;
}

static void t_dump(const char *name, char *const av[], int bits, int machine, int failed_exec)
{
	struct res r;
	unsigned long long e;
	const char *why = 0;

	spawn(av, &r);
	if (failed_exec && (!val(&r, "err", &e) || e != KIT_ENOENT))
		why = "the failed exec did not say ENOENT";
	else if ((r.status & 0x7f) != SIGSEGV)
		why = "not killed by SIGSEGV";
	else if (!(r.status & 0x80))
		why = "no core dumped";
	else
		why = core_is(bits, machine);
	tap(name, why, &r);
}

__attribute__((used)) void kit_start(long *sp)
{
	struct line l; l.n = 0;
	struct res r;
	unsigned long long e, p0, p1;
	int k;

	(void)sp;
	l_s(&l, "KIT: ppc-init\nTAP version 13\n1..");
	l_u(&l, 7 + RUNS);
	l_nl(&l, 1);
	t_matrix("exec 64->64 runs 64-bit, PER_LINUX", "/bin/probe64", "/bin/probe64", 64);
	t_matrix("exec 64->32 runs 32-bit, PER_LINUX", "/bin/probe64", "/bin/probe32", 32);
	t_matrix("exec 32->64 runs 64-bit, PER_LINUX", "/bin/probe32", "/bin/probe64", 64);
	t_matrix("exec 32->32 runs 32-bit, PER_LINUX", "/bin/probe32", "/bin/probe32", 32);
	{
		char *av[] = { "/bin/probe32", "cvestate", "/bin/victim64", 0 };

		spawn(av, &r);
		tap("32-bit process: exec of a 64-bit ELF without its interpreter fails ENOENT, personality unchanged",
		    r.status != 0 ? "probe did not exit 0" :
		    !val(&r, "err", &e) || e != KIT_ENOENT ? "exec did not fail with ENOENT" :
		    !val(&r, "p0", &p0) || !val(&r, "p1", &p1) || p0 != p1 ? "personality changed" : 0, &r);
	}
	{
		char *av[] = { "/bin/probe64", "reverse", "/bin/victim32", "/bin/probe64", "report", 0 };

		spawn(av, &r);
		tap("64-bit process: failed exec of a 32-bit ELF, then a 64-bit exec runs 64-bit",
		    !val(&r, "err", &e) || e != KIT_ENOENT ? "exec did not fail with ENOENT" :
		    !val(&r, "p0", &p0) || !val(&r, "p1", &p1) || p0 != p1 ? "personality changed" :
		    report(&r, 64), &r);
	}
	{
		char *av[] = { "/bin/probe64", "dump", 0 };

		t_dump("64-bit fault dumps an ELF64 EM_PPC64 core", av, 64, 21, 0);
	}
	for (k = 1; k <= RUNS; k++) {
		char *av[] = { "/bin/probe32", "repro", "/bin/victim64", 0 };

		t_dump("reproducer: 32-bit, failed exec of a 64-bit ELF, then a fault: ELF32 EM_PPC core",
		       av, 32, 20, 1);
	}
	l_s(&l, "KIT: done passed=");
	l_u(&l, (unsigned)npass);
	l_s(&l, " failed=");
	l_u(&l, (unsigned)nfail);
	l_nl(&l, 1);
	sys_reboot(0x01234567);
	for (;;)
		sys_reboot(0x4321fedc);
}
