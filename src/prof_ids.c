/*
 * Graph node id arithmetic for the profile (see prof_ids.h).
 *
 * prof_exec_base finds each root node's clone by binary search in an
 * index of the clones sorted by (original id, graph, order announced):
 * the first entry of a (original, graph) run is the first clone
 * announced of that node in that graph, which is the one a scan in
 * announcement order would meet first.
 */
#include "config.h"

#include <stdlib.h>

#include "prof_ids.h"
#include "xmalloc.h"

struct entry {
	uint64_t orig;
	uint64_t graph;                 /* id >> 32 */
	size_t order;                   /* index in the order announced */
	uint64_t id;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	if (x->orig != y->orig)
		return x->orig < y->orig ? -1 : 1;
	if (x->graph != y->graph)
		return x->graph < y->graph ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/* The first entry not below (orig, graph, 0); n when none. */
static size_t lower_bound(const struct entry *e, size_t n, uint64_t orig, uint64_t graph)
{
	struct entry key = {orig, graph, 0, 0};
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_entry(&e[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool prof_exec_base(const uint64_t *root_ids, size_t nroot, const struct prof_clone *clones,
		    size_t nclones, uint64_t *base)
{
	if (nroot == 0)
		return false;
	struct entry *e = xcalloc(nclones ? nclones : 1, sizeof *e);
	size_t n = 0;
	for (size_t c = 0; c < nclones; c++)
		if (clones[c].id != UINT64_MAX)
			e[n++] = (struct entry){clones[c].orig, clones[c].id >> 32, c, clones[c].id};
	qsort(e, n, sizeof *e, cmp_entry);
	bool ok = true;
	/* root node 0: its first clone announced, in whichever graph */
	size_t at = lower_bound(e, n, root_ids[0], 0), first = SIZE_MAX;
	for (size_t k = at; k < n && e[k].orig == root_ids[0]; k++)
		if (first == SIZE_MAX || e[k].order < e[first].order)
			first = k;
	uint64_t b = 0;
	if (first == SIZE_MAX || (e[first].id & (uint64_t)UINT32_MAX) != 0)
		ok = false;
	else
		b = e[first].id;
	/* the others: their first clone announced within that graph */
	for (size_t i = 1; i < nroot && ok; i++) {
		at = lower_bound(e, n, root_ids[i], b >> 32);
		ok = at < n && e[at].orig == root_ids[i] && e[at].graph == b >> 32 &&
		     e[at].id == b + i;
	}
	free(e);
	if (ok)
		*base = b;
	return ok;
}
