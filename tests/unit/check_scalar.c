/* Unit tests for src/scalar.c and the small pieces beside it (diag, strmap, cli). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "diag.h"
#include "model.h"
#include "ptx.h"
#include "scalar.h"
#include "strmap.h"
#include "unit.h"

START_TEST(test_parse_int)
{
	struct num n;
	ck_assert_int_eq(parse_int("42", &n), SCALAR_OK);
	ck_assert_int_eq(n.kind, NUM_UINT);
	ck_assert_uint_eq(n.u, 42);
	ck_assert_int_eq(parse_int("0x1F", &n), SCALAR_OK);
	ck_assert_uint_eq(n.u, 31);
	ck_assert_int_eq(parse_int("-7", &n), SCALAR_OK);
	ck_assert_int_eq(n.kind, NUM_INT);
	ck_assert_int_eq(n.i, -7);
	ck_assert_int_eq(parse_int("-0", &n), SCALAR_OK);
	ck_assert_int_eq(n.kind, NUM_UINT);
	ck_assert_int_eq(parse_int("1_000_000", &n), SCALAR_OK);
	ck_assert_uint_eq(n.u, 1000000);
	ck_assert_int_eq(parse_int("18446744073709551615", &n), SCALAR_OK);
	ck_assert_uint_eq(n.u, UINT64_MAX);
	ck_assert_int_eq(parse_int("18446744073709551616", &n), SCALAR_RANGE);
	/*
	 * Overflow in the multiplication (the line above overflows by the added
	 * digit alone), in decimal and in hex.
	 */
	ck_assert_int_eq(parse_int("184467440737095516150", &n), SCALAR_RANGE);
	ck_assert_int_eq(parse_int("0xFFFFFFFFFFFFFFFF", &n), SCALAR_OK);
	ck_assert_uint_eq(n.u, UINT64_MAX);
	ck_assert_int_eq(parse_int("0x10000000000000000", &n), SCALAR_RANGE);
	ck_assert_int_eq(parse_int("0x1_0000_0000_0000_0000", &n), SCALAR_RANGE);
	ck_assert_int_eq(parse_int("-9223372036854775808", &n), SCALAR_OK);
	ck_assert(n.i == INT64_MIN);
	ck_assert_int_eq(parse_int("-9223372036854775809", &n), SCALAR_RANGE);
	ck_assert_int_eq(parse_int("", &n), SCALAR_SYNTAX);
	ck_assert_int_eq(parse_int("0x", &n), SCALAR_SYNTAX);
	ck_assert_int_eq(parse_int("12a", &n), SCALAR_SYNTAX);
	ck_assert_int_eq(parse_int("1.5", &n), SCALAR_SYNTAX);
	ck_assert_int_eq(parse_int("1__0", &n), SCALAR_SYNTAX);
	/* underscores go between digits, as cugraphrun(5) says */
	ck_assert_int_eq(parse_int("_1", &n), SCALAR_SYNTAX);
	ck_assert_int_eq(parse_int("-_1", &n), SCALAR_SYNTAX);
	ck_assert_int_eq(parse_int("0x_ff", &n), SCALAR_SYNTAX);
	ck_assert_int_eq(parse_int("0xf_f", &n), SCALAR_OK);
	ck_assert_uint_eq(n.u, 255);
}
END_TEST

