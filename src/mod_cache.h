/*
 * The kernels of module files, listed once for all the points of a
 * sweep.  Every point's model is validated on its own (sweep.h), and each
 * validation checks its kernel nodes against their modules (mod_check.h),
 * which read and listed the module file afresh: for a 100-node graph that
 * was two thirds of validating a point.  A point's module loads the same
 * file as the point before's when its resolved path is the same and the
 * file has not changed (same device, inode, size and modification time):
 * then the listing is the one already made.  A CUDA C++ module is not
 * cached here (its image is NVRTC's, through rtc_cache.h).
 *
 * Ownership: a struct mod_cache owns its entries (their listings, indexes
 * and paths); what mod_cache_get returns lives as long as the cache.
 */
#ifndef CGR_MOD_CACHE_H
#define CGR_MOD_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "cubin.h"
#include "strmap.h"

/* A module file's kernels, with the lookups mod_check makes in them. */
struct mod_listing {
	struct image_listing list;
	/* a complete listing with code: kernel name -> list.v index, and the names */
	struct strmap *index;
	const char **names;
};

/* Fill l's index and names from l->list (when complete and with code). */
void mod_listing_index(struct mod_listing *l);
void mod_listing_free(struct mod_listing *l);

struct mod_cache;

struct mod_cache *mod_cache_new(void);
void mod_cache_free(struct mod_cache *c);

/*
 * The listing of the module file at path (st: its stat) for compute
 * capability sm, from the cache; NULL when it is not there yet.
 */
const struct mod_listing *mod_cache_find(const struct mod_cache *c, const char *path, int sm,
					 const struct stat *st);
/* Keep l (whose list, index and names the cache takes) as that listing; returns the kept one. */
const struct mod_listing *mod_cache_add(struct mod_cache *c, const char *path, int sm,
					const struct stat *st, struct mod_listing *l);

/*
 * A note about module name (its file at path) said once per cache: true
 * the first time, so that -v says "its kernels are not checked" once for
 * a sweep rather than once per point.
 */
bool mod_cache_first_note(struct mod_cache *c, const char *name, const char *path);

#endif
