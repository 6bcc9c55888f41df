/*
 * Scalars (load_scalar.h).
 */
#include "config.h"

#include <string.h>

#include "load_scalar.h"
#include "scalar.h"

void ld_expected(struct ld *l, const char *what, const char *name)
{
	/*
	 * A bad event's error was given when it was read (a broken alias, an
	 * expression that does not evaluate): it still spoils what holds it.
	 */
	if (l->es.ev.bad)
		l->es.nerrs++;
	if (!l->es.ev.bad) {
		char buf[96];
		ld_error(l, l->es.ev.pos, "expected %s for '%.60s', found %s", what, name,
			 ev_found(&l->es.ev, buf, sizeof buf));
	}
	ld_skip(l);
}

void ld_not_plain(struct ld *l, const char *what, const char *name)
{
	const struct ev *e = &l->es.ev;
	struct num n;
	if (e->type == EV_SCALAR && e->quoted && parse_number(e->value, &n) == SCALAR_OK) {
		char buf[96];
		ld_error(l, e->pos, "expected %s for '%.60s', found %s (quotes make it a string)",
			 what, name, ev_found(e, buf, sizeof buf));
		ld_skip(l);
		return;
	}
	ld_expected(l, what, name);
}

/* An integer in [min, max]. */
static bool get_int(struct ld *l, const char *name, int64_t min, uint64_t max,
		    struct num *out)
{
	if (!plain_scalar(l, "an integer", name))
		return false;
	struct num n;
	enum scalar_err e = parse_int(l->es.ev.value, &n);
	if (e == SCALAR_SYNTAX) {
		ld_expected(l, "an integer", name);
		return false;
	}
	bool outside = n.kind == NUM_UINT ?
		n.u > max || (min > 0 && n.u < (uint64_t)min) : n.i < min;
	if (e == SCALAR_RANGE || outside) {
		ld_error(l, l->es.ev.pos, "value '%.60s' for '%.60s' is out of range (%lld to %llu)",
			 l->es.ev.value, name, (long long)min, (unsigned long long)max);
		ld_skip(l);
		return false;
	}
	n.pos = l->es.ev.pos;
	*out = n;
	ld_next(l);
	return true;
}

bool get_u64(struct ld *l, const char *name, uint64_t min, uint64_t max,
	     uint64_t *out, struct pos *pos)
{
	struct num n;
	if (!get_int(l, name, (int64_t)min, max, &n))
		return false;
	*out = n.u;
	if (pos)
		*pos = n.pos;
	return true;
}

bool get_i64(struct ld *l, const char *name, int64_t min, int64_t max,
	     int64_t *out, struct pos *pos)
{
	struct num n;
	if (!get_int(l, name, min, (uint64_t)max, &n))
		return false;
	*out = n.kind == NUM_UINT ? (int64_t)n.u : n.i;
	if (pos)
		*pos = n.pos;
	return true;
}

bool get_num(struct ld *l, const char *name, struct num *out)
{
	if (!plain_scalar(l, "a number", name))
		return false;
	struct num n;
	enum scalar_err e = parse_number(l->es.ev.value, &n);
	if (e == SCALAR_SYNTAX) {
		ld_expected(l, "a number", name);
		return false;
	}
	if (e != SCALAR_OK) {
		ld_error(l, l->es.ev.pos, "value '%.60s' for '%.60s' is out of range (integers have at most 64 bits; a float needs a '.' or an exponent)",
			 l->es.ev.value, name);
		ld_skip(l);
		return false;
	}
	n.pos = l->es.ev.pos;
	*out = n;
	ld_next(l);
	return true;
}

bool get_nonneg(struct ld *l, const char *name, double *out, struct pos *pos)
{
	if (!plain_scalar(l, "a number", name))
		return false;
	struct num n;
	enum scalar_err e = parse_number(l->es.ev.value, &n);
	if (e == SCALAR_SYNTAX) {
		ld_expected(l, "a number", name);
		return false;
	}
	/* n is unset unless e is SCALAR_OK; NaN fails too. */
	double v = e == SCALAR_OK ? num_to_double(&n) : -1;
	if (!(v >= 0)) {
		ld_error(l, l->es.ev.pos, "value '%.60s' for '%.60s' is out of range (0 or more)",
			 l->es.ev.value, name);
		ld_skip(l);
		return false;
	}
	*out = v;
	*pos = l->es.ev.pos;
	ld_next(l);
	return true;
}

