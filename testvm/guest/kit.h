/*
 * kit.h - the few libc pieces the guest programs need, on top of sys.h.
 *
 * Output is built in a line buffer and written with one write() so that a
 * line on the serial console is never split by another writer.
 */
#ifndef KIT_KIT_H
#define KIT_KIT_H

#include "sys.h"

static inline ulong kit_strlen(const char *s)
{
	ulong n = 0;

	while (s[n])
		n++;
	return n;
}

static inline int kit_streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* first occurrence of needle in hay[0..n) or 0 */
static inline const char *kit_memstr(const char *hay, ulong n, const char *needle)
{
	ulong m = kit_strlen(needle), i, j;

	for (i = 0; m && i + m <= n; i++) {
		for (j = 0; j < m && hay[i + j] == needle[j]; j++)
			;
		if (j == m)
			return hay + i;
	}
	return 0;
}

static inline void kit_memset(void *p, int c, ulong n)
{
	volatile unsigned char *q = p;	/* keep gcc from calling memset */

	while (n--)
		*q++ = (unsigned char)c;
}

/*
 * gcc may emit calls to these even for freestanding code (struct copies,
 * large zero-initialisations); the volatile pointers keep it from turning
 * the loops back into calls to themselves.
 */
__attribute__((used)) void *memset(void *p, int c, ulong n)
{
	kit_memset(p, c, n);
	return p;
}

__attribute__((used)) void *memcpy(void *d, const void *s, ulong n)
{
	volatile unsigned char *q = d;
	const unsigned char *r = s;

	while (n--)
		*q++ = *r++;
	return d;
}

struct line {
	char b[1024];
	ulong n;
};

static inline void l_c(struct line *l, char c)
{
	if (l->n < sizeof(l->b) - 1)
		l->b[l->n++] = c;
}

static inline void l_s(struct line *l, const char *s)
{
	while (s && *s)
		l_c(l, *s++);
}

/* decimal in a native long: i386 has no 64-bit division without libgcc */
static inline void l_u(struct line *l, ulong v)
{
	char t[24];
	int i = 0;

	do
		t[i++] = (char)('0' + v % 10);
	while (v /= 10);
	while (i)
		l_c(l, t[--i]);
}

static inline void l_d(struct line *l, long v)
{
	if (v < 0) {
		l_c(l, '-');
		v = -v;
	}
	l_u(l, (ulong)v);
}

static inline void l_x(struct line *l, unsigned long long v)
{
	int i, started = 0;

	l_s(l, "0x");
	for (i = 60; i >= 0; i -= 4) {
		int d = (int)((v >> i) & 15);

		if (d || started || i == 0) {
			l_c(l, "0123456789abcdef"[d]);
			started = 1;
		}
	}
}

static inline void l_flush(struct line *l, int fd)
{
	ulong off = 0;

	while (off < l->n) {
		long r = sys_write(fd, l->b + off, l->n - off);

		if (r == -KIT_EINTR)
			continue;
		if (r <= 0)
			break;
		off += (ulong)r;
	}
	l->n = 0;
}

static inline void l_nl(struct line *l, int fd)
{
	l_c(l, '\n');
	l_flush(l, fd);
}

/*
 * The kernel's command line, " " + /proc/cmdline, NUL-terminated, in a
 * buffer of its own (so that " key=" finds the first word too); its length
 * (1 when /proc/cmdline cannot be read).
 */
static inline ulong kit_cmdline(const char **out)
{
	static char buf[1024];
	long fd = sys_open("/proc/cmdline", O_RDONLY, 0), n = 0;

	if (fd >= 0) {
		n = sys_read((int)fd, buf + 1, sizeof(buf) - 2);
		sys_close((int)fd);
	}
	if (n < 0)
		n = 0;
	buf[0] = ' ';
	buf[n + 1] = 0;
	*out = buf;
	return (ulong)n + 1;
}

/* "key=value" lookup in a report: value parsed as decimal or 0x hex. */
static inline int kit_getval(const char *s, ulong n, const char *key,
			     unsigned long long *out)
{
	char k[32];
	ulong kl = kit_strlen(key), i;
	const char *p;
	unsigned long long v = 0;
	int neg = 0, any = 0;

	/* ' ' + key + '=' + NUL: kl + 3 bytes, the NUL included */
	if (kl + 3 > sizeof(k))
		return 0;
	k[0] = ' ';
	for (i = 0; i < kl; i++)
		k[i + 1] = key[i];
	k[kl + 1] = '=';
	k[kl + 2] = 0;
	p = kit_memstr(s, n, k);
	if (!p)
		return 0;
	p += kl + 2;
	if (*p == '-')
		neg = 1, p++;
	if (p[0] == '0' && p[1] == 'x') {
		for (p += 2;; p++, any = 1) {
			int d;

			if (*p >= '0' && *p <= '9')
				d = *p - '0';
			else if (*p >= 'a' && *p <= 'f')
				d = *p - 'a' + 10;
			else
				break;
			v = v * 16 + (unsigned)d;
		}
	} else {
		for (; *p >= '0' && *p <= '9'; p++, any = 1)
			v = v * 10 + (unsigned)(*p - '0');
	}
	*out = neg ? (unsigned long long)-(long long)v : v;
	return any;
}

