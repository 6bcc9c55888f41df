/*
 * The loader's state for one file (private to load*.c): struct ld, which
 * every layer of the loader reads and moves on, with the event source's
 * calls in the loader's words (ld_next, ld_skip), the loader's error
 * reporter (ld_error, ld_fatal) and the marks of the objects a later
 * point of a template may read again alone (ld_obj_open: load_point.h).
 * It sits on the event source (load_events.h) and under every other room
 * of the loader, so that each layer reaches it without an arrow back up:
 *
 *     load.c          the entry points: a path, a descriptor, a string
 *     load_point.c    a template's points, read in full or from the one before
 *     load_file.c     one model from the events: the document, its top level
 *     load_checks.c   checks, run: and throughput:
 *     load_graph.c    graphs, edges, nodes, their ids, generators
 *     load_kernel.c   kernel nodes: arguments and launch attributes
 *     load_nodes.c    the other node kinds that hold values only
 *     load_defs.c     modules, buffers, events, conditions
 *     load_map.c      mappings: key tables and field rows, merges, names
 *     load_scalar.c   scalars: numbers, sizes, durations, texts, references
 *     load_state.c    this state, its making and freeing, its errors
 *
 * Beside them: load_events.c, the event source under all of them;
 * load_axes.c, value ranges (axes: and a generator's for:), which reads
 * the event source alone; load_sweep.c, a sweep's points validated, above
 * the entry points.
 *
 * Ownership: struct ld owns its event source, its scratch arena and its
 * tables of names; the model it reads (g) is the caller's once read.
 */
#ifndef CGR_LOAD_STATE_H
#define CGR_LOAD_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "load_events.h"
#include "load_limits.h"
#include "model.h"

/* Names that must be unique in a mapping keyed by user names. */
struct names {
	struct strmap *map;
	struct name_info {
		struct pos pos;
		unsigned level;
	} *info;
	size_t n, cap;
};

/* The loader's state for one file. */
struct ld {
	struct evsrc es;        /* the events, and the current one: es.ev */
	struct gdef *g;
	/*
	 * Every node in file order, for automatic ids.  While all are in the
	 * root graph, as in most large files, its own list is that order;
	 * once a node holds a graph (nested) they are listed here.
	 */
	bool nested;
	struct node **nodes;
	size_t nnodes, capnodes;
	struct arena scratch;   /* the loader's arrays of a file's size (nodes) */
	size_t auto_counts[NK_COUNT]; /* automatic ids handed out so far, per kind */
	bool renumber;          /* they may be wrong: see assign_ids */
	struct names modules, buffers, conditions;
	/* the last kernel function read, whose strings the next same one shares */
	const struct kernel_node *last_kernel;
	size_t last_kernel_len;
	/* the last name a reference gave, which the next same one shares */
	char *last_ref;
	size_t last_ref_len;
	/* a kernel's template name put back together (kernel_unknown), or NULL */
	char *tmpl;
	/* errors inside the nodes parsed so far, for each node's own (parse_node) */
	size_t inner_errs;
	/* "did you mean" answers already worked out (load_map.h: ld_suggest) */
	struct hint {
		const void *table;
		char word[65];
		const char *answer;
	} hints[16];
	size_t nhints;
	/* a template's point (load_events.h: TEMPLATES): its sweep; NULL in a plain load */
	struct sweep *sw;
	bool axes_pass;         /* reading axes: only, before the points */
};

/* A loader for the file called name (which must outlive it), its input not yet set. */
void ld_init(struct ld *l, const char *name, const struct load_limits *limits,
	     struct diag *d);
/* Forget what one model's reading left behind (not the event source). */
void ld_model_free(struct ld *l);
/* Release all of l. */
void ld_free(struct ld *l);

/*
 * The event source's calls, in the loader's words.  Every handler reads
 * the current event as l->es.ev, and moves on with ld_next(l).
 */
static inline void ld_next(struct ld *l)
{
	ev_next(&l->es);
}

static inline void ld_next_ev(struct ld *l, bool expand)
{
	ev_advance(&l->es, expand);
}

/* Pass the current value by, unread. */
static inline void ld_skip(struct ld *l)
{
	ev_skip_value(&l->es);
}

static inline void ld_skip_ex(struct ld *l, bool expand_after)
{
	ev_skip_value_ex(&l->es, expand_after);
}

/* An error at pos; errors after a fatal one would only be noise (see ev_verror). */
void ld_error(struct ld *l, struct pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), cold));
/* An error after which nothing more is read: the format version. */
void ld_fatal(struct ld *l, struct pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), cold));

/*
 * POINTS (load_point.c): the value at the current event is an object that
 * a later point of a template may read again alone; key is the loader's
 * key (a struct keydef) for the top-level ones.  Only while a template's
 * point is recorded (es.rec); a plain load pays a test.
 */
static inline long ld_obj_open(struct ld *l, enum ev_ctx_kind kind, void *obj, size_t index,
			       const void *key, struct pos kpos)
{
	return l->es.rec ? ev_ctx_open(&l->es, kind, obj, index, key, kpos) : -1;
}

static inline void ld_obj_close(struct ld *l, long o)
{
	if (o >= 0)
		ev_ctx_close(&l->es, o);
}

#endif
