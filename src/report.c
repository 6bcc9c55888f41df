/*
 * The run report: statistics over the timed launches, printed for people
 * (the shape of cugraphrun(1)'s example) or as JSON for scripts.
 *
 * JSON report (--json), one object; keys are stable, times are in seconds
 * as numbers (%.9g); a number that is not finite is written as null:
 *
 *   cugraphrun         the program's version, a string ("0.1.0")
 *   report_format      1; raised when a key changes meaning or goes away
 *   name               the file's name: (a string), or null
 *   file               the YAML file as given on the command line
 *   device             null when no device was opened, else an object:
 *     ordinal            the device number (--device)
 *     name               as the driver reports it
 *     compute_capability "9.0"
 *     sm                 "sm_90"
 *     driver_version     as cuDriverGetVersion reports it (13000)
 *     driver             "13.0"
 *   graph              null when there is no graph, else an object:
 *     nodes              every node, nested ones included
 *     by_kind            {kind: count} over every node, nested ones
 *                        included; every kind of format 1 is present
 *     root_by_kind       {kind: count} over the root graph's own nodes
 *   phases             {load_s, build_s, instantiate_s, upload_s,
 *                      compile_s}: compile_s is null without source
 *                      modules, else the wall time of compiling them or
 *                      finding them in the cache
 *   compile            null without source modules, else {modules,
 *                      compiled, cached}: how many, and how each was had
 *   first_launch_s     the verification launch
 *   launch             the timed launches:
 *     repeat             how many (the number of samples)
 *     warmup             untimed launches before them
 *     median_s, min_s, mean_s, max_s
 *     stddev_s           sample standard deviation (n - 1)
 *                        (each of these five is null when repeat is 0)
 *     samples_s          every timed launch, in launch order
 *   events             [{from, to, seconds}]: elapsed time between
 *                      event_record nodes, in file order
 *   checks             {passed, failed}
 *   exit_status        the process's exit status (see EXIT STATUS)
 *   profile            only with --profile: see profstat.c and cugraphrun(1)
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prof_stat.h"
#include "report.h"
#include "scalar.h"
#include "utf8.h"
#include "xmalloc.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/*
 * The standard deviation is the sample one (divided by n - 1): the timed
 * launches are a sample of what the graph costs, not every launch there is.
 */
void stats_compute(const double *samples, size_t n, struct stats *out)
{
	memset(out, 0, sizeof *out);
	if (n == 0)
		return;
	double *s = xmalloc(n * sizeof *s);
	memcpy(s, samples, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_double);
	out->min = s[0];
	out->max = s[n - 1];
	out->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	out->mean = sum / (double)n;
	if (n > 1) {
		double ss = 0;
		for (size_t i = 0; i < n; i++)
			ss += (s[i] - out->mean) * (s[i] - out->mean);
		out->stddev = sqrt(ss / (double)(n - 1));
	}
	free(s);
}

/* Node kinds in the order they are first met, with their counts. */
struct tally {
	size_t counts[NK_COUNT];
	enum node_kind order[NK_COUNT];
	size_t norder;
	size_t total;
};

static void tally_add(struct tally *t, enum node_kind k)
{
	if (t->counts[k]++ == 0)
		t->order[t->norder++] = k;
	t->total++;
}

/* Every node of gr and, depth first in file order, everything nested in it. */
static void tally_graph(struct tally *t, const struct graph *gr)
{
	for (size_t i = 0; i < gr->nnodes; i++) {
		const struct node *n = gr->nodes[i];
		tally_add(t, n->kind);
		if (n->kind == NK_GRAPH)
			tally_graph(t, n->u.child);
		else if (node_kind_is_conditional(n->kind))
			for (size_t b = 0; b < n->u.cond.nbodies; b++)
				tally_graph(t, n->u.cond.bodies[b]);
	}
}

/* "2 kernel, 1 memset", or "no nodes". */
static void print_tally(FILE *out, const struct tally *t)
{
	if (t->norder == 0)
		fputs("no nodes", out);
	for (size_t i = 0; i < t->norder; i++)
		fprintf(out, "%s%zu %s", i ? ", " : "", t->counts[t->order[i]],
			node_kind_names[t->order[i]]);
}

