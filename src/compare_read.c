/*
 * Reading JSON reports back (compare_read.h): the text as it is read
 * (json_read.h), each object by a table of the keys it keeps.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare_read.h"
#include "fileio.h"
#include "json_read.h"
#include "stats.h"
#include "strmap.h"
#include "sweep.h"

/* The reader: its parser, the document it fills, and the path of the value it reads. */
struct rd {
	struct jr *p;
	struct cmp_doc *doc;
	struct diag *d;
	struct jr_path path;    /* "/points/3/launch/samples_s/7" */
	size_t item;            /* SIZE_MAX, or the index in the list at path being read */
};

/* An error about the value at m, after its path: the reading stops. */
static __attribute__((format(printf, 3, 4), cold)) bool fail_at(struct rd *r, struct jr_mark m,
								const char *fmt, ...)
{
	char what[300];
	va_list ap;
	va_start(ap, fmt);
	diag_code_keep(fmt, ap);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (r->item != SIZE_MAX)
		jr_path_index(&r->path, r->item);
	jr_error(r->p, m, "%s: %s", jr_path_text(&r->path), what);
	return false;
}

/* The next value is of type t, or null where null_ok: which in *got; false after a message. */
static bool want(struct rd *r, enum jtype t, bool null_ok, enum jtype *got)
{
	enum jtype g;
	if (!jr_peek(r->p, &g))
		return false;
	if (got)
		*got = g;
	if (g == t || (null_ok && g == JNULL))
		return true;
	return fail_at(r, jr_here(r->p), "%s, not %s%s", jtype_names[g], jtype_names[t],
		       null_ok ? " or null" : "");
}

/* Reading an object by a table of the keys it keeps ----------------------- */

struct field {
	const char *key;
	bool required;
	bool (*read)(struct rd *r, void *ctx);  /* its value, at the parser */
};

/*
 * The object at the parser (want(JOBJ) said so): each key of fields read
 * by its handler, any other key checked and passed over; false after a
 * message, a required key that is missing included.
 */
static bool read_object(struct rd *r, const struct field *fields, size_t n, void *ctx)
{
	struct jr_mark m = jr_here(r->p);
	uint32_t seen = 0;
	const char *key;
	if (!jr_begin(r->p))
		return false;
	while (jr_next_key(r->p, &key, NULL)) {
		size_t i = 0;
		while (i < n && strcmp(fields[i].key, key) != 0)
			i++;
		size_t was = jr_path_push(&r->path, key);
		bool ok = i < n ? fields[i].read(r, ctx) : jr_skip(r->p);
		jr_path_pop(&r->path, was);
		if (!ok)
			return false;
		seen |= i < n ? UINT32_C(1) << i : 0;
	}
	if (jr_failed(r->p))
		return false;
	bool ok = true;
	for (size_t i = 0; i < n; i++)
		if (fields[i].required && !(seen & UINT32_C(1) << i)) {
			diag_error(r->d, jr_pos_of(r->p, m), "%s has no \"%s\"",
				   r->path.len ? r->path.s : "the report", fields[i].key);
			ok = false;
			r->p->failed = true;
		}
	return ok;
}

/* Values ------------------------------------------------------------------ */

/* A string (or null, where null_ok: NULL) copied into the document. */
static bool read_text(struct rd *r, bool null_ok, const char **out)
{
	struct jscalar s;
	if (!want(r, JSTR, null_ok, NULL) || !jr_scalar(r->p, &s))
		return false;
	*out = s.type == JNULL ? NULL : arena_strndup(&r->doc->arena, s.text, s.len);
	return true;
}

/*
 * A time in seconds, the one check of every time read: above 0 and at
 * most REPORT_TIME_MAX_S, or null (a time that was not finite is written
 * so: none, NaN).  A figure that a comparison or a plot divides by must
 * be one a launch can take.
 */
