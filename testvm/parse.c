/*
 * parse - turn one boot's serial log into verdicts (host tool): one per fix
 * the guest tests, and the boot's, the worst of them.
 *
 *   parse [--runs N] [--end qemu|panic|crash|silence|timeout] [--map SYSTEM_MAP] LOG
 *
 * --map: kernels built without KALLSYMS print raw addresses; with the
 * tree's System.map the signature names functions (sym+0xoff) anyway.
 *
 * Prints one JSON object on stdout:
 *   {"verdict", "signature", "runs", "runs_expected", "phase",
 *    "tests": {"planned", "passed", "failed", "skipped"},
 *    "failed_tests": ["<name of each not-ok test>", ...],
 *    "fixes": {"<CVE id>": {"verdict", "signature", "tests": {...},
 *                           "failed_tests": [...], "control_failed"
 *                           [, "unreachable"]}, ...}}
 * ("control_failed": the fix's own control phase failed or did not finish,
 * so nothing of it was judged; "unreachable": the proof a precond: test
 * gave, on an UNREACHABLE fix).
 * The top-level tests and failed_tests are the whole boot's, each fix's
 * its own; the top-level verdict is the worst of the fixes' (overall()).
 * Exit 0 when the log was read (whatever the verdict), 2 on bad usage or
 * an unreadable file, 1 when memory runs out.
 *
 * The verdicts (VULNERABLE, REGRESSED, INCONCLUSIVE, SURVIVED, and per fix
 * NOT-TESTED and UNREACHABLE) are defined once, in testvm/README.md,
 * "## Verdicts"; judge_fix() below is that definition in code, the same
 * for every fix (no fix is special), keyed on the runner's and the fix
 * programs' markers (guest/init.c, guest/kit.h) and never on a single
 * kernel function name.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXT 1024
#define MAXFIX 32

/*
 * The fixes the guest tests, in the runner's order: fixes.h, generated
 * from backports/fixes/<ID>/FIX by testvm/gen-fixes.sh.  A fix listed
 * there gets a verdict from every log (NOT-TESTED where the image had no
 * tests for it); one the log names and the list does not is judged all
 * the same, on the same rules.
 */
#include "fixes.h"

/* An input that cannot be read is bad input: one line, exit 2. */
static void unreadable(const char *path, const char *what)
{
	fprintf(stderr, "parse: error: cannot read %s %s: %s\n", what, path, strerror(errno));
	exit(2);
}

/* Out of memory is a failed step, not bad input: exit 1, and say so. */
static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fputs("parse: error: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

enum phase { P_BOOT, P_CONTROL, P_SUITE, P_CVE, P_REPRO, P_DONE };
static const char *phase_name[] = { "boot", "control", "suite", "cve", "repro", "done" };

static char **lines;
static int nlines;

struct sym {
	unsigned long long a;
	char name[64];
};

static struct sym *syms;
static size_t nsyms;

static int sym_cmp(const void *x, const void *y)
{
	const struct sym *a = x, *b = y;

	return a->a < b->a ? -1 : a->a > b->a;
}

static void load_map(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256], name[64], t;
	unsigned long long a;
	size_t cap = 0;

	if (!f)
		unreadable(path, "the System.map");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %63s", &a, &t, name) == 3 && (t == 't' || t == 'T')) {
			if (nsyms == cap) {
				cap = cap ? cap * 2 : 8192;
				syms = xrealloc(syms, cap * sizeof(*syms));
			}
			syms[nsyms].a = a;
			snprintf(syms[nsyms].name, sizeof(syms[nsyms].name), "%s", name);
			nsyms++;
		}
	fclose(f);
	qsort(syms, nsyms, sizeof(*syms), sym_cmp);
}

/* raw address -> "sym+0xoff" when a System.map was given */
static void symbolise(char *out, size_t n)
{
	unsigned long long a;
	size_t lo = 0, hi = nsyms;
	char *e;

	if (!nsyms)
		return;
	a = strtoull(out, &e, 16);
	if (*e || !a || a < syms[0].a)
		return;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (syms[mid].a <= a)
			lo = mid;
		else
			hi = mid;
	}
	if (a - syms[lo].a > 0x100000)
		return;
	snprintf(out, n, "%s+0x%llx", syms[lo].name, a - syms[lo].a);
}

struct tap {
	int seen, ok, skip, fix;	/* fix: its index in fix[] */
	char name[200];
	char diag[200];
};

static struct tap tap[MAXT + 1];

