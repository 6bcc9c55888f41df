/*
 * Axes and generator ranges (load_axes.h).
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_axes.h"
#include "scalar.h"
#include "strbuf.h"

static void axis_error(struct evsrc *es, struct pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), cold));

static void axis_error(struct evsrc *es, struct pos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ev_verror(es, false, pos, fmt, ap);
	va_end(ap);
}

static __attribute__((cold)) void axis_expected(struct evsrc *es, const char *what, const char *name)
{
	if (!es->ev.bad) {
		char buf[96];
		axis_error(es, es->ev.pos, "expected %s for '%.60s', found %s", what, name,
			   ev_found(&es->ev, buf, sizeof buf));
	}
	ev_skip_value(es);
}

static bool is_null_ev(const struct evsrc *es)
{
	return es->ev.type == EV_SCALAR && !es->ev.quoted && !es->ev.bad &&
	       is_null_scalar(es->ev.value);
}

static const char value_what[] = "a value (a number or a word)";

/* One value of a list. */
static bool scalar_value(struct evsrc *es, struct sweep *sw, struct axis *a, const char *name,
			 bool constants)
{
	const struct ev *e = &es->ev;
	if (e->type != EV_SCALAR || e->bad || is_null_ev(es)) {
		axis_expected(es, value_what, name);
		return false;
	}
	if (constants && tmpl_has_expr(e->value, e->len)) {
		axis_error(es, e->pos, "the values of axis '%.60s' are written out, not computed (found "
			   "'%.60s')", name, e->value);
		ev_next(es);
		return false;
	}
	if (a->nvalues >= SWEEP_MAX_VALUES) {
		axis_error(es, e->pos, "more than %d values for '%.60s'", SWEEP_MAX_VALUES, name);
		ev_next(es);
		return false;
	}
	char why[128];
	if (e->quoted) {
		axis_add(sw, a, expr_str(e->value, (uint32_t)e->len), NULL);
	} else if (!axis_add_text(sw, a, e->value, e->len, why, sizeof why)) {
		axis_error(es, e->pos, "value '%.60s' for '%.60s' is out of range: %s", e->value, name, why);
		ev_next(es);
		return false;
	}
	a->at[a->nvalues - 1] = e->pos;
	ev_next(es);
	return true;
}

/* An integer or float of a range; false after an error. */
static bool range_number(struct evsrc *es, const char *key, const char *name, struct num *out)
{
	const struct ev *e = &es->ev;
	char what[96];
	snprintf(what, sizeof what, "a number for '%s' of", key);
	if (e->type != EV_SCALAR || e->bad || e->quoted || is_null_ev(es) ||
	    parse_number(e->value, out) != SCALAR_OK ||
	    (out->kind == NUM_FLOAT && !isfinite(out->f)) ||
	    (out->kind == NUM_UINT && out->u > INT64_MAX)) {
		axis_expected(es, what, name);
		return false;
	}
	out->pos = e->pos;
	ev_next(es);
	return true;
}

/* pow2: [lo, hi], each 0 to 62. */
static bool pow2_bounds(struct evsrc *es, const char *name, uint64_t b[2], bool none_ok)
{
	static const char what[] = "[first, last] exponents from 0 to 62";
	if (es->ev.type != EV_SEQ) {
		axis_expected(es, what, name);
		return false;
	}
	struct pos pos = es->ev.pos;
	size_t n = 0;
	bool ok = true;
	ev_next(es);
	while (!es->fatal && es->ev.type != EV_SEQ_END) {
		struct num v;
		if (es->ev.type != EV_SCALAR || es->ev.quoted || parse_int(es->ev.value, &v) != SCALAR_OK ||
		    v.kind != NUM_UINT || v.u > 62) {
			if (ok)
				axis_expected(es, what, name);
			else
				ev_skip_value(es);
			ok = false;
			continue;
		}
		if (n < 2)
			b[n] = v.u;
		n++;
		ev_next(es);
	}
	ev_next(es);
	if (ok && n != 2) {
		axis_error(es, pos, "'pow2' of '%.60s' takes [first, last] exponents, found %zu", name, n);
		return false;
	}
	if (ok && b[0] > b[1] && !none_ok) {
		axis_error(es, pos, "'pow2' of '%.60s' is empty: %llu is above %llu", name,
			   (unsigned long long)b[0], (unsigned long long)b[1]);
		return false;
	}
	return ok;
}

