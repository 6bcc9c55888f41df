/*
 * What a sweep will do (sweep_list.h).  Each object is put into words
 * once, as text and as JSON side by side (struct item), so that the two
 * forms cannot say different things.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "shape.h"
#include "report_table.h"
#include "strbuf.h"
#include "sweep_list.h"

/* One object of a point: its kind, its name, and its values in both forms. */
struct item {
	struct strbuf text;             /* "f32, 1024 elements (4 KiB), device" */
	struct strbuf json;             /* "\"type\": \"f32\", \"count\": 1024, ..." */
};

/* s as a JSON string into sb. */
static void jstr(struct strbuf *sb, const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (f == NULL)
		return;
	json_string(f, s);
	fclose(f);
	strbuf_add(sb, buf, len);
	free(buf);
}

/* A value: its words (appended to the text, after a comma), its JSON (under key). */
static void put(struct item *it, const char *key, const char *words, const char *json)
{
	if (words) {
		if (it->text.len)
			strbuf_add(&it->text, ", ", 2);
		strbuf_add(&it->text, words, strlen(words));
	}
	strbuf_add(&it->json, ", ", 2);
	jstr(&it->json, key);
	strbuf_add(&it->json, ": ", 2);
	strbuf_add(&it->json, json, strlen(json));
}

/* v under key; in words "PREFIX vSUFFIX" ("shared 1024 B"), or none for a NULL prefix. */
static void put_u64(struct item *it, const char *key, const char *prefix, const char *suffix,
		    uint64_t v)
{
	char w[96], j[32];
	snprintf(w, sizeof w, "%s%s%" PRIu64 "%s", prefix ? prefix : "",
		 prefix && prefix[0] ? " " : "", v, suffix);
	snprintf(j, sizeof j, "%" PRIu64, v);
	put(it, key, prefix ? w : NULL, j);
}

static void put_str(struct item *it, const char *key, const char *words, const char *s)
{
	struct strbuf j = {0};
	jstr(&j, s);
	put(it, key, words, j.buf);
	strbuf_free(&j);
}

/* A number as written: a JSON number (a string for inf and nan), its text. */
static void num_json(const struct num *n, struct strbuf *json, char *text, size_t len)
{
	num_format(n, text, len);
	double d = num_to_double(n);
	if (isfinite(d))
		strbuf_add(json, text, strlen(text));
	else
		jstr(json, text);
}

static void put_num(struct item *it, const char *key, const char *prefix, const struct num *n)
{
	char t[64], w[96];
	struct strbuf j = {0};
	num_json(n, &j, t, sizeof t);
	snprintf(w, sizeof w, "%s%s", prefix, t);
	put(it, key, w, j.buf);
	strbuf_free(&j);
}

static void put_dbl(struct item *it, const char *key, double v)
{
	char w[64], j[32];
	snprintf(w, sizeof w, "%s %g", key, v);
	snprintf(j, sizeof j, "%.17g", v);
	put(it, key, w, j);
}

/* "4" or "4x2x1" of a grid or block, and its JSON list. */
static void put_dims(struct item *it, const char *key, const uint32_t d[3])
{
	char w[64], j[64];
	if (d[1] == 1 && d[2] == 1)
		snprintf(w, sizeof w, "%s %" PRIu32, key, d[0]);
	else
		snprintf(w, sizeof w, "%s %" PRIu32 "x%" PRIu32 "x%" PRIu32, key, d[0], d[1], d[2]);
	snprintf(j, sizeof j, "[%" PRIu32 ", %" PRIu32 ", %" PRIu32 "]", d[0], d[1], d[2]);
	put(it, key, w, j);
}