static void read_log(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 0, len = 0;
	char *buf = NULL, *p, *s;
	int c, cap_l = 0;

	if (!f)
		unreadable(path, "the serial log");
	while ((c = fgetc(f)) != EOF) {
		if (len + 2 > cap) {
			cap = cap ? cap * 2 : 65536;
			buf = xrealloc(buf, cap);
		}
		/* serial noise: keep text, drop CR and other control bytes */
		if (c == '\n' || c == '\t' || (c >= 32 && c != 127) || c >= 128)
			buf[len++] = (char)c;
	}
	if (ferror(f))
		unreadable(path, "the serial log");	/* a half-read log gets no verdict */
	fclose(f);
	if (!buf)
		buf = xrealloc(NULL, 1);
	buf[len] = 0;
	for (s = buf; s && *s; s = p ? p + 1 : NULL) {
		p = strchr(s, '\n');
		if (p)
			*p = 0;
		if (nlines + 1 >= cap_l) {
			cap_l = cap_l ? cap_l * 2 : 4096;
			lines = xrealloc(lines, sizeof(*lines) * (size_t)cap_l);
		}
		lines[nlines++] = s;
	}
}

static int starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* A kernel crash line.  Our own lines (KIT:, TAP, # diagnostics) never are. */
static int is_crash(const char *s)
{
	static const char *const pat[] = {
		"BUG: unable to handle", "BUG: kernel NULL pointer", "BUG: scheduling",
		"BUG: spinlock", "BUG: soft lockup", "BUG: Bad", "BUG: ",
		"kernel BUG at", "Oops: ", "general protection fault",
		"Kernel panic - not syncing", "Thread overran stack",
		"stack-protector:", "double fault", "invalid opcode:",
		"Unable to handle kernel", "Kernel stack is corrupted", NULL
	};
	int i;

	if (starts(s, "KIT:") || starts(s, "#") || starts(s, "ok ") || starts(s, "not ok "))
		return 0;
	for (i = 0; pat[i]; i++)
		if (strstr(s, pat[i]))
			return 1;
	return 0;
}

static int is_warning(const char *s)
{
	return !starts(s, "KIT:") && !starts(s, "#") &&
	       (strstr(s, "WARNING: at ") || strstr(s, "WARNING: CPU:"));
}

/* "ok N - name # SKIP why" / "not ok N - name" */
static int parse_tap(const char *s, int *num, int *ok, int *skip, char *name, size_t nsz)
{
	const char *p = s, *h;
	char *e;
	long n;

	if (starts(p, "ok "))
		*ok = 1, p += 3;
	else if (starts(p, "not ok "))
		*ok = 0, p += 7;
	else
		return 0;
	n = strtol(p, &e, 10);
	if (e == p || n <= 0)
		return 0;
	*num = (int)n;
	p = e;
	while (*p == ' ' || *p == '-')
		p++;
	h = strstr(p, " # SKIP");
	*skip = *ok && h;
	if (!h)
		h = strstr(p, " # UNREACHABLE");	/* a directive, not the name */
	snprintf(name, nsz, "%.*s", (int)(h ? (size_t)(h - p) : strlen(p)), p);
	return 1;
}

/* the function (or raw address) a trace or IP line names */
static int frame_name(const char *s, char *out, size_t n)
{
	const char *p, *q;
	size_t k;

	/* 2.6: " [<ffffffff8104a3b1>] ? elf_core_dump+0x4a1/0xc70"
	 * 6.1: " elf_core_dump+0x4a1/0xc70" or "RIP: 0010:genregs_get+0x25/0x80" */
	p = NULL;
	for (q = strstr(s, "] "); q; q = strstr(q + 1, "] "))
		p = q;		/* the last "] ": "RIP: 0010:[<a>]  [<a>] sym" */
	if (p && strstr(s, "[<")) {
		p += 2;
		if (*p == '?' && p[1] == ' ')
			p += 2;
	} else {
		p = strchr(s, ':');
		p = p ? p + 1 : s;
		while (*p == ' ')
			p++;
		if (isxdigit((unsigned char)p[0]) && strchr(p, ':') &&
		    strchr(p, ':') < strchr(p, '+' ) )
			p = strchr(p, ':') + 1;	/* "0010:" */
	}
	while (*p == ' ')
		p++;
	if (starts(p, "(null)") && n > 6) {
		strcpy(out, "(null)");
		return 1;
	}
	q = p;
	while (*q && (isalnum((unsigned char)*q) || *q == '_' || *q == '.'))
		q++;
	k = (size_t)(q - p);
	if ((!k || k >= n) && (p = strstr(s, "[<")) != NULL) {
		/* 2.6.26 without KALLSYMS: "IP: [<ffffffff80211e29>]" and nothing after */
		p += 2;
		k = strspn(p, "0123456789abcdef");
		if (!k || k >= n || p[k] != '>')
			return 0;
		memcpy(out, p, k);
		out[k] = 0;
		symbolise(out, n);
		return 1;
	}
	if (!k || k >= n)
		return 0;
	if (*q == '+') {	/* symbol+off/len */
		memcpy(out, p, k);
		out[k] = 0;
		return 1;
	}
	if (starts(p, "0x") || (k >= 8 && strspn(p, "0123456789abcdef") == k)) {
		memcpy(out, p, k);	/* no symbols: the raw address */
		out[k] = 0;
		symbolise(out, n);
		return 1;
	}
	return 0;
}

/* Signature of the first crash at line i: titles, IP, comm, trace. */
static void crash_signature(int i, char *sig, size_t n)
{
	char ip[128] = "", comm[64] = "", trace[512] = "", t1[200] = "", t2[200] = "";
	int j, in_trace = 0, frames = 0;
	char f[128];

	snprintf(t1, sizeof(t1), "%s", lines[i]);
	for (j = i + 1; j < nlines && j < i + 120; j++) {
		const char *s = lines[j];
		const char *c;

		if (!in_trace && !t2[0] && is_crash(s) && !strstr(s, "Oops: ") &&
		    !strstr(t1, "Kernel panic") && strcmp(s, t1))
			snprintf(t2, sizeof(t2), "%s", s);
		if (!ip[0] && (starts(s, "IP: ") || starts(s, "RIP: ")) && frame_name(s, f, sizeof(f)))
			snprintf(ip, sizeof(ip), "%s", f);
		if (!comm[0] && (c = strstr(s, "comm: ")) != NULL && c[6] != ' ')
			sscanf(c + 6, "%63s", comm);	/* 2.6.26 prints "comm:  Not tainted" */
		if (strstr(s, "Call Trace:")) {
			in_trace = 1;
			continue;
		}
		if (in_trace) {
			if (starts(s, "Code:") || strstr(s, "---[ end trace") ||
			    strstr(s, "Kernel panic") || strstr(s, "RIP ") || frames >= 8)
				break;
			if (strstr(s, "<IRQ>") || strstr(s, "<EOI>") || strstr(s, "</IRQ>"))
				continue;
			if (frame_name(s, f, sizeof(f))) {
				size_t l = strlen(trace);

				snprintf(trace + l, sizeof(trace) - l, "%s%s", frames ? " < " : "", f);
				frames++;
			}
		}
	}
	if (strlen(t1) > 120)
		t1[120] = 0;
	if (strlen(t2) > 120)
		t2[120] = 0;
	snprintf(sig, n, "%s%s%s%s%s%s%s%s%s", t1, t2[0] ? " / " : "", t2,
		 ip[0] ? "; IP " : "", ip, comm[0] ? "; comm " : "", comm,
		 trace[0] ? "; trace " : "", trace);
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 32)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

/* What one pass over the log found for the whole boot. */
struct scan {
	int banners, init_at, init_v, plan, done;
	int runs_exp, runs_started, crash_at, crash_test, cur_test;
	int open[MAXFIX], nopen;	/* the fix blocks open (start seen, no end), innermost last */
	enum phase ph, crash_ph;
	char run_name[200], crash_name[200];
};

/* One fix's part of the log: the results named "<ID> ...", and what
 * happened between its "KIT: fix <ID> start" and "end". */
struct fix {
	char id[32];
	int known, per_run;	/* listed in fixes.h; its results per reproducer run */
	int planned;		/* "KIT: fix <ID> plan N"; -1: none */
	int start_at, end_at;	/* lines of its start / end markers; -1: none */
	int last_at;		/* line of its last result; -1: none */
	int present, passed, failed, skipped;
	int precond_fail, precond_ok_at, state_total, state_pass, state_fail, cleanup_fail, warn;
	int control_at, control_ok, control_fail;	/* its control phase, if it has one */
	int runs_started, repro_ok, repro_tests;
	int unreach;		/* a precond: result said # UNREACHABLE */
	int miscount;		/* its program said it printed other than its plan */
	char state[600], precond[300], skip_why[200], why[300], proof[300];
	const char *verdict;
	char sig[1400];
};

static struct fix fix[MAXFIX];
static int nfix;

/* fix[] index of the fix named id[0..len), added when new; -1 when full */
static int fix_index(const char *id, size_t len)
{
	int k;

	for (k = 0; k < nfix; k++)
		if (strlen(fix[k].id) == len && !strncmp(fix[k].id, id, len))
			return k;
	if (nfix == MAXFIX || !len || len >= sizeof(fix[0].id))
		return -1;
	memset(&fix[nfix], 0, sizeof(fix[nfix]));
	memcpy(fix[nfix].id, id, len);
	fix[nfix].planned = fix[nfix].start_at = fix[nfix].end_at = fix[nfix].last_at = -1;
	fix[nfix].precond_ok_at = fix[nfix].control_at = fix[nfix].control_fail = -1;
	return nfix++;
}

/* the innermost fix block open at this point of the log, -1 none */
static int open_fix(const struct scan *r)
{
	return r->nopen ? r->open[r->nopen - 1] : -1;
}

/* The fix a test belongs to: "CVE-YYYY-N <rest>" names it; a name without
 * one is the open fix's (a program that forgot its prefix is still held to
 * its results).  *rest: the name from the class on.  -1: nobody's. */
static int fix_of(const struct scan *r, const char *name, const char **rest)
{
	const char *p = name + 4;

	*rest = name;
	if (!starts(name, "CVE-") || !isdigit((unsigned char)*p))
		return open_fix(r);
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != '-' || !isdigit((unsigned char)*p))
		return open_fix(r);
	while (isdigit((unsigned char)*p))
		p++;
	if (*p != ' ')
		return open_fix(r);
	*rest = p + 1;
	return fix_index(name, (size_t)(p - name));
}

