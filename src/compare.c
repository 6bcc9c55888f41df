/*
 * --compare (compare.h): the bootstrap, matching two reports, and the
 * comparison's table and JSON.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "diag.h"
#include "json.h"
#include "rng.h"
#include "scalar.h"
#include "stats.h"
#include "xmalloc.h"

const char *const verdict_words[VERDICT_COUNT] = {
	[VERDICT_SAME] = "SAME", [VERDICT_FASTER] = "FASTER",
	[VERDICT_UNCERTAIN] = "UNCERTAIN", [VERDICT_SLOWER] = "SLOWER",
};

const char *const verdict_names[VERDICT_COUNT] = {
	[VERDICT_SAME] = "same", [VERDICT_FASTER] = "faster",
	[VERDICT_UNCERTAIN] = "uncertain", [VERDICT_SLOWER] = "slower",
};

const char *const doubt_names[DOUBT_COUNT] = {
	[DOUBT_NONE] = NULL, [DOUBT_NO_LAUNCHES] = "no_launches",
	[DOUBT_FEW_LAUNCHES] = "few_launches", [DOUBT_STRADDLES] = "straddles",
	[DOUBT_FLOORS_AGREE] = "floors_agree",
};

/* The bootstrap ------------------------------------------------------------ */

/* Uniform in [0, n): 53 random bits scaled; the bias is below n / 2^53. */
static size_t rng_below(struct rng *r, size_t n)
{
	size_t i = (size_t)((double)(rng_next(r) >> 11) * 0x1.0p-53 * (double)n);
	return i < n ? i : n - 1;
}

/*
 * The median of n draws with replacement from sorted[0..n): which indices
 * were drawn how often (counts), then the middle order statistics by a
 * walk over the counts, with no sort per resample.
 */
static double resampled_median(struct rng *r, const double *sorted, size_t n, uint32_t *counts)
{
	memset(counts, 0, n * sizeof *counts);
	for (size_t i = 0; i < n; i++)
		counts[rng_below(r, n)]++;
	size_t lo_rank = (n - 1) / 2, hi_rank = n / 2, seen = 0;
	double lo = 0;
	bool have_lo = false;
	for (size_t j = 0; j < n; j++) {
		seen += counts[j];
		if (!have_lo && seen > lo_rank) {
			lo = sorted[j];
			have_lo = true;
		}
		if (seen > hi_rank)
			return (lo + sorted[j]) / 2;
	}
	return lo;      /* not reached: the counts add up to n */
}

void bootstrap_ratio(const double *base, size_t nbase, const double *cur, size_t ncur,
		     unsigned resamples, uint64_t seed, struct ratio_interval *out)
{
	out->ratio = out->low = out->high = NAN;
	if (nbase == 0 || ncur == 0 || resamples == 0)
		return;
	struct stats sa, sb;
	stats_compute(base, nbase, &sa);
	stats_compute(cur, ncur, &sb);
	if (!(sa.median > 0) || !(sb.median >= 0))
		return;
	out->ratio = sb.median / sa.median;
	double *a = stats_sorted(base, nbase), *b = stats_sorted(cur, ncur);
	uint32_t *counts = xmalloc((nbase > ncur ? nbase : ncur) * sizeof *counts);
	double *ratios = xmalloc(resamples * sizeof *ratios);
	struct rng r;
	rng_seed(&r, seed);
	unsigned n = 0;
	for (unsigned i = 0; i < resamples; i++) {
		double ma = resampled_median(&r, a, nbase, counts);
		double mb = resampled_median(&r, b, ncur, counts);
		/* a base resample of all zeros has no ratio; leave it out */
		if (ma > 0)
			ratios[n++] = mb / ma;
	}
	if (n > 0) {
		stats_sort(ratios, n);
		size_t lo = (size_t)floor(0.025 * n), hi = (size_t)ceil(0.975 * n);
		out->low = ratios[lo];
		out->high = ratios[hi > 0 ? hi - 1 : 0];
	} else {
		out->ratio = NAN;
	}
	free(a);
	free(b);
	free(counts);
	free(ratios);
}

enum verdict verdict_of(const struct ratio_interval *iv, double t)
{
	if (isnan(iv->ratio) || isnan(iv->low) || isnan(iv->high))
		return VERDICT_UNCERTAIN;
	if (iv->low >= 1 - t && iv->high <= 1 + t)
		return VERDICT_SAME;
	if (iv->low > 1 + t)
		return VERDICT_SLOWER;
	if (iv->high < 1 - t)
		return VERDICT_FASTER;
	return VERDICT_UNCERTAIN;
}

