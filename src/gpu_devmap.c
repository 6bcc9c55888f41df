/*
 * The run's devices in GPU ordinals (see gpu_devmap.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "gpu_devmap.h"

/* Ordinals above 63 are never in a mask (--devices takes 0 to 63). */
#define MASK_BITS 64

static bool usable(int gpu, int base, uint64_t mask, int count)
{
	if (gpu == base)
		return true;
	if (gpu < 0 || gpu >= count)
		return false;
	return mask == 0 || (gpu < MASK_BITS && (mask >> gpu & 1));
}

/* The largest ordinal looked at: -d takes 0 to 1024, and no machine has more GPUs. */
#define MAX_GPUS 1025

/* The run's GPUs in ascending order, base among them; returns how many. */
static unsigned list(int base, uint64_t mask, int count, int out[MAX_GPUS])
{
	unsigned n = 0;
	int top = count > base ? count : base + 1;
	for (int gpu = 0; gpu < top && gpu < MAX_GPUS; gpu++)
		if (usable(gpu, base, mask, count))
			out[n++] = gpu;
	return n;
}

bool devmap(int base, uint64_t mask, int count, unsigned need, int *ordinals, unsigned *have)
{
	int all[MAX_GPUS];
	unsigned n = list(base, mask, count, all);
	*have = n;
	if (n < need || n == 0)
		return false;
	unsigned first = 0;
	while (first + 1 < n && all[first] != base)
		first++;
	for (unsigned k = 0; k < need; k++)
		ordinals[k] = all[(first + k) % n];
	return true;
}

const char *devmap_words(int base, uint64_t mask, int count, char *buf, size_t len)
{
	int all[MAX_GPUS];
	unsigned n = list(base, mask, count, all);
	size_t at = (size_t)snprintf(buf, len, "GPU%s", n == 1 ? "" : "s");
	for (unsigned i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%d",
				       i == 0 ? " " : i + 1 == n ? " and " : ", ", all[i]);
	return buf;
}
