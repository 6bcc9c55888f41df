/*
 * Building the CUDA graph: driver and context, modules and the kernel
 * argument check, buffers, and every node kind through cuGraphAddNode,
 * recursively for child graphs and conditional bodies.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cubin.h"
#include "fileio.h"
#include "gpu_attr.h"
#include "gpu.h"
#include "gpu_build.h"
#include "gpu_devices.h"
#include "gpu_kernel.h"
#include "gpu_lib.h"
#include "gpu_region.h"
#include "shape.h"
#include "mod_check.h"
#include "monotime.h"
#include "rtc_nvrtc.h"
#include "strmap.h"
#include "sweep_diff.h"
#include "buf_data.h"
#include "buf_region.h"
#include "xmalloc.h"

/* A driver feature a file may use, and the nodes that need it. */
struct feature {
	int version;
	const char *what;
	bool (*uses)(const struct gdef *g, const struct node *n);
};

static bool uses_conditional(const struct gdef *g, const struct node *n)
{
	return node_kind_is_conditional(n->kind);
}

static bool uses_if_else(const struct gdef *g, const struct node *n)
{
	return n->kind == NK_IF && n->u.cond.nbodies == 2;
}

static bool uses_switch(const struct gdef *g, const struct node *n)
{
	return n->kind == NK_SWITCH;
}

static bool uses_device_updatable(const struct gdef *g, const struct node *n)
{
	return n->kind == NK_KERNEL && n->u.kernel.device_updatable;
}

static bool uses_preferred_cluster(const struct gdef *g, const struct node *n)
{
	return kattr_set(kernel_attrs_of(g, n), KATTR_PREFERRED_CLUSTER);
}

static bool uses_library(const struct gdef *g, const struct node *n)
{
	return node_kind_is_library(n->kind);
}

static const struct feature features[] = {
	{12030, "a conditional node", uses_conditional},
	{12080, "an 'if' with 'else'", uses_if_else},
	{12080, "a 'switch'", uses_switch},
	{12040, "a device-updatable kernel node", uses_device_updatable},
	{12080, "a kernel node with a preferred cluster", uses_preferred_cluster},
	/* its call is captured with cuStreamBeginCaptureToGraph; the libraries need more (gpu_lib.h) */
	{12030, "a library node", uses_library},
};

/* The first dependency of gr or a graph in it with edge data other than the default. */
static const struct typed_edge *first_typed(const struct graph *gr, const struct graph **in)
{
	for (size_t i = 0; i < gr->ntyped; i++)
		if (gr->typed[i].from_local >= 0 &&
		    (gr->typed[i].port != PORT_DEFAULT || gr->typed[i].type != ETYPE_DEFAULT)) {
			*in = gr;
			return &gr->typed[i];
		}
	for (size_t i = 0; i < gr->nnodes; i++) {
		const struct node *n = gr->nodes[i];
		const struct typed_edge *t = NULL;
		if (n->kind == NK_GRAPH)
			t = first_typed(n->u.child, in);
		for (size_t b = 0; t == NULL && node_kind_is_conditional(n->kind) &&
		     b < n->u.cond.nbodies; b++)
			t = first_typed(n->u.cond.bodies[b], in);
		if (t)
			return t;
	}
	return NULL;
}

/* Each feature the file uses and the driver lacks: an error at its first node or edge. */
static bool check_features(struct gpu *gp)
{
	bool ok = true;
	char need[16], have[16];
	for (size_t f = 0; f < sizeof features / sizeof *features; f++) {
		if (cu.driver_version >= features[f].version)
			continue;
		for (size_t i = 0; i < gp->g->nall_nodes; i++) {
			const struct node *n = gp->g->all_nodes[i];
			if (!features[f].uses(gp->g, n))
				continue;
			diag_error(gp->d, n->pos, "node '%s' is %s, which needs a CUDA %s "
				   "driver or newer; this driver is CUDA %s", n->id,
				   features[f].what,
				   cu_version_str(features[f].version, need, sizeof need),
				   cu_version_str(cu.driver_version, have, sizeof have));
			ok = false;
			break;
		}
	}
	const struct graph *in = NULL;
	const struct typed_edge *t = cu.driver_version < CU_EDGE_DATA_DRIVER ?
		first_typed(gp->g->root, &in) : NULL;
	if (t) {
		diag_error(gp->d, t->pos, "edge '%s -> %s' has edge data (port '%s', type '%s'), "
			   "which needs a CUDA %s driver or newer (cuGraphAddNode_v2); this driver "
			   "is CUDA %s", in->nodes[t->from_local]->id, in->nodes[t->to_local]->id,
			   edge_port_names[t->port], edge_type_names[t->type],
			   cu_version_str(CU_EDGE_DATA_DRIVER, need, sizeof need),
			   cu_version_str(cu.driver_version, have, sizeof have));
		ok = false;
	}
	return ok && gpu_lib_check_driver(gp->g, gp->d);
}

int gpu_open(struct gpu *gp, struct gdef *g, int device, enum verbosity v, struct diag *d)
{
	memset(gp, 0, sizeof *gp);
	gp->g = g;
	gp->d = d;
	gp->verbosity = v;
	if (!cu_open())
		return 3;
	char ver[16];
	gpu_verbose(gp, "CUDA driver %s opened", cu_version_str(cu.driver_version, ver, sizeof ver));
	if (!check_features(gp) || cu_start(device) < 0)
		return 3;
	gp->ordinal = device;
	CUresult r = cu.DeviceGet(&gp->dev, device);
	if (r == CUDA_SUCCESS)
		r = cu.DevicePrimaryCtxRetain(&gp->ctx, gp->dev);
	if (r == CUDA_SUCCESS) {
		gp->ctx_retained = true;
		r = cu.CtxSetCurrent(gp->ctx);
	}
	if (r == CUDA_SUCCESS)
		r = cu.StreamCreate(&gp->stream, CU_STREAM_NON_BLOCKING);
	if (r != CUDA_SUCCESS) {
		errorx("cannot open CUDA device %d: %s", device, cu_strerror(r));
		return 3;
	}
	cu.DeviceGetAttribute(&gp->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, gp->dev);
	cu.DeviceGetAttribute(&gp->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, gp->dev);
	/* the DRAM peak for throughput; a driver that says 0 or fails knows none */
	int clock_khz = 0, bus_bits = 0;
	gp->peak_gb_per_s = NAN;
	if (cu.DeviceGetAttribute(&clock_khz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
				  gp->dev) == CUDA_SUCCESS &&
	    cu.DeviceGetAttribute(&bus_bits, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
				  gp->dev) == CUDA_SUCCESS && clock_khz > 0 && bus_bits > 0)
		gp->peak_gb_per_s = 2.0 * clock_khz * 1e3 * bus_bits / 8 / 1e9;
	return 0;
}

/* Modules ----------------------------------------------------------------- */

/* Each line of a JIT log as a note at pos. */
static void log_notes(struct diag *d, struct pos pos, const char *log)
{
	const char *p = log;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len) {
			diag_code("gpu-jit-log-line");
			diag_note(d, pos, "%.*s", (int)len, p);
		}
		p += len + (nl != NULL);
	}
}

/* Each kernel node that names one of the unknown names: where, and what there is. */
static void report_unknown_names(struct gpu *gp, size_t mi)
{
	for (size_t i = 0; i < gp->g->nall_nodes; i++) {
		const struct node *n = gp->g->all_nodes[i];
		if (n->kind == NK_KERNEL && n->u.kernel.module.idx == (long)mi)
			mod_report_unknown_name(&gp->g->modules[mi], &n->u.kernel, &gp->images[mi],
						gp->d);
	}
}

