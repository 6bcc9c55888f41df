/*
 * The compile cache (see rtc_cache.h).  An entry file is a header of four
 * lines and the payload:
 *
 *   cugraphrun-cache 1
 *   KEY                  the 64 hex digits it is stored under
 *   LENGTH               of the payload, in decimal
 *   SHA256               of the payload, 64 hex digits
 *   PAYLOAD
 *
 * Anything else (a short file, a wrong length, a wrong digest, bytes
 * past the payload) is CACHE_CORRUPT.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rtc_cache.h"
#include "fileio.h"
#include "xmalloc.h"

/* SHA-256 (FIPS 180-4) ----------------------------------------------------- */

static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static void sha_block(struct sha256 *s, const unsigned char *p)
{
	uint32_t w[64];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
			(uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	uint32_t a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];
	uint32_t e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) +
			sha_k[i] + w[i];
		uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	s->h[0] += a;
	s->h[1] += b;
	s->h[2] += c;
	s->h[3] += d;
	s->h[4] += e;
	s->h[5] += f;
	s->h[6] += g;
	s->h[7] += h;
}

void sha256_init(struct sha256 *s)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	memcpy(s->h, iv, sizeof iv);
	s->len = 0;
	s->nbuf = 0;
}

void sha256_update(struct sha256 *s, const void *data, size_t len)
{
	const unsigned char *p = data;
	s->len += len;
	if (s->nbuf) {
		size_t take = 64 - s->nbuf < len ? 64 - s->nbuf : len;
		memcpy(s->buf + s->nbuf, p, take);
		s->nbuf += take;
		p += take;
		len -= take;
		if (s->nbuf < 64)
			return;
		sha_block(s, s->buf);
		s->nbuf = 0;
	}
	for (; len >= 64; p += 64, len -= 64)
		sha_block(s, p);
	memcpy(s->buf, p, len);
	s->nbuf = len;
}

void sha256_str(struct sha256 *s, const char *str)
{
	char n[24];
	size_t len = str ? strlen(str) : 0;
	int w = snprintf(n, sizeof n, "%zu:", len);
	sha256_update(s, n, (size_t)w);
	if (len)
		sha256_update(s, str, len);
}

void sha256_final(struct sha256 *s, char hex[HASH_HEX_LEN + 1])
{
	uint64_t bits = s->len * 8;
	unsigned char pad[72] = {0x80};
	size_t npad = (s->nbuf < 56 ? 56 : 120) - s->nbuf;
	for (int i = 0; i < 8; i++)
		pad[npad + (size_t)i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_update(s, pad, npad + 8);
	for (int i = 0; i < 8; i++)
		snprintf(hex + 8 * i, 9, "%08x", (unsigned)s->h[i]);
}

/* The directory and its entries -------------------------------------------- */

char *cache_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	char *dir;
	/* The XDG spec: a relative value is invalid and must be ignored. */
	if (xdg && xdg[0] == '/') {
		dir = xmalloc(strlen(xdg) + sizeof "/cugraphrun");
		sprintf(dir, "%s/cugraphrun", xdg);
		return dir;
	}
	const char *home = getenv("HOME");
	if (home == NULL || home[0] == '\0')
		return NULL;
	dir = xmalloc(strlen(home) + sizeof "/.cache/cugraphrun");
	sprintf(dir, "%s/.cache/cugraphrun", home);
	return dir;
}

char *cache_entry_path(const char *dir, const char *key)
{
	char *p = xmalloc(strlen(dir) + strlen(key) + 2);
	sprintf(p, "%s/%s", dir, key);
	return p;
}

static const char magic[] = "cugraphrun-cache 1\n";

/* A key is exactly 64 lowercase hex digits: nothing else names a file. */
static bool key_ok(const char *key)
{
	size_t n = strspn(key, "0123456789abcdef");
	return n == HASH_HEX_LEN && key[n] == '\0';
}

