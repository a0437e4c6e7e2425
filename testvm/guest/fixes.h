/*
 * fixes.h - the fixes the guest tests besides the kit's first one; the one
 * list of them (init runs each program, testvm/parse.c gives each a verdict).
 *
 * CVE-2010-0307's tests are init's own (guest/init.c), with plain names
 * ("regress: ...", "cve-state: ...").  Every other fix is a program of its
 * own that init runs in the same boot, after the harmless tests and before
 * CVE-2010-0307's reproducer (which crashes an unfixed kernel by design),
 * so that one fix's crash cannot hide another's result.  Such a program:
 *
 *   - is run as  PROG <first>  and prints exactly `tests` TAP results,
 *     numbered from <first>, straight to the console (fd 1), each after a
 *     "KIT: run N <name>" line (a crash names the test it happened in);
 *   - names every test "<ID> <class>: ...", class one of regress:,
 *     precond:, cve-state:, cleanup: (testvm/parse.c judges each fix on
 *     its own tests: testvm/README.md, "Verdicts");
 *   - SKIPs its cve-state: test, with the reason, when the kernel lacks
 *     the path the bug lives on (the fix is then NOT-TESTED, never
 *     SURVIVED), and leaves the kernel as it found it (cleanup:);
 *   - exits with 16 * failed + skipped, so that init's "KIT: done" counts
 *     every test of the boot;
 *   - never brings the kernel down, fixed or not.
 */
#ifndef KIT_FIXES_H
#define KIT_FIXES_H

#define C3081_TESTS	8	/* guest/c3081.c prints exactly this many */

struct kit_fix {
	const char *id;		/* also the prefix of its test names */
	char *prog;
	int tests;
};

static const struct kit_fix kit_fixes[] = {
	{ "CVE-2010-3081", "/bin/c3081-32", C3081_TESTS },
};
#define KIT_NFIXES	((int)(sizeof(kit_fixes) / sizeof(kit_fixes[0])))

#endif
