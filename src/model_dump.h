/*
 * A model as text: every field of a struct gdef that the loader or the
 * validator fills in, one per line, in a fixed order, with positions,
 * strings written out, numbers exactly (floats by their bits too) and
 * what points at other parts of the model (a node's graph, a dependency,
 * a launch attribute's node) by index or id rather than by address.  Two
 * models that the GPU back end cannot tell apart dump alike, and any
 * field that differs shows: the tests compare a sweep's derived models
 * (model_derive.h) with the models a full reading gives.  Not a format
 * anyone reads back.
 */
#ifndef CGR_MODEL_DUMP_H
#define CGR_MODEL_DUMP_H

#include <stdio.h>

#include "model.h"

void gdef_dump(const struct gdef *g, FILE *out);

#endif
