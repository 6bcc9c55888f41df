/*
 * A model as text (model_dump.h).  Field by field as model.h declares
 * them: a field added there belongs here too, or the comparison of
 * derived models with full readings cannot see it.
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "model_dump.h"
#include "model_lib.h"
#include "strmap.h"

static void pos(FILE *out, const char *what, struct pos p)
{
	fprintf(out, " %s@%u:%u", what, p.line, p.col);
}

static void str(FILE *out, const char *what, const char *s)
{
	if (s)
		fprintf(out, " %s=\"%s\"", what, s);
	else
		fprintf(out, " %s=null", what);
}

static void num(FILE *out, const char *what, const struct num *n)
{
	uint64_t bits;
	memcpy(&bits, &n->f, sizeof bits);
	fprintf(out, " %s=%d:%" PRIx64, what, (int)n->kind,
		n->kind == NUM_FLOAT ? bits : n->kind == NUM_INT ? (uint64_t)n->i : n->u);
	pos(out, "", n->pos);
}

static void dbl(FILE *out, const char *what, double x)
{
	uint64_t bits;
	memcpy(&bits, &x, sizeof bits);
	fprintf(out, " %s=%.17g/%" PRIx64, what, x, bits);
}

static void ref(FILE *out, const char *what, const struct name_ref *r)
{
	fprintf(out, " %s=", what);
	if (r->name)
		fprintf(out, "\"%s\"", r->name);
	else
		fprintf(out, "null");
	fprintf(out, "#%ld@%u:%u", r->idx, r->pos.line, r->pos.col);
}

static void axes(FILE *out, const char *what, const struct axes *a)
{
	fprintf(out, " %s=%u:[%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]", what, a->n, a->v[0], a->v[1],
		a->v[2]);
	pos(out, "", a->pos);
}

/* A region as written and as the validator resolved it, or "region=null". */
static void region(FILE *out, const struct region *r)
{
	if (r == NULL) {
		fprintf(out, " region=null");
		return;
	}
	axes(out, "at0", &r->at[0]);
	axes(out, "at1", &r->at[1]);
	axes(out, "shape", &r->shape);
	for (int e = 0; e < 2; e++)
		fprintf(out, " first%d=%" PRIu64 ",%" PRIu64 ",%" PRIu64, e, r->first[e][0],
			r->first[e][1], r->first[e][2]);
	fprintf(out, " ext=%" PRIu64 ",%" PRIu64 ",%" PRIu64, r->ext[0], r->ext[1], r->ext[2]);
}

/* A node by where it stands (validated: its all_nodes index) and its id. */
static void node_name(FILE *out, const char *what, const struct node *n)
{
	if (n)
		fprintf(out, " %s=%u:\"%s\"", what, n->seq, n->id ? n->id : "");
	else
		fprintf(out, " %s=null", what);
}

static void args(FILE *out, const struct arg *a, size_t n, int depth)
{
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%*sarg %zu: kind=%d", depth * 2, "", i, (int)a[i].kind);
		pos(out, "", a[i].pos);
		switch (a[i].kind) {
		case ARG_BUFFER:
			ref(out, "ref", &a[i].ref);
			fprintf(out, " offset=%" PRIu64 " access=%d", a[i].offset, (int)a[i].access);
			break;
		case ARG_HANDLE:
		case ARG_PITCH:
			ref(out, "ref", &a[i].ref);
			break;
		case ARG_SCALAR:
			fprintf(out, " type=%d", (int)a[i].type);
			num(out, "num", &a[i].num);
			break;
		case ARG_BYTES:
			fprintf(out, " bytes=");
			for (size_t k = 0; k < a[i].nbytes; k++)
				fprintf(out, "%02x", a[i].bytes[k]);
			break;
		case ARG_STRUCT:
			fprintf(out, " fields=%zu\n", a[i].nfields);
			args(out, a[i].fields, a[i].nfields, depth + 1);
			continue;
		}
		fputc('\n', out);
	}
}

static void graph(FILE *out, const struct graph *gr, int depth);

static void opnd(FILE *out, const char *what, const struct lib_operand *o)
{
	ref(out, what, &o->buffer);
	fprintf(out, "+%" PRIu64, o->offset);
	pos(out, "", o->offset_pos);
}

