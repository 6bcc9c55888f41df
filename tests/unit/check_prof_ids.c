/*
 * Unit tests for the graph node id arithmetic of the profile
 * (src/prof_ids.c): where the root graph's clones must sit for nested
 * nodes to be mapped, against hand-made cases and, on random ones,
 * against the linear scan it replaced.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "monotime.h"
#include "prof_ids.h"
#include "unit.h"
#include "xmalloc.h"

#define G(g, i) (((uint64_t)(g) << 32) + (uint64_t)(i))

/* The scan prof_cupti.c's exec_layout did before, O(nroot x nclones): the reference. */
static bool scan_base(const uint64_t *root_ids, size_t nroot, const struct prof_clone *clones,
		      size_t nclones, uint64_t *out)
{
	uint64_t base = UINT64_MAX;
	for (size_t i = 0; i < nroot; i++) {
		uint64_t clone = UINT64_MAX;
		for (size_t c = 0; c < nclones && clone == UINT64_MAX; c++)
			if (clones[c].orig == root_ids[i] &&
			    (base == UINT64_MAX || clones[c].id >> 32 == base >> 32))
				clone = clones[c].id;
		if (clone == UINT64_MAX)
			return false;
		if (i == 0)
			base = clone & ~(uint64_t)UINT32_MAX;
		if (clone != base + i)
			return false;
	}
	if (nroot == 0)
		return false;
	*out = base;
	return true;
}

static const uint64_t roots3[] = {10, 11, 12};

START_TEST(in_order)
{
	struct prof_clone c[] = {{G(5, 0), 10}, {G(5, 1), 11}, {G(5, 2), 12}};
	uint64_t base = 0;
	ck_assert(prof_exec_base(roots3, 3, c, 3, &base));
	ck_assert_uint_eq(base, G(5, 0));
}
END_TEST

START_TEST(announced_out_of_order_among_nested)
{
	/* nested nodes' clones (orig 20, 21) in between, announced in any order */
	struct prof_clone c[] = {{G(7, 9), 21}, {G(5, 2), 12}, {G(8, 0), 20}, {G(5, 0), 10},
				 {G(5, 1), 11}};
	uint64_t base = 0;
	ck_assert(prof_exec_base(roots3, 3, c, 5, &base));
	ck_assert_uint_eq(base, G(5, 0));
}
END_TEST

START_TEST(not_laid_out)
{
	uint64_t base = 42;
	/* swapped */
	struct prof_clone swapped[] = {{G(5, 0), 10}, {G(5, 2), 11}, {G(5, 1), 12}};
	ck_assert(!prof_exec_base(roots3, 3, swapped, 3, &base));
	/* root node 0 not first in its graph */
	struct prof_clone shifted[] = {{G(5, 1), 10}, {G(5, 2), 11}, {G(5, 3), 12}};
	ck_assert(!prof_exec_base(roots3, 3, shifted, 3, &base));
	/* a root node never cloned */
	struct prof_clone missing[] = {{G(5, 0), 10}, {G(5, 1), 11}};
	ck_assert(!prof_exec_base(roots3, 3, missing, 2, &base));
	/* one cloned into another graph only */
	struct prof_clone elsewhere[] = {{G(5, 0), 10}, {G(5, 1), 11}, {G(6, 2), 12}};
	ck_assert(!prof_exec_base(roots3, 3, elsewhere, 3, &base));
	/* no root node, no clone */
	ck_assert(!prof_exec_base(roots3, 0, missing, 2, &base));
	ck_assert(!prof_exec_base(roots3, 3, NULL, 0, &base));
	/* an id of UINT64_MAX is never taken */
	struct prof_clone maxid[] = {{UINT64_MAX, 10}};
	ck_assert(!prof_exec_base(roots3, 1, maxid, 1, &base));
	ck_assert_uint_eq(base, 42);
}
END_TEST

