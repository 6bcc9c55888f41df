/*
 * What kernel nodes do through their buffer arguments, for the buffer
 * diagram: what the file says ('access:' on the argument), else what the
 * kernel's module says where it can be read.  A PTX module (a file, or the
 * built-in one) is read by ptx_access.h; a cubin, a fatbin or a CUDA C++
 * module is not (it is not compiled to describe it), and its kernels'
 * arguments stay USE_UNKNOWN.  No GPU is needed.
 *
 * Ownership: a struct kernel_access owns the module texts it read and the
 * readings it made (each module file is read once, each kernel once); it
 * borrows the definition, which must outlive it.
 */
#ifndef CGR_KERNEL_ACCESS_H
#define CGR_KERNEL_ACCESS_H

#include "model.h"
#include "model_uses.h"

struct kernel_access;

struct kernel_access *kernel_access_new(const struct gdef *g);
void kernel_access_free(struct kernel_access *ka);

/*
 * The access of use u, which node_buffer_uses gave for node n: u's own
 * when it is known (any node but a kernel; a kernel argument with
 * 'access:'), else what n's module says of the parameter bytes that hold
 * the address, else USE_UNKNOWN.
 */
enum use_access kernel_access_of(struct kernel_access *ka, const struct node *n,
				 const struct buf_use *u);

#endif
