/*
 * --dot: the driver's own DOT (cuGraphDebugDotPrint), read back through
 * libcgraph and annotated with what only cugraphrun knows.
 *
 * The driver names its clusters "cluster_G" after an internal graph number
 * and its nodes "graph_G_node_I", I counting the nodes of graph G in
 * creation order, which the builder recorded (struct built_graph).  Child
 * graph and conditional nodes name their bodies in their labels
 * ("graph_3", "{True | graph_4}", "{0| graph_7}", in body order).  So,
 * from the root cluster (the one no label names), each driver node gets
 * its YAML id and position, each body cluster its owner, and an edge from
 * the owner to the cluster, drawn with lhead.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <graphviz/cgraph.h>

#include "fileio.h"
#include "gpu_dot.h"
#include "strbuf.h"
#include "xmalloc.h"

/* libcgraph 2.42 takes char * for what it only reads: the casts live here. */
static void cg_set(void *obj, const char *attr, const char *value)
{
	agsafeset(obj, (char *)attr, (char *)value, (char *)"");
}

static const char *cg_get(void *obj, const char *attr)
{
	const char *v = agget(obj, (char *)attr);
	return v ? v : "";
}

static Agnode_t *cg_node(Agraph_t *g, const char *name, int create)
{
	return agnode(g, (char *)name, create);
}

static Agraph_t *cg_subg(Agraph_t *g, const char *name, int create)
{
	return agsubg(g, (char *)name, create);
}

/* The driver graph numbers a label names ("graph_12"), in order; at most max. */
static size_t label_graphs(const char *label, unsigned *out, size_t max)
{
	size_t n = 0;
	for (const char *p = label; n < max && (p = strstr(p, "graph_")) != NULL; p += 6) {
		if (p > label && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') ||
				  (p[-1] >= 'A' && p[-1] <= 'Z') || (p[-1] >= '0' && p[-1] <= '9')))
			continue;
		char *end;
		unsigned long v = strtoul(p + 6, &end, 10);
		if (end == p + 6 || *end == '_')
			continue;
		out[n++] = (unsigned)v;
	}
	return n;
}

/* A YAML id made safe inside a record label. */
static char *record_escape(const char *s)
{
	char *out = xmalloc(2 * strlen(s) + 1), *o = out;
	for (; *s; s++) {
		if (strchr("{}|<>\\ ", *s))
			*o++ = '\\';
		*o++ = *s;
	}
	*o = '\0';
	return out;
}

struct annot {
	Agraph_t *dg;
	const struct gpu *gp;
};

/* The first node of cluster gid, or a point made for an empty one. */
static Agnode_t *cluster_anchor(struct annot *a, unsigned gid)
{
	char name[64];
	snprintf(name, sizeof name, "graph_%u_node_0", gid);
	Agnode_t *n = cg_node(a->dg, name, 0);
	if (n)
		return n;
	snprintf(name, sizeof name, "cluster_%u", gid);
	Agraph_t *sub = cg_subg(a->dg, name, 1);
	snprintf(name, sizeof name, "graph_%u_empty", gid);
	n = cg_node(sub, name, 1);
	cg_set(n, "shape", "point");
	cg_set(n, "label", "");
	return n;
}

/* What a body is to its owner: "then", "case 2", "body", "child graph". */
static void body_words(const struct node *owner, size_t b, char *buf, size_t len)
{
	switch (owner->kind) {
	case NK_IF:
		snprintf(buf, len, "%s", b == 0 ? "then" : "else");
		break;
	case NK_SWITCH:
		snprintf(buf, len, "case %zu", b);
		break;
	case NK_WHILE:
		snprintf(buf, len, "body");
		break;
	default:
		snprintf(buf, len, "child graph");
		break;
	}
}

static void annotate_graph(struct annot *a, unsigned gid, const struct graph *gr,
			   const struct node *owner, size_t body);

/* Link owner's driver node to the cluster of body b and annotate it. */
static void link_body(struct annot *a, Agnode_t *from, unsigned gid, const struct node *owner,
		      size_t b, const struct graph *body)
{
	annotate_graph(a, gid, body, owner, b);
	Agnode_t *to = cluster_anchor(a, gid);
	Agedge_t *e = agedge(a->dg, from, to, NULL, 1);
	char words[32], lhead[32];
	body_words(owner, b, words, sizeof words);
	snprintf(lhead, sizeof lhead, "cluster_%u", gid);
	cg_set(e, "lhead", lhead);
	cg_set(e, "style", "dashed");
	cg_set(e, "label", words);
}

/* sb, with the ", " before a list's item but the first. */
static struct strbuf *item(struct strbuf *sb)
{
	if (sb->len)
		strbuf_add(sb, ", ", 2);
	return sb;
}

