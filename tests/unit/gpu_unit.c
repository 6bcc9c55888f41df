/*
 * Unit tests of the GPU layer on a real GPU: the driver table, the graph
 * builder's bookkeeping (every driver node maps back to its YAML node,
 * creation order per driver graph) and the --dot rewrite, through the
 * real loader, validator, driver and libcgraph.  Run by tests/gpu.test and
 * the GPU suite with CK_FORK=no (cuInit in a forked child fails); exit 77
 * when there is no driver or device.
 */
#include "config.h"

#if !defined(HAVE_CUDA) || !__has_include(<cuda.h>)
/*
 * Built without the GPU back end, or without cuda.h on this program's
 * include path ($(CUDA_CPPFLAGS) in its CPPFLAGS): nothing to test here.
 */
int main(void);
int main(void)
{
	return 77;
}
#else

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <graphviz/cgraph.h>

#include "cubin.h"
#include "fileio.h"
#include "gpu_build.h"
#include "gpu_dot.h"
#include "gpu_kernel.h"
#include "load.h"
#include "rtc_nvrtc.h"
#include "unit.h"
#include "validate.h"
#include "xmalloc.h"

/*
 * Every node kind the built-in module allows, nested: a child graph, an
 * IF-ELSE, a WHILE and a SWITCH, with alloc/free, memset, copy, events
 * and a host node in the root.
 */
static const char graph_yaml[] =
	"cugraphrun: 1\n"
	"name: unit\n"
	"buffers:\n"
	"  ctr: {type: i32, count: 1, init: 3}\n"
	"  a: {type: i32, count: 4}\n"
	"  b: {type: i32, count: 4, memory: managed}\n"
	"  tmp: {type: i32, count: 4, memory: graph}\n"
	"events: [e1, e2]\n"
	"conditions:\n"
	"  c: {default: 1}\n"
	"  i: {default: 0}\n"
	"  s: {default: 1}\n"
	"nodes:\n"
	"  chain: true\n"
	"  nodes:\n"
	"    - {id: r1, event_record: e1}\n"
	"    - {id: al, alloc: tmp}\n"
	"    - {id: ms, memset: {buffer: tmp, value: 5}}\n"
	"    - {id: cp, copy: {from: tmp, to: a}}\n"
	"    - {id: fr, free: tmp}\n"
	"    - id: sub\n"
	"      graph:\n"
	"        - {id: sub_ms, memset: {buffer: b, value: 9}}\n"
	"        - {id: sub_join, empty: , after: sub_ms}\n"
	"    - id: loop\n"
	"      while:\n"
	"        condition: c\n"
	"        body:\n"
	"          - {id: tick, kernel: {function: builtin.countdown, args: [{handle: c}, ctr]}}\n"
	"    - id: branch\n"
	"      if:\n"
	"        condition: i\n"
	"        then: [{id: t1, empty: }]\n"
	"        else: [{id: e1node, empty: }, {id: e2node, empty: , after: e1node}]\n"
	"    - id: sw\n"
	"      switch:\n"
	"        condition: s\n"
	"        cases: [[{id: s0, empty: }], [{id: s1, memset: {buffer: a, value: 1, count: 1}}]]\n"
	"    - {id: r2, event_record: e2}\n"
	"    - {id: say, host: {print: unit}}\n";

/* One loaded, validated definition and a gpu built from it. */
struct fixture {
	struct diag d;
	FILE *log;
	struct gdef *g;
	struct gpu gp;
};

static void fixture_build_with(struct fixture *fx, const char *yaml, enum module_api api)
{
	fx->log = tmpfile();
	ck_assert_ptr_nonnull(fx->log);
	diag_init(&fx->d, "unit.yaml", fx->log);
	fx->g = gdef_load_string("unit.yaml", yaml, strlen(yaml), &load_default_limits, &fx->d);
	ck_assert_ptr_nonnull(fx->g);
	ck_assert(gdef_validate(fx->g, &fx->d));
	ck_assert_int_eq(gpu_open(&fx->gp, fx->g, 0, VERB_QUIET, &fx->d), 0);
	fx->gp.module_api = api;
	ck_assert_int_eq(gpu_load(&fx->gp), 0);
	ck_assert_int_eq(gpu_alloc(&fx->gp), 0);
	ck_assert_int_eq(gpu_build(&fx->gp), 0);
}

