/*
 * init.c - PID 1 of the verification guest (x86_64, freestanding).
 *
 * Prints everything on the serial console (fd 1 is /dev/console), in three
 * parts the host parser (testvm/parse.c) keys on:
 *
 *   KIT: init ...                     start, with the settings read from
 *                                     /proc/cmdline (kit.runs=N, noexec32=)
 *   KIT: control <name> ok|FAIL ...   control phase: plain 64- and 32-bit
 *   KIT: phase control ok|FAIL        programs run and dump core correctly,
 *                                     so a crash later is the CVE's doing
 *   TAP version 13 / 1..N / ok N - …  the suite, kselftest style.  Test
 *                                     names start with a class the parser
 *                                     reads: "regress:", "precond:",
 *                                     "cve-state:", "repro:"
 *   KIT: fix <ID> plan N              after the plan: N of the results
 *                                     are the tests of fix <ID>
 *                                     (guest/fixes.h), named "<ID> ..."
 *   KIT: fix <ID> start / end status= around that fix's program, which
 *                                     prints its own TAP and KIT: run lines
 *   KIT: run N <name>                 before test N (oops attribution)
 *   KIT: cve start                    first failed exec from here on
 *   KIT: repro start K / end K        core-dumping reproducer run K
 *   KIT: done passed= failed= skipped=
 *
 * Harmless tests come first, then the other fixes' programs (none of them
 * can bring a kernel down); the core dump after the failed exec comes last
 * so that a vulnerable kernel has printed its state checks before it dies.
 * Then reboot(RESTART): QEMU runs with -no-reboot and exits.
 */
#include "kit.h"
#include "fixes.h"

KIT_ENTRY(kit_start);

#define ABOVE_4G(x)	((unsigned long long)(x) > 0xffffffffULL)

static int runs = 3;
static int nx32off;
static int tno, npass, nfail, nskip;
static int aout_enoexec;	/* t_aout: execve of the a.out said ENOEXEC */
static ulong child_as_limit;	/* spawn: RLIMIT_AS for the child, 0 = leave */

static char *child_env[] = { "PATH=/bin", "KIT_AOUT=kit-envp-ok", 0 };

struct res {
	char out[4096];
	ulong n;
	long pid;
	int status;		/* wait status */
	const char *why;	/* first failed check, for the diagnostic */
};

static void say(const char *a, const char *b)
{
	struct line l; l.n = 0;

	l_s(&l, "KIT: ");
	l_s(&l, a);
	l_s(&l, b);
	l_nl(&l, 1);
}

/* fork, run argv[0] with stdout into a pipe from /cores, collect output */
static void spawn(char *const argv[], struct res *r)
{
	int fds[2];
	long pid, n;

	r->n = 0;
	r->status = -1;
	r->why = 0;
	r->out[0] = 0;
	sys_unlink("/cores/core");
	if (sys_pipe(fds) < 0) {
		r->why = "pipe failed";
		return;
	}
	pid = sys_fork();
	if (pid == 0) {
		struct line l; l.n = 0;
		long e;

		sys_close(fds[0]);
		sys_dup2(fds[1], 1);
		sys_close(fds[1]);
		sys_chdir("/cores");
		if (child_as_limit) {
			struct kit_rlimit rl = { child_as_limit, child_as_limit };

			sys_setrlimit(RLIMIT_AS, &rl);
		}
		e = sys_execve(argv[0], argv, child_env);
		l_s(&l, "X err=");
		l_d(&l, -e);
		l_nl(&l, 1);
		sys_exit(127);
	}
	sys_close(fds[1]);
	if (pid < 0) {
		sys_close(fds[0]);
		r->why = "fork failed";
		return;
	}
	r->pid = pid;
	while (r->n < sizeof(r->out) - 1 &&
	       ((n = sys_read(fds[0], r->out + r->n, sizeof(r->out) - 1 - r->n)) > 0 ||
		n == -KIT_EINTR))
		if (n > 0)
			r->n += (ulong)n;
	r->out[r->n] = 0;
	sys_close(fds[0]);
	while (sys_wait4(pid, &r->status, 0) == -KIT_EINTR)
		;
}

static int exited0(const struct res *r) { return r->status == 0; }
static int sig_of(const struct res *r) { return r->status & 0x7f; }
static int cored(const struct res *r) { return (r->status & 0x80) != 0; }

