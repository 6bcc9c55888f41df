/*
 * The validator's library nodes (cugraphrun(5), Library nodes): what a
 * cublas node's routine takes and needs, its operands' element types
 * against the routine's and the compute type's, its dimensions, leading
 * dimensions, increments and batch strides against its buffers' sizes
 * (a GEMM that would read past the end of A is an error at A); a cufft
 * node's transform type against its buffers' types, its plan's layout
 * against its buffers' sizes; both without a GPU or the libraries.  What
 * it fills in (model_lib.h, "validator:") is what the GPU layer calls
 * the library with and what --describe says.
 *
 * The validator proper (validate.c) owns the names: it hands over how a
 * buffer name is resolved and a use recorded (struct lib_check).
 */
#ifndef CGR_VALIDATE_LIB_H
#define CGR_VALIDATE_LIB_H

#include <stdbool.h>
#include <stddef.h>

#include "model_lib.h"

struct lib_check {
	struct gdef *g;
	struct diag *d;
	const bool *sized;              /* per buffer: its count and size are known */
	/* r resolved among the buffers (an unknown name reported); its index or -1 */
	long (*resolve)(void *ctx, struct name_ref *r, struct pos fallback);
	/* node self uses buffer b (graph-memory lifetimes) */
	void (*use)(void *ctx, long b, size_t self);
	void *ctx;
};

/* The rules of cublas or cufft node n (all_nodes index self), its validator fields filled in. */
void validate_lib_node(const struct lib_check *lc, struct node *n, size_t self);

/*
 * Once every node's device is known (validate_devices.h): a library node
 * reads and writes device memory on its own device only.
 */
void validate_lib_devices(const struct gdef *g, struct diag *d);

#endif
