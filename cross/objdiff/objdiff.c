/*
 * objdiff: which functions differ between two relocatable ELF objects.
 *
 *   objdiff OLD.o NEW.o        one line per difference, sorted by name:
 *                                changed <function>
 *                                added <function>
 *                                removed <function>
 *   objdiff -v OLD.o NEW.o     the same, with why each changed function differs
 *   objdiff -l OBJ.o           every function with its normalised size and hash
 *                              (a label for people; equality compares the bytes)
 *   objdiff -d FUNC OBJ.o      the normalised form of FUNC (bytes and relocations)
 *
 * Exit: 0 compared (with -q: 0 no difference, 1 differences), 2 bad input.
 *
 * The idea is kpatch's create-diff-object, cut down to "which functions":
 * a function is its symbol's bytes plus the relocations that fall inside
 * them.  Before comparing, everything a link would fill in is normalised:
 *
 *  - every relocated field is zeroed in the bytes (its width comes from the
 *    relocation type; unknown types zero 4 bytes), and the relocation is
 *    kept as (offset in the function, type, what it points at);
 *  - "what it points at" is a name, never an address: a named symbol is its
 *    name (+addend); a section symbol pointing into a string section is the
 *    string itself; into another section, the symbol that covers the target
 *    (a static object or function) or, for a pointer table such as the
 *    ppc64 TOC or .opd, what the table entry there points at; only when
 *    nothing names it, the section name and offset.
 *
 * So a function whose code is the same but moved (because another function
 * grew, a string was added, a TOC entry shifted) compares equal, and a
 * function whose instructions, callees or referenced data changed does not.
 * Build the objects with -ffunction-sections so that calls between
 * functions of one file are relocations, not assembler-resolved
 * displacements that move when an earlier function grows.  Both ELF
 * classes, both byte orders; REL (i386, ARM, MIPS) and RELA relocations;
 * ppc64 ELFv1 function descriptors (.opd) are followed to the code.
 *
 * Written for the stable-branch backport kit; no dependency beyond libc
 * and <elf.h>.
 */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rel {
	uint64_t off;
	uint32_t type, sym;
	int64_t addend;
	int has_addend; /* RELA, or a REL whose in-place addend we can read */
};

struct sec {
	const char *name;
	uint32_t type, link, info;
	uint64_t flags, off, size, entsize;
	struct rel *rels;
	size_t nrels;
};

struct sym {
	const char *name;
	uint64_t value, size;
	unsigned type, bind;
	uint32_t shndx;
};

struct func {
	char *name;
	uint32_t sec;
	uint64_t start, size;
	int open_end; /* no size of its own: runs to the next entry */
	/* normalised form */
	unsigned char *bytes;
	char *relocs; /* one line per relocation */
	uint64_t hash;
};

struct obj {
	const char *path;
	unsigned char *buf;
	size_t len;
	int is64, msb;
	uint16_t machine;
	struct sec *secs;
	size_t nsecs;
	struct sym *syms;
	size_t nsyms;
	struct func *funcs;
	size_t nfuncs;
};

static void die(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "objdiff: error: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	exit(2);
}

static void *xcalloc(size_t n, size_t s)
{
	void *p = calloc(n ? n : 1, s);
	if (!p)
		die("%s%s", "out of memory", "");
	return p;
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s);
	if (!p)
		die("%s%s", "out of memory", "");
	return p;
}

static uint64_t rd(const struct obj *o, uint64_t off, int n)
{
	uint64_t v = 0;
	int i;
	if (off + n > o->len)
		die("%s: truncated ELF file (%s)", o->path, "read past the end");
	for (i = 0; i < n; i++) {
		int k = o->msb ? i : n - 1 - i;
		v = (v << 8) | o->buf[off + k];
	}
	return v;
}

static uint64_t rdn(const struct obj *o, const unsigned char *p, int n)
{
	uint64_t v = 0;
	int i;
	for (i = 0; i < n; i++) {
		int k = o->msb ? i : n - 1 - i;
		v = (v << 8) | p[k];
	}
	return v;
}