/* An argument as the file writes it, into text and JSON. */
static void arg_words(const struct arg *a, struct strbuf *text, struct strbuf *json)
{
	char t[64];
	switch (a->kind) {
	case ARG_BUFFER:
		strbuf_printf(text, "%s", a->ref.name ? a->ref.name : "?");
		if (a->offset)
			strbuf_printf(text, "[%" PRIu64 "..]", a->offset);
		strbuf_printf(json, "{\"buffer\": ");
		jstr(json, a->ref.name ? a->ref.name : "?");
		strbuf_printf(json, ", \"offset\": %" PRIu64 "}", a->offset);
		return;
	case ARG_SCALAR:
		strbuf_printf(json, "{\"%s\": ", elem_infos[a->type].name);
		num_json(&a->num, json, t, sizeof t);
		strbuf_addc(json, '}');
		strbuf_printf(text, "{%s: %s}", elem_infos[a->type].name, t);
		return;
	case ARG_HANDLE:
	case ARG_PITCH: {
		/* a name the argument refers to: {handle: c} or {pitch: m} */
		const char *key = a->kind == ARG_HANDLE ? "handle" : "pitch";
		const char *name = a->ref.name ? a->ref.name : "?";
		strbuf_printf(text, "{%s: %s}", key, name);
		strbuf_printf(json, "{\"%s\": ", key);
		jstr(json, name);
		strbuf_addc(json, '}');
		return;
	}
	case ARG_BYTES:
		strbuf_printf(text, "{bytes: %zu}", a->nbytes);
		strbuf_printf(json, "{\"bytes\": %zu}", a->nbytes);
		return;
	case ARG_STRUCT:
		strbuf_printf(text, "{struct: [");
		strbuf_printf(json, "{\"struct\": [");
		for (size_t i = 0; i < a->nfields; i++) {
			strbuf_printf(text, "%s", i ? ", " : "");
			strbuf_printf(json, "%s", i ? ", " : "");
			arg_words(&a->fields[i], text, json);
		}
		strbuf_printf(text, "]}");
		strbuf_printf(json, "]}");
		return;
	}
}

static void put_args(struct item *it, const struct arg *args, size_t n)
{
	struct strbuf t = {0}, j = {0};
	strbuf_printf(&t, "args (");
	strbuf_addc(&j, '[');
	for (size_t i = 0; i < n; i++) {
		strbuf_printf(&t, "%s", i ? ", " : "");
		strbuf_printf(&j, "%s", i ? ", " : "");
		arg_words(&args[i], &t, &j);
	}
	strbuf_addc(&t, ')');
	strbuf_addc(&j, ']');
	put(it, "args", t.buf, j.buf);
	strbuf_free(&t);
	strbuf_free(&j);
}

/* A slice of a buffer: "x[16..80)". */
static void put_slice(struct item *it, const char *key, const struct name_ref *b, uint64_t offset,
		      uint64_t count)
{
	char w[160];
	snprintf(w, sizeof w, "%s[%" PRIu64 "..%" PRIu64 ")", b->name ? b->name : "?", offset,
		 offset + count);
	put_str(it, key, w, b->name ? b->name : "?");
	put_u64(it, "offset", NULL, "", offset);
	put_u64(it, "count", NULL, "", count);
}

/*
 * End e of region r over the buffer that ref names in g: "t[0:64, 0:1]"
 * under key, and the region's words under rkey.
 */
static void put_region(struct item *it, const char *key, const char *rkey,
		       const struct gdef *g, const struct name_ref *ref, const struct region *r,
		       unsigned e)
{
	char reg[160] = "", w[224];
	if (ref->idx >= 0 && (size_t)ref->idx < g->nbuffers)
		region_words(r, e, &g->buffers[ref->idx], reg, sizeof reg);
	snprintf(w, sizeof w, "%s%s", ref->name ? ref->name : "?", reg);
	put_str(it, key, w, ref->name ? ref->name : "?");
	put_str(it, rkey, NULL, reg);
}

/* A slice, or a region where r is one (its count: its elements). */
static void put_place(struct item *it, const char *key, const struct gdef *g,
		      const struct name_ref *ref, const struct region *r, unsigned e,
		      uint64_t offset, uint64_t count)
{
	if (r == NULL) {
		put_slice(it, key, ref, offset, count);
		return;
	}
	put_region(it, key, "region", g, ref, r, e);
	put_u64(it, "count", NULL, "", count);
}

