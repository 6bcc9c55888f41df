/*
 * Reading an entry's body: it is cut into statements at ';' (labels, .loc
 * lines and block braces dropped), each statement into its opcode and
 * operands, and each operand into the registers it names.  Registers and
 * symbols share one table of names.  Then addresses loaded from the
 * parameters (sources) flow from register to register until nothing
 * changes, and each memory instruction adds what it does to the sources
 * its address carries.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"
#include "ptx_access.h"
#include "strmap.h"
#include "xmalloc.h"

/*
 * Passes over the body before giving up: compiled code settles in a few
 * (each loop that carries an address around costs one more).
 */
#define MAX_PASSES 64
/* No operand names more registers than this, nor a statement more operands: a longer one is not read. */
#define MAX_STMT_REGS 64
#define MAX_OPERANDS 16

/* An address loaded from a parameter: bytes [offset, offset + size) of param. */
struct source {
	size_t param, offset, size;
	unsigned effect;                /* PTX_* seen through it */
};

/* What a statement does, as far as this reading is concerned. */
enum stmt_kind {
	ST_FLOW,        /* its destinations are computed from its uses */
	ST_PARAM_LOAD,  /* ld.param: each destination takes a source */
	ST_MEMORY,      /* addresses with effects; uses are values that escape */
};

/*
 * ops[at..]: ndst destination registers, then nuse registers (ST_FLOW:
 * what the destinations are computed from; ST_PARAM_LOAD: the source of
 * each destination; ST_MEMORY: values stored, which escape), then naddr
 * pairs of an address register and its effect.
 */
struct stmt {
	enum stmt_kind kind;
	size_t at;
	uint32_t ndst, nuse, naddr;
};

struct ptx_access {
	size_t nparams;
	bool *param_unknown;            /* its address taken, or used in a way not followed */
	struct source *src;
	size_t nsrc, capsrc;
};

struct operand;

/* The reading in progress. */
struct reader {
	struct ptx_access *a;
	char **params;                  /* the entry's parameter names */
	struct strmap *param_index;
	struct strmap *names;           /* register and symbol names -> id */
	char **name_v;
	size_t nnames, capnames;
	struct stmt *st;
	size_t nst, capst;
	uint32_t *ops;
	size_t nops, capops;
	struct operand *opnd;           /* MAX_OPERANDS of them, for the statement at hand */
	bool bad;                       /* a statement not read: the whole is unknown */
};

/* PTX identifiers: [a-zA-Z_$%][a-zA-Z0-9_$]*. */
static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$' || c == '%';
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static char *skip_blank(char *p)
{
	while (blank(*p))
		p++;
	return p;
}