/* Compile source module i (or find it in the cache) for the device. */
static int compile_module(struct gpu *gp, size_t i)
{
	const struct module *m = &gp->g->modules[i];
	struct strlist names = {0};
	/*
	 * A sweep's points may name other instances of a template kernel
	 * ("k.scale<${T}>"): the module is compiled with the names of every
	 * point that loads it as it is now, and loaded once for them all.
	 */
	size_t nmodels = gp->nmodels ? gp->nmodels : 1;
	for (size_t mi = 0; mi < nmodels; mi++) {
		const struct gdef *g = gp->nmodels ? gp->models[mi] : gp->g;
		for (size_t j = 0; g && j < g->nall_nodes; j++) {
			const struct node *n = g->all_nodes[j];
			if (n->kind != NK_KERNEL ||
			    strcmp(g->modules[n->u.kernel.module.idx].name, m->name) != 0)
				continue;
			bool dup = false;
			for (size_t k = 0; k < names.n && !dup; k++)
				dup = strcmp(names.v[k], n->u.kernel.func) == 0;
			if (!dup)
				strlist_add(&names, n->u.kernel.func);
		}
	}
	struct rtc_settings s = {
		.use_cache = !gp->no_cache,
		.verbose = gp->verbosity >= VERB_VERBOSE,
	};
	double t0 = monotime();
	int rc = rtc_compile(m, (const char *const *)names.v, names.n, gp->cc_major, gp->cc_minor, &s,
			     &gp->images[i], gp->d);
	gp->compile_s += monotime() - t0;
	strlist_free(&names);
	if (rc == 2 && gp->images[i].bad.n)
		report_unknown_names(gp, i);
	if (rc == 0) {
		gp->nsources++;
		gp->ncached += gp->images[i].cached;
	}
	return rc;
}

static int load_module(struct gpu *gp, size_t i)
{
	const struct module *m = &gp->g->modules[i];
	char *owned = NULL;
	const char *image = builtin_ptx;
	size_t len = 0;
	if (m->source) {
		int rc = compile_module(gp, i);
		if (rc != 0)
			return rc;
		image = gp->images[i].data;
	} else if (!m->builtin) {
		owned = read_whole_file_max(m->path, READ_MAX_BYTES, &len);
		if (owned == NULL) {
			diag_error(gp->d, m->file_pos, "cannot read module '%s' from '%s': %s",
				   m->name, m->path, strerror(errno));
			return 2;
		}
		image = owned;
		/* PTX this device or driver cannot take: the file's fault (2), not the JIT's (3) */
		struct ptx_header h;
		if (ptx_header(owned, &h) &&
		    !mod_check_ptx(m, &h, gp->cc_major * 10 + gp->cc_minor, "this device",
				   gpu_driver_version_real(), "this driver", gp->d)) {
			free(owned);
			return 2;
		}
	}
	static char elog[16384], ilog[16384];
	elog[0] = ilog[0] = '\0';
	CUjit_option opts[] = {
		CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
		CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
	};
	void *vals[] = {
		elog, (void *)(uintptr_t)sizeof elog, ilog, (void *)(uintptr_t)sizeof ilog,
	};
	CUresult r = gpu_kernel_load(gp, i, image, opts, vals, 4);
	/*
	 * Kept until gpu_load has read the kernels' parameters from them: a
	 * file's bytes here, a source's image in gp->images[i].
	 */
	gp->file_bytes[i] = owned;
	gp->file_len[i] = len;
	if (r != CUDA_SUCCESS) {
		diag_error(gp->d, m->builtin ? m->pos : m->file_pos,
			   "cannot load module '%s'%s%s%s: %s", m->name,
			   m->builtin ? "" : " ('", m->builtin ? "" : m->file,
			   m->builtin ? "" : "')", cu_strerror(r));
		log_notes(gp->d, m->builtin ? m->pos : m->file_pos, elog);
		return 3;
	}
	gpu_verbose(gp, "loaded module '%s'%s%s%s", m->name, m->builtin ? " (built in)" : " from ",
		    m->builtin ? "" : m->path, gp->use_library ? " as a library" : "");
	if (ilog[0] && gp->verbosity >= VERB_VERBOSE) {
		diag_write_block(stderr, ilog, strlen(ilog));
		fputc('\n', stderr);
	}
	return 0;
}

/* The missing function: an error listing what the module has. */
static void report_missing(struct gpu *gp, const struct node *n)
{
	const struct kernel_node *k = &n->u.kernel;
	unsigned count = 0;
	const char **names = gpu_kernel_names(gp, (size_t)k->module.idx, &count);
	const char *mname = gp->g->modules[k->module.idx].name;
	if (count == 0) {
		diag_error(gp->d, k->function_pos, "no function '%s' in module '%s'",
			   k->func, mname);
		free(names);
		return;
	}
	size_t len = 0;
	for (unsigned i = 0; i < count; i++)
		len += strlen(names[i]) + 2;
	char *list = xmalloc(len + 1);
	list[0] = '\0';
	for (unsigned i = 0; i < count; i++) {
		if (i)
			strcat(list, ", ");
		strcat(list, names[i]);
	}
	const char *hint = diag_suggest(k->func, names, count);
	if (hint)
		diag_error(gp->d, k->function_pos, "no function '%s' in module '%s' (did you "
			   "mean '%s'?); it has: %s", k->func, mname, hint, list);
	else
		diag_error(gp->d, k->function_pos, "no function '%s' in module '%s'; it has: %s",
			   k->func, mname, list);
	free(list);
	free(names);
}

/*
 * The sizes of kf's parameters, from the driver.  cuFuncGetParamInfo
 * reports one parameter at a time but not how many there are (CUDA 13.0
 * has no call for it), and the only end it offers is the index at which
 * it fails: a call that compute-sanitizer reports as an API error.  So the
 * count is read from the module's image (cubin.h: the PTX's .entry, a
 * cubin's .nv.info, the right entry of a fatbin) and exactly that many are
 * asked for.  Where the image also records the sizes (a cubin), each must
 * be the driver's; the driver has the last word:
 *   - a call that fails before the image's count: the image said too
 *     many, and the failing index is the end, as probing would have found;
 *   - a size that differs: this reading of the image is wrong, so its
 *     count is not trusted either, and the driver is asked on until it
 *     fails, as when the image says nothing (-1: compressed fatbin
 *     entries, formats not understood).
 * Either way the argument check sees the driver's parameters, at the cost
 * of the one failing call that a count read right avoids.
 */
static void ask_params(struct gpu *gp, const struct kernel_node *k, struct kfunc *kf)
{
	/* a fatbin's parameters are read from the entry the driver takes for the device */
	int sm = gp->cc_major * 10 + gp->cc_minor;
	size_t len;
	const void *image = gpu_module_image(gp, k->module.idx, &len);
	size_t *sizes = NULL;
	long count = image ? image_entry_params(image, len, gpu_kernel_symbol(gp, k), sm, &sizes) : -1;
	bool probe = count < 0;
	size_t cap = 0, i;
	for (i = 0; probe || i < (size_t)count; i++) {
		size_t off, size;
		if (cu.FuncGetParamInfo(kf->f, i, &off, &size) != CUDA_SUCCESS)
			break;
		if (!probe && sizes && sizes[i] != size)
			probe = true;
		*VEC_PUSH(kf->sizes, kf->nparams, cap) = size;
	}
	if (count >= 0 && (probe || i < (size_t)count))
		gpu_verbose(gp, "note: kernel '%s': the parameters its module records (%ld) "
			    "are not the driver's (%zu); the driver's are checked", k->function,
			    count, kf->nparams);
	free(sizes);
}

