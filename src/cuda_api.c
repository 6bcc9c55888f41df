#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_api.h"
#include "diag.h"

struct cu_api cu;

/* One row per entry point: where it goes and which ABI we call. */
struct cu_entry {
	const char *name;
	int version;
	bool required;
	size_t offset;
};

#define CU_API_ROW(name, ver, req) \
	{"cu" #name, ver, req, offsetof(struct cu_api, name)},
static const struct cu_entry cu_entries[] = {
	CU_API_TABLE(CU_API_ROW)
	{"cuGraphAddNode", 12020, false, offsetof(struct cu_api, GraphAddNode_v12020)},
};

static bool cu_opened;

const char *cu_version_str(int version, char *buf, size_t len)
{
	snprintf(buf, len, "%d.%d", version / 1000, version % 1000 / 10);
	return buf;
}

/* Fetch one entry point at its ABI version; NULL when the driver lacks it. */
static void *fetch(PFN_cuGetProcAddress_v12000 gpa, const struct cu_entry *e)
{
	void *fn = NULL;
	CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	/* An ABI newer than the driver would come back as an older one. */
	if (e->version > cu.driver_version)
		return NULL;
	if (gpa(e->name, &fn, e->version, CU_GET_PROC_ADDRESS_DEFAULT, &found) != CUDA_SUCCESS ||
	    found != CU_GET_PROC_ADDRESS_SUCCESS)
		return NULL;
	return fn;
}

bool cu_open(void)
{
	if (cu_opened)
		return true;
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		errorx("no CUDA driver found (%s)", dlerror());
		return false;
	}
	PFN_cuGetProcAddress_v12000 gpa =
		(PFN_cuGetProcAddress_v12000)dlsym(lib, "cuGetProcAddress_v2");
	if (gpa == NULL) {
		errorx("the CUDA driver is too old: cugraphrun needs CUDA 12.2 or newer "
		       "(libcuda.so.1 has no cuGetProcAddress_v2)");
		return false;
	}
	/* outside the table: fetch() needs the driver's version first */
	PFN_cuDriverGetVersion_v2020 getver = NULL;
	CUdriverProcAddressQueryResult found;
	if (gpa("cuDriverGetVersion", (void **)&getver, 2020, CU_GET_PROC_ADDRESS_DEFAULT,
		&found) != CUDA_SUCCESS || getver == NULL ||
	    getver(&cu.driver_version) != CUDA_SUCCESS) {
		errorx("no CUDA driver found (libcuda.so.1 does not report its version)");
		return false;
	}
	/* test-only: act as an older driver (never a newer one) */
	const char *older = getenv("CUGRAPHRUN_TEST_DRIVER_VERSION");
	if (older && atoi(older) > 0 && atoi(older) < cu.driver_version)
		cu.driver_version = atoi(older);
	char have[16], need[16];
	if (cu.driver_version < CU_MIN_DRIVER) {
		errorx("the CUDA driver is too old: cugraphrun needs CUDA %s or newer "
		       "(cuGraphAddNode), this driver is CUDA %s",
		       cu_version_str(CU_MIN_DRIVER, need, sizeof need),
		       cu_version_str(cu.driver_version, have, sizeof have));
		return false;
	}
	for (size_t i = 0; i < sizeof cu_entries / sizeof *cu_entries; i++) {
		const struct cu_entry *e = &cu_entries[i];
		void *fn = fetch(gpa, e);
		memcpy((char *)&cu + e->offset, &fn, sizeof fn);
		if (fn == NULL && e->required) {
			errorx("the CUDA driver (CUDA %s) has no %s (ABI of CUDA %s)",
			       cu_version_str(cu.driver_version, have, sizeof have),
			       e->name, cu_version_str(e->version, need, sizeof need));
			return false;
		}
	}
	if (cu.GraphAddNode == NULL && cu.GraphAddNode_v12020 == NULL) {
		errorx("the CUDA driver (CUDA %s) has no cuGraphAddNode",
		       cu_version_str(cu.driver_version, have, sizeof have));
		return false;
	}
	cu_opened = true;
	return true;
}

int cu_start(int device)
{
	if (!cu_open())
		return -1;
	CUresult r = cu.Init(0);
	if (r == CUDA_ERROR_NO_DEVICE) {
		errorx("no CUDA device found (%s)", cu_strerror(r));
		return -1;
	}
	int count = 0;
	if (r == CUDA_SUCCESS)
		r = cu.DeviceGetCount(&count);
	if (r != CUDA_SUCCESS) {
		errorx("cannot initialise CUDA: %s", cu_strerror(r));
		return -1;
	}
	if (device < 0 || device >= count) {
		errorx("no CUDA device %d: this machine has %d (0 to %d)", device, count,
		       count - 1);
		return -2;
	}
	return count;
}

const char *cu_strerror(CUresult r)
{
	static char buf[256];
	const char *name = NULL, *text = NULL;
	if (cu.GetErrorName == NULL || cu.GetErrorName(r, &name) != CUDA_SUCCESS)
		name = NULL;
	if (cu.GetErrorString == NULL || cu.GetErrorString(r, &text) != CUDA_SUCCESS)
		text = NULL;
	if (name && text)
		snprintf(buf, sizeof buf, "%s (%s)", text, name);
	else
		snprintf(buf, sizeof buf, "CUDA error %d", (int)r);
	return buf;
}

/* CUgraphInstantiateResult in words; the driver has no call for these. */
static const struct {
	const char *text, *name;
} inst_results[] = {
	[CUDA_GRAPH_INSTANTIATE_SUCCESS] = {"success", "CUDA_GRAPH_INSTANTIATE_SUCCESS"},
	[CUDA_GRAPH_INSTANTIATE_ERROR] = {"instantiation failed",
		"CUDA_GRAPH_INSTANTIATE_ERROR"},
	[CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE] = {"invalid graph structure",
		"CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE"},
	[CUDA_GRAPH_INSTANTIATE_NODE_OPERATION_NOT_SUPPORTED] = {"node operation not supported",
		"CUDA_GRAPH_INSTANTIATE_NODE_OPERATION_NOT_SUPPORTED"},
	[CUDA_GRAPH_INSTANTIATE_MULTIPLE_CTXS_NOT_SUPPORTED] = {"nodes of several contexts",
		"CUDA_GRAPH_INSTANTIATE_MULTIPLE_CTXS_NOT_SUPPORTED"},
	[CUDA_GRAPH_INSTANTIATE_CONDITIONAL_HANDLE_UNUSED] = {"a conditional handle is unused",
		"CUDA_GRAPH_INSTANTIATE_CONDITIONAL_HANDLE_UNUSED"},
};

const char *cu_inst_result_str(CUgraphInstantiateResult r)
{
	static char buf[160];
	size_t n = sizeof inst_results / sizeof *inst_results;
	if ((unsigned)r < n && inst_results[r].name)
		snprintf(buf, sizeof buf, "%s (%s)", inst_results[r].text, inst_results[r].name);
	else
		snprintf(buf, sizeof buf, "instantiate result %d", (int)r);
	return buf;
}

CUresult cu_graph_add_node(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
			   const CUgraphEdgeData *data, size_t ndeps, CUgraphNodeParams *params)
{
	if (cu.GraphAddNode)
		return cu.GraphAddNode(out, g, deps, data, ndeps, params);
	if (data)
		return CUDA_ERROR_NOT_SUPPORTED;
	return cu.GraphAddNode_v12020(out, g, deps, ndeps, params);
}