static void append(char *buf, size_t n, const char *name, const char *diag)
{
	size_t l = strlen(buf);

	snprintf(buf + l, n - l, "%s%s (%s)", l ? "; " : "", name, diag);
}

/* the text after a " # <directive>" of log line s, blanks and tabs trimmed
 * (a tab alone is no proof of UNREACHABLE) */
static void directive_text(const char *s, const char *dir, char *out, size_t n)
{
	const char *p = strstr(s, dir);
	size_t l;

	*out = 0;
	if (!p)
		return;
	for (p += strlen(dir); *p == ' ' || *p == '\t'; p++)
		;
	snprintf(out, n, "%s", p);
	for (l = strlen(out); l && (out[l - 1] == ' ' || out[l - 1] == '\t' || out[l - 1] == '\r'); l--)
		out[l - 1] = 0;
}

/* One result of fix f at log line i; cls: its name from the class on. */
static void scan_fix_tap(struct fix *f, int i, const struct tap *t, const char *cls)
{
	f->present++;
	f->last_at = i;
	if (!t->ok)
		f->failed++;
	else if (t->skip)
		f->skipped++;
	else
		f->passed++;
	if (starts(cls, "precond:")) {
		if (!t->ok) {
			f->precond_fail++;
			append(f->precond, sizeof(f->precond), cls + 9, t->diag);
		} else if (!t->skip) {
			f->precond_ok_at = i;
			if (strstr(lines[i], " # UNREACHABLE")) {
				f->unreach = 1;
				if (!f->proof[0])
					directive_text(lines[i], " # UNREACHABLE", f->proof, sizeof(f->proof));
			}
		}
	} else if (starts(cls, "cve-state:")) {
		f->state_total++;
		if (!t->ok) {
			f->state_fail++;
			append(f->state, sizeof(f->state), cls + 11, t->diag);
		} else if (!t->skip) {
			f->state_pass++;
		} else if (!f->skip_why[0]) {
			directive_text(lines[i], " # SKIP", f->skip_why, sizeof(f->skip_why));
		}
	} else if (starts(cls, "repro:")) {
		f->repro_tests++;
		if (t->ok && !t->skip)
			f->repro_ok++;
	} else if (starts(cls, "cleanup:") && !t->ok) {
		f->cleanup_fail++;
	}
}

