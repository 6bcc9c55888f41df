/*
 * The loader's mappings (load_map.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_map.h"
#include "strmap.h"
#include "xmalloc.h"

/* A merge key waiting for the end of its mapping. */
struct merge {
	long target;
	struct pos pos;
};

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

int find_key(const struct keytab *t, const char *key)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->keys[i].name[0] == key[0] && key_eq(t->keys[i].name, key))
			return (int)i;
	return -1;
}

/* Start reading the mapping at the current event (an EV_MAP), with keys of tab. */
void map_open(struct ld *l, struct mapiter *it, const struct keytab *tab)
{
	it->pos = l->es.ev.pos;
	it->tab = tab;
	it->level = 0;
	it->merges = NULL;
	it->nmerges = it->capmerges = it->done = 0;
	it->key = NULL;
	it->heap = NULL;
	ld_next(l);
}

static void add_merge(struct ld *l, struct mapiter *it)
{
	long t = l->es.ev.target;
	if (t < 0)
		return; /* reported with the alias */
	enum evtype first = ev_anchor_type(&l->es, t);
	if (first != EV_MAP) {
		ld_error(l, l->es.ev.pos, "merge key '<<' needs an alias of a mapping, but '*%.60s' is %s",
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
	ld_next_ev(l, false);
	if (l->es.ev.type == EV_ALIAS) {
		add_merge(l, it);
		ld_next(l);
	} else if (l->es.ev.type == EV_SEQ) {
		ld_next_ev(l, false);
		while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
			if (l->es.ev.type == EV_ALIAS) {
				add_merge(l, it);
				ld_next_ev(l, false);
			} else {
				char buf[96];
				ld_error(l, l->es.ev.pos, "expected an alias (*name) in the list of '<<', found %s",
					 ev_found(&l->es.ev, buf, sizeof buf));
				ld_skip_ex(l, false);
			}
		}
		ld_next(l);
	} else {
		ld_expected(l, what, "<<");
	}
}

/* Replay the next merged mapping's keys in place of the mapping's end. */
static void start_merge(struct ld *l, struct mapiter *it)
{
	const struct merge *m = &it->merges[it->done++];
	if (!ev_replay_keys(&l->es, m->target, m->pos))
		return;
	it->level++;
	ld_next(l);
}

/*
 * The next key of the mapping: true with it->key set and the value as
 * the current event; false once the mapping has ended (and been read).
 * A key of it->tab is looked up before the value is read, and named by
 * the table's own string: only the others are copied.
 */
bool map_key(struct ld *l, struct mapiter *it)
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
			ld_next(l);
			break;
		}
		if (!ld_is_scalar(l)) {
			if (!l->es.ev.bad) {
				char buf[96];
				ld_error(l, l->es.ev.pos, "expected a key (a name), found %s",
					 ev_found(&l->es.ev, buf, sizeof buf));
			}
			ld_skip(l);
			ld_skip(l);
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
		ld_next(l);
		return true;
	}
	if (it->merges) {
		free(it->merges);
		it->merges = NULL;
	}
	return false;
}

/* "a, b, c or d" into buf. */
void list_names(const char *const *names, size_t n, char *buf, size_t len)
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
		ld_error(l, kpos, "unknown key '%.60s' %s (it takes no keys)", key, ctx);
		return;
	}
	const char *s = suggest(l, t, key, names, t->n);
	if (s) {
		ld_error(l, kpos, "unknown key '%.60s' %s (did you mean '%.60s'?)", key, ctx, s);
		return;
	}
	char list[512];
	list_names(names, t->n, list, sizeof list);
	ld_error(l, kpos, "unknown key '%.60s' %s (expected %s)", key, ctx, list);
}

/*
 * A value that is one of names[0..n) (an element type, a memory kind, an
 * instantiate flag): its index, with *pos set; else -1 after an error that
 * suggests the closest name or lists them all.
 */
