/*
 * A little reading of PTX text, with no CUDA in it: how many parameters a
 * kernel entry declares, and every entry with its parameters' sizes and
 * types (for the validator, mod_check.h).  The driver can report each parameter
 * (cuFuncGetParamInfo) but not how many there are (CUDA 13.0 has no call
 * for it), so asking past the last one is the only way it offers to find
 * the end: a failing call that compute-sanitizer reports as an API error.
 * cubin.h reads the count from a module's image instead, through here for
 * PTX (a file, the built-in module, NVRTC's PTX, a fatbin's PTX entry).
 * It also finds an entry's body, for ptx_access.h's reading of it.
 */
#ifndef CGR_PTX_H
#define CGR_PTX_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The number of .param declarations of `.entry name` in the NUL-terminated
 * PTX text, or -1 when text is not PTX (an ELF cubin or a fatbin) or
 * declares no such entry.  Comments and strings are skipped.
 */
long ptx_entry_params(const char *text, const char *name);

/*
 * One kernel entry of a PTX text, as the validator reads it to check
 * kernel nodes without a GPU.  Each parameter's size is its type's times
 * its array length (`.param .align 8 .b8 p[40]` is 40 bytes), the bytes
 * the driver copies for it; 0 where PTX gives no size (an opaque type
 * such as .texref, an array without a length).  The type is as declared,
 * for messages: ".u32", ".b8[40]".
 */
struct ptx_param {
	size_t size;
	char type[24];
};

struct ptx_entry {
	char *name;
	size_t nparams;
	struct ptx_param *params;       /* nparams of them (NULL when none) */
	/*
	 * Its body names memory declared .extern .shared (in the module or in
	 * itself): dynamic shared memory, whose size its launch gives.
	 */
	bool dyn_shared;
};

/*
 * Every `.entry` of the NUL-terminated PTX text, in order, into *out
 * (malloc'd, ptx_entries_free releases it), and their number; -1 with
 * *out NULL when the text is not PTX that can be read whole: no
 * `.version` directive, an ELF or fatbin image, a parameter list that
 * does not close, or one name declared twice with different parameters.
 * Comments and strings are skipped; `.func`s are not entries.
 */
long ptx_entries(const char *text, struct ptx_entry **out);
void ptx_entries_free(struct ptx_entry *v, size_t n);

/* A stretch of a text: [start, end). */
struct ptx_span {
	const char *start, *end;
};

/*
 * Where the definition of `.entry name` stands in the NUL-terminated PTX
 * text: its parameter list (inside the parentheses; empty when it has
 * none) and its body (inside the braces).  A declaration without a body
 * is passed over.  False when text is an ELF or fatbin image, or defines
 * no such entry, or its body does not close.  (ptx_access.h reads them.)
 */
bool ptx_entry_span(const char *text, const char *name, struct ptx_span *params,
		    struct ptx_span *body);

/*
 * A copy of the span (malloc'd, NUL-terminated) with its comments made
 * spaces, newlines kept: what is left is statements and strings.
 */
char *ptx_uncomment(struct ptx_span s);

/*
 * What a module's header says: its PTX ISA (.version 8.7) and its target
 * (.target sm_90a: 90 and 'a').  The target is the first sm_ word of
 * .target (".target sm_90, texmode_independent" has one); 0 when there
 * is none, as in ".target compute_90" which PTX does not have.
 */
struct ptx_header {
	int isa;                        /* major * 10 + minor: 87 for 8.7 */
	int sm;                         /* 90 for sm_90a; 0: none */
	char suffix;                    /* 'a' (that architecture alone), 'f' (its family), or 0 */
	char target[24];                /* as written: "sm_90a" */
};

/*
 * How C spells a parameter of PTX type type (".u32", ".b8[16]"), for
 * messages: "int or unsigned int" (nvcc writes .u32 for both), "float",
 * "a pointer or a 64-bit integer", "a struct of 16 bytes"; NULL when the
 * type is none of the usual.
 */
const char *ptx_c_type(const char *type, char *buf, size_t len);

/* The header of the NUL-terminated PTX text; false when it has no .version. */
bool ptx_header(const char *text, struct ptx_header *h);

/*
 * Whether a device of compute capability sm (90 for 9.0) runs PTX for
 * h's target: sm_XY on XY and newer (the driver compiles it for the
 * device), sm_XYa on XY alone, sm_XYf on the devices of XY's family
 * (its major) from XY on.  True when h names no target.
 */
bool ptx_target_runs(const struct ptx_header *h, int sm);

/* The devices that run h's target, in words: "sm_90 and newer", "sm_100 to sm_10x". */
void ptx_target_words(const struct ptx_header *h, char *buf, size_t len);

/*
 * The newest PTX ISA (major * 10 + minor) a CUDA version's compiler and
 * driver take (cuDriverGetVersion's form: 12080 for 12.8): ISA 8.x up to
 * CUDA 12.5, 8.5 for 12.6, 8.6 for 12.7, 8.7 for 12.8, 8.8 for 12.9, then
 * 9.y for 13.y; 7.y for 11.y.  A newer major than the table knows counts
 * on as 13 does (ISA major = CUDA major - 4).
 */
int ptx_isa_of_cuda(int cuda_version);

#endif