/* Width in bytes of the field a relocation patches, and the bias of a
 * PC-relative one (so that a string reference names the string, not the
 * four bytes before it).  0 = unknown: treated as 4. */
static int rel_width(const struct obj *o, uint32_t type, int *pcbias)
{
	*pcbias = 0;
	switch (o->machine) {
	case EM_X86_64:
		switch (type) {
		case R_X86_64_64: return 8;
		case R_X86_64_PC32: case R_X86_64_PLT32: case R_X86_64_GOTPCREL:
			*pcbias = 4; return 4;
		case R_X86_64_32: case R_X86_64_32S: return 4;
		case R_X86_64_16: case R_X86_64_PC16: return 2;
		case R_X86_64_8: case R_X86_64_PC8: return 1;
		}
		break;
	case EM_386:
		switch (type) {
		case R_386_32: return 4;
		case R_386_PC32: case R_386_PLT32: *pcbias = 4; return 4;
		case R_386_16: case R_386_PC16: return 2;
		case R_386_8: case R_386_PC8: return 1;
		}
		break;
	case EM_SPARCV9: case EM_SPARC: case EM_SPARC32PLUS:
		if (type == R_SPARC_64 || type == R_SPARC_UA64) return 8;
		if (type == R_SPARC_16 || type == R_SPARC_UA16) return 2;
		if (type == R_SPARC_8) return 1;
		return 4;
	case EM_PPC64: case EM_PPC:
		if (type == R_PPC64_ADDR64 || type == R_PPC64_REL64 || type == R_PPC64_TOC)
			return o->is64 ? 8 : 4;
		if (type == R_PPC_ADDR16 || type == R_PPC_ADDR16_LO || type == R_PPC_ADDR16_HI ||
		    type == R_PPC_ADDR16_HA || type == R_PPC64_TOC16 || type == R_PPC64_TOC16_DS ||
		    type == R_PPC64_TOC16_LO || type == R_PPC64_TOC16_HI || type == R_PPC64_TOC16_HA ||
		    type == R_PPC64_TOC16_LO_DS || type == R_PPC64_ADDR16_DS || type == R_PPC64_ADDR16_LO_DS)
			return 4; /* the whole instruction word: the field sits at a 2-byte offset */
		return 4;
	case EM_PARISC:
		if (type == R_PARISC_DIR64 || type == R_PARISC_PCREL64) return 8;
		return 4;
	case EM_68K:
		if (type == R_68K_32 || type == R_68K_PC32 || type == R_68K_PLT32) {
			if (type != R_68K_32) *pcbias = 0;
			return 4;
		}
		if (type == R_68K_16 || type == R_68K_PC16 || type == R_68K_PLT16) return 2;
		if (type == R_68K_8 || type == R_68K_PC8 || type == R_68K_PLT8) return 1;
		break;
	case EM_SH:
		return 4;
	case EM_ARM:
		return 4;
	case EM_MIPS:
		return 4;
	}
	return 0;
}

/* For REL relocations: the in-place addend, where its encoding is a plain
 * word (data and absolute/PC-relative words).  Instruction-encoded addends
 * (ARM branches, MIPS HI16/LO16) are left unknown: the field is masked and
 * the relocation names only its target. */
static int rel_inplace(const struct obj *o, uint32_t type, const unsigned char *p, int64_t *addend)
{
	switch (o->machine) {
	case EM_386:
		if (type == R_386_32 || type == R_386_PC32 || type == R_386_PLT32) {
			*addend = (int32_t)rdn(o, p, 4);
			return 1;
		}
		break;
	case EM_ARM:
		if (type == R_ARM_ABS32 || type == R_ARM_REL32) {
			*addend = (int32_t)rdn(o, p, 4);
			return 1;
		}
		break;
	case EM_MIPS:
		if (type == R_MIPS_32) {
			*addend = (int32_t)rdn(o, p, 4);
			return 1;
		}
		break;
	}
	return 0;
}

