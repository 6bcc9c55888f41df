/*
 * The loader: libyaml's events straight into the model, by recursive
 * descent over tables of key handlers (one table per kind of mapping).
 * This file owns the scalars (numbers, sizes, names as the format reads
 * them), the mappings (keys looked up in tables, duplicates, merge keys,
 * names of the user's that must be unique) and the format's own tables.
 * The events come from load_events.h, which hides anchors and aliases:
 * every handler supports them for free.
 *
 * Merge keys (<<: *a, <<: [*a, *b]) are kept aside until the mapping's
 * own keys are read, then the merged mappings' keys are replayed; a key
 * already set takes precedence, as YAML's merge rules say.
 *
 * Errors inside a value skip the rest of that value and go on, so that
 * every error is reported; only YAML syntax errors, the limits and an
 * unsupported format version stop the load (and return NULL).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load.h"
#include "load_axes.h"
#include "load_events.h"
#include "model_derive.h"
#include "monotime.h"
#include "strmap.h"
#include "sweep.h"
#include "utf8.h"
#include "xmalloc.h"

const struct load_limits load_default_limits = {
	.max_depth = 64,
	.max_alias_events = 1000000,
	.max_file_size = (size_t)1 << 30,
	.max_generated_events = 10000000,
};

/* A merge key waiting for the end of its mapping. */
struct merge {
	long target;
	struct pos pos;
};

/* Names that must be unique in a mapping keyed by user names. */
struct names {
	struct strmap *map;
	struct name_info {
		struct pos pos;
		unsigned level;
	} *info;
	size_t n, cap;
};

/* The loader's state for one file. */
struct ld {
	struct evsrc es;        /* the events, and the current one: es.ev */
	struct gdef *g;
	/*
	 * Every node in file order, for automatic ids.  While all are in the
	 * root graph, as in most large files, its own list is that order;
	 * once a node holds a graph (nested) they are listed here.
	 */
	bool nested;
	struct node **nodes;
	size_t nnodes, capnodes;
	struct arena scratch;   /* the loader's arrays of a file's size (nodes) */
	size_t auto_counts[NK_COUNT]; /* automatic ids handed out so far, per kind */
	bool renumber;          /* they may be wrong: see assign_ids */
	struct names modules, buffers, conditions;
	/* the last kernel function read, whose strings the next same one shares */
	const struct kernel_node *last_kernel;
	size_t last_kernel_len;
	/* the last name a reference gave, which the next same one shares */
	char *last_ref;
	size_t last_ref_len;
	/* a kernel's template name put back together (kernel_unknown), or NULL */
	char *tmpl;
	/* errors inside the nodes parsed so far, for each node's own (parse_node) */
	size_t inner_errs;
	/* "did you mean" answers already worked out (see suggest) */
	struct hint {
		const void *table;
		char word[65];
		const char *answer;
	} hints[16];
	size_t nhints;
	/* a template's point (load_events.h: TEMPLATES): its sweep; NULL in a plain load */
	struct sweep *sw;
	bool axes_pass;         /* reading axes: only, before the points */
};

static const struct pos nopos;

/*
 * The event source's calls, in the loader's words.  Every handler reads
 * the current event as l->es.ev, and moves on with next(l).
 */
static inline void next(struct ld *l)
{
	ev_next(&l->es);
}

static inline void next_ev(struct ld *l, bool expand)
{
	ev_advance(&l->es, expand);
}

static inline void skip_value(struct ld *l)
{
	ev_skip_value(&l->es);
}

static inline void skip_value_ex(struct ld *l, bool expand_after)
{
	ev_skip_value_ex(&l->es, expand_after);
}

static void err(struct ld *l, struct pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), cold));
static void fatal(struct ld *l, struct pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), cold));

/* Errors after a fatal one would only be noise (see ev_verror). */
static void err(struct ld *l, struct pos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ev_verror(&l->es, false, pos, fmt, ap);
	va_end(ap);
}

/* An error after which nothing more is read: here, the format version. */
static void fatal(struct ld *l, struct pos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ev_verror(&l->es, true, pos, fmt, ap);
	va_end(ap);
}


/* ---------------------------------------------------------------------
 * Messages and scalars
 */

/*
 * YAML's null spellings are "", "~", null, Null and NULL: two bytes rule
 * out the rest before the strcmps, for names such as n12 (ids in a chain
 * go by twice, as an id and in an after) as well as for numbers.
 */
static bool null_text(const char *s)
{
	return (*s == '\0' || *s == '~' ||
		((*s == 'n' || *s == 'N') && (s[1] == 'u' || s[1] == 'U'))) &&
	       is_null_scalar(s);
}

/* "expected WHAT for 'NAME', found ...", then skip the value. */
static __attribute__((cold)) void expected(struct ld *l, const char *what, const char *name)
{
	/*
	 * A bad event's error was given when it was read (a broken alias, an
	 * expression that does not evaluate): it still spoils what holds it.
	 */
	if (l->es.ev.bad)
		l->es.nerrs++;
	if (!l->es.ev.bad) {
		char buf[96];
		err(l, l->es.ev.pos, "expected %s for '%.60s', found %s", what, name,
		    ev_found(&l->es.ev, buf, sizeof buf));
	}
	skip_value(l);
}

static bool is_null(const struct ld *l)
{
	return l->es.ev.type == EV_SCALAR && !l->es.ev.quoted && !l->es.ev.bad &&
	       null_text(l->es.ev.value);
}

static bool is_scalar(const struct ld *l)
{
	return l->es.ev.type == EV_SCALAR && !l->es.ev.bad;
}

/* plain_scalar's error: the hint when quotes hide a number, else expected(). */
static __attribute__((cold)) void not_plain(struct ld *l, const char *what, const char *name)
{
	const struct ev *e = &l->es.ev;
	struct num n;
	if (e->type == EV_SCALAR && e->quoted && parse_number(e->value, &n) == SCALAR_OK) {
		char buf[96];
		err(l, e->pos, "expected %s for '%.60s', found %s (quotes make it a string)",
		    what, name, ev_found(e, buf, sizeof buf));
		skip_value(l);
		return;
	}
	expected(l, what, name);
}

/*
 * The current event as an unquoted, non-null scalar, as numbers must be;
 * else an error (with a hint when quotes hide a number) and false.  Inline:
 * a large file is mostly numbers.
 */
static inline bool plain_scalar(struct ld *l, const char *what, const char *name)
{
	const struct ev *e = &l->es.ev;
	if (e->type == EV_SCALAR && !e->bad && !e->quoted && !null_text(e->value))
		return true;
	not_plain(l, what, name);
	return false;
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
		expected(l, "an integer", name);
		return false;
	}
	bool outside = n.kind == NUM_UINT ?
		n.u > max || (min > 0 && n.u < (uint64_t)min) : n.i < min;
	if (e == SCALAR_RANGE || outside) {
		err(l, l->es.ev.pos, "value '%.60s' for '%.60s' is out of range (%lld to %llu)",
		    l->es.ev.value, name, (long long)min, (unsigned long long)max);
		skip_value(l);
		return false;
	}
	n.pos = l->es.ev.pos;
	*out = n;
	next(l);
	return true;
}

static bool get_u64(struct ld *l, const char *name, uint64_t min, uint64_t max,
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

static bool get_i64(struct ld *l, const char *name, int64_t min, int64_t max,
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

/* A number as written (integer or float); its range is checked later. */
static bool get_num(struct ld *l, const char *name, struct num *out)
{
	if (!plain_scalar(l, "a number", name))
		return false;
	struct num n;
	enum scalar_err e = parse_number(l->es.ev.value, &n);
	if (e == SCALAR_SYNTAX) {
		expected(l, "a number", name);
		return false;
	}
	if (e != SCALAR_OK) {
		err(l, l->es.ev.pos, "value '%.60s' for '%.60s' is out of range (integers have at most 64 bits; a float needs a '.' or an exponent)",
		    l->es.ev.value, name);
		skip_value(l);
		return false;
	}
	n.pos = l->es.ev.pos;
	*out = n;
	next(l);
	return true;
}

/* A non-negative number, for tolerances; messages echo what was written. */
static bool get_nonneg(struct ld *l, const char *name, double *out, struct pos *pos)
{
	if (!plain_scalar(l, "a number", name))
		return false;
	struct num n;
	enum scalar_err e = parse_number(l->es.ev.value, &n);
	if (e == SCALAR_SYNTAX) {
		expected(l, "a number", name);
		return false;
	}
	/* n is unset unless e is SCALAR_OK; NaN fails too. */
	double v = e == SCALAR_OK ? num_to_double(&n) : -1;
	if (!(v >= 0)) {
		err(l, l->es.ev.pos, "value '%.60s' for '%.60s' is out of range (0 or more)",
		    l->es.ev.value, name);
		skip_value(l);
		return false;
	}
	*out = v;
	*pos = l->es.ev.pos;
	next(l);
	return true;
}

/* Sizes and durations may be quoted: "64 KiB" reads better with a unit. */
static bool unit_scalar(struct ld *l, const char *what, const char *name)
{
	if (is_scalar(l) && !is_null(l))
		return true;
	expected(l, what, name);
	return false;
}

static const char size_what[] = "a size (bytes, or a number and a unit such as '64 KiB')";

static bool get_size(struct ld *l, const char *name, uint64_t max, uint64_t *out,
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
		err(l, l->es.ev.pos, "size '%.60s' for '%.60s' is out of range (at most %llu bytes)",
		    l->es.ev.value, name, (unsigned long long)max);
		skip_value(l);
		return false;
	case SCALAR_UNIT:
		err(l, l->es.ev.pos, "unknown unit in size '%.60s' for '%.60s' (expected B, KiB, MiB, GiB, TiB, kB, MB, GB or TB)",
		    l->es.ev.value, name);
		skip_value(l);
		return false;
	case SCALAR_SYNTAX:
		expected(l, size_what, name);
		return false;
	}
	*out = v;
	if (pos)
		*pos = l->es.ev.pos;
	next(l);
	return true;
}

static const char duration_what[] = "a duration (seconds, or a number and a unit such as '10 ms')";

static bool get_duration(struct ld *l, const char *name, uint64_t *ns, struct pos *pos)
{
	if (!unit_scalar(l, duration_what, name))
		return false;
	switch (parse_duration(l->es.ev.value, ns)) {
	case SCALAR_OK:
		break;
	case SCALAR_RANGE:
		err(l, l->es.ev.pos, "duration '%.60s' for '%.60s' is out of range", l->es.ev.value, name);
		skip_value(l);
		return false;
	case SCALAR_UNIT:
		err(l, l->es.ev.pos, "unknown unit in duration '%.60s' for '%.60s' (expected ns, us, ms, s or min)",
		    l->es.ev.value, name);
		skip_value(l);
		return false;
	case SCALAR_SYNTAX:
		expected(l, duration_what, name);
		return false;
	}
	if (pos)
		*pos = l->es.ev.pos;
	next(l);
	return true;
}

static bool get_bool(struct ld *l, const char *name, bool *out)
{
	if (!plain_scalar(l, "true or false", name))
		return false;
	if (!parse_bool(l->es.ev.value, out)) {
		expected(l, "true or false", name);
		return false;
	}
	next(l);
	return true;
}

/* Any non-null scalar as text (plain numbers too: "name: 42"). */
static bool get_text(struct ld *l, const char *what, const char *name, char **out,
		     struct pos *pos)
{
	if (!is_scalar(l) || is_null(l)) {
		expected(l, what, name);
		return false;
	}
	*out = gdef_strndup(l->g, l->es.ev.value, l->es.ev.len);
	if (pos)
		*pos = l->es.ev.pos;
	next(l);
	return true;
}

/*
 * A reference by name.  Large graphs name the same buffer from node after
 * node: a name like the last one shares its string (the model's strings
 * are never written to nor freed alone), which saves the copy, and lets
 * the validator, which knows a name it has seen by its pointer, look it up
 * once.
 */
static bool get_ref(struct ld *l, const char *what, const char *name, struct name_ref *r)
{
	size_t len = l->es.ev.len;
	r->idx = -1;
	if (l->last_ref && is_scalar(l) && !is_null(l) && len == l->last_ref_len &&
	    memcmp(l->es.ev.value, l->last_ref, len) == 0) {
		r->name = l->last_ref;
		r->pos = l->es.ev.pos;
		next(l);
		return true;
	}
	if (!get_text(l, what, name, &r->name, &r->pos))
		return false;
	l->last_ref = r->name;
	l->last_ref_len = len;
	return true;
}

/* ---------------------------------------------------------------------
 * Mappings: keys, merges, tables of handlers
 */

struct keydef;
typedef void key_fn(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos);

/* One key of a kind of mapping: its handler reads the value into obj. */
struct keydef {
	const char *name;
	key_fn *fn;
	int arg;                /* for shared handlers: a node kind, a type */
};

struct keytab {
	const struct keydef *keys;
	size_t n;
	/*
	 * A key not in keys: true when this handles it (its value is then
	 * skipped), false for the usual "unknown key" error.  Optional.
	 */
	bool (*unknown)(struct ld *l, void *obj, const char *key, struct pos kpos);
};

#define KEYTAB(a) {a, sizeof a / sizeof *a, NULL}
#define MAXKEYS 32

/*
 * POINTS (see load_template): the value at the current event is an object
 * that a later point of a template may read again alone.  Only while a
 * template's point is recorded (es.rec); a plain load pays a test.
 */
static inline long obj_open(struct ld *l, enum ev_ctx_kind kind, void *obj, size_t index,
			    const struct keydef *kd, struct pos kpos)
{
	return l->es.rec ? ev_ctx_open(&l->es, kind, obj, index, kd, kpos) : -1;
}

static inline void obj_close(struct ld *l, long o)
{
	if (o >= 0)
		ev_ctx_close(&l->es, o);
}

/*
 * Keys are a few bytes long and every key of the file comes through here:
 * a plain loop beats a call to the library's strcmp, which is built for
 * long strings (measured: ~3 ms of 100 on the 100,000-node chain).
 */
static bool key_eq(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

static int find_key(const struct keytab *t, const char *key)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->keys[i].name[0] == key[0] && key_eq(t->keys[i].name, key))
			return (int)i;
	return -1;
}

struct mapiter {
	struct pos pos;         /* the mapping */
	/* 0: keys written in the mapping; n: keys of the nth merged one */
	unsigned level;
	struct merge *merges;
	size_t nmerges, capmerges, done;
	const char *key;        /* the current key, valid until the next */
	struct pos kpos;
	/* the mapping's keys, or NULL for names of the user's (see map_key) */
	const struct keytab *tab;
	int index;              /* the current key's in tab, or -1 */
	char *heap;
	char buf[64];
};

/* Start reading the mapping at the current event (an EV_MAP), with keys of tab. */
static void map_open(struct ld *l, struct mapiter *it, const struct keytab *tab)
{
	it->pos = l->es.ev.pos;
	it->tab = tab;
	it->level = 0;
	it->merges = NULL;
	it->nmerges = it->capmerges = it->done = 0;
	it->key = NULL;
	it->heap = NULL;
	next(l);
}

static void add_merge(struct ld *l, struct mapiter *it)
{
	long t = l->es.ev.target;
	if (t < 0)
		return; /* reported with the alias */
	enum evtype first = ev_anchor_type(&l->es, t);
	if (first != EV_MAP) {
		err(l, l->es.ev.pos, "merge key '<<' needs an alias of a mapping, but '*%.60s' is %s",
		    l->es.ev.value, first == EV_SEQ ? "a list" : "a scalar");
		return;
	}
	struct merge *m = VEC_PUSH(it->merges, it->nmerges, it->capmerges);
	m->target = t;
	m->pos = l->es.ev.pos;
}

/* The value of a merge key '<<', read raw: an alias or a list of them. */
static void read_merge(struct ld *l, struct mapiter *it)
{
	static const char what[] = "an alias (<<: *name) or a list of aliases";
	next_ev(l, false);
	if (l->es.ev.type == EV_ALIAS) {
		add_merge(l, it);
		next(l);
	} else if (l->es.ev.type == EV_SEQ) {
		next_ev(l, false);
		while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
			if (l->es.ev.type == EV_ALIAS) {
				add_merge(l, it);
				next_ev(l, false);
			} else {
				char buf[96];
				err(l, l->es.ev.pos, "expected an alias (*name) in the list of '<<', found %s",
				    ev_found(&l->es.ev, buf, sizeof buf));
				skip_value_ex(l, false);
			}
		}
		next(l);
	} else {
		expected(l, what, "<<");
	}
}

/* Replay the next merged mapping's keys in place of the mapping's end. */
static void start_merge(struct ld *l, struct mapiter *it)
{
	const struct merge *m = &it->merges[it->done++];
	if (!ev_replay_keys(&l->es, m->target, m->pos))
		return;
	it->level++;
	next(l);
}

/*
 * The next key of the mapping: true with it->key set and the value as
 * the current event; false once the mapping has ended (and been read).
 * A key of it->tab is looked up before the value is read, and named by
 * the table's own string: only the others are copied.
 */
static bool map_key(struct ld *l, struct mapiter *it)
{
	if (it->heap) {
		free(it->heap);
		it->heap = NULL;
	}
	for (;;) {
		if (l->es.fatal)
			break;
		if (l->es.ev.type == EV_MAP_END) {
			if (it->done < it->nmerges) {
				start_merge(l, it);
				continue;
			}
			next(l);
			break;
		}
		if (!is_scalar(l)) {
			if (!l->es.ev.bad) {
				char buf[96];
				err(l, l->es.ev.pos, "expected a key (a name), found %s",
				    ev_found(&l->es.ev, buf, sizeof buf));
			}
			skip_value(l);
			skip_value(l);
			continue;
		}
		if (l->es.ev.len == 2 && l->es.ev.value[0] == '<' && l->es.ev.value[1] == '<' &&
		    !l->es.ev.quoted) {
			read_merge(l, it);
			continue;
		}
		it->index = it->tab ? find_key(it->tab, l->es.ev.value) : -1;
		if (it->index >= 0) {
			it->key = it->tab->keys[it->index].name;
		} else {
			size_t n = l->es.ev.len;
			char *dst = it->buf;
			if (n >= sizeof it->buf)
				dst = it->heap = xmalloc(n + 1);
			memcpy(dst, l->es.ev.value, n);
			dst[n] = '\0';
			it->key = dst;
		}
		it->kpos = l->es.ev.pos;
		next(l);
		return true;
	}
	if (it->merges) {
		free(it->merges);
		it->merges = NULL;
	}
	return false;
}

/* What a table-driven mapping held. */
struct seen {
	uint32_t mask;          /* bit i: key i of the table */
	unsigned unknown;       /* unknown keys reported */
	struct pos pos;         /* the mapping */
	struct pos at[MAXKEYS]; /* where key i was */
};

