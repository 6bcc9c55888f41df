/*
 * Chrome trace events (see prof_trace.h).  One complete event ("ph": "X") per
 * node execution, named by the node's YAML id, with ts and dur in
 * microseconds from the first record; one process (pid) per GPU, 1 for
 * the run's own and 1 + k for a file's device k, and in it one track (tid)
 * per CUDA stream that CUPTI named.  A track must hold events that nest or follow each other,
 * so when two executions on one stream overlap (the graph's branches can
 * run at once), the later one goes to the stream's next lane, a track of
 * its own ("stream 7 (2)").  Track 0, "launches", spans each profiled
 * launch from its first record's start to its last one's end.  Metadata
 * events ("ph": "M") name the process and the tracks; they carry the
 * category "__metadata" as Chrome writes it (Chrome DevTools' trace
 * parser fails on an event without one).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "prof_trace.h"
#include "report.h"
#include "xmalloc.h"

/* A track: a GPU's stream and a lane on it, and where its last event ends. */
struct lane {
	unsigned pid;
	uint32_t stream;
	unsigned lane;
	uint64_t end;
	unsigned tid;
};

static double us(uint64_t ns, uint64_t t0)
{
	return (double)(ns - t0) * 1e-3;
}

/* A record's place in time order: by start, ties in record order. */
struct by_start {
	uint64_t start;
	size_t i;
};