bool gpu_func_known(const struct gpu *gp, const struct node *n)
{
	return gp->func_index && strmap_get(gp->func_index, n->u.kernel.function) >= 0;
}

/* The function of a kernel node, loaded once per "module.function". */
static struct kfunc *kernel_func(struct gpu *gp, const struct node *n)
{
	const struct kernel_node *k = &n->u.kernel;
	long idx = strmap_get(gp->func_index, k->function);
	if (idx >= 0)
		return &gp->funcs[idx];
	struct kfunc *kf = VEC_PUSH(gp->funcs, gp->nfuncs, gp->capfuncs);
	strmap_put(gp->func_index, k->function, (long)(gp->nfuncs - 1), NULL);
	if (!gpu_kernel_loaded(gp, (size_t)k->module.idx))
		return kf;
	CUresult r = gpu_kernel_find(gp, (size_t)k->module.idx, gpu_kernel_symbol(gp, k), kf);
	if (r == CUDA_ERROR_NOT_FOUND) {
		kf->f = NULL;
		kf->k = NULL;
		return kf;
	}
	if (r != CUDA_SUCCESS) {
		kf->f = NULL;
		kf->k = NULL;
		diag_error(gp->d, k->function_pos, "cannot get function '%s': %s", k->function,
			   cu_strerror(r));
		return kf;
	}
	if (cu.FuncGetParamInfo == NULL)
		return kf;
	kf->has_params = true;
	ask_params(gp, k, kf);
	return kf;
}

/* The kernel's parameters (count, sizes) against the node's args, as the validator checks them. */
static void check_args(struct gpu *gp, const struct node *n, const struct kfunc *kf)
{
	struct ptx_param *ps = xcalloc(kf->nparams ? kf->nparams : 1, sizeof *ps);
	for (size_t i = 0; i < kf->nparams; i++)
		ps[i].size = kf->sizes[i];
	mod_check_args(gp->d, n, kf->nparams, ps);
	free(ps);
}

/* What a block may use without opting in: 48 KiB, static and dynamic together. */
#define SHARED_DEFAULT_BYTES (48u * 1024)

/*
 * More shared memory than the default must be allowed per function before
 * a node asks for it (else adding the node fails with an invalid value);
 * raised to the most any node of the function asks for.
 */
static bool allow_shared(struct gpu *gp, const struct node *n, struct kfunc *kf)
{
	const struct kernel_node *k = &n->u.kernel;
	int static_bytes = 0;
	if (k->shared <= kf->shared_optin)
		return true;
	if (cu.FuncGetAttribute(&static_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
				kf->f) == CUDA_SUCCESS && static_bytes >= 0 &&
	    k->shared + (uint64_t)static_bytes <= SHARED_DEFAULT_BYTES)
		return true;
	CUresult r = gpu_kernel_set_attribute(kf, kf->f, gp->dev,
					      CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
					      (int)k->shared);
	if (r != CUDA_SUCCESS) {
		char sz[32];
		format_size(k->shared, sz, sizeof sz);
		diag_error(gp->d, k->shared_pos.line ? k->shared_pos : k->function_pos,
			   "node '%s' asks for %s of dynamic shared memory, which kernel '%s' "
			   "cannot have on this device: %s", n->id, sz, k->function,
			   cu_strerror(r));
		return false;
	}
	kf->shared_optin = k->shared;
	return true;
}

int gpu_prepare_kernel(struct gpu *gp, const struct node *n, bool *noted)
{
	struct kfunc *kf = kernel_func(gp, n);
	if (!gpu_kernel_loaded(gp, (size_t)n->u.kernel.module.idx))
		return 0;
	if (kf->f == NULL) {
		report_missing(gp, n);
		return 2;
	}
	int rc = allow_shared(gp, n, kf) ? 0 : 3;
	if (kf->has_params) {
		unsigned before = gp->d->nerrors;
		check_args(gp, n, kf);
		if (rc == 0 && gp->d->nerrors > before)
			rc = 2;
	} else if (!*noted) {
		char ver[16];
		gpu_verbose(gp, "note: this driver (CUDA %s) cannot report kernel "
			    "parameters (CUDA 12.4 can): arguments are not checked",
			    cu_version_str(cu.driver_version, ver, sizeof ver));
		*noted = true;
	}
	return rc;
}

/* Load module i of gp->g (a source compiled first).  0, 2 or 3. */
static int load_module(struct gpu *gp, size_t i);

int gpu_load(struct gpu *gp)
{
	struct gdef *g = gp->g;
	unsigned before = gp->d->nerrors;
	int rc = 0;
	if ((rc = gpu_kernel_open(gp, gp->module_api)) != 0)
		return rc;
	gp->images = xcalloc(g->nmodules ? g->nmodules : 1, sizeof *gp->images);
	gp->file_bytes = xcalloc(g->nmodules ? g->nmodules : 1, sizeof *gp->file_bytes);
	gp->file_len = xcalloc(g->nmodules ? g->nmodules : 1, sizeof *gp->file_len);
	/* only modules some kernel uses: a PTX JIT costs milliseconds */
	bool *used = xcalloc(g->nmodules ? g->nmodules : 1, sizeof *used);
	for (size_t i = 0; i < g->nall_nodes; i++)
		if (g->all_nodes[i]->kind == NK_KERNEL)
			used[g->all_nodes[i]->u.kernel.module.idx] = true;
	for (size_t i = 0; i < g->nmodules; i++) {
		int r = used[i] ? load_module(gp, i) : 0;
		if (r > rc)
			rc = r;
	}
	free(used);
	gp->func_index = strmap_new(16);
	bool noted = false, refused = false;
	/*
	 * A sweep's every point whose modules are these, before any runs:
	 * each function found while the module images are at hand, each
	 * point's arguments checked (its errors labelled with the point).
	 */
	const char *prefix = gp->d->prefix;
	for (size_t k = 0; k < (gp->nmodels ? gp->nmodels : 1); k++) {
		struct gdef *mg = gp->nmodels ? gp->models[k] : g;
		bool same = mg->nmodules == g->nmodules;
		for (size_t i = 0; same && i < g->nmodules; i++)
			same = module_same(&mg->modules[i], &g->modules[i]) &&
			       strcmp(mg->modules[i].name, g->modules[i].name) == 0;
		if (!same)
			continue;
		if (mg != g)
			gp->d->prefix = gp->labels ? gp->labels[k] : NULL;
		for (size_t i = 0; i < mg->nall_nodes; i++) {
			struct node *n = mg->all_nodes[i];
			if (n->kind == NK_KERNEL && gpu_prepare_kernel(gp, n, &noted) == 3)
				refused = true;
		}
		gp->d->prefix = prefix;
	}
	/* the other devices' kernels, from the same images */
	if (rc == 0 && !refused && gp->d->nerrors == before)
		rc = gpu_devices_load(gp);
	gpu_load_done(gp);
	if (rc == 0 && refused)
		rc = 3;
	if (rc == 0 && gp->d->nerrors > before)
		rc = 2;
	return rc;
}

void gpu_load_done(struct gpu *gp)
{
	struct gdef *g = gp->g;
	if (gp->file_bytes == NULL)
		return;
	for (size_t i = 0; i < g->nmodules; i++) {
		free(gp->file_bytes[i]);
		/* a source's names stay: gpu_close frees them */
		free(gp->images[i].data);
		gp->images[i].data = NULL;
		gp->images[i].size = 0;
	}
	free(gp->file_bytes);
	free(gp->file_len);
	gp->file_bytes = NULL;
	gp->file_len = NULL;
}

