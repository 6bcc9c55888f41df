/*
 * The graph definition: a plain C picture of one cugraphrun file, with no
 * libyaml or CUDA types in it, so that the front end and its tests build
 * and run without a GPU.
 *
 * Ownership: a struct gdef owns everything reachable from it; gdef_free()
 * releases it all and accepts NULL.  Every string and every node lives in
 * the gdef's arena (gdef_strdup, graph_add_node) and is never freed alone,
 * and so do the arrays of a file's size (graph->nodes, graph->topo,
 * graph->seq, all_nodes); the other growable arrays (VEC_PUSH) and graphs
 * are malloc'd and freed by gdef_free.  On a 100,000-node file the arena
 * is what keeps the model small and quick to build and release.
 * Every element keeps the position it came from, so that errors found late
 * (validation, a driver refusal, a failed check) still point into the YAML.
 *
 * The loader fills in what was written; the validator checks it and fills
 * in the resolved fields (marked "validator:"), after which back ends may
 * rely on every name being resolved and every rule of format 1 holding.
 *
 * A field added here belongs in model_dump.c too; one the validator fills
 * in, in model_derive.c's derive_refresh; and one a sweep's point may
 * change, in its derive_same_* (a derived model takes the rest from its
 * base): tests/unit/check_derive.c compares derived models with full
 * readings through the dump.
 */
#ifndef CGR_MODEL_H
#define CGR_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "scalar.h"
#include "xmalloc.h"

#define GDEF_FORMAT_VERSION 1
/* The largest GPU ordinal accepted, from the file or the command line. */
#define GDEF_MAX_DEVICE 1024
/*
 * The largest device number a node or buffer may give ('device: N').  A
 * file's device numbers are relative to the run (cugraphrun(5), Devices):
 * 0 is the GPU the file runs on, 1 the next one, and so on.
 */
#define GDEF_MAX_FILE_DEVICE 63

/* A reference to a named thing, as written; idx is set by the validator. */
struct name_ref {
	char *name;         /* NULL when absent */
	struct pos pos;
	long idx;           /* validator: index in the target array, or -1 */
};

struct module {
	char *name;
	struct pos pos;
	char *file;         /* as written */
	struct pos file_pos;
	char *path;         /* file resolved against the YAML's directory */
	bool builtin;       /* the built-in module "builtin" (no file) */
	/* A CUDA C++ source compiled with NVRTC at run time: a .cu file, or source: */
	bool source;
	struct module_define {
		char *name;
		char *value;            /* NULL: -DNAME alone */
		struct pos pos;
	} *defines;
	size_t ndefines, capdefines;
	struct module_include {
		char *dir;              /* as written */
		char *path;             /* resolved against the YAML's directory */
		struct pos pos;
	} *includes;
	size_t nincludes, capincludes;
	struct module_option {
		char *text;             /* passed to NVRTC as written */
		struct pos pos;
	} *options;
	size_t noptions, capoptions;
	char *std;                  /* "c++17" */
	/* where the source-only keys were, for errors on a non-source module */
	struct pos defines_pos, includes_pos, options_pos, std_pos;
	bool bad;                   /* the loader reported an error inside it */
	bool dynamic;               /* a sweep: some value of it reads an axis */
};

enum mem_kind { MEM_DEVICE, MEM_HOST, MEM_MANAGED, MEM_GRAPH, MEM_COUNT };
extern const char *const mem_kind_names[MEM_COUNT];

enum init_kind {
	INIT_ZERO,          /* default */
	INIT_SCALAR,        /* every element */
	INIT_LIST,          /* exactly count elements */
	INIT_IOTA,          /* start + i * step */
	INIT_RANDOM,        /* uniform in [min, max], seeded */
	INIT_FILE,          /* raw bytes, exact size */
	INIT_FORMULA,       /* an expression of the element's indices (buf_formula.h) */
};

/*
 * A per-element expression, init: {formula: ...} or expect: {formula:
 * ...}: its text (after the point's ${...} were evaluated), where it was
 * written, and whether the text lies on one line of the file from pos,
 * lead bytes in (1 for a quote), so that an error's column is exact.
 */
struct formula {
	char *text;
	struct pos pos;
	bool exact;
	uint8_t lead;
};

struct init {
	enum init_kind kind;
	struct pos pos;
	struct num scalar;              /* INIT_SCALAR */
	struct num *list;               /* INIT_LIST */
	size_t nlist, caplist;
	struct num start, step;         /* INIT_IOTA; defaults 0 and 1 */
	uint64_t seed;                  /* INIT_RANDOM; default 1 */
	struct num min, max;            /* INIT_RANDOM; defaults 0 and 1 */
	char *file;                     /* INIT_FILE, as written */
	char *path;                     /* resolved against the YAML's directory */
	struct pos file_pos;
	struct formula formula;         /* INIT_FORMULA */
};

