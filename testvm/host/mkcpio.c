/*
 * mkcpio - write a newc initramfs from a list file, reproducibly.
 *
 * Same list and same input files give the same bytes: entries are written
 * in list order, inode numbers are counted, every mtime is 0, owners come
 * from the list, nothing is read from the build machine's metadata except
 * file contents.  The list syntax is the subset of the kernel's
 * usr/gen_init_cpio that the guest image needs:
 *
 *   dir  NAME MODE UID GID
 *   file NAME SOURCE MODE UID GID      (SOURCE relative to SRCDIR)
 *   nod  NAME MODE UID GID c|b MAJ MIN
 *   # comment
 *
 *   mkcpio LIST SRCDIR OUT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static FILE *out;
static unsigned long off, ino = 721;

static void pad(void)
{
	while (off & 3) {
		fputc(0, out);
		off++;
	}
}

static void entry(const char *name, unsigned mode, unsigned uid, unsigned gid,
		  unsigned nlink, const unsigned char *data, unsigned long size,
		  unsigned rmaj, unsigned rmin)
{
	const char *n = name;

	while (*n == '/')
		n++;
	off += (unsigned long)fprintf(out,
		"070701%08lX%08X%08X%08X%08X%08X%08lX%08X%08X%08X%08X%08lX%08X",
		ino++, mode, uid, gid, nlink, 0u, size, 0u, 0u, rmaj, rmin,
		(unsigned long)strlen(n) + 1, 0u);
	fwrite(n, 1, strlen(n) + 1, out);
	off += strlen(n) + 1;
	pad();
	if (size) {
		fwrite(data, 1, size, out);
		off += size;
		pad();
	}
}

static unsigned char *slurp(const char *path, unsigned long *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b = NULL;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		return NULL;
	b = malloc((size_t)n + 1);
	if (!b || fread(b, 1, (size_t)n, f) != (size_t)n)
		return NULL;
	fclose(f);
	*size = (unsigned long)n;
	return b;
}

int main(int argc, char **argv)
{
	char line[1024], name[512], src[512], path[1100], kind[8];
	unsigned mode, uid, gid, maj, min;
	char t;
	FILE *list;
	int lineno = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: mkcpio LIST SRCDIR OUT\n");
		return 2;
	}
	list = fopen(argv[1], "r");
	out = fopen(argv[3], "wb");
	if (!list || !out) {
		perror(list ? argv[3] : argv[1]);
		return 1;
	}
	while (fgets(line, sizeof(line), list)) {
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%7s", kind) != 1)
			continue;
		if (!strcmp(kind, "dir") &&
		    sscanf(line, "dir %511s %o %u %u", name, &mode, &uid, &gid) == 4) {
			entry(name, S_IFDIR | mode, uid, gid, 2, NULL, 0, 0, 0);
		} else if (!strcmp(kind, "nod") &&
			   sscanf(line, "nod %511s %o %u %u %c %u %u", name, &mode,
				  &uid, &gid, &t, &maj, &min) == 7 && (t == 'c' || t == 'b')) {
			entry(name, (t == 'c' ? S_IFCHR : S_IFBLK) | mode, uid, gid,
			      1, NULL, 0, maj, min);
		} else if (!strcmp(kind, "file") &&
			   sscanf(line, "file %511s %511s %o %u %u", name, src, &mode,
				  &uid, &gid) == 5) {
			unsigned long size;
			unsigned char *data;

			snprintf(path, sizeof(path), "%s/%s", argv[2], src);
			data = slurp(path, &size);
			if (!data) {
				fprintf(stderr, "mkcpio: %s:%d: cannot read %s\n",
					argv[1], lineno, path);
				return 1;
			}
			entry(name, S_IFREG | mode, uid, gid, 1, data, size, 0, 0);
			free(data);
		} else {
			fprintf(stderr, "mkcpio: %s:%d: cannot parse: %s", argv[1], lineno, line);
			return 1;
		}
	}
	ino = 0;
	entry("TRAILER!!!", 0, 0, 0, 1, NULL, 0, 0, 0);
	while (off & 511) {	/* block-align like cpio(1) */
		fputc(0, out);
		off++;
	}
	if (fclose(out)) {
		perror(argv[3]);
		return 1;
	}
	return 0;
}