static void fixture_build(struct fixture *fx, const char *yaml)
{
	fixture_build_with(fx, yaml, MODULE_API_MODULE);
}

static void fixture_free(struct fixture *fx)
{
	gpu_close(&fx->gp);
	gdef_free(fx->g);
	fclose(fx->log);
}

START_TEST(test_words)
{
	ck_assert_str_eq(cu_inst_result_str(CUDA_GRAPH_INSTANTIATE_NODE_OPERATION_NOT_SUPPORTED),
			 "node operation not supported "
			 "(CUDA_GRAPH_INSTANTIATE_NODE_OPERATION_NOT_SUPPORTED)");
	ck_assert_str_eq(cu_inst_result_str((CUgraphInstantiateResult)99),
			 "instantiate result 99");
	ck_assert_ptr_nonnull(strstr(cu_strerror(CUDA_ERROR_INVALID_VALUE),
				     "(CUDA_ERROR_INVALID_VALUE)"));
	char buf[16];
	ck_assert_str_eq(cu_version_str(12080, buf, sizeof buf), "12.8");
	ck_assert_str_eq(cu_version_str(13000, buf, sizeof buf), "13.0");
	/* the table was filled at the ABI versions asked for */
	ck_assert_ptr_nonnull(cu.GraphAddNode);
	ck_assert_ptr_nonnull(cu.GraphInstantiateWithParams);
	ck_assert_int_ge(cu.driver_version, CU_MIN_DRIVER);
}
END_TEST

/* Every YAML node has one driver node that maps back to it. */
START_TEST(test_node_map)
{
	struct fixture fx;
	fixture_build(&fx, graph_yaml);
	ck_assert_uint_eq(fx.gp.nnodes, fx.g->nall_nodes);
	for (size_t i = 0; i < fx.gp.nnodes; i++) {
		ck_assert_ptr_eq(gpu_node_of(&fx.gp, fx.gp.nodes[i].h), fx.gp.nodes[i].n);
		for (size_t j = 0; j < i; j++)
			ck_assert_ptr_ne(fx.gp.nodes[i].n, fx.gp.nodes[j].n);
	}
	ck_assert_ptr_null(gpu_node_of(&fx.gp, (CUgraphNode)(uintptr_t)1));
	fixture_free(&fx);
}
END_TEST

/* Each model graph was built once, its nodes created in topological order. */
START_TEST(test_creation_order)
{
	struct fixture fx;
	fixture_build(&fx, graph_yaml);
	/* root, child, while body, then, else, two cases */
	ck_assert_uint_eq(fx.gp.nbuilt, 7);
	for (size_t i = 0; i < fx.gp.nbuilt; i++) {
		const struct built_graph *bg = fx.gp.built[i];
		ck_assert_ptr_eq(gpu_built_of(&fx.gp, bg->gr), bg);
		ck_assert_uint_eq(bg->ncreated, bg->gr->nnodes);
		for (size_t k = 0; k < bg->ncreated; k++)
			ck_assert_ptr_eq(bg->created[k], bg->gr->nodes[bg->gr->topo[k]]);
	}
	/* the graph buffer got its address from the alloc node */
	ck_assert(fx.gp.dptr[3] != 0);
	fixture_free(&fx);
}
END_TEST

/* The label of the DOT node named name, or NULL. */
static const char *dot_label(Agraph_t *dg, const char *name)
{
	Agnode_t *n = agnode(dg, (char *)name, 0);
	return n ? agget(n, (char *)"label") : NULL;
}

