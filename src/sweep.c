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
	for (size_t i = 0; i < sw->naxes; i++) {
		free(sw->axes[i].values);
		free(sw->axes[i].labels);
	}
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
			/* a zipped axis: its group's lengths are checked once all are given */
			free(a->values);
			free(a->labels);
			a->values = tmp.values;
			a->labels = tmp.labels;
			a->nvalues = tmp.nvalues;
			a->capvalues = tmp.capvalues;
			a->caplabels = tmp.caplabels;
			a->from_cli = true;
			tmp.values = NULL;
			tmp.labels = NULL;
		}
		free(tmp.values);
		free(tmp.labels);
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
	return true;
}
