/*
 * Unit tests for the PTX reading of what kernels do through their
 * pointer parameters (ptx_access.h): on the PTX nvcc wrote for the
 * examples and the describe tests, and on small hand-written entries for
 * what compiled code seldom shows (vector loads, .loc lines, an address
 * taken, a second pass).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "ptx_access.h"
#include "unit.h"

/* The reading of entry name in file (under the source tree), which must be had. */
static struct ptx_access *read_entry(const char *file, const char *name)
{
	char *path = NULL;
	if (asprintf(&path, "%s/%s", TOP_SRCDIR, file) < 0)
		ck_abort_msg("asprintf");
	char *text = read_whole_file(path, NULL);
	ck_assert_msg(text != NULL, "cannot read %s", path);
	struct ptx_access *a = ptx_access_new(text, name);
	ck_assert_msg(a != NULL, "no reading of %s in %s", name, path);
	free(text);
	free(path);
	return a;
}

/* What parameter p's pointer (8 bytes at offset 0) is used for. */
static unsigned at(const struct ptx_access *a, size_t p)
{
	return ptx_access_at(a, p, 0, 8);
}

#define R PTX_READ
#define W PTX_WRITE
#define RW (PTX_READ | PTX_WRITE)

START_TEST(test_examples)
{
	static const struct {
		const char *file, *entry;
		size_t nparams;
		unsigned want[5];       /* pointer parameters only; ~0u: a scalar */
	} cases[] = {
		/* matmul(const float *a, const float *b, float *c, int n) */
		{"examples/kernels/matmul.ptx", "matmul", 4, {R, R, W, ~0u}},
		/* reverse_add(const float *x, float *y, int n): y[i] = x[i] + x[n-1-i] */
		{"examples/kernels/vector.ptx", "reverse_add", 3, {R, W, ~0u}},
		{"examples/kernels/vector.ptx", "scale", 4, {R, W, ~0u, ~0u}},
		/* grid_rotate(in, out, arrived): in written and read, an atomic on arrived */
		{"examples/kernels/coop.ptx", "grid_rotate", 3, {RW, W, RW}},
		/* jacobi(int n, float omega, const float *b, const float *x, float *xnew) */
		{"examples/kernels/jacobi.ptx", "jacobi", 5, {~0u, ~0u, R, R, W}},
		/* the address itself stored: save_addr(const void *p, u64 *saved) */
		{"examples/kernels/graphmem.ptx", "save_addr", 2, {PTX_UNKNOWN, W}},
		/* a conditional handle goes to a call: not followed */
		{"examples/kernels/collatz.ptx", "collatz_start", 3, {PTX_UNKNOWN, R, W}},
		/* a pointer never used */
		{"examples/kernels/empty.ptx", "empty_args", 2, {0, 0}},
		/* the built-in module's countdown decrements its counter */
		{"src/builtin.ptx", "countdown", 2, {PTX_UNKNOWN, RW}},
		{"src/builtin.ptx", "set_from", 2, {PTX_UNKNOWN, R}},
		/* the describe tests' stand-ins: their parameter is never used */
		{"tests/describe/kernels/features.ptx", "produce", 1, {0}},
		/* tests/describe/kernels/access.cu, one way each */
		{"tests/describe/kernels/access.ptx", "copy", 3, {R, W, ~0u}},
		{"tests/describe/kernels/access.ptx", "scale", 3, {RW, ~0u, ~0u}},
		{"tests/describe/kernels/access.ptx", "count", 1, {RW}},
		{"tests/describe/kernels/access.ptx", "keep", 2, {PTX_UNKNOWN, W}},
		{"tests/describe/kernels/access.ptx", "ignore", 1, {0}},
		{"tests/describe/kernels/access.ptx", "call", 1, {PTX_UNKNOWN}},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct ptx_access *a = read_entry(cases[i].file, cases[i].entry);
		ck_assert_uint_eq(ptx_access_nparams(a), cases[i].nparams);
		for (size_t p = 0; p < cases[i].nparams; p++) {
			if (cases[i].want[p] == ~0u)
				continue;
			unsigned got = at(a, p);
			/* an unknown parameter may also have been seen read or written */
			if (cases[i].want[p] == PTX_UNKNOWN)
				got &= PTX_UNKNOWN;
			ck_assert_msg(got == cases[i].want[p], "%s %s parameter %zu: %u, not %u",
				      cases[i].file, cases[i].entry, p, got, cases[i].want[p]);
		}
		ptx_access_free(a);
	}
}
END_TEST

START_TEST(test_struct_fields)
{
	/* gather(struct {const float *src; float *dst; int n;}): by field */
	struct ptx_access *a = read_entry("tests/describe/kernels/access.ptx", "gather");
	ck_assert_uint_eq(ptx_access_at(a, 0, 0, 8), PTX_READ);
	ck_assert_uint_eq(ptx_access_at(a, 0, 8, 8), PTX_WRITE);
	ck_assert_uint_eq(ptx_access_at(a, 1, 0, 8), PTX_UNKNOWN);     /* no such parameter */
	ptx_access_free(a);
}
END_TEST