/* --dot: YAML ids in labels, a link per body, and it still parses. */
START_TEST(test_gpu_dot)
{
	struct fixture fx;
	fixture_build(&fx, graph_yaml);
	char path[] = "/tmp/gpu_unit_dotXXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(cu.GraphDebugDotPrint(fx.gp.root, path, 0), CUDA_SUCCESS);
	/* in place: read whole, then written over (through output_open) */
	ck_assert_int_eq(gpu_dot_annotate(path, path, &fx.gp), 0);
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	Agraph_t *dg = agread(f, NULL);
	fclose(f);
	unlink(path);
	ck_assert_ptr_nonnull(dg);
	/* each root node's label starts with its YAML id, in creation order */
	unsigned root = 0;
	for (Agnode_t *n = agfstnode(dg); n; n = agnxtnode(dg, n)) {
		const char *label = agget(n, (char *)"label");
		if (label && strncmp(label, "r1", 2) == 0)
			ck_assert_int_eq(sscanf(agnameof(n), "graph_%u_node_0", &root), 1);
	}
	ck_assert_uint_ne(root, 0);
	const struct built_graph *bg = gpu_built_of(&fx.gp, fx.g->root);
	for (size_t k = 0; k < bg->ncreated; k++) {
		char name[64];
		snprintf(name, sizeof name, "graph_%u_node_%zu", root, k);
		const char *label = dot_label(dg, name);
		ck_assert_ptr_nonnull(label);
		const char *id = bg->created[k]->id;
		/* plain labels: "id\n..."; records: "{id|..." */
		const char *at = label[0] == '{' ? label + 1 : label;
		ck_assert_msg(strncmp(at, id, strlen(id)) == 0, "node %s: label '%s' lacks '%s'",
			      name, label, id);
	}
	/* the root cluster is titled with the graph's name */
	char cluster[64], title[64];
	snprintf(cluster, sizeof cluster, "cluster_%u", root);
	snprintf(title, sizeof title, "graph_%u: unit", root);
	Agraph_t *rootsub = agsubg(dg, cluster, 0);
	ck_assert_ptr_nonnull(rootsub);
	ck_assert_str_eq(agget(rootsub, (char *)"label"), title);
	/* one dashed link per body: child, while, then, else, two cases */
	size_t links = 0;
	for (Agnode_t *n = agfstnode(dg); n; n = agnxtnode(dg, n))
		for (Agedge_t *e = agfstout(dg, n); e; e = agnxtout(dg, e)) {
			const char *lhead = agget(e, (char *)"lhead");
			if (lhead && *lhead)
				links++;
		}
	ck_assert_uint_eq(links, 6);
	agclose(dg);
	fixture_free(&fx);
}
END_TEST

/* A device that does not exist: exit status 3, no crash in gpu_close. */
START_TEST(test_bad_device)
{
	struct diag d;
	FILE *log = tmpfile();
	diag_init(&d, "unit.yaml", log);
	struct gdef *g = gdef_load_string("unit.yaml", graph_yaml, strlen(graph_yaml),
					  &load_default_limits, &d);
	ck_assert(gdef_validate(g, &d));
	struct gpu gp;
	ck_assert_int_eq(gpu_open(&gp, g, 999, VERB_QUIET, &d), 3);
	gpu_close(&gp);
	gdef_free(g);
	fclose(log);
}
END_TEST

/*
 * Every kernel of the image: what cubin.c reads from it is what the driver
 * says, parameter by parameter, and the driver has no parameter past the
 * count (asked here until the call fails, the one place that may).
 */
static void params_as_driver(const void *image, size_t len, const char *what, int sm)
{
	CUmodule mod;
	ck_assert_msg(cu.ModuleLoadDataEx(&mod, image, 0, NULL, NULL) == CUDA_SUCCESS,
		      "cannot load %s", what);
	unsigned count = 0;
	ck_assert_int_eq(cu.ModuleGetFunctionCount(&count, mod), CUDA_SUCCESS);
	ck_assert_uint_gt(count, 0);
	CUfunction *fs = xcalloc(count, sizeof *fs);
	ck_assert_int_eq(cu.ModuleEnumerateFunctions(fs, count, mod), CUDA_SUCCESS);
	for (unsigned i = 0; i < count; i++) {
		const char *name;
		ck_assert_int_eq(cu.FuncGetName(&name, fs[i]), CUDA_SUCCESS);
		size_t *sizes;
		long n = image_entry_params(image, len, name, sm, &sizes);
		ck_assert_msg(n >= 0, "%s: %s: no parameter count read", what, name);
		size_t off, size, k;
		for (k = 0; cu.FuncGetParamInfo(fs[i], k, &off, &size) == CUDA_SUCCESS; k++)
			ck_assert_msg(k < (size_t)n && (sizes == NULL || sizes[k] == size),
				      "%s: %s: parameter %zu of %zu bytes, read as %zu of %ld",
				      what, name, k, size, sizes && k < (size_t)n ? sizes[k] : 0, n);
		ck_assert_msg(k == (size_t)n, "%s: %s: %zu parameters, read as %ld", what, name, k,
			      n);
		free(sizes);
	}
	/* the validator's listing: every kernel the driver has, alike, and no other */
	struct image_listing l;
	image_list(image, len, sm, &l);
	ck_assert_msg(l.complete, "%s: listing not complete", what);
	ck_assert_msg(l.n == count, "%s: %zu kernels listed, the driver has %u", what, l.n, count);
	for (unsigned i = 0; i < count; i++) {
		const char *name;
		ck_assert_int_eq(cu.FuncGetName(&name, fs[i]), CUDA_SUCCESS);
		const struct image_kernel *ik = NULL;
		for (size_t j = 0; j < l.n && ik == NULL; j++)
			if (strcmp(l.v[j].name, name) == 0)
				ik = &l.v[j];
		ck_assert_msg(ik && ik->everywhere, "%s: %s not listed", what, name);
		size_t off, size, k;
		for (k = 0; k < (size_t)ik->nparams; k++) {
			ck_assert_int_eq(cu.FuncGetParamInfo(fs[i], k, &off, &size), CUDA_SUCCESS);
			ck_assert_msg(ik->params[k].size == size, "%s: %s: parameter %zu of %zu "
				      "bytes, listed as %zu", what, name, k, size, ik->params[k].size);
		}
	}
	image_listing_free(&l);
	free(fs);
	cu.ModuleUnload(mod);
}