static void load(struct obj *o, const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;
	uint64_t shoff;
	unsigned shentsize, shnum, shstrndx, i;
	memset(o, 0, sizeof(*o));
	o->path = path;
	if (!f)
		die("cannot open %s: %s", path, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		die("cannot read %s%s", path, "");
	o->len = n;
	o->buf = xcalloc(o->len + 1, 1);
	if (fread(o->buf, 1, o->len, f) != o->len)
		die("cannot read %s%s", path, "");
	fclose(f);
	if (o->len < EI_NIDENT || memcmp(o->buf, ELFMAG, SELFMAG))
		die("%s is not an ELF file%s", path, "");
	o->is64 = o->buf[EI_CLASS] == ELFCLASS64;
	o->msb = o->buf[EI_DATA] == ELFDATA2MSB;
	if (rd(o, 16, 2) != ET_REL)
		die("%s is not a relocatable object (.o)%s", path, "");
	o->machine = rd(o, 18, 2);
	if (o->is64) {
		shoff = rd(o, 0x28, 8);
		shentsize = rd(o, 0x3a, 2);
		shnum = rd(o, 0x3c, 2);
		shstrndx = rd(o, 0x3e, 2);
	} else {
		shoff = rd(o, 0x20, 4);
		shentsize = rd(o, 0x2e, 2);
		shnum = rd(o, 0x30, 2);
		shstrndx = rd(o, 0x32, 2);
	}
	if (shnum == 0 || shstrndx >= shnum)
		die("%s: no section table%s", path, "");
	o->nsecs = shnum;
	o->secs = xcalloc(shnum, sizeof(*o->secs));
	for (i = 0; i < shnum; i++) {
		uint64_t h = shoff + (uint64_t)i * shentsize;
		struct sec *s = &o->secs[i];
		if (o->is64) {
			s->type = rd(o, h + 4, 4);
			s->flags = rd(o, h + 8, 8);
			s->off = rd(o, h + 0x18, 8);
			s->size = rd(o, h + 0x20, 8);
			s->link = rd(o, h + 0x28, 4);
			s->info = rd(o, h + 0x2c, 4);
			s->entsize = rd(o, h + 0x38, 8);
		} else {
			s->type = rd(o, h + 4, 4);
			s->flags = rd(o, h + 8, 4);
			s->off = rd(o, h + 0x10, 4);
			s->size = rd(o, h + 0x14, 4);
			s->link = rd(o, h + 0x18, 4);
			s->info = rd(o, h + 0x1c, 4);
			s->entsize = rd(o, h + 0x24, 4);
		}
		s->name = (const char *)(uintptr_t)rd(o, h, 4); /* fixed below */
		if (s->type != SHT_NOBITS && s->off + s->size > o->len)
			die("%s: a section lies outside the file%s", path, "");
	}
	for (i = 0; i < shnum; i++) {
		uint64_t nameoff = (uint64_t)(uintptr_t)o->secs[i].name;
		uint64_t base = o->secs[shstrndx].off;
		o->secs[i].name = nameoff < o->secs[shstrndx].size ? (const char *)o->buf + base + nameoff : "";
	}
	/* symbols */
	for (i = 0; i < shnum; i++) {
		struct sec *s = &o->secs[i], *str;
		uint64_t esz = o->is64 ? 24 : 16, j;
		if (s->type != SHT_SYMTAB)
			continue;
		if (s->link >= shnum)
			die("%s: bad symbol table link%s", path, "");
		str = &o->secs[s->link];
		o->nsyms = s->size / esz;
		o->syms = xcalloc(o->nsyms, sizeof(*o->syms));
		for (j = 0; j < o->nsyms; j++) {
			uint64_t e = s->off + j * esz;
			struct sym *y = &o->syms[j];
			uint32_t nm = rd(o, e, 4);
			unsigned char info;
			if (o->is64) {
				info = o->buf[e + 4];
				y->shndx = rd(o, e + 6, 2);
				y->value = rd(o, e + 8, 8);
				y->size = rd(o, e + 16, 8);
			} else {
				y->value = rd(o, e + 4, 4);
				y->size = rd(o, e + 8, 4);
				info = o->buf[e + 12];
				y->shndx = rd(o, e + 14, 2);
			}
			y->type = info & 0xf;
			y->bind = info >> 4;
			y->name = nm < str->size ? (const char *)o->buf + str->off + nm : "";
		}
		break;
	}
	if (!o->syms)
		die("%s has no symbol table%s", path, "");
	/* relocations, attached to the section they patch */
	for (i = 0; i < shnum; i++) {
		struct sec *s = &o->secs[i], *t;
		int rela = s->type == SHT_RELA;
		uint64_t esz, j, n;
		if (s->type != SHT_REL && s->type != SHT_RELA)
			continue;
		if (s->info >= shnum)
			continue;
		t = &o->secs[s->info];
		esz = o->is64 ? (rela ? 24 : 16) : (rela ? 12 : 8);
		n = s->size / esz;
		t->rels = realloc(t->rels, (t->nrels + n) * sizeof(*t->rels));
		if (!t->rels)
			die("%s%s", "out of memory", "");
		for (j = 0; j < n; j++) {
			uint64_t e = s->off + j * esz, info;
			struct rel *r = &t->rels[t->nrels++];
			memset(r, 0, sizeof(*r));
			if (o->is64) {
				r->off = rd(o, e, 8);
				info = rd(o, e + 8, 8);
				r->sym = info >> 32;
				r->type = info & 0xffffffff;
				if (o->machine == EM_MIPS)
					r->type &= 0xff; /* MIPS64 packs three types; only the first matters here */
				if (rela) { r->addend = (int64_t)rd(o, e + 16, 8); r->has_addend = 1; }
			} else {
				r->off = rd(o, e, 4);
				info = rd(o, e + 4, 4);
				r->sym = info >> 8;
				r->type = info & 0xff;
				if (rela) { r->addend = (int32_t)rd(o, e + 8, 4); r->has_addend = 1; }
			}
			if (!rela && t->type != SHT_NOBITS && r->off + 4 <= t->size)
				r->has_addend = rel_inplace(o, r->type, o->buf + t->off + r->off, &r->addend);
		}
	}
}

/* Assembler-local labels that some targets keep in the symbol table
 * (.LC1 on PA-RISC, $LC1 on MIPS): numbered per file, so they are
 * positions, not names. */
static int is_label(const struct sym *y)
{
	if (y->bind != STB_LOCAL || y->type != STT_NOTYPE)
		return 0;
	return !strncmp(y->name, ".L", 2) || !strncmp(y->name, "$L", 2) || !strncmp(y->name, "L$", 2);
}

/* A name for what a relocation points at that does not depend on layout. */
static void describe(const struct obj *o, const struct rel *r, char *out, size_t outsz, int depth)
{
	const struct sym *y;
	const struct sec *ts;
	int pcbias;
	int64_t pos;
	size_t i;
	if (r->sym >= o->nsyms) {
		snprintf(out, outsz, "?sym%u", r->sym);
		return;
	}
	y = &o->syms[r->sym];
	if (y->type != STT_SECTION && y->name[0] && !is_label(y)) {
		if (r->has_addend)
			snprintf(out, outsz, "%s%+lld", y->name, (long long)r->addend);
		else
			snprintf(out, outsz, "%s", y->name);
		return;
	}
	if (y->shndx == SHN_UNDEF || y->shndx >= o->nsecs) {
		snprintf(out, outsz, "?shndx%u", y->shndx);
		return;
	}
	ts = &o->secs[y->shndx];
	if (!r->has_addend && y->type != STT_SECTION) {
		/* a REL relocation against an assembler label ($LC1 on MIPS):
		 * gas puts the offset in the label, so the addend is 0 */
		struct rel r0 = *r;
		r0.has_addend = 1;
		r0.addend = 0;
		describe(o, &r0, out, outsz, depth);
		return;
	}
	if (!r->has_addend) {
		snprintf(out, outsz, "%s+?", ts->name);
		return;
	}
	rel_width(o, r->type, &pcbias);
	pos = (int64_t)y->value + r->addend + pcbias;
	if ((ts->flags & SHF_STRINGS) && pos >= 0 && (uint64_t)pos < ts->size && ts->type != SHT_NOBITS) {
		const char *base = (const char *)o->buf + ts->off;
		int64_t st = pos;
		size_t k, w = 0;
		while (st > 0 && base[st - 1])
			st--;
		w = snprintf(out, outsz, "str:\"");
		for (k = st; k < ts->size && base[k] && w + 8 < outsz; k++)
			w += snprintf(out + w, outsz - w, (base[k] >= 32 && base[k] < 127 && base[k] != '"' && base[k] != '\\') ? "%c" : "\\x%02x",
				      (unsigned char)base[k]);
		snprintf(out + w, outsz - w, "\"%+lld", (long long)(pos - st - pcbias));
		return;
	}
	/* a symbol (static object or function) that covers the target */
	for (i = 0; i < o->nsyms; i++) {
		const struct sym *c = &o->syms[i];
		if (c->shndx != y->shndx || c->type == STT_SECTION || !c->name[0] || c->type == STT_FILE || is_label(c))
			continue;
		if ((int64_t)c->value <= pos &&
		    (pos < (int64_t)(c->value + c->size) || (int64_t)c->value == pos)) {
			snprintf(out, outsz, "%s%+lld", c->name, (long long)(pos - (int64_t)c->value));
			return;
		}
	}
	/* a pointer table (TOC, .opd): follow the entry one level */
	if (depth == 0) {
		for (i = 0; i < ts->nrels; i++) {
			if ((int64_t)ts->rels[i].off == pos) {
				char inner[512];
				describe(o, &ts->rels[i], inner, sizeof(inner), 1);
				snprintf(out, outsz, "[%s]", inner);
				return;
			}
		}
	}
	snprintf(out, outsz, "%s%+lld", ts->name, (long long)(pos - pcbias));
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	while (n--)
		h = (h ^ *c++) * 1099511628211ULL;
	return h;
}

static int by_start(const void *a, const void *b)
{
	const struct func *x = a, *y = b;
	if (x->sec != y->sec) return x->sec < y->sec ? -1 : 1;
	if (x->start != y->start) return x->start < y->start ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct func *)a)->name, ((const struct func *)b)->name);
}