static bool read_time(struct rd *r, double *v)
{
	struct jscalar s;
	if (!want(r, JNUM, true, NULL))
		return false;
	struct jr_mark m = jr_here(r->p);
	if (!jr_scalar(r->p, &s))
		return false;
	*v = s.type == JNULL ? NAN : s.num;
	if (s.type == JNULL || (s.num > 0 && s.num <= REPORT_TIME_MAX_S))
		return true;
	return fail_at(r, m, "%.40s%s s is no time a launch takes: a report's times are above "
		       "0 and at most %.0f s (a day)", s.text, s.len > 40 ? "..." : "",
		       REPORT_TIME_MAX_S);
}

/* A count or size a report declares (bytes, items, GB/s): 0 or more, finite; null is NaN. */
static bool read_amount(struct rd *r, double *v)
{
	struct jscalar s;
	if (!want(r, JNUM, true, NULL))
		return false;
	struct jr_mark m = jr_here(r->p);
	if (!jr_scalar(r->p, &s))
		return false;
	*v = s.type == JNULL ? NAN : s.num;
	if (s.type == JNULL || (s.num >= 0 && isfinite(s.num)))
		return true;
	return fail_at(r, m, "%.40s%s is no amount: it is 0 or more, and finite", s.text,
		       s.len > 40 ? "..." : "");
}

/* samples_s: every time, counted first so that they are kept in one array of their size. */
static bool read_samples(struct rd *r, void *ctx)
{
	struct cmp_point *pt = ctx;
	size_t n;
	if (!want(r, JARR, false, NULL) || !jr_numbers_bound(r->p, &n) || !jr_begin(r->p))
		return false;
	/* the array's pages are touched only as far as it is filled */
	double *samples = arena_alloc(&r->doc->arena, n * sizeof *samples);
	pt->samples = samples;
	for (size_t i = 0; jr_next_item(r->p); i++) {
		double v;
		/* the index goes on the path only for a message: a report holds millions */
		r->item = i;
		if (!read_time(r, &v))
			return false;
		/* past the bound only after an item that is no number, which read_time refuses */
		if (i >= n)
			return fail_at(r, jr_here(r->p), "not a list of times");
		if (!isnan(v))
			samples[pt->nsamples++] = v;
	}
	r->item = SIZE_MAX;
	return !jr_failed(r->p);
}

static const struct field launch_fields[] = {
	{"samples_s", true, read_samples},
};

static bool read_launch(struct rd *r, struct cmp_point *pt)
{
	return read_object(r, launch_fields, sizeof launch_fields / sizeof *launch_fields, pt);
}

static bool read_bytes(struct rd *r, void *ctx)
{
	return read_amount(r, &((struct cmp_point *)ctx)->bytes);
}

static bool read_items(struct rd *r, void *ctx)
{
	return read_amount(r, &((struct cmp_point *)ctx)->items);
}

static const struct field throughput_fields[] = {
	{"bytes", false, read_bytes},
	{"items", false, read_items},
};

/* Processes --------------------------------------------------------------- */

/* What a "processes" array is read into: counted first, then kept at its size. */
struct procs_rd {
	struct proc_fig *v;
	size_t n;
};

static bool read_proc_launches(struct rd *r, void *ctx)
{
	struct jscalar s;
	struct jr_mark m;
	if (!want(r, JNUM, false, NULL))
		return false;
	m = jr_here(r->p);
	if (!jr_scalar(r->p, &s))
		return false;
	if (!(s.num >= 0 && s.num <= UINT32_MAX && s.num == floor(s.num)))
		return fail_at(r, m, "%.40s is no count of launches", s.text);
	((struct proc_fig *)ctx)->launches = (uint32_t)s.num;
	return true;
}

static bool read_proc_median(struct rd *r, void *ctx)
{
	return read_time(r, &((struct proc_fig *)ctx)->median_s);
}

/* An SM clock in MHz: above 0 and below 100 GHz, or null (not measured). */
static bool read_proc_clock(struct rd *r, void *ctx)
{
	struct jscalar s;
	if (!want(r, JNUM, true, NULL))
		return false;
	struct jr_mark m = jr_here(r->p);
	if (!jr_scalar(r->p, &s))
		return false;
	double *v = &((struct proc_fig *)ctx)->clock_mhz;
	*v = s.type == JNULL ? NAN : s.num;
	if (s.type == JNULL || (s.num > 0 && s.num < 1e5))
		return true;
	return fail_at(r, m, "%.40s MHz is no clock a GPU runs at", s.text);
}

