/*
 * Checks after the verification launch (buf_check.h): a slice of a
 * buffer's host copy compared element by element with what the check
 * expects, one of its figures compared with bounds, or searched for NaN
 * and infinity.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf_check.h"
#include "buf_formula.h"
#include "buf_reduce.h"
#include "buf_region.h"
#include "fileio.h"
#include "xmalloc.h"

/* The slice a check looks at: offset and count (the validator sets count). */
static uint64_t slice_count(const struct check *c, const struct buffer *b)
{
	uint64_t n = b->size / elem_infos[b->type].size;
	if (c->has_count || c->count)
		return c->count;
	return c->offset < n ? n - c->offset : 0;
}

/*
 * The buffer's flat index of element i of the slice's data (a flat
 * slice: i itself); a region's element i (its elements in order) as the
 * buffer's.  *run: how many elements from i on follow it in the buffer
 * (the rest of its row of the region; UINT64_MAX for a flat slice).
 */
static uint64_t checked_index(const struct check *c, const struct buffer *b, uint64_t i,
			      uint64_t *run)
{
	const struct region *r = c->region;
	if (r == NULL) {
		*run = UINT64_MAX;
		return i;
	}
	uint64_t w = buffer_extent(b, AXIS_X), h = buffer_extent(b, AXIS_Y);
	uint64_t x = r->first[0][AXIS_X] + i % r->ext[AXIS_X];
	uint64_t y = r->first[0][AXIS_Y] + i / r->ext[AXIS_X] % r->ext[AXIS_Y];
	uint64_t z = r->first[0][AXIS_Z] + i / r->ext[AXIS_X] / r->ext[AXIS_Y];
	*run = r->ext[AXIS_X] - i % r->ext[AXIS_X];
	return (z * h + y) * w + x;
}

/*
 * "index 261" for element i of the slice's data (a flat slice: the
 * buffer's index), "index 261 [2, 61]" where the buffer has a shape
 * (formula_where's words, those of a formula's message).
 */
static void at_words(const struct check *c, const struct buffer *b, uint64_t i, char *buf,
		     size_t len)
{
	char xyz[96];
	uint64_t run;
	i = checked_index(c, b, i, &run);
	formula_where(b, i, xyz, sizeof xyz);
	snprintf(buf, len, "%" PRIu64 "%s", i, xyz);
}

/*
 * "buffer 'x'", or "elements 10 to 19 of buffer 'x'" for a slice, "region
 * [0:4, 2:3] of buffer 'x'" for a region: what a message says was checked.
 */
static void what_checked(const struct check *c, const struct buffer *b, uint64_t n,
			 char *buf, size_t len)
{
	uint64_t all = b->size / elem_infos[b->type].size;
	char reg[160];
	if (c->region) {
		region_words(c->region, 0, b, reg, sizeof reg);
		snprintf(buf, len, "region %s of buffer '%s'", reg, b->name);
	} else if (c->offset == 0 && n == all)
		snprintf(buf, len, "buffer '%s'", b->name);
	else if (n == 1)
		snprintf(buf, len, "element %" PRIu64 " of buffer '%s'", c->offset, b->name);
	else
		snprintf(buf, len, "elements %" PRIu64 " to %" PRIu64 " of buffer '%s'", c->offset,
			 c->offset + n - 1, b->name);
}