enum verdict verdict_judge(const struct ratio_interval *iv, double floor_ratio, size_t nbase,
			   size_t n, double t, enum doubt *why)
{
	enum verdict v = verdict_of(iv, t);
	*why = DOUBT_NONE;
	if (n == 0 || nbase == 0)
		*why = DOUBT_NO_LAUNCHES;
	else if (n < COMPARE_MIN_SAMPLES || nbase < COMPARE_MIN_SAMPLES)
		*why = DOUBT_FEW_LAUNCHES;
	else if (v == VERDICT_UNCERTAIN)
		*why = DOUBT_STRADDLES;
	else if ((v == VERDICT_SLOWER && !(floor_ratio > 1 + t)) ||
		 (v == VERDICT_FASTER && !(floor_ratio < 1 - t)))
		*why = DOUBT_FLOORS_AGREE;
	return *why == DOUBT_NONE ? v : VERDICT_UNCERTAIN;
}

double compare_floor(const double *v, size_t n)
{
	if (n == 0)
		return NAN;
	double *s = stats_sorted(v, n);
	double f = s[(size_t)floor(0.1 * (double)(n - 1))];
	free(s);
	return f;
}

/* v rounded up to two significant digits: 437 -> 440, 1234 -> 1300. */
static uint32_t round_up_2(double v)
{
	double scale = 1;
	while (v / scale >= 100)
		scale *= 10;
	return (uint32_t)(ceil(v / scale) * scale);
}

uint32_t settle_launches(const struct ratio_interval *iv, double t, size_t n)
{
	if (n == 0 || isnan(iv->ratio) || isnan(iv->low) || isnan(iv->high))
		return 0;
	double r = iv->ratio, factor;
	/* how many times narrower the interval must get, on the side that must move */
	if (r > 1 + t)
		factor = (r - iv->low) / (r - (1 + t));
	else if (r < 1 - t)
		factor = (iv->high - r) / ((1 - t) - r);
	else if (r - (1 - t) <= 0 || (1 + t) - r <= 0)
		return 0;
	else
		factor = fmax((r - iv->low) / (r - (1 - t)), (iv->high - r) / ((1 + t) - r));
	/* width ~ 1/sqrt(n); a quarter more for the interval's own noise */
	double want = (double)n * factor * factor * 1.25;
	if (!isfinite(want) || want > 100.0 * (double)n)
		return 0;
	uint32_t m = round_up_2(want);
	return m > n ? m : (uint32_t)n + 1;
}

/* Matching ------------------------------------------------------------------ */

/* "2^20", or a number strtod reads whole: its value in *v. */
bool axis_values_equal(const char *a, const char *b)
{
	double x, y;
	if (number_text(a, &x) && number_text(b, &y))
		return x == y;
	return strcmp(a, b) == 0;
}

/* The same axes, each with an equal value (in any order). */
static bool same_point(const struct cmp_point *a, const struct cmp_point *b)
{
	if (a->naxes != b->naxes)
		return false;
	for (size_t i = 0; i < a->naxes; i++) {
		size_t j = 0;
		while (j < b->naxes && strcmp(a->axes[i].name, b->axes[j].name) != 0)
			j++;
		if (j == b->naxes || !axis_values_equal(a->axes[i].text, b->axes[j].text))
			return false;
	}
	return true;
}

static char *point_name(const char *file, const char *label, bool with_file)
{
	if (!with_file)
		return xstrdup(label ? label : file);
	return label ? xasprintf("%s[%s]", file, label) : xstrdup(file);
}