static const struct field proc_fields[] = {
	{"launches", true, read_proc_launches},
	{"median_s", true, read_proc_median},
	{"sm_clock_mhz", false, read_proc_clock},
};

/* "processes": [{launches, median_s, sm_clock_mhz, ...}, ...], each a process of the point. */
static bool read_procs(struct rd *r, void *ctx)
{
	struct cmp_point *pt = ctx;
	size_t n;
	enum jtype t;
	if (!want(r, JARR, true, &t))
		return false;
	if (t == JNULL)
		return jr_skip(r->p);
	struct jr_mark m = jr_here(r->p);
	if (!jr_count(r->p, &n))
		return false;
	if (n > COMPARE_MAX_PROCESSES)
		return fail_at(r, m, "%zu processes: a run times a file in %d at most", n,
			       COMPARE_MAX_PROCESSES);
	if (!jr_begin(r->p))
		return false;
	struct proc_fig *v = arena_alloc(&r->doc->arena, (n ? n : 1) * sizeof *v);
	pt->procs = v;
	pt->nprocs = 0;
	for (size_t i = 0; jr_next_item(r->p); i++) {
		size_t was = jr_path_index(&r->path, i);
		struct proc_fig *f = &v[pt->nprocs];
		*f = (struct proc_fig){.median_s = NAN, .clock_mhz = NAN};
		bool ok = i < n && want(r, JOBJ, false, NULL) &&
			read_object(r, proc_fields, sizeof proc_fields / sizeof *proc_fields, f);
		jr_path_pop(&r->path, was);
		if (!ok)
			return false;
		pt->nprocs++;
	}
	return !jr_failed(r->p);
}

/*
 * A point without processes (a report of format 1): one process of its
 * samples, its clock not known.  Its median is found in place, so such a
 * report's samples are kept in no particular order.
 */
static void procs_of_samples(struct rd *r, struct cmp_point *pt)
{
	if (pt->procs != NULL || pt->nsamples == 0)
		return;
	struct proc_fig *f = arena_alloc(&r->doc->arena, sizeof *f);
	/* the samples are the reader's own, and may be millions: no copy of them */
	*f = (struct proc_fig){.median_s = stats_median_inplace((double *)pt->samples,
								  pt->nsamples),
			       .clock_mhz = NAN, .launches = (uint32_t)pt->nsamples};
	pt->procs = f;
	pt->nprocs = 1;
}

/* A point ----------------------------------------------------------------- */

static bool read_label(struct rd *r, void *ctx)
{
	return read_text(r, false, &((struct cmp_point *)ctx)->label);
}

/* {name: value}: each value a number (its text as written) or a string. */
static bool read_axes(struct rd *r, void *ctx)
{
	struct cmp_point *pt = ctx;
	size_t n;
	const char *key;
	size_t klen;
	if (!want(r, JOBJ, false, NULL) || !jr_count(r->p, &n) || !jr_begin(r->p))
		return false;
	struct axis_value *values = arena_alloc(&r->doc->arena, (n ? n : 1) * sizeof *values);
	pt->axes = values;
	while (jr_next_key(r->p, &key, &klen)) {
		struct axis_value *a = &values[pt->naxes++];
		a->name = arena_strndup(&r->doc->arena, key, klen);
		size_t was = jr_path_push(&r->path, a->name);
		enum jtype t;
		struct jscalar s = {.text = ""};
		bool ok = jr_peek(r->p, &t) &&
			((t == JNUM || t == JSTR) ? jr_scalar(r->p, &s) :
			 fail_at(r, jr_here(r->p), "%s, not a number or a string", jtype_names[t]));
		jr_path_pop(&r->path, was);
		if (!ok)
			return false;
		a->text = arena_strndup(&r->doc->arena, s.text, s.len);
	}
	return !jr_failed(r->p);
}

static bool read_point_launch(struct rd *r, void *ctx)
{
	return want(r, JOBJ, false, NULL) && read_launch(r, ctx);
}