int get_choice(struct ld *l, const char *what, const char *noun, const char *name,
	       const char *const *names, size_t n, struct pos *pos)
{
	if (!ld_is_scalar(l) || ld_is_null(l)) {
		ld_expected(l, what, name);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (strcmp(l->es.ev.value, names[i]) == 0) {
			if (pos)
				*pos = l->es.ev.pos;
			ld_next(l);
			return (int)i;
		}
	const char *s = suggest(l, names, l->es.ev.value, names, n);
	if (s) {
		ld_error(l, l->es.ev.pos, "unknown %s '%.60s' (did you mean '%.60s'?)", noun, l->es.ev.value, s);
	} else {
		char list[256];
		list_names(names, n, list, sizeof list);
		ld_error(l, l->es.ev.pos, "unknown %s '%.60s' (expected %s)", noun, l->es.ev.value, list);
	}
	ld_skip(l);
	return -1;
}

/* Store v, an integer of size bytes, at p. */
static void store_uint(void *p, size_t size, uint64_t v)
{
	switch (size) {
	case 1: {
		uint8_t b = (uint8_t)v;
		memcpy(p, &b, 1);
		break;
	}
	case 4: {
		uint32_t w = (uint32_t)v;
		memcpy(p, &w, 4);
		break;
	}
	default:
		memcpy(p, &v, 8);
		break;
	}
}

/*
 * A field row's value into obj: read by its type's reader, stored where
 * the row says when it is good, with its position; its flag says whether
 * it was.  (Each reader checks its own range and says what was wrong.)
 */
void key_field(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	const struct field *f = kd->field;
	char *p = (char *)obj + f->at;
	struct pos pos = l->es.ev.pos;
	bool ok = false;
	switch (f->type) {
	case FIELD_UINT: {
		uint64_t v;
		if ((ok = get_u64(l, kd->name, (uint64_t)f->min, f->max, &v, NULL)))
			store_uint(p, f->size, v);
		break;
	}
	case FIELD_INT: {
		int64_t v;
		if ((ok = get_i64(l, kd->name, f->min, (int64_t)f->max, &v, NULL))) {
			int i = (int)v;
			memcpy(p, &i, sizeof i);
		}
		break;
	}
	case FIELD_NUM:
		ok = get_num(l, kd->name, (struct num *)p);
		break;
	case FIELD_NONNEG:
		ok = get_nonneg(l, kd->name, (double *)p, &pos);
		break;
	case FIELD_SIZE:
		ok = get_size(l, kd->name, f->max, (uint64_t *)p, NULL);
		break;
	case FIELD_DURATION:
		ok = get_duration(l, kd->name, (uint64_t *)p, NULL);
		break;
	case FIELD_BOOL:
		ok = get_bool(l, kd->name, (bool *)p);
		break;
	case FIELD_TEXT:
		ok = get_text(l, f->what, kd->name, (char **)p, NULL);
		break;
	case FIELD_REF:
		ok = get_ref(l, f->what, kd->name, (struct name_ref *)p);
		break;
	case FIELD_CHOICE: {
		int i = get_choice(l, f->what, f->noun, kd->name, f->names, f->max, NULL);
		if ((ok = i >= 0))
			store_uint(p, f->size, (uint64_t)i);
		break;
	}
	}
	if (ok && f->pos_at)
		memcpy((char *)obj + f->pos_at - 1, &pos, sizeof pos);
	if (f->has_at)
		memcpy((char *)obj + f->has_at - 1, &ok, sizeof ok);
}

/*
 * Read the mapping at the current event with table t into obj; ctx says
 * where, for messages ("in buffer 'x'").  Each key's handler reads its
 * value; unknown and duplicate keys are reported and skipped.
 */
void parse_keys(struct ld *l, const struct keytab *t, void *obj,
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
			ld_skip(l);
			continue;
		}
		if (i < 0) {
			unknown_key(l, t, it.key, it.kpos, ctx);
			s->unknown++;
			ld_skip(l);
			continue;
		}
		uint32_t bit = 1u << i;
		if (s->mask & bit) {
			/* A key written in the mapping beats a merged one. */
			if (level[i] == it.level)
				ld_error(l, it.kpos, "duplicate key '%.60s' %s (first at %u:%u)",
					 it.key, ctx, s->at[i].line, s->at[i].col);
			ld_skip(l);
			continue;
		}
		s->mask |= bit;
		s->at[i] = it.kpos;
		level[i] = it.level;
		t->keys[i].fn(l, obj, &t->keys[i], it.kpos);
	}
}

/* Report the keys of mask missing from s, at the mapping. */
void require_keys(struct ld *l, const struct keytab *t, const struct seen *s,
		  uint32_t mask, const char *ctx)
{
	/* After an unknown key (a typo of the missing one?) it would be noise. */
	if (s->unknown > 0 || (s->mask & mask) == mask)
		return;
	for (size_t i = 0; i < t->n; i++)
		if ((mask & (1u << i)) && !(s->mask & (1u << i)))
			ld_error(l, s->pos, "missing key '%.60s' %s", t->keys[i].name, ctx);
}

/* Is the current event a mapping?  Else an error for NAME and skip. */
bool want_map(struct ld *l, const char *what, const char *name)
{
	if (l->es.ev.type == EV_MAP)
		return true;
	ld_expected(l, what, name);
	return false;
}

bool want_seq(struct ld *l, const char *what, const char *name)
{
	if (l->es.ev.type == EV_SEQ)
		return true;
	ld_expected(l, what, name);
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
		ld_error(l, it->kpos, "duplicate %s '%.60s' (first at %u:%u)", what, it->key,
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

/*
 * A section mapping the user's names to things (modules, buffers,
 * conditions): null for none, else a mapping, what it is called in a
 * message.  Each name must be new in the section (nm): one given again is
 * reported as a duplicate noun, unless a merge key brought it (the
 * mapping's own key wins), and its value skipped.
 */
bool parse_named(struct ld *l, const struct keydef *kd, const char *what,
		 struct names *nm, const char *noun, add_named_fn *add)
{
	if (ld_is_null(l)) {
		ld_next(l);
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
			ld_skip(l);
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

/* {} or null: all defaults; else a mapping read with t. */
void parse_optional_map(struct ld *l, const struct keytab *t, void *obj,
			const char *name, const char *ctx)
{
	struct seen s;
	if (ld_is_null(l))
		ld_next(l);
	else if (want_map(l, "a mapping", name))
		parse_keys(l, t, obj, ctx, &s);
}

/* A list of numbers into *list (for init and expect). */
void parse_num_list(struct ld *l, const char *name, struct num **list,
		    size_t *n, size_t *cap)
{
	ld_next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		struct num v;
		if (get_num(l, name, &v))
			*VEC_PUSH(*list, *n, *cap) = v;
	}
	ld_next(l);
}

static bool pos_before(struct pos a, struct pos b)
{
	return a.line < b.line || (a.line == b.line && a.col < b.col);
}

/* More than one key of a one-of mapping (init, host, kernel argument). */
void two_forms(struct ld *l, const struct keytab *t,
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
			ld_error(l, s->at[i], "%s takes one %s, found '%.60s' (at %u:%u) and '%.60s'",
				 what, noun, t->keys[first].name, s->at[first].line,
				 s->at[first].col, t->keys[i].name);
}