int gpu_reload_module(struct gpu *gp, size_t i)
{
	struct gdef *g = gp->g;
	/* the old one may still back an executable graph: unloaded at the end */
	gpu_kernel_retire(gp, i);
	rtc_image_free(&gp->images[i]);
	memset(&gp->images[i], 0, sizeof gp->images[i]);
	/* one set of file bytes for every module a point reloads, until gpu_load_done */
	if (gp->file_bytes == NULL) {
		gp->file_bytes = xcalloc(g->nmodules ? g->nmodules : 1, sizeof *gp->file_bytes);
		gp->file_len = xcalloc(g->nmodules ? g->nmodules : 1, sizeof *gp->file_len);
	}
	int rc = load_module(gp, i);
	/* the functions of the old module are forgotten: found again by name */
	for (size_t f = 0; f < gp->nfuncs; f++)
		free(gp->funcs[f].sizes);
	gp->nfuncs = 0;
	strmap_free(gp->func_index);
	gp->func_index = strmap_new(16);
	return rc;
}

/* Buffers, events, handles ----------------------------------------------- */

/*
 * Device memory at the driver's pitch (pitch: auto): cuMemAllocPitch takes
 * the size of the widest access, 4, 8 or 16 bytes; smaller elements ask
 * for 4.  The pitch it chose goes to gp->pitch[i], *size to the bytes.
 */
static CUresult alloc_pitched(struct gpu *gp, size_t i, size_t *size)
{
	const struct buffer *b = &gp->g->buffers[i];
	unsigned es = elem_infos[b->type].size;
	size_t pitch = 0;
	CUresult r = cu.MemAllocPitch(&gp->dptr[i], &pitch, buffer_row_bytes(b), buffer_rows(b),
				      es < 4 ? 4 : es);
	if (r != CUDA_SUCCESS)
		return r;
	if (pitch < buffer_row_bytes(b) || pitch % es != 0) {
		/* never seen; everything after would write out of bounds */
		cu.MemFree(gp->dptr[i]);
		gp->dptr[i] = 0;
		return CUDA_ERROR_INVALID_VALUE;
	}
	gp->pitch[i] = pitch;
	*size = pitch * buffer_rows(b);
	return CUDA_SUCCESS;
}

/* Buffer i of gp->g (not graph memory): allocated.  0, or 3 after a message. */
static int alloc_buffer(struct gpu *gp, size_t i)
{
	const struct buffer *b = &gp->g->buffers[i];
	/* pitched rows take pitch * rows (shape.h); graph memory its alloc node's */
	gp->pitch[i] = buffer_pitch(b);
	size_t size = buffer_span(b, gp->pitch[i]);
	if (size == 0)
		size = 1;
	CUresult r = CUDA_SUCCESS;
	switch (b->memory) {
	case MEM_DEVICE:
		/* on its device (cugraphrun(5), Devices): in that device's context */
		gpu_devices_enter(gp, b->device);
		if (b->shape.pitch_auto)
			r = alloc_pitched(gp, i, &size);
		else
			r = cu.MemAlloc(&gp->dptr[i], size);
		gpu_devices_leave(gp);
		break;
	case MEM_HOST:
		r = cu.MemHostAlloc(&gp->host[i], size,
				    CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE);
		if (r == CUDA_SUCCESS)
			r = cu.MemHostGetDevicePointer(&gp->dptr[i], gp->host[i], 0);
		break;
	case MEM_MANAGED:
		r = cu.MemAllocManaged(&gp->dptr[i], size, CU_MEM_ATTACH_GLOBAL);
		if (r == CUDA_SUCCESS)
			gp->host[i] = (void *)(uintptr_t)gp->dptr[i];
		break;
	case MEM_GRAPH:
	case MEM_COUNT:
		return 0;
	}
	if (r != CUDA_SUCCESS) {
		char sz[32];
		gp->dptr[i] = 0;
		gp->host[i] = NULL;
		format_size(size, sz, sizeof sz);
		diag_error(gp->d, b->pos, "cannot allocate %s of %s memory for buffer "
			   "'%s'%s: %s", sz, mem_kind_names[b->memory], b->name,
			   b->shape.pitch_auto ? " (cuMemAllocPitch)" : "", cu_strerror(r));
		return 3;
	}
	char pitch[48] = "";
	if (buffer_padded(b))
		snprintf(pitch, sizeof pitch, ", rows %llu bytes apart",
			 (unsigned long long)gp->pitch[i]);
	gpu_verbose(gp, "buffer '%s': %llu bytes of %s memory at 0x%llx%s", b->name,
		    (unsigned long long)size, mem_kind_names[b->memory],
		    (unsigned long long)gp->dptr[i], pitch);
	return 0;
}

/* Buffer i as allocated for memory kind kind (graph memory is the graph's). */
static void free_buffer(struct gpu *gp, size_t i, enum mem_kind kind)
{
	switch (kind) {
	case MEM_DEVICE:
	case MEM_MANAGED:
		if (gp->dptr[i]) {
			gpu_devices_enter(gp, kind == MEM_DEVICE ? gp->g->buffers[i].device : 0);
			cu.MemFree(gp->dptr[i]);
			gpu_devices_leave(gp);
		}
		break;
	case MEM_HOST:
		if (gp->host[i])
			cu.MemFreeHost(gp->host[i]);
		break;
	case MEM_GRAPH:
	case MEM_COUNT:
		break;
	}
	gp->dptr[i] = 0;
	gp->host[i] = NULL;
}

/*
 * gpu_release, and gpu_close's part of it: without cuda (after a sticky
 * error) the host side only, no driver call.
 */
static void release(struct gpu *gp, bool cuda)
{
	struct gdef *g = gp->g;
	for (size_t i = 0; cuda && gp->dptr && i < g->nbuffers; i++)
		free_buffer(gp, i, g->buffers[i].memory);
	free(gp->dptr);
	free(gp->host);
	free(gp->pitch);
	gp->dptr = NULL;
	gp->host = NULL;
	gp->pitch = NULL;
	for (size_t i = 0; cuda && gp->events && i < g->nevents; i++)
		if (gp->events[i])
			cu.EventDestroy(gp->events[i]);
	free(gp->events);
	free(gp->recorded);
	gp->events = NULL;
	gp->recorded = NULL;
	/* set aside, not unloaded: gpu_kernel_unload does that, at gpu_close */
	for (size_t i = 0; (gp->modules || gp->libs) && i < g->nmodules; i++)
		gpu_kernel_retire(gp, i);
	for (size_t i = 0; gp->images && i < g->nmodules; i++)
		rtc_image_free(&gp->images[i]);
	free(gp->modules);
	free(gp->libs);
	free(gp->images);
	gp->modules = NULL;
	gp->libs = NULL;
	gp->images = NULL;
	for (size_t i = 0; i < gp->nfuncs; i++)
		free(gp->funcs[i].sizes);
	free(gp->funcs);
	gp->funcs = NULL;
	gp->nfuncs = gp->capfuncs = 0;
	strmap_free(gp->func_index);
	gp->func_index = NULL;
}

void gpu_release(struct gpu *gp)
{
	release(gp, true);
}

int gpu_realloc_buffer(struct gpu *gp, size_t i, enum mem_kind was)
{
	free_buffer(gp, i, was);
	return alloc_buffer(gp, i);
}