/* "a, b, c or d" into buf. */
static void list_names(const char *const *names, size_t n, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++) {
		const char *sep = i == 0 ? "" : i + 1 == n ? " or " : ", ";
		int w = snprintf(buf + used, len - used, "%s%s", sep, names[i]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/*
 * diag_suggest, remembered: errors inside an anchored node come round
 * again with every alias that replays it, and working out "did you mean"
 * anew each time made a small alias bomb of typos cost seconds.  table
 * identifies the (static) list of names.
 */
static const char *suggest(struct ld *l, const void *table, const char *word,
			   const char *const *names, size_t n)
{
	size_t len = strlen(word);
	if (len >= sizeof l->hints[0].word)
		return diag_suggest(word, names, n);
	size_t nh = sizeof l->hints / sizeof *l->hints;
	for (size_t i = 0; i < nh; i++)
		if (l->hints[i].table == table && strcmp(l->hints[i].word, word) == 0)
			return l->hints[i].answer;
	/* the oldest answer makes room */
	struct hint *c = &l->hints[l->nhints++ % nh];
	c->table = table;
	memcpy(c->word, word, len + 1);
	c->answer = diag_suggest(word, names, n);
	return c->answer;
}

static __attribute__((cold)) void unknown_key(struct ld *l, const struct keytab *t,
					      const char *key, struct pos kpos, const char *ctx)
{
	const char *names[MAXKEYS];
	for (size_t i = 0; i < t->n; i++)
		names[i] = t->keys[i].name;
	if (t->n == 0) {
		err(l, kpos, "unknown key '%.60s' %s (it takes no keys)", key, ctx);
		return;
	}
	const char *s = suggest(l, t, key, names, t->n);
	if (s) {
		err(l, kpos, "unknown key '%.60s' %s (did you mean '%.60s'?)", key, ctx, s);
		return;
	}
	char list[512];
	list_names(names, t->n, list, sizeof list);
	err(l, kpos, "unknown key '%.60s' %s (expected %s)", key, ctx, list);
}

/*
 * A value that is one of names[0..n) (an element type, a memory kind, an
 * instantiate flag): its index, with *pos set; else -1 after an error that
 * suggests the closest name or lists them all.
 */
static int get_choice(struct ld *l, const char *what, const char *noun, const char *name,
		      const char *const *names, size_t n, struct pos *pos)
{
	if (!is_scalar(l) || is_null(l)) {
		expected(l, what, name);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (strcmp(l->es.ev.value, names[i]) == 0) {
			if (pos)
				*pos = l->es.ev.pos;
			next(l);
			return (int)i;
		}
	const char *s = suggest(l, names, l->es.ev.value, names, n);
	if (s) {
		err(l, l->es.ev.pos, "unknown %s '%.60s' (did you mean '%.60s'?)", noun, l->es.ev.value, s);
	} else {
		char list[256];
		list_names(names, n, list, sizeof list);
		err(l, l->es.ev.pos, "unknown %s '%.60s' (expected %s)", noun, l->es.ev.value, list);
	}
	skip_value(l);
	return -1;
}

/*
 * Read the mapping at the current event with table t into obj; ctx says
 * where, for messages ("in buffer 'x'").  Each key's handler reads its
 * value; unknown and duplicate keys are reported and skipped.
 */
static void parse_keys(struct ld *l, const struct keytab *t, void *obj,
		       const char *ctx, struct seen *s)
{
	struct mapiter it;
	unsigned level[MAXKEYS];
	s->mask = 0;
	s->unknown = 0;
	map_open(l, &it, t);
	s->pos = it.pos;
	while (map_key(l, &it)) {
		int i = it.index;
		if (i < 0 && t->unknown && t->unknown(l, obj, it.key, it.kpos)) {
			skip_value(l);
			continue;
		}
		if (i < 0) {
			unknown_key(l, t, it.key, it.kpos, ctx);
			s->unknown++;
			skip_value(l);
			continue;
		}
		uint32_t bit = 1u << i;
		if (s->mask & bit) {
			/* A key written in the mapping beats a merged one. */
			if (level[i] == it.level)
				err(l, it.kpos, "duplicate key '%.60s' %s (first at %u:%u)",
				    it.key, ctx, s->at[i].line, s->at[i].col);
			skip_value(l);
			continue;
		}
		s->mask |= bit;
		s->at[i] = it.kpos;
		level[i] = it.level;
		t->keys[i].fn(l, obj, &t->keys[i], it.kpos);
	}
}

/* Report the keys of mask missing from s, at the mapping. */
static void require(struct ld *l, const struct keytab *t, const struct seen *s,
		    uint32_t mask, const char *ctx)
{
	/* After an unknown key (a typo of the missing one?) it would be noise. */
	if (s->unknown > 0 || (s->mask & mask) == mask)
		return;
	for (size_t i = 0; i < t->n; i++)
		if ((mask & (1u << i)) && !(s->mask & (1u << i)))
			err(l, s->pos, "missing key '%.60s' %s", t->keys[i].name, ctx);
}

/* Is the current event a mapping?  Else an error for NAME and skip. */
static bool want_map(struct ld *l, const char *what, const char *name)
{
	if (l->es.ev.type == EV_MAP)
		return true;
	expected(l, what, name);
	return false;
}

static bool want_seq(struct ld *l, const char *what, const char *name)
{
	if (l->es.ev.type == EV_SEQ)
		return true;
	expected(l, what, name);
	return false;
}

/* Duplicate names in a mapping keyed by user names; true when new. */
static bool name_new(struct ld *l, struct names *nm, const char *what,
		     const struct mapiter *it)
{
	long i = nm->map ? strmap_get(nm->map, it->key) : -1;
	if (i < 0)
		return true;
	if (nm->info[i].level == it->level)
		err(l, it->kpos, "duplicate %s '%.60s' (first at %u:%u)", what, it->key,
		    nm->info[i].pos.line, nm->info[i].pos.col);
	return false;
}

/* name must live as long as nm (it is the model's own string). */
static void name_add(struct names *nm, const char *name, const struct mapiter *it)
{
	if (nm->map == NULL)
		nm->map = strmap_new(16);
	strmap_put(nm->map, name, (long)nm->n, NULL);
	struct name_info *in = VEC_PUSH(nm->info, nm->n, nm->cap);
	in->pos = it->kpos;
	in->level = it->level;
}

static void names_free(struct names *nm)
{
	strmap_free(nm->map);
	free(nm->info);
}

/*
 * Makes the thing called name (key kpos) in a section of named things and
 * reads its value, the current event.  Returns the thing's own copy of the
 * name, which the section remembers for duplicates, or NULL when the name
 * is refused (reported, and the value skipped).
 */
typedef char *add_named_fn(struct ld *l, const char *name, struct pos kpos);

/*
 * A section mapping the user's names to things (modules, buffers,
 * conditions): null for none, else a mapping, what it is called in a
 * message.  Each name must be new in the section (nm): one given again is
 * reported as a duplicate noun, unless a merge key brought it (the
 * mapping's own key wins), and its value skipped.
 */
static bool parse_named(struct ld *l, const struct keydef *kd, const char *what,
			struct names *nm, const char *noun, add_named_fn *add)
{
	if (is_null(l)) {
		next(l);
		return false;
	}
	if (!want_map(l, what, kd->name))
		return true;
	/* errors outside the things' own values: a name may be lost */
	size_t errors = l->es.nerrs, inside = 0;
	struct mapiter it;
	map_open(l, &it, NULL);
	while (map_key(l, &it)) {
		if (!name_new(l, nm, noun, &it)) {
			skip_value(l);
			continue;
		}
		size_t before = l->es.nerrs;
		char *name = add(l, it.key, it.kpos);
		if (name) {
			name_add(nm, name, &it);
			inside += l->es.nerrs - before;
		}
	}
	return l->es.nerrs - errors > inside;
}

/* ---------------------------------------------------------------------
 * Modules
 */

static void key_module_file(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct module *m = obj;
	if (m->file) {
		err(l, kpos, "module '%.60s' has 'file' and 'source': give one", m->name);
		skip_value(l);
		return;
	}
	get_text(l, "a file name", kd->name, &m->file, &m->file_pos);
	/* source: makes a source whatever the file's name */
	if (kd->arg)
		m->source = true;
}

/* A list of texts, or one text alone; each goes to push(obj, text, pos). */
static void get_texts(struct ld *l, const char *what, const char *name, void *obj,
		      void (*push)(struct ld *, void *, char *, struct pos))
{
	char *text;
	struct pos pos;
	if (l->es.ev.type != EV_SEQ) {
		if (get_text(l, what, name, &text, &pos))
			push(l, obj, text, pos);
		return;
	}
	next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END)
		if (get_text(l, what, name, &text, &pos))
			push(l, obj, text, pos);
	next(l);
}

static void push_option(struct ld *l, void *obj, char *text, struct pos pos)
{
	struct module *m = obj;
	struct module_option *o = VEC_PUSH(m->options, m->noptions, m->capoptions);
	o->text = text;
	o->pos = pos;
}

static void push_include(struct ld *l, void *obj, char *text, struct pos pos)
{
	struct module *m = obj;
	struct module_include *in = VEC_PUSH(m->includes, m->nincludes, m->capincludes);
	in->dir = text;
	in->pos = pos;
	in->path = gdef_resolve_path(l->g, text);
}

static void key_module_options(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct module *m = obj;
	m->options_pos = kpos;
	get_texts(l, "a list of compiler options", kd->name, m, push_option);
}

static void key_module_include(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct module *m = obj;
	m->includes_pos = kpos;
	get_texts(l, "a list of include directories", kd->name, m, push_include);
}

/* defines: {NAME: value, FLAG: null} -> -DNAME=value, -DFLAG */
static void key_module_defines(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct module *m = obj;
	m->defines_pos = kpos;
	if (!want_map(l, "a mapping of macro names to values", kd->name))
		return;
	struct mapiter it;
	map_open(l, &it, NULL);
	while (map_key(l, &it)) {
		struct module_define *d;
		for (size_t i = 0; i < m->ndefines; i++)
			if (strcmp(m->defines[i].name, it.key) == 0) {
				err(l, it.kpos, "duplicate define '%.60s' in module '%.60s' (first at %u:%u)",
				    it.key, m->name, m->defines[i].pos.line, m->defines[i].pos.col);
				skip_value(l);
				goto next_key;
			}
		d = VEC_PUSH(m->defines, m->ndefines, m->capdefines);
		d->name = gdef_strdup(l->g, it.key);
		d->pos = it.kpos;
		if (is_null(l))
			next(l);
		else if (!is_scalar(l))
			expected(l, "a value (a number or a text) or nothing", it.key);
		else
			get_text(l, "a value", it.key, &d->value, NULL);
next_key:;
	}
}

static const char *const std_names[] = {"c++03", "c++11", "c++14", "c++17", "c++20"};

static void key_module_std(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct module *m = obj;
	struct pos pos;
	int i = get_choice(l, "a C++ standard", "C++ standard", kd->name, std_names,
			   sizeof std_names / sizeof *std_names, &pos);
	m->std_pos = kpos;
	if (i >= 0)
		m->std = (char *)std_names[i];
}

static const struct keydef module_keys[] = {
	{"file", key_module_file, 0},
	{"source", key_module_file, 1},
	{"options", key_module_options, 0},
	{"defines", key_module_defines, 0},
	{"include", key_module_include, 0},
	{"std", key_module_std, 0},
};
static const struct keytab module_tab = KEYTAB(module_keys);

/* A source is compiled at run time: a .cu file, or one named by source:. */
static bool is_cu(const char *file)
{
	size_t n = strlen(file);
	return n > 3 && strcmp(file + n - 3, ".cu") == 0;
}

static void parse_module(struct ld *l, struct module *m)
{
	if (l->es.ev.type == EV_MAP) {
		char ctx[160];
		struct seen s;
		snprintf(ctx, sizeof ctx, "in module '%.60s'", m->name);
		parse_keys(l, &module_tab, m, ctx, &s);
		/* one of file and source */
		if (s.unknown == 0 && !(s.mask & 3))
			err(l, s.pos, "missing key 'file' or 'source' %s", ctx);
	} else {
		get_text(l, "a file name or a mapping {file: ...}", m->name, &m->file,
			 &m->file_pos);
	}
	if (m->file) {
		m->path = gdef_resolve_path(l->g, m->file);
		if (is_cu(m->file))
			m->source = true;
	}
	if (m->source || m->file == NULL)
		return;
	/* The compiler's keys mean nothing to PTX, cubin or fatbin. */
	const struct {
		const char *key;
		struct pos pos;
	} only[] = {
		{"options", m->options_pos}, {"defines", m->defines_pos},
		{"include", m->includes_pos}, {"std", m->std_pos},
	};
	for (size_t i = 0; i < sizeof only / sizeof *only; i++)
		if (only[i].pos.line)
			err(l, only[i].pos, "'%s' applies only to a CUDA C++ source (source: FILE, "
			    "or a .cu file), not to module '%.60s' ('%.60s')", only[i].key,
			    m->name, m->file);
}

static char *add_module(struct ld *l, const char *name, struct pos kpos)
{
	if (strcmp(name, "builtin") == 0) {
		err(l, kpos, "module name 'builtin' is reserved for the built-in kernels");
		skip_value(l);
		return NULL;
	}
	struct gdef *g = l->g;
	struct module *m = VEC_PUSH(g->modules, g->nmodules, g->capmodules);
	/* (a broken alias as the value was reported when it was read) */
	size_t errors = l->es.nerrs - l->es.ev.bad;
	size_t evals = l->es.axis_evals;
	m->name = gdef_strdup(g, name);
	m->pos = kpos;
	parse_module(l, m);
	m->bad = l->es.nerrs != errors;
	m->dynamic = l->es.axis_evals != evals;
	return m->name;
}

static void key_modules(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	l->g->lost.modules |= parse_named(l, kd, "a mapping of module names to files",
					  &l->modules, "module", add_module);
}

/* ---------------------------------------------------------------------
 * Buffers and their init forms
 */

static void key_buffer_type(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct buffer *b = obj;
	int t = get_choice(l, "an element type", "element type", kd->name, elem_names,
			   ET_COUNT, &b->type_pos);
	if (t >= 0)
		b->type = (enum elem_type)t;
}

static void key_buffer_count(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct buffer *b = obj;
	b->has_count = get_u64(l, kd->name, 0, UINT64_MAX, &b->count, &b->count_pos);
}

static void key_buffer_size(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct buffer *b = obj;
	b->has_size = get_size(l, kd->name, UINT64_MAX, &b->size, &b->size_pos);
}

static void key_buffer_memory(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct buffer *b = obj;
	int k = get_choice(l, "a memory kind", "memory kind", kd->name, mem_kind_names,
			   MEM_COUNT, &b->memory_pos);
	if (k >= 0)
		b->memory = (enum mem_kind)k;
}

static void key_iota_start(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_num(l, kd->name, &((struct init *)obj)->start);
}

static void key_iota_step(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_num(l, kd->name, &((struct init *)obj)->step);
}

static void key_random_seed(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_u64(l, kd->name, 0, UINT64_MAX, &((struct init *)obj)->seed, NULL);
}

static void key_random_min(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_num(l, kd->name, &((struct init *)obj)->min);
}

static void key_random_max(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_num(l, kd->name, &((struct init *)obj)->max);
}

static const struct keydef iota_keys[] = {
	{"start", key_iota_start, 0},
	{"step", key_iota_step, 0},
};
static const struct keytab iota_tab = KEYTAB(iota_keys);

static const struct keydef random_keys[] = {
	{"seed", key_random_seed, 0},
	{"min", key_random_min, 0},
	{"max", key_random_max, 0},
};
static const struct keytab random_tab = KEYTAB(random_keys);

/* {} or null: all defaults; else a mapping read with t. */
static void parse_optional_map(struct ld *l, const struct keytab *t, void *obj,
			       const char *name, const char *ctx)
{
	struct seen s;
	if (is_null(l))
		next(l);
	else if (want_map(l, "a mapping", name))
		parse_keys(l, t, obj, ctx, &s);
}

static struct num num_uint(uint64_t v, struct pos pos)
{
	struct num n = {.pos = pos, .kind = NUM_UINT};
	n.u = v;
	return n;
}

static void key_init_iota(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct init *in = obj;
	in->kind = INIT_IOTA;
	in->start = num_uint(0, l->es.ev.pos);
	in->step = num_uint(1, l->es.ev.pos);
	parse_optional_map(l, &iota_tab, in, kd->name, "in 'iota'");
}

static void key_init_random(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct init *in = obj;
	in->kind = INIT_RANDOM;
	in->seed = 1;
	in->min = num_uint(0, l->es.ev.pos);
	in->max = num_uint(1, l->es.ev.pos);
	parse_optional_map(l, &random_tab, in, kd->name, "in 'random'");
}

static void key_init_file(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct init *in = obj;
	in->kind = INIT_FILE;
	if (get_text(l, "a file name", kd->name, &in->file, &in->file_pos))
		in->path = gdef_resolve_path(l->g, in->file);
}

static const struct keydef init_keys[] = {
	{"iota", key_init_iota, 0},
	{"random", key_init_random, 0},
	{"file", key_init_file, 0},
};
static const struct keytab init_tab = KEYTAB(init_keys);

/* A list of numbers into *list (for init and expect). */
static void parse_num_list(struct ld *l, const char *name, struct num **list,
			   size_t *n, size_t *cap)
{
	next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		struct num v;
		if (get_num(l, name, &v))
			*VEC_PUSH(*list, *n, *cap) = v;
	}
	next(l);
}

static bool pos_before(struct pos a, struct pos b)
{
	return a.line < b.line || (a.line == b.line && a.col < b.col);
}

/* More than one key of a one-of mapping (init, host, kernel argument). */
static __attribute__((cold)) void two_forms(struct ld *l, const struct keytab *t,
					    const struct seen *s, uint32_t forms,
					    const char *what, const char *noun)
{
	int first = -1;
	for (size_t i = 0; i < t->n; i++)
		if ((forms & s->mask & (1u << i)) &&
		    (first < 0 || pos_before(s->at[i], s->at[first])))
			first = (int)i;
	for (size_t i = 0; i < t->n; i++)
		if ((forms & s->mask & (1u << i)) && (int)i != first)
			err(l, s->at[i], "%s takes one %s, found '%.60s' (at %u:%u) and '%.60s'",
			    what, noun, t->keys[first].name, s->at[first].line,
			    s->at[first].col, t->keys[i].name);
}

static const char init_what[] =
	"a number, a list of numbers, {iota: ...}, {random: ...} or {file: ...}";

static void key_buffer_init(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct init *in = &((struct buffer *)obj)->init;
	in->pos = l->es.ev.pos;
	if (l->es.ev.type == EV_SEQ) {
		in->kind = INIT_LIST;
		parse_num_list(l, kd->name, &in->list, &in->nlist, &in->caplist);
	} else if (l->es.ev.type == EV_MAP) {
		struct seen s;
		parse_keys(l, &init_tab, in, "in 'init'", &s);
		if (s.mask == 0 && s.unknown == 0)
			err(l, s.pos, "empty 'init' (expected a number, a list, {iota: ...}, {random: ...} or {file: ...})");
		two_forms(l, &init_tab, &s, 7, "'init'", "form");
	} else if (is_scalar(l) && !is_null(l)) {
		struct num n;
		/* in init_keys' order */
		static const char *const forms[] = {
			"{iota: {start: a, step: d}}, or {iota: {}} for 0, 1, 2, ...",
			"{random: {seed: s, min: lo, max: hi}}, or {random: {}} for [0, 1]",
			"{file: path}",
		};
		int form = find_key(&init_tab, l->es.ev.value);
		if (form >= 0 && !l->es.ev.quoted) {
			/* init: iota, the name of a form without its mapping */
			err(l, l->es.ev.pos, "'%s' is a form of 'init' that takes a mapping: write "
			    "init: %s", init_keys[form].name, forms[form]);
			skip_value(l);
		} else if (l->es.ev.quoted || parse_number(l->es.ev.value, &n) != SCALAR_SYNTAX) {
			if (get_num(l, kd->name, &in->scalar))
				in->kind = INIT_SCALAR;
		} else {
			expected(l, init_what, kd->name);
		}
	} else {
		expected(l, init_what, kd->name);
	}
}

/* device: N, relative to the run's GPU (cugraphrun(5), Devices). */
static void key_buffer_device(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct buffer *b = obj;
	uint64_t v;
	b->device_pos = kpos;
	if ((b->has_device = get_u64(l, kd->name, 0, GDEF_MAX_FILE_DEVICE, &v, NULL)))
		b->device = (uint8_t)v;
}

static const struct keydef buffer_keys[] = {
	{"type", key_buffer_type, 0},
	{"count", key_buffer_count, 0},
	{"size", key_buffer_size, 0},
	{"memory", key_buffer_memory, 0},
	{"init", key_buffer_init, 0},
	{"device", key_buffer_device, 0},
};
static const struct keytab buffer_tab = KEYTAB(buffer_keys);

/* A buffer as its mapping finds it: the defaults. */
static void buffer_start(struct buffer *b, char *name, struct pos kpos)
{
	b->name = name;
	b->pos = kpos;
	b->type = ET_U8;
	b->memory = MEM_DEVICE;
	b->init.kind = INIT_ZERO;
}

/* Buffer b's mapping, the current event (b is element index of the model's buffers). */
static void parse_buffer(struct ld *l, struct buffer *b, size_t index)
{
	long o = obj_open(l, CTX_BUFFER, NULL, index, NULL, b->pos);
	/* (a broken alias as the value was reported when it was read) */
	size_t errors = l->es.nerrs - l->es.ev.bad;
	if (want_map(l, "a mapping {type, count or size, memory, init}", b->name)) {
		char ctx[160];
		struct seen s;
		snprintf(ctx, sizeof ctx, "in buffer '%.60s'", b->name);
		parse_keys(l, &buffer_tab, b, ctx, &s);
	}
	b->bad = l->es.nerrs != errors;
	obj_close(l, o);
}

static char *add_buffer(struct ld *l, const char *name, struct pos kpos)
{
	struct gdef *g = l->g;
	struct buffer *b = VEC_PUSH(g->buffers, g->nbuffers, g->capbuffers);
	buffer_start(b, gdef_strdup(g, name), kpos);
	size_t evals = l->es.axis_evals;
	parse_buffer(l, b, g->nbuffers - 1);
	b->dynamic = l->es.axis_evals != evals;
	return b->name;
}

static void key_buffers(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	l->g->lost.buffers |= parse_named(l, kd, "a mapping of buffer names to buffers",
					  &l->buffers, "buffer", add_buffer);
}

/* ---------------------------------------------------------------------
 * Events and conditions
 */

static void key_events(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct gdef *g = obj;
	if (is_null(l)) {
		next(l);
		return;
	}
	if (!want_seq(l, "a list of event names", kd->name)) {
		g->lost.events = true;
		return;
	}
	next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		char *name = NULL;
		struct pos pos;
		if (!get_text(l, "an event name", kd->name, &name, &pos)) {
			g->lost.events = true;
			continue;
		}
		struct event *e = VEC_PUSH(g->events, g->nevents, g->capevents);
		e->name = name;
		e->pos = pos;
	}
	next(l);
}

