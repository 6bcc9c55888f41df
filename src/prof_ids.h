/*
 * The part of mapping CUPTI's records back to YAML nodes that is pure
 * arithmetic on graph node ids, kept out of prof_cupti.c (which needs CUPTI
 * and a GPU) so that it is unit-tested without either: where the
 * instantiated graph numbers the nodes of child graphs and conditional
 * bodies, whose clones CUPTI never announces.  prof_cupti.c, above
 * exec_layout, says what the driver was measured to do.
 */
#ifndef CGR_PROF_IDS_H
#define CGR_PROF_IDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A node clone CUPTI announced: the clone's id and the id it was cloned from. */
struct prof_clone {
	uint64_t id;
	uint64_t orig;
};

/*
 * Our root nodes' ids in creation order (root_ids[0..nroot)) and the
 * clones in the order CUPTI announced them: true, with G<<32 in *base,
 * when root node i's clone is G<<32 + i for every i, where G is the high
 * half of root node 0's first announced clone and root node i's clone is
 * its first announced one within G; false when some root node has no such
 * clone, one sits elsewhere, or there is no root node.  A clone whose id
 * is UINT64_MAX is never taken.  O((nclones + nroot) log nclones).
 */
bool prof_exec_base(const uint64_t *root_ids, size_t nroot, const struct prof_clone *clones,
		    size_t nclones, uint64_t *base);

#endif