enum cache_status cache_get(const char *dir, const char *key, void **data, size_t *len)
{
	if (!key_ok(key))
		return CACHE_MISS;
	char *path = cache_entry_path(dir, key);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	free(path);
	if (fd < 0)
		return CACHE_MISS;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return CACHE_CORRUPT;
	}
	size_t size = (size_t)st.st_size;
	unsigned char *buf = xmalloc(size + 1);
	size_t got = 0;
	while (got < size) {
		ssize_t r = read(fd, buf + got, size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	/* header: magic, key, length, digest, each on its own line */
	size_t hlen = sizeof magic - 1;
	char want_hex[HASH_HEX_LEN + 1];
	unsigned long long plen;
	int used = 0;
	if (got < hlen || memcmp(buf, magic, hlen) != 0 || got < hlen + HASH_HEX_LEN + 1 ||
	    memcmp(buf + hlen, key, HASH_HEX_LEN) != 0 || buf[hlen + HASH_HEX_LEN] != '\n')
		goto corrupt;
	hlen += HASH_HEX_LEN + 1;
	/* no trailing \n in the format: it would eat the payload's leading spaces */
	if (sscanf((char *)buf + hlen, "%llu\n%64[0-9a-f]%n", &plen, want_hex, &used) != 2 ||
	    used == 0 || strlen(want_hex) != HASH_HEX_LEN || hlen + (size_t)used >= got ||
	    buf[hlen + (size_t)used] != '\n')
		goto corrupt;
	hlen += (size_t)used + 1;
	if (got - hlen != plen)
		goto corrupt;
	struct sha256 h;
	char have_hex[HASH_HEX_LEN + 1];
	sha256_init(&h);
	sha256_update(&h, buf + hlen, (size_t)plen);
	sha256_final(&h, have_hex);
	if (strcmp(have_hex, want_hex) != 0)
		goto corrupt;
	memmove(buf, buf + hlen, (size_t)plen);
	*data = buf;
	*len = (size_t)plen;
	return CACHE_HIT;
corrupt:
	free(buf);
	return CACHE_CORRUPT;
}

/* mkdir -p; true when path is a directory at the end. */
static bool make_dirs(const char *path)
{
	char *p = xstrdup(path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	int rc = mkdir(p, 0755);
	bool ok = rc == 0 || errno == EEXIST;
	struct stat st;
	ok = ok && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
	free(p);
	return ok;
}

bool cache_put(const char *dir, const char *key, const void *data, size_t len,
	       char *err, size_t errlen)
{
	if (!key_ok(key)) {
		snprintf(err, errlen, "invalid cache key");
		return false;
	}
	if (!make_dirs(dir)) {
		snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
		return false;
	}
	char *tmp = xmalloc(strlen(dir) + sizeof "/.tmp-XXXXXX");
	sprintf(tmp, "%s/.tmp-XXXXXX", dir);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "cannot write in %s: %s", dir, strerror(errno));
		free(tmp);
		return false;
	}
	struct sha256 h;
	char hex[HASH_HEX_LEN + 1];
	sha256_init(&h);
	sha256_update(&h, data, len);
	sha256_final(&h, hex);
	char head[256];
	int n = snprintf(head, sizeof head, "%s%s\n%zu\n%s\n", magic, key, len, hex);
	bool ok = write_full(fd, head, (size_t)n) && write_full(fd, data, len);
	int e = errno;
	/* The data must be on disk before the name: a crash must not leave a short entry. */
	if (ok && fsync(fd) != 0) {
		ok = false;
		e = errno;
	}
	if (close(fd) != 0 && ok) {
		ok = false;
		e = errno;
	}
	char *path = cache_entry_path(dir, key);
	if (ok && rename(tmp, path) != 0) {
		ok = false;
		e = errno;
	}
	if (!ok) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
		unlink(tmp);
	}
	free(path);
	free(tmp);
	return ok;
}
