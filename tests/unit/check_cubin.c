/*
 * Unit tests of reading kernel parameter layouts from images (src/cubin.c):
 * cubins and fatbins made here byte by byte, where every field is known
 * and can be broken on purpose, and, where configure found nvcc, the real
 * ones that make builds from tests/unit/params.cu (CUBIN_IMAGES, their
 * folder).  Truncated and garbled images must give -1 or the right answer,
 * never a read out of bounds (tools/check-all runs this under ASan and
 * UBSan).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cubin.h"
#include "fileio.h"
#include "unit.h"
#include "xmalloc.h"

/* Byte buffers ------------------------------------------------------------- */

struct buf {
	unsigned char *p;
	size_t n, cap;
};

static void put(struct buf *b, const void *data, size_t n)
{
	if (n == 0)
		return;
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->p = xreallocarray(b->p, b->cap, 1);
	}
	memcpy(b->p + b->n, data, n);
	b->n += n;
}

static void put8(struct buf *b, unsigned v)
{
	unsigned char c = (unsigned char)v;
	put(b, &c, 1);
}

static void put16(struct buf *b, unsigned v)
{
	put8(b, v & 0xff);
	put8(b, v >> 8 & 0xff);
}

static void put32(struct buf *b, uint32_t v)
{
	put16(b, v & 0xffff);
	put16(b, v >> 16);
}

static void put64(struct buf *b, uint64_t v)
{
	put32(b, (uint32_t)v);
	put32(b, (uint32_t)(v >> 32));
}

static void set32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void set64(unsigned char *p, uint64_t v)
{
	set32(p, (uint32_t)v);
	set32(p + 4, (uint32_t)(v >> 32));
}

/* nv.info attributes ------------------------------------------------------- */

static void sval(struct buf *b, unsigned id, const void *v, unsigned n)
{
	put8(b, 4);
	put8(b, id);
	put16(b, n);
	put(b, v, n);
}

static void hval(struct buf *b, unsigned id, unsigned v)
{
	put8(b, 3);
	put8(b, id);
	put16(b, v);
}

/* KPARAM_INFO (0x17) for one parameter, as ptxas writes it */
static void kparam(struct buf *b, unsigned ord, unsigned off, unsigned size)
{
	put8(b, 4);
	put8(b, 0x17);
	put16(b, 12);
	put32(b, 0);
	put16(b, ord);
	put16(b, off);
	put32(b, (uint32_t)size << 18 | 0x1f000);
}

/* KPARAM_INFO_V2 (0x45): more than 4 KiB of parameters; flags in the top byte */
static void kparam2(struct buf *b, unsigned ord, unsigned off, unsigned size, unsigned flags)
{
	put8(b, 4);
	put8(b, 0x45);
	put16(b, 12);
	put32(b, 0);
	put16(b, ord);
	put16(b, off);
	put32(b, (uint32_t)flags << 24 | size);
}

/* What ptxas writes around the parameters, every format among it. */
static void info_head(struct buf *b)
{
	static const unsigned char v37[] = {0x82, 0, 0, 0};
	sval(b, 0x37, v37, 4);
}

static void info_tail(struct buf *b, unsigned total)
{
	static const unsigned char v1c[] = {0x30, 0, 0, 0, 0x90, 0, 0, 0};
	static const unsigned char v36[] = {0x08, 0, 0, 0};
	hval(b, 0x50, 0);
	hval(b, 0x1b, 0xff);
	hval(b, 0x5f, 0x101);
	put8(b, 2);            /* BVAL 0x4a: a byte, a zero */
	put8(b, 0x4a);
	put16(b, 0);
	put8(b, 1);            /* NVAL 0x53: two zeros */
	put8(b, 0x53);
	put16(b, 0);
	sval(b, 0x1c, v1c, 8);
	if (total)
		hval(b, 0x19, total);
	sval(b, 0x36, v36, 4);
}

/* k(float *, int, double) as ptxas describes it: ordinals last to first */
static struct buf info_k(void)
{
	struct buf b = {0};
	info_head(&b);
	kparam(&b, 2, 16, 8);
	kparam(&b, 1, 8, 4);
	kparam(&b, 0, 0, 8);
	info_tail(&b, 24);
	return b;
}

static struct buf info_none(void)
{
	struct buf b = {0};
	info_head(&b);
	info_tail(&b, 0);
	return b;
}

/* ELF ---------------------------------------------------------------------- */

struct sec {
	const char *name;
	uint32_t type;
	const struct buf *data;
	uint32_t link;          /* sh_link: a symbol table's string table */
	uint64_t entsize;       /* sh_entsize: a symbol table's 24 */
};

#define SHT_CUDA_INFO 0x70000000u

/*
 * An ELF64 cubin holding the sections: header, section names, the
 * sections' bytes, then the section headers (null, names, the sections).
 */
static struct buf make_elf(const struct sec *secs, size_t n)
{
	struct buf names = {0};
	put8(&names, 0);
	uint32_t *name_at = xcalloc(n + 1, sizeof *name_at);
	name_at[0] = (uint32_t)names.n;
	put(&names, ".shstrtab", 10);
	for (size_t i = 0; i < n; i++) {
		name_at[i + 1] = (uint32_t)names.n;
		put(&names, secs[i].name, strlen(secs[i].name) + 1);
	}
	struct buf b = {0};
	static const unsigned char ident[16] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x41, 8};
	put(&b, ident, 16);
	put16(&b, 2);          /* ET_EXEC */
	put16(&b, 190);        /* EM_CUDA */
	put32(&b, 1);
	put64(&b, 0);          /* entry */
	put64(&b, 0);          /* phoff */
	size_t shoff_at = b.n;
	put64(&b, 0);          /* shoff, below */
	put32(&b, 0x6005a04);  /* sm_90 */
	put16(&b, 64);
	put16(&b, 56);
	put16(&b, 0);
	put16(&b, 64);
	put16(&b, (unsigned)n + 2);
	put16(&b, 1);
	uint64_t *off = xcalloc(n + 1, sizeof *off);
	off[0] = b.n;
	put(&b, names.p, names.n);
	for (size_t i = 0; i < n; i++) {
		while (b.n % 4)
			put8(&b, 0);
		off[i + 1] = b.n;
		put(&b, secs[i].data->p, secs[i].data->n);
	}
	while (b.n % 8)
		put8(&b, 0);
	set64(b.p + shoff_at, b.n);
	static const unsigned char null_sh[64];
	put(&b, null_sh, 64);
	for (size_t i = 0; i <= n; i++) {
		put32(&b, name_at[i]);
		put32(&b, i == 0 ? 3 : secs[i - 1].type);
		put64(&b, 0);
		put64(&b, 0);
		put64(&b, off[i]);
		put64(&b, i == 0 ? names.n : secs[i - 1].data->n);
		put32(&b, i == 0 ? 0 : secs[i - 1].link);
		put32(&b, 0);
		put64(&b, i == 0 ? 1 : 4);
		put64(&b, i == 0 ? 0 : secs[i - 1].entsize);
	}
	free(names.p);
	free(name_at);
	free(off);
	return b;
}

/* The section header of section i (0: null) in an image make_elf made. */
static unsigned char *shdr(const struct buf *elf, size_t i)
{
	uint64_t shoff = 0;
	for (int k = 7; k >= 0; k--)
		shoff = shoff << 8 | elf->p[0x28 + k];
	return elf->p + shoff + 64 * i;
}

