/*
 * The loader: a YAML file of format 1 into a struct gdef, through libyaml's
 * event API (no document tree).  It reports shape errors only: YAML syntax,
 * unknown or duplicate keys, wrong scalar types, values out of range for
 * their field.  Meaning (names, cycles, sizes, driver rules) is the
 * validator's.  The loader is load.c (the scalars, the mappings, the
 * format's tables) and load_events.c (libyaml's events, anchors and
 * aliases, behind the private load_events.h); <yaml.h> is included by
 * those and nowhere else.
 */
#ifndef CGR_LOAD_H
#define CGR_LOAD_H

#include <stddef.h>

#include "diag.h"
#include "model.h"

struct load_limits {
	unsigned max_depth;             /* nesting of YAML collections */
	size_t max_alias_events;        /* events replayed through aliases, in all */
	size_t max_file_size;           /* bytes */
};

/* The defaults: depth 64, 1,000,000 alias events, 1 GiB. */
extern const struct load_limits load_default_limits;

/*
 * Load the file at path.  Errors go to d.  Returns the definition (the
 * caller frees it with gdef_free) or NULL when nothing usable was read
 * (unreadable file, YAML syntax error, limits exceeded).  A non-NULL result
 * may still carry errors: check d->nerrors before validating.
 */
struct gdef *gdef_load(const char *path, struct diag *d);

/*
 * The same from fd, open on the file that path names (messages call it
 * path; relative paths in it resolve from path's folder), which it
 * closes: for a caller that checked what it opened (suite.c).
 */
struct gdef *gdef_load_fd(const char *path, int fd, struct diag *d);

/* The same from memory; name is what messages call the file. */
struct gdef *gdef_load_string(const char *name, const char *text, size_t len,
			      const struct load_limits *limits, struct diag *d);

#endif
