/*
 * A --json report read back as the HTML page's model (html_read.h): the
 * text as it is read (json_read.h), each object by a table of its keys
 * (html_fields.h).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare.h"
#include "compare_read.h"
#include "describe_render.h"
#include "fileio.h"
#include "html_compare.h"
#include "html_fields.h"
#include "html_read.h"
#include "sweep.h"

#define fail_at hr_fail_at

/* The report's own readers ------------------------------------------------- */

/*
 * {key: value, ...} into *out (n entries of size bytes each, in the order
 * written), fn reading each value into its entry under its key (a copy,
 * the reader's); null gives none.
 */
typedef bool entry_fn(struct hr *r, const char *key, void *entry);

static bool read_map(struct hr *r, size_t size, void **out, size_t *count, entry_fn *fn)
{
	bool is_null;
	size_t n;
	const char *key;
	size_t klen;
	if (!hr_want(r, JOBJ, &is_null))
		return false;
	if (is_null)
		return jr_skip(r->p);
	if (!jr_count(r->p, &n) || !jr_begin(r->p))
		return false;
	char *v = hr_alloc(r, n * size);
	if (v == NULL)
		return false;
	while (*count < n && jr_next_key(r->p, &key, &klen)) {
		void *entry = v + (*count)++ * size;
		char *name = hr_alloc(r, klen + 1);
		if (name == NULL)
			return false;
		memcpy(name, key, klen);
		size_t was = jr_path_push(&r->path, name);
		bool ok = fn(r, name, entry);
		jr_path_pop(&r->path, was);
		if (!ok)
			return false;
	}
	if (*count == n && jr_next_key(r->p, &key, NULL))
		return hr_fail(r, "more keys than counted");
	*out = v;
	return !jr_failed(r->p);
}

/* An axis's value: a number (its text as written) or a string. */
static bool axis_entry(struct hr *r, const char *key, void *entry)
{
	struct axis_value *a = entry;
	enum jtype t;
	struct jscalar s;
	a->name = key;
	bool ok = jr_peek(r->p, &t) &&
		((t == JNUM || t == JSTR) ? jr_scalar(r->p, &s) :
		 hr_fail(r, "%s, not a number or a string", jtype_names[t]));
	char *text = ok ? hr_alloc(r, s.len + 1) : NULL;
	if (text == NULL)
		return false;
	memcpy(text, s.text, s.len);
	a->text = text;
	return true;
}

/* {name: value} (a point's axes). */
static bool read_axes(struct hr *r, void *slot)
{
	struct page_point *pt = (struct page_point *)((char *)slot - offsetof(struct page_point, axes));
	void *v = NULL;
	if (!read_map(r, sizeof *pt->axes, &v, &pt->naxes, axis_entry))
		return false;
	pt->axes = v;
	return true;
}

static bool kind_entry(struct hr *r, const char *key, void *entry)
{
	struct page_kind *k = entry;
	k->name = key;
	return hr_num(r, HF_COUNT, &k->count);
}

/* {kind: count} (by_kind): in the order written. */
static bool read_kinds(struct hr *r, void *slot)
{
	struct page_graph *g = (struct page_graph *)((char *)slot -
						     offsetof(struct page_graph, by_kind));
	void *v = NULL;
	if (!read_map(r, sizeof *g->by_kind, &v, &g->nkinds, kind_entry))
		return false;
	g->by_kind = v;
	return true;
}

static bool read_format(struct hr *r, void *slot)
{
	struct jr_mark m;
	double v;
	enum jtype t;
	if (!jr_peek(r->p, &t))
		return false;
	m = jr_here(r->p);
	if (!hr_num(r, HF_NUM, &v))
		return false;
	if (isnan(v) || v != floor(v) || v < REPORT_FORMAT_FIRST)
		return fail_at(r, m, "no report format: this cugraphrun reads %d to %d",
			       REPORT_FORMAT_FIRST, REPORT_FORMAT_READ);
	if (v > REPORT_FORMAT_READ)
		return fail_at(r, m, "%.0f is newer than this cugraphrun reads (%d): make the page "
			       "with the cugraphrun that wrote it", v, REPORT_FORMAT_READ);
	*(double *)slot = v;
	return true;
}

/*
 * The description: DOT text that cugraphrun writes, which the page draws
 * through Graphviz; anything else (an attribute that reads a file or
 * links out, an HTML label, more than the page lays out) is refused here,
 * where it is.
 */
