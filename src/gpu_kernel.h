/*
 * Modules and their kernels, loaded one of two ways (--modules): as a
 * module (cuModuleLoadDataEx), whose functions belong to the context it
 * was loaded in, or as a library (cuLibraryLoadData), context-independent:
 * each kernel (CUkernel) has a function in every context, resolved there
 * (cuKernelGetFunction), and a kernel node may name the kernel and the
 * context it runs in (CUDA_KERNEL_NODE_PARAMS' kern and ctx) rather than
 * a function.  That is how nodes on several GPUs get their kernels from
 * one load (issue 26).  gpu_build.c loads, finds and checks kernels
 * through here; the only other caller of the module entry points is
 * gpu_devices.c, which loads a module once more in each other device's
 * context of a file on several devices (--modules=module).
 *
 * Ownership: the modules and libraries are the struct gpu's
 * (gpu_kernel_unload releases them); names returned are the driver's.
 */
#ifndef CGR_GPU_KERNEL_H
#define CGR_GPU_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu_state.h"

/* Set up the per-module tables for the settings' API; 0, or 3 when the driver lacks it. */
int gpu_kernel_open(struct gpu *gp, enum module_api api);
/* Load image as module i, the chosen way, with the JIT options given. */
CUresult gpu_kernel_load(struct gpu *gp, size_t i, const void *image, CUjit_option *opts,
			 void **vals, unsigned nopts);
/* Was module i loaded? */
bool gpu_kernel_loaded(const struct gpu *gp, size_t i);
/*
 * The kernel symbol of module i into kf: its function in the run's
 * context, and from a library its CUkernel.  CUDA_ERROR_NOT_FOUND when
 * the module has none of that name.
 */
CUresult gpu_kernel_find(struct gpu *gp, size_t i, const char *symbol, struct kfunc *kf);
/*
 * The names of module i's kernels, *count of them (a malloc'd array of the
 * driver's strings; NULL with 0 when the driver cannot list them).
 */
const char **gpu_kernel_names(const struct gpu *gp, size_t i, unsigned *count);
/*
 * kf's function in context ctx: a module's only in the run's context (else
 * CUDA_ERROR_INVALID_CONTEXT), a library's in any (loaded there on demand).
 */
CUresult gpu_kernel_function(struct gpu *gp, const struct kfunc *kf, CUcontext ctx,
			     CUfunction *out);
/*
 * What a kernel node launches, for context ctx: a module's function, or
 * a library's kernel and ctx (func NULL: the driver resolves it there).
 * CUDA_ERROR_INVALID_CONTEXT for a module's function in another context.
 */
CUresult gpu_kernel_target(const struct gpu *gp, const struct kfunc *kf, CUcontext ctx,
			   CUDA_KERNEL_NODE_PARAMS_v3 *p);
/*
 * Set a function attribute of kernel kf where launches on device dev see
 * it, by one rule for every attribute: a library's kernel on that device
 * (cuKernelSetAttribute), else f, its module's function loaded in that
 * device's context (cuFuncSetAttribute).
 */
CUresult gpu_kernel_set_attribute(const struct kfunc *kf, CUfunction f, CUdevice dev,
				  CUfunction_attribute attr, int value);
/*
 * Set module i aside (a sweep's point loads another in its place); it may
 * still back an executable graph, so it is unloaded with the rest.
 */
void gpu_kernel_retire(struct gpu *gp, size_t i);
/* Unload every module or library, those set aside too (the driver must still be usable). */
void gpu_kernel_unload(struct gpu *gp);

#endif
