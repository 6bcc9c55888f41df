/*
 * sweep_eval FILE.yaml [ROUNDS [--validate]]: what evaluating a sweep's
 * points costs on the CPU, before the GPU is touched.  Each round loads
 * the file as main.c does (sweep_load) and validates every point
 * (sweep_validate, with a run's module settings, or --validate's for
 * sm_90), quietly; the sweep's own eval_s gives each point's reading and
 * validation.  Prints, for the best round (default 21 rounds): the median
 * eval_s of the points after the first, the first point's, and the whole
 * load and validation less the first point, over the other points, and
 * what the points expanded to (nodes, YAML events, bytes of text: the
 * budget's counts, load_point.h: BUDGET).  The
 * figure issue 22's 1/50 target compares with an instantiation is the
 * first (bench/README.md, "Sweeps").  Checks nothing: run it by hand
 * (make bench/sweep_eval && build/bench/sweep_eval s32.yaml).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "load.h"
#include "load_sweep.h"
#include "monotime.h"
#include "mod_check.h"
#include "sweep.h"
#include "validate.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: sweep_eval FILE.yaml [ROUNDS [--validate]]\n");
		return 2;
	}
	int rounds = argc > 2 ? atoi(argv[2]) : 21;
	if (rounds < 1)
		rounds = 21;
	bool validate = argc > 3 && strcmp(argv[3], "--validate") == 0;
	struct mod_settings ms = {
		.sm = validate ? MOD_DEFAULT_SM : 0,
		.compile_sources = validate,
		.use_cache = true,
	};
	double best_median = 1e9, best_first = 1e9, best_rest = 1e9;
	size_t npoints = 0, nodes = 0, events = 0, text = 0;
	for (int r = 0; r < rounds; r++) {
		struct diag d;
		diag_init(&d, argv[1], stderr);
		d.quiet = true;
		double t0 = monotime();
		struct sweep *sw = sweep_load(argv[1], NULL, 0, &d);
		bool ok = sw && d.nerrors == 0 && sweep_validate(sw, &d, &ms);
		double all = monotime() - t0;
		if (!ok) {
			fprintf(stderr, "sweep_eval: %s does not load and validate (%u errors)\n",
				argv[1], d.nerrors);
			sweep_release(sw);
			return 1;
		}
		npoints = sw->npoints;
		nodes = sw->expanded_nodes;
		events = sw->expanded_events;
		text = sw->expanded_text;
		if (npoints < 2) {
			fprintf(stderr, "sweep_eval: %s has one point\n", argv[1]);
			sweep_release(sw);
			return 1;
		}
		double *e = malloc((npoints - 1) * sizeof *e);
		for (size_t k = 1; k < npoints; k++)
			e[k - 1] = sw->eval_s[k];
		qsort(e, npoints - 1, sizeof *e, cmp_double);
		double median = e[(npoints - 1) / 2];
		double rest = (all - sw->eval_s[0]) / (double)(npoints - 1);
		if (median < best_median)
			best_median = median;
		if (sw->eval_s[0] < best_first)
			best_first = sw->eval_s[0];
		if (rest < best_rest)
			best_rest = rest;
		free(e);
		sweep_release(sw);
	}
	printf("%s: %zu points, best of %d rounds\n", argv[1], npoints, rounds);
	printf("  expanded to %zu nodes, %zu YAML events, %zu bytes of text\n", nodes, events,
	       text);
	printf("  eval_s of a later point (median): %8.2f us\n", best_median * 1e6);
	printf("  eval_s of the first point:        %8.2f us\n", best_first * 1e6);
	printf("  whole load + validation less the first point, a point: %8.2f us\n",
	       best_rest * 1e6);
	return 0;
}