/*
 * Shapes and pitches (cugraphrun(5), Shapes), the one model of them that
 * memsets, copies, checks, dumps, kernels' arguments and library calls
 * read.  A buffer may give its elements a shape of 1 to 3 axes, written
 * slowest first as C and NumPy write them: [width], [height, width] or
 * [depth, height, width].  A row is width elements, contiguous; rows
 * start pitch bytes apart; height rows make a slice, and slices start
 * height * pitch bytes apart.  So element [z, y, x] lies at byte
 *
 *     z * height * pitch + y * pitch + x * element size
 *
 * and pitch / element size is a row-major matrix's leading dimension in
 * elements (the validator makes the pitch a multiple of the element
 * size).  Elements are numbered in that order with the padding between
 * rows skipped: a flat offset or count (an argument's, a check's, a
 * memset's) counts elements, never padding.  The axes of a buffer and of
 * a region line up from the last (buffer_extent: x is the row).
 *
 * A buffer without shape (rank 0) is one row of count elements.  The
 * buffer's bytes as allocated are buffer_span(): pitch * rows.
 */
struct buffer_shape {
	uint8_t rank;                   /* axes written: 1 to 3; 0: no shape */
	uint64_t dim[3];                /* as written: dim[0] is the slowest axis */
	struct pos pos;
	/*
	 * Bytes from one row to the next.  validator: always set, as written
	 * or else a row's bytes.  pitch: auto (device memory, cuMemAllocPitch)
	 * leaves a row's bytes here: the driver's choice is known only once
	 * allocated (the GPU layer's gp->pitch), and shape_padded() says true.
	 */
	uint64_t pitch;
	bool has_pitch;                 /* 'pitch' written, as a size or auto */
	bool pitch_auto;
	struct pos pitch_pos;
};

struct buffer {
	char *name;
	struct pos pos;
	enum elem_type type;            /* default ET_U8 */
	struct pos type_pos;
	bool has_count, has_size;
	uint64_t count;                 /* elements; validator: always set */
	uint64_t size;                  /* bytes; validator: always set */
	struct pos count_pos, size_pos;
	enum mem_kind memory;
	struct pos memory_pos;
	struct init init;
	bool has_device;
	uint8_t device;                 /* 'device: N' (device memory); default 0 */
	struct pos device_pos;
	struct buffer_shape shape;             /* 'shape' and 'pitch'; count is their product */
	/*
	 * The loader reported an error inside it: its name stands, for what
	 * refers to it, but its type, size and memory may not be what was meant.
	 */
	bool bad;
	bool dynamic;                   /* a sweep: some value of it reads an axis */
};

struct event {
	char *name;
	struct pos pos;
};

struct condition {
	char *name;
	struct pos pos;
	uint32_t default_value;         /* applied at every launch */
	bool has_default;
	struct pos default_pos;
	long user;                      /* validator: -1, or set while walking */
	uint8_t device;                 /* validator: its conditional node's device */
	bool dynamic;                   /* a sweep: its default reads an axis */
};

enum node_kind {
	NK_KERNEL, NK_MEMSET, NK_COPY, NK_EMPTY, NK_GRAPH, NK_ALLOC, NK_FREE,
	NK_EVENT_RECORD, NK_EVENT_WAIT, NK_HOST, NK_IF, NK_WHILE, NK_SWITCH,
	NK_MEMOP, NK_CUBLAS, NK_CUFFT,
	NK_COUNT
};
/* The kind keys of format 1 ("kernel", "event_record", ...). */
extern const char *const node_kind_names[NK_COUNT];
bool node_kind_is_conditional(enum node_kind k);
/* cublas and cufft: a library's call, captured into the graph (model_lib.h). */
static inline bool node_kind_is_library(enum node_kind k)
{
	return k == NK_CUBLAS || k == NK_CUFFT;
}

/* Position p, or fallback where p was never set (line 0: a key left out). */
static inline struct pos pos_or(struct pos p, struct pos fallback)
{
	return p.line ? p : fallback;
}

enum arg_kind {
	ARG_BUFFER,         /* device address of ref (+ offset elements) */
	ARG_SCALAR,         /* num encoded as type */
	ARG_HANDLE,         /* conditional handle of ref, 8 bytes */
	ARG_BYTES,          /* raw bytes */
	ARG_STRUCT,         /* fields packed with C alignment */
	ARG_PITCH,          /* the pitch of buffer ref in bytes as allocated, 8 bytes */
};

/*
 * What a kernel does through a buffer argument, as the file says
 * (ARG_BUFFER's 'access:'), as bits: ARG_ACCESS_UNSAID when not said.
 */
enum arg_access { ARG_ACCESS_UNSAID, ARG_ACCESS_READ, ARG_ACCESS_WRITE, ARG_ACCESS_READWRITE,
	ARG_ACCESS_COUNT };
/* Their words in the format: "", "read", "write", "readwrite". */
extern const char *const arg_access_names[ARG_ACCESS_COUNT];

/*
 * One argument holds one form, so the forms share their storage (an
 * anonymous union: the field names are those of a plain struct): 48 bytes
 * rather than 120, times two or three per kernel node of a large file.
 * Only the members of a->kind's form are meaningful.  Arguments, their
 * bytes and their fields live in the gdef's arena.  (kind is 8 bits so
 * that access fits beside it in those 48 bytes.)
 */