static void key_condition_default(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct condition *c = obj;
	uint64_t v;
	if (get_u64(l, kd->name, 0, UINT32_MAX, &v, &c->default_pos)) {
		c->default_value = (uint32_t)v;
		c->has_default = true;
	}
}

static const struct keydef condition_keys[] = {
	{"default", key_condition_default, 0},
};
static const struct keytab condition_tab = KEYTAB(condition_keys);

/* Condition c's value, the current event (c is element index of the model's conditions). */
static void parse_condition(struct ld *l, struct condition *c, size_t index)
{
	char ctx[160];
	long o = obj_open(l, CTX_CONDITION, NULL, index, NULL, c->pos);
	snprintf(ctx, sizeof ctx, "in condition '%.60s'", c->name);
	parse_optional_map(l, &condition_tab, c, c->name, ctx);
	obj_close(l, o);
}

static char *add_condition(struct ld *l, const char *name, struct pos kpos)
{
	struct gdef *g = l->g;
	struct condition *c = VEC_PUSH(g->conditions, g->nconditions, g->capconditions);
	c->name = gdef_strdup(g, name);
	c->pos = kpos;
	c->user = -1;
	size_t evals = l->es.axis_evals;
	parse_condition(l, c, g->nconditions - 1);
	c->dynamic = l->es.axis_evals != evals;
	return c->name;
}

static void key_conditions(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	l->g->lost.conditions |= parse_named(l, kd, "a mapping of condition names to "
					     "{default: N}", &l->conditions, "condition",
					     add_condition);
}

/* ---------------------------------------------------------------------
 * Graphs, nodes and edges
 */

static void parse_graph(struct ld *l, struct graph *gr, const char *name);

static void parse_node(struct ld *l, struct graph *gr);
static void parse_generator(struct ld *l, struct graph *gr);

static void parse_node_list(struct ld *l, struct graph *gr, const char *name)
{
	next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		if (l->es.ev.type != EV_MAP) {
			l->g->lost.nodes = true;
			expected(l, "a node (a mapping with a kind such as 'kernel: {...}')", name);
		} else if (ev_next_is(&l->es, "for")) {
			parse_generator(l, gr);
		} else {
			parse_node(l, gr);
		}
	}
	next(l);
}

/* Columns of n bytes of UTF-8. */
static uint32_t chars(const char *s, size_t n)
{
	uint32_t c = 0;
	for (size_t i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			c++;
	return c;
}

static void add_edge(struct graph *gr, struct name_ref *from, struct name_ref *to,
		     struct pos pos)
{
	struct edge *e = VEC_PUSH(gr->edges, gr->nedges, gr->capedges);
	e->from = *from;
	e->to = *to;
	e->pos = pos;
}

static const char edge_what[] = "an edge (\"a -> b\", \"a -> b -> c\", [a, b] or {from: a, to: b})";

/*
 * One name of an arrow edge: s[a, b) trimmed, or false when empty.  Its
 * column is counted from base when exact, else it is the edge's.
 */
static bool arrow_name(struct ld *l, const char *s, size_t a, size_t b, struct pos base,
		       bool exact, struct name_ref *r)
{
	while (a < b && (s[a] == ' ' || s[a] == '\t'))
		a++;
	while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t'))
		b--;
	if (a == b)
		return false;
	r->name = gdef_strndup(l->g, s + a, b - a);
	r->pos = exact ? (struct pos){base.line, base.col + chars(s, a)} : base;
	r->idx = -1;
	return true;
}

/* "a -> b -> c": one edge per arrow, each name with its own column. */
static void parse_arrows(struct ld *l, struct graph *gr, const char *name)
{
	const char *s = l->es.ev.value;
	size_t len = l->es.ev.len;
	struct pos base = l->es.ev.pos;
	struct name_ref *refs = NULL;
	size_t n = 0, cap = 0;
	bool ok = true;
	/* Columns inside the text are the file's only if it is written as it reads: one line, no escapes. */
	bool exact = l->es.ev.end.line == base.line &&
		l->es.ev.end.col - base.col == chars(s, len) + (l->es.ev.quoted ? 2 : 0);
	if (exact && l->es.ev.quoted)
		base.col++;
	for (size_t a = 0;;) {
		const char *arrow = strstr(s + a, "->");
		size_t b = arrow ? (size_t)(arrow - s) : len;
		struct name_ref r;
		if (!arrow_name(l, s, a, b, base, exact, &r)) {
			ok = false;
			break;
		}
		*VEC_PUSH(refs, n, cap) = r;
		if (!arrow)
			break;
		a = b + 2;
	}
	if (!ok || n < 2) {
		free(refs);
		expected(l, edge_what, name);
		return;
	}
	/* Names between two arrows belong to two edges, sharing the arena's string. */
	for (size_t i = 0; i + 1 < n; i++)
		add_edge(gr, &refs[i], &refs[i + 1], refs[i].pos);
	free(refs);
	next(l);
}

/* [a, b] */
static void parse_pair(struct ld *l, struct graph *gr, const char *name)
{
	struct pos pos = l->es.ev.pos;
	struct name_ref ends[2] = {{.idx = -1}, {.idx = -1}};
	size_t n = 0;
	bool ok = true;
	next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		struct name_ref r = {0};
		if (!get_ref(l, "a node id", name, &r)) {
			ok = false;
			continue;
		}
		if (n < 2)
			ends[n] = r;
		n++;
	}
	next(l);
	if (ok && n != 2)
		err(l, pos, "an edge list names two nodes [from, to], found %zu", n);
	if (ok && n == 2) {
		add_edge(gr, &ends[0], &ends[1], pos);
	}
}

/*
 * A dependency with edge data, as an after entry {node, port, type} or an
 * edges entry {from, to, port, type} writes it.
 */
struct edge_entry {
	struct name_ref from, to;
	uint8_t port, type;
	struct pos port_pos, type_pos;
};

static void key_entry_from(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_ref(l, "a node id", kd->name, &((struct edge_entry *)obj)->from);
}

static void key_entry_to(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_ref(l, "a node id", kd->name, &((struct edge_entry *)obj)->to);
}

static void key_entry_port(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct edge_entry *e = obj;
	int i = get_choice(l, "an edge port (default, programmatic or launch_order)", "edge port",
			   kd->name, edge_port_names, PORT_COUNT, &e->port_pos);
	if (i >= 0)
		e->port = (uint8_t)i;
}

static void key_entry_type(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct edge_entry *e = obj;
	int i = get_choice(l, "an edge type (default or programmatic)", "edge type", kd->name,
			   edge_type_names, ETYPE_COUNT, &e->type_pos);
	if (i >= 0)
		e->type = (uint8_t)i;
}

static const struct keydef after_entry_keys[] = {
	{"node", key_entry_from, 0},
	{"port", key_entry_port, 0},
	{"type", key_entry_type, 0},
};
static const struct keytab after_entry_tab = KEYTAB(after_entry_keys);

static const struct keydef edge_entry_keys[] = {
	{"from", key_entry_from, 0},
	{"to", key_entry_to, 0},
	{"port", key_entry_port, 0},
	{"type", key_entry_type, 0},
};
static const struct keytab edge_entry_tab = KEYTAB(edge_entry_keys);

/* An entry that wrote a port or a type is listed with its graph's typed edges. */
static void add_typed(struct graph *gr, const struct edge_entry *e, struct node *to,
		      size_t index, struct pos pos)
{
	if (e->port_pos.line == 0 && e->type_pos.line == 0)
		return;
	struct typed_edge *t = VEC_PUSH(gr->typed, gr->ntyped, gr->captyped);
	t->to = to;
	t->index = (uint32_t)index;
	t->port = e->port;
	t->type = e->type;
	t->pos = pos;
	t->port_pos = e->port_pos;
	t->type_pos = e->type_pos;
	t->from_local = t->to_local = -1;
}

/* {from: a, to: b, port: programmatic, type: programmatic} */
static void parse_edge_map(struct ld *l, struct graph *gr)
{
	struct edge_entry e = {.from.idx = -1, .to.idx = -1};
	struct pos pos = l->es.ev.pos;
	struct seen s;
	size_t errors = l->es.nerrs;
	parse_keys(l, &edge_entry_tab, &e, "in an edge", &s);
	require(l, &edge_entry_tab, &s, 3, "in an edge");
	if (e.from.name == NULL || e.to.name == NULL)
		return;
	add_edge(gr, &e.from, &e.to, pos);
	/* with an error inside, its port and type are not what was meant: a plain edge */
	if (l->es.nerrs == errors)
		add_typed(gr, &e, NULL, gr->nedges - 1, pos);
}

static void parse_edges(struct ld *l, struct graph *gr, const char *name)
{
	if (is_null(l)) {
		next(l);
		return;
	}
	if (!want_seq(l, "a list of edges", name))
		return;
	next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		if (is_scalar(l) && !is_null(l))
			parse_arrows(l, gr, name);
		else if (l->es.ev.type == EV_SEQ)
			parse_pair(l, gr, name);
		else if (l->es.ev.type == EV_MAP)
			parse_edge_map(l, gr);
		else
			expected(l, edge_what, name);
	}
	next(l);
}

static void key_graph_nodes(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	if (want_seq(l, "a list of nodes", kd->name))
		parse_node_list(l, obj, kd->name);
}

static void key_graph_edges(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	parse_edges(l, obj, kd->name);
}

static void key_graph_chain(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_bool(l, kd->name, &((struct graph *)obj)->chain);
}

static const struct keydef graph_keys[] = {
	{"nodes", key_graph_nodes, 0},
	{"edges", key_graph_edges, 0},
	{"chain", key_graph_chain, 0},
};
static const struct keytab graph_tab = KEYTAB(graph_keys);

/* A graph: a list of nodes, or {nodes, edges, chain}. */
static void parse_graph(struct ld *l, struct graph *gr, const char *name)
{
	gr->pos = l->es.ev.pos;
	unsigned depth = 0;
	for (const struct graph *p = gr->parent; p; p = p->parent)
		depth++;
	if (depth > LOAD_MAX_GRAPH_DEPTH) {
		/* said at the first graph too deep, not again for each inside it */
		if (depth == LOAD_MAX_GRAPH_DEPTH + 1)
			err(l, gr->pos, "graph nested %u deep: child graphs and conditional bodies "
			    "nest at most %d deep (the root graph's nodes hold graphs of depth 1)",
			    depth, LOAD_MAX_GRAPH_DEPTH);
		l->g->lost.nodes = true;
		skip_value(l);
		return;
	}
	if (l->es.ev.type == EV_SEQ) {
		parse_node_list(l, gr, name);
	} else if (l->es.ev.type == EV_MAP) {
		char ctx[96];
		struct seen s;
		snprintf(ctx, sizeof ctx, "in graph '%.60s'", name);
		parse_keys(l, &graph_tab, gr, ctx, &s);
	} else {
		l->g->lost.nodes = true;
		expected(l, "a graph (a list of nodes, or a mapping {nodes, edges, chain})", name);
	}
}

/* --- kernel nodes and their arguments --- */

static void parse_arg(struct ld *l, struct arg *a, const char *name);

/*
 * The argument takes form kind.  The forms share their storage (struct
 * arg's union), so a second form written beside a first (an error, said
 * once the mapping is read) starts from a clean slate, not from the bits
 * of the other.
 */
static void arg_form(struct arg *a, enum arg_kind kind)
{
	if (a->kind == kind)
		return;
	memset(&a->ref, 0, sizeof *a - offsetof(struct arg, ref));
	a->ref.idx = -1;
	a->kind = kind;
}

/* A list of arguments or fields, placed in the arena at its final length. */
static struct arg *parse_arg_list(struct ld *l, const char *name, size_t *np)
{
	struct arg small[8], *v = small;
	size_t n = 0, cap = sizeof small / sizeof *small;
	next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		if (n == cap) {
			struct arg *nv = xreallocarray(v == small ? NULL : v, cap * 2, sizeof *v);
			if (v == small)
				memcpy(nv, small, sizeof small);
			v = nv;
			cap *= 2;
		}
		memset(&v[n], 0, sizeof *v);
		parse_arg(l, &v[n++], name);
	}
	next(l);
	struct arg *out = NULL;
	if (n) {
		out = arena_alloc(&l->g->arena, n * sizeof *out);
		memcpy(out, v, n * sizeof *out);
	}
	if (v != small)
		free(v);
	*np = n;
	return out;
}

static void key_arg_buffer(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct arg *a = obj;
	arg_form(a, ARG_BUFFER);
	get_ref(l, "a buffer name", kd->name, &a->ref);
}

static void key_arg_offset(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_u64(l, kd->name, 0, UINT64_MAX, &((struct arg *)obj)->offset, NULL);
}