/* The expected elements of an expect check: n of them, or one (*stride 0). */
static unsigned char *expected_bytes(const struct check *c, const struct buffer *b, uint64_t n,
				     const void *ref_data, unsigned char one[8], size_t *stride,
				     struct diag *d)
{
	enum elem_type t = b->type;
	unsigned es = elem_infos[t].size;
	char why[128];
	const char *err;
	struct pos at = c->expect_pos.line ? c->expect_pos : c->pos;
	unsigned char *expect;
	*stride = es;
	switch (c->expect) {
	case EXPECT_SCALAR:
		err = num_encode(&c->scalar, t, one, why, sizeof why);
		if (err) {
			diag_error(d, c->scalar.pos.line ? c->scalar.pos : c->pos,
				   "check of buffer '%s': %s", b->name, err);
			return NULL;
		}
		*stride = 0;
		return one;
	case EXPECT_LIST:
		if (c->nlist != n) {
			diag_error(d, at, "check of buffer '%s' lists %zu values, expected %" PRIu64
				   " (one per element)", b->name, c->nlist, n);
			return NULL;
		}
		expect = xmalloc(n ? n * es : 1);
		for (size_t i = 0; i < c->nlist; i++) {
			err = num_encode(&c->list[i], t, expect + i * es, why, sizeof why);
			if (err) {
				diag_error(d, c->list[i].pos.line ? c->list[i].pos : c->pos,
					   "check of buffer '%s': %s", b->name, err);
				free(expect);
				return NULL;
			}
		}
		return expect;
	case EXPECT_FILE: {
		uint64_t bytes = n * es, actual = 0;
		expect = xmalloc(bytes ? bytes : 1);
		const char *path = c->path ? c->path : c->file;
		int rc = read_file_exact(path, expect, bytes, &actual);
		if (rc == 1)
			diag_error(d, at, "expected file '%s' has %" PRIu64 " bytes, the check of "
				   "buffer '%s' needs %" PRIu64, c->file, actual, b->name, bytes);
		else if (rc != 0)
			diag_error(d, at, "cannot read expected file '%s' for buffer '%s': %s",
				   c->file, b->name, strerror(errno));
		if (rc != 0) {
			free(expect);
			return NULL;
		}
		return expect;
	}
	case EXPECT_BUFFER:
		/* the validator saw that the slice fits it and has b's type */
		return (unsigned char *)ref_data + c->ref_offset * es;
	case EXPECT_FORMULA:
		break;          /* check_formula's */
	}
	return NULL;
}

/* The failure of an expect check: the first differing element and how many differ. */
static void expect_failed(const struct check *c, const struct buffer *b, const unsigned char *e,
			  const unsigned char *a, uint64_t first, uint64_t ndiff, uint64_t n,
			  const struct buffer *ref, struct diag *d)
{
	enum elem_type t = b->type;
	unsigned es = elem_infos[t].size;
	char ev[64], av[64], whole[200], of[224], at[128];
	elem_format(t, e, ev, sizeof ev);
	elem_format(t, a, av, sizeof av);
	at_words(c, b, c->offset + first, at, sizeof at);
	uint64_t all = b->size / es;
	if ((c->offset == 0 && n == all) || (c->region && n > 1))
		snprintf(of, sizeof of, " (%" PRIu64 " of %" PRIu64 " elements differ)", ndiff, n);
	else if (n > 1)
		snprintf(of, sizeof of, " (%" PRIu64 " of the %" PRIu64 " elements from index %"
			 PRIu64 " differ)", ndiff, n, c->offset);
	else
		of[0] = '\0';
	if (ref) {
		snprintf(whole, sizeof whole, " from buffer '%s'", ref->name);
		diag_error(d, c->pos, "check failed: buffer '%s' differs%s at index %s: "
			   "expected %s ('%s'[%" PRIu64 "]), got %s%s", b->name, whole, at, ev,
			   ref->name, c->ref_offset + first, av, of);
	} else {
		diag_error(d, c->pos, "check failed: buffer '%s' differs at index %s: "
			   "expected %s, got %s%s", b->name, at, ev, av, of);
	}
}

/*
 * expect: {formula: ...}: the expected values a block at a time, each
 * block compared as it comes (a 16M-element check holds no second copy).
 */
