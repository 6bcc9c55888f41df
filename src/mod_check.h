/*
 * Kernel nodes against their modules, without a GPU: the validator's
 * reading of module images.  For each module that kernel nodes use, once:
 * its file's kernels (cubin.h lists a PTX text's, a cubin's, or those of
 * the fatbin entries a device of the architecture checked for may load),
 * or, under --validate, what a CUDA C++ module compiles to with NVRTC
 * (rtc_nvrtc.h, through the compile cache) for that architecture.  Then
 * each kernel node's function must be one of the module's kernels ("did
 * you mean"), and its arguments must match the kernel's parameters in
 * number and in size.
 *
 * What an image does not tell is not checked here: a compressed fatbin
 * entry, a format not understood, a fatbin in a run (the device decides
 * which entry it loads), a CUDA C++ module outside --validate or without
 * NVRTC.  The GPU run checks those against the driver (gpu_build.c), and
 * -v says here which modules were not checked and why.
 *
 * Ownership: a struct mod_check owns what it read and compiled; it
 * borrows the definition and the diag.
 */
#ifndef CGR_MOD_CHECK_H
#define CGR_MOD_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "model.h"
#include "ptx.h"
#include "rtc_image.h"

struct mod_cache;

/* --validate's architecture when --arch is not given: there is no device to ask. */
#define MOD_DEFAULT_SM 90

struct mod_settings {
	/*
	 * The compute capability checked for, major * 10 + minor (90 for
	 * sm_90); 0 in a run, where the device decides: then a fatbin's
	 * kernels are checked only where all its entries agree.
	 */
	int sm;
	bool compile_sources;           /* compile CUDA C++ modules (--validate) */
	bool use_cache;                 /* false: --no-cache */
	bool verbose;                   /* -v: say what is not checked, and why */
	/*
	 * A sweep's listings of module files, shared by its points
	 * (mod_cache.h; sweep_validate makes one), or NULL: each validation
	 * reads its modules.
	 */
	struct mod_cache *cache;
};

struct mod_check;

struct mod_check *mod_check_new(struct gdef *g, struct diag *d, const struct mod_settings *s);
/*
 * Kernel node n, whose module the validator resolved (not the built-in
 * one, which the validator knows itself): errors at the node's function
 * and arguments, and at the module for what is wrong with it as a whole.
 */
void mod_check_kernel(struct mod_check *mc, const struct node *n);
void mod_check_free(struct mod_check *mc);

/*
 * Node n's arguments against a kernel's np parameters (params: their sizes
 * and types, or NULL when unknown; a size 0 is not checked): an error at
 * the first argument too many, or at the arguments when too few, else at
 * each argument whose size differs.  False after an error.  The validator
 * checks with what the image says; the run (gpu_build.c) with what the
 * driver says, for what the image could not tell.
 */
bool mod_check_args(struct diag *d, const struct node *n, size_t np,
		    const struct ptx_param *params);

/*
 * "--arch=sm_XY": the compute capability in *sm (90); false when s is not
 * sm_ and two or three digits.
 */
bool mod_parse_arch(const char *s, int *sm);

/*
 * When the compile of source module m (im) did not find kernel k's
 * function (im->bad), an error at k's function, with what the source
 * declares and the closest of those.  The run's compile (gpu_build.c)
 * reports them the same way.
 */
void mod_report_unknown_name(const struct module *m, const struct kernel_node *k,
			     const struct rtc_image *im, struct diag *d);

#endif