static int cmp_start(const void *a, const void *b)
{
	const struct by_start *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

static void put_dims(FILE *out, const char *key, const uint32_t d[3])
{
	fprintf(out, ", \"%s\": [%u, %u, %u]", key, d[0], d[1], d[2]);
}

/* The process of a record: its GPU's device in the file (CUPTI's deviceId is the ordinal). */
static unsigned pid_of(const struct prof_rec *r, const struct trace_info *ti)
{
	for (size_t k = 0; ti->ndevices > 1 && k < ti->ndevices; k++)
		if (ti->devices[k].ordinal >= 0 && (uint32_t)ti->devices[k].ordinal == r->device)
			return 1 + (unsigned)k;
	return 1;
}

/* The metadata naming process pid, and its place among the others. */
static void put_process(FILE *out, unsigned pid, int ordinal, const char *name, long device)
{
	char pname[320];
	if (device >= 0)
		snprintf(pname, sizeof pname, "GPU %d: %s (device %ld)", ordinal, name ? name : "?",
			 device);
	else
		snprintf(pname, sizeof pname, "GPU %d: %s", ordinal, name ? name : "?");
	fprintf(out, "%s{\"ph\": \"M\", \"cat\": \"__metadata\", \"name\": \"process_name\", "
		"\"pid\": %u, \"tid\": 0, \"args\": {\"name\": ", pid == 1 ? "" : ",\n", pid);
	json_string(out, pname);
	fputs("}}", out);
	if (device >= 0)
		fprintf(out, ",\n{\"ph\": \"M\", \"cat\": \"__metadata\", \"name\": "
			"\"process_sort_index\", \"pid\": %u, \"tid\": 0, \"args\": "
			"{\"sort_index\": %u}}", pid, pid);
}

int trace_write(FILE *out, const struct prof_rec *recs, size_t n, const struct trace_info *ti)
{
	uint64_t t0 = UINT64_MAX;
	for (size_t i = 0; i < n; i++)
		if (recs[i].start_ns < t0)
			t0 = recs[i].start_ns;
	if (n == 0)
		t0 = 0;
	/* records sorted by start, whatever the launch: lanes fill in time order */
	struct by_start *order = xcalloc(n ? n : 1, sizeof *order);
	for (size_t i = 0; i < n; i++)
		order[i] = (struct by_start){recs[i].start_ns, i};
	qsort(order, n, sizeof *order, cmp_start);
	struct lane *lanes = NULL;
	size_t nlanes = 0, caplanes = 0;
	unsigned *tid = xcalloc(n ? n : 1, sizeof *tid);
	for (size_t oi = 0; oi < n; oi++) {
		const struct prof_rec *r = &recs[order[oi].i];
		unsigned pid = pid_of(r, ti);
		struct lane *l = NULL;
		unsigned count = 0;
		for (size_t k = 0; k < nlanes && l == NULL; k++) {
			if (lanes[k].stream != r->stream || lanes[k].pid != pid)
				continue;
			count++;
			if (lanes[k].end <= r->start_ns)
				l = &lanes[k];
		}
		if (l == NULL) {
			l = VEC_PUSH(lanes, nlanes, caplanes);
			l->pid = pid;
			l->stream = r->stream;
			l->lane = count;
			l->tid = (unsigned)nlanes;  /* 0 is the launches track */
		}
		if (r->end_ns > l->end)
			l->end = r->end_ns;
		tid[order[oi].i] = l->tid;
	}
	free(order);

	fputs("{\"displayTimeUnit\": \"ns\", \"otherData\": {\"graph\": ", out);
	json_string(out, ti->graph);
	fputs("},\n\"traceEvents\": [\n", out);
	if (ti->ndevices > 1)
		for (size_t k = 0; k < ti->ndevices; k++)
			put_process(out, 1 + (unsigned)k, ti->devices[k].ordinal,
				    ti->devices[k].name, (long)k);
	else
		put_process(out, 1, ti->device, ti->device_name, -1);
	fputs(",\n{\"ph\": \"M\", \"cat\": \"__metadata\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": 0, "
	      "\"args\": {\"name\": \"launches\"}}", out);
	for (size_t k = 0; k < nlanes; k++) {
		if (lanes[k].lane)
			fprintf(out, ",\n{\"ph\": \"M\", \"cat\": \"__metadata\", \"name\": \"thread_name\", \"pid\": %u, "
				"\"tid\": %u, \"args\": {\"name\": \"stream %u (%u)\"}}",
				lanes[k].pid, lanes[k].tid, lanes[k].stream, lanes[k].lane + 1);
		else
			fprintf(out, ",\n{\"ph\": \"M\", \"cat\": \"__metadata\", \"name\": \"thread_name\", \"pid\": %u, "
				"\"tid\": %u, \"args\": {\"name\": \"stream %u\"}}",
				lanes[k].pid, lanes[k].tid, lanes[k].stream);
		fprintf(out, ",\n{\"ph\": \"M\", \"cat\": \"__metadata\", \"name\": \"thread_sort_index\", \"pid\": %u, "
			"\"tid\": %u, \"args\": {\"sort_index\": %u}}", lanes[k].pid, lanes[k].tid,
			lanes[k].tid);
	}
	/* each launch, from its first start to its last end */
	for (size_t i = 0; i < n;) {
		size_t j = i;
		uint64_t a = recs[i].start_ns, b = recs[i].end_ns;
		for (; j < n && recs[j].launch == recs[i].launch; j++) {
			if (recs[j].start_ns < a)
				a = recs[j].start_ns;
			if (recs[j].end_ns > b)
				b = recs[j].end_ns;
		}
		fprintf(out, ",\n{\"ph\": \"X\", \"name\": \"launch %u\", \"cat\": \"launch\", "
			"\"pid\": 1, \"tid\": 0, \"ts\": %.3f, \"dur\": %.3f, "
			"\"args\": {\"launch\": %u, \"records\": %zu}}", recs[i].launch + 1,
			us(a, t0), b > a ? (double)(b - a) * 1e-3 : 0.0, recs[i].launch + 1, j - i);
		i = j;
	}
	for (size_t i = 0; i < n; i++) {
		const struct prof_rec *r = &recs[i];
		fputs(",\n{\"ph\": \"X\", \"name\": ", out);
		json_string(out, r->node ? r->node->id : r->name ? r->name :
				 prof_kind_names[r->kind]);
		fprintf(out, ", \"cat\": \"%s\", \"pid\": %u, \"tid\": %u, \"ts\": %.3f, "
			"\"dur\": %.3f, \"args\": {\"launch\": %u, \"node_kind\": ",
			prof_kind_names[r->kind], pid_of(r, ti), tid[i], us(r->start_ns, t0),
			r->end_ns > r->start_ns ? (double)(r->end_ns - r->start_ns) * 1e-3 : 0.0,
			r->launch + 1);
		json_string(out, r->node ? node_kind_names[r->node->kind] : NULL);
		fprintf(out, ", \"stream\": %u", r->stream);
		if (ti->ndevices > 1)
			fprintf(out, ", \"gpu\": %u", r->device);
		if (r->kind == PROF_KERNEL) {
			put_dims(out, "grid", r->grid);
			put_dims(out, "block", r->block);
			fputs(", \"kernel\": ", out);
			json_string(out, r->name);
		} else {
			fprintf(out, ", \"bytes\": %llu", (unsigned long long)r->bytes);
		}
		fputs("}}", out);
	}
	fputs("\n]}\n", out);
	free(tid);
	free(lanes);
	return fflush(out) != 0 || ferror(out) ? -1 : 0;
}
