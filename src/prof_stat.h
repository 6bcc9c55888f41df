/*
 * What a profile says, computed from activity records with no CUDA in
 * it, so that it is unit-tested without a GPU: per-node statistics, the
 * critical path through the model graph (body executions included), the
 * colour scale of the coloured description, and their printing in the
 * report (human and JSON).  src/prof_cupti.c collects the records on the GPU
 * and maps each one to its YAML node; src/prof_trace.c writes them as a Chrome
 * trace.
 *
 * Ownership: a struct prof_summary owns its arrays and copies nothing of
 * the model or of the records; prof_summary_free() releases it and accepts
 * NULL.  It borrows the definition and the records, which must outlive it.
 */
#ifndef CGR_PROF_STAT_H
#define CGR_PROF_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"


/* The activity kinds collected. */
enum prof_kind { PROF_KERNEL, PROF_MEMSET, PROF_MEMCPY, PROF_KIND_COUNT };
extern const char *const prof_kind_names[PROF_KIND_COUNT];

/* One execution of one node on the GPU, as CUPTI reported it. */
struct prof_rec {
	const struct node *node;        /* NULL: not mapped to a node of the file */
	uint32_t launch;                /* which profiled launch, from 0 */
	enum prof_kind kind;
	uint64_t start_ns, end_ns;      /* GPU timestamps */
	uint32_t stream;                /* CUPTI's stream id */
	uint32_t device;
	const char *name;               /* kernel name (borrowed), or NULL */
	uint32_t grid[3], block[3];     /* kernels */
	uint64_t bytes;                 /* memset and memcpy */
};

/* One YAML node's figures. */
struct prof_node {
	const struct node *node;
	size_t nexec;                   /* records over every launch */
	double *durs;                   /* seconds, each execution, in launch order */
	double median, min, max;        /* per execution, seconds (0 when none) */
	double execs_per_launch;        /* nexec / launches */
	double per_launch;              /* median * execs_per_launch: its GPU time per launch */
	double share;                   /* per_launch / the plain median launch (else the profiled one) */
	double weight;                  /* on the critical path: its own time, or its bodies' */
	bool weight_done;
	bool on_path;
	size_t step;                    /* its index in the critical path, or SIZE_MAX */
};

/* One step of the critical path; depth > 0 inside a body of the step before. */
struct prof_step {
	size_t node;                    /* index in prof_summary.nodes */
	unsigned depth;
};

struct prof_summary {
	const struct gdef *g;
	size_t launches;
	const double *launch_s;         /* each profiled launch (events), borrowed */
	double launch_median;           /* of launch_s */
	bool has_plain;
	double plain_median;            /* the timed launches without CUPTI */
	struct prof_node *nodes;        /* one per g->all_nodes, in the same order */
	size_t nnodes;
	size_t records, unmapped;
	uint64_t dropped;               /* records CUPTI said it dropped */
	uint64_t incomplete;            /* records left out: no start or no end */
	struct prof_step *path;         /* the critical path, in order */
	size_t npath, cappath;
	double path_s;                  /* its total */
	char fill[8], note[96];         /* the overlay's scratch */
};

/* Does this node kind give activity records (kernel, memset, copy, cublas, cufft)? */
bool prof_kind_is_device_work(enum node_kind k);

/*
 * Summarize nrecs records of `launches` profiled launches whose times
 * (seconds) are launch_s; plain_median (seconds), when has_plain, is the
 * median of the timed launches without the profiler.  Never NULL.
 */
struct prof_summary *prof_summarize(const struct gdef *g, const struct prof_rec *recs,
				    size_t nrecs, size_t launches, const double *launch_s,
				    bool has_plain, double plain_median);
void prof_summary_free(struct prof_summary *s);

/* The figures of node n, or NULL when n is not of s's definition. */
const struct prof_node *prof_node_of(const struct prof_summary *s, const struct node *n);

/* The report's profile section: the table, the critical path, the cost. */
void prof_print_human(FILE *out, const struct prof_summary *s);
/*
 * The report's "profile" value as JSON, indented for depth (the key is the
 * caller's); $defs/profile of schemas/report.schema.json: keep in step.
 */
void prof_print_json(FILE *out, const struct prof_summary *s, int depth);

/*
 * The colour of a share of the launch (0 to 1; clamped) on the scale of
 * the coloured description: "#rrggbb", from pale yellow through orange to
 * dark red.  buf holds at least 8 bytes.
 */
void prof_colour(double share, char buf[8]);

struct describe_overlay;
/*
 * The coloured description (--describe with --profile): each node that ran
 * filled by its share of the launch and labelled with its median time, the
 * critical path bold.  out is valid while s lives.
 */
void prof_overlay(struct prof_summary *s, struct describe_overlay *out);
/* Is from -> to a step of the critical path (within one graph)? */
bool prof_path_edge(const struct prof_summary *s, const struct node *from,
		    const struct node *to);

#endif