static void add_func(struct obj *o, size_t *cap, const char *name, uint32_t sec, uint64_t start, uint64_t size)
{
	struct func *f;
	if (o->nfuncs == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		o->funcs = realloc(o->funcs, *cap * sizeof(*o->funcs));
		if (!o->funcs)
			die("%s%s", "out of memory", "");
	}
	f = &o->funcs[o->nfuncs++];
	memset(f, 0, sizeof(*f));
	f->name = xstrdup(name);
	f->sec = sec;
	f->start = start;
	f->size = size;
}

/* A function's entry: a typed function symbol, or a global label in code
 * with no type, which is how assembler files mark an entry that ends with
 * END rather than ENDPROC (ia32_cstar_target, ia32_syscall in
 * arch/x86/ia32/ia32entry.S).  It runs to the next entry. */
static int is_entry(const struct sym *y)
{
	return y->type == STT_FUNC ||
	       (y->type == STT_NOTYPE && (y->bind == STB_GLOBAL || y->bind == STB_WEAK) && y->name[0]);
}

/* The no-op sequences gas pads x86 code with, exactly as binutils 2.40
 * writes them (.p2align 4, 0x90): a gap is one of these, or a run of them
 * (the longest first).  64-bit and 32-bit code get different forms: a
 * 32-bit form such as 89 f6 is a real instruction in 64-bit code. */