static double num_d(const struct num *n)
{
	return num_to_double(n);
}

static int64_t num_i64(const struct num *n)
{
	return n->kind == NUM_INT ? n->i : (int64_t)n->u;
}

/*
 * {from: f, to: t, step: s} of integers, counted in integers: f, f + s,
 * ... while the value does not pass t.  The span |t - f| fits 64 bits
 * unsigned, and each value, between f and t, an int64: no arithmetic here
 * overflows.
 */
static bool int_range(struct evsrc *es, struct sweep *sw, struct axis *a, const char *name,
		      struct pos pos, struct pos step_pos, int64_t f, int64_t t, int64_t s, bool none_ok)
{
	if (s == 0) {
		axis_error(es, step_pos, "'step' of '%.60s' is 0", name);
		return false;
	}
	if ((s > 0 && t < f) || (s < 0 && t > f)) {
		if (none_ok)
			return true;
		axis_error(es, pos, "the range of '%.60s' is empty: from %lld, step %lld never reaches "
			   "%lld", name, (long long)f, (long long)s, (long long)t);
		return false;
	}
	uint64_t span = s > 0 ? (uint64_t)t - (uint64_t)f : (uint64_t)f - (uint64_t)t;
	uint64_t mag = s > 0 ? (uint64_t)s : (uint64_t)0 - (uint64_t)s;
	uint64_t last = span / mag;     /* the last value is f + last * s */
	if (last >= SWEEP_MAX_VALUES) {
		char count[24];
		if (last == UINT64_MAX)
			snprintf(count, sizeof count, "18446744073709551616");
		else
			snprintf(count, sizeof count, "%llu", (unsigned long long)last + 1);
		axis_error(es, pos, "the range of '%.60s' has %s values, more than %d", name, count,
			   SWEEP_MAX_VALUES);
		return false;
	}
	for (uint64_t i = 0; i <= last; i++)
		axis_add(sw, a, expr_int((int64_t)((uint64_t)f + i * (uint64_t)s)), NULL);
	return true;
}

/*
 * {from: f, to: t, step: s} with a float: f + k * s for k = 0, 1, ...,
 * computed in doubles, up to the k of (t - f) / s raised by one part in
 * 10^12, so that an end the steps reach but for rounding is kept
 * ({from: 0, to: 1, step: 0.1}: 11 values); cugraphrun(5) says so.
 */
static bool float_range(struct evsrc *es, struct sweep *sw, struct axis *a, const char *name,
			struct pos pos, struct pos step_pos, double from, double to, double step,
			bool none_ok)
{
	if (step == 0) {
		axis_error(es, step_pos, "'step' of '%.60s' is 0", name);
		return false;
	}
	if ((to - from) / step < 0) {
		if (none_ok)
			return true;
		axis_error(es, pos, "the range of '%.60s' is empty: from %g, step %g never reaches %g",
			   name, from, step, to);
		return false;
	}
	double count = floor((to - from) / step * (1 + 1e-12)) + 1;
	if (!(count <= SWEEP_MAX_VALUES)) {
		axis_error(es, pos, "the range of '%.60s' has %.0f values, more than %d", name, count,
			   SWEEP_MAX_VALUES);
		return false;
	}
	for (size_t i = 0; i < (size_t)count; i++)
		axis_add(sw, a, expr_float(from + (double)i * step), NULL);
	return true;
}