int gpu_alloc(struct gpu *gp)
{
	struct gdef *g = gp->g;
	size_t nb = g->nbuffers ? g->nbuffers : 1;
	gp->dptr = xcalloc(nb, sizeof *gp->dptr);
	gp->host = xcalloc(nb, sizeof *gp->host);
	gp->pitch = xcalloc(nb, sizeof *gp->pitch);
	for (size_t i = 0; i < g->nbuffers; i++)
		if (alloc_buffer(gp, i) != 0)
			return 3;
	gp->events = xcalloc(g->nevents ? g->nevents : 1, sizeof *gp->events);
	gp->recorded = xcalloc(g->nevents ? g->nevents : 1, sizeof *gp->recorded);
	for (size_t i = 0; i < g->nevents; i++) {
		CUresult r = cu.EventCreate(&gp->events[i], CU_EVENT_DEFAULT);
		if (r != CUDA_SUCCESS) {
			gp->events[i] = NULL;
			diag_error(gp->d, g->events[i].pos, "cannot create event '%s': %s",
				   g->events[i].name, cu_strerror(r));
			return 3;
		}
	}
	for (size_t i = 0; i < g->nall_nodes; i++) {
		const struct node *n = g->all_nodes[i];
		if (n->kind == NK_EVENT_RECORD)
			gp->recorded[n->u.event.idx] = true;
	}
	return 0;
}

/*
 * Buffer b's init contents (b->size bytes, its elements packed), into
 * out at pitch (the bytes of buffer_span: the padding between rows zero).
 * 0, or 2 after a message.
 */
static int fill_pitched(const struct buffer *b, uint64_t pitch, void *out, struct diag *d)
{
	if (!buffer_padded(b))
		return buffer_fill_init(b, out, d) == 0 ? 0 : 2;
	void *packed = xmalloc(b->size ? b->size : 1);
	int rc = buffer_fill_init(b, packed, d) == 0 ? 0 : 2;
	if (rc == 0)
		buffer_unpack(b, pitch, packed, out);
	free(packed);
	return rc;
}

int gpu_init_buffers(struct gpu *gp)
{
	struct gdef *g = gp->g;
	for (size_t i = 0; i < g->nbuffers; i++) {
		const struct buffer *b = &g->buffers[i];
		if (b->memory == MEM_GRAPH)
			continue;
		if (b->memory != MEM_DEVICE) {
			if (fill_pitched(b, gp->pitch[i], gp->host[i], gp->d) != 0)
				return 2;
			continue;
		}
		uint64_t span = buffer_span(b, gp->pitch[i]);
		void *staging = xmalloc(span ? span : 1);
		int rc = fill_pitched(b, gp->pitch[i], staging, gp->d);
		if (rc == 0) {
			CUresult r = cu.MemcpyHtoD(gp->dptr[i], staging, span);
			if (r != CUDA_SUCCESS) {
				diag_error(gp->d, b->pos, "cannot initialise buffer '%s': %s",
					   b->name, cu_strerror(r));
				rc = 3;
			}
		}
		free(staging);
		if (rc)
			return rc;
	}
	/*
	 * A copy from pageable memory may return before its DMA has landed,
	 * and our non-blocking stream does not wait for the legacy stream
	 * that the copies went to.
	 */
	CUresult r = cu.CtxSynchronize();
	if (r != CUDA_SUCCESS) {
		errorx("cannot initialise the buffers: %s", cu_strerror(r));
		return 3;
	}
	return 0;
}

/* Nodes -------------------------------------------------------------------- */

/* A host node's action, run by the driver on its own thread (buf_host.h). */
static void CUDA_CB host_fn(void *user)
{
	host_run(user);
}


/* Pack one argument at out (arg_size(a) bytes, zeroed). */
static void pack_arg(const struct gpu *gp, const struct arg *a, unsigned char *out)
{
	char why[64];
	switch (a->kind) {
	case ARG_BUFFER: {
		uint64_t v = gpu_buffer_addr(gp, a->ref.idx, a->offset);
		memcpy(out, &v, sizeof v);
		break;
	}
	case ARG_SCALAR:
		num_encode(&a->num, a->type, out, why, sizeof why);
		break;
	case ARG_PITCH: {
		uint64_t v = gp->pitch[a->ref.idx];
		memcpy(out, &v, sizeof v);
		break;
	}
	case ARG_HANDLE: {
		CUgraphConditionalHandle h = gp->handles[a->ref.idx];
		memcpy(out, &h, sizeof h);
		break;
	}
	case ARG_BYTES:
		memcpy(out, a->bytes, a->nbytes);
		break;
	case ARG_STRUCT: {
		size_t off = 0;
		for (size_t i = 0; i < a->nfields; i++) {
			size_t fa = arg_align(&a->fields[i]);
			off = align_up(off, fa);
			pack_arg(gp, &a->fields[i], out + off);
			off += arg_size(&a->fields[i]);
		}
		break;
	}
	}
}

#define ARG_SLOT_ALIGN 16

/* The bytes one argument takes in gp->argbuf. */
static size_t arg_slot(const struct arg *a)
{
	return (arg_size(a) + ARG_SLOT_ALIGN - 1) / ARG_SLOT_ALIGN * ARG_SLOT_ALIGN;
}

/* kernelParams for node n, pointing into gp->argbuf (valid until the next call). */
static void **pack_args(struct gpu *gp, const struct kernel_node *k)
{
	size_t need = (k->nargs + 1) * sizeof(void *) + ARG_SLOT_ALIGN;
	for (size_t i = 0; i < k->nargs; i++)
		need += arg_slot(&k->args[i]);
	if (need > gp->argcap) {
		free(gp->argbuf);
		gp->argcap = need * 2;
		gp->argbuf = xmalloc(gp->argcap);
	}
	memset(gp->argbuf, 0, need);
	void **params = (void **)gp->argbuf;
	uintptr_t p = (uintptr_t)(params + k->nargs + 1);
	p = (p + ARG_SLOT_ALIGN - 1) / ARG_SLOT_ALIGN * ARG_SLOT_ALIGN;
	for (size_t i = 0; i < k->nargs; i++) {
		params[i] = (void *)p;
		pack_arg(gp, &k->args[i], (unsigned char *)p);
		p += arg_slot(&k->args[i]);
	}
	return params;
}

/*
 * A memop node's operations for the driver, in gp->opbuf (valid until
 * the next call: the driver copies them when the node is added).  The
 * comparisons and barrier scopes are cuda.h's values (model.h).
 */
static CUstreamBatchMemOpParams *memop_params(struct gpu *gp, const struct memop_node *m)
{
	if (m->nops > gp->opcap) {
		free(gp->opbuf);
		gp->opcap = m->nops * 2;
		gp->opbuf = xcalloc(gp->opcap, sizeof *gp->opbuf);
	}
	memset(gp->opbuf, 0, m->nops * sizeof *gp->opbuf);
	for (size_t i = 0; i < m->nops; i++) {
		const struct memop *op = &m->ops[i];
		CUstreamBatchMemOpParams *o = &gp->opbuf[i];
		unsigned char raw[8] = {0};
		char why[64];
		uint32_t v32 = 0;
		uint64_t v64 = 0;
		if (op->kind == MEMOP_WRITE || op->kind == MEMOP_WAIT) {
			const struct buffer *b = &gp->g->buffers[op->buffer.idx];
			num_encode(&op->value, b->type, raw, why, sizeof why);
			memcpy(&v32, raw, 4);
			memcpy(&v64, raw, 8);
		}
		switch (op->kind) {
		case MEMOP_WRITE:
			o->writeValue.operation = op->bits == 64 ? CU_STREAM_MEM_OP_WRITE_VALUE_64 :
				CU_STREAM_MEM_OP_WRITE_VALUE_32;
			o->writeValue.address = gpu_buffer_addr(gp, op->buffer.idx, op->offset);
			if (op->bits == 64)
				o->writeValue.value64 = v64;
			else
				o->writeValue.value = v32;
			o->writeValue.flags = CU_STREAM_WRITE_VALUE_DEFAULT;
			break;
		case MEMOP_WAIT:
			o->waitValue.operation = op->bits == 64 ? CU_STREAM_MEM_OP_WAIT_VALUE_64 :
				CU_STREAM_MEM_OP_WAIT_VALUE_32;
			o->waitValue.address = gpu_buffer_addr(gp, op->buffer.idx, op->offset);
			if (op->bits == 64)
				o->waitValue.value64 = v64;
			else
				o->waitValue.value = v32;
			o->waitValue.flags = op->compare | (op->flush ? CU_STREAM_WAIT_VALUE_FLUSH : 0);
			break;
		case MEMOP_FLUSH:
			o->flushRemoteWrites.operation = CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES;
			o->flushRemoteWrites.flags = 0;
			break;
		case MEMOP_BARRIER:
			o->memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
			o->memoryBarrier.flags = op->scope;
			break;
		case MEMOP_COUNT:
			break;
		}
	}
	return gp->opbuf;
}

