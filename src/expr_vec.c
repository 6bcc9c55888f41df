/*
 * A template at many points at once (expr_vec.h).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr_code.h"
#include "expr_vec.h"
#include "xmalloc.h"

/* A value of the block: one for every point (uniform), or an array of ints or floats. */
struct slot {
	enum expr_type type;
	bool uniform;
	struct expr_val u;              /* uniform */
	int64_t *i;                     /* type EXPR_INT, not uniform */
	double *f;                      /* type EXPR_FLOAT, not uniform */
};

/*
 * A ?: (kind OP_JFALSE) or an && or || whose sides are being evaluated:
 * its condition per point, and the instruction where it is complete (a
 * ?: learns it at its OP_JUMP, when its else side begins).
 */
struct pending {
	uint8_t kind;
	bool in_else;
	int8_t all;                     /* -1: per point (mask); 0 or 1: the same everywhere */
	uint32_t end;
	bool *mask;
};

struct tmpl_vec {
	const struct tmpl *t;
	size_t nvars;
	struct slot *st;                /* the value stack */
	size_t nst;
	struct pending *pend;
	size_t npend;
	struct expr_val *vars1;         /* one point's variables, for tmpl_eval */
	struct expr_val *vals;          /* one point at a time: its values */
	int64_t *iout;
	double *fout;
	size_t slow;
};

struct tmpl_vec *tmpl_vec_new(const struct tmpl *t, size_t nvars)
{
	if (!t->whole)
		return NULL;
	struct tmpl_vec *v = xcalloc(1, sizeof *v);
	v->t = t;
	v->nvars = nvars;
	/* every value on the stack was pushed by an instruction of its own */
	size_t pushes = 1, conds = 1;
	for (uint32_t k = 0; k < t->ncode; k++) {
		uint8_t op = t->code[k].op;
		pushes += op == OP_INT || op == OP_FLOAT || op == OP_STR || op == OP_LOAD;
		conds += op == OP_JFALSE || op == OP_AND || op == OP_OR;
	}
	v->st = xcalloc(pushes, sizeof *v->st);
	for (size_t k = 0; k < pushes; k++) {
		v->st[k].i = xmalloc(TMPL_VEC_MAX * sizeof *v->st[k].i);
		v->st[k].f = xmalloc(TMPL_VEC_MAX * sizeof *v->st[k].f);
	}
	v->nst = pushes;
	v->pend = xcalloc(conds, sizeof *v->pend);
	for (size_t k = 0; k < conds; k++)
		v->pend[k].mask = xmalloc(TMPL_VEC_MAX * sizeof *v->pend[k].mask);
	v->npend = conds;
	v->vars1 = xcalloc(nvars ? nvars : 1, sizeof *v->vars1);
	v->vals = xmalloc(TMPL_VEC_MAX * sizeof *v->vals);
	v->iout = xmalloc(TMPL_VEC_MAX * sizeof *v->iout);
	v->fout = xmalloc(TMPL_VEC_MAX * sizeof *v->fout);
	return v;
}

void tmpl_vec_free(struct tmpl_vec *v)
{
	if (v == NULL)
		return;
	for (size_t k = 0; k < v->nst; k++) {
		free(v->st[k].i);
		free(v->st[k].f);
	}
	for (size_t k = 0; k < v->npend; k++)
		free(v->pend[k].mask);
	free(v->st);
	free(v->pend);
	free(v->vars1);
	free(v->vals);
	free(v->iout);
	free(v->fout);
	free(v);
}

size_t tmpl_vec_slow_blocks(const struct tmpl_vec *v)
{
	return v->slow;
}

/* ------------------------------------------------------------------ */
/* Values of the block */

/* The type of s's values. */
static inline enum expr_type type_of(const struct slot *s)
{
	return s->uniform ? s->u.type : s->type;
}

static struct expr_val value_at(const struct slot *s, size_t k)
{
	if (s->uniform)
		return s->u;
	return s->type == EXPR_INT ? expr_int(s->i[k]) : expr_float(s->f[k]);
}