/* One TAP result line (already parsed) at log line i. */
static void scan_tap(struct scan *r, int i, int num, int ok, int skip, const char *name)
{
	struct tap *t;
	int fx;

	if (num > r->plan || num > MAXT || tap[num].seen)
		return;	/* out of plan or repeated: ignore */
	t = &tap[num];
	snprintf(t->name, sizeof(t->name), "%s", name);
	fx = fix_of(r, t->name, &name);	/* name: from the class on */
	if (fx < 0)
		return;	/* nobody's, or more fixes than MAXFIX: not judged */
	t->seen = 1, t->ok = ok, t->skip = skip, t->fix = fx;
	if (i + 1 < nlines && starts(lines[i + 1], "# "))
		snprintf(t->diag, sizeof(t->diag), "%s", lines[i + 1] + 2);
	r->cur_test = num;
	scan_fix_tap(&fix[fx], i, t, name);
}

/* the runner's and the fix programs' markers: 1 when line s was one */
static int scan_marker(struct scan *r, int i, const char *s)
{
	int o = open_fix(r);

	if (starts(s, "KIT: init ")) {
		if (r->init_at < 0)
			r->init_at = i, r->init_v = s[10] == 'v' ? atoi(s + 11) : 0;
		if (strstr(s, "runs="))
			r->runs_exp = atoi(strstr(s, "runs=") + 5);
	} else if (starts(s, "KIT: phase control start")) {
		r->ph = P_CONTROL;
		if (o >= 0 && fix[o].control_at < 0)
			fix[o].control_at = i;
	} else if (starts(s, "KIT: phase control ok")) {
		r->ph = P_SUITE;
		if (o >= 0)
			fix[o].control_ok = 1;
	} else if (starts(s, "KIT: phase control FAIL")) {
		if (o >= 0)
			fix[o].control_fail = i;
	} else if (starts(s, "KIT: cve start")) {
		r->ph = P_CVE;
	} else if (starts(s, "KIT: repro start ")) {
		r->runs_started++;
		r->ph = P_REPRO;
		if (o >= 0)
			fix[o].runs_started++;
	} else if (starts(s, "KIT: run ")) {
		const char *nm = strchr(s + 9, ' ');

		r->cur_test = atoi(s + 9);
		snprintf(r->run_name, sizeof(r->run_name), "%s", nm ? nm + 1 : "");
	} else if (starts(s, "KIT: done")) {
		r->done = 1;
		r->ph = P_DONE;
	} else if (starts(s, "KIT: fix ")) {
		/* "KIT: fix <ID> plan N" / "start" / "end status=0x..." */
		const char *id = s + 9, *w = strchr(id, ' ');
		int fx = w ? fix_index(id, (size_t)(w - id)) : -1, k;

		if (fx >= 0 && starts(w + 1, "plan ") && fix[fx].planned < 0)
			fix[fx].planned = atoi(w + 6);
		else if (fx >= 0 && starts(w + 1, "start") && fix[fx].start_at < 0) {
			fix[fx].start_at = i;
			if (r->nopen < MAXFIX)
				r->open[r->nopen++] = fx;
		} else if (fx >= 0 && starts(w + 1, "end") && fix[fx].end_at < 0) {
			const char *st = strstr(w, " status=0x");
			unsigned long v = st ? strtoul(st + 10, NULL, 16) : 0;

			fix[fx].end_at = i;
			/* v3 on: exit 2 (kit_fix_done) is a count other than planned */
			if (r->init_v >= 3 && st && !(v & 0x7f) && ((v >> 8) & 0xff) == 2)
				fix[fx].miscount = 1;
			for (k = 0; k < r->nopen && r->open[k] != fx; k++)
				;
			if (k < r->nopen) {	/* close it, and what it left open */
				r->nopen = k;
			}
		}
	} else {
		if (starts(s, "KIT: control reason: ") && o >= 0 && !fix[o].why[0])
			snprintf(fix[o].why, sizeof(fix[o].why), "%s", s + 21);
		return 0;
	}
	return 1;
}

