/* mips shape: pt_regs found below the kernel stack; a caller is not renamed */
static inline void __user *compat_alloc_user_space(long len)
{
	struct pt_regs *regs = (struct pt_regs *)
		((unsigned long) current_thread_info() + THREAD_SIZE - 32) - 1;

	return (void __user *) (regs->regs[29] - len);
}

static inline int sample_caller(void)
{
	struct sample __user *p = compat_alloc_user_space(sizeof(*p));

	return p == NULL;
}
