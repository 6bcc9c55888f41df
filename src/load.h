/*
 * The loader: a YAML file of format 1 into a struct gdef, through libyaml's
 * event API (no document tree).  It reports shape errors only: YAML syntax,
 * unknown or duplicate keys, wrong scalar types, values out of range for
 * their field.  Meaning (names, cycles, sizes, driver rules) is the
 * validator's.  The loader is load.c (these entry points) over its
 * private layers (load_state.h lists them: the scalars, the mappings, the
 * format's sections, a file, a template's points) and load_events.c
 * (libyaml's events, anchors and aliases, behind the private
 * load_events.h); <yaml.h> is included by those and, for reading JSON
 * reports back (--compare, a suite's per-point JUnit), by compare_read.c;
 * nowhere else.  Above the loader,
 * load_sweep.h validates a sweep's points, reading one again in full
 * with sweep_reload where needed.
 */
#ifndef CGR_LOAD_H
#define CGR_LOAD_H

#include <stddef.h>

#include "diag.h"
#include "load_limits.h"
#include "model.h"

struct sweep;
struct axis_arg;

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

/*
 * Load the file at path as a sweep (sweep.h): its axes (the file's axes:
 * with args, the command line's -a and --set, over them), its points,
 * and one model per point in sw->models, NULL where a point could not be
 * read.  A file that is no template (no ${...}, axes: or generator) is
 * read as gdef_load reads it, into a sweep of one point and no axes.
 * Errors of the first point are said as a plain file's, the others'
 * labelled with their point.  NULL when nothing usable was read (as
 * gdef_load, and when the first point could not be read at all).  As
 * gdef_load, a result may carry errors: check d->nerrors.  Of a template
 * gdef_load and gdef_load_string read the first point's model alone.
 */
struct sweep *sweep_load(const char *path, const struct axis_arg *args, size_t nargs,
			 struct diag *d);
/* The same from fd, open on path, which it closes (as gdef_load_fd). */
struct sweep *sweep_load_fd(const char *path, int fd, const struct axis_arg *args,
			    size_t nargs, struct diag *d);
struct sweep *sweep_load_string(const char *name, const char *text, size_t len,
				const struct load_limits *limits, const struct axis_arg *args,
				size_t nargs, struct diag *d);
/* The first point's model, taken out of sw, which is released (NULL: NULL). */
struct gdef *sweep_first(struct sweep *sw);

/*
 * Free a sweep that the loader made, with the loader's state that it
 * keeps for sweep_reload (sw->src), then the rest (sweep_free).  Every
 * sweep from sweep_load* is freed with this, not sweep_free.  NULL: nothing.
 */
void sweep_release(struct sweep *sw);

/*
 * Point k of sw read in full again, as sweep_load reads a point that it
 * does not derive from an earlier one, errors to d: for a point whose
 * derived model (model_derive.h) the validator could not settle alone
 * (load_sweep.h: sweep_validate).  Only while sw->src is kept (sw has
 * derived models).
 */
struct gdef *sweep_reload(struct sweep *sw, size_t k, struct diag *d);

#endif
