/*
 * Sample (written for the kit, not kernel code): the HP-UX SOM loader
 * shape, 2.6.26-2.6.32: the personality is a plain assignment.
 */
static int
load_sample_som(struct linux_binprm *bprm, struct pt_regs *regs)
{
	int rv;

	rv = flush_old_exec(bprm);
	if (rv)
		goto out_free;

	/* No way back from here */
	current->flags &= ~PF_FORKNOEXEC;
	current->personality = PER_HPUX;

	current->thread.task_size = 0xc0000000;
	return 0;
out_free:
	return rv;
}