static void add_entry(struct comparison *c, const char *file, const struct cmp_point *bp,
		      const struct cmp_point *p)
{
	struct cmp_entry *e = VEC_PUSH(c->entries, c->nentries, c->capentries);
	struct stats sa, sb;
	stats_compute(bp->samples, bp->nsamples, &sa);
	stats_compute(p->samples, p->nsamples, &sb);
	e->file = file;
	e->label = p->label;
	e->nbase = bp->nsamples;
	e->n = p->nsamples;
	e->base_median = bp->nsamples ? sa.median : NAN;
	e->median = p->nsamples ? sb.median : NAN;
	bootstrap_ratio(bp->samples, bp->nsamples, p->samples, p->nsamples, COMPARE_RESAMPLES,
			COMPARE_SEED, &e->iv);
	double noise = fmax(bp->nsamples > 1 && sa.median > 0 ? sa.stddev / sa.median : 0,
			    p->nsamples > 1 && sb.median > 0 ? sb.stddev / sb.median : 0);
	e->threshold = fmax(c->threshold, noise);
	double fb = compare_floor(bp->samples, bp->nsamples), fc = compare_floor(p->samples, p->nsamples);
	e->floor_ratio = fb > 0 ? fc / fb : NAN;
	e->verdict = verdict_judge(&e->iv, e->floor_ratio, e->nbase, e->n, e->threshold, &e->doubt);
	size_t n = e->n < e->nbase ? e->n : e->nbase;
	if (e->doubt == DOUBT_STRADDLES)
		e->settle = settle_launches(&e->iv, e->threshold, n);
	else if (e->doubt == DOUBT_FEW_LAUNCHES) {
		/* 0: the ratio sits at the threshold, and no count may settle it */
		uint32_t m = settle_launches(&e->iv, e->threshold, n);
		e->settle = m == 0 ? 0 : m > COMPARE_MIN_SAMPLES ? m : COMPARE_MIN_SAMPLES;
	} else
		e->settle = 0;
	c->counts[e->verdict]++;
}

/* One file of this run against its base file. */
static void compare_file(struct comparison *c, const struct cmp_file *bf,
			 const struct cmp_file *f, bool with_file)
{
	bool *used = xcalloc(bf->npoints ? bf->npoints : 1, sizeof *used);
	for (size_t i = 0; i < f->npoints; i++) {
		const struct cmp_point *p = &f->points[i];
		size_t j = 0;
		while (j < bf->npoints && (used[j] || !same_point(&bf->points[j], p)))
			j++;
		if (j == bf->npoints) {
			*VEC_PUSH(c->only_here, c->nonly_here, c->caponly_here) =
				point_name(f->file, p->label, with_file);
			continue;
		}
		used[j] = true;
		add_entry(c, f->file, &bf->points[j], p);
	}
	for (size_t j = 0; j < bf->npoints; j++)
		if (!used[j])
			*VEC_PUSH(c->only_base, c->nonly_base, c->caponly_base) =
				point_name(f->file, bf->points[j].label, with_file);
	free(used);
}

void compare_docs(const struct cmp_doc *base, const struct cmp_doc *cur, double threshold,
		  bool list_base_files, struct comparison *out)
{
	memset(out, 0, sizeof *out);
	out->base = base->path;
	out->threshold = threshold;
	/* names carry their file where either side holds more than one */
	bool with_file = cur->nfiles > 1 || cur->suite || base->nfiles > 1 || base->suite;
	bool one_to_one = base->nfiles == 1 && cur->nfiles == 1 && !base->suite && !cur->suite;
	bool *used = xcalloc(base->nfiles ? base->nfiles : 1, sizeof *used);
	for (size_t i = 0; i < cur->nfiles; i++) {
		const struct cmp_file *f = &cur->files[i];
		long at = cmp_doc_find(base, f->file);
		size_t j = at < 0 ? base->nfiles : (size_t)at;
		if (j == base->nfiles && one_to_one) {
			j = 0;
			out->note = xasprintf("%s is compared with the base's only file, %s",
					      f->file, base->files[0].file);
		}
		if (j < base->nfiles)
			used[j] = true;
		if (!f->has_report)
			continue;
		if (j == base->nfiles || !base->files[j].has_report) {
			*VEC_PUSH(out->only_here, out->nonly_here, out->caponly_here) =
				xstrdup(f->file);
			continue;
		}
		compare_file(out, &base->files[j], f, with_file);
	}
	for (size_t j = 0; list_base_files && j < base->nfiles; j++)
		if (!used[j])
			*VEC_PUSH(out->only_base, out->nonly_base, out->caponly_base) =
				xstrdup(base->files[j].file);
	free(used);
}

struct cmp_doc *cmp_doc_of_report(const struct report *r)
{
	struct cmp_doc *doc = xcalloc(1, sizeof *doc);
	doc->path = r->file;
	doc->nfiles = 1;
	struct cmp_file *f = arena_alloc(&doc->arena, sizeof *f);
	doc->files = f;
	f->file = r->file;
	f->has_report = true;
	f->name = r->name;
	f->peak_gb_per_s = r->peak_gb_per_s;
	const struct point_report *rows = report_rows(r, &f->npoints);
	struct cmp_point *pts = arena_alloc(&doc->arena, f->npoints * sizeof *pts);
	f->points = pts;
	for (size_t i = 0; i < f->npoints; i++)
		pts[i] = (struct cmp_point){
			rows[i].label, rows[i].axes, rows[i].naxes, rows[i].samples,
			rows[i].nsamples, rows[i].bytes, rows[i].items,
		};
	return doc;
}

