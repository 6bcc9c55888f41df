/*
 * expr_eval [SECONDS]: what a sweep pays per template per point.  Times,
 * best of 7 rounds of about SECONDS/7 each (default 2 s in all), the
 * evaluation of a few templates against changing values, and their
 * parsing, in nanoseconds per call; then a point of a 100-node graph with
 * four bound fields per node.  Prints figures, checks nothing: run it by
 * hand (make bench/expr_eval && build/bench/expr_eval).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "monotime.h"
#include "strbuf.h"

static const char *const var_names[] = {"n", "i", "j", "T"};

static long lookup(void *ctx, const char *name)
{
	(void)ctx;
	for (size_t k = 0; k < sizeof var_names / sizeof *var_names; k++)
		if (strcmp(name, var_names[k]) == 0)
			return (long)k;
	return -1;
}

static struct tmpl *compile(const char *text)
{
	struct expr_err err;
	struct tmpl *t = tmpl_parse(text, strlen(text), &err);
	if (t == NULL || !tmpl_link(t, lookup, NULL, &err)) {
		fprintf(stderr, "expr_eval: %s: %s at %u\n", text, err.msg, err.off);
		exit(2);
	}
	return t;
}

static volatile int64_t sink;

/* Nanoseconds per evaluation of t, best of 7 rounds. */
static double time_eval(const struct tmpl *t, double secs)
{
	struct expr_val vars[4] = {expr_int(1000), expr_int(3), expr_int(7), expr_str("float", 5)};
	struct strbuf sb = {0};
	struct expr_err err;
	double best = 1e9;
	long iters = 1000;
	for (int round = 0; round < 7; round++) {
		double t0, el;
		for (;;) {
			t0 = monotime();
			for (long k = 0; k < iters; k++) {
				vars[0].i = 1000 + (k & 1023);  /* a changing point */
				vars[1].i = k & 63;
				struct expr_val v;
				strbuf_truncate(&sb, 0);
				if (!tmpl_eval(t, vars, &sb, &v, &err)) {
					fprintf(stderr, "expr_eval: %s\n", err.msg);
					exit(2);
				}
				sink += v.type == EXPR_STR ? v.len : v.i;
			}
			el = monotime() - t0;
			if (el >= secs / 7 / 4 || iters > (1L << 40))
				break;
			iters *= 2;
		}
		double ns = el / (double)iters * 1e9;
		if (ns < best)
			best = ns;
	}
	strbuf_free(&sb);
	return best;
}

static double time_parse(const char *text, double secs)
{
	double best = 1e9;
	long iters = 1000;
	size_t len = strlen(text);
	for (int round = 0; round < 7; round++) {
		double t0, el;
		for (;;) {
			t0 = monotime();
			for (long k = 0; k < iters; k++) {
				struct expr_err err;
				struct tmpl *t = tmpl_parse(text, len, &err);
				tmpl_link(t, lookup, NULL, &err);
				tmpl_free(t);
			}
			el = monotime() - t0;
			if (el >= secs / 7 / 4 || iters > (1L << 40))
				break;
			iters *= 2;
		}
		double ns = el / (double)iters * 1e9;
		if (ns < best)
			best = ns;
	}
	return best;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2;
	if (!(secs > 0))
		secs = 2;
	static const char *const texts[] = {
		"${n}",
		"${n/256}",
		"${ceil_div(n, 256)}",
		"${n * sizeof(T)}",
		"${i < 32 ? n : 2 * n}",
		"k${i}_${j}",
		"k.scale<${T}>",
	};
	size_t nt = sizeof texts / sizeof *texts;
	double per = secs / (double)(2 * nt + 1);
	printf("%-26s %10s %10s\n", "template", "eval ns", "parse ns");
	for (size_t k = 0; k < nt; k++) {
		struct tmpl *t = compile(texts[k]);
		printf("%-26s %10.1f %10.1f\n", texts[k], time_eval(t, per), time_parse(texts[k], per));
		tmpl_free(t);
	}
	/*
	 * A point of a 100-node graph: per node an id, a grid, a count and a
	 * kernel name, all bound.  The whole point's values, one strbuf.
	 */
	struct tmpl *node[4] = {
		compile("k${i}_${j}"), compile("${ceil_div(n, 256)}"), compile("${n}"),
		compile("k.scale<${T}>"),
	};
	struct expr_val vars[4] = {expr_int(1000), expr_int(3), expr_int(7), expr_str("float", 5)};
	struct strbuf sb = {0};
	struct expr_err err;
	double best = 1e9;
	for (int round = 0; round < 7; round++) {
		long points = 2000;
		double t0 = monotime();
		for (long p = 0; p < points; p++) {
			strbuf_truncate(&sb, 0);
			vars[0].i = 1000 + p;
			for (int nd = 0; nd < 100; nd++) {
				vars[1].i = nd;
				for (int f = 0; f < 4; f++) {
					struct expr_val v;
					if (!tmpl_eval(node[f], vars, &sb, &v, &err))
						return 2;
					sink += v.len;
				}
			}
		}
		double us = (monotime() - t0) / (double)points * 1e6;
		if (us < best)
			best = us;
	}
	printf("a point of 100 nodes x 4 bound fields: %.2f us\n", best);
	for (int f = 0; f < 4; f++)
		tmpl_free(node[f]);
	strbuf_free(&sb);
	return 0;
}
