/*
 * The validator's rules for what CUDA 12 and 13 added to graphs: typed
 * edges (edge data), kernel launch attributes, switched-off nodes, and
 * conditions that no kernel can change.  They read the model as the main
 * passes of validate.c leave it (names resolved, dependencies linked,
 * every node in gdef.all_nodes) and skip what an earlier error left
 * unresolved.  gdef_validate calls validate_driver; main.c calls
 * gdef_disable for --disable (through validate.h, which includes this).
 *
 * Ownership: nothing is kept; what is filled in (gdef.kattrs_of,
 * typed_edge.from_local and to_local, node.disabled) lives in the gdef.
 */
#ifndef CGR_VALIDATE_DRIVER_H
#define CGR_VALIDATE_DRIVER_H

#include "diag.h"
#include "model.h"

/* valid: no error was found in g so far (d may count those of other files). */
void validate_driver(struct gdef *g, struct diag *d, bool valid);

/*
 * Of validate_driver's rules, those on conditions that keep their
 * defaults (errors and warnings): all that depends on a condition's
 * default value, for a model derived from a valid one (model_derive.h).
 */
void validate_driver_fixed(struct gdef *g, struct diag *d);

/*
 * --disable=ID,...: switch off the nodes of a validated g with these ids
 * (node.disabled), as 'enabled: false' would.  An unknown id, or a node
 * the driver cannot switch off, is an error naming it; so is a WHILE
 * that can then never end.  True when every id was switched off.
 */
bool gdef_disable(struct gdef *g, const char *const *ids, size_t n, struct diag *d);

#endif