static bool check_formula(const struct check *c, const struct buffer *b, const void *data,
			  uint64_t n, struct diag *d)
{
	enum elem_type t = b->type;
	unsigned es = elem_infos[t].size;
	struct expr_err err;
	struct formula_prog *p = formula_compile(&c->formula, b, &err);
	char what[160];
	snprintf(what, sizeof what, "expected value of buffer '%s'", b->name);
	if (p == NULL) {
		diag_code(err.code);
		diag_error(d, formula_pos(&c->formula, err.off), "%s: %s", what, err.msg);
		return false;
	}
	enum { BLOCK = 4096 };
	unsigned char *expect = xmalloc(BLOCK * es), first_e[8] = {0};
	const unsigned char *act = (const unsigned char *)data + c->offset * es;
	uint64_t ndiff = 0, first = 0, at;
	char why[200];
	bool ok = true;
	size_t m;
	for (uint64_t i = 0, run; i < n && ok; i += m) {
		/* a region's elements are indexed as the buffer's: a block stays in its row */
		uint64_t flat = checked_index(c, b, c->offset + i, &run);
		size_t k = 0;
		m = n - i < BLOCK ? (size_t)(n - i) : BLOCK;
		if (run < m)
			m = (size_t)run;
		if (!formula_values(p, flat, m, expect, &at, why, sizeof why, &err)) {
			formula_report(&c->formula, b, what, at, why, &err, d);
			ok = false;
			break;
		}
		uint64_t nd = elems_differ(t, act + i * es, expect, m, c->rtol, c->atol, &k);
		if (nd && ndiff == 0) {
			first = i + k;
			memcpy(first_e, expect + k * es, es);
		}
		ndiff += nd;
	}
	if (ok && ndiff)
		expect_failed(c, b, first_e, act + first * es, first, ndiff, n, NULL, d);
	free(expect);
	formula_free(p);
	return ok && ndiff == 0;
}

static bool check_expect(const struct check *c, const struct buffer *b, const void *data,
			 uint64_t n, const struct check_others *others, struct diag *d)
{
	if (c->expect == EXPECT_FORMULA)
		return check_formula(c, b, data, n, d);
	enum elem_type t = b->type;
	unsigned es = elem_infos[t].size;
	unsigned char one[8];
	size_t stride;
	bool two = c->expect == EXPECT_BUFFER;
	const struct buffer *ref = two ? &others->buffers[c->ref.idx] : NULL;
	const void *ref_data = two ? others->data[c->ref.idx] : NULL;
	unsigned char *expect = expected_bytes(c, b, n, ref_data, one, &stride, d);
	if (expect == NULL)
		return false;
	const unsigned char *act = (const unsigned char *)data + c->offset * es;
	uint64_t ndiff = 0, first = 0;
	for (uint64_t i = 0; i < n; i++)
		if (!elem_matches(t, act + i * es, expect + i * stride, c->rtol, c->atol))
			if (ndiff++ == 0)
				first = i;
	if (ndiff)
		expect_failed(c, b, expect + first * stride, act + first * es, first, ndiff, n, ref, d);
	if (expect != one && c->expect != EXPECT_BUFFER)
		free(expect);
	return ndiff == 0;
}

static bool check_finite(const struct check *c, const struct buffer *b, const void *data,
			 uint64_t n, struct diag *d)
{
	enum elem_type t = b->type;
	unsigned es = elem_infos[t].size;
	const unsigned char *p = (const unsigned char *)data + c->offset * es;
	uint64_t bad = 0, first = 0;
	for (uint64_t i = 0; i < n; i++)
		if (!isfinite(elem_to_double(t, p + i * es)) && bad++ == 0)
			first = i;
	if (bad == 0)
		return true;
	char what[200], v[64], at[128];
	what_checked(c, b, n, what, sizeof what);
	elem_format(t, p + first * es, v, sizeof v);
	at_words(c, b, c->offset + first, at, sizeof at);
	diag_error(d, c->pos, "check failed: %s holds %" PRIu64 " NaN or infinite element%s, "
		   "the first at index %s: %s", what, bad, bad == 1 ? "" : "s", at, v);
	return false;
}

/* The number a bound stands for: its value, or the element of a buffer it names. */
static struct num bound_value(const struct bound *bd, const struct check_others *others)
{
	if (bd->ref.name == NULL)
		return bd->value;
	const struct buffer *r = &others->buffers[bd->ref.idx];
	enum elem_type t = r->type;
	unsigned es = elem_infos[t].size;
	const unsigned char *p = (const unsigned char *)others->data[bd->ref.idx] + bd->offset * es;
	struct num n = {.pos = bd->ref.pos};
	if (elem_infos[t].is_float) {
		n.kind = NUM_FLOAT;
		n.f = elem_to_double(t, p);
	} else {
		struct figure f;
		reduce_slice(RED_MIN, t, p, 0, 1, NULL, 0, 0, &f);
		n.kind = f.i < 0 ? NUM_INT : NUM_UINT;
		if (f.i < 0)
			n.i = (int64_t)f.i;
		else
			n.u = (uint64_t)f.i;
	}
	return n;
}