struct arg {
	enum arg_kind kind : 8;
	uint8_t access;                 /* ARG_BUFFER: enum arg_access */
	enum elem_type type;            /* ARG_SCALAR */
	struct pos pos;
	union {
		struct {
			struct name_ref ref;    /* ARG_BUFFER, ARG_PITCH: buffer; ARG_HANDLE: condition */
			uint64_t offset;        /* ARG_BUFFER: in elements */
		};
		struct num num;         /* ARG_SCALAR */
		struct {                /* ARG_BYTES */
			uint8_t *bytes;
			size_t nbytes;
		};
		struct {                /* ARG_STRUCT */
			struct arg *fields;
			size_t nfields;
		};
	};
};

/* Size and alignment of an argument as the kernel sees it. */
size_t arg_size(const struct arg *a);
size_t arg_align(const struct arg *a);

/* off rounded up to al, a power of two as every argument's alignment is. */
static inline size_t align_up(size_t off, size_t al)
{
	return (off + al - 1) & ~(al - 1);
}

struct kernel_node {
	char *function;                 /* "module.function" as written */
	struct pos function_pos;
	struct name_ref module;         /* the part before the first '.' */
	char *func;                     /* the part after it */
	uint32_t grid[3], block[3];     /* each defaults to 1 */
	struct pos grid_pos, block_pos;
	uint64_t shared;                /* dynamic shared memory, bytes */
	struct pos shared_pos;
	struct arg *args;               /* in the arena, exactly nargs of them */
	size_t nargs;
	struct pos args_pos;
	bool has_priority;
	/*
	 * The node is device-updatable (launch attribute 13): its graph may
	 * be instantiated once and never given to cuGraphExecUpdate.  Set
	 * by the loader from 'device_updatable: true'; the rest of its
	 * launch attributes are in the gdef's kattrs (has_attrs).
	 */
	bool device_updatable;
	bool has_attrs;
	int priority;
	struct pos priority_pos;
};

/*
 * A kernel node's launch attributes that cuda.h marks valid for graph
 * nodes (priority aside: kernel_node has it), and the function attributes
 * they need.  Kept beside the nodes (gdef.kattrs), not in them: few
 * kernels have any, and a pointer in every node would cost a 100,000-node
 * file 800 KB.  Bit i of set: attribute i was written, at pos[i].
 */
enum kattr {
	KATTR_ACCESS_POLICY,            /* CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW */
	KATTR_COOPERATIVE,              /* ..._COOPERATIVE */
	KATTR_CLUSTER,                  /* ..._CLUSTER_DIMENSION */
	KATTR_CLUSTER_SCHEDULING,       /* ..._CLUSTER_SCHEDULING_POLICY_PREFERENCE */
	KATTR_DOMAIN_MAP,               /* ..._MEM_SYNC_DOMAIN_MAP */
	KATTR_DOMAIN,                   /* ..._MEM_SYNC_DOMAIN */
	KATTR_PREFERRED_CLUSTER,        /* ..._PREFERRED_CLUSTER_DIMENSION */
	KATTR_DEVICE_UPDATABLE,         /* ..._DEVICE_UPDATABLE_KERNEL_NODE */
	KATTR_NVLINK_CENTRIC,           /* ..._NVLINK_UTIL_CENTRIC_SCHEDULING */
	/* function attributes (cuFuncSetAttribute), per function */
	KATTR_NON_PORTABLE_CLUSTER,     /* CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED */
	KATTR_CARVEOUT,                 /* CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT */
	KATTR_COUNT
};
/* The kernel keys that write them ("cluster", "access_policy", ...). */
extern const char *const kattr_names[KATTR_COUNT];

/* The values of cuda.h's enums, by their names in the format. */
enum cluster_scheduling { CLUSTER_SCHED_DEFAULT, CLUSTER_SCHED_SPREAD,
	CLUSTER_SCHED_LOAD_BALANCING, CLUSTER_SCHED_COUNT };
extern const char *const cluster_scheduling_names[CLUSTER_SCHED_COUNT];
enum access_prop { ACCESS_NORMAL, ACCESS_STREAMING, ACCESS_PERSISTING, ACCESS_COUNT };
extern const char *const access_prop_names[ACCESS_COUNT];
enum sync_domain { DOMAIN_DEFAULT, DOMAIN_REMOTE, DOMAIN_COUNT };
extern const char *const sync_domain_names[DOMAIN_COUNT];

/* An L2 access policy window over a buffer (CUaccessPolicyWindow). */
struct access_window {
	struct name_ref buffer;
	uint64_t offset;                /* elements */
	struct pos offset_pos;
	bool has_count;
	uint64_t count;                 /* elements; validator: always set */
	struct pos count_pos;
	double hit_ratio;               /* default 1 */
	struct pos hit_ratio_pos;
	uint8_t hit, miss;              /* enum access_prop; defaults persisting, streaming */
	struct pos hit_pos, miss_pos;
};

