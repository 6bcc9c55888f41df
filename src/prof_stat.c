/*
 * Per-node statistics and the critical path of a profile (see prof_stat.h).
 *
 * The critical path is the longest path through the model graph where a
 * node weighs its GPU time per launch: a kernel, memset or copy its median
 * time per execution times its executions per launch; a child graph or a
 * conditional node the longest path through its heaviest body, weighed the
 * same way.  A WHILE body's nodes run once per iteration, so their time per
 * launch already holds every iteration, and iterations run one after the
 * other: the body's path is the loop's.  Empty, host, event and memory
 * nodes give no records and weigh nothing, but still link a path.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "describe.h"
#include "diag.h"
#include "prof_stat.h"
#include "json.h"
#include "stats.h"
#include "scalar.h"
#include "xmalloc.h"

const char *const prof_kind_names[PROF_KIND_COUNT] = {"kernel", "memset", "memcpy"};

bool prof_kind_is_device_work(enum node_kind k)
{
	/* a library node's records are those of the kernels its captured call launched */
	return k == NK_KERNEL || k == NK_MEMSET || k == NK_COPY || node_kind_is_library(k);
}

/* The summary while it is built. */
struct ctx {
	struct prof_summary *s;
};

/* A node's place in s->nodes: its all_nodes index, which the validator set. */
static size_t index_of(const struct ctx *c, const struct node *n)
{
	return n->seq < c->s->nnodes && c->s->nodes[n->seq].node == n ? n->seq : SIZE_MAX;
}

static double graph_longest(struct ctx *c, const struct graph *gr, size_t **path,
			    size_t *npath);

/* A node's weight on the critical path (see the top of the file). */
static double node_weight(struct ctx *c, const struct node *n)
{
	size_t i = index_of(c, n);
	if (i == SIZE_MAX)
		return 0;
	struct prof_node *pn = &c->s->nodes[i];
	if (pn->weight_done)
		return pn->weight;
	double w = 0;
	if (prof_kind_is_device_work(n->kind)) {
		w = pn->per_launch;
	} else if (n->kind == NK_GRAPH) {
		w = graph_longest(c, n->u.child, NULL, NULL);
	} else if (node_kind_is_conditional(n->kind)) {
		for (size_t b = 0; b < n->u.cond.nbodies; b++) {
			double bw = n->u.cond.bodies[b] ?
				graph_longest(c, n->u.cond.bodies[b], NULL, NULL) : 0;
			if (bw > w)
				w = bw;
		}
	}
	pn->weight = w;
	pn->weight_done = true;
	return w;
}

/*
 * The longest path through gr; with path, its nodes (indices into
 * gr->nodes, first to last) in a new array.  Among equal predecessors the
 * first listed wins, and a path runs on through nodes that weigh nothing,
 * to a sink and back to a source.
 */
static double graph_longest(struct ctx *c, const struct graph *gr, size_t **path,
			    size_t *npath)
{
	size_t n = gr->nnodes;
	if (path) {
		*path = NULL;
		*npath = 0;
	}
	if (n == 0)
		return 0;
	double *fin = xcalloc(n, sizeof *fin);
	size_t *prev = xcalloc(n, sizeof *prev);
	size_t end = SIZE_MAX;
	for (size_t t = 0; t < n; t++) {
		size_t k = gr->topo ? gr->topo[t] : t;
		const struct node *nd = gr->nodes[k];
		double best = -1;
		prev[k] = SIZE_MAX;
		for (uint32_t d = 0; d < nd->ndeps; d++)
			if (fin[nd->deps[d]] > best) {
				best = fin[nd->deps[d]];
				prev[k] = nd->deps[d];
			}
		fin[k] = (best > 0 ? best : 0) + node_weight(c, nd);
		if (end == SIZE_MAX || fin[k] >= fin[end])
			end = k;
	}
	double total = fin[end];
	if (path) {
		size_t len = 0;
		for (size_t k = end; k != SIZE_MAX; k = prev[k])
			len++;
		size_t *p = xcalloc(len, sizeof *p);
		size_t j = len;
		for (size_t k = end; k != SIZE_MAX; k = prev[k])
			p[--j] = k;
		*path = p;
		*npath = len;
	}
	free(fin);
	free(prev);
	return total;
}

