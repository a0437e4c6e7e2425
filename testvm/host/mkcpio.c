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
 *
 * OUT is written to a new file beside it and renamed into place only when
 * every byte reached the disk: a failed run (a full disk, an unreadable
 * input) leaves OUT as it was and removes only the file it created.
 * Exit 0 written, 1 an input could not be read or OUT could not be
 * written, 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static FILE *out;
static const char *out_path;
static char tmp_path[4096];
static unsigned long off, ino = 721;

/* Give up: the temp file is ours to remove; OUT was never touched. */
static void fail(void)
{
	if (out)
		fclose(out);
	unlink(tmp_path);
	exit(1);
}

static void write_failed(int err)
{
	fprintf(stderr, "mkcpio: error: cannot write %s: %s\n", out_path, strerror(err));
	fail();
}

static void put(const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, out) != n)
		write_failed(errno ? errno : EIO);
	off += n;
}

static void pad_to(unsigned long align)
{
	static const char zero[512];

	if (off & (align - 1))
		put(zero, align - (off & (align - 1)));
}

static void entry(const char *name, unsigned mode, unsigned uid, unsigned gid,
		  unsigned nlink, const unsigned char *data, unsigned long size,
		  unsigned rmaj, unsigned rmin)
{
	const char *n = name;
	char hdr[160];
	int k;

	while (*n == '/')
		n++;
	/* newc: "070701" and 13 fields of exactly 8 hex digits */
	k = snprintf(hdr, sizeof(hdr),
		 "070701%08lX%08X%08X%08X%08X%08X%08lX%08X%08X%08X%08X%08lX%08X",
		 ino++, mode, uid, gid, nlink, 0u, size, 0u, 0u, rmaj, rmin,
		 (unsigned long)strlen(n) + 1, 0u);
	if (k != 110) {
		fprintf(stderr, "mkcpio: error: %s: too large for a newc header (4 GiB)\n", n);
		fail();
	}
	put(hdr, 110);
	put(n, strlen(n) + 1);
	pad_to(4);
	if (size) {
		put(data, size);
		pad_to(4);
	}
}

static unsigned char *slurp(const char *path, unsigned long *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(b = malloc((size_t)n + 1)) || fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		fclose(f);
		return NULL;
	}
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
	int lineno = 0, fd;

	if (argc != 4) {
		fprintf(stderr, "usage: mkcpio LIST SRCDIR OUT\n");
		return 2;
	}
	list = fopen(argv[1], "r");
	if (!list) {
		fprintf(stderr, "mkcpio: error: cannot read %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	out_path = argv[3];
	if (snprintf(tmp_path, sizeof(tmp_path), "%s.XXXXXX", out_path) >= (int)sizeof(tmp_path)) {
		fprintf(stderr, "mkcpio: error: %s: path too long\n", out_path);
		return 2;
	}
	fd = mkstemp(tmp_path);
	if (fd < 0 || fchmod(fd, 0644) || !(out = fdopen(fd, "wb"))) {
		fprintf(stderr, "mkcpio: error: cannot create a file beside %s: %s\n",
			out_path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp_path);
		}
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
				fprintf(stderr, "mkcpio: error: %s:%d: cannot read %s\n",
					argv[1], lineno, path);
				fail();
			}
			entry(name, S_IFREG | mode, uid, gid, 1, data, size, 0, 0);
			free(data);
		} else {
			fprintf(stderr, "mkcpio: error: %s:%d: cannot parse: %s", argv[1], lineno, line);
			fail();
		}
	}
	ino = 0;
	entry("TRAILER!!!", 0, 0, 0, 1, NULL, 0, 0, 0);
	pad_to(512);	/* block-align like cpio(1) */
	/* buffered bytes reach the file only now: a full disk shows here */
	if (fflush(out) || ferror(out) || fsync(fileno(out)))
		write_failed(errno ? errno : EIO);
	if (fclose(out)) {
		out = NULL;
		write_failed(errno);
	}
	out = NULL;
	if (ferror(list)) {
		fprintf(stderr, "mkcpio: error: cannot read %s\n", argv[1]);
		fail();
	}
	fclose(list);
	if (rename(tmp_path, out_path)) {
		fprintf(stderr, "mkcpio: error: cannot rename %s to %s: %s\n", tmp_path,
			out_path, strerror(errno));
		fail();
	}
	return 0;
}