static const char params_source[] =
	"struct S40 { double a[5]; };\n"
	"struct S12 { int a; char b; float c; };\n"
	"struct alignas(16) S16 { float x, y, z, w; };\n"
	"struct Empty {};\n"
	"struct Big { char c[5000]; };\n"
	"extern \"C\" __global__ void none() {}\n"
	"extern \"C\" __global__ void k(float *p, int n, double d) { if (n) p[0] = (float)d; }\n"
	"extern \"C\" __global__ void st(S40 s, float *o) { o[0] = (float)s.a[4]; }\n"
	"extern \"C\" __global__ void many(char a, short b, int c, long long d, float e,\n"
	"  double f, void *g, S12 h, S16 i, unsigned char j)\n"
	"{ if (g) *(double *)g = a + b + c + d + e + f + h.a + i.w + j; }\n"
	"extern \"C\" __global__ void empty(Empty e, int *o) { o[0] = 1; }\n"
	"extern \"C\" __global__ void big(int a, Big b, int *o) { o[0] = a + b.c[4999]; }\n"
	"template <typename T, int N> __global__ void tmpl(T *p, T v) { p[N] = v; }\n"
	"namespace ns { __global__ void step(int *x, int y) { x[0] = y; } }\n";

/* Parameters read from images, against the driver: NVRTC's, the suite's. */
START_TEST(test_params_as_driver)
{
	struct fixture fx;
	fixture_build(&fx, graph_yaml);
	if (cu.ModuleGetFunctionCount == NULL || cu.FuncGetParamInfo == NULL) {
		fixture_free(&fx);
		return;
	}
	int major = 0, minor = 0;
	cu.DeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, fx.gp.dev);
	cu.DeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, fx.gp.dev);
	int sm = major * 10 + minor;
	if (rtc_available()) {
		char path[] = "/tmp/gpu_unit_paramsXXXXXX";
		int fd = mkstemp(path);
		ck_assert_int_ge(fd, 0);
		ck_assert(write_full(fd, params_source, sizeof params_source - 1));
		close(fd);
		struct module m;
		memset(&m, 0, sizeof m);
		m.name = (char *)"p";
		m.file = (char *)"p.cu";
		m.path = path;
		m.source = true;
		const char *names[] = {"k", "many", "tmpl<float, 4>", "tmpl<double, 2>", "ns::step"};
		struct rtc_settings rs = {.use_cache = false};
		struct rtc_image im;
		ck_assert_int_eq(rtc_compile(&m, names, 5, major, minor, &rs, &im, &fx.d), 0);
		unlink(path);
		params_as_driver(im.data, im.size, im.ptx ? "NVRTC's PTX" : "NVRTC's cubin", sm);
		rtc_image_free(&im);
	}
	/* the GPU suite's, from the bundle */
	const char *top = getenv("TOP_SRCDIR");
	static const char *const files[] = {"kernels/tk.cubin", "kernels/tk.fatbin", "kernels/tk.ptx"};
	for (size_t i = 0; top && i < sizeof files / sizeof *files; i++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", top, files[i]);
		size_t len;
		char *image = read_whole_file(path, &len);
		if (image == NULL)
			continue;
		/* an sm_90 cubin loads on sm_90 alone; the fatbin's PTX is compressed */
		if (i == 2 || sm == 90)
			params_as_driver(image, len, files[i], sm);
		free(image);
	}
	fixture_free(&fx);
}
END_TEST