START_TEST(test_parse_number)
{
	struct num n;
	ck_assert_int_eq(parse_number("2.5", &n), SCALAR_OK);
	ck_assert_int_eq(n.kind, NUM_FLOAT);
	ck_assert(n.f == 2.5);
	ck_assert_int_eq(parse_number("1e-5", &n), SCALAR_OK);
	ck_assert(n.f == 1e-5);
	ck_assert_int_eq(parse_number("-inf", &n), SCALAR_OK);
	ck_assert(isinf(n.f) && n.f < 0);
	ck_assert_int_eq(parse_number(".inf", &n), SCALAR_OK);
	ck_assert(isinf(n.f) && n.f > 0);
	ck_assert_int_eq(parse_number("nan", &n), SCALAR_OK);
	ck_assert(isnan(n.f));
	ck_assert_int_eq(parse_number("7", &n), SCALAR_OK);
	ck_assert_int_eq(n.kind, NUM_UINT);
	ck_assert_int_eq(parse_number("1e999", &n), SCALAR_RANGE);
	ck_assert_int_eq(parse_number("e5", &n), SCALAR_SYNTAX);
	ck_assert_int_eq(parse_number("abc", &n), SCALAR_SYNTAX);
	ck_assert_int_eq(parse_number("1.0 x", &n), SCALAR_SYNTAX);
}
END_TEST

START_TEST(test_parse_size)
{
	uint64_t v;
	ck_assert_int_eq(parse_size("4096", &v), SCALAR_OK);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(parse_size("64 KiB", &v), SCALAR_OK);
	ck_assert_uint_eq(v, 65536);
	ck_assert_int_eq(parse_size("4MiB", &v), SCALAR_OK);
	ck_assert_uint_eq(v, 4u << 20);
	ck_assert_int_eq(parse_size("1 GiB", &v), SCALAR_OK);
	ck_assert_uint_eq(v, 1u << 30);
	ck_assert_int_eq(parse_size("3 kB", &v), SCALAR_OK);
	ck_assert_uint_eq(v, 3000);
	ck_assert_int_eq(parse_size("0x10 B", &v), SCALAR_OK);
	ck_assert_uint_eq(v, 16);
	ck_assert_int_eq(parse_size("16 EiB", &v), SCALAR_UNIT);
	ck_assert_int_eq(parse_size("1 parsec", &v), SCALAR_UNIT);
	ck_assert_int_eq(parse_size("1180591620717411303424", &v), SCALAR_RANGE); /* 2^70 */
	ck_assert_int_eq(parse_size("17179869184 GiB", &v), SCALAR_RANGE);         /* 2^64 */
	ck_assert_int_eq(parse_size("-1", &v), SCALAR_SYNTAX);
	ck_assert_int_eq(parse_size("1.5 KiB", &v), SCALAR_SYNTAX);
	ck_assert_int_eq(parse_size("KiB", &v), SCALAR_SYNTAX);
}
END_TEST

START_TEST(test_parse_duration)
{
	uint64_t ns;
	ck_assert_int_eq(parse_duration("10 s", &ns), SCALAR_OK);
	ck_assert_uint_eq(ns, 10000000000ull);
	ck_assert_int_eq(parse_duration("100 us", &ns), SCALAR_OK);
	ck_assert_uint_eq(ns, 100000);
	ck_assert_int_eq(parse_duration("1.5ms", &ns), SCALAR_OK);
	ck_assert_uint_eq(ns, 1500000);
	ck_assert_int_eq(parse_duration("2", &ns), SCALAR_OK);
	ck_assert_uint_eq(ns, 2000000000ull);
	ck_assert_int_eq(parse_duration("1 min", &ns), SCALAR_OK);
	ck_assert_uint_eq(ns, 60000000000ull);
	/* the micro sign, and the Greek mu that cugraphrun(5) prints */
	ck_assert_int_eq(parse_duration("3 \xc2\xb5s", &ns), SCALAR_OK);
	ck_assert_uint_eq(ns, 3000);
	ck_assert_int_eq(parse_duration("4 \xce\xbcs", &ns), SCALAR_OK);
	ck_assert_uint_eq(ns, 4000);
	ck_assert_int_eq(parse_duration("250 ns", &ns), SCALAR_OK);
	ck_assert_uint_eq(ns, 250);
	ck_assert_int_eq(parse_duration("5 fortnights", &ns), SCALAR_UNIT);
	ck_assert_int_eq(parse_duration("-1 s", &ns), SCALAR_SYNTAX);
	ck_assert_int_eq(parse_duration("1e30 s", &ns), SCALAR_RANGE);
}
END_TEST