static bool read_description(struct hr *r, void *slot)
{
	struct page_dot *dot = slot;
	enum jtype t;
	if (!jr_peek(r->p, &t))
		return false;
	struct jr_mark m = jr_here(r->p);
	if (!hr_str(r, &dot->text))
		return false;
	dot->pos = jr_pos_of(r->p, m);
	char why[200];
	if (dot->text && !describe_dot_safe(dot->text, why, sizeof why))
		return fail_at(r, m, "not a description cugraphrun writes: %s", why);
	return true;
}

#define F(type, field, key, kind) {key, kind, offsetof(type, field), 0, NULL, NULL}
#define FS(type, field, key, sub) {key, HF_OBJ, offsetof(type, field), 0, &sub, NULL}
#define FL(type, field, count, key, sub) \
	{key, HF_LIST, offsetof(type, field), offsetof(type, count), &sub, NULL}
#define FN(type, field, count, key, kind) \
	{key, kind, offsetof(type, field), offsetof(type, count), NULL, NULL}
#define FC(type, field, key, fn) {key, HF_CUSTOM, offsetof(type, field), 0, NULL, fn}
#define OBJ(type, fields, max, what) \
	{sizeof(type), fields, sizeof fields / sizeof *fields, max, what}

static const struct hfield launch_fields[] = {
	F(struct page_launch, repeat, "repeat", HF_COUNT),
	F(struct page_launch, warmup, "warmup", HF_COUNT),
	F(struct page_launch, median_s, "median_s", HF_TIME),
	F(struct page_launch, min_s, "min_s", HF_TIME),
	F(struct page_launch, mean_s, "mean_s", HF_TIME),
	F(struct page_launch, max_s, "max_s", HF_TIME),
	F(struct page_launch, stddev_s, "stddev_s", HF_TIME),
	FN(struct page_launch, samples, nsamples, "samples_s", HF_TIMES),
};
static const struct hobj launch_obj = OBJ(struct page_launch, launch_fields, 0, NULL);

static const struct hfield proc_fields[] = {
	F(struct page_proc, pid, "pid", HF_INT),
	F(struct page_proc, launches, "launches", HF_COUNT),
	F(struct page_proc, stopped_by, "stopped_by", HF_STR),
	F(struct page_proc, precision_percent, "precision_percent", HF_NUM),
	F(struct page_proc, median_s, "median_s", HF_TIME),
	F(struct page_proc, p10_s, "p10_s", HF_TIME),
	F(struct page_proc, iqr_s, "iqr_s", HF_TIME),
	F(struct page_proc, sm_clock_mhz, "sm_clock_mhz", HF_NUM),
	F(struct page_proc, sm_clock_before_mhz, "sm_clock_before_mhz", HF_NUM),
	F(struct page_proc, sm_clock_after_mhz, "sm_clock_after_mhz", HF_NUM),
	F(struct page_proc, gpu_uuid, "gpu_uuid", HF_STR),
	F(struct page_proc, driver_version, "driver_version", HF_INT),
};
static const struct hobj proc_obj = OBJ(struct page_proc, proc_fields, PROCESSES_MAX,
					"processes");

static const struct hfield throughput_fields[] = {
	F(struct page_throughput, bytes, "bytes", HF_NUM),
	F(struct page_throughput, items, "items", HF_NUM),
	F(struct page_throughput, gb_per_s, "gb_per_s", HF_NUM),
	F(struct page_throughput, items_per_s, "items_per_s", HF_NUM),
	F(struct page_throughput, peak_percent, "peak_percent", HF_NUM),
};
static const struct hobj throughput_obj = OBJ(struct page_throughput, throughput_fields, 0,
					      NULL);

static const struct hfield checks_fields[] = {
	F(struct page_checks, passed, "passed", HF_COUNT),
	F(struct page_checks, failed, "failed", HF_COUNT),
};
static const struct hobj checks_obj = OBJ(struct page_checks, checks_fields, 0, NULL);

static const struct hfield note_fields[] = {
	F(struct page_note, file, "file", HF_STR),
	F(struct page_note, line, "line", HF_COUNT),
	F(struct page_note, column, "column", HF_COUNT),
	F(struct page_note, message, "message", HF_STR),
};
static const struct hobj note_obj = OBJ(struct page_note, note_fields, 0, "notes");