static void key_arg_handle(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct arg *a = obj;
	arg_form(a, ARG_HANDLE);
	get_ref(l, "a condition name", kd->name, &a->ref);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void key_arg_bytes(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct arg *a = obj;
	static const char what[] = "hex digits, two per byte (such as \"00ff10ab\")";
	arg_form(a, ARG_BYTES);
	if (!is_scalar(l) || is_null(l)) {
		expected(l, what, kd->name);
		return;
	}
	const char *s = l->es.ev.value;
	size_t n = l->es.ev.len;
	bool ok = n > 0 && n % 2 == 0;
	for (size_t i = 0; ok && i < n; i++)
		ok = hexval(s[i]) >= 0;
	if (!ok) {
		expected(l, what, kd->name);
		return;
	}
	a->bytes = arena_alloc(&l->g->arena, n / 2);
	a->nbytes = n / 2;
	for (size_t i = 0; i < n / 2; i++)
		a->bytes[i] = (uint8_t)(hexval(s[2 * i]) << 4 | hexval(s[2 * i + 1]));
	next(l);
}

static void key_arg_struct(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct arg *a = obj;
	arg_form(a, ARG_STRUCT);
	if (!want_seq(l, "a list of fields", kd->name))
		return;
	a->fields = parse_arg_list(l, kd->name, &a->nfields);
}

static void key_arg_scalar(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct arg *a = obj;
	arg_form(a, ARG_SCALAR);
	a->type = (enum elem_type)kd->arg;
	get_num(l, kd->name, &a->num);
}

/* access: read|write|readwrite, beside buffer: what the kernel does through it */
static void key_arg_access(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	int i = get_choice(l, "an access (read, write or readwrite)", "access", kd->name,
			   arg_access_names + 1, ARG_ACCESS_COUNT - 1, NULL);
	if (i >= 0)
		((struct arg *)obj)->access = (uint8_t)(i + 1);
}

static const struct keydef arg_keys[] = {
	{"buffer", key_arg_buffer, 0},
	{"offset", key_arg_offset, 0},
	{"access", key_arg_access, 0},
	{"handle", key_arg_handle, 0},
	{"bytes", key_arg_bytes, 0},
	{"struct", key_arg_struct, 0},
	{"i8", key_arg_scalar, ET_I8},
	{"u8", key_arg_scalar, ET_U8},
	{"i16", key_arg_scalar, ET_I16},
	{"u16", key_arg_scalar, ET_U16},
	{"i32", key_arg_scalar, ET_I32},
	{"u32", key_arg_scalar, ET_U32},
	{"i64", key_arg_scalar, ET_I64},
	{"u64", key_arg_scalar, ET_U64},
	{"f16", key_arg_scalar, ET_F16},
	{"bf16", key_arg_scalar, ET_BF16},
	{"f32", key_arg_scalar, ET_F32},
	{"f64", key_arg_scalar, ET_F64},
};
static const struct keytab arg_tab = KEYTAB(arg_keys);
#define ARG_BUFFER_BIT 1u
#define ARG_OFFSET_BIT 2u
#define ARG_ACCESS_BIT 4u
#define ARG_FORMS (((1u << (sizeof arg_keys / sizeof *arg_keys)) - 1) & ~ARG_OFFSET_BIT & \
		   ~ARG_ACCESS_BIT)

/* One kernel argument (or struct field). */
static void parse_arg(struct ld *l, struct arg *a, const char *name)
{
	a->pos = l->es.ev.pos;
	a->ref.idx = -1;
	if (l->es.ev.type == EV_MAP) {
		struct seen s;
		parse_keys(l, &arg_tab, a, "in a kernel argument", &s);
		uint32_t forms = s.mask & ARG_FORMS;
		if (forms == 0 && s.unknown == 0)
			err(l, s.pos, "a kernel argument needs a form: a buffer name, {buffer: x, offset: n}, {handle: c}, {bytes: \"...\"}, {struct: [...]} or a typed value such as {f32: 1.5}");
		else if (forms & (forms - 1))
			two_forms(l, &arg_tab, &s, ARG_FORMS, "a kernel argument", "form");
		else if ((s.mask & ARG_OFFSET_BIT) && !(s.mask & ARG_BUFFER_BIT))
			err(l, s.at[1], "'offset' goes with 'buffer' in a kernel argument ({buffer: x, offset: n})");
		else if ((s.mask & ARG_ACCESS_BIT) && !(s.mask & ARG_BUFFER_BIT))
			err(l, s.at[2], "'access' goes with 'buffer' in a kernel argument ({buffer: x, access: read})");
		return;
	}
	struct num n;
	if (is_scalar(l) && !l->es.ev.quoted && !is_null(l) &&
	    parse_number(l->es.ev.value, &n) != SCALAR_SYNTAX) {
		const char *v = l->es.ev.value;
		bool f = n.kind == NUM_FLOAT;
		err(l, l->es.ev.pos, "untyped kernel argument %.60s: write {%s: %.60s}, {%s: %.60s} or another element type",
		    v, f ? "f32" : "i32", v, f ? "f64" : "f32", v);
		skip_value(l);
		return;
	}
	arg_form(a, ARG_BUFFER);
	get_ref(l, "a kernel argument (a buffer name, or a mapping such as {f32: 1.5})",
		name, &a->ref);
}

static void key_kernel_function(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct kernel_node *k = &((struct node *)obj)->u.kernel;
	/*
	 * Large graphs repeat one function over and over: share the strings of
	 * the last kernel with the same one (the model's strings are never
	 * written to nor freed alone) rather than copy three per node.
	 */
	const struct kernel_node *last = l->last_kernel;
	if (last && is_scalar(l) && !is_null(l) && last->func &&
	    l->last_kernel_len == l->es.ev.len &&
	    memcmp(last->function, l->es.ev.value, l->es.ev.len) == 0) {
		k->function = last->function;
		k->function_pos = k->module.pos = l->es.ev.pos;
		k->module.name = last->module.name;
		k->func = last->func;
		next(l);
		return;
	}
	if (!get_text(l, "'module.function'", kd->name, &k->function, &k->function_pos))
		return;
	l->last_kernel = k;
	l->last_kernel_len = strlen(k->function);
	const char *dot = strchr(k->function, '.');
	if (dot && dot != k->function && dot[1] != '\0') {
		k->module.name = gdef_strndup(l->g, k->function, (size_t)(dot - k->function));
		k->module.pos = k->function_pos;
		k->func = gdef_strdup(l->g, dot + 1);
	}
}

/* grid and block: an integer or [x, y, z], each from 1 to 2^31-1. */
static void parse_dim3(struct ld *l, const char *name, uint32_t d[3], struct pos *pos)
{
	uint64_t v;
	*pos = l->es.ev.pos;
	if (l->es.ev.type == EV_SEQ) {
		size_t n = 0;
		bool ok = true;
		next(l);
		while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
			if (n >= 3)
				skip_value(l);
			else if (get_u64(l, name, 1, INT32_MAX, &v, NULL))
				d[n] = (uint32_t)v;
			else
				ok = false;
			n++;
		}
		next(l);
		if (ok && (n == 0 || n > 3))
			err(l, *pos, "expected 1 to 3 sizes [x, y, z] for '%.60s', found %zu", name, n);
		return;
	}
	if (l->es.ev.type == EV_MAP) {
		expected(l, "an integer or a list [x, y, z]", name);
		return;
	}
	if (get_u64(l, name, 1, INT32_MAX, &v, NULL))
		d[0] = (uint32_t)v;
}

static void key_kernel_grid(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct kernel_node *k = &((struct node *)obj)->u.kernel;
	parse_dim3(l, kd->name, k->grid, &k->grid_pos);
}

static void key_kernel_block(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct kernel_node *k = &((struct node *)obj)->u.kernel;
	parse_dim3(l, kd->name, k->block, &k->block_pos);
}

static void key_kernel_shared(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct kernel_node *k = &((struct node *)obj)->u.kernel;
	get_size(l, kd->name, UINT32_MAX, &k->shared, &k->shared_pos);
}

static void key_kernel_args(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct kernel_node *k = &((struct node *)obj)->u.kernel;
	k->args_pos = l->es.ev.pos;
	if (is_null(l)) {
		next(l);
		return;
	}
	if (!want_seq(l, "a list of kernel arguments", kd->name))
		return;
	k->args = parse_arg_list(l, kd->name, &k->nargs);
}

static void key_kernel_priority(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct kernel_node *k = &((struct node *)obj)->u.kernel;
	int64_t v;
	if (get_i64(l, kd->name, INT_MIN, INT_MAX, &v, &k->priority_pos)) {
		k->priority = (int)v;
		k->has_priority = true;
	}
}

/*
 * The launch attributes of kernel node n, made with its first attribute
 * key.  A kernel's keys are read one after the other, so the attributes
 * made last are n's.  Key k is marked as written, at kpos.
 */
static struct kernel_attrs *kernel_attrs(struct ld *l, struct node *n, enum kattr k,
					 struct pos kpos)
{
	struct gdef *g = l->g;
	struct kernel_attrs *a;
	if (n->u.kernel.has_attrs) {
		a = g->kattrs[g->nkattrs - 1];
	} else {
		a = arena_alloc(&g->arena, sizeof *a);
		a->node = n;
		a->carveout = -1;
		a->window.hit_ratio = 1;
		a->window.hit = ACCESS_PERSISTING;
		a->window.miss = ACCESS_STREAMING;
		a->window.buffer.idx = -1;
		*VEC_PUSH(g->kattrs, g->nkattrs, g->capkattrs) = a;
		n->u.kernel.has_attrs = true;
	}
	a->set |= 1u << k;
	a->pos[k] = kpos;
	return a;
}

static void key_kernel_cluster(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct kernel_attrs *a = kernel_attrs(l, obj, (enum kattr)kd->arg, kpos);
	uint32_t *d = kd->arg == KATTR_CLUSTER ? a->cluster : a->preferred_cluster;
	struct pos pos;
	d[0] = d[1] = d[2] = 1;
	parse_dim3(l, kd->name, d, &pos);
}

/* true or false into one of the attributes' flags (kd->arg says which). */
static void key_kernel_flag(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct node *n = obj;
	struct kernel_attrs *a = kernel_attrs(l, n, (enum kattr)kd->arg, kpos);
	bool v = false;
	get_bool(l, kd->name, &v);
	switch (kd->arg) {
	case KATTR_COOPERATIVE:
		a->cooperative = v;
		break;
	case KATTR_DEVICE_UPDATABLE:
		n->u.kernel.device_updatable = v;
		break;
	case KATTR_NVLINK_CENTRIC:
		a->nvlink_centric = v;
		break;
	case KATTR_NON_PORTABLE_CLUSTER:
		a->non_portable_cluster = v;
		break;
	default:
		break;
	}
}

static void key_kernel_scheduling(struct ld *l, void *obj, const struct keydef *kd,
				  struct pos kpos)
{
	struct kernel_attrs *a = kernel_attrs(l, obj, KATTR_CLUSTER_SCHEDULING, kpos);
	int i = get_choice(l, "a cluster scheduling policy (default, spread or load_balancing)",
			   "cluster scheduling policy", kd->name, cluster_scheduling_names,
			   CLUSTER_SCHED_COUNT, NULL);
	if (i >= 0)
		a->cluster_scheduling = (uint8_t)i;
}

static void key_kernel_domain(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct kernel_attrs *a = kernel_attrs(l, obj, KATTR_DOMAIN, kpos);
	int i = get_choice(l, "a memory synchronisation domain (default or remote)",
			   "memory synchronisation domain", kd->name, sync_domain_names,
			   DOMAIN_COUNT, NULL);
	if (i >= 0)
		a->domain = (uint8_t)i;
}

/* mem_sync_domain_map: {default: id, remote: id}, kd->arg being which. */
static void key_domain_id(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	uint64_t v;
	if (get_u64(l, kd->name, 0, UINT8_MAX, &v, NULL))
		((struct kernel_attrs *)obj)->domain_map[kd->arg] = (uint8_t)v;
}

static const struct keydef domain_map_keys[] = {
	{"default", key_domain_id, DOMAIN_DEFAULT},
	{"remote", key_domain_id, DOMAIN_REMOTE},
};
static const struct keytab domain_map_tab = KEYTAB(domain_map_keys);

static void key_kernel_domain_map(struct ld *l, void *obj, const struct keydef *kd,
				  struct pos kpos)
{
	struct kernel_attrs *a = kernel_attrs(l, obj, KATTR_DOMAIN_MAP, kpos);
	struct seen s;
	if (want_map(l, "a mapping {default: id, remote: id}", kd->name))
		parse_keys(l, &domain_map_tab, a, "in 'mem_sync_domain_map'", &s);
}

static void key_kernel_carveout(struct ld *l, void *obj, const struct keydef *kd,
				struct pos kpos)
{
	struct kernel_attrs *a = kernel_attrs(l, obj, KATTR_CARVEOUT, kpos);
	uint64_t v;
	if (get_u64(l, kd->name, 0, 100, &v, NULL))
		a->carveout = (int)v;
}

static void key_window_buffer(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_ref(l, "a buffer name", kd->name, &((struct access_window *)obj)->buffer);
}

static void key_window_offset(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct access_window *w = obj;
	get_u64(l, kd->name, 0, UINT64_MAX, &w->offset, &w->offset_pos);
}

static void key_window_count(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct access_window *w = obj;
	w->has_count = get_u64(l, kd->name, 1, UINT64_MAX, &w->count, &w->count_pos);
}

static void key_window_ratio(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct access_window *w = obj;
	get_nonneg(l, kd->name, &w->hit_ratio, &w->hit_ratio_pos);
}

/* hit and miss: an access property, kd->arg 0 for hit, 1 for miss. */
static void key_window_prop(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct access_window *w = obj;
	int i = get_choice(l, "an access property (normal, streaming or persisting)",
			   "access property", kd->name, access_prop_names, ACCESS_COUNT,
			   kd->arg ? &w->miss_pos : &w->hit_pos);
	if (i >= 0)
		*(kd->arg ? &w->miss : &w->hit) = (uint8_t)i;
}

static const struct keydef window_keys[] = {
	{"buffer", key_window_buffer, 0},
	{"offset", key_window_offset, 0},
	{"count", key_window_count, 0},
	{"hit_ratio", key_window_ratio, 0},
	{"hit", key_window_prop, 0},
	{"miss", key_window_prop, 1},
};
static const struct keytab window_tab = KEYTAB(window_keys);

static void key_kernel_window(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct kernel_attrs *a = kernel_attrs(l, obj, KATTR_ACCESS_POLICY, kpos);
	struct seen s;
	if (!want_map(l, "a mapping {buffer, offset, count, hit_ratio, hit, miss}", kd->name))
		return;
	parse_keys(l, &window_tab, &a->window, "in 'access_policy'", &s);
	require(l, &window_tab, &s, 1, "in 'access_policy'");
}

static const struct keydef kernel_keys[] = {
	{"function", key_kernel_function, 0},
	{"grid", key_kernel_grid, 0},
	{"block", key_kernel_block, 0},
	{"shared", key_kernel_shared, 0},
	{"args", key_kernel_args, 0},
	{"priority", key_kernel_priority, 0},
	/* launch attributes (struct kernel_attrs) */
	{"access_policy", key_kernel_window, KATTR_ACCESS_POLICY},
	{"cooperative", key_kernel_flag, KATTR_COOPERATIVE},
	{"cluster", key_kernel_cluster, KATTR_CLUSTER},
	{"cluster_scheduling", key_kernel_scheduling, KATTR_CLUSTER_SCHEDULING},
	{"mem_sync_domain_map", key_kernel_domain_map, KATTR_DOMAIN_MAP},
	{"mem_sync_domain", key_kernel_domain, KATTR_DOMAIN},
	{"preferred_cluster", key_kernel_cluster, KATTR_PREFERRED_CLUSTER},
	{"device_updatable", key_kernel_flag, KATTR_DEVICE_UPDATABLE},
	{"nvlink_centric", key_kernel_flag, KATTR_NVLINK_CENTRIC},
	{"non_portable_cluster", key_kernel_flag, KATTR_NON_PORTABLE_CLUSTER},
	{"carveout", key_kernel_carveout, KATTR_CARVEOUT},
};
/* More '<' than '>': a C++ template name that a comma cut short. */
static int angle_depth(const char *s)
{
	int depth = 0;
	for (; *s; s++)
		depth += (*s == '<') - (*s == '>');
	return depth;
}

/*
 * {function: k.dot<float, 256>} in flow style: YAML ends the value at the
 * comma and reads "256>" as a key of its own.  Such keys are gathered back
 * into the name (l->tmpl) while its brackets are open, and parse_kernel
 * says to quote it.
 */
static bool kernel_unknown(struct ld *l, void *obj, const char *key, struct pos kpos)
{
	const struct kernel_node *k = &((struct node *)obj)->u.kernel;
	if (l->tmpl == NULL) {
		if (k->function == NULL || angle_depth(k->function) <= 0)
			return false;
		l->tmpl = xstrdup(k->function);
	} else if (angle_depth(l->tmpl) <= 0) {
		return false;
	}
	char *more = xasprintf("%s, %s", l->tmpl, key);
	free(l->tmpl);
	l->tmpl = more;
	return true;
}

static const struct keytab kernel_tab = {kernel_keys, sizeof kernel_keys / sizeof *kernel_keys,
					 kernel_unknown};

static void parse_kernel(struct ld *l, struct node *n)
{
	struct seen s;
	if (!want_map(l, "a mapping {function, grid, block, shared, args}", "kernel"))
		return;
	parse_keys(l, &kernel_tab, n, "in 'kernel'", &s);
	require(l, &kernel_tab, &s, 1, "in 'kernel'");
	if (l->tmpl) {
		err(l, n->u.kernel.function_pos, "the kernel name '%.100s' was cut at a comma: in a "
		    "flow mapping ({...}) YAML ends a value there; quote the name: "
		    "function: \"%.100s\"", l->tmpl, l->tmpl);
		free(l->tmpl);
		l->tmpl = NULL;
	}
}

/* --- memset and copy --- */

static void key_memset_buffer(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_ref(l, "a buffer name", kd->name, &((struct memset_node *)obj)->buffer);
}

static void key_memset_value(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_num(l, kd->name, &((struct memset_node *)obj)->value);
}

static void key_memset_offset(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct memset_node *m = obj;
	get_u64(l, kd->name, 0, UINT64_MAX, &m->offset, &m->offset_pos);
}

static void key_memset_count(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct memset_node *m = obj;
	m->has_count = get_u64(l, kd->name, 0, UINT64_MAX, &m->count, &m->count_pos);
}

static const struct keydef memset_keys[] = {
	{"buffer", key_memset_buffer, 0},
	{"value", key_memset_value, 0},
	{"offset", key_memset_offset, 0},
	{"count", key_memset_count, 0},
};
static const struct keytab memset_tab = KEYTAB(memset_keys);

static void parse_memset(struct ld *l, struct node *n)
{
	struct seen s;
	if (!want_map(l, "a mapping {buffer, value, offset, count}", "memset"))
		return;
	parse_keys(l, &memset_tab, &n->u.memset, "in 'memset'", &s);
	require(l, &memset_tab, &s, 3, "in 'memset'");
}

static void key_end_buffer(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_ref(l, "a buffer name", kd->name, &((struct copy_end *)obj)->buffer);
}

static void key_end_offset(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct copy_end *e = obj;
	get_u64(l, kd->name, 0, UINT64_MAX, &e->offset, &e->offset_pos);
}

static const struct keydef end_keys[] = {
	{"buffer", key_end_buffer, 0},
	{"offset", key_end_offset, 0},
};
static const struct keytab end_tab = KEYTAB(end_keys);