START_TEST(test_elem_names)
{
	enum elem_type t;
	for (int i = 0; i < ET_COUNT; i++) {
		ck_assert(elem_from_name(elem_names[i], &t));
		ck_assert_int_eq(t, i);
		ck_assert_str_eq(elem_infos[i].name, elem_names[i]);
	}
	ck_assert(!elem_from_name("f128", &t));
	ck_assert(!elem_from_name("", &t));
}
END_TEST

START_TEST(test_num_encode_ranges)
{
	char why[96];
	unsigned char out[8];
	struct num n = {.kind = NUM_UINT, .u = 255};
	ck_assert_ptr_null(num_encode(&n, ET_U8, out, why, sizeof why));
	ck_assert_uint_eq(out[0], 255);
	n.u = 256;
	ck_assert_str_eq(num_encode(&n, ET_U8, out, why, sizeof why), "256 does not fit u8");
	n.u = 127;
	ck_assert_ptr_null(num_encode(&n, ET_I8, out, why, sizeof why));
	n.u = 128;
	ck_assert_str_eq(num_encode(&n, ET_I8, out, why, sizeof why), "128 does not fit i8");
	n = (struct num){.kind = NUM_INT, .i = -128};
	ck_assert_ptr_null(num_encode(&n, ET_I8, out, why, sizeof why));
	ck_assert_int_eq((signed char)out[0], -128);
	n.i = -129;
	ck_assert_str_eq(num_encode(&n, ET_I8, out, why, sizeof why), "-129 does not fit i8");
	n.i = -1;
	ck_assert_str_eq(num_encode(&n, ET_U32, out, why, sizeof why), "-1 does not fit u32");
	n = (struct num){.kind = NUM_UINT, .u = UINT64_MAX};
	ck_assert_ptr_null(num_encode(&n, ET_U64, out, why, sizeof why));
	ck_assert_str_eq(num_encode(&n, ET_I64, out, why, sizeof why),
			 "18446744073709551615 does not fit i64");
	n = (struct num){.kind = NUM_FLOAT, .f = 1.5};
	ck_assert_str_eq(num_encode(&n, ET_I32, out, why, sizeof why),
			 "1.5 is not an integer, as i32 needs");
	ck_assert_ptr_null(num_encode(&n, ET_F32, out, why, sizeof why));
	float f;
	memcpy(&f, out, 4);
	ck_assert(f == 1.5f);
	n.f = 1e300;
	ck_assert_str_eq(num_encode(&n, ET_F32, out, why, sizeof why), "1e+300 does not fit f32");
	n.f = 70000;
	ck_assert_ptr_nonnull(num_encode(&n, ET_F16, out, why, sizeof why));
	n.f = INFINITY;
	ck_assert_ptr_null(num_encode(&n, ET_F16, out, why, sizeof why));
	/* Integers convert to floats exactly where they can. */
	n = (struct num){.kind = NUM_INT, .i = -3};
	ck_assert_ptr_null(num_encode(&n, ET_F64, out, why, sizeof why));
	double d;
	memcpy(&d, out, 8);
	ck_assert(d == -3.0);
}
END_TEST

