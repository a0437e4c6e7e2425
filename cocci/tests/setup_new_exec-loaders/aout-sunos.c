/*
 * Sample (written for the kit, not kernel code): an a.out-style loader in
 * the 2.6.26-2.6.28 shape.  The personality is chosen in a three-way
 * preprocessor conditional with a nested one in the middle branch; the new
 * call must land after the outer #endif so that every configuration gets it.
 */
static int load_sample_aout(struct linux_binprm *bprm, struct pt_regs *regs)
{
	struct exec hdr;
	int err;

	hdr = *((struct exec *) bprm->buf);
	if (hdr.a_data + hdr.a_bss > limit)
		return -ENOMEM;

	/* Throw the old image away */
	err = flush_old_exec(bprm);
	if (err)
		return err;

	/* No way back from here */
#if defined(__alpha__)
	SET_AOUT_PERSONALITY(bprm, hdr);
#elif defined(__sparc__)
	set_personality(PER_SUNOS);
#if !defined(__sparc_v9__)
	memcpy(&current->thread.core_exec, &hdr, sizeof(struct exec));
#endif
#else
	set_personality(PER_LINUX);
#endif

	current->mm->end_code = hdr.a_text +
		(current->mm->start_code = N_TXTADDR(hdr));
	current->mm->free_area_cache = current->mm->mmap_base;
	compute_creds(bprm);
	current->flags &= ~PF_FORKNOEXEC;
	return 0;
}
