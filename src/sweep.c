/*
 * Axes, points and labels of a sweep (sweep.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_derive.h"
#include "scalar.h"
#include "strmap.h"
#include "sweep.h"

static const struct pos nopos;

struct sweep *sweep_new(void)
{
	return xcalloc(1, sizeof(struct sweep));
}

void sweep_free(struct sweep *sw)
{
	if (sw == NULL)
		return;
	for (size_t i = 0; i < sw->naxes; i++)
		axis_free(&sw->axes[i]);
	free(sw->axes);
	free(sw->zip_pos);
	free(sw->index);
	free(sw->labels);
	if (sw->models)
		for (size_t k = 0; k < sw->npoints; k++)
			derive_free(sw->models[k]);
	free(sw->models);
	free(sw->eval_s);
	free(sw->base);
	free(sw->used);
	arena_free(&sw->arena);
	free(sw);
}

static struct axis *sweep_axis(const struct sweep *sw, const char *name)
{
	for (size_t i = 0; i < sw->naxes; i++)
		if (strcmp(sw->axes[i].name, name) == 0)
			return &sw->axes[i];
	return NULL;
}

struct axis *sweep_add_axis(struct sweep *sw, const char *name, struct pos pos, unsigned zip,
			    struct diag *d)
{
	const struct axis *old = sweep_axis(sw, name);
	if (old) {
		diag_error(d, pos, "duplicate axis '%.60s' (first at %u:%u)", name, old->pos.line,
			   old->pos.col);
		return NULL;
	}
	struct axis *a = VEC_PUSH(sw->axes, sw->naxes, sw->capaxes);
	a->name = arena_strdup(&sw->arena, name);
	a->pos = pos;
	a->zip = zip;
	return a;
}

void axis_free(struct axis *a)
{
	free(a->values);
	free(a->labels);
	free(a->at);
	a->values = NULL;
	a->labels = NULL;
	a->at = NULL;
	a->nvalues = a->capvalues = a->caplabels = a->capat = 0;
}

unsigned sweep_add_zip(struct sweep *sw, struct pos pos)
{
	*VEC_PUSH(sw->zip_pos, sw->nzips, sw->capzips) = pos;
	return (unsigned)sw->nzips;
}

void axis_add(struct sweep *sw, struct axis *a, struct expr_val v, const char *label)
{
	struct strbuf sb = {0};
	if (v.type == EXPR_STR)
		v.s = arena_strndup(&sw->arena, v.s, v.len);
	if (label == NULL) {
		expr_format(&v, &sb);
		label = sb.buf;
	}
	*VEC_PUSH(a->values, a->nvalues, a->capvalues) = v;
	size_t n = a->nvalues - 1;
	*VEC_PUSH(a->labels, n, a->caplabels) = arena_strdup(&sw->arena, label);
	n = a->nvalues - 1;
	*VEC_PUSH(a->at, n, a->capat) = (struct pos){0, 0};
	strbuf_free(&sb);
}

bool axis_add_text(struct sweep *sw, struct axis *a, const char *s, size_t len, char *why,
		   size_t why_len)
{
	char buf[128];
	if (len >= sizeof buf) {
		axis_add(sw, a, expr_str(s, (uint32_t)len), NULL);
		return true;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	/* 2^K: the power, labelled as written */
	if (buf[0] == '2' && buf[1] == '^' && buf[2] >= '0' && buf[2] <= '9') {
		uint64_t k;
		if (parse_u64(buf + 2, &k) == SCALAR_OK) {
			if (k > 62) {
				snprintf(why, why_len, "%s is too large (at most 2^62)", buf);
				return false;
			}
			axis_add(sw, a, expr_int((int64_t)1 << k), buf);
			return true;
		}
	}
	struct num n;
	switch (parse_number(buf, &n)) {
	case SCALAR_OK:
		if (n.kind == NUM_FLOAT)
			axis_add(sw, a, expr_float(n.f), NULL);
		else if (n.kind == NUM_INT)
			axis_add(sw, a, expr_int(n.i), NULL);
		else if (n.u > INT64_MAX) {
			snprintf(why, why_len, "%s is too large (at most 9223372036854775807)", buf);
			return false;
		} else {
			axis_add(sw, a, expr_int((int64_t)n.u), NULL);
		}
		return true;
	case SCALAR_RANGE:
		snprintf(why, why_len, "%s is too large (at most 9223372036854775807)", buf);
		return false;
	default:
		axis_add(sw, a, expr_str(buf, (uint32_t)len), NULL);
		return true;
	}
}

