#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cubin.h"
#include "ptx.h"
#include "strmap.h"
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

/* Listing every kernel ------------------------------------------------------ */

#define SHT_SYMTAB 2
#define ELF_SYM 24               /* the size of an Elf64_Sym */
#define STT_FUNC 2
#define STO_CUDA_ENTRY 0x10

/* A NUL-terminated string at off of the len-byte table, or NULL. */
static const char *table_str(const unsigned char *tab, uint64_t len, uint64_t off)
{
	if (off >= len || memchr(tab + off, '\0', (size_t)(len - off)) == NULL)
		return NULL;
	return (const char *)tab + off;
}

/* Forget the kernels listed, keeping what the listing says of the image. */
static void drop_kernels(struct image_listing *l)
{
	for (size_t i = 0; l->v && i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].params);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

void image_listing_free(struct image_listing *l)
{
	drop_kernels(l);
	memset(l, 0, sizeof *l);
}

/* A kernel of one part of an image, sizes in params (types "" for a cubin). */
static void add_kernel(struct image_listing *l, size_t *cap, const char *name, long nparams,
		       struct ptx_param *params)
{
	struct image_kernel *k = VEC_PUSH(l->v, l->n, *cap);
	k->name = xstrdup(name);
	k->everywhere = true;
	k->nparams = nparams;
	k->params = params;
}

/* The kernels of a cubin into l (empty); false when it cannot be read. */
static bool elf_list(const unsigned char *b, size_t len, struct image_listing *l)
{
	if (len < ELF_HEADER || memcmp(b, "\x7f" "ELF", 4) != 0 || b[4] != 2 || b[5] != 1 ||
	    rd16(b + 18) != EM_CUDA)
		return false;
	uint64_t shoff = rd64(b + 0x28);
	uint32_t shentsize = rd16(b + 0x3a), shnum = rd16(b + 0x3c), shstrndx = rd16(b + 0x3e);
	if (shentsize < ELF_SHDR || shnum == 0 || shstrndx >= shnum ||
	    !within(shoff, (uint64_t)shnum * shentsize, len))
		return false;
	const unsigned char *sh = b + shoff;
	const unsigned char *str = sh + (size_t)shstrndx * shentsize;
	uint64_t stroff = rd64(str + 0x18), strsize = rd64(str + 0x20);
	if (!within(stroff, strsize, len))
		return false;
	/* the .nv.info.NAME sections by NAME, and the one symbol table */
	struct strmap *info = strmap_new(64);
	const unsigned char *symtab = NULL;
	bool ok = true;
	for (uint32_t i = 0; ok && i < shnum; i++) {
		const unsigned char *s = sh + (size_t)i * shentsize;
		if (rd32(s + 4) == SHT_SYMTAB) {
			ok = symtab == NULL;
			symtab = s;
			continue;
		}
		if (rd32(s + 4) != SHT_CUDA_INFO)
			continue;
		const char *sname = table_str(b + stroff, strsize, rd32(s));
		static const char prefix[] = ".nv.info.";
		if (sname && strncmp(sname, prefix, sizeof prefix - 1) == 0) {
			long old;
			/* two sections of one name: which one? (-2: neither) */
			if (!strmap_put(info, sname + sizeof prefix - 1, (long)i, &old))
				strmap_put(info, sname + sizeof prefix - 1, -2, NULL);
		}
	}
	uint64_t symoff = 0, symsize = 0, symstroff = 0, symstrsize = 0;
	if (ok && symtab) {
		uint32_t link = rd32(symtab + 40);
		symoff = rd64(symtab + 0x18);
		symsize = rd64(symtab + 0x20);
		ok = link < shnum && rd64(symtab + 56) == ELF_SYM && within(symoff, symsize, len);
		if (ok) {
			const unsigned char *ls = sh + (size_t)link * shentsize;
			symstroff = rd64(ls + 0x18);
			symstrsize = rd64(ls + 0x20);
			ok = within(symstroff, symstrsize, len);
		}
	}
	/* no symbol table at all: nothing says what the kernels are */
	ok = ok && symtab != NULL;
	size_t cap = 0;
	for (uint64_t at = 0; ok && at + ELF_SYM <= symsize; at += ELF_SYM) {
		const unsigned char *sym = b + symoff + at;
		if ((sym[4] & 0xf) != STT_FUNC || (sym[5] & STO_CUDA_ENTRY) == 0 ||
		    rd16(sym + 6) == 0)
			continue;
		const char *name = table_str(b + symstroff, symstrsize, rd32(sym));
		if (name == NULL || *name == '\0') {
			ok = false;
			break;
		}
		long si = strmap_get(info, name);
		long n = -1;
		size_t *sizes = NULL;
		if (si >= 0) {
			const unsigned char *s = sh + (size_t)si * shentsize;
			uint64_t off = rd64(s + 0x18), size = rd64(s + 0x20);
			if (within(off, size, len))
				n = info_params(b + off, (size_t)size, &sizes);
		}
		struct ptx_param *ps = NULL;
		if (n > 0) {
			ps = xcalloc((size_t)n, sizeof *ps);
			for (long j = 0; j < n; j++)
				ps[j].size = sizes[j];
		}
		free(sizes);
		add_kernel(l, &cap, name, n, ps);
	}
	strmap_free(info);
	if (!ok)
		drop_kernels(l);
	return ok;
}

