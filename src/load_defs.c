/*
 * Modules, buffers, events and conditions (load_defs.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "load_defs.h"
#include "load_region.h"
#include "xmalloc.h"

/* ---------------------------------------------------------------------
 * Modules
 */

static void key_module_file(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct module *m = obj;
	if (m->file) {
		ld_error(l, kpos, "module '%.60s' has 'file' and 'source': give one", m->name);
		ld_skip(l);
		return;
	}
	get_text(l, "a file name", kd->name, &m->file, &m->file_pos);
	/* source: makes a source whatever the file's name */
	if (kd->arg)
		m->source = true;
}

/* A list of texts, or one text alone; each goes to push(obj, text, pos). */
static void get_texts(struct ld *l, const char *what, const char *name, void *obj,
		      void (*push)(struct ld *, void *, char *, struct pos))
{
	char *text;
	struct pos pos;
	if (l->es.ev.type != EV_SEQ) {
		if (get_text(l, what, name, &text, &pos))
			push(l, obj, text, pos);
		return;
	}
	ld_next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END)
		if (get_text(l, what, name, &text, &pos))
			push(l, obj, text, pos);
	ld_next(l);
}

static void push_option(struct ld *l, void *obj, char *text, struct pos pos)
{
	struct module *m = obj;
	struct module_option *o = VEC_PUSH(m->options, m->noptions, m->capoptions);
	o->text = text;
	o->pos = pos;
}

static void push_include(struct ld *l, void *obj, char *text, struct pos pos)
{
	struct module *m = obj;
	struct module_include *in = VEC_PUSH(m->includes, m->nincludes, m->capincludes);
	in->dir = text;
	in->pos = pos;
	in->path = gdef_resolve_path(l->g, text);
}

static void key_module_options(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct module *m = obj;
	m->options_pos = kpos;
	get_texts(l, "a list of compiler options", kd->name, m, push_option);
}

static void key_module_include(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct module *m = obj;
	m->includes_pos = kpos;
	get_texts(l, "a list of include directories", kd->name, m, push_include);
}

/* defines: {NAME: value, FLAG: null} -> -DNAME=value, -DFLAG */
static void key_module_defines(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct module *m = obj;
	m->defines_pos = kpos;
	if (!want_map(l, "a mapping of macro names to values", kd->name))
		return;
	struct mapiter it;
	map_open(l, &it, NULL);
	while (map_key(l, &it)) {
		struct module_define *d;
		for (size_t i = 0; i < m->ndefines; i++)
			if (strcmp(m->defines[i].name, it.key) == 0) {
				ld_error(l, it.kpos, "duplicate define '%.60s' in module '%.60s' (first at %u:%u)",
					 it.key, m->name, m->defines[i].pos.line, m->defines[i].pos.col);
				ld_skip(l);
				goto next_key;
			}
		d = VEC_PUSH(m->defines, m->ndefines, m->capdefines);
		d->name = gdef_strdup(l->g, it.key);
		d->pos = it.kpos;
		if (ld_is_null(l))
			ld_next(l);
		else if (!ld_is_scalar(l))
			ld_expected(l, "a value (a number or a text) or nothing", it.key);
		else
			get_text(l, "a value", it.key, &d->value, NULL);
next_key:;
	}
}

static const char *const std_names[] = {"c++03", "c++11", "c++14", "c++17", "c++20"};

static void key_module_std(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct module *m = obj;
	struct pos pos;
	int i = get_choice(l, "a C++ standard", "C++ standard", kd->name, std_names,
			   sizeof std_names / sizeof *std_names, &pos);
	m->std_pos = kpos;
	if (i >= 0)
		m->std = (char *)std_names[i];
}

static const struct keydef module_keys[] = {
	KEY("file", key_module_file),
	KEY_ARG("source", key_module_file, 1),
	KEY("options", key_module_options),
	KEY("defines", key_module_defines),
	KEY("include", key_module_include),
	KEY("std", key_module_std),
};
static const struct keytab module_tab = KEYTAB(module_keys);

/* A source is compiled at run time: a .cu file, or one named by source:. */
static bool is_cu(const char *file)
{
	size_t n = strlen(file);
	return n > 3 && strcmp(file + n - 3, ".cu") == 0;
}

static void parse_module(struct ld *l, struct module *m)
{
	if (l->es.ev.type == EV_MAP) {
		char ctx[160];
		struct seen s;
		snprintf(ctx, sizeof ctx, "in module '%.60s'", m->name);
		parse_keys(l, &module_tab, m, ctx, &s);
		/* one of file and source */
		if (s.unknown == 0 && !(s.mask & 3))
			ld_error(l, s.pos, "missing key 'file' or 'source' %s", ctx);
	} else {
		get_text(l, "a file name or a mapping {file: ...}", m->name, &m->file,
			 &m->file_pos);
	}
	if (m->file) {
		m->path = gdef_resolve_path(l->g, m->file);
		if (is_cu(m->file))
			m->source = true;
	}
	if (m->source || m->file == NULL)
		return;
	/* The compiler's keys mean nothing to PTX, cubin or fatbin. */
	const struct {
		const char *key;
		struct pos pos;
	} only[] = {
		{"options", m->options_pos}, {"defines", m->defines_pos},
		{"include", m->includes_pos}, {"std", m->std_pos},
	};
	for (size_t i = 0; i < sizeof only / sizeof *only; i++)
		if (only[i].pos.line)
			ld_error(l, only[i].pos, "'%s' applies only to a CUDA C++ source (source: FILE, "
				 "or a .cu file), not to module '%.60s' ('%.60s')", only[i].key,
				 m->name, m->file);
}