static void scan_log(struct scan *r)
{
	int i, k;

	memset(r, 0, sizeof(*r));
	r->init_at = r->plan = r->runs_exp = r->crash_at = -1;
	for (k = 0; k < KIT_NFIXES; k++) {
		int fx = fix_index(kit_fixes[k].id, strlen(kit_fixes[k].id));

		if (fx >= 0)
			fix[fx].known = 1, fix[fx].per_run = kit_fixes[k].per_run;
	}
	for (i = 0; i < nlines; i++) {
		const char *s = lines[i];
		int num, ok, skip;
		char name[200];

		if (strstr(s, "Linux version ") && !starts(s, "KIT:") && !starts(s, "#")) {
			if (++r->banners == 2)
				break;	/* judge only the first boot */
			continue;
		}
		if (r->crash_at < 0 && is_crash(s)) {
			r->crash_at = i;
			r->crash_ph = r->ph;
			r->crash_test = r->cur_test;
			snprintf(r->crash_name, sizeof(r->crash_name), "%s", r->run_name);
		}
		if (r->init_at >= 0 && is_warning(s))
			for (k = 0; k < r->nopen; k++)
				fix[r->open[k]].warn = 1;
		if (scan_marker(r, i, s))
			continue;
		if (r->init_at >= 0 && r->plan < 0 && starts(s, "1..")) {
			r->plan = atoi(s + 3);
			if (r->ph < P_SUITE)
				r->ph = P_SUITE;
			continue;
		}
		if (r->plan > 0 && parse_tap(s, &num, &ok, &skip, name, sizeof(name)))
			scan_tap(r, i, num, ok, skip, name);
	}
}

/* "test N (name); ..." for every not-ok test of fix fx, in plan order */
static void failed_list(int fx, char *out, size_t n)
{
	int k;

	*out = 0;
	for (k = 1; k <= MAXT; k++)
		if (tap[k].seen && !tap[k].ok && tap[k].fix == fx) {
			size_t l = strlen(out);

			snprintf(out + l, n - l, "%stest %d (%s)", l ? "; " : "", k, tap[k].name);
		}
}

/* Why the boot as a whole is not judged (INCONCLUSIVE for every fix), or
 * 0: no boot, a second banner, no init. */
static int incomplete(const struct scan *r, const char *end,
		      const char *crash, char *sig, size_t n)
{
	if (!nlines || (r->banners == 0 && r->init_at < 0))
		snprintf(sig, n, "no boot: no kernel banner in the log (end: %s)", end);
	else if (r->banners >= 2)
		snprintf(sig, n, "second 'Linux version' banner: the guest rebooted unexpectedly");
	else if (r->init_at < 0 && r->crash_at >= 0)
		snprintf(sig, n, "kernel crashed before init: %s", crash);
	else if (r->init_at < 0)
		snprintf(sig, n, "init never started (end: %s)", end);
	else
		return 0;
	return 1;
}

