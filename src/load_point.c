/*
 * A template's points (load_point.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "load_checks.h"
#include "load_defs.h"
#include "load_file.h"
#include "load_graph.h"
#include "load_point.h"
#include "model_derive.h"
#include "monotime.h"
#include "xmalloc.h"

/*
 * (The functions of templates are cold: out of the way of the plain
 * load's per-node functions, whose places in the instruction cache a few
 * hundred bytes more among them changed: 50% more misses, 2% slower on a
 * 100,000-node chain.)
 */

/* The loader of a template, kept with its sweep for sweep_reload. */
struct sweep_src {
	struct ld l;
	struct load_limits lim;
	char *name;
	long *slots;                    /* per axis: its slot */
};

static __attribute__((cold)) void sweep_src_free(struct sweep_src *src)
{
	if (src == NULL)
		return;
	ld_free(&src->l);
	free(src->slots);
	free(src->name);
	free(src);
}

__attribute__((cold)) void template_sweep_free(struct sweep *sw)
{
	if (sw == NULL)
		return;
	sweep_src_free(sw->src);
	sw->src = NULL;
	sweep_free(sw);
}

/* Bind point k's values to the axes' names. */
static __attribute__((cold)) void bind_point(struct sweep_src *src, const struct sweep *sw, size_t k)
{
	for (size_t a = 0; a < sw->naxes; a++)
		ev_bind(&src->l.es, src->slots[a], *sweep_value(sw, k, a));
}

/* Point k's model read in full. */
static __attribute__((cold)) struct gdef *read_point(struct sweep_src *src, const struct sweep *sw, size_t k)
{
	ev_replay_start(&src->l.es, true);
	bind_point(src, sw, k);
	return load_model(&src->l, src->name);
}

__attribute__((cold)) struct gdef *point_reread(struct sweep *sw, size_t k, struct diag *d)
{
	struct sweep_src *src = sw->src;
	struct diag *was = src->l.es.d;
	src->l.es.d = d;
	/* counted against the budget when it was first read */
	src->l.es.budget = EV_NO_BUDGET;
	struct gdef *g = read_point(src, sw, k);
	src->l.es.d = was;
	return g;
}

/* Object c of the base read again, from its own events, into derived model g. */
static __attribute__((cold)) bool read_again(struct ld *l, struct gdef *g, const struct ev_ctx *c)
{
	struct gdef *base = g->derive->base;
	/* the top-level ones: the row that read them first */
	const struct keydef *kd = c->key;
	bool same = false;
	if (c->kind == CTX_NODE) {
		const struct node *bn = c->obj;
		/* launch attributes are the validator's driver rules' (model_derive.c) */
		if (bn->kind == NK_KERNEL && bn->u.kernel.has_attrs)
			return false;
	}
	l->g = g;
	l->last_kernel = NULL;
	l->last_ref = NULL;
	ev_reread(&l->es, c);
	switch (c->kind) {
	case CTX_NODE: {
		struct node *bn = c->obj, *n = derive_node(g, bn, true);
		parse_kind(l, n, bn->kind);
		same = derive_same_node(bn, n);
		break;
	}
	case CTX_BUFFER: {
		const struct buffer *bb = &base->buffers[c->index];
		struct buffer *b = derive_buffer(g, c->index);
		memset(b, 0, sizeof *b);
		buffer_start(b, bb->name, bb->pos);
		b->dynamic = bb->dynamic;
		parse_buffer(l, b, c->index);
		derive_own(g, b->init.list);
		same = derive_same_buffer(bb, b);
		break;
	}
	case CTX_CONDITION: {
		const struct condition *bc = &base->conditions[c->index];
		struct condition *cd = derive_condition(g, c->index);
		*cd = (struct condition){.name = bc->name, .pos = bc->pos, .user = -1,
					 .dynamic = bc->dynamic};
		parse_condition(l, cd, c->index);
		same = derive_same_condition(bc, cd);
		break;
	}
	case CTX_CHECK: {
		const struct check *bk = &base->checks[c->index];
		struct check *ck = derive_check(g, c->index);
		memset(ck, 0, sizeof *ck);
		ck->dynamic = bk->dynamic;
		parse_check(l, ck, c->index);
		derive_own(g, ck->list);
		same = derive_same_check(bk, ck);
		break;
	}
	case CTX_RUN:
		memset(&g->run, 0, sizeof g->run);
		kd->fn(l, g, kd, c->kpos);
		same = derive_same_run(&base->run, &g->run);
		break;
	case CTX_THROUGHPUT:
		memset(&g->throughput, 0, sizeof g->throughput);
		kd->fn(l, g, kd, c->kpos);
		same = g->throughput.has_bytes == base->throughput.has_bytes &&
		       g->throughput.has_items == base->throughput.has_items &&
		       g->throughput.has_flops == base->throughput.has_flops &&
		       g->throughput.has_flops_type == base->throughput.has_flops_type;
		break;
	case CTX_NAME:
		g->name = NULL;
		kd->fn(l, g, kd, c->kpos);
		same = g->name != NULL;
		break;
	case CTX_DESCRIPTION:
		g->description = NULL;
		kd->fn(l, g, kd, c->kpos);
		same = g->description != NULL;
		break;
	}
	return ev_reread_end(&l->es, c) && same;
}