/* A cubin with k (sizes 8 4 8) and none (no parameters), and "kk" besides. */
static struct buf elf_k(void)
{
	struct buf k = info_k(), none = info_none(), kk = info_k();
	struct sec secs[] = {
		{".nv.info", SHT_CUDA_INFO, &none, 0, 0},
		{".nv.info.none", SHT_CUDA_INFO, &none, 0, 0},
		{".nv.info.k", SHT_CUDA_INFO, &k, 0, 0},
		{".nv.info.kk", SHT_CUDA_INFO, &kk, 0, 0},
	};
	struct buf b = make_elf(secs, 4);
	free(k.p);
	free(none.p);
	free(kk.p);
	return b;
}

/* A cubin with one kernel "k" whose .nv.info is the given attributes. */
static long params_of_info(const struct buf *info, size_t **sizes)
{
	struct sec secs[] = {{".nv.info.k", SHT_CUDA_INFO, info, 0, 0}};
	struct buf elf = make_elf(secs, 1);
	long n = image_entry_params(elf.p, elf.n, "k", 90, sizes);
	free(elf.p);
	return n;
}

/* n sizes and those expected */
static void assert_sizes(const size_t *have, const size_t *want, size_t n)
{
	ck_assert_ptr_nonnull(have);
	for (size_t i = 0; i < n; i++)
		ck_assert_uint_eq(have[i], want[i]);
}

static const size_t k_sizes[] = {8, 4, 8};

/* -1, or k's 3 parameters: what a damaged image may give. */
static void assert_k_or_unknown(const void *image, size_t len, int sm)
{
	size_t *sizes;
	long n = image_entry_params(image, len, "k", sm, &sizes);
	ck_assert_msg(n == -1 || n == 3, "%ld parameters from %zu bytes", n, len);
	if (n == 3)
		assert_sizes(sizes, k_sizes, 3);
	else
		ck_assert_ptr_null(sizes);
	free(sizes);
}

START_TEST(test_elf)
{
	struct buf elf = elf_k();
	size_t *sizes;
	ck_assert_int_eq(image_entry_params(elf.p, elf.n, "k", 90, &sizes), 3);
	assert_sizes(sizes, k_sizes, 3);
	free(sizes);
	ck_assert_int_eq(image_entry_params(elf.p, elf.n, "kk", 90, &sizes), 3);
	free(sizes);
	/* the section of a kernel without parameters: none */
	ck_assert_int_eq(image_entry_params(elf.p, elf.n, "none", 90, &sizes), 0);
	ck_assert_ptr_null(sizes);
	/* no such section, or only a prefix of a name: unknown */
	ck_assert_int_eq(image_entry_params(elf.p, elf.n, "kx", 90, &sizes), -1);
	ck_assert_ptr_null(sizes);
	ck_assert_int_eq(image_entry_params(elf.p, elf.n, "nonexistent", 90, &sizes), -1);
	ck_assert_int_eq(image_entry_params(elf.p, elf.n, "", 90, &sizes), -1);
	ck_assert_int_eq(image_entry_params(elf.p, elf.n, NULL, 90, &sizes), -1);
	ck_assert_int_eq(image_entry_params(NULL, elf.n, "k", 90, &sizes), -1);
	/* sizes is optional; the sm plays no part in a cubin */
	ck_assert_int_eq(image_entry_params(elf.p, elf.n, "k", 75, NULL), 3);
	free(elf.p);
}
END_TEST

/* The ELF's headers broken one way at a time: each unknown. */
START_TEST(test_elf_headers)
{
	struct buf elf = elf_k();
	unsigned char *copy = xmalloc(elf.n);
	static const struct {
		size_t at;
		unsigned char v;
	} breaks[] = {
		{4, 1},         /* ELF32 */
		{5, 2},         /* big-endian */
		{18, 62},       /* x86-64, not CUDA */
		{0x3a, 32},     /* section headers of 32 bytes */
		{0x3c, 0},      /* no sections (extended numbering) */
		{0x3e, 9},      /* names in a section that is not there */
		{0x2f, 0x80},   /* section headers far beyond */
	};
	for (size_t i = 0; i < sizeof breaks / sizeof *breaks; i++) {
		memcpy(copy, elf.p, elf.n);
		copy[breaks[i].at] = breaks[i].v;
		ck_assert_msg(image_entry_params(copy, elf.n, "k", 90, NULL) == -1,
			      "byte %zu = %u", breaks[i].at, breaks[i].v);
	}
	/* k's section (header 4): beyond the end, type PROGBITS, twice over */
	memcpy(copy, elf.p, elf.n);
	set64(shdr(&(struct buf){copy, elf.n, 0}, 4) + 0x18, elf.n - 4);
	ck_assert_int_eq(image_entry_params(copy, elf.n, "k", 90, NULL), -1);
	memcpy(copy, elf.p, elf.n);
	set64(shdr(&(struct buf){copy, elf.n, 0}, 4) + 0x20, UINT64_MAX);
	ck_assert_int_eq(image_entry_params(copy, elf.n, "k", 90, NULL), -1);
	memcpy(copy, elf.p, elf.n);
	set32(shdr(&(struct buf){copy, elf.n, 0}, 4) + 4, 1);
	ck_assert_int_eq(image_entry_params(copy, elf.n, "k", 90, NULL), -1);
	memcpy(copy, elf.p, elf.n);
	/* kk's header named as k's: two sections ".nv.info.k" */
	memcpy(shdr(&(struct buf){copy, elf.n, 0}, 5), shdr(&(struct buf){copy, elf.n, 0}, 4), 4);
	ck_assert_int_eq(image_entry_params(copy, elf.n, "k", 90, NULL), -1);
	/* a name running to the end of the names with no NUL */
	memcpy(copy, elf.p, elf.n);
	unsigned char *names = shdr(&(struct buf){copy, elf.n, 0}, 1);
	uint32_t k_name = (uint32_t)(shdr(&elf, 4)[0] | shdr(&elf, 4)[1] << 8);
	set64(names + 0x20, k_name + strlen(".nv.info.k"));
	ck_assert_int_eq(image_entry_params(copy, elf.n, "k", 90, NULL), -1);
	set64(names + 0x20, k_name + strlen(".nv.info.k") + 1);
	ck_assert_int_eq(image_entry_params(copy, elf.n, "k", 90, NULL), 3);
	free(copy);
	free(elf.p);
}
END_TEST

