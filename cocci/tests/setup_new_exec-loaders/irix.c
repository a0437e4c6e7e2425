/*
 * Sample (written for the kit, not kernel code): the 2.6.26-only IRIX ELF
 * loader shape (arch/mips), the one flush_old_exec() caller outside fs/.
 * Its personality is set only after the image is mapped, so the call goes
 * straight after the flush check: what the old flush_old_exec() did there.
 */
static int load_sample_irix(struct linux_binprm *bprm, struct pt_regs *regs)
{
	int rv;

	rv = flush_old_exec(bprm);
	if (rv)
		goto out_free_dentry;

	/* No way back from here */
	current->mm->end_data = 0;
	current->mm->mmap = NULL;
	entry = (unsigned int) hdr.e_entry;

	setup_arg_pages(bprm, STACK_TOP, EXSTACK_DEFAULT);
	map_sample(bprm->file, &load_addr);

	set_personality(PER_IRIX32);
	set_binfmt(&sample_irix_format);
	compute_creds(bprm);
	return 0;
out_free_dentry:
	return rv;
}
