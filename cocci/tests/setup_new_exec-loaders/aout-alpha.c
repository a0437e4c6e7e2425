/*
 * Sample (written for the kit, not kernel code): an a.out-style loader in
 * the 2.6.29-2.6.32 shape: #ifdef __alpha__ / #else / #endif around the
 * personality, plus a core-dump routine built from statement macros that
 * only parse with cocci/macros.h.
 */
#define DUMP_WRITE(addr, nr)	\
	if (!dump_write(file, (void *)(addr), (nr))) \
		goto end_coredump;

#define DUMP_SEEK(offset) \
if (file->f_op->llseek) { \
	if (file->f_op->llseek(file,(offset),0) != (offset)) \
		goto end_coredump; \
} else file->f_pos = (offset)

static int sample_core_dump(long signr, struct file *file)
{
	struct user dump;

	DUMP_WRITE(&dump, sizeof(dump));
	DUMP_SEEK(PAGE_SIZE);
	DUMP_WRITE(current, sizeof(*current));
end_coredump:
	return 1;
}

static int load_sample_aout(struct linux_binprm *bprm, struct pt_regs *regs)
{
	struct exec hdr;
	int rv;

	hdr = *((struct exec *) bprm->buf);

	rv = flush_old_exec(bprm);
	if (rv)
		return rv;

	/* No way back from here */
#ifdef __alpha__
	SET_AOUT_PERSONALITY(bprm, hdr);
#else
	set_personality(PER_LINUX);
#endif

	current->mm->end_code = hdr.a_text +
		(current->mm->start_code = N_TXTADDR(hdr));
	install_exec_creds(bprm);
	return 0;
}
