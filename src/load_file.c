/*
 * One file's document and its top level (load_file.h).
 */
#include "config.h"

#include <string.h>

#include "load_axes.h"
#include "load_checks.h"
#include "load_requires.h"
#include "load_defs.h"
#include "load_file.h"
#include "load_graph.h"
#include "xmalloc.h"

static void key_version(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct gdef *g = obj;
	struct num n;
	if (!plain_scalar(l, "the format version 1", kd->name))
		return;
	if (parse_int(l->es.ev.value, &n) == SCALAR_SYNTAX) {
		ld_expected(l, "the format version 1", kd->name);
		return;
	}
	if (n.kind != NUM_UINT || n.u != GDEF_FORMAT_VERSION) {
		ld_fatal(l, l->es.ev.pos, "format version %.60s is not supported; this build reads format %d",
			 l->es.ev.value, GDEF_FORMAT_VERSION);
		return;
	}
	g->version = GDEF_FORMAT_VERSION;
	ld_next(l);
}

static void key_name(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	long o = ld_obj_open(l, CTX_NAME, NULL, 0, kd, kpos);
	get_text(l, "a text", kd->name, &((struct gdef *)obj)->name, NULL);
	ld_obj_close(l, o);
}

static void key_description(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	long o = ld_obj_open(l, CTX_DESCRIPTION, NULL, 0, kd, kpos);
	get_text(l, "a text", kd->name, &((struct gdef *)obj)->description, NULL);
	ld_obj_close(l, o);
}

static void key_nodes(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	parse_graph(l, ((struct gdef *)obj)->root, kd->name);
}

static void key_edges(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	parse_edges(l, ((struct gdef *)obj)->root, kd->name);
}

/*
 * axes: a plain load stops here (the file is a template); a template
 * reads its axes before its points, and its points pass them by.
 */
static void key_axes(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	if (l->sw == NULL)
		ev_want_template(&l->es);
	else if (l->axes_pass)
		load_axes(&l->es, l->sw);
	else
		ld_skip(l);
}

static const struct keydef top_keys[] = {
	KEY("cugraphrun", key_version),
	KEY("name", key_name),
	KEY("description", key_description),
	KEY("modules", key_modules),
	KEY("buffers", key_buffers),
	KEY("events", key_events),
	KEY("conditions", key_conditions),
	KEY("nodes", key_nodes),
	KEY("edges", key_edges),
	KEY("checks", key_checks),
	KEY("run", key_run),
	KEY("axes", key_axes),
	KEY("throughput", key_throughput),
	KEY("requires", key_requires),
};
static const struct keytab top_tab = KEYTAB(top_keys);

/* The stream: exactly one document holding one mapping. */
static bool parse_stream(struct ld *l)
{
	ld_next(l);                        /* stream start */
	ld_next(l);
	if (l->es.fatal)
		return false;
	if (l->es.ev.type == EV_STREAM_END) {
		ld_error(l, (struct pos){1, 1}, "the file is empty (expected a mapping that starts with 'cugraphrun: 1')");
		return false;
	}
	ld_next(l);                        /* the document's value */
	if (l->es.fatal)
		return false;
	if (l->es.ev.type != EV_MAP) {
		char buf[96];
		ld_error(l, l->es.ev.pos, "expected a mapping with 'cugraphrun: 1' at the top level, found %s",
			 ev_found(&l->es.ev, buf, sizeof buf));
		return false;
	}
	struct seen s;
	parse_keys(l, &top_tab, l->g, "at the top level", &s);
	if (l->es.fatal)
		return false;
	if (!(s.mask & 1))
		ld_error(l, s.pos, "missing 'cugraphrun: 1' (the format version) at the top level");
	ld_next(l);                        /* past the document's end */
	if (l->es.ev.type == EV_DOC_START)
		ld_error(l, l->es.ev.pos, "a second YAML document (a cugraphrun file holds one; remove the '---' and what follows)");
	return !l->es.fatal;
}

struct gdef *load_model(struct ld *l, const char *name)
{
	l->g = gdef_new(name);
	struct module *builtin = VEC_PUSH(l->g->modules, l->g->nmodules, l->g->capmodules);
	builtin->name = gdef_strdup(l->g, "builtin");
	builtin->builtin = true;
	size_t errors = l->es.nerrs;
	bool ok = parse_stream(l);
	if (ok)
		assign_ids(l);
	struct gdef *g = l->g;
	g->load_errors = l->es.nerrs - errors;
	ld_model_free(l);
	if (!ok) {
		gdef_free(g);
		return NULL;
	}
	return g;
}

void read_axes(struct ld *l)
{
	ld_next(l);                        /* stream start */
	ld_next(l);
	if (l->es.fatal || l->es.ev.type != EV_DOC_START)
		return;
	ld_next(l);
	if (l->es.ev.type != EV_MAP)
		return;
	struct mapiter it;
	bool seen = false;
	map_open(l, &it, &top_tab);
	while (map_key(l, &it)) {
		if (!seen && it.index >= 0 && strcmp(it.key, "axes") == 0) {
			seen = true;
			load_axes(&l->es, l->sw);
		} else {
			ld_skip(l);
		}
	}
}