/*
 * --modules=library: the same graph built from libraries, its kernels
 * CUkernels that the nodes name with the run's context; a module's
 * function is the run's context's alone.
 */
START_TEST(test_library)
{
	static const char yaml[] =
		"cugraphrun: 1\n"
		"buffers:\n"
		"  ctr: {type: i32, count: 1, init: 3}\n"
		"conditions:\n"
		"  c: {default: 1}\n"
		"nodes:\n"
		"  - while:\n"
		"      condition: c\n"
		"      body: [{kernel: {function: builtin.countdown, args: [{handle: c}, ctr]}}]\n";
	struct fixture fx;
	fixture_build_with(&fx, yaml, MODULE_API_LIBRARY);
	ck_assert(fx.gp.use_library);
	ck_assert_uint_eq(fx.gp.nfuncs, 1);
	const struct kfunc *kf = &fx.gp.funcs[0];
	ck_assert_ptr_nonnull(kf->k);
	ck_assert_ptr_nonnull(kf->f);
	ck_assert(kf->has_params && kf->nparams == 2);
	CUfunction f;
	ck_assert_int_eq(gpu_kernel_function(&fx.gp, kf, fx.gp.ctx, &f), CUDA_SUCCESS);
	ck_assert_ptr_eq(f, kf->f);
	CUDA_KERNEL_NODE_PARAMS_v3 p;
	memset(&p, 0, sizeof p);
	ck_assert_int_eq(gpu_kernel_target(&fx.gp, kf, fx.gp.ctx, &p), CUDA_SUCCESS);
	ck_assert_ptr_null(p.func);
	ck_assert_ptr_eq(p.kern, kf->k);
	ck_assert_ptr_eq(p.ctx, fx.gp.ctx);
	unsigned count = 0;
	const char **names = gpu_kernel_names(&fx.gp, 0, &count);
	if (cu.LibraryGetKernelCount) {
		/* set, set_from, countdown and their stream-mode variants (modes.h) */
		ck_assert_uint_eq(count, 6);
		free(names);
	}
	fixture_free(&fx);
	/* a module's function: the run's context's, nothing else's */
	fixture_build_with(&fx, yaml, MODULE_API_MODULE);
	kf = &fx.gp.funcs[0];
	ck_assert_ptr_null(kf->k);
	memset(&p, 0, sizeof p);
	ck_assert_int_eq(gpu_kernel_target(&fx.gp, kf, fx.gp.ctx, &p), CUDA_SUCCESS);
	ck_assert_ptr_eq(p.func, kf->f);
	CUcontext other = (CUcontext)(uintptr_t)&fx;     /* never used: refused first */
	ck_assert_int_eq(gpu_kernel_target(&fx.gp, kf, other, &p), CUDA_ERROR_INVALID_CONTEXT);
	ck_assert_int_eq(gpu_kernel_function(&fx.gp, kf, other, &f), CUDA_ERROR_INVALID_CONTEXT);
	fixture_free(&fx);
}
END_TEST

static Suite *gpu_suite(void)
{
	Suite *s = suite_create("gpu");
	TCase *tc = tcase_create("gpu");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_words);
	tcase_add_test(tc, test_node_map);
	tcase_add_test(tc, test_creation_order);
	tcase_add_test(tc, test_gpu_dot);
	tcase_add_test(tc, test_bad_device);
	tcase_add_test(tc, test_params_as_driver);
	tcase_add_test(tc, test_library);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	/* no driver or no device: skip, never pass */
	if (!cu_open())
		return 77;
	int count = 0;
	if (cu.Init(0) != CUDA_SUCCESS || cu.DeviceGetCount(&count) != CUDA_SUCCESS ||
	    count == 0) {
		fprintf(stderr, "gpu_unit: no CUDA device\n");
		return 77;
	}
	/* cuInit above: the tests must not fork */
	SRunner *sr = srunner_create(gpu_suite());
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif /* HAVE_CUDA && cuda.h */