static int val(const struct res *r, const char *key, unsigned long long *v)
{
	/* kit_getval wants a blank before the key; lines start "R key=" */
	return kit_getval(r->out, r->n, key, v);
}

/* ---- core file checks ------------------------------------------------ */

static unsigned char core[1 << 21];

static unsigned u16(const unsigned char *p) { return p[0] | p[1] << 8; }
static unsigned u32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (unsigned)p[3] << 24;
}
static unsigned long long u64(const unsigned char *p)
{
	return u32(p) | (unsigned long long)u32(p + 4) << 32;
}

/*
 * Read /cores/core back and check what the dumping process was: the
 * header class and machine, and the notes (NT_PRSTATUS of the right size
 * for the ABI with our pid and SIGSEGV; for ia32 also the user code
 * segment; NT_PRPSINFO naming the program).  Returns 0 or a reason.
 */
static const char *check_core(int bits, long pid, const char *comm)
{
	long fd = sys_open("/cores/core", O_RDONLY, 0), r;
	ulong n = 0, phoff, phent, phnum, i, noff = 0, nsz = 0, off;
	int seen_status = 0, seen_psinfo = 0;

	if (fd < 0)
		return "no /cores/core written";
	while (n < sizeof(core) && (r = sys_read((int)fd, core + n, sizeof(core) - n)) > 0)
		n += (ulong)r;
	sys_close((int)fd);
	if (n < 64 || core[0] != 0x7f || core[1] != 'E' || core[2] != 'L' || core[3] != 'F')
		return "core is not an ELF file";
	if (core[4] != (bits == 32 ? 1 : 2))
		return bits == 32 ? "core is not ELFCLASS32" : "core is not ELFCLASS64";
	if (u16(core + 16) != 4)
		return "core e_type is not ET_CORE";
	if (u16(core + 18) != (bits == 32 ? 3u : 62u))
		return bits == 32 ? "core e_machine is not EM_386" : "core e_machine is not EM_X86_64";
	if (bits == 32) {
		phoff = u32(core + 28), phent = u16(core + 42), phnum = u16(core + 44);
		if (phent != 32)
			return "core e_phentsize is not 32";
	} else {
		phoff = (ulong)u64(core + 32), phent = u16(core + 54), phnum = u16(core + 56);
		if (phent != 56)
			return "core e_phentsize is not 56";
	}
	for (i = 0; i < phnum; i++) {
		const unsigned char *ph = core + phoff + i * phent;

		if (phoff + (i + 1) * phent > n)
			return "core program headers truncated";
		if (u32(ph) == 4) {	/* PT_NOTE */
			noff = bits == 32 ? u32(ph + 4) : (ulong)u64(ph + 8);
			nsz = bits == 32 ? u32(ph + 16) : (ulong)u64(ph + 32);
			break;
		}
	}
	if (!nsz || noff + nsz > n)
		return "core has no readable PT_NOTE";
	for (off = noff; off + 12 <= noff + nsz;) {
		ulong namesz = u32(core + off), descsz = u32(core + off + 4);
		unsigned type = u32(core + off + 8);
		const unsigned char *name = core + off + 12;
		const unsigned char *desc = name + ((namesz + 3) & ~3UL);

		if ((ulong)(desc - core) + descsz > noff + nsz)
			return "core note runs past PT_NOTE";
		if (namesz == 5 && !kit_memstr((const char *)name, 5, "CORE"))
			;
		else if (namesz == 5 && type == 1 && !seen_status) {	/* NT_PRSTATUS */
			seen_status = 1;
			if (descsz != (bits == 32 ? 144u : 336u))
				return "NT_PRSTATUS has the wrong size for the ABI";
			if (u16(desc + 12) != SIGSEGV)
				return "NT_PRSTATUS pr_cursig is not SIGSEGV";
			if (u32(desc + (bits == 32 ? 24 : 32)) != (unsigned)pid)
				return "NT_PRSTATUS pr_pid is not the dumped process";
			if (bits == 32 && u32(desc + 72 + 13 * 4) != 0x23)
				return "NT_PRSTATUS xcs is not the 32-bit user code segment";
		} else if (namesz == 5 && type == 3) {			/* NT_PRPSINFO */
			seen_psinfo = 1;
			if (descsz != (bits == 32 ? 124u : 136u))
				return "NT_PRPSINFO has the wrong size for the ABI";
			if (!kit_memstr((const char *)desc + (bits == 32 ? 28 : 40), 16, comm))
				return "NT_PRPSINFO pr_fname is not the program";
		}
		off = (ulong)(desc - core) + ((descsz + 3) & ~3UL);
	}
	if (!seen_status)
		return "core has no NT_PRSTATUS note";
	if (!seen_psinfo)
		return "core has no NT_PRPSINFO note";
	return 0;
}