/* s as an array of want (EXPR_INT or EXPR_FLOAT): a uniform spread, ints made floats. */
static void spread(struct slot *s, enum expr_type want, size_t n)
{
	if (s->uniform) {
		if (want == EXPR_INT) {
			for (size_t k = 0; k < n; k++)
				s->i[k] = s->u.i;
		} else {
			double x = s->u.type == EXPR_INT ? (double)s->u.i : s->u.f;
			for (size_t k = 0; k < n; k++)
				s->f[k] = x;
		}
	} else if (s->type == EXPR_INT && want == EXPR_FLOAT) {
		for (size_t k = 0; k < n; k++)
			s->f[k] = (double)s->i[k];
	}
	s->uniform = false;
	s->type = want;
}

/* Truth per point into mask (a number, nonzero; NaN too); false for a string. */
static bool truth(const struct slot *s, bool *mask, int8_t *all, size_t n)
{
	if (s->uniform) {
		if (s->u.type == EXPR_STR)
			return false;
		*all = s->u.type == EXPR_INT ? s->u.i != 0 : s->u.f != 0;
		return true;
	}
	*all = -1;
	if (s->type == EXPR_INT)
		for (size_t k = 0; k < n; k++)
			mask[k] = s->i[k] != 0;
	else
		for (size_t k = 0; k < n; k++)
			mask[k] = s->f[k] != 0;
	return true;
}

/*
 * Instruction in at every point, by expr.c's own code, on args (argc
 * values from args[0]) into args[0].  False on an error, or when the
 * results differ in type.
 */
static bool by_point(const struct ins *in, struct slot *args, unsigned argc, size_t n)
{
	struct expr_val a[EXPR_MAX_ARGS + 1];
	struct expr_err err;
	bool uniform = true;
	for (unsigned m = 0; m < argc; m++)
		uniform &= args[m].uniform;
	if (uniform) {
		for (unsigned m = 0; m < argc; m++)
			a[m] = args[m].u;
		if (!expr_apply(in, a, &err))
			return false;
		args[0].u = a[0];
		args[0].type = a[0].type;
		return true;
	}
	enum expr_type type = EXPR_STR;
	int64_t *ri = args[0].i;
	double *rf = args[0].f;
	for (size_t k = 0; k < n; k++) {
		for (unsigned m = 0; m < argc; m++)
			a[m] = value_at(&args[m], k);
		if (!expr_apply(in, a, &err))
			return false;
		if (k == 0)
			type = a[0].type;
		if (a[0].type != type || type == EXPR_STR)
			return false;
		/* args[0] was read for this point already: its arrays take the result */
		if (type == EXPR_INT)
			ri[k] = a[0].i;
		else
			rf[k] = a[0].f;
	}
	args[0].uniform = false;
	args[0].type = type;
	return true;
}

static bool int_arith(uint8_t op, const int64_t *x, const int64_t *y, int64_t *r, size_t n)
{
	bool bad = false;
	switch ((enum op)op) {
	case OP_ADD:
		for (size_t k = 0; k < n; k++) {
			int64_t z;      /* not into r[k]: r may be x, which GCC 12 reads again */
			bad |= __builtin_add_overflow(x[k], y[k], &z);
			r[k] = z;
		}
		return !bad;
	case OP_SUB:
		for (size_t k = 0; k < n; k++) {
			int64_t z;      /* not into r[k]: r may be x, which GCC 12 reads again */
			bad |= __builtin_sub_overflow(x[k], y[k], &z);
			r[k] = z;
		}
		return !bad;
	case OP_MUL:
		for (size_t k = 0; k < n; k++) {
			int64_t z;      /* not into r[k]: r may be x, which GCC 12 reads again */
			bad |= __builtin_mul_overflow(x[k], y[k], &z);
			r[k] = z;
		}
		return !bad;
	case OP_DIV:
	case OP_MOD:
		for (size_t k = 0; k < n; k++) {
			/* 0 and -1 are expr.c's to judge: the slow way */
			if (y[k] == 0 || y[k] == -1)
				return false;
			r[k] = op == OP_DIV ? x[k] / y[k] : x[k] % y[k];
		}
		return true;
	default:
		return false;
	}
}

