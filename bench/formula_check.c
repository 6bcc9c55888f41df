/*
 * formula_check [N]: what a check by formula costs on the host, the part
 * of a run that follows the read-back (no GPU: buf_check's comparison runs
 * on host memory).  For a few formulas, a buffer of N elements (default
 * 16M) holding exactly the expected values is checked with expect:
 * {formula: ...}, best of 5; prints elements per second of wall time and
 * of the process's CPU time (on a shared machine the first counts the
 * other processes' turns too).  Checks only that each check
 * passes: run it by hand (make bench/formula_check &&
 * build/bench/formula_check).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf_check.h"
#include "buf_formula.h"
#include "monotime.h"

static const struct bench_case {
	const char *formula;
	enum elem_type type;
	double rtol;
} cases[] = {
	{"2 * i + 1", ET_F32, 0},
	{"2 * i + 1", ET_I32, 0},
	{"(i % 4096) * 0.5 + i / 4096", ET_F32, 1e-6},
	{"i % 7 == 0 ? 1 : 0", ET_U32, 0},
	{"sqrt(float(i))", ET_F64, 0},
};

static double cpu_time(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 16u << 20;
	struct diag d;
	diag_init(&d, "bench", stderr);
	int status = 0;
	printf("%-32s %-4s %12s %10s %10s\n", "formula", "type", "elements", "M/s wall",
	       "M/s cpu");
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		const struct bench_case *bc = &cases[c];
		struct buffer b = {.name = "y", .type = bc->type, .count = n};
		b.size = n * elem_infos[bc->type].size;
		struct check ck = {
			.kind = CHECK_EXPECT, .expect = EXPECT_FORMULA, .count = n, .has_count = true,
			.rtol = bc->rtol, .formula = {.text = (char *)bc->formula},
		};
		void *data = malloc(b.size);
		struct expr_err err;
		struct formula_prog *p = formula_compile(&ck.formula, &b, &err);
		uint64_t at;
		char why[200];
		if (p == NULL || !formula_values(p, 0, n, data, &at, why, sizeof why, &err)) {
			fprintf(stderr, "formula_check: %s: cannot make the data\n", bc->formula);
			return 2;
		}
		formula_free(p);
		double best = 1e30, best_cpu = 1e30;
		for (int round = 0; round < 5; round++) {
			double t0 = monotime(), c0 = cpu_time();
			if (!check_buffer(&ck, &b, data, NULL, &d))
				status = 1;
			double el = monotime() - t0, cpu = cpu_time() - c0;
			if (el < best)
				best = el;
			if (cpu < best_cpu)
				best_cpu = cpu;
		}
		printf("%-32s %-4s %12" PRIu64 " %10.1f %10.1f\n", bc->formula,
		       elem_infos[bc->type].name, n, (double)n / best / 1e6,
		       (double)n / best_cpu / 1e6);
		free(data);
	}
	diag_free(&d);
	return status;
}
