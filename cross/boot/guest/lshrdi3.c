/*
 * lshrdi3.c - the one libgcc helper the 32-bit powerpc guest programs
 * need (a variable 64-bit shift in kit.h's l_x).  Debian's powerpc64
 * cross compiler ships no 32-bit libgcc, and the guests link nothing else.
 */
typedef unsigned long long u64;
typedef unsigned int u32;

u64 __lshrdi3(u64 v, int n);
u64 __lshrdi3(u64 v, int n)
{
	union { u64 v; struct { u32 hi, lo; } w; } x = { v };	/* big endian */

	if (n == 0)
		return v;
	if (n >= 32) {
		x.w.lo = x.w.hi >> (n - 32);
		x.w.hi = 0;
	} else {
		x.w.lo = (x.w.lo >> n) | (x.w.hi << (32 - n));
		x.w.hi >>= n;
	}
	return x.v;
}
