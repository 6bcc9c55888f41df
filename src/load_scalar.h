/*
 * The loader's scalars (private to load*.c): the current event read as
 * the format reads a value (an integer in a range, a number as written,
 * a size or a duration with its unit, true or false, a text, a reference
 * by name), stored and passed by, or reported ("expected WHAT for 'KEY',
 * found ...") and skipped.  Each get_* takes the key's name for its
 * messages, returns false after an error, and sets *pos (where given) to
 * the value's position only when it read the value.
 */
#ifndef CGR_LOAD_SCALAR_H
#define CGR_LOAD_SCALAR_H

#include <stdbool.h>
#include <stdint.h>

#include "load_state.h"
#include "scalar.h"

/*
 * YAML's null spellings are "", "~", null, Null and NULL: two bytes rule
 * out the rest before the strcmps, for names such as n12 (ids in a chain
 * go by twice, as an id and in an after) as well as for numbers.
 */
static inline bool null_text(const char *s)
{
	return (*s == '\0' || *s == '~' ||
		((*s == 'n' || *s == 'N') && (s[1] == 'u' || s[1] == 'U'))) &&
	       is_null_scalar(s);
}

static inline bool ld_is_null(const struct ld *l)
{
	return l->es.ev.type == EV_SCALAR && !l->es.ev.quoted && !l->es.ev.bad &&
	       null_text(l->es.ev.value);
}

/* A scalar, and not one standing in for an error already given. */
static inline bool ld_is_scalar(const struct ld *l)
{
	return l->es.ev.type == EV_SCALAR && !l->es.ev.bad;
}

/* "expected WHAT for 'NAME', found ...", then skip the value. */
void ld_expected(struct ld *l, const char *what, const char *name) __attribute__((cold));
/* plain_scalar's error: the hint when quotes hide a number, else ld_expected. */
void ld_not_plain(struct ld *l, const char *what, const char *name) __attribute__((cold));

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
	ld_not_plain(l, what, name);
	return false;
}

/* An integer in [min, max]. */
bool get_u64(struct ld *l, const char *name, uint64_t min, uint64_t max, uint64_t *out,
	     struct pos *pos);
bool get_i64(struct ld *l, const char *name, int64_t min, int64_t max, int64_t *out,
	     struct pos *pos);
/* A number as written (integer or float); its range is checked later. */
bool get_num(struct ld *l, const char *name, struct num *out);
/* A non-negative number, for tolerances; messages echo what was written. */
bool get_nonneg(struct ld *l, const char *name, double *out, struct pos *pos);
/* Sizes and durations may be quoted: "64 KiB" reads better with a unit. */
bool get_size(struct ld *l, const char *name, uint64_t max, uint64_t *out, struct pos *pos);
bool get_duration(struct ld *l, const char *name, uint64_t *ns, struct pos *pos);
bool get_bool(struct ld *l, const char *name, bool *out);
/* Any non-null scalar as text (plain numbers too: "name: 42"), in the model's arena. */
bool get_text(struct ld *l, const char *what, const char *name, char **out, struct pos *pos);
/*
 * A formula's text (init: {formula: ...}, expect: {formula: ...}), its
 * position, and whether its columns are the file's (buf_formula.h).
 */
bool get_formula(struct ld *l, const char *name, struct formula *f);
/*
 * A reference by name.  Large graphs name the same buffer from node after
 * node: a name like the last one shares its string (the model's strings
 * are never written to nor freed alone), which saves the copy, and lets
 * the validator, which knows a name it has seen by its pointer, look it up
 * once.
 */
bool get_ref(struct ld *l, const char *what, const char *name, struct name_ref *r);

#endif
