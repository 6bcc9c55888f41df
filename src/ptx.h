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

#endif
