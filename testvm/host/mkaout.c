/*
 * mkaout - wrap a flat i386 binary in a Linux a.out QMAGIC header.
 *
 * binutils 2.40 as Debian builds it has no a.out target, so the kit writes
 * the 32-byte struct exec itself.  QMAGIC: the header is part of the text
 * segment, text is mapped at 0x1000 from file offset 0 (page aligned, so
 * the loader mmaps it), data follows page aligned.  The flat binary must be
 * linked to start at 0x1020 (right after the header).
 *
 *   mkaout FLAT OUT       entry = 0x1020, a_text = header+flat rounded up to
 *                         a page, a_data = one zero page, a_bss = 0
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define QMAGIC	0314
#define M_386	100
#define PAGE	4096u

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = v & 0xff; p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff; p[3] = v >> 24;
}

int main(int argc, char **argv)
{
	static unsigned char img[1 << 20];
	size_t n, text, total;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: mkaout FLAT OUT\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	n = fread(img + 32, 1, sizeof(img) - 32 - 2 * PAGE, f);
	if (ferror(f) || !feof(f) || n == 0) {
		fprintf(stderr, "mkaout: %s: empty, unreadable or too large\n", argv[1]);
		return 1;
	}
	fclose(f);
	text = (32 + n + PAGE - 1) / PAGE * PAGE;
	total = text + PAGE;
	memset(img + 32 + n, 0, total - 32 - n);
	put32(img + 0, (M_386 << 16) | QMAGIC);	/* a_info */
	put32(img + 4, (uint32_t)text);		/* a_text */
	put32(img + 8, PAGE);			/* a_data */
	put32(img + 12, 0);			/* a_bss */
	put32(img + 16, 0);			/* a_syms */
	put32(img + 20, 0x1020);		/* a_entry */
	put32(img + 24, 0);			/* a_trsize */
	put32(img + 28, 0);			/* a_drsize */
	f = fopen(argv[2], "wb");
	if (!f || fwrite(img, 1, total, f) != total || fclose(f)) {
		perror(argv[2]);
		return 1;
	}
	return 0;
}