/* {pow2: [lo, hi]} or {from: A, to: B, step: S}; none_ok: one with no values is not an error. */
static bool range_map(struct evsrc *es, struct sweep *sw, struct axis *a, const char *name,
		      bool none_ok)
{
	static const char *const keys[] = {"pow2", "from", "to", "step"};
	struct pos pos = es->ev.pos, at[4] = {{0, 0}};
	bool has[4] = {false}, ok = true;
	uint64_t b[2] = {0, 0};
	struct num v[4];
	ev_next(es);
	while (!es->fatal && es->ev.type != EV_MAP_END) {
		if (es->ev.type != EV_SCALAR || es->ev.bad) {
			axis_expected(es, "a key (pow2, from, to or step)", name);
			ev_skip_value(es);
			ok = false;
			continue;
		}
		int k = -1;
		for (int i = 0; i < 4; i++)
			if (strcmp(es->ev.value, keys[i]) == 0)
				k = i;
		struct pos kpos = es->ev.pos;
		if (k < 0) {
			const char *hint = diag_suggest(es->ev.value, keys, 4);
			if (hint)
				axis_error(es, kpos, "unknown key '%.60s' in the range of '%.60s' (did you mean "
					   "'%s'?)", es->ev.value, name, hint);
			else
				axis_error(es, kpos, "unknown key '%.60s' in the range of '%.60s' (expected "
					   "pow2, from, to or step)", es->ev.value, name);
			ev_next(es);
			ev_skip_value(es);
			ok = false;
			continue;
		}
		if (has[k]) {
			axis_error(es, kpos, "duplicate key '%s' in the range of '%.60s' (first at %u:%u)",
				   keys[k], name, at[k].line, at[k].col);
			ev_next(es);
			ev_skip_value(es);
			ok = false;
			continue;
		}
		has[k] = true;
		at[k] = kpos;
		ev_next(es);
		if (k == 0)
			ok &= pow2_bounds(es, name, b, none_ok);
		else
			ok &= range_number(es, keys[k], name, &v[k]);
	}
	ev_next(es);
	if (!ok)
		return false;
	if (has[0] && (has[1] || has[2] || has[3])) {
		int k = has[1] ? 1 : has[2] ? 2 : 3;
		axis_error(es, at[k], "a range of '%.60s' is {pow2: [first, last]} or {from, to, step}, "
			   "not both (found 'pow2' at %u:%u and '%s')", name, at[0].line, at[0].col, keys[k]);
		return false;
	}
	if (has[0]) {
		for (uint64_t e = b[0]; e <= b[1]; e++) {
			char label[8];
			snprintf(label, sizeof label, "2^%llu", (unsigned long long)e);
			axis_add(sw, a, expr_int((int64_t)1 << e), label);
		}
		return true;
	}
	if (!has[1] || !has[2]) {
		axis_error(es, pos, "missing key '%s' in the range of '%.60s' (a range is {pow2: [first, "
			   "last]} or {from, to, step})", has[1] ? "to" : "from", name);
		return false;
	}
	bool ints = v[1].kind != NUM_FLOAT && v[2].kind != NUM_FLOAT &&
		(!has[3] || v[3].kind != NUM_FLOAT);
	if (ints)
		return int_range(es, sw, a, name, pos, at[3], num_i64(&v[1]), num_i64(&v[2]),
				 has[3] ? num_i64(&v[3]) : 1, none_ok);
	return float_range(es, sw, a, name, pos, at[3], num_d(&v[1]), num_d(&v[2]),
			   has[3] ? num_d(&v[3]) : 1, none_ok);
}

static bool parse_values(struct evsrc *es, struct sweep *sw, struct axis *a, const char *name,
			 bool constants, bool none_ok)
{
	if (es->ev.type == EV_MAP)
		return range_map(es, sw, a, name, none_ok);
	if (es->ev.type != EV_SEQ)
		return scalar_value(es, sw, a, name, constants);
	struct pos pos = es->ev.pos;
	bool ok = true;
	ev_next(es);
	while (!es->fatal && es->ev.type != EV_SEQ_END)
		ok &= scalar_value(es, sw, a, name, constants);
	ev_next(es);
	if (ok && a->nvalues == 0 && !none_ok) {
		axis_error(es, pos, "an empty list of values for '%.60s'", name);
		return false;
	}
	return ok;
}

bool load_range(struct evsrc *es, struct sweep *sw, struct axis *a, const char *name)
{
	return parse_values(es, sw, a, name, false, true);
}

/*
 * Value dup of axis a is one with value first ([1, 1], [2^10, 1024]):
 * the two would make points alike.  Said at dup (at the range, pos, where
 * a range made it).
 */