START_TEST(test_half_floats)
{
	/* Exact values, the largest finite, subnormals, rounding to even. */
	ck_assert_uint_eq(f32_to_f16(1.0f), 0x3c00);
	ck_assert_uint_eq(f32_to_f16(-2.0f), 0xc000);
	ck_assert_uint_eq(f32_to_f16(65504.0f), 0x7bff);
	ck_assert_uint_eq(f32_to_f16(65520.0f), 0x7c00);
	ck_assert_uint_eq(f32_to_f16(5.9604645e-8f), 0x0001);
	ck_assert_uint_eq(f32_to_f16(1.0f + 1.0f / 2048), 0x3c00); /* tie: even */
	ck_assert_uint_eq(f32_to_f16(1.0f + 3.0f / 2048), 0x3c02);
	ck_assert(f16_to_f32(0x3555) > 0.333f && f16_to_f32(0x3555) < 0.3334f);
	ck_assert(isnan(f16_to_f32(f32_to_f16(NAN))));
	for (uint32_t h = 0; h < 0x7c00; h += 7)
		ck_assert_uint_eq(f32_to_f16(f16_to_f32((uint16_t)h)), h);
	ck_assert_uint_eq(f32_to_bf16(1.0f), 0x3f80);
	ck_assert_uint_eq(f32_to_bf16(-1.5f), 0xbfc0);
	ck_assert(bf16_to_f32(0x4049) > 3.14f && bf16_to_f32(0x4049) < 3.15f);
	ck_assert(isnan(bf16_to_f32(f32_to_bf16(NAN))));
}
END_TEST

START_TEST(test_elem_roundtrip)
{
	char why[96], text[64];
	unsigned char out[8];
	struct num n = {.kind = NUM_INT, .i = -12345};
	ck_assert_ptr_null(num_encode(&n, ET_I16, out, why, sizeof why));
	ck_assert(elem_to_double(ET_I16, out) == -12345);
	elem_format(ET_I16, out, text, sizeof text);
	ck_assert_str_eq(text, "-12345");
	n = (struct num){.kind = NUM_UINT, .u = UINT64_MAX};
	ck_assert_ptr_null(num_encode(&n, ET_U64, out, why, sizeof why));
	elem_format(ET_U64, out, text, sizeof text);
	ck_assert_str_eq(text, "18446744073709551615");
	n = (struct num){.kind = NUM_FLOAT, .f = 0.1};
	ck_assert_ptr_null(num_encode(&n, ET_F32, out, why, sizeof why));
	elem_format(ET_F32, out, text, sizeof text);
	ck_assert_str_eq(text, "0.100000001");
}
END_TEST

START_TEST(test_format)
{
	char buf[64];
	format_size(4u << 20, buf, sizeof buf);
	ck_assert_str_eq(buf, "4 MiB");
	format_size(1000, buf, sizeof buf);
	ck_assert_str_eq(buf, "1000 B");
	format_size(3072, buf, sizeof buf);
	ck_assert_str_eq(buf, "3 KiB");
	format_duration(61.2e-6, buf, sizeof buf);
	ck_assert_str_eq(buf, "61.2 us");
	format_duration(0.31e-3, buf, sizeof buf);
	ck_assert_str_eq(buf, "310 us");
	format_duration(2.5, buf, sizeof buf);
	ck_assert_str_eq(buf, "2.50 s");
	format_duration(850e-9, buf, sizeof buf);
	ck_assert_str_eq(buf, "850 ns");
	/* Rounding must not print "1000 us" or "100.0 us". */
	format_duration(999.96e-6, buf, sizeof buf);
	ck_assert_str_eq(buf, "1.00 ms");
	format_duration(99.97e-6, buf, sizeof buf);
	ck_assert_str_eq(buf, "100 us");
	format_duration(9.996e-6, buf, sizeof buf);
	ck_assert_str_eq(buf, "10.0 us");
	format_duration(999.4e-6, buf, sizeof buf);
	ck_assert_str_eq(buf, "999 us");
}
END_TEST

START_TEST(test_bool_null)
{
	bool b;
	ck_assert(parse_bool("true", &b) && b);
	ck_assert(parse_bool("False", &b) && !b);
	ck_assert(!parse_bool("yes", &b));
	ck_assert(is_null_scalar(""));
	ck_assert(is_null_scalar("~"));
	ck_assert(is_null_scalar("null"));
	ck_assert(!is_null_scalar("nil"));
}
END_TEST