void sweep_note_use(struct sweep *sw, const char *name)
{
	for (size_t i = 0; i < sw->nused; i++)
		if (strcmp(sw->used[i], name) == 0)
			return;
	*VEC_PUSH(sw->used, sw->nused, sw->capused) = arena_strdup(&sw->arena, name);
}

static bool used(const struct sweep *sw, const char *name)
{
	for (size_t i = 0; i < sw->nused; i++)
		if (strcmp(sw->used[i], name) == 0)
			return true;
	return false;
}

/* "n, T and block", or "none" */
static void axis_names(const struct sweep *sw, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	if (sw->naxes == 0)
		snprintf(buf, len, "it has none");
	for (size_t i = 0; i < sw->naxes && at < len; i++) {
		const char *sep = i == 0 ? "its axes: " : i + 1 == sw->naxes ? " and " : ", ";
		int w = snprintf(buf + at, len - at, "%s%s", sep, sw->axes[i].name);
		if (w < 0)
			break;
		at += (size_t)w;
	}
}

/* Two values are the same value: same type and value, or the same label. */
static bool same_value(const struct expr_val *a, const char *alabel, const struct expr_val *b,
		       const char *blabel)
{
	if (strcmp(alabel, blabel) == 0)
		return true;
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case EXPR_INT:
		return a->i == b->i;
	case EXPR_FLOAT:
		return a->f == b->f;
	case EXPR_STR:
		return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
	}
	return false;
}

/*
 * A value's typed key, for a map (same_value's other half): "i" and the
 * integer, "f" and the float's bits (0.0 for -0.0), "s" and the word.
 */
static char *typed_key(struct arena *ar, const struct expr_val *v)
{
	char buf[40];
	switch (v->type) {
	case EXPR_INT:
		snprintf(buf, sizeof buf, "i%lld", (long long)v->i);
		return arena_strdup(ar, buf);
	case EXPR_FLOAT:
		snprintf(buf, sizeof buf, "f%a", v->f == 0 ? 0.0 : v->f);
		return arena_strdup(ar, buf);
	case EXPR_STR: {
		char *k = arena_alloc(ar, v->len + 2);
		k[0] = 's';
		memcpy(k + 1, v->s, v->len);
		return k;
	}
	}
	return arena_strdup(ar, "?");
}

long axis_duplicate(const struct axis *a, size_t *first)
{
	struct strmap *labels = strmap_new(a->nvalues), *typed = strmap_new(a->nvalues);
	struct arena ar = {0};
	long dup = -1, old;
	for (size_t i = 0; i < a->nvalues && dup < 0; i++) {
		if (!strmap_put(labels, a->labels[i], (long)i, &old) ||
		    !strmap_put(typed, typed_key(&ar, &a->values[i]), (long)i, &old)) {
			dup = (long)i;
			*first = (size_t)old;
		}
	}
	strmap_free(labels);
	strmap_free(typed);
	arena_free(&ar);
	return dup;
}

long zip_duplicate(const struct sweep *sw, unsigned zip, size_t *first)
{
	size_t n = 0;
	for (size_t i = 0; i < sw->naxes; i++)
		if (sw->axes[i].zip == zip)
			n = sw->axes[i].nvalues;
	struct strmap *labels = strmap_new(n), *typed = strmap_new(n);
	struct arena ar = {0};
	struct strbuf l = {0}, t = {0};
	long dup = -1, old;
	for (size_t k = 0; k < n && dup < 0; k++) {
		strbuf_truncate(&l, 0);
		strbuf_truncate(&t, 0);
		for (size_t i = 0; i < sw->naxes; i++) {
			const struct axis *a = &sw->axes[i];
			if (a->zip != zip || k >= a->nvalues)
				continue;
			/* (a NUL between the parts: no value holds one) */
			strbuf_add(&l, a->labels[k], strlen(a->labels[k]) + 1);
			char *key = typed_key(&ar, &a->values[k]);
			strbuf_add(&t, key, strlen(key) + 1);
		}
		char *lk = arena_alloc(&ar, l.len + 1), *tk = arena_alloc(&ar, t.len + 1);
		for (size_t j = 0; j < l.len; j++)
			lk[j] = l.buf[j] ? l.buf[j] : '\x01';
		for (size_t j = 0; j < t.len; j++)
			tk[j] = t.buf[j] ? t.buf[j] : '\x01';
		if (!strmap_put(labels, lk, (long)k, &old) || !strmap_put(typed, tk, (long)k, &old)) {
			dup = (long)k;
			*first = (size_t)old;
		}
	}
	strbuf_free(&l);
	strbuf_free(&t);
	strmap_free(labels);
	strmap_free(typed);
	arena_free(&ar);
	return dup;
}

