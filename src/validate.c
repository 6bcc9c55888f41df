/*
 * The validator.  Passes over a loaded definition, in the order a reader
 * meets the sections of the file: names, module files, buffers, every node
 * (its kind's rules and the driver's rules on where it may stand), the
 * dependencies of every graph (after, edges, chain, cycles, topological
 * order), graph-memory lifetimes, conditions and events, checks, run;
 * then the CUDA 12/13 features' rules (validate_driver.c) and the devices
 * (validate_devices.c).
 * Each pass keeps going after an error so that all of them are reported;
 * diag caps the printing.  Everything is linear in the size of the file
 * except the graph-memory pass, which walks the root graph twice per
 * `memory: graph` buffer.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf_formula.h"
#include "host_lib.h"
#include "fileio.h"
#include "model_derive.h"
#include "strbuf.h"
#include "shape.h"
#include "strmap.h"
#include "validate.h"
#include "validate_devices.h"
#include "validate_driver.h"
#include "validate_slice.h"
#include "validate_lib.h"
#include "validate_shape.h"
#include "xmalloc.h"

/* Larger than any GPU's memory, so larger is a typo (and guards 2^70 bytes). */
#define MAX_BUFFER_BYTES (1ull << 40)
/* The most dynamic shared memory one block may use on sm_90 (H100). */
#define MAX_SHARED_BYTES (227u * 1024)
#define MAX_BLOCK_THREADS 1024u
/* Kernel parameter space since CUDA 12.1 on Volta and later. */
#define MAX_PARAM_BYTES 32764u
/* A host sleep is a pause in a test graph, not a way to hang it. */
#define MAX_SLEEP_NS (60ull * 1000000000ull)
/* Cycles reported per graph before giving up on that graph. */
#define MAX_CYCLES 10
/* Ids shown in full in a cycle message; longer cycles are abridged. */
#define CYCLE_SHOW 16

static const uint32_t max_grid[3] = {2147483647u, 65535u, 65535u};
static const uint32_t max_block[3] = {1024u, 1024u, 64u};
static const char *const axis_names[3] = {"x", "y", "z"};

/* A node that touches a 'memory: graph' buffer (kernel arg, memset, copy). */
struct use {
	size_t buffer;
	size_t node;            /* in g->all_nodes */
};

struct vctx {
	struct gdef *g;
	struct diag *d;
	/* names in array order, for "did you mean" */
	const char **module_names, **buffer_names, **event_names, **condition_names;
	size_t capall;
	/* g->node_index holds every id, not only explicit and walk-made ones */
	bool node_index_complete;
	/* every node is in the root graph: all_nodes is the root's own list */
	bool flat;
	struct graph **graphs;  /* every graph, root first, in file order */
	size_t ngraphs, capgraphs;
	bool *sized;            /* per buffer: count and size are known */
	long *alloc_node, *free_node;   /* per buffer: all_nodes index, or -1 */
	bool *recorded;         /* per event */
	size_t *waits;          /* event_wait nodes, all_nodes indices */
	size_t nwaits, capwaits;
	size_t replay_at;               /* the next of g->replayed the walk may meet */
	/* a name that did not resolve: "never used" errors would only echo it */
	bool lost_record, lost_cond, lost_alloc_free;
	struct use *uses;
	size_t nuses, capuses;
	struct mod_check *mods;         /* kernel nodes against their modules, or NULL */
	bool *bad_module;               /* per module: an error of its own, so not read */
	/* per name index: the last name found in it, by pointer (see lookup) */
	struct hit {
		const struct strmap *map;
		const char *name;
		long idx;
	} hits[4];
};

/* Whether the next error may be printed: only then is a suggestion worth its cost. */
static bool will_print(const struct vctx *v)
{
	return diag_may_print(v->d);
}

/*
 * Whether names of the section map indexes may have been lost to the
 * loader's errors: then a name that does not resolve may be one of them,
 * and saying it is unknown would only echo the loader.
 */
static bool names_lost(const struct vctx *v, const struct strmap *map)
{
	const struct gdef *g = v->g;
	return (map == g->module_index && g->lost.modules) ||
	       (map == g->buffer_index && g->lost.buffers) ||
	       (map == g->event_index && g->lost.events) ||
	       (map == g->condition_index && g->lost.conditions);
}

static const char *plural(const char *what)
{
	static const struct {
		const char *one, *many;
	} words[] = {
		{"buffer", "buffers"}, {"module", "modules"}, {"event", "events"},
		{"condition", "conditions"},
	};
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (strcmp(what, words[i].one) == 0)
			return words[i].many;
	return what;
}

static void unknown_name(struct vctx *v, struct pos pos, const char *what,
			 const char *name, const char *const *names, size_t n)
{
	const char *s = will_print(v) ? diag_suggest(name, names, n) : NULL;
	if (s)
		diag_error(v->d, pos, "unknown %s '%s' (did you mean '%s'?)", what, name, s);
	else if (n == 0)
		diag_error(v->d, pos, "unknown %s '%s': the file declares no %s", what,
			   name, plural(what));
	else
		diag_error(v->d, pos, "unknown %s '%s'", what, name);
}

/*
 * strmap_get for the indexes of modules, buffers, events and conditions,
 * which stay as they are while nodes are checked.  The loader shares a
 * name repeated from one reference to the next, and the model's strings
 * are never freed alone, so the same pointer is the same name: a graph of
 * 100,000 kernels on one buffer hashes its name once.
 */
static long lookup(struct vctx *v, const struct strmap *map, const char *name)
{
	size_t nh = sizeof v->hits / sizeof *v->hits, i = 0;
	while (i < nh - 1 && v->hits[i].map != map && v->hits[i].map != NULL)
		i++;
	struct hit *h = &v->hits[i];
	if (h->map == map && h->name == name)
		return h->idx;
	long idx = strmap_get(map, name);
	if (idx >= 0)
		*h = (struct hit){map, name, idx};
	return idx;
}

/* Resolve r in map; reports an unknown or missing name.  Returns r->idx. */
static long resolve(struct vctx *v, struct name_ref *r, const struct strmap *map,
		    const char *what, const char *const *names, size_t n,
		    struct pos fallback)
{
	r->idx = -1;
	if (r->name == NULL) {
		diag_error(v->d, pos_or(r->pos, fallback), "missing %s name", what);
		return -1;
	}
	long i = lookup(v, map, r->name);
	if (i < 0 && !names_lost(v, map))
		unknown_name(v, pos_or(r->pos, fallback), what, r->name, names, n);
	r->idx = i;
	return i;
}

static long resolve_buffer(struct vctx *v, struct name_ref *r, struct pos fallback)
{
	return resolve(v, r, v->g->buffer_index, "buffer", v->buffer_names,
		       v->g->nbuffers, fallback);
}

/* Describe where graph gr is, for messages: "the body of while node 'loop'". */
static void graph_where(const struct graph *gr, char *buf, size_t len)
{
	const struct node *o = gr->owner;
	if (o == NULL) {
		snprintf(buf, len, "the root graph");
		return;
	}
	switch (o->kind) {
	case NK_GRAPH:
		snprintf(buf, len, "child graph '%s'", o->id);
		break;
	case NK_IF:
		snprintf(buf, len, "the %s branch of if node '%s'",
			 gr->body_index ? "else" : "then", o->id);
		break;
	case NK_WHILE:
		snprintf(buf, len, "the body of while node '%s'", o->id);
		break;
	case NK_SWITCH:
		snprintf(buf, len, "case %u of switch node '%s'", gr->body_index, o->id);
		break;
	default:
		snprintf(buf, len, "node '%s'", o->id);
		break;
	}
}

/* The range an integer type holds, for messages: " (0 to 255)". */
static void type_range(enum elem_type t, char *buf, size_t len)
{
	const struct elem_info *ei = &elem_infos[t];
	unsigned bits = ei->size * 8;
	if (ei->is_float) {
		static const char *const largest[ET_COUNT] = {
			[ET_F16] = "65504", [ET_BF16] = "3.39e38",
			[ET_F32] = "3.40e38", [ET_F64] = "1.80e308",
		};
		snprintf(buf, len, " (at most %s in magnitude)", largest[t]);
	} else if (ei->is_signed) {
		int64_t max = (int64_t)(UINT64_MAX >> (65 - bits));
		snprintf(buf, len, " (%" PRId64 " to %" PRId64 ")", -max - 1, max);
	} else {
		uint64_t max = bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
		snprintf(buf, len, " (0 to %" PRIu64 ")", max);
	}
}