START_TEST(test_diag_output)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct diag d;
	diag_init(&d, "g.yaml", f);
	d.max_errors = 2;
	diag_error(&d, (struct pos){3, 5}, "unknown key '%s'", "cout");
	diag_note(&d, (struct pos){1, 1}, "first here");
	diag_warning(&d, (struct pos){4, 1}, "unused");
	diag_error(&d, (struct pos){0, 0}, "whole file");
	diag_error(&d, (struct pos){9, 9}, "not shown");
	diag_note(&d, (struct pos){9, 10}, "nor this note");
	ck_assert(!diag_finish(&d));
	fclose(f);
	ck_assert_str_eq(buf,
		"g.yaml:3:5: error: unknown key 'cout'\n"
		"g.yaml:1:1: note: first here\n"
		"g.yaml:4:1: warning: unused\n"
		"g.yaml: error: whole file\n"
		"g.yaml: error: 1 more error not shown\n");
	ck_assert_uint_eq(d.nerrors, 3);
	free(buf);
}
END_TEST

START_TEST(test_diag_repeats)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct diag d;
	diag_init(&d, "g.yaml", f);
	for (int i = 0; i < 3; i++) {
		diag_error(&d, (struct pos){4, 33}, "unknown key '%s'", "gird");
		diag_note(&d, (struct pos){4, 5}, "in this kernel");
	}
	diag_error(&d, (struct pos){4, 34}, "unknown key '%s'", "gird");
	diag_error(&d, (struct pos){4, 33}, "unknown key '%s'", "grd");
	ck_assert(!diag_finish(&d));
	fclose(f);
	ck_assert_str_eq(buf,
		"g.yaml:4:33: error: unknown key 'gird'\n"
		"g.yaml:4:5: note: in this kernel\n"
		"g.yaml:4:34: error: unknown key 'gird'\n"
		"g.yaml:4:33: error: unknown key 'grd'\n");
	ck_assert_uint_eq(d.nerrors, 3);
	free(buf);
}
END_TEST

START_TEST(test_suggest)
{
	static const char *const keys[] = {"type", "count", "size", "memory", "init"};
	ck_assert_str_eq(diag_suggest("cout", keys, 5), "count");
	ck_assert_str_eq(diag_suggest("memroy", keys, 5), "memory");
	ck_assert_str_eq(diag_suggest("tpye", keys, 5), "type");
	ck_assert_ptr_null(diag_suggest("colour", keys, 5));
	ck_assert_ptr_null(diag_suggest("x", keys, 5));
}
END_TEST

START_TEST(test_strmap)
{
	struct strmap *m = strmap_new(0);
	char names[2000][16];
	for (int i = 0; i < 2000; i++) {
		snprintf(names[i], sizeof names[i], "node_%d", i);
		ck_assert(strmap_put(m, names[i], i, NULL));
	}
	long old = 0;
	ck_assert(!strmap_put(m, "node_17", 99, &old));
	ck_assert_int_eq(old, 17);
	for (int i = 0; i < 2000; i++)
		ck_assert_int_eq(strmap_get(m, names[i]), i);
	ck_assert_int_eq(strmap_get(m, "node_2000"), -1);
	ck_assert_uint_eq(strmap_size(m), 2000);
	strmap_free(m);
	strmap_free(NULL);
}
END_TEST

/* cli_parse of the words in args (after the program name); its stderr into err. */
static enum cli_result parse_args(const char *args, char *err, size_t errlen)
{
	char buf[256], *argv[16] = {(char *)"cugraphrun"};
	int argc = 1;
	snprintf(buf, sizeof buf, "%s", args);
	for (char *w = strtok(buf, " "); w && argc < 15; w = strtok(NULL, " "))
		argv[argc++] = w;
	FILE *tmp = tmpfile();
	ck_assert_ptr_nonnull(tmp);
	fflush(stderr);
	int saved = dup(2);
	dup2(fileno(tmp), 2);
	struct options o;
	enum cli_result r = cli_parse(argc, argv, &o);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	size_t n = fread(err, 1, errlen - 1, tmp);
	err[n] = '\0';
	fclose(tmp);
	cli_free(&o);
	return r;
}