/* The steps of gr's critical path at depth, each container followed by its body's. */
static void append_path(struct ctx *c, const struct graph *gr, unsigned depth)
{
	struct prof_summary *s = c->s;
	size_t *p, np;
	graph_longest(c, gr, &p, &np);
	for (size_t j = 0; j < np; j++) {
		const struct node *n = gr->nodes[p[j]];
		size_t i = index_of(c, n);
		if (i == SIZE_MAX)
			continue;
		struct prof_step *st = VEC_PUSH(s->path, s->npath, s->cappath);
		st->node = i;
		st->depth = depth;
		s->nodes[i].on_path = true;
		s->nodes[i].step = s->npath - 1;
		double w = node_weight(c, n);
		if (w <= 0)
			continue;
		if (n->kind == NK_GRAPH) {
			append_path(c, n->u.child, depth + 1);
		} else if (node_kind_is_conditional(n->kind)) {
			/* the heaviest body; the first of equals */
			const struct graph *best = NULL;
			double bw = -1;
			for (size_t b = 0; b < n->u.cond.nbodies; b++) {
				const struct graph *body = n->u.cond.bodies[b];
				double x = body ? graph_longest(c, body, NULL, NULL) : -1;
				if (x > bw) {
					bw = x;
					best = body;
				}
			}
			if (best)
				append_path(c, best, depth + 1);
		}
	}
	free(p);
}

struct prof_summary *prof_summarize(const struct gdef *g, const struct prof_rec *recs,
				    size_t nrecs, size_t launches, const double *launch_s,
				    bool has_plain, double plain_median)
{
	struct prof_summary *s = xcalloc(1, sizeof *s);
	s->g = g;
	s->launches = launches;
	s->launch_s = launch_s;
	s->has_plain = has_plain;
	s->plain_median = plain_median;
	s->records = nrecs;
	struct stats st;
	stats_compute(launch_s, launches, &st);
	s->launch_median = st.median;
	s->nnodes = g->nall_nodes;
	s->nodes = xcalloc(s->nnodes ? s->nnodes : 1, sizeof *s->nodes);
	struct ctx c = {s};
	for (size_t i = 0; i < s->nnodes; i++) {
		s->nodes[i].node = g->all_nodes[i];
		s->nodes[i].step = SIZE_MAX;
	}
	/* durations per node, in record order */
	size_t *where = xcalloc(nrecs ? nrecs : 1, sizeof *where);
	for (size_t r = 0; r < nrecs; r++) {
		where[r] = recs[r].node ? index_of(&c, recs[r].node) : SIZE_MAX;
		if (where[r] == SIZE_MAX)
			s->unmapped++;
		else
			s->nodes[where[r]].nexec++;
	}
	for (size_t i = 0; i < s->nnodes; i++) {
		struct prof_node *pn = &s->nodes[i];
		pn->durs = xcalloc(pn->nexec ? pn->nexec : 1, sizeof *pn->durs);
		pn->nexec = 0;
	}
	for (size_t r = 0; r < nrecs; r++) {
		if (where[r] == SIZE_MAX)
			continue;
		struct prof_node *pn = &s->nodes[where[r]];
		double d = recs[r].end_ns > recs[r].start_ns ?
			(double)(recs[r].end_ns - recs[r].start_ns) * 1e-9 : 0;
		pn->durs[pn->nexec++] = d;
	}
	free(where);
	for (size_t i = 0; i < s->nnodes; i++) {
		struct prof_node *pn = &s->nodes[i];
		if (pn->nexec) {
			struct stats ds;
			stats_compute(pn->durs, pn->nexec, &ds);
			pn->min = ds.min;
			pn->max = ds.max;
			pn->median = ds.median;
		}
		pn->execs_per_launch = launches ? (double)pn->nexec / (double)launches : 0;
		pn->per_launch = pn->median * pn->execs_per_launch;
		double ref = has_plain ? plain_median : s->launch_median;
		pn->share = ref > 0 ? pn->per_launch / ref : 0;
	}
	s->path_s = g->root ? graph_longest(&c, g->root, NULL, NULL) : 0;
	if (g->root)
		append_path(&c, g->root, 0);
	return s;
}

void prof_summary_free(struct prof_summary *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->nnodes; i++)
		free(s->nodes[i].durs);
	free(s->nodes);
	free(s->path);
	free(s);
}

const struct prof_node *prof_node_of(const struct prof_summary *s, const struct node *n)
{
	return n->seq < s->nnodes && s->nodes[n->seq].node == n ? &s->nodes[n->seq] : NULL;
}

/* Colour ----------------------------------------------------------------- */

