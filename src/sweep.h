/*
 * A sweep: the axes of a template file (its axes: section and the command
 * line's -a/--axis and --set), the points they give, a label per point,
 * and the model of each point once the loader has built it.  No YAML and
 * no CUDA here: the loader (load*.c, load_axes.c) fills the axes and the
 * models, load_sweep.h has each model validated (sweep_validate), the GPU
 * back end runs them.
 *
 * Points.  Every axis that is not zipped is a dimension of its own; the
 * axes of one zip group together are one dimension, walked in step (their
 * i-th values go together, so they must have as many values each).  The
 * points are the cartesian product of the dimensions in the order the
 * axes are written, the FIRST varying fastest (as nvbench orders them: a
 * plot's x axis is the first axis, so each of its lines is a run of
 * consecutive points).  A file without axes has one point.
 *
 * Labels.  A point is labelled "NAME=TEXT,NAME=TEXT", each TEXT the value
 * as written: a value from a power-of-two range as "2^20", an int in
 * decimal, a float as expr_format writes it, a word as is.
 *
 * The command line.  "-a NAME=V1,V2,..." gives axis NAME those values
 * (replacing the file's, or adding an axis after the file's ones when the
 * file's expressions use NAME); "--set NAME=V" fixes NAME to the single
 * value V (on a zipped axis: to the step of the zip whose NAME is V).  A
 * value the file's axis has keeps the file's label (2048 of a pow2 range
 * is 2^11, as the file's points are labelled, so that points match).  A
 * NAME the file neither declares nor uses is an error that lists the
 * file's axes.  Values are read as in an axis list: an integer, 2^K, a
 * float, or else a word.
 *
 * Ownership: a struct sweep owns its axes (names, values, labels: strings
 * in its arena), its points and its models (freed by sweep_free through derive_free; a
 * derived model shares much of its base's, so they go together).  The
 * template's loader that it keeps (src) is the loader's: a sweep from
 * sweep_load* is freed with sweep_release (load.h), which frees src and
 * then calls sweep_free; sweep_free does not look at src, which must be
 * NULL by then.
 */
#ifndef CGR_SWEEP_H
#define CGR_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "expr.h"
#include "model.h"
#include "xmalloc.h"

/*
 * More points than this is an error (a typo in a range, most likely): a
 * sweep holds one model per point.
 */
#define SWEEP_MAX_POINTS 10000
/* And more values in one axis or one generator range. */
#define SWEEP_MAX_VALUES 100000
/*
 * What a sweep's points may expand to together (load_point.h: BUDGET):
 * nodes, YAML events read (generators and aliases replaying theirs
 * included), and bytes of their scalars' text (${...} evaluated).  Bounds
 * the memory and time of what is accepted (cugraphrun(5): at most 512
 * bytes a node, 16 an event and the text), and refuses the rest at its
 * first point.
 */
#define SWEEP_MAX_NODES 1000000
#define SWEEP_MAX_EVENTS 32000000
#define SWEEP_MAX_TEXT (256u << 20)

struct axis {
	char *name;
	struct pos pos;                 /* the name in the file; line 0: the command line */
	struct expr_val *values;        /* strings in the sweep's arena */
	char **labels;                  /* each value as labelled ("2^20") */
	struct pos *at;                 /* each value's place in the file (line 0: none) */
	size_t nvalues, capvalues, caplabels, capat;
	unsigned zip;                   /* 0: a dimension of its own; else its zip group (1, 2, ...) */
	bool from_cli;                  /* -a or --set gave its values */
};

/* -a NAME=V1,V2 and --set NAME=V, as the command line gave them (argv's strings). */
struct axis_arg {
	const char *name;               /* NAME=... (the '=' ends the name) */
	size_t name_len;
	const char *values;             /* after the '=' */
	bool set;                       /* --set: one value */
};

