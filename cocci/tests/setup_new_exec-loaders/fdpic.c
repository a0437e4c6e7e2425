/*
 * Sample (written for the kit, not kernel code): the ELF-FDPIC loader in
 * the vanilla 2.6.26-2.6.32 shape, with the aux-vector macro that only
 * parses with cocci/macros.h in a helper.
 */
static int sample_tables(struct linux_binprm *bprm, unsigned long csp)
{
	char __user *u_platform;
	elf_caddr_t __user *envp;
	char *p;
	int nr;

#define NEW_AUX_ENT(id, val)						\
	do {								\
		struct { unsigned long _id, _val; } __user *ent;	\
		ent = (void __user *) csp;				\
		__put_user((id), &ent[nr]._id);				\
		__put_user((val), &ent[nr]._val);			\
		nr++;							\
	} while (0)

	nr = 0;
	NEW_AUX_ENT(AT_NULL, 0);
	if (u_platform)
		NEW_AUX_ENT(AT_PLATFORM,
			    (elf_addr_t) (unsigned long) u_platform);
	__put_user((elf_caddr_t)(unsigned long) p, envp++);
#undef NEW_AUX_ENT
	return 0;
}

static int load_sample_fdpic(struct linux_binprm *bprm, struct pt_regs *regs)
{
	int rv;

	/* throw the old image away */
	rv = flush_old_exec(bprm);
	if (rv)
		goto error;

	/* no way back from here */
	set_personality(PER_LINUX_FDPIC);
	set_binfmt(&sample_fdpic_format);

	current->mm->start_code = 0;
	return 0;
error:
	return rv;
}