static bool float_arith(uint8_t op, const double *x, const double *y, double *r, size_t n)
{
	bool bad = false;
	switch ((enum op)op) {
	case OP_ADD:
		for (size_t k = 0; k < n; k++)
			r[k] = x[k] + y[k];
		return true;
	case OP_SUB:
		for (size_t k = 0; k < n; k++)
			r[k] = x[k] - y[k];
		return true;
	case OP_MUL:
		for (size_t k = 0; k < n; k++)
			r[k] = x[k] * y[k];
		return true;
	case OP_DIV:
		for (size_t k = 0; k < n; k++) {
			bad |= y[k] == 0;
			r[k] = x[k] / y[k];
		}
		return !bad;
	case OP_MOD:
		for (size_t k = 0; k < n; k++) {
			bad |= y[k] == 0;
			r[k] = fmod(x[k], y[k]);
		}
		return !bad;
	case OP_POW:
		for (size_t k = 0; k < n; k++)
			r[k] = pow(x[k], y[k]);
		return true;
	default:
		return false;
	}
}

#define COMPARE_LOOP(x, y, r, n, OP)                    \
	for (size_t k = 0; k < (n); k++)                \
		(r)[k] = (x)[k] OP (y)[k]

static bool int_compare(uint8_t op, const int64_t *x, const int64_t *y, int64_t *r, size_t n)
{
	switch ((enum op)op) {
	case OP_EQ: COMPARE_LOOP(x, y, r, n, ==); return true;
	case OP_NE: COMPARE_LOOP(x, y, r, n, !=); return true;
	case OP_LT: COMPARE_LOOP(x, y, r, n, <); return true;
	case OP_LE: COMPARE_LOOP(x, y, r, n, <=); return true;
	case OP_GT: COMPARE_LOOP(x, y, r, n, >); return true;
	case OP_GE: COMPARE_LOOP(x, y, r, n, >=); return true;
	default: return false;
	}
}

/* C's operators on doubles are expr.h's: a NaN is unequal to everything. */
static bool float_compare(uint8_t op, const double *x, const double *y, int64_t *r, size_t n)
{
	switch ((enum op)op) {
	case OP_EQ: COMPARE_LOOP(x, y, r, n, ==); return true;
	case OP_NE: COMPARE_LOOP(x, y, r, n, !=); return true;
	case OP_LT: COMPARE_LOOP(x, y, r, n, <); return true;
	case OP_LE: COMPARE_LOOP(x, y, r, n, <=); return true;
	case OP_GT: COMPARE_LOOP(x, y, r, n, >); return true;
	case OP_GE: COMPARE_LOOP(x, y, r, n, >=); return true;
	default: return false;
	}
}

/*
 * a / d and a % d for a power of two d and no negative a: a shift and a
 * mask, what index arithmetic mostly is.  False when it does not apply.
 */
static bool pow2_div(uint8_t op, struct slot *a, const struct slot *b, size_t n)
{
	if (!b->uniform || b->u.type != EXPR_INT || a->uniform || a->type != EXPR_INT ||
	    b->u.i <= 0 || (b->u.i & (b->u.i - 1)) != 0)
		return false;
	int64_t neg = 0;
	for (size_t k = 0; k < n; k++)
		neg |= a->i[k];
	if (neg < 0)
		return false;
	unsigned shift = (unsigned)__builtin_ctzll((unsigned long long)b->u.i);
	int64_t mask = b->u.i - 1;
	if (op == OP_DIV)
		for (size_t k = 0; k < n; k++)
			a->i[k] >>= shift;
	else
		for (size_t k = 0; k < n; k++)
			a->i[k] &= mask;
	return true;
}