/* A shaped buffer's shape and pitch as written: "shape [64, 100], pitch auto". */
static void put_shape(struct item *it, const struct buffer *b)
{
	char sh[96], w[112];
	if (b->shape.rank == 0)
		return;
	shape_words(b, sh, sizeof sh);
	snprintf(w, sizeof w, "shape %s", sh);
	put(it, "shape", w, sh);
	if (b->shape.pitch_auto)
		put(it, "pitch", "pitch auto", "\"auto\"");
	else if (b->shape.has_pitch)
		put_u64(it, "pitch", "pitch", " B", b->shape.pitch);
}

static void buffer_item(const struct buffer *b, struct item *it)
{
	char size[48], w[96];
	put_str(it, "type", elem_infos[b->type].name, elem_infos[b->type].name);
	format_size(b->size, size, sizeof size);
	snprintf(w, sizeof w, "%" PRIu64 " element%s (%s)", b->count, b->count == 1 ? "" : "s",
		 size);
	char cj[32];
	snprintf(cj, sizeof cj, "%" PRIu64, b->count);
	put(it, "count", w, cj);
	put_u64(it, "bytes", NULL, "", b->size);
	put_shape(it, b);
	put_str(it, "memory", mem_kind_names[b->memory], mem_kind_names[b->memory]);
	const struct init *in = &b->init;
	switch (in->kind) {
	case INIT_SCALAR:
		put_num(it, "init", "init ", &in->scalar);
		break;
	case INIT_IOTA: {
		char a[64], d[64], w2[160];
		num_format(&in->start, a, sizeof a);
		num_format(&in->step, d, sizeof d);
		snprintf(w2, sizeof w2, "init iota %s + %s i", a, d);
		struct strbuf ij = {0};
		strbuf_printf(&ij, "{\"iota\": {\"start\": ");
		num_json(&in->start, &ij, a, sizeof a);
		strbuf_printf(&ij, ", \"step\": ");
		num_json(&in->step, &ij, d, sizeof d);
		strbuf_printf(&ij, "}}");
		put(it, "init", w2, ij.buf);
		strbuf_free(&ij);
		break;
	}
	case INIT_FORMULA: {
		char w2[300];
		snprintf(w2, sizeof w2, "init formula %s", in->formula.text ? in->formula.text : "");
		struct strbuf fj = {0};
		strbuf_printf(&fj, "{\"formula\": ");
		jstr(&fj, in->formula.text ? in->formula.text : "");
		strbuf_addc(&fj, '}');
		put(it, "init", w2, fj.buf);
		strbuf_free(&fj);
		break;
	}
	case INIT_FILE:
		put_str(it, "init_file", "init file", in->file ? in->file : "");
		break;
	default:
		break;
	}
}

static void node_item(const struct gdef *g, const struct node *n, struct item *it)
{
	switch (n->kind) {
	case NK_KERNEL: {
		const struct kernel_node *k = &n->u.kernel;
		put_str(it, "function", k->function ? k->function : "?", k->function ? k->function : "?");
		put_dims(it, "grid", k->grid);
		put_dims(it, "block", k->block);
		put_u64(it, "shared", k->shared ? "shared" : NULL, " B", k->shared);
		put_args(it, k->args, k->nargs);
		return;
	}
	case NK_MEMSET:
		put_place(it, "buffer", g, &n->u.memset.buffer, n->u.memset.region, 0,
			  n->u.memset.offset, n->u.memset.count);
		put_num(it, "value", "value ", &n->u.memset.value);
		return;
	case NK_COPY: {
		const struct copy_node *c = &n->u.copy;
		put_place(it, "from", g, &c->from.buffer, c->region, END_FROM, c->from.offset,
			  c->count);
		if (c->region) {
			put_region(it, "to", "to_region", g, &c->to.buffer, c->region, END_TO);
		} else {
			put_str(it, "to", NULL, c->to.buffer.name ? c->to.buffer.name : "?");
			put_u64(it, "to_offset", "to offset", "", c->to.offset);
		}
		put_u64(it, "bytes", "", " B", c->bytes);
		return;
	}
	case NK_HOST: {
		const struct host_node *h = &n->u.host;
		switch (h->action) {
		case HOST_PRINT:
			put_str(it, "print", h->text ? h->text : "", h->text ? h->text : "");
			return;
		case HOST_SLEEP:
			put_u64(it, "sleep_ns", "sleep", " ns", h->sleep_ns);
			return;
		case HOST_DUMP:
			put_place(it, "dump", g, &h->buffer, h->region, 0, h->offset, h->count);
			return;
		case HOST_SET:
			put_place(it, "set", g, &h->set->buffer, h->set->region, 0, h->set->offset,
				  h->set->count);
			put_num(it, "value", "value ", &h->set->value);
			return;
		case HOST_COPY:
			put_place(it, "copy", g, &h->copy->from.buffer, h->copy->region, END_FROM,
				  h->copy->from.offset, h->copy->count);
			if (h->copy->region) {
				put_region(it, "to", "to_region", g, &h->copy->to.buffer,
					   h->copy->region, END_TO);
				return;
			}
			put_str(it, "to", NULL, h->copy->to.buffer.name ? h->copy->to.buffer.name : "?");
			put_u64(it, "to_offset", "to offset", "", h->copy->to.offset);
			return;
		case HOST_CALL:
			put_str(it, "call", h->fn->function ? h->fn->function : "?",
				h->fn->function ? h->fn->function : "?");
			if (h->fn->arg)
				put_str(it, "arg", NULL, h->fn->arg);
			if (h->fn->arg)
				strbuf_printf(&it->text, ", arg '%s'", h->fn->arg);
			return;
		}
		return;
	}
	default:
		(void)g;
		return;
	}
}