/* ---- TAP ------------------------------------------------------------- */

static void diag_output(const struct res *r)
{
	struct line l; l.n = 0;
	ulong i;
	int bol = 1;

	for (i = 0; r && i < r->n; i++) {
		if (bol)
			l_s(&l, "#   ");
		bol = r->out[i] == '\n';
		if (bol)
			l_nl(&l, 1);
		else
			l_c(&l, r->out[i]);
	}
	if (!bol)
		l_nl(&l, 1);
}

static void begin(const char *name)
{
	struct line l; l.n = 0;

	l_s(&l, "KIT: run ");
	l_u(&l, (ulong)tno + 1);
	l_s(&l, " ");
	l_s(&l, name);
	l_nl(&l, 1);
}

static void tap(const char *name, const char *why, const struct res *r)
{
	struct line l; l.n = 0;

	tno++;
	if (!why) {
		npass++;
		l_s(&l, "ok ");
	} else {
		nfail++;
		l_s(&l, "not ok ");
	}
	l_u(&l, (ulong)tno);
	l_s(&l, " - ");
	l_s(&l, name);
	l_nl(&l, 1);
	if (why) {
		l_s(&l, "# ");
		l_s(&l, why);
		if (r && r->status != -1 && r->status != 0) {
			l_s(&l, " (wait status ");
			l_x(&l, (unsigned)r->status);
			l_s(&l, ")");
		}
		l_nl(&l, 1);
		diag_output(r);
	}
}

static void tap_skip(const char *name, const char *reason)
{
	struct line l; l.n = 0;

	tno++;
	nskip++;
	l_s(&l, "ok ");
	l_u(&l, (ulong)tno);
	l_s(&l, " - ");
	l_s(&l, name);
	l_s(&l, " # SKIP ");
	l_s(&l, reason);
	l_nl(&l, 1);
}

/* ---- checks on a probe report ----------------------------------------- */

/* "R bits=.. pers=.. sp=.. brk=.. vsys=.." from an exited-0 probe */
static const char *check_report(const struct res *r, int bits)
{
	unsigned long long b, p, sp;

	if (r->why)
		return r->why;
	if (!exited0(r))
		return "probe did not exit 0";
	if (!val(r, "bits", &b) || !val(r, "pers", &p) || !val(r, "sp", &sp))
		return "no report from the probe";
	if ((int)b != bits)
		return bits == 64 ? "image did not run as 64-bit" : "image did not run as 32-bit";
	if ((p & 0xff) != 0)
		return "personality type is not PER_LINUX";
	if (bits == 64 && !ABOVE_4G(sp))
		return "64-bit image has its stack below 4 GiB (32-bit address space)";
	if (bits == 32 && ABOVE_4G(sp))
		return "32-bit image has its stack above 4 GiB";
	return 0;
}

static void t_matrix(const char *name, char *from, char *to, int bits)
{
	char *av[] = { from, "exec", to, "report", 0 };
	struct res r;

	begin(name);
	spawn(av, &r);
	tap(name, check_report(&r, bits), &r);
}

static void t_aslr(const char *name, char *prog, int bits)
{
	char *av[] = { prog, "report", 0 };
	struct res a, b;
	unsigned long long sa = 0, sb = 0, ba = 0, bb = 0;
	const char *why;

	begin(name);
	spawn(av, &a);
	why = check_report(&a, bits);
	if (!why) {
		spawn(av, &b);
		why = check_report(&b, bits);
		if (!why) {
			val(&a, "sp", &sa), val(&b, "sp", &sb);
			val(&a, "brk", &ba), val(&b, "brk", &bb);
			if (sa == sb)
				why = "same stack address in two execs";
			else if (ba == bb)
				why = "same brk in two execs";
		}
		if (why)
			diag_output(&a);
		tap(name, why, &b);
		return;
	}
	tap(name, why, &a);
}

