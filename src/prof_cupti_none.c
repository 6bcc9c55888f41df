/*
 * --profile in a build whose toolkit had no CUPTI 13 headers (see
 * configure): profiler_open() says so and the run exits 3; the rest is
 * never reached.
 */
#include "config.h"

#include "diag.h"
#include "prof_cupti.h"

struct profiler *profiler_open(void)
{
	errorx("--profile: this cugraphrun was built without CUPTI 13 headers "
	       "(configure found no cupti.h of CUPTI 13 or newer; see --with-cuda)");
	return NULL;
}

int profiler_start(struct profiler *p, const struct gpu *gp)
{
	(void)p; (void)gp;
	return 3;
}

int profiler_flush(struct profiler *p, uint32_t launch)
{
	(void)p; (void)launch;
	return 3;
}

int profiler_stop(struct profiler *p)
{
	(void)p;
	return 3;
}

const struct prof_rec *profiler_records(struct profiler *p, size_t *n)
{
	(void)p;
	*n = 0;
	return NULL;
}

uint64_t profiler_dropped(const struct profiler *p)
{
	(void)p;
	return 0;
}

uint64_t profiler_incomplete(const struct profiler *p)
{
	(void)p;
	return 0;
}

void profiler_free(struct profiler *p)
{
	(void)p;
}
