/*
 * What a PTX kernel does with the memory its parameters point to, read
 * from the text of its entry without a GPU: for --describe-buffers, which
 * draws a read from the buffer to the node and a write from the node to
 * the buffer.
 *
 * The reading follows each address loaded from a parameter
 * (`ld.param`) through register arithmetic (mov, add, cvta, mad, selp,
 * ... : whatever an instruction computes from it carries it) to the
 * memory instructions that use it as an address: a load reads, a store
 * writes, an atomic or reduction reads and writes, a bulk copy reads its
 * source and writes its destination.  The reading is flow-insensitive
 * (each instruction counts whether or not it runs, so a store under a
 * predicate that is never true still writes) and errs towards seeing
 * more: an address that meets another parameter's in arithmetic carries
 * both.  It does not follow a pointer through memory: a parameter's
 * address stored anywhere (to memory, to a spill slot, as a function's
 * argument) or taken itself (`mov %rd, param`), or reaching an
 * instruction it does not know, makes that parameter's access unknown;
 * a pointer read from memory (a buffer of pointers) is not followed to
 * what it points at.
 *
 * Ownership: a struct ptx_access owns everything it holds; it keeps no
 * pointer into the text it read.  ptx_access_free accepts NULL.
 */
#ifndef CGR_PTX_ACCESS_H
#define CGR_PTX_ACCESS_H

#include <stddef.h>

/* What an entry does through some bytes of a parameter (bits). */
enum {
	PTX_READ = 1,           /* loads through them */
	PTX_WRITE = 2,          /* stores through them (atomics: both) */
	PTX_UNKNOWN = 4,        /* something this reading does not follow */
};

struct ptx_access;

/*
 * The reading of `.entry name` in the NUL-terminated PTX text; NULL when
 * it cannot be had: the text is not PTX of 64-bit addresses (an ELF cubin,
 * a fatbin), defines no such entry, or its body is not read whole.
 */
struct ptx_access *ptx_access_new(const char *text, const char *name);
void ptx_access_free(struct ptx_access *a);

/* The number of parameters the entry declares. */
size_t ptx_access_nparams(const struct ptx_access *a);

/*
 * What the entry does through the address held in bytes [offset, offset
 * + size) of parameter param (0 for a pointer parameter, a field's offset
 * in a struct): PTX_READ and PTX_WRITE as seen, 0 when it never uses them
 * as an address, PTX_UNKNOWN (perhaps with the others) when it does
 * something not followed.  A parameter past the last is PTX_UNKNOWN.
 */
unsigned ptx_access_at(const struct ptx_access *a, size_t param, size_t offset, size_t size);

#endif
