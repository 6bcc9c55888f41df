/*
 * A JSON object read by a table of its keys (html_fields.h): the reader's
 * path and budget, its scalars, objects and lists.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "compare_read.h"
#include "html_fields.h"

static __attribute__((format(printf, 3, 0), cold)) bool vfail_at(struct hr *r, struct jr_mark m,
								 const char *fmt, va_list ap)
{
	char what[300];
	diag_code_keep(fmt, ap);
	vsnprintf(what, sizeof what, fmt, ap);
	jr_error(r->p, m, "%s: %s", jr_path_text(&r->path), what);
	return false;
}

bool hr_fail_at(struct hr *r, struct jr_mark m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail_at(r, m, fmt, ap);
	va_end(ap);
	return false;
}

bool hr_fail(struct hr *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail_at(r, jr_here(r->p), fmt, ap);
	va_end(ap);
	return false;
}

struct jr *hr_parser(struct hr *r)
{
	return r->p;
}

void *hr_alloc(struct hr *r, size_t size)
{
	if (size > r->budget) {
		hr_fail(r, "holds more than a report of its size can: the page keeps at most a few "
			"times the text's size");
		return NULL;
	}
	r->budget -= size;
	return arena_alloc(&r->pg->arena, size ? size : 1);
}

/* The next value's type, which must be t or null: *is_null says which.  False after a message. */
bool hr_want(struct hr *r, enum jtype t, bool *is_null)
{
	enum jtype g;
	if (!jr_peek(r->p, &g))
		return false;
	*is_null = g == JNULL;
	if (g == t || g == JNULL)
		return true;
	return hr_fail(r, "%s, not %s or null", jtype_names[g], jtype_names[t]);
}

bool hr_null(struct hr *r, bool *failed)
{
	enum jtype g;
	*failed = !jr_peek(r->p, &g);
	if (*failed || g != JNULL)
		return false;
	*failed = !jr_skip(r->p);
	return !*failed;
}

/* Scalars ----------------------------------------------------------------- */

bool hr_str(struct hr *r, const char **out)
{
	bool is_null;
	struct jscalar s;
	if (!hr_want(r, JSTR, &is_null) || !jr_scalar(r->p, &s))
		return false;
	*out = NULL;
	if (is_null)
		return true;
	char *t = hr_alloc(r, s.len + 1);
	if (t == NULL)
		return false;
	memcpy(t, s.text, s.len);
	*out = t;
	return true;
}

/* The largest whole number a double holds exactly: a count past it is no count. */
#define WHOLE_MAX 9007199254740992.0

/* A number of kind t (HF_NUM, HF_TIME, HF_COUNT, HF_INT), null as NaN. */
bool hr_num(struct hr *r, enum hf_type t, double *out)
{
	bool is_null;
	struct jscalar s;
	if (!hr_want(r, JNUM, &is_null))
		return false;
	struct jr_mark m = jr_here(r->p);
	if (!jr_scalar(r->p, &s))
		return false;
	*out = is_null ? NAN : s.num;
	if (is_null)
		return true;
	double v = s.num;
	const char *more = s.len > 40 ? "..." : "";
	if (!isfinite(v))
		return hr_fail_at(r, m, "%.40s%s is out of range", s.text, more);
	if (t == HF_TIME && !(v >= 0 && v <= REPORT_TIME_MAX_S))
		return hr_fail_at(r, m, "%.40s%s s is no time a report holds: its times are 0 to "
				  "%.0f s (a day)", s.text, more, REPORT_TIME_MAX_S);
	bool whole = v == floor(v) && fabs(v) <= WHOLE_MAX;
	if (t == HF_COUNT && !(whole && v >= 0))
		return hr_fail_at(r, m, "%.40s%s is no count: a whole number, 0 or more", s.text,
				  more);
	if (t == HF_INT && !whole)
		return hr_fail_at(r, m, "%.40s%s is no whole number", s.text, more);
	return true;
}

static bool read_bool(struct hr *r, bool *out)
{
	bool is_null;
	struct jscalar s;
	if (!hr_want(r, JBOOL, &is_null) || !jr_scalar(r->p, &s))
		return false;
	*out = !is_null && s.b;
	return true;
}

/* Objects and lists --------------------------------------------------------- */

static bool is_number(enum hf_type t)
{
	return t == HF_NUM || t == HF_TIME || t == HF_COUNT || t == HF_INT;
}

/* A struct of o's before it is read: every number NaN (not given), the rest zero. */
void hr_set_defaults(const struct hobj *o, char *obj)
{
	for (size_t i = 0; i < o->nfields; i++)
		if (is_number(o->fields[i].type))
			*(double *)(obj + o->fields[i].off) = NAN;
}

static bool read_field(struct hr *r, const struct hfield *f, char *obj);