/* --set NAME=V on a zipped axis: keep the steps of its zip where NAME is V. */
static bool set_zipped(struct sweep *sw, struct axis *a, const struct axis *v, struct diag *d)
{
	size_t keep = SIZE_MAX;
	for (size_t i = 0; i < a->nvalues && keep == SIZE_MAX; i++)
		if (same_value(&a->values[i], a->labels[i], &v->values[0], v->labels[0]))
			keep = i;
	if (keep == SIZE_MAX) {
		diag_error(d, nopos, "--set %s=%s: axis '%s' is zipped and has no such value",
			   a->name, v->labels[0], a->name);
		return false;
	}
	for (size_t j = 0; j < sw->naxes; j++) {
		struct axis *z = &sw->axes[j];
		if (z->zip != a->zip || keep >= z->nvalues)
			continue;
		z->values[0] = z->values[keep];
		z->labels[0] = z->labels[keep];
		z->at[0] = z->at[keep];
		z->nvalues = 1;
	}
	return true;
}

/* Was axis a given by an -a of args? */
static bool given(const struct axis *a, const struct axis_arg *args, size_t nargs)
{
	for (size_t i = 0; i < nargs; i++)
		if (!args[i].set && strlen(a->name) == args[i].name_len &&
		    strncmp(a->name, args[i].name, args[i].name_len) == 0)
			return true;
	return false;
}

/*
 * -a on zipped axes replaces them together: each zip group that an -a
 * changed must keep one length, or an error says which to give too.
 */
static bool zips_agree(const struct sweep *sw, const struct axis_arg *args, size_t nargs,
		       struct diag *d)
{
	bool ok = true;
	for (size_t i = 0; i < sw->naxes; i++) {
		const struct axis *a = &sw->axes[i];
		if (!a->zip || !given(a, args, nargs))
			continue;
		for (size_t j = 0; j < sw->naxes; j++) {
			const struct axis *b = &sw->axes[j];
			if (b->zip != a->zip || b->nvalues == a->nvalues)
				continue;
			if (given(b, args, nargs) && j < i)
				continue;       /* said from b's side */
			if (given(b, args, nargs))
				diag_error(d, nopos, "-a %s gives %zu value%s and -a %s %zu, but the "
					   "axes are zipped: give them as many values each", a->name,
					   a->nvalues, a->nvalues == 1 ? "" : "s", b->name, b->nvalues);
			else
				diag_error(d, nopos, "-a %s gives %zu value%s to an axis zipped with "
					   "'%s', which has %zu: give -a %s=... as many too", a->name,
					   a->nvalues, a->nvalues == 1 ? "" : "s", b->name, b->nvalues,
					   b->name);
			ok = false;
			break;
		}
	}
	return ok;
}