/* from/to: a buffer name or {buffer, offset}. */
static void parse_copy_end(struct ld *l, struct copy_end *e, const char *name)
{
	e->offset_pos = l->es.ev.pos;
	if (l->es.ev.type == EV_MAP) {
		char ctx[96];
		struct seen s;
		snprintf(ctx, sizeof ctx, "in '%.60s'", name);
		parse_keys(l, &end_tab, e, ctx, &s);
		require(l, &end_tab, &s, 1, ctx);
		return;
	}
	get_ref(l, "a buffer name or {buffer, offset}", name, &e->buffer);
}

static void key_copy_from(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	parse_copy_end(l, &((struct copy_node *)obj)->from, kd->name);
}

static void key_copy_to(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	parse_copy_end(l, &((struct copy_node *)obj)->to, kd->name);
}

static void key_copy_count(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct copy_node *c = obj;
	c->has_count = get_u64(l, kd->name, 0, UINT64_MAX, &c->count, &c->count_pos);
}

static const struct keydef copy_keys[] = {
	{"from", key_copy_from, 0},
	{"to", key_copy_to, 0},
	{"count", key_copy_count, 0},
};
static const struct keytab copy_tab = KEYTAB(copy_keys);

static void parse_copy(struct ld *l, struct node *n)
{
	struct seen s;
	if (!want_map(l, "a mapping {from, to, count}", "copy"))
		return;
	parse_keys(l, &copy_tab, &n->u.copy, "in 'copy'", &s);
	require(l, &copy_tab, &s, 3, "in 'copy'");
}

/* --- the small kinds --- */

static const struct keytab no_keys = {NULL, 0, NULL};

static void parse_empty(struct ld *l, struct node *n)
{
	struct seen s;
	if (is_null(l))
		next(l);
	else if (l->es.ev.type == EV_MAP)
		parse_keys(l, &no_keys, n, "in 'empty'", &s);
	else
		expected(l, "{} or nothing", "empty");
}

/*
 * A graph held by node n (a child graph, a body): the nodes are no longer
 * all in the root graph, so from now on they are listed in l->nodes, the
 * root's so far first.
 */
static struct graph *inner_graph(struct ld *l, struct node *n)
{
	if (!l->nested) {
		const struct graph *root = l->g->root;
		l->nested = true;
		for (size_t i = 0; i < root->nnodes; i++)
			*ARENA_PUSH(&l->scratch, l->nodes, l->nnodes, l->capnodes) = root->nodes[i];
	}
	return graph_new(n->graph, n);
}

static void parse_child(struct ld *l, struct node *n)
{
	n->u.child = inner_graph(l, n);
	parse_graph(l, n->u.child, "graph");
}

static void parse_alloc(struct ld *l, struct node *n)
{
	get_ref(l, "a buffer name", node_kind_names[n->kind], &n->u.buffer);
}

static void parse_event_node(struct ld *l, struct node *n)
{
	get_ref(l, "an event name", node_kind_names[n->kind], &n->u.event);
}

static void key_host_print(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct host_node *h = obj;
	h->action = HOST_PRINT;
	get_text(l, "a text", kd->name, &h->text, NULL);
}

static void key_host_sleep(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct host_node *h = obj;
	h->action = HOST_SLEEP;
	get_duration(l, kd->name, &h->sleep_ns, NULL);
}

static void key_dump_buffer(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_ref(l, "a buffer name", kd->name, &((struct host_node *)obj)->buffer);
}

static void key_dump_offset(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct host_node *h = obj;
	get_u64(l, kd->name, 0, UINT64_MAX, &h->offset, &h->offset_pos);
}

static void key_dump_count(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct host_node *h = obj;
	h->has_count = get_u64(l, kd->name, 1, UINT64_MAX, &h->count, &h->count_pos);
}

static void key_dump_every(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_bool(l, kd->name, &((struct host_node *)obj)->every);
}

static const struct keydef dump_keys[] = {
	{"buffer", key_dump_buffer, 0},
	{"offset", key_dump_offset, 0},
	{"count", key_dump_count, 0},
	{"every", key_dump_every, 0},
};
static const struct keytab dump_tab = KEYTAB(dump_keys);

/* dump: a buffer name, or {buffer, offset, count, every}. */
static void key_host_dump(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct host_node *h = obj;
	h->action = HOST_DUMP;
	if (l->es.ev.type == EV_MAP) {
		struct seen s;
		parse_keys(l, &dump_tab, h, "in 'dump'", &s);
		require(l, &dump_tab, &s, 1, "in 'dump'");
		return;
	}
	get_ref(l, "a buffer name or {buffer, offset, count, every}", kd->name, &h->buffer);
}

/* set: the keys of a memset, done by the host. */
static void key_host_set(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct host_node *h = obj;
	struct seen s;
	h->action = HOST_SET;
	h->set = arena_alloc(&l->g->arena, sizeof *h->set);
	memset(h->set, 0, sizeof *h->set);
	h->set->buffer.idx = -1;
	if (!want_map(l, "a mapping {buffer, value, offset, count}", kd->name))
		return;
	parse_keys(l, &memset_tab, h->set, "in 'set'", &s);
	require(l, &memset_tab, &s, 3, "in 'set'");
}

/* copy: the keys of a copy node, done by the host. */
static void key_host_copy(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct host_node *h = obj;
	struct seen s;
	h->action = HOST_COPY;
	h->copy = arena_alloc(&l->g->arena, sizeof *h->copy);
	memset(h->copy, 0, sizeof *h->copy);
	h->copy->from.buffer.idx = h->copy->to.buffer.idx = -1;
	if (!want_map(l, "a mapping {from, to, count}", kd->name))
		return;
	parse_keys(l, &copy_tab, h->copy, "in 'copy'", &s);
	require(l, &copy_tab, &s, 3, "in 'copy'");
}

static const struct keydef host_keys[] = {
	{"print", key_host_print, 0},
	{"sleep", key_host_sleep, 0},
	{"dump", key_host_dump, 0},
	{"set", key_host_set, 0},
	{"copy", key_host_copy, 0},
};
static const struct keytab host_tab = KEYTAB(host_keys);
static const char host_actions[] = "{print: text}, {sleep: duration}, {dump: buffer}, "
	"{set: {buffer, value}} or {copy: {from, to}}";

static void parse_host(struct ld *l, struct node *n)
{
	struct seen s;
	char what[160];
	snprintf(what, sizeof what, "a mapping %s", host_actions);
	if (!want_map(l, what, "host"))
		return;
	parse_keys(l, &host_tab, &n->u.host, "in 'host'", &s);
	if (s.mask == 0 && s.unknown == 0)
		err(l, s.pos, "'host' needs an action: %s", host_actions);
	two_forms(l, &host_tab, &s, 31, "'host'", "action");
}

/* --- conditional nodes --- */

static void key_cond_condition(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_ref(l, "a condition name", kd->name, &((struct node *)obj)->u.cond.condition);
}

/* A body of a conditional node: bodies[i], kd->arg being i. */
static void key_cond_body(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct node *n = obj;
	struct graph *gr = inner_graph(l, n);
	gr->body_index = (unsigned)kd->arg;
	n->u.cond.bodies[kd->arg] = gr;
	parse_graph(l, gr, kd->name);
}

static void key_cond_cases(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct cond_node *c = &((struct node *)obj)->u.cond;
	if (!want_seq(l, "a list of graphs (one per case)", kd->name))
		return;
	next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		struct graph *gr = inner_graph(l, obj);
		gr->body_index = (unsigned)c->nbodies;
		*VEC_PUSH(c->bodies, c->nbodies, c->capbodies) = gr;
		parse_graph(l, gr, kd->name);
	}
	next(l);
}

static const struct keydef if_keys[] = {
	{"condition", key_cond_condition, 0},
	{"then", key_cond_body, 0},
	{"else", key_cond_body, 1},
};
static const struct keytab if_tab = KEYTAB(if_keys);

static const struct keydef while_keys[] = {
	{"condition", key_cond_condition, 0},
	{"body", key_cond_body, 0},
};
static const struct keytab while_tab = KEYTAB(while_keys);

static const struct keydef switch_keys[] = {
	{"condition", key_cond_condition, 0},
	{"cases", key_cond_cases, 0},
};
static const struct keytab switch_tab = KEYTAB(switch_keys);

static void parse_cond(struct ld *l, struct node *n)
{
	static const struct keytab *const tabs[] = {&if_tab, &while_tab, &switch_tab};
	static const char *const ctxs[] = {"in 'if'", "in 'while'", "in 'switch'"};
	static const char *const whats[] = {
		"a mapping {condition, then, else}",
		"a mapping {condition, body}",
		"a mapping {condition, cases}",
	};
	struct cond_node *c = &n->u.cond;
	int k = n->kind == NK_IF ? 0 : n->kind == NK_WHILE ? 1 : 2;
	if (n->kind != NK_SWITCH) {
		c->capbodies = n->kind == NK_IF ? 2 : 1;
		c->bodies = xcalloc(c->capbodies, sizeof *c->bodies);
		n->graph->nodes_own = true;
	}
	if (want_map(l, whats[k], node_kind_names[n->kind])) {
		struct seen s;
		parse_keys(l, tabs[k], n, ctxs[k], &s);
		require(l, tabs[k], &s, 3, ctxs[k]);
	}
	if (n->kind == NK_SWITCH)
		return;
	c->nbodies = c->capbodies == 2 && c->bodies[1] ? 2 : 1;
	/* Keep the model whole even when then/body was missing. */
	if (c->bodies[0] == NULL) {
		c->bodies[0] = inner_graph(l, n);
		c->bodies[0]->pos = n->kind_pos;
	}
}

/* --- memory operations --- */

static void key_op_write(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct memop *op = obj;
	op->kind = (enum memop_kind)kd->arg;
	get_ref(l, "a buffer name", kd->name, &op->buffer);
}

static void key_op_offset(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct memop *op = obj;
	get_u64(l, kd->name, 0, UINT64_MAX, &op->offset, &op->offset_pos);
}

static void key_op_value(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct memop *op = obj;
	op->has_value = get_num(l, kd->name, &op->value);
}

static void key_op_compare(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct memop *op = obj;
	int i = get_choice(l, "a comparison (geq, eq, and or nor)", "comparison", kd->name,
			   memop_compare_names, CMP_COUNT, &op->compare_pos);
	if (i >= 0)
		op->compare = (uint8_t)i;
}

static void key_op_flush(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct memop *op = obj;
	op->flush_pos = kpos;
	get_bool(l, kd->name, &op->flush);
}

static void key_op_barrier(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct memop *op = obj;
	op->kind = MEMOP_BARRIER;
	int i = get_choice(l, "a barrier scope (sys or gpu)", "barrier scope", kd->name,
			   memop_scope_names, SCOPE_COUNT, NULL);
	if (i >= 0)
		op->scope = (uint8_t)i;
}

static void key_op_flush_remote(struct ld *l, void *obj, const struct keydef *kd,
				struct pos kpos)
{
	struct memop *op = obj;
	op->kind = MEMOP_FLUSH;
	if (is_null(l))
		next(l);
	else
		expected(l, "nothing (flush_remote_writes takes no value)", kd->name);
}

/* The forms' keys first: their bits are OP_FORMS. */
static const struct keydef op_keys[] = {
	{"write", key_op_write, MEMOP_WRITE},
	{"wait", key_op_write, MEMOP_WAIT},
	{"flush_remote_writes", key_op_flush_remote, 0},
	{"barrier", key_op_barrier, 0},
	{"offset", key_op_offset, 0},
	{"value", key_op_value, 0},
	{"compare", key_op_compare, 0},
	{"flush", key_op_flush, 0},
};
static const struct keytab op_tab = KEYTAB(op_keys);
#define OP_FORMS 0xfu
#define OP_VALUE_BIT (1u << 5)

static const char op_what[] = "a memory operation ({write: buffer, value: v}, {wait: buffer, value: v, compare: c}, flush_remote_writes or {barrier: sys|gpu})";

/* One operation: a mapping, or the word flush_remote_writes. */
static void parse_op(struct ld *l, struct memop *op)
{
	op->pos = l->es.ev.pos;
	op->buffer.idx = -1;
	if (is_scalar(l) && !is_null(l) && strcmp(l->es.ev.value, "flush_remote_writes") == 0) {
		op->kind = MEMOP_FLUSH;
		next(l);
		return;
	}
	if (!want_map(l, op_what, "memop"))
		return;
	struct seen s;
	parse_keys(l, &op_tab, op, "in a memory operation", &s);
	uint32_t forms = s.mask & OP_FORMS;
	if (forms == 0 && s.unknown == 0)
		err(l, s.pos, "a memory operation needs one of write, wait, flush_remote_writes or barrier");
	else if (forms & (forms - 1))
		two_forms(l, &op_tab, &s, OP_FORMS, "a memory operation", "form");
	else if ((forms & 3) && !(s.mask & OP_VALUE_BIT) && s.unknown == 0)
		err(l, s.pos, "missing key 'value' in a memory operation (%s)",
		    forms & 1 ? "the value to write" : "the value to wait for");
}

/* memop: one operation, or a list of them, placed in the arena. */
static void parse_memop(struct ld *l, struct node *n)
{
	struct memop_node *m = &n->u.memop;
	if (l->es.ev.type != EV_SEQ) {
		m->ops = arena_alloc(&l->g->arena, sizeof *m->ops);
		m->nops = 1;
		parse_op(l, &m->ops[0]);
		return;
	}
	struct memop *v = NULL;
	size_t count = 0, cap = 0;
	next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		struct memop *op = VEC_PUSH(v, count, cap);
		parse_op(l, op);
	}
	next(l);
	if (count) {
		m->ops = arena_alloc(&l->g->arena, count * sizeof *m->ops);
		memcpy(m->ops, v, count * sizeof *v);
	}
	m->nops = count;
	free(v);
}

/* --- nodes --- */

typedef void kind_fn(struct ld *l, struct node *n);

static kind_fn *const kind_parsers[NK_COUNT] = {
	[NK_KERNEL] = parse_kernel,
	[NK_MEMSET] = parse_memset,
	[NK_COPY] = parse_copy,
	[NK_EMPTY] = parse_empty,
	[NK_GRAPH] = parse_child,
	[NK_ALLOC] = parse_alloc,
	[NK_FREE] = parse_alloc,
	[NK_EVENT_RECORD] = parse_event_node,
	[NK_EVENT_WAIT] = parse_event_node,
	[NK_HOST] = parse_host,
	[NK_IF] = parse_cond,
	[NK_WHILE] = parse_cond,
	[NK_SWITCH] = parse_cond,
	[NK_MEMOP] = parse_memop,
};

/* Unresolved references start at -1; the validator resolves them. */
static void node_set_kind(struct node *n, enum node_kind k)
{
	n->kind = k;
	switch (k) {
	case NK_KERNEL:
		for (int i = 0; i < 3; i++)
			n->u.kernel.grid[i] = n->u.kernel.block[i] = 1;
		n->u.kernel.module.idx = -1;
		break;
	case NK_MEMSET:
		n->u.memset.buffer.idx = -1;
		break;
	case NK_COPY:
		n->u.copy.from.buffer.idx = -1;
		n->u.copy.to.buffer.idx = -1;
		break;
	case NK_ALLOC:
	case NK_FREE:
		n->u.buffer.idx = -1;
		break;
	case NK_EVENT_RECORD:
	case NK_EVENT_WAIT:
		n->u.event.idx = -1;
		break;
	case NK_HOST:
		n->u.host.buffer.idx = -1;
		break;
	case NK_IF:
	case NK_WHILE:
	case NK_SWITCH:
		n->u.cond.condition.idx = -1;
		break;
	case NK_EMPTY:
	case NK_GRAPH:
	case NK_MEMOP:
	case NK_COUNT:
		break;
	}
}