static struct built_graph *build_graph(struct gpu *gp, const struct graph *gr, CUgraph h);

/* A conditional node's driver type. */
static CUgraphConditionalNodeType cond_type(enum node_kind k)
{
	return k == NK_IF ? CU_GRAPH_COND_TYPE_IF :
		k == NK_WHILE ? CU_GRAPH_COND_TYPE_WHILE : CU_GRAPH_COND_TYPE_SWITCH;
}

/* What a node adds to the verbose log. */
static void verbose_node(const struct gpu *gp, const struct node *n, const CUgraphNodeParams *p)
{
	if (gp->verbosity < VERB_VERBOSE)
		return;
	const struct graph *gr = n->graph;
	int depth = 0;
	for (; gr->parent; gr = gr->parent)
		depth++;
	char extra[160] = "";
	switch (n->kind) {
	case NK_KERNEL:
		snprintf(extra, sizeof extra, " %s grid (%u,%u,%u) block (%u,%u,%u)",
			 n->u.kernel.function, p->kernel.gridDimX, p->kernel.gridDimY,
			 p->kernel.gridDimZ, p->kernel.blockDimX, p->kernel.blockDimY,
			 p->kernel.blockDimZ);
		break;
	case NK_ALLOC:
		snprintf(extra, sizeof extra, " '%s' at 0x%llx", n->u.buffer.name,
			 (unsigned long long)p->alloc.dptr);
		break;
	case NK_MEMSET:
		snprintf(extra, sizeof extra, " '%s' %zu x %u bytes", n->u.memset.buffer.name,
			 p->memset.width, p->memset.elementSize);
		if (p->memset.height > 1)
			snprintf(extra + strlen(extra), sizeof extra - strlen(extra),
				 ", %zu rows %zu bytes apart", p->memset.height, p->memset.pitch);
		break;
	case NK_COPY:
		if (p->memcpy.copyParams.Height > 1 || p->memcpy.copyParams.Depth > 1)
			snprintf(extra, sizeof extra, " %zu x %zu x %zu bytes",
				 p->memcpy.copyParams.WidthInBytes, p->memcpy.copyParams.Height,
				 p->memcpy.copyParams.Depth);
		break;
	default:
		break;
	}
	unsigned dev = node_device(gp->g, n);
	char on[32] = "";
	if (dev)
		snprintf(on, sizeof on, " on device %u", dev);
	gpu_verbose(gp, "%*sadded %s node '%s'%s%s", 2 * depth, "", node_kind_names[n->kind],
		    n->id, extra, on);
}

/*
 * The driver's parameters for node n, by kind.  A child graph node gets a
 * new empty graph (*empty_child, the caller's to destroy once the node is
 * added: the driver copies it) that the builder fills in place after.
 * 0, or 3 after a message.
 */
int gpu_node_params(struct gpu *gp, struct node *n, CUgraphNodeParams *p,
		    CUgraph *empty_child)
{
	struct gdef *g = gp->g;
	memset(p, 0, sizeof *p);
	*empty_child = NULL;
	switch (n->kind) {
	case NK_KERNEL: {
		const struct kernel_node *k = &n->u.kernel;
		p->type = CU_GRAPH_NODE_TYPE_KERNEL;
		/* its device's context: a module's function loaded there, or a library's kernel in it */
		gpu_devices_kernel(gp, n, &p->kernel);
		p->kernel.gridDimX = k->grid[0];
		p->kernel.gridDimY = k->grid[1];
		p->kernel.gridDimZ = k->grid[2];
		p->kernel.blockDimX = k->block[0];
		p->kernel.blockDimY = k->block[1];
		p->kernel.blockDimZ = k->block[2];
		p->kernel.sharedMemBytes = (unsigned)k->shared;
		p->kernel.kernelParams = pack_args(gp, k);
		break;
	}
	case NK_MEMSET: {
		const struct memset_node *m = &n->u.memset;
		long bi = m->buffer.idx;
		struct memset_geom geom;
		/* the validator saw it is one 1-D or 2-D memset (shape.h) */
		if (memset_geom(m, &g->buffers[bi], gp->pitch[bi], &geom) != SPAN_OK) {
			diag_error(gp->d, n->pos, "memset node '%s' is not one memset", n->id);
			return 3;
		}
		p->type = CU_GRAPH_NODE_TYPE_MEMSET;
		gpu_memset_params(&geom, gp->dptr[bi], gpu_devices_ctx(gp, n), &p->memset);
		break;
	}
	case NK_COPY: {
		const struct copy_node *c = &n->u.copy;
		long fi = c->from.buffer.idx, ti = c->to.buffer.idx;
		struct span span;
		if (copy_geom(c, &g->buffers[fi], gp->pitch[fi], &g->buffers[ti], gp->pitch[ti],
			      &span) != SPAN_OK) {
			diag_error(gp->d, n->pos, "copy node '%s' is not one copy", n->id);
			return 3;
		}
		p->type = CU_GRAPH_NODE_TYPE_MEMCPY;
		p->memcpy.copyCtx = gpu_devices_ctx(gp, n);
		/* unified addressing: every buffer has a device address */
		gpu_copy_params(&span, gp->dptr[fi], gp->dptr[ti], &p->memcpy.copyParams);
		break;
	}
	case NK_EMPTY:
		p->type = CU_GRAPH_NODE_TYPE_EMPTY;
		break;
	case NK_GRAPH: {
		/* add an empty child, then fill the graph the node owns in place */
		CUresult r = cu.GraphCreate(empty_child, 0);
		if (r != CUDA_SUCCESS) {
			diag_error(gp->d, n->pos, "cannot create child graph '%s': %s", n->id,
				   cu_strerror(r));
			return 3;
		}
		p->type = CU_GRAPH_NODE_TYPE_GRAPH;
		p->graph.graph = *empty_child;
		break;
	}
	case NK_ALLOC: {
		const struct buffer *b = &g->buffers[n->u.buffer.idx];
		p->type = CU_GRAPH_NODE_TYPE_MEM_ALLOC;
		p->alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
		p->alloc.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
		p->alloc.bytesize = buffer_span(b, gp->pitch[n->u.buffer.idx]);
		if (p->alloc.bytesize == 0)
			p->alloc.bytesize = 1;
		gpu_devices_alloc_params(gp, n, &p->alloc);
		break;
	}
	case NK_FREE:
		p->type = CU_GRAPH_NODE_TYPE_MEM_FREE;
		p->free.dptr = gp->dptr[n->u.buffer.idx];
		break;
	case NK_EVENT_RECORD:
		p->type = CU_GRAPH_NODE_TYPE_EVENT_RECORD;
		p->eventRecord.event = gp->events[n->u.event.idx];
		break;
	case NK_EVENT_WAIT:
		p->type = CU_GRAPH_NODE_TYPE_WAIT_EVENT;
		p->eventWait.event = gp->events[n->u.event.idx];
		break;
	case NK_HOST: {
		struct host_call *call = xcalloc(1, sizeof *call);
		/* (the run's libraries and the dumps' arming stay) */
		gp->host_env.g = gp->g;
		gp->host_env.host = gp->host;
		gp->host_env.out = stderr;
		gp->host_env.quiet = gp->verbosity <= VERB_QUIET;
		call->env = &gp->host_env;
		call->n = n;
		*VEC_PUSH(gp->calls, gp->ncalls, gp->capcalls) = call;
		if (n->u.host.action == HOST_CALL) {
			/* main opened every point's (host_lib.h): not found is a bug of ours */
			cugraphrun_host_fn *fn = host_libs_find(gp->host_env.libs, n->u.host.fn);
			if (fn == NULL) {
				diag_error(gp->d, n->pos, "host function '%s' of node '%s' was not "
					   "opened", n->u.host.fn->function, n->id);
				return 3;
			}
			call->fn = host_fn_state_new(fn, n->u.host.fn->nbuffers);
		}
		p->type = CU_GRAPH_NODE_TYPE_HOST;
		p->host.fn = host_fn;
		p->host.userData = call;
		break;
	}
	case NK_IF:
	case NK_WHILE:
	case NK_SWITCH:
		p->type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
		p->conditional.handle = gp->handles[n->u.cond.condition.idx];
		p->conditional.type = cond_type(n->kind);
		p->conditional.size = n->kind == NK_WHILE ? 1 : (unsigned)n->u.cond.nbodies;
		p->conditional.ctx = gpu_devices_ctx(gp, n);
		break;
	case NK_MEMOP:
		p->type = CU_GRAPH_NODE_TYPE_BATCH_MEM_OP;
		p->memOp.ctx = gpu_devices_ctx(gp, n);
		p->memOp.count = (unsigned)n->u.memop.nops;
		p->memOp.paramArray = memop_params(gp, &n->u.memop);
		p->memOp.flags = 0;
		break;
	case NK_CUBLAS:
	case NK_CUFFT:
		/* captured (gpu_lib.h), never added from parameters */
	case NK_COUNT:
		return 3;
	}
	return 0;
}