bool sweep_apply_args(struct sweep *sw, const struct axis_arg *args, size_t nargs,
		      struct diag *d)
{
	bool ok = true;
	for (size_t i = 0; i < nargs; i++) {
		const struct axis_arg *g = &args[i];
		const char *opt = g->set ? "--set" : "-a";
		char name[128], why[128];
		if (g->name_len == 0 || g->name_len >= sizeof name) {
			diag_error(d, nopos, "%s: expected NAME=VALUE%s", opt, g->set ? "" : ",...");
			ok = false;
			continue;
		}
		memcpy(name, g->name, g->name_len);
		name[g->name_len] = '\0';
		struct axis tmp = {0};
		tmp.name = name;
		bool good = true;
		size_t nvals = 0;
		for (const char *p = g->values;;) {
			size_t len = strcspn(p, ",");
			if (len == 0) {
				diag_error(d, nopos, "%s %s: an empty value", opt, name);
				good = false;
				break;
			}
			if (!axis_add_text(sw, &tmp, p, len, why, sizeof why)) {
				diag_code("sweep-axis-option-value");
				diag_error(d, nopos, "%s %s: %s", opt, name, why);
				good = false;
				break;
			}
			nvals++;
			if (p[len] == '\0' || g->set)
				break;
			p += len + 1;
		}
		if (good && g->set && strchr(g->values, ',')) {
			diag_error(d, nopos, "--set %s: one value (-a %s=V1,V2,... gives several)",
				   name, name);
			good = false;
		}
		struct axis *a = good ? sweep_axis(sw, name) : NULL;
		if (good && a == NULL && !used(sw, name)) {
			char names[256];
			axis_names(sw, names, sizeof names);
			diag_error(d, nopos, "%s %s: the file has no axis '%s' and no expression uses "
				   "that name (%s)", opt, name, name, names);
			good = false;
		}
		if (good && a == NULL) {
			a = sweep_add_axis(sw, name, nopos, 0, d);
			a->from_cli = true;
		}
		/* (a zipped axis may repeat a value: its zip's steps must differ, checked there) */
		size_t first;
		long dup = good && !a->zip ? axis_duplicate(&tmp, &first) : -1;
		if (dup >= 0) {
			diag_error(d, nopos, "%s %s: value '%s' is given twice", opt, name,
				   tmp.labels[dup]);
			good = false;
		}
		/* a value the file's axis has keeps the file's label (2048 is its 2^11) */
		for (size_t v = 0; good && a && v < tmp.nvalues; v++)
			for (size_t w = 0; w < a->nvalues; w++)
				if (same_value(&tmp.values[v], tmp.labels[v], &a->values[w],
					       a->labels[w])) {
					tmp.values[v] = a->values[w];
					tmp.labels[v] = a->labels[w];
					break;
				}
		if (good && a->zip && g->set) {
			good = set_zipped(sw, a, &tmp, d);
		} else if (good) {
			axis_free(a);
			a->values = tmp.values;
			a->labels = tmp.labels;
			a->at = tmp.at;
			a->nvalues = tmp.nvalues;
			a->capvalues = tmp.capvalues;
			a->caplabels = tmp.caplabels;
			a->capat = tmp.capat;
			a->from_cli = true;
			tmp.values = NULL;
			tmp.labels = NULL;
			tmp.at = NULL;
		}
		axis_free(&tmp);
		ok &= good;
	}
	bool zips = zips_agree(sw, args, nargs, d);
	return ok && zips;
}

/* One dimension of the product: an axis, or a zip group of them. */
struct dim {
	size_t first;           /* its first axis */
	unsigned zip;
	size_t len;
};

void sweep_dims_text(const struct sweep *sw, char *buf, size_t len)
{
	struct strbuf sb = {0};
	for (size_t i = 0; i < sw->naxes; i++) {
		const struct axis *a = &sw->axes[i];
		bool said = false;      /* with its zip group's first axis */
		for (size_t k = 0; a->zip && k < i; k++)
			said |= sw->axes[k].zip == a->zip;
		if (said)
			continue;
		if (sb.len)
			strbuf_printf(&sb, " x ");
		if (!a->zip) {
			strbuf_printf(&sb, "%s: %zu value%s", a->name, a->nvalues,
				      a->nvalues == 1 ? "" : "s");
			continue;
		}
		strbuf_printf(&sb, "zip of ");
		for (size_t k = i; k < sw->naxes; k++)
			if (sw->axes[k].zip == a->zip)
				strbuf_printf(&sb, "%s%s", k == i ? "" : ", ", sw->axes[k].name);
		strbuf_printf(&sb, ": %zu value%s", a->nvalues, a->nvalues == 1 ? "" : "s");
	}
	snprintf(buf, len, "%s", sb.len ? sb.buf : "no axes");
	strbuf_free(&sb);
}

/*
 * Point p's value of an axis that holds one of the characters that join
 * a label's parts (',' or '='), its axis in *axis; -1 when none does.
 */
