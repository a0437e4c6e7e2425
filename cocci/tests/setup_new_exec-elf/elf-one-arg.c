/*
 * Sample (written for the kit, not kernel code): an ELF loader in the
 * 2.6.28-2.6.32 shape: SET_PERSONALITY() takes one argument.
 * The two personality switches before flush_old_exec() go, the one after
 * it stays, and setup_new_exec() takes over arch_pick_mmap_layout().
 */
static int load_sample_elf(struct linux_binprm *bprm, struct pt_regs *regs)
{
	struct file *interp = NULL;
	char *interp_name = NULL;
	int i, rv;

	for (i = 0; i < loc->hdr.e_phnum; i++) {
		if (ph->p_type == PT_INTERP) {
			rv = -ENOEXEC;
			if (ph->p_filesz < 2)
				goto out_free_file;

			/*
			 * Switching early so the interpreter is looked up
			 * where the new image will live (sample comment,
			 * standing in for the long one the kernel has here).
			 */
			SET_PERSONALITY(loc->hdr);

			interp = open_exec(interp_name);
			rv = PTR_ERR(interp);
			if (IS_ERR(interp))
				goto out_free_interp;
			break;
		}
		ph++;
	}

	if (interp_name) {
		rv = -ELIBBAD;
		if (!elf_check_arch(&loc->interp_hdr))
			goto out_free_dentry;
	} else {
		/* No interpreter: still needs its personality */
		SET_PERSONALITY(loc->hdr);
	}

	/* Throw the old image away */
	rv = flush_old_exec(bprm);
	if (rv)
		goto out_free_dentry;

	/* No way back from here */
	current->flags &= ~PF_FORKNOEXEC;
	current->mm->def_flags = def_flags;

	/* Now, before STACK_TOP is used below */
	SET_PERSONALITY(loc->hdr);
	if (elf_read_implies_exec(loc->hdr, exec_stack))
		current->personality |= READ_IMPLIES_EXEC;

	if (!(current->personality & ADDR_NO_RANDOMIZE) && randomize_va_space)
		current->flags |= PF_RANDOMIZE;
	arch_pick_mmap_layout(current->mm);

	current->mm->free_area_cache = current->mm->mmap_base;
	rv = setup_arg_pages(bprm, randomize_stack_top(STACK_TOP), exec_stack);
	return rv;

out_free_dentry:
	allow_write_access(interp);
out_free_interp:
	kfree(interp_name);
out_free_file:
	return rv;
}
