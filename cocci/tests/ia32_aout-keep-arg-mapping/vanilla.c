/*
 * Sample (written for the kit, not kernel code): the ia32 a.out loader as
 * 2.6.26-2.6.32 ship it.  Clearing mm->mmap after the flush throws away
 * the argument pages that exec already mapped into the new mm.
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
	clear_thread_flag(TIF_ABI_PENDING);

	current->mm->free_area_cache = TASK_UNMAPPED_BASE;
	current->mm->cached_hole_size = 0;

	current->mm->mmap = NULL;
	compute_creds(bprm);
	current->flags &= ~PF_FORKNOEXEC;
	return 0;
}
