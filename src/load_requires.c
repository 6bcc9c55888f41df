/*
 * requires: (load_requires.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_requires.h"

/* "9.0", "10.0", "12.1" or sm_90, sm_100: a compute capability into *major, *minor. */
static bool parse_cc(const char *s, unsigned *major, unsigned *minor)
{
	char *end;
	if (strncmp(s, "sm_", 3) == 0) {
		unsigned long v = strtoul(s + 3, &end, 10);
		if (end == s + 3 || *end != '\0' || v < 10 || v > 2559)
			return false;
		*major = (unsigned)(v / 10);
		*minor = (unsigned)(v % 10);
		return true;
	}
	unsigned long a = strtoul(s, &end, 10), b = 0;
	if (end == s || a == 0 || a > 255)
		return false;
	if (*end == '.') {
		const char *m = end + 1;
		b = strtoul(m, &end, 10);
		if (end != m + 1)
			return false;   /* one digit: 9.0, 12.1 */
	}
	if (*end != '\0')
		return false;
	*major = (unsigned)a;
	*minor = (unsigned)b;
	return true;
}

static void key_req_cc(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct requirements *r = obj;
	char *text;
	struct pos at;
	unsigned major, minor;
	if (!get_text(l, "a compute capability", kd->name, &text, &at))
		return;
	if (!parse_cc(text, &major, &minor)) {
		ld_error(l, at, "'%s' is no compute capability for '%s': write MAJOR.MINOR, as "
			 "9.0 or 12.1, or sm_90", text, kd->name);
		return;
	}
	r->has_cc = true;
	r->cc_major = (uint8_t)major;
	r->cc_minor = (uint8_t)minor;
	r->cc_pos = at;
}

/* "12.8", "13.0": a CUDA version, as cuDriverGetVersion counts it (12080). */
static void key_req_driver(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct requirements *r = obj;
	char *text;
	struct pos at;
	if (!get_text(l, "a CUDA version", kd->name, &text, &at))
		return;
	char *end;
	unsigned long major = strtoul(text, &end, 10), minor = 0;
	bool ok = end != text && major >= 1 && major < 1000;
	if (ok && *end == '.') {
		const char *m = end + 1;
		minor = strtoul(m, &end, 10);
		ok = end == m + 1;
	}
	if (!ok || *end != '\0') {
		ld_error(l, at, "'%s' is no CUDA version for '%s': write MAJOR.MINOR, as 12.8 or "
			 "13.0", text, kd->name);
		return;
	}
	r->has_driver = true;
	r->driver = (int)(major * 1000 + minor * 10);
	r->driver_pos = at;
}

static void req_lib(struct ld *l, struct requirements *r, const char *name)
{
	int i = get_choice(l, "a library", "library", name, req_lib_names, REQ_LIB_COUNT, NULL);
	if (i >= 0)
		r->libraries |= 1u << i;
}

/* libraries: a name, or a list of them. */
static void key_req_libraries(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct requirements *r = obj;
	r->libraries_pos = l->es.ev.pos;
	if (l->es.ev.type != EV_SEQ) {
		req_lib(l, r, kd->name);
		return;
	}
	ld_next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END)
		req_lib(l, r, kd->name);
	ld_next(l);
}

#define T struct requirements
static const struct keydef requires_keys[] = {
	KEY("compute_capability", key_req_cc),
	KEY("driver", key_req_driver),
	ROW_UINT("gpus", T, gpus, 1, GDEF_MAX_DEVICE + 1, POS(T, gpus_pos), HAS(T, has_gpus)),
	ROW_SIZE("memory", T, memory, UINT64_MAX, POS(T, memory_pos), HAS(T, has_memory)),
	KEY("libraries", key_req_libraries),
};
#undef T
static const struct keytab requires_tab = KEYTAB(requires_keys);

void key_requires(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct gdef *g = obj;
	g->requires.pos = kpos;
	parse_optional_map(l, &requires_tab, &g->requires, kd->name, "in 'requires'");
}