/* Every node of graph gr and of the graphs its nodes hold. */
static __attribute__((cold)) void mark_users(struct gdef *g, struct graph *gr, const char *buffer)
{
	for (size_t i = 0; i < gr->nnodes; i++) {
		struct node *n = gr->nodes[i];
		if (derive_node_names_buffer(n, buffer))
			derive_node(g, n, true);
		if (n->kind == NK_GRAPH && n->u.child)
			mark_users(g, n->u.child, buffer);
		else if (node_kind_is_conditional(n->kind))
			for (size_t b = 0; b < n->u.cond.nbodies; b++)
				if (n->u.cond.bodies[b])
					mark_users(g, n->u.cond.bodies[b], buffer);
	}
}

/*
 * Buffers read again make dirty what names them: nodes (their offsets
 * and counts against it), checks (their lengths).  An access window on
 * one is a launch attribute (read in full).  False for that.
 */
static __attribute__((cold)) bool mark_buffer_users(struct gdef *g)
{
	const struct derive *dv = g->derive;
	struct gdef *base = dv->base;
	for (size_t i = 0; dv->buffer_dirty && i < g->nbuffers; i++) {
		if (!dv->buffer_dirty[i])
			continue;
		const char *name = base->buffers[i].name;
		for (size_t k = 0; k < base->nkattrs; k++)
			if (kattr_set(base->kattrs[k], KATTR_ACCESS_POLICY) &&
			    base->kattrs[k]->window.buffer.name &&
			    strcmp(base->kattrs[k]->window.buffer.name, name) == 0)
				return false;
		mark_users(g, base->root, name);
		for (size_t k = 0; k < base->nchecks; k++) {
			const struct check *c = &base->checks[k];
			bool names = (c->buffer.name && strcmp(c->buffer.name, name) == 0) ||
				     (c->ref.name && strcmp(c->ref.name, name) == 0);
			if (names && !(dv->check_dirty && dv->check_dirty[k]))
				derive_check(g, k);
		}
	}
	return true;
}

/*
 * The model of the point whose values are bound now, derived from base
 * (read in full, its objects and sites in rec), or NULL when it must be
 * read in full.  Quiet: what reading again says is dropped.
 */