/* a op b into a. */
static bool binary(const struct ins *in, struct slot *a, struct slot *b, size_t n)
{
	uint8_t op = in->op;
	if ((op == OP_DIV || op == OP_MOD) && pow2_div(op, a, b, n))
		return true;
	bool strings = (a->uniform && a->u.type == EXPR_STR) || (b->uniform && b->u.type == EXPR_STR);
	if ((a->uniform && b->uniform) || strings)
		return by_point(in, a, 2, n);
	bool ints = type_of(a) == EXPR_INT && type_of(b) == EXPR_INT;
	bool cmp = op >= OP_EQ && op <= OP_GE;
	if (cmp && !ints && (type_of(a) == EXPR_INT || type_of(b) == EXPR_INT))
		return by_point(in, a, 2, n);   /* an int with a float: exactly, as expr.c does */
	if (ints && (op == OP_POW || op == OP_SHL || op == OP_SHR))
		return by_point(in, a, 2, n);
	if (!ints && (op == OP_SHL || op == OP_SHR))
		return false;                   /* an error: the slow way says which */
	enum expr_type in_type = ints ? EXPR_INT : EXPR_FLOAT;
	spread(a, in_type, n);
	spread(b, in_type, n);
	if (cmp) {
		a->type = EXPR_INT;
		return ints ? int_compare(op, a->i, b->i, a->i, n) :
			float_compare(op, a->f, b->f, a->i, n);
	}
	return ints ? int_arith(op, a->i, b->i, a->i, n) : float_arith(op, a->f, b->f, a->f, n);
}

static bool unary(const struct ins *in, struct slot *s, size_t n)
{
	if (s->uniform)
		return by_point(in, s, 1, n);
	switch ((enum op)in->op) {
	case OP_PLUS:
		return true;
	case OP_NEG:
		if (s->type == EXPR_FLOAT) {
			for (size_t k = 0; k < n; k++)
				s->f[k] = -s->f[k];
			return true;
		}
		for (size_t k = 0; k < n; k++) {
			if (s->i[k] == INT64_MIN)
				return false;
			s->i[k] = -s->i[k];
		}
		return true;
	case OP_NOT:
	case OP_BOOL: {
		bool not = in->op == OP_NOT;
		if (s->type == EXPR_INT)
			for (size_t k = 0; k < n; k++)
				s->i[k] = (s->i[k] != 0) != not;
		else
			for (size_t k = 0; k < n; k++)
				s->i[k] = (s->f[k] != 0) != not;        /* NaN is true */
		s->type = EXPR_INT;
		return true;
	}
	default:
		return false;
	}
}

/* s takes what o holds (o's arrays stay o's). */
static void take(struct slot *s, const struct slot *o, size_t n)
{
	s->type = o->type;
	s->uniform = o->uniform;
	s->u = o->u;
	if (!o->uniform && o->type == EXPR_INT)
		memcpy(s->i, o->i, n * sizeof *s->i);
	else if (!o->uniform)
		memcpy(s->f, o->f, n * sizeof *s->f);
}

/* cond ? a : b, per point, into a. */
static bool choose(const struct pending *p, struct slot *a, const struct slot *b, size_t n)
{
	if (p->all >= 0) {
		if (!p->all)
			take(a, b, n);
		return true;
	}
	enum expr_type ta = type_of(a), tb = type_of(b);
	if (ta != tb || ta == EXPR_STR)
		return false;                   /* points of different types */
	struct slot c = *b;
	spread(a, ta, n);
	spread(&c, ta, n);
	if (ta == EXPR_INT)
		for (size_t k = 0; k < n; k++)
			a->i[k] = p->mask[k] ? a->i[k] : c.i[k];
	else
		for (size_t k = 0; k < n; k++)
			a->f[k] = p->mask[k] ? a->f[k] : c.f[k];
	return true;
}

/* left && r, left || r, with r (made 0 or 1 by OP_BOOL) in place. */
static void join(const struct pending *p, struct slot *r, size_t n)
{
	bool and = p->kind == OP_AND;
	if (p->all >= 0) {
		if (p->all != and) {
			r->uniform = true;
			r->u = expr_int(!and);
			r->type = EXPR_INT;
		}
		return;
	}
	spread(r, EXPR_INT, n);
	for (size_t k = 0; k < n; k++)
		if (p->mask[k] != and)
			r->i[k] = !and;
}

/* floor, ceil, round of floats: ints when every one fits, else false (expr.c decides). */
static bool to_ints(struct slot *s, double (*fn)(double), size_t n)
{
	for (size_t k = 0; k < n; k++) {
		double r = fn(s->f[k]);
		if (!(r >= -9223372036854775808.0 && r < 9223372036854775808.0))
			return false;
		s->i[k] = (int64_t)r;
	}
	s->type = EXPR_INT;
	return true;
}