/* The bounds of cmp as text: "<= 1e-10", ">= 0 and <= 1", "near 3.14 (rtol 1e-06)". */
static void bounds_text(const struct compare *cmp, const struct num *values,
			const struct check_others *others, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int op = 0; op < BOUND_COUNT && used < len; op++) {
		if (!(cmp->ops & (1u << op)))
			continue;
		char v[64], from[160] = "";
		const struct bound *bd = &cmp->bound[op];
		num_format(&values[op], v, sizeof v);
		if (bd->ref.name)
			snprintf(from, sizeof from, " ('%s'[%" PRIu64 "])",
				 others->buffers[bd->ref.idx].name, bd->offset);
		int w = snprintf(buf + used, len - used, "%s%s %s%s", used ? " and " : "",
				 bound_symbols[op], v, from);
		if (w > 0)
			used += (size_t)w;
		if (op == BOUND_NEAR && used < len) {
			w = snprintf(buf + used, len - used, " (rtol %g, atol %g)", cmp->rtol,
				     cmp->atol);
			if (w > 0)
				used += (size_t)w;
		}
	}
}

/*
 * The figure as a message says it: "the sum of buffer 'x' is 4950",
 * "buffer 'x' has 3 nonzero elements (the first at index 4)".  Floats
 * with 9 digits, or 17 when 9 would print a failed bound's own value.
 */
static void figure_text(const struct check *c, const struct buffer *b, uint64_t n,
			const struct figure *f, const struct num *values, char *buf, size_t len)
{
	char what[200], v[64];
	what_checked(c, b, n, what, sizeof what);
	figure_format(f, 9, v, sizeof v);
	for (int op = 0; op < BOUND_COUNT && !f->is_int; op++) {
		char bound[64];
		if (!(c->cmp.ops & (1u << op)) ||
		    figure_holds(f, (enum bound_op)op, &values[op], c->cmp.rtol, c->cmp.atol))
			continue;
		num_format(&values[op], bound, sizeof bound);
		if (strcmp(bound, v) == 0)
			figure_format(f, 17, v, sizeof v);
	}
	char at[192] = "", idx[128];
	at_words(c, b, f->has_nan ? f->nan_at : f->at, idx, sizeof idx);
	switch (c->reduce) {
	case RED_SUM:
	case RED_NORM2:
		if (f->has_nan)
			snprintf(at, sizeof at, " (element %s is nan)", idx);
		snprintf(buf, len, "the %s of %s is %s%s", c->reduce == RED_SUM ? "sum" :
			 "norm2 (Euclidean norm)", what, v, at);
		break;
	case RED_MIN:
	case RED_MAX:
		if (f->has_at)
			snprintf(at, sizeof at, " (at index %s)", idx);
		snprintf(buf, len, "the %s of %s is %s%s", reduce_names[c->reduce], what, v, at);
		break;
	case RED_NONZERO:
		if (f->has_at)
			snprintf(at, sizeof at, " (the first at index %s)", idx);
		snprintf(buf, len, "%s has %s nonzero element%s%s", what, v,
			 f->i == 1 ? "" : "s", at);
		break;
	case RED_DIFFER: {
		char from[64];
		num_format(&c->differ_from, from, sizeof from);
		snprintf(buf, len, "%s has %s element%s that differ%s from %s", what, v,
			 f->i == 1 ? "" : "s", f->i == 1 ? "s" : "", from);
		break;
	}
	case RED_COUNT:
		buf[0] = '\0';
		break;
	}
}