static __attribute__((cold)) void duplicate(struct evsrc *es, const struct axis *a, size_t dup,
					    size_t first, struct pos pos)
{
	char as[96] = "";
	if (strcmp(a->labels[dup], a->labels[first]) != 0)
		snprintf(as, sizeof as, ", as '%.60s'", a->labels[first]);
	struct pos at = a->at[dup].line ? a->at[dup] : pos;
	if (a->at[first].line)
		axis_error(es, at, "value '%.60s' of axis '%.60s' is given twice (first at %u:%u%s)",
			   a->labels[dup], a->name, a->at[first].line, a->at[first].col, as);
	else
		axis_error(es, at, "value '%.60s' of axis '%.60s' is given twice%s%s%s",
			   a->labels[dup], a->name, *as ? " (" : "", *as ? as + 2 : "", *as ? ")" : "");
}

/* One axis: NAME: values, in zip group zip (0: none). */
static void one_axis(struct evsrc *es, struct sweep *sw, const char *name, struct pos kpos,
		     unsigned zip)
{
	if (!is_identifier(name)) {
		axis_error(es, kpos, "axis name '%.60s' is not a name expressions can use (a letter or "
			   "'_', then letters, digits or '_')", name);
		ev_skip_value(es);
		return;
	}
	struct axis *a = sweep_add_axis(sw, name, kpos, zip, es->d);
	if (a == NULL) {
		ev_skip_value(es);
		return;
	}
	struct pos pos = es->ev.pos;
	size_t first;
	long dup;
	if (parse_values(es, sw, a, name, true, false) && !zip && (dup = axis_duplicate(a, &first)) >= 0)
		duplicate(es, a, (size_t)dup, first, pos);
}

/* The axes of a mapping, each in zip group zip. */
static void axes_map(struct evsrc *es, struct sweep *sw, unsigned zip)
{
	ev_next(es);
	while (!es->fatal && es->ev.type != EV_MAP_END) {
		if (es->ev.type != EV_SCALAR || es->ev.bad) {
			axis_expected(es, "an axis name", "axes");
			ev_skip_value(es);
			continue;
		}
		char name[128];
		struct pos kpos = es->ev.pos;
		snprintf(name, sizeof name, "%s", es->ev.value);
		bool is_zip = !es->ev.quoted && strcmp(name, "zip") == 0;
		ev_next(es);
		if (!is_zip) {
			one_axis(es, sw, name, kpos, zip);
			continue;
		}
		if (zip) {
			axis_error(es, kpos, "a zip inside a zip (a zip group lists axes)");
			ev_skip_value(es);
			continue;
		}
		/* zip: {a: [...], b: [...]}, or a list of such groups */
		bool list = es->ev.type == EV_SEQ;
		if (list)
			ev_next(es);
		do {
			if (list && es->ev.type == EV_SEQ_END)
				break;
			if (es->ev.type != EV_MAP) {
				axis_expected(es, "a mapping of axes walked in step ({a: [...], b: [...]})",
					      "zip");
				continue;
			}
			/* a group is said to be where its zip is (or, in a list, where it starts) */
			axes_map(es, sw, sweep_add_zip(sw, list ? es->ev.pos : kpos));
		} while (list && !es->fatal);
		if (list)
			ev_next(es);
	}
	ev_next(es);
}

/* Each zip group's steps differ: two alike would make two points alike. */
static void zip_steps_differ(struct evsrc *es, const struct sweep *sw)
{
	for (unsigned z = 1; z <= sw->nzips; z++) {
		size_t first;
		long dup = zip_duplicate(sw, z, &first);
		if (dup < 0)
			continue;
		struct strbuf names = {0};
		for (size_t i = 0; i < sw->naxes; i++)
			if (sw->axes[i].zip == z)
				strbuf_printf(&names, "%s%s", names.len ? ", " : "", sw->axes[i].name);
		axis_error(es, sw->zip_pos[z - 1], "steps %zu and %ld of the zip of %s give the same "
			   "values", first + 1, dup + 1, names.buf ? names.buf : "");
		strbuf_free(&names);
	}
}

void load_axes(struct evsrc *es, struct sweep *sw)
{
	if (is_null_ev(es)) {
		ev_next(es);
		return;
	}
	if (es->ev.type != EV_MAP) {
		axis_expected(es, "a mapping of axis names to values", "axes");
		return;
	}
	unsigned errors = es->d->nerrors;
	axes_map(es, sw, 0);
	if (es->d->nerrors == errors)
		zip_steps_differ(es, sw);
}