/* The bounds of a reduction: "near 12 (rtol 1e-06)". */
static void bounds_item(const struct check *c, struct item *it)
{
	struct strbuf t = {0}, j = {0};
	strbuf_printf(&t, "%s", reduce_names[c->reduce]);
	strbuf_addc(&j, '{');
	bool first = true;
	if (c->reduce == RED_DIFFER) {
		char v[64];
		strbuf_printf(&t, " from ");
		strbuf_printf(&j, "\"from\": ");
		num_json(&c->differ_from, &j, v, sizeof v);
		strbuf_printf(&t, "%s", v);
		first = false;
	}
	for (int op = 0; op < BOUND_COUNT; op++) {
		if (!(c->cmp.ops & (1u << op)))
			continue;
		const struct bound *bd = &c->cmp.bound[op];
		strbuf_printf(&j, "%s\"%s\": ", first ? "" : ", ", bound_names[op]);
		first = false;
		if (bd->ref.name) {
			strbuf_printf(&t, " %s %s[%" PRIu64 "]", bound_symbols[op], bd->ref.name,
				      bd->offset);
			strbuf_printf(&j, "{\"buffer\": ");
			jstr(&j, bd->ref.name);
			strbuf_printf(&j, ", \"offset\": %" PRIu64 "}", bd->offset);
		} else {
			char v[64];
			num_json(&bd->value, &j, v, sizeof v);
			strbuf_printf(&t, " %s %s", bound_symbols[op], v);
		}
	}
	if (c->cmp.ops & (1u << BOUND_NEAR)) {
		strbuf_printf(&t, " (rtol %g, atol %g)", c->cmp.rtol, c->cmp.atol);
		strbuf_printf(&j, ", \"rtol\": %.17g, \"atol\": %.17g", c->cmp.rtol, c->cmp.atol);
	}
	strbuf_addc(&j, '}');
	put(it, reduce_names[c->reduce], t.buf, j.buf);
	strbuf_free(&t);
	strbuf_free(&j);
}

