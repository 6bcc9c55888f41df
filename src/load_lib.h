/*
 * The loader's library nodes (private to load*.c): a cublas node's
 * routine and its parameters, a cufft node's plan and execution, read
 * into the node's struct blas_call or struct fft_call (model_lib.h),
 * placed in the gdef's arena.  What a routine takes is the validator's
 * to say (validate_lib.h): every parameter name is read here, with its
 * type and range.
 */
#ifndef CGR_LOAD_LIB_H
#define CGR_LOAD_LIB_H

#include "load_map.h"
#include "model_lib.h"

/* Node n's kind value, the current event. */
void parse_cublas(struct ld *l, struct node *n);
void parse_cufft(struct ld *l, struct node *n);

/*
 * A cuBLAS routine as written: "gemm", "Sgemm", "cublasSgemm", "GemmEx",
 * "cublasGemmStridedBatchedEx".  True with the routine and its type
 * letter (0 for none) when it is one of blas_specs; false otherwise.
 */
bool blas_routine(const char *key, enum blas_op *op, char *letter);

#endif
