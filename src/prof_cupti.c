/*
 * CUPTI at run time (see prof_cupti.h).
 *
 * Mapping records to nodes: every node we built has a graph node id
 * (cuptiGetGraphNodeId on its handle).  Instantiating clones the nodes, and
 * a record carries the id of the clone that ran; CUPTI announces each clone
 * with CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED (node, originalNode), so a
 * record's id is followed back through the clones to one of ours.  What
 * the driver does for child graphs and conditional bodies is written in
 * cugraphrun(1), "How records are mapped to nodes", as measured.
 *
 * The environment variable CUGRAPHRUN_PROFILE_DEBUG=1 (set, neither empty
 * nor 0) prints every id learnt, every clone and every record on stderr;
 * CUGRAPHRUN_CUPTI=PATH opens that file instead of searching (tests use it
 * to see CUPTI missing).
 */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti.h>

#include "prof_cupti.h"
#include "prof_ids.h"
#include "strmap.h"
#include "toolkit_lib.h"
#include "xmalloc.h"

/* The CUPTI entry points we call, fetched by name (CUPTI has one ABI per name). */
#define CUPTI_TABLE(X)                          \
	X(cuptiGetVersion)                      \
	X(cuptiGetResultString)                 \
	X(cuptiSubscribe)                       \
	X(cuptiUnsubscribe)                     \
	X(cuptiEnableCallback)                  \
	X(cuptiGetGraphNodeId)                  \
	X(cuptiActivitySetAttribute)            \
	X(cuptiActivityRegisterCallbacks)       \
	X(cuptiActivityEnable)                  \
	X(cuptiActivityDisable)                 \
	X(cuptiActivityFlushAll)                \
	X(cuptiActivityGetNextRecord)           \
	X(cuptiActivityGetNumDroppedRecords)

#define CUPTI_FIELD(name) __typeof__(&name) name;
struct cupti_api {
	CUPTI_TABLE(CUPTI_FIELD)
};

/* One of our nodes: its id before instantiation. */
struct id_pair {
	uint64_t id;
	struct node *node;
};

struct profiler {
	struct cupti_api api;
	bool debug;
	bool subscribed, active;
	CUpti_SubscriberHandle sub;
	struct id_pair *ours;           /* sorted by id once started */
	size_t nours, capours;
	struct prof_clone *clones;      /* sorted by id when records are mapped */
	size_t nclones, capclones;
	bool clones_sorted;
	struct prof_rec *recs;
	uint64_t *rec_ids;              /* per record: its graph node id */
	size_t nrecs, caprecs, capids;
	uint32_t launch;                /* what the records delivered now belong to */
	uint64_t dropped;
	uint64_t incomplete;            /* records without both times (forced flush) */
	bool failed;                    /* a callback could not keep up */
	struct strmap *names;           /* kernel names, copied */
	char **owned;
	size_t nowned, capowned;
	bool mapped;
	/* the layout of the instantiated graph (see exec_layout) */
	uint64_t *root_ids;             /* our root nodes' ids, in creation order */
	size_t nroot;
	struct node **nested;           /* our other nodes, in creation order */
	size_t nnested;
	struct id_pair *flat;           /* exec ids of nested nodes, sorted */
	size_t nflat;
};

/* The CUPTI major version whose record layouts take_record reads. */
#define CUPTI_RECORDS_MAJOR 13
#if CUPTI_API_VERSION / 10000 != CUPTI_RECORDS_MAJOR
#error "take_record reads CUPTI 13's records (CUpti_ActivityKernel10, Memset4, Memcpy6, MemcpyPtoP4)"
#endif

/* CUPTI's buffer callbacks take no user data: the one profiler of the process. */
static struct profiler *current;

static const char *cupti_error(const struct profiler *p, CUptiResult r)
{
	static char buf[160];
	const char *s = NULL;
	if (p->api.cuptiGetResultString == NULL ||
	    p->api.cuptiGetResultString(r, &s) != CUPTI_SUCCESS || s == NULL)
		snprintf(buf, sizeof buf, "CUPTI error %d", (int)r);
	else
		snprintf(buf, sizeof buf, "%s (CUPTI error %d)", s, (int)r);
	return buf;
}

