/*
 * The hand-written reference of bench/libnode-bench.py: one cuBLAS GEMM or
 * one cuFFT transform called directly on a stream, the way a careful C
 * programmer would without cugraphrun, and timed as cugraphrun times its
 * launches (one verification call, warm-up calls, then each timed call
 * between its own pair of events, queued back to back on one
 * non-blocking stream, one synchronisation at the end).  The calls are
 * those cugraphrun's library nodes make: cublasGemmEx with the compute
 * type, a 32 MiB workspace (4 MiB before sm_90) set with
 * cublasSetWorkspace after cublasSetStream, the host pointer mode; a
 * cufftMakePlanMany64 plan with its own work area (no auto-allocation)
 * and cufftExecC2C in place.
 *
 *   mathlib_ref gemm-f32|gemm-tf32|gemm-f16|gemm-bf16 N REPEAT WARMUP
 *   mathlib_ref fft-c2c N REPEAT WARMUP
 *
 * prints one line: "median_s=... min_s=... mean_s=...".  GEMM: C (f32) =
 * A B, N x N, A and B all ones of the case's type, checked to be N
 * everywhere after the verification call; FFT: N points in place.
 *
 * The driver is opened through ref_driver.h; cuBLAS and cuFFT are opened
 * with dlopen by their sonames (libcublas.so.13, libcufft.so.12), then in
 * $CUDA_HOME/lib64 and /usr/local/cuda/lib64, none of cugraphrun's code.
 */
#include "config.h"

#include <dlfcn.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <cudaTypedefs.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wundef"
#include <cublas_api.h>
#include <cufft.h>
#pragma GCC diagnostic pop

#include "ref_driver.h"

static struct {
	PFN_cuInit_v2000 Init;
	PFN_cuDeviceGet_v2000 DeviceGet;
	PFN_cuDeviceGetAttribute_v2000 DeviceGetAttribute;
	PFN_cuDevicePrimaryCtxRetain_v7000 DevicePrimaryCtxRetain;
	PFN_cuCtxSetCurrent_v4000 CtxSetCurrent;
	PFN_cuStreamCreate_v2000 StreamCreate;
	PFN_cuEventCreate_v2000 EventCreate;
	PFN_cuEventRecord_v2000 EventRecord;
	PFN_cuEventElapsedTime_v12080 EventElapsedTime;
	PFN_cuStreamSynchronize_v2000 StreamSynchronize;
	PFN_cuMemAlloc_v3020 MemAlloc;
	PFN_cuMemsetD16_v3020 MemsetD16;
	PFN_cuMemsetD32_v3020 MemsetD32;
	PFN_cuMemcpyDtoH_v3020 MemcpyDtoH;
} cu;

/* The library calls, by the names the libraries export. */
static struct {
	__typeof__(&cublasCreate_v2) Create;
	__typeof__(&cublasSetStream_v2) SetStream;
	__typeof__(&cublasSetWorkspace_v2) SetWorkspace;
	__typeof__(&cublasSetPointerMode_v2) SetPointerMode;
	__typeof__(&cublasGemmEx) GemmEx;
	__typeof__(&cufftCreate) PlanCreate;
	__typeof__(&cufftSetAutoAllocation) SetAutoAllocation;
	__typeof__(&cufftMakePlanMany64) MakePlanMany64;
	__typeof__(&cufftSetWorkArea) SetWorkArea;
	__typeof__(&cufftSetStream) FftSetStream;
	__typeof__(&cufftExecC2C) ExecC2C;
} lib;

#define CK(call) REF_CK("mathlib_ref", call)