/* min or max of two, as expr.c's min_max: ints stay ints, a NaN wins. */
static bool min_max2(struct slot *a, struct slot *b, bool want_max, size_t n)
{
	if (type_of(a) == EXPR_STR || type_of(b) == EXPR_STR)
		return false;
	if (type_of(a) == EXPR_INT && type_of(b) == EXPR_INT) {
		spread(a, EXPR_INT, n);
		spread(b, EXPR_INT, n);
		for (size_t k = 0; k < n; k++)
			if (want_max ? b->i[k] > a->i[k] : b->i[k] < a->i[k])
				a->i[k] = b->i[k];
		return true;
	}
	spread(a, EXPR_FLOAT, n);
	spread(b, EXPR_FLOAT, n);
	for (size_t k = 0; k < n; k++) {
		double r = a->f[k], x = b->f[k];
		if (!isnan(r) && (isnan(x) || (want_max ? x > r : x < r)))
			a->f[k] = x;
	}
	return true;
}

/*
 * The functions that index arithmetic uses, over the block; false when
 * this one is not among them (or not for these values): by_point then.
 */
static bool call_fast(const struct ins *in, struct slot *sp, size_t n)
{
	const char *f = expr_func_name(in);
	struct slot *s = &sp[0];
	if (s->uniform || type_of(s) == EXPR_STR)
		return false;
	if (in->argc == 2 && (strcmp(f, "min") == 0 || strcmp(f, "max") == 0))
		return min_max2(s, &sp[1], f[1] == 'a', n);
	if (in->argc != 1)
		return false;
	bool is_int = s->type == EXPR_INT;
	if (strcmp(f, "float") == 0 || strcmp(f, "sqrt") == 0) {
		spread(s, EXPR_FLOAT, n);
		if (f[0] == 's')
			for (size_t k = 0; k < n; k++)
				s->f[k] = sqrt(s->f[k]);
		return true;
	}
	if (strcmp(f, "abs") == 0) {
		for (size_t k = 0; k < n && is_int; k++)
			if (s->i[k] == INT64_MIN)
				return false;   /* expr.c's overflow, s untouched */
		for (size_t k = 0; k < n && is_int; k++)
			s->i[k] = s->i[k] < 0 ? -s->i[k] : s->i[k];
		for (size_t k = 0; k < n && !is_int; k++)
			s->f[k] = fabs(s->f[k]);
		return true;
	}
	if (is_int && (strcmp(f, "int") == 0 || strcmp(f, "floor") == 0 ||
		       strcmp(f, "ceil") == 0 || strcmp(f, "round") == 0))
		return true;
	if (strcmp(f, "floor") == 0)
		return to_ints(s, floor, n);
	if (strcmp(f, "ceil") == 0)
		return to_ints(s, ceil, n);
	if (strcmp(f, "round") == 0)
		return to_ints(s, round, n);
	if (strcmp(f, "int") == 0)
		return to_ints(s, trunc, n);    /* NaN and out of range: expr.c's errors */
	return false;
}