/* "kernel_12": the kind's name, '_', n. */
static char *auto_id(struct gdef *g, enum node_kind k, size_t n)
{
	char id[64], *p = id + sizeof id;
	do {
		*--p = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	*--p = '_';
	size_t kl = strlen(node_kind_names[k]);
	p -= kl;
	memcpy(p, node_kind_names[k], kl);
	return gdef_strndup(g, p, (size_t)(id + sizeof id - p));
}

/* Could an id written in the file be an automatic one ("copy_3")? */
static bool looks_automatic(const char *id)
{
	const char *us = strrchr(id, '_');
	if (us == NULL || us[1] < '1' || us[1] > '9')
		return false;
	for (const char *c = us + 1; *c; c++)
		if (*c < '0' || *c > '9')
			return false;
	for (int k = 0; k < NK_COUNT; k++)
		if (strlen(node_kind_names[k]) == (size_t)(us - id) &&
		    memcmp(node_kind_names[k], id, (size_t)(us - id)) == 0)
			return true;
	return false;
}

/*
 * The automatic id, handed out while the node is read, in file order and
 * while it is in the cache: a second pass over 100,000 nodes costs more.
 * assign_ids redoes them all when an id written in the file could clash.
 */
static void node_auto_id(struct ld *l, struct node *n)
{
	n->id = auto_id(l->g, n->kind, ++l->auto_counts[n->kind]);
	n->id_pos = n->pos;
}

static void key_node_kind(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct node *n = obj;
	if (n->kind != NK_COUNT) {
		err(l, kpos, "a node has one kind, found '%.60s' (at %u:%u) and '%.60s'",
		    node_kind_names[n->kind], n->kind_pos.line, n->kind_pos.col, kd->name);
		skip_value(l);
		return;
	}
	node_set_kind(n, (enum node_kind)kd->arg);
	n->kind_pos = kpos;
	/*
	 * The automatic id of a node that holds a graph, handed out here, in
	 * file order: before the nodes of its bodies.  Other nodes get theirs
	 * at their end (node_auto_id), the same number, once an id written
	 * after the kind has been read: then they take none.
	 */
	static const bool holds_graph[NK_COUNT] = {
		[NK_GRAPH] = true, [NK_IF] = true, [NK_WHILE] = true, [NK_SWITCH] = true,
	};
	if (n->id == NULL && holds_graph[n->kind])
		node_auto_id(l, n);
	/* what a later point may read again alone (POINTS): the kinds that hold values only */
	static const bool values_only[NK_COUNT] = {
		[NK_KERNEL] = true, [NK_MEMSET] = true, [NK_COPY] = true, [NK_HOST] = true,
	};
	long o = values_only[n->kind] ? obj_open(l, CTX_NODE, n, 0, NULL, kpos) : -1;
	kind_parsers[n->kind](l, n);
	obj_close(l, o);
}

static void key_node_id(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct node *n = obj;
	/* An id after the kind of a node that holds a graph: its automatic one took a number. */
	if (n->id != NULL)
		l->renumber = true;
	if (get_text(l, "a node id", kd->name, &n->id, &n->id_pos)) {
		n->id_given = true;
		if (looks_automatic(n->id))
			l->renumber = true;
	} else {
		n->id = NULL;
		l->g->lost.nodes = true;
	}
}

/*
 * One name of an after list.  Most name the node written just before
 * (a chain with ids): that one's id string is shared, not copied, and the
 * validator, seeing the same pointer, finds the node without a lookup.
 */
static bool get_after(struct ld *l, const struct node *n, const char *what,
		      const char *name, struct name_ref *r)
{
	const struct graph *gr = n->graph;
	const struct node *prev = gr->nnodes >= 2 ? gr->nodes[gr->nnodes - 2] : NULL;
	size_t len = l->es.ev.len;
	if (prev && prev->id && is_scalar(l) && !is_null(l) && strlen(prev->id) == len &&
	    memcmp(prev->id, l->es.ev.value, len) == 0) {
		r->name = prev->id;
		r->pos = l->es.ev.pos;
		r->idx = -1;
		next(l);
		return true;
	}
	return get_ref(l, what, name, r);
}

/*
 * One entry of n's after list at *r, index i of it: a node id, or
 * {node, port, type}, which is also listed with the graph's typed edges.
 */
static bool after_entry(struct ld *l, struct node *n, const char *what, const char *name,
			struct name_ref *r, size_t i)
{
	if (l->es.ev.type != EV_MAP)
		return get_after(l, n, what, name, r);
	struct edge_entry e = {.from.idx = -1, .to.idx = -1};
	struct pos pos = l->es.ev.pos;
	struct seen s;
	size_t errors = l->es.nerrs;
	parse_keys(l, &after_entry_tab, &e, "in an after entry", &s);
	require(l, &after_entry_tab, &s, 1, "in an after entry");
	if (e.from.name == NULL)
		return false;
	*r = e.from;
	/* with an error inside, its port and type are not what was meant: a plain after */
	if (l->es.nerrs == errors)
		add_typed(n->graph, &e, n, i, pos);
	return true;
}

/* The after list of n, placed in the arena at its final length. */
static void key_node_after(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct node *n = obj;
	struct name_ref small[8], *v = small;
	size_t count = 0, cap = sizeof small / sizeof *small;
	if (l->es.ev.type != EV_SEQ) {
		if (after_entry(l, n, "a node id, {node: id, port: p, type: t} or a list of them",
				kd->name, &small[0], 0))
			count = 1;
	} else {
		next(l);
		while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
			if (count == cap) {
				struct name_ref *nv = xreallocarray(v == small ? NULL : v, cap * 2,
								    sizeof *v);
				if (v == small)
					memcpy(nv, small, sizeof small);
				v = nv;
				cap *= 2;
			}
			if (after_entry(l, n, "a node id or {node: id, port: p, type: t}", kd->name,
					&v[count], count))
				count++;
		}
		next(l);
	}
	/* (One after key per node: a second is a duplicate, skipped unread.) */
	if (count) {
		n->after = arena_alloc(&l->g->arena, count * sizeof *n->after);
		memcpy(n->after, v, count * sizeof *v);
		n->nafter = (uint32_t)count;
	}
	if (v != small)
		free(v);
}

/* enabled: false is listed with where it was written (gdef.off). */
static void key_node_enabled(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	bool on = true;
	if (get_bool(l, kd->name, &on) && !on) {
		struct switched_off *o = VEC_PUSH(l->g->off, l->g->noff, l->g->capoff);
		o->node = obj;
		o->pos = kpos;
	}
}

/* device: N is listed with where it was written (gdef.devs); the validator says which kinds take it. */
static void key_node_device(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	uint64_t v;
	if (get_u64(l, kd->name, 0, GDEF_MAX_FILE_DEVICE, &v, NULL)) {
		struct node_device *nd = VEC_PUSH(l->g->devs, l->g->ndevs, l->g->capdevs);
		nd->node = obj;
		nd->device = (uint8_t)v;
		nd->pos = kpos;
	}
}

static const struct keydef node_keys[] = {
	{"kernel", key_node_kind, NK_KERNEL},
	{"id", key_node_id, 0},
	{"after", key_node_after, 0},
	{"memset", key_node_kind, NK_MEMSET},
	{"copy", key_node_kind, NK_COPY},
	{"empty", key_node_kind, NK_EMPTY},
	{"graph", key_node_kind, NK_GRAPH},
	{"alloc", key_node_kind, NK_ALLOC},
	{"free", key_node_kind, NK_FREE},
	{"event_record", key_node_kind, NK_EVENT_RECORD},
	{"event_wait", key_node_kind, NK_EVENT_WAIT},
	{"host", key_node_kind, NK_HOST},
	{"if", key_node_kind, NK_IF},
	{"while", key_node_kind, NK_WHILE},
	{"switch", key_node_kind, NK_SWITCH},
	{"memop", key_node_kind, NK_MEMOP},
	{"enabled", key_node_enabled, 0},
	{"device", key_node_device, 0},
};
static const struct keytab node_tab = KEYTAB(node_keys);

/* A node without a kind leaves the model: nothing could use it. */
static void drop_node(struct ld *l, struct graph *gr, struct node *n)
{
	gr->nnodes--;
	if (l->nested)
		l->nnodes--;
	/* the node itself, its after list and its strings stay in the arena */
}

static void parse_node(struct ld *l, struct graph *gr)
{
	struct node *n = graph_add_node(gr, NK_COUNT);
	struct seen s;
	size_t errors = l->es.nerrs, inner = l->inner_errs;
	bool replayed = l->es.nframes > 0;
	struct pos alias = l->es.alias_pos;
	size_t evals = l->es.axis_evals;
	n->pos = l->es.ev.pos;
	if (l->nested)
		*ARENA_PUSH(&l->scratch, l->nodes, l->nnodes, l->capnodes) = n;
	parse_keys(l, &node_tab, n, "in a node", &s);
	n->dynamic = l->es.axis_evals != evals;
	if (n->kind == NK_COUNT && s.unknown == 0) {
		char kinds[256];
		list_names(node_kind_names, NK_COUNT, kinds, sizeof kinds);
		err(l, n->pos, "a node needs a kind: one of %s", kinds);
	}
	/* Its own errors, not those of the nodes in its graphs, make it bad. */
	size_t all = l->es.nerrs - errors;
	n->bad = all > l->inner_errs - inner;
	l->inner_errs = inner + all;
	if (n->kind == NK_COUNT && n->id_given) {
		/* kindless, but named: others' after and edges still find it */
		node_set_kind(n, NK_EMPTY);
		n->kind_pos = n->pos;
		n->bad = true;
	}
	if (n->kind == NK_COUNT) {
		drop_node(l, gr, n);
		return;
	}
	if (n->id == NULL)
		node_auto_id(l, n);
	/* only ids written in the graph can clash: automatic ones are new each time */
	if (replayed && n->id_given) {
		struct gdef *g = l->g;
		*VEC_PUSH(g->replayed, g->nreplayed, g->capreplayed) =
			(struct replayed_node){n, alias};
	}
}

/* ---------------------------------------------------------------------
 * Generators: {for: {i: RANGE}, nodes: [...]} in a list of nodes
 */

/* for: {VAR: RANGE}: the variable's name into var and its values into range; false after an error. */
static bool generator_for(struct ld *l, char *var, size_t varlen, struct axis *range)
{
	static const char what[] = "a variable and its values, such as {i: {from: 0, to: 15}}";
	struct pos pos = l->es.ev.pos;
	if (!want_map(l, what, "for"))
		return false;
	bool ok = false;
	size_t nvars = 0;
	next(l);
	while (!l->es.fatal && l->es.ev.type != EV_MAP_END) {
		struct pos kpos = l->es.ev.pos;
		if (!is_scalar(l)) {
			expected(l, "a variable name", "for");
			skip_value(l);
			continue;
		}
		if (nvars++) {
			err(l, kpos, "a generator has one variable, found '%.60s' and '%.60s' (nest "
			    "generators for more)", var, l->es.ev.value);
			next(l);
			skip_value(l);
			ok = false;
			continue;
		}
		snprintf(var, varlen, "%s", l->es.ev.value);
		next(l);
		long slot = is_identifier(var) ? ev_slot(&l->es, var) : -1;
		if (slot < 0)
			err(l, kpos, "generator variable '%.60s' is not a name expressions can use (a "
			    "letter or '_', then letters, digits or '_')", var);
		else if (l->es.is_axis[slot])
			err(l, kpos, "generator variable '%.60s' is an axis of the file (give the "
			    "generator a name of its own)", var);
		else if (l->es.bound[slot])
			err(l, kpos, "generator variable '%.60s' is already that of a generator around "
			    "this one", var);
		if (slot < 0 || l->es.is_axis[slot] || l->es.bound[slot]) {
			skip_value(l);
			continue;
		}
		ok = load_range(&l->es, l->sw, range, var);
	}
	next(l);
	if (nvars == 0)
		err(l, pos, "'for' names no variable (expected %s)", what);
	return ok;
}

/*
 * A generator: its nodes, read again from the file once per value of its
 * variable (ev_mark, ev_rewind), into the graph of the list it is in.  In
 * a plain load, the first one makes the file a template.
 */
static void parse_generator(struct ld *l, struct graph *gr)
{
	struct pos pos = l->es.ev.pos;
	if (l->sw == NULL) {
		ev_want_template(&l->es);
		return;
	}
	char var[128] = "";
	struct axis range = {0};
	next(l);                        /* the key 'for' */
	next(l);
	bool ok = generator_for(l, var, sizeof var, &range);
	bool seen = false;
	while (!l->es.fatal && l->es.ev.type != EV_MAP_END) {
		struct pos kpos = l->es.ev.pos;
		if (!is_scalar(l) || strcmp(l->es.ev.value, "nodes") != 0 || seen) {
			if (is_scalar(l) && strcmp(l->es.ev.value, "nodes") == 0)
				err(l, kpos, "duplicate key 'nodes' in a generator");
			else if (is_scalar(l) && strcmp(l->es.ev.value, "for") == 0)
				err(l, kpos, "duplicate key 'for' in a generator");
			else if (!l->es.ev.bad)
				err(l, kpos, "unknown key '%.60s' in a generator (it takes 'for', then "
				    "'nodes')", is_scalar(l) ? l->es.ev.value : "?");
			skip_value(l);
			skip_value(l);
			continue;
		}
		seen = true;
		next(l);
		struct ev_mark m;
		if (!want_seq(l, "a list of nodes", "nodes"))
			continue;
		if (!ev_mark(&l->es, &m)) {
			err(l, l->es.ev.pos, "a generator cannot be inside an anchored node, nor its "
			    "nodes an alias");
			skip_value(l);
			continue;
		}
		if (!ok) {
			skip_value(l);
			continue;
		}
		long slot = ev_slot(&l->es, var);
		for (size_t i = 0; i < range.nvalues && !l->es.fatal; i++) {
			if (i)
				ev_rewind(&l->es, &m, pos);
			ev_bind(&l->es, slot, range.values[i]);
			parse_node_list(l, gr, "nodes");
		}
		ev_unbind(&l->es, slot);
	}
	next(l);
	if (!seen && !l->es.fatal)
		err(l, pos, "missing key 'nodes' in a generator ({for: {i: ...}, nodes: [...]})");
	free(range.values);
	free(range.labels);
}

/* ---------------------------------------------------------------------
 * Checks, run defaults, the top level
 */

static void key_check_buffer(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_ref(l, "a buffer name", kd->name, &((struct check *)obj)->buffer);
}

static void key_check_offset(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	get_u64(l, kd->name, 0, UINT64_MAX, &c->offset, &c->offset_pos);
}

static void key_check_count(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	c->has_count = get_u64(l, kd->name, 1, UINT64_MAX, &c->count, &c->count_pos);
}

static void key_expect_file(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	c->expect = EXPECT_FILE;
	if (get_text(l, "a file name", kd->name, &c->file, NULL))
		c->path = gdef_resolve_path(l->g, c->file);
}

static void key_expect_buffer(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	c->expect = EXPECT_BUFFER;
	get_ref(l, "a buffer name", kd->name, &c->ref);
}

static void key_expect_offset(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	get_u64(l, kd->name, 0, UINT64_MAX, &c->ref_offset, &c->ref_offset_pos);
}

static const struct keydef expect_keys[] = {
	{"file", key_expect_file, 0},
	{"buffer", key_expect_buffer, 0},
	{"offset", key_expect_offset, 0},
};
static const struct keytab expect_tab = KEYTAB(expect_keys);
static const char expect_what[] = "a number, a list of numbers, {file: ...} or {buffer: ...}";

static void key_check_expect(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	c->kind = CHECK_EXPECT;
	c->kind_pos = kpos;
	c->expect_pos = l->es.ev.pos;
	if (l->es.ev.type == EV_SEQ) {
		c->expect = EXPECT_LIST;
		parse_num_list(l, kd->name, &c->list, &c->nlist, &c->caplist);
	} else if (l->es.ev.type == EV_MAP) {
		struct seen s;
		c->expect = EXPECT_FILE;
		parse_keys(l, &expect_tab, c, "in 'expect'", &s);
		if (s.mask == 0 && s.unknown == 0)
			err(l, s.pos, "empty 'expect' (expected %s)", expect_what);
		two_forms(l, &expect_tab, &s, 3, "'expect'", "form");
		if ((s.mask & 4) && !(s.mask & 2))
			err(l, s.at[2], "'offset' goes with 'buffer' in 'expect' ({buffer: x, offset: n})");
	} else if (is_scalar(l) && !is_null(l)) {
		c->expect = EXPECT_SCALAR;
		get_num(l, kd->name, &c->scalar);
	} else {
		expected(l, expect_what, kd->name);
	}
}

static void key_check_rtol(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	get_nonneg(l, kd->name, &c->rtol, &c->rtol_pos);
}

static void key_check_atol(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	get_nonneg(l, kd->name, &c->atol, &c->atol_pos);
}

static void key_bound_buffer(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_ref(l, "a buffer name", kd->name, &((struct bound *)obj)->ref);
}

static void key_bound_offset(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct bound *b = obj;
	get_u64(l, kd->name, 0, UINT64_MAX, &b->offset, &b->offset_pos);
}

static const struct keydef bound_keys[] = {
	{"buffer", key_bound_buffer, 0},
	{"offset", key_bound_offset, 0},
};
static const struct keytab bound_tab = KEYTAB(bound_keys);

/*
 * One bound of a reduction ({eq: v}, {le: v}, {near: v, ...}): a number,
 * or an element of another buffer, by name (element 0) or as {buffer: x,
 * offset: n}.
 */
static void key_cmp_op(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	struct bound *b = &c->cmp.bound[kd->arg];
	struct num n;
	b->ref.idx = -1;
	if (l->es.ev.type == EV_MAP) {
		char ctx[64];
		struct seen s;
		snprintf(ctx, sizeof ctx, "in '%s'", kd->name);
		b->ref.pos = l->es.ev.pos;
		parse_keys(l, &bound_tab, b, ctx, &s);
		require(l, &bound_tab, &s, 1, ctx);
	} else if (is_scalar(l) && !is_null(l) && (l->es.ev.quoted ||
		   parse_number(l->es.ev.value, &n) == SCALAR_SYNTAX)) {
		/* not a number: a buffer's name (quotes keep a number-like name a name) */
		get_ref(l, "a number or a buffer name", kd->name, &b->ref);
	} else if (!get_num(l, kd->name, &b->value)) {
		return;
	}
	c->cmp.ops |= 1u << kd->arg;
}

static void key_cmp_rtol(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	get_nonneg(l, kd->name, &c->cmp.rtol, &c->cmp.rtol_pos);
}

static void key_cmp_atol(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	get_nonneg(l, kd->name, &c->cmp.atol, &c->cmp.atol_pos);
}

static void key_cmp_from(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	get_num(l, kd->name, &c->differ_from);
}

/* The order of enum bound_op first: key i is op i. */
static const struct keydef cmp_keys[] = {
	{"eq", key_cmp_op, BOUND_EQ},
	{"lt", key_cmp_op, BOUND_LT},
	{"le", key_cmp_op, BOUND_LE},
	{"gt", key_cmp_op, BOUND_GT},
	{"ge", key_cmp_op, BOUND_GE},
	{"near", key_cmp_op, BOUND_NEAR},
	{"rtol", key_cmp_rtol, 0},
	{"atol", key_cmp_atol, 0},
	{"from", key_cmp_from, 0},
};
static const struct keytab cmp_tab = KEYTAB(cmp_keys);
#define CMP_OPS ((1u << BOUND_COUNT) - 1)
#define CMP_TOL_BITS (3u << BOUND_COUNT)
#define CMP_FROM_BIT (1u << (BOUND_COUNT + 2))
static const char cmp_what[] =
	"{eq: v}, {lt: v}, {le: v}, {gt: v}, {ge: v} or {near: v, rtol: r, atol: a}";

/* sum, min, max, norm2, nonzero, differ: a number (== it) or a mapping of bounds. */
static void key_check_reduce(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	bool differ = kd->arg == RED_DIFFER;
	c->kind = CHECK_REDUCE;
	c->reduce = (enum reduce_kind)kd->arg;
	c->kind_pos = kpos;
	c->cmp.pos = l->es.ev.pos;
	if (l->es.ev.type != EV_MAP) {
		if (differ) {
			expected(l, "a mapping {from: value, eq: count, ...}", kd->name);
			return;
		}
		/* a bare number: the figure equals it */
		if (is_scalar(l) && !is_null(l)) {
			c->cmp.bound[BOUND_EQ].ref.idx = -1;
			if (get_num(l, kd->name, &c->cmp.bound[BOUND_EQ].value))
				c->cmp.ops = 1u << BOUND_EQ;
			return;
		}
		char what[200];
		snprintf(what, sizeof what, "a number or bounds %s", cmp_what);
		expected(l, what, kd->name);
		return;
	}
	char ctx[64];
	struct seen s;
	snprintf(ctx, sizeof ctx, "in '%s'", kd->name);
	parse_keys(l, &cmp_tab, c, ctx, &s);
	if (s.unknown)
		return;
	if (!(s.mask & CMP_OPS))
		err(l, s.pos, "'%s' needs a bound: %s", kd->name, cmp_what);
	for (int i = BOUND_COUNT; i < BOUND_COUNT + 2; i++)
		if ((s.mask & (1u << i)) && !(s.mask & (1u << BOUND_NEAR)))
			err(l, s.at[i], "'%s' goes with 'near' in '%s' ({near: v, %s: t})",
			    cmp_keys[i].name, kd->name, cmp_keys[i].name);
	if ((s.mask & CMP_FROM_BIT) && !differ)
		err(l, s.at[BOUND_COUNT + 2], "'from' goes with 'differ' ({differ: {from: v, eq: 0}})");
	else if (differ && !(s.mask & CMP_FROM_BIT))
		err(l, s.pos, "missing key 'from' in 'differ' (the value the elements are "
		    "compared with)");
}