/* Attributes that do not add up: each unknown. */
START_TEST(test_elf_attributes)
{
	size_t *sizes;
	struct buf b = {0};
#define EXPECT(want)                                                        \
	do {                                                                \
		ck_assert_int_eq(params_of_info(&b, &sizes), want);          \
		free(sizes);                                                 \
		b.n = 0;                                                     \
	} while (0)
	/* the same three, in ordinal order: fine */
	kparam(&b, 0, 0, 8);
	kparam(&b, 1, 8, 4);
	kparam(&b, 2, 16, 8);
	hval(&b, 0x19, 24);
	EXPECT(3);
	/* an ordinal twice, one missing */
	kparam(&b, 0, 0, 8);
	kparam(&b, 0, 8, 4);
	hval(&b, 0x19, 12);
	EXPECT(-1);
	kparam(&b, 0, 0, 8);
	kparam(&b, 2, 8, 4);
	hval(&b, 0x19, 12);
	EXPECT(-1);
	/* no parameter space size, or the wrong one */
	kparam(&b, 0, 0, 8);
	EXPECT(-1);
	kparam(&b, 0, 0, 8);
	hval(&b, 0x19, 12);
	EXPECT(-1);
	hval(&b, 0x19, 8);
	EXPECT(-1);
	/* twice */
	kparam(&b, 0, 0, 8);
	hval(&b, 0x19, 8);
	hval(&b, 0x19, 8);
	EXPECT(-1);
	/* overlapping, not starting at 0, empty */
	kparam(&b, 0, 0, 8);
	kparam(&b, 1, 4, 4);
	hval(&b, 0x19, 8);
	EXPECT(-1);
	kparam(&b, 0, 4, 4);
	hval(&b, 0x19, 8);
	EXPECT(-1);
	kparam(&b, 0, 0, 0);
	hval(&b, 0x19, 0);
	EXPECT(-1);
	/* a parameter in another format or length, or another index */
	hval(&b, 0x17, 8);
	EXPECT(-1);
	static const unsigned char short_param[8] = {0};
	sval(&b, 0x17, short_param, 8);
	EXPECT(-1);
	kparam(&b, 0, 0, 8);
	b.p[4] = 1;
	hval(&b, 0x19, 8);
	EXPECT(-1);
	/* a format never seen, two bytes left over, a value past the end */
	kparam(&b, 0, 0, 8);
	hval(&b, 0x19, 8);
	put8(&b, 5);
	put8(&b, 0x50);
	put16(&b, 0);
	EXPECT(-1);
	kparam(&b, 0, 0, 8);
	hval(&b, 0x19, 8);
	put16(&b, 0x5004);
	EXPECT(-1);
	kparam(&b, 0, 0, 8);
	hval(&b, 0x19, 8);
	sval(&b, 0x36, "\x08\0\0\0", 4);
	b.p[b.n - 6] = 5;
	EXPECT(-1);
	/* an empty section: a kernel without parameters */
	EXPECT(0);
	/* KPARAM_INFO_V2: sizes in the low 16 bits, flags in the top byte */
	kparam2(&b, 2, 5008, 8, 5);
	kparam2(&b, 1, 4, 5000, 0);
	kparam2(&b, 0, 0, 4, 0);
	hval(&b, 0x19, 5016);
	ck_assert_int_eq(params_of_info(&b, &sizes), 3);
	assert_sizes(sizes, (const size_t[]){4, 5000, 8}, 3);
	free(sizes);
	b.n = 0;
	/* ... but not in the third byte */
	kparam2(&b, 0, 0, 0x10004, 0);
	hval(&b, 0x19, 4);
	EXPECT(-1);
#undef EXPECT
	free(b.p);
}
END_TEST

/* Cut anywhere, or with the section cut anywhere: -1 or the answer. */
/*
 * A parameter entry with no bytes, as the last bytes of the image: its
 * length is refused before any of its fields is read (found in review:
 * the size word was read first, 12 bytes past the end).
 */
START_TEST(test_elf_empty_param_at_end)
{
	struct buf info = {0};
	sval(&info, 0x17, NULL, 0);
	struct sec secs[] = {{".nv.info.k", SHT_CUDA_INFO, &info, 0, 0}};
	struct buf elf = make_elf(secs, 1);
	/* the section moves to the very end */
	size_t at = elf.n;
	put(&elf, info.p, info.n);
	set64(shdr(&elf, 2) + 24, at);
	unsigned char *exact = xmalloc(elf.n);
	memcpy(exact, elf.p, elf.n);
	size_t *sizes;
	ck_assert_int_eq(image_entry_params(exact, elf.n, "k", 90, &sizes), -1);
	free(sizes);
	free(exact);
	free(elf.p);
	free(info.p);
}
END_TEST

START_TEST(test_elf_truncated)
{
	struct buf elf = elf_k();
	for (size_t len = 0; len <= elf.n; len++) {
		/* in a buffer of exactly len bytes, so that ASan sees a read past it */
		unsigned char *cut = xmalloc(len ? len : 1);
		memcpy(cut, elf.p, len);
		assert_k_or_unknown(cut, len, 90);
		free(cut);
	}
	/*
	 * The section cut short (by its header): where the cut leaves none of
	 * the parameters' attributes, what is left reads as a kernel without
	 * parameters, as it would with no other attribute missing
	 */
	unsigned char *size = shdr(&elf, 4) + 0x20;
	struct buf k = info_k(), head = {0};
	info_head(&head);
	for (size_t n = 0; n <= k.n; n++) {
		set64(size, n);
		if (n <= head.n && image_entry_params(elf.p, elf.n, "k", 90, NULL) == 0)
			continue;
		assert_k_or_unknown(elf.p, elf.n, 90);
	}
	free(head.p);
	free(k.p);
	free(elf.p);
}
END_TEST

/* Every byte changed a few ways: no crash, no leak; a count or -1. */
START_TEST(test_elf_garbled)
{
	struct buf elf = elf_k();
	unsigned char *copy = xmalloc(elf.n);
	static const unsigned char how[] = {0x00, 0xff, 0x01, 0x80, 0x7f};
	for (size_t i = 0; i < elf.n; i++)
		for (size_t h = 0; h < sizeof how; h++) {
			memcpy(copy, elf.p, elf.n);
			copy[i] = h < 2 ? how[h] : copy[i] ^ how[h];
			size_t *sizes;
			long n = image_entry_params(copy, elf.n, "k", 90, &sizes);
			ck_assert_int_ge(n, -1);
			ck_assert_int_le(n, 4);
			free(sizes);
		}
	free(copy);
	free(elf.p);
}
END_TEST

/* Fatbins -------------------------------------------------------------------- */

#define FLAG_COMPRESSED 0x2000u
#define FLAG_ZSTD 0x8000u
#define FLAG_A 0x100000u

struct entry {
	unsigned kind;          /* 1 PTX, 2 ELF, others skipped */
	unsigned arch;
	uint64_t flags;
	uint32_t compressed_size;
	const struct buf *payload;
};

/* A fatbin of the entries, as nvcc lays them out (64- and 80-byte headers). */
static struct buf make_fatbin(const struct entry *es, size_t n)
{
	struct buf body = {0};
	for (size_t i = 0; i < n; i++) {
		unsigned hs = es[i].kind == 1 ? 80 : 64;
		size_t padded = (es[i].payload->n + 7) / 8 * 8;
		size_t start = body.n;
		put16(&body, es[i].kind);
		put16(&body, 0x101);
		put32(&body, hs);
		put64(&body, padded);
		put32(&body, es[i].compressed_size);
		put32(&body, es[i].kind == 1 ? 64 : 0);
		put16(&body, es[i].kind == 1 ? 0 : 8);
		put16(&body, es[i].kind == 1 ? 9 : 1);
		put32(&body, es[i].arch);
		put32(&body, 0);
		put32(&body, 0);
		put64(&body, es[i].flags | 0x11);
		while (body.n < start + hs)
			put8(&body, 0);
		put(&body, es[i].payload->p, es[i].payload->n);
		while (body.n < start + hs + padded)
			put8(&body, 0);
	}
	struct buf b = {0};
	put32(&b, 0xBA55ED50u);
	put16(&b, 1);
	put16(&b, 16);
	put64(&b, body.n);
	put(&b, body.p, body.n);
	free(body.p);
	return b;
}