static void t_rie32(void)
{
	const char *name = nx32off ?
		"regress: noexec32=off: 32-bit process has READ_IMPLIES_EXEC (1252f238db48)" :
		"regress: default boot: 32-bit process has no READ_IMPLIES_EXEC";
	char *av[] = { "/bin/probe32", "report", 0 };
	struct res r;
	unsigned long long p = 0;
	const char *why;

	begin(name);
	spawn(av, &r);
	why = check_report(&r, 32);
	if (!why) {
		val(&r, "pers", &p);
		if (!!(p & READ_IMPLIES_EXEC) != nx32off)
			why = nx32off ? "READ_IMPLIES_EXEC missing" : "READ_IMPLIES_EXEC set";
	}
	tap(name, why, &r);
}

static void t_aout(void)
{
	const char *name = "regress: ia32 a.out program sees argv and envp (318f6b228ba8)";
	char *av[] = { "/bin/aout32", "kit-argv-ok", 0 };
	struct res r;
	unsigned long long e;

	begin(name);
	spawn(av, &r);
	if (!r.why && r.status == 127 << 8 && val(&r, "err", &e) && e == KIT_ENOEXEC) {
		aout_enoexec = 1;
		tap_skip(name, "kernel has no a.out support (execve: ENOEXEC)");
		return;
	}
	if (!r.why && !exited0(&r))
		r.why = "a.out program did not exit 0";
	else if (!r.why && (!kit_memstr(r.out, r.n, " argc=2 ") ||
			    !kit_memstr(r.out, r.n, " argv1=kit-argv-ok ")))
		r.why = "a.out program saw the wrong argv";
	else if (!r.why && !kit_memstr(r.out, r.n, " env=KIT_AOUT=kit-envp-ok"))
		r.why = "a.out program saw the wrong envp";
	tap(name, r.why, &r);
}