static void key_check_finite(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	bool yes;
	c->kind = CHECK_FINITE;
	c->kind_pos = kpos;
	struct pos at = l->es.ev.pos;
	if (get_bool(l, kd->name, &yes) && !yes)
		err(l, at, "'finite: false' asks nothing: write 'finite: true' (no NaN or "
		    "infinity in the slice), or leave it out");
}

static const struct keydef check_keys[] = {
	{"buffer", key_check_buffer, 0},
	{"offset", key_check_offset, 0},
	{"count", key_check_count, 0},
	{"expect", key_check_expect, 0},
	{"rtol", key_check_rtol, 0},
	{"atol", key_check_atol, 0},
	{"sum", key_check_reduce, RED_SUM},
	{"min", key_check_reduce, RED_MIN},
	{"max", key_check_reduce, RED_MAX},
	{"norm2", key_check_reduce, RED_NORM2},
	{"nonzero", key_check_reduce, RED_NONZERO},
	{"differ", key_check_reduce, RED_DIFFER},
	{"finite", key_check_finite, 0},
};
static const struct keytab check_tab = KEYTAB(check_keys);
/* expect, sum, ..., finite: what a check tests, one of them */
#define CHECK_TESTS (0x1fc0u | 0x8u)

/* Check c's mapping, the current event (c is element index of the model's checks). */
static void parse_check(struct ld *l, struct check *c, size_t index)
{
	struct seen s;
	size_t errors = l->es.nerrs;
	long o = obj_open(l, CTX_CHECK, NULL, index, NULL, l->es.ev.pos);
	c->pos = l->es.ev.pos;
	c->buffer.idx = -1;
	c->ref.idx = -1;
	parse_keys(l, &check_tab, c, "in a check", &s);
	require(l, &check_tab, &s, 1, "in a check");
	if (s.unknown == 0 && !(s.mask & CHECK_TESTS))
		err(l, s.pos, "a check needs a test: expect, sum, min, max, norm2, nonzero, "
		    "differ or finite");
	two_forms(l, &check_tab, &s, CHECK_TESTS, "a check", "test");
	c->bad = l->es.nerrs != errors;
	obj_close(l, o);
}

static void key_checks(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct gdef *g = obj;
	if (is_null(l)) {
		next(l);
		return;
	}
	if (!want_seq(l, "a list of checks", kd->name))
		return;
	next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		if (!want_map(l, "a check {buffer, expect or sum, min, max, ...}", kd->name))
			continue;
		struct check *c = VEC_PUSH(g->checks, g->nchecks, g->capchecks);
		size_t evals = l->es.axis_evals;
		parse_check(l, c, g->nchecks - 1);
		c->dynamic = l->es.axis_evals != evals;
	}
	next(l);
}

static void key_run_repeat(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct run_defaults *r = obj;
	uint64_t v;
	if ((r->has_repeat = get_u64(l, kd->name, 0, UINT32_MAX, &v, NULL)))
		r->repeat = (uint32_t)v;
}

static void key_run_warmup(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct run_defaults *r = obj;
	uint64_t v;
	if ((r->has_warmup = get_u64(l, kd->name, 0, UINT32_MAX, &v, NULL)))
		r->warmup = (uint32_t)v;
}

static void key_run_timeout(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct run_defaults *r = obj;
	r->has_timeout = get_duration(l, kd->name, &r->timeout_ns, NULL);
}

static void key_run_device(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct run_defaults *r = obj;
	int64_t v;
	if ((r->has_device = get_i64(l, kd->name, 0, GDEF_MAX_DEVICE, &v, NULL)))
		r->device = (int)v;
}

static void inst_flag(struct ld *l, struct run_defaults *r, const char *name)
{
	int i = get_choice(l, "an instantiate flag", "instantiate flag", name, inst_flag_names,
			   INST_FLAG_COUNT, NULL);
	if (i >= 0)
		r->instantiate |= 1u << i;
}

static void key_run_instantiate(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct run_defaults *r = obj;
	r->has_instantiate = true;
	if (l->es.ev.type != EV_SEQ) {
		if (l->es.ev.type == EV_MAP)
			expected(l, "a list of instantiate flags", kd->name);
		else
			inst_flag(l, r, kd->name);
		return;
	}
	next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END)
		inst_flag(l, r, kd->name);
	next(l);
}

/* run.expect: pass (the default) or fail: for CI suites, see cugraphrun(1). */
static void key_run_expect(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	static const char *const expect_names[] = {"pass", "fail"};
	int i = get_choice(l, "pass or fail", "expectation", kd->name, expect_names, 2, NULL);
	if (i >= 0)
		((struct run_defaults *)obj)->expect_fail = i == 1;
}

/* run.skip: "reason": the file is read and checked but not run. */
static void key_run_skip(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_text(l, "a reason for skipping", kd->name, &((struct run_defaults *)obj)->skip, NULL);
}

static void key_run_persisting(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct run_defaults *r = obj;
	r->has_persisting_l2 = get_size(l, kd->name, UINT64_MAX, &r->persisting_l2,
					&r->persisting_l2_pos);
}

static const struct keydef run_keys[] = {
	{"repeat", key_run_repeat, 0},
	{"warmup", key_run_warmup, 0},
	{"timeout", key_run_timeout, 0},
	{"device", key_run_device, 0},
	{"instantiate", key_run_instantiate, 0},
	{"expect", key_run_expect, 0},
	{"skip", key_run_skip, 0},
	{"persisting_l2", key_run_persisting, 0},
};
static const struct keytab run_tab = KEYTAB(run_keys);

static void key_run(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct gdef *g = obj;
	long o = obj_open(l, CTX_RUN, NULL, 0, kd, kpos);
	g->run.pos = l->es.ev.pos;
	parse_optional_map(l, &run_tab, &g->run, kd->name, "in 'run'");
	obj_close(l, o);
}

static void key_version(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct gdef *g = obj;
	struct num n;
	if (!plain_scalar(l, "the format version 1", kd->name))
		return;
	if (parse_int(l->es.ev.value, &n) == SCALAR_SYNTAX) {
		expected(l, "the format version 1", kd->name);
		return;
	}
	if (n.kind != NUM_UINT || n.u != GDEF_FORMAT_VERSION) {
		fatal(l, l->es.ev.pos, "format version %.60s is not supported; this build reads format %d",
		      l->es.ev.value, GDEF_FORMAT_VERSION);
		return;
	}
	g->version = GDEF_FORMAT_VERSION;
	next(l);
}

static void key_name(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	long o = obj_open(l, CTX_NAME, NULL, 0, kd, kpos);
	get_text(l, "a text", kd->name, &((struct gdef *)obj)->name, NULL);
	obj_close(l, o);
}

static void key_description(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	long o = obj_open(l, CTX_DESCRIPTION, NULL, 0, kd, kpos);
	get_text(l, "a text", kd->name, &((struct gdef *)obj)->description, NULL);
	obj_close(l, o);
}

static void key_nodes(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	parse_graph(l, ((struct gdef *)obj)->root, kd->name);
}

static void key_edges(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	parse_edges(l, ((struct gdef *)obj)->root, kd->name);
}

/*
 * axes: a plain load stops here (the file is a template); a template
 * reads its axes before its points, and its points pass them by.
 */
static void key_axes(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	if (l->sw == NULL)
		ev_want_template(&l->es);
	else if (l->axes_pass)
		load_axes(&l->es, l->sw);
	else
		skip_value(l);
}

static void key_tp_bytes(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct throughput_decl *t = obj;
	struct pos pos;
	t->has_bytes = get_nonneg(l, kd->name, &t->bytes, &pos);
}

static void key_tp_items(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct throughput_decl *t = obj;
	struct pos pos;
	t->has_items = get_nonneg(l, kd->name, &t->items, &pos);
}

static const struct keydef throughput_keys[] = {
	{"bytes", key_tp_bytes, 0},
	{"items", key_tp_items, 0},
};
static const struct keytab throughput_tab = KEYTAB(throughput_keys);

/* throughput: {bytes: N, items: N}, one of them at least. */
static void key_throughput(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct gdef *g = obj;
	struct seen s;
	g->throughput.pos = kpos;
	if (!want_map(l, "a mapping {bytes: N, items: N}", kd->name))
		return;
	long o = obj_open(l, CTX_THROUGHPUT, NULL, 0, kd, kpos);
	parse_keys(l, &throughput_tab, &g->throughput, "in 'throughput'", &s);
	if (s.mask == 0 && s.unknown == 0)
		err(l, s.pos, "empty 'throughput' (expected bytes, items or both: what one launch "
		    "moves and processes)");
	obj_close(l, o);
}

static const struct keydef top_keys[] = {
	{"cugraphrun", key_version, 0},
	{"name", key_name, 0},
	{"description", key_description, 0},
	{"modules", key_modules, 0},
	{"buffers", key_buffers, 0},
	{"events", key_events, 0},
	{"conditions", key_conditions, 0},
	{"nodes", key_nodes, 0},
	{"edges", key_edges, 0},
	{"checks", key_checks, 0},
	{"run", key_run, 0},
	{"axes", key_axes, 0},
	{"throughput", key_throughput, 0},
};
static const struct keytab top_tab = KEYTAB(top_keys);

/* The stream: exactly one document holding one mapping. */
static bool parse_stream(struct ld *l)
{
	next(l);                        /* stream start */
	next(l);
	if (l->es.fatal)
		return false;
	if (l->es.ev.type == EV_STREAM_END) {
		err(l, (struct pos){1, 1}, "the file is empty (expected a mapping that starts with 'cugraphrun: 1')");
		return false;
	}
	next(l);                        /* the document's value */
	if (l->es.fatal)
		return false;
	if (l->es.ev.type != EV_MAP) {
		char buf[96];
		err(l, l->es.ev.pos, "expected a mapping with 'cugraphrun: 1' at the top level, found %s",
		    ev_found(&l->es.ev, buf, sizeof buf));
		return false;
	}
	struct seen s;
	parse_keys(l, &top_tab, l->g, "at the top level", &s);
	if (l->es.fatal)
		return false;
	if (!(s.mask & 1))
		err(l, s.pos, "missing 'cugraphrun: 1' (the format version) at the top level");
	next(l);                        /* past the document's end */
	if (l->es.ev.type == EV_DOC_START)
		err(l, l->es.ev.pos, "a second YAML document (a cugraphrun file holds one; remove the '---' and what follows)");
	return !l->es.fatal;
}

/*
 * KIND_N for nodes without an id, N counting per kind in file order and
 * skipping the ids written in the file.  key_node_kind hands them out as
 * it goes; this pass does it again when that could be wrong: an id
 * written in the file has the form KIND_N, or came after its node's kind.
 */
static void assign_ids(struct ld *l)
{
	if (!l->renumber)
		return;
	struct node *const *nodes = l->nested ? l->nodes : l->g->root->nodes;
	size_t nnodes = l->nested ? l->nnodes : l->g->root->nnodes;
	struct strmap *given = NULL;
	size_t counts[NK_COUNT] = {0};
	for (size_t i = 0; i < nnodes; i++)
		if (nodes[i]->id_given) {
			if (given == NULL)
				given = strmap_new(64);
			strmap_put(given, nodes[i]->id, 1, NULL);
		}
	for (size_t i = 0; i < nnodes; i++) {
		struct node *n = nodes[i];
		if (n->id_given)
			continue;
		do {
			n->id = auto_id(l->g, n->kind, ++counts[n->kind]);
		} while (given && strmap_get(given, n->id) >= 0);
		n->id_pos = n->pos;
	}
	strmap_free(given);
}

/* What a model's reading leaves behind in the loader, but the event source. */
static void ld_model_free(struct ld *l)
{
	free(l->tmpl);
	l->tmpl = NULL;
	arena_free(&l->scratch);
	names_free(&l->modules);
	names_free(&l->buffers);
	names_free(&l->conditions);
	memset(&l->modules, 0, sizeof l->modules);
	memset(&l->buffers, 0, sizeof l->buffers);
	memset(&l->conditions, 0, sizeof l->conditions);
	l->nested = false;
	l->nodes = NULL;
	l->nnodes = l->capnodes = 0;
	memset(l->auto_counts, 0, sizeof l->auto_counts);
	l->renumber = false;
	l->last_kernel = NULL;
	l->last_kernel_len = 0;
	l->last_ref = NULL;
	l->last_ref_len = 0;
	l->g = NULL;
}

static void ld_free(struct ld *l)
{
	ld_model_free(l);
	ev_free(&l->es);
}

/* A loader for the file called name, its input not yet set. */
static void ld_init(struct ld *l, const char *name, const struct load_limits *limits,
		    struct diag *d)
{
	memset(l, 0, sizeof *l);
	ev_init(&l->es, name, limits, d);
}

/* One model from l's events (the file, or a template's point), or NULL. */
static struct gdef *load_model(struct ld *l, const char *name)
{
	l->g = gdef_new(name);
	struct module *builtin = VEC_PUSH(l->g->modules, l->g->nmodules, l->g->capmodules);
	builtin->name = gdef_strdup(l->g, "builtin");
	builtin->builtin = true;
	size_t errors = l->es.nerrs;
	bool ok = parse_stream(l);
	if (ok)
		assign_ids(l);
	struct gdef *g = l->g;
	g->load_errors = l->es.nerrs - errors;
	ld_model_free(l);
	if (!ok) {
		gdef_free(g);
		return NULL;
	}
	return g;
}

/* l's input is set: read it into a new definition named name, or NULL (and *restart). */
static struct gdef *load(struct ld *l, const char *name, bool *restart)
{
	struct gdef *g = load_model(l, name);
	*restart = l->es.restart;
	ld_free(l);
	return g;
}

/* A plain file's one model as a sweep of one point without axes. */
static struct sweep *one_point(struct gdef *g)
{
	if (g == NULL)
		return NULL;
	struct sweep *sw = sweep_new();
	sw->npoints = 1;
	sw->index = xcalloc(1, sizeof *sw->index);
	sw->labels = xcalloc(1, sizeof *sw->labels);
	sw->labels[0] = arena_strdup(&sw->arena, "");
	sw->models = xcalloc(1, sizeof *sw->models);
	sw->models[0] = g;
	return sw;
}

/* axes: alone, before the points: every other key is passed by, unread. */
static void read_axes(struct ld *l)
{
	next(l);                        /* stream start */
	next(l);
	if (l->es.fatal || l->es.ev.type != EV_DOC_START)
		return;
	next(l);
	if (l->es.ev.type != EV_MAP)
		return;
	struct mapiter it;
	bool seen = false;
	map_open(l, &it, &top_tab);
	while (map_key(l, &it)) {
		if (!seen && it.index >= 0 && strcmp(it.key, "axes") == 0) {
			seen = true;
			load_axes(&l->es, l->sw);
		} else {
			skip_value(l);
		}
	}
}

/* ---------------------------------------------------------------------
 * POINTS: a template's point read from an earlier one
 *
 * Reading a point in full replays every event of the file through the
 * handlers and builds a whole model, which a sweep then validates whole:
 * for a 100-node graph whose points change one grid, some 40 us a point,
 * where the GPU updates the node in a microsecond.  So while a point is
 * read in full (the base), the objects whose values a later point may
 * change alone are recorded with their stretches of the raw log (the
 * kind mappings of kernel, memset, copy and host nodes, buffers,
 * conditions, checks, run:, throughput:, name and description:
 * obj_open), and so is every scalar that read an axis, with its text
 * (load_events.h: ev_site).  A later point evaluates those scalars
 * alone.  When every one whose text changed lies in such an object, the
 * point's model is derived from the base's (model_derive.h): each of
 * those objects is read again from its own events into a copy, which
 * must come out the same but in values (derive_same_*), and the buffers
 * whose values changed make the nodes and checks that name them dirty
 * too, for the validator to check again (gdef_validate_derived).  An id,
 * an after, a generator's range, a kind, a module, a function, a
 * buffer's type or a key that changed, a scalar inside an anchored node,
 * an object read with an alias or a merge, a kernel with launch
 * attributes, an error while reading again: the point is read in full,
 * and becomes the base of the points after it.  Reading again is quiet;
 * an error sends the point to the full reading, which says it.
 */

/*
 * (The functions of templates are cold: out of the way of the plain
 * load's per-node functions, whose places in the instruction cache a few
 * hundred bytes more among them changed: 50% more misses, 2% slower on a
 * 100,000-node chain.)
 */

/* The loader of a template, kept with its sweep for sweep_reload. */
struct sweep_src {
	struct ld l;
	struct load_limits lim;
	char *name;
	long *slots;                    /* per axis: its slot */
};

static __attribute__((cold)) void sweep_src_free(struct sweep_src *src)
{
	if (src == NULL)
		return;
	ld_free(&src->l);
	free(src->slots);
	free(src->name);
	free(src);
}

__attribute__((cold)) void sweep_release(struct sweep *sw)
{
	if (sw == NULL)
		return;
	sweep_src_free(sw->src);
	sw->src = NULL;
	sweep_free(sw);
}

/* Bind point k's values to the axes' names. */
static __attribute__((cold)) void bind_point(struct sweep_src *src, const struct sweep *sw, size_t k)
{
	for (size_t a = 0; a < sw->naxes; a++)
		ev_bind(&src->l.es, src->slots[a], *sweep_value(sw, k, a));
}

/* Point k's model read in full. */
static __attribute__((cold)) struct gdef *read_point(struct sweep_src *src, const struct sweep *sw, size_t k)
{
	ev_replay_start(&src->l.es, true);
	bind_point(src, sw, k);
	return load_model(&src->l, src->name);
}

__attribute__((cold)) struct gdef *sweep_reload(struct sweep *sw, size_t k, struct diag *d)
{
	struct sweep_src *src = sw->src;
	struct diag *was = src->l.es.d;
	src->l.es.d = d;
	struct gdef *g = read_point(src, sw, k);
	src->l.es.d = was;
	return g;
}