static const struct hfield diag_fields[] = {
	F(struct page_diag, file, "file", HF_STR),
	F(struct page_diag, line, "line", HF_COUNT),
	F(struct page_diag, column, "column", HF_COUNT),
	F(struct page_diag, severity, "severity", HF_STR),
	F(struct page_diag, message, "message", HF_STR),
	FL(struct page_diag, notes, nnotes, "notes", note_obj),
};
static const struct hobj diag_obj = OBJ(struct page_diag, diag_fields, 0, "diagnostics");

static const struct hfield event_fields[] = {
	F(struct page_event, from, "from", HF_STR),
	F(struct page_event, to, "to", HF_STR),
	F(struct page_event, seconds, "seconds", HF_TIME),
};
static const struct hobj event_obj = OBJ(struct page_event, event_fields, 0, "events");

static const struct hfield prepare_fields[] = {
	F(struct page_prepare, kind, "kind", HF_STR),
	F(struct page_prepare, seconds, "seconds", HF_TIME),
	F(struct page_prepare, evaluate_s, "evaluate_s", HF_TIME),
	F(struct page_prepare, reason, "reason", HF_STR),
	F(struct page_prepare, updated_nodes, "updated_nodes", HF_COUNT),
};
static const struct hobj prepare_obj = OBJ(struct page_prepare, prepare_fields, 0, NULL);

static const struct hfield point_fields[] = {
	F(struct page_point, label, "label", HF_STR),
	FC(struct page_point, axes, "axes", read_axes),
	FS(struct page_point, prepare, "prepare", prepare_obj),
	F(struct page_point, first_launch_s, "first_launch_s", HF_TIME),
	FS(struct page_point, launch, "launch", launch_obj),
	FL(struct page_point, procs, nprocs, "processes", proc_obj),
	FS(struct page_point, checks, "checks", checks_obj),
	FS(struct page_point, throughput, "throughput", throughput_obj),
	F(struct page_point, exit_status, "exit_status", HF_INT),
};
static const struct hobj point_obj = OBJ(struct page_point, point_fields, SWEEP_MAX_POINTS,
					 "points");

static const struct hfield prof_node_fields[] = {
	F(struct page_prof_node, id, "id", HF_STR),
	F(struct page_prof_node, kind, "kind", HF_STR),
	F(struct page_prof_node, device, "device", HF_COUNT),
	F(struct page_prof_node, executions, "executions", HF_NUM),
	F(struct page_prof_node, executions_total, "executions_total", HF_COUNT),
	F(struct page_prof_node, median_s, "median_s", HF_TIME),
	F(struct page_prof_node, min_s, "min_s", HF_TIME),
	F(struct page_prof_node, max_s, "max_s", HF_TIME),
	F(struct page_prof_node, per_launch_s, "per_launch_s", HF_TIME),
	F(struct page_prof_node, share, "share", HF_NUM),
	F(struct page_prof_node, on_critical_path, "on_critical_path", HF_BOOL),
	F(struct page_prof_node, disabled, "disabled", HF_BOOL),
};
static const struct hobj prof_node_obj = OBJ(struct page_prof_node, prof_node_fields, 0,
					     "nodes");

static const struct hfield step_fields[] = {
	F(struct page_step, id, "id", HF_STR),
	F(struct page_step, kind, "kind", HF_STR),
	F(struct page_step, depth, "depth", HF_COUNT),
	F(struct page_step, time_s, "time_s", HF_TIME),
	F(struct page_step, iterations, "iterations", HF_NUM),
};
static const struct hobj step_obj = OBJ(struct page_step, step_fields, 0, "steps");

static const struct hfield path_fields[] = {
	F(struct page_path, total_s, "total_s", HF_TIME),
	F(struct page_path, launch_median_s, "launch_median_s", HF_TIME),
	F(struct page_path, overhead_and_gaps_s, "overhead_and_gaps_s", HF_TIME),
	FL(struct page_path, steps, nsteps, "steps", step_obj),
};
static const struct hobj path_obj = OBJ(struct page_path, path_fields, 0, NULL);