bool hr_fill(struct hr *r, const struct hobj *o, void *obj)
{
	bool is_null;
	const char *key;
	if (!hr_want(r, JOBJ, &is_null))
		return false;
	if (is_null)
		return hr_fail(r, "null, not an object");
	if (!jr_begin(r->p))
		return false;
	while (jr_next_key(r->p, &key, NULL)) {
		size_t i = 0;
		while (i < o->nfields && strcmp(o->fields[i].key, key) != 0)
			i++;
		size_t was = jr_path_push(&r->path, key);
		bool ok = i < o->nfields ? read_field(r, &o->fields[i], obj) : jr_skip(r->p);
		jr_path_pop(&r->path, was);
		if (!ok)
			return false;
	}
	return !jr_failed(r->p);
}

void *hr_object(struct hr *r, const struct hobj *o)
{
	char *obj = hr_alloc(r, o->size);
	if (obj == NULL)
		return NULL;
	hr_set_defaults(o, obj);
	return hr_fill(r, o, obj) ? obj : NULL;
}

/* A list of o's structs: an array in the arena, grown as it is read. */
static bool read_list(struct hr *r, const struct hobj *o, void **out, size_t *count)
{
	bool is_null;
	if (!hr_want(r, JARR, &is_null))
		return false;
	if (is_null)
		return jr_skip(r->p);
	if (!jr_begin(r->p))
		return false;
	size_t cap = 0, n = 0;
	char *items = hr_alloc(r, 0);
	for (; jr_next_item(r->p); n++) {
		size_t was = jr_path_index(&r->path, n);
		if (o->max_items && n == o->max_items)
			return hr_fail(r, "more than %zu %s: a report holds at most %zu", o->max_items,
				       o->items, o->max_items);
		if (n == cap) {
			/* the old array stays in the arena: charged as well */
			cap = cap ? 2 * cap : 4;
			char *more = hr_alloc(r, cap * o->size);
			if (more == NULL)
				return false;
			memcpy(more, items, n * o->size);
			items = more;
		}
		char *obj = items + n * o->size;
		hr_set_defaults(o, obj);
		bool ok = hr_fill(r, o, obj);
		jr_path_pop(&r->path, was);
		if (!ok)
			return false;
	}
	*out = items;
	*count = n;
	return !jr_failed(r->p);
}

/* A list of times (samples_s, durations_s), counted first; null items are left out. */
static bool read_times(struct hr *r, double **out, size_t *count)
{
	bool is_null;
	size_t n, kept = 0;
	if (!hr_want(r, JARR, &is_null))
		return false;
	if (is_null)
		return jr_skip(r->p);
	if (!jr_numbers_bound(r->p, &n) || !jr_begin(r->p))
		return false;
	double *v = hr_alloc(r, n * sizeof *v);
	if (v == NULL)
		return false;
	for (size_t i = 0; jr_next_item(r->p); i++) {
		double x;
		if (!hr_num(r, HF_TIME, &x))
			return false;
		/* past the bound only after an item that is no number, which read_num refuses */
		if (i >= n)
			return hr_fail(r, "not a list of times");
		if (!isnan(x))
			v[kept++] = x;
	}
	*out = v;
	*count = kept;
	return !jr_failed(r->p);
}

static bool read_strs(struct hr *r, const char ***out, size_t *count)
{
	bool is_null;
	if (!hr_want(r, JARR, &is_null))
		return false;
	if (is_null)
		return jr_skip(r->p);
	size_t n;
	if (!jr_count(r->p, &n) || !jr_begin(r->p))
		return false;
	const char **v = hr_alloc(r, n * sizeof *v);
	if (v == NULL)
		return false;
	size_t k = 0;
	while (k < n && jr_next_item(r->p)) {
		size_t was = jr_path_index(&r->path, k);
		bool ok = hr_str(r, &v[k]);
		jr_path_pop(&r->path, was);
		if (!ok)
			return false;
		k++;
	}
	/* the count read it all: its end comes next */
	if (k == n && jr_next_item(r->p))
		return hr_fail(r, "more items than counted");
	*out = v;
	*count = k;
	return !jr_failed(r->p);
}

static bool read_field(struct hr *r, const struct hfield *f, char *obj)
{
	void *slot = obj + f->off;
	size_t *count = (size_t *)(obj + f->count_off);
	bool is_null;
	switch (f->type) {
	case HF_STR:
		return hr_str(r, slot);
	case HF_NUM:
	case HF_TIME:
	case HF_COUNT:
	case HF_INT:
		return hr_num(r, f->type, slot);
	case HF_BOOL:
		return read_bool(r, slot);
	case HF_OBJ:
		if (!hr_want(r, JOBJ, &is_null))
			return false;
		if (is_null)
			return jr_skip(r->p);
		return (*(void **)slot = hr_object(r, f->sub)) != NULL;
	case HF_LIST:
		return read_list(r, f->sub, slot, count);
	case HF_TIMES:
		return read_times(r, slot, count);
	case HF_STRS:
		return read_strs(r, slot, count);
	case HF_CUSTOM:
		return f->read(r, slot);
	}
	return false;
}