static void check_item(const struct gdef *g, const struct check *c, struct item *it)
{
	put_place(it, "buffer", g, &c->buffer, c->region, 0, c->offset, c->count);
	if (c->kind == CHECK_FINITE) {
		put(it, "finite", "finite", "true");
		return;
	}
	if (c->kind == CHECK_REDUCE) {
		bounds_item(c, it);
		if (c->reduce == RED_DIFFER) {
			put_dbl(it, "rtol", c->rtol);
			put_dbl(it, "atol", c->atol);
		}
		return;
	}
	struct strbuf t = {0}, j = {0};
	char v[64];
	switch (c->expect) {
	case EXPECT_SCALAR:
		num_json(&c->scalar, &j, v, sizeof v);
		strbuf_printf(&t, "expect %s", v);
		break;
	case EXPECT_LIST:
		strbuf_printf(&t, "expect [");
		strbuf_addc(&j, '[');
		for (size_t i = 0; i < c->nlist; i++) {
			strbuf_printf(&j, "%s", i ? ", " : "");
			num_json(&c->list[i], &j, v, sizeof v);
			if (i < 8)
				strbuf_printf(&t, "%s%s", i ? ", " : "", v);
		}
		strbuf_printf(&t, "%s]", c->nlist > 8 ? ", ..." : "");
		strbuf_addc(&j, ']');
		break;
	case EXPECT_FILE:
		strbuf_printf(&t, "expect file %s", c->file ? c->file : "?");
		strbuf_printf(&j, "{\"file\": ");
		jstr(&j, c->file ? c->file : "?");
		strbuf_addc(&j, '}');
		break;
	case EXPECT_BUFFER:
		strbuf_printf(&t, "expect buffer %s[%" PRIu64 "..]", c->ref.name ? c->ref.name : "?",
			      c->ref_offset);
		strbuf_printf(&j, "{\"buffer\": ");
		jstr(&j, c->ref.name ? c->ref.name : "?");
		strbuf_printf(&j, ", \"offset\": %" PRIu64 "}", c->ref_offset);
		break;
	case EXPECT_FORMULA:
		strbuf_printf(&t, "expect formula %s", c->formula.text ? c->formula.text : "");
		strbuf_printf(&j, "{\"formula\": ");
		jstr(&j, c->formula.text ? c->formula.text : "");
		strbuf_addc(&j, '}');
		break;
	}
	put(it, "expect", t.buf, j.buf);
	strbuf_free(&t);
	strbuf_free(&j);
	put_dbl(it, "rtol", c->rtol);
	put_dbl(it, "atol", c->atol);
}

static void run_item(const struct run_defaults *r, struct item *it)
{
	put_u64(it, "repeat", r->has_repeat ? "repeat" : NULL, "", r->has_repeat ? r->repeat : 100);
	put_u64(it, "warmup", r->has_warmup ? "warmup" : NULL, "", r->has_warmup ? r->warmup : 3);
	put_u64(it, "verify_launches", r->has_verify_launches ? "verify_launches" : NULL, "",
		r->has_verify_launches ? r->verify_launches : 1);
}

/* What one point's items are: the objects that read an axis, in the file's order. */
typedef void item_fn(FILE *out, void *ctx, const char *kind, const char *name, struct pos pos,
		     struct item *it);

static void each_item(const struct gdef *g, item_fn *fn, FILE *out, void *ctx)
{
	struct item it = {0};
#define EMIT(kind, name, pos) do { fn(out, ctx, kind, name, pos, &it); \
	strbuf_truncate(&it.text, 0); strbuf_truncate(&it.json, 0); } while (0)
	for (size_t i = 0; i < g->nbuffers; i++)
		if (g->buffers[i].dynamic) {
			buffer_item(&g->buffers[i], &it);
			EMIT("buffer", g->buffers[i].name, g->buffers[i].pos);
		}
	for (size_t i = 0; i < g->nconditions; i++)
		if (g->conditions[i].dynamic) {
			char w[48], j[16];
			snprintf(w, sizeof w, "default %" PRIu32, g->conditions[i].default_value);
			snprintf(j, sizeof j, "%" PRIu32, g->conditions[i].default_value);
			put(&it, "default", w, j);
			EMIT("condition", g->conditions[i].name, g->conditions[i].pos);
		}
	for (size_t i = 0; i < g->nall_nodes; i++) {
		const struct node *n = g->all_nodes[i];
		if (!n->dynamic || node_kind_is_conditional(n->kind) || n->kind == NK_GRAPH)
			continue;
		node_item(g, n, &it);
		EMIT(node_kind_names[n->kind], n->id, n->pos);
	}
	for (size_t i = 0; i < g->nchecks; i++)
		if (g->checks[i].dynamic) {
			char name[32];
			snprintf(name, sizeof name, "%zu", i + 1);
			check_item(g, &g->checks[i], &it);
			EMIT("check", name, g->checks[i].pos);
		}
#undef EMIT
	strbuf_free(&it.text);
	strbuf_free(&it.json);
}