/*
 * Another fix whose program ended before fix f's last result with its
 * cleanup: check not ok, fewer results than it planned, or no plan to
 * count them against, left the kernel in a state nobody knows (a
 * reproducer that writes kernel memory on an unfixed kernel puts it back
 * and checks so): f's tests after it are not judged.  1 with the reason.
 */
static int tainted(const struct fix *f, char *sig, size_t n)
{
	int k, upto = f->last_at >= 0 ? f->last_at : f->end_at >= 0 ? f->end_at : nlines;

	for (k = 0; k < nfix; k++) {
		const struct fix *g = &fix[k];

		if (g == f || g->end_at < 0 || g->end_at > upto)
			continue;
		if (g->cleanup_fail)
			snprintf(sig, n, "%.31s's tests did not put the kernel back (its cleanup check failed): "
				 "the tests after them are not judged", g->id);
		else if (g->planned > 0 && g->present < g->planned)
			snprintf(sig, n, "%.31s's program ended after %d of its %d results: "
				 "the tests after it are not judged", g->id, g->present, g->planned);
		else if (g->planned < 0)
			snprintf(sig, n, "%.31s's program ran without a plan line (its results cannot be "
				 "counted): the tests after it are not judged", g->id);
		else
			continue;
		return 1;
	}
	return 0;
}

/* f has reproducer runs: its Guest: line says so, or the log shows them
 * ("KIT: repro start K" markers, optional, or repro: results) */
static int has_runs(const struct fix *f)
{
	return (f->known && f->per_run > 0) || f->runs_started || f->repro_tests;
}

/* The rest of a fix's INCONCLUSIVE, once nothing made it VULNERABLE; in:
 * the kernel crashed while its tests ran. */
static int fix_unfinished(const struct scan *r, const struct fix *f, int in, int runs_arg,
			  const char *end, const char *crash, char *sig, size_t n)
{
	if (in)
		snprintf(sig, n, "oops before the reproducer (test %d, %s phase): %s",
			 r->crash_test, phase_name[r->crash_ph], crash);
	else if (r->plan < 0)
		snprintf(sig, n, "no TAP plan after init (end: %s)", end);
	else if (f->present < f->planned)
		snprintf(sig, n, "truncated TAP stream: %d of %d results (last test started: %d; end: %s)",
			 f->present, f->planned, r->cur_test, end);
	else if (f->end_at < 0)
		snprintf(sig, n, "no 'KIT: fix %.31s end' after its tests (end: %s)", f->id, end);
	else if (f->miscount)
		snprintf(sig, n, "its program printed a number of results other than its plan (exit 2)");
	else if (f->precond_fail)
		snprintf(sig, n, "a precondition failed: %s", f->precond);
	else if (has_runs(f) && runs_arg >= 0 && r->runs_exp >= 0 && runs_arg != r->runs_exp)
		snprintf(sig, n, "guest ran a different number of reproducer runs than asked (%d)", runs_arg);
	else if (has_runs(f) && (r->runs_exp < 1 || f->repro_ok != r->runs_exp ||
				 (f->runs_started && f->runs_started != r->runs_exp)))
		snprintf(sig, n, "reproducer completed %d of %d runs", f->repro_ok, r->runs_exp);
	else if (f->warn)
		snprintf(sig, n, "kernel WARNING while its tests ran");
	else if (f->cleanup_fail)
		snprintf(sig, n, "its cleanup check failed: the kernel was not left as it was found");
	else
		return 0;
	return 1;
}

/*
 * The verdict of one fix, on its own tests, by the definition in
 * testvm/README.md ("## Verdicts"); the same for every fix.  A crash or an
 * end of the log after its tests ended is another fix's business.
 */
