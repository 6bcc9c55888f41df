/*
 * A sweep's table and CSV, and throughput (report_table.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "fileio.h"
#include "json.h"
#include "report_table.h"
#include "scalar.h"
#include "stats.h"
#include "xmalloc.h"

bool throughput_declared(double bytes, double items)
{
	return !isnan(bytes) || !isnan(items);
}

void throughput_of(double bytes, double items, double median_s, double peak_gb_per_s,
		   struct throughput *t)
{
	/* a median of 0 (no timed launch) has no rate: unknown, not infinite */
	bool timed = median_s > 0 && isfinite(median_s);
	t->gb_per_s = timed && !isnan(bytes) ? bytes / median_s / 1e9 : NAN;
	t->items_per_s = timed && !isnan(items) ? items / median_s : NAN;
	t->peak_percent = !isnan(t->gb_per_s) && peak_gb_per_s > 0 ?
		100 * t->gb_per_s / peak_gb_per_s : NAN;
}

void throughput_json(FILE *out, double bytes, double items, const double *samples, size_t n,
		     double peak_gb_per_s, int depth)
{
	if (!throughput_declared(bytes, items)) {
		fputs("null", out);
		return;
	}
	struct stats st;
	stats_compute(samples, n, &st);
	struct throughput t;
	throughput_of(bytes, items, n ? st.median : NAN, peak_gb_per_s, &t);
	const char *const keys[] = {"bytes", "items", "gb_per_s", "items_per_s", "peak_percent"};
	const double values[] = {bytes, items, t.gb_per_s, t.items_per_s, t.peak_percent};
	fputc('{', out);
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		json_key(out, depth + 1, i == 0, keys[i]);
		json_number(out, values[i]);
	}
	fprintf(out, "\n%*s}", 2 * depth, "");
}

int format_si(double v, char *buf, size_t len)
{
	static const char prefixes[] = " kMGTP";
	if (isnan(v))
		return snprintf(buf, len, "-");
	size_t p = 0;
	/* 999.5 rounds to 1000 at three digits: that is 1.00 k */
	while (p + 1 < sizeof prefixes - 1 && fabs(v) >= 999.5)
		v /= 1000, p++;
	int prec = fabs(v) >= 99.95 ? 0 : fabs(v) >= 9.995 ? 1 : 2;
	if (p == 0)
		return snprintf(buf, len, "%.*f", prec, v);
	return snprintf(buf, len, "%.*f %c", prec, v, prefixes[p]);
}

/* "12.3": GB/s with three significant digits; "-" for NaN. */
static int format_rate(double v, char *buf, size_t len)
{
	if (isnan(v))
		return snprintf(buf, len, "-");
	int prec = fabs(v) >= 99.95 ? 0 : fabs(v) >= 9.995 ? 1 : 2;
	return snprintf(buf, len, "%.*f", prec, v);
}

/*
 * The point's value of the axis that is the first point's at, or "" when
 * it has none: looked for at at first, where a sweep's points all have it
 * (a search per cell made a table of many axes quadratic in them).
 */
static const char *axis_text(const struct point_report *p, const struct point_report *first,
			     size_t at)
{
	const char *name = first->axes[at].name;
	if (at < p->naxes && strcmp(p->axes[at].name, name) == 0)
		return p->axes[at].text;
	for (size_t i = 0; i < p->naxes; i++)
		if (strcmp(p->axes[i].name, name) == 0)
			return p->axes[i].text;
	return "";
}

static bool any_throughput(const struct report *r)
{
	for (size_t i = 0; i < r->npoints; i++)
		if (throughput_declared(r->points[i].bytes, r->points[i].items))
			return true;
	return false;
}

/* The table as cells: rows of ncols strings, row 0 the header; right: per column. */
struct grid {
	char **cells;
	size_t ncols, nrows;
	bool *right;
};

static char **grid_row(struct grid *g, size_t row)
{
	return g->cells + row * g->ncols;
}

static void grid_print(FILE *out, const struct grid *g)
{
	size_t *width = xcalloc(g->ncols, sizeof *width);
	for (size_t r = 0; r < g->nrows; r++)
		for (size_t c = 0; c < g->ncols; c++) {
			size_t w = strlen(g->cells[r * g->ncols + c]);
			if (w > width[c])
				width[c] = w;
		}
	for (size_t r = 0; r < g->nrows; r++) {
		fputs("  ", out);
		for (size_t c = 0; c < g->ncols; c++) {
			const char *s = g->cells[r * g->ncols + c];
			bool last = c + 1 == g->ncols;
			if (g->right[c])
				fprintf(out, "%*s", (int)width[c], s);
			else
				fprintf(out, "%-*s", last ? 0 : (int)width[c], s);
			if (!last)
				fputs("  ", out);
		}
		fputc('\n', out);
	}
	free(width);
}