/* The processes a run takes: 1, what --processes says, or 4 to compare (COMPARE_NEW_PROCESSES). */
static uint32_t processes_of(const char *args)
{
	char buf[256], *argv[16] = {(char *)"cugraphrun"};
	int argc = 1;
	snprintf(buf, sizeof buf, "%s", args);
	for (char *w = strtok(buf, " "); w && argc < 15; w = strtok(NULL, " "))
		argv[argc++] = w;
	struct options o;
	ck_assert_int_eq(cli_parse(argc, argv, &o), CLI_OK);
	uint32_t p = o.processes;
	cli_free(&o);
	return p;
}

START_TEST(test_processes_default)
{
	ck_assert_uint_eq(processes_of("g.yaml"), 1);
	ck_assert_uint_eq(processes_of("--processes=3 g.yaml"), 3);
	ck_assert_uint_eq(processes_of("--compare=b.json g.yaml"), COMPARE_NEW_PROCESSES);
	ck_assert_uint_eq(processes_of("--compare=b.json --processes=1 g.yaml"), 1);
	ck_assert_uint_eq(processes_of("--processes=7 --compare=b.json g.yaml"), 7);
	/* standard input is read once: one process */
	ck_assert_uint_eq(processes_of("--compare=b.json -"), 1);
}
END_TEST

START_TEST(test_flag_lists)
{
	char bad[64];
	unsigned f = 0;
	ck_assert_ptr_null(parse_dot_flags("verbose,conditional-params", &f, bad, sizeof bad));
	ck_assert_uint_eq(f, 1u | 1u << 15);
	ck_assert_ptr_null(parse_dot_flags("handles,", &f, bad, sizeof bad));
	ck_assert_uint_eq(f, 1u << 10);
	ck_assert_ptr_null(parse_dot_flags("0x3", &f, bad, sizeof bad));
	ck_assert_uint_eq(f, 3);
	ck_assert_str_eq(parse_dot_flags("65536", &f, bad, sizeof bad), "65536");
	ck_assert_str_eq(parse_dot_flags("verbose,,handles", &f, bad, sizeof bad), "");
	ck_assert_str_eq(parse_dot_flags("verbose,shiny", &f, bad, sizeof bad), "shiny");
	ck_assert(parse_inst_flags("upload,device_launch", &f, bad, sizeof bad));
	ck_assert_uint_eq(f, INST_UPLOAD | INST_DEVICE_LAUNCH);
	ck_assert(parse_inst_flags("none", &f, bad, sizeof bad));
	ck_assert_uint_eq(f, 0);
	ck_assert(!parse_inst_flags("upload,uplod", &f, bad, sizeof bad));
	ck_assert_str_eq(bad, "uplod");
}
END_TEST