static bool read_point_throughput(struct rd *r, void *ctx)
{
	enum jtype t;
	if (!want(r, JOBJ, true, &t))
		return false;
	if (t == JNULL)
		return jr_skip(r->p);
	return read_object(r, throughput_fields,
			   sizeof throughput_fields / sizeof *throughput_fields, ctx);
}

static const struct field point_fields[] = {
	{"label", true, read_label},
	{"axes", true, read_axes},
	{"launch", true, read_point_launch},
	{"throughput", false, read_point_throughput},
	{"processes", false, read_procs},
};

/* One file's report ------------------------------------------------------- */

/* What reading a report object gathers before it is a cmp_file. */
struct rep {
	struct cmp_file *f;
	bool has_format;        /* report_format was read, and is one this reader knows */
	bool has_file;
	bool has_launch;        /* an object; a sweep's is null */
	struct jr_mark launch_null;     /* where a null launch is, when it is */
	bool launch_was_null;
	struct cmp_point launch;
	bool has_points;
	struct cmp_point *points;
	size_t npoints, cap;
	bool root;              /* the document itself (it may be a suite's) */
	bool has_files;
};

static bool read_format(struct rd *r, void *ctx)
{
	struct rep *c = ctx;
	struct jscalar s;
	if (!want(r, JNUM, false, NULL))
		return false;
	struct jr_mark m = jr_here(r->p);
	if (!jr_scalar(r->p, &s))
		return false;
	bool whole = isfinite(s.num) && s.num == floor(s.num);
	if (whole && s.num > REPORT_FORMAT_READ)
		return fail_at(r, m, "%.20s is newer than this cugraphrun reads (%d): compare "
			       "with the cugraphrun that wrote it", s.text, REPORT_FORMAT_READ);
	if (!whole || s.num < REPORT_FORMAT_FIRST) {
		char known[32];
		if (REPORT_FORMAT_FIRST == REPORT_FORMAT_READ)
			snprintf(known, sizeof known, "%d", REPORT_FORMAT_READ);
		else
			snprintf(known, sizeof known, "%d to %d", REPORT_FORMAT_FIRST,
				 REPORT_FORMAT_READ);
		return fail_at(r, m, "%.20s is no report format: this cugraphrun reads %s",
			       s.text, known);
	}
	c->has_format = true;
	return true;
}

/*
 * report_format says how to read the rest, so before a launch or points
 * are read, the rest of the object is looked through for it when it has
 * not come yet (a report that cugraphrun wrote has it second).  Missing,
 * it is said at the object's end.
 */
static bool format_first(struct rd *r, struct rep *c)
{
	if (c->has_format)
		return true;
	struct jr q, *p = r->p;
	jr_fork(p, &q);
	r->p = &q;
	const char *key;
	bool ok = jr_skip(&q);
	while (ok && jr_next_key(&q, &key, NULL)) {
		if (strcmp(key, "report_format") != 0) {
			ok = jr_skip(&q);
			continue;
		}
		/* its path is the object's, not the key's being read */
		struct jr_path was = r->path;
		jr_path_pop(&r->path, (size_t)(strrchr(r->path.s, '/') - r->path.s));
		jr_path_push(&r->path, "report_format");
		ok = read_format(r, c);
		r->path = was;
		break;
	}
	ok = ok && !jr_failed(&q);
	r->p = p;
	jr_free(&q);
	if (!ok)
		p->failed = true;
	return ok;
}

static bool read_file_name(struct rd *r, void *ctx)
{
	struct rep *c = ctx;
	c->has_file = true;
	return read_text(r, false, &c->f->file);
}

static bool read_name(struct rd *r, void *ctx)
{
	return read_text(r, true, &((struct rep *)ctx)->f->name);
}

static bool read_peak(struct rd *r, void *ctx)
{
	return read_amount(r, &((struct cmp_file *)ctx)->peak_gb_per_s);
}

static const struct field device_fields[] = {
	{"peak_bandwidth_gb_per_s", false, read_peak},
};

static bool read_device(struct rd *r, void *ctx)
{
	enum jtype t;
	if (!want(r, JOBJ, true, &t))
		return false;
	if (t == JNULL)
		return jr_skip(r->p);
	return read_object(r, device_fields, 1, ((struct rep *)ctx)->f);
}