/*
 * ---- TAP and the KIT: markers of a fix program ----------------------------
 *
 * A fix program (backports/fixes/<ID>/guest/, built with -DKIT_FIX_ID,
 * -DKIT_FIX_TESTS and -DKIT_FIX_PER_RUN from its FIX file's Guest: line)
 * is run by the runner as "PROG <first> <runs>" and prints exactly
 * KIT_FIX_TESTS + runs * KIT_FIX_PER_RUN results, numbered from <first>,
 * each named "<ID> <class>: ...", each after a "KIT: run N <ID> <name>"
 * line (a crash then names the test it happened in).  Run alone (no
 * argument: by hand, or as PID 1 with rdinit=) it prints a whole TAP
 * stream numbered from 1.  The contract: testvm/README.md, "Fix programs".
 */
#ifdef KIT_FIX_ID
static struct {
	int first;	/* the number of its first result (argv[1]) */
	int runs;	/* reproducer runs (argv[2], kit.runs= of the boot) */
	int n, fail, skip;
	int whole;	/* run alone: it prints the TAP header and plan */
} kit_t __attribute__((unused)) = { 1, 3, 0, 0, 0, 1 };

static inline int kit_plan(void)
{
	return KIT_FIX_TESTS + kit_t.runs * KIT_FIX_PER_RUN;
}

static inline int kit_atoi(const char *a)
{
	int v = 0;

	while (*a >= '0' && *a <= '9')
		v = v * 10 + (*a++ - '0');
	return v;
}

/* sp: the entry's stack (argc, argv...); prints the plan when run alone */
static inline void kit_fix_args(long *sp)
{
	struct line l; l.n = 0;

	if (sp[0] >= 2) {
		kit_t.first = kit_atoi((const char *)sp[2]);
		kit_t.whole = 0;	/* part of the runner's stream */
	}
	if (sp[0] >= 3 && kit_atoi((const char *)sp[3]) > 0)
		kit_t.runs = kit_atoi((const char *)sp[3]);
	if (kit_t.whole) {
		l_s(&l, "TAP version 13\n1..");
		l_u(&l, (ulong)kit_plan());
		l_nl(&l, 1);
	}
}

/* "N<sep><ID> <name>" for the next result */
static inline void kit_num_name(struct line *l, const char *sep, const char *name)
{
	l_u(l, (ulong)(kit_t.first + kit_t.n));
	l_s(l, sep);
	l_s(l, KIT_FIX_ID " ");
	l_s(l, name);
}

/* "KIT: run N <ID> <name>" before a test */
static inline void kit_begin(const char *name)
{
	struct line l; l.n = 0;

	l_s(&l, "KIT: run ");
	kit_num_name(&l, " ", name);
	l_nl(&l, 1);
}

/* a result; a failure's diagnostic on the next line, "# why" */
static inline void kit_result(int ok, const char *name, const char *diag)
{
	struct line l; l.n = 0;

	l_s(&l, ok ? "ok " : "not ok ");
	kit_num_name(&l, " - ", name);
	kit_t.n++;
	l_nl(&l, 1);
	if (!ok) {
		kit_t.fail++;
		l_s(&l, "# ");
		l_s(&l, diag);
		l_nl(&l, 1);
	}
}

static inline void kit_skip(const char *name, const char *why)
{
	struct line l; l.n = 0;

	l_s(&l, "ok ");
	kit_num_name(&l, " - ", name);
	l_s(&l, " # SKIP ");
	l_s(&l, why);
	kit_t.n++;
	kit_t.skip++;
	l_nl(&l, 1);
}

/*
 * A precond: test that proved the route to the flaw closed on this kernel
 * (the value read back narrowed, the interface absent): parse gives the
 * fix UNREACHABLE with `proof` as the evidence, and only with it
 * (testvm/README.md, "Verdicts").  Its cve-state: tests then SKIP.
 */
static inline void kit_unreachable(const char *name, const char *proof)
{
	struct line l; l.n = 0;

	l_s(&l, "ok ");
	kit_num_name(&l, " - ", name);
	l_s(&l, " # UNREACHABLE ");
	l_s(&l, proof);
	kit_t.n++;
	l_nl(&l, 1);
}

/*
 * "# <ID> done passed= failed= skipped=" and the exit status the runner
 * reports in "KIT: fix <ID> end status=": 0 every result ok, 1 a result
 * not ok, 2 a number of results other than planned (a bug of the program;
 * parse sees it too).
 */
static inline int kit_fix_done(void)
{
	struct line l; l.n = 0;

	l_s(&l, "# " KIT_FIX_ID " done passed=");
	l_u(&l, (ulong)(kit_t.n - kit_t.fail - kit_t.skip));
	l_s(&l, " failed=");
	l_u(&l, (ulong)kit_t.fail);
	l_s(&l, " skipped=");
	l_u(&l, (ulong)kit_t.skip);
	if (kit_t.n != kit_plan()) {
		l_s(&l, " results=");
		l_u(&l, (ulong)kit_t.n);
		l_s(&l, " (planned ");
		l_u(&l, (ulong)kit_plan());
		l_s(&l, ")");
	}
	l_nl(&l, 1);
	return kit_t.n != kit_plan() ? 2 : !!kit_t.fail;
}
#endif

#endif
