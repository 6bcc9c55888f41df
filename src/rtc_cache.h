/*
 * The compile cache: content hashing (SHA-256) for cache keys, and a
 * directory of entries, one file per key, each written atomically
 * (temporary file in the same directory, then rename) and checked on
 * every read (magic, key, length and a SHA-256 of the payload), so that a
 * truncated or corrupt entry reads as a miss and is rebuilt, never used.
 * Several processes may share one directory: a reader sees a whole old
 * entry or a whole new one, and concurrent writers of one key each
 * rename a complete file over the other's.
 *
 * No CUDA here, so the unit tests run on any machine.  Nothing is global:
 * a struct sha256 lives on the caller's stack; cache_dir() and
 * cache_get() return malloc'd memory the caller frees.
 */
#ifndef CGR_RTC_CACHE_H
#define CGR_RTC_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* SHA-256 in progress. */
struct sha256 {
	uint32_t h[8];
	uint64_t len;                   /* bytes so far */
	unsigned char buf[64];
	size_t nbuf;
};

#define HASH_HEX_LEN 64

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* A string with its length in front, so that ("ab","c") and ("a","bc") differ. */
void sha256_str(struct sha256 *s, const char *str);
/* The digest as 64 lowercase hex digits and a NUL, into hex. */
void sha256_final(struct sha256 *s, char hex[HASH_HEX_LEN + 1]);

/*
 * The cache directory: $XDG_CACHE_HOME/cugraphrun when XDG_CACHE_HOME is
 * an absolute path, else $HOME/.cache/cugraphrun; NULL when neither is
 * set.  Not created here.
 */
char *cache_dir(void);

enum cache_status {
	CACHE_HIT,
	CACHE_MISS,                     /* no entry */
	CACHE_CORRUPT,                  /* an entry that failed the checks */
};

/*
 * The payload stored under key (64 hex digits) in dir, into *data (malloc'd)
 * and *len on a hit.
 */
enum cache_status cache_get(const char *dir, const char *key, void **data, size_t *len);

/*
 * Store len bytes under key in dir, creating dir as needed.  True on
 * success; else false with a message in err (errlen bytes).
 */
bool cache_put(const char *dir, const char *key, const void *data, size_t len,
	       char *err, size_t errlen);

/* The entry's file name, dir/key (malloc'd); for messages and tests. */
char *cache_entry_path(const char *dir, const char *key);

#endif