/* PTX declaring k with n parameters (not NUL-terminated: a fatbin's is padded) */
static struct buf ptx_k(int n)
{
	struct buf b = {0};
	static const char head[] = ".version 9.0\n.target sm_75\n.address_size 64\n"
				   ".visible .entry k(\n";
	put(&b, head, sizeof head - 1);
	for (int i = 0; i < n; i++) {
		char line[64];
		snprintf(line, sizeof line, "\t.param .u64 k_param_%d%s\n", i, i + 1 < n ? "," : "");
		put(&b, line, strlen(line));
	}
	put(&b, ")\n{\n\tret;\n}\n", 12);
	return b;
}

/* A cubin whose k has n parameters of 8 bytes. */
static struct buf elf_k8(unsigned n)
{
	struct buf info = {0};
	for (unsigned i = n; i-- > 0;)
		kparam(&info, i, 8 * i, 8);
	if (n)
		hval(&info, 0x19, 8 * n);
	struct sec secs[] = {{".nv.info.k", SHT_CUDA_INFO, &info, 0, 0}};
	struct buf b = make_elf(secs, 1);
	free(info.p);
	return b;
}

static long fat_params(const struct entry *es, size_t n, int sm, size_t **sizes)
{
	struct buf fat = make_fatbin(es, n);
	long r = image_entry_params(fat.p, fat.n, "k", sm, sizes);
	free(fat.p);
	return r;
}

START_TEST(test_fatbin_choice)
{
	struct buf e3 = elf_k8(3), e2 = elf_k8(2), p1 = ptx_k(1), p2 = ptx_k(2), other = ptx_k(5);
	size_t *sizes;
	/* the cubin for the device's arch, even where the PTX disagrees */
	const struct entry bundle[] = {{2, 90, 0, 0, &e3}, {1, 75, 0, 0, &p1}};
	ck_assert_int_eq(fat_params(bundle, 2, 90, &sizes), 3);
	assert_sizes(sizes, (const size_t[]){8, 8, 8}, 3);
	free(sizes);
	/* no cubin for 8.9 or 7.5 (9.0 is newer): the PTX, a count alone */
	ck_assert_int_eq(fat_params(bundle, 2, 89, &sizes), 1);
	ck_assert_ptr_null(sizes);
	ck_assert_int_eq(fat_params(bundle, 2, 75, &sizes), 1);
	/* nothing for 7.0 */
	ck_assert_int_eq(fat_params(bundle, 2, 70, &sizes), -1);
	/* an sm_80 cubin on 8.6, with PTX for 7.5: either may be taken, they must agree */
	const struct entry older[] = {{2, 80, 0, 0, &e2}, {1, 75, 0, 0, &p1}};
	ck_assert_int_eq(fat_params(older, 2, 86, &sizes), -1);
	const struct entry agree[] = {{2, 80, 0, 0, &e2}, {1, 75, 0, 0, &p2}, {1, 90, 0, 0, &other}};
	ck_assert_int_eq(fat_params(agree, 3, 86, &sizes), 2);
	assert_sizes(sizes, (const size_t[]){8, 8}, 2);
	free(sizes);
	/* PTX for 7.5 and 9.0 on 10.0: both may be taken, and disagree */
	ck_assert_int_eq(fat_params(agree, 3, 100, &sizes), -1);
	/* another major's cubin is no candidate (it would disagree); an sm_90a one only on 9.0 */
	const struct entry major[] = {{2, 80, 0, 0, &e3}, {1, 75, 0, 0, &p2}};
	ck_assert_int_eq(fat_params(major, 2, 90, &sizes), 2);
	ck_assert_ptr_null(sizes);
	const struct entry a[] = {{2, 90, FLAG_A, 0, &e3}, {1, 80, 0, 0, &p1}};
	ck_assert_int_eq(fat_params(a, 2, 90, &sizes), 3);
	free(sizes);
	ck_assert_int_eq(fat_params(a, 2, 91, &sizes), 1);
	/* two cubins for the arch: they must agree */
	const struct entry two[] = {{2, 90, 0, 0, &e3}, {2, 90, FLAG_A, 0, &e2}};
	ck_assert_int_eq(fat_params(two, 2, 90, &sizes), -1);
	const struct entry twins[] = {{2, 90, 0, 0, &e3}, {2, 90, FLAG_A, 0, &e3}};
	ck_assert_int_eq(fat_params(twins, 2, 90, &sizes), 3);
	free(sizes);
	/* compressed: unknown, whichever way it says so */
	const struct entry lz4[] = {{2, 90, FLAG_COMPRESSED, 0, &e3}};
	const struct entry zstd[] = {{2, 90, FLAG_ZSTD, 0, &e3}};
	const struct entry csize[] = {{2, 90, 0, 100, &e3}};
	const struct entry zptx[] = {{2, 80, 0, 0, &e2}, {1, 75, FLAG_ZSTD, 0, &p2}};
	ck_assert_int_eq(fat_params(lz4, 1, 90, &sizes), -1);
	ck_assert_int_eq(fat_params(zstd, 1, 90, &sizes), -1);
	ck_assert_int_eq(fat_params(csize, 1, 90, &sizes), -1);
	ck_assert_int_eq(fat_params(zptx, 2, 86, &sizes), -1);
	/* other kinds are skipped; no entries at all: unknown */
	const struct entry kinds[] = {{4, 90, 0, 0, &p1}, {2, 90, 0, 0, &e3}};
	ck_assert_int_eq(fat_params(kinds, 2, 90, &sizes), 3);
	free(sizes);
	ck_assert_int_eq(fat_params(kinds, 0, 90, &sizes), -1);
	/* a cubin entry that holds PTX, a PTX entry that holds a cubin */
	const struct entry swapped[] = {{2, 90, 0, 0, &p2}};
	ck_assert_int_eq(fat_params(swapped, 1, 90, &sizes), -1);
	const struct entry swapped2[] = {{1, 90, 0, 0, &e2}};
	ck_assert_int_eq(fat_params(swapped2, 1, 90, &sizes), -1);
	free(e3.p);
	free(e2.p);
	free(p1.p);
	free(p2.p);
	free(other.p);
}
END_TEST

START_TEST(test_fatbin_broken)
{
	struct buf e = elf_k();
	const struct entry es[] = {{1, 75, 0, 0, &e}, {2, 90, 0, 0, &e}};
	struct buf fat = make_fatbin(es, 2);
	ck_assert_int_eq(image_entry_params(fat.p, fat.n, "k", 90, NULL), 3);
	unsigned char *copy = xmalloc(fat.n);
	/* version 2; a header under 16 bytes; entries past the end */
	static const struct {
		size_t at;
		unsigned char v;
	} breaks[] = {{4, 2}, {6, 8}, {6, 0xff}, {14, 1}, {16 + 4, 16}, {16 + 15, 1}};
	for (size_t i = 0; i < sizeof breaks / sizeof *breaks; i++) {
		memcpy(copy, fat.p, fat.n);
		copy[breaks[i].at] = breaks[i].v;
		ck_assert_msg(image_entry_params(copy, fat.n, "k", 90, NULL) == -1, "byte %zu = %u",
			      breaks[i].at, breaks[i].v);
	}
	/* entries that run past the size the header gives */
	memcpy(copy, fat.p, fat.n);
	set64(copy + 8, fat.n - 16 - 8);
	ck_assert_int_eq(image_entry_params(copy, fat.n, "k", 90, NULL), -1);
	/* cut anywhere */
	for (size_t len = 0; len <= fat.n; len++) {
		unsigned char *cut = xmalloc(len ? len : 1);
		memcpy(cut, fat.p, len);
		assert_k_or_unknown(cut, len, 90);
		free(cut);
	}
	/* every byte changed */
	for (size_t i = 0; i < fat.n; i++)
		for (unsigned v = 0; v < 256; v += 85) {
			memcpy(copy, fat.p, fat.n);
			copy[i] ^= (unsigned char)(v | 1);
			size_t *sizes;
			long n = image_entry_params(copy, fat.n, "k", 90, &sizes);
			ck_assert_int_ge(n, -1);
			free(sizes);
		}
	free(copy);
	free(fat.p);
	free(e.p);
}
END_TEST

