/*
 * cocci/macros.h: extra macro definitions for spatch (--macro-file), so that
 * old-kernel code spatch cannot parse on its own still reaches the rules.
 * Only the parser sees these; they never end up in a patch.
 *
 * Coccinelle 1.1.1 on v2.6.26..v2.6.32 (spatch --parse-c):
 *  - fs/binfmt_aout.c, arch/x86/ia32/ia32_aout.c: the a.out core-dump
 *    statement macros.  Giving spatch a statement-shaped definition makes
 *    every use parse as one statement.  (The local "#define DUMP_SEEK" body
 *    itself, which ends in a bare "else ... = (offset)", still shows up as a
 *    parse error: it is not in any function, and nothing needs to change
 *    there.)
 *  - fs/binfmt_elf_fdpic.c: create_elf_fdpic_tables() is lost as a whole
 *    (about 220 lines) because spatch cannot tell that elf_addr_t and
 *    elf_caddr_t (#defines in <linux/elf.h>, which spatch does not read) are
 *    types in "(elf_addr_t) (unsigned long) x" casts.
 */
#define DUMP_WRITE(addr, nr) do { } while (0)
#define DUMP_SEEK(offset) do { } while (0)
#define NEW_AUX_ENT(id, val) do { } while (0)
#define elf_addr_t unsigned long
#define elf_caddr_t unsigned long