/* A CUPTI file being tried: the library once one opens, else the first error. */
struct cupti_try {
	void *lib;
	char *why;
	size_t len;
};

static bool try_cupti(const char *path, void *arg)
{
	struct cupti_try *t = arg;
	t->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (t->lib == NULL && t->why[0] == '\0')
		snprintf(t->why, t->len, "%s", dlerror());
	return t->lib != NULL;
}

/*
 * dlopen the first CUPTI found that opens, where toolkit_lib.h says (and
 * cugraphrun(1), FILES); NULL with the first error in why.  The loader's
 * own search by name comes last: it may know a folder from its cache that
 * toolkit_lib's reading of ld.so.conf does not, and when there is no CUPTI
 * at all its error is the one given.
 */
static void *find_cupti(char *why, size_t len)
{
	const char *env = getenv("CUGRAPHRUN_CUPTI");
	if (env && *env) {
		void *lib = dlopen(env, RTLD_NOW | RTLD_LOCAL);
		if (lib == NULL)
			snprintf(why, len, "%s", dlerror());
		return lib;
	}
	why[0] = '\0';
	struct cupti_try t = {NULL, why, len};
	free(toolkit_lib_find(TOOLKIT_CUPTI, try_cupti, &t));
	if (t.lib)
		return t.lib;
	static const char *const by_name[] = {"libcupti.so.13", "libcupti.so"};
	for (size_t i = 0; i < sizeof by_name / sizeof *by_name; i++) {
		void *lib = dlopen(by_name[i], RTLD_NOW | RTLD_LOCAL);
		if (lib)
			return lib;
		if (why[0] == '\0')
			snprintf(why, len, "%s", dlerror());
	}
	return NULL;
}

