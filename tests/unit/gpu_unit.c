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

#include "gpu_build.h"
#include "load.h"
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

static void fixture_build(struct fixture *fx, const char *yaml)
{
	fx->log = tmpfile();
	ck_assert_ptr_nonnull(fx->log);
	diag_init(&fx->d, "unit.yaml", fx->log);
	fx->g = gdef_load_string("unit.yaml", yaml, strlen(yaml), &load_default_limits, &fx->d);
	ck_assert_ptr_nonnull(fx->g);
	ck_assert(gdef_validate(fx->g, &fx->d));
	ck_assert_int_eq(gpu_open(&fx->gp, fx->g, 0, VERB_QUIET, &fx->d), 0);
	ck_assert_int_eq(gpu_load(&fx->gp), 0);
	ck_assert_int_eq(gpu_alloc(&fx->gp), 0);
	ck_assert_int_eq(gpu_build(&fx->gp), 0);
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
START_TEST(test_driver_dot)
{
	struct fixture fx;
	fixture_build(&fx, graph_yaml);
	char path[] = "/tmp/gpu_unit_dotXXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(cu.GraphDebugDotPrint(fx.gp.root, path, 0), CUDA_SUCCESS);
	ck_assert_int_eq(driver_dot_annotate(path, &fx.gp), 0);
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

static Suite *gpu_suite(void)
{
	Suite *s = suite_create("gpu");
	TCase *tc = tcase_create("gpu");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_words);
	tcase_add_test(tc, test_node_map);
	tcase_add_test(tc, test_creation_order);
	tcase_add_test(tc, test_driver_dot);
	tcase_add_test(tc, test_bad_device);
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