struct kernel_attrs {
	struct node *node;              /* the kernel node (in the arena) */
	unsigned set;                   /* bit 1u << enum kattr: written */
	struct pos pos[KATTR_COUNT];    /* each key */
	uint32_t cluster[3], preferred_cluster[3];
	uint8_t cluster_scheduling;     /* enum cluster_scheduling */
	uint8_t domain;                 /* enum sync_domain */
	uint8_t domain_map[DOMAIN_COUNT]; /* domain ids for default and remote */
	bool cooperative, nvlink_centric, non_portable_cluster;
	int carveout;                   /* percent of shared memory, 0 to 100 */
	struct access_window window;
};

static inline bool kattr_set(const struct kernel_attrs *a, enum kattr k)
{
	return a && (a->set & (1u << k));
}

/*
 * A region of shaped buffers: a box of elements, its first element given
 * per axis of its buffer ('offset: [y, x]') and its extent per axis of
 * the region ('shape: [h, w]'), both slowest axis first.  The axes line
 * up from the last (the row): a region of fewer axes than its buffer lies
 * within one index of each leading axis, the offset's.  A copy's region
 * has two ends, from and to; an end on a buffer without shape is packed
 * (the region's rows follow each other from its flat offset).
 * Memsets, copies, checks and host dumps hold one in the arena when the
 * file writes one (NULL: the flat slice of offset and count).
 */
struct axes {
	uint8_t n;                      /* how many written: 1 to 3; 0: none */
	uint64_t v[3];                  /* as written, v[0] the slowest axis */
	struct pos pos;
};

enum { END_FROM, END_TO };

struct region {
	struct axes at[2];              /* the first element: [0] the buffer's (a copy's from), [1] a copy's to */
	struct axes shape;              /* the extent as written (n 0: the rest of the buffer) */
	/*
	 * validator: x, y and z of the first element of each end (a packed
	 * end: its flat offset, 0, 0) and the extent w, h, d (unused axes 1):
	 * what the back ends read, with buffer_extent and the pitch.
	 */
	uint64_t first[2][3];
	uint64_t ext[3];
};

struct memset_node {
	struct name_ref buffer;
	struct num value;               /* in the buffer's element type */
	uint64_t offset;                /* elements */
	struct pos offset_pos;
	bool has_count;
	/*
	 * elements (a region's: w * h * d), at least 1 when given (as every
	 * count: the loader's range); validator: always set
	 */
	uint64_t count;
	struct pos count_pos;
	struct region *region;          /* offset: [...], shape: [...]; NULL: flat */
};

/* One side of a copy: a buffer and an offset in its elements. */
struct copy_end {
	struct name_ref buffer;
	uint64_t offset;
	struct pos offset_pos;
};

struct copy_node {
	struct copy_end from, to;
	bool has_count;
	uint64_t count;                 /* elements of from; validator: always set */
	struct pos count_pos;
	uint64_t bytes;                 /* validator: count * element size */
	struct region *region;          /* shape: [...] or an offset list; NULL: flat */
};

/* What a host node does: buf_host.h runs it. */
enum host_action { HOST_PRINT, HOST_SLEEP, HOST_DUMP, HOST_SET, HOST_COPY, HOST_CALL };

/*
 * HOST_CALL: a function of a shared library of the user's, called with
 * the node's buffers (host_lib.h; <cugraphrun/host.h> is its interface).
 */
struct host_fn {
	char *library;                  /* as written */
	char *path;                     /* resolved against the YAML's directory */
	struct pos library_pos;
	char *function;                 /* the symbol */
	struct pos function_pos;
	struct name_ref *buffers;       /* in the arena, exactly nbuffers */
	size_t nbuffers;
	struct pos buffers_pos;
	char *arg;                      /* text for the function, or NULL */
};

struct host_node {
	enum host_action action;
	bool every;                     /* HOST_DUMP: on every launch, not the first alone */
	bool has_count;                 /* HOST_DUMP */
	char *text;                     /* HOST_PRINT */
	uint64_t sleep_ns;              /* HOST_SLEEP */
	/* HOST_DUMP: the buffer and its slice; validator: count always set */
	struct name_ref buffer;
	uint64_t offset, count;
	struct pos offset_pos, count_pos;
	struct region *region;          /* HOST_DUMP: offset: [...], shape: [...]; NULL: flat */
	/* HOST_SET: the fields of a memset; HOST_COPY: those of a copy (in the arena) */
	struct memset_node *set;
	struct copy_node *copy;
	struct host_fn *fn;             /* HOST_CALL (in the arena) */
};

/*
 * Memory operations (CU_GRAPH_NODE_TYPE_BATCH_MEM_OP): each writes or waits
 * on a 32- or 64-bit value at an element of a buffer, flushes remote
 * writes, or is a memory barrier.
 */