int comparison_status(const struct comparison *c)
{
	return c->counts[VERDICT_SLOWER] ? EXIT_SLOWER : 0;
}

/* Output ---------------------------------------------------------------------- */

static void fmt_ratio(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f", v);
}

static void fmt_time(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		format_duration(v, buf, len);
}

/* s (malloc'd) with its control characters escaped, as a report line prints it. */
static char *escaped(char *s)
{
	const char *e = diag_esc(s);
	if (e == s)
		return s;
	char *copy = xstrdup(e);
	free(s);
	return copy;
}

void comparison_print(FILE *out, const struct comparison *c)
{
	/* the base's path, its files and labels are the user's: escaped (diag.h) */
	fprintf(out, "  %-12s with %s: bootstrap 95%% interval of the ratio of medians "
		"(this / base), threshold %g%%\n", "comparison", diag_esc(c->base),
		c->threshold * 100);
	if (c->note)
		fprintf(out, "  %-12s %s\n", "", diag_esc(c->note));
	/* the names: a label, a file, or a file with its label */
	size_t wname = strlen("point");
	char **names = xcalloc(c->nentries ? c->nentries : 1, sizeof *names);
	bool one_file = true;
	for (size_t i = 1; i < c->nentries; i++)
		one_file &= strcmp(c->entries[i].file, c->entries[0].file) == 0;
	for (size_t i = 0; i < c->nentries; i++) {
		names[i] = escaped(point_name(c->entries[i].file, c->entries[i].label, !one_file));
		if (strlen(names[i]) > wname)
			wname = strlen(names[i]);
	}
	if (c->nentries)
		fprintf(out, "  %-*s  %9s  %9s  %6s  %-13s  %s\n", (int)wname, "point", "base",
			"this", "ratio", "interval", "verdict");
	for (size_t i = 0; i < c->nentries; i++) {
		const struct cmp_entry *e = &c->entries[i];
		char bm[32], m[32], r[16], lo[16], hi[16], iv[40];
		fmt_time(e->base_median, bm, sizeof bm);
		fmt_time(e->median, m, sizeof m);
		fmt_ratio(e->iv.ratio, r, sizeof r);
		fmt_ratio(e->iv.low, lo, sizeof lo);
		fmt_ratio(e->iv.high, hi, sizeof hi);
		snprintf(iv, sizeof iv, "%s-%s", lo, hi);
		fprintf(out, "  %-*s  %9s  %9s  %6s  %-13s  %s", (int)wname, names[i], bm, m, r,
			isnan(e->iv.low) ? "-" : iv, verdict_words[e->verdict]);
		switch (e->doubt) {
		case DOUBT_NONE:
			break;
		case DOUBT_NO_LAUNCHES:
			fputs(": no timed launches to compare", out);
			break;
		case DOUBT_FEW_LAUNCHES:
			fprintf(out, ": fewer than %d launches in a run", COMPARE_MIN_SAMPLES);
			if (e->settle)
				fprintf(out, "; about -n %u in both would settle it", e->settle);
			else
				fprintf(out, "; -n %d or more in both, though the ratio is at the "
					"threshold", COMPARE_MIN_SAMPLES);
			break;
		case DOUBT_STRADDLES:
			if (e->settle)
				fprintf(out, ": about -n %u in both runs would settle it", e->settle);
			else
				fputs(": the ratio is at the threshold; more launches may not settle it",
				      out);
			break;
		case DOUBT_FLOORS_AGREE:
			if (isnan(e->floor_ratio))
				fputs(": the base's fastest tenth of the launches took no time, so "
				      "its floor says nothing; run both again", out);
			else if ((e->iv.ratio > 1) == (e->floor_ratio > 1))
				fprintf(out, ": the fastest tenth of the launches moved x%.3f only: "
					"the runs differ in mode, not in work; run both again",
					e->floor_ratio);
			else
				fprintf(out, ": the fastest tenth of the launches moved the other "
					"way, x%.3f: the runs differ in mode, not in work; run both "
					"again", e->floor_ratio);
			break;
		}
		if (e->threshold > c->threshold)
			fprintf(out, " (threshold %.3g%%: the runs' noise)", e->threshold * 100);
		fputc('\n', out);
		free(names[i]);
	}
	free(names);
	for (size_t i = 0; i < c->nonly_here; i++)
		fprintf(out, "  %-12s %s\n", i ? "" : "only here", diag_esc(c->only_here[i]));
	for (size_t i = 0; i < c->nonly_base; i++)
		fprintf(out, "  %-12s %s\n", i ? "" : "only in base", diag_esc(c->only_base[i]));
	if (c->nentries == 0)
		fprintf(out, "  %-12s nothing in common with the base\n", "");
	else
		fprintf(out, "  %-12s %u same, %u faster, %u slower, %u uncertain\n", "verdicts",
			c->counts[VERDICT_SAME], c->counts[VERDICT_FASTER],
			c->counts[VERDICT_SLOWER], c->counts[VERDICT_UNCERTAIN]);
}