/* PTX is read whether or not a NUL ends it within len. */
START_TEST(test_ptx)
{
	struct buf p = ptx_k(4);
	unsigned char *exact = xmalloc(p.n);
	memcpy(exact, p.p, p.n);
	size_t *sizes = (size_t *)1;
	ck_assert_int_eq(image_entry_params(exact, p.n, "k", 90, &sizes), 4);
	ck_assert_ptr_null(sizes);
	/* cut before the list closes */
	size_t close = (size_t)((unsigned char *)memchr(exact, ')', p.n) - exact);
	ck_assert_int_eq(image_entry_params(exact, close, "k", 90, &sizes), -1);
	ck_assert_int_eq(image_entry_params(exact, close + 1, "k", 90, &sizes), 4);
	ck_assert_int_eq(image_entry_params(exact, 0, "k", 90, &sizes), -1);
	put8(&p, 0);
	ck_assert_int_eq(image_entry_params(p.p, p.n, "k", 90, &sizes), 4);
	ck_assert_int_eq(image_entry_params(p.p, p.n, "j", 90, &sizes), -1);
	free(exact);
	free(p.p);
}
END_TEST

/* A PTX header: its .version and .target, what runs it, and CUDA's ISAs. */
START_TEST(test_ptx_header)
{
	struct ptx_header h;
	ck_assert(ptx_header("// nvcc\n.version 8.7\n.target sm_90a\n.address_size 64\n", &h));
	ck_assert_int_eq(h.isa, 87);
	ck_assert_int_eq(h.sm, 90);
	ck_assert_int_eq(h.suffix, 'a');
	ck_assert_str_eq(h.target, "sm_90a");
	ck_assert(ptx_header("/* .version 1.0 */ .version 9.1 .target sm_100f, texmode_independent\n"
			     ".entry k() { ret; }", &h));
	ck_assert_int_eq(h.isa, 91);
	ck_assert_int_eq(h.sm, 100);
	ck_assert_int_eq(h.suffix, 'f');
	ck_assert(ptx_header(".version 8.0\n.target texmode_independent, sm_75\n", &h));
	ck_assert_str_eq(h.target, "sm_75");
	ck_assert(!ptx_header(".target sm_90\n", &h));
	ck_assert(!ptx_header("\x7f" "ELF.version 8.0", &h));
	/* plain: that one and newer; a: that one alone; f: its family from it on */
	struct ptx_header p90 = {.sm = 90}, a90 = {.sm = 90, .suffix = 'a'},
		f100 = {.sm = 100, .suffix = 'f'}, f103 = {.sm = 103, .suffix = 'f'};
	ck_assert(ptx_target_runs(&p90, 90) && ptx_target_runs(&p90, 120));
	ck_assert(!ptx_target_runs(&p90, 89));
	ck_assert(ptx_target_runs(&a90, 90) && !ptx_target_runs(&a90, 100));
	ck_assert(ptx_target_runs(&f100, 100) && ptx_target_runs(&f100, 103));
	ck_assert(!ptx_target_runs(&f100, 120) && !ptx_target_runs(&f100, 90));
	ck_assert(!ptx_target_runs(&f103, 100) && ptx_target_runs(&f103, 103));
	char words[96];
	ptx_target_words(&f100, words, sizeof words);
	ck_assert_str_eq(words, "sm_100 and the later ones of its family (sm_10x)");
	/* the PTX ISA each CUDA takes: 12.6 kept 8.5, then one behind to 12.9 */
	static const int cuda[][2] = {
		{11080, 78}, {12000, 80}, {12040, 84}, {12050, 85}, {12060, 85}, {12070, 86},
		{12080, 87}, {12090, 88}, {13000, 90}, {13010, 91}, {14020, 102},
	};
	for (size_t i = 0; i < sizeof cuda / sizeof *cuda; i++)
		ck_assert_int_eq(ptx_isa_of_cuda(cuda[i][0]), cuda[i][1]);
}
END_TEST

/* Dynamic shared memory: an entry whose body names .extern .shared memory. */
START_TEST(test_ptx_dyn_shared)
{
	static const char text[] =
		".version 9.0\n.target sm_75\n.address_size 64\n"
		".extern .shared .align 16 .b8 s[];\n"
		".visible .entry uses(.param .u64 p)\n{\n\t.reg .b32 %r<3>;\n"
		"\tmov.u32 %r1, s; // s\n\tret;\n}\n"
		".visible .entry plain(.param .u64 p)\n.maxntid 256, 1, 1\n{\n"
		"\t// s in a comment is no use\n\tld.shared.u32 %r1, [ss];\n\tret;\n}\n"
		".visible .entry own()\n{\n\t.extern .shared .align 4 .b8 mine[];\n\tret;\n}\n"
		".visible .entry decl(.param .u64 p);\n";
	struct ptx_entry *e;
	long n = ptx_entries(text, &e);
	ck_assert_int_eq(n, 4);
	ck_assert(e[0].dyn_shared);
	ck_assert(!e[1].dyn_shared);
	ck_assert(e[2].dyn_shared);
	ck_assert(!e[3].dyn_shared);
	ptx_entries_free(e, (size_t)n);
}
END_TEST

/* Listing every kernel (image_list) ----------------------------------------- */

/* One symbol of a synthetic symbol table. */
struct sym {
	const char *name;
	unsigned info;          /* STT_FUNC (2) or STT_OBJECT (1), binding 0 or 1 << 4 */
	unsigned other;         /* 0x10: a kernel */
	unsigned shndx;         /* 0: undefined */
};

/*
 * A cubin with the symbols and .nv.info sections for k (8 4 8) and none
 * (no parameters); the symbol table is section 4, its strings section 5
 * (after the null section, the section names, and the two info sections).
 */
static struct buf elf_syms(const struct sym *syms, size_t n)
{
	struct buf k = info_k(), none = info_none(), tab = {0}, str = {0};
	put8(&str, 0);
	static const unsigned char null_sym[24];
	put(&tab, null_sym, 24);
	for (size_t i = 0; i < n; i++) {
		put32(&tab, (uint32_t)str.n);
		put(&str, syms[i].name, strlen(syms[i].name) + 1);
		put8(&tab, syms[i].info);
		put8(&tab, syms[i].other);
		put16(&tab, syms[i].shndx);
		put64(&tab, 0);
		put64(&tab, 0);
	}
	struct sec secs[] = {
		{".nv.info.k", SHT_CUDA_INFO, &k, 0, 0},
		{".nv.info.none", SHT_CUDA_INFO, &none, 0, 0},
		{".symtab", 2, &tab, 5, 24},
		{".strtab", 3, &str, 0, 0},
	};
	struct buf b = make_elf(secs, 4);
	free(k.p);
	free(none.p);
	free(tab.p);
	free(str.p);
	return b;
}

