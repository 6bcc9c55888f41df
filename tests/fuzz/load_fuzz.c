/*
 * The front end's fuzz target: what `cugraphrun --validate` and
 * `--describe` do, on bytes in memory (gdef_load_string: no temporary
 * files).  Messages and DOT go to /dev/null, so that their formatting is
 * exercised too.  Built two ways: with libFuzzer (--enable-fuzzing, clang)
 * as tests/fuzz/load_fuzz, and with tests/fuzz/replay.c as a plain program
 * that replays files and folders, which `make check` runs over
 * tests/fuzz/regress/ so that every input that ever crashed stays a test.
 *
 * Relative module and data paths resolve against the directory in
 * CUGRAPHRUN_FUZZ_DIR (default: the current one), so that a corpus taken
 * from examples/ gets past the file checks and reaches the DOT writer.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "describe.h"
#include "diag.h"
#include "load.h"
#include "model.h"
#include "sweep.h"
#include "validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static FILE *sink;
static char *name;

/*
 * The loader's limits but a fiftieth of its budgets (set in
 * LLVMFuzzerInitialize).  An input within the full ones may expand to a
 * million nodes, a second's work and fifteen under the sanitizers and
 * coverage, past the fuzzer's timeout (stop 40); within these, at most
 * 20,000 nodes, validated and described twice in 0.3 s there.  The fuzzer
 * looks for what a file means, not how large it may grow: the full budgets
 * have their own tests (tests/errors/sweep-budget-*).
 */
static struct load_limits limits;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	limits = load_default_limits;
	limits.max_alias_events /= 50;
	limits.max_generated_events /= 50;
	limits.max_nodes = SWEEP_MAX_NODES / 50;
	limits.max_events = SWEEP_MAX_EVENTS / 50;
	limits.max_text = SWEEP_MAX_TEXT / 50;
	sink = fopen("/dev/null", "w");
	if (sink == NULL) {
		perror("/dev/null");
		exit(1);
	}
	const char *dir = getenv("CUGRAPHRUN_FUZZ_DIR");
	if (dir == NULL || *dir == '\0') {
		name = strdup("fuzz.yaml");
	} else {
		size_t n = strlen(dir);
		name = malloc(n + sizeof "/fuzz.yaml");
		if (name != NULL)
			sprintf(name, "%s%sfuzz.yaml", dir, dir[n - 1] == '/' ? "" : "/");
	}
	if (name == NULL) {
		perror("malloc");
		exit(1);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (sink == NULL)
		LLVMFuzzerInitialize(NULL, NULL);
	struct diag d;
	diag_init(&d, name, sink);
	diag_hold(&d);
	struct gdef *g = gdef_load_string(name, (const char *)data, size, &limits, &d);
	/* as run_file does: one round, the validator after the loader's errors too */
	bool valid = g != NULL && gdef_validate(g, &d) && d.nerrors == 0;
	diag_finish(&d);
	diag_free(&d);
	if (valid) {
		/* Both views: --describe and --describe --buffers. */
		struct describe_opts o = {.buffers = false};
		describe_write(g, &o, sink);
		o.buffers = true;
		describe_write(g, &o, sink);
	}
	gdef_free(g);
	return 0;
}
