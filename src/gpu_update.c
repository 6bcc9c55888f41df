/*
 * A sweep's update path (gpu_update.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_update.h"
#include "monotime.h"
#include "sweep_diff.h"
#include "xmalloc.h"

/* The reason, once: the first one found is the one said. */
static void why(struct updater *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void why(struct updater *u, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(u->why, sizeof u->why, fmt, ap);
	va_end(ap);
}

/* "node 'k3' (file:L:C)" for a node, for reasons. */
static void node_words(const struct gdef *g, const struct node *n, char *buf, size_t len)
{
	if (n == NULL)
		snprintf(buf, len, "the graph");
	else
		snprintf(buf, len, "%s node '%s' (%s:%u:%u)", node_kind_names[n->kind], n->id,
			 g->file, n->pos.line, n->pos.col);
}

/* cuGraphExecUpdate's reasons, in words (the driver has no call for them). */
static const char *update_result(CUgraphExecUpdateResult r)
{
	switch (r) {
	case CU_GRAPH_EXEC_UPDATE_SUCCESS:
		return "no reason given";
	case CU_GRAPH_EXEC_UPDATE_ERROR:
		return "the update failed (CU_GRAPH_EXEC_UPDATE_ERROR)";
	case CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED:
		return "its topology changed (CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED)";
	case CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED:
		return "a node's type changed (CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED)";
	case CU_GRAPH_EXEC_UPDATE_ERROR_FUNCTION_CHANGED:
		return "a kernel's function changed (CU_GRAPH_EXEC_UPDATE_ERROR_FUNCTION_CHANGED)";
	case CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED:
		return "parameters changed in a way it cannot apply "
		       "(CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED)";
	case CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED:
		return "the node cannot be updated (CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED)";
	case CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE:
		return "a kernel's function changed in a way it cannot apply "
		       "(CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE)";
	case CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED:
		return "a node's attributes changed (CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED)";
	}
	return "an unknown reason";
}

/* CUGRAPHRUN_TEST_REFUSE_UPDATE=ID: the driver "refuses" to update node ID. */
static bool test_refused(const struct node *n)
{
	static const char *id;
	static bool read;
	if (!read) {
		id = getenv("CUGRAPHRUN_TEST_REFUSE_UPDATE");
		read = true;
	}
	return id && *id && strcmp(id, n->id) == 0;
}

/*
 * The functions of gp->g's kernel nodes (all, or those in only), where
 * not found yet: a sweep's functions were found before it ran, for every
 * point whose modules are the first's (gpu_load); others are found here.
 */
static int find_functions(struct gpu *gp, const bool *only)
{
	bool noted = true;
	int rc = 0;
	for (size_t i = 0; i < gp->g->nall_nodes && rc == 0; i++) {
		const struct node *n = gp->g->all_nodes[i];
		if (n->kind == NK_KERNEL && (only == NULL || only[i]) && !gpu_func_known(gp, n))
			rc = gpu_prepare_kernel(gp, n, &noted);
	}
	return rc;
}

/* The executable graph and the built graph dropped (again: nothing happens). */
static void discard_graph(struct updater *u)
{
	launcher_drop(u->ln);
	struct gpu_graph_state st;
	gpu_detach_graph(u->gp, &st);
	gpu_free_graph_state(&st);
}

/*
 * Build and instantiate the graph of gp->g anew, the old executable graph
 * destroyed first.  The buffers, modules and functions are gp->g's already.
 */
static int rebuild(struct updater *u, struct point_report *pr)
{
	struct gpu *gp = u->gp;
	gpu_verbose(gp, "point %s: the graph is built and instantiated again: %s", u->label,
		    u->why);
	discard_graph(u);
	int rc = find_functions(gp, NULL);
	if (rc == 0)
		rc = gpu_build(gp);
	double inst_s, upload_s;
	if (rc == 0)
		rc = launcher_instantiate(u->ln, &inst_s, &upload_s);
	u->paired = true;
	pr->prep = PREP_INSTANTIATE;
	pr->rebuild_why = u->why;
	pr->updated_nodes = 0;
	return rc;
}

/*
 * Buffers allocated again, modules loaded again and kernels' functions
 * found for gp->g (next), where they changed; the nodes that use them
 * marked in dirty.  0, 2 or 3.
 */
static int settle(struct updater *u, const struct gdef *prev, const struct model_diff *d,
		  bool *dirty)
{
	struct gpu *gp = u->gp;
	struct gdef *g = gp->g;
	int rc = 0;
	for (size_t b = 0; b < g->nbuffers && rc == 0; b++) {
		if (!d->realloc[b])
			continue;
		gpu_verbose(gp, "point %s: buffer '%s' allocated again (%llu bytes of %s memory)",
			    u->label, g->buffers[b].name, (unsigned long long)g->buffers[b].size,
			    mem_kind_names[g->buffers[b].memory]);
		rc = gpu_realloc_buffer(gp, b, prev->buffers[b].memory);
		/* the nodes that hold its address (a host node reads it when it runs) */
		for (size_t i = 0; dirty && i < g->nall_nodes; i++) {
			const struct node *n = g->all_nodes[i];
			if ((n->kind == NK_KERNEL || n->kind == NK_MEMSET || n->kind == NK_COPY) &&
			    node_uses_buffer(n, (long)b))
				dirty[i] = true;
		}
	}
	for (size_t m = 0; m < g->nmodules && rc == 0; m++) {
		if (!d->reload[m])
			continue;
		gpu_verbose(gp, "point %s: module '%s' loaded again (its definition changed)",
			    u->label, g->modules[m].name);
		rc = gpu_reload_module(gp, m);
		for (size_t i = 0; dirty && i < g->nall_nodes; i++) {
			const struct node *n = g->all_nodes[i];
			if (n->kind == NK_KERNEL && n->u.kernel.module.idx == (long)m)
				dirty[i] = true;
		}
	}
	/* the functions of the nodes that get new parameters (a reloaded module's: all of them) */
	if (rc == 0)
		rc = find_functions(gp, dirty);
	gpu_load_done(gp);
	return rc;
}

/*
 * The kernel, memset or copy node n's parameters, on the template and,
 * when exec, on the executable graph: the generic calls take them as
 * gpu_node_params makes them, and apply each kind's rules (a 2-D memset
 * takes a new address and value only, and a copy with multidimensional
 * operands goes through cuGraphExecUpdate: sweep_diff.c; a refusal
 * rebuilds).
 */
static CUresult set_params(struct updater *u, struct node *n, CUgraphNode h, bool exec,
			   const char **call)
{
	CUgraphNodeParams p;
	CUgraph empty;
	if (gpu_node_params(u->gp, n, &p, &empty) != 0)
		return CUDA_ERROR_INVALID_VALUE;
	*call = "cuGraphNodeSetParams";
	CUresult r = cu.GraphNodeSetParams(h, &p);
	if (r != CUDA_SUCCESS || !exec)
		return r;
	*call = "cuGraphExecNodeSetParams";
	return test_refused(n) ? CUDA_ERROR_INVALID_VALUE :
		cu.GraphExecNodeSetParams(u->ln->exec, h, &p);
}

/* cuGraphExecUpdate from gp->root: true, or false with the reason in u->why. */
static bool exec_update(struct updater *u)
{
	struct gpu *gp = u->gp;
	if (graph_has_device_updatable(gp->g)) {
		why(u, "the graph holds device-updatable kernel nodes, which cuGraphExecUpdate "
		    "does not take");
		return false;
	}
	if (cu.GraphExecUpdate == NULL) {
		why(u, "this driver has no cuGraphExecUpdate");
		return false;
	}
	CUgraphExecUpdateResultInfo info;
	memset(&info, 0, sizeof info);
	CUresult r = CUDA_SUCCESS;
	for (size_t i = 0; i < gp->g->nall_nodes; i++)
		if (gp->g->all_nodes[i]->where && test_refused(gp->g->all_nodes[i])) {
			r = CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
			info.result = CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED;
			info.errorNode = gp->handle_of[i];
		}
	if (r == CUDA_SUCCESS)
		r = cu.GraphExecUpdate(u->ln->exec, gp->root, &info);
	if (r == CUDA_SUCCESS)
		return true;
	char at[256];
	node_words(gp->g, info.errorNode ? gpu_node_of(gp, info.errorNode) : NULL, at, sizeof at);
	if (r == CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE)
		why(u, "the driver refused to update %s in place: %s", at,
		    update_result(info.result));
	else
		why(u, "the driver refused to update the graph in place: %s (cuGraphExecUpdate)",
		    cu_strerror(r));
	return false;
}

/*
 * Conditions' defaults are their handles': the template is built again
 * with new ones, and the executable graph updated from it.
 */
static int fresh_template(struct updater *u, const struct model_diff *d,
			  struct point_report *pr)
{
	struct gpu *gp = u->gp;
	for (size_t c = 0; c < gp->g->nconditions; c++)
		if (d->cond_default[c])
			gpu_verbose(gp, "point %s: condition '%s': default %u", u->label,
				    gp->g->conditions[c].name, gp->g->conditions[c].default_value);
	struct gpu_graph_state old;
	/* every node's parameters are made: every kernel's function found */
	int rc = find_functions(gp, NULL);
	if (rc != 0)
		return rc;
	gpu_detach_graph(gp, &old);
	rc = gpu_build(gp);
	if (rc != 0) {
		gpu_free_graph_state(&old);
		return rc;
	}
	if (!exec_update(u)) {
		/* the executable graph may still use the old graph's host calls: it goes first */
		launcher_drop(u->ln);
		gpu_free_graph_state(&old);
		double inst_s, upload_s;
		gpu_verbose(gp, "point %s: the graph is instantiated again: %s", u->label, u->why);
		pr->prep = PREP_INSTANTIATE;
		pr->rebuild_why = u->why;
		u->paired = true;
		return launcher_instantiate(u->ln, &inst_s, &upload_s);
	}
	gpu_free_graph_state(&old);
	u->paired = false;
	pr->prep = PREP_UPDATE;
	return 0;
}

int gpu_update(struct updater *u, const struct gdef *prev, struct gdef *next,
	       struct point_report *pr)
{
	struct gpu *gp = u->gp;
	double t0 = monotime();
	struct model_diff d;
	model_diff(prev, next, &d);
	u->why[0] = '\0';
	pr->prep = PREP_SAME;
	pr->rebuild_why = NULL;
	pr->updated_nodes = 0;
	int rc = 0;
	if (d.structural) {
		why(u, "%s", d.why);
		/* before the buffers and modules it uses go (gpu_release) */
		discard_graph(u);
		if (d.lists_differ) {
			gpu_release(gp);
			gp->g = next;
			if ((rc = gpu_load(gp)) == 0)
				rc = gpu_alloc(gp);
		} else {
			gp->g = next;
			rc = settle(u, prev, &d, NULL);
		}
		if (rc == 0)
			rc = rebuild(u, pr);
		goto done;
	}
	gpu_rebind(gp, next);
	bool *dirty = xcalloc(next->nall_nodes ? next->nall_nodes : 1, sizeof *dirty);
	for (size_t i = 0; i < next->nall_nodes; i++) {
		enum node_kind k = next->all_nodes[i]->kind;
		dirty[i] = d.changed[i] && (k == NK_KERNEL || k == NK_MEMSET || k == NK_COPY);
	}
	if ((rc = settle(u, prev, &d, dirty)) != 0) {
		free(dirty);
		goto done;
	}
	if (d.rebuild) {
		why(u, "%s", d.why);
		free(dirty);
		rc = rebuild(u, pr);
		goto done;
	}
	unsigned updated = 0;
	for (size_t i = 0; i < next->nall_nodes; i++)
		updated += dirty[i];
	if (d.any_cond_default) {
		free(dirty);
		rc = fresh_template(u, &d, pr);
		pr->updated_nodes = pr->prep == PREP_UPDATE ? updated : 0;
		goto done;
	}
	bool whole = false, refused = false;
	for (size_t i = 0; i < next->nall_nodes && !refused; i++) {
		if (!dirty[i])
			continue;
		struct node *n = next->all_nodes[i];
		/* a node of a body or a child graph: cuGraphExecUpdate */
		bool exec = n->where == 0 && u->paired;
		const char *call = "";
		CUresult r = set_params(u, n, gp->handle_of[i], exec, &call);
		if (r != CUDA_SUCCESS) {
			char at[256];
			node_words(next, n, at, sizeof at);
			why(u, "the driver refused to update %s in place (its '%s' changed): %s (%s)",
			    at, d.changed[i] ? d.changed[i] : "buffer", cu_strerror(r), call);
			refused = true;
			break;
		}
		whole |= !exec;
		gpu_verbose(gp, "point %s: node '%s': new parameters (%s)%s", u->label, n->id,
			    d.changed[i] ? d.changed[i] : "a buffer it uses",
			    exec ? "" : " on the template");
	}
	free(dirty);
	if (!refused && whole && !exec_update(u))
		refused = true;
	if (refused) {
		rc = rebuild(u, pr);
		goto done;
	}
	pr->prep = updated ? PREP_UPDATE : PREP_SAME;
	pr->updated_nodes = updated;
	if (updated)
		gpu_verbose(gp, "point %s: %u node%s updated in place%s", u->label, updated,
			    updated == 1 ? "" : "s", whole ? " (cuGraphExecUpdate)" : "");
done:
	pr->prep_s = monotime() - t0;
	model_diff_free(&d);
	return rc;
}
