/*
 * The expression language's fuzz target (src/expr.h): the input is a
 * template's text, parsed as a template and as a bare expression, linked
 * against a fixed set of names (ints at the edges of int64, floats with
 * NaN and infinity, words) and evaluated; every value is then formatted
 * and converted as the loader converts it.  An unknown name is the
 * linker's error, as in a file.  Built as tests/fuzz/expr_fuzz with
 * libFuzzer (--enable-fuzzing) and as tests/fuzz/expr_replay with
 * replay.c, which `make check` runs over tests/fuzz/regress-expr/.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static const char *const names[] = {"n", "i", "big", "small", "x", "nan", "inf", "T", "s", "e"};
static struct expr_val vars[sizeof names / sizeof *names];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	vars[0] = expr_int(1024);
	vars[1] = expr_int(-3);
	vars[2] = expr_int(INT64_MAX);
	vars[3] = expr_int(INT64_MIN);
	vars[4] = expr_float(0.5);
	vars[5] = expr_float(NAN);
	vars[6] = expr_float(-INFINITY);
	vars[7] = expr_str("f32", 3);
	vars[8] = expr_str("unsigned long long", 18);
	vars[9] = expr_str("", 0);
	return 0;
}

static long lookup(void *ctx, const char *name)
{
	(void)ctx;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(names[i], name) == 0)
			return (long)i;
	return -1;
}

/* A value as the loader takes one: its text, and as each kind of number. */
static void use(const struct expr_val *v)
{
	struct strbuf sb = {0};
	expr_format(v, &sb);
	char why[160];
	uint64_t u;
	int64_t i;
	double d;
	struct num num;
	expr_to_u64(v, 0, UINT64_MAX, &u, why, sizeof why);
	expr_to_u64(v, 1, 255, &u, why, sizeof why);
	expr_to_i64(v, INT64_MIN, INT64_MAX, &i, why, sizeof why);
	expr_to_i64(v, -1, 1, &i, why, sizeof why);
	expr_to_double(v, &d, why, sizeof why);
	expr_to_num(v, &num, why, sizeof why);
	strbuf_free(&sb);
}

static void run(struct tmpl *t)
{
	struct expr_err err;
	if (t == NULL)
		return;
	tmpl_is_whole(t);
	tmpl_nexprs(t);
	for (size_t k = 0; k < tmpl_nnames(t); k++) {
		size_t off;
		tmpl_name(t, k, &off);
	}
	if (tmpl_link(t, lookup, NULL, &err)) {
		struct strbuf out = {0};
		struct expr_val v;
		/* twice: a template is only read by evaluating it */
		for (int pass = 0; pass < 2; pass++)
			if (tmpl_eval(t, vars, &out, &v, &err))
				use(&v);
		strbuf_free(&out);
	}
	tmpl_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (vars[0].type != EXPR_INT || vars[0].i != 1024)
		LLVMFuzzerInitialize(NULL, NULL);
	struct expr_err err;
	const char *text = (const char *)data;
	run(tmpl_parse(text, size, &err));
	run(tmpl_parse_expr(text, size, &err));
	return 0;
}