/* "instantiate 210 us", "update 0.90 us", "same": how a point was prepared. */
static char *prep_cell(const struct point_report *p)
{
	static const char *const words[] = {
		[PREP_INSTANTIATE] = "instantiate", [PREP_UPDATE] = "update", [PREP_SAME] = "same",
	};
	if (p->prep == PREP_SAME)
		return xstrdup(words[p->prep]);
	char d[32];
	format_duration(p->prep_s, d, sizeof d);
	return xasprintf("%s %s", words[p->prep], d);
}

static char *checks_cell(unsigned passed, unsigned failed)
{
	if (passed + failed == 0)
		return xstrdup("none");
	if (failed == 0)
		return xasprintf("%u passed", passed);
	return xasprintf("%u of %u failed", failed, passed + failed);
}

void report_print_table(FILE *out, const struct report *r)
{
	static const char *const fixed[] = {"median", "min", "max", "spread", "prepare", "checks"};
	static const char *const rates[] = {"GB/s", "items/s", "% peak"};
	static const char *const frates[] = {"TFLOP/s", "% FLOP peak"};
	const struct point_report *first = &r->points[0];
	size_t nfixed = sizeof fixed / sizeof *fixed;
	bool tp = any_throughput(r), fl = false;
	for (size_t i = 0; i < r->npoints; i++)
		fl |= r->points[i].flops.declared;
	/* --processes: the range of each point's process medians */
	bool procs = r->nprocs > r->npoints;
	struct grid g = {.ncols = first->naxes + nfixed + procs + (tp ? 3 : 0) + (fl ? 2 : 0),
			 .nrows = r->npoints + 1};
	g.cells = xcalloc(g.ncols * g.nrows, sizeof *g.cells);
	g.right = xcalloc(g.ncols, sizeof *g.right);

	char **head = grid_row(&g, 0);
	size_t c = 0;
	for (size_t a = 0; a < first->naxes; a++) {
		/* names and values are the user's: escaped before the widths are taken */
		head[c] = xstrdup(diag_esc(first->axes[a].name));
		bool numeric = true;
		double v;
		for (size_t i = 0; i < r->npoints && numeric; i++)
			numeric = number_text(axis_text(&r->points[i], first, a), &v);
		g.right[c++] = numeric;
	}
	for (size_t k = 0; k < nfixed; k++) {
		head[c] = xstrdup(fixed[k]);
		g.right[c++] = k < 4;
	}
	if (procs) {
		head[c] = xstrdup("processes");
		g.right[c++] = true;
	}
	for (size_t k = 0; tp && k < 3; k++) {
		head[c] = xstrdup(rates[k]);
		g.right[c++] = true;
	}
	for (size_t k = 0; fl && k < 2; k++) {
		head[c] = xstrdup(frates[k]);
		g.right[c++] = true;
	}

	unsigned passed = 0, failed = 0, instantiations = 0;
	for (size_t i = 0; i < r->npoints; i++) {
		const struct point_report *p = &r->points[i];
		char **row = grid_row(&g, i + 1);
		char buf[3][32];
		struct stats st;
		stats_compute(p->samples, p->nsamples, &st);
		c = 0;
		for (size_t a = 0; a < first->naxes; a++)
			row[c++] = xstrdup(diag_esc(axis_text(p, first, a)));
		if (p->nsamples) {
			format_duration(st.median, buf[0], sizeof buf[0]);
			format_duration(st.min, buf[1], sizeof buf[1]);
			format_duration(st.max, buf[2], sizeof buf[2]);
			row[c++] = xstrdup(buf[0]);
			row[c++] = xstrdup(buf[1]);
			row[c++] = xstrdup(buf[2]);
			row[c++] = st.median > 0 ? xasprintf("%.1f%%", 100 * st.stddev / st.median) :
				xstrdup("-");
		} else {
			for (int k = 0; k < 4; k++)
				row[c++] = xstrdup("-");
		}
		row[c++] = prep_cell(p);
		row[c++] = checks_cell(p->checks_passed, p->checks_failed);
		if (procs) {
			size_t np;
			const struct proc_record *pr = proc_records_of(r->procs, r->nprocs,
								       (uint32_t)i, &np);
			proc_records_range(pr, np, buf[0], sizeof buf[0]);
			row[c++] = xstrdup(buf[0]);
		}
		if (tp) {
			struct throughput t;
			throughput_of(p->bytes, p->items, p->nsamples ? st.median : NAN,
				      r->peak_gb_per_s, &t);
			format_rate(t.gb_per_s, buf[0], sizeof buf[0]);
			format_si(t.items_per_s, buf[1], sizeof buf[1]);
			row[c++] = xstrdup(buf[0]);
			row[c++] = xstrdup(buf[1]);
			/* two decimals below 1%: a small transfer is not "0.0%" */
			row[c++] = isnan(t.peak_percent) ? xstrdup(isnan(t.gb_per_s) ? "-" : "?") :
				xasprintf("%.*f%%", t.peak_percent < 1 ? 2 : 1, t.peak_percent);
		}
		if (fl) {
			struct flops_rate f = flops_of(p->flops.declared ? p->flops.flops : NAN,
						       p->nsamples ? st.median : NAN,
						       p->flops.peak_tflops);
			format_rate(f.tflop_per_s, buf[0], sizeof buf[0]);
			row[c++] = xstrdup(buf[0]);
			row[c++] = isnan(f.peak_percent) ?
				xstrdup(isnan(f.tflop_per_s) ? "-" : "?") :
				xasprintf("%.1f%%", f.peak_percent);
		}
		passed += p->checks_passed;
		failed += p->checks_failed;
		instantiations += p->prep == PREP_INSTANTIATE;
	}

	fprintf(out, "  %-12s %zu (%u instantiation%s, %zu updated or unchanged)\n", "points",
		r->npoints, instantiations, instantiations == 1 ? "" : "s",
		r->npoints - instantiations);
	grid_print(out, &g);
	if (tp && r->peak_gb_per_s > 0)
		fprintf(out, "  %-12s %.0f GB/s (2 x memory clock x bus width / 8)\n", "peak",
			r->peak_gb_per_s);
	else if (tp)
		fprintf(out, "  %-12s unknown: the driver reports no memory clock or bus width "
			"for this device (%% peak is ?)\n", "peak");
	char *checks = checks_cell(passed, failed);
	fprintf(out, "  %-12s %s\n", "checks", checks);
	free(checks);

	for (size_t i = 0; i < g.ncols * g.nrows; i++)
		free(g.cells[i]);
	free(g.cells);
	free(g.right);
}