static const struct sym kernel_syms[] = {
	{"k", 0x12, 0x10, 9},
	{"dev", 0x12, 0, 8},            /* a device function: no 0x10 */
	{"none", 0x12, 0x10, 9},
	{"gone", 0x12, 0x10, 0},        /* undefined */
	{"table", 0x11, 0x10, 7},       /* an object */
	{"noinfo", 0x22, 0x10, 9},      /* a weak kernel without .nv.info */
};
#define NKERNEL_SYMS (sizeof kernel_syms / sizeof *kernel_syms)

/* The listed kernel of that name, or NULL. */
static const struct image_kernel *listed(const struct image_listing *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].name, name) == 0)
			return &l->v[i];
	return NULL;
}

/* A kernel listed everywhere with these sizes (types as given, or any). */
static void assert_listed(const struct image_listing *l, const char *name, long n,
			  const size_t *sizes, const char *const *types)
{
	const struct image_kernel *k = listed(l, name);
	ck_assert_msg(k != NULL, "%s not listed", name);
	ck_assert(k->everywhere);
	ck_assert_int_eq(k->nparams, n);
	for (long i = 0; i < n; i++) {
		ck_assert_uint_eq(k->params[i].size, sizes[i]);
		if (types)
			ck_assert_str_eq(k->params[i].type, types[i]);
	}
}

START_TEST(test_list_cubin)
{
	struct buf elf = elf_syms(kernel_syms, NKERNEL_SYMS);
	struct image_listing l;
	image_list(elf.p, elf.n, 90, &l);
	ck_assert_int_eq(l.kind, IMAGE_CUBIN);
	ck_assert(l.complete);
	ck_assert_uint_eq(l.n, 3);
	static const char *const none[] = {"", "", ""};
	assert_listed(&l, "k", 3, k_sizes, none);
	assert_listed(&l, "none", 0, NULL, NULL);
	ck_assert_int_eq(listed(&l, "noinfo")->nparams, -1);
	ck_assert_ptr_null(listed(&l, "dev"));
	ck_assert_ptr_null(listed(&l, "gone"));
	ck_assert_ptr_null(listed(&l, "table"));
	image_listing_free(&l);
	/* without a symbol table nothing says which functions are kernels */
	struct buf old = elf_k();
	image_list(old.p, old.n, 90, &l);
	ck_assert_int_eq(l.kind, IMAGE_CUBIN);
	ck_assert(!l.complete);
	ck_assert_uint_eq(l.n, 0);
	image_listing_free(&l);
	/* a symbol whose name runs off the end of its string table */
	struct buf bad = elf_syms(kernel_syms, NKERNEL_SYMS);
	unsigned char *strsh = shdr(&bad, 5);
	set64(strsh + 0x20, 2);         /* "\0k" without k's NUL */
	image_list(bad.p, bad.n, 90, &l);
	ck_assert(!l.complete);
	ck_assert_uint_eq(l.n, 0);
	image_listing_free(&l);
	/* a symbol table whose entries are not 24 bytes */
	memcpy(bad.p, elf.p, elf.n);
	set64(shdr(&bad, 4) + 56, 16);
	image_list(bad.p, bad.n, 90, &l);
	ck_assert(!l.complete);
	image_listing_free(&l);
	/* cut anywhere: a complete listing is the right one, else nothing is claimed */
	for (size_t len = 0; len <= elf.n; len++) {
		unsigned char *cut = xmalloc(len ? len : 1);
		memcpy(cut, elf.p, len);
		image_list(cut, len, 90, &l);
		if (l.complete) {
			ck_assert_uint_eq(l.n, 3);
			assert_listed(&l, "k", 3, k_sizes, NULL);
		}
		image_listing_free(&l);
		free(cut);
	}
	free(bad.p);
	free(old.p);
	free(elf.p);
}
END_TEST

START_TEST(test_ptx_entries)
{
	static const char ptx[] =
		"// .entry commented(.param .u32 a)\n"
		".version 9.0\n.target sm_75\n.address_size 64\n"
		".func (.param .b32 r) helper(.param .b32 x)\n{\n}\n"
		".visible .entry saxpy(\n"
		"\t.param .u32 n,\n"
		"\t.param .f32 a, /* .param .u8 in a comment, ) too */\n"
		"\t.param .u64 .ptr .global .align 16 x,\n"
		"\t.param .align 8 .b8 s[40],\n"
		"\t.param .b16 h,\n"
		"\t.param .texref t,\n"
		"\t.param .b8 open[]\n"
		")\n.maxntid 256, 1, 1\n{\n\tret;\n}\n"
		".extern .entry saxpy(.param .u32 n, .param .f32 a, .param .u64 .ptr .global "
		".align 16 x, .param .align 8 .b8 s[40], .param .b16 h, .param .texref t, "
		".param .b8 open[])\n"
		".entry bare\n{\n}\n"
		".visible .entry empty()\n{\n}\n";
	struct ptx_entry *es;
	ck_assert_int_eq(ptx_entries(ptx, &es), 3);
	ck_assert_str_eq(es[0].name, "saxpy");
	ck_assert_uint_eq(es[0].nparams, 7);
	static const size_t sizes[] = {4, 4, 8, 40, 2, 0, 0};
	static const char *const types[] = {".u32", ".f32", ".u64", ".b8[40]", ".b16", ".texref",
					    ".b8[]"};
	for (size_t i = 0; i < 7; i++) {
		ck_assert_uint_eq(es[0].params[i].size, sizes[i]);
		ck_assert_str_eq(es[0].params[i].type, types[i]);
	}
	ck_assert_str_eq(es[1].name, "bare");
	ck_assert_uint_eq(es[1].nparams, 0);
	ck_assert_str_eq(es[2].name, "empty");
	ck_assert_uint_eq(es[2].nparams, 0);
	ptx_entries_free(es, 3);
	/* what cannot be read whole: nothing is claimed */
	static const char *const bad[] = {
		".target sm_75\n.entry k(.param .u32 a)\n{\n}\n",           /* no .version */
		".version 9.0\n.entry k(.param .u32 a\n",                   /* never closes */
		".version 9.0\n.entry k(.param .u32 a) {}\n.entry k(.param .u64 a) {}\n",
		".version 9.0\n.entry k(.u32 a) {}\n",                      /* no .param */
		".version 9.0\n.entry k(.param a) {}\n",                    /* no type */
		".version 9.0\n.entry k(.param .u32) {}\n",                 /* no name */
		".version 9.0\n.entry k(.param .b8 a[x]) {}\n",
		".version 9.0\n.entry k(.param .b8 a[99999999999]) {}\n",
		".version 9.0\n.entry (.param .u32 a) {}\n",                /* no entry name */
		".version 9.0\n.entry k(.param .u32 a; .param .u32 b) {}\n",
		"\x7f" "ELF\2\1 .version 9.0 .entry k()",
		"\x50\xed\x55\xba .version 9.0 .entry k()",
		"",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		ck_assert_msg(ptx_entries(bad[i], &es) == -1, "bad PTX %zu", i);
		ck_assert_ptr_null(es);
	}
	ck_assert_int_eq(ptx_entries(NULL, &es), -1);
	/* PTX without any entry is read: it has no kernels */
	ck_assert_int_eq(ptx_entries(".version 9.0\n.target sm_75\n", &es), 0);
	ptx_entries_free(es, 0);
}
END_TEST

