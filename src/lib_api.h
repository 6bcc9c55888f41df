/*
 * cuBLAS and cuFFT, opened at run time like the driver, NVRTC and CUPTI,
 * never linked, and only for a file that has cublas or cufft nodes: a
 * file without them loads neither.  The files are those of the majors
 * the GPU layer was built with (CUBLAS_VER_MAJOR, CUFFT_VER_MAJOR:
 * libcublas.so.13, libcufft.so.12), looked for where toolkit_lib.h says
 * (CUGRAPHRUN_CUBLAS or CUGRAPHRUN_CUFFT, set, names the file instead:
 * the tests use it to see a library missing); libcublas finds its
 * libcublasLt beside it ($ORIGIN).
 *
 * Every entry point is looked up by the name the library exports, which
 * is not always the name C code writes: cublas_v2.h maps cublasCreate,
 * cublasSetStream, cublasSgemv and others to their _v2 symbols by macro,
 * and the names without _v2 that libcublas also exports are the legacy
 * API's, with other signatures.  The tables below name the exported
 * symbols; their types come from the headers' prototypes.
 *
 * <cublas_api.h> and <cufft.h> are included here and nowhere else (their
 * half-precision headers test __cplusplus, which -Wundef warns of in C).
 * The tables are process-wide singletons, filled once, never closed.
 */
#ifndef CGR_LIB_API_H
#define CGR_LIB_API_H

#include <stdbool.h>
#include <stddef.h>

#include "cuda_api.h"
#include "scalar.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wundef"
#include <cublas_api.h>
#include <cufft.h>
#pragma GCC diagnostic pop

/* X(field, exported symbol): the entry points library nodes call. */
#define CUBLAS_TABLE(X)                                 \
	X(GetProperty, cublasGetProperty)               \
	X(GetStatusName, cublasGetStatusName)           \
	X(GetStatusString, cublasGetStatusString)       \
	X(Create, cublasCreate_v2)                      \
	X(Destroy, cublasDestroy_v2)                    \
	X(SetStream, cublasSetStream_v2)                \
	X(SetWorkspace, cublasSetWorkspace_v2)          \
	X(SetPointerMode, cublasSetPointerMode_v2)      \
	X(SetMathMode, cublasSetMathMode)               \
	X(GemmEx, cublasGemmEx)                         \
	X(GemmStridedBatchedEx, cublasGemmStridedBatchedEx) \
	X(Sgemv, cublasSgemv_v2)                        \
	X(Dgemv, cublasDgemv_v2)                        \
	X(AxpyEx, cublasAxpyEx)                         \
	X(CopyEx, cublasCopyEx)                         \
	X(DotEx, cublasDotEx)                           \
	X(Nrm2Ex, cublasNrm2Ex)                         \
	X(ScalEx, cublasScalEx)

#define CUFFT_TABLE(X)                                  \
	X(GetVersion, cufftGetVersion)                  \
	X(Create, cufftCreate)                          \
	X(Destroy, cufftDestroy)                        \
	X(SetAutoAllocation, cufftSetAutoAllocation)    \
	X(MakePlanMany64, cufftMakePlanMany64)          \
	X(SetWorkArea, cufftSetWorkArea)                \
	X(SetStream, cufftSetStream)                    \
	X(ExecC2C, cufftExecC2C)                        \
	X(ExecR2C, cufftExecR2C)                        \
	X(ExecC2R, cufftExecC2R)                        \
	X(ExecZ2Z, cufftExecZ2Z)                        \
	X(ExecD2Z, cufftExecD2Z)                        \
	X(ExecZ2D, cufftExecZ2D)

#define LIB_API_FIELD(field, sym) __typeof__(&sym) field;

struct cublas_api {
	CUBLAS_TABLE(LIB_API_FIELD)
	int major, minor, patch;        /* cublasGetProperty */
	char *path;                     /* the file opened (real path when found by search) */
};

struct cufft_api {
	CUFFT_TABLE(LIB_API_FIELD)
	int version;                    /* cufftGetVersion: 12000 */
	char *path;
};

/* Valid once lib_open() said true for that library. */
extern struct cublas_api cublas;
extern struct cufft_api cufft;

enum lib_which { LIB_CUBLAS, LIB_CUFFT, LIB_COUNT };

/*
 * The driver the libraries need: the toolkit's major (libcublas.so.13
 * and libcufft.so.12 come with CUDA 13 and need a CUDA 13 driver, 580 or
 * newer).
 */
#define LIB_MIN_DRIVER ((CUDA_VERSION / 1000) * 1000)

/*
 * Open library w and fill its table: true, or false with why in
 * why[0..len) ("libcublas.so.13: cannot open shared object file ...", a
 * missing symbol, another major).  Calling it again after success does
 * nothing; after a failure it fails again with the same reason.
 */
bool lib_open(enum lib_which w, char *why, size_t len);
/* The file looked for ("libcublas.so.13"). */
const char *lib_file(enum lib_which w);

/* A status in words: "CUBLAS_STATUS_NOT_SUPPORTED (the requested ... )", "CUFFT_INVALID_SIZE". */
const char *lib_blas_status(cublasStatus_t s);
const char *lib_fft_status(cufftResult r);

/* The cudaDataType of an element type the libraries take (f16, bf16, f32, f64). */
cudaDataType lib_data_type(enum elem_type t);

#endif
