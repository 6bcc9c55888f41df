/*
 * The loader's reading of one file (private to load*.c): the stream of
 * exactly one document holding one mapping, its top-level keys (each
 * section by its own room's handler), into one model; and, for a
 * template, its axes: alone before the points.
 */
#ifndef CGR_LOAD_FILE_H
#define CGR_LOAD_FILE_H

#include "load_state.h"

/*
 * One model from l's events (the file, or a template's point), named
 * name, or NULL when nothing usable was read; what the reading leaves in
 * l but the event source is forgotten (ld_model_free).
 */
struct gdef *load_model(struct ld *l, const char *name);
/* A template's axes: alone, into l->sw, before the points: every other key is passed by, unread. */
void read_axes(struct ld *l);

#endif