/* Report unless n fits t; fmt says whose number it is (formatted only then). */
static bool check_fit(struct vctx *v, const struct num *n, enum elem_type t,
		      struct pos fallback, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static bool check_fit(struct vctx *v, const struct num *n, enum elem_type t,
		      struct pos fallback, const char *fmt, ...)
{
	unsigned char bytes[8];
	char why[128], range[64] = "", what[300];
	const char *e = num_encode(n, t, bytes, why, sizeof why);
	if (e == NULL)
		return true;
	va_list ap;
	va_start(ap, fmt);
	diag_code_keep(fmt, ap);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	/* A fraction for an integer type needs no range; a value out of range does. */
	if (elem_infos[t].is_float || n->kind != NUM_FLOAT)
		type_range(t, range, sizeof range);
	diag_error(v->d, pos_or(n->pos, fallback), "%s: %s%s", what, e, range);
	return false;
}

/* -1, 0, 1 as a < b, a == b, a > b, exact for integers of any size. */
static int num_cmp(const struct num *a, const struct num *b)
{
	if (a->kind != NUM_FLOAT && b->kind != NUM_FLOAT) {
		if (a->kind != b->kind)
			return a->kind == NUM_INT ? -1 : 1;
		if (a->kind == NUM_INT)
			return (a->i > b->i) - (a->i < b->i);
		return (a->u > b->u) - (a->u < b->u);
	}
	double x = num_to_double(a), y = num_to_double(b);
	return (x > y) - (x < y);
}

/* Names ------------------------------------------------------------------ */

/*
 * Index the names of one section (modules, buffers, events, conditions:
 * each struct starts with char *name and struct pos pos) and report
 * duplicates with a note at the first.
 */
static struct strmap *index_names(struct vctx *v, const void *base, size_t stride,
				  size_t n, const char *what, const char ***names_out)
{
	struct strmap *map = strmap_new(n);
	const char **names = xcalloc(n ? n : 1, sizeof *names);
	for (size_t i = 0; i < n; i++) {
		const char *p = (const char *)base + i * stride;
		const char *name = *(char *const *)p;
		struct pos pos = *(const struct pos *)(p + offsetof(struct buffer, pos));
		names[i] = name ? name : "";
		if (name == NULL) {
			diag_error(v->d, pos, "%s without a name", what);
			continue;
		}
		if (name[0] == '\0') {
			diag_error(v->d, pos, "%s name is empty: nothing could refer to it", what);
			continue;
		}
		long old;
		if (strmap_put(map, name, (long)i, &old))
			continue;
		const char *q = (const char *)base + (size_t)old * stride;
		struct pos first = *(const struct pos *)(q + offsetof(struct buffer, pos));
		if (base == (const void *)v->g->modules && v->g->modules[old].builtin) {
			diag_error(v->d, pos, "%s name '%s' is reserved for the built-in kernels",
				   what, name);
		} else {
			diag_error(v->d, pos, "duplicate %s name '%s'", what, name);
			diag_note(v->d, first, "'%s' was first defined here", name);
		}
	}
	*names_out = names;
	return map;
}

/* The four struct types share their first two fields; index_names relies on it. */
_Static_assert(offsetof(struct module, name) == 0 && offsetof(struct buffer, name) == 0 &&
	       offsetof(struct event, name) == 0 && offsetof(struct condition, name) == 0,
	       "name first");
_Static_assert(offsetof(struct module, pos) == offsetof(struct buffer, pos) &&
	       offsetof(struct event, pos) == offsetof(struct buffer, pos) &&
	       offsetof(struct condition, pos) == offsetof(struct buffer, pos),
	       "pos second");

static void index_all_names(struct vctx *v)
{
	struct gdef *g = v->g;
	g->module_index = index_names(v, g->modules, sizeof *g->modules, g->nmodules,
				      "module", &v->module_names);
	g->buffer_index = index_names(v, g->buffers, sizeof *g->buffers, g->nbuffers,
				      "buffer", &v->buffer_names);
	g->event_index = index_names(v, g->events, sizeof *g->events, g->nevents,
				     "event", &v->event_names);
	g->condition_index = index_names(v, g->conditions, sizeof *g->conditions,
					 g->nconditions, "condition", &v->condition_names);
}

/* Files ------------------------------------------------------------------ */

/*
 * Open written (resolved into *path) to see that it is a readable regular
 * file; its size in *size.  Reports "cannot read WHAT 'file': why".
 */
static bool check_readable(struct vctx *v, const char *written, char **path,
			   struct pos pos, const char *what, uint64_t *size)
{
	if (*path == NULL)
		*path = gdef_resolve_path(v->g, written);
	/* O_NONBLOCK: a FIFO named by mistake must not hang validation. */
	int fd = open(*path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		diag_error(v->d, pos, "cannot read %s '%s': %s", what, written, strerror(errno));
		return false;
	}
	struct stat st;
	int rc = fstat(fd, &st);
	int err = errno;
	close(fd);
	if (rc != 0) {
		diag_error(v->d, pos, "cannot read %s '%s': %s", what, written, strerror(err));
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		diag_error(v->d, pos, "cannot read %s '%s': %s", what, written,
			   S_ISDIR(st.st_mode) ? strerror(EISDIR) : "not a regular file");
		return false;
	}
	*size = (uint64_t)st.st_size;
	return true;
}

/* A module is read whole at run time: READ_MAX_BYTES at most. */
static void too_large(struct vctx *v, struct pos at, const char *what, const char *written,
		      uint64_t size)
{
	diag_error(v->d, at, "%s '%s' is too large (%" PRIu64 " bytes; the limit is %zu)", what,
		   written, size, READ_MAX_BYTES);
}

/* A C identifier, as a macro name must be. */
/*
 * A CUDA C++ source module: the source readable, each include directory
 * there, defines well named, no option that the device decides.  Only
 * files are looked at: no NVRTC, no GPU.
 */
static void check_source(struct vctx *v, struct module *m)
{
	uint64_t size = 0;
	struct pos at = pos_or(m->file_pos, m->pos);
	if (check_readable(v, m->file, &m->path, at, "module source", &size) && size == 0)
		diag_error(v->d, at, "module source '%s' is empty: expected CUDA C++", m->file);
	else if (size > READ_MAX_BYTES)
		too_large(v, at, "module source", m->file, size);
	for (size_t i = 0; i < m->nincludes; i++) {
		const struct module_include *in = &m->includes[i];
		struct stat st;
		if (stat(in->path, &st) != 0)
			diag_error(v->d, in->pos, "cannot use include directory '%s' of module "
				   "'%s': %s", in->dir, m->name, strerror(errno));
		else if (!S_ISDIR(st.st_mode))
			diag_error(v->d, in->pos, "cannot use include directory '%s' of module "
				   "'%s': %s", in->dir, m->name, strerror(ENOTDIR));
	}
	for (size_t i = 0; i < m->ndefines; i++)
		if (!is_identifier(m->defines[i].name))
			diag_error(v->d, m->defines[i].pos, "define '%s' of module '%s' is not a "
				   "macro name (letters, digits and '_', not first a digit)",
				   m->defines[i].name, m->name);
	static const char *const arch_opts[] = {
		"-arch", "--gpu-architecture", "-code", "--gpu-code",
	};
	for (size_t i = 0; i < m->noptions; i++) {
		const char *o = m->options[i].text;
		for (size_t j = 0; j < sizeof arch_opts / sizeof *arch_opts; j++) {
			size_t n = strlen(arch_opts[j]);
			if (strncmp(o, arch_opts[j], n) == 0 && (o[n] == '\0' || o[n] == '='))
				diag_error(v->d, m->options[i].pos, "option '%s' of module '%s' is "
					   "not allowed: the architecture is the device's "
					   "(sm_XY from its compute capability)", o, m->name);
		}
	}
}

static void check_module(struct vctx *v, struct module *m)
{
	if (m->builtin)
		return;
	if (m->file == NULL) {
		diag_error(v->d, m->pos, "module '%s' has no file", m->name);
		return;
	}
	uint64_t size = 0;
	struct pos at = pos_or(m->file_pos, m->pos);
	if (m->source) {
		check_source(v, m);
		return;
	}
	if (check_readable(v, m->file, &m->path, at, "module file", &size) && size == 0)
		diag_error(v->d, at, "module file '%s' is empty: expected PTX, cubin or fatbin",
			   m->file);
	else if (size > READ_MAX_BYTES)
		too_large(v, at, "module file", m->file, size);
}

/* Each module; one with an error of its own is not read for its kernels. */
static void check_modules(struct vctx *v)
{
	for (size_t i = 0; i < v->g->nmodules; i++) {
		/* the loader said what is wrong with it: its file is not looked at */
		if (v->g->modules[i].bad) {
			v->bad_module[i] = true;
			continue;
		}
		unsigned before = v->d->nerrors;
		check_module(v, &v->g->modules[i]);
		v->bad_module[i] = v->d->nerrors > before;
	}
}

/* A data file (init or expect) must hold exactly the buffer's bytes. */
static void check_data_file(struct vctx *v, const char *written, char **path,
			    struct pos pos, const char *what, const struct buffer *b,
			    bool sized)
{
	uint64_t size;
	if (!check_readable(v, written, path, pos, what, &size) || !sized || size == b->size)
		return;
	diag_error(v->d, pos, "%s '%s' has %" PRIu64 " bytes; buffer '%s' has %" PRIu64
		   " (%" PRIu64 " %s)", what, written, size, b->name, b->size, b->count,
		   elem_names[b->type]);
}

/* Buffers ---------------------------------------------------------------- */

/* Fill count and size; false when they are unknown (an error was reported). */
static bool size_buffer(struct vctx *v, struct buffer *b)
{
	unsigned es = elem_infos[b->type].size;
	const char *tn = elem_names[b->type];
	struct pos count_pos = pos_or(b->count_pos, b->pos);
	struct pos size_pos = pos_or(b->size_pos, b->pos);
	struct pos at;
	if (b->shape.rank || b->shape.has_pitch)
		return shape_size_buffer(v->d, b, MAX_BUFFER_BYTES);
	if (b->has_count && b->has_size) {
		diag_error(v->d, size_pos,
			   "buffer '%s' has both 'count' and 'size': give one of them", b->name);
		return false;
	}
	if (!b->has_count && !b->has_size) {
		diag_error(v->d, b->pos,
			   "buffer '%s' needs 'count' (elements) or 'size' (bytes)", b->name);
		return false;
	}
	if (b->has_count) {
		at = count_pos;
		if (b->count == 0) {
			diag_error(v->d, at, "buffer '%s' has count 0: a buffer needs at least one element",
				   b->name);
			return false;
		}
		if (b->count > UINT64_MAX / es) {
			diag_error(v->d, at, "buffer '%s' of %" PRIu64 " %s elements overflows: "
				   "that is more than 2^64 bytes", b->name, b->count, tn);
			return false;
		}
		b->size = b->count * es;
	} else {
		at = size_pos;
		if (b->size == 0) {
			diag_error(v->d, at, "buffer '%s' has size 0: a buffer needs at least one element",
				   b->name);
			return false;
		}
		if (b->size % es != 0) {
			diag_error(v->d, at, "size %" PRIu64 " of buffer '%s' is not a multiple of %u "
				   "bytes, the size of one %s", b->size, b->name, es, tn);
			return false;
		}
		b->count = b->size / es;
	}
	if (b->size > MAX_BUFFER_BYTES) {
		char sz[48];
		format_size(b->size, sz, sizeof sz);
		diag_error(v->d, at, "buffer '%s' is %s: a buffer may be at most 1 TiB", b->name, sz);
		return false;
	}
	b->shape.pitch = b->size;
	return true;
}

static void check_init(struct vctx *v, struct buffer *b, bool sized)
{
	struct init *in = &b->init;
	struct pos at = pos_or(in->pos, b->pos);
	if (in->kind == INIT_ZERO)
		return;
	if (b->memory == MEM_GRAPH) {
		diag_error(v->d, at, "buffer '%s' has 'memory: graph' and so no 'init': its memory "
			   "exists only between its alloc and free nodes", b->name);
		return;
	}
	switch (in->kind) {
	case INIT_ZERO:
		break;
	case INIT_SCALAR:
		check_fit(v, &in->scalar, b->type, at, "init of buffer '%s'", b->name);
		break;
	case INIT_LIST:
		if (sized && in->nlist != b->count)
			diag_error(v->d, at, "init of buffer '%s' has %zu value%s for %" PRIu64
				   " elements: give exactly %" PRIu64 ", or one number for all",
				   b->name, in->nlist, in->nlist == 1 ? "" : "s", b->count, b->count);
		for (size_t i = 0; i < in->nlist; i++)
			check_fit(v, &in->list[i], b->type, at, "init of buffer '%s'", b->name);
		break;
	case INIT_IOTA: {
		bool ok = check_fit(v, &in->start, b->type, at, "iota start of buffer '%s'",
				    b->name);
		ok &= check_fit(v, &in->step, b->type, at, "iota step of buffer '%s'", b->name);
		if (!ok || !sized)
			break;
		if (elem_infos[b->type].is_float) {
			/* The sequence is monotonic: the last element, computed as the fill does, is the other end. */
			volatile double p = (double)(b->count - 1) * num_to_double(&in->step);
			struct num n = {.pos = in->pos, .kind = NUM_FLOAT};
			n.f = num_to_double(&in->start) + p;
			unsigned char bytes[8];
			char why[128], range[64];
			if (num_encode(&n, b->type, bytes, why, sizeof why) == NULL)
				break;
			type_range(b->type, range, sizeof range);
			diag_error(v->d, at, "iota of buffer '%s' reaches %g at its last element, "
				   "which does not fit %s%s", b->name, n.f, elem_names[b->type], range);
			break;
		}
		/* Integers: the last element must fit too (no silent wrap-around). */
		__int128 start = in->start.kind == NUM_INT ? in->start.i : (__int128)in->start.u;
		__int128 step = in->step.kind == NUM_INT ? in->step.i : (__int128)in->step.u;
		__int128 last = start + (__int128)(b->count - 1) * step;
		struct num n = {.pos = in->pos};
		bool fits_num = true;
		if (last < 0 && last >= (__int128)INT64_MIN) {
			n.kind = NUM_INT;
			n.i = (int64_t)last;
		} else if (last >= 0 && last <= (__int128)UINT64_MAX) {
			n.kind = NUM_UINT;
			n.u = (uint64_t)last;
		} else {
			fits_num = false;
		}
		unsigned char bytes[8];
		char why[128], range[64];
		if (fits_num && num_encode(&n, b->type, bytes, why, sizeof why) == NULL)
			break;
		type_range(b->type, range, sizeof range);
		char last_text[64];
		if (fits_num) {
			num_format(&n, last_text, sizeof last_text);
			diag_error(v->d, at, "iota of buffer '%s' reaches %s at its last element, "
				   "which does not fit %s%s", b->name, last_text,
				   elem_names[b->type], range);
		} else {
			diag_error(v->d, at, "iota of buffer '%s' overflows 64 bits at its last element",
				   b->name);
		}
		break;
	}
	case INIT_RANDOM: {
		bool ok = check_fit(v, &in->min, b->type, at, "random min of buffer '%s'", b->name);
		ok &= check_fit(v, &in->max, b->type, at, "random max of buffer '%s'", b->name);
		if (!ok)
			break;
		if (isnan(num_to_double(&in->min)) || isnan(num_to_double(&in->max))) {
			diag_error(v->d, at, "random min and max of buffer '%s' must be numbers, not nan",
				   b->name);
		} else if (num_cmp(&in->min, &in->max) > 0) {
			char lo[64], hi[64];
			num_format(&in->min, lo, sizeof lo);
			num_format(&in->max, hi, sizeof hi);
			diag_error(v->d, at, "random min %s of buffer '%s' is greater than its max %s",
				   lo, b->name, hi);
		}
		break;
	}
	case INIT_FILE:
		if (in->file == NULL)
			break;
		check_data_file(v, in->file, &in->path, pos_or(in->file_pos, at), "init file",
				b, sized);
		break;
	case INIT_FORMULA: {
		char what[160];
		snprintf(what, sizeof what, "init of buffer '%s'", b->name);
		if (sized)
			formula_check(&in->formula, b, 0, b->count, what, v->d);
		break;
	}
	}
}

static void check_buffers(struct vctx *v)
{
	for (size_t i = 0; i < v->g->nbuffers; i++) {
		struct buffer *b = &v->g->buffers[i];
		/* the loader said what is wrong with it; its size is not known */
		if (b->bad) {
			v->sized[i] = false;
			b->count = b->size = 0;
			continue;
		}
		v->sized[i] = size_buffer(v, b);
		if (!v->sized[i])
			b->count = b->size = 0;
		check_init(v, b, v->sized[i]);
	}
}

/* The walk: every node and graph, in file order --------------------------- */

/* Node ids are unique in the file, default ids included. */
static void index_node(struct vctx *v, struct node *n, size_t self, bool made_up,
		       const struct pos *alias)
{
	long old;
	/*
	 * Ids the loader made up (KIND_N) are unique by construction: it skips
	 * the explicit ones.  They go into the index only when a lookup misses
	 * (complete_node_index), which on a large file without references
	 * saves a hash insert per node, and they are never empty: their
	 * strings are not even read here.  Ids this walk makes up are indexed
	 * at once, since nothing kept them clear of the explicit ones.
	 */
	n->id_first = false;
	if (!n->id_given && !made_up)
		return;
	if (n->id[0] == '\0') {
		diag_error(v->d, pos_or(n->id_pos, n->pos), "node id is empty: leave 'id' out "
			   "for a default one");
		return;
	}
	if (strmap_put(v->g->node_index, n->id, (long)self, &old)) {
		n->id_first = true;
		return;
	}
	const struct node *first = v->g->all_nodes[old];
	if (n->id_given && alias) {
		diag_error(v->d, *alias, "duplicate node id '%s': this "
			   "alias repeats a graph whose nodes have ids, and ids are unique in the "
			   "file; leave the ids out of the graph (each repeat then gets ids of "
			   "its own), or write it out again", n->id);
		diag_note(v->d, pos_or(first->id_pos, first->pos), "'%s' was first used here",
			  n->id);
		return;
	}
	/* written once, read once per value of a generator */
	if (n->id_given && first->id_given && first->id_pos.line == n->id_pos.line &&
	    first->id_pos.col == n->id_pos.col) {
		diag_error(v->d, n->id_pos, "duplicate node id '%s': a generator repeats this "
			   "node with the same id each time; put its variable in the id, as in "
			   "\"%s${i}\"", n->id, n->id);
		return;
	}
	if (n->id_given)
		diag_error(v->d, pos_or(n->id_pos, n->pos), "duplicate node id '%s'", n->id);
	else
		diag_error(v->d, n->pos, "duplicate node id '%s': it is the default id of this "
			   "%s node; give the node an explicit 'id'", n->id,
			   node_kind_names[n->kind]);
	if (first->id_given)
		diag_note(v->d, pos_or(first->id_pos, first->pos), "'%s' was first used here",
			  n->id);
	else
		diag_note(v->d, first->pos, "'%s' is the default id of this %s node", n->id,
			  node_kind_names[first->kind]);
}

/*
 * Nodes in gr and in the graphs they hold, for all_nodes' length.  Only
 * a graph whose nodes own memory (nodes_own) can hold graphs: a large
 * flat graph is counted without visiting its nodes.
 */
static size_t count_nodes(const struct graph *gr)
{
	size_t n = gr->nnodes;
	for (size_t i = 0; gr->nodes_own && i < gr->nnodes; i++) {
		const struct node *nd = gr->nodes[i];
		if (nd->kind == NK_GRAPH && nd->u.child)
			n += count_nodes(nd->u.child);
		else if (node_kind_is_conditional(nd->kind))
			for (size_t b = 0; b < nd->u.cond.nbodies; b++)
				if (nd->u.cond.bodies[b])
					n += count_nodes(nd->u.cond.bodies[b]);
	}
	return n;
}

/* 0, 1, ..., n - 1, in the arena. */
static size_t *counting(struct arena *a, size_t n)
{
	size_t *seq = arena_alloc(a, (n ? n : 1) * sizeof *seq);
	for (size_t j = 0; j < n; j++)
		seq[j] = j;
	return seq;
}

static void walk(struct vctx *v, struct graph *gr, size_t top, unsigned flags,
		 size_t auto_ids[NK_COUNT])
{
	struct gdef *g = v->g;
	*VEC_PUSH(v->graphs, v->ngraphs, v->capgraphs) = gr;
	/*
	 * A chain with no edges, as large generated files are: while no node
	 * has an after, each one's dep is the node before it, a slice of
	 * 0, 1, ..., n - 1 (see fill_deps), set here while the node is in
	 * cache.  link_graph then need not visit the nodes again; a node
	 * with an after leaves the graph to fill_deps as usual.
	 */
	gr->seq = gr->chain && gr->nedges == 0 && gr->nnodes > 0 ?
		counting(gr->arena, gr->nnodes) : NULL;
	gr->deps_set = gr->seq != NULL;
	for (size_t i = 0; i < gr->nnodes; i++) {
		struct node *n = gr->nodes[i];
		if (gr->deps_set && n->nafter > 0)
			gr->deps_set = false;
		if (gr->deps_set) {
			n->deps = i > 0 ? &gr->seq[i - 1] : NULL;
			n->ndeps = i > 0;
			n->capdeps = 0;
		}
		auto_ids[n->kind]++;
		bool made_up = n->id == NULL;
		if (made_up)
			n->id = arena_printf(&g->arena, "%s_%zu", node_kind_names[n->kind],
					     auto_ids[n->kind]);
		size_t self = g->nall_nodes;
		if (v->flat)
			g->nall_nodes++;
		else
			*ARENA_PUSH(&g->arena, g->all_nodes, g->nall_nodes, v->capall) = n;
		size_t t = gr->parent == NULL ? i : top;
		n->local = (uint32_t)i;
		n->top = (uint32_t)t;
		n->seq = (uint32_t)self;
		n->where = (uint8_t)flags;
		/* the nodes an alias wrote come in this walk's order */
		const struct pos *alias = NULL;
		if (v->replay_at < g->nreplayed && g->replayed[v->replay_at].n == n)
			alias = &g->replayed[v->replay_at++].alias;
		index_node(v, n, self, made_up, alias);
		if (n->kind == NK_GRAPH && n->u.child)
			walk(v, n->u.child, t, flags | NODE_IN_CHILD, auto_ids);
		else if (node_kind_is_conditional(n->kind))
			for (size_t b = 0; b < n->u.cond.nbodies; b++)
				if (n->u.cond.bodies[b])
					walk(v, n->u.cond.bodies[b], t, flags | NODE_IN_BODY, auto_ids);
	}
}

/* Nodes: where they may stand ------------------------------------------- */

/* Kinds the driver accepts in conditional bodies. */
static const bool body_ok[NK_COUNT] = {
	[NK_KERNEL] = true, [NK_MEMSET] = true, [NK_COPY] = true, [NK_EMPTY] = true,
	[NK_GRAPH] = true, [NK_IF] = true, [NK_WHILE] = true, [NK_SWITCH] = true,
	/* captured: kernels, memsets and copies (cugraphrun(5), Library nodes) */
	[NK_CUBLAS] = true, [NK_CUFFT] = true,
};
/* Kinds the driver refuses in child graphs. */
static const bool child_bad[NK_COUNT] = {
	[NK_IF] = true, [NK_WHILE] = true, [NK_SWITCH] = true,
	[NK_ALLOC] = true, [NK_FREE] = true,
};

/* The nearest graph around n whose owner is a child-graph node (child) or a conditional. */
static const struct graph *nearest(const struct node *n, bool child)
{
	for (const struct graph *gr = n->graph; gr && gr->owner; gr = gr->parent)
		if ((gr->owner->kind == NK_GRAPH) == child)
			return gr;
	return NULL;
}

static void check_placement(struct vctx *v, const struct node *n, unsigned flags)
{
	char where[600];
	const struct graph *gr;
	if ((flags & NODE_IN_CHILD) && child_bad[n->kind] && (gr = nearest(n, true))) {
		graph_where(gr, where, sizeof where);
		diag_error(v->d, node_kind_pos(n), "node '%s' (%s) cannot be in %s: child graphs hold "
			   "no if, while, switch, alloc or free nodes", n->id,
			   node_kind_names[n->kind], where);
	} else if ((flags & NODE_IN_BODY) && !body_ok[n->kind] && (gr = nearest(n, false))) {
		graph_where(gr, where, sizeof where);
		diag_error(v->d, node_kind_pos(n), "node '%s' (%s) cannot be in %s: conditional bodies "
			   "hold only kernel, empty, memset, copy, graph, conditional, cublas and cufft "
			   "nodes",
			   n->id, node_kind_names[n->kind], where);
	}
}

/* Only graph-memory lifetimes look at uses: other buffers need none. */
static void add_use(struct vctx *v, long buffer, size_t node)
{
	if (buffer < 0 || v->g->buffers[buffer].memory != MEM_GRAPH)
		return;
	struct use *u = VEC_PUSH(v->uses, v->nuses, v->capuses);
	u->buffer = (size_t)buffer;
	u->node = node;
}

/* Kernels ---------------------------------------------------------------- */

static const char *const arg_kind_names[] = {
	[ARG_BUFFER] = "a buffer", [ARG_SCALAR] = "a scalar", [ARG_HANDLE] = "a handle",
	[ARG_BYTES] = "bytes", [ARG_STRUCT] = "a struct", [ARG_PITCH] = "a pitch",
};

/* The built-in module's kernels and the arguments each takes. */
static const struct builtin_kernel {
	const char *name;
	const char *usage;      /* for messages */
	enum arg_kind second;   /* the first is always a handle */
	const char *reads;      /* ARG_BUFFER: the element it reads, 4 bytes */
} builtin_kernels[] = {
	{"set", "{handle: c}, {u32: v}", ARG_SCALAR, NULL},
	{"set_from", "{handle: c}, buffer", ARG_BUFFER, "u32"},
	{"countdown", "{handle: c}, buffer", ARG_BUFFER, "i32"},
};
#define NBUILTIN (sizeof builtin_kernels / sizeof *builtin_kernels)

static void check_arg(struct vctx *v, struct arg *a, size_t node, size_t argno,
		      struct pos fallback)
{
	struct pos at = pos_or(a->pos, fallback);
	switch (a->kind) {
	case ARG_BUFFER: {
		long bi = a->ref.name ? lookup(v, v->g->buffer_index, a->ref.name) : -1;
		struct num num;
		a->ref.idx = bi;
		if (bi >= 0) {
			/* known: the common case, looked up once */
		} else if (a->ref.name && parse_number(a->ref.name, &num) == SCALAR_OK) {
			/* A bare number arrives as a name: say what is wrong with it. */
			diag_error(v->d, pos_or(a->ref.pos, at), "untyped kernel argument %zu '%s': "
				   "give its type, e.g. {i32: %s} or {f32: %s}", argno, a->ref.name,
				   a->ref.name, a->ref.name);
			break;
		} else {
			resolve_buffer(v, &a->ref, at);
			break;
		}
		add_use(v, bi, node);
		const struct buffer *b = &v->g->buffers[bi];
		if (v->sized[bi] && a->offset >= b->count)
			diag_error(v->d, at, "argument %zu: offset %" PRIu64 " is past the end of "
				   "buffer '%s' (%" PRIu64 " elements)", argno, a->offset, b->name,
				   b->count);
		break;
	}
	case ARG_SCALAR:
		check_fit(v, &a->num, a->type, at, "argument %zu", argno);
		break;
	case ARG_HANDLE:
		resolve(v, &a->ref, v->g->condition_index, "condition", v->condition_names,
			v->g->nconditions, at);
		break;
	case ARG_PITCH:
		/* any buffer has a pitch: its rows', or its size when it has one row */
		add_use(v, resolve_buffer(v, &a->ref, at), node);
		break;
	case ARG_BYTES:
		if (a->nbytes == 0)
			diag_error(v->d, at, "argument %zu: empty 'bytes': give at least one byte in hex",
				   argno);
		break;
	case ARG_STRUCT:
		if (a->nfields == 0)
			diag_error(v->d, at, "argument %zu: empty 'struct': give at least one field",
				   argno);
		for (size_t i = 0; i < a->nfields; i++)
			check_arg(v, &a->fields[i], node, argno, at);
		break;
	}
}

static void check_builtin(struct vctx *v, struct kernel_node *k, struct pos at)
{
	const struct builtin_kernel *bk = NULL;
	for (size_t i = 0; i < NBUILTIN; i++)
		if (strcmp(k->func, builtin_kernels[i].name) == 0)
			bk = &builtin_kernels[i];
	if (bk == NULL) {
		const char *names[NBUILTIN];
		for (size_t i = 0; i < NBUILTIN; i++)
			names[i] = builtin_kernels[i].name;
		const char *s = diag_suggest(k->func, names, NBUILTIN);
		if (s)
			diag_error(v->d, at, "unknown built-in kernel 'builtin.%s' (did you mean "
				   "'builtin.%s'?)", k->func, s);
		else
			diag_error(v->d, at, "unknown built-in kernel 'builtin.%s': the built-in "
				   "kernels are set, set_from and countdown", k->func);
		return;
	}
	struct pos args_at = pos_or(k->args_pos, at);
	if (k->nargs != 2) {
		diag_error(v->d, args_at, "'builtin.%s' takes 2 arguments, %s; found %zu",
			   bk->name, bk->usage, k->nargs);
		return;
	}
	const struct arg *h = &k->args[0], *x = &k->args[1];
	if (h->kind != ARG_HANDLE)
		diag_error(v->d, pos_or(h->pos, args_at), "argument 1 of 'builtin.%s' must be "
			   "{handle: c}, found %s", bk->name, arg_kind_names[h->kind]);
	if (x->kind != bk->second) {
		diag_error(v->d, pos_or(x->pos, args_at), "argument 2 of 'builtin.%s' must be "
			   "%s, found %s", bk->name, bk->second == ARG_SCALAR ? "{u32: v}" : "a buffer",
			   arg_kind_names[x->kind]);
	} else if (x->kind == ARG_SCALAR && x->type != ET_U32) {
		diag_error(v->d, pos_or(x->pos, args_at), "argument 2 of 'builtin.%s' must be "
			   "{u32: v}, found {%s: ...}", bk->name, elem_names[x->type]);
	} else if (x->kind == ARG_BUFFER && x->ref.idx >= 0 && v->sized[x->ref.idx]) {
		const struct buffer *b = &v->g->buffers[x->ref.idx];
		uint64_t es = elem_infos[b->type].size;
		if (x->offset < b->count && (b->count - x->offset) * es < 4)
			diag_error(v->d, pos_or(x->pos, args_at), "'builtin.%s' reads a %s (4 bytes) "
				   "from buffer '%s', which has %" PRIu64 " bytes from offset %" PRIu64,
				   bk->name, bk->reads, b->name, (b->count - x->offset) * es, x->offset);
	}
}

/* Kernel function names: "module.function" with both parts non-empty. */
static bool split_function(struct vctx *v, struct node *n)
{
	struct kernel_node *k = &n->u.kernel;
	struct pos at = pos_or(k->function_pos, node_kind_pos(n));
	/* The loader splits only a well-formed name. */
	if (k->module.name && k->func)
		return true;
	if (k->function == NULL) {
		diag_error(v->d, node_kind_pos(n), "kernel node '%s' needs a 'function' "
			   "(module.function)", n->id);
		return false;
	}
	const char *dot = strchr(k->function, '.');
	if (dot == NULL || dot == k->function || dot[1] == '\0') {
		/* With one module of the user's, the fix is obvious. */
		if (dot == NULL && v->g->nmodules == 2 && v->g->modules[0].builtin &&
		    v->g->modules[1].name)
			diag_error(v->d, at, "kernel function '%s' is not of the form "
				   "module.function (did you mean '%s.%s'?)", k->function,
				   v->g->modules[1].name, k->function);
		else
			diag_error(v->d, at, "kernel function '%s' is not of the form "
				   "module.function", k->function);
		return false;
	}
	if (k->module.name == NULL) {
		k->module.name = gdef_strndup(v->g, k->function, (size_t)(dot - k->function));
		k->module.pos = at;
	}
	if (k->func == NULL)
		k->func = gdef_strdup(v->g, dot + 1);
	return true;
}

static void check_kernel(struct vctx *v, struct node *n, size_t self)
{
	struct kernel_node *k = &n->u.kernel;
	struct pos at = node_kind_pos(n);
	for (int i = 0; i < 3; i++) {
		if (k->grid[i] == 0)
			diag_error(v->d, pos_or(k->grid_pos, at), "grid %s must be at least 1, found 0",
				   axis_names[i]);
		else if (k->grid[i] > max_grid[i])
			diag_error(v->d, pos_or(k->grid_pos, at), "grid %s of %" PRIu32 " exceeds %"
				   PRIu32 ", the most the driver allows", axis_names[i], k->grid[i],
				   max_grid[i]);
	}
	bool block_ok = true;
	for (int i = 0; i < 3; i++) {
		if (k->block[i] == 0) {
			diag_error(v->d, pos_or(k->block_pos, at), "block %s must be at least 1, found 0",
				   axis_names[i]);
			block_ok = false;
		} else if (k->block[i] > max_block[i]) {
			diag_error(v->d, pos_or(k->block_pos, at), "block %s of %" PRIu32 " exceeds %"
				   PRIu32 ", the most the driver allows", axis_names[i], k->block[i],
				   max_block[i]);
			block_ok = false;
		}
	}
	uint64_t threads = (uint64_t)k->block[0] * k->block[1] * k->block[2];
	if (block_ok && threads > MAX_BLOCK_THREADS)
		diag_error(v->d, pos_or(k->block_pos, at), "block of %" PRIu64 " threads (%" PRIu32
			   "x%" PRIu32 "x%" PRIu32 ") exceeds 1024, the most threads per block",
			   threads, k->block[0], k->block[1], k->block[2]);
	if (k->shared > MAX_SHARED_BYTES) {
		char sz[48];
		format_size(k->shared, sz, sizeof sz);
		diag_error(v->d, pos_or(k->shared_pos, at), "dynamic shared memory of %s exceeds "
			   "227 KiB, the most one block may use on sm_90", sz);
	}

	/* Arguments first: builtin checks look at resolved buffers. */
	size_t off = 0;
	for (size_t i = 0; i < k->nargs; i++) {
		struct arg *a = &k->args[i];
		check_arg(v, a, self, i + 1, pos_or(k->args_pos, at));
		off = align_up(off, arg_align(a)) + arg_size(a);
	}
	if (off > MAX_PARAM_BYTES)
		diag_error(v->d, pos_or(k->args_pos, at), "kernel arguments take %zu bytes: at "
			   "most %u fit in a kernel's parameters", off, MAX_PARAM_BYTES);

	if (!split_function(v, n))
		return;
	long mi = resolve(v, &k->module, v->g->module_index, "module", v->module_names,
			  v->g->nmodules, pos_or(k->function_pos, at));
	if (mi >= 0 && v->g->modules[mi].builtin)
		check_builtin(v, k, pos_or(k->function_pos, at));
	else if (mi >= 0 && v->mods && !v->bad_module[mi])
		mod_check_kernel(v->mods, n);
}

/* Memset and copy -------------------------------------------------------- */

static void check_memset(struct vctx *v, struct node *n, size_t self)
{
	struct memset_node *m = &n->u.memset;
	struct pos at = node_kind_pos(n);
	long bi = resolve_buffer(v, &m->buffer, at);
	if (bi < 0)
		return;
	add_use(v, bi, self);
	const struct buffer *b = &v->g->buffers[bi];
	unsigned char bytes[8];
	char why[128];
	if (b->bad)
		return;
	if (check_fit(v, &m->value, b->type, at, "memset value for buffer '%s'", b->name) &&
	    elem_infos[b->type].size == 8) {
		num_encode(&m->value, b->type, bytes, why, sizeof why);
		if (memcmp(bytes, bytes + 4, 4) != 0) {
			char text[64];
			uint64_t bits;
			memcpy(&bits, bytes, 8);
			num_format(&m->value, text, sizeof text);
			diag_error(v->d, pos_or(m->value.pos, at), "memset of %s buffer '%s' cannot "
				   "write %s: memset nodes write 1, 2 or 4-byte words, and its bits "
				   "0x%016" PRIx64 " do not repeat every 4 bytes",
				   elem_names[b->type], b->name, text, bits);
		}
	}
	if (!v->sized[bi])
		return;
	if (m->region) {
		if (shape_region(v->d, m->region, b, m->offset, m->offset_pos, at, "memset",
				 &m->count))
			shape_memset_fits(v->d, m, b, true, at, "memset");
		return;
	}
	if (slice_fits(v->d, "memset", b, m->offset, pos_or(m->offset_pos, at), m->has_count,
		       &m->count, pos_or(m->count_pos, at)))
		shape_memset_fits(v->d, m, b, true, at, "memset");
}

/* A copy's buffers, offsets and count: a copy node's, or a host copy's (what). */
static void check_copy_fields(struct vctx *v, struct copy_node *c, struct pos at, size_t self,
			      const char *what)
{
	long fi = resolve_buffer(v, &c->from.buffer, at);
	long ti = resolve_buffer(v, &c->to.buffer, at);
	add_use(v, fi, self);
	add_use(v, ti, self);
	const struct buffer *f = fi >= 0 ? &v->g->buffers[fi] : NULL;
	const struct buffer *t = ti >= 0 ? &v->g->buffers[ti] : NULL;
	if (c->region) {
		if (f && t && v->sized[fi] && v->sized[ti] &&
		    shape_copy_region(v->d, c, f, t, at, what))
			shape_copy_fits(v->d, c, f, t, at, what);
		return;
	}
	/* both offsets are said, then the count against the source */
	bool ok = !f || !v->sized[fi] ||
		slice_fits(v->d, "copy", f, c->from.offset,
			   pos_or(c->from.offset_pos, pos_or(c->from.buffer.pos, at)), true, NULL,
			   at);
	if (t && v->sized[ti])
		ok &= slice_fits(v->d, "copy", t, c->to.offset,
				 pos_or(c->to.offset_pos, pos_or(c->to.buffer.pos, at)), true, NULL,
				 at);
	if (!ok || !f || !t || !v->sized[fi] || !v->sized[ti] ||
	    !slice_fits(v->d, "copy", f, c->from.offset, at, c->has_count, &c->count,
			pos_or(c->count_pos, at)))
		return;
	uint64_t fes = elem_infos[f->type].size, tes = elem_infos[t->type].size;
	c->bytes = c->count * fes;
	uint64_t start = c->to.offset * tes, space = t->size - start;
	if (c->bytes > space) {
		diag_error(v->d, pos_or(c->to.buffer.pos, at), "copy of %" PRIu64 " bytes runs "
			   "past the end of buffer '%s' by %" PRIu64 " bytes (it has %" PRIu64
			   " bytes from offset %" PRIu64 ")", c->bytes, t->name, c->bytes - space,
			   space, c->to.offset);
		return;
	}
	uint64_t src = c->from.offset * fes;
	if (fi == ti && src < start + c->bytes && start < src + c->bytes) {
		diag_error(v->d, pos_or(c->to.buffer.pos, at), "copy within buffer '%s' overlaps "
			   "itself: bytes %" PRIu64 " to %" PRIu64 " go to %" PRIu64 " to %" PRIu64
			   "; copy through a second buffer", f->name, src, src + c->bytes - 1,
			   start, start + c->bytes - 1);
		return;
	}
	shape_copy_fits(v->d, c, f, t, at, what);
}

static void check_copy(struct vctx *v, struct node *n, size_t self)
{
	check_copy_fields(v, &n->u.copy, node_kind_pos(n), self, "copy");
}

/* Memory operations ------------------------------------------------------ */

/*
 * Write and wait: a 32- or 64-bit value at an element of a buffer that
 * is not managed memory (cuda.h: no memory operation accepts it); the
 * keys of the other forms are refused where they mean nothing.
 */
static void check_memop_value(struct vctx *v, const struct node *n, struct memop *op,
			      size_t self, size_t k)
{
	const char *form = memop_kind_names[op->kind];
	long bi = resolve_buffer(v, &op->buffer, op->pos);
	if (op->kind == MEMOP_WRITE && op->compare_pos.line)
		diag_error(v->d, op->compare_pos, "'compare' goes with wait, not write (operation "
			   "%zu of memop node '%s')", k, n->id);
	if (op->kind == MEMOP_WRITE && op->flush_pos.line)
		diag_error(v->d, op->flush_pos, "'flush' goes with wait, not write (operation "
			   "%zu of memop node '%s')", k, n->id);
	if (bi < 0)
		return;
	add_use(v, bi, self);
	const struct buffer *b = &v->g->buffers[bi];
	struct pos at = pos_or(op->buffer.pos, op->pos);
	unsigned es = elem_infos[b->type].size;
	if (b->memory == MEM_MANAGED) {
		diag_error(v->d, at, "memop node '%s' cannot %s buffer '%s': memory operations do "
			   "not accept managed memory; use device, host or graph memory", n->id,
			   form, b->name);
		return;
	}
	if (es != 4 && es != 8) {
		diag_error(v->d, at, "memop node '%s' cannot %s buffer '%s' of %s: memory "
			   "operations %s 32- or 64-bit values; give the buffer a 4- or 8-byte "
			   "type (i32, u32, f32, i64, u64, f64)", n->id, form, b->name,
			   elem_names[b->type], op->kind == MEMOP_WRITE ? "write" : "wait on");
		return;
	}
	op->bits = (uint8_t)(es * 8);
	if (op->has_value)
		check_fit(v, &op->value, b->type, pos_or(op->value.pos, op->pos),
			  "%s value for buffer '%s'", form, b->name);
	if (v->sized[bi])
		slice_fits(v->d, form, b, op->offset, pos_or(op->offset_pos, at), true, NULL, at);
}

static void check_memop(struct vctx *v, struct node *n, size_t self)
{
	struct memop_node *m = &n->u.memop;
	if (m->nops == 0)
		diag_error(v->d, node_kind_pos(n), "memop node '%s' needs at least one operation", n->id);
	for (size_t k = 0; k < m->nops; k++) {
		struct memop *op = &m->ops[k];
		if (op->kind == MEMOP_WRITE || op->kind == MEMOP_WAIT) {
			check_memop_value(v, n, op, self, k + 1);
			continue;
		}
		/* flush_remote_writes and barrier take no buffer, value or comparison */
		struct pos extra = op->offset_pos.line ? op->offset_pos :
			op->value.pos.line && op->has_value ? op->value.pos :
			op->compare_pos.line ? op->compare_pos : op->flush_pos;
		if (extra.line)
			diag_error(v->d, extra, "%s takes no offset, value, compare or flush "
				   "(operation %zu of memop node '%s')", memop_kind_names[op->kind],
				   k + 1, n->id);
	}
}

/* Library nodes: validate_lib.c, with the names resolved here ----------- */

static long lib_resolve(void *ctx, struct name_ref *r, struct pos fallback)
{
	return resolve_buffer(ctx, r, fallback);
}

static void lib_use(void *ctx, long b, size_t self)
{
	add_use(ctx, b, self);
}

static void check_lib(struct vctx *v, struct node *n, size_t self)
{
	const struct lib_check lc = {v->g, v->d, v->sized, lib_resolve, lib_use, v};
	validate_lib_node(&lc, n, self);
}

/* The other kinds -------------------------------------------------------- */

static void check_alloc_free(struct vctx *v, struct node *n, size_t self)
{
	bool alloc = n->kind == NK_ALLOC;
	const char *kind = node_kind_names[n->kind];
	long bi = resolve_buffer(v, &n->u.buffer, node_kind_pos(n));
	v->lost_alloc_free |= bi < 0;
	if (bi < 0)
		return;
	const struct buffer *b = &v->g->buffers[bi];
	struct pos at = pos_or(n->u.buffer.pos, node_kind_pos(n));
	if (b->bad) {
		v->lost_alloc_free = true;
		return;
	}
	if (b->memory != MEM_GRAPH) {
		diag_error(v->d, at, "%s node '%s' needs a 'memory: graph' buffer, but buffer '%s' "
			   "has memory '%s'", kind, n->id, b->name, mem_kind_names[b->memory]);
		return;
	}
	long *slot = alloc ? &v->alloc_node[bi] : &v->free_node[bi];
	if (*slot >= 0) {
		const struct node *first = v->g->all_nodes[*slot];
		diag_error(v->d, at, "buffer '%s' is %s twice: by node '%s' and by node '%s'",
			   b->name, alloc ? "allocated" : "freed", first->id, n->id);
		diag_note(v->d, node_kind_pos(first), "'%s' %s it first", first->id,
			  alloc ? "allocates" : "frees");
		return;
	}
	*slot = (long)self;
}

static void check_event_node(struct vctx *v, struct node *n, size_t self)
{
	long e = resolve(v, &n->u.event, v->g->event_index, "event", v->event_names,
			 v->g->nevents, node_kind_pos(n));
	if (n->kind == NK_EVENT_WAIT && e >= 0)
		*VEC_PUSH(v->waits, v->nwaits, v->capwaits) = self;
	else if (n->kind == NK_EVENT_RECORD && e >= 0)
		v->recorded[e] = true;
	else if (n->kind == NK_EVENT_RECORD)
		v->lost_record = true;
}

/* A buffer a host action reaches: host or managed memory.  Else an error. */
static bool host_reachable(struct vctx *v, const struct node *n, long bi, struct pos at,
			   const char *verb)
{
	const struct buffer *b = &v->g->buffers[bi];
	if (b->memory == MEM_HOST || b->memory == MEM_MANAGED || b->bad)
		return true;
	diag_error(v->d, at, "host node '%s' cannot %s buffer '%s': its memory is '%s', and a "
		   "host node can reach only 'host' or 'managed' memory", n->id, verb, b->name,
		   mem_kind_names[b->memory]);
	return false;
}

/*
 * A host function: its library a file that is there (opened only when the
 * file runs: dlopen runs its constructors), its name a symbol's, its
 * buffers the host's.
 */
static void check_host_fn(struct vctx *v, struct node *n, struct pos at)
{
	struct host_fn *f = n->u.host.fn;
	uint64_t size;
	char *found = f->library && !strchr(f->library, '/') ? host_lib_search(f->library) : NULL;
	if (f->library && strchr(f->library, '/'))
		check_readable(v, f->library, &f->path, pos_or(f->library_pos, at), "host library",
			       &size);
	else if (f->library && found == NULL)
		diag_error(v->d, pos_or(f->library_pos, at), "cannot find host library '%s' where "
			   "dlopen looks for a name alone (LD_LIBRARY_PATH, the folders of "
			   "/etc/ld.so.conf, /lib, /usr/lib): give its path, with a '/', relative "
			   "to this file", f->library);
	free(found);
	if (f->function && !is_identifier(f->function))
		diag_error(v->d, pos_or(f->function_pos, at), "host function '%s' is no C name "
			   "(letters, digits and '_', not starting with a digit): the library's "
			   "symbol, as nm -D shows it", f->function);
	for (size_t i = 0; i < f->nbuffers; i++) {
		struct pos bat = pos_or(f->buffers[i].pos, at);
		long bi = resolve_buffer(v, &f->buffers[i], at);
		if (bi < 0 || !host_reachable(v, n, bi, bat, "call its function with") ||
		    !v->sized[bi] || !buffer_padded(&v->g->buffers[bi]))
			continue;
		/* struct cugraphrun_buffer has a count and no pitch: elements one after another */
		const struct buffer *b = &v->g->buffers[bi];
		diag_error(v->d, bat, "host node '%s' cannot call its function with buffer '%s': its "
			   "rows lie %" PRIu64 " bytes apart and hold %" PRIu64 ", and a host "
			   "function sees a buffer's elements one after another (its interface has "
			   "no pitch); give the buffer no pitch", n->id, b->name, buffer_pitch(b),
			   buffer_row_bytes(b));
	}
}

static void check_host(struct vctx *v, struct node *n, size_t self)
{
	struct host_node *h = &n->u.host;
	struct pos at = node_kind_pos(n);
	long bi;
	switch (h->action) {
	case HOST_PRINT:
		break;
	case HOST_SLEEP:
		if (h->sleep_ns == 0) {
			diag_error(v->d, at, "host sleep must be longer than 0");
		} else if (h->sleep_ns > MAX_SLEEP_NS) {
			char t[48];
			format_duration((double)h->sleep_ns / 1e9, t, sizeof t);
			diag_error(v->d, at, "host sleep of %s is too long: a host node may sleep "
				   "at most 60 s", t);
		}
		break;
	case HOST_DUMP: {
		struct pos bat = pos_or(h->buffer.pos, at);
		if ((bi = resolve_buffer(v, &h->buffer, at)) < 0 ||
		    !host_reachable(v, n, bi, bat, "dump") || !v->sized[bi])
			break;
		if (h->region) {
			shape_region(v->d, h->region, &v->g->buffers[bi], h->offset, h->offset_pos,
				     at, "host dump", &h->count);
			break;
		}
		slice_fits(v->d, "host dump", &v->g->buffers[bi], h->offset,
			   pos_or(h->offset_pos, bat), h->has_count, &h->count,
			   pos_or(h->count_pos, bat));
		break;
	}
	case HOST_SET: {
		struct memset_node *m = h->set;
		struct pos bat = pos_or(m->buffer.pos, at);
		if ((bi = resolve_buffer(v, &m->buffer, at)) < 0 ||
		    !host_reachable(v, n, bi, bat, "set"))
			break;
		const struct buffer *b = &v->g->buffers[bi];
		if (!b->bad)
			check_fit(v, &m->value, b->type, at, "host set value for buffer '%s'",
				  b->name);
		if (v->sized[bi] && m->region) {
			if (shape_region(v->d, m->region, b, m->offset, m->offset_pos, at,
					 "host set", &m->count))
				shape_memset_fits(v->d, m, b, false, at, "host set");
		} else if (v->sized[bi] &&
			   slice_fits(v->d, "host set", b, m->offset, pos_or(m->offset_pos, bat),
				      m->has_count, &m->count, pos_or(m->count_pos, bat))) {
			shape_memset_fits(v->d, m, b, false, at, "host set");
		}
		break;
	}
	case HOST_COPY: {
		struct copy_node *c = h->copy;
		check_copy_fields(v, c, at, self, "host copy");
		const struct name_ref *ends[2] = {&c->from.buffer, &c->to.buffer};
		for (int k = 0; k < 2; k++)
			if (ends[k]->idx >= 0)
				host_reachable(v, n, ends[k]->idx, pos_or(ends[k]->pos, at),
					       k ? "copy to" : "copy from");
		break;
	}
	case HOST_CALL:
		check_host_fn(v, n, at);
		break;
	}
}

static void check_conditional(struct vctx *v, struct node *n, size_t self)
{
	struct cond_node *c = &n->u.cond;
	struct pos at = node_kind_pos(n);
	long ci = resolve(v, &c->condition, v->g->condition_index, "condition",
			  v->condition_names, v->g->nconditions, at);
	v->lost_cond |= ci < 0;
	if (ci >= 0) {
		struct condition *cd = &v->g->conditions[ci];
		if (cd->user < 0) {
			cd->user = (long)self;
		} else {
			const struct node *first = v->g->all_nodes[cd->user];
			diag_error(v->d, pos_or(c->condition.pos, at), "condition '%s' is used by two "
				   "conditional nodes, '%s' and '%s': each condition drives exactly "
				   "one if, while or switch node", cd->name, first->id, n->id);
			diag_note(v->d, node_kind_pos(first), "'%s' uses '%s' first", first->id, cd->name);
		}
	}
	switch (n->kind) {
	case NK_IF:
		if (c->nbodies == 0 || c->bodies[0] == NULL)
			diag_error(v->d, at, "if node '%s' needs a 'then' graph", n->id);
		else if (c->nbodies > 2)
			diag_error(v->d, at, "if node '%s' has %zu bodies: give 'then' and at most "
				   "'else'", n->id, c->nbodies);
		break;
	case NK_WHILE:
		if (c->nbodies != 1 || c->bodies[0] == NULL)
			diag_error(v->d, at, "while node '%s' needs one 'body' graph", n->id);
		break;
	case NK_SWITCH:
		if (c->nbodies == 0)
			diag_error(v->d, at, "switch node '%s' needs at least one graph in 'cases'",
				   n->id);
		break;
	default:
		break;
	}
}

static long resolve_dep(struct vctx *v, const struct graph *gr, struct name_ref *r,
			const struct node *self);

/* Each node's own rules, then its after list, in file order. */
static void check_nodes(struct vctx *v)
{
	struct gdef *g = v->g;
	for (size_t i = 0; i < g->nall_nodes; i++) {
		struct node *n = g->all_nodes[i];
		check_placement(v, n, n->where);
		if (n->bad) {
			/*
			 * The loader said what is wrong inside it: its kind's
			 * fields are not looked at, and what they would have
			 * told of events, conditions and graph memory is lost.
			 */
			v->lost_record |= n->kind == NK_EVENT_RECORD;
			v->lost_cond |= node_kind_is_conditional(n->kind);
			v->lost_alloc_free |= n->kind == NK_ALLOC || n->kind == NK_FREE;
		}
		switch (n->bad ? NK_COUNT : n->kind) {
		case NK_KERNEL:
			check_kernel(v, n, i);
			break;
		case NK_MEMSET:
			check_memset(v, n, i);
			break;
		case NK_COPY:
			check_copy(v, n, i);
			break;
		case NK_ALLOC:
		case NK_FREE:
			check_alloc_free(v, n, i);
			break;
		case NK_EVENT_RECORD:
		case NK_EVENT_WAIT:
			check_event_node(v, n, i);
			break;
		case NK_HOST:
			check_host(v, n, i);
			break;
		case NK_IF:
		case NK_WHILE:
		case NK_SWITCH:
			check_conditional(v, n, i);
			break;
		case NK_GRAPH:
			if (n->u.child == NULL)
				diag_error(v->d, node_kind_pos(n), "graph node '%s' needs a graph", n->id);
			break;
		case NK_MEMOP:
			check_memop(v, n, i);
			break;
		case NK_CUBLAS:
		case NK_CUFFT:
			check_lib(v, n, i);
			break;
		case NK_EMPTY:
		case NK_COUNT:
			break;
		}
		for (size_t k = 0; k < n->nafter; k++)
			resolve_dep(v, n->graph, &n->after[k], n);
	}
}

/* Dependencies ----------------------------------------------------------- */

static void unknown_node(struct vctx *v, const struct graph *gr, const struct name_ref *r)
{
	const char *s = NULL;
	/* an id the loader could not read may be the one meant */
	if (v->g->lost.nodes)
		return;
	if (will_print(v)) {
		const char **ids = xcalloc(gr->nnodes ? gr->nnodes : 1, sizeof *ids);
		for (size_t i = 0; i < gr->nnodes; i++)
			ids[i] = gr->nodes[i]->id;
		s = diag_suggest(r->name, ids, gr->nnodes);
		free(ids);
	}
	if (s)
		diag_error(v->d, r->pos, "unknown node '%s' (did you mean '%s'?)", r->name, s);
	else
		diag_error(v->d, r->pos, "unknown node '%s'", r->name);
}

/* Add the ids index_node left out, once, the first time a lookup misses. */
static void complete_node_index(struct vctx *v)
{
	struct gdef *g = v->g;
	if (v->node_index_complete)
		return;
	v->node_index_complete = true;
	/*
	 * A fresh map filled in file order: the first node of a duplicated id
	 * wins, as it did in the partial index.
	 */
	strmap_free(g->node_index);
	g->node_index = strmap_new(g->nall_nodes);
	for (size_t i = 0; i < g->nall_nodes; i++)
		strmap_put(g->node_index, g->all_nodes[i]->id, (long)i, NULL);
}

/* The all_nodes index of the node with this id, or -1. */
static long find_node(struct vctx *v, const char *id)
{
	long a = strmap_get(v->g->node_index, id);
	if (a < 0 && !v->node_index_complete) {
		complete_node_index(v);
		a = strmap_get(v->g->node_index, id);
	}
	return a;
}

/* Resolve a dependency on a node of gr; self is the dependent node (after). */
static long resolve_dep(struct vctx *v, const struct graph *gr, struct name_ref *r,
			const struct node *self)
{
	r->idx = -1;
	if (r->name == NULL)
		return -1;
	/*
	 * An after naming the node just before its own, as a chain with ids
	 * does, shares that node's id string (see the loader's get_after):
	 * when that node is the one the index holds for its id, it is the
	 * answer, and in this graph, with no lookup.
	 */
	if (self && self->local > 0) {
		const struct node *p = gr->nodes[self->local - 1];
		if (p->id == r->name && p->id_first) {
			r->idx = (long)p->local;
			return r->idx;
		}
	}
	long a = find_node(v, r->name);
	if (a < 0) {
		unknown_node(v, gr, r);
		return -1;
	}
	const struct node *m = v->g->all_nodes[a];
	if (m->graph != gr) {
		char where[600];
		graph_where(m->graph, where, sizeof where);
		diag_error(v->d, r->pos, "'%s' is not in this graph: after and edges link nodes "
			   "of the same graph", r->name);
		diag_note(v->d, pos_or(m->id_pos, m->pos), "'%s' is in %s", r->name, where);
		return -1;
	}
	if (m == self) {
		diag_error(v->d, r->pos, "node '%s' cannot depend on itself", r->name);
		return -1;
	}
	r->idx = (long)m->local;
	return r->idx;
}

/* Report the cycle of gr in path[0..len), found walking from nodes to their deps. */
static void report_cycle(struct vctx *v, const struct graph *gr, const size_t *path,
			 size_t len)
{
	/* path[k + 1] is a dep of path[k]: in dependency order the cycle runs backwards. */
	size_t first = 0;
	for (size_t k = 1; k < len; k++)
		if (path[k] < path[first])
			first = k;
	struct strbuf sb = {0};
	if (len > CYCLE_SHOW)
		strbuf_printf(&sb, "dependency cycle of %zu nodes: ", len);
	else
		strbuf_printf(&sb, "dependency cycle: ");
	for (size_t k = 0; k <= len; k++) {
		if (len > CYCLE_SHOW && k == CYCLE_SHOW - 2) {
			strbuf_printf(&sb, "... -> ");
			k = len - 2;
		}
		size_t at = (first + len - k % len) % len;
		strbuf_printf(&sb, "%s%s", gr->nodes[path[at]]->id, k < len ? " -> " : "");
	}
	diag_code("valid-dependency-cycle");
	diag_error(v->d, gr->nodes[path[first]]->pos, "%s", sb.buf);
	strbuf_free(&sb);
}

/*
 * Fill every node's deps from chain, after and edges, without duplicates
 * (mark[x] == stamp: x is already a dep of the node being filled).  True
 * when every dep comes before its node in the file: then file order is
 * the topological order, and there is no cycle.
 *
 * A node's one dep x (the node before it in a chain, or the one its
 * after or an edge names) is a slice of *seq (0, 1, ..., n - 1, made
 * once, by walk or here) holding x: a 100,000-node chain, written with
 * chain: true or with an after on every node, needs no 100,000 lists.
 * Such deps have capdeps 0 and are never written through.
 */
static bool fill_deps(struct graph *gr, size_t **seq)
{
	bool backward = true;
	size_t n = gr->nnodes;
	size_t *eoff = NULL, *eord = NULL;
	if (gr->nedges) {
		/* Edges grouped by their target: counting sort. */
		eoff = xcalloc(n + 2, sizeof *eoff);
		eord = xcalloc(gr->nedges, sizeof *eord);
		for (size_t e = 0; e < gr->nedges; e++) {
			const struct edge *ed = &gr->edges[e];
			if (ed->from.idx >= 0 && ed->to.idx >= 0 && ed->from.idx != ed->to.idx)
				eoff[ed->to.idx + 2]++;
		}
		for (size_t j = 0; j < n; j++)
			eoff[j + 2] += eoff[j + 1];
		for (size_t e = 0; e < gr->nedges; e++) {
			const struct edge *ed = &gr->edges[e];
			if (ed->from.idx >= 0 && ed->to.idx >= 0 && ed->from.idx != ed->to.idx)
				eord[eoff[ed->to.idx + 1]++] = e;
		}
	}
	size_t *mark = NULL;
	for (size_t j = 0; j < n; j++) {
		struct node *nd = gr->nodes[j];
		bool chained = gr->chain && nd->nafter == 0 && j > 0;
		size_t ne = eoff ? eoff[j + 1] - eoff[j] : 0;
		size_t most = chained + nd->nafter + ne;
		nd->ndeps = 0;
		if (most == 0)
			continue;
		if (most == 1) {
			/* One dep, x: the slice of *seq that holds x, not a list of its own. */
			long x = chained ? (long)j - 1 : nd->nafter ? nd->after[0].idx :
				gr->edges[eord[eoff[j]]].from.idx;
			if (x < 0)
				continue;
			if (*seq == NULL)
				*seq = counting(gr->arena, n);
			nd->deps = &(*seq)[x];
			nd->ndeps = 1;
			nd->capdeps = 0;
			if ((size_t)x > j)
				backward = false;
			continue;
		}
		if (nd->capdeps < most) {
			/* In the arena: a 100,000-node chain needs no 100,000 mallocs. */
			nd->deps = arena_alloc(gr->arena, most * sizeof *nd->deps);
			nd->capdeps = (uint32_t)most;
		}
		if (chained)
			nd->deps[nd->ndeps++] = j - 1;
		if (mark == NULL)
			mark = xcalloc(n, sizeof *mark);
		size_t stamp = j + 1;
		if (chained)
			mark[j - 1] = stamp;
		for (size_t k = 0; k < nd->nafter + ne; k++) {
			long x = k < nd->nafter ? nd->after[k].idx :
				gr->edges[eord[eoff[j] + k - nd->nafter]].from.idx;
			if (x < 0 || mark[x] == stamp)
				continue;
			mark[x] = stamp;
			nd->deps[nd->ndeps++] = (size_t)x;
			if ((size_t)x > j)
				backward = false;
		}
	}
	free(mark);
	free(eoff);
	free(eord);
	return backward;
}

/*
 * A topological order by depth-first search over deps (each node after
 * its deps, otherwise in file order); a dep met again while still on the
 * stack closes a cycle, reported with the ids on it.
 */
static void order_graph(struct vctx *v, struct graph *gr)
{
	enum { WHITE, GRAY, BLACK };
	struct frame {
		size_t node, next;
	};
	size_t n = gr->nnodes, ntopo = 0;
	unsigned cycles = 0;
	gr->topo = arena_alloc(gr->arena, (n ? n : 1) * sizeof *gr->topo);
	unsigned char *state = xcalloc(n ? n : 1, 1);
	struct frame *stack = NULL;
	size_t capstack = 0;
	for (size_t s = 0; s < n; s++) {
		if (state[s] != WHITE)
			continue;
		if (gr->nodes[s]->ndeps == 0) {
			/* No deps, nothing to walk: the usual start of a chain. */
			state[s] = BLACK;
			gr->topo[ntopo++] = s;
			continue;
		}
		size_t sp = 0;
		if (capstack == 0) {
			capstack = 64;
			stack = xreallocarray(stack, capstack, sizeof *stack);
		}
		stack[sp++] = (struct frame){s, 0};
		state[s] = GRAY;
		while (sp) {
			struct frame *f = &stack[sp - 1];
			const struct node *nd = gr->nodes[f->node];
			if (f->next == nd->ndeps) {
				state[f->node] = BLACK;
				gr->topo[ntopo++] = f->node;
				sp--;
				continue;
			}
			size_t d = nd->deps[f->next++];
			if (state[d] == WHITE) {
				if (sp == capstack) {
					capstack *= 2;
					stack = xreallocarray(stack, capstack, sizeof *stack);
				}
				state[d] = GRAY;
				stack[sp++] = (struct frame){d, 0};
			} else if (state[d] == GRAY && cycles++ < MAX_CYCLES) {
				size_t k = sp - 1;
				while (stack[k].node != d)
					k--;
				size_t *path = xmalloc((sp - k) * sizeof *path);
				for (size_t q = k; q < sp; q++)
					path[q - k] = stack[q].node;
				report_cycle(v, gr, path, sp - k);
				free(path);
			}
		}
	}
	free(stack);
	free(state);
}

/* Successors of every node of gr, as offsets soff[0..n] into succ. */
static void build_succ(const struct graph *gr, size_t **soff_out, size_t **succ_out)
{
	size_t n = gr->nnodes, ndeps = 0;
	size_t *soff = xcalloc(n + 2, sizeof *soff);
	for (size_t j = 0; j < n; j++) {
		ndeps += gr->nodes[j]->ndeps;
		for (size_t k = 0; k < gr->nodes[j]->ndeps; k++)
			soff[gr->nodes[j]->deps[k] + 2]++;
	}
	for (size_t j = 0; j < n; j++)
		soff[j + 2] += soff[j + 1];
	size_t *succ = xmalloc((ndeps ? ndeps : 1) * sizeof *succ);
	for (size_t j = 0; j < n; j++)
		for (size_t k = 0; k < gr->nodes[j]->ndeps; k++)
			succ[soff[gr->nodes[j]->deps[k] + 1]++] = j;
	*soff_out = soff;
	*succ_out = succ;
}

static void link_graph(struct vctx *v, struct graph *gr)
{
	for (size_t e = 0; e < gr->nedges; e++) {
		struct edge *ed = &gr->edges[e];
		long a = resolve_dep(v, gr, &ed->from, NULL);
		long b = resolve_dep(v, gr, &ed->to, NULL);
		if (a >= 0 && a == b)
			diag_error(v->d, pos_or(ed->pos, ed->from.pos), "edge '%s -> %s' makes node "
				   "'%s' depend on itself", ed->from.name, ed->to.name, ed->from.name);
	}
	if (gr->deps_set) {
		/* walk set every node's deps: file order is the order */
		gr->topo = gr->seq;
		return;
	}
	size_t *seq = gr->seq;
	if (!fill_deps(gr, &seq)) {
		order_graph(v, gr);
		return;
	}
	/* What order_graph would find, without a second pass over the nodes. */
	gr->topo = seq ? seq : counting(gr->arena, gr->nnodes);
}

/* Graph memory ----------------------------------------------------------- */

/* Mark with stamp start and every node reachable from it through succ (or deps). */
static void reach(const struct graph *gr, size_t start, size_t *mark, size_t stamp,
		  size_t *queue, const size_t *soff, const size_t *succ)
{
	size_t head = 0, tail = 0;
	/* start counts as reached: in a cycle it would otherwise be queued twice */
	mark[start] = stamp;
	queue[tail++] = start;
	while (head < tail) {
		size_t x = queue[head++];
		const size_t *p, *end;
		if (soff) {
			p = succ + soff[x];
			end = succ + soff[x + 1];
		} else {
			/* deps is NULL when there are none: NULL + 0 is undefined in C */
			p = gr->nodes[x]->deps;
			end = gr->nodes[x]->ndeps ? p + gr->nodes[x]->ndeps : p;
		}
		for (; p < end; p++)
			if (mark[*p] != stamp) {
				mark[*p] = stamp;
				queue[tail++] = *p;
			}
	}
}

static void use_error(struct vctx *v, const struct buffer *b, const struct node *u,
		      const struct node *top, const struct node *end, bool before)
{
	const char *which = before ? "before its alloc" : "after its free";
	if (u == top)
		diag_error(v->d, node_kind_pos(u), "buffer '%s' is used by node '%s' %s node '%s'",
			   b->name, u->id, which, end->id);
	else
		diag_error(v->d, node_kind_pos(u), "buffer '%s' is used by node '%s' (inside '%s') %s "
			   "node '%s'", b->name, u->id, top->id, which, end->id);
}

static void check_graph_memory(struct vctx *v)
{
	struct gdef *g = v->g;
	const struct graph *root = g->root;
	size_t nb = g->nbuffers, n = root->nnodes;
	bool any = false;
	for (size_t b = 0; b < nb && !any; b++)
		any = g->buffers[b].memory == MEM_GRAPH;
	if (!any)
		return;
	size_t *uoff = xcalloc(nb + 1, sizeof *uoff);
	size_t *uord = xcalloc(v->nuses ? v->nuses : 1, sizeof *uord);
	for (size_t i = 0; i < v->nuses; i++)
		uoff[v->uses[i].buffer + 1]++;
	for (size_t b = 0; b < nb; b++)
		uoff[b + 1] += uoff[b];
	size_t *cur = xmalloc((nb + 1) * sizeof *cur);
	memcpy(cur, uoff, (nb + 1) * sizeof *cur);
	for (size_t i = 0; i < v->nuses; i++)
		uord[cur[v->uses[i].buffer]++] = v->uses[i].node;
	free(cur);

	size_t *soff, *succ;
	build_succ(root, &soff, &succ);
	size_t *fwd = xcalloc(n ? n : 1, sizeof *fwd);
	size_t *bwd = xcalloc(n ? n : 1, sizeof *bwd);
	size_t *queue = xmalloc((n ? n : 1) * sizeof *queue);
	for (size_t b = 0; b < nb; b++) {
		const struct buffer *buf = &g->buffers[b];
		if (buf->memory != MEM_GRAPH || buf->bad)
			continue;
		long A = v->alloc_node[b], F = v->free_node[b];
		if ((A < 0 || F < 0) && v->lost_alloc_free)
			continue;
		if (A < 0)
			diag_error(v->d, buf->pos, "buffer '%s' has 'memory: graph' but is never "
				   "allocated: add an alloc node for it", buf->name);
		if (F < 0)
			diag_error(v->d, buf->pos, "buffer '%s' has 'memory: graph' but is never "
				   "freed: add a free node after its last use", buf->name);
		if (A < 0 || F < 0)
			continue;
		const struct node *a = g->all_nodes[A], *f = g->all_nodes[F];
		/* Outside the root the placement rules have already said why. */
		if (a->graph != root || f->graph != root)
			continue;
		size_t stamp = b + 1, la = a->local, lf = f->local;
		reach(root, la, fwd, stamp, queue, soff, succ);
		reach(root, lf, bwd, stamp, queue, NULL, NULL);
		if (fwd[lf] != stamp)
			diag_error(v->d, node_kind_pos(f), "free node '%s' of buffer '%s' is not ordered "
				   "after its alloc node '%s': it must depend on '%s'", f->id,
				   buf->name, a->id, a->id);
		size_t last = SIZE_MAX;
		for (size_t k = uoff[b]; k < uoff[b + 1]; k++) {
			size_t u = uord[k];
			if (u == last)
				continue;
			last = u;
			size_t t = g->all_nodes[u]->top;
			const struct node *un = g->all_nodes[u], *tn = root->nodes[t];
			if (fwd[t] != stamp)
				use_error(v, buf, un, tn, a, true);
			else if (bwd[t] != stamp)
				use_error(v, buf, un, tn, f, false);
		}
	}
	free(soff);
	free(succ);
	free(fwd);
	free(bwd);
	free(queue);
	free(uoff);
	free(uord);
}

/* Conditions, events, checks, run ---------------------------------------- */

static void check_conditions_used(struct vctx *v)
{
	if (v->lost_cond)
		return;
	for (size_t i = 0; i < v->g->nconditions; i++) {
		const struct condition *c = &v->g->conditions[i];
		if (c->user < 0)
			diag_error(v->d, c->pos, "condition '%s' is not used by any if, while or "
				   "switch node", c->name);
	}
}

static void check_events_used(struct vctx *v)
{
	struct gdef *g = v->g;
	if (v->lost_record)
		return;
	bool *waited = xcalloc(g->nevents ? g->nevents : 1, sizeof *waited);
	for (size_t i = 0; i < v->nwaits; i++) {
		const struct node *n = g->all_nodes[v->waits[i]];
		size_t e = (size_t)n->u.event.idx;
		waited[e] = true;
		if (!v->recorded[e])
			diag_error(v->d, pos_or(n->u.event.pos, node_kind_pos(n)), "node '%s' waits on "
				   "event '%s', which no event_record node records", n->id,
				   g->events[e].name);
	}
	/* A duplicate's second entry was reported already and is never looked up. */
	for (size_t e = 0; e < g->nevents; e++)
		if (!v->recorded[e] && !waited[e] &&
		    strmap_get(g->event_index, g->events[e].name) == (long)e)
			diag_warning(v->d, g->events[e].pos, "event '%s' is declared but never "
				     "recorded", g->events[e].name);
	free(waited);
}

static void check_tolerance(struct vctx *v, double x, struct pos at, const char *name)
{
	if (!(isfinite(x) && x >= 0))
		diag_error(v->d, at, "%s must be a finite number of 0 or more, found %g", name, x);
}

/* A buffer a check may read: known, sized, not graph memory.  Its index or -1. */
static long check_target(struct vctx *v, struct name_ref *r, struct pos fallback)
{
	long bi = resolve_buffer(v, r, fallback);
	if (bi < 0)
		return -1;
	const struct buffer *b = &v->g->buffers[bi];
	if (b->bad)
		return -1;
	if (b->memory == MEM_GRAPH) {
		diag_error(v->d, pos_or(r->pos, fallback), "cannot check buffer '%s': "
			   "'memory: graph' buffers no longer exist after the launch", b->name);
		return -1;
	}
	return v->sized[bi] ? bi : -1;
}

/* The slice [offset, offset + count) of b, or its region; sets count when it was left out. */
static bool check_slice(struct vctx *v, struct check *c, const struct buffer *b)
{
	if (c->region)
		return shape_region(v->d, c->region, b, c->offset, c->offset_pos, c->pos, "check",
				    &c->count);
	return slice_fits(v->d, "check", b, c->offset, pos_or(c->offset_pos, c->pos),
			  c->has_count, &c->count, pos_or(c->count_pos, c->pos));
}

/* "buffer 'x'" or "elements 4 to 7 of buffer 'x'", for messages about a check's values. */
static void slice_words(const struct check *c, const struct buffer *b, char *buf, size_t len)
{
	char reg[160];
	if (c->region) {
		region_words(c->region, 0, b, reg, sizeof reg);
		snprintf(buf, len, "region %s of buffer '%s'", reg, b->name);
	} else if (c->offset == 0 && c->count == b->count)
		snprintf(buf, len, "buffer '%s'", b->name);
	else
		snprintf(buf, len, "elements %" PRIu64 " to %" PRIu64 " of buffer '%s'", c->offset,
			 c->offset + c->count - 1, b->name);
}

static void check_expect(struct vctx *v, struct check *c, const struct buffer *b)
{
	struct pos at = pos_or(c->expect_pos, c->pos);
	char what[200];
	slice_words(c, b, what, sizeof what);
	switch (c->expect) {
	case EXPECT_SCALAR:
		check_fit(v, &c->scalar, b->type, at, "expected value for buffer '%s'", b->name);
		break;
	case EXPECT_LIST:
		if (c->nlist != c->count)
			diag_error(v->d, at, "check of %s expects %zu value%s for %" PRIu64
				   " elements: give exactly %" PRIu64 ", or one number for all",
				   what, c->nlist, c->nlist == 1 ? "" : "s", c->count, c->count);
		for (size_t k = 0; k < c->nlist; k++)
			check_fit(v, &c->list[k], b->type, at, "expected value for buffer '%s'",
				  b->name);
		break;
	case EXPECT_FILE: {
		uint64_t size, want = c->count * elem_infos[b->type].size;
		if (c->file && check_readable(v, c->file, &c->path, at, "expect file", &size) &&
		    size != want)
			diag_error(v->d, at, "expect file '%s' has %" PRIu64 " bytes; %s has %"
				   PRIu64 " (%" PRIu64 " %s)", c->file, size, what, want, c->count,
				   elem_names[b->type]);
		break;
	}
	case EXPECT_FORMULA: {
		char fwhat[240];
		snprintf(fwhat, sizeof fwhat, "expected value of buffer '%s'", b->name);
		uint64_t first = c->offset, count = c->count;
		if (c->region) {
			/* a region's first and last elements, by their indices in the buffer */
			const struct region *r = c->region;
			uint64_t w = buffer_extent(b, AXIS_X), h = buffer_extent(b, AXIS_Y);
			const uint64_t *f0 = r->first[0];
			first = (f0[AXIS_Z] * h + f0[AXIS_Y]) * w + f0[AXIS_X];
			count = ((r->ext[AXIS_Z] - 1) * h + r->ext[AXIS_Y] - 1) * w + r->ext[AXIS_X];
		}
		formula_check(&c->formula, b, first, count, fwhat, v->d);
		break;
	}
	case EXPECT_BUFFER: {
		long ri = check_target(v, &c->ref, at);
		if (ri < 0)
			break;
		const struct buffer *r = &v->g->buffers[ri];
		struct pos rat = pos_or(c->ref.pos, at);
		if (r->type != b->type) {
			diag_error(v->d, rat, "check compares buffer '%s' (%s) with buffer '%s' (%s): "
				   "the two must have one element type", b->name,
				   elem_names[b->type], r->name, elem_names[r->type]);
			break;
		}
		if (c->ref_offset >= r->count || r->count - c->ref_offset < c->count)
			diag_error(v->d, pos_or(c->ref_offset_pos, rat), "check compares %" PRIu64
				   " elements of buffer '%s' with buffer '%s', which has %" PRIu64
				   " from offset %" PRIu64, c->count, b->name, r->name,
				   c->ref_offset < r->count ? r->count - c->ref_offset : 0,
				   c->ref_offset);
		break;
	}
	}
}

static void check_bounds(struct vctx *v, struct check *c, const struct buffer *b)
{
	const struct compare *cmp = &c->cmp;
	const char *name = reduce_names[c->reduce];
	for (int op = 0; op < BOUND_COUNT; op++) {
		struct bound *bd = &c->cmp.bound[op];
		if (!(cmp->ops & (1u << op)))
			continue;
		if (bd->ref.name == NULL) {
			if (isnan(num_to_double(&bd->value)))
				diag_error(v->d, pos_or(bd->value.pos, cmp->pos), "'%s' of '%s' is nan, "
					   "which nothing equals or compares with: to ask for no NaN, "
					   "check 'finite: true'", bound_names[op], name);
			continue;
		}
		/* a bound read from another buffer: one of its elements */
		struct num num;
		if (strmap_get(v->g->buffer_index, bd->ref.name) < 0 &&
		    parse_number(bd->ref.name, &num) == SCALAR_OK) {
			diag_error(v->d, pos_or(bd->ref.pos, cmp->pos), "'%s' of '%s' is the string "
				   "\"%s\", which would name a buffer: write the number without "
				   "quotes", bound_names[op], name, bd->ref.name);
			continue;
		}
		long ri = check_target(v, &bd->ref, cmp->pos);
		const struct buffer *r = ri >= 0 ? &v->g->buffers[ri] : NULL;
		if (r && bd->offset >= r->count)
			diag_error(v->d, pos_or(bd->offset_pos, pos_or(bd->ref.pos, cmp->pos)),
				   "'%s' of '%s' reads element %" PRIu64 " of buffer '%s', which has %"
				   PRIu64, bound_names[op], name, bd->offset, r->name, r->count);
	}
	if (cmp->ops & (1u << BOUND_NEAR)) {
		check_tolerance(v, cmp->rtol, pos_or(cmp->rtol_pos, cmp->pos), "rtol");
		check_tolerance(v, cmp->atol, pos_or(cmp->atol_pos, cmp->pos), "atol");
	}
	if (c->reduce == RED_DIFFER)
		check_fit(v, &c->differ_from, b->type, pos_or(c->differ_from.pos, cmp->pos),
			  "'from' of 'differ' for buffer '%s'", b->name);
}

/* rtol and atol of a check: numbers, and only where elements are matched. */
static void check_tolerances(struct vctx *v, const struct check *c)
{
	/* element tolerances: expect's and differ's */
	bool elementwise = c->kind == CHECK_EXPECT ||
		(c->kind == CHECK_REDUCE && c->reduce == RED_DIFFER);
	const struct pos tol_at[2] = {c->rtol_pos, c->atol_pos};
	static const char *const tol_names[2] = {"rtol", "atol"};
	for (int k = 0; k < 2 && !elementwise; k++)
		if (tol_at[k].line)
			diag_error(v->d, tol_at[k], "'%s' of a check goes with 'expect' and 'differ'; "
				   "for '%s', give the tolerance with 'near' in its bounds: "
				   "{near: v, %s: t}", tol_names[k],
				   c->kind == CHECK_FINITE ? "finite" : reduce_names[c->reduce],
				   tol_names[k]);
	check_tolerance(v, c->rtol, pos_or(c->rtol_pos, c->pos), "rtol");
	check_tolerance(v, c->atol, pos_or(c->atol_pos, c->pos), "atol");
}

/* Check c: its buffer, its slice, its test, its tolerances. */
static void check_one(struct vctx *v, struct check *c)
{
	long bi = check_target(v, &c->buffer, c->pos);
	const struct buffer *b = bi >= 0 ? &v->g->buffers[bi] : NULL;
	if (b && check_slice(v, c, b)) {
		switch (c->kind) {
		case CHECK_EXPECT:
			check_expect(v, c, b);
			break;
		case CHECK_REDUCE:
			check_bounds(v, c, b);
			break;
		case CHECK_FINITE:
			if (!elem_infos[b->type].is_float)
				diag_error(v->d, pos_or(c->kind_pos, c->pos), "'finite' looks "
					   "for NaN and infinity, which buffer '%s' (%s) cannot "
					   "hold: it applies to f16, bf16, f32 and f64 buffers",
					   b->name, elem_names[b->type]);
			break;
		}
	}
	check_tolerances(v, c);
}

static void check_checks(struct vctx *v)
{
	for (size_t i = 0; i < v->g->nchecks; i++)
		if (!v->g->checks[i].bad)
			check_one(v, &v->g->checks[i]);
}

static void check_run_section(struct vctx *v)
{
	const struct run_defaults *r = &v->g->run;
	if (r->has_device && (r->device < 0 || r->device > GDEF_MAX_DEVICE))
		diag_error(v->d, r->pos, "device %d is out of range: expected a GPU ordinal from "
			   "0 to %d", r->device, GDEF_MAX_DEVICE);
	/* The driver documents the two as incompatible. */
	if (r->has_instantiate && (r->instantiate & INST_DEVICE_LAUNCH) &&
	    (r->instantiate & INST_AUTO_FREE_ON_LAUNCH))
		diag_error(v->d, r->pos, "instantiate flags 'device_launch' and "
			   "'auto_free_on_launch' cannot be used together");
}

/* A derived model (model_derive.h) ------------------------------------------ */

bool gdef_validate_derived(struct gdef *g, struct diag *d)
{
	struct derive *dv = g->derive;
	derive_refresh(g);
	struct diag saved = *d;
	d->quiet = true;
	struct vctx v = {.g = g, .d = d};
	size_t nb = g->nbuffers;
	/* the base was valid: every buffer sized, but those read again */
	v.sized = xmalloc((nb ? nb : 1) * sizeof *v.sized);
	for (size_t i = 0; i < nb; i++)
		v.sized[i] = true;
	for (size_t i = 0; dv->buffer_dirty && i < nb; i++) {
		if (!dv->buffer_dirty[i])
			continue;
		struct buffer *b = &g->buffers[i];
		v.sized[i] = size_buffer(&v, b);
		if (!v.sized[i])
			b->count = b->size = 0;
		check_init(&v, b, v.sized[i]);
	}
	for (size_t i = 0; i < dv->nnodes; i++) {
		if (!dv->nodes[i].dirty)
			continue;
		struct node *n = dv->nodes[i].own;
		switch (n->kind) {
		case NK_KERNEL:
			/* the function and the arguments' sizes are the base's: its module agreed */
			check_kernel(&v, n, n->seq);
			break;
		case NK_MEMSET:
			check_memset(&v, n, n->seq);
			break;
		case NK_COPY:
			check_copy(&v, n, n->seq);
			break;
		case NK_HOST:
			check_host(&v, n, n->seq);
			break;
		case NK_MEMOP:
			check_memop(&v, n, n->seq);
			break;
		case NK_CUBLAS:
		case NK_CUFFT:
			/* the base's call stays the base's: this check fills in fields */
			lib_node_own(g, n);
			check_lib(&v, n, n->seq);
			break;
		default:
			/* alloc and free: their buffer's kind, the base's */
			break;
		}
	}
	for (size_t i = 0; dv->check_dirty && i < g->nchecks; i++) {
		if (!dv->check_dirty[i])
			continue;
		check_one(&v, &g->checks[i]);
	}
	bool conditions = false;
	for (size_t i = 0; dv->condition_dirty && i < g->nconditions; i++)
		conditions |= dv->condition_dirty[i];
	if (conditions && d->nerrors == saved.nerrors)
		validate_driver_fixed(g, d);
	bool ok = d->nerrors == saved.nerrors && d->nwarnings == saved.nwarnings;
	*d = saved;
	free(v.sized);
	free(v.uses);
	return ok;
}

/* The entry point -------------------------------------------------------- */

/* Forget what an earlier validation filled in, so validating twice is safe. */
static void reset(struct gdef *g)
{
	strmap_free(g->module_index);
	strmap_free(g->buffer_index);
	strmap_free(g->event_index);
	strmap_free(g->condition_index);
	strmap_free(g->node_index);
	g->module_index = g->buffer_index = g->event_index = NULL;
	g->condition_index = g->node_index = NULL;
	g->all_nodes = NULL; /* the old one stays in the arena, unused */
	g->nall_nodes = 0;
	for (size_t i = 0; i < g->nconditions; i++)
		g->conditions[i].user = -1;
	g->kattrs_of = NULL;
}

bool gdef_validate(struct gdef *g, struct diag *d)
{
	static const struct mod_settings run = {.sm = 0, .use_cache = true};
	return gdef_validate_with(g, d, &run);
}

bool gdef_validate_with(struct gdef *g, struct diag *d, const struct mod_settings *ms)
{
	unsigned errors = d->nerrors;
	struct vctx v = {.g = g, .d = d};
	size_t nb = g->nbuffers;
	reset(g);
	v.sized = xcalloc(nb ? nb : 1, sizeof *v.sized);
	v.alloc_node = xmalloc((nb ? nb : 1) * sizeof *v.alloc_node);
	v.free_node = xmalloc((nb ? nb : 1) * sizeof *v.free_node);
	for (size_t i = 0; i < nb; i++)
		v.alloc_node[i] = v.free_node[i] = -1;
	v.recorded = xcalloc(g->nevents ? g->nevents : 1, sizeof *v.recorded);
	v.bad_module = xcalloc(g->nmodules ? g->nmodules : 1, sizeof *v.bad_module);

	index_all_names(&v);
	check_modules(&v);
	if (ms)
		v.mods = mod_check_new(g, d, ms);
	check_buffers(&v);
	size_t auto_ids[NK_COUNT] = {0};
	/* At its length: grown by doubling, it would leave as much again unused in the arena. */
	v.capall = count_nodes(g->root);
	/*
	 * Explicit ids only, at first: see index_node.  Sized for every node
	 * having one, as in a chain with ids, rather than grown from 16
	 * slots, which doubled 14 times on the way to 100,000 ids and
	 * rehashed each about twice; where fewer are given, the pages no id
	 * lands in are never touched.
	 */
	g->node_index = strmap_new(v.capall);
	/*
	 * When no node holds a graph (count_nodes then visits none), file
	 * order is the root's own order: its list serves, and a large flat
	 * file needs no copy of it.
	 */
	v.flat = !g->root->nodes_own;
	if (v.flat)
		g->all_nodes = g->root->nodes;
	else if (v.capall)
		g->all_nodes = arena_alloc(&g->arena, v.capall * sizeof *g->all_nodes);
	walk(&v, g->root, 0, 0, auto_ids);
	check_nodes(&v);
	for (size_t i = 0; i < v.ngraphs; i++)
		link_graph(&v, v.graphs[i]);
	check_graph_memory(&v);
	check_conditions_used(&v);
	check_events_used(&v);
	check_checks(&v);
	check_run_section(&v);
	/* (valid: no error of its own, nor of the loader's in it) */
	validate_driver(g, d, d->nerrors == errors && g->load_errors == 0);
	validate_devices(g, d);
	validate_lib_devices(g, d);

	mod_check_free(v.mods);
	free(v.bad_module);
	free(v.module_names);
	free(v.buffer_names);
	free(v.event_names);
	free(v.condition_names);
	free(v.graphs);
	free(v.sized);
	free(v.alloc_node);
	free(v.free_node);
	free(v.recorded);
	free(v.uses);
	free(v.waits);
	return d->nerrors == errors;
}
