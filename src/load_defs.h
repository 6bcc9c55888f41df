/*
 * The loader's definitions (private to load*.c): the top-level sections
 * that name the things nodes use, read into the model (model.h) by the
 * top-level table (load_file.c) -- modules (a file, or a source with its
 * compiler's keys), buffers (type, count or size, memory, init and its
 * forms, device), events and conditions (a default) -- each name once in
 * its section (load_map.h: parse_named).  A later point of a template
 * reads a buffer or a condition again alone (load_point.c).
 */
#ifndef CGR_LOAD_DEFS_H
#define CGR_LOAD_DEFS_H

#include <stddef.h>

#include "load_map.h"

/* The sections' handlers, for the top-level table: obj is the model. */
key_fn key_modules, key_buffers, key_events, key_conditions;

/* A buffer as its mapping finds it: the defaults. */
void buffer_start(struct buffer *b, char *name, struct pos kpos);
/* Buffer b's mapping, the current event (b is element index of the model's buffers). */
void parse_buffer(struct ld *l, struct buffer *b, size_t index);
/* Condition c's value, the current event (c is element index of the model's conditions). */
void parse_condition(struct ld *l, struct condition *c, size_t index);

#endif