/* The kernels of PTX (len bytes that may lack their NUL) into l; false when unreadable. */
static bool ptx_list(const unsigned char *b, size_t len, struct image_listing *l)
{
	char *copy = NULL;
	const char *text = (const char *)b;
	if (memchr(b, '\0', len) == NULL) {
		copy = xmalloc(len + 1);
		memcpy(copy, b, len);
		copy[len] = '\0';
		text = copy;
	}
	struct ptx_entry *es;
	long n = ptx_entries(text, &es);
	ptx_header(text, &l->ptx);
	free(copy);
	if (n < 0)
		return false;
	size_t cap = 0;
	for (long i = 0; i < n; i++) {
		add_kernel(l, &cap, es[i].name, (long)es[i].nparams, es[i].params);
		l->v[l->n - 1].dyn_shared = es[i].dyn_shared;
		es[i].params = NULL;
	}
	ptx_entries_free(es, (size_t)n);
	return true;
}

/* Do two parts of an image give a kernel alike?  Sizes the one lacks the other may give. */
static bool merge_params(struct image_kernel *into, const struct image_kernel *k)
{
	if (into->nparams < 0 || k->nparams != into->nparams)
		return false;
	for (long i = 0; i < k->nparams; i++) {
		struct ptx_param *a = &into->params[i];
		const struct ptx_param *p = &k->params[i];
		if (a->size && p->size && a->size != p->size)
			return false;
		if (a->size == 0)
			a->size = p->size;
		if (a->type[0] == '\0')
			memcpy(a->type, p->type, sizeof a->type);
	}
	return true;
}

/* "sm_80 and sm_90 cubins, compute_75 PTX" for a fatbin's entries. */
static void describe_fatbin(const struct fat_entry *es, long n, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int kind = FATBIN_ELF; kind >= FATBIN_PTX; kind--) {
		unsigned count = 0;
		for (long i = 0; i < n; i++)
			count += es[i].kind == (unsigned)kind;
		if (count == 0)
			continue;
		unsigned k = 0;
		for (long i = 0; i < n && at < len; i++) {
			if (es[i].kind != (unsigned)kind)
				continue;
			const char *sep = k == 0 ? (at ? ", " : "") : k + 1 == count ? " and " : ", ";
			at += (size_t)snprintf(buf + at, len - at, "%s%s_%d%s", sep,
					       kind == FATBIN_ELF ? "sm" : "compute", es[i].arch,
					       es[i].flags & FATBIN_ARCH_SPECIFIC ? "a" : "");
			k++;
		}
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s",
					       kind == FATBIN_PTX ? " PTX" :
					       count == 1 ? " cubin" : " cubins");
	}
}

static void fatbin_list(const unsigned char *b, size_t len, int sm, struct image_listing *l)
{
	struct fat_entry *es = xcalloc(FATBIN_MAX_ENTRIES, sizeof *es);
	long n = fat_entries(b, len, es, FATBIN_MAX_ENTRIES);
	if (n < 0) {
		free(es);
		return;
	}
	describe_fatbin(es, n, l->holds, sizeof l->holds);
	bool exact_elf = false;
	for (long i = 0; i < n; i++)
		exact_elf = exact_elf || (es[i].kind == FATBIN_ELF && es[i].arch == sm);
	struct strmap *index = strmap_new(64);
	size_t cap = 0, parts = 0;
	size_t *seen = NULL;            /* per kernel listed: the parts that have it */
	size_t seencap = 0, nseen = 0;
	l->complete = true;
	for (long i = 0; i < n; i++) {
		if (sm > 0 && !candidate(&es[i], sm, exact_elf))
			continue;
		parts++;
		struct image_listing part = {0};
		bool read = !es[i].compressed &&
			    (es[i].kind == FATBIN_ELF ? elf_list(es[i].payload, es[i].size, &part) :
			     ptx_list(es[i].payload, es[i].size, &part));
		if (!read) {
			l->complete = false;
			continue;
		}
		for (size_t j = 0; j < part.n; j++) {
			struct image_kernel *k = &part.v[j];
			long at = strmap_get(index, k->name);
			if (at < 0) {
				strmap_put(index, k->name, (long)l->n, NULL);
				struct image_kernel *nk = VEC_PUSH(l->v, l->n, cap);
				*nk = *k;
				k->name = NULL;
				k->params = NULL;
				*VEC_PUSH(seen, nseen, seencap) = 1;
				/* the map's key is the listing's copy now */
				continue;
			}
			seen[at]++;
			if (!merge_params(&l->v[at], k))
				l->v[at].nparams = -1;
		}
		/* keys of index point into l->v's names, which part no longer owns */
		image_listing_free(&part);
	}
	for (size_t i = 0; i < l->n; i++) {
		l->v[i].everywhere = l->complete && seen[i] == parts;
		if (!l->v[i].everywhere)
			l->v[i].nparams = -1;
		if (l->v[i].nparams < 0) {
			free(l->v[i].params);
			l->v[i].params = NULL;
		}
	}
	l->no_code = sm > 0 && parts == 0;
	if (parts == 0)
		l->complete = false;
	free(seen);
	strmap_free(index);
	free(es);
}

void image_list(const void *image, size_t len, int sm, struct image_listing *out)
{
	memset(out, 0, sizeof *out);
	if (image == NULL || len == 0)
		return;
	const unsigned char *b = image;
	if (len >= 4 && memcmp(b, "\x7f" "ELF", 4) == 0) {
		out->kind = IMAGE_CUBIN;
		out->complete = elf_list(b, len, out);
	} else if (len >= 4 && rd32(b) == FATBIN_MAGIC) {
		out->kind = IMAGE_FATBIN;
		fatbin_list(b, len, sm, out);
	} else if (ptx_list(b, len, out)) {
		out->kind = IMAGE_PTX;
		out->complete = true;
	}
}