/* What the builder keeps of a node it added: its handle, its place, an alloc's address. */
static void record_node(struct gpu *gp, struct built_graph *bg, struct node *n, CUgraphNode h,
			const CUgraphNodeParams *p)
{
	if (node_kind_is_library(n->kind)) {
		/* one of the nodes its call's capture made (gpu_lib.c says so when verbose) */
		struct node_handle *nh = VEC_PUSH(gp->nodes, gp->nnodes, gp->capnodes);
		nh->h = h;
		nh->n = n;
		*VEC_PUSH(bg->created, bg->ncreated, bg->capcreated) = n;
		return;
	}
	struct node_handle *nh = VEC_PUSH(gp->nodes, gp->nnodes, gp->capnodes);
	nh->h = h;
	nh->n = n;
	gp->handle_of[n->seq] = h;
	*VEC_PUSH(bg->created, bg->ncreated, bg->capcreated) = n;
	if (n->kind == NK_ALLOC)
		gp->dptr[n->u.buffer.idx] = p->alloc.dptr;
	verbose_node(gp, n, p);
}

/*
 * The graphs inside a child-graph or conditional node: the child graph the
 * node owns, or the bodies the driver made with it.  0, or 3.
 */
static int build_inner(struct gpu *gp, struct node *n, CUgraphNode h,
		       const CUgraphNodeParams *p)
{
	if (n->kind == NK_GRAPH) {
		CUgraph child;
		CUresult r = cu.GraphChildGraphNodeGetGraph(h, &child);
		if (r != CUDA_SUCCESS) {
			diag_error(gp->d, n->pos, "cannot fill child graph '%s': %s", n->id,
				   cu_strerror(r));
			return 3;
		}
		return build_graph(gp, n->u.child, child) ? 0 : 3;
	}
	if (node_kind_is_conditional(n->kind)) {
		/* the driver made the bodies; they live as long as the node */
		CUgraph *bodies = p->conditional.phGraph_out;
		for (size_t b = 0; b < n->u.cond.nbodies; b++)
			if (build_graph(gp, n->u.cond.bodies[b], bodies[b]) == NULL)
				return 3;
	}
	return 0;
}

/*
 * Node n into bg after deps (with edge data, or NULL): its parameters,
 * the node, its launch attributes, what it holds.
 */
static int add_node(struct gpu *gp, struct built_graph *bg, struct node *n,
		    const CUgraphNode *deps, const CUgraphEdgeData *data, size_t ndeps,
		    CUgraphNode *out)
{
	if (node_kind_is_library(n->kind)) {
		CUgraphNode *made;
		size_t nmade;
		int rc = gpu_lib_capture(gp, n, bg->h, deps, data, ndeps, &made, &nmade, out);
		for (size_t i = 0; i < nmade; i++)
			record_node(gp, bg, n, made[i], NULL);
		if (rc == 0)
			gp->handle_of[n->seq] = *out;
		free(made);
		return rc;
	}
	CUgraphNodeParams p;
	CUgraph empty_child;
	int rc = gpu_node_params(gp, n, &p, &empty_child);
	if (rc != 0)
		return rc;
	CUresult r = cu_graph_add_node(out, bg->h, deps, data, ndeps, &p);
	if (empty_child)
		cu.GraphDestroy(empty_child);
	if (r != CUDA_SUCCESS) {
		diag_error(gp->d, n->pos, "cannot add %s node '%s' to the graph: %s",
			   node_kind_names[n->kind], n->id, cu_strerror(r));
		return 3;
	}
	record_node(gp, bg, n, *out, &p);
	if (n->kind == NK_KERNEL && (rc = gpu_attr_set(gp, n, *out)) != 0)
		return rc;
	return build_inner(gp, n, *out, &p);
}

/*
 * The typed edges of gr grouped by the node they lead to: those into
 * node j are typed[order[off[j]]] to typed[order[off[j + 1] - 1]].  NULL
 * when gr has none with edge data to give (then no node needs any).
 */
static size_t *typed_index(const struct graph *gr, size_t **order)
{
	size_t n = gr->nnodes, k = 0;
	for (size_t i = 0; i < gr->ntyped; i++)
		k += gr->typed[i].to_local >= 0;
	if (k == 0)
		return NULL;
	size_t *off = xcalloc(n + 2, sizeof *off);
	*order = xcalloc(k, sizeof **order);
	for (size_t i = 0; i < gr->ntyped; i++)
		if (gr->typed[i].to_local >= 0)
			off[gr->typed[i].to_local + 2]++;
	for (size_t j = 0; j < n; j++)
		off[j + 2] += off[j + 1];
	for (size_t i = 0; i < gr->ntyped; i++)
		if (gr->typed[i].to_local >= 0)
			(*order)[off[gr->typed[i].to_local + 1]++] = i;
	return off;
}

/* Edge data for nd's deps from its typed edges; false when all stay the default. */
static bool edge_data(const struct graph *gr, const struct node *nd, const size_t *off,
		      const size_t *order, CUgraphEdgeData *data)
{
	bool any = false;
	memset(data, 0, nd->ndeps * sizeof *data);
	for (size_t i = off[nd->local]; i < off[nd->local + 1]; i++) {
		const struct typed_edge *t = &gr->typed[order[i]];
		for (size_t k = 0; k < nd->ndeps; k++)
			if ((long)nd->deps[k] == t->from_local) {
				data[k].from_port = t->port;
				data[k].type = t->type;
				any |= t->port != PORT_DEFAULT || t->type != ETYPE_DEFAULT;
			}
	}
	return any;
}