START_TEST(test_cli_misuse)
{
	static const struct {
		const char *args, *message;
	} cases[] = {
		/* the unknown short option, not the word before it */
		{"-xv g.yaml", "cugraphrun: error: unknown option '-x'\n"},
		{"--validate -vx g.yaml", "cugraphrun: error: unknown option '-x'\n"},
		{"--frobnicate=3 g.yaml", "cugraphrun: error: unknown option '--frobnicate'\n"},
		{"--de g.yaml", "cugraphrun: error: ambiguous option '--de'\n"},
		{"--validate=yes g.yaml", "cugraphrun: error: option '--validate' takes no argument\n"},
		{"g.yaml -vn", "cugraphrun: error: option '-n' needs an argument\n"},
		{"g.yaml --describe", "cugraphrun: error: option '--describe' needs an argument\n"},
	};
	char err[512], want[512];
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		ck_assert_int_eq(parse_args(cases[i].args, err, sizeof err), CLI_USAGE);
		snprintf(want, sizeof want, "%sTry 'cugraphrun --help' for more information.\n",
			 cases[i].message);
		ck_assert_str_eq(err, want);
	}
	/* The defaults --help gives are the ones used: the file's, then the built-in. */
	char *help = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&help, &len);
	cli_usage(f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(help, "(default: run.repeat, else until\n"));
	ck_assert_ptr_nonnull(strstr(help, "(default: run.warmup,"));
	ck_assert_ptr_nonnull(strstr(help, "(default: run.device, else 0)"));
	free(help);
	/* A call after a half-read "-xv" starts afresh. */
	ck_assert_int_eq(parse_args("-q g.yaml", err, sizeof err), CLI_OK);
	ck_assert_str_eq(err, "");
}
END_TEST

/* ptx_entry_params: how many parameters PTX declares for an entry. */
START_TEST(test_ptx_params)
{
	static const char ptx[] =
		"// .entry commented(.param .u32 a)\n"
		".version 9.0\n.target sm_75\n"
		"/* .entry blockcomment( */\n"
		".func (.param .b32 r) helper(.param .b32 x)\n{\n}\n"
		".visible .entry saxpy(\n"
		"\t.param .u32 saxpy_param_0,\n"
		"\t.param .f32 saxpy_param_1, // .param in a comment\n"
		"\t.param .align 8 .b8 saxpy_param_2[16]\n"
		")\n{\n\tret;\n}\n"
		".visible .entry sax()\n{\n}\n"
		".entry bare\n.maxntid 32, 1, 1\n{\n}\n"
		".entry broken(.param .u32 x\n";
	ck_assert_int_eq(ptx_entry_params(ptx, "saxpy"), 3);
	ck_assert_int_eq(ptx_entry_params(ptx, "sax"), 0);
	ck_assert_int_eq(ptx_entry_params(ptx, "bare"), 0);
	ck_assert_int_eq(ptx_entry_params(ptx, "sa"), -1);
	ck_assert_int_eq(ptx_entry_params(ptx, "commented"), -1);
	ck_assert_int_eq(ptx_entry_params(ptx, "blockcomment"), -1);
	ck_assert_int_eq(ptx_entry_params(ptx, "helper"), -1);
	ck_assert_int_eq(ptx_entry_params(ptx, "broken"), -1);
	ck_assert_int_eq(ptx_entry_params("\x7f" "ELF\2\1 .entry saxpy(.param .u32 a)", "saxpy"), -1);
	ck_assert_int_eq(ptx_entry_params("\x50\xed\x55\xba .entry saxpy()", "saxpy"), -1);
	ck_assert_int_eq(ptx_entry_params(NULL, "saxpy"), -1);
	ck_assert_int_eq(ptx_entry_params("", "saxpy"), -1);
}
END_TEST

static Suite *scalar_suite(void)
{
	Suite *s = suite_create("scalar");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_parse_int);
	tcase_add_test(tc, test_parse_number);
	tcase_add_test(tc, test_parse_size);
	tcase_add_test(tc, test_parse_duration);
	tcase_add_test(tc, test_elem_names);
	tcase_add_test(tc, test_num_encode_ranges);
	tcase_add_test(tc, test_half_floats);
	tcase_add_test(tc, test_elem_roundtrip);
	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_bool_null);
	tcase_add_test(tc, test_diag_output);
	tcase_add_test(tc, test_diag_repeats);
	tcase_add_test(tc, test_suggest);
	tcase_add_test(tc, test_strmap);
	tcase_add_test(tc, test_cli_misuse);
	tcase_add_test(tc, test_flag_lists);
	tcase_add_test(tc, test_processes_default);
	tcase_add_test(tc, test_ptx_params);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(scalar_suite)
