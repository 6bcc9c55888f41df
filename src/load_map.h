/*
 * The loader's mapping engine (private to load*.c).  A kind of mapping is
 * a table of keys (struct keytab); parse_keys reads a mapping with one,
 * giving each key's value to its row, and reports unknown keys (with
 * "did you mean"), duplicates and, with require_keys and two_forms, the
 * keys that must or must not go together.  Merge keys (<<: *a, <<: [*a,
 * *b]) are kept aside until the mapping's own keys are read, then the
 * merged mappings' keys are replayed; a key already set takes precedence,
 * as YAML's merge rules say.  Sections keyed by the user's names
 * (parse_named) hold each name once.
 *
 * A row is a handler (key_fn), or, for a key that only stores one typed
 * value, a field row: where the value goes in the object, its type and
 * its range, and where its position and its "written" flag go (struct
 * field, made with the ROW_* macros).  A field row's value is read by
 * the scalar readers (load_scalar.h) with their messages, and stored only
 * when it is good; its flag says whether it was.
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

/* What a field row reads, and how it stores it. */
enum field_type {
	FIELD_UINT,             /* an integer in [min, max], unsigned, of size bytes (1, 4, 8) */
	FIELD_INT,              /* an integer in [min, max] into an int */
	FIELD_NUM,              /* a number as written: a struct num */
	FIELD_NONNEG,           /* a number 0 or more: a double */
	FIELD_SIZE,             /* bytes, with a unit or none, at most max: a uint64_t */
	FIELD_DURATION,         /* nanoseconds, with a unit or none: a uint64_t */
	FIELD_BOOL,
	FIELD_TEXT,             /* a char * in the model's arena; what: what it is ("a text") */
	FIELD_REF,              /* a struct name_ref; what: what names it ("a buffer name") */
	FIELD_CHOICE,           /* one of names[0..max): its index, of size bytes (1, 4) */
};

/* A field row: the value's place in the object, its type and its range. */
struct field {
	enum field_type type;
	unsigned short at;      /* the value's offset in the object */
	unsigned char size;     /* and its size */
	/* the offsets of its struct pos and of its bool "written", plus 1; 0 for none */
	unsigned short pos_at, has_at;
	int64_t min;
	uint64_t max;
	const char *what;       /* REF, CHOICE: what the value is ("an element type") */
	const char *noun;       /* CHOICE: what a wrong one is called ("element type") */
	const char *const *names;       /* CHOICE */
};

/* One key of a kind of mapping: its handler or its field reads the value into obj. */
struct keydef {
	const char *name;
	key_fn *fn;             /* key_field for a field row */
	int arg;                /* for shared handlers: a node kind, a type */
	const struct field *field;      /* a field row's */
};

/* Handler rows: KEY_ARG's arg tells a shared handler which key it reads. */
#define KEY(key, fn) {key, fn, 0, NULL}
#define KEY_ARG(key, fn, arg) {key, fn, arg, NULL}

/* The field row's handler: field kd->field of obj, or an error. */
void key_field(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos);

/*
 * Field rows, as table entries.  T is the object's type, f the member (a
 * path such as u.kernel.shared will do); POS and HAS name the members that
 * take the value's position and whether it was read, after the range:
 *
 *     ROW_UINT("count", struct buffer, count, 0, UINT64_MAX,
 *              POS(struct buffer, count_pos), HAS(struct buffer, has_count)),
 */
#define FIELD_ROW(key, ...) {key, key_field, 0, &(const struct field){__VA_ARGS__}}
#define FIELD_AT(T, f) .at = offsetof(T, f), .size = sizeof(((T *)0)->f)
#define POS(T, f) .pos_at = offsetof(T, f) + 1
#define HAS(T, f) .has_at = offsetof(T, f) + 1
#define ROW_UINT(key, T, f, lo, hi, ...) \
	FIELD_ROW(key, .type = FIELD_UINT, FIELD_AT(T, f), .min = lo, .max = hi, __VA_ARGS__)
#define ROW_INT(key, T, f, lo, hi, ...) \
	FIELD_ROW(key, .type = FIELD_INT, FIELD_AT(T, f), .min = lo, .max = hi, __VA_ARGS__)
#define ROW_SIZE(key, T, f, hi, ...) \
	FIELD_ROW(key, .type = FIELD_SIZE, FIELD_AT(T, f), .max = hi, __VA_ARGS__)
#define ROW_REF(key, T, f, what_) \
	FIELD_ROW(key, .type = FIELD_REF, FIELD_AT(T, f), .what = what_)
#define ROW_CHOICE(key, T, f, names_, n, what_, noun_, ...) \
	FIELD_ROW(key, .type = FIELD_CHOICE, FIELD_AT(T, f), .names = names_, .max = n, \
		  .what = what_, .noun = noun_, __VA_ARGS__)
/* FIELD_NUM, FIELD_NONNEG, FIELD_DURATION, FIELD_BOOL, FIELD_TEXT */
#define ROW(key, ftype, T, f, ...) FIELD_ROW(key, .type = ftype, FIELD_AT(T, f), __VA_ARGS__)

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
 * where, for messages ("in buffer 'x'").  Each key's row reads its value;
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
