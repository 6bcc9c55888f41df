/*
 * One process's record (proc_record.h).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "fileio.h"
#include "json.h"
#include "proc_record.h"
#include "scalar.h"
#include "stats.h"
#include "stop_rule.h"
#include "xmalloc.h"

void proc_record_figures(struct proc_record *rec, const double *samples, size_t n)
{
	rec->launches = (uint32_t)n;
	double *s = stats_sorted(samples, n);
	rec->median_s = stats_quantile(s, n, 0.5);
	rec->p10_s = stats_quantile(s, n, 0.1);
	rec->iqr_s = stats_quantile(s, n, 0.75) - stats_quantile(s, n, 0.25);
	rec->precision = median_precision(s, n);
	free(s);
}

double proc_record_clock(const struct proc_record *rec)
{
	double a = rec->clock_before_mhz, b = rec->clock_after_mhz;
	if (isnan(a))
		return b;
	return isnan(b) ? a : (a + b) / 2;
}

void proc_record_uuid_text(const struct proc_record *rec, char *buf, size_t len)
{
	const uint8_t *u = rec->uuid;
	snprintf(buf, len, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7],
		 u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

/* One record as one line: {"pid": ..., ...}. */
static void record_json(FILE *out, const struct proc_record *r)
{
	fprintf(out, "{\"pid\": %d, \"launches\": %u, \"stopped_by\": ", (int)r->pid, r->launches);
	json_string(out, r->stopped_by < STOP_REASON_COUNT ? stop_reason_names[r->stopped_by] :
		    NULL);
	const char *const keys[] = {
		"precision_percent", "median_s", "p10_s", "iqr_s", "sm_clock_mhz",
		"sm_clock_before_mhz", "sm_clock_after_mhz",
	};
	const double values[] = {
		100 * r->precision, r->median_s, r->p10_s, r->iqr_s, proc_record_clock(r),
		r->clock_before_mhz, r->clock_after_mhz,
	};
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		fprintf(out, ", \"%s\": ", keys[i]);
		json_number(out, values[i]);
	}
	fputs(", \"gpu_uuid\": ", out);
	char uuid[48];
	proc_record_uuid_text(r, uuid, sizeof uuid);
	json_string(out, r->has_uuid ? uuid : NULL);
	fprintf(out, ", \"driver_version\": %d}", (int)r->driver_version);
}

void proc_records_json(FILE *out, const struct proc_record *recs, size_t n, int depth)
{
	fputc('[', out);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s\n%*s", i ? "," : "", 2 * (depth + 1), "");
		record_json(out, &recs[i]);
	}
	if (n)
		fprintf(out, "\n%*s", 2 * depth, "");
	fputc(']', out);
}

/* The lowest and highest of a figure over the records, NaN ones left out; false without any. */
static bool span_of(const struct proc_record *recs, size_t n,
		    double (*fig)(const struct proc_record *), double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		double v = fig(&recs[i]);
		if (isnan(v))
			continue;
		*lo = fmin(*lo, v);
		*hi = fmax(*hi, v);
	}
	return *lo <= *hi;
}

static double median_of(const struct proc_record *r)
{
	return r->median_s;
}

void proc_records_print_clock(FILE *out, const struct proc_record *recs, size_t n)
{
	double lo, hi;
	if (!span_of(recs, n, proc_record_clock, &lo, &hi))
		fputs("SM clock not measured", out);
	else if (lround(lo) == lround(hi))
		fprintf(out, "SM clock %.0f MHz", lo);
	else
		fprintf(out, "SM clock %.0f-%.0f MHz", lo, hi);
}

/* One process: how well its median is known, and what stopped its launches. */
static void print_precision(FILE *out, const struct proc_record *r)
{
	static const char *const why[STOP_REASON_COUNT] = {
		[STOP_COUNT] = " over the launches asked for",
		[STOP_PRECISION] = ": precise enough",
		[STOP_TIME] = " when the launches' time was up",
		[STOP_LIMIT] = " at the most launches a process makes",
	};
	if (isnan(r->precision))
		fputs(", too few launches for the median's 95% interval", out);
	else
		fprintf(out, ", median within %.2f%% (95%%)%s", 100 * r->precision,
			r->stopped_by < STOP_REASON_COUNT ? why[r->stopped_by] : "");
}

