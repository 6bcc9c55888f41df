/*
 * The report's points (report_points.h).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "json.h"
#include "report_points.h"
#include "report_table.h"
#include "scalar.h"
#include "stats.h"

static const char *const prep_names[] = {
	[PREP_INSTANTIATE] = "instantiate",
	[PREP_UPDATE] = "update",
	[PREP_SAME] = "same",
};

void report_launch_json(FILE *out, const struct point_report *p, unsigned warmup, int depth)
{
	static const char *const keys[] = {"median_s", "min_s", "mean_s", "max_s", "stddev_s"};
	struct stats st;
	stats_compute(p->samples, p->nsamples, &st);
	const double values[] = {st.median, st.min, st.mean, st.max, st.stddev};
	fputc('{', out);
	json_key(out, depth + 1, true, "repeat");
	fprintf(out, "%zu", p->nsamples);
	json_key(out, depth + 1, false, "warmup");
	fprintf(out, "%u", warmup);
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		json_key(out, depth + 1, false, keys[i]);
		json_number(out, p->nsamples ? values[i] : NAN);
	}
	json_key(out, depth + 1, false, "samples_s");
	putc('[', out);
	for (size_t i = 0; i < p->nsamples; i++) {
		if (i)
			fputs(", ", out);
		json_number(out, p->samples[i]);
	}
	fputc(']', out);
	fprintf(out, "\n%*s}", 2 * depth, "");
}

void report_processes_json(FILE *out, const struct report *r, size_t k, int depth)
{
	size_t n;
	const struct proc_record *recs = proc_records_of(r->procs, r->nprocs, (uint32_t)k, &n);
	proc_records_json(out, recs, n, depth);
}

void report_print_processes(FILE *out, const struct report *r)
{
	if (r->nprocs == 0)
		return;
	const struct point_report *plain = report_plain_point(r);
	size_t n;
	const struct proc_record *recs = proc_records_of(r->procs, r->nprocs, 0, &n);
	if (plain) {
		fprintf(out, "  %-12s ", n == 1 ? "process" : "processes");
		proc_records_print(out, recs, n);
		fputc('\n', out);
		return;
	}
	/* a sweep: how many a point, and their clocks over every point */
	size_t most = 0;
	for (size_t k = 0; k < r->npoints; k++) {
		proc_records_of(r->procs, r->nprocs, (uint32_t)k, &n);
		most = n > most ? n : most;
	}
	if (most > 1)
		fprintf(out, "  %-12s %zu a point, ", "processes", most);
	else
		fprintf(out, "  %-12s ", "process");
	proc_records_print_clock(out, r->procs, r->nprocs);
	fputs(most > 1 ? "\n" : " over the points\n", out);
}

void report_points_json(FILE *out, const struct report *r, double peak_gb_per_s)
{
	fputc('[', out);
	for (size_t k = 0; k < r->npoints; k++) {
		const struct point_report *p = &r->points[k];
		fprintf(out, "%s\n    {", k ? "," : "");
		json_key(out, 3, true, "label");
		json_string(out, p->label);
		json_key(out, 3, false, "axes");
		fputc('{', out);
		for (size_t a = 0; a < p->naxes; a++) {
			json_key(out, 4, a == 0, p->axes[a].name);
			json_string(out, p->axes[a].text);
		}
		fputs(p->naxes ? "\n      }" : "}", out);
		json_key(out, 3, false, "prepare");
		fputc('{', out);
		json_key(out, 4, true, "kind");
		json_string(out, prep_names[p->prep]);
		json_key(out, 4, false, "seconds");
		json_number(out, p->prep_s);
		json_key(out, 4, false, "evaluate_s");
		json_number(out, p->eval_s);
		json_key(out, 4, false, "reason");
		json_string(out, p->rebuild_why);
		json_key(out, 4, false, "updated_nodes");
		fprintf(out, "%u", p->updated_nodes);
		fputs("\n      }", out);
		json_key(out, 3, false, "first_launch_s");
		json_number(out, p->first_launch_s);
		json_key(out, 3, false, "launch");
		report_launch_json(out, p, r->warmup, 3);
		json_key(out, 3, false, "processes");
		report_processes_json(out, r, k, 3);
		json_key(out, 3, false, "checks");
		fprintf(out, "{\"passed\": %u, \"failed\": %u}", p->checks_passed, p->checks_failed);
		json_key(out, 3, false, "throughput");
		throughput_json(out, p->bytes, p->items, p->samples, p->nsamples, peak_gb_per_s, 3);
		json_key(out, 3, false, "flops");
		struct stats fst;
		stats_compute(p->samples, p->nsamples, &fst);
		flops_json(out, &p->flops, p->nsamples ? fst.median : NAN, 3);
		json_key(out, 3, false, "exit_status");
		fprintf(out, "%d", p->exit_status);
		fputs("\n    }", out);
	}
	fputs(r->npoints ? "\n  ]" : "]", out);
}
