/*
 * Force-included (-include) into every object the cross matrix builds:
 * __LINE__ is 0, so a line inserted above a function does not change the
 * BUG()/WARN()/printk line numbers compiled into the functions below it,
 * and objdiff reports only functions whose code really changed.  A system
 * header, so that redefining a builtin macro is not a warning (some arch
 * Makefiles build with -Werror).
 */
#pragma GCC system_header
#undef __LINE__
#define __LINE__ 0