static const char *judge_fix(const struct scan *r, const struct fix *f, int runs_arg,
			     const char *end, char *sig, size_t n)
{
	char crash[1100] = "", t[900] = "", failed[1000];
	int in, k, claimed;

	if (r->crash_at >= 0) {
		crash_signature(r->crash_at, t, sizeof(t));
		if (r->crash_test > 0 && r->crash_name[0])
			snprintf(crash, sizeof(crash), "crashed in test %d (%.120s): %s",
				 r->crash_test, r->crash_name, t);
		else
			snprintf(crash, sizeof(crash), "%s", t);
	}
	if (incomplete(r, end, crash, sig, n))
		return "INCONCLUSIVE";
	if (f->planned < 0 && f->start_at < 0 && !f->present) {
		if (r->plan < 0) {
			snprintf(sig, n, "no TAP plan after init (end: %s)", end);
			return "INCONCLUSIVE";
		}
		for (k = claimed = 0; k < nfix; k++)
			claimed += fix[k].planned > 0 ? fix[k].planned : 0;
		if (claimed < r->plan) {	/* results planned that no plan line claims */
			snprintf(sig, n, "nothing of this fix in the log, and the TAP plan 1..%d holds %d results "
				 "no 'KIT: fix' plan line claims: a plan line was lost", r->plan, r->plan - claimed);
			return "INCONCLUSIVE";
		}
		snprintf(sig, n, "the guest has no tests for this fix (its runner plans none: an image from before them)");
		return "NOT-TESTED";
	}
	/* its control phase (plain programs that must work on any kernel):
	 * a failure or crash there is the kernel's or the build's */
	if (f->control_at >= 0 && !f->control_ok) {
		if (r->crash_at > f->control_at)
			snprintf(sig, n, "oops in the control phase: %s", t);
		else if (f->control_fail >= 0)
			snprintf(sig, n, "control phase failed: %s", f->why);
		else
			snprintf(sig, n, "control phase did not finish (end: %s)", end);
		return "INCONCLUSIVE";
	}
	if (f->planned < 0) {	/* its results cannot be counted: never SURVIVED */
		snprintf(sig, n, "no 'KIT: fix %.31s plan' line: %d results seen, how many it owed is unknown",
			 f->id, f->present);
		return "INCONCLUSIVE";
	}
	if (f->start_at < 0) {
		if (r->crash_at >= 0)
			snprintf(sig, n, "kernel crashed before this fix's tests started: %s", crash);
		else
			snprintf(sig, n, "this fix's tests never started (end: %s)", end);
		return "INCONCLUSIVE";
	}
	if (tainted(f, sig, n))
		return "INCONCLUSIVE";
	in = r->crash_at > f->start_at && (f->end_at < 0 || r->crash_at < f->end_at);
	if (f->state_fail && !f->precond_fail) {
		if (in)
			snprintf(sig, n, "%s; state checks failed: %s", crash, f->state);
		else
			snprintf(sig, n, "state checks failed: %s", f->state);
		return "VULNERABLE";
	}
	if (in && !f->precond_fail && f->precond_ok_at >= 0 && r->crash_at > f->precond_ok_at) {
		snprintf(sig, n, "%s", crash);
		return "VULNERABLE";
	}
	if (fix_unfinished(r, f, in, runs_arg, end, t, sig, n))
		return "INCONCLUSIVE";
	if (f->failed) {
		failed_list((int)(f - fix), failed, sizeof(failed));
		snprintf(sig, n, "regression tests failed: %s%s%s", failed,
			 f->state_pass != f->state_total && !f->unreach ? "; its reproducer did not run: " : "",
			 f->state_pass != f->state_total && !f->unreach ? f->skip_why : "");
		return "REGRESSED";
	}
	if (f->unreach) {	/* the route to the flaw is closed on this kernel */
		if (!f->proof[0]) {
			snprintf(sig, n, "its precondition said UNREACHABLE without a proof");
			return "NOT-TESTED";
		}
		snprintf(sig, n, "flaw present, not reachable: %s", f->proof);
		return "UNREACHABLE";
	}
	if (!f->state_total) {
		snprintf(sig, n, "no state checks ran");
		return "INCONCLUSIVE";
	}
	if (f->state_pass != f->state_total) {	/* skipped: the kernel lacks the path */
		snprintf(sig, n, "%s", f->skip_why[0] ? f->skip_why : "its state checks were skipped");
		return "NOT-TESTED";
	}
	snprintf(sig, n, "no oops; ");
	if (has_runs(f))
		snprintf(sig + strlen(sig), n - strlen(sig), "%d reproducer runs passed; ", f->repro_ok);
	snprintf(sig + strlen(sig), n - strlen(sig), "%d state checks passed; %d of %d tests passed, %d skipped",
		 f->state_pass, f->passed, f->planned, f->skipped);
	return "SURVIVED";
}

/* worst first; NOT-TESTED and UNREACHABLE (no verdict on the fix's code
 * itself) count for nothing in the boot's verdict */
static int rank(const char *v)
{
	static const char *const order[] = { "VULNERABLE", "INCONCLUSIVE", "REGRESSED", "SURVIVED" };
	int k;

	for (k = 0; k < 4; k++)
		if (!strcmp(v, order[k]))
			return k;
	return 4;
}

/* a fix the log shows (its markers or results) */
static int seen(const struct fix *f)
{
	return f->start_at >= 0 || f->planned >= 0 || f->present;
}

/*
 * The boot's verdict: the worst of the fixes' (VULNERABLE, INCONCLUSIVE,
 * REGRESSED, SURVIVED), NOT-TESTED and UNREACHABLE fixes left out; on a
 * tie, a fix the log shows before one it does not, then the runner's
 * order.  Its signature is "<ID>: <that fix's>", then the same for every
 * other fix with that verdict, or the whole boot's reason when the boot
 * was not judged at all; a SURVIVED boot's then names the fixes it could
 * not test and those found unreachable.  No fix got one of
 * the four: INCONCLUSIVE (nothing was judged).
 */