static bool read_report_launch(struct rd *r, void *ctx)
{
	struct rep *c = ctx;
	enum jtype t;
	if (!format_first(r, c) || !want(r, JOBJ, true, &t))
		return false;
	if (t == JNULL) {
		c->launch_was_null = true;
		c->launch_null = jr_here(r->p);
		return jr_skip(r->p);
	}
	c->has_launch = true;
	c->launch.bytes = c->launch.items = NAN;
	return read_launch(r, &c->launch);
}

static bool read_points(struct rd *r, void *ctx)
{
	struct rep *c = ctx;
	enum jtype t;
	if (!format_first(r, c) || !want(r, JARR, true, &t))
		return false;
	if (t == JNULL)
		return jr_skip(r->p);
	c->has_points = true;
	if (!jr_begin(r->p))
		return false;
	for (size_t i = 0; jr_next_item(r->p); i++) {
		size_t was = jr_path_index(&r->path, i);
		if (i == SWEEP_MAX_POINTS)
			return fail_at(r, jr_here(r->p), "more than %d points: a run writes at most "
				       "%d a file", SWEEP_MAX_POINTS, SWEEP_MAX_POINTS);
		struct cmp_point *pt = ARENA_PUSH(&r->doc->arena, c->points, c->npoints, c->cap);
		pt->bytes = pt->items = NAN;
		bool ok = want(r, JOBJ, false, NULL) &&
			read_object(r, point_fields, sizeof point_fields / sizeof *point_fields, pt);
		jr_path_pop(&r->path, was);
		if (!ok)
			return false;
	}
	return !jr_failed(r->p);
}

static bool read_files(struct rd *r, void *ctx);

/* A plain file's processes, at the report's top (a sweep's are its points', and it says null). */
static bool read_report_procs(struct rd *r, void *ctx)
{
	return read_procs(r, &((struct rep *)ctx)->launch);
}

#define REPORT_FIELDS \
	{"report_format", false, read_format}, \
	{"file", false, read_file_name}, \
	{"name", false, read_name}, \
	{"device", false, read_device}, \
	{"launch", false, read_report_launch}, \
	{"points", false, read_points}, \
	{"processes", false, read_report_procs}

static const struct field report_fields[] = {REPORT_FIELDS};
/* The document: a report, or a suite's with its files' reports */
static const struct field root_fields[] = {REPORT_FIELDS, {"files", false, read_files}};

/* The object at m read as c gathered it: into c->f, or false after a message. */
static bool report_done(struct rd *r, struct rep *c, struct jr_mark m)
{
	const char *where = c->root ? "the report" : r->path.s;
	struct cmp_file *f = c->f;
	if (!c->has_format) {
		jr_error(r->p, m, "%s has no \"report_format\"", where);
		return false;
	}
	if (!c->has_file) {
		jr_error(r->p, m, "%s has no \"file\"", where);
		return false;
	}
	f->has_report = true;
	if (c->has_points) {
		f->points = c->points;
		f->npoints = c->npoints;
		for (size_t i = 0; i < f->npoints; i++)
			procs_of_samples(r, &f->points[i]);
		return true;
	}
	if (c->launch_was_null)
		return fail_at(r, c->launch_null, "launch: null, not an object (a report without "
			       "points has its launch)");
	if (!c->has_launch) {
		jr_error(r->p, m, "%s has no \"launch\"", where);
		return false;
	}
	f->npoints = 1;
	f->points = arena_alloc(&r->doc->arena, sizeof *f->points);
	f->points[0] = c->launch;
	procs_of_samples(r, &f->points[0]);
	return true;
}

/* One file's report (plain or sweep) at the parser into f. */
static bool read_report(struct rd *r, struct cmp_file *f)
{
	struct rep c = {.f = f};
	struct jr_mark m = jr_here(r->p);
	f->peak_gb_per_s = NAN;
	return read_object(r, report_fields, sizeof report_fields / sizeof *report_fields, &c) &&
		report_done(r, &c, m);
}

/* A suite ----------------------------------------------------------------- */

static bool read_entry_file(struct rd *r, void *ctx)
{
	struct cmp_file *f = ctx;
	const char *file;
	if (!read_text(r, false, &file))
		return false;
	/* a report's own path wins, as it names the file the same way */
	if (!f->has_report)
		f->file = file;
	return true;
}