/*
 * What the nodes of kind k in the root hold, in parentheses: "(2 kernel)"
 * for child graphs, "(body: ...)" for WHILE, "(then: ...; else: ...)" for
 * IF, "(4 cases: ...)" for SWITCH; all nodes of the kind together.
 */
static void print_bodies(FILE *out, const struct graph *root, enum node_kind k)
{
	struct tally first = {0}, second = {0};
	size_t nbodies = 0;
	bool has_else = false;
	for (size_t i = 0; i < root->nnodes; i++) {
		const struct node *n = root->nodes[i];
		if (n->kind != k)
			continue;
		if (k == NK_GRAPH) {
			tally_graph(&first, n->u.child);
			continue;
		}
		for (size_t b = 0; b < n->u.cond.nbodies; b++) {
			bool is_else = k == NK_IF && b == 1;
			tally_graph(is_else ? &second : &first, n->u.cond.bodies[b]);
			has_else |= is_else;
		}
		nbodies += n->u.cond.nbodies;
	}
	fputs(" (", out);
	switch (k) {
	case NK_WHILE:
		fputs("body: ", out);
		break;
	case NK_IF:
		fputs("then: ", out);
		break;
	case NK_SWITCH:
		fprintf(out, "%zu case%s: ", nbodies, nbodies == 1 ? "" : "s");
		break;
	default:
		break;
	}
	print_tally(out, &first);
	if (has_else) {
		fputs("; else: ", out);
		print_tally(out, &second);
	}
	fputc(')', out);
}

/* "4 nodes: 1 while (body: 2 kernel), 1 memset" */
static void print_graph_line(FILE *out, const struct graph *root)
{
	struct tally all = {0}, top = {0};
	tally_graph(&all, root);
	for (size_t i = 0; i < root->nnodes; i++)
		tally_add(&top, root->nodes[i]->kind);
	fprintf(out, "  %-12s %zu node%s", "graph", all.total, all.total == 1 ? "" : "s");
	for (size_t i = 0; i < top.norder; i++) {
		enum node_kind k = top.order[i];
		fprintf(out, "%s%zu %s", i ? ", " : ": ", top.counts[k], node_kind_names[k]);
		if (k == NK_GRAPH || node_kind_is_conditional(k))
			print_bodies(out, root, k);
	}
	fputc('\n', out);
}

static void print_launch_line(FILE *out, const struct report *r)
{
	struct stats st;
	stats_compute(r->samples, r->nsamples, &st);
	char med[32];
	double scale;
	int prec;
	format_duration_scaled(st.median, med, sizeof med, &scale, &prec);
	/* The spread is small beside the median: give it one significant digit at least. */
	int sdprec = prec;
	while (sdprec < 3 && st.stddev > 0 && st.stddev / scale < pow(10, -sdprec))
		sdprec++;
	fprintf(out, "  %-12s %zu x (%u warm-up): median %s  min %.*f  mean %.*f  max %.*f  stddev %.*f",
		"launch", r->nsamples, r->warmup, med, prec, st.min / scale,
		prec, st.mean / scale, prec, st.max / scale, sdprec, st.stddev / scale);
	if (st.mean > 0)
		fprintf(out, " (%.1f%%)", 100 * st.stddev / st.mean);
	fputc('\n', out);
}