void report_print_throughput(FILE *out, const struct report *r)
{
	const struct point_report *p = report_plain_point(r);
	if (p == NULL || !throughput_declared(p->bytes, p->items))
		return;
	struct stats st;
	stats_compute(p->samples, p->nsamples, &st);
	struct throughput t;
	throughput_of(p->bytes, p->items, p->nsamples ? st.median : NAN, r->peak_gb_per_s, &t);
	char gb[32], items[32];
	format_rate(t.gb_per_s, gb, sizeof gb);
	format_si(t.items_per_s, items, sizeof items);
	fprintf(out, "  %-12s", "throughput");
	if (isnan(t.gb_per_s) && isnan(t.items_per_s)) {
		fputs(" none: no timed launch\n", out);
		return;
	}
	if (!isnan(t.gb_per_s))
		fprintf(out, " %s GB/s", gb);
	if (!isnan(t.items_per_s))
		fprintf(out, "%s %s items/s", isnan(t.gb_per_s) ? "" : ",", items);
	if (!isnan(t.peak_percent))
		fprintf(out, ", %.1f%% of the %.0f GB/s peak", t.peak_percent, r->peak_gb_per_s);
	else if (!isnan(t.gb_per_s))
		fputs(" (no peak: the driver reports no memory clock or bus width)", out);
	fputc('\n', out);
}

/*
 * Would a spreadsheet take the cell for a formula?  One that starts with
 * =, +, -, @, a tab or a carriage return (OWASP, CSV injection), unless
 * it is a number ("-5", "+1e3"): an axis value such as
 * =HYPERLINK("http://...") comes from a graph file, anyone's.
 */
static bool formula_lead(const char *s)
{
	double v;
	return s[0] != '\0' && strchr("=+-@\t\r", s[0]) != NULL && !number_text(s, &v);
}