struct sweep {
	struct arena arena;
	struct axis *axes;
	size_t naxes, capaxes;
	struct pos *zip_pos;            /* where zip group g + 1 was written */
	size_t nzips, capzips;
	size_t npoints;
	size_t *index;                  /* npoints x naxes: the value of each axis at each point */
	char **labels;                  /* per point; "" for a file without axes */
	/*
	 * the loader's: one model per point (NULL where one could not be
	 * read), some derived from an earlier point's (model_derive.h)
	 */
	struct gdef **models;
	/* per point: the seconds its model took to read and validate */
	double *eval_s;
	/*
	 * per point: the point whose model its own is derived from
	 * (model_derive.h; load_point.h: POINTS), or itself when read in full
	 */
	size_t *base;
	/*
	 * the template's loader while some model is derived (load.h:
	 * sweep_reload), or NULL; the loader's to free (sweep_release)
	 */
	struct sweep_src *src;
	/* the names the file's expressions use (for -a of an undeclared axis) */
	char **used;
	size_t nused, capused;
	/*
	 * the loader's: what the points expanded to together (load_point.h:
	 * BUDGET): nodes, YAML events, bytes of scalars' text
	 */
	size_t expanded_nodes, expanded_events, expanded_text;
};

struct sweep *sweep_new(void);
/* All but src, which must be NULL (a loader's sweep: sweep_release, load.h). */
void sweep_free(struct sweep *sw);

/* A new axis at the end, its name copied; NULL (after an error at pos) when the name is taken. */
struct axis *sweep_add_axis(struct sweep *sw, const char *name, struct pos pos, unsigned zip,
			    struct diag *d);
/* What an axis holds (its values, labels, places), not its name: a sweep's, or one alone (a generator's range). */
void axis_free(struct axis *a);
/* A new zip group written at pos: its number (1, 2, ...). */
unsigned sweep_add_zip(struct sweep *sw, struct pos pos);

/* Values of an axis (strings copied into the sweep's arena). */
void axis_add(struct sweep *sw, struct axis *a, struct expr_val v, const char *label);
/*
 * A value as written in a list or on the command line: an integer
 * (decimal or 0x), 2^K (an int, labelled so), a float, else a word.
 * False, with why ("2^64 is too large"), for an integer out of int64.
 */
bool axis_add_text(struct sweep *sw, struct axis *a, const char *s, size_t len, char *why,
		   size_t why_len);

/*
 * The first value of a that is one with an earlier value (the same type
 * and value, or the same label: [1, 1], [2^10, 1024]), that one's index
 * in *first; -1 when all differ.  (An axis of a zip group may repeat a
 * value: its steps as a whole must differ.)
 */
long axis_duplicate(const struct axis *a, size_t *first);
/* The same for the steps of zip group zip: the first one with all its values an earlier one's. */
long zip_duplicate(const struct sweep *sw, unsigned zip, size_t *first);

/* A name the file's expressions use, remembered for sweep_apply_args. */
void sweep_note_use(struct sweep *sw, const char *name);

/*
 * The command line's axes over the file's: errors on d, with no position
 * ("FILE: error: ..."); false after one.
 */
bool sweep_apply_args(struct sweep *sw, const struct axis_arg *args, size_t nargs,
		      struct diag *d);

/*
 * The points: false, after an error at the zip group, when zipped axes
 * differ in length, when there are more than SWEEP_MAX_POINTS, or when two
 * points would share a label (values holding the commas that join it: at
 * such a value).
 */
bool sweep_enumerate(struct sweep *sw, struct diag *d);

/*
 * The dimensions of the points, for messages, into buf: "n: 1000
 * values", "n: 10 values x zip of a, b: 4 values"; "no axes".
 */
void sweep_dims_text(const struct sweep *sw, char *buf, size_t len);

/* The value of axis a at point k. */
static inline const struct expr_val *sweep_value(const struct sweep *sw, size_t k, size_t a)
{
	return &sw->axes[a].values[sw->index[k * sw->naxes + a]];
}

static inline const char *sweep_value_label(const struct sweep *sw, size_t k, size_t a)
{
	return sw->axes[a].labels[sw->index[k * sw->naxes + a]];
}

/*
 * What point k's messages begin with (diag.h: prefix): its label, for
 * every point of a file with axes, the first and an only one too; NULL
 * for a file without (a generator's template).
 */
static inline const char *sweep_point_prefix(const struct sweep *sw, size_t k)
{
	return sw->naxes ? sw->labels[k] : NULL;
}

#endif
