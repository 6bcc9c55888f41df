/*
 * Shapes and regions in the loader (load_region.h).
 */
#include "config.h"

#include <string.h>

#include "load_region.h"
#include "xmalloc.h"

/* A list of 1 to 3 integers of at least min (what: "indices", "extents"). */
static void get_axes(struct ld *l, const char *name, uint64_t min, const char *what,
		     struct axes *out)
{
	memset(out, 0, sizeof *out);
	out->pos = l->es.ev.pos;
	if (l->es.ev.type != EV_SEQ) {
		char want[96];
		snprintf(want, sizeof want, "a list of 1 to 3 %s (slowest axis first)", what);
		ld_expected(l, want, name);
		return;
	}
	size_t n = 0;
	bool ok = true;
	ld_next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		uint64_t v;
		if (n >= 3)
			ld_skip(l);
		else if (get_u64(l, name, min, UINT64_MAX, &v, NULL))
			out->v[n] = v;
		else
			ok = false;
		n++;
	}
	ld_next(l);
	if (ok && (n == 0 || n > 3)) {
		ld_error(l, out->pos, "expected 1 to 3 %s for '%.60s' (one per axis, slowest first), "
			 "found %zu", what, name, n);
		return;
	}
	if (ok)
		out->n = (uint8_t)n;
}

void key_buffer_shape(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct buffer *b = obj;
	struct axes a;
	get_axes(l, kd->name, 1, "extents", &a);
	b->shape.pos = a.pos.line ? a.pos : kpos;
	if (a.n == 0)
		return;
	b->shape.rank = a.n;
	memcpy(b->shape.dim, a.v, sizeof a.v);
}

void key_buffer_pitch(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct buffer_shape *s = &((struct buffer *)obj)->shape;
	s->pitch_pos = l->es.ev.pos;
	if (ld_is_scalar(l) && !l->es.ev.quoted && strcmp(l->es.ev.value, "auto") == 0) {
		s->has_pitch = s->pitch_auto = true;
		ld_next(l);
		return;
	}
	uint64_t v;
	if (l->es.ev.type == EV_MAP || l->es.ev.type == EV_SEQ || ld_is_null(l) ||
	    (ld_is_scalar(l) && parse_size(l->es.ev.value, &v) == SCALAR_SYNTAX)) {
		ld_expected(l, "a size in bytes (512, \"4 KiB\") or auto", kd->name);
		return;
	}
	if (get_size(l, kd->name, UINT64_MAX, &s->pitch, &s->pitch_pos))
		s->has_pitch = true;
}

static struct region *region_of(struct ld *l, struct region **r)
{
	if (*r == NULL)
		*r = arena_alloc(&l->g->arena, sizeof **r);
	return *r;
}

void read_offset(struct ld *l, const char *name, struct region **r, unsigned end,
		 uint64_t *flat, struct pos *flat_pos)
{
	if (l->es.ev.type == EV_SEQ) {
		struct axes a;
		get_axes(l, name, 0, "indices", &a);
		if (a.n)
			region_of(l, r)->at[end] = a;
		return;
	}
	get_u64(l, name, 0, UINT64_MAX, flat, flat_pos);
}

void read_region_shape(struct ld *l, const char *name, struct region **r)
{
	struct axes a;
	get_axes(l, name, 1, "extents", &a);
	if (a.n)
		region_of(l, r)->shape = a;
}

void region_forms(struct ld *l, const struct region *r, bool flat_offset, struct pos offset_pos,
		  bool has_count, struct pos count_pos, bool packed_ok, const char *ctx)
{
	if (r == NULL)
		return;
	if (has_count)
		ld_error(l, count_pos, "'count' %s goes with a flat offset: a region's size is its "
			 "'shape', one extent per axis ([rows, columns])", ctx);
	if (flat_offset && !packed_ok && r->shape.n)
		ld_error(l, offset_pos, "'offset' %s is one index per axis of the buffer beside "
			 "'shape': write it as a list ([row, column])", ctx);
}