/* A hand-written module around one entry's parameters and body. */
static struct ptx_access *entry(const char *params, const char *body)
{
	char *text = NULL;
	if (asprintf(&text, ".version 8.0\n.target sm_90\n.address_size 64\n\n"
		     ".visible .entry k(%s)\n{\n%s\n}\n", params, body) < 0)
		ck_abort_msg("asprintf");
	struct ptx_access *a = ptx_access_new(text, "k");
	free(text);
	return a;
}

START_TEST(test_hand_written)
{
	/* a vector load of two pointers from a struct; .loc lines without ';' */
	struct ptx_access *a = entry(".param .align 8 .b8 k_param_0[16]",
		"\t.reg .b64 %rd<6>;\n"
		"\t.loc 1 5 1\n"
		"\tld.param.v2.u64 {%rd1, %rd2}, [k_param_0];\n"
		"\t.loc 1 6 1\n"
		"\tcvta.to.global.u64 %rd3, %rd1;\n"
		"\tld.global.u32 %r1, [%rd3+4];\n"
		"$L__BB0_1:\n"
		"\t@!%p1 st.global.u32 [%rd2], %r1;\n"
		"\t// st.global.u32 [%rd3], %r1; a comment stores nothing\n"
		"\tret;");
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(ptx_access_at(a, 0, 0, 8), PTX_READ);
	ck_assert_uint_eq(ptx_access_at(a, 0, 8, 8), PTX_WRITE);
	ptx_access_free(a);

	/* an address computed before, in the text, what it comes from: a second pass */
	a = entry(".param .u64 k_param_0",
		"\tbra $L2;\n"
		"$L1:\n"
		"\tadd.s64 %rd4, %rd3, 16;\n"
		"\tred.global.add.u32 [%rd4], 1;\n"
		"\tret;\n"
		"$L2:\n"
		"\tld.param.u64 %rd1, [k_param_0];\n"
		"\tcvta.to.global.u64 %rd3, %rd1;\n"
		"\tbra $L1;");
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(ptx_access_at(a, 0, 0, 8), PTX_READ | PTX_WRITE);
	ptx_access_free(a);

	/* the parameter's own address taken: whatever follows is not read */
	a = entry(".param .u64 k_param_0, .param .u64 k_param_1",
		"\tmov.u64 %rd1, k_param_0;\n"
		"\tld.param.u64 %rd2, [k_param_1];\n"
		"\tcp.async.ca.shared.global [%r1], [%rd2], 16;\n"
		"\tret;");
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(ptx_access_at(a, 0, 0, 8), PTX_UNKNOWN);
	ck_assert_uint_eq(ptx_access_at(a, 1, 0, 8), PTX_READ);
	ptx_access_free(a);

	/* an instruction the reading does not know, with the address: unknown */
	a = entry(".param .u64 k_param_0",
		"\tld.param.u64 %rd1, [k_param_0];\n"
		"\tmbarrier.init.b64 [%rd1], 1;\n"
		"\tret;");
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(ptx_access_at(a, 0, 0, 8) & PTX_UNKNOWN, PTX_UNKNOWN);
	ptx_access_free(a);

	/* %tid.x is not a parameter named x */
	a = entry(".param .u64 x",
		"\tld.param.u64 %rd1, [x];\n"
		"\tmov.u32 %r1, %tid.x;\n"
		"\tst.global.u32 [%rd1], %r1;\n"
		"\tret;");
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(ptx_access_at(a, 0, 0, 8), PTX_WRITE);
	ptx_access_free(a);
}
END_TEST

START_TEST(test_unreadable)
{
	/* a declaration only; no such entry; not PTX; 32-bit addresses */
	const char *ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
		".visible .entry k(.param .u64 p)\n;\n";
	ck_assert_ptr_null(ptx_access_new(ptx, "k"));
	ck_assert_ptr_null(ptx_access_new(ptx, "other"));
	ck_assert_ptr_null(ptx_access_new("\x7f" "ELF\x02\x01\x01", "k"));
	ck_assert_ptr_null(ptx_access_new(".version 8.0\n.target sm_90\n.address_size 32\n"
					  ".entry k(.param .u32 p)\n{\nret;\n}\n", "k"));
	/* text after the last statement: not read whole */
	ck_assert_ptr_null(entry(".param .u64 p", "ld.param.u64 %rd1, [p]"));
	/* a declaration, then the definition: the definition is read */
	struct ptx_access *a = ptx_access_new(
		".version 8.0\n.address_size 64\n.entry k(.param .u64 p);\n"
		".entry k(.param .u64 p)\n.maxntid 256, 1, 1\n{\n"
		"ld.param.u64 %rd1, [p];\nld.global.u32 %r1, [%rd1];\nret;\n}\n", "k");
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(ptx_access_at(a, 0, 0, 8), PTX_READ);
	ptx_access_free(a);
}
END_TEST

static Suite *ptx_access_suite(void)
{
	Suite *s = suite_create("ptx_access");
	TCase *tc = tcase_create("read");
	tcase_add_test(tc, test_examples);
	tcase_add_test(tc, test_struct_fields);
	tcase_add_test(tc, test_hand_written);
	tcase_add_test(tc, test_unreadable);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(ptx_access_suite)