START_TEST(first_announced_wins)
{
	uint64_t base = 0;
	/* two instantiations: root node 0's first clone picks the graph (1) */
	struct prof_clone two[] = {{G(2, 1), 11}, {G(1, 0), 10}, {G(2, 0), 10}, {G(1, 1), 11}};
	ck_assert(prof_exec_base(roots3, 2, two, 4, &base));
	ck_assert_uint_eq(base, G(1, 0));
	/* within a graph, a node's first clone announced is the one that counts */
	struct prof_clone late[] = {{G(3, 0), 10}, {G(3, 5), 11}, {G(3, 1), 11}};
	ck_assert(!prof_exec_base(roots3, 2, late, 3, &base));
	struct prof_clone early[] = {{G(3, 0), 10}, {G(3, 1), 11}, {G(3, 5), 11}};
	ck_assert(prof_exec_base(roots3, 2, early, 3, &base));
	ck_assert_uint_eq(base, G(3, 0));
}
END_TEST

/* Random cases, mostly laid out, sometimes broken, always as the scan says. */
START_TEST(random_cases_match_the_scan)
{
	srand(1234);
	for (int round = 0; round < 2000; round++) {
		size_t nroot = (size_t)(rand() % 12), nnested = (size_t)(rand() % 6);
		size_t cap = 2 * (nroot + nnested) + 4, n = 0;
		uint64_t *roots = xcalloc(nroot + 1, sizeof *roots);
		struct prof_clone *c = xcalloc(cap, sizeof *c);
		for (size_t i = 0; i < nroot; i++)
			roots[i] = 100 + (uint64_t)i;
		uint64_t g = 1 + (uint64_t)(rand() % 3);
		for (size_t i = 0; i < nroot; i++) {
			int what = rand() % 40;
			if (what == 0)
				continue;               /* never cloned */
			uint64_t gi = what == 1 ? g + 1 : g;
			uint64_t at = what == 2 ? i + 1 : i;
			c[n++] = (struct prof_clone){G(gi, at), roots[i]};
			if (what == 3)                  /* cloned twice */
				c[n++] = (struct prof_clone){G(gi + (uint64_t)(rand() % 2), at + 1),
							     roots[i]};
		}
		for (size_t j = 0; j < nnested && n < cap; j++)
			c[n++] = (struct prof_clone){G(g + 5, j), 500 + (uint64_t)j};
		for (size_t i = n; i > 1; i--) {        /* announced in any order */
			size_t k = (size_t)rand() % i;
			struct prof_clone t = c[i - 1];
			c[i - 1] = c[k];
			c[k] = t;
		}
		uint64_t want = 0, got = 0;
		bool w = scan_base(roots, nroot, c, n, &want);
		bool h = prof_exec_base(roots, nroot, c, n, &got);
		ck_assert_msg(w == h, "round %d: scan %d, prof_exec_base %d", round, w, h);
		if (w)
			ck_assert_uint_eq(want, got);
		free(roots);
		free(c);
	}
}
END_TEST

/* 10,000 root nodes: the scan's 5e7 comparisons become a sort. */
START_TEST(ten_thousand_nodes)
{
	size_t nroot = 10000, n = 2 * nroot;
	uint64_t *roots = xcalloc(nroot, sizeof *roots);
	struct prof_clone *c = xcalloc(n, sizeof *c);
	for (size_t i = 0; i < nroot; i++) {
		roots[i] = 1000 + 7 * (uint64_t)i;
		c[nroot - 1 - i] = (struct prof_clone){G(9, i), roots[i]};
		c[nroot + i] = (struct prof_clone){G(10, i), 999999 + (uint64_t)i};
	}
	uint64_t base = 0;
	double t = monotime();
	ck_assert(prof_exec_base(roots, nroot, c, n, &base));
	t = monotime() - t;
	ck_assert_uint_eq(base, G(9, 0));
	ck_assert_msg(t < 0.5, "10,000 root nodes took %.3f s", t);
	free(roots);
	free(c);
}
END_TEST

static Suite *prof_ids_suite(void)
{
	Suite *s = suite_create("prof_ids");
	TCase *tc = tcase_create("exec_base");
	tcase_add_test(tc, in_order);
	tcase_add_test(tc, announced_out_of_order_among_nested);
	tcase_add_test(tc, not_laid_out);
	tcase_add_test(tc, first_announced_wins);
	tcase_add_test(tc, random_cases_match_the_scan);
	tcase_add_test(tc, ten_thousand_nodes);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(prof_ids_suite)
