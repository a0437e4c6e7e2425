/*
 * Sample (written for the kit, not kernel code): the x86-64 ia32 a.out
 * loader shape, 2.6.26-2.6.32.  The register reset that precedes the
 * personality moves after setup_new_exec(), as upstream did.
 */
static int load_sample_aout(struct linux_binprm *bprm, struct pt_regs *regs)
{
	struct exec hdr;
	int rv;

	rv = flush_old_exec(bprm);
	if (rv)
		return rv;

	regs->cs = __USER32_CS;
	regs->r8 = regs->r9 = regs->r10 = regs->r11 = regs->r12 =
		regs->r13 = regs->r14 = regs->r15 = 0;

	/* No way back from here */
	set_personality(PER_LINUX);
	set_thread_flag(TIF_IA32);
	clear_thread_flag(TIF_ABI_PENDING);

	current->mm->end_code = hdr.a_text +
		(current->mm->start_code = N_TXTADDR(hdr));
	current->mm->free_area_cache = TASK_UNMAPPED_BASE;

	current->mm->mmap = NULL;
	compute_creds(bprm);
	current->flags &= ~PF_FORKNOEXEC;
	return 0;
}
