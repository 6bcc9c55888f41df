/*
 * The loader's part of a sweep (sweep.h): its points' models validated,
 * a derived model (model_derive.h) that cannot be checked alone read
 * again in full with the template's loader (load.h: sweep_reload).  Here
 * and not in sweep.c, so that the sweep's axes, points and models know
 * nothing of the loader that fills them: this room sits above both.
 *
 * Ownership: sweep_validate replaces a model it reads again in sw->models
 * (the derived one is freed with derive_free); the module cache it makes
 * for the points is its own and freed before it returns.
 */
#ifndef CGR_LOAD_SWEEP_H
#define CGR_LOAD_SWEEP_H

#include <stdbool.h>

#include "diag.h"
#include "mod_check.h"
#include "sweep.h"

/*
 * Validate every point's model (validate.h, its kernels against their
 * modules as ms says, each module file listed once for all the points:
 * mod_cache.h), each error of a point but the first labelled with the
 * point; true when all are valid.  A derived model whose base was valid
 * without a warning is checked in what it changed (gdef_validate_derived);
 * one that cannot be settled so is read in full again (sweep_reload) and
 * validated as any other, so that every point says what it would alone.
 */
bool sweep_validate(struct sweep *sw, struct diag *d, const struct mod_settings *ms);

#endif