struct profiler *profiler_open(void)
{
	char why[512];
	void *lib = find_cupti(why, sizeof why);
	if (lib == NULL) {
		errorx("--profile needs CUPTI, and no CUPTI library was found (%s); it comes "
		       "with the CUDA toolkit: put its directory (e.g. /usr/local/cuda/lib64) "
		       "on LD_LIBRARY_PATH, or set CUDA_HOME", why);
		return NULL;
	}
	struct profiler *p = xcalloc(1, sizeof *p);
#define CUPTI_FETCH(name)                                                            \
	if ((*(void **)&p->api.name = dlsym(lib, #name)) == NULL) {                   \
		errorx("--profile: the CUPTI library found has no %s", #name);        \
		free(p);                                                              \
		return NULL;                                                          \
	}
	CUPTI_TABLE(CUPTI_FETCH)
#undef CUPTI_FETCH
	uint32_t v = 0;
	if (p->api.cuptiGetVersion(&v) != CUPTI_SUCCESS || v / 10000 != CUPTI_RECORDS_MAJOR) {
		/* the record layouts (CUpti_ActivityKernel10, ...) belong to one major */
		errorx("--profile: the CUPTI library found has API version %u; this "
		       "cugraphrun reads the records of CUPTI %d (API version %d0000 to "
		       "%d9999, CUDA %d)", v, CUPTI_RECORDS_MAJOR, CUPTI_RECORDS_MAJOR,
		       CUPTI_RECORDS_MAJOR, CUPTI_RECORDS_MAJOR);
		free(p);
		return NULL;
	}
	const char *debug = getenv("CUGRAPHRUN_PROFILE_DEBUG");
	p->debug = debug && *debug && strcmp(debug, "0") != 0;
	p->names = strmap_new(64);
	return p;
}

/* A kernel name, copied once: CUPTI's pointer is not promised to last. */
static const char *intern(struct profiler *p, const char *name)
{
	if (name == NULL)
		return NULL;
	long i = strmap_get(p->names, name);
	if (i >= 0)
		return p->owned[i];
	char *copy = xstrdup(name);
	*VEC_PUSH(p->owned, p->nowned, p->capowned) = copy;
	strmap_put(p->names, copy, (long)(p->nowned - 1), NULL);
	return copy;
}

static void CUPTIAPI on_resource(void *ud, CUpti_CallbackDomain dom, CUpti_CallbackId cbid,
				 const void *cbdata)
{
	struct profiler *p = ud;
	if (dom != CUPTI_CB_DOMAIN_RESOURCE)
		return;
	const CUpti_ResourceData *rd = cbdata;
	const CUpti_GraphData *gd = rd->resourceDescriptor;
	if (gd == NULL)
		return;
	uint64_t id = 0, orig = 0;
	if (cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED) {
		if (p->api.cuptiGetGraphNodeId(gd->node, &id) != CUPTI_SUCCESS ||
		    p->api.cuptiGetGraphNodeId(gd->originalNode, &orig) != CUPTI_SUCCESS) {
			p->failed = true;
			return;
		}
		*VEC_PUSH(p->clones, p->nclones, p->capclones) = (struct prof_clone){id, orig};
		p->clones_sorted = false;
		if (p->debug)
			fprintf(stderr, "cugraphrun: profile: clone %llu <- %llu (type %d)\n",
				(unsigned long long)id, (unsigned long long)orig, (int)gd->nodeType);
	} else if (cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED && p->debug) {
		p->api.cuptiGetGraphNodeId(gd->node, &id);
		fprintf(stderr, "cugraphrun: profile: created %llu (type %d)\n",
			(unsigned long long)id, (int)gd->nodeType);
	}
}

/* Activity buffers: large, so that a 10,000-node launch needs few. */
#define BUF_BYTES (8u << 20)
#define DEVICE_BUF_BYTES ((size_t)64 << 20)

static void CUPTIAPI buffer_requested(uint8_t **buf, size_t *size, size_t *max_records)
{
	*buf = aligned_alloc(8, BUF_BYTES);
	*size = *buf ? BUF_BYTES : 0;
	*max_records = 0;
}

static struct prof_rec *new_rec(struct profiler *p, uint64_t node_id)
{
	size_t n = p->nrecs;
	struct prof_rec *r = VEC_PUSH(p->recs, p->nrecs, p->caprecs);
	if (p->capids < p->caprecs) {
		p->rec_ids = xreallocarray(p->rec_ids, p->caprecs, sizeof *p->rec_ids);
		p->capids = p->caprecs;
	}
	p->rec_ids[n] = node_id;
	r->launch = p->launch;
	return r;
}

static void dims(uint32_t out[3], int32_t x, int32_t y, int32_t z)
{
	out[0] = (uint32_t)x;
	out[1] = (uint32_t)y;
	out[2] = (uint32_t)z;
}

static void take_record(struct profiler *p, const CUpti_Activity *a)
{
	struct prof_rec *r;
	uint32_t graph = 0, corr = 0;
	switch (a->kind) {
	case CUPTI_ACTIVITY_KIND_KERNEL:
	case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
		const CUpti_ActivityKernel10 *k = (const void *)a;
		r = new_rec(p, k->graphNodeId);
		r->kind = PROF_KERNEL;
		r->start_ns = k->start;
		r->end_ns = k->end;
		r->stream = k->streamId;
		r->device = k->deviceId;
		r->name = intern(p, k->name);
		dims(r->grid, k->gridX, k->gridY, k->gridZ);
		dims(r->block, k->blockX, k->blockY, k->blockZ);
		graph = k->graphId;
		corr = k->correlationId;
		break;
	}
	case CUPTI_ACTIVITY_KIND_MEMSET: {
		const CUpti_ActivityMemset4 *m = (const void *)a;
		r = new_rec(p, m->graphNodeId);
		r->kind = PROF_MEMSET;
		r->start_ns = m->start;
		r->end_ns = m->end;
		r->stream = m->streamId;
		r->device = m->deviceId;
		r->bytes = m->bytes;
		graph = m->graphId;
		corr = m->correlationId;
		break;
	}
	case CUPTI_ACTIVITY_KIND_MEMCPY: {
		const CUpti_ActivityMemcpy6 *m = (const void *)a;
		r = new_rec(p, m->graphNodeId);
		r->kind = PROF_MEMCPY;
		r->start_ns = m->start;
		r->end_ns = m->end;
		r->stream = m->streamId;
		r->device = m->deviceId;
		r->bytes = m->bytes;
		graph = m->graphId;
		corr = m->correlationId;
		break;
	}
	case CUPTI_ACTIVITY_KIND_MEMCPY2: {
		/* a copy between two GPUs (cugraphrun(5), Devices): deviceId is the GPU that ran it */
		const CUpti_ActivityMemcpyPtoP4 *m = (const void *)a;
		r = new_rec(p, m->graphNodeId);
		r->kind = PROF_MEMCPY;
		r->start_ns = m->start;
		r->end_ns = m->end;
		r->stream = m->streamId;
		r->device = m->deviceId;
		r->bytes = m->bytes;
		graph = m->graphId;
		corr = m->correlationId;
		break;
	}
	default:
		return;
	}
	/*
	 * A forced flush may hand over a record whose work had not finished:
	 * start 0 or end before start.  It is no 0-us run, and a 0 start would
	 * move the trace's time origin: leave it out and count it.
	 */
	if (r->start_ns == 0 || r->end_ns < r->start_ns) {
		if (p->debug)
			fprintf(stderr, "cugraphrun: profile: record launch %u %s node %llu "
				"incomplete (start %llu end %llu)\n", r->launch,
				prof_kind_names[r->kind],
				(unsigned long long)p->rec_ids[p->nrecs - 1],
				(unsigned long long)r->start_ns, (unsigned long long)r->end_ns);
		p->nrecs--;
		p->incomplete++;
		return;
	}
	if (p->debug)
		fprintf(stderr, "cugraphrun: profile: record launch %u %s node %llu graph %u "
			"corr %u stream %u start %llu dur %llu %s\n", r->launch,
			prof_kind_names[r->kind], (unsigned long long)p->rec_ids[p->nrecs - 1],
			graph, corr, r->stream, (unsigned long long)r->start_ns,
			(unsigned long long)(r->end_ns - r->start_ns), r->name ? r->name : "");
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buf,
				      size_t size, size_t valid)
{
	(void)size;
	struct profiler *p = current;
	if (p && valid > 0) {
		CUpti_Activity *a = NULL;
		while (p->api.cuptiActivityGetNextRecord(buf, valid, &a) == CUPTI_SUCCESS)
			take_record(p, a);
		size_t dropped = 0;
		if (p->api.cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS)
			p->dropped += dropped;
	}
	free(buf);
}

/* MEMCPY2: copies between GPUs (peer to peer), which MEMCPY leaves out. */
static const CUpti_ActivityKind kinds[] = {
	CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMSET,
	CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMCPY2,
};

static int cmp_pair(const void *a, const void *b)
{
	uint64_t x = ((const struct id_pair *)a)->id, y = ((const struct id_pair *)b)->id;
	return (x > y) - (x < y);
}

static int cmp_clone(const void *a, const void *b)
{
	uint64_t x = ((const struct prof_clone *)a)->id, y = ((const struct prof_clone *)b)->id;
	return (x > y) - (x < y);
}

/* A CUPTI call that failed, said with what it was for: exit status 3. */
static int cupti_failed(struct profiler *p, const char *what, CUptiResult r)
{
	/* seen on the H100 under compute-sanitizer, at the first CUPTI call */
	const char *why = r != CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED ? "" :
		"; another CUPTI client (compute-sanitizer, Nsight Systems or Nsight Compute) "
		"is attached to this process and CUPTI serves only one: run --profile "
		"without it";
	errorx("--profile: %s: %s%s", what, cupti_error(p, r), why);
	return 3;
}

int profiler_start(struct profiler *p, const struct gpu *gp)
{
	CUptiResult r;
	current = p;
	/* our nodes' ids, before any clone exists */
	for (size_t i = 0; i < gp->nnodes; i++) {
		struct id_pair *o = VEC_PUSH(p->ours, p->nours, p->capours);
		o->node = gp->nodes[i].n;
		if ((r = p->api.cuptiGetGraphNodeId(gp->nodes[i].h, &o->id)) != CUPTI_SUCCESS)
			return cupti_failed(p, "cannot read a graph node id", r);
		if (p->debug)
			fprintf(stderr, "cugraphrun: profile: ours %llu = %s (%s)\n",
				(unsigned long long)o->id, diag_esc(o->node->id),
				node_kind_names[o->node->kind]);
	}
	p->root_ids = xcalloc(gp->nnodes ? gp->nnodes : 1, sizeof *p->root_ids);
	p->nested = xcalloc(gp->nnodes ? gp->nnodes : 1, sizeof *p->nested);
	for (size_t i = 0; i < gp->nnodes; i++) {
		if (gp->nodes[i].n->graph == gp->g->root)
			p->root_ids[p->nroot++] = p->ours[i].id;
		else
			p->nested[p->nnested++] = gp->nodes[i].n;
	}
	qsort(p->ours, p->nours, sizeof *p->ours, cmp_pair);
	if ((r = p->api.cuptiSubscribe(&p->sub, on_resource, p)) != CUPTI_SUCCESS)
		return cupti_failed(p, "cannot subscribe to CUPTI (is another profiler attached?)", r);
	p->subscribed = true;
	if ((r = p->api.cuptiEnableCallback(1, p->sub, CUPTI_CB_DOMAIN_RESOURCE,
					    CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED)) != CUPTI_SUCCESS ||
	    (p->debug && (r = p->api.cuptiEnableCallback(1, p->sub, CUPTI_CB_DOMAIN_RESOURCE,
					    CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED)) != CUPTI_SUCCESS))
		return cupti_failed(p, "cannot follow graph node clones", r);
	size_t vs = sizeof(size_t), dev = DEVICE_BUF_BYTES;
	if ((r = p->api.cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, &vs,
						  &dev)) != CUPTI_SUCCESS)
		return cupti_failed(p, "cannot size CUPTI's device buffers", r);
	if ((r = p->api.cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed)) !=
	    CUPTI_SUCCESS)
		return cupti_failed(p, "cannot register activity buffers", r);
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
		if ((r = p->api.cuptiActivityEnable(kinds[i])) != CUPTI_SUCCESS)
			return cupti_failed(p, "cannot enable activity records", r);
	p->active = true;
	return 0;
}