void prof_colour(double share, char buf[8])
{
	/* ColorBrewer's YlOrRd, light to dark */
	static const unsigned char stops[][3] = {
		{0xff, 0xff, 0xcc}, {0xfe, 0xd9, 0x76}, {0xfd, 0x8d, 0x3c},
		{0xe3, 0x1a, 0x1c}, {0x80, 0x00, 0x26},
	};
	const size_t nstops = sizeof stops / sizeof *stops;
	if (!(share > 0))
		share = 0;
	if (share > 1)
		share = 1;
	double x = share * (double)(nstops - 1);
	size_t k = (size_t)x;
	if (k >= nstops - 1)
		k = nstops - 2;
	double f = x - (double)k;
	unsigned rgb[3];
	for (int j = 0; j < 3; j++)
		rgb[j] = (unsigned)lround(stops[k][j] + f * (stops[k + 1][j] - stops[k][j]));
	snprintf(buf, 8, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

static void format_runs(double v, char *buf, size_t len);

/* The median launch shares and the critical path are set against: the plain one when known. */
static double reference_median(const struct prof_summary *s)
{
	return s->has_plain ? s->plain_median : s->launch_median;
}

/* The coloured description ---------------------------------------------- */

bool prof_path_edge(const struct prof_summary *s, const struct node *from,
		    const struct node *to)
{
	const struct prof_node *a = prof_node_of(s, from), *b = prof_node_of(s, to);
	if (a == NULL || b == NULL || a->step == SIZE_MAX || b->step == SIZE_MAX ||
	    b->step <= a->step)
		return false;
	unsigned depth = s->path[a->step].depth;
	size_t k = a->step + 1;
	while (k < s->npath && s->path[k].depth > depth)
		k++;
	return k == b->step && s->path[k].depth == depth;
}

static bool overlay_mark(void *ctx, const struct node *n, struct describe_mark *out)
{
	struct prof_summary *s = ctx;
	const struct prof_node *pn = prof_node_of(s, n);
	if (pn == NULL)
		return false;
	char t[32];
	out->bold = pn->on_path;
	out->fill = NULL;
	out->note = NULL;
	double share = 0;
	if (prof_kind_is_device_work(n->kind) && pn->nexec) {
		format_duration(pn->median, t, sizeof t);
		if (pn->execs_per_launch == 1)
			snprintf(s->note, sizeof s->note, "%s", t);
		else {
			char runs[32];
			format_runs(pn->execs_per_launch, runs, sizeof runs);
			snprintf(s->note, sizeof s->note, "%s x %s", runs, t);
		}
		share = pn->share;
	} else if (!prof_kind_is_device_work(n->kind) && pn->weight > 0) {
		format_duration(pn->weight, t, sizeof t);
		snprintf(s->note, sizeof s->note, "%s per launch", t);
		double ref = reference_median(s);
		share = ref > 0 ? pn->weight / ref : 0;
	} else {
		return out->bold;
	}
	out->note = s->note;
	prof_colour(share, s->fill);
	out->fill = s->fill;
	return true;
}

static bool overlay_edge(void *ctx, const struct node *from, const struct node *to)
{
	return prof_path_edge(ctx, from, to);
}

void prof_overlay(struct prof_summary *s, struct describe_overlay *out)
{
	out->mark = overlay_mark;
	out->edge_bold = overlay_edge;
	out->ctx = s;
}

/* Printing --------------------------------------------------------------- */

/* "50" for whole numbers, "49.50" otherwise. */
static void format_runs(double v, char *buf, size_t len)
{
	if (v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

/*
 * The iterations a WHILE step's body ran per launch: the most of the
 * body's own device nodes on the path (depth + 1 only: a nested loop's
 * nodes run outer x inner times); NAN when the path holds none.
 */
static double step_iterations(const struct prof_summary *s, size_t j)
{
	double most = NAN;
	for (size_t k = j + 1; k < s->npath && s->path[k].depth > s->path[j].depth; k++) {
		const struct prof_node *pn = &s->nodes[s->path[k].node];
		if (s->path[k].depth == s->path[j].depth + 1 &&
		    prof_kind_is_device_work(pn->node->kind) &&
		    (isnan(most) || pn->execs_per_launch > most))
			most = pn->execs_per_launch;
	}
	return most;
}


void prof_print_human(FILE *out, const struct prof_summary *s)
{
	char a[32], b[32], c[32];
	format_duration(s->launch_median, a, sizeof a);
	fprintf(out, "  %-12s %zu launches with CUPTI: median %s", "profile", s->launches, a);
	if (s->has_plain && s->plain_median > 0) {
		format_duration(s->plain_median, b, sizeof b);
		fprintf(out, " (without: %s, %+.1f%%)", b,
			100 * (s->launch_median / s->plain_median - 1));
	}
	fputc('\n', out);

	size_t idw = 2;
	for (size_t i = 0; i < s->nnodes; i++)
		if (prof_kind_is_device_work(s->nodes[i].node->kind) &&
		    strlen(diag_esc(s->nodes[i].node->id)) > idw)
			idw = strlen(diag_esc(s->nodes[i].node->id));
	fprintf(out, "  %-12s GPU time per execution in us; share: GPU time per launch over the "
		"median launch%s\n", "nodes", s->has_plain ? "" : " (profiled)");
	/* a file on several devices: a column of the device each node runs on */
	bool devs = s->g->device_of != NULL;
	fprintf(out, "    %-*s  %-6s %s%6s %9s %9s %9s %7s\n", (int)idw, "id", "kind",
		devs ? "dev " : "", "runs", "median", "min", "max", "share");
	for (size_t i = 0; i < s->nnodes; i++) {
		const struct prof_node *pn = &s->nodes[i];
		if (!prof_kind_is_device_work(pn->node->kind))
			continue;
		/* a switched-off node ran 0 times by design: say why */
		if (pn->node->disabled)
			snprintf(a, sizeof a, "off");
		else
			format_runs(pn->execs_per_launch, a, sizeof a);
		fprintf(out, "    %-*s  %-6s ", (int)idw, diag_esc(pn->node->id),
			node_kind_names[pn->node->kind]);
		if (devs)
			fprintf(out, "%3u ", node_device(s->g, pn->node));
		fprintf(out, "%6s", a);
		if (pn->nexec)
			fprintf(out, " %9.2f %9.2f %9.2f %6.1f%%\n", pn->median * 1e6,
				pn->min * 1e6, pn->max * 1e6, 100 * pn->share);
		else
			fprintf(out, " %9s %9s %9s %7s\n", "-", "-", "-", "-");
	}
	if (s->unmapped)
		fprintf(out, "  %-12s %zu records of no node of the file\n", "unmapped", s->unmapped);
	if (s->dropped)
		fprintf(out, "  %-12s %llu records dropped by CUPTI: figures are incomplete\n",
			"dropped", (unsigned long long)s->dropped);
	if (s->incomplete)
		fprintf(out, "  %-12s %llu records without a start or an end left out: "
			"figures are incomplete\n", "incomplete", (unsigned long long)s->incomplete);

	fprintf(out, "  %-12s", "critical");
	unsigned depth = 0;
	for (size_t j = 0; j < s->npath; j++) {
		const struct prof_step *st = &s->path[j];
		for (; depth > st->depth; depth--)
			fputc(']', out);
		if (j > 0 && s->path[j - 1].depth >= st->depth)
			fputs(" ->", out);
		fprintf(out, " %s", diag_esc(s->nodes[st->node].node->id));
		if (j + 1 < s->npath && s->path[j + 1].depth > st->depth) {
			const struct node *n = s->nodes[st->node].node;
			fputs(" [", out);
			if (n->kind == NK_WHILE) {
				double it = step_iterations(s, j);
				if (isnan(it))
					snprintf(a, sizeof a, "?");
				else
					format_runs(it, a, sizeof a);
				fprintf(out, "%s x:", a);
			} else {
				fprintf(out, "%s:", node_kind_names[n->kind]);
			}
			depth = st->depth + 1;
		}
	}
	for (; depth > 0; depth--)
		fputc(']', out);
	if (s->npath == 0)
		fputs(" (no nodes)", out);
	fputc('\n', out);
	double ref = reference_median(s);
	format_duration(s->path_s, a, sizeof a);
	format_duration(ref, b, sizeof b);
	/* node times come from the profiled launches, ref may be the plain median */
	bool over = s->path_s > ref;
	format_duration(over ? s->path_s - ref : ref - s->path_s, c, sizeof c);
	if (over)
		fprintf(out, "  %-12s %s of GPU time on it, %s median launch%s: GPU time on the "
			"path exceeds the median launch by %s\n", "", a, b,
			s->has_plain ? "" : " (profiled)", c);
	else
		fprintf(out, "  %-12s %s of GPU time on it, %s median launch%s: %s launch "
			"overhead and idle gaps\n", "", a, b, s->has_plain ? "" : " (profiled)", c);
}

void prof_print_json(FILE *out, const struct prof_summary *s, int depth)
{
	int d = depth + 1;
	fputc('{', out);
	json_key(out, d, true, "launches");
	fprintf(out, "%zu", s->launches);
	json_key(out, d, false, "median_s");
	json_number(out, s->launches ? s->launch_median : NAN);
	json_key(out, d, false, "samples_s");
	putc('[', out);
	for (size_t i = 0; i < s->launches; i++) {
		if (i)
			fputs(", ", out);
		json_number(out, s->launch_s[i]);
	}
	putc(']', out);
	json_key(out, d, false, "plain_median_s");
	json_number(out, s->has_plain ? s->plain_median : NAN);
	json_key(out, d, false, "cost_ratio");
	json_number(out, s->has_plain && s->plain_median > 0 ?
		 s->launch_median / s->plain_median : NAN);
	json_key(out, d, false, "records");
	fprintf(out, "%zu", s->records);
	json_key(out, d, false, "unmapped_records");
	fprintf(out, "%zu", s->unmapped);
	json_key(out, d, false, "dropped_records");
	fprintf(out, "%llu", (unsigned long long)s->dropped);
	json_key(out, d, false, "incomplete_records");
	fprintf(out, "%llu", (unsigned long long)s->incomplete);

	json_key(out, d, false, "nodes");
	putc('[', out);
	bool first = true;
	for (size_t i = 0; i < s->nnodes; i++) {
		const struct prof_node *pn = &s->nodes[i];
		if (!prof_kind_is_device_work(pn->node->kind))
			continue;
		fprintf(out, "%s\n%*s{\"id\": ", first ? "" : ",", (d + 1) * 2, "");
		first = false;
		json_string(out, pn->node->id);
		fprintf(out, ", \"kind\": \"%s\", ", node_kind_names[pn->node->kind]);
		/* a file on several devices: the one the node runs on (cugraphrun(5), Devices) */
		if (s->g->device_of)
			fprintf(out, "\"device\": %u, ", node_device(s->g, pn->node));
		fputs("\"executions\": ", out);
		json_number(out, pn->execs_per_launch);
		fprintf(out, ", \"executions_total\": %zu", pn->nexec);
		static const char *const keys[] = {"median_s", "min_s", "max_s", "per_launch_s",
						   "share"};
		const double vals[] = {pn->median, pn->min, pn->max, pn->per_launch, pn->share};
		for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
			fprintf(out, ", \"%s\": ", keys[k]);
			json_number(out, pn->nexec || k >= 3 ? vals[k] : NAN);
		}
		fputs(", \"on_critical_path\": ", out);
		fputs(pn->on_path ? "true" : "false", out);
		fputs(", \"disabled\": ", out);
		fputs(pn->node->disabled ? "true" : "false", out);
		fputs(", \"durations_s\": [", out);
		for (size_t k = 0; k < pn->nexec; k++) {
			if (k)
				fputs(", ", out);
			json_number(out, pn->durs[k]);
		}
		fputs("]}", out);
	}
	if (!first)
		fprintf(out, "\n%*s", d * 2, "");
	putc(']', out);

	json_key(out, d, false, "critical_path");
	putc('{', out);
	double ref = reference_median(s);
	json_key(out, d + 1, true, "total_s");
	json_number(out, s->path_s);
	json_key(out, d + 1, false, "launch_median_s");
	json_number(out, ref);
	json_key(out, d + 1, false, "overhead_and_gaps_s");
	json_number(out, ref > s->path_s ? ref - s->path_s : 0);
	json_key(out, d + 1, false, "steps");
	putc('[', out);
	for (size_t j = 0; j < s->npath; j++) {
		const struct prof_node *pn = &s->nodes[s->path[j].node];
		fprintf(out, "%s\n%*s{\"id\": ", j ? "," : "", (d + 2) * 2, "");
		json_string(out, pn->node->id);
		fprintf(out, ", \"kind\": \"%s\", \"depth\": %u, \"time_s\": ",
			node_kind_names[pn->node->kind], s->path[j].depth);
		json_number(out, pn->weight);
		if (pn->node->kind == NK_WHILE) {
			fputs(", \"iterations\": ", out);
			json_number(out, step_iterations(s, j));
		}
		putc('}', out);
	}
	if (s->npath)
		fprintf(out, "\n%*s", (d + 1) * 2, "");
	fputs("]", out);
	fprintf(out, "\n%*s}", d * 2, "");
	fprintf(out, "\n%*s}", depth * 2, "");
}