static const unsigned char *const x86_64_nops[] = {
	(const unsigned char *)"\x0b\x66\x66\x2e\x0f\x1f\x84\x00\x00\x00\x00\x00",
	(const unsigned char *)"\x0a\x66\x2e\x0f\x1f\x84\x00\x00\x00\x00\x00",
	(const unsigned char *)"\x09\x66\x0f\x1f\x84\x00\x00\x00\x00\x00",
	(const unsigned char *)"\x08\x0f\x1f\x84\x00\x00\x00\x00\x00",
	(const unsigned char *)"\x07\x0f\x1f\x80\x00\x00\x00\x00",
	(const unsigned char *)"\x06\x66\x0f\x1f\x44\x00\x00",
	(const unsigned char *)"\x05\x0f\x1f\x44\x00\x00",
	(const unsigned char *)"\x04\x0f\x1f\x40\x00",
	(const unsigned char *)"\x03\x0f\x1f\x00",
	(const unsigned char *)"\x02\x66\x90",
	(const unsigned char *)"\x01\x90",
	NULL
};
static const unsigned char *const x86_32_nops[] = {
	(const unsigned char *)"\x07\x8d\xb4\x26\x00\x00\x00\x00",
	(const unsigned char *)"\x06\x8d\xb6\x00\x00\x00\x00",
	(const unsigned char *)"\x04\x8d\x74\x26\x00",
	(const unsigned char *)"\x03\x8d\x76\x00",
	(const unsigned char *)"\x02\x66\x90",
	(const unsigned char *)"\x01\x90",
	NULL
};

