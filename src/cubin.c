#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cubin.h"
#include "ptx.h"
#include "xmalloc.h"

/* Little-endian reads; callers have checked the bytes are there. */
static uint32_t rd16(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t rd32(const unsigned char *p)
{
	return rd16(p) | rd16(p + 2) << 16;
}

static uint64_t rd64(const unsigned char *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

/* Do n bytes at off lie within len?  (No overflow for any values.) */
static bool within(uint64_t off, uint64_t n, uint64_t len)
{
	return off <= len && n <= len - off;
}

/* ELF --------------------------------------------------------------------- */

#define ELF_HEADER 64
#define ELF_SHDR 64              /* the size of an Elf64_Shdr */
#define EM_CUDA 190
#define SHT_CUDA_INFO 0x70000000u

/* nv.info attribute formats and ids */
#define EIFMT_NVAL 0x01
#define EIFMT_BVAL 0x02
#define EIFMT_HVAL 0x03
#define EIFMT_SVAL 0x04
#define EIATTR_KPARAM_INFO 0x17
#define EIATTR_CBANK_PARAM_SIZE 0x19
#define EIATTR_KPARAM_INFO_V2 0x45
#define KPARAM_BYTES 12

/* Is the NUL-terminated string at off of the len-byte table ".nv.info." name? */
static bool info_name_is(const unsigned char *tab, uint64_t len, uint64_t off, const char *name)
{
	static const char prefix[] = ".nv.info.";
	size_t plen = sizeof prefix - 1, nlen = strlen(name);
	if (!within(off, plen + nlen + 1, len))
		return false;
	const unsigned char *s = tab + off;
	return memcmp(s, prefix, plen) == 0 && memcmp(s + plen, name, nlen) == 0 &&
	       s[plen + nlen] == '\0';
}

/* One parameter as an attribute gives it. */
struct kparam {
	uint32_t ordinal, offset, size;
};

/*
 * The parameters that the attributes at d (len bytes) describe, sizes by
 * ordinal in *sizes; -1 at anything unexpected.
 */
static long info_params(const unsigned char *d, size_t len, size_t **sizes)
{
	/* each parameter's attribute takes 4 + 12 bytes */
	size_t cap = len / (4 + KPARAM_BYTES);
	struct kparam *ps = xcalloc(cap ? cap : 1, sizeof *ps);
	size_t n = 0, p = 0;
	bool have_total = false, ok = true;
	uint32_t total = 0;
	while (ok && p < len) {
		if (len - p < 4) {
			ok = false;
			break;
		}
		unsigned fmt = d[p], id = d[p + 1];
		bool param = id == EIATTR_KPARAM_INFO || id == EIATTR_KPARAM_INFO_V2;
		switch (fmt) {
		case EIFMT_NVAL:
		case EIFMT_BVAL:
			ok = !param && id != EIATTR_CBANK_PARAM_SIZE;
			p += 4;
			break;
		case EIFMT_HVAL:
			if (id == EIATTR_CBANK_PARAM_SIZE) {
				ok = !have_total;
				have_total = true;
				total = rd16(d + p + 2);
			} else if (param) {
				ok = false;
			}
			p += 4;
			break;
		case EIFMT_SVAL: {
			size_t vlen = rd16(d + p + 2);
			if (vlen > len - p - 4 || id == EIATTR_CBANK_PARAM_SIZE) {
				ok = false;
				break;
			}
			if (param) {
				const unsigned char *v = d + p + 4;
				/* cap cannot be reached: each took 16 of the len bytes */
				if (vlen != KPARAM_BYTES || rd32(v) != 0 || n >= cap) {
					ok = false;
					break;
				}
				uint32_t w = rd32(v + 8);
				if (id == EIATTR_KPARAM_INFO_V2 && (w >> 16 & 0xff) != 0) {
					ok = false;
					break;
				}
				ps[n].ordinal = rd16(v + 4);
				ps[n].offset = rd16(v + 6);
				ps[n].size = id == EIATTR_KPARAM_INFO ? w >> 18 : w & 0xffff;
				n++;
			}
			p += 4 + vlen;
			break;
		}
		default:
			ok = false;
			break;
		}
	}
	/* ordinals 0..n-1, each once; in order of offset, none overlapping */
	size_t *sz = NULL;
	uint32_t *off = NULL;
	if (ok && n > 0) {
		sz = xcalloc(n, sizeof *sz);
		off = xcalloc(n, sizeof *off);
		for (size_t i = 0; ok && i < n; i++) {
			ok = ps[i].ordinal < n && sz[ps[i].ordinal] == 0 && ps[i].size > 0;
			if (ok) {
				sz[ps[i].ordinal] = ps[i].size;
				off[ps[i].ordinal] = ps[i].offset;
			}
		}
		ok = ok && off[0] == 0;
		for (size_t i = 1; ok && i < n; i++)
			ok = off[i] >= (uint64_t)off[i - 1] + sz[i - 1];
		/* and the parameter space ends where the last one does */
		ok = ok && have_total && total == off[n - 1] + sz[n - 1];
	} else if (ok) {
		ok = !have_total || total == 0;
	}
	free(ps);
	free(off);
	if (!ok) {
		free(sz);
		return -1;
	}
	*sizes = sz;
	return (long)n;
}

static long elf_params(const unsigned char *b, size_t len, const char *name, size_t **sizes)
{
	*sizes = NULL;
	/* ELF64 (class 2), little-endian (1), for a CUDA device */
	if (len < ELF_HEADER || memcmp(b, "\x7f" "ELF", 4) != 0 || b[4] != 2 || b[5] != 1 ||
	    rd16(b + 18) != EM_CUDA)
		return -1;
	uint64_t shoff = rd64(b + 0x28);
	uint32_t shentsize = rd16(b + 0x3a), shnum = rd16(b + 0x3c), shstrndx = rd16(b + 0x3e);
	/* shnum 0 and SHN_XINDEX (shstrndx 0xffff) would be extended numbering: not seen */
	if (shentsize < ELF_SHDR || shnum == 0 || shstrndx >= shnum ||
	    !within(shoff, (uint64_t)shnum * shentsize, len))
		return -1;
	const unsigned char *sh = b + shoff;
	const unsigned char *str = sh + (size_t)shstrndx * shentsize;
	uint64_t stroff = rd64(str + 0x18), strsize = rd64(str + 0x20);
	if (!within(stroff, strsize, len))
		return -1;
	const unsigned char *found = NULL;
	for (uint32_t i = 0; i < shnum; i++) {
		const unsigned char *s = sh + (size_t)i * shentsize;
		if (rd32(s + 4) != SHT_CUDA_INFO || !info_name_is(b + stroff, strsize, rd32(s), name))
			continue;
		if (found)
			return -1;      /* two sections of that name: which one? */
		found = s;
	}
	if (found == NULL)
		return -1;
	uint64_t off = rd64(found + 0x18), size = rd64(found + 0x20);
	if (!within(off, size, len))
		return -1;
	return info_params(b + off, (size_t)size, sizes);
}

/* Fatbin ------------------------------------------------------------------ */

#define FATBIN_MAGIC 0xBA55ED50u
#define FATBIN_HEADER 16
#define FATBIN_ENTRY 64          /* the fields read of an entry's header */
#define FATBIN_PTX 1
#define FATBIN_ELF 2
#define FATBIN_COMPRESSED 0xa000u        /* 0x2000 (LZ4) and 0x8000 (zstd) */
#define FATBIN_ARCH_SPECIFIC 0x100000u   /* sm_90a: for that arch alone */

struct fat_entry {
	unsigned kind;
	int arch;
	uint64_t flags;
	bool compressed;
	const unsigned char *payload;
	size_t size;
};

/* ptx_entry_params on len bytes of PTX that may lack their NUL. */
static long ptx_params(const unsigned char *b, size_t len, const char *name)
{
	if (memchr(b, '\0', len))
		return ptx_entry_params((const char *)b, name);
	char *text = xmalloc(len + 1);
	memcpy(text, b, len);
	text[len] = '\0';
	long n = ptx_entry_params(text, name);
	free(text);
	return n;
}

/* The parameters an entry gives: -1 when compressed or not understood. */
static long entry_params(const struct fat_entry *e, const char *name, size_t **sizes)
{
	*sizes = NULL;
	if (e->compressed)
		return -1;
	if (e->kind == FATBIN_ELF)
		return elf_params(e->payload, e->size, name, sizes);
	return ptx_params(e->payload, e->size, name);
}

/* The entries of the fatbin, at most max of them, in *out; -1 if it is not one. */
static long fat_entries(const unsigned char *b, size_t len, struct fat_entry *out, size_t max)
{
	if (len < FATBIN_HEADER || rd32(b) != FATBIN_MAGIC || rd16(b + 4) != 1)
		return -1;
	uint64_t hs = rd16(b + 6), size = rd64(b + 8);
	if (hs < FATBIN_HEADER || !within(hs, size, len))
		return -1;
	const unsigned char *p = b + hs, *end = b + hs + size;
	size_t n = 0;
	while (p < end) {
		size_t left = (size_t)(end - p);
		if (left < FATBIN_ENTRY)
			return -1;
		uint64_t ehs = rd32(p + 4), psize = rd64(p + 8);
		if (ehs < FATBIN_ENTRY || !within(ehs, psize, left))
			return -1;
		unsigned kind = rd16(p);
		if (kind == FATBIN_PTX || kind == FATBIN_ELF) {
			if (n == max)
				return -1;
			struct fat_entry *e = &out[n++];
			e->kind = kind;
			e->arch = (int)rd32(p + 28);
			e->flags = rd64(p + 40);
			e->compressed = rd32(p + 16) != 0 || (e->flags & FATBIN_COMPRESSED) != 0;
			e->payload = p + ehs;
			e->size = (size_t)psize;
		}
		p += ehs + psize;
	}
	return (long)n;
}

/* May the driver load entry e on a device of compute capability sm? */
static bool candidate(const struct fat_entry *e, int sm, bool exact_elf)
{
	if (e->arch == sm)
		return e->kind == FATBIN_ELF || !exact_elf;
	if (exact_elf || e->arch > sm || (e->flags & FATBIN_ARCH_SPECIFIC))
		return false;
	return e->kind == FATBIN_PTX || e->arch / 10 == sm / 10;
}

#define FATBIN_MAX_ENTRIES 256

static long fatbin_params(const unsigned char *b, size_t len, const char *name, int sm,
			  size_t **sizes)
{
	*sizes = NULL;
	struct fat_entry *es = xcalloc(FATBIN_MAX_ENTRIES, sizeof *es);
	long n = fat_entries(b, len, es, FATBIN_MAX_ENTRIES);
	bool exact_elf = false;
	for (long i = 0; i < n; i++)
		exact_elf = exact_elf || (es[i].kind == FATBIN_ELF && es[i].arch == sm);
	/* every entry the driver might take must be read, and all agree */
	long count = -1;
	size_t *have = NULL;
	bool ok = n > 0, any = false;
	for (long i = 0; ok && i < n; i++) {
		if (!candidate(&es[i], sm, exact_elf))
			continue;
		size_t *s;
		long c = entry_params(&es[i], name, &s);
		ok = c >= 0 && (!any || c == count) &&
		     (s == NULL || have == NULL || memcmp(s, have, (size_t)c * sizeof *s) == 0);
		if (ok && have == NULL) {
			have = s;
			s = NULL;
		}
		free(s);
		count = c;
		any = true;
	}
	free(es);
	if (!ok || !any) {
		free(have);
		return -1;
	}
	*sizes = have;
	return count;
}

/* Any image ---------------------------------------------------------------- */

long image_entry_params(const void *image, size_t len, const char *name, int sm,
			size_t **sizes)
{
	size_t *dummy;
	if (sizes == NULL)
		sizes = &dummy;
	*sizes = NULL;
	if (image == NULL || name == NULL || *name == '\0')
		return -1;
	const unsigned char *b = image;
	long n;
	if (len >= 4 && memcmp(b, "\x7f" "ELF", 4) == 0) {
		n = elf_params(b, len, name, sizes);
	} else if (len >= 4 && rd32(b) == FATBIN_MAGIC) {
		n = fatbin_params(b, len, name, sm, sizes);
	} else {
		n = ptx_params(b, len, name);
	}
	if (sizes == &dummy)
		free(dummy);
	return n;
}