int profiler_flush(struct profiler *p, uint32_t launch)
{
	/* buffers CUPTI hands over on its own while launch k runs are launch k's too */
	p->launch = launch;
	CUptiResult r = p->api.cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	p->launch = launch + 1;
	if (r != CUPTI_SUCCESS)
		return cupti_failed(p, "cannot flush activity records", r);
	size_t dropped = 0;
	if (p->api.cuptiActivityGetNumDroppedRecords(NULL, 0, &dropped) == CUPTI_SUCCESS)
		p->dropped += dropped;
	return 0;
}

int profiler_stop(struct profiler *p)
{
	int rc = 0;
	if (p->active) {
		for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
			p->api.cuptiActivityDisable(kinds[i]);
		rc = profiler_flush(p, p->launch ? p->launch - 1 : 0);
		p->active = false;
	}
	if (p->subscribed) {
		p->api.cuptiUnsubscribe(p->sub);
		p->subscribed = false;
	}
	if (p->failed) {
		errorx("--profile: CUPTI could not report a graph node clone");
		rc = 3;
	}
	return rc;
}

/* Follow clones back to one of our nodes; NULL when the id is none of ours. */
static struct node *node_of_id(struct profiler *p, uint64_t id)
{
	for (int hop = 0; hop < 32; hop++) {
		struct id_pair key = {.id = id};
		const struct id_pair *o = bsearch(&key, p->ours, p->nours, sizeof *p->ours, cmp_pair);
		if (o)
			return o->node;
		struct prof_clone ckey = {.id = id};
		const struct prof_clone *c = bsearch(&ckey, p->clones, p->nclones,
						     sizeof *p->clones, cmp_clone);
		if (c == NULL || c->orig == id)
			return NULL;
		id = c->orig;
	}
	return NULL;
}