static void json_list(FILE *out, char *const *v, size_t n)
{
	fputc('[', out);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputs(", ", out);
		json_string(out, v[i]);
	}
	fputc(']', out);
}

void comparison_json(FILE *out, const struct comparison *c, int depth)
{
	fputc('{', out);
	json_key(out, depth + 1, true, "base");
	json_string(out, c->base);
	json_key(out, depth + 1, false, "method");
	fprintf(out, "{\"statistic\": \"ratio of medians (this / base)\", \"interval\": "
		"\"bootstrap percentile\", \"confidence\": 0.95, \"resamples\": %u, "
		"\"seed\": \"0x%016llx\"}", COMPARE_RESAMPLES, (unsigned long long)COMPARE_SEED);
	json_key(out, depth + 1, false, "threshold_percent");
	json_number(out, c->threshold * 100);
	json_key(out, depth + 1, false, "note");
	json_string(out, c->note);
	json_key(out, depth + 1, false, "entries");
	fputc('[', out);
	for (size_t i = 0; i < c->nentries; i++) {
		const struct cmp_entry *e = &c->entries[i];
		fprintf(out, "%s\n%*s{\"file\": ", i ? "," : "", (depth + 2) * 2, "");
		json_string(out, e->file);
		fputs(", \"point\": ", out);
		json_string(out, e->label);
		const char *const keys[] = {"base_median_s", "median_s", "ratio", "low", "high"};
		const double values[] = {e->base_median, e->median, e->iv.ratio, e->iv.low,
					 e->iv.high};
		for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
			fprintf(out, ", \"%s\": ", keys[k]);
			json_number(out, values[k]);
		}
		fputs(", \"threshold_percent\": ", out);
		json_number(out, e->threshold * 100);
		fputs(", \"floor_ratio\": ", out);
		json_number(out, e->floor_ratio);
		fprintf(out, ", \"base_samples\": %zu, \"samples\": %zu, \"verdict\": \"%s\", "
			"\"uncertain_because\": ", e->nbase, e->n, verdict_names[e->verdict]);
		json_string(out, doubt_names[e->doubt]);
		fputs(", \"settle_repeat\": ", out);
		if (e->settle)
			fprintf(out, "%u}", e->settle);
		else
			fputs("null}", out);
	}
	if (c->nentries)
		fprintf(out, "\n%*s", (depth + 1) * 2, "");
	fputc(']', out);
	json_key(out, depth + 1, false, "only_here");
	json_list(out, c->only_here, c->nonly_here);
	json_key(out, depth + 1, false, "only_in_base");
	json_list(out, c->only_base, c->nonly_base);
	json_key(out, depth + 1, false, "counts");
	fputc('{', out);
	for (int v = 0; v < VERDICT_COUNT; v++)
		fprintf(out, "%s\"%s\": %u", v ? ", " : "", verdict_names[v], c->counts[v]);
	fputc('}', out);
	fprintf(out, "\n%*s}", depth * 2, "");
}

void comparison_say_slower(const struct comparison *c)
{
	for (size_t i = 0; i < c->nentries; i++) {
		const struct cmp_entry *e = &c->entries[i];
		if (e->verdict != VERDICT_SLOWER)
			continue;
		errorx("%s%s%s%s: SLOWER than %s: median x%.3f (95%% interval %.3f-%.3f, "
		       "threshold %.3g%%%s)", e->file, e->label ? "[" : "", e->label ? e->label : "",
		       e->label ? "]" : "", c->base, e->iv.ratio, e->iv.low, e->iv.high,
		       e->threshold * 100, e->threshold > c->threshold ? ": the runs' noise" : "");
	}
}

void comparison_free(struct comparison *c)
{
	for (size_t i = 0; i < c->nonly_here; i++)
		free(c->only_here[i]);
	for (size_t i = 0; i < c->nonly_base; i++)
		free(c->only_base[i]);
	free(c->only_here);
	free(c->only_base);
	free(c->entries);
	free(c->note);
	memset(c, 0, sizeof *c);
}
