/*
 * Sample (written for the kit, not kernel code): the ELF-FDPIC shape of a
 * tree that already carries the elf_read_implies_exec() lines (2.6.32.y
 * and distribution trees): the call goes after the READ_IMPLIES_EXEC test,
 * which is part of setting the personality.
 */
static int load_sample_fdpic(struct linux_binprm *bprm, struct pt_regs *regs)
{
	int rv;

	rv = flush_old_exec(bprm);
	if (rv)
		goto error;

	set_personality(PER_LINUX_FDPIC);
	if (elf_read_implies_exec(&params.hdr, exec_stack))
		current->personality |= READ_IMPLIES_EXEC;
	set_binfmt(&sample_fdpic_format);

	current->mm->start_code = 0;
	return 0;
error:
	return rv;
}