enum memop_kind { MEMOP_WRITE, MEMOP_WAIT, MEMOP_FLUSH, MEMOP_BARRIER, MEMOP_COUNT };
extern const char *const memop_kind_names[MEMOP_COUNT];
/* CUstreamWaitValue_flags' comparisons, in their order (geq is 0). */
enum memop_compare { CMP_GEQ, CMP_EQ, CMP_AND, CMP_NOR, CMP_COUNT };
extern const char *const memop_compare_names[CMP_COUNT];
/* CUstreamMemoryBarrier_flags, in their order (sys is 0). */
enum memop_scope { SCOPE_SYS, SCOPE_GPU, SCOPE_COUNT };
extern const char *const memop_scope_names[SCOPE_COUNT];

struct memop {
	enum memop_kind kind;
	struct pos pos;
	struct name_ref buffer;         /* write, wait */
	uint64_t offset;                /* elements */
	struct pos offset_pos;
	struct num value;               /* write, wait: in the buffer's element type */
	bool has_value;
	uint8_t compare;                /* wait: enum memop_compare (default geq) */
	struct pos compare_pos;
	bool flush;                     /* wait: then flush remote writes */
	struct pos flush_pos;
	uint8_t scope;                  /* barrier: enum memop_scope */
	uint8_t bits;                   /* validator: write, wait: 32 or 64 */
};

struct memop_node {
	struct memop *ops;              /* in the arena, exactly nops */
	size_t nops;
};

struct graph;
struct blas_call;
struct fft_call;

/*
 * IF: bodies[0] is then, bodies[1] (optional) else.  WHILE: bodies[0].
 * SWITCH: one body per case.
 */
struct cond_node {
	struct name_ref condition;
	struct graph **bodies;
	size_t nbodies, capbodies;
};

struct node {
	/*
	 * What every pass over the nodes reads (ids, kinds, dependencies)
	 * comes first, in the first 64 bytes.  Nodes sit in the arena at
	 * 16-byte alignment, so that is one or two cache lines rather than
	 * three or four: on a 100,000-node file, each pass misses the cache
	 * that much less.
	 */
	char *id;                       /* explicit, or KIND_N assigned at load */
	struct graph *graph;            /* the graph holding this node */
	/*
	 * Same graph; validator resolves idx.  In the arena, exactly nafter
	 * of them: most nodes that have an after name one node, and a
	 * growable array of its own per node cost a 112-byte malloc'd block
	 * and a free per node, and a pass over every node to free them.
	 */
	struct name_ref *after;
	/* validator: dependencies as indices into graph->nodes, without duplicates (in the arena) */
	size_t *deps;
	uint32_t nafter;
	uint32_t ndeps, capdeps;
	enum node_kind kind;
	/*
	 * Flags, as bits so that the node stays 232 bytes.  id_first,
	 * validator: node_index maps this node's id to it (the first node of
	 * that id).  disabled, validator (enabled: false) or gdef_disable
	 * (--disable): switched off on the executable graph
	 * (cuGraphNodeSetEnabled) at every launch.  dynamic, a sweep: some
	 * value of the node (or of a node in a graph it holds) reads an axis,
	 * so its parameters may differ from point to point.  bad, the loader
	 * reported an error in the node's own keys (not in the nodes of its
	 * graphs): its id, kind and after stand, its kind's fields may not; a
	 * node whose kind could not be read at all but that has an id stays as
	 * a bad empty node, so that what names it still finds it.
	 */
	bool id_given : 1, id_first : 1, disabled : 1, dynamic : 1, bad : 1;
	uint8_t where;                  /* validator: NODE_IN_BODY, NODE_IN_CHILD */
	/*
	 * The index in graph->nodes (set as the node is added, and again by
	 * the validator: a derived model finds a node's place by it), and,
	 * validator: that of the root node holding this one (itself at the
	 * top level), and the index in gdef.all_nodes, by which per-node
	 * figures (the profile) are kept.
	 * 32 bits are plenty: a file of at most 1 GiB, with aliases
	 * expanding to at most 1,000,000 events, holds far fewer nodes.
	 * (seq fills what was padding before pos: the node stays 232 bytes.)
	 */
	uint32_t local, top, seq;
	struct pos pos;                 /* the node's mapping */
	struct pos id_pos;
	struct pos kind_pos;            /* the kind key */
	union {
		struct kernel_node kernel;
		struct memset_node memset;
		struct copy_node copy;
		struct graph *child;    /* NK_GRAPH */
		struct name_ref buffer; /* NK_ALLOC, NK_FREE */
		struct name_ref event;  /* NK_EVENT_RECORD, NK_EVENT_WAIT */
		struct host_node host;
		struct cond_node cond;  /* NK_IF, NK_WHILE, NK_SWITCH */
		struct memop_node memop; /* NK_MEMOP */
		struct blas_call *blas; /* NK_CUBLAS, in the arena (model_lib.h) */
		struct fft_call *fft;   /* NK_CUFFT, in the arena */
	} u;
};

/* Where a node stands (node.where): inside a conditional body, a child graph. */
enum { NODE_IN_BODY = 1u << 0, NODE_IN_CHILD = 1u << 1 };

/* Where errors about a node as a whole point: its kind key, else its mapping. */
static inline struct pos node_kind_pos(const struct node *n)
{
	return pos_or(n->kind_pos, n->pos);
}