static void text_item(FILE *out, void *ctx, const char *kind, const char *name, struct pos pos,
		      struct item *it)
{
	const char *file = ctx;
	fprintf(out, "  %s %s (%s:%u:%u): %s\n", kind, diag_esc(name), diag_esc(file), pos.line,
		pos.col, it->text.buf ? diag_esc(it->text.buf) : "");
}

void sweep_list_text(FILE *out, const struct sweep *sw)
{
	const struct gdef *g0 = sw->models[0];
	if (sw->naxes == 0)
		fprintf(out, "%s: not a sweep: one point\n", diag_esc(g0->file));
	else
		fprintf(out, "%s: %zu point%s\n", diag_esc(g0->file), sw->npoints,
			sw->npoints == 1 ? "" : "s");
	for (size_t k = 0; k < sw->npoints; k++) {
		const struct gdef *g = sw->models[k];
		if (g == NULL)
			continue;
		if (sw->naxes)
			fprintf(out, "%s\n", diag_esc(sw->labels[k]));
		each_item(g, text_item, out, (void *)g->file);
		struct item it = {0};
		run_item(&g->run, &it);
		if (it.text.len)
			fprintf(out, "  run: %s\n", it.text.buf);
		strbuf_free(&it.text);
		strbuf_free(&it.json);
		if (g->throughput.has_bytes || g->throughput.has_items) {
			fprintf(out, "  throughput:");
			if (g->throughput.has_bytes)
				fprintf(out, " %.17g bytes", g->throughput.bytes);
			if (g->throughput.has_items)
				fprintf(out, "%s %.17g items", g->throughput.has_bytes ? "," : "",
					g->throughput.items);
			fputc('\n', out);
		}
	}
}

struct json_ctx {
	int depth;
	bool first;
};

static void json_item(FILE *out, void *ctx, const char *kind, const char *name, struct pos pos,
		      struct item *it)
{
	struct json_ctx *c = ctx;
	fprintf(out, "%s\n%*s{\"kind\": ", c->first ? "" : ",", 2 * (c->depth + 1), "");
	json_string(out, kind);
	fputs(", \"name\": ", out);
	json_string(out, name);
	fprintf(out, ", \"line\": %u, \"column\": %u%s}", pos.line, pos.col,
		it->json.buf ? it->json.buf : "");
	c->first = false;
}

void sweep_list_json(FILE *out, const struct sweep *sw, int depth)
{
	fputc('[', out);
	for (size_t k = 0; k < sw->npoints; k++) {
		const struct gdef *g = sw->models[k];
		fprintf(out, "%s\n%*s{", k ? "," : "", 2 * (depth + 1), "");
		json_key(out, depth + 2, true, "label");
		json_string(out, sw->labels[k]);
		json_key(out, depth + 2, false, "axes");
		fputc('{', out);
		for (size_t a = 0; a < sw->naxes; a++) {
			json_key(out, depth + 3, a == 0, sw->axes[a].name);
			json_string(out, sweep_value_label(sw, k, a));
		}
		fprintf(out, sw->naxes ? "\n%*s}" : "}", 2 * (depth + 2), "");
		json_key(out, depth + 2, false, "values");
		fputc('[', out);
		struct json_ctx c = {depth + 2, true};
		if (g)
			each_item(g, json_item, out, &c);
		fprintf(out, c.first ? "]" : "\n%*s]", 2 * (depth + 2), "");
		json_key(out, depth + 2, false, "run");
		struct item it = {0};
		if (g)
			run_item(&g->run, &it);
		fprintf(out, "{%s}", it.json.buf ? it.json.buf + 2 : "");
		strbuf_free(&it.text);
		strbuf_free(&it.json);
		json_key(out, depth + 2, false, "throughput");
		double bytes = g && g->throughput.has_bytes ? g->throughput.bytes : NAN;
		double items = g && g->throughput.has_items ? g->throughput.items : NAN;
		throughput_json(out, bytes, items, NULL, 0, NAN, depth + 2);
		fprintf(out, "\n%*s}", 2 * (depth + 1), "");
	}
	fprintf(out, sw->npoints ? "\n%*s]" : "]", 2 * depth, "");
}