/* Add gr's nodes to the driver graph h in topological order. */
static struct built_graph *build_graph(struct gpu *gp, const struct graph *gr, CUgraph h)
{
	struct built_graph *bg = xcalloc(1, sizeof *bg);
	bg->gr = gr;
	bg->h = h;
	*VEC_PUSH(gp->built, gp->nbuilt, gp->capbuilt) = bg;
	size_t n = gr->nnodes;
	CUgraphNode *made = xcalloc(n ? n : 1, sizeof *made);
	CUgraphNode *deps = NULL;
	CUgraphEdgeData *data = NULL;
	size_t depcap = 0, *order = NULL;
	size_t *off = typed_index(gr, &order);
	bool ok = true;
	for (size_t t = 0; t < n && ok; t++) {
		struct node *nd = gr->nodes[gr->topo[t]];
		if (nd->ndeps > depcap) {
			depcap = nd->ndeps * 2;
			free(deps);
			free(data);
			deps = xcalloc(depcap, sizeof *deps);
			data = xcalloc(depcap, sizeof *data);
		}
		for (size_t k = 0; k < nd->ndeps; k++)
			deps[k] = made[nd->deps[k]];
		/* (a node without dependencies has no edge data: data may be NULL then) */
		bool typed = off && nd->ndeps && edge_data(gr, nd, off, order, data);
		ok = add_node(gp, bg, nd, deps, typed ? data : NULL, nd->ndeps,
			      &made[gr->topo[t]]) == 0;
	}
	free(deps);
	free(data);
	free(off);
	free(order);
	free(made);
	return ok ? bg : NULL;
}

int gpu_build(struct gpu *gp)
{
	struct gdef *g = gp->g;
	free(gp->handle_of);
	gp->handle_of = xcalloc(g->nall_nodes ? g->nall_nodes : 1, sizeof *gp->handle_of);
	CUresult r = cu.GraphCreate(&gp->root, 0);
	if (r != CUDA_SUCCESS) {
		gp->root = NULL;
		errorx("cannot create a CUDA graph: %s", cu_strerror(r));
		return 3;
	}
	/*
	 * Every handle on the root graph, before any node: a kernel may set
	 * a condition before (or outside of) the graph that holds its node,
	 * and the driver accepts root handles for nested conditionals.
	 */
	gp->handles = xcalloc(g->nconditions ? g->nconditions : 1, sizeof *gp->handles);
	for (size_t i = 0; i < g->nconditions; i++) {
		const struct condition *c = &g->conditions[i];
		/* in its conditional node's context: only kernels there may set it */
		r = cu.GraphConditionalHandleCreate(&gp->handles[i], gp->root,
						    gpu_devices_ctx_of(gp, c->device),
						    c->default_value, CU_GRAPH_COND_ASSIGN_DEFAULT);
		if (r != CUDA_SUCCESS) {
			diag_error(gp->d, c->pos, "cannot create conditional handle '%s': %s",
				   c->name, cu_strerror(r));
			return 3;
		}
	}
	/* function attributes and what only the device can say, before any node */
	int rc = gpu_attr_prepare(gp);
	/* library nodes' plans and work areas: nothing may allocate while one is captured */
	if (rc == 0)
		rc = gpu_lib_prepare(gp);
	if (rc != 0)
		return rc;
	gpu_verbose(gp, "building the graph");
	return build_graph(gp, g->root, gp->root) ? 0 : 3;
}

/* The graph of g that stands where gr stands in another model of the same structure. */
static const struct graph *graph_twin(const struct gdef *g, const struct graph *gr)
{
	if (gr->owner == NULL)
		return g->root;
	const struct node *o = g->all_nodes[gr->owner->seq];
	if (o->kind == NK_GRAPH)
		return o->u.child;
	return o->u.cond.bodies[gr->body_index];
}

void gpu_rebind(struct gpu *gp, struct gdef *g)
{
	gp->g = g;
	for (size_t i = 0; i < gp->nnodes; i++)
		gp->nodes[i].n = g->all_nodes[gp->nodes[i].n->seq];
	for (size_t i = 0; i < gp->nbuilt; i++) {
		struct built_graph *bg = gp->built[i];
		bg->gr = graph_twin(g, bg->gr);
		for (size_t k = 0; k < bg->ncreated; k++)
			bg->created[k] = g->all_nodes[bg->created[k]->seq];
	}
	/*
	 * Host nodes act on this point's buffers, and a dump prints on this
	 * point's verification launch, as on the first point's.
	 */
	gp->host_env.g = g;
	gp->host_env.host = gp->host;
	for (size_t i = 0; i < gp->ncalls; i++) {
		gp->calls[i]->n = g->all_nodes[gp->calls[i]->n->seq];
		gp->calls[i]->runs = 0;
		gp->calls[i]->dumped = false;
	}
}

void gpu_detach_graph(struct gpu *gp, struct gpu_graph_state *st)
{
	*st = (struct gpu_graph_state){
		.root = gp->root, .built = gp->built, .nbuilt = gp->nbuilt,
		.nodes = gp->nodes, .calls = gp->calls, .ncalls = gp->ncalls,
		.handle_of = gp->handle_of, .handles = gp->handles,
	};
	gp->root = NULL;
	gp->built = NULL;
	gp->nbuilt = gp->capbuilt = 0;
	gp->nodes = NULL;
	gp->nnodes = gp->capnodes = 0;
	gp->calls = NULL;
	gp->ncalls = gp->capcalls = 0;
	gp->handle_of = NULL;
	gp->handles = NULL;
}

void gpu_free_graph_state(struct gpu_graph_state *st)
{
	if (st->root)
		cu.GraphDestroy(st->root);
	for (size_t i = 0; i < st->nbuilt; i++) {
		free(st->built[i]->created);
		free(st->built[i]);
	}
	free(st->built);
	free(st->nodes);
	/* the executable graph whose host nodes called these is gone or updated */
	for (size_t i = 0; i < st->ncalls; i++)
		host_call_free(st->calls[i]);
	free(st->calls);
	free(st->handle_of);
	free(st->handles);
	memset(st, 0, sizeof *st);
}

struct node *gpu_node_of(const struct gpu *gp, CUgraphNode h)
{
	for (size_t i = 0; i < gp->nnodes; i++)
		if (gp->nodes[i].h == h)
			return gp->nodes[i].n;
	return NULL;
}

const struct built_graph *gpu_built_of(const struct gpu *gp, const struct graph *gr)
{
	for (size_t i = 0; i < gp->nbuilt; i++)
		if (gp->built[i]->gr == gr)
			return gp->built[i];
	return NULL;
}

void gpu_close(struct gpu *gp)
{
	if (gp->g == NULL)
		return;
	/* after a sticky error the driver fails or blocks: host memory only */
	bool cuda = !gp->sticky && gp->ctx_retained;
	struct gpu_graph_state st;
	gpu_detach_graph(gp, &st);
	if (!cuda)
		st.root = NULL;
	gpu_free_graph_state(&st);
	gpu_lib_close(gp, cuda);
	release(gp, cuda);
	if (cuda) {
		gpu_kernel_unload(gp);
		if (gp->stream)
			cu.StreamDestroy(gp->stream);
		gpu_attr_close(gp);
		/* graph allocations go back to the pool at graph teardown */
		cu.CtxSynchronize();
		cu.DeviceGraphMemTrim(gp->dev);
		gpu_devices_close(gp, true);
		cu.DevicePrimaryCtxRelease(gp->dev);
	}
	gpu_devices_close(gp, false);
	free(gp->argbuf);
	free(gp->opbuf);
	free(gp->retired);
	memset(gp, 0, sizeof *gp);
}