/*
 * Nodes of child graphs and conditional bodies, as measured on driver 580
 * (CUDA 13.0) with CUPTI 13: instantiating clones each of our nodes once
 * (CLONED), the root graph's into the executable graph, but the records
 * of nested nodes carry ids that no callback announced.  An id is the
 * graph's id in the high 32 bits and a number within it below, and the
 * executable graph numbers the root graph's nodes first, in the order they
 * were created, then every nested node (child-graph, conditional and
 * empty ones too) in the order they were created.  So when the root
 * clones sit at G<<32 + 0, 1, 2... as expected (prof_exec_base, in
 * prof_ids.c, checks it), nested node j is
 * G<<32 + nroot + j.  When they do not, nested records stay unmapped and
 * the report counts them.
 */
static void exec_layout(struct profiler *p)
{
	/* the clones as announced: this runs before they are sorted by id */
	uint64_t base;
	if (!prof_exec_base(p->root_ids, p->nroot, p->clones, p->nclones, &base) ||
	    p->nnested == 0)
		return;
	p->flat = xcalloc(p->nnested, sizeof *p->flat);
	for (size_t j = 0; j < p->nnested; j++) {
		p->flat[j].id = base + p->nroot + j;
		p->flat[j].node = p->nested[j];
	}
	p->nflat = p->nnested;
	if (p->debug)
		fprintf(stderr, "cugraphrun: profile: nested nodes from %llu\n",
			(unsigned long long)(base + p->nroot));
}