static void blas(FILE *out, const struct blas_call *c)
{
	fprintf(out, " op=%u letter=%d", c->op, c->letter);
	str(out, "routine", c->routine);
	pos(out, "", c->op_pos);
	fprintf(out, " trans=%u,%u/%u", c->trans[0], c->trans[1], c->trans_set);
	pos(out, "", c->trans_pos[0]);
	pos(out, "", c->trans_pos[1]);
	fprintf(out, " ints=%u", c->ints_set);
	for (int i = 0; i < BI_COUNT; i++) {
		fprintf(out, " %s=%" PRId64 "/%" PRId64, blas_int_names[i], c->ints[i], c->use[i]);
		pos(out, "", c->int_pos[i]);
	}
	for (int o = 0; o < OPND_COUNT; o++) {
		opnd(out, blas_opnd_names[o], &c->opnd[o]);
		fprintf(out, ":%u", c->type[o]);
	}
	for (int s = 0; s < SC_COUNT; s++) {
		const struct lib_scalar *sc = &c->scalar[s];
		fprintf(out, " %s=%d/%d", blas_scal_names[s], sc->given, sc->device);
		num(out, "", &sc->value);
		opnd(out, "", &sc->opnd);
		pos(out, "", sc->pos);
	}
	fprintf(out, " compute=%d/%u/%u math=%d/%u valid=%d device=%d scale=%u exec=%u",
		c->has_compute, c->compute, c->compute_used, c->has_math, c->math, c->valid,
		c->device_mode, c->scale_type, c->exec_type);
	pos(out, "compute", c->compute_pos);
	pos(out, "math", c->math_pos);
}

static void fft(FILE *out, const struct fft_call *f)
{
	fprintf(out, " type=%d/%u rank=%u n=%" PRId64 ",%" PRId64 ",%" PRId64, f->has_type,
		f->type, f->rank, f->n[0], f->n[1], f->n[2]);
	pos(out, "type", f->type_pos);
	pos(out, "n", f->n_pos);
	fprintf(out, " inembed=%u:%" PRId64 ",%" PRId64 ",%" PRId64 " onembed=%u:%" PRId64 ",%"
		PRId64 ",%" PRId64, f->inembed_rank, f->inembed[0], f->inembed[1], f->inembed[2],
		f->onembed_rank, f->onembed[0], f->onembed[1], f->onembed[2]);
	pos(out, "inembed", f->inembed_pos);
	pos(out, "onembed", f->onembed_pos);
	fprintf(out, " ints=%u", f->ints_set);
	for (int i = 0; i < FI_COUNT; i++) {
		fprintf(out, " %s=%" PRId64, fft_int_names[i], f->ints[i]);
		pos(out, "", f->int_pos[i]);
	}
	opnd(out, "idata", &f->idata);
	opnd(out, "odata", &f->odata);
	fprintf(out, " direction=%d/%u", f->has_direction, f->direction);
	pos(out, "", f->direction_pos);
	fprintf(out, " valid=%d layout=%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
		" elems=%" PRIu64 ",%" PRIu64 " real=%u", f->valid, f->batch, f->istride, f->idist,
		f->ostride, f->odist, f->in_elems, f->out_elems, f->real_type);
}