static bool read_entry_report(struct rd *r, void *ctx)
{
	enum jtype t;
	if (!want(r, JOBJ, true, &t))
		return false;
	/* null: the file made no report (it was skipped, or could not be read) */
	if (t == JNULL)
		return jr_skip(r->p);
	return read_report(r, ctx);
}

static const struct field entry_fields[] = {
	{"file", true, read_entry_file},
	{"report", false, read_entry_report},
};

static bool read_files(struct rd *r, void *ctx)
{
	struct rep *c = ctx;
	struct cmp_doc *doc = r->doc;
	size_t cap = 0;
	if (!want(r, JARR, false, NULL) || !jr_begin(r->p))
		return false;
	c->has_files = true;
	for (size_t i = 0; jr_next_item(r->p); i++) {
		size_t was = jr_path_index(&r->path, i);
		if (i == CMP_MAX_FILES)
			return fail_at(r, jr_here(r->p), "more than %d files: a suite's report holds "
				       "at most %d", CMP_MAX_FILES, CMP_MAX_FILES);
		struct cmp_file *f = ARENA_PUSH(&doc->arena, doc->files, doc->nfiles, cap);
		f->peak_gb_per_s = NAN;
		bool ok = want(r, JOBJ, false, NULL) &&
			read_object(r, entry_fields, sizeof entry_fields / sizeof *entry_fields, f);
		jr_path_pop(&r->path, was);
		if (!ok)
			return false;
	}
	return !jr_failed(r->p);
}

/* The document ------------------------------------------------------------ */

/* The root object: a suite's document (files) or one file's report (report_format). */
static bool read_root(struct rd *r)
{
	enum jtype t;
	/* the text need not end in a NUL: only its len bytes are read */
	const char *s = r->p->s, *end = s + r->p->len;
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'))
		s++;
	/* a graph file given where a report belongs, most likely */
	if (s < end && ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))) {
		struct jr_mark m = {(size_t)(s - r->p->s), 1, 0};
		for (const char *c = r->p->s; c < s; c++)
			if (*c == '\n') {
				m.line++;
				m.line_at = (size_t)(c + 1 - r->p->s);
			}
		jr_error(r->p, m, "not JSON but YAML or other text: not a cugraphrun report, "
			 "which --json writes");
		return false;
	}
	if (!jr_peek(r->p, &t))
		return false;
	struct jr_mark m = jr_here(r->p);
	if (t != JOBJ) {
		jr_error(r->p, m, "not a cugraphrun report: %s, not an object", jtype_names[t]);
		return false;
	}
	struct cmp_file one = {.peak_gb_per_s = NAN};
	struct rep c = {.f = &one, .root = true};
	if (!read_object(r, root_fields, sizeof root_fields / sizeof *root_fields, &c))
		return false;
	if (c.has_files) {
		r->doc->suite = true;
		return true;
	}
	if (!c.has_format && !c.has_file && !c.has_launch && !c.has_points) {
		jr_error(r->p, m, "not a cugraphrun report: no \"report_format\" (one file's "
			 "report) or \"files\" (a suite's)");
		return false;
	}
	if (!report_done(r, &c, m))
		return false;
	r->doc->nfiles = 1;
	r->doc->files = arena_alloc(&r->doc->arena, sizeof *r->doc->files);
	r->doc->files[0] = one;
	return true;
}

/* A suite's files by normal path, for cmp_doc_find. */
void cmp_doc_index(struct cmp_doc *doc)
{
	doc->index = strmap_new(doc->nfiles);
	char path[4096];
	for (size_t i = 0; i < doc->nfiles; i++) {
		compare_normal_path(doc->files[i].file, path, sizeof path);
		/* the first of two files of one path is the one matched */
		strmap_put(doc->index, arena_strndup(&doc->arena, path, strlen(path)), (long)i,
			   NULL);
	}
}

