/*
 * The loader's mapping engine (private to load*.c).  A kind of mapping is
 * a table of keys (struct keytab); parse_keys reads a mapping with one,
 * giving each key's value to its handler, and reports unknown keys (with
 * "did you mean"), duplicates and, with require_keys and two_forms, the
 * keys that must or must not go together.  Merge keys (<<: *a, <<: [*a,
 * *b]) are kept aside until the mapping's own keys are read, then the
 * merged mappings' keys are replayed; a key already set takes precedence,
 * as YAML's merge rules say.  Sections keyed by the user's names
 * (parse_named) hold each name once.
 */
#ifndef CGR_LOAD_MAP_H
#define CGR_LOAD_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "load_scalar.h"
#include "load_state.h"

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

/* The index of key in t, or -1. */
int find_key(const struct keytab *t, const char *key);

/* What a table-driven mapping held. */
struct seen {
	uint32_t mask;          /* bit i: key i of the table */
	unsigned unknown;       /* unknown keys reported */
	struct pos pos;         /* the mapping */
	struct pos at[MAXKEYS]; /* where key i was */
};

/*
 * Read the mapping at the current event with table t into obj; ctx says
 * where, for messages ("in buffer 'x'").  Each key's handler reads its value;
 * unknown and duplicate keys are reported and skipped.
 */
void parse_keys(struct ld *l, const struct keytab *t, void *obj, const char *ctx,
		struct seen *s);
/* Report the keys of mask missing from s, at the mapping. */
void require_keys(struct ld *l, const struct keytab *t, const struct seen *s, uint32_t mask,
		  const char *ctx);
/* More than one key of forms, a one-of mapping's (init, host, kernel argument). */
void two_forms(struct ld *l, const struct keytab *t, const struct seen *s, uint32_t forms,
	       const char *what, const char *noun) __attribute__((cold));
/* {} or null: all defaults; else a mapping read with t. */
void parse_optional_map(struct ld *l, const struct keytab *t, void *obj, const char *name,
			const char *ctx);

/* Is the current event a mapping (a list)?  Else an error for NAME and skip. */
bool want_map(struct ld *l, const char *what, const char *name);
bool want_seq(struct ld *l, const char *what, const char *name);

/* A mapping read key by key, for keys that are names of the user's (tab NULL). */
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
void map_open(struct ld *l, struct mapiter *it, const struct keytab *tab);
/*
 * The next key of the mapping: true with it->key set and the value as
 * the current event; false once the mapping has ended (and been read).
 */
bool map_key(struct ld *l, struct mapiter *it);

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
 * mapping's own key wins), and its value skipped.  True when a name may
 * have been lost (an error outside the things' own values).
 */
bool parse_named(struct ld *l, const struct keydef *kd, const char *what, struct names *nm,
		 const char *noun, add_named_fn *add);

/*
 * A value that is one of names[0..n) (an element type, a memory kind, an
 * instantiate flag): its index, with *pos set; else -1 after an error that
 * suggests the closest name or lists them all.
 */
int get_choice(struct ld *l, const char *what, const char *noun, const char *name,
	       const char *const *names, size_t n, struct pos *pos);
/* A list of numbers into *list (for init and expect); the current event is the list. */
void parse_num_list(struct ld *l, const char *name, struct num **list, size_t *n, size_t *cap);
/* "a, b, c or d" into buf. */
void list_names(const char *const *names, size_t n, char *buf, size_t len);

#endif