static void node(FILE *out, const struct node *n, int depth)
{
	int ind = depth * 2;
	fprintf(out, "%*snode kind=%d", ind, "", (int)n->kind);
	str(out, "id", n->id);
	pos(out, "pos", n->pos);
	pos(out, "id", n->id_pos);
	pos(out, "kind", n->kind_pos);
	fprintf(out, " given=%d first=%d disabled=%d dynamic=%d where=%u local=%u top=%u "
		"seq=%u graph_owner=", n->id_given, n->id_first, n->disabled, n->dynamic,
		n->where, n->local, n->top, n->seq);
	if (n->graph && n->graph->owner)
		fprintf(out, "%u/%u", n->graph->owner->seq, n->graph->body_index);
	else
		fprintf(out, "root");
	fputc('\n', out);
	fprintf(out, "%*s after:", ind, "");
	for (uint32_t i = 0; i < n->nafter; i++)
		ref(out, "", &n->after[i]);
	fprintf(out, "\n%*s deps (%u, cap %u):", ind, "", n->ndeps, n->capdeps);
	for (uint32_t i = 0; i < n->ndeps; i++)
		fprintf(out, " %zu", n->deps[i]);
	fputc('\n', out);
	fprintf(out, "%*s ", ind, "");
	switch (n->kind) {
	case NK_KERNEL: {
		const struct kernel_node *k = &n->u.kernel;
		str(out, "function", k->function);
		pos(out, "function", k->function_pos);
		ref(out, "module", &k->module);
		str(out, "func", k->func);
		fprintf(out, " grid=%u,%u,%u block=%u,%u,%u shared=%" PRIu64, k->grid[0],
			k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2], k->shared);
		pos(out, "grid", k->grid_pos);
		pos(out, "block", k->block_pos);
		pos(out, "shared", k->shared_pos);
		pos(out, "args", k->args_pos);
		fprintf(out, " priority=%d/%d updatable=%d attrs=%d nargs=%zu", k->has_priority,
			k->priority, k->device_updatable, k->has_attrs, k->nargs);
		pos(out, "priority", k->priority_pos);
		fputc('\n', out);
		args(out, k->args, k->nargs, depth + 1);
		return;
	}
	case NK_MEMSET: {
		const struct memset_node *m = &n->u.memset;
		ref(out, "buffer", &m->buffer);
		num(out, "value", &m->value);
		fprintf(out, " offset=%" PRIu64 " count=%d/%" PRIu64, m->offset, m->has_count,
			m->count);
		pos(out, "offset", m->offset_pos);
		pos(out, "count", m->count_pos);
		region(out, m->region);
		break;
	}
	case NK_COPY: {
		const struct copy_node *c = &n->u.copy;
		ref(out, "from", &c->from.buffer);
		fprintf(out, " +%" PRIu64, c->from.offset);
		pos(out, "", c->from.offset_pos);
		ref(out, "to", &c->to.buffer);
		fprintf(out, " +%" PRIu64, c->to.offset);
		pos(out, "", c->to.offset_pos);
		fprintf(out, " count=%d/%" PRIu64 " bytes=%" PRIu64, c->has_count, c->count,
			c->bytes);
		pos(out, "count", c->count_pos);
		region(out, c->region);
		break;
	}
	case NK_GRAPH:
		fputc('\n', out);
		if (n->u.child)
			graph(out, n->u.child, depth + 1);
		return;
	case NK_ALLOC:
	case NK_FREE:
		ref(out, "buffer", &n->u.buffer);
		break;
	case NK_EVENT_RECORD:
	case NK_EVENT_WAIT:
		ref(out, "event", &n->u.event);
		break;
	case NK_HOST:
		fprintf(out, " action=%d", (int)n->u.host.action);
		str(out, "text", n->u.host.text);
		fprintf(out, " sleep=%" PRIu64, n->u.host.sleep_ns);
		ref(out, "buffer", &n->u.host.buffer);
		fprintf(out, " every=%d slice=%" PRIu64 "+%d/%" PRIu64, n->u.host.every,
			n->u.host.offset, n->u.host.has_count, n->u.host.count);
		region(out, n->u.host.region);
		if (n->u.host.set) {
			const struct memset_node *m = n->u.host.set;
			ref(out, "set", &m->buffer);
			num(out, "value", &m->value);
			fprintf(out, " +%" PRIu64 " count=%d/%" PRIu64, m->offset, m->has_count,
				m->count);
			region(out, m->region);
		}
		if (n->u.host.copy) {
			const struct copy_node *c = n->u.host.copy;
			ref(out, "copy", &c->from.buffer);
			ref(out, "to", &c->to.buffer);
			fprintf(out, " count=%d/%" PRIu64 " bytes=%" PRIu64, c->has_count, c->count,
				c->bytes);
			region(out, c->region);
		}
		if (n->u.host.fn) {
			const struct host_fn *f = n->u.host.fn;
			str(out, "library", f->library);
			str(out, "path", f->path);
			str(out, "function", f->function);
			str(out, "arg", f->arg);
			for (size_t i = 0; i < f->nbuffers; i++)
				ref(out, "buffer", &f->buffers[i]);
		}
		break;
	case NK_IF:
	case NK_WHILE:
	case NK_SWITCH:
		ref(out, "condition", &n->u.cond.condition);
		fprintf(out, " bodies=%zu\n", n->u.cond.nbodies);
		for (size_t b = 0; b < n->u.cond.nbodies; b++)
			if (n->u.cond.bodies[b])
				graph(out, n->u.cond.bodies[b], depth + 1);
			else
				fprintf(out, "%*s(no body)\n", ind + 2, "");
		return;
	case NK_MEMOP:
		fprintf(out, " ops=%zu\n", n->u.memop.nops);
		for (size_t i = 0; i < n->u.memop.nops; i++) {
			const struct memop *op = &n->u.memop.ops[i];
			fprintf(out, "%*s op kind=%d", ind, "", (int)op->kind);
			pos(out, "", op->pos);
			ref(out, "buffer", &op->buffer);
			fprintf(out, " offset=%" PRIu64, op->offset);
			pos(out, "offset", op->offset_pos);
			num(out, "value", &op->value);
			fprintf(out, " has_value=%d compare=%u", op->has_value, op->compare);
			pos(out, "compare", op->compare_pos);
			fprintf(out, " flush=%d", op->flush);
			pos(out, "flush", op->flush_pos);
			fprintf(out, " scope=%u bits=%u\n", op->scope, op->bits);
		}
		return;
	case NK_CUBLAS:
		if (n->u.blas)
			blas(out, n->u.blas);
		break;
	case NK_CUFFT:
		if (n->u.fft)
			fft(out, n->u.fft);
		break;
	case NK_EMPTY:
	case NK_COUNT:
		break;
	}
	fputc('\n', out);
}