/*
 * What the file asked of a node beyond the driver's parameters, in words,
 * into the empty sb: "switched off", its launch attributes ("cluster
 * 4x1x1, cooperative").  Empty when nothing.
 */
static void node_extras(const struct gpu *gp, const struct node *n, struct strbuf *l)
{
	if (n->disabled)
		strbuf_add(item(l), "switched off", strlen("switched off"));
	const struct kernel_attrs *at = kernel_attrs_of(gp->g, n);
	for (int k = 0; at && k < KATTR_COUNT; k++) {
		if (!kattr_set(at, (enum kattr)k))
			continue;
		switch ((enum kattr)k) {
		case KATTR_CLUSTER:
			strbuf_printf(item(l), "cluster %ux%ux%u", at->cluster[0],
				      at->cluster[1], at->cluster[2]);
			break;
		case KATTR_PREFERRED_CLUSTER:
			strbuf_printf(item(l), "preferred_cluster %ux%ux%u",
				      at->preferred_cluster[0], at->preferred_cluster[1],
				      at->preferred_cluster[2]);
			break;
		case KATTR_CLUSTER_SCHEDULING:
			strbuf_printf(item(l), "cluster_scheduling %s",
				      cluster_scheduling_names[at->cluster_scheduling]);
			break;
		case KATTR_DOMAIN:
			strbuf_printf(item(l), "mem_sync_domain %s", sync_domain_names[at->domain]);
			break;
		case KATTR_CARVEOUT:
			strbuf_printf(item(l), "carveout %d", at->carveout);
			break;
		case KATTR_ACCESS_POLICY:
			strbuf_printf(item(l), "access_policy %s %s", at->window.buffer.name,
				      access_prop_names[at->window.hit]);
			break;
		default:
			strbuf_printf(item(l), "%s", kattr_names[k]);
			break;
		}
	}
}

/* The YAML id in front of the driver's label, and what else the file asked of the node. */
static void label_node(struct annot *a, Agnode_t *dn, const struct node *n)
{
	const char *old = cg_get(dn, "label");
	struct strbuf sb = {0};
	node_extras(a->gp, n, &sb);
	const char *extras = sb.buf ? sb.buf : "";
	char *label;
	if (strcmp(cg_get(dn, "shape"), "record") == 0 && old[0] == '{') {
		char *id = record_escape(n->id), *ex = record_escape(extras);
		size_t ol = strlen(old);
		/* "{id|driver fields|extras}" */
		if (extras[0] && ol >= 2 && old[ol - 1] == '}')
			label = xasprintf("{%s|%.*s|%s}", id, (int)(ol - 2), old + 1, ex);
		else
			label = xasprintf("{%s|%s", id, old + 1);
		free(id);
		free(ex);
	} else {
		label = xasprintf("%s\n%s%s%s", n->id, old, extras[0] ? "\n" : "", extras);
	}
	cg_set(dn, "label", label);
	free(label);
	if (n->disabled)
		cg_set(dn, "style", "dashed");
	char *tip = xasprintf("%s %s at %s:%u:%u%s%s", node_kind_names[n->kind], n->id,
			      a->gp->g->file, n->pos.line, n->pos.col, extras[0] ? "; " : "", extras);
	cg_set(dn, "tooltip", tip);
	free(tip);
	strbuf_free(&sb);
}

/* Edge data beside the driver's edges: dashed, labelled with the port and type. */
static void label_typed(struct annot *a, unsigned gid, const struct graph *gr,
			const struct built_graph *bg)
{
	for (size_t t = 0; t < gr->ntyped; t++) {
		const struct typed_edge *te = &gr->typed[t];
		if (te->from_local < 0 || (te->port == PORT_DEFAULT && te->type == ETYPE_DEFAULT))
			continue;
		const struct node *from = gr->nodes[te->from_local], *to = gr->nodes[te->to_local];
		long fi = -1, ti = -1;
		for (size_t i = 0; i < bg->ncreated; i++) {
			if (bg->created[i] == from)
				fi = (long)i;
			if (bg->created[i] == to)
				ti = (long)i;
		}
		char name[64];
		snprintf(name, sizeof name, "graph_%u_node_%ld", gid, fi);
		Agnode_t *tail = fi >= 0 ? cg_node(a->dg, name, 0) : NULL;
		snprintf(name, sizeof name, "graph_%u_node_%ld", gid, ti);
		Agnode_t *head = ti >= 0 ? cg_node(a->dg, name, 0) : NULL;
		Agedge_t *e = tail && head ? agedge(a->dg, tail, head, NULL, 0) : NULL;
		if (e == NULL)
			continue;
		char *label = xasprintf("port %s, type %s", edge_port_names[te->port],
					edge_type_names[te->type]);
		cg_set(e, "label", label);
		cg_set(e, "style", "dashed");
		free(label);
	}
}