/* A fatbin of the entries, listed for sm. */
static void fat_list(const struct entry *es, size_t n, int sm, struct image_listing *l)
{
	struct buf fat = make_fatbin(es, n);
	image_list(fat.p, fat.n, sm, l);
	free(fat.p);
	ck_assert_int_eq(l->kind, IMAGE_FATBIN);
}

START_TEST(test_list_fatbin)
{
	struct buf p2 = ptx_k(2), p3 = ptx_k(3), e3 = elf_syms(kernel_syms, NKERNEL_SYMS);
	struct image_listing l;
	static const size_t eights[] = {8, 8};
	static const char *const u64s[] = {".u64", ".u64"};
	/* the PTX for sm_75 and the cubin for sm_90 */
	const struct entry both[] = {{2, 90, 0, 0, &e3}, {1, 75, 0, 0, &p2}};
	fat_list(both, 2, 90, &l);
	ck_assert(l.complete);
	ck_assert_str_eq(l.holds, "sm_90 cubin, compute_75 PTX");
	ck_assert_uint_eq(l.n, 3);
	assert_listed(&l, "k", 3, k_sizes, NULL);
	image_listing_free(&l);
	fat_list(both, 2, 86, &l);
	ck_assert(l.complete);
	ck_assert_uint_eq(l.n, 1);
	assert_listed(&l, "k", 2, eights, u64s);
	image_listing_free(&l);
	/* any device: k differs between the entries, none is in one only */
	fat_list(both, 2, 0, &l);
	ck_assert(l.complete);
	ck_assert_uint_eq(l.n, 3);
	ck_assert(listed(&l, "k")->everywhere);
	ck_assert_int_eq(listed(&l, "k")->nparams, -1);
	ck_assert(!listed(&l, "none")->everywhere);
	image_listing_free(&l);
	/* nothing an sm_75 device loads; sm_70 neither */
	const struct entry new[] = {{2, 80, 0, 0, &e3}, {1, 90, 0, 0, &p2}, {2, 90, 0, 0, &e3}};
	fat_list(new, 3, 75, &l);
	ck_assert(l.no_code);
	ck_assert(!l.complete);
	ck_assert_str_eq(l.holds, "sm_80 and sm_90 cubins, compute_90 PTX");
	image_listing_free(&l);
	/* PTX entries that agree: their types too */
	const struct entry ptxs[] = {{1, 75, 0, 0, &p2}, {1, 80, 0, 0, &p2}};
	fat_list(ptxs, 2, 90, &l);
	ck_assert(l.complete);
	assert_listed(&l, "k", 2, eights, u64s);
	image_listing_free(&l);
	/* that disagree: k is there, its parameters unknown */
	const struct entry differ[] = {{1, 75, 0, 0, &p2}, {1, 80, 0, 0, &p3}};
	fat_list(differ, 2, 90, &l);
	ck_assert(l.complete);
	ck_assert_int_eq(listed(&l, "k")->nparams, -1);
	image_listing_free(&l);
	/* a compressed entry the device may take: the listing is not complete */
	const struct entry z[] = {{1, 75, FLAG_ZSTD, 0, &p2}, {1, 80, 0, 0, &p2}};
	fat_list(z, 2, 90, &l);
	ck_assert(!l.complete);
	ck_assert(!l.no_code);
	ck_assert(!listed(&l, "k")->everywhere);
	ck_assert_int_eq(listed(&l, "k")->nparams, -1);
	image_listing_free(&l);
	/* ... and one it does not take does not matter */
	const struct entry zexact[] = {{1, 75, FLAG_ZSTD, 0, &p2}, {2, 90, 0, 0, &e3}};
	fat_list(zexact, 2, 90, &l);
	ck_assert(l.complete);
	image_listing_free(&l);
	free(p2.p);
	free(p3.p);
	free(e3.p);
}
END_TEST

START_TEST(test_list_kinds)
{
	struct image_listing l;
	static const char text[] = "not a module at all";
	image_list(text, sizeof text - 1, 90, &l);
	ck_assert_int_eq(l.kind, IMAGE_UNKNOWN);
	ck_assert(!l.complete);
	image_listing_free(&l);
	image_list(NULL, 0, 90, &l);
	ck_assert_int_eq(l.kind, IMAGE_UNKNOWN);
	image_listing_free(&l);
	/* PTX that does not end in a NUL within its length */
	struct buf p = ptx_k(4);
	image_list(p.p, p.n, 90, &l);
	ck_assert_int_eq(l.kind, IMAGE_PTX);
	ck_assert(l.complete);
	ck_assert_int_eq(listed(&l, "k")->nparams, 4);
	image_listing_free(&l);
	free(p.p);
	/* a fatbin header and nothing readable after it */
	static const unsigned char fat[] = {0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0, 0xff, 0xff, 0, 0,
					    0, 0, 0, 0};
	image_list(fat, sizeof fat, 90, &l);
	ck_assert_int_eq(l.kind, IMAGE_FATBIN);
	ck_assert(!l.complete);
	image_listing_free(&l);
}
END_TEST

/* Real images, from nvcc ------------------------------------------------------- */

#ifdef CUBIN_IMAGES
/* The kernels of tests/unit/params.cu: symbol, count, sizes. */
static const struct {
	const char *sym;
	long n;
	size_t sizes[10];
} kernels[] = {
	{"none", 0, {0}},
	{"k", 3, {8, 4, 8}},
	{"st", 2, {40, 8}},
	{"many", 10, {1, 2, 4, 8, 4, 8, 8, 12, 16, 1}},
	{"empty", 2, {1, 8}},
	{"big", 3, {4, 5000, 8}},
	{"_Z4tmplIfLi4EEvPT_S0_", 2, {8, 4}},
	{"_Z4tmplIdLi2EEvPT_S0_", 2, {8, 8}},
	{"_ZN2ns4stepEPii", 2, {8, 4}},
	{"_Z3varIJEEvDpT_", 0, {0}},
	{"calls", 1, {8}},
};
#define NKERNELS (sizeof kernels / sizeof *kernels)

static struct buf image(const char *name)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", CUBIN_IMAGES, name);
	struct buf b = {0};
	b.p = (unsigned char *)read_whole_file(path, &b.n);
	ck_assert_msg(b.p != NULL, "cannot read %s", path);
	return b;
}

/*
 * Every kernel of the image on a device of arch sm: right, with sizes
 * when sized; or, where maybe_unknown, -1 for all of them.
 */
static void check_kernels(const char *file, int sm, bool sized, bool maybe_unknown)
{
	struct buf b = image(file);
	long first = 0;
	for (size_t i = 0; i < NKERNELS; i++) {
		size_t *sizes;
		long n = image_entry_params(b.p, b.n, kernels[i].sym, sm, &sizes);
		if (i == 0)
			first = n;
		if (maybe_unknown && first == -1) {
			ck_assert_msg(n == -1, "%s: %s: %ld", file, kernels[i].sym, n);
			continue;
		}
		ck_assert_msg(n == kernels[i].n, "%s on sm_%d: %s: %ld parameters, not %ld",
			      file, sm, kernels[i].sym, n, kernels[i].n);
		if (sized && n > 0)
			assert_sizes(sizes, kernels[i].sizes, (size_t)n);
		else
			ck_assert_ptr_null(sizes);
		free(sizes);
	}
	ck_assert_int_eq(image_entry_params(b.p, b.n, "absent", sm, NULL), -1);
	/* a device function is no kernel: the PTX has no .entry, the cubin no section */
	free(b.p);
}

