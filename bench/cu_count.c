/*
 * A driver-call counter outside the program that makes the calls: a
 * shared object to LD_PRELOAD under cugraphrun (or bench/sweep_ref, or
 * any program that gets the CUDA driver's entry points the way they do:
 * dlopen("libcuda.so.1"), then dlsym of cuGetProcAddress_v2, then every
 * other entry point through it).
 *
 *     CU_COUNT_OUT=counts.txt LD_PRELOAD=bench/cu_count.so cugraphrun ...
 *
 * It interposes dlsym: asked for cuGetProcAddress (any version), it
 * hands out its own, which calls the driver's and replaces each entry
 * point returned by a stub that adds one to that entry point's counter
 * and jumps to the driver's function.  The stub keeps every register an
 * argument may be in (it uses r11, which no call passes anything in), so
 * it needs no signature: every entry point is counted, whatever its ABI.
 * At exit the counts go to $CU_COUNT_OUT (default: standard error), one
 * "NAME COUNT" line per entry point called at least once, by name.
 *
 * x86-64 Linux only (the stubs are machine code); elsewhere it counts
 * nothing and says so.  Not a part of cugraphrun: built for the
 * benchmarks (Makefile.am: bench/cu_count.so).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* cuGetProcAddress_v2's ABI, in plain types (no cuda.h needed). */
typedef int (*gpa_v2_fn)(const char *symbol, void **pfn, int version, unsigned long long flags,
			 int *status);
/* cuGetProcAddress (the first ABI, CUDA 11.3): no status. */
typedef int (*gpa_v1_fn)(const char *symbol, void **pfn, int version, unsigned long long flags);

#define MAX_ENTRIES 4096

struct entry {
	char name[80];
	void *real;
	void *stub;
	unsigned long long count;   /* incremented by the stub (lock inc) */
};

static struct entry entries[MAX_ENTRIES];
static size_t nentries;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static gpa_v2_fn real_gpa_v2;
static gpa_v1_fn real_gpa_v1;
static void *(*real_dlsym)(void *, const char *);

/* The libc dlsym, not ours. */
static void *libc_dlsym(void *handle, const char *name)
{
	if (real_dlsym == NULL) {
		real_dlsym = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
		if (real_dlsym == NULL)
			real_dlsym = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
		if (real_dlsym == NULL) {
			fputs("cu_count: cannot find libc's dlsym\n", stderr);
			abort();
		}
	}
	return real_dlsym(handle, name);
}

#if defined(__x86_64__)
/*
 *   49 BB imm64        movabs r11, &counter
 *   F0 49 FF 03        lock inc qword [r11]
 *   49 BB imm64        movabs r11, target
 *   41 FF E3           jmp r11
 * One page per stub, written then made executable: no page is ever
 * writable and executable at once, nor changed while another thread may
 * run a stub in it.
 */
static void *make_stub(unsigned long long *counter, void *target)
{
	static const unsigned char tmpl[27] = {
		0x49, 0xBB, 0, 0, 0, 0, 0, 0, 0, 0,
		0xF0, 0x49, 0xFF, 0x03,
		0x49, 0xBB, 0, 0, 0, 0, 0, 0, 0, 0,
		0x41, 0xFF, 0xE3,
	};
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				-1, 0);
	if (p == MAP_FAILED)
		return NULL;
	memcpy(p, tmpl, sizeof tmpl);
	memcpy(p + 2, &counter, 8);
	memcpy(p + 16, &target, 8);
	if (mprotect(p, page, PROT_READ | PROT_EXEC) != 0) {
		munmap(p, page);
		return NULL;
	}
	return p;
}
#else
static void *make_stub(unsigned long long *counter, void *target)
{
	static int said;
	(void)counter;
	if (!said++)
		fputs("cu_count: not x86-64: calls are not counted\n", stderr);
	return target;
}
#endif

/* The counting stand-in for the driver's fn, called symbol. */
static void *counted(const char *symbol, void *fn)
{
	if (fn == NULL)
		return NULL;
	pthread_mutex_lock(&lock);
	void *stub = fn;
	for (size_t i = 0; i < nentries; i++)
		if (entries[i].real == fn && strcmp(entries[i].name, symbol) == 0) {
			stub = entries[i].stub;
			goto out;
		}
	if (nentries < MAX_ENTRIES) {
		struct entry *e = &entries[nentries];
		snprintf(e->name, sizeof e->name, "%s", symbol);
		e->real = fn;
		e->stub = make_stub(&e->count, fn);
		if (e->stub) {
			stub = e->stub;
			nentries++;
		}
	}
out:
	pthread_mutex_unlock(&lock);
	return stub;
}

static int gpa_v2(const char *symbol, void **pfn, int version, unsigned long long flags,
		  int *status)
{
	int r = real_gpa_v2(symbol, pfn, version, flags, status);
	if (r == 0 && pfn && *pfn)
		*pfn = counted(symbol, *pfn);
	return r;
}

static int gpa_v1(const char *symbol, void **pfn, int version, unsigned long long flags)
{
	int r = real_gpa_v1(symbol, pfn, version, flags);
	if (r == 0 && pfn && *pfn)
		*pfn = counted(symbol, *pfn);
	return r;
}

void *dlsym(void *handle, const char *name)
{
	void *fn = libc_dlsym(handle, name);
	if (fn == NULL)
		return fn;
	if (strcmp(name, "cuGetProcAddress_v2") == 0) {
		real_gpa_v2 = (gpa_v2_fn)fn;
		return (void *)gpa_v2;
	}
	if (strcmp(name, "cuGetProcAddress") == 0) {
		real_gpa_v1 = (gpa_v1_fn)fn;
		return (void *)gpa_v1;
	}
	return fn;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("CU_COUNT_OUT");
	FILE *out = path && *path ? fopen(path, "w") : stderr;
	if (out == NULL)
		return;
	pthread_mutex_lock(&lock);
	/* the same name fetched at several ABIs: one line, their sum */
	struct entry *copy = calloc(nentries ? nentries : 1, sizeof *copy);
	if (copy) {
		memcpy(copy, entries, nentries * sizeof *copy);
		qsort(copy, nentries, sizeof *copy, by_name);
		for (size_t i = 0; i < nentries;) {
			unsigned long long n = 0;
			size_t j = i;
			for (; j < nentries && strcmp(copy[j].name, copy[i].name) == 0; j++)
				n += copy[j].count;
			if (n)
				fprintf(out, "%s %llu\n", copy[i].name, n);
			i = j;
		}
		free(copy);
	}
	pthread_mutex_unlock(&lock);
	if (out != stderr)
		fclose(out);
}