/* Object c of the base read again, from its own events, into derived model g. */
static __attribute__((cold)) bool read_again(struct ld *l, struct gdef *g, const struct ev_ctx *c)
{
	struct gdef *base = g->derive->base;
	bool same = false;
	if (c->kind == CTX_NODE) {
		const struct node *bn = c->obj;
		/* launch attributes are the validator's driver rules' (model_derive.c) */
		if (bn->kind == NK_KERNEL && bn->u.kernel.has_attrs)
			return false;
	}
	l->g = g;
	l->last_kernel = NULL;
	l->last_ref = NULL;
	ev_reread(&l->es, c);
	switch (c->kind) {
	case CTX_NODE: {
		struct node *bn = c->obj, *n = derive_node(g, bn, true);
		memset(&n->u, 0, sizeof n->u);
		node_set_kind(n, bn->kind);
		kind_parsers[n->kind](l, n);
		same = derive_same_node(bn, n);
		break;
	}
	case CTX_BUFFER: {
		const struct buffer *bb = &base->buffers[c->index];
		struct buffer *b = derive_buffer(g, c->index);
		memset(b, 0, sizeof *b);
		buffer_start(b, bb->name, bb->pos);
		b->dynamic = bb->dynamic;
		parse_buffer(l, b, c->index);
		derive_own(g, b->init.list);
		same = derive_same_buffer(bb, b);
		break;
	}
	case CTX_CONDITION: {
		const struct condition *bc = &base->conditions[c->index];
		struct condition *cd = derive_condition(g, c->index);
		*cd = (struct condition){.name = bc->name, .pos = bc->pos, .user = -1,
					 .dynamic = bc->dynamic};
		parse_condition(l, cd, c->index);
		same = derive_same_condition(bc, cd);
		break;
	}
	case CTX_CHECK: {
		const struct check *bk = &base->checks[c->index];
		struct check *ck = derive_check(g, c->index);
		memset(ck, 0, sizeof *ck);
		ck->dynamic = bk->dynamic;
		parse_check(l, ck, c->index);
		derive_own(g, ck->list);
		same = derive_same_check(bk, ck);
		break;
	}
	case CTX_RUN:
		memset(&g->run, 0, sizeof g->run);
		key_run(l, g, c->key, c->kpos);
		same = derive_same_run(&base->run, &g->run);
		break;
	case CTX_THROUGHPUT:
		memset(&g->throughput, 0, sizeof g->throughput);
		key_throughput(l, g, c->key, c->kpos);
		same = g->throughput.has_bytes == base->throughput.has_bytes &&
		       g->throughput.has_items == base->throughput.has_items;
		break;
	case CTX_NAME:
		g->name = NULL;
		key_name(l, g, c->key, c->kpos);
		same = g->name != NULL;
		break;
	case CTX_DESCRIPTION:
		g->description = NULL;
		key_description(l, g, c->key, c->kpos);
		same = g->description != NULL;
		break;
	}
	return ev_reread_end(&l->es, c) && same;
}

/* Every node of graph gr and of the graphs its nodes hold. */
static __attribute__((cold)) void mark_users(struct gdef *g, struct graph *gr, const char *buffer)
{
	for (size_t i = 0; i < gr->nnodes; i++) {
		struct node *n = gr->nodes[i];
		if (derive_node_names_buffer(n, buffer))
			derive_node(g, n, true);
		if (n->kind == NK_GRAPH && n->u.child)
			mark_users(g, n->u.child, buffer);
		else if (node_kind_is_conditional(n->kind))
			for (size_t b = 0; b < n->u.cond.nbodies; b++)
				if (n->u.cond.bodies[b])
					mark_users(g, n->u.cond.bodies[b], buffer);
	}
}

/*
 * Buffers read again make dirty what names them: nodes (their offsets
 * and counts against it), checks (their lengths).  An access window on
 * one is a launch attribute (read in full).  False for that.
 */
static __attribute__((cold)) bool mark_buffer_users(struct gdef *g)
{
	const struct derive *dv = g->derive;
	struct gdef *base = dv->base;
	for (size_t i = 0; dv->buffer_dirty && i < g->nbuffers; i++) {
		if (!dv->buffer_dirty[i])
			continue;
		const char *name = base->buffers[i].name;
		for (size_t k = 0; k < base->nkattrs; k++)
			if (kattr_set(base->kattrs[k], KATTR_ACCESS_POLICY) &&
			    base->kattrs[k]->window.buffer.name &&
			    strcmp(base->kattrs[k]->window.buffer.name, name) == 0)
				return false;
		mark_users(g, base->root, name);
		for (size_t k = 0; k < base->nchecks; k++) {
			const struct check *c = &base->checks[k];
			bool names = (c->buffer.name && strcmp(c->buffer.name, name) == 0) ||
				     (c->ref.name && strcmp(c->ref.name, name) == 0);
			if (names && !(dv->check_dirty && dv->check_dirty[k]))
				derive_check(g, k);
		}
	}
	return true;
}

/*
 * The model of the point whose values are bound now, derived from base
 * (read in full, its objects and sites in rec), or NULL when it must be
 * read in full.  Quiet: what reading again says is dropped.
 */
static __attribute__((cold)) struct gdef *derive_point(struct ld *l, struct gdef *base, const struct ev_rec *rec,
				 bool *dirty)
{
	memset(dirty, 0, rec->nctx * sizeof *dirty);
	for (size_t i = 0; i < rec->nsites; i++) {
		const struct ev_site *st = &rec->sites[i];
		if (ev_site_same(&l->es, rec, st))
			continue;
		if (st->ctx < 0 || !rec->ctx[st->ctx].usable)
			return NULL;
		dirty[st->ctx] = true;
	}
	struct gdef *g = gdef_derive(base);
	struct diag *d = l->es.d, saved = *d;
	d->quiet = true;
	bool ok = true;
	for (size_t i = 0; ok && i < rec->nctx; i++)
		if (dirty[i])
			ok = read_again(l, g, &rec->ctx[i]);
	ok = ok && mark_buffer_users(g);
	ok = ok && d->nerrors == saved.nerrors && d->nwarnings == saved.nwarnings;
	*d = saved;
	/* what the loader keeps from one reading to the next is about g: forgotten */
	l->g = NULL;
	l->last_kernel = NULL;
	l->last_kernel_len = 0;
	l->last_ref = NULL;
	l->last_ref_len = 0;
	if (!ok) {
		derive_free(g);
		return NULL;
	}
	return g;
}

/*
 * A template (load_events.h: TEMPLATES): its events recorded once, its
 * axes read, the command line's applied, the points enumerated, then one
 * model per point, each read from the recorded events with the point's
 * values bound, or derived from the last point read so (POINTS).  The
 * first point's errors are said as a plain file's, the others' with the
 * point's label.  After a fatal error (the format version, a limit) no
 * further point is read: each would say it again.
 */
static __attribute__((cold)) struct sweep *load_template(const char *name, const char *text, size_t len,
				   const struct load_limits *lim, const struct axis_arg *args,
				   size_t nargs, bool first_only, struct diag *d)
{
	struct sweep_src *src = xcalloc(1, sizeof *src);
	struct ld *l = &src->l;
	src->lim = *lim;
	src->name = xstrdup(name);
	ld_init(l, src->name, &src->lim, d);
	ev_input_string(&l->es, text, len);
	struct sweep *sw = sweep_new();
	l->sw = l->es.sw = sw;
	unsigned before = d->nerrors;
	bool ok = ev_record(&l->es);
	/* the text is the caller's: everything is in the raw log now */
	l->es.text = NULL;
	l->es.len = 0;
	if (ok) {
		ev_replay_start(&l->es, false);
		l->axes_pass = true;
		read_axes(l);
		l->axes_pass = false;
		ok = !l->es.fatal && d->nerrors == before;
	}
	if (ok && nargs) {
		ev_note_names(&l->es);
		ok = sweep_apply_args(sw, args, nargs, d);
	}
	ok = ok && sweep_enumerate(sw, d);
	if (!ok) {
		sweep_src_free(src);
		sweep_free(sw);
		return NULL;
	}
	src->slots = xcalloc(sw->naxes ? sw->naxes : 1, sizeof *src->slots);
	for (size_t a = 0; a < sw->naxes; a++) {
		src->slots[a] = ev_slot(&l->es, sw->axes[a].name);
		l->es.is_axis[src->slots[a]] = true;
	}
	sw->models = xcalloc(sw->npoints, sizeof *sw->models);
	sw->eval_s = xcalloc(sw->npoints, sizeof *sw->eval_s);
	sw->base = xcalloc(sw->npoints, sizeof *sw->base);
	const char *prefix = d->prefix;
	size_t npoints = first_only ? 1 : sw->npoints;
	/* points after the first are derived where they can be (POINTS) */
	bool derive = npoints > 1 && !lim->full_points;
	struct ev_rec rec = {0};
	bool *dirty = NULL;
	long base = -1;
	size_t derived = 0;
	/* all points together read at most SWEEP_MAX_EVENTS: each alone is bounded already */
	size_t events = 0;
	for (size_t k = 0; k < npoints; k++) {
		if (events > SWEEP_MAX_EVENTS) {
			d->prefix = prefix;
			diag_error(d, (struct pos){1, 1}, "the %zu points of the sweep read more "
				   "than %d YAML events in all (%s is point %zu)", sw->npoints,
				   SWEEP_MAX_EVENTS, sw->labels[k], k + 1);
			break;
		}
		double t = monotime();
		d->prefix = k ? sw->labels[k] : NULL;
		sw->base[k] = k;
		if (base >= 0) {
			bind_point(src, sw, k);
			l->es.raw_read = 0;
			struct gdef *g = derive_point(l, sw->models[base], &rec, dirty);
			events += l->es.raw_read;
			if (g) {
				sw->models[k] = g;
				sw->base[k] = (size_t)base;
				sw->eval_s[k] = monotime() - t;
				derived++;
				continue;
			}
		}
		unsigned errors = d->nerrors;
		if (derive) {
			ev_rec_free(&rec);
			l->es.rec = &rec;
			l->es.ctx = -1;
		}
		sw->models[k] = read_point(src, sw, k);
		l->es.rec = NULL;
		/* a point read with errors is no base: the sweep goes no further than validation */
		base = derive && sw->models[k] && d->nerrors == errors && !l->es.fatal ? (long)k : -1;
		if (base >= 0)
			dirty = xreallocarray(dirty, rec.nctx ? rec.nctx : 1, sizeof *dirty);
		sw->eval_s[k] = monotime() - t;
		events += l->es.raw_read + l->es.alias_events;
		if (sw->models[k] == NULL && l->es.fatal)
			break;
	}
	d->prefix = prefix;
	ev_rec_free(&rec);
	free(dirty);
	/* derived models may need a point read in full again (sweep_reload) */
	if (derived)
		sw->src = src;
	else
		sweep_src_free(src);
	if (sw->models[0] == NULL) {
		sweep_release(sw);
		return NULL;
	}
	return sw;
}

/* Is there "${" in text? */
static bool has_expr(const char *text, size_t len)
{
	return len >= 2 && memmem(text, len, "${", 2) != NULL;
}

/* sweep_load_string, or with first_only the first point's model alone (gdef_load_string). */
static struct sweep *load_string(const char *name, const char *text, size_t len,
				 const struct load_limits *limits, const struct axis_arg *args,
				 size_t nargs, bool first_only, struct diag *d)
{
	if (limits == NULL)
		limits = &load_default_limits;
	if (len > limits->max_file_size) {
		diag_error(d, nopos, "%s is too large (%zu bytes; the limit is %zu)", name, len,
			   limits->max_file_size);
		return NULL;
	}
	if (nargs == 0 && !has_expr(text, len)) {
		struct ld l;
		bool restart;
		ld_init(&l, name, limits, d);
		ev_input_string(&l.es, text, len);
		struct gdef *g = load(&l, name, &restart);
		if (!restart)
			return one_point(g);
	}
	return load_template(name, text, len, limits, args, nargs, first_only, d);
}

struct sweep *sweep_load_string(const char *name, const char *text, size_t len,
				const struct load_limits *limits, const struct axis_arg *args,
				size_t nargs, struct diag *d)
{
	return load_string(name, text, len, limits, args, nargs, false, d);
}

struct gdef *gdef_load_string(const char *name, const char *text, size_t len,
			      const struct load_limits *limits, struct diag *d)
{
	return sweep_first(load_string(name, text, len, limits, NULL, 0, true, d));
}

struct gdef *sweep_first(struct sweep *sw)
{
	if (sw == NULL)
		return NULL;
	struct gdef *g = sw->models[0];
	sw->models[0] = NULL;
	sweep_release(sw);
	return g;
}

/* len bytes of fd from its start, or NULL with errno. */
static char *read_from_start(int fd, size_t len)
{
	char *buf = xmalloc(len ? len : 1);
	for (size_t done = 0; done < len;) {
		ssize_t n = pread(fd, buf + done, len - done, (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			free(buf);
			return NULL;
		}
		done += (size_t)n;
	}
	return buf;
}

/*
 * Where in s[*from..len) the first character is that libyaml refuses in a
 * UTF-8 stream (a byte that is no UTF-8, or a character outside YAML's
 * printable set: NUL, most C0 controls, surrogates...), or len when there
 * is none yet.  *from moves past what was checked, stopping before a
 * sequence that the end of what was read so far cuts short.
 */
static size_t first_refused(const char *text, size_t *from, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i = *from, n;
	while (i < len) {
		if (s[i] >= 0x20 && s[i] < 0x7f) {
			i++;
			continue;
		}
		int32_t c = utf8_next(s + i, len - i, &n);
		if (c == '\t' || c == '\n' || c == '\r' || c == 0x85 ||
		    (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || c >= 0x10000) {
			i += n;
			continue;
		}
		/* a lead byte whose continuation bytes are still to come */
		size_t need = s[i] >= 0xc2 && s[i] <= 0xdf ? 2 : s[i] >= 0xe0 && s[i] <= 0xef ? 3 :
			s[i] >= 0xf0 && s[i] <= 0xf4 ? 4 : 0;
		size_t k = 1;
		while (i + k < len && k < need && (s[i + k] & 0xc0) == 0x80)
			k++;
		if (c < 0 && need && i + k == len)
			break;
		*from = i;
		return i;
	}
	*from = i;
	return len;
}

/*
 * The rest of fd into a buffer, for what cannot be streamed by size (pipes,
 * procfs).  A UTF-8 stream stops being read a few bytes past the first
 * character libyaml refuses: standard input or /dev/urandom holding a
 * binary is rejected at once rather than after the 1 GiB limit, and what
 * was read gives the same error, at the same place, as the whole would.
 * (A UTF-16 stream, which starts with its byte order mark, is libyaml's
 * to decode.)
 */
static char *read_all(int fd, size_t max, size_t *lenp, bool *too_large)
{
	size_t cap = max < 65536 ? max : 65536, len = 0;
	char *buf = xmalloc(cap ? cap : 1);
	size_t checked = 0, stop = SIZE_MAX;
	bool utf16 = false;
	*too_large = false;
	for (;;) {
		if (len == cap && cap < max) {
			/* Never more than max bytes, however long the pipe. */
			cap = cap > max / 2 ? max : cap * 2;
			buf = xreallocarray(buf, cap, 1);
		}
		char probe;
		ssize_t n = len < cap ? read(fd, buf + len, cap - len) : read(fd, &probe, 1);
		if (n > 0 && len == cap) {
			*too_large = true;
			free(buf);
			return NULL;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len < 2)
			continue;
		if (checked == 0 && ((unsigned char)buf[0] == 0xff || (unsigned char)buf[0] == 0xfe) &&
		    ((unsigned char)buf[1] ^ (unsigned char)buf[0]) == 1)
			utf16 = true;
		if (!utf16 && stop == SIZE_MAX) {
			size_t bad = first_refused(buf, &checked, len);
			if (bad < len)
				stop = bad + 4;
		}
		if (len >= stop)
			break;
	}
	*lenp = len;
	return buf;
}

/*
 * fd, open on path, which it closes.  A regular file is streamed into
 * libyaml (see ev_input_fd); the rest are read whole.  A template is read
 * whole too, once it is known to be one.  With first_only, the first
 * point's model alone (gdef_load).
 */
static struct sweep *load_fd(const char *path, int fd, const struct axis_arg *args, size_t nargs,
			     bool first_only, struct diag *d)
{
	const struct load_limits *lim = &load_default_limits;
	struct stat st;
	if (fstat(fd, &st) != 0) {
		diag_error(d, nopos, "cannot read %s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > lim->max_file_size) {
		diag_error(d, nopos, "%s is too large (%jd bytes; the limit is %zu)", path,
			   (intmax_t)st.st_size, lim->max_file_size);
		close(fd);
		return NULL;
	}
	/* (procfs and the like say 0 bytes, and are read to their end below) */
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		size_t size = (size_t)st.st_size;
		bool restart = nargs > 0;
		struct sweep *sw = NULL;
		if (!restart) {
			struct ld l;
			ld_init(&l, path, lim, d);
			ev_input_fd(&l.es, fd, size);
			sw = one_point(load(&l, path, &restart));
		}
		if (restart) {
			char *text = read_from_start(fd, size);
			if (text == NULL)
				diag_error(d, nopos, "cannot read %s: %s", path, strerror(errno));
			else
				sw = load_template(path, text, size, lim, args, nargs, first_only,
						   d);
			free(text);
		}
		close(fd);
		return sw;
	}
	size_t len = 0;
	bool too_large;
	char *buf = read_all(fd, lim->max_file_size, &len, &too_large);
	int e = errno;
	close(fd);
	if (buf == NULL) {
		if (too_large)
			diag_error(d, nopos, "%s is too large (the limit is %zu bytes)", path,
				   lim->max_file_size);
		else
			diag_error(d, nopos, "cannot read %s: %s", path, strerror(e));
		return NULL;
	}
	struct sweep *sw = load_string(path, buf, len, lim, args, nargs, first_only, d);
	free(buf);
	return sw;
}

/* sweep_load, or with first_only the first point's model alone (gdef_load). */
static struct sweep *load_path(const char *path, const struct axis_arg *args, size_t nargs,
			       bool first_only, struct diag *d)
{
	/* "-" is standard input (a copy of the descriptor, closed like any). */
	int fd = strcmp(path, "-") == 0 ? fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0)
				       : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		diag_error(d, nopos, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	return load_fd(path, fd, args, nargs, first_only, d);
}

struct sweep *sweep_load(const char *path, const struct axis_arg *args, size_t nargs,
			 struct diag *d)
{
	return load_path(path, args, nargs, false, d);
}

struct gdef *gdef_load(const char *path, struct diag *d)
{
	return sweep_first(load_path(path, NULL, 0, true, d));
}

struct sweep *sweep_load_fd(const char *path, int fd, const struct axis_arg *args,
			    size_t nargs, struct diag *d)
{
	return load_fd(path, fd, args, nargs, false, d);
}

struct gdef *gdef_load_fd(const char *path, int fd, struct diag *d)
{
	return sweep_first(load_fd(path, fd, NULL, 0, true, d));
}