#define CKL(call)                                                                 \
	do {                                                                      \
		int r_ = (int)(call);                                             \
		if (r_ != 0) {                                                    \
			fprintf(stderr, "mathlib_ref: %s failed: %d\n", #call, r_); \
			exit(3);                                                  \
		}                                                                 \
	} while (0)

static void load_driver(void)
{
	static const struct ref_entry table[] = {
#define E(name, ver) REF_ENTRY(cu, name, ver)
		E(Init, 2000), E(DeviceGet, 2000), E(DeviceGetAttribute, 2000),
		E(DevicePrimaryCtxRetain, 7000), E(CtxSetCurrent, 4000), E(StreamCreate, 2000),
		E(EventCreate, 2000), E(EventRecord, 2000), E(EventElapsedTime, 12080),
		E(StreamSynchronize, 2000), E(MemAlloc, 3020), E(MemsetD16, 3020),
		E(MemsetD32, 3020), E(MemcpyDtoH, 3020),
#undef E
	};
	ref_load_driver("mathlib_ref", &cu, table, sizeof table / sizeof *table);
}

/* dlopen name, else in $CUDA_HOME/lib64, else in /usr/local/cuda/lib64. */
static void *open_lib(const char *name)
{
	void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	const char *roots[] = {getenv("CUDA_HOME"), "/usr/local/cuda"};
	for (size_t i = 0; h == NULL && i < 2; i++) {
		char path[4096];
		if (roots[i] == NULL || !*roots[i])
			continue;
		snprintf(path, sizeof path, "%s/lib64/%s", roots[i], name);
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	}
	if (h == NULL) {
		fprintf(stderr, "mathlib_ref: cannot open %s (%s)\n", name, dlerror());
		exit(3);
	}
	return h;
}

static void *sym(void *h, const char *name)
{
	void *p = dlsym(h, name);
	if (p == NULL) {
		fprintf(stderr, "mathlib_ref: no %s\n", name);
		exit(3);
	}
	return p;
}

static void load_libs(bool blas)
{
	char name[64];
	if (blas) {
		snprintf(name, sizeof name, "libcublas.so.%d", CUBLAS_VER_MAJOR);
		void *h = open_lib(name);
		*(void **)&lib.Create = sym(h, "cublasCreate_v2");
		*(void **)&lib.SetStream = sym(h, "cublasSetStream_v2");
		*(void **)&lib.SetWorkspace = sym(h, "cublasSetWorkspace_v2");
		*(void **)&lib.SetPointerMode = sym(h, "cublasSetPointerMode_v2");
		*(void **)&lib.GemmEx = sym(h, "cublasGemmEx");
		return;
	}
	snprintf(name, sizeof name, "libcufft.so.%d", CUFFT_VER_MAJOR);
	void *h = open_lib(name);
	*(void **)&lib.PlanCreate = sym(h, "cufftCreate");
	*(void **)&lib.SetAutoAllocation = sym(h, "cufftSetAutoAllocation");
	*(void **)&lib.MakePlanMany64 = sym(h, "cufftMakePlanMany64");
	*(void **)&lib.SetWorkArea = sym(h, "cufftSetWorkArea");
	*(void **)&lib.FftSetStream = sym(h, "cufftSetStream");
	*(void **)&lib.ExecC2C = sym(h, "cufftExecC2C");
}

/* One case: what a call needs, set up before it is timed. */
struct work {
	bool gemm;
	cublasHandle_t h;
	cudaDataType ab;
	cublasComputeType_t compute;
	long long n;
	CUdeviceptr a, b, c, ws;
	cufftHandle plan;
};

static void call(const struct work *w)
{
	if (w->gemm) {
		const float one = 1, zero = 0;
		int n = (int)w->n;
		CKL(lib.GemmEx(w->h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one,
			       (const void *)(uintptr_t)w->a, w->ab, n, (const void *)(uintptr_t)w->b,
			       w->ab, n, &zero, (void *)(uintptr_t)w->c, CUDA_R_32F, n, w->compute,
			       CUBLAS_GEMM_DEFAULT));
	} else {
		void *d = (void *)(uintptr_t)w->a;
		CKL(lib.ExecC2C(w->plan, d, d, CUFFT_FORWARD));
	}
}

/* A and B all ones of the case's type (f32: 0x3f800000, f16: 0x3c00, bf16: 0x3f80). */
static void ones(CUdeviceptr p, cudaDataType t, size_t count)
{
	if (t == CUDA_R_32F)
		CK(cu.MemsetD32(p, 0x3f800000u, count));
	else
		CK(cu.MemsetD16(p, t == CUDA_R_16F ? 0x3c00 : 0x3f80, count));
}

static void setup(struct work *w, const char *kind, long long n, CUstream s, int cc_major)
{
	w->n = n;
	w->gemm = strncmp(kind, "gemm-", 5) == 0;
	if (!w->gemm) {
		size_t work = 0;
		long long dims[1] = {n};
		CK(cu.MemAlloc(&w->a, (size_t)n * 8));
		CK(cu.MemsetD32(w->a, 0, (size_t)n * 2));
		CKL(lib.PlanCreate(&w->plan));
		CKL(lib.SetAutoAllocation(w->plan, 0));
		CKL(lib.MakePlanMany64(w->plan, 1, dims, NULL, 1, n, NULL, 1, n, CUFFT_C2C, 1, &work));
		CK(cu.MemAlloc(&w->ws, work ? work : 256));
		CKL(lib.SetWorkArea(w->plan, (void *)(uintptr_t)w->ws));
		CKL(lib.FftSetStream(w->plan, s));
		return;
	}
	const char *t = kind + 5;
	w->ab = !strcmp(t, "f16") ? CUDA_R_16F : !strcmp(t, "bf16") ? CUDA_R_16BF : CUDA_R_32F;
	w->compute = !strcmp(t, "tf32") ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
	size_t es = w->ab == CUDA_R_32F ? 4 : 2, count = (size_t)(n * n);
	CK(cu.MemAlloc(&w->a, count * es));
	CK(cu.MemAlloc(&w->b, count * es));
	CK(cu.MemAlloc(&w->c, count * 4));
	ones(w->a, w->ab, count);
	ones(w->b, w->ab, count);
	size_t wsize = (size_t)(cc_major >= 9 ? 32 : 4) << 20;
	CK(cu.MemAlloc(&w->ws, wsize));
	CKL(lib.Create(&w->h));
	/* cublasSetStream puts the default workspace back: the workspace after it */
	CKL(lib.SetStream(w->h, s));
	CKL(lib.SetWorkspace(w->h, (void *)(uintptr_t)w->ws, wsize));
	CKL(lib.SetPointerMode(w->h, CUBLAS_POINTER_MODE_HOST));
}

/* After the verification call: every element of C is N (a GEMM of ones). */
static void verify(const struct work *w)
{
	if (!w->gemm)
		return;
	float first = 0, last = 0;
	size_t count = (size_t)(w->n * w->n);
	CK(cu.MemcpyDtoH(&first, w->c, 4));
	CK(cu.MemcpyDtoH(&last, w->c + (count - 1) * 4, 4));
	if (first != (float)w->n || last != (float)w->n) {
		fprintf(stderr, "mathlib_ref: C is %g ... %g, not %lld\n", first, last, w->n);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	if (argc != 5 || (strncmp(argv[1], "gemm-", 5) && strcmp(argv[1], "fft-c2c"))) {
		fprintf(stderr, "usage: mathlib_ref gemm-f32|gemm-tf32|gemm-f16|gemm-bf16|fft-c2c "
			"N REPEAT WARMUP\n");
		return 2;
	}
	long long n = atoll(argv[2]);
	int repeat = atoi(argv[3]), warmup = atoi(argv[4]);
	if (n <= 0 || repeat <= 0 || warmup < 0) {
		fprintf(stderr, "mathlib_ref: N and REPEAT above 0, WARMUP 0 or more\n");
		return 2;
	}
	load_driver();
	CK(cu.Init(0));
	CUdevice dev;
	CUcontext ctx;
	CUstream s;
	int cc_major = 0;
	CK(cu.DeviceGet(&dev, 0));
	CK(cu.DeviceGetAttribute(&cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
	CK(cu.DevicePrimaryCtxRetain(&ctx, dev));
	CK(cu.CtxSetCurrent(ctx));
	CK(cu.StreamCreate(&s, CU_STREAM_NON_BLOCKING));
	load_libs(strncmp(argv[1], "gemm-", 5) == 0);
	struct work w;
	memset(&w, 0, sizeof w);
	setup(&w, argv[1], n, s, cc_major);
	CK(cu.StreamSynchronize(s));
	call(&w);
	CK(cu.StreamSynchronize(s));
	verify(&w);
	for (int i = 0; i < warmup; i++)
		call(&w);
	CUevent *ev = calloc((size_t)repeat * 2, sizeof *ev);
	double *t = calloc((size_t)repeat, sizeof *t);
	for (int i = 0; i < 2 * repeat; i++)
		CK(cu.EventCreate(&ev[i], CU_EVENT_DEFAULT));
	for (int i = 0; i < repeat; i++) {
		CK(cu.EventRecord(ev[2 * i], s));
		call(&w);
		CK(cu.EventRecord(ev[2 * i + 1], s));
	}
	CK(cu.StreamSynchronize(s));
	double sum = 0;
	for (int i = 0; i < repeat; i++) {
		float ms = 0;
		CK(cu.EventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]));
		t[i] = ms * 1e-3;
		sum += t[i];
	}
	qsort(t, (size_t)repeat, sizeof *t, ref_cmp_double);
	double median = repeat % 2 ? t[repeat / 2] : (t[repeat / 2 - 1] + t[repeat / 2]) / 2;
	printf("median_s=%.9g min_s=%.9g mean_s=%.9g\n", median, t[0], sum / repeat);
	free(ev);
	free(t);
	return 0;
}