void proc_records_range(const struct proc_record *recs, size_t n, char *buf, size_t len)
{
	double lo, hi, scale;
	int prec;
	char a[32];
	if (!span_of(recs, n, median_of, &lo, &hi)) {
		snprintf(buf, len, "-");
		return;
	}
	format_duration_scaled(hi, a, sizeof a, &scale, &prec);
	snprintf(buf, len, "%.*f-%s", prec, lo / scale, a);
}

/* One process's clock: "SM clock 1980 MHz", or "SM clock 1980 MHz before, 1965 after". */
static void print_one_clock(FILE *out, const struct proc_record *r)
{
	double a = r->clock_before_mhz, b = r->clock_after_mhz;
	if (!isnan(a) && !isnan(b) && lround(a) != lround(b))
		fprintf(out, "SM clock %.0f MHz before, %.0f after", a, b);
	else
		proc_records_print_clock(out, r, 1);
}

void proc_records_print(FILE *out, const struct proc_record *recs, size_t n)
{
	if (n == 1) {
		print_one_clock(out, recs);
		print_precision(out, recs);
		return;
	}
	double *m = xcalloc(n ? n : 1, sizeof *m);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(recs[i].median_s))
			m[k++] = recs[i].median_s;
	stats_sort(m, k);
	char med[32], range[64];
	format_duration(stats_quantile(m, k, 0.5), med, sizeof med);
	proc_records_range(recs, n, range, sizeof range);
	free(m);
	fprintf(out, "median %s (%zu processes: %s), ", k ? med : "-", n, range);
	proc_records_print_clock(out, recs, n);
}

const struct proc_record *proc_records_of(const struct proc_record *all, size_t nall,
					  uint32_t k, size_t *n)
{
	size_t i = 0;
	while (i < nall && all[i].point < k)
		i++;
	size_t j = i;
	while (j < nall && all[j].point == k)
		j++;
	*n = j - i;
	return all + i;
}

/* By point; qsort is not stable, so the index breaks ties in the order given. */
struct keyed {
	struct proc_record r;
	size_t at;
};

static int by_point(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	if (x->r.point != y->r.point)
		return x->r.point < y->r.point ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

struct proc_record *proc_records_merge(const struct proc_record *prior, size_t nprior,
				       const struct proc_record *own, size_t nown, size_t *n)
{
	*n = nprior + nown;
	struct keyed *k = xcalloc(*n ? *n : 1, sizeof *k);
	for (size_t i = 0; i < *n; i++)
		k[i] = (struct keyed){i < nprior ? prior[i] : own[i - nprior], i};
	qsort(k, *n, sizeof *k, by_point);
	struct proc_record *out = xcalloc(*n ? *n : 1, sizeof *out);
	for (size_t i = 0; i < *n; i++)
		out[i] = k[i].r;
	free(k);
	return out;
}

int proc_records_append(const char *path, const struct proc_record *recs, size_t n)
{
	FILE *f = fopen(path, "ab");
	bool ok = f != NULL && fwrite(recs, sizeof *recs, n, f) == n;
	int e = errno;
	if (f != NULL && fclose(f) != 0 && ok) {
		ok = false;
		e = errno;
	}
	if (!ok)
		errorx("cannot keep this process's timings in %s: %s", path, strerror(e));
	return ok ? 0 : -1;
}

int proc_records_read(const char *path, struct proc_record **recs, size_t *n)
{
	*recs = NULL;
	*n = 0;
	size_t len = 0;
	errno = 0;
	char *bytes = read_whole_file(path, &len);
	if (bytes == NULL && errno == ENOENT)
		return 0;
	if (bytes == NULL || len % sizeof **recs != 0) {
		errorx("cannot read the earlier processes' timings from %s: %s", path,
		       bytes ? "a record is cut short" : strerror(errno));
		free(bytes);
		return -1;
	}
	*n = len / sizeof **recs;
	*recs = xcalloc(*n ? *n : 1, sizeof **recs);
	memcpy(*recs, bytes, len);
	free(bytes);
	return 0;
}
