/*
 * Reading JSON reports back (compare_read.h): libyaml's events into a
 * tree of values, then the tree as a report.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "compare_read.h"
#include "fileio.h"
#include "strmap.h"

/* The parser and where the tree goes. */
struct jp {
	yaml_parser_t parser;
	yaml_event_t ev;
	bool have_ev;
	struct jdoc *doc;
	struct diag *d;
	bool failed;
};

static struct pos mark_pos(yaml_mark_t m)
{
	return (struct pos){(uint32_t)m.line + 1, (uint32_t)m.column + 1};
}

static __attribute__((cold)) void syntax_error(struct jp *p)
{
	const yaml_parser_t *y = &p->parser;
	const char *problem = y->problem ? y->problem : "syntax error";
	p->failed = true;
	if (y->error == YAML_READER_ERROR) {
		diag_error(p->d, (struct pos){0, 0}, "not UTF-8 text: %s (at byte %zu)", problem,
			   y->problem_offset);
		return;
	}
	if (y->context)
		diag_error(p->d, mark_pos(y->problem_mark), "invalid JSON: %s (%s at %u:%u)",
			   problem, y->context, mark_pos(y->context_mark).line,
			   mark_pos(y->context_mark).col);
	else
		diag_error(p->d, mark_pos(y->problem_mark), "invalid JSON: %s", problem);
}

/* The next event into p->ev; false after a message. */
static bool next(struct jp *p)
{
	if (p->have_ev)
		yaml_event_delete(&p->ev);
	p->have_ev = false;
	if (!yaml_parser_parse(&p->parser, &p->ev)) {
		syntax_error(p);
		return false;
	}
	p->have_ev = true;
	return true;
}

static __attribute__((cold)) bool fail(struct jp *p, struct pos pos, const char *what)
{
	diag_error(p->d, pos, "%s", what);
	p->failed = true;
	return false;
}

/* A JSON number as RFC 8259 writes it: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)? */
static bool json_number_text(const char *s)
{
	s += *s == '-';
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		s += strspn(s, "0123456789");
	else
		return false;
	if (*s == '.') {
		size_t n = strspn(++s, "0123456789");
		if (n == 0)
			return false;
		s += n;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		s += *s == '+' || *s == '-';
		size_t n = strspn(s, "0123456789");
		if (n == 0)
			return false;
		s += n;
	}
	return *s == '\0';
}

static bool parse_value(struct jp *p, struct jv *v, unsigned depth);

/* The scalar event in p->ev as a value. */
static bool scalar(struct jp *p, struct jv *v)
{
	const yaml_event_t *e = &p->ev;
	const char *text = (const char *)e->data.scalar.value;
	size_t len = e->data.scalar.length;
	v->text = arena_strndup(&p->doc->arena, text, len);
	if (strlen(v->text) != len)
		return fail(p, v->pos, "a string holds a NUL character (\\u0000): not read");
	if (e->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) {
		v->type = JSTR;
		return true;
	}
	if (strcmp(v->text, "null") == 0) {
		v->type = JNULL;
	} else if (strcmp(v->text, "true") == 0 || strcmp(v->text, "false") == 0) {
		v->type = JBOOL;
		v->b = v->text[0] == 't';
	} else if (json_number_text(v->text)) {
		v->type = JNUM;
		v->num = strtod(v->text, NULL);
	} else {
		char msg[160];
		snprintf(msg, sizeof msg, "not JSON: '%.60s' is no number, true, false or null "
			 "(a string is in double quotes)", v->text);
		return fail(p, v->pos, msg);
	}
	return true;
}