static char *add_module(struct ld *l, const char *name, struct pos kpos)
{
	if (strcmp(name, "builtin") == 0) {
		ld_error(l, kpos, "module name 'builtin' is reserved for the built-in kernels");
		ld_skip(l);
		return NULL;
	}
	struct gdef *g = l->g;
	struct module *m = VEC_PUSH(g->modules, g->nmodules, g->capmodules);
	/* (a broken alias as the value was reported when it was read) */
	size_t errors = l->es.nerrs - l->es.ev.bad;
	size_t evals = l->es.axis_evals;
	m->name = gdef_strdup(g, name);
	m->pos = kpos;
	parse_module(l, m);
	m->bad = l->es.nerrs != errors;
	m->dynamic = l->es.axis_evals != evals;
	return m->name;
}

void key_modules(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	l->g->lost.modules |= parse_named(l, kd, "a mapping of module names to files",
					  &l->modules, "module", add_module);
}

/* ---------------------------------------------------------------------
 * Buffers and their init forms
 */

static const struct keydef iota_keys[] = {
	ROW("start", FIELD_NUM, struct init, start),
	ROW("step", FIELD_NUM, struct init, step),
};
static const struct keytab iota_tab = KEYTAB(iota_keys);

static const struct keydef random_keys[] = {
	ROW_UINT("seed", struct init, seed, 0, UINT64_MAX),
	ROW("min", FIELD_NUM, struct init, min),
	ROW("max", FIELD_NUM, struct init, max),
};
static const struct keytab random_tab = KEYTAB(random_keys);

static struct num num_uint(uint64_t v, struct pos pos)
{
	struct num n = {.pos = pos, .kind = NUM_UINT};
	n.u = v;
	return n;
}

static void key_init_iota(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct init *in = obj;
	in->kind = INIT_IOTA;
	in->start = num_uint(0, l->es.ev.pos);
	in->step = num_uint(1, l->es.ev.pos);
	parse_optional_map(l, &iota_tab, in, kd->name, "in 'iota'");
}

static void key_init_random(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct init *in = obj;
	in->kind = INIT_RANDOM;
	in->seed = 1;
	in->min = num_uint(0, l->es.ev.pos);
	in->max = num_uint(1, l->es.ev.pos);
	parse_optional_map(l, &random_tab, in, kd->name, "in 'random'");
}

static void key_init_file(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct init *in = obj;
	in->kind = INIT_FILE;
	if (get_text(l, "a file name", kd->name, &in->file, &in->file_pos))
		in->path = gdef_resolve_path(l->g, in->file);
}

static void key_init_formula(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct init *in = obj;
	in->kind = INIT_FORMULA;
	get_formula(l, kd->name, &in->formula);
}

static const struct keydef init_keys[] = {
	KEY("iota", key_init_iota),
	KEY("random", key_init_random),
	KEY("file", key_init_file),
	KEY("formula", key_init_formula),
};
static const struct keytab init_tab = KEYTAB(init_keys);

static const char init_what[] =
	"a number, a list of numbers, {iota: ...}, {random: ...}, {file: ...} or {formula: ...}";

static void key_buffer_init(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct init *in = &((struct buffer *)obj)->init;
	in->pos = l->es.ev.pos;
	if (l->es.ev.type == EV_SEQ) {
		in->kind = INIT_LIST;
		parse_num_list(l, kd->name, &in->list, &in->nlist, &in->caplist);
	} else if (l->es.ev.type == EV_MAP) {
		struct seen s;
		parse_keys(l, &init_tab, in, "in 'init'", &s);
		if (s.mask == 0 && s.unknown == 0)
			ld_error(l, s.pos, "empty 'init' (expected a number, a list, {iota: ...}, {random: ...}, {file: ...} or {formula: ...})");
		two_forms(l, &init_tab, &s, 15, "'init'", "form");
	} else if (ld_is_scalar(l) && !ld_is_null(l)) {
		struct num n;
		/* in init_keys' order */
		static const char *const forms[] = {
			"{iota: {start: a, step: d}}, or {iota: {}} for 0, 1, 2, ...",
			"{random: {seed: s, min: lo, max: hi}}, or {random: {}} for [0, 1]",
			"{file: path}",
			"{formula: \"expression of i\"}",
		};
		int form = find_key(&init_tab, l->es.ev.value);
		if (form >= 0 && !l->es.ev.quoted) {
			/* init: iota, the name of a form without its mapping */
			ld_error(l, l->es.ev.pos, "'%s' is a form of 'init' that takes a mapping: write "
				 "init: %s", init_keys[form].name, forms[form]);
			ld_skip(l);
		} else if (l->es.ev.quoted || parse_number(l->es.ev.value, &n) != SCALAR_SYNTAX) {
			if (get_num(l, kd->name, &in->scalar))
				in->kind = INIT_SCALAR;
		} else {
			ld_expected(l, init_what, kd->name);
		}
	} else {
		ld_expected(l, init_what, kd->name);
	}
}

