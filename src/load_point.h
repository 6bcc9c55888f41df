/*
 * The loader's reading of a template's points (private to load*.c): the
 * events recorded once, the axes read, the command line's applied, the
 * points enumerated, then one model per point (load_events.h: TEMPLATES).
 *
 * POINTS.  Reading a point in full replays every event of the file
 * through the handlers and builds a whole model, which a sweep then
 * validates whole: for a 100-node graph whose points change one grid,
 * some 40 us a point, where the GPU updates the node in a microsecond.  So while a point is
 * read in full (the base), the objects whose values a later point may
 * change alone are recorded with their stretches of the raw log (the
 * kind mappings of kernel, memset, copy and host nodes, buffers,
 * conditions, checks, run:, throughput:, name and description:
 * ld_obj_open), and so is every scalar that read an axis, with its text
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
 * an error sends the point to the full reading, which says it.  (What
 * the GPU updates between two points is worked out again, from the
 * validated models: sweep_diff.h says why both are needed.)
 */
#ifndef CGR_LOAD_POINT_H
#define CGR_LOAD_POINT_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "load_limits.h"
#include "sweep.h"

/*
 * The sweep of the template text[0..len), named name (load.h:
 * sweep_load_string), or with first_only its first point's model alone;
 * NULL when nothing usable was read.
 */
struct sweep *load_template(const char *name, const char *text, size_t len,
			    const struct load_limits *lim, const struct axis_arg *args,
			    size_t nargs, bool first_only, struct diag *d);
/* Point k of sw read in full again, errors to d (load.h: sweep_reload). */
struct gdef *point_reread(struct sweep *sw, size_t k, struct diag *d);
/*
 * Free a sweep with the loader of its template (sw->src, kept while it
 * has derived models), then the rest (load.h: sweep_release).
 */
void template_sweep_free(struct sweep *sw);

#endif