/* Sizes and durations may be quoted: "64 KiB" reads better with a unit. */
static bool unit_scalar(struct ld *l, const char *what, const char *name)
{
	if (ld_is_scalar(l) && !ld_is_null(l))
		return true;
	ld_expected(l, what, name);
	return false;
}

static const char size_what[] = "a size (bytes, or a number and a unit such as '64 KiB')";

bool get_size(struct ld *l, const char *name, uint64_t max, uint64_t *out,
	      struct pos *pos)
{
	if (!unit_scalar(l, size_what, name))
		return false;
	uint64_t v;
	switch (parse_size(l->es.ev.value, &v)) {
	case SCALAR_OK:
		if (v <= max)
			break;
		/* fall through */
	case SCALAR_RANGE:
		ld_error(l, l->es.ev.pos, "size '%.60s' for '%.60s' is out of range (at most %llu bytes)",
			 l->es.ev.value, name, (unsigned long long)max);
		ld_skip(l);
		return false;
	case SCALAR_UNIT:
		ld_error(l, l->es.ev.pos, "unknown unit in size '%.60s' for '%.60s' (expected B, KiB, MiB, GiB, TiB, kB, MB, GB or TB)",
			 l->es.ev.value, name);
		ld_skip(l);
		return false;
	case SCALAR_SYNTAX:
		ld_expected(l, size_what, name);
		return false;
	}
	*out = v;
	if (pos)
		*pos = l->es.ev.pos;
	ld_next(l);
	return true;
}

static const char duration_what[] = "a duration (seconds, or a number and a unit such as '10 ms')";

bool get_duration(struct ld *l, const char *name, uint64_t *ns, struct pos *pos)
{
	if (!unit_scalar(l, duration_what, name))
		return false;
	switch (parse_duration(l->es.ev.value, ns)) {
	case SCALAR_OK:
		break;
	case SCALAR_RANGE:
		ld_error(l, l->es.ev.pos, "duration '%.60s' for '%.60s' is out of range", l->es.ev.value, name);
		ld_skip(l);
		return false;
	case SCALAR_UNIT:
		ld_error(l, l->es.ev.pos, "unknown unit in duration '%.60s' for '%.60s' (expected ns, us, ms, s or min)",
			 l->es.ev.value, name);
		ld_skip(l);
		return false;
	case SCALAR_SYNTAX:
		ld_expected(l, duration_what, name);
		return false;
	}
	if (pos)
		*pos = l->es.ev.pos;
	ld_next(l);
	return true;
}

bool get_bool(struct ld *l, const char *name, bool *out)
{
	if (!plain_scalar(l, "true or false", name))
		return false;
	if (!parse_bool(l->es.ev.value, out)) {
		ld_expected(l, "true or false", name);
		return false;
	}
	ld_next(l);
	return true;
}

bool get_text(struct ld *l, const char *what, const char *name, char **out,
	      struct pos *pos)
{
	if (!ld_is_scalar(l) || ld_is_null(l)) {
		ld_expected(l, what, name);
		return false;
	}
	*out = gdef_strndup(l->g, l->es.ev.value, l->es.ev.len);
	if (pos)
		*pos = l->es.ev.pos;
	ld_next(l);
	return true;
}

bool get_formula(struct ld *l, const char *name, struct formula *f)
{
	const struct ev *e = &l->es.ev;
	/* one line, its bytes as written: plain, or quoted without escapes or ${...} */
	uint32_t span = e->end.line == e->pos.line && e->end.col > e->pos.col ?
		e->end.col - e->pos.col : 0;
	f->lead = e->quoted ? 1 : 0;
	f->exact = span == e->len + 2u * f->lead;
	return get_text(l, "a formula (an expression of the element's indices, such as "
			"\"2 * i + 1\")", name, &f->text, &f->pos);
}

bool get_ref(struct ld *l, const char *what, const char *name, struct name_ref *r)
{
	size_t len = l->es.ev.len;
	r->idx = -1;
	if (l->last_ref && ld_is_scalar(l) && !ld_is_null(l) && len == l->last_ref_len &&
	    memcmp(l->es.ev.value, l->last_ref, len) == 0) {
		r->name = l->last_ref;
		r->pos = l->es.ev.pos;
		ld_next(l);
		return true;
	}
	if (!get_text(l, what, name, &r->name, &r->pos))
		return false;
	l->last_ref = r->name;
	l->last_ref_len = len;
	return true;
}

