/*
 * Sample (written for the kit, not kernel code): the same loader once the
 * series has split flush_old_exec() (A) and dropped TIF_ABI_PENDING (C),
 * which is where this patch (G) applies in the series.
 */
static int load_sample_aout(struct linux_binprm *bprm, struct pt_regs *regs)
{
	struct exec hdr;
	int rv;

	rv = flush_old_exec(bprm);
	if (rv)
		return rv;

	set_personality(PER_LINUX);
	set_thread_flag(TIF_IA32);

	setup_new_exec(bprm);

	regs->cs = __USER32_CS;

	current->mm->free_area_cache = TASK_UNMAPPED_BASE;
	current->mm->cached_hole_size = 0;

	current->mm->mmap = NULL;
	install_exec_creds(bprm);
	current->flags &= ~PF_FORKNOEXEC;
	return 0;
}
