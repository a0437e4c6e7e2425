/*
 * parse - turn one boot's serial log into one verdict (host tool).
 *
 *   parse [--runs N] [--end qemu|panic|crash|silence|timeout] [--map SYSTEM_MAP] LOG
 *
 * --map: kernels built without KALLSYMS print raw addresses; with the
 * tree's System.map the signature names functions (sym+0xoff) anyway.
 *
 * Prints one JSON object on stdout:
 *   {"verdict", "signature", "runs", "runs_expected", "phase",
 *    "tests": {"planned", "passed", "failed", "skipped"}}
 * Exit 0 when the log was read (whatever the verdict), 2 on bad usage.
 *
 * The rules (issue 3), judged blind, keyed on init's markers (guest/init.c)
 * and never on a single kernel function name:
 *
 *   VULNERABLE    the control phase passed, the failed exec ran
 *                 ("KIT: cve start") with its precondition met, and then
 *                 either the kernel oopsed/panicked, or a "cve-state:"
 *                 test failed (the state the CVE leaves behind).  A state
 *                 check failure is enough even if the log then stops (a
 *                 hang in the core dump).
 *   SURVIVED      one kernel banner, control ok, a complete TAP stream
 *                 (plan 1..N, every result present), every cve-state test
 *                 ok, every precondition ok, all N reproducer runs died by
 *                 SIGSEGV with a core, "KIT: done", no oops, panic or
 *                 kernel WARNING after init started.
 *   INCONCLUSIVE  anything else: no boot, a second banner, an oops before
 *                 the failed exec, a failed control phase, a truncated
 *                 stream, a hang.  Never reported as fixed.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXT 256

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

	if (!f) {
		perror(path);
		exit(2);
	}
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %63s", &a, &t, name) == 3 && (t == 't' || t == 'T')) {
			if (nsyms == cap) {
				cap = cap ? cap * 2 : 8192;
				syms = realloc(syms, cap * sizeof(*syms));
				if (!syms)
					exit(2);
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
	int seen, ok, skip;
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

	if (!f) {
		perror(path);
		exit(2);
	}
	while ((c = fgetc(f)) != EOF) {
		if (len + 2 > cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				exit(2);
		}
		/* serial noise: keep text, drop CR and other control bytes */
		if (c == '\n' || c == '\t' || (c >= 32 && c != 127) || c >= 128)
			buf[len++] = (char)c;
	}
	fclose(f);
	if (!buf)
		buf = calloc(1, 1);
	buf[len] = 0;
	for (s = buf; s && *s; s = p ? p + 1 : NULL) {
		p = strchr(s, '\n');
		if (p)
			*p = 0;
		if (nlines + 1 >= cap_l) {
			cap_l = cap_l ? cap_l * 2 : 4096;
			lines = realloc(lines, sizeof(*lines) * (size_t)cap_l);
			if (!lines)
				exit(2);
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

int main(int argc, char **argv)
{
	const char *path = NULL, *end = "unknown", *verdict;
	int runs_arg = -1, i, banners = 0, init_at = -1, control_ok = 0, control_fail = -1;
	int plan = -1, cve_at = -1, done = 0, runs_started = 0, runs_exp = -1;
	int crash_at = -1, warn_after_init = 0, cur_test = 0, crash_test = 0, maxn = 0;
	int passed = 0, failed = 0, skipped = 0, present = 0, repro_ok = 0;
	int precond_fail = 0, state_fail = 0, state_total = 0, last_test = 0;
	enum phase ph = P_BOOT, crash_ph = P_BOOT;
	char sig[1400] = "", state[600] = "", crash_sig[900] = "", why[300] = "";
	char run_name[200] = "", crash_name[200] = "";

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs_arg = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--end") && i + 1 < argc)
			end = argv[++i];
		else if (!strcmp(argv[i], "--map") && i + 1 < argc)
			load_map(argv[++i]);
		else if (argv[i][0] != '-' && !path)
			path = argv[i];
		else {
			fprintf(stderr, "usage: parse [--runs N] [--end REASON] [--map SYSTEM_MAP] LOG\n");
			return 2;
		}
	}
	if (!path) {
		fprintf(stderr, "usage: parse [--runs N] [--end REASON] [--map SYSTEM_MAP] LOG\n");
		return 2;
	}
	read_log(path);

	for (i = 0; i < nlines; i++) {
		const char *s = lines[i];
		int num, ok, skip;
		char name[200];

		if (strstr(s, "Linux version ") && !starts(s, "KIT:") && !starts(s, "#")) {
			if (++banners == 2)
				break;	/* judge only the first boot */
			continue;
		}
		if (crash_at < 0 && is_crash(s)) {
			crash_at = i;
			crash_ph = ph;
			crash_test = cur_test;
			snprintf(crash_name, sizeof(crash_name), "%s", run_name);
		}
		if (init_at >= 0 && is_warning(s))
			warn_after_init = 1;
		if (starts(s, "KIT: init ")) {
			if (init_at < 0)
				init_at = i;
			if (strstr(s, "runs="))
				runs_exp = atoi(strstr(s, "runs=") + 5);
			continue;
		}
		if (starts(s, "KIT: phase control start")) {
			ph = P_CONTROL;
			continue;
		}
		if (starts(s, "KIT: phase control ok")) {
			control_ok = 1;
			ph = P_SUITE;
			continue;
		}
		if (starts(s, "KIT: phase control FAIL")) {
			control_fail = i;
			continue;
		}
		if (starts(s, "KIT: control reason: ") && !why[0])
			snprintf(why, sizeof(why), "%s", s + 21);
		if (starts(s, "KIT: cve start")) {
			cve_at = i;
			ph = P_CVE;
			continue;
		}
		if (starts(s, "KIT: repro start ")) {
			runs_started++;
			ph = P_REPRO;
			continue;
		}
		if (starts(s, "KIT: run ")) {
			const char *nm = strchr(s + 9, ' ');

			cur_test = atoi(s + 9);
			snprintf(run_name, sizeof(run_name), "%s", nm ? nm + 1 : "");
			continue;
		}
		if (starts(s, "KIT: done")) {
			done = 1;
			ph = P_DONE;
			continue;
		}
		if (control_ok && plan < 0 && starts(s, "1..")) {
			plan = atoi(s + 3);
			continue;
		}
		if (plan > 0 && parse_tap(s, &num, &ok, &skip, name, sizeof(name))) {
			struct tap *t;

			if (num > plan || num > MAXT || tap[num].seen)
				continue;	/* out of plan or repeated: ignore */
			t = &tap[num];
			t->seen = 1, t->ok = ok, t->skip = skip;
			snprintf(t->name, sizeof(t->name), "%s", name);
			if (i + 1 < nlines && starts(lines[i + 1], "# "))
				snprintf(t->diag, sizeof(t->diag), "%s", lines[i + 1] + 2);
			last_test = num;
			cur_test = num;
			if (num > maxn)
				maxn = num;
			present++;
			if (!ok)
				failed++;
			else if (skip)
				skipped++;
			else
				passed++;
			if (starts(name, "cve-state:")) {
				state_total++;
				if (!ok) {
					size_t l = strlen(state);

					state_fail++;
					snprintf(state + l, sizeof(state) - l, "%s%s (%s)",
						 l ? "; " : "", name + 11, t->diag);
				}
			}
			if (starts(name, "precond:") && !ok)
				precond_fail++;
			if (starts(name, "repro:") && ok && !skip)
				repro_ok++;
		}
	}
	(void)last_test;
	if (runs_arg >= 0 && runs_exp >= 0 && runs_arg != runs_exp)
		runs_exp = -2;	/* the guest did not honour the command line */
	if (crash_at >= 0) {
		crash_signature(crash_at, crash_sig, sizeof(crash_sig));
		/* a regression test that brought the kernel down says so: the
		 * last one (a.out whose text cannot be mapped) BUGs in exit_mmap
		 * on 2.6.26-2.6.28 without 318f6b228ba8, after the CVE phase */
		if (starts(crash_name, "regress:")) {
			char t[sizeof(crash_sig)];

			snprintf(t, sizeof(t), "crashed in test %d (%.120s): %s",
				 crash_test, crash_name, crash_sig);
			memcpy(crash_sig, t, sizeof(crash_sig));
		}
	}

	verdict = "INCONCLUSIVE";
	if (!nlines || (banners == 0 && init_at < 0)) {
		snprintf(sig, sizeof(sig), "no boot: no kernel banner in the log (end: %s)", end);
	} else if (banners >= 2) {
		snprintf(sig, sizeof(sig), "second 'Linux version' banner: the guest rebooted unexpectedly");
	} else if (init_at < 0) {
		snprintf(sig, sizeof(sig), crash_at >= 0 ? "kernel crashed before init: %s" :
			 "init never started (end: %s)", crash_at >= 0 ? crash_sig : end);
	} else if (!control_ok) {
		if (crash_at >= 0)
			snprintf(sig, sizeof(sig), "oops in the control phase: %s", crash_sig);
		else if (control_fail >= 0)
			snprintf(sig, sizeof(sig), "control phase failed: %s", why);
		else
			snprintf(sig, sizeof(sig), "control phase did not finish (end: %s)", end);
	} else if (cve_at >= 0 && !precond_fail && state_fail) {
		verdict = "VULNERABLE";
		if (crash_at > cve_at)
			snprintf(sig, sizeof(sig), "%s; state checks failed: %s", crash_sig, state);
		else
			snprintf(sig, sizeof(sig), "state checks failed: %s", state);
	} else if (crash_at >= 0 && cve_at >= 0 && crash_at > cve_at && !precond_fail) {
		verdict = "VULNERABLE";
		snprintf(sig, sizeof(sig), "%s", crash_sig);
	} else if (crash_at >= 0) {
		snprintf(sig, sizeof(sig), "oops before the reproducer (test %d, %s phase): %s",
			 crash_test, phase_name[crash_ph], crash_sig);
	} else if (plan < 0) {
		snprintf(sig, sizeof(sig), "no TAP plan after the control phase (end: %s)", end);
	} else if (present < plan) {
		snprintf(sig, sizeof(sig), "truncated TAP stream: %d of %d results (last test started: %d; end: %s)",
			 present, plan, cur_test, end);
	} else if (!done) {
		snprintf(sig, sizeof(sig), "no 'KIT: done' after the TAP stream (end: %s)", end);
	} else if (precond_fail) {
		snprintf(sig, sizeof(sig), "a precondition failed: the failed exec did not happen as designed");
	} else if (runs_exp == -2) {
		snprintf(sig, sizeof(sig), "guest ran a different number of reproducer runs than asked (%d)", runs_arg);
	} else if (runs_exp < 1 || repro_ok != runs_exp || runs_started != runs_exp) {
		snprintf(sig, sizeof(sig), "reproducer completed %d of %d runs", repro_ok, runs_exp);
	} else if (state_total == 0) {
		snprintf(sig, sizeof(sig), "no state checks ran");
	} else if (warn_after_init) {
		snprintf(sig, sizeof(sig), "kernel WARNING while the suite ran");
	} else {
		verdict = "SURVIVED";
		snprintf(sig, sizeof(sig), "no oops; %d runs dumped an ELF32 core; %d state checks passed",
			 repro_ok, state_total - state_fail);
	}

	printf("{\"verdict\":");
	json_str(verdict);
	printf(",\"signature\":");
	json_str(sig);
	printf(",\"runs\":%d,\"runs_expected\":%d,\"phase\":", runs_started, runs_exp < 0 ? 0 : runs_exp);
	json_str(crash_at >= 0 ? phase_name[crash_ph] : phase_name[ph]);
	printf(",\"tests\":{\"planned\":%d,\"passed\":%d,\"failed\":%d,\"skipped\":%d}}\n",
	       plan < 0 ? 0 : plan, passed, failed, skipped);
	return 0;
}