/* x86_unpad(NOPS, CODE, KEEP, END): END with the trailing padding of
 * CODE[KEEP, END) taken off, at most one alignment's worth (15 bytes). */
static uint64_t x86_unpad(const unsigned char *const *nops, const unsigned char *code, uint64_t keep, uint64_t end)
{
	uint64_t start = end;
	int found = 1;
	while (found) {
		size_t n;
		found = 0;
		for (n = 0; nops[n]; n++) {
			uint64_t len = nops[n][0];
			if (end - keep >= len && start - (end - len) <= 15 && !memcmp(code + end - len, nops[n] + 1, len)) {
				end -= len;
				found = 1;
				break;
			}
		}
	}
	return end;
}

static void collect(struct obj *o)
{
	size_t cap = 0, i, j;
	for (i = 0; i < o->nsyms; i++) {
		const struct sym *y = &o->syms[i];
		const struct sec *s;
		if (!is_entry(y) || y->shndx == SHN_UNDEF || y->shndx >= o->nsecs)
			continue;
		s = &o->secs[y->shndx];
		if (s->flags & SHF_EXECINSTR) {
			/* ppc64 ELFv1 with dot-symbols (-mcall-aixdesc): ".foo"
			 * is foo's code entry; name it foo */
			const char *nm = y->name;
			if (o->machine == EM_PPC64 && nm[0] == '.' && nm[1])
				nm++;
			add_func(o, &cap, nm, y->shndx, y->value, y->size);
		}
	}
	for (i = 0; i < o->nsyms; i++) {
		const struct sym *y = &o->syms[i];
		const struct sec *s;
		size_t k;
		int seen = 0;
		if (y->type != STT_FUNC || y->shndx == SHN_UNDEF || y->shndx >= o->nsecs)
			continue;
		s = &o->secs[y->shndx];
		for (k = 0; k < o->nfuncs; k++)
			if (!strcmp(o->funcs[k].name, y->name))
				seen = 1;
		if (!seen && !strcmp(s->name, ".opd")) {
			/* ppc64 ELFv1: the symbol is a descriptor; its first word
			 * is relocated against the code.  Size: up to the next
			 * function in that section (fixed below). */
			for (j = 0; j < s->nrels; j++) {
				const struct rel *r = &s->rels[j];
				if (r->off == y->value && r->sym < o->nsyms) {
					const struct sym *t = &o->syms[r->sym];
					if (t->shndx < o->nsecs)
						add_func(o, &cap, y->name, t->shndx, t->value + r->addend, (uint64_t)-1);
					break;
				}
			}
		}
	}
	/* sizes: a symbol without one ends where the next function (or its section) does */
	qsort(o->funcs, o->nfuncs, sizeof(*o->funcs), by_start);
	for (i = 0; i < o->nfuncs; i++) {
		struct func *f = &o->funcs[i];
		if (f->size != (uint64_t)-1 && f->size != 0)
			continue;
		f->open_end = 1;
		f->size = o->secs[f->sec].size - f->start;
		for (j = i + 1; j < o->nfuncs; j++)
			if (o->funcs[j].sec == f->sec && o->funcs[j].start > f->start) {
				f->size = o->funcs[j].start - f->start;
				break;
			}
	}
	/* duplicate names (two statics of one name): number them */
	qsort(o->funcs, o->nfuncs, sizeof(*o->funcs), by_name);
	for (i = 1; i < o->nfuncs; i++) {
		if (!strcmp(o->funcs[i].name, o->funcs[i - 1].name) || strchr(o->funcs[i - 1].name, '#')) {
			size_t base = strcspn(o->funcs[i - 1].name, "#");
			if (strlen(o->funcs[i].name) == base && !strncmp(o->funcs[i].name, o->funcs[i - 1].name, base)) {
				char buf[600];
				int k = 2;
				const char *h = strchr(o->funcs[i - 1].name, '#');
				if (h) k = atoi(h + 1) + 1;
				snprintf(buf, sizeof(buf), "%s#%d", o->funcs[i].name, k);
				free(o->funcs[i].name);
				o->funcs[i].name = xstrdup(buf);
			}
		}
	}
	/* normalise */
	for (i = 0; i < o->nfuncs; i++) {
		struct func *f = &o->funcs[i];
		const struct sec *s = &o->secs[f->sec];
		size_t rl = 0, rcap = 256;
		uint64_t end = f->start + f->size;
		if (end > s->size)
			die("%s: function %s runs past its section", o->path, f->name);
		/* An entry that runs to the next one takes the alignment padding
		 * before it, whose length moves with the code above; those
		 * trailing no-ops are not the entry's.  x86 only, where the
		 * kernel's ALIGN (.p2align 4, 0x90) makes gas fill with its
		 * no-op instructions.  Never into a relocated field. */
		if (f->open_end && (o->machine == EM_X86_64 || o->machine == EM_386) && s->type != SHT_NOBITS) {
			uint64_t keep = f->start;
			for (j = 0; j < s->nrels; j++) {
				const struct rel *r = &s->rels[j];
				int pcb, w = rel_width(o, r->type, &pcb);
				if (r->off >= f->start && r->off < end && r->off + (uint64_t)(w ? w : 4) > keep)
					keep = r->off + (uint64_t)(w ? w : 4);
			}
			end = x86_unpad(o->machine == EM_X86_64 ? x86_64_nops : x86_32_nops, o->buf + s->off, keep, end);
			f->size = end - f->start;
		}
		f->bytes = xcalloc(f->size + 1, 1);
		if (s->type != SHT_NOBITS)
			memcpy(f->bytes, o->buf + s->off + f->start, f->size);
		f->relocs = xcalloc(rcap, 1);
		for (j = 0; j < s->nrels; j++) {
			const struct rel *r = &s->rels[j];
			char d[600], line[700];
			int pcbias, w;
			uint64_t k;
			size_t ll;
			if (r->off < f->start || r->off >= end)
				continue;
			w = rel_width(o, r->type, &pcbias);
			if (!w)
				w = 4;
			for (k = r->off; k < r->off + (uint64_t)w && k < end; k++)
				f->bytes[k - f->start] = 0;
			describe(o, r, d, sizeof(d), 0);
			ll = snprintf(line, sizeof(line), "+%#llx %u %s\n", (unsigned long long)(r->off - f->start), r->type, d);
			while (rl + ll + 1 > rcap) {
				rcap *= 2;
				f->relocs = realloc(f->relocs, rcap);
				if (!f->relocs)
					die("%s%s", "out of memory", "");
			}
			memcpy(f->relocs + rl, line, ll + 1);
			rl += ll;
		}
		f->hash = fnv(fnv(1469598103934665603ULL, f->bytes, f->size), f->relocs, rl);
#ifdef OBJDIFF_TEST_COLLIDE
		f->hash = 0;	/* objdiff.t: every hash collides, equality must still hold */
#endif
	}
}

