/*
 * Sample (written for the kit, not kernel code): the flat loader shape,
 * 2.6.26-2.6.32.  Only the main executable (id 0) flushes the old image;
 * shared libraries loaded by the same function must not get the call.
 */
static int load_sample_flat(struct linux_binprm *bprm, int id)
{
	int res, ret;
	unsigned long extra;

	if (data_len > limit) {
		ret = -ENOMEM;
		goto err;
	}

	if (id == 0) {
		res = flush_old_exec(bprm);
		if (res) {
			ret = res;
			goto err;
		}

		/* No way back from here */
		set_personality(PER_LINUX_32BIT);
	}

	extra = max_t(unsigned long, bss_len + stack_len, 4);
	return 0;
err:
	return ret;
}
