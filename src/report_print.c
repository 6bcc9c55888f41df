/*
 * The run report: the figures of one run, printed for people
 * (the shape of cugraphrun(1)'s example) or as JSON for scripts.
 *
 * JSON report (--json), one object; keys are stable, times are in seconds
 * as numbers (%.9g); a number that is not finite is written as null:
 *
 *   cugraphrun         the program's version, a string ("0.1.0")
 *   report_format      2; raised when a key changes meaning or goes away
 *   name               the file's name: (a string), or null
 *   file               the YAML file as given on the command line
 *   device             null when no device was opened, else an object:
 *     ordinal            the device number (--device)
 *     name               as the driver reports it
 *     compute_capability "9.0"
 *     sm                 "sm_90"
 *     driver_version     as cuDriverGetVersion reports it (13000)
 *     driver             "13.0"
 *     peak_bandwidth_gb_per_s  2 x memory clock x bus width / 8 from the
 *                        driver's attributes, or null when it does not say
 *   devices            only for a file on several devices (cugraphrun(5),
 *                      Devices): per device, from 0, {device, ordinal,
 *                      name, peers: the devices whose memory it reaches
 *                      with peer access}
 *   graph              null when there is no graph, else an object:
 *     nodes              every node, nested ones included
 *     by_kind            {kind: count} over every node, nested ones
 *                        included; every kind of format 1 is present
 *     root_by_kind       {kind: count} over the root graph's own nodes
 *   disabled           the ids of the nodes switched off at every launch
 *                      (enabled: false, --disable), in file order; [] when none
 *   phases             {load_s, build_s, instantiate_s, upload_s,
 *                      compile_s}: compile_s is null without source
 *                      modules, else the wall time of compiling them or
 *                      finding them in the cache
 *   compile            null without source modules, else {modules,
 *                      compiled, cached}: how many, and how each was had
 *   first_launch_s     the verification launch (a sweep: its first point's)
 *   launch             null for a sweep (each point has its own, run or
 *                      not: a validated sweep's, a stopped one's), else
 *                      the timed launches:
 *     repeat             how many (the number of samples)
 *     warmup             untimed launches before them
 *     median_s, min_s, mean_s, max_s
 *     stddev_s           sample standard deviation (n - 1)
 *                        (each of these five is null when repeat is 0)
 *     samples_s          every timed launch, in launch order: the
 *                        reporting process's (the last, under --processes)
 *   processes          null for a sweep (each point has its own), else
 *                      one record per process that timed the file, in the
 *                      order they ran, the reporting one last; [] when
 *                      none did (proc_record.h):
 *     pid, launches, stopped_by ("count", "precision", "time", "limit"),
 *     precision_percent, median_s, p10_s, iqr_s, sm_clock_mhz,
 *     sm_clock_before_mhz, sm_clock_after_mhz, gpu_uuid, driver_version
 *   graph_memory       null unless the graph has alloc nodes, else the
 *                      device's graph memory (cuDeviceGetGraphMemAttribute)
 *                      {after_upload, after_launches}, each {used_bytes,
 *                      used_high_bytes, reserved_bytes, reserved_high_bytes}:
 *                      in use by graphs, reserved by their allocator, and
 *                      their high-water marks since the file began (they are
 *                      reset before each file)
 *   events             [{from, to, seconds}]: elapsed time between
 *                      event_record nodes, in file order
 *   throughput         null unless the file declares throughput:, else
 *                      {bytes, items (null when not declared), gb_per_s,
 *                      items_per_s, peak_percent (null without a peak)}
 *   checks             {passed, failed}
 *   exit_status        the process's exit status (see EXIT STATUS)
 *   diagnostics        every message printed about the file, in order:
 *                      [{file, line, column, severity, code, message,
 *                      notes}], notes [{file, line, column, code,
 *                      message}] (code: diag_catalog.h); file null
 *                      for a message about no file, line and column null
 *                      for one about the file as a whole
 *   profile            only with --profile: see prof_stat.c and cugraphrun(1)
 *   points             only for a sweep: one object per point, in the
 *                      order they ran (report_points.h); a sweep validated
 *                      and not run, each point's values (sweep_list.h)
 *   modes              only for a run in modes: one object per point, with
 *                      its mode's figures and break-even (report_modes.h)
 *   comparison         only with --compare: see compare.c and cugraphrun(1)
 *   description        the DOT that --describe writes for the file (a
 *                      sweep: its first point), with buffers under
 *                      --describe-buffers and coloured by --profile; null
 *                      for a file that did not read (report_describe.h)
 *
 * schemas/report.schema.json describes this document ($defs/report and a
 * $defs entry per part) and the suite's (suite_result.c): a key added,
 * renamed or made nullable here goes there too, in the same commit;
 * tests/report.test validates what check_report writes against it.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "compare.h"
#include "diag.h"
#include "json.h"
#include "prof_stat.h"
#include "report_modes.h"
#include "report_describe.h"
#include "report_points.h"
#include "report_print.h"
#include "sweep_list.h"
#include "report_table.h"
#include "scalar.h"

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

/*
 * "disabled     a, b": the nodes switched off (only nodes of the root graph
 * can be), or nothing when none is.
 */