static void annotate_graph(struct annot *a, unsigned gid, const struct graph *gr,
			   const struct node *owner, size_t body)
{
	const struct built_graph *bg = gpu_built_of(a->gp, gr);
	char name[64];
	snprintf(name, sizeof name, "cluster_%u", gid);
	Agraph_t *sub = cg_subg(a->dg, name, 0);
	if (sub) {
		char *label;
		if (owner) {
			char words[32];
			body_words(owner, body, words, sizeof words);
			label = xasprintf("graph_%u: %s of '%s'", gid, words, owner->id);
		} else {
			const char *title = a->gp->g->name ? a->gp->g->name : a->gp->g->file;
			label = xasprintf("graph_%u: %s", gid, title);
		}
		cg_set(sub, "label", label);
		free(label);
	}
	if (bg == NULL)
		return;
	for (size_t i = 0; i < bg->ncreated; i++) {
		const struct node *n = bg->created[i];
		snprintf(name, sizeof name, "graph_%u_node_%zu", gid, i);
		Agnode_t *dn = cg_node(a->dg, name, 0);
		if (dn == NULL) {
			warnx_("--dot: the driver's DOT has no node %s (for '%s'); "
			       "left as the driver wrote it", name, n->id);
			return;
		}
		unsigned bodies[256];
		size_t nb = label_graphs(cg_get(dn, "label"), bodies, 256);
		label_node(a, dn, n);
		if (n->kind == NK_GRAPH && nb >= 1) {
			link_body(a, dn, bodies[0], n, 0, n->u.child);
		} else if (node_kind_is_conditional(n->kind)) {
			for (size_t b = 0; b < n->u.cond.nbodies && b < nb; b++)
				link_body(a, dn, bodies[b], n, b, n->u.cond.bodies[b]);
		}
	}
	label_typed(a, gid, gr, bg);
}

/* The root cluster: the lowest-numbered one that no node label names. */
static bool find_root(Agraph_t *dg, unsigned *root)
{
	size_t nref = 0, capref = 0;
	unsigned *refs = NULL;
	for (Agnode_t *n = agfstnode(dg); n; n = agnxtnode(dg, n)) {
		unsigned ids[256];
		size_t k = label_graphs(cg_get(n, "label"), ids, 256);
		for (size_t i = 0; i < k; i++)
			*VEC_PUSH(refs, nref, capref) = ids[i];
	}
	bool found = false;
	for (Agraph_t *s = agfstsubg(dg); s; s = agnxtsubg(s)) {
		unsigned gid;
		char tail;
		if (sscanf(agnameof(s), "cluster_%u%c", &gid, &tail) != 1)
			continue;
		bool named = false;
		for (size_t i = 0; i < nref && !named; i++)
			named = refs[i] == gid;
		if (!named && (!found || gid < *root)) {
			*root = gid;
			found = true;
		}
	}
	free(refs);
	return found;
}

int gpu_dot_annotate(const char *from, const char *path, const struct gpu *gp)
{
	FILE *f = fopen(from, "r");
	if (f == NULL) {
		errorx("cannot read the driver's DOT back from %s: %m", from);
		return -1;
	}
	Agraph_t *dg = agread(f, NULL);
	fclose(f);
	if (dg == NULL) {
		errorx("cannot parse the driver's DOT for %s", path);
		return -1;
	}
	unsigned root;
	struct annot a = {dg, gp};
	if (find_root(dg, &root)) {
		cg_set(dg, "compound", "true");
		annotate_graph(&a, root, gp->g->root, NULL, 0);
	} else {
		warnx_("--dot: no root graph found in the driver's DOT; left as written");
	}
	f = output_open(path);
	int rc = f ? output_close(f, path, agwrite(dg, f) == 0 ? OUTPUT_OK : OUTPUT_FAILED) : 2;
	agclose(dg);
	return rc ? -1 : 0;
}

int gpu_dot_write(const struct gpu *gp, const char *path, unsigned flags)
{
	/* the driver writes a file of its own, read back: --dot's is written whole */
	char *tmp = scratch_file();
	if (tmp == NULL)
		return 2;
	CUresult r = cu.GraphDebugDotPrint(gp->root, tmp, flags);
	int rc = r == CUDA_SUCCESS ? gpu_dot_annotate(tmp, path, gp) : 0;
	unlink(tmp);
	free(tmp);
	if (r != CUDA_SUCCESS) {
		errorx("cannot write %s: %s", path, cu_strerror(r));
		return 2;
	}
	return rc != 0 ? 2 : 0;
}