static void graph(FILE *out, const struct graph *gr, int depth)
{
	int ind = depth * 2;
	fprintf(out, "%*sgraph nodes=%zu edges=%zu typed=%zu chain=%d nodes_own=%d body=%u "
		"deps_set=%d", ind, "", gr->nnodes, gr->nedges, gr->ntyped, gr->chain,
		gr->nodes_own, gr->body_index, gr->deps_set);
	pos(out, "", gr->pos);
	node_name(out, "owner", gr->owner);
	fprintf(out, " parent_owner=");
	if (gr->parent && gr->parent->owner)
		fprintf(out, "%u", gr->parent->owner->seq);
	else
		fprintf(out, gr->parent ? "root" : "none");
	fprintf(out, "\n%*s topo:", ind, "");
	for (size_t i = 0; gr->topo && i < gr->nnodes; i++)
		fprintf(out, " %zu", gr->topo[i]);
	fprintf(out, "\n%*s seq:", ind, "");
	for (size_t i = 0; gr->seq && i < gr->nnodes; i++)
		fprintf(out, " %zu", gr->seq[i]);
	fputc('\n', out);
	for (size_t i = 0; i < gr->nedges; i++) {
		fprintf(out, "%*s edge", ind, "");
		ref(out, "from", &gr->edges[i].from);
		ref(out, "to", &gr->edges[i].to);
		pos(out, "", gr->edges[i].pos);
		fputc('\n', out);
	}
	for (size_t i = 0; i < gr->ntyped; i++) {
		const struct typed_edge *t = &gr->typed[i];
		fprintf(out, "%*s typed", ind, "");
		node_name(out, "to", t->to);
		fprintf(out, " index=%u port=%u type=%u from_local=%ld to_local=%ld", t->index,
			t->port, t->type, t->from_local, t->to_local);
		pos(out, "", t->pos);
		pos(out, "port", t->port_pos);
		pos(out, "type", t->type_pos);
		fputc('\n', out);
	}
	for (size_t i = 0; i < gr->nnodes; i++)
		node(out, gr->nodes[i], depth + 1);
}

static void init(FILE *out, const struct init *in)
{
	fprintf(out, "  init kind=%d", (int)in->kind);
	pos(out, "", in->pos);
	num(out, "scalar", &in->scalar);
	num(out, "start", &in->start);
	num(out, "step", &in->step);
	fprintf(out, " seed=%" PRIu64, in->seed);
	num(out, "min", &in->min);
	num(out, "max", &in->max);
	str(out, "file", in->file);
	str(out, "path", in->path);
	pos(out, "file", in->file_pos);
	str(out, "formula", in->formula.text);
	pos(out, "formula", in->formula.pos);
	fprintf(out, " list=%zu:", in->nlist);
	for (size_t i = 0; i < in->nlist; i++)
		num(out, "", &in->list[i]);
	fputc('\n', out);
}

/* A lookup of the validator's, by every name it should hold. */
static void lookup(FILE *out, const char *what, const struct strmap *m, const char *name)
{
	if (m && name)
		fprintf(out, " %s[%s]=%ld", what, name, strmap_get(m, name));
}