/*
 * One CSV field of text: a formula's lead neutralised by a ' before it,
 * control characters and bytes that are not UTF-8 written as escapes
 * (\x1b, \n: diag_esc's, as on a terminal), then quoted when it holds a
 * comma or a quote (RFC 4180).
 */
static void csv_field(FILE *out, bool first, const char *s)
{
	if (!first)
		fputc(',', out);
	const char *lead = formula_lead(s) ? "'" : "";
	s = diag_esc(s);
	if (s[strcspn(s, ",\"")] == '\0') {
		fprintf(out, "%s%s", lead, s);
		return;
	}
	fprintf(out, "\"%s", lead);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void csv_number(FILE *out, double v)
{
	fputc(',', out);
	if (isfinite(v))
		fprintf(out, "%.9g", v);
}

/*
 * Point p's row: a plain file's (no label) has no axis or preparation
 * cells, and the run's exit status, where a sweep's point has its own.
 */
static void csv_row(FILE *out, const struct report *r, const struct point_report *p)
{
	static const char *const prep_words[] = {
		[PREP_INSTANTIATE] = "instantiate", [PREP_UPDATE] = "update", [PREP_SAME] = "same",
	};
	const struct point_report *first = report_is_sweep(r) ? &r->points[0] : NULL;
	size_t naxes = first ? first->naxes : 0;
	for (size_t a = 0; a < naxes; a++)
		csv_field(out, a == 0, axis_text(p, first, a));
	csv_field(out, naxes == 0, p && p->label ? p->label : "");
	struct stats st;
	stats_compute(p->samples, p->nsamples, &st);
	bool timed = p->nsamples > 0;
	double spread = timed && st.median > 0 ? 100 * st.stddev / st.median : NAN;
	const double stat[] = {st.median, st.min, st.mean, st.max, st.stddev};
	for (size_t k = 0; k < sizeof stat / sizeof *stat; k++)
		csv_number(out, timed ? stat[k] : NAN);
	csv_number(out, spread);
	fprintf(out, ",%zu", p->nsamples);
	if (p->label) {
		csv_field(out, false, prep_words[p->prep]);
		csv_number(out, p->prep_s);
		fprintf(out, ",%u", p->updated_nodes);
	} else {
		fputs(",,,", out);
	}
	csv_number(out, p->first_launch_s);
	fprintf(out, ",%u,%u", p->checks_passed, p->checks_failed);
	struct throughput t;
	throughput_of(p->bytes, p->items, timed ? st.median : NAN, r->peak_gb_per_s, &t);
	const double tp[] = {p->bytes, p->items, t.gb_per_s, t.items_per_s, t.peak_percent};
	for (size_t k = 0; k < sizeof tp / sizeof *tp; k++)
		csv_number(out, tp[k]);
	struct flops_rate f = flops_of(p->flops.declared ? p->flops.flops : NAN,
				       timed ? st.median : NAN, p->flops.peak_tflops);
	csv_number(out, p->flops.declared ? p->flops.flops : NAN);
	csv_number(out, f.tflop_per_s);
	csv_number(out, f.peak_percent);
	fprintf(out, ",%d\r\n", p->label ? p->exit_status : r->exit_status);
}

int report_write_csv(const char *path, const struct report *r)
{
	static const char *const columns[] = {
		"label", "median_s", "min_s", "mean_s", "max_s", "stddev_s", "spread_percent",
		"samples", "prepare", "prepare_s", "updated_nodes", "first_launch_s",
		"checks_passed", "checks_failed", "bytes", "items", "gb_per_s", "items_per_s",
		"peak_percent", "flops", "tflop_per_s", "flops_peak_percent", "exit_status",
	};
	FILE *out = output_open(path);
	if (out == NULL)
		return 2;
	const struct point_report *first = report_is_sweep(r) ? &r->points[0] : NULL;
	size_t naxes = first ? first->naxes : 0;
	for (size_t a = 0; a < naxes; a++)
		csv_field(out, a == 0, first->axes[a].name);
	for (size_t k = 0; k < sizeof columns / sizeof *columns; k++)
		csv_field(out, naxes == 0 && k == 0, columns[k]);
	fputs("\r\n", out);
	size_t n;
	const struct point_report *rows = report_rows(r, &n);
	for (size_t i = 0; i < n; i++)
		csv_row(out, r, &rows[i]);
	return output_close(out, path, OUTPUT_OK);
}