static const struct hfield profile_fields[] = {
	F(struct page_profile, launches, "launches", HF_COUNT),
	F(struct page_profile, median_s, "median_s", HF_TIME),
	F(struct page_profile, plain_median_s, "plain_median_s", HF_TIME),
	F(struct page_profile, cost_ratio, "cost_ratio", HF_NUM),
	F(struct page_profile, records, "records", HF_COUNT),
	F(struct page_profile, unmapped_records, "unmapped_records", HF_COUNT),
	F(struct page_profile, dropped_records, "dropped_records", HF_COUNT),
	F(struct page_profile, incomplete_records, "incomplete_records", HF_COUNT),
	FL(struct page_profile, nodes, nnodes, "nodes", prof_node_obj),
	FS(struct page_profile, path, "critical_path", path_obj),
};
static const struct hobj profile_obj = OBJ(struct page_profile, profile_fields, 0, NULL);

static const struct hfield device_fields[] = {
	F(struct page_device, ordinal, "ordinal", HF_COUNT),
	F(struct page_device, name, "name", HF_STR),
	F(struct page_device, compute_capability, "compute_capability", HF_STR),
	F(struct page_device, sm, "sm", HF_STR),
	F(struct page_device, driver, "driver", HF_STR),
	F(struct page_device, peak_bandwidth_gb_per_s, "peak_bandwidth_gb_per_s", HF_NUM),
};
static const struct hobj device_obj = OBJ(struct page_device, device_fields, 0, NULL);

static const struct hfield graph_fields[] = {
	F(struct page_graph, nodes, "nodes", HF_COUNT),
	FC(struct page_graph, by_kind, "by_kind", read_kinds),
};
static const struct hobj graph_obj = OBJ(struct page_graph, graph_fields, 0, NULL);

static const struct hfield phases_fields[] = {
	F(struct page_phases, load_s, "load_s", HF_TIME),
	F(struct page_phases, build_s, "build_s", HF_TIME),
	F(struct page_phases, instantiate_s, "instantiate_s", HF_TIME),
	F(struct page_phases, upload_s, "upload_s", HF_TIME),
	F(struct page_phases, compile_s, "compile_s", HF_TIME),
};
static const struct hobj phases_obj = OBJ(struct page_phases, phases_fields, 0, NULL);

#define REPORT_FIELDS(type, r) \
	F(type, r.cugraphrun, "cugraphrun", HF_STR), \
	FC(type, r.report_format, "report_format", read_format), \
	F(type, r.name, "name", HF_STR), \
	F(type, r.file, "file", HF_STR), \
	FS(type, r.device, "device", device_obj), \
	FS(type, r.graph, "graph", graph_obj), \
	FN(type, r.disabled, r.ndisabled, "disabled", HF_STRS), \
	FS(type, r.phases, "phases", phases_obj), \
	F(type, r.first_launch_s, "first_launch_s", HF_TIME), \
	FS(type, r.launch, "launch", launch_obj), \
	FL(type, r.procs, r.nprocs, "processes", proc_obj), \
	FL(type, r.events, r.nevents, "events", event_obj), \
	FS(type, r.throughput, "throughput", throughput_obj), \
	FS(type, r.checks, "checks", checks_obj), \
	F(type, r.exit_status, "exit_status", HF_INT), \
	FL(type, r.diags, r.ndiags, "diagnostics", diag_obj), \
	FS(type, r.profile, "profile", profile_obj), \
	FL(type, r.points, r.npoints, "points", point_obj), \
	FC(type, r.comparison, "comparison", html_compare_read), \
	FC(type, r.description, "description", read_description)

/* A report, alone (a suite's entry holds one). */
struct report_box {
	struct page_report r;
};
static const struct hfield report_fields[] = {REPORT_FIELDS(struct report_box, r)};
static const struct hobj report_obj = OBJ(struct report_box, report_fields, 0, NULL);

static const struct hfield entry_fields[] = {
	F(struct page_entry, file, "file", HF_STR),
	F(struct page_entry, result, "result", HF_STR),
	F(struct page_entry, expected_failure, "expected_failure", HF_BOOL),
	F(struct page_entry, exit_status, "exit_status", HF_INT),
	F(struct page_entry, seconds, "seconds", HF_TIME),
	F(struct page_entry, device, "device", HF_COUNT),
	F(struct page_entry, skip_reason, "skip_reason", HF_STR),
	F(struct page_entry, message, "message", HF_STR),
	FS(struct page_entry, report, "report", report_obj),
};
static const struct hobj entry_obj = OBJ(struct page_entry, entry_fields, CMP_MAX_FILES, "files");