static const char *overall(const struct scan *r, const char *end, char *sig, size_t n)
{
	int k, w = -1;
	size_t l;

	if (incomplete(r, end, "", sig, n) && nfix) {
		snprintf(sig, n, "%s", fix[0].sig);
		return "INCONCLUSIVE";
	}
	for (k = 0; k < nfix; k++)
		if (rank(fix[k].verdict) < 4 &&
		    (w < 0 || rank(fix[k].verdict) < rank(fix[w].verdict) ||
		     (rank(fix[k].verdict) == rank(fix[w].verdict) && seen(&fix[k]) && !seen(&fix[w]))))
			w = k;
	if (w < 0) {
		snprintf(sig, n, "no fix judged");
		for (k = 0; k < nfix; k++) {
			l = strlen(sig);
			snprintf(sig + l, n - l, "%s %.31s %s (%.1399s)", k ? ";" : ":", fix[k].id, fix[k].verdict, fix[k].sig);
		}
		return "INCONCLUSIVE";
	}
	snprintf(sig, n, "%.31s: %.1399s", fix[w].id, fix[w].sig);
	for (k = 0; k < nfix; k++)	/* every fix as bad as it: each one's reason */
		if (k != w && rank(fix[k].verdict) == rank(fix[w].verdict)) {
			l = strlen(sig);
			snprintf(sig + l, n - l, "; %.31s: %.1399s", fix[k].id, fix[k].sig);
		}
	for (k = 0; k < nfix && rank(fix[w].verdict) == 3; k++) {
		l = strlen(sig);
		if (!strcmp(fix[k].verdict, "NOT-TESTED"))
			snprintf(sig + l, n - l, "; not tested: %.31s (%.1399s)", fix[k].id, fix[k].sig);
		else if (!strcmp(fix[k].verdict, "UNREACHABLE"))
			snprintf(sig + l, n - l, "; unreachable: %.31s (%.299s)", fix[k].id, fix[k].proof);
	}
	return fix[w].verdict;
}

static void json_tests(int fx, int planned, int passed, int failed, int skipped)
{
	int k, first = 1;

	printf("\"tests\":{\"planned\":%d,\"passed\":%d,\"failed\":%d,\"skipped\":%d}",
	       planned < 0 ? 0 : planned, passed, failed, skipped);
	printf(",\"failed_tests\":[");
	for (k = 1; k <= MAXT; k++)
		if (tap[k].seen && !tap[k].ok && (fx < 0 || tap[k].fix == fx)) {
			printf("%s", first ? "" : ",");
			json_str(tap[k].name);
			first = 0;
		}
	printf("]");
}

static void print_json(const struct scan *r, const char *verdict, const char *sig)
{
	int k, p = 0, f = 0, s = 0;

	for (k = 0; k < nfix; k++)
		p += fix[k].passed, f += fix[k].failed, s += fix[k].skipped;
	printf("{\"verdict\":");
	json_str(verdict);
	printf(",\"signature\":");
	json_str(sig);
	printf(",\"runs\":%d,\"runs_expected\":%d,\"phase\":", r->runs_started,
	       r->runs_exp < 0 ? 0 : r->runs_exp);
	json_str(r->crash_at >= 0 ? phase_name[r->crash_ph] : phase_name[r->ph]);
	putchar(',');
	json_tests(-1, r->plan, p, f, s);
	printf(",\"fixes\":{");
	for (k = 0; k < nfix; k++) {
		const struct fix *x = &fix[k];

		printf("%s", k ? "," : "");
		json_str(x->id);
		printf(":{\"verdict\":");
		json_str(x->verdict);
		printf(",\"signature\":");
		json_str(x->sig);
		putchar(',');
		json_tests(k, x->planned, x->passed, x->failed, x->skipped);
		/* its own control phase stopped it: nothing of the fix was judged
		 * (the gate's control_failed; mutants boot it once more) */
		printf(",\"control_failed\":%s", x->control_at >= 0 && !x->control_ok ? "true" : "false");
		if (!strcmp(x->verdict, "UNREACHABLE")) {
			printf(",\"unreachable\":");
			json_str(x->proof);
		}
		putchar('}');
	}
	printf("}}\n");
}

static void usage(void)
{
	fprintf(stderr, "usage: parse [--runs N] [--end REASON] [--map SYSTEM_MAP] LOG\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *path = NULL, *end = "unknown", *verdict;
	int runs_arg = -1, i;
	char sig[8192] = "";
	struct scan r;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs_arg = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--end") && i + 1 < argc)
			end = argv[++i];
		else if (!strcmp(argv[i], "--map") && i + 1 < argc)
			load_map(argv[++i]);
		else if (argv[i][0] != '-' && !path)
			path = argv[i];
		else
			usage();
	}
	if (!path)
		usage();
	read_log(path);
	scan_log(&r);
	for (i = 0; i < nfix; i++)
		fix[i].verdict = judge_fix(&r, &fix[i], runs_arg, end, fix[i].sig, sizeof(fix[i].sig));
	verdict = overall(&r, end, sig, sizeof(sig));
	print_json(&r, verdict, sig);
	return 0;
}