struct cmp_doc *cmp_doc_parse(const char *name, const char *text, size_t len, struct diag *d)
{
	struct cmp_doc *doc = xcalloc(1, sizeof *doc);
	doc->path = name;
	struct jr p;
	jr_init(&p, text, len, d);
	struct rd r = {.p = &p, .doc = doc, .d = d, .item = SIZE_MAX};
	bool ok = read_root(&r) && jr_end(&p);
	jr_free(&p);
	if (!ok) {
		cmp_doc_free(doc);
		return NULL;
	}
	if (doc->suite)
		cmp_doc_index(doc);
	return doc;
}

long cmp_doc_find(const struct cmp_doc *doc, const char *path)
{
	if (doc->index) {
		char key[4096];
		compare_normal_path(path, key, sizeof key);
		return strmap_get(doc->index, key);
	}
	for (size_t j = 0; j < doc->nfiles; j++)
		if (compare_same_path(doc->files[j].file, path))
			return (long)j;
	return -1;
}

void compare_normal_path(const char *p, char *out, size_t len)
{
	size_t n = 0;
	while (*p && n + 1 < len) {
		if (p[0] == '.' && p[1] == '/' && (n == 0 || out[n - 1] == '/')) {
			p += 2;
			continue;
		}
		if (p[0] == '/' && n > 0 && out[n - 1] == '/') {
			p++;
			continue;
		}
		out[n++] = *p++;
	}
	out[n] = '\0';
}

bool compare_same_path(const char *a, const char *b)
{
	char x[4096], y[4096];
	compare_normal_path(a, x, sizeof x);
	compare_normal_path(b, y, sizeof y);
	return strcmp(x, y) == 0;
}


/* A byte that JSON text never holds: a control character but white space, or no UTF-8's. */
static bool never_json(unsigned char c)
{
	return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0xc0 || c == 0xc1 ||
		c >= 0xf5;
}

/*
 * The text at path (NUL-terminated), or NULL with errno (EFBIG: past
 * READ_MAX_BYTES).  A regular file is read in one buffer of its size; a
 * stream stops a few bytes past its first byte that no JSON holds, which
 * the parser then refuses as the whole would be.
 */
static char *read_text_file(const char *path, size_t *lenp)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return NULL;
	}
	bool regular = S_ISREG(st.st_mode);
	if (regular && (uintmax_t)st.st_size > READ_MAX_BYTES) {
		close(fd);
		errno = EFBIG;
		return NULL;
	}
	size_t cap = regular && st.st_size > 0 ? (size_t)st.st_size + 2 : 65536, len = 0;
	size_t checked = 0, stop = SIZE_MAX;
	char *buf = xmalloc(cap);
	int err = 0;
	for (;;) {
		if (len + 1 == cap)
			buf = xreallocarray(buf, cap = cap > READ_MAX_BYTES / 2 ? READ_MAX_BYTES + 2 :
					    cap * 2, 1);
		ssize_t n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? errno : 0;
			break;
		}
		len += (size_t)n;
		if (len > READ_MAX_BYTES) {
			err = EFBIG;
			break;
		}
		for (; !regular && checked < len && stop == SIZE_MAX; checked++)
			if (never_json((unsigned char)buf[checked]))
				stop = checked + 4;
		if (len >= stop)
			break;
	}
	close(fd);
	if (err) {
		free(buf);
		errno = err;
		return NULL;
	}
	buf[len] = '\0';
	*lenp = len;
	return buf;
}

struct cmp_doc *cmp_doc_read(const char *path, struct diag *d)
{
	size_t len = 0;
	/* a report is read whole, as a graph file may be: 1 GiB at most */
	char *text = read_text_file(path, &len);
	if (text == NULL && errno == EFBIG) {
		diag_error(d, (struct pos){0, 0}, "cannot read it: it is too large (the limit is "
			   "%zu bytes)", READ_MAX_BYTES);
		return NULL;
	}
	if (text == NULL) {
		diag_error(d, (struct pos){0, 0}, "cannot read it: %s", strerror(errno));
		return NULL;
	}
	struct cmp_doc *doc = cmp_doc_parse(path, text, len, d);
	free(text);
	return doc;
}

void cmp_doc_free(struct cmp_doc *doc)
{
	if (doc == NULL)
		return;
	strmap_free(doc->index);
	arena_free(&doc->arena);
	free(doc);
}