static const struct hfield summary_fields[] = {
	F(struct page_summary, passed, "passed", HF_COUNT),
	F(struct page_summary, failed, "failed", HF_COUNT),
	F(struct page_summary, skipped, "skipped", HF_COUNT),
	F(struct page_summary, errors, "errors", HF_COUNT),
	F(struct page_summary, timeouts, "timeouts", HF_COUNT),
	F(struct page_summary, slower, "slower", HF_COUNT),
};
static const struct hobj summary_obj = OBJ(struct page_summary, summary_fields, 0, NULL);

/* The document: one file's report, or a suite's (files, summary; its comparison is the base's). */
struct root {
	struct page_report r;
	struct page_entry *files;
	size_t nfiles;
	struct page_summary *summary;
};
static const struct hfield root_fields[] = {
	REPORT_FIELDS(struct root, r),
	FL(struct root, files, nfiles, "files", entry_obj),
	FS(struct root, summary, "summary", summary_obj),
};
static const struct hobj root_obj = OBJ(struct root, root_fields, 0, NULL);

/* The keys a report cannot be without: false after a message at m. */
static bool report_whole(struct hr *r, struct page_report *rep, struct jr_mark m,
			 const char *where)
{
	/* a list read is never NULL, even empty: "points" makes it a sweep's */
	rep->has_points = rep->points != NULL;
	if (isnan(rep->report_format))
		return fail_at(r, m, "%s has no \"report_format\"", where);
	if (rep->file == NULL)
		return fail_at(r, m, "%s has no \"file\"", where);
	return true;
}

/* A suite's root: its comparison names the base and its files that did not run. */
static bool suite_of(struct hr *r, struct root *root, struct jr_mark m)
{
	struct page *pg = r->pg;
	pg->suite = true;
	pg->files = root->files;
	pg->nfiles = root->nfiles;
	pg->summary = root->summary;
	pg->exit_status = root->r.exit_status;
	if (root->r.comparison)
		html_compare_base(root->r.comparison, &pg->compare_base, &pg->only_in_base,
				  &pg->nonly_in_base);
	for (size_t i = 0; i < pg->nfiles; i++) {
		struct page_entry *e = &pg->files[i];
		if (e->file == NULL)
			return fail_at(r, m, "/files/%zu has no \"file\"", i);
		if (e->report && !report_whole(r, e->report, m, "a file's report"))
			return false;
	}
	return true;
}

static bool read_root(struct hr *r)
{
	enum jtype t;
	if (!jr_peek(r->p, &t))
		return false;
	struct jr_mark m = jr_here(r->p);
	if (t != JOBJ)
		return fail_at(r, m, "not a cugraphrun report: %s, not an object", jtype_names[t]);
	struct root *root = hr_alloc(r, sizeof *root);
	if (root == NULL)
		return false;
	hr_set_defaults(&root_obj, (char *)root);
	if (!hr_fill(r, &root_obj, root))
		return false;
	if (root->files)
		return suite_of(r, root, m);
	if (isnan(root->r.report_format) && root->r.file == NULL)
		return fail_at(r, m, "not a cugraphrun report: no \"report_format\" (one file's "
			       "report) or \"files\" (a suite's)");
	r->pg->report = &root->r;
	r->pg->exit_status = root->r.exit_status;
	return report_whole(r, &root->r, m, "the report");
}

struct page *page_parse(const char *name, const char *text, size_t len, struct diag *d)
{
	struct page *pg = xcalloc(1, sizeof *pg);
	pg->path = name;
	pg->exit_status = NAN;
	struct jr p;
	jr_init(&p, text, len, d);
	struct hr r = {.p = &p, .pg = pg, .budget = 4 * len + ((size_t)1 << 20)};
	bool ok = read_root(&r) && jr_end(&p);
	jr_free(&p);
	if (!ok) {
		page_free(pg);
		return NULL;
	}
	return pg;
}

struct page *page_read(const char *path, struct diag *d)
{
	size_t len = 0;
	char *text = read_whole_file_max(path, READ_MAX_BYTES, &len);
	if (text == NULL) {
		if (errno == EFBIG)
			diag_error(d, (struct pos){0, 0}, "cannot read it: it is too large (the "
				   "limit is %zu bytes)", READ_MAX_BYTES);
		else
			diag_error(d, (struct pos){0, 0}, "cannot read it: %s", strerror(errno));
		return NULL;
	}
	struct page *pg = page_parse(path, text, len, d);
	free(text);
	return pg;
}

void page_free(struct page *pg)
{
	if (pg == NULL)
		return;
	arena_free(&pg->arena);
	free(pg);
}