START_TEST(test_real_cubins)
{
	check_kernels("params-sm90.cubin", 90, true, false);
	check_kernels("params-sm100.cubin", 100, true, false);
}
END_TEST

START_TEST(test_real_fatbins)
{
	/* nothing compressed: sm_80 SASS and compute_90 PTX */
	check_kernels("params-nc.fatbin", 80, true, false);
	check_kernels("params-nc.fatbin", 86, true, false);
	check_kernels("params-nc.fatbin", 90, false, false);
	check_kernels("params-nc.fatbin", 120, false, false);
	struct buf nc = image("params-nc.fatbin");
	ck_assert_int_eq(image_entry_params(nc.p, nc.n, "k", 75, NULL), -1);
	free(nc.p);
	/* as the GPU suite's are made: nvcc compresses what it likes */
	check_kernels("params.fatbin", 90, true, true);
	check_kernels("params.fatbin", 89, false, true);
	/* all compressed */
	struct buf z = image("params-z.fatbin");
	for (size_t i = 0; i < NKERNELS; i++)
		ck_assert_int_eq(image_entry_params(z.p, z.n, kernels[i].sym, 90, NULL), -1);
	free(z.p);
}
END_TEST

/* A real image cut anywhere: -1 or the answer. */
static void cut_everywhere(const char *file, int sm)
{
	struct buf b = image(file);
	for (size_t len = 0; len <= b.n; len++) {
		unsigned char *cut = xmalloc(len ? len : 1);
		memcpy(cut, b.p, len);
		assert_k_or_unknown(cut, len, sm);
		free(cut);
	}
	free(b.p);
}

START_TEST(test_real_truncated)
{
	cut_everywhere("params-sm90.cubin", 90);
	cut_everywhere("params-nc.fatbin", 86);
}
END_TEST

/* A real cubin with random bytes changed, many times over: no crash, no leak. */
START_TEST(test_real_garbled)
{
	struct buf b = image("params-sm90.cubin");
	unsigned char *copy = xmalloc(b.n);
	/* the parameters' attributes: where damage matters most */
	size_t info = 0;
	for (size_t i = 0; i + 4 <= b.n; i++)
		if (memcmp(b.p + i, "\x04\x17\x0c\x00", 4) == 0) {
			info = i;
			break;
		}
	ck_assert_uint_gt(info, 0);
	uint64_t x = 0x9e3779b97f4a7c15u;
	for (int round = 0; round < 20000; round++) {
		memcpy(copy, b.p, b.n);
		int changes = 1 + round % 4;
		for (int c = 0; c < changes; c++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			size_t at = round % 2 ? (size_t)(x % b.n) : (info + (size_t)(x % 512)) % b.n;
			copy[at] = (unsigned char)(x >> 32);
		}
		for (size_t k = 0; k < NKERNELS; k++) {
			size_t *sizes;
			long n = image_entry_params(copy, b.n, kernels[k].sym, 90, &sizes);
			ck_assert_int_ge(n, -1);
			free(sizes);
		}
	}
	free(copy);
	free(b.p);
}
END_TEST

/* Every kernel of params.cu listed from the image, with its sizes; nothing else. */
static void check_listing(const char *file, int sm)
{
	struct buf b = image(file);
	struct image_listing l;
	image_list(b.p, b.n, sm, &l);
	ck_assert_msg(l.complete, "%s on sm_%d not complete", file, sm);
	ck_assert_uint_eq(l.n, NKERNELS);
	for (size_t i = 0; i < NKERNELS; i++)
		assert_listed(&l, kernels[i].sym, kernels[i].n, kernels[i].sizes, NULL);
	/* the device function that calls calls is no kernel */
	ck_assert_ptr_null(listed(&l, "_Z5twicei"));
	image_listing_free(&l);
	free(b.p);
}

START_TEST(test_real_listings)
{
	check_listing("params-sm90.cubin", 90);
	check_listing("params-sm100.cubin", 100);
	/* -rdc: the device function has an .nv.info section of its own, and is still none */
	check_listing("params-rdc-sm90.cubin", 90);
	check_listing("params-nc.fatbin", 86);
	check_listing("params-nc.fatbin", 0);
	check_listing("params-nc.fatbin", 120);
	check_listing("params.fatbin", 90);
	/* PTX of C++ types */
	struct buf nc = image("params-nc.fatbin");
	struct image_listing l;
	image_list(nc.p, nc.n, 100, &l);
	static const char *const st[] = {".b8[40]", ".u64"};
	assert_listed(&l, "st", 2, kernels[2].sizes, st);
	image_listing_free(&l);
	free(nc.p);
	/* nvcc's compressed PTX: which entry a device of any kind takes is unknown */
	struct buf fat = image("params.fatbin");
	image_list(fat.p, fat.n, 0, &l);
	ck_assert(!l.complete);
	ck_assert_int_eq(listed(&l, "k")->nparams, -1);
	image_listing_free(&l);
	free(fat.p);
	struct buf z = image("params-z.fatbin");
	image_list(z.p, z.n, 90, &l);
	ck_assert(!l.complete);
	ck_assert_uint_eq(l.n, 0);
	image_listing_free(&l);
	free(z.p);
}
END_TEST

/* A real cubin cut anywhere and garbled: a complete listing is the right one or no crash. */
START_TEST(test_real_listing_damaged)
{
	struct buf b = image("params-sm90.cubin");
	struct image_listing l;
	for (size_t len = 0; len <= b.n; len += 7) {
		image_list(b.p, len, 90, &l);
		if (l.complete && len < b.n)
			ck_assert_uint_le(l.n, NKERNELS);
		image_listing_free(&l);
	}
	unsigned char *copy = xmalloc(b.n);
	uint64_t x = 0x2545f4914f6cdd1du;
	for (int round = 0; round < 5000; round++) {
		memcpy(copy, b.p, b.n);
		for (int c = 0; c < 1 + round % 4; c++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			copy[x % b.n] = (unsigned char)(x >> 32);
		}
		image_list(copy, b.n, 90, &l);
		image_listing_free(&l);
	}
	free(copy);
	free(b.p);
}
END_TEST
#endif

static Suite *cubin_suite(void)
{
	Suite *s = suite_create("cubin");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_elf);
	tcase_add_test(tc, test_elf_headers);
	tcase_add_test(tc, test_elf_attributes);
	tcase_add_test(tc, test_elf_empty_param_at_end);
	tcase_add_test(tc, test_elf_truncated);
	tcase_add_test(tc, test_elf_garbled);
	tcase_add_test(tc, test_fatbin_choice);
	tcase_add_test(tc, test_fatbin_broken);
	tcase_add_test(tc, test_ptx);
	tcase_add_test(tc, test_list_cubin);
	tcase_add_test(tc, test_ptx_entries);
	tcase_add_test(tc, test_list_fatbin);
	tcase_add_test(tc, test_list_kinds);
#ifdef CUBIN_IMAGES
	tcase_add_test(tc, test_real_listings);
	tcase_add_test(tc, test_real_listing_damaged);
	tcase_add_test(tc, test_real_cubins);
	tcase_add_test(tc, test_real_fatbins);
	tcase_add_test(tc, test_real_truncated);
	tcase_add_test(tc, test_real_garbled);
	tcase_add_test(tc, test_ptx_header);
	tcase_add_test(tc, test_ptx_dyn_shared);
#endif
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(cubin_suite)