static long joining_value(const struct sweep *sw, size_t p, size_t *axis)
{
	for (size_t i = 0; i < sw->naxes; i++) {
		const char *l = sweep_value_label(sw, p, i);
		if (strpbrk(l, ",=")) {
			*axis = i;
			return (long)sw->index[p * sw->naxes + i];
		}
	}
	return -1;
}

/*
 * Every point's label its own: reports and --compare tell points apart by
 * their labels, which values holding commas can make alike.
 */
static bool labels_differ(const struct sweep *sw, struct diag *d)
{
	struct strmap *seen = strmap_new(sw->npoints);
	bool ok = true;
	for (size_t p = 0; p < sw->npoints && ok; p++) {
		long q;
		if (strmap_put(seen, sw->labels[p], (long)p, &q))
			continue;
		size_t axis = 0;
		long v = joining_value(sw, (size_t)q, &axis);
		if (v < 0)
			v = joining_value(sw, p, &axis);
		const struct axis *a = &sw->axes[axis];
		struct pos at = v >= 0 && a->at[v].line ? a->at[v] : a->pos;
		diag_error(d, at, "points %ld and %zu have the same label '%s': value '%s' of axis "
			   "'%s' holds a '%c' (labels join NAME=VALUE with commas)", q + 1, p + 1,
			   sw->labels[p], v >= 0 ? a->labels[v] : "?", a->name,
			   v >= 0 && strchr(a->labels[v], ',') ? ',' : '=');
		ok = false;
	}
	strmap_free(seen);
	return ok;
}

bool sweep_enumerate(struct sweep *sw, struct diag *d)
{
	struct dim *dims = xcalloc(sw->naxes ? sw->naxes : 1, sizeof *dims);
	size_t ndims = 0;
	bool ok = true;
	for (size_t i = 0; i < sw->naxes; i++) {
		const struct axis *a = &sw->axes[i];
		size_t k = 0;
		while (k < ndims && !(a->zip && dims[k].zip == a->zip))
			k++;
		if (k == ndims) {
			dims[ndims++] = (struct dim){i, a->zip, a->nvalues};
			continue;
		}
		const struct axis *f = &sw->axes[dims[k].first];
		if (a->nvalues != f->nvalues && ok) {
			diag_error(d, sw->zip_pos[a->zip - 1], "zipped axes differ in length: '%s' "
				   "has %zu value%s, '%s' %zu", f->name, f->nvalues,
				   f->nvalues == 1 ? "" : "s", a->name, a->nvalues);
			ok = false;
		}
	}
	size_t n = 1;
	for (size_t k = 0; k < ndims && ok; k++) {
		if (dims[k].len == 0) {
			n = 0;
			break;
		}
		if (n > SWEEP_MAX_POINTS / dims[k].len) {
			diag_error(d, sw->naxes ? sw->axes[0].pos : nopos, "the axes give more than %d "
				   "points", SWEEP_MAX_POINTS);
			ok = false;
		}
		n *= dims[k].len;
	}
	if (!ok || n == 0) {
		free(dims);
		return ok && n != 0;
	}
	sw->npoints = n;
	sw->index = xcalloc(n * (sw->naxes ? sw->naxes : 1), sizeof *sw->index);
	sw->labels = xcalloc(n, sizeof *sw->labels);
	struct strbuf sb = {0};
	for (size_t p = 0; p < n; p++) {
		size_t rest = p;
		for (size_t k = 0; k < ndims; k++) {
			size_t at = rest % dims[k].len;
			rest /= dims[k].len;
			for (size_t i = 0; i < sw->naxes; i++)
				if (i == dims[k].first ||
				    (dims[k].zip && sw->axes[i].zip == dims[k].zip))
					sw->index[p * sw->naxes + i] = at;
		}
		strbuf_truncate(&sb, 0);
		for (size_t i = 0; i < sw->naxes; i++) {
			if (i)
				strbuf_addc(&sb, ',');
			strbuf_add(&sb, sw->axes[i].name, strlen(sw->axes[i].name));
			strbuf_addc(&sb, '=');
			const char *l = sweep_value_label(sw, p, i);
			strbuf_add(&sb, l, strlen(l));
		}
		sw->labels[p] = arena_strndup(&sw->arena, sb.buf ? sb.buf : "", sb.len);
	}
	strbuf_free(&sb);
	free(dims);
	return labels_differ(sw, d);
}
