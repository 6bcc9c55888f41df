/*
 * A run in modes checked before the GPU (validate_modes.h).
 */
#include "config.h"

#include <string.h>

#include "validate_modes.h"

/* A kernel of the file that sets a condition: stream mode has no handle to give it. */
static bool setter_ok(const struct gdef *g, const struct node *n, struct diag *d)
{
	const struct arg *h = mode_handle_arg(n);
	if (h == NULL)
		return true;
	const struct kernel_node *k = &n->u.kernel;
	const struct module *m = &g->modules[k->module.idx];
	if (m->builtin && mode_builtin_variant(k->func))
		return true;
	diag_error(d, h->pos, "node '%s' gives condition '%s' to kernel '%s', which sets it with "
		   "cudaGraphSetConditional: a condition's handle exists only in a graph, so stream "
		   "mode cannot run this file (graph and capture modes can)", n->id, h->ref.name,
		   k->function);
	return false;
}

/* A device-updatable kernel node: its node lives in an executable graph. */
static bool updatable_ok(const struct gdef *g, const struct node *n, struct diag *d)
{
	if (n->kind != NK_KERNEL || !n->u.kernel.device_updatable)
		return true;
	const struct kernel_attrs *a = kernel_attrs_of(g, n);
	diag_error(d, a ? a->pos[KATTR_DEVICE_UPDATABLE] : n->pos, "node '%s' is a "
		   "device-updatable kernel node, which exists only in a graph (the device "
		   "updates it in the executable graph): stream mode launches kernels one by "
		   "one and has no node to update; graph and capture modes can run it", n->id);
	return false;
}

bool mode_model_ok(const struct gdef *g, enum run_mode m, struct diag *d)
{
	if (m != MODE_STREAM)
		return true;
	bool ok = true;
	for (size_t i = 0; i < g->nall_nodes; i++) {
		const struct node *n = g->all_nodes[i];
		/* a node switched off is left out of the stream issue */
		if (n->disabled)
			continue;
		ok &= updatable_ok(g, n, d);
		ok &= setter_ok(g, n, d);
	}
	return ok;
}

/* A conditional node that runs (stream mode's host loop), or NULL. */
static const struct node *host_loop(const struct gdef *g)
{
	for (size_t i = 0; g && i < g->nall_nodes; i++) {
		const struct node *n = g->all_nodes[i];
		if (!n->disabled && (n->kind == NK_IF || n->kind == NK_WHILE || n->kind == NK_SWITCH))
			return n;
	}
	return NULL;
}

/*
 * --gpu-time holds the stream until a launch is queued, and stream mode
 * queues a conditional node's body after it has read the condition back,
 * which waits for the held stream: the two cannot go together.
 */
static bool gpu_time_ok(const struct sweep *sw, const struct options *o,
			const struct mode_rows *r)
{
	for (size_t i = 0; o->gpu_time && i < r->n; i++) {
		const struct node *n = r->mode[i] == MODE_STREAM ? host_loop(sw->models[r->point[i]]) :
			NULL;
		if (n == NULL)
			continue;
		usage_error("--gpu-time holds the stream until a launch is queued, but stream mode "
			    "waits for the condition of node '%s' before it queues the body (%s): "
			    "leave out --gpu-time, or use graph and capture modes", n->id,
			    r->labels[i]);
		return false;
	}
	return true;
}

/* The options that go with a plain graph run alone, and --dump with one row alone. */
static bool options_ok(const struct options *o, const struct mode_rows *r)
{
	const char *one = o->trace ? "--trace" : o->profile ? "--profile" : o->dot ? "--dot" : NULL;
	if (o->validate)
		return true;
	if (one) {
		usage_error("%s is for a run of the explicit graph alone, and %s runs in modes "
			    "(%s): leave out one or the other", one, o->file,
			    o->modes.n ? "--mode" : "its axis 'mode'");
		return false;
	}
	if (o->ndumps && r->n > 1) {
		usage_error("--dump is for one run, and %s runs %zu in modes (the first is %s): "
			    "pick one with --set or a single --mode", o->file, r->n, r->labels[0]);
		return false;
	}
	return true;
}

bool modes_validate(const struct sweep *sw, const struct options *o, struct diag *d)
{
	if (!modes_wanted(sw, &o->modes))
		return true;
	long ma = mode_axis(sw);
	if (ma >= 0 && o->modes.n) {
		diag_error(d, sw->axes[ma].pos, "the file sweeps its own axis '%s', and --mode gives "
			   "it a second list: choose its values with -a %s=LIST", MODE_AXIS, MODE_AXIS);
		return false;
	}
	struct mode_rows r;
	if (!mode_rows_make(sw, &o->modes, &r, d))
		return false;
	bool ok = options_ok(o, &r) && (o->validate || gpu_time_ok(sw, o, &r)), bad = false;
	const char *prefix = d->prefix;
	/* every row's errors, as a sweep says every point's (the same one once) */
	for (size_t i = 0; ok && i < r.n; i++) {
		size_t k = r.point[i];
		d->prefix = k ? sw->labels[k] : NULL;
		if (sw->models[k] && !mode_model_ok(sw->models[k], r.mode[i], d))
			bad = true;
	}
	d->prefix = prefix;
	mode_rows_free(&r);
	return ok && !bad;
}