static bool check_reduce(const struct check *c, const struct buffer *b, const void *data,
			 uint64_t n, const struct check_others *others, struct diag *d)
{
	enum elem_type t = b->type;
	unsigned es = elem_infos[t].size;
	const unsigned char *p = (const unsigned char *)data + c->offset * es;
	unsigned char from[8] = {0};
	char why[128];
	if (c->reduce == RED_DIFFER && num_encode(&c->differ_from, t, from, why, sizeof why)) {
		diag_error(d, c->differ_from.pos.line ? c->differ_from.pos : c->pos,
			   "check of buffer '%s': %s", b->name, why);
		return false;
	}
	struct figure f;
	struct num values[BOUND_COUNT];
	reduce_slice(c->reduce, t, p, c->offset, n, from, c->rtol, c->atol, &f);
	bool ok = true;
	for (int op = 0; op < BOUND_COUNT; op++) {
		if (!(c->cmp.ops & (1u << op)))
			continue;
		values[op] = bound_value(&c->cmp.bound[op], others);
		if (!figure_holds(&f, (enum bound_op)op, &values[op], c->cmp.rtol, c->cmp.atol))
			ok = false;
	}
	if (ok)
		return true;
	char fig[400], bounds[600], off[256] = "";
	figure_text(c, b, n, &f, values, fig, sizeof fig);
	bounds_text(&c->cmp, values, others, bounds, sizeof bounds);
	if (c->reduce == RED_DIFFER && f.has_at) {
		char got[64], at[128];
		elem_format(t, (const unsigned char *)data + f.at * es, got, sizeof got);
		at_words(c, b, f.at, at, sizeof at);
		snprintf(off, sizeof off, " (the first at index %s: %s)", at, got);
	} else if ((c->cmp.ops & (1u << BOUND_NEAR)) && !f.has_nan) {
		char dist[64];
		figure_distance(&f, &values[BOUND_NEAR], dist, sizeof dist);
		snprintf(off, sizeof off, "; it is off by %s", dist);
	}
	if (c->reduce == RED_DIFFER)
		diag_error(d, c->pos, "check failed: %s%s; expected %s", fig, off, bounds);
	else
		diag_error(d, c->pos, "check failed: %s; expected %s%s", fig, bounds, off);
	return false;
}

size_t check_others_used(const struct check *c, long idx[BOUND_COUNT + 1])
{
	size_t n = 0;
	if (c->kind == CHECK_EXPECT && c->expect == EXPECT_BUFFER)
		idx[n++] = c->ref.idx;
	for (int op = 0; c->kind == CHECK_REDUCE && op < BOUND_COUNT; op++)
		if ((c->cmp.ops & (1u << op)) && c->cmp.bound[op].ref.name)
			idx[n++] = c->cmp.bound[op].ref.idx;
	return n;
}

/* Check c of its n elements at data (data + offset: the first). */
static bool run_check(const struct check *c, const struct buffer *b, const void *data,
		      uint64_t n, const struct check_others *others, struct diag *d)
{
	switch (c->kind) {
	case CHECK_EXPECT:
		return check_expect(c, b, data, n, others, d);
	case CHECK_REDUCE:
		return check_reduce(c, b, data, n, others, d);
	case CHECK_FINITE:
		return check_finite(c, b, data, n, d);
	}
	return false;
}

/*
 * A region's check: its elements gathered in order, and checked as a
 * slice of them from 0 (the messages say where they lie: at_words).
 */
static bool check_region(const struct check *c, const struct buffer *b, const void *data,
			 const struct check_others *others, struct diag *d)
{
	struct span s;
	struct check view = *c;
	uint64_t n = c->region->ext[0] * c->region->ext[1] * c->region->ext[2];
	unsigned char *elems = xmalloc(n ? n * elem_infos[b->type].size : 1);
	/* data is packed: rows a row's bytes apart */
	slice_span(c->region, 0, 0, b, buffer_row_bytes(b), &s);
	span_gather(&s, 0, data, elems);
	view.offset = 0;
	view.count = n;
	bool ok = run_check(&view, b, elems, n, others, d);
	free(elems);
	return ok;
}

bool check_buffer(const struct check *c, const struct buffer *b, const void *data,
		  const struct check_others *others, struct diag *d)
{
	if (c->region)
		return check_region(c, b, data, others, d);
	return run_check(c, b, data, slice_count(c, b), others, d);
}