void report_print_human(FILE *out, const struct report *r)
{
	char a[32], b[32], c[32], d[32];
	if (r->name)
		fprintf(out, "%s  (%s)\n", r->name, r->file);
	else
		fprintf(out, "%s\n", r->file);
	if (r->device_name)
		fprintf(out, "  %-12s %d: %s (sm_%d%d), driver %d.%d\n", "device", r->device,
			r->device_name, r->cc_major, r->cc_minor, r->driver_version / 1000,
			r->driver_version % 1000 / 10);
	if (r->root)
		print_graph_line(out, r->root);
	format_duration(r->load_s, a, sizeof a);
	format_duration(r->build_s, b, sizeof b);
	format_duration(r->instantiate_s, c, sizeof c);
	format_duration(r->upload_s, d, sizeof d);
	fprintf(out, "  %-12s ", "phases");
	if (r->compile_modules && r->compile_cached == r->compile_modules) {
		fputs("compile cached  ", out);
	} else if (r->compile_modules) {
		char e[32];
		format_duration(r->compile_s, e, sizeof e);
		fprintf(out, "compile %s  ", e);
	}
	fprintf(out, "load %s  build %s  instantiate %s  upload %s\n", a, b, c, d);
	format_duration(r->first_launch_s, a, sizeof a);
	fprintf(out, "  %-12s %s\n", "first launch", a);
	if (r->nsamples)
		print_launch_line(out, r);
	for (size_t i = 0; i < r->nspans; i++) {
		format_duration(r->spans[i].seconds, a, sizeof a);
		fprintf(out, "  %-12s %s -> %s %s\n", i ? "" : "events", r->spans[i].from,
			r->spans[i].to, a);
	}
	if (r->checks_passed + r->checks_failed == 0)
		fprintf(out, "  %-12s none\n", "checks");
	else if (r->checks_failed == 0)
		fprintf(out, "  %-12s %u passed\n", "checks", r->checks_passed);
	else
		fprintf(out, "  %-12s %u passed, %u failed\n", "checks", r->checks_passed,
			r->checks_failed);
	if (r->profile)
		prof_print_human(out, r->profile);
}

/* JSON ------------------------------------------------------------------ */

/*
 * A JSON string: quotes, backslashes and control characters escaped,
 * UTF-8 passed through, and a byte that is no UTF-8 (a file name may hold
 * one) replaced by U+FFFD so that the document stays valid.
 */
void report_json_string(FILE *out, const char *s)
{
	static const char short_escapes[] = {
		['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't',
		['"'] = '"', ['\\'] = '\\',
	};
	if (s == NULL) {
		fputs("null", out);
		return;
	}
	putc('"', out);
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned c = *p;
		size_t len;
		/* a NUL ends a sequence too: no need to know the length left */
		if (utf8_next(p, SIZE_MAX, &len) < 0)
			len = 0;
		if (c < sizeof short_escapes && short_escapes[c]) {
			fprintf(out, "\\%c", short_escapes[c]);
		} else if (c < 0x20) {
			fprintf(out, "\\u%04x", c);
		} else if (len == 0) {
			fputs("\\ufffd", out);
			len = 1;
		} else {
			fwrite(p, 1, len, out);
		}
		p += len ? len : 1;
	}
	putc('"', out);
}

void report_json_number(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.9g", v);
	else
		fputs("null", out);
}

void report_json_key(FILE *out, int depth, bool first, const char *key)
{
	fprintf(out, "%s\n%*s", first ? "" : ",", depth * 2, "");
	report_json_string(out, key);
	fputs(": ", out);
}

static void json_kinds(FILE *out, int depth, const size_t counts[NK_COUNT])
{
	putc('{', out);
	for (int k = 0; k < NK_COUNT; k++) {
		report_json_key(out, depth + 1, k == 0, node_kind_names[k]);
		fprintf(out, "%zu", counts[k]);
	}
	fprintf(out, "\n%*s}", depth * 2, "");
}

static void json_device(FILE *out, const struct report *r)
{
	if (r->device_name == NULL) {
		fputs("null", out);
		return;
	}
	char text[32];
	fputc('{', out);
	report_json_key(out, 2, true, "ordinal");
	fprintf(out, "%d", r->device);
	report_json_key(out, 2, false, "name");
	report_json_string(out, r->device_name);
	report_json_key(out, 2, false, "compute_capability");
	snprintf(text, sizeof text, "%d.%d", r->cc_major, r->cc_minor);
	report_json_string(out, text);
	report_json_key(out, 2, false, "sm");
	snprintf(text, sizeof text, "sm_%d%d", r->cc_major, r->cc_minor);
	report_json_string(out, text);
	report_json_key(out, 2, false, "driver_version");
	fprintf(out, "%d", r->driver_version);
	report_json_key(out, 2, false, "driver");
	snprintf(text, sizeof text, "%d.%d", r->driver_version / 1000,
		 r->driver_version % 1000 / 10);
	report_json_string(out, text);
	fputs("\n  }", out);
}