/* An extra dependency from an edges list. */
struct edge {
	struct name_ref from, to;
	struct pos pos;
};

/*
 * Edge data (CUgraphEdgeData): the upstream kernel's outgoing port and the
 * dependency type; to_port is always 0.  Named as in the format.
 */
enum edge_port { PORT_DEFAULT, PORT_PROGRAMMATIC, PORT_LAUNCH_ORDER, PORT_COUNT };
extern const char *const edge_port_names[PORT_COUNT];
enum edge_type { ETYPE_DEFAULT, ETYPE_PROGRAMMATIC, ETYPE_COUNT };
extern const char *const edge_type_names[ETYPE_COUNT];

/*
 * A dependency written with edge data: an after entry {node, port, type}
 * of node to (index: in to->after), or an edges entry {from, to, port,
 * type} (to NULL; index: in the graph's edges).  Few graphs have any, so
 * they are listed per graph rather than widening every dependency.
 */
struct typed_edge {
	struct node *to;
	uint32_t index;
	uint8_t port, type;             /* enum edge_port, enum edge_type */
	struct pos pos;                 /* the entry */
	struct pos port_pos, type_pos;  /* line 0: not written */
	long from_local, to_local;      /* validator: both ends in graph->nodes, or -1 */
};

struct graph {
	struct arena *arena;            /* the gdef's, for nodes and strings */
	struct pos pos;
	/* in the arena (ARENA_PUSH); the nodes too, so their pointers stay valid */
	struct node **nodes;
	size_t nnodes, capnodes;
	struct edge *edges;
	size_t nedges, capedges;
	struct typed_edge *typed;       /* dependencies with edge data (malloc'd) */
	size_t ntyped, captyped;
	bool chain;
	/*
	 * Some node holds memory outside the arena (bodies, a child graph),
	 * so graph_free must visit the nodes; without, a 100,000-node chain
	 * is released without touching one.  Set by graph_new, and by the
	 * loader when it allocates an if or while node's bodies array.
	 */
	bool nodes_own;
	struct graph *parent;           /* NULL for the root */
	struct node *owner;             /* the graph/if/while/switch node, or NULL */
	unsigned body_index;            /* which body of owner (case n, else = 1) */
	/* validator: indices into nodes in an order where deps come first (in the arena) */
	size_t *topo;
	/* validator: 0, 1, ..., nnodes - 1 for a chain's deps (in the arena), or NULL */
	size_t *seq;
	/* validator: the walk found a chain with no after and no edges and set the deps */
	bool deps_set;
};

/*
 * A check after the verification launch: a slice of a buffer (by default
 * all of it) compared element by element with what expect gives, or one
 * figure of it (a reduction) compared with bounds, or asked to hold no
 * NaN or infinity.  Exactly one of those per check.
 */
enum check_kind { CHECK_EXPECT, CHECK_REDUCE, CHECK_FINITE };
enum expect_kind { EXPECT_SCALAR, EXPECT_LIST, EXPECT_FILE, EXPECT_BUFFER, EXPECT_FORMULA };

/* The figures a check can take of a slice (buf_reduce.h says how). */
enum reduce_kind {
	RED_SUM, RED_MIN, RED_MAX, RED_NORM2,
	RED_NONZERO,            /* how many elements are not 0 */
	RED_DIFFER,             /* how many elements differ from differ_from */
	RED_COUNT
};
/* Their keys in a check ("sum", "norm2", ...). */
extern const char *const reduce_names[RED_COUNT];

/* The comparisons a bound makes: figure == v, < v, <= v, > v, >= v, near v. */
enum bound_op { BOUND_EQ, BOUND_LT, BOUND_LE, BOUND_GT, BOUND_GE, BOUND_NEAR, BOUND_COUNT };
/* Their keys ("eq", "lt", ...) and symbols ("==", "<", ...). */
extern const char *const bound_names[BOUND_COUNT];
extern const char *const bound_symbols[BOUND_COUNT];

/*
 * What a figure must be: every bound given holds (a range is ge and le).
 * A bound is a number, or an element of another buffer (ref named): the
 * sum of a kernel's input against the kernel's own result.
 */
struct bound {
	struct num value;
	struct name_ref ref;            /* name NULL: value is the bound */
	uint64_t offset;                /* ref: its element */
	struct pos offset_pos;
};

struct compare {
	struct pos pos;
	unsigned ops;                   /* 1 << enum bound_op, for each given */
	struct bound bound[BOUND_COUNT];  /* the bound of each given op */
	double rtol, atol;              /* BOUND_NEAR: |x - v| <= atol + rtol * |v| */
	struct pos rtol_pos, atol_pos;
};