static __attribute__((cold)) struct gdef *derive_point(struct ld *l, struct gdef *base, const struct ev_rec *rec,
				 bool *dirty)
{
	memset(dirty, 0, rec->nctx * sizeof *dirty);
	for (size_t i = 0; i < rec->nsites; i++) {
		const struct ev_site *st = &rec->sites[i];
		if (ev_site_same(&l->es, rec, st))
			continue;
		if (st->ctx < 0 || !rec->ctx[st->ctx].usable)
			return NULL;
		dirty[st->ctx] = true;
	}
	struct gdef *g = gdef_derive(base);
	struct diag *d = l->es.d, saved = *d;
	d->quiet = true;
	bool ok = true;
	for (size_t i = 0; ok && i < rec->nctx; i++)
		if (dirty[i])
			ok = read_again(l, g, &rec->ctx[i]);
	ok = ok && mark_buffer_users(g);
	ok = ok && d->nerrors == saved.nerrors && d->nwarnings == saved.nwarnings;
	*d = saved;
	/* what the loader keeps from one reading to the next is about g: forgotten */
	l->g = NULL;
	l->last_kernel = NULL;
	l->last_kernel_len = 0;
	l->last_ref = NULL;
	l->last_ref_len = 0;
	if (!ok) {
		derive_free(g);
		return NULL;
	}
	return g;
}

/* What each kind of budget counts and what a sweep's points do with it. */
static const struct {
	const char *what, *verb, *fewer;
} budgets[] = {
	[EV_OVER_NODES] = {"nodes", "hold", "nodes"},
	[EV_OVER_EVENTS] = {"YAML events", "read", "nodes or generated values"},
	[EV_OVER_TEXT] = {"bytes of text", "read", "or shorter values"},
};

/* How much of each a sweep may have: lim's, or SWEEP_MAX_* where it says 0. */
static void budget_max(const struct load_limits *lim, size_t max[EV_OVER_TEXT + 1])
{
	max[EV_OVER_NONE] = 0;
	max[EV_OVER_NODES] = lim->max_nodes ? lim->max_nodes : SWEEP_MAX_NODES;
	max[EV_OVER_EVENTS] = lim->max_events ? lim->max_events : SWEEP_MAX_EVENTS;
	max[EV_OVER_TEXT] = lim->max_text ? lim->max_text : SWEEP_MAX_TEXT;
}

/*
 * The sweep refused (BUDGET): the reading of point k (of npoints) passed
 * the budget it was given, b, at b->pos.  The first point's budget is its
 * share of the sweep's, so that a sweep too large is refused there, before
 * the others are read.
 */
static __attribute__((cold)) void over_budget(struct diag *d, const struct sweep *sw, size_t k,
					      size_t npoints, const struct ev_budget *b,
					      const size_t maxes[])
{
	const char *what = budgets[b->over].what, *verb = budgets[b->over].verb;
	const char *fewer = budgets[b->over].fewer;
	size_t max = maxes[b->over];
	if (k > 0) {
		diag_error(d, b->pos, "the sweep would expand too far: its points up to %s (point "
			   "%zu of %zu) %s more than %zu %s together, the most a sweep's points "
			   "may (give fewer points with -a, or fewer %s)", sw->labels[k], k + 1,
			   npoints, verb, max, what, fewer);
		return;
	}
	if (npoints == 1) {
		diag_error(d, b->pos, "the file would expand too far: it would %s at least %zu "
			   "%s, more than the %zu a template may (fewer %s)", verb, b->at_least,
			   what, max, fewer);
		return;
	}
	char dims[256];
	sweep_dims_text(sw, dims, sizeof dims);
	size_t product;
	if (__builtin_mul_overflow(npoints, b->at_least, &product))
		product = SIZE_MAX;
	diag_error(d, b->pos, "the sweep would expand too far: %zu points (%s) x at least %zu "
		   "%s a point = %zu, more than the %zu a sweep's points may %s together (give "
		   "fewer points with -a, or fewer %s)", npoints, dims, b->at_least, what, product,
		   max, verb, fewer);
}