/* A sequence's or mapping's items, read up to its end event. */
static bool collection(struct jp *p, struct jv *v, unsigned depth)
{
	bool map = p->ev.type == YAML_MAPPING_START_EVENT;
	yaml_event_type_t end = map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT;
	size_t cap = 0, kcap = 0, nkeys = 0;
	v->type = map ? JOBJ : JARR;
	if (depth >= JSON_MAX_DEPTH)
		return fail(p, v->pos, "nested more than 64 levels deep: no cugraphrun report is");
	for (;;) {
		if (!next(p))
			return false;
		if (p->ev.type == end)
			return true;
		if (map) {
			struct pos kpos = mark_pos(p->ev.start_mark);
			if (p->ev.type != YAML_SCALAR_EVENT ||
			    p->ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
				return fail(p, kpos, "not JSON: an object's key must be a string "
					    "in double quotes");
			const char **key = ARENA_PUSH(&p->doc->arena, v->keys, nkeys, kcap);
			*key = arena_strndup(&p->doc->arena, (const char *)p->ev.data.scalar.value,
					     p->ev.data.scalar.length);
			if (!next(p))
				return false;
		}
		struct jv *item = ARENA_PUSH(&p->doc->arena, v->items, v->n, cap);
		if (!parse_value(p, item, depth + 1))
			return false;
	}
}

/* The value whose first event is in p->ev. */
static bool parse_value(struct jp *p, struct jv *v, unsigned depth)
{
	const yaml_event_t *e = &p->ev;
	v->pos = mark_pos(e->start_mark);
	switch (e->type) {
	case YAML_ALIAS_EVENT:
		return fail(p, v->pos, "not JSON: a YAML alias (*name)");
	case YAML_SCALAR_EVENT:
		if (e->data.scalar.anchor || e->data.scalar.tag)
			return fail(p, v->pos, "not JSON: a YAML anchor or tag");
		return scalar(p, v);
	case YAML_SEQUENCE_START_EVENT:
		if (e->data.sequence_start.anchor || e->data.sequence_start.tag)
			return fail(p, v->pos, "not JSON: a YAML anchor or tag");
		return collection(p, v, depth);
	case YAML_MAPPING_START_EVENT:
		if (e->data.mapping_start.anchor || e->data.mapping_start.tag)
			return fail(p, v->pos, "not JSON: a YAML anchor or tag");
		/* a graph file given where a report belongs, most likely */
		if (e->data.mapping_start.style == YAML_BLOCK_MAPPING_STYLE)
			return fail(p, v->pos, "not JSON but YAML in block style: not a "
				    "cugraphrun report, which --json writes");
		return collection(p, v, depth);
	default:
		return fail(p, v->pos, "invalid JSON: a value was expected");
	}
}

struct jdoc *jdoc_parse(const char *name, const char *text, size_t len, struct diag *d)
{
	(void)name;
	struct jp p = {.d = d};
	struct jdoc *doc = xcalloc(1, sizeof *doc);
	p.doc = doc;
	if (!yaml_parser_initialize(&p.parser)) {
		errorx("out of memory while reading JSON");
		exit(3);
	}
	yaml_parser_set_input_string(&p.parser, (const unsigned char *)text, len);
	bool ok = next(&p) && p.ev.type == YAML_STREAM_START_EVENT && next(&p);
	if (ok && p.ev.type == YAML_STREAM_END_EVENT) {
		ok = fail(&p, mark_pos(p.ev.start_mark), "empty: no JSON value");
	} else if (ok) {
		/* a document start, then the value */
		doc->root = arena_alloc(&doc->arena, sizeof *doc->root);
		ok = next(&p) && parse_value(&p, doc->root, 0) && next(&p) &&
			p.ev.type == YAML_DOCUMENT_END_EVENT && next(&p);
		if (ok && p.ev.type != YAML_STREAM_END_EVENT)
			ok = fail(&p, mark_pos(p.ev.start_mark),
				  "invalid JSON: more than one value");
	}
	if (p.have_ev)
		yaml_event_delete(&p.ev);
	yaml_parser_delete(&p.parser);
	if (!ok || p.failed) {
		jdoc_free(doc);
		return NULL;
	}
	return doc;
}

void jdoc_free(struct jdoc *doc)
{
	if (doc == NULL)
		return;
	arena_free(&doc->arena);
	free(doc);
}

const struct jv *jv_get(const struct jv *obj, const char *key)
{
	if (obj == NULL || obj->type != JOBJ)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (strcmp(obj->keys[i], key) == 0)
			return &obj->items[i];
	return NULL;
}

/* Reading the tree as a report ------------------------------------------- */

static const char *const type_names[] = {
	[JNULL] = "null", [JBOOL] = "a boolean", [JNUM] = "a number", [JSTR] = "a string",
	[JARR] = "a list", [JOBJ] = "an object",
};

/* obj's key of type t; NULL after a message when it is missing or of another type. */
static const struct jv *want(const struct jv *obj, const char *key, enum jtype t,
			     const char *where, struct diag *d)
{
	const struct jv *v = jv_get(obj, key);
	if (v == NULL)
		diag_error(d, obj->pos, "%s has no \"%s\"", where, key);
	else if (v->type != t)
		diag_error(d, v->pos, "%s: \"%s\" is %s, not %s", where, key, type_names[v->type],
			   type_names[t]);
	else
		return v;
	return NULL;
}

/* A launch object's samples_s into pt; false after a message. */
static bool read_samples(struct cmp_doc *doc, const struct jv *launch, struct cmp_point *pt,
			 const char *where, struct diag *d)
{
	const struct jv *s = want(launch, "samples_s", JARR, where, d);
	if (s == NULL)
		return false;
	double *samples = arena_alloc(&doc->arena, (s->n ? s->n : 1) * sizeof *samples);
	pt->samples = samples;
	for (size_t i = 0; i < s->n; i++) {
		const struct jv *x = &s->items[i];
		/* a sample that was not finite is written as null: it has no time */
		if (x->type == JNULL || (x->type == JNUM && !isfinite(x->num)))
			continue;
		if (x->type != JNUM) {
			diag_error(d, x->pos, "%s: a sample is %s, not a number", where,
				   type_names[x->type]);
			return false;
		}
		samples[pt->nsamples++] = x->num;
	}
	return true;
}

/* obj's number under key, or NaN when it has none (null, absent, no number). */
static double number_or_nan(const struct jv *obj, const char *key)
{
	const struct jv *v = jv_get(obj, key);
	return v && v->type == JNUM ? v->num : NAN;
}

/* A point of a sweep: its label, axes, launch and declared throughput. */
static bool read_point(struct cmp_doc *doc, const struct jv *o, struct cmp_point *pt,
		       struct diag *d)
{
	if (o->type != JOBJ) {
		diag_error(d, o->pos, "a point is %s, not an object", type_names[o->type]);
		return false;
	}
	const struct jv *label = want(o, "label", JSTR, "a point", d);
	const struct jv *axes = want(o, "axes", JOBJ, "a point", d);
	const struct jv *launch = want(o, "launch", JOBJ, "a point", d);
	if (label == NULL || axes == NULL || launch == NULL)
		return false;
	pt->label = label->text;
	struct axis_value *values = arena_alloc(&doc->arena, (axes->n ? axes->n : 1) *
						sizeof *values);
	pt->naxes = axes->n;
	pt->axes = values;
	for (size_t i = 0; i < axes->n; i++) {
		const struct jv *v = &axes->items[i];
		if (v->type != JNUM && v->type != JSTR) {
			diag_error(d, v->pos, "point '%s': axis '%s' is %s, not a number or a "
				   "string", pt->label, axes->keys[i], type_names[v->type]);
			return false;
		}
		values[i] = (struct axis_value){axes->keys[i], v->text};
	}
	const struct jv *tp = jv_get(o, "throughput");
	pt->bytes = number_or_nan(tp, "bytes");
	pt->items = number_or_nan(tp, "items");
	return read_samples(doc, launch, pt, "a point's launch", d);
}

/* One file's report (plain or sweep) into f. */
static bool read_report(struct cmp_doc *doc, const struct jv *r, struct cmp_file *f,
			struct diag *d)
{
	const struct jv *fmt = want(r, "report_format", JNUM, "the report", d);
	if (fmt == NULL)
		return false;
	if (fmt->num > REPORT_FORMAT_READ) {
		diag_error(d, fmt->pos, "report_format %s is newer than this cugraphrun reads "
			   "(%d): compare with the cugraphrun that wrote it", fmt->text,
			   REPORT_FORMAT_READ);
		return false;
	}
	const struct jv *file = want(r, "file", JSTR, "the report", d);
	if (file == NULL)
		return false;
	f->file = file->text;
	f->has_report = true;
	const struct jv *name = jv_get(r, "name");
	f->name = name && name->type == JSTR ? name->text : NULL;
	f->peak_gb_per_s = number_or_nan(jv_get(r, "device"), "peak_bandwidth_gb_per_s");
	const struct jv *points = jv_get(r, "points");
	if (points && points->type == JARR) {
		f->npoints = points->n;
		f->points = arena_alloc(&doc->arena, (points->n ? points->n : 1) * sizeof *f->points);
		for (size_t i = 0; i < points->n; i++)
			if (!read_point(doc, &points->items[i], &f->points[i], d))
				return false;
		return true;
	}
	if (points && points->type != JNULL) {
		diag_error(d, points->pos, "the report: \"points\" is %s, not a list",
			   type_names[points->type]);
		return false;
	}
	const struct jv *launch = want(r, "launch", JOBJ, "the report", d);
	if (launch == NULL)
		return false;
	f->npoints = 1;
	f->points = arena_alloc(&doc->arena, sizeof *f->points);
	f->points[0].bytes = f->points[0].items = NAN;
	return read_samples(doc, launch, &f->points[0], "the report's launch", d);
}

struct cmp_doc *cmp_doc_from_json(const char *name, const struct jdoc *json, struct diag *d)
{
	struct cmp_doc *doc = xcalloc(1, sizeof *doc);
	doc->path = name;
	const struct jv *root = json->root;
	const struct jv *files = jv_get(root, "files");
	bool ok = true;
	if (root->type != JOBJ) {
		diag_error(d, root->pos, "not a cugraphrun report: %s, not an object",
			   type_names[root->type]);
		ok = false;
	} else if (files && files->type == JARR) {
		/* a suite: each file's report, or null when it made none */
		doc->suite = true;
		doc->nfiles = files->n;
		doc->files = arena_alloc(&doc->arena, (files->n ? files->n : 1) * sizeof *doc->files);
		for (size_t i = 0; i < files->n && ok; i++) {
			const struct jv *e = &files->items[i];
			const struct jv *file = e->type == JOBJ ?
				want(e, "file", JSTR, "a suite's file", d) : NULL;
			if (e->type != JOBJ)
				diag_error(d, e->pos, "a suite's file is %s, not an object",
					   type_names[e->type]);
			if (file == NULL) {
				ok = false;
				break;
			}
			doc->files[i].file = file->text;
			const struct jv *r = jv_get(e, "report");
			if (r && r->type == JOBJ)
				ok = read_report(doc, r, &doc->files[i], d);
		}
	} else if (jv_get(root, "report_format")) {
		doc->nfiles = 1;
		doc->files = arena_alloc(&doc->arena, sizeof *doc->files);
		ok = read_report(doc, root, &doc->files[0], d);
	} else {
		diag_error(d, root->pos, "not a cugraphrun report: no \"report_format\" (one "
			   "file's report) or \"files\" (a suite's)");
		ok = false;
	}
	if (!ok) {
		cmp_doc_free(doc);
		return NULL;
	}
	if (doc->suite) {
		doc->index = strmap_new(doc->nfiles);
		char path[4096];
		for (size_t i = 0; i < doc->nfiles; i++) {
			compare_normal_path(doc->files[i].file, path, sizeof path);
			/* the first of two files of one path is the one matched */
			strmap_put(doc->index, arena_strndup(&doc->arena, path, strlen(path)),
				   (long)i, NULL);
		}
	}
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


struct cmp_doc *cmp_doc_read(const char *path, struct diag *d)
{
	size_t len;
	/* a report is read whole, as a graph file may be: 1 GiB at most (a FIFO too) */
	char *text = read_whole_file_max(path, READ_MAX_BYTES, &len);
	if (text == NULL && errno == EFBIG) {
		diag_error(d, (struct pos){0, 0}, "cannot read it: it is too large (the limit is "
			   "%zu bytes)", READ_MAX_BYTES);
		return NULL;
	}
	if (text == NULL) {
		diag_error(d, (struct pos){0, 0}, "cannot read it: %s", strerror(errno));
		return NULL;
	}
	struct jdoc *json = jdoc_parse(path, text, len, d);
	free(text);
	if (json == NULL)
		return NULL;
	struct cmp_doc *doc = cmp_doc_from_json(path, json, d);
	if (doc == NULL) {
		jdoc_free(json);
		return NULL;
	}
	doc->json = json;
	return doc;
}

void cmp_doc_free(struct cmp_doc *doc)
{
	if (doc == NULL)
		return;
	jdoc_free(doc->json);
	strmap_free(doc->index);
	arena_free(&doc->arena);
	free(doc);
}