struct check {
	struct pos pos;
	struct name_ref buffer;
	/* the slice: offset and count in elements; validator: count always set */
	uint64_t offset, count;
	bool has_count;
	struct pos offset_pos, count_pos;
	/* offset: [...], shape: [...]; NULL: the flat slice (count: the region's elements) */
	struct region *region;
	enum check_kind kind;
	struct pos kind_pos;            /* the key that says what is checked */
	/* CHECK_EXPECT */
	enum expect_kind expect;
	struct pos expect_pos;
	struct num scalar;
	struct num *list;
	size_t nlist, caplist;
	char *file;                     /* as written */
	char *path;                     /* resolved */
	struct name_ref ref;            /* EXPECT_BUFFER: the other buffer */
	uint64_t ref_offset;            /* its slice starts there, count long */
	struct pos ref_offset_pos;
	struct formula formula;         /* EXPECT_FORMULA */
	/* CHECK_EXPECT and RED_DIFFER: when an element matches */
	double rtol, atol;              /* default 0 */
	struct pos rtol_pos, atol_pos;
	/* CHECK_REDUCE */
	enum reduce_kind reduce;
	struct compare cmp;
	struct num differ_from;         /* RED_DIFFER */
	bool bad;                       /* the loader reported an error inside it */
	bool dynamic;                   /* a sweep: some value of it reads an axis */
};

/* instantiate flags by name (the values are not CUDA's). */
enum inst_flag {
	INST_UPLOAD = 1u << 0,
	INST_AUTO_FREE_ON_LAUNCH = 1u << 1,
	INST_USE_NODE_PRIORITY = 1u << 2,
	INST_DEVICE_LAUNCH = 1u << 3,
};
#define INST_FLAG_COUNT 4
extern const char *const inst_flag_names[INST_FLAG_COUNT];

/* The most launches a verification may run before its checks (run.verify_launches). */
#define RUN_MAX_VERIFY_LAUNCHES 1000000

struct run_defaults {
	struct pos pos;
	bool has_repeat, has_warmup, has_timeout, has_device, has_instantiate;
	uint32_t repeat;
	uint32_t warmup;
	uint64_t timeout_ns;
	int device;
	unsigned instantiate;           /* enum inst_flag bits */
	bool expect_fail;               /* run.expect: fail: a check must fail */
	char *skip;                     /* run.skip: the reason; NULL: run */
	/* run.persisting_l2: bytes of L2 set aside for persisting accesses */
	bool has_persisting_l2;
	uint64_t persisting_l2;
	struct pos persisting_l2_pos;
	/* run.verify_launches: launches before the checks (default 1) */
	bool has_verify_launches;
	uint32_t verify_launches;
	struct pos verify_launches_pos;
};

/*
 * A node written with 'device: N', and where.  Kept beside the nodes, as
 * the launch attributes are: most files never name a device.
 */
struct node_device {
	struct node *node;
	uint8_t device;
	struct pos pos;
};

/* A node written with 'enabled: false', and where. */
struct switched_off {
	struct node *node;
	struct pos pos;
};

/* The libraries a file may require (requires.libraries), by their names. */
enum req_lib { REQ_NVRTC, REQ_CUBLAS, REQ_CUBLASLT, REQ_CUFFT, REQ_CUSPARSE, REQ_CURAND,
	REQ_CUPTI, REQ_LIB_COUNT };
extern const char *const req_lib_names[REQ_LIB_COUNT];

/*
 * requires: what the file needs of the machine it runs on; a run where
 * one is not met is skipped (requires.h says how each is judged).
 */
struct requirements {
	struct pos pos;
	bool has_cc, has_driver, has_gpus, has_memory;
	uint8_t cc_major, cc_minor;     /* compute capability at least this */
	int driver;                     /* CUDA driver at least, as cuDriverGetVersion: 12080 */
	uint32_t gpus;                  /* GPUs at least */
	uint64_t memory;                /* bytes of device memory at least */
	unsigned libraries;             /* bit 1u << enum req_lib: found */
	struct pos cc_pos, driver_pos, gpus_pos, memory_pos, libraries_pos;
};

/*
 * throughput: {bytes: N, items: N, flops: N, flops_type: T}: what one
 * launch of the graph moves, processes and computes, for GB/s, items/s
 * and TFLOP/s in the report (flops.h: the peak of flops_type).
 */
struct throughput_decl {
	struct pos pos;
	bool has_bytes, has_items, has_flops, has_flops_type;
	double bytes, items, flops;
	uint8_t flops_type;             /* enum flops_type */
	struct pos flops_type_pos;
};