/* The block the fast way; false when it must go one point at a time. */
static bool fast(struct tmpl_vec *v, const int64_t *const *vars, size_t n)
{
	const struct tmpl *t = v->t;
	const struct ins *code = t->code + t->pieces[0].at;
	uint32_t len = t->pieces[0].len;
	struct slot *sp = v->st;        /* the next free slot */
	struct pending *pp = v->pend;   /* the next free pending */
	for (uint32_t pc = 0; pc <= len; pc++) {
		while (pp > v->pend && pp[-1].end == pc &&
		       (pp[-1].kind != OP_JFALSE || pp[-1].in_else)) {
			pp--;
			if (pp->kind != OP_JFALSE) {
				join(pp, &sp[-1], n);
				continue;
			}
			sp--;
			if (!choose(pp, &sp[-1], sp, n))
				return false;
		}
		if (pc == len)
			break;
		const struct ins *in = &code[pc];
		switch ((enum op)in->op) {
		case OP_INT:
			sp->uniform = true;
			sp->u = expr_int(in->u.i);
			sp++;
			break;
		case OP_FLOAT:
			sp->uniform = true;
			sp->u = expr_float(in->u.f);
			sp++;
			break;
		case OP_STR:
			sp->uniform = true;
			sp->u = expr_str(t->pool + in->u.str.at, in->u.str.len);
			sp++;
			break;
		case OP_LOAD:
			if (in->u.load.slot >= v->nvars)
				return false;
			sp->uniform = false;
			sp->type = EXPR_INT;
			memcpy(sp->i, vars[in->u.load.slot], n * sizeof *sp->i);
			sp++;
			break;
		case OP_NEG:
		case OP_PLUS:
		case OP_NOT:
		case OP_BOOL:
			if (!unary(in, &sp[-1], n))
				return false;
			break;
		case OP_CALL:
			sp -= in->argc;
			if (!call_fast(in, sp, n) && !by_point(in, sp, in->argc, n))
				return false;
			sp++;
			break;
		case OP_AND:
		case OP_OR:
		case OP_JFALSE:
			sp--;
			*pp = (struct pending){.kind = in->op, .end = in->op == OP_JFALSE ? UINT32_MAX :
					       in->u.to - t->pieces[0].at, .mask = pp->mask};
			if (!truth(sp, pp->mask, &pp->all, n))
				return false;
			pp++;
			break;
		case OP_JUMP:
			if (pp == v->pend || pp[-1].kind != OP_JFALSE || pp[-1].in_else)
				return false;
			pp[-1].in_else = true;
			pp[-1].end = in->u.to - t->pieces[0].at;
			break;
		case OP_NONE:
		case OP_COUNT:
			break;
		default:
			sp--;
			if (!binary(in, &sp[-1], sp, n))
				return false;
			break;
		}
	}
	return sp == v->st + 1;
}

/* The block one point at a time, as tmpl_eval evaluates it. */
static bool slow(struct tmpl_vec *v, const int64_t *const *vars, size_t n,
		 struct tmpl_vec_res *res, size_t *bad, struct expr_err *err)
{
	v->slow++;
	enum expr_type type = EXPR_STR;
	bool same = true;
	for (size_t k = 0; k < n; k++) {
		for (size_t s = 0; s < v->nvars; s++)
			v->vars1[s] = expr_int(vars[s][k]);
		if (!tmpl_eval(v->t, v->vars1, NULL, &v->vals[k], err)) {
			*bad = k;
			return false;
		}
		if (k == 0)
			type = v->vals[k].type;
		same &= v->vals[k].type == type;
		if (v->vals[k].type == EXPR_INT)
			v->iout[k] = v->vals[k].i;
		else if (v->vals[k].type == EXPR_FLOAT)
			v->fout[k] = v->vals[k].f;
	}
	*res = (struct tmpl_vec_res){same ? type : EXPR_STR, v->iout, v->fout, v->vals};
	return true;
}

bool tmpl_vec_eval(struct tmpl_vec *v, const int64_t *const *vars, size_t n,
		   struct tmpl_vec_res *res, size_t *bad, struct expr_err *err)
{
	if (n > TMPL_VEC_MAX) {
		*bad = 0;
		*err = (struct expr_err){.code = "expr-too-many-points"};
		snprintf(err->msg, sizeof err->msg, "more than %d points at once", TMPL_VEC_MAX);
		return false;
	}
	if (!v->t->linked || !fast(v, vars, n))
		return slow(v, vars, n, res, bad, err);
	struct slot *s = &v->st[0];
	if (!s->uniform) {
		*res = (struct tmpl_vec_res){s->type, s->i, s->f, NULL};
		return true;
	}
	if (s->u.type == EXPR_STR) {
		for (size_t k = 0; k < n; k++)
			v->vals[k] = s->u;
		*res = (struct tmpl_vec_res){EXPR_STR, NULL, NULL, v->vals};
		return true;
	}
	spread(s, s->u.type, n);
	*res = (struct tmpl_vec_res){s->type, s->i, s->f, NULL};
	return true;
}