/* device: N, relative to the run's GPU (cugraphrun(5), Devices). */
static void key_buffer_device(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct buffer *b = obj;
	uint64_t v;
	b->device_pos = kpos;
	if ((b->has_device = get_u64(l, kd->name, 0, GDEF_MAX_FILE_DEVICE, &v, NULL)))
		b->device = (uint8_t)v;
}

#define T struct buffer
static const struct keydef buffer_keys[] = {
	ROW_CHOICE("type", T, type, elem_names, ET_COUNT, "an element type", "element type",
		   POS(T, type_pos)),
	ROW_UINT("count", T, count, 0, UINT64_MAX, POS(T, count_pos), HAS(T, has_count)),
	ROW_SIZE("size", T, size, UINT64_MAX, POS(T, size_pos), HAS(T, has_size)),
	ROW_CHOICE("memory", T, memory, mem_kind_names, MEM_COUNT, "a memory kind", "memory kind",
		   POS(T, memory_pos)),
	KEY("init", key_buffer_init),
	KEY("device", key_buffer_device),
	KEY("shape", key_buffer_shape),
	KEY("pitch", key_buffer_pitch),
};
#undef T
static const struct keytab buffer_tab = KEYTAB(buffer_keys);

void buffer_start(struct buffer *b, char *name, struct pos kpos)
{
	b->name = name;
	b->pos = kpos;
	b->type = ET_U8;
	b->memory = MEM_DEVICE;
	b->init.kind = INIT_ZERO;
}

void parse_buffer(struct ld *l, struct buffer *b, size_t index)
{
	long o = ld_obj_open(l, CTX_BUFFER, NULL, index, NULL, b->pos);
	/* (a broken alias as the value was reported when it was read) */
	size_t errors = l->es.nerrs - l->es.ev.bad;
	if (want_map(l, "a mapping {type, count or size, memory, init}", b->name)) {
		char ctx[160];
		struct seen s;
		snprintf(ctx, sizeof ctx, "in buffer '%.60s'", b->name);
		parse_keys(l, &buffer_tab, b, ctx, &s);
	}
	b->bad = l->es.nerrs != errors;
	ld_obj_close(l, o);
}

static char *add_buffer(struct ld *l, const char *name, struct pos kpos)
{
	struct gdef *g = l->g;
	struct buffer *b = VEC_PUSH(g->buffers, g->nbuffers, g->capbuffers);
	buffer_start(b, gdef_strdup(g, name), kpos);
	size_t evals = l->es.axis_evals;
	parse_buffer(l, b, g->nbuffers - 1);
	b->dynamic = l->es.axis_evals != evals;
	return b->name;
}

void key_buffers(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	l->g->lost.buffers |= parse_named(l, kd, "a mapping of buffer names to buffers",
					  &l->buffers, "buffer", add_buffer);
}

/* ---------------------------------------------------------------------
 * Events and conditions
 */

void key_events(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct gdef *g = obj;
	if (ld_is_null(l)) {
		ld_next(l);
		return;
	}
	if (!want_seq(l, "a list of event names", kd->name)) {
		g->lost.events = true;
		return;
	}
	ld_next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		char *name = NULL;
		struct pos pos;
		if (!get_text(l, "an event name", kd->name, &name, &pos)) {
			g->lost.events = true;
			continue;
		}
		struct event *e = VEC_PUSH(g->events, g->nevents, g->capevents);
		e->name = name;
		e->pos = pos;
	}
	ld_next(l);
}

static const struct keydef condition_keys[] = {
	ROW_UINT("default", struct condition, default_value, 0, UINT32_MAX,
		 POS(struct condition, default_pos), HAS(struct condition, has_default)),
};
static const struct keytab condition_tab = KEYTAB(condition_keys);

void parse_condition(struct ld *l, struct condition *c, size_t index)
{
	char ctx[160];
	long o = ld_obj_open(l, CTX_CONDITION, NULL, index, NULL, c->pos);
	snprintf(ctx, sizeof ctx, "in condition '%.60s'", c->name);
	parse_optional_map(l, &condition_tab, c, c->name, ctx);
	ld_obj_close(l, o);
}

static char *add_condition(struct ld *l, const char *name, struct pos kpos)
{
	struct gdef *g = l->g;
	struct condition *c = VEC_PUSH(g->conditions, g->nconditions, g->capconditions);
	c->name = gdef_strdup(g, name);
	c->pos = kpos;
	c->user = -1;
	size_t evals = l->es.axis_evals;
	parse_condition(l, c, g->nconditions - 1);
	c->dynamic = l->es.axis_evals != evals;
	return c->name;
}

void key_conditions(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	l->g->lost.conditions |= parse_named(l, kd, "a mapping of condition names to "
					     "{default: N}", &l->conditions, "condition",
					     add_condition);
}