void gdef_dump(const struct gdef *g, FILE *out)
{
	fprintf(out, "gdef version=%d", g->version);
	str(out, "file", g->file);
	str(out, "dir", g->dir);
	str(out, "name", g->name);
	str(out, "description", g->description);
	fputc('\n', out);
	for (size_t i = 0; i < g->nmodules; i++) {
		const struct module *m = &g->modules[i];
		fprintf(out, "module");
		str(out, "name", m->name);
		pos(out, "", m->pos);
		str(out, "file", m->file);
		pos(out, "file", m->file_pos);
		str(out, "path", m->path);
		fprintf(out, " builtin=%d source=%d dynamic=%d", m->builtin, m->source, m->dynamic);
		str(out, "std", m->std);
		pos(out, "defines", m->defines_pos);
		pos(out, "includes", m->includes_pos);
		pos(out, "options", m->options_pos);
		pos(out, "std", m->std_pos);
		for (size_t k = 0; k < m->ndefines; k++) {
			str(out, " define", m->defines[k].name);
			str(out, "=", m->defines[k].value);
			pos(out, "", m->defines[k].pos);
		}
		for (size_t k = 0; k < m->nincludes; k++) {
			str(out, " include", m->includes[k].dir);
			str(out, "path", m->includes[k].path);
			pos(out, "", m->includes[k].pos);
		}
		for (size_t k = 0; k < m->noptions; k++) {
			str(out, " option", m->options[k].text);
			pos(out, "", m->options[k].pos);
		}
		lookup(out, "index", g->module_index, m->name);
		fputc('\n', out);
	}
	for (size_t i = 0; i < g->nbuffers; i++) {
		const struct buffer *b = &g->buffers[i];
		fprintf(out, "buffer");
		str(out, "name", b->name);
		pos(out, "", b->pos);
		fprintf(out, " type=%d count=%d/%" PRIu64 " size=%d/%" PRIu64 " memory=%d dynamic=%d",
			(int)b->type, b->has_count, b->count, b->has_size, b->size, (int)b->memory,
			b->dynamic);
		pos(out, "type", b->type_pos);
		pos(out, "count", b->count_pos);
		pos(out, "size", b->size_pos);
		pos(out, "memory", b->memory_pos);
		fprintf(out, " device=%d/%u bad=%d", b->has_device, b->device, b->bad);
		fprintf(out, " shape=%u:[%" PRIu64 ",%" PRIu64 ",%" PRIu64 "] pitch=%d/%d/%" PRIu64,
			b->shape.rank, b->shape.dim[0], b->shape.dim[1], b->shape.dim[2],
			b->shape.has_pitch, b->shape.pitch_auto, b->shape.pitch);
		pos(out, "shape", b->shape.pos);
		pos(out, "pitch", b->shape.pitch_pos);
		lookup(out, "index", g->buffer_index, b->name);
		fputc('\n', out);
		init(out, &b->init);
	}
	for (size_t i = 0; i < g->nevents; i++) {
		fprintf(out, "event");
		str(out, "name", g->events[i].name);
		pos(out, "", g->events[i].pos);
		lookup(out, "index", g->event_index, g->events[i].name);
		fputc('\n', out);
	}
	for (size_t i = 0; i < g->nconditions; i++) {
		const struct condition *c = &g->conditions[i];
		fprintf(out, "condition");
		str(out, "name", c->name);
		pos(out, "", c->pos);
		fprintf(out, " default=%d/%u user=%ld dynamic=%d", c->has_default, c->default_value,
			c->user, c->dynamic);
		pos(out, "default", c->default_pos);
		lookup(out, "index", g->condition_index, c->name);
		fputc('\n', out);
	}
	graph(out, g->root, 0);
	fprintf(out, "all_nodes=%zu:", g->nall_nodes);
	for (size_t i = 0; i < g->nall_nodes; i++) {
		node_name(out, "", g->all_nodes[i]);
		lookup(out, "index", g->node_index, g->all_nodes[i]->id);
	}
	fprintf(out, "\nnode_index=%zu\n", strmap_size(g->node_index));
	for (size_t i = 0; i < g->nchecks; i++) {
		const struct check *c = &g->checks[i];
		fprintf(out, "check");
		pos(out, "", c->pos);
		ref(out, "buffer", &c->buffer);
		fprintf(out, " expect=%d", (int)c->expect);
		pos(out, "expect", c->expect_pos);
		num(out, "scalar", &c->scalar);
		str(out, "file", c->file);
		str(out, "path", c->path);
		str(out, "formula", c->formula.text);
		pos(out, "formula", c->formula.pos);
		dbl(out, "rtol", c->rtol);
		dbl(out, "atol", c->atol);
		pos(out, "rtol", c->rtol_pos);
		pos(out, "atol", c->atol_pos);
		fprintf(out, " slice=%" PRIu64 "+%d/%" PRIu64 " kind=%d reduce=%d bad=%d",
			c->offset, c->has_count, c->count, (int)c->kind, (int)c->reduce, c->bad);
		region(out, c->region);
		ref(out, "ref", &c->ref);
		fprintf(out, " ref_offset=%" PRIu64, c->ref_offset);
		num(out, "differ", &c->differ_from);
		fprintf(out, " ops=%x", c->cmp.ops);
		dbl(out, "cmp_rtol", c->cmp.rtol);
		dbl(out, "cmp_atol", c->cmp.atol);
		for (int k = 0; k < BOUND_COUNT; k++)
			if (c->cmp.ops & (1u << k)) {
				num(out, "bound", &c->cmp.bound[k].value);
				ref(out, "bound_ref", &c->cmp.bound[k].ref);
				fprintf(out, " +%" PRIu64, c->cmp.bound[k].offset);
			}
		fprintf(out, " dynamic=%d list=%zu:", c->dynamic, c->nlist);
		for (size_t k = 0; k < c->nlist; k++)
			num(out, "", &c->list[k]);
		fputc('\n', out);
	}
	const struct run_defaults *r = &g->run;
	fprintf(out, "run repeat=%d/%u warmup=%d/%u timeout=%d/%" PRIu64 " device=%d/%d "
		"instantiate=%d/%u expect_fail=%d", r->has_repeat, r->repeat, r->has_warmup,
		r->warmup, r->has_timeout, r->timeout_ns, r->has_device, r->device,
		r->has_instantiate, r->instantiate, r->expect_fail);
	pos(out, "", r->pos);
	str(out, "skip", r->skip);
	fprintf(out, " persisting_l2=%d/%" PRIu64, r->has_persisting_l2, r->persisting_l2);
	pos(out, "persisting_l2", r->persisting_l2_pos);
	fprintf(out, " verify_launches=%d/%" PRIu32, r->has_verify_launches, r->verify_launches);
	fputc('\n', out);
	for (size_t i = 0; i < g->nkattrs; i++) {
		const struct kernel_attrs *a = g->kattrs[i];
		fprintf(out, "kattrs");
		node_name(out, "node", a->node);
		fprintf(out, " set=%x cluster=%u,%u,%u preferred=%u,%u,%u sched=%u domain=%u "
			"map=%u,%u coop=%d nvlink=%d non_portable=%d carveout=%d", a->set,
			a->cluster[0], a->cluster[1], a->cluster[2], a->preferred_cluster[0],
			a->preferred_cluster[1], a->preferred_cluster[2], a->cluster_scheduling,
			a->domain, a->domain_map[0], a->domain_map[1], a->cooperative,
			a->nvlink_centric, a->non_portable_cluster, a->carveout);
		for (int k = 0; k < KATTR_COUNT; k++)
			pos(out, "", a->pos[k]);
		const struct access_window *w = &a->window;
		ref(out, "window", &w->buffer);
		fprintf(out, " offset=%" PRIu64 " count=%d/%" PRIu64, w->offset, w->has_count,
			w->count);
		dbl(out, "hit_ratio", w->hit_ratio);
		fprintf(out, " hit=%u miss=%u", w->hit, w->miss);
		pos(out, "offset", w->offset_pos);
		pos(out, "count", w->count_pos);
		pos(out, "ratio", w->hit_ratio_pos);
		pos(out, "hit", w->hit_pos);
		pos(out, "miss", w->miss_pos);
		fputc('\n', out);
	}
	fprintf(out, "kattrs_of:");
	for (size_t i = 0; g->kattrs_of && i < g->nall_nodes; i++)
		if (g->kattrs_of[i])
			node_name(out, "", g->kattrs_of[i]->node);
	fputc('\n', out);
	for (size_t i = 0; i < g->noff; i++) {
		fprintf(out, "off");
		node_name(out, "node", g->off[i].node);
		pos(out, "", g->off[i].pos);
		fputc('\n', out);
	}
	const struct throughput_decl *t = &g->throughput;
	fprintf(out, "throughput bytes=%d", t->has_bytes);
	dbl(out, "", t->bytes);
	fprintf(out, " items=%d", t->has_items);
	dbl(out, "", t->items);
	fprintf(out, " flops=%d", t->has_flops);
	dbl(out, "", t->flops);
	fprintf(out, " flops_type=%d/%u", t->has_flops_type, t->flops_type);
	pos(out, "", t->flops_type_pos);
	pos(out, "", t->pos);
	fputc('\n', out);
}
