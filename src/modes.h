/*
 * The ways a file runs (cugraphrun(1), MODES): as the explicit graph it
 * describes (graph, what every run did before modes), as its nodes issued
 * one by one on streams at every launch (stream), or as that stream issue
 * captured into a graph (capture).  Here: their names, --mode's list of
 * them, the axis named "mode", the rows of a run in modes (each point of
 * the file in its mode, labelled as a sweep's points are), and what stream
 * mode must know of kernels that set conditions (the built-in ones'
 * variants, a kernel's handle arguments).  No CUDA and
 * no YAML here: the front end checks a run in modes with this
 * (validate_modes.h), the GPU back end runs its rows (gpu_modes.c), the
 * report prints them (report_modes.h).
 *
 * The axis.  A run in modes is a sweep whose last axis is "mode".  A file
 * whose own axes have one named "mode" sweeps the modes itself: each of
 * its values must be a mode's name, and each point runs in its own (-a
 * mode=... and --set mode=... choose, as for any axis).  Otherwise
 * --mode=LIST adds the axis after the file's: every point of the file in
 * each mode of the list.  --mode with a file that has its own axis "mode"
 * is an error: two lists for one axis.
 *
 * Ownership: a struct mode_rows owns its arrays and labels (mode_rows_free);
 * its axis names and texts are the sweep's or static.
 */
#ifndef CGR_MODES_H
#define CGR_MODES_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "report.h"
#include "sweep.h"

enum run_mode { MODE_GRAPH, MODE_STREAM, MODE_CAPTURE, MODE_COUNT };
/* "graph", "stream", "capture" */
extern const char *const run_mode_names[MODE_COUNT];

/* The name of the modes' axis, in a file and in the report. */
#define MODE_AXIS "mode"

/* --mode=LIST: modes in the order given, each once; n 0: not given. */
struct mode_list {
	enum run_mode v[MODE_COUNT];
	unsigned n;
};

/*
 * "stream,graph" or "all" (graph, capture, stream) into out.  False, with
 * the word that is no mode in bad ("" for an empty word), otherwise.
 */
bool mode_list_parse(const char *s, struct mode_list *out, char *bad, size_t badlen);

/* The mode named name[0..len), or -1. */
int run_mode_of(const char *name, size_t len);

/* The index of sw's axis named "mode", or -1 when it has none. */
long mode_axis(const struct sweep *sw);

/* Does the run go through the modes: --mode given, or an axis named "mode"? */
bool modes_wanted(const struct sweep *sw, const struct mode_list *list);

/*
 * The rows of a run in modes, in the order they run and the report lists
 * them: the points of sw in order, each in its own mode (the file's
 * axis), or the points of sw for each mode of the list in turn (--mode:
 * the mode axis is the last, the slowest to vary, as a sweep's last axis
 * is); then every row in stream mode moved after all the others, each
 * group keeping that order.  A graph launched in a process after launches
 * on several streams ran up to 17% slower on an H200, a hand-written
 * program too (bench/modes_ref mix 10 against graph-first): run after
 * stream mode, graph and capture would be timed in a state that their
 * own programs never are in.
 */
struct mode_rows {
	size_t n;
	size_t *point;                  /* per row: its point in sw */
	enum run_mode *mode;            /* per row */
	char **labels;                  /* per row: "width=4,mode=stream" (malloc'd) */
	size_t naxes;                   /* axes per row: the file's, and mode when --mode added it */
	struct axis_value *axes;        /* n x naxes, as the report's points carry them */
};

/*
 * The rows of sw with list (validated: modes_validate said yes).  False,
 * with an error on d, when an axis "mode" value is no mode's name.
 */
bool mode_rows_make(const struct sweep *sw, const struct mode_list *list, struct mode_rows *r,
		    struct diag *d);
void mode_rows_free(struct mode_rows *r);

/*
 * The stream-mode variant of built-in kernel func ("countdown"): its name
 * in the built-in module ("countdown_word"), which takes the condition's
 * word (a u32 in device memory) where the original takes its handle, and
 * writes it where the original calls cudaGraphSetConditional.  NULL for
 * a function that sets no condition.
 */
const char *mode_builtin_variant(const char *func);

/* Does kernel node n pass a condition's handle (anywhere in its arguments)?  Its first, or NULL. */
const struct arg *mode_handle_arg(const struct node *n);

#endif