static void json_graph(FILE *out, const struct graph *root)
{
	if (root == NULL) {
		fputs("null", out);
		return;
	}
	size_t all[NK_COUNT], top[NK_COUNT], total = 0;
	graph_count_kinds(root, all, true);
	graph_count_kinds(root, top, false);
	for (int k = 0; k < NK_COUNT; k++)
		total += all[k];
	fputc('{', out);
	report_json_key(out, 2, true, "nodes");
	fprintf(out, "%zu", total);
	report_json_key(out, 2, false, "by_kind");
	json_kinds(out, 2, all);
	report_json_key(out, 2, false, "root_by_kind");
	json_kinds(out, 2, top);
	fputs("\n  }", out);
}

static void json_launch(FILE *out, const struct report *r)
{
	static const char *const keys[] = {"median_s", "min_s", "mean_s", "max_s", "stddev_s"};
	struct stats st;
	stats_compute(r->samples, r->nsamples, &st);
	const double values[] = {st.median, st.min, st.mean, st.max, st.stddev};
	fputc('{', out);
	report_json_key(out, 2, true, "repeat");
	fprintf(out, "%zu", r->nsamples);
	report_json_key(out, 2, false, "warmup");
	fprintf(out, "%u", r->warmup);
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		report_json_key(out, 2, false, keys[i]);
		if (r->nsamples)
			report_json_number(out, values[i]);
		else
			fputs("null", out);
	}
	report_json_key(out, 2, false, "samples_s");
	putc('[', out);
	for (size_t i = 0; i < r->nsamples; i++) {
		if (i)
			fputs(", ", out);
		report_json_number(out, r->samples[i]);
	}
	fputs("]\n  }", out);
}

void report_print_json(FILE *out, const struct report *r)
{
	fputc('{', out);
	report_json_key(out, 1, true, "cugraphrun");
	report_json_string(out, PACKAGE_VERSION);
	report_json_key(out, 1, false, "report_format");
	fputs("1", out);
	report_json_key(out, 1, false, "name");
	report_json_string(out, r->name);
	report_json_key(out, 1, false, "file");
	report_json_string(out, r->file);
	report_json_key(out, 1, false, "device");
	json_device(out, r);
	report_json_key(out, 1, false, "graph");
	json_graph(out, r->root);

	report_json_key(out, 1, false, "phases");
	static const char *const phase_keys[] = {"load_s", "build_s", "instantiate_s", "upload_s"};
	const double phases[] = {r->load_s, r->build_s, r->instantiate_s, r->upload_s};
	fputc('{', out);
	for (size_t i = 0; i < sizeof phase_keys / sizeof *phase_keys; i++) {
		report_json_key(out, 2, i == 0, phase_keys[i]);
		report_json_number(out, phases[i]);
	}
	report_json_key(out, 2, false, "compile_s");
	if (r->compile_modules)
		report_json_number(out, r->compile_s);
	else
		fputs("null", out);
	fputs("\n  }", out);
	report_json_key(out, 1, false, "compile");
	if (r->compile_modules)
		fprintf(out, "{\"modules\": %u, \"compiled\": %u, \"cached\": %u}",
			r->compile_modules, r->compile_modules - r->compile_cached,
			r->compile_cached);
	else
		fputs("null", out);
	report_json_key(out, 1, false, "first_launch_s");
	report_json_number(out, r->first_launch_s);
	report_json_key(out, 1, false, "launch");
	json_launch(out, r);

	report_json_key(out, 1, false, "events");
	fputc('[', out);
	for (size_t i = 0; i < r->nspans; i++) {
		fprintf(out, "%s\n    {\"from\": ", i ? "," : "");
		report_json_string(out, r->spans[i].from);
		fputs(", \"to\": ", out);
		report_json_string(out, r->spans[i].to);
		fputs(", \"seconds\": ", out);
		report_json_number(out, r->spans[i].seconds);
		fputc('}', out);
	}
	fputs(r->nspans ? "\n  ]" : "]", out);

	report_json_key(out, 1, false, "checks");
	fprintf(out, "{\"passed\": %u, \"failed\": %u}", r->checks_passed, r->checks_failed);
	report_json_key(out, 1, false, "exit_status");
	fprintf(out, "%d", r->exit_status);
	if (r->profile) {
		report_json_key(out, 1, false, "profile");
		prof_print_json(out, r->profile, 1);
	}
	fputs("\n}\n", out);
}
