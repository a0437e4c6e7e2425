/* s390 shape (2.6.31+): after an #ifdef'd is_compat_task(), a local and a test */
#ifdef CONFIG_COMPAT
static inline int is_compat_task(void)
{
	return test_thread_flag(TIF_31BIT);
}
#else
static inline int is_compat_task(void)
{
	return 0;
}
#endif

static inline void __user *compat_alloc_user_space(long len)
{
	unsigned long stack;

	stack = KSTK_ESP(current);
	if (is_compat_task())
		stack &= 0x7fffffffUL;
	return (void __user *) (stack - len);
}