static void print_disabled(FILE *out, const struct graph *root)
{
	bool first = true;
	for (size_t i = 0; root && i < root->nnodes; i++) {
		if (!root->nodes[i]->disabled)
			continue;
		if (first)
			fprintf(out, "  %-12s %s", "disabled", diag_esc(root->nodes[i]->id));
		else
			fprintf(out, ", %s", diag_esc(root->nodes[i]->id));
		first = false;
	}
	if (!first)
		putc('\n', out);
}

static void json_disabled(FILE *out, const struct graph *root)
{
	bool first = true;
	putc('[', out);
	for (size_t i = 0; root && i < root->nnodes; i++) {
		if (!root->nodes[i]->disabled)
			continue;
		if (!first)
			fputs(", ", out);
		json_string(out, root->nodes[i]->id);
		first = false;
	}
	putc(']', out);
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

static void print_launch_line(FILE *out, const struct point_report *p, unsigned warmup)
{
	struct stats st;
	stats_compute(p->samples, p->nsamples, &st);
	char med[32];
	double scale;
	int prec;
	format_duration_scaled(st.median, med, sizeof med, &scale, &prec);
	/* The spread is small beside the median: give it one significant digit at least. */
	int sdprec = prec;
	while (sdprec < 3 && st.stddev > 0 && st.stddev / scale < pow(10, -sdprec))
		sdprec++;
	fprintf(out, "  %-12s %zu x (%u warm-up): median %s  min %.*f  mean %.*f  max %.*f  stddev %.*f",
		"launch", p->nsamples, warmup, med, prec, st.min / scale,
		prec, st.mean / scale, prec, st.max / scale, sdprec, st.stddev / scale);
	if (st.mean > 0)
		fprintf(out, " (%.1f%%)", 100 * st.stddev / st.mean);
	fputc('\n', out);
}

/* A file's devices: their GPUs and the devices each reaches with peer access. */
static void json_devices(FILE *out, const struct report *r)
{
	fputc('[', out);
	for (size_t k = 0; k < r->ndevices; k++) {
		const struct report_device *d = &r->devices[k];
		fprintf(out, "%s\n    {\"device\": %zu, \"ordinal\": %d, \"name\": ", k ? "," : "", k,
			d->ordinal);
		json_string(out, d->name);
		fputs(", \"peers\": [", out);
		bool first = true;
		for (size_t b = 0; b < r->ndevices; b++)
			if (b != k && (d->peers >> b & 1)) {
				fprintf(out, "%s%zu", first ? "" : ", ", b);
				first = false;
			}
		fputs("]}", out);
	}
	fputs("\n  ]", out);
}

/* "  devices      0: GPU 1, 1: GPU 0; peer access 0 <-> 1" for people. */
static void print_devices(FILE *out, const struct report *r)
{
	if (r->ndevices < 2)
		return;
	fprintf(out, "  %-12s ", "devices");
	for (size_t k = 0; k < r->ndevices; k++)
		fprintf(out, "%s%zu: GPU %d", k ? ", " : "", k, r->devices[k].ordinal);
	fputs("; peer access", out);
	bool any = false;
	for (size_t a = 0; a < r->ndevices; a++)
		for (size_t b = 0; b < r->ndevices; b++) {
			bool ab = a != b && (r->devices[a].peers >> b & 1);
			bool ba = r->devices[b].peers >> a & 1;
			/* a pair once: both ways at its first device, one way where it is */
			if (!ab || (ba && b < a))
				continue;
			fprintf(out, "%s %zu %s %zu", any ? "," : "", a, ba ? "<->" : "->", b);
			any = true;
		}
	fputs(any ? "\n" : " none\n", out);
}

/* Bytes for people: "0 B", "512 KiB", "64 MiB", "1.5 GiB". */
static void format_mem(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	double v = (double)bytes;
	unsigned u = 0;
	while (u + 1 < sizeof units / sizeof *units && v >= 1024) {
		v /= 1024;
		u++;
	}
	if (v == floor(v))
		snprintf(buf, len, "%.0f %s", v, units[u]);
	else
		snprintf(buf, len, "%.*f %s", v < 10 ? 2 : v < 100 ? 1 : 0, v, units[u]);
}

/* "used 64 MiB (high 64 MiB), reserved 64 MiB (high 64 MiB)" */
static void print_graph_mem(FILE *out, const char *when, const struct graph_mem *m)
{
	char a[32], b[32], c[32], d[32];
	format_mem(m->used, a, sizeof a);
	format_mem(m->used_high, b, sizeof b);
	format_mem(m->reserved, c, sizeof c);
	format_mem(m->reserved_high, d, sizeof d);
	fprintf(out, "%s: used %s (high %s), reserved %s (high %s)\n", when, a, b, c, d);
}

void report_print_human(FILE *out, const struct report *r)
{
	char a[32], b[32], c[32], d[32];
	if (r->name)
		fprintf(out, "%s  (%s)\n", diag_esc(r->name), diag_esc(r->file));
	else
		fprintf(out, "%s\n", diag_esc(r->file));
	if (r->device_name)
		fprintf(out, "  %-12s %d: %s (sm_%d%d), driver %d.%d\n", "device", r->device,
			diag_esc(r->device_name), r->cc_major, r->cc_minor, r->driver_version / 1000,
			r->driver_version % 1000 / 10);
	print_devices(out, r);
	if (r->root)
		print_graph_line(out, r->root);
	print_disabled(out, r->root);
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
	const struct point_report *p = report_plain_point(r);
	if (p == NULL) {
		/* a sweep: a row per point in place of the one launch line; a run in modes: its table */
		if (report_has_modes(r))
			report_print_modes(out, r);
		else
			report_print_table(out, r);
		report_print_processes(out, r);
		if (r->profile)
			prof_print_human(out, r->profile);
		return;
	}
	format_duration(p->first_launch_s, a, sizeof a);
	fprintf(out, "  %-12s %s\n", "first launch", a);
	if (p->nsamples)
		print_launch_line(out, p, r->warmup);
	report_print_processes(out, r);
	report_print_throughput(out, r);
	if (p->flops.declared) {
		struct stats fst;
		stats_compute(p->samples, p->nsamples, &fst);
		flops_print(out, &p->flops, p->nsamples ? fst.median : NAN);
	}
	if (r->has_graph_mem) {
		fprintf(out, "  %-12s ", "graph memory");
		print_graph_mem(out, "after upload", &r->mem_uploaded);
		fprintf(out, "  %-12s ", "");
		print_graph_mem(out, "after launches", &r->mem_launched);
	}
	for (size_t i = 0; i < r->nspans; i++) {
		format_duration(r->spans[i].seconds, a, sizeof a);
		fprintf(out, "  %-12s %s -> %s %s\n", i ? "" : "events",
			diag_esc(r->spans[i].from), diag_esc(r->spans[i].to), a);
	}
	if (p->checks_passed + p->checks_failed == 0)
		fprintf(out, "  %-12s none\n", "checks");
	else if (p->checks_failed == 0)
		fprintf(out, "  %-12s %u passed\n", "checks", p->checks_passed);
	else
		fprintf(out, "  %-12s %u passed, %u failed\n", "checks", p->checks_passed,
			p->checks_failed);
	if (r->profile)
		prof_print_human(out, r->profile);
}

static void json_kinds(FILE *out, int depth, const size_t counts[NK_COUNT])
{
	putc('{', out);
	for (int k = 0; k < NK_COUNT; k++) {
		json_key(out, depth + 1, k == 0, node_kind_names[k]);
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
	json_key(out, 2, true, "ordinal");
	fprintf(out, "%d", r->device);
	json_key(out, 2, false, "name");
	json_string(out, r->device_name);
	json_key(out, 2, false, "compute_capability");
	snprintf(text, sizeof text, "%d.%d", r->cc_major, r->cc_minor);
	json_string(out, text);
	json_key(out, 2, false, "sm");
	snprintf(text, sizeof text, "sm_%d%d", r->cc_major, r->cc_minor);
	json_string(out, text);
	json_key(out, 2, false, "driver_version");
	fprintf(out, "%d", r->driver_version);
	json_key(out, 2, false, "driver");
	snprintf(text, sizeof text, "%d.%d", r->driver_version / 1000,
		 r->driver_version % 1000 / 10);
	json_string(out, text);
	json_key(out, 2, false, "peak_bandwidth_gb_per_s");
	json_number(out, r->peak_gb_per_s > 0 ? r->peak_gb_per_s : NAN);
	fputs("\n  }", out);
}

/* The graph's node counts, every node's and the root's by kind: null when there is no graph. */
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
	json_key(out, 2, true, "nodes");
	fprintf(out, "%zu", total);
	json_key(out, 2, false, "by_kind");
	json_kinds(out, 2, all);
	json_key(out, 2, false, "root_by_kind");
	json_kinds(out, 2, top);
	fputs("\n  }", out);
}

/* file, line, column of a message or note: null where it has none. */
static void json_where(FILE *out, const char *file, struct pos pos)
{
	fputs("\"file\": ", out);
	json_string(out, file);
	if (pos.line)
		fprintf(out, ", \"line\": %u, \"column\": %u", pos.line, pos.col);
	else
		fputs(", \"line\": null, \"column\": null", out);
}

static void json_diagnostics(FILE *out, const struct diag *d)
{
	static const char *const severity[] = {
		[DIAG_NOTE] = "note", [DIAG_WARNING] = "warning", [DIAG_ERROR] = "error",
	};
	size_t n = d ? d->nlog : 0;
	fputc('[', out);
	for (size_t i = 0; i < n; i++) {
		const struct diag_entry *e = &d->log[i];
		fprintf(out, "%s\n    {", i ? "," : "");
		json_where(out, e->file, e->pos);
		fprintf(out, ", \"severity\": \"%s\", \"code\": ", severity[e->level]);
		json_string(out, e->code ? e->code : DIAG_CODE_NONE);
		fputs(", \"message\": ", out);
		json_string(out, e->text);
		fputs(", \"notes\": [", out);
		for (size_t k = 0; k < e->nnotes; k++) {
			fputs(k ? ", {" : "{", out);
			json_where(out, e->file, e->notes[k].pos);
			fputs(", \"code\": ", out);
			json_string(out, e->notes[k].code ? e->notes[k].code : DIAG_CODE_NONE);
			fputs(", \"message\": ", out);
			json_string(out, e->notes[k].text);
			fputc('}', out);
		}
		fputs("]}", out);
	}
	fputs(n ? "\n  ]" : "]", out);
}

static void json_graph_mem(FILE *out, const struct graph_mem *m)
{
	fprintf(out, "{\"used_bytes\": %" PRIu64 ", \"used_high_bytes\": %" PRIu64
		", \"reserved_bytes\": %" PRIu64 ", \"reserved_high_bytes\": %" PRIu64 "}",
		m->used, m->used_high, m->reserved, m->reserved_high);
}

void report_print_json(FILE *out, const struct report *r)
{
	fputc('{', out);
	json_key(out, 1, true, "cugraphrun");
	json_string(out, PACKAGE_VERSION);
	json_key(out, 1, false, "report_format");
	fprintf(out, "%d", REPORT_FORMAT);
	json_key(out, 1, false, "name");
	json_string(out, r->name);
	json_key(out, 1, false, "file");
	json_string(out, r->file);
	json_key(out, 1, false, "device");
	json_device(out, r);
	if (r->ndevices > 1) {
		json_key(out, 1, false, "devices");
		json_devices(out, r);
	}
	json_key(out, 1, false, "graph");
	json_graph(out, r->root);
	json_key(out, 1, false, "disabled");
	json_disabled(out, r->root);

	json_key(out, 1, false, "phases");
	static const char *const phase_keys[] = {"load_s", "build_s", "instantiate_s", "upload_s"};
	const double phases[] = {r->load_s, r->build_s, r->instantiate_s, r->upload_s};
	fputc('{', out);
	for (size_t i = 0; i < sizeof phase_keys / sizeof *phase_keys; i++) {
		json_key(out, 2, i == 0, phase_keys[i]);
		json_number(out, phases[i]);
	}
	json_key(out, 2, false, "compile_s");
	if (r->compile_modules)
		json_number(out, r->compile_s);
	else
		fputs("null", out);
	fputs("\n  }", out);
	json_key(out, 1, false, "compile");
	if (r->compile_modules)
		fprintf(out, "{\"modules\": %u, \"compiled\": %u, \"cached\": %u}",
			r->compile_modules, r->compile_modules - r->compile_cached,
			r->compile_cached);
	else
		fputs("null", out);
	/* a sweep's figures are its points', in "points" */
	const struct point_report *plain = r->sweep ? NULL : report_plain_point(r);
	json_key(out, 1, false, "first_launch_s");
	if (r->no_launch || r->npoints == 0)
		fputs("null", out);
	else
		json_number(out, r->points[0].first_launch_s);
	json_key(out, 1, false, "launch");
	if (plain)
		report_launch_json(out, plain, r->warmup, 1);
	else
		fputs("null", out);
	json_key(out, 1, false, "processes");
	if (plain)
		report_processes_json(out, r, 0, 1);
	else
		fputs("null", out);

	json_key(out, 1, false, "graph_memory");
	if (r->has_graph_mem) {
		fputc('{', out);
		json_key(out, 2, true, "after_upload");
		json_graph_mem(out, &r->mem_uploaded);
		json_key(out, 2, false, "after_launches");
		json_graph_mem(out, &r->mem_launched);
		fputs("\n  }", out);
	} else {
		fputs("null", out);
	}

	json_key(out, 1, false, "events");
	fputc('[', out);
	for (size_t i = 0; i < r->nspans; i++) {
		fprintf(out, "%s\n    {\"from\": ", i ? "," : "");
		json_string(out, r->spans[i].from);
		fputs(", \"to\": ", out);
		json_string(out, r->spans[i].to);
		fputs(", \"seconds\": ", out);
		json_number(out, r->spans[i].seconds);
		fputc('}', out);
	}
	fputs(r->nspans ? "\n  ]" : "]", out);

	json_key(out, 1, false, "throughput");
	if (plain)
		throughput_json(out, plain->bytes, plain->items, plain->samples, plain->nsamples,
				r->peak_gb_per_s, 1);
	else
		fputs("null", out);
	json_key(out, 1, false, "flops");
	if (plain) {
		struct stats fst;
		stats_compute(plain->samples, plain->nsamples, &fst);
		flops_json(out, &plain->flops, plain->nsamples ? fst.median : NAN, 1);
	} else {
		fputs("null", out);
	}
	unsigned passed, failed;
	report_checks(r, &passed, &failed);
	json_key(out, 1, false, "checks");
	fprintf(out, "{\"passed\": %u, \"failed\": %u}", passed, failed);
	json_key(out, 1, false, "exit_status");
	fprintf(out, "%d", r->exit_status);
	json_key(out, 1, false, "diagnostics");
	json_diagnostics(out, r->diag);
	if (r->profile) {
		json_key(out, 1, false, "profile");
		prof_print_json(out, r->profile, 1);
	}
	if (r->listing) {
		json_key(out, 1, false, "points");
		sweep_list_json(out, r->listing, 1);
	} else if (report_is_sweep(r)) {
		/* (a sweep stopped before its first point has none) */
		json_key(out, 1, false, "points");
		report_points_json(out, r, r->peak_gb_per_s);
	}
	if (report_has_modes(r)) {
		json_key(out, 1, false, "modes");
		report_modes_json(out, r);
	}
	if (r->comparison) {
		json_key(out, 1, false, "comparison");
		comparison_json(out, r->comparison, 1);
	}
	json_key(out, 1, false, "description");
	char *dot = report_description(r);
	json_string(out, dot);
	free(dot);
	fputs("\n}\n", out);
}

int report_write_json(const char *path, const struct report *r)
{
	FILE *out = output_open(path);
	if (out == NULL)
		return 2;
	report_print_json(out, r);
	if (output_close(out, path, OUTPUT_OK) != 0)
		return 2;
	fflush(stdout);
	return 0;
}