static int cmp_rec(const void *a, const void *b)
{
	const struct prof_rec *x = a, *y = b;
	if (x->launch != y->launch)
		return x->launch < y->launch ? -1 : 1;
	return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

const struct prof_rec *profiler_records(struct profiler *p, size_t *n)
{
	if (!p->mapped) {
		exec_layout(p);
		qsort(p->clones, p->nclones, sizeof *p->clones, cmp_clone);
		for (size_t i = 0; i < p->nrecs; i++) {
			p->recs[i].node = node_of_id(p, p->rec_ids[i]);
			if (p->recs[i].node == NULL && p->nflat) {
				struct id_pair key = {.id = p->rec_ids[i]};
				const struct id_pair *f = bsearch(&key, p->flat, p->nflat,
								  sizeof *p->flat, cmp_pair);
				p->recs[i].node = f ? f->node : NULL;
			}
			if (p->debug)
				fprintf(stderr, "cugraphrun: profile: record %zu node %llu -> %s\n",
					i, (unsigned long long)p->rec_ids[i],
					p->recs[i].node ? diag_esc(p->recs[i].node->id) : "(none)");
		}
		qsort(p->recs, p->nrecs, sizeof *p->recs, cmp_rec);
		p->mapped = true;
	}
	*n = p->nrecs;
	return p->recs;
}

uint64_t profiler_dropped(const struct profiler *p)
{
	return p->dropped;
}

uint64_t profiler_incomplete(const struct profiler *p)
{
	return p->incomplete;
}

void profiler_free(struct profiler *p)
{
	if (p == NULL)
		return;
	if (p->active || p->subscribed)
		profiler_stop(p);
	if (current == p)
		current = NULL;
	free(p->ours);
	free(p->clones);
	free(p->recs);
	free(p->rec_ids);
	free(p->root_ids);
	free(p->nested);
	free(p->flat);
	for (size_t i = 0; i < p->nowned; i++)
		free(p->owned[i]);
	free(p->owned);
	strmap_free(p->names);
	free(p);
}
