/*
 * The files a run writes against the files it reads (cugraphrun(1),
 * OUTPUT FILES): no output named on the command line (struct options'
 * outputs) may be a file the run reads, compared by device and inode, not
 * by name.  The files read are the graph file and every file its model
 * names (gdef_input_files), at every point of a sweep, and the --compare
 * base; in a suite, the parent checks the outputs against every graph
 * file and the base before any runs, and each file's run against its own
 * modules, init and expect files.  Nothing here is owned.
 */
#ifndef CGR_OUTPUTS_H
#define CGR_OUTPUTS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "diag.h"
#include "model.h"
#include "sweep.h"

/*
 * The outputs of o against the graph file o->file and the files g names:
 * an error at each one that is an output (the graph file's without a
 * position), with o's outputs that are such a file as bits (bit i:
 * o->outputs[i]) in *clashed.  True when there is none.
 */
bool outputs_vs_graph(const struct options *o, const struct gdef *g, struct diag *d,
		      uint32_t *clashed);

/*
 * outputs_vs_graph for every point of a sweep: each point's model may name
 * files of its own (a module per point); errors about a point after the
 * first are labelled with it, and *clashed is the union.
 */
bool outputs_vs_sweep(const struct options *o, const struct sweep *sw, struct diag *d,
		      uint32_t *clashed);

/*
 * A suite's graph file path against o's outputs, before any file runs:
 * false after "--junit=PATH is the graph file FILE ..." when it is one.
 */
bool outputs_vs_file(const struct options *o, const char *path);

/*
 * The same for any other file the run reads, named by what it is ("--compare
 * base"): false after "--json=PATH is the --compare base FILE ...".
 */
bool outputs_vs_input(const struct options *o, const char *what, const char *path);

/* outputs_vs_input for every report read as the --compare base (o->compare_paths). */
bool outputs_vs_bases(const struct options *o);

#endif