/* s with blanks cut from both ends (in place). */
static char *trim(char *s)
{
	s = skip_blank(s);
	size_t n = strlen(s);
	while (n > 0 && blank(s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* Parameters ----------------------------------------------------------------- */

/* The name declared by one parameter declaration: its last word not led by '.'. */
static char *param_name(const char *s, const char *e)
{
	const char *name = NULL, *name_end = NULL;
	for (const char *p = s; p < e;) {
		if (*p == '[') {
			while (p < e && *p != ']')
				p++;
			continue;
		}
		if (ident_char(*p) && (p == s || p[-1] != '.')) {
			const char *q = p;
			while (q < e && ident_char(*q))
				q++;
			if (!(*p >= '0' && *p <= '9')) {
				name = p;
				name_end = q;
			}
			p = q;
			continue;
		}
		if (*p == '.') {
			p++;
			while (p < e && ident_char(*p))
				p++;
			continue;
		}
		p++;
	}
	return name ? xstrndup(name, (size_t)(name_end - name)) : NULL;
}

static bool read_params(struct reader *r, struct ptx_span params)
{
	char *text = ptx_uncomment(params);
	size_t cap = 0;
	bool ok = true;
	const char *p = text;
	while (ok && *skip_blank((char *)p)) {
		const char *e = strchr(p, ',');
		if (e == NULL)
			e = p + strlen(p);
		char *name = param_name(p, e);
		if (name == NULL) {
			ok = false;
			break;
		}
		*VEC_PUSH(r->params, r->a->nparams, cap) = name;
		p = *e ? e + 1 : e;
	}
	free(text);
	if (!ok)
		return false;
	r->param_index = strmap_new(r->a->nparams + 1);
	for (size_t i = 0; i < r->a->nparams; i++)
		strmap_put(r->param_index, r->params[i], (long)i, NULL);
	r->a->param_unknown = xcalloc(r->a->nparams + 1, sizeof *r->a->param_unknown);
	return true;
}

/* Operands -------------------------------------------------------------------- */

/* The id of register or symbol name, made on first sight. */
static uint32_t reg_id(struct reader *r, const char *name, size_t len)
{
	char *key = xstrndup(name, len);
	long id = strmap_get(r->names, key);
	if (id >= 0) {
		free(key);
		return (uint32_t)id;
	}
	*VEC_PUSH(r->name_v, r->nnames, r->capnames) = key;
	strmap_put(r->names, key, (long)(r->nnames - 1), NULL);
	return (uint32_t)(r->nnames - 1);
}

/* The parameter named by s[0..len), or -1. */
static long param_of(const struct reader *r, const char *s, size_t len)
{
	char tmp[256];
	if (len >= sizeof tmp)
		return -1;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	return strmap_get(r->param_index, tmp);
}

/* One operand, as this reading sees it. */
struct operand {
	bool address;                   /* [base+offset] */
	long param;                     /* the parameter it names (address base or itself), or -1 */
	size_t offset;                  /* an address's offset */
	uint32_t regs[MAX_STMT_REGS];   /* registers it names (an address: its base) */
	size_t nregs;
};

/* The names in s (a register, a symbol, a vector {a, b}, a pair p|q): into o. */
static void operand_names(struct reader *r, const char *s, struct operand *o)
{
	for (const char *p = s; *p;) {
		if (!ident_char(*p) || (*p >= '0' && *p <= '9')) {
			/* an immediate (0f3F800000, 16) is passed over whole */
			if (*p >= '0' && *p <= '9')
				while (ident_char(*p))
					p++;
			else
				p++;
			continue;
		}
		/* a name and its dotted parts (%tid.x) */
		const char *q = p;
		while (ident_char(*q) || (*q == '.' && ident_char(q[1])))
			q++;
		long pi = param_of(r, p, (size_t)(q - p));
		if (pi >= 0)
			o->param = pi;
		else if (o->nregs < MAX_STMT_REGS)
			o->regs[o->nregs++] = reg_id(r, p, (size_t)(q - p));
		else
			r->bad = true;
		p = q;
	}
}

/* "[base]", "[base+8]", "[base+-8]", "[64]": its base and offset. */
static void address_operand(struct reader *r, char *s, struct operand *o)
{
	o->address = true;
	char *close = strchr(s, ']');
	if (close)
		*close = '\0';
	char *p = skip_blank(s + 1);
	char *q = p;
	while (ident_char(*q))
		q++;
	if (q > p && !(*p >= '0' && *p <= '9')) {
		long pi = param_of(r, p, (size_t)(q - p));
		if (pi >= 0)
			o->param = pi;
		else
			o->regs[o->nregs++] = reg_id(r, p, (size_t)(q - p));
	} else if (q > p) {
		return;         /* an absolute address: nothing of ours */
	}
	q = skip_blank(q);
	if (*q == '+') {
		q = skip_blank(q + 1);
		/* a negative offset reaches before the parameter: not one of ours */
		o->offset = *q == '-' ? SIZE_MAX : strtoull(q, NULL, 0);
	}
}

static void read_operand(struct reader *r, char *s, struct operand *o)
{
	memset(o, 0, sizeof *o);
	o->param = -1;
	s = trim(s);
	if (*s == '[')
		address_operand(r, s, o);
	else
		operand_names(r, s, o);
}

/* Statements ----------------------------------------------------------------- */

/* How each opcode is read (by its first word, and a later word it must have). */
enum rule {
	R_FLOW,         /* the first operand is computed from the rest (the default) */
	R_PARAM_LOAD,   /* ld.param: the first operand takes bytes of a parameter */
	R_LOAD,         /* the first operand is loaded from the second */
	R_STORE,        /* the first operand is stored to; the rest is stored */
	R_ATOM,         /* the second operand is read and written; the rest stored */
	R_RED,          /* the first operand is read and written; the rest stored */
	R_COPY,         /* the first address is written, the others read */
	R_COPY_RMW,     /* the first address is read and written, the others read */
	R_ESCAPE,       /* every register operand leaves (a call's arguments) */
	R_NONE,         /* nothing followed */
};

static const struct opcode_rule {
	const char *first, *word;
	enum rule rule;
} opcode_rules[] = {
	{"ld", "param", R_PARAM_LOAD},
	{"ld", NULL, R_LOAD},
	{"ldu", NULL, R_LOAD},
	{"ldmatrix", NULL, R_LOAD},
	{"wmma", "load", R_LOAD},
	{"st", "param", R_ESCAPE},
	{"st", NULL, R_STORE},
	{"stmatrix", NULL, R_STORE},
	{"wmma", "store", R_STORE},
	{"atom", NULL, R_ATOM},
	{"red", NULL, R_RED},
	{"cp", "reduce", R_COPY_RMW},
	{"cp", NULL, R_COPY},
	{"call", NULL, R_ESCAPE},
	{"prefetch", NULL, R_NONE},
	{"prefetchu", NULL, R_NONE},
	{"applypriority", NULL, R_NONE},
	{"discard", NULL, R_NONE},
	{"bra", NULL, R_NONE},
	{"brx", NULL, R_NONE},
	{"ret", NULL, R_NONE},
	{"exit", NULL, R_NONE},
	{"bar", NULL, R_NONE},
	{"barrier", NULL, R_NONE},
	{"membar", NULL, R_NONE},
	{"fence", NULL, R_NONE},
};

/* Does the opcode (words split by '.') have word among its words after the first? */
static bool has_word(const char *op, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = strchr(op, '.'); p; p = strchr(p + 1, '.'))
		if (strncmp(p + 1, word, n) == 0 && (p[1 + n] == '.' || p[1 + n] == '\0'))
			return true;
	return false;
}

static enum rule rule_of(const char *op)
{
	size_t n = strcspn(op, ".");
	for (size_t i = 0; i < sizeof opcode_rules / sizeof *opcode_rules; i++) {
		const struct opcode_rule *k = &opcode_rules[i];
		if (strlen(k->first) == n && strncmp(op, k->first, n) == 0 &&
		    (k->word == NULL || has_word(op, k->word)))
			return k->rule;
	}
	return R_FLOW;
}

/* The size of the element type an opcode ends in (.u64: 8), 8 when none is known. */
static size_t elem_size(const char *op)
{
	static const struct {
		const char *name;
		size_t size;
	} types[] = {
		{"b8", 1}, {"u8", 1}, {"s8", 1}, {"b16", 2}, {"u16", 2}, {"s16", 2}, {"f16", 2},
		{"bf16", 2}, {"b32", 4}, {"u32", 4}, {"s32", 4}, {"f32", 4}, {"b64", 8},
		{"u64", 8}, {"s64", 8}, {"f64", 8}, {"b128", 16},
	};
	const char *last = strrchr(op, '.');
	for (size_t i = 0; last && i < sizeof types / sizeof *types; i++)
		if (strcmp(last + 1, types[i].name) == 0)
			return types[i].size;
	return 8;
}

static void push_op(struct reader *r, uint32_t v)
{
	*VEC_PUSH(r->ops, r->nops, r->capops) = v;
}

static struct stmt *new_stmt(struct reader *r, enum stmt_kind kind)
{
	struct stmt *s = VEC_PUSH(r->st, r->nst, r->capst);
	s->kind = kind;
	s->at = r->nops;
	return s;
}

/* ld.param d, [p+off] (or {d0, d1}, a vector): each destination a source. */
static void param_load(struct reader *r, const char *op, struct operand *o, size_t n)
{
	if (n < 2 || !o[1].address || o[1].param < 0 || o[1].offset == SIZE_MAX)
		return;         /* a call's return value, or an address we do not know */
	size_t size = elem_size(op);
	struct stmt *s = new_stmt(r, ST_PARAM_LOAD);
	s->ndst = s->nuse = (uint32_t)o[0].nregs;
	for (size_t i = 0; i < o[0].nregs; i++)
		push_op(r, o[0].regs[i]);
	for (size_t i = 0; i < o[0].nregs; i++) {
		struct ptx_access *a = r->a;
		struct source *src = VEC_PUSH(a->src, a->nsrc, a->capsrc);
		src->param = (size_t)o[1].param;
		src->offset = o[1].offset + i * size;
		src->size = size;
		push_op(r, (uint32_t)(a->nsrc - 1));
	}
}

/* What each rule (but ld.param and R_NONE) makes of a statement's operands. */
static const struct rule_info {
	bool dst;               /* the first operand is a destination */
	bool flows;             /* ... computed from the other operands */
	bool stores;            /* the other operands that are no address leave */
	unsigned first, other;  /* what is done through the first address, and the others */
} rule_infos[] = {
	[R_FLOW] = {true, true, false, PTX_UNKNOWN, PTX_UNKNOWN},
	[R_LOAD] = {true, false, false, PTX_READ, PTX_UNKNOWN},
	[R_STORE] = {false, false, true, PTX_WRITE, PTX_UNKNOWN},
	[R_ATOM] = {true, false, true, PTX_READ | PTX_WRITE, PTX_UNKNOWN},
	[R_RED] = {false, false, true, PTX_READ | PTX_WRITE, PTX_UNKNOWN},
	[R_COPY] = {false, false, false, PTX_WRITE, PTX_READ},
	[R_COPY_RMW] = {false, false, false, PTX_READ | PTX_WRITE, PTX_READ},
	[R_ESCAPE] = {false, false, true, PTX_UNKNOWN, PTX_UNKNOWN},
};

/* The registers operand o names, onto ops; how many. */
static uint32_t push_regs(struct reader *r, const struct operand *o)
{
	for (size_t k = 0; k < o->nregs; k++)
		push_op(r, o->regs[k]);
	return (uint32_t)o->nregs;
}

/*
 * A statement whose operands o[0..n) are read by rule: its destinations,
 * its uses and its addresses with their effects.
 */
static void add_stmt(struct reader *r, enum rule rule, const struct operand *o, size_t n)
{
	const struct rule_info *ri = &rule_infos[rule];
	struct stmt *s = new_stmt(r, ri->flows ? ST_FLOW : ST_MEMORY);
	bool dst = ri->dst && n > 0 && !o[0].address;
	if (dst && ri->flows)
		s->ndst = push_regs(r, &o[0]);
	/* uses: what flows into the destinations, or what is stored and leaves */
	for (size_t i = dst ? 1 : 0; i < n; i++)
		if (!o[i].address && (ri->flows || ri->stores))
			s->nuse += push_regs(r, &o[i]);
	/* addresses, each with what is done through it */
	bool first = true;
	for (size_t i = 0; i < n; i++) {
		if (!o[i].address)
			continue;
		unsigned eff = first ? ri->first : ri->other;
		first = false;
		if (o[i].nregs == 0)
			continue;
		push_op(r, o[i].regs[0]);
		push_op(r, eff);
		s->naddr++;
	}
}

/*
 * The operands after the opcode, at p, split at the commas outside
 * brackets and braces into o; how many, or SIZE_MAX when too many.
 */
static size_t read_operands(struct reader *r, char *p, struct operand *o)
{
	size_t n = 0;
	int depth = 0;
	for (char *start = p;; p++) {
		if (*p == '[' || *p == '{' || *p == '(')
			depth++;
		else if (*p == ']' || *p == '}' || *p == ')')
			depth--;
		if (!((*p == ',' && depth <= 0) || *p == '\0'))
			continue;
		bool last = *p == '\0';
		*p = '\0';
		if (n == MAX_OPERANDS)
			return SIZE_MAX;
		read_operand(r, start, &o[n]);
		/* an empty operand is none, unless a comma follows it */
		if (*trim(start) != '\0' || !last)
			n++;
		if (last)
			return n;
		start = p + 1;
	}
}

/* One statement, NUL-terminated, with no ';': its opcode and operands. */
static void read_stmt(struct reader *r, char *p)
{
	p = skip_blank(p);
	if (*p == '@') {                /* a guard: @%p or @!%p */
		while (*p && !blank(*p))
			p++;
		p = skip_blank(p);
	}
	if (*p == '.' || *p == '\0')
		return;                 /* a directive (.reg, .param, .pragma...) */
	char *op = p;
	while (*p && !blank(*p))
		p++;
	if (*p)
		*p++ = '\0';
	enum rule rule = rule_of(op);
	if (rule == R_NONE)
		return;
	struct operand *o = r->opnd;
	size_t n = read_operands(r, p, o);
	if (n == SIZE_MAX) {
		r->bad = true;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		/* a parameter named outside ld.param: its address is taken */
		bool loaded = rule == R_PARAM_LOAD && i == 1;
		if (o[i].param >= 0 && !loaded)
			r->a->param_unknown[o[i].param] = true;
	}
	if (rule == R_PARAM_LOAD)
		param_load(r, op, o, n);
	else
		add_stmt(r, rule, o, n);
}

/* An identifier and then ':' (not '::') at p: a label; past it, or p. */
static char *skip_label(char *p)
{
	char *q = p;
	while (ident_char(*q))
		q++;
	if (q == p)
		return p;
	char *c = skip_blank(q);
	return *c == ':' && c[1] != ':' ? c + 1 : p;
}

/* The ';' that ends the statement at p (strings skipped), or the NUL at the end. */
static char *stmt_end(char *p)
{
	while (*p && *p != ';') {
		if (*p != '"') {
			p++;
			continue;
		}
		for (p++; *p && *p != '"'; p++)
			if (*p == '\\' && p[1])
				p++;
		if (*p)
			p++;
	}
	return p;
}

/* The body, cut into statements. */
static void read_body(struct reader *r, char *p)
{
	while (!r->bad) {
		p = skip_blank(p);
		if (*p == '{' || *p == '}') {
			p++;
			continue;
		}
		if (*p == '\0')
			break;
		char *q = skip_label(p);
		if (q != p) {
			p = q;
			continue;
		}
		/* .loc FILE LINE COL: a line of its own with no ';' */
		if (strncmp(p, ".loc", 4) == 0 && !ident_char(p[4])) {
			p += strcspn(p, "\n");
			continue;
		}
		char *e = stmt_end(p);
		if (*e == '\0') {
			r->bad = true;  /* text after the last statement */
			break;
		}
		*e = '\0';
		read_stmt(r, p);
		p = e + 1;
	}
}

/* Flow --------------------------------------------------------------------- */

/* Registers' sources, a bit set of words per register. */
struct taint {
	uint64_t *bits;
	size_t words;
};

static uint64_t *row(const struct taint *t, uint32_t reg)
{
	return t->bits + (size_t)reg * t->words;
}

/* dst |= src; true when dst grew. */
static bool merge(const struct taint *t, uint32_t dst, const uint64_t *src)
{
	uint64_t *d = row(t, dst);
	bool grew = false;
	for (size_t w = 0; w < t->words; w++) {
		uint64_t nv = d[w] | src[w];
		grew |= nv != d[w];
		d[w] = nv;
	}
	return grew;
}

/* Sources reach registers through computations until nothing changes; false when they do not settle. */
static bool flow(const struct reader *r, const struct taint *t)
{
	uint64_t *acc = xcalloc(t->words, sizeof *acc);
	for (size_t i = 0; i < r->nst; i++) {
		const struct stmt *s = &r->st[i];
		if (s->kind != ST_PARAM_LOAD)
			continue;
		for (uint32_t k = 0; k < s->ndst; k++) {
			uint32_t src = r->ops[s->at + s->ndst + k];
			row(t, r->ops[s->at + k])[src / 64] |= 1ull << (src % 64);
		}
	}
	bool changed = true;
	int pass;
	for (pass = 0; changed && pass < MAX_PASSES; pass++) {
		changed = false;
		for (size_t i = 0; i < r->nst; i++) {
			const struct stmt *s = &r->st[i];
			if (s->kind != ST_FLOW || s->ndst == 0 || s->nuse == 0)
				continue;
			memset(acc, 0, t->words * sizeof *acc);
			for (uint32_t k = 0; k < s->nuse; k++) {
				const uint64_t *u = row(t, r->ops[s->at + s->ndst + k]);
				for (size_t w = 0; w < t->words; w++)
					acc[w] |= u[w];
			}
			for (uint32_t k = 0; k < s->ndst; k++)
				changed |= merge(t, r->ops[s->at + k], acc);
		}
	}
	free(acc);
	return !changed;
}

/* Each source that reg carries: effect added. */
static void mark(struct ptx_access *a, const struct taint *t, uint32_t reg, unsigned effect)
{
	const uint64_t *b = row(t, reg);
	for (size_t w = 0; w < t->words; w++)
		for (uint64_t m = b[w]; m; m &= m - 1)
			a->src[w * 64 + (size_t)__builtin_ctzll(m)].effect |= effect;
}

/* What the memory instructions do through the sources their operands carry. */
static void effects(const struct reader *r, const struct taint *t)
{
	for (size_t i = 0; i < r->nst; i++) {
		const struct stmt *s = &r->st[i];
		if (s->kind == ST_PARAM_LOAD)
			continue;
		for (uint32_t k = 0; s->kind == ST_MEMORY && k < s->nuse; k++)
			mark(r->a, t, r->ops[s->at + s->ndst + k], PTX_UNKNOWN);
		for (uint32_t k = 0; k < s->naddr; k++) {
			size_t at = s->at + s->ndst + s->nuse + 2 * k;
			mark(r->a, t, r->ops[at], r->ops[at + 1]);
		}
	}
}

/* The whole ---------------------------------------------------------------- */

/* Does the text say `.address_size 64`?  (Without it, addresses are 32 bits.) */
static bool address_64(const char *text)
{
	const char *p = strstr(text, ".address_size");
	return p && strtol(p + 13, NULL, 10) == 64;
}

static void reader_free(struct reader *r)
{
	for (size_t i = 0; r->params && i < r->a->nparams; i++)
		free(r->params[i]);
	free(r->params);
	strmap_free(r->param_index);
	for (size_t i = 0; i < r->nnames; i++)
		free(r->name_v[i]);
	free(r->name_v);
	strmap_free(r->names);
	free(r->st);
	free(r->ops);
	free(r->opnd);
}

void ptx_access_free(struct ptx_access *a)
{
	if (a == NULL)
		return;
	free(a->param_unknown);
	free(a->src);
	free(a);
}

struct ptx_access *ptx_access_new(const char *text, const char *name)
{
	struct ptx_span params, body;
	if (!ptx_entry_span(text, name, &params, &body) || !address_64(text))
		return NULL;
	struct reader r = {.a = xcalloc(1, sizeof *r.a), .names = strmap_new(256),
			   .opnd = xcalloc(MAX_OPERANDS, sizeof *r.opnd)};
	bool ok = read_params(&r, params);
	if (ok) {
		char *code = ptx_uncomment(body);
		read_body(&r, code);
		free(code);
		ok = !r.bad;
	}
	if (ok) {
		struct taint t = {.words = (r.a->nsrc + 63) / 64};
		t.bits = xcalloc(t.words * (r.nnames ? r.nnames : 1), sizeof *t.bits);
		ok = flow(&r, &t);
		if (ok)
			effects(&r, &t);
		free(t.bits);
	}
	reader_free(&r);
	if (!ok) {
		ptx_access_free(r.a);
		return NULL;
	}
	return r.a;
}

size_t ptx_access_nparams(const struct ptx_access *a)
{
	return a->nparams;
}

unsigned ptx_access_at(const struct ptx_access *a, size_t param, size_t offset, size_t size)
{
	if (param >= a->nparams)
		return PTX_UNKNOWN;
	unsigned eff = a->param_unknown[param] ? PTX_UNKNOWN : 0;
	for (size_t i = 0; i < a->nsrc; i++) {
		const struct source *s = &a->src[i];
		if (s->param == param && s->offset < offset + size && offset < s->offset + s->size)
			eff |= s->effect;
	}
	return eff;
}