/* Equal normalised forms: the bytes and relocations themselves, never the
 * hash (two different functions may share one; -l prints it as a label). */
static int same(const struct func *a, const struct func *b)
{
	return a->size == b->size && !memcmp(a->bytes, b->bytes, a->size) &&
	       !strcmp(a->relocs, b->relocs);
}

static const char *why(const struct func *a, const struct func *b, char *buf, size_t n)
{
	uint64_t k;
	if (a->size != b->size) {
		snprintf(buf, n, "size %llu -> %llu", (unsigned long long)a->size, (unsigned long long)b->size);
		return buf;
	}
	for (k = 0; k < a->size; k++)
		if (a->bytes[k] != b->bytes[k]) {
			snprintf(buf, n, "code differs at +%#llx", (unsigned long long)k);
			return buf;
		}
	{
		const char *x = a->relocs, *y = b->relocs;
		while (*x && *x == *y)
			x++, y++;
		while (x > a->relocs && x[-1] != '\n')
			x--;
		snprintf(buf, n, "relocation differs: %.*s", (int)strcspn(x, "\n"), x);
	}
	return buf;
}

static void usage(void)
{
	fprintf(stderr, "usage: objdiff [-v] [-q] OLD.o NEW.o | objdiff -l OBJ.o | objdiff -d FUNC OBJ.o\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int verbose = 0, quiet = 0, ndiff = 0;
	struct obj a, b;
	size_t i, j;
	char buf[800];
	if (argc == 3 && !strcmp(argv[1], "-l")) {
		load(&a, argv[2]);
		collect(&a);
		for (i = 0; i < a.nfuncs; i++)
			printf("%s %llu %016llx\n", a.funcs[i].name, (unsigned long long)a.funcs[i].size,
			       (unsigned long long)a.funcs[i].hash);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "-d")) {
		load(&a, argv[3]);
		collect(&a);
		for (i = 0; i < a.nfuncs; i++) {
			uint64_t k;
			if (strcmp(a.funcs[i].name, argv[2]))
				continue;
			printf("function %s size %llu\n", a.funcs[i].name, (unsigned long long)a.funcs[i].size);
			for (k = 0; k < a.funcs[i].size; k++)
				printf("%02x%s", a.funcs[i].bytes[k], (k % 16 == 15 || k + 1 == a.funcs[i].size) ? "\n" : " ");
			fputs(a.funcs[i].relocs, stdout);
			return 0;
		}
		die("no function %s in %s", argv[2], argv[3]);
	}
	while (argc > 1 && argv[1][0] == '-') {
		if (!strcmp(argv[1], "-v")) verbose = 1;
		else if (!strcmp(argv[1], "-q")) quiet = 1;
		else usage();
		argv++, argc--;
	}
	if (argc != 3)
		usage();
	load(&a, argv[1]);
	load(&b, argv[2]);
	if (a.machine != b.machine || a.is64 != b.is64)
		die("%s and %s are built for different machines", argv[1], argv[2]);
	collect(&a);
	collect(&b);
	/* both sorted by name: merge */
	for (i = 0, j = 0; i < a.nfuncs || j < b.nfuncs;) {
		int c = i == a.nfuncs ? 1 : j == b.nfuncs ? -1 : strcmp(a.funcs[i].name, b.funcs[j].name);
		if (c < 0) {
			printf("removed %s\n", a.funcs[i++].name);
			ndiff++;
		} else if (c > 0) {
			printf("added %s\n", b.funcs[j++].name);
			ndiff++;
		} else {
			if (!same(&a.funcs[i], &b.funcs[j])) {
				if (verbose)
					printf("changed %s (%s)\n", a.funcs[i].name, why(&a.funcs[i], &b.funcs[j], buf, sizeof(buf)));
				else
					printf("changed %s\n", a.funcs[i].name);
				ndiff++;
			}
			i++, j++;
		}
	}
	return quiet && ndiff ? 1 : 0;
}
