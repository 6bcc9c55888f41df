/*
 * Modules and their kernels, as modules or as libraries (gpu_kernel.h).
 */
#include "config.h"

#include <stdlib.h>

#include "gpu_kernel.h"
#include "xmalloc.h"

int gpu_kernel_open(struct gpu *gp, enum module_api api)
{
	size_t n = gp->g->nmodules ? gp->g->nmodules : 1;
	gp->use_library = api == MODULE_API_LIBRARY;
	gp->modules = xcalloc(n, sizeof *gp->modules);
	gp->libs = xcalloc(n, sizeof *gp->libs);
	if (gp->use_library && (cu.LibraryLoadData == NULL || cu.LibraryUnload == NULL ||
				cu.LibraryGetKernel == NULL || cu.KernelGetFunction == NULL ||
				cu.KernelSetAttribute == NULL)) {
		char have[16];
		errorx("--modules=library needs the CUDA 12.0 library API, which this driver "
		       "(CUDA %s) lacks", cu_version_str(cu.driver_version, have, sizeof have));
		return 3;
	}
	return 0;
}

CUresult gpu_kernel_load(struct gpu *gp, size_t i, const void *image, CUjit_option *opts,
			 void **vals, unsigned nopts)
{
	CUresult r;
	if (gp->use_library) {
		r = cu.LibraryLoadData(&gp->libs[i], image, opts, vals, nopts, NULL, NULL, 0);
		if (r != CUDA_SUCCESS)
			gp->libs[i] = NULL;
	} else {
		r = cu.ModuleLoadDataEx(&gp->modules[i], image, nopts, opts, vals);
		if (r != CUDA_SUCCESS)
			gp->modules[i] = NULL;
	}
	return r;
}

bool gpu_kernel_loaded(const struct gpu *gp, size_t i)
{
	return gp->use_library ? gp->libs[i] != NULL : gp->modules[i] != NULL;
}

CUresult gpu_kernel_find(struct gpu *gp, size_t i, const char *symbol, struct kfunc *kf)
{
	kf->f = NULL;
	kf->k = NULL;
	if (!gp->use_library)
		return cu.ModuleGetFunction(&kf->f, gp->modules[i], symbol);
	CUresult r = cu.LibraryGetKernel(&kf->k, gp->libs[i], symbol);
	if (r != CUDA_SUCCESS) {
		kf->k = NULL;
		return r;
	}
	/* the run's context is current: its function, for the checks and attributes */
	r = cu.KernelGetFunction(&kf->f, kf->k);
	if (r != CUDA_SUCCESS)
		kf->f = NULL;
	return r;
}

const char **gpu_kernel_names(const struct gpu *gp, size_t i, unsigned *count)
{
	*count = 0;
	const char **names = NULL;
	if (gp->use_library) {
		if (cu.LibraryGetKernelCount == NULL || cu.LibraryEnumerateKernels == NULL ||
		    cu.KernelGetName == NULL || cu.LibraryGetKernelCount(count, gp->libs[i]) !=
		    CUDA_SUCCESS || *count == 0) {
			*count = 0;
			return NULL;
		}
		CUkernel *ks = xcalloc(*count, sizeof *ks);
		names = xcalloc(*count, sizeof *names);
		if (cu.LibraryEnumerateKernels(ks, *count, gp->libs[i]) != CUDA_SUCCESS)
			*count = 0;
		for (unsigned j = 0; j < *count; j++)
			if (cu.KernelGetName(&names[j], ks[j]) != CUDA_SUCCESS)
				names[j] = "?";
		free(ks);
	} else {
		if (cu.ModuleGetFunctionCount == NULL || cu.ModuleEnumerateFunctions == NULL ||
		    cu.FuncGetName == NULL || cu.ModuleGetFunctionCount(count, gp->modules[i]) !=
		    CUDA_SUCCESS || *count == 0) {
			*count = 0;
			return NULL;
		}
		CUfunction *fs = xcalloc(*count, sizeof *fs);
		names = xcalloc(*count, sizeof *names);
		if (cu.ModuleEnumerateFunctions(fs, *count, gp->modules[i]) != CUDA_SUCCESS)
			*count = 0;
		for (unsigned j = 0; j < *count; j++)
			if (cu.FuncGetName(&names[j], fs[j]) != CUDA_SUCCESS)
				names[j] = "?";
		free(fs);
	}
	if (*count == 0) {
		free(names);
		names = NULL;
	}
	return names;
}

CUresult gpu_kernel_function(struct gpu *gp, const struct kfunc *kf, CUcontext ctx,
			     CUfunction *out)
{
	*out = NULL;
	if (ctx == gp->ctx) {
		*out = kf->f;
		return kf->f ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
	}
	if (kf->k == NULL)
		return CUDA_ERROR_INVALID_CONTEXT;
	/* cuKernelGetFunction answers for the current context */
	CUresult r = cu.CtxPushCurrent(ctx);
	if (r != CUDA_SUCCESS)
		return r;
	r = cu.KernelGetFunction(out, kf->k);
	CUcontext popped;
	CUresult p = cu.CtxPopCurrent(&popped);
	return r != CUDA_SUCCESS ? r : p;
}

CUresult gpu_kernel_target(const struct gpu *gp, const struct kfunc *kf, CUcontext ctx,
			   CUDA_KERNEL_NODE_PARAMS_v3 *p)
{
	if (kf->k) {
		/* kern is used when func is NULL, in ctx */
		p->func = NULL;
		p->kern = kf->k;
		p->ctx = ctx;
		return CUDA_SUCCESS;
	}
	if (ctx != gp->ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	p->func = kf->f;
	return CUDA_SUCCESS;
}

CUresult gpu_kernel_set_attribute(const struct kfunc *kf, CUfunction f, CUdevice dev,
				  CUfunction_attribute attr, int value)
{
	if (kf->k)
		return cu.KernelSetAttribute(attr, value, kf->k, dev);
	return cu.FuncSetAttribute(f, attr, value);
}

void gpu_kernel_retire(struct gpu *gp, size_t i)
{
	struct retired_module rm = {
		gp->modules ? gp->modules[i] : NULL, gp->libs ? gp->libs[i] : NULL,
	};
	if (rm.mod || rm.lib)
		*VEC_PUSH(gp->retired, gp->nretired, gp->capretired) = rm;
	if (gp->modules)
		gp->modules[i] = NULL;
	if (gp->libs)
		gp->libs[i] = NULL;
}

void gpu_kernel_unload(struct gpu *gp)
{
	for (size_t i = 0; i < gp->g->nmodules; i++) {
		if (gp->modules && gp->modules[i])
			cu.ModuleUnload(gp->modules[i]);
		if (gp->libs && gp->libs[i])
			cu.LibraryUnload(gp->libs[i]);
	}
	for (size_t i = 0; i < gp->nretired; i++) {
		if (gp->retired[i].mod)
			cu.ModuleUnload(gp->retired[i].mod);
		if (gp->retired[i].lib)
			cu.LibraryUnload(gp->retired[i].lib);
	}
	gp->nretired = 0;
}