/*
 * Before any point is read (BUDGET): every point evaluates the file's
 * ${...} scalars, so npoints times their text must fit the text budget.
 * Said at the longest of them.
 */
static bool templates_fit(const struct sweep *sw, size_t npoints, const struct evsrc *es,
			  size_t max_text, struct diag *d)
{
	size_t bytes = es->tmpl_bytes, product;
	if (!__builtin_mul_overflow(npoints, bytes, &product) && product <= max_text)
		return true;
	if (__builtin_mul_overflow(npoints, bytes, &product))
		product = SIZE_MAX;
	char dims[256];
	sweep_dims_text(sw, dims, sizeof dims);
	diag_error(d, es->tmpl_longest_pos, "the sweep would expand too far: %zu point%s (%s) x "
		   "%zu bytes of ${...} scalars = %zu, more than the %zu bytes of text a "
		   "sweep's points may read together (give fewer points with -a, or fewer or "
		   "shorter templates)", npoints, npoints == 1 ? "" : "s", dims, bytes, product,
		   max_text);
	return false;
}

/*
 * What is left of the sweep's budget, less what a point's reading b made
 * (and its derived copies): EV_OVER_NONE, or the one it would pass, and
 * then nothing is spent.
 */
static enum ev_over spend(size_t left[], const struct ev_budget *b, size_t derived_nodes)
{
	size_t made[] = {[EV_OVER_NODES] = b->nodes_made + derived_nodes,
			 [EV_OVER_EVENTS] = b->events_made, [EV_OVER_TEXT] = b->text_made};
	for (int i = EV_OVER_NODES; i <= EV_OVER_TEXT; i++)
		if (made[i] > left[i])
			return (enum ev_over)i;
	for (int i = EV_OVER_NODES; i <= EV_OVER_TEXT; i++)
		left[i] -= made[i];
	return EV_OVER_NONE;
}

/*
 * A template (load_events.h: TEMPLATES): its events recorded once, its
 * axes read, the command line's applied, the points enumerated, then one
 * model per point, each read from the recorded events with the point's
 * values bound, or derived from the last point read so (POINTS).  The
 * first point's errors are said as a plain file's, the others' with the
 * point's label.  After a fatal error (the format version, a limit) no
 * further point is read: each would say it again.
 */
