/*
 * A little reading of PTX text, with no CUDA in it: how many parameters a
 * kernel entry declares.  The driver can report each parameter
 * (cuFuncGetParamInfo) but not how many there are (CUDA 13.0 has no call
 * for it), so asking past the last one is the only way it offers to find
 * the end: a failing call that compute-sanitizer reports as an API error.
 * cubin.h reads the count from a module's image instead, through here for
 * PTX (a file, the built-in module, NVRTC's PTX, a fatbin's PTX entry).
 */
#ifndef CGR_PTX_H
#define CGR_PTX_H

/*
 * The number of .param declarations of `.entry name` in the NUL-terminated
 * PTX text, or -1 when text is not PTX (an ELF cubin or a fatbin) or
 * declares no such entry.  Comments and strings are skipped.
 */
long ptx_entry_params(const char *text, const char *name);

#endif
