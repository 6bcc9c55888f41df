/*
 * The validator: every rule of format 1 that can be checked without a GPU,
 * over a loaded definition, each error with its position and all of them
 * reported (diag caps the printing).  On success it fills the model's
 * resolved fields (name indices, sizes, dependency lists, topological
 * order) that the back ends rely on.
 */
#ifndef CGR_VALIDATE_H
#define CGR_VALIDATE_H

#include <stdbool.h>

#include "diag.h"
#include "mod_check.h"
#include "model.h"
/* gdef_disable (--disable) is validate_driver.h's, declared there for its callers here */
#include "validate_driver.h"

/*
 * True when g is valid; errors go to d.  Kernel nodes are checked against
 * their modules (mod_check.h) as ms says; ms NULL: not at all (a suite's
 * look at a file's run: section).
 */
bool gdef_validate_with(struct gdef *g, struct diag *d, const struct mod_settings *ms);
/* The same as a run validates: modules read, checked for any device, none compiled. */
bool gdef_validate(struct gdef *g, struct diag *d);

/*
 * A derived model (model_derive.h) whose base was validated without an
 * error or a warning: its copies take the base's results
 * (derive_refresh) and its dirty objects are checked again by the rules
 * that read their values.  True when g is then valid, as
 * gdef_validate_with would find it, without a warning; false when that
 * cannot be said so (something is wrong at this point): then nothing is
 * reported, and the point must be read in full and validated whole.
 * Quiet either way.
 */
bool gdef_validate_derived(struct gdef *g, struct diag *d);

#endif