__attribute__((cold)) struct sweep *load_template(const char *name, const char *text, size_t len,
						  const struct load_limits *lim,
						  const struct axis_arg *args, size_t nargs,
						  bool first_only, struct diag *d)
{
	struct sweep_src *src = xcalloc(1, sizeof *src);
	struct ld *l = &src->l;
	src->lim = *lim;
	src->name = xstrdup(name);
	ld_init(l, src->name, &src->lim, d);
	ev_input_string(&l->es, text, len);
	struct sweep *sw = sweep_new();
	l->sw = l->es.sw = sw;
	unsigned before = d->nerrors;
	bool ok = ev_record(&l->es);
	/* the text is the caller's: everything is in the raw log now */
	l->es.text = NULL;
	l->es.len = 0;
	if (ok) {
		ev_replay_start(&l->es, false);
		l->axes_pass = true;
		read_axes(l);
		l->axes_pass = false;
		ok = !l->es.fatal && d->nerrors == before;
	}
	if (ok && nargs) {
		ev_note_names(&l->es);
		ok = sweep_apply_args(sw, args, nargs, d);
	}
	size_t max[EV_OVER_TEXT + 1];
	budget_max(lim, max);
	ok = ok && sweep_enumerate(sw, d) && templates_fit(sw, first_only ? 1 : sw->npoints,
							    &l->es, max[EV_OVER_TEXT], d);
	if (!ok) {
		sweep_src_free(src);
		sweep_free(sw);
		return NULL;
	}
	src->slots = xcalloc(sw->naxes ? sw->naxes : 1, sizeof *src->slots);
	for (size_t a = 0; a < sw->naxes; a++) {
		src->slots[a] = ev_slot(&l->es, sw->axes[a].name);
		l->es.is_axis[src->slots[a]] = true;
	}
	sw->models = xcalloc(sw->npoints, sizeof *sw->models);
	sw->eval_s = xcalloc(sw->npoints, sizeof *sw->eval_s);
	sw->base = xcalloc(sw->npoints, sizeof *sw->base);
	const char *prefix = d->prefix;
	size_t npoints = first_only ? 1 : sw->npoints;
	/* points after the first are derived where they can be (POINTS) */
	bool derive = npoints > 1 && !lim->full_points;
	struct ev_rec rec = {0};
	bool *dirty = NULL;
	long base = -1;
	size_t derived = 0;
	/* the points expand to at most max's nodes, events and text together (BUDGET) */
	size_t left[EV_OVER_TEXT + 1];
	memcpy(left, max, sizeof left);
	bool refused = false;
	for (size_t k = 0; k < npoints; k++) {
		double t = monotime();
		d->prefix = sweep_point_prefix(sw, k);
		sw->base[k] = k;
		/* the first point's share: what all would take, were every point like it */
		size_t share = k == 0 ? npoints : 1;
		struct ev_budget budget = {
			.nodes = left[EV_OVER_NODES] / share,
			.events = left[EV_OVER_EVENTS] / share,
			.text = left[EV_OVER_TEXT] / share,
		};
		if (base >= 0) {
			bind_point(src, sw, k);
			l->es.raw_read = 0;
			l->es.budget = budget;
			struct gdef *g = derive_point(l, sw->models[base], &rec, dirty);
			/* a derived point's copies are nodes it expands to */
			enum ev_over over = g ? spend(left, &l->es.budget, g->derive->nnodes)
					      : EV_OVER_NONE;
			if (over != EV_OVER_NONE) {
				l->es.budget.over = over;
				l->es.budget.pos = (struct pos){1, 1};
				derive_free(g);
				d->prefix = prefix;
				over_budget(d, sw, k, npoints, &l->es.budget, max);
				refused = true;
				break;
			}
			if (g) {
				sw->models[k] = g;
				sw->base[k] = (size_t)base;
				sw->eval_s[k] = monotime() - t;
				derived++;
				continue;
			}
		}
		unsigned errors = d->nerrors;
		if (derive) {
			ev_rec_free(&rec);
			l->es.rec = &rec;
			l->es.ctx = -1;
		}
		l->es.budget = budget;
		sw->models[k] = read_point(src, sw, k);
		l->es.rec = NULL;
		if (l->es.budget.over) {
			d->prefix = prefix;
			over_budget(d, sw, k, npoints, &l->es.budget, max);
			refused = true;
			break;
		}
		/* (within: its budget was what is left) */
		spend(left, &l->es.budget, 0);
		/* a point read with errors is no base: the sweep goes no further than validation */
		base = derive && sw->models[k] && d->nerrors == errors && !l->es.fatal ? (long)k : -1;
		if (base >= 0)
			dirty = xreallocarray(dirty, rec.nctx ? rec.nctx : 1, sizeof *dirty);
		sw->eval_s[k] = monotime() - t;
		if (sw->models[k] == NULL && l->es.fatal)
			break;
	}
	d->prefix = prefix;
	sw->expanded_nodes = max[EV_OVER_NODES] - left[EV_OVER_NODES];
	sw->expanded_events = max[EV_OVER_EVENTS] - left[EV_OVER_EVENTS];
	sw->expanded_text = max[EV_OVER_TEXT] - left[EV_OVER_TEXT];
	ev_rec_free(&rec);
	free(dirty);
	/* derived models may need a point read in full again (sweep_reload) */
	if (derived)
		sw->src = src;
	else
		sweep_src_free(src);
	if (refused || sw->models[0] == NULL) {
		template_sweep_free(sw);
		return NULL;
	}
	return sw;
}

