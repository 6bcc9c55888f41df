/*
 * --self-check (compare_self.h).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_self.h"
#include "diag.h"
#include "fileio.h"
#include "json.h"
#include "report.h"
#include "xmalloc.h"

/* P(X <= k) for X binomial(n, p). */
static double binom_cdf(size_t k, size_t n, double p)
{
	if (p <= 0)
		return 1;
	if (p >= 1)
		return k >= n ? 1 : 0;
	double sum = 0;
	for (size_t i = 0; i <= k && i <= n; i++)
		sum += exp(lgamma((double)n + 1) - lgamma((double)i + 1) -
			   lgamma((double)(n - i) + 1) + (double)i * log(p) +
			   (double)(n - i) * log1p(-p));
	return sum;
}

double rate_upper_95(size_t k, size_t n)
{
	if (n == 0)
		return NAN;
	if (k >= n)
		return 1;
	/* the p at which seeing k or fewer has 5% chance: binom_cdf falls as p grows */
	double lo = (double)k / (double)n, hi = 1;
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;
		if (binom_cdf(k, n, mid) > 0.05)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/* One point's comparisons, and the tally of them all. */
struct tally {
	size_t n;                       /* comparisons judged */
	size_t counts[VERDICT_COUNT];
	size_t doubts[DOUBT_COUNT];
	size_t apart;                   /* comparisons of too few launches */
};

struct point_self {
	const char *file, *label;
	size_t procs;
	struct tally t;
};

static void tally_add(struct tally *t, const struct judgement *j)
{
	if (j->doubt == DOUBT_FEW_LAUNCHES || j->doubt == DOUBT_NO_LAUNCHES) {
		t->apart++;
		return;
	}
	t->n++;
	t->counts[j->verdict]++;
	t->doubts[j->doubt]++;
}

static void tally_sum(struct tally *to, const struct tally *t)
{
	to->n += t->n;
	to->apart += t->apart;
	for (int v = 0; v < VERDICT_COUNT; v++)
		to->counts[v] += t->counts[v];
	for (int w = 0; w < DOUBT_COUNT; w++)
		to->doubts[w] += t->doubts[w];
}

/* Every point's disjoint A/A comparisons: its processes cut into groups of b + m. */
static void self_point(const struct cmp_point *p, double threshold, struct tally *t)
{
	const size_t b = COMPARE_BASE_PROCESSES, m = COMPARE_NEW_PROCESSES;
	for (size_t g = 0; (g + 1) * (b + m) <= p->nprocs; g++) {
		const struct proc_fig *base = p->procs + g * (b + m);
		struct judgement j;
		compare_judge(base, b, base + b, m, threshold, &j);
		tally_add(t, &j);
	}
}

static size_t false_verdicts(const struct tally *t)
{
	return t->counts[VERDICT_SLOWER] + t->counts[VERDICT_FASTER];
}

static void print_text(FILE *out, const char *file, const struct point_self *ps, size_t np,
		       const struct tally *all, size_t short_points)
{
	double pct = all->n ? 100.0 / (double)all->n : 0;
	fprintf(out, "%s\n  %-12s %zu A/A comparisons, %d base processes against %d, disjoint, "
		"from %zu point%s\n", diag_esc(file), "self-check", all->n, COMPARE_BASE_PROCESSES,
		COMPARE_NEW_PROCESSES, np, np == 1 ? "" : "s");
	fprintf(out, "  %-12s %zu (%.1f%%)\n", "same", all->counts[VERDICT_SAME],
		(double)all->counts[VERDICT_SAME] * pct);
	fprintf(out, "  %-12s %zu (%.1f%%)", "uncertain", all->counts[VERDICT_UNCERTAIN],
		(double)all->counts[VERDICT_UNCERTAIN] * pct);
	const char *sep = ": ";
	for (int w = 1; w < DOUBT_COUNT; w++)
		if (all->doubts[w]) {
			fprintf(out, "%s%zu %s", sep, all->doubts[w], doubt_names[w]);
			sep = ", ";
		}
	fprintf(out, "\n  %-12s %zu\n  %-12s %zu\n", "faster", all->counts[VERDICT_FASTER],
		"slower", all->counts[VERDICT_SLOWER]);
	size_t f = false_verdicts(all);
	if (all->n)
		fprintf(out, "  %-12s %zu in %zu: at most %.2f per 1,000 (95%% upper bound)\n",
			"false", f, all->n, 1000 * rate_upper_95(f, all->n));
	if (all->apart)
		fprintf(out, "  %-12s %zu comparisons of processes with fewer than %d launches, "
			"counted apart\n", "apart", all->apart, COMPARE_MIN_LAUNCHES);
	if (short_points)
		fprintf(out, "  %-12s %zu points with fewer than %d processes: no comparison\n",
			"too few", short_points, COMPARE_BASE_PROCESSES + COMPARE_NEW_PROCESSES);
	for (size_t i = 0; i < np; i++) {
		const struct point_self *q = &ps[i];
		if (false_verdicts(&q->t) == 0 && q->t.counts[VERDICT_UNCERTAIN] == 0)
			continue;
		fprintf(out, "  %-12s %s%s%s%s: %zu same, %zu uncertain, %zu faster, %zu slower\n",
			"", diag_esc(q->file), q->label ? "[" : "", q->label ? diag_esc(q->label) : "",
			q->label ? "]" : "", q->t.counts[VERDICT_SAME], q->t.counts[VERDICT_UNCERTAIN],
			q->t.counts[VERDICT_FASTER], q->t.counts[VERDICT_SLOWER]);
	}
}

static void tally_json(FILE *out, const struct tally *t)
{
	fprintf(out, "{\"comparisons\": %zu", t->n);
	for (int v = 0; v < VERDICT_COUNT; v++)
		fprintf(out, ", \"%s\": %zu", verdict_names[v], t->counts[v]);
	fprintf(out, ", \"apart\": %zu, \"uncertain_because\": {", t->apart);
	const char *sep = "";
	for (int w = 1; w < DOUBT_COUNT; w++) {
		fprintf(out, "%s\"%s\": %zu", sep, doubt_names[w], t->doubts[w]);
		sep = ", ";
	}
	fputs("}}", out);
}

static int write_json(const char *path, const char *file, double threshold,
		      const struct point_self *ps, size_t np, const struct tally *all)
{
	FILE *out = output_open(path);
	if (out == NULL)
		return 2;
	size_t f = false_verdicts(all);
	fprintf(out, "{\n  \"cugraphrun\": \"%s\",\n  \"report_format\": %d,\n  \"self_check\": "
		"{\n    \"report\": ", PACKAGE_VERSION, REPORT_FORMAT);
	json_string(out, file);
	fprintf(out, ",\n    \"base_processes\": %d,\n    \"processes\": %d,\n    "
		"\"threshold_percent\": ", COMPARE_BASE_PROCESSES, COMPARE_NEW_PROCESSES);
	json_number(out, threshold * 100);
	fputs(",\n    \"total\": ", out);
	tally_json(out, all);
	fprintf(out, ",\n    \"false_verdicts\": %zu,\n    \"false_per_1000\": ", f);
	json_number(out, all->n ? 1000.0 * (double)f / (double)all->n : NAN);
	fputs(",\n    \"false_per_1000_upper_95\": ", out);
	json_number(out, 1000 * rate_upper_95(f, all->n));
	fputs(",\n    \"points\": [", out);
	for (size_t i = 0; i < np; i++) {
		fprintf(out, "%s\n      {\"file\": ", i ? "," : "");
		json_string(out, ps[i].file);
		fputs(", \"point\": ", out);
		json_string(out, ps[i].label);
		fprintf(out, ", \"processes\": %zu, \"tally\": ", ps[i].procs);
		tally_json(out, &ps[i].t);
		fputc('}', out);
	}
	fputs(np ? "\n    ]\n  }\n}\n" : "]\n  }\n}\n", out);
	return output_close(out, path, OUTPUT_OK) == 0 ? 0 : 2;
}

int compare_self_main(const struct options *o)
{
	struct diag d;
	diag_init(&d, o->file, stderr);
	struct cmp_doc *doc = cmp_doc_read(o->file, &d);
	diag_finish(&d);
	if (doc == NULL)
		return 2;
	size_t np = 0, short_points = 0;
	for (size_t i = 0; i < doc->nfiles; i++)
		np += doc->files[i].npoints;
	struct point_self *ps = xcalloc(np ? np : 1, sizeof *ps);
	struct tally all = {0};
	size_t k = 0;
	for (size_t i = 0; i < doc->nfiles; i++)
		for (size_t j = 0; j < doc->files[i].npoints; j++) {
			const struct cmp_point *p = &doc->files[i].points[j];
			ps[k] = (struct point_self){.file = doc->files[i].file, .label = p->label,
						    .procs = p->nprocs};
			self_point(p, o->compare_threshold, &ps[k].t);
			short_points += p->nprocs < COMPARE_BASE_PROCESSES + COMPARE_NEW_PROCESSES;
			tally_sum(&all, &ps[k].t);
			k++;
		}
	int status = 0;
	if (all.n + all.apart == 0) {
		errorx("--self-check: %s has no point of %d processes or more, the least one A/A "
		       "comparison takes: record it with --processes=%d or more", o->file,
		       COMPARE_BASE_PROCESSES + COMPARE_NEW_PROCESSES,
		       10 * (COMPARE_BASE_PROCESSES + COMPARE_NEW_PROCESSES));
		status = 2;
	} else {
		if (o->verbosity > VERB_QUIET && !o->stdout_output)
			print_text(stdout, o->file, ps, np, &all, short_points);
		if (o->json && write_json(o->json_file, o->file, o->compare_threshold, ps, np,
					  &all) != 0)
			status = 2;
	}
	free(ps);
	cmp_doc_free(doc);
	return status;
}