struct gdef {
	struct arena arena;             /* every string and node of the model */
	char *file;                     /* as given on the command line */
	char *dir;                      /* its directory, for relative paths */
	int version;
	char *name, *description;
	struct module *modules;
	size_t nmodules, capmodules;
	struct buffer *buffers;
	size_t nbuffers, capbuffers;
	struct event *events;
	size_t nevents, capevents;
	struct condition *conditions;
	size_t nconditions, capconditions;
	struct graph *root;
	struct check *checks;
	size_t nchecks, capchecks;
	struct run_defaults run;
	/* kernel nodes with launch attributes, file order (malloc'd; each in the arena) */
	struct kernel_attrs **kattrs;
	size_t nkattrs, capkattrs;
	/* validator: per all_nodes index, a kernel's attributes or NULL (NULL when none has any) */
	struct kernel_attrs **kattrs_of;
	/* nodes written with 'enabled: false' (malloc'd) */
	struct switched_off *off;
	size_t noff, capoff;
	/* nodes written with 'device: N', file order (malloc'd) */
	struct node_device *devs;
	size_t ndevs, capdevs;
	/*
	 * validator (validate_devices.c): per all_nodes index, the device the
	 * node runs on, its own 'device:' or its graph's (in the arena); NULL
	 * when every node is on device 0.  ndevices: 1 + the highest device
	 * number a node or buffer uses, so how many GPUs the file needs.
	 */
	uint8_t *device_of;
	unsigned ndevices;
	struct throughput_decl throughput;
	struct requirements requires;
	/*
	 * Names the loader could not read (a section that is not a mapping, an
	 * id that is not text): a reference the validator cannot resolve may
	 * mean one of them, and is not reported.
	 */
	struct {
		bool modules, buffers, events, conditions, nodes;
	} lost;
	size_t load_errors;             /* the loader's errors in it, repeats included */
	/*
	 * Nodes an alias wrote (a repeated graph), in file order, with the
	 * alias written in the file: a duplicate id that an alias repeats is
	 * the alias's fault, and is reported there.
	 */
	struct replayed_node {
		const struct node *n;
		struct pos alias;
	} *replayed;
	size_t nreplayed, capreplayed;
	/*
	 * validator: name lookups.  node_index may hold only the explicit ids
	 * (and those the validator made up): ids the loader made up are added
	 * only when a reference missed.  Look nodes up in all_nodes by id when
	 * the id may be a default one.
	 */
	struct strmap *module_index, *buffer_index, *event_index,
		*condition_index, *node_index;
	/* validator: every node, file order (in the arena; the root's own list if flat) */
	struct node **all_nodes;
	size_t nall_nodes;
	/*
	 * A sweep's point whose model shares all but some values with an
	 * earlier point's (model_derive.h): what it shares and owns.  NULL:
	 * the model owns everything reachable from it.
	 */
	struct derive *derive;
};

/* A new, empty definition for file (copied); root graph allocated. */
struct gdef *gdef_new(const char *file);
/* (A derived model: its own part only; see model_derive.h.) */
void gdef_free(struct gdef *g);
/* Strings of the model, in its arena. */
char *gdef_strdup(struct gdef *g, const char *s);
char *gdef_strndup(struct gdef *g, const char *s, size_t n);
/* A graph nested in parent (which gives it the arena); owner may be NULL. */
struct graph *graph_new(struct graph *parent, struct node *owner);
void graph_free(struct graph *gr);
/* A new zeroed node of kind, appended to gr (which owns it). */
struct node *graph_add_node(struct graph *gr, enum node_kind kind);
/* A new, zeroed entry at the end of n->after, or of a kernel's args. */
struct name_ref *node_add_after(struct node *n);
/* (Both are copied to a longer array in the arena: for tests and small
 * graphs; the loader places each list once, at its final length.) */
struct arg *kernel_add_arg(struct node *n);

/* Resolve a path written in the file against the file's directory (in the arena). */
char *gdef_resolve_path(struct gdef *g, const char *written);

/* A kernel node's launch attributes, or NULL (after validation). */
static inline const struct kernel_attrs *kernel_attrs_of(const struct gdef *g,
							 const struct node *n)
{
	return n->kind == NK_KERNEL && n->u.kernel.has_attrs && g->kattrs_of ?
		g->kattrs_of[n->seq] : NULL;
}

/*
 * The first device-updatable kernel node (device_updatable: true), or
 * NULL.  cuda.h: a graph that holds one allows no second instantiation
 * and is never given to cuGraphExecUpdate, so whatever would instantiate
 * again or update in place asks here first.
 */
const struct node *gdef_device_updatable(const struct gdef *g);

/* The device node n runs on, relative to the run's (after validation). */
static inline unsigned node_device(const struct gdef *g, const struct node *n)
{
	return g->device_of ? g->device_of[n->seq] : 0;
}

/*
 * Every file a validated definition reads besides itself, in file order:
 * fn(ctx, what, written, path, pos) for each module file or source, init
 * file, expect file and host library named by a path ("module file",
 * "init file", ...; as written; as resolved; where it is named).  What names another file goes here, so
 * that no output replaces it (outputs.c).
 */
typedef void gdef_input_fn(void *ctx, const char *what, const char *written, const char *path,
			   struct pos pos);
void gdef_input_files(const struct gdef *g, gdef_input_fn *fn, void *ctx);

/* Counts by kind over a graph and everything nested in it. */
void graph_count_kinds(const struct graph *gr, size_t counts[NK_COUNT], bool recurse);

/*
 * What a file holds, in words: "4 nodes (2 kernel, 1 memset, 1 while),
 * 1 buffer, 0 modules, 0 events, 1 condition, 1 check" (nested nodes
 * counted; the built-in module not).
 */
void gdef_summary(const struct gdef *g, char *buf, size_t len);

#endif