/* AnonPages and PageTables from /proc/meminfo, in kB; 0 when unreadable */
static int meminfo(unsigned long long *anon, unsigned long long *pt)
{
	static char buf[4096];
	long fd = sys_open("/proc/meminfo", O_RDONLY, 0), r;
	ulong n = 0;
	const char *key[2] = { "\nAnonPages:", "\nPageTables:" };
	unsigned long long *out[2] = { anon, pt };
	int k;

	if (fd < 0)
		return 0;
	buf[n++] = '\n';
	while (n < sizeof(buf) - 1 && (r = sys_read((int)fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += (ulong)r;
	sys_close((int)fd);
	buf[n] = 0;
	for (k = 0; k < 2; k++) {
		const char *p = kit_memstr(buf, n, key[k]);
		unsigned long long v = 0;

		if (!p)
			return 0;
		for (p += kit_strlen(key[k]); *p == ' '; p++)
			;
		if (*p < '0' || *p > '9')
			return 0;
		for (; *p >= '0' && *p <= '9'; p++)
			v = v * 10 + (unsigned)(*p - '0');
		*out[k] = v;
	}
	return 1;
}

/*
 * 318f6b228ba8 removes "current->mm->mmap = NULL" from the ia32 a.out
 * loader.  That line empties the new mm's VMA list while the rb-tree still
 * holds the stack VMA (argv and envp).  When the text is mapped, the first
 * VMA linked below the stack relinks the list, so a program that starts is
 * whole (t_aout passes without the fix).  When the text mapping fails
 * (here: RLIMIT_AS of one page, so the a.out is killed after the point of
 * no return), the list stays empty: exit_mmap() frees nothing, and the
 * stack VMA, its argument page and its page tables leak on every such exec
 * (2.6.29-2.6.32), or exit_mmap()'s nr_ptes BUG_ON fires (2.6.26-2.6.28:
 * no "if (!vma) return" yet).  So: run it AOUT_FAIL_RUNS times and check
 * that AnonPages + PageTables did not grow.  Last in the suite, as it can
 * bring an unfixed kernel down.
 */
#define AOUT_FAIL_RUNS 64

static void t_aout_fail(void)
{
	const char *name = "regress: ia32 a.out whose text cannot be mapped (RLIMIT_AS) "
			   "is killed and leaks no memory (318f6b228ba8)";
	char *av[] = { "/bin/aout32", "kit-argv-ok", 0 };
	static struct res r;
	unsigned long long a0 = 0, p0 = 0, a1 = 0, p1 = 0;
	long long grew;
	const char *why = 0;
	static struct line w;
	int i;

	begin(name);
	if (aout_enoexec) {
		tap_skip(name, "kernel has no a.out support (execve: ENOEXEC)");
		return;
	}
	if (!meminfo(&a0, &p0)) {
		tap(name, "cannot read AnonPages/PageTables from /proc/meminfo", 0);
		return;
	}
	child_as_limit = 4096;
	for (i = 0; i < AOUT_FAIL_RUNS && !why; i++) {
		spawn(av, &r);
		if (r.why)
			why = r.why;
		else if (r.status != SIGKILL)
			why = "a.out under RLIMIT_AS=4096 was not killed by SIGKILL "
			      "(its text mapping did not fail after the point of no return)";
	}
	child_as_limit = 0;
	if (!why && !meminfo(&a1, &p1))
		why = "cannot read AnonPages/PageTables from /proc/meminfo";
	grew = (long long)(a1 + p1) - (long long)(a0 + p0);
	if (!why) {
		w.n = 0;
		l_s(&w, grew >= AOUT_FAIL_RUNS * 4 ? "" : "# ");
		l_s(&w, "AnonPages+PageTables grew by ");
		l_d(&w, (long)grew);
		l_s(&w, " kB over ");
		l_u(&w, AOUT_FAIL_RUNS);
		l_s(&w, " killed a.out execs (AnonPages ");
		l_u(&w, (ulong)a0);
		l_s(&w, "->");
		l_u(&w, (ulong)a1);
		l_s(&w, " kB, PageTables ");
		l_u(&w, (ulong)p0);
		l_s(&w, "->");
		l_u(&w, (ulong)p1);
		l_s(&w, " kB)");
		if (grew < AOUT_FAIL_RUNS * 4) {
			tap(name, 0, 0);
			l_nl(&w, 1);	/* the numbers, as a TAP comment */
			return;
		}
		l_s(&w, ": the stack VMA was never freed");
		w.b[w.n] = 0;
		why = w.b;
	}
	tap(name, why, why && r.status != SIGKILL ? &r : 0);
}

/* 32-bit fails to exec the 64-bit victim: the CVE's state, without a dump */
static void t_cvestate(void)
{
	char *av[] = { "/bin/probe32", "cvestate", "/bin/victim64", 0 };
	struct res r;
	unsigned long long err = 0, vs1 = 1, p0 = 0, p1 = 1;
	const char *why = 0;
	int ok;

	begin("cvestate");
	spawn(av, &r);
	ok = !r.why && exited0(&r) && val(&r, "err", &err) && val(&r, "vs1", &vs1) &&
	     val(&r, "p0", &p0) && val(&r, "p1", &p1);
	if (!ok)
		why = r.why ? r.why : "probe32 cvestate did not report";
	else if (err != KIT_ENOENT)
		why = "execve of the 64-bit victim did not fail with ENOENT";
	tap("precond: 32-bit execve of a 64-bit ELF with a missing PT_INTERP fails with ENOENT",
	    why, &r);
	if (why) {
		tap_skip("cve-state: no [vsyscall] in a 32-bit process after a failed exec", why);
		tap_skip("cve-state: 32-bit personality unchanged after a failed exec", why);
		return;
	}
	tap("cve-state: no [vsyscall] in a 32-bit process after a failed exec",
	    vs1 == 0 ? 0 : "[vsyscall] mapped: the process was switched to 64-bit", &r);
	tap("cve-state: 32-bit personality unchanged after a failed exec",
	    p0 == p1 ? 0 : "personality(0xffffffff) changed", &r);
}

/* 64-bit fails to exec the 32-bit victim, then execs a 64-bit program */
static void t_reverse(void)
{
	char *av[] = { "/bin/probe64", "reverse", "/bin/victim32", "/bin/probe64", "report", 0 };
	struct res r;
	unsigned long long err = 0, p0 = 0, p1 = 1, p = 1;
	const char *why = 0;

	begin("reverse");
	spawn(av, &r);
	if (r.why || !val(&r, "err", &err) || !val(&r, "p0", &p0) || !val(&r, "p1", &p1))
		why = r.why ? r.why : "probe64 reverse did not report";
	else if (err != KIT_ENOENT)
		why = "execve of the 32-bit victim did not fail with ENOENT";
	tap("precond: 64-bit execve of a 32-bit ELF with a missing PT_INTERP fails with ENOENT",
	    why, &r);
	if (why) {
		tap_skip("cve-state: 64-bit personality unchanged after a failed exec of a 32-bit ELF", why);
		tap_skip("cve-state: 64-bit program exec'd after that runs 64-bit, personality unchanged", why);
		return;
	}
	tap("cve-state: 64-bit personality unchanged after a failed exec of a 32-bit ELF",
	    p0 == p1 ? 0 : "personality(0xffffffff) changed (READ_IMPLIES_EXEC leaked?)", &r);
	why = check_report(&r, 64);
	if (!why && (!val(&r, "pers", &p) || p != p0))
		why = "exec'd 64-bit program has a different personality";
	tap("cve-state: 64-bit program exec'd after that runs 64-bit, personality unchanged", why, &r);
}

/* the reproducer proper: failed exec, then a core dump */
static void t_repro(int k)
{
	char *av[] = { "/bin/probe32", "repro", "/bin/victim64", 0 };
	struct res r;
	unsigned long long err = 0;
	const char *why = 0;
	struct line l; l.n = 0;

	l_s(&l, "KIT: repro start ");
	l_u(&l, (unsigned)k);
	l_nl(&l, 1);
	begin("repro");
	spawn(av, &r);
	l_s(&l, "KIT: repro end ");
	l_u(&l, (unsigned)k);
	l_s(&l, " status=");
	l_x(&l, (unsigned)r.status);
	l_nl(&l, 1);
	if (r.why)
		why = r.why;
	else if (!val(&r, "err", &err) || err != KIT_ENOENT)
		why = "execve of the 64-bit victim did not fail with ENOENT";
	else if (sig_of(&r) != SIGSEGV)
		why = "reproducer did not die by SIGSEGV";
	else if (!cored(&r))
		why = "reproducer died without a core dump";
	tap("repro: 32-bit process after a failed exec dies by SIGSEGV with core dumped", why, &r);
	if (why) {
		tap_skip("cve-state: its core is ELF32 EM_386 with ia32 notes", why);
		return;
	}
	tap("cve-state: its core is ELF32 EM_386 with ia32 notes",
	    check_core(32, r.pid, "probe32"), &r);
}

/*
 * Another fix's tests (guest/fixes.h): its program prints f->tests TAP
 * results numbered from tno + 1 straight to the console, so that its lines
 * are out before anything it does could stop the kernel.  Its exit status
 * (16 * failed + skipped) brings its results into "KIT: done"; a program
 * that did not exit with such a status counts as that many failures there
 * (parse.c judges from the TAP lines, not from this count).
 */
static void t_fix(const struct kit_fix *f)
{
	struct line n; n.n = 0;
	char *av[] = { f->prog, n.b, 0 };
	struct line l; l.n = 0;
	int status = -1, code, failed, skipped;
	long pid;

	l_u(&n, (ulong)tno + 1);	/* argv[1]: the number of its first test */
	n.b[n.n] = 0;
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
	code = (status & 0x7f) ? -1 : (status >> 8) & 0xff;
	failed = code >> 4, skipped = code & 15;
	if (code < 0 || failed + skipped > f->tests)
		failed = f->tests, skipped = 0;
	tno += f->tests;
	nfail += failed;
	nskip += skipped;
	npass += f->tests - failed - skipped;
	l_s(&l, "KIT: fix ");
	l_s(&l, f->id);
	l_s(&l, " end status=");
	l_x(&l, (unsigned)status);
	l_nl(&l, 1);
}

/* ---- control phase ---------------------------------------------------- */

static int control(const char *name, const char *why, const struct res *r)
{
	say(name, why ? " FAIL" : " ok");
	if (why) {
		say("control reason: ", why);
		diag_output(r);
	}
	return why == 0;
}

static int control_phase(void)
{
	char *r64[] = { "/bin/probe64", "report", 0 };
	char *r32[] = { "/bin/probe32", "report", 0 };
	char *d32[] = { "/bin/probe32", "dump", 0 };
	char *d64[] = { "/bin/probe64", "dump", 0 };
	struct res r;
	unsigned long long vs = 1;
	const char *why;
	int ok = 1;

	spawn(r64, &r);
	why = check_report(&r, 64);
	ok &= control("control probe64", why, &r);
	spawn(r32, &r);
	why = check_report(&r, 32);
	if (!why && (!val(&r, "vsys", &vs) || vs != 0))
		why = "a plain 32-bit process shows [vsyscall] or cannot read its maps";
	ok &= control("control probe32", why, &r);
	spawn(d32, &r);
	why = r.why ? r.why : sig_of(&r) != SIGSEGV ? "no SIGSEGV" :
	      !cored(&r) ? "no core dumped" : check_core(32, r.pid, "probe32");
	ok &= control("control core32", why, &r);
	spawn(d64, &r);
	why = r.why ? r.why : sig_of(&r) != SIGSEGV ? "no SIGSEGV" :
	      !cored(&r) ? "no core dumped" : check_core(64, r.pid, "probe64");
	ok &= control("control core64", why, &r);
	return ok;
}

/* ---- main ------------------------------------------------------------- */

static void read_cmdline(void)
{
	static char buf[1024];
	long fd = sys_open("/proc/cmdline", O_RDONLY, 0), n = 0;
	unsigned long long v;

	if (fd >= 0) {
		n = sys_read((int)fd, buf + 1, sizeof(buf) - 2);
		sys_close((int)fd);
	}
	if (n < 0)
		n = 0;
	buf[0] = ' ';
	buf[n + 1] = 0;
	if (kit_getval(buf, (ulong)n + 1, "kit.runs", &v) && v > 0 && v < 100)
		runs = (int)v;
	nx32off = kit_memstr(buf, (ulong)n + 1, " noexec32=off") != 0;
}

static __attribute__((noreturn)) void finish(void)
{
	struct line l; l.n = 0;

	l_s(&l, "KIT: done passed=");
	l_u(&l, (unsigned)npass);
	l_s(&l, " failed=");
	l_u(&l, (unsigned)nfail);
	l_s(&l, " skipped=");
	l_u(&l, (unsigned)nskip);
	l_nl(&l, 1);
	sys_reboot(0x01234567);	/* LINUX_REBOOT_CMD_RESTART; -no-reboot ends QEMU */
	for (;;)
		sys_reboot(0x4321fedc);	/* POWER_OFF, should RESTART be refused */
}

__attribute__((used)) void kit_start(long *sp)
{
	struct line l; l.n = 0;
	int k, ntests;
	long r;

	(void)sp;
	r = sys_mount("proc", "/proc", "proc", 0, 0);
	read_cmdline();
	l_s(&l, "KIT: init v2 runs=");
	l_u(&l, (unsigned)runs);
	l_s(&l, nx32off ? " noexec32=off" : " noexec32=default");
	l_s(&l, r < 0 ? " proc=FAIL" : " proc=ok");
	l_nl(&l, 1);

	say("phase control start", "");
	if (!control_phase()) {
		say("phase control FAIL", "");
		finish();
	}
	say("phase control ok", "");

	ntests = 9 + 6 + 2 * runs;	/* init's own: CVE-2010-0307 */
	for (k = 0; k < KIT_NFIXES; k++)
		ntests += kit_fixes[k].tests;
	l_s(&l, "TAP version 13\n1..");
	l_u(&l, (unsigned)ntests);
	l_nl(&l, 1);
	for (k = 0; k < KIT_NFIXES; k++) {
		l_s(&l, "KIT: fix ");
		l_s(&l, kit_fixes[k].id);
		l_s(&l, " plan ");
		l_u(&l, (unsigned)kit_fixes[k].tests);
		l_nl(&l, 1);
	}
	t_matrix("regress: exec 64->64 runs 64-bit, PER_LINUX", "/bin/probe64", "/bin/probe64", 64);
	t_matrix("regress: exec 64->32 runs 32-bit, PER_LINUX", "/bin/probe64", "/bin/probe32", 32);
	t_matrix("regress: exec 32->64 runs 64-bit, PER_LINUX", "/bin/probe32", "/bin/probe64", 64);
	t_matrix("regress: exec 32->32 runs 32-bit, PER_LINUX", "/bin/probe32", "/bin/probe32", 32);
	t_aslr("regress: 64-bit stack and brk randomised across execs", "/bin/probe64", 64);
	t_aslr("regress: 32-bit stack and brk randomised across execs", "/bin/probe32", 32);
	t_rie32();
	t_aout();
	/* the other fixes: harmless to any kernel, so before the failed exec */
	for (k = 0; k < KIT_NFIXES; k++)
		t_fix(&kit_fixes[k]);

	say("cve start", "");
	t_cvestate();
	t_reverse();
	for (k = 1; k <= runs; k++)
		t_repro(k);
	t_aout_fail();
	finish();
}
