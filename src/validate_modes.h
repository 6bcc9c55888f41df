/*
 * A run in modes (modes.h, cugraphrun(1) MODES) checked before the GPU is
 * touched, under --validate too: the axis "mode" and --mode, the options
 * that go with one graph run alone (and --gpu-time, whose kernel holds
 * the stream that stream mode's host loop waits on, with a stream row of
 * a file with a conditional node), and what a mode cannot run.  Stream
 * mode refuses two things, each with its reason at the YAML key:
 *
 *   - a device-updatable kernel node: the device updates it in place in
 *     the executable graph, and stream launches have none (capture makes
 *     a graph, so capture mode takes it);
 *   - a condition that a kernel of the file sets: cudaGraphSetConditional
 *     takes a handle, which exists only in a graph.  The built-in kernels
 *     that set conditions have stream-mode variants that write the
 *     condition's word instead (mode_builtin_variant), so they run.
 *
 * No CUDA here.  Nothing is owned.
 */
#ifndef CGR_VALIDATE_MODES_H
#define CGR_VALIDATE_MODES_H

#include <stdbool.h>

#include "cli.h"
#include "diag.h"
#include "model.h"
#include "modes.h"
#include "sweep.h"

/*
 * Everything above for the run o asks for on sw's points: true when it
 * may run (or is not a run in modes).  Errors about the file go to d,
 * each point's after the first labelled with the point; a misuse of the
 * options is a usage error (exit 2 all the same).
 */
bool modes_validate(const struct sweep *sw, const struct options *o, struct diag *d);

/* Can g run in mode m?  An error on d for each thing that cannot. */
bool mode_model_ok(const struct gdef *g, enum run_mode m, struct diag *d);

#endif
