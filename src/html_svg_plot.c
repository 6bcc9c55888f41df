/* The HTML page's charts as inline SVG (html_svg_plot.h). */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "html_esc.h"
#include "html_svg_plot.h"
#include "report_plot.h"
#include "scalar.h"
#include "strbuf.h"
#include "strmap.h"
#include "xmalloc.h"

/* The lines' colours, in order (Okabe-Ito, which colour-blind readers tell apart). */
static const char *const palette[] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#f0e442", "#000000",
};
#define NPALETTE (sizeof palette / sizeof *palette)

/* A chart's frame: its size, its margins, and its axes' ranges and kinds. */
struct frame {
	int w, h, left, right, top, bottom;
	double x0, x1, y0, y1;
	bool xlog, ylog;
};

static double map(double v, double a, double b, bool lg, double p0, double p1)
{
	double f = lg ? (log(v) - log(a)) / (log(b) - log(a)) : (v - a) / (b - a);
	if (!isfinite(f))
		f = 0.5;
	return p0 + f * (p1 - p0);
}

static double fx(const struct frame *f, double x)
{
	return map(x, f->x0, f->x1, f->xlog, f->left, f->w - f->right);
}

static double fy(const struct frame *f, double y)
{
	return map(y, f->y0, f->y1, f->ylog, f->h - f->bottom, f->top);
}

/*
 * A time for a tick: "20 µs", "1.5 ms", "0"; step (0: none, a log axis)
 * is the ticks' spacing, whose digits every label shows, so that two
 * ticks never read alike ("12.38 µs", "12.40 µs").
 */
static void tick_time(double s, double step, char *buf, size_t len)
{
	static const struct { double scale; const char *unit; } units[] = {
		{1e-9, "ns"}, {1e-6, "\xc2\xb5s"}, {1e-3, "ms"}, {1, "s"},
	};
	if (s == 0) {
		snprintf(buf, len, "0");
		return;
	}
	size_t u = 0;
	while (u + 1 < sizeof units / sizeof *units && fabs(s) >= units[u + 1].scale * 0.9995)
		u++;
	double v = s / units[u].scale;
	if (step > 0) {
		int digits = (int)ceil(-log10(step / units[u].scale) - 1e-9);
		digits = digits < 0 ? 0 : digits > 6 ? 6 : digits;
		snprintf(buf, len, "%.*f %s", digits, v, units[u].unit);
	} else {
		snprintf(buf, len, "%.3g %s", v, units[u].unit);
	}
}

/* A number for a tick: "4096", "1.5M". */
static void tick_number(double v, char *buf, size_t len)
{
	if (fabs(v) >= 1e6 || (fabs(v) < 1e-3 && v != 0))
		snprintf(buf, len, "%.3g", v);
	else
		snprintf(buf, len, "%.6g", v);
}

/* 1, 2 or 5 times a power of ten: the step of about n ticks over span. */
static double nice_step(double span, int n)
{
	double raw = span / n, p = pow(10, floor(log10(raw))), f = raw / p;
	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

/* The ticks of an axis from a to b: log (decades, with 2 and 5 when few) or linear. */
static size_t ticks_of(double a, double b, bool lg, double *t, size_t max)
{
	size_t n = 0;
	if (!lg) {
		double step = nice_step(b - a, 5);
		for (double v = ceil(a / step - 1e-9) * step; v <= b * (1 + 1e-9) && n < max; v += step)
			t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
		return n;
	}
	bool fine = log10(b / a) < 2.5;
	for (double d = pow(10, floor(log10(a))); d <= b && n < max; d *= 10)
		for (int m = 1; m <= 5 && n < max; m += m == 1 ? 1 : 3)
			if ((m == 1 || fine) && d * m >= a * (1 - 1e-9) && d * m <= b * (1 + 1e-9))
				t[n++] = d * m;
	return n;
}

/* The frame's box, grid and y ticks (times when ytime, else numbers), and the y label. */
static void frame_draw(FILE *out, const struct frame *f, bool ytime, const char *ylabel)
{
	double t[64];
	size_t n = ticks_of(f->y0, f->y1, f->ylog, t, 64);
	double step = !f->ylog && n > 1 ? t[1] - t[0] : 0;
	for (size_t i = 0; i < n; i++) {
		char b[32];
		double y = fy(f, t[i]);
		if (ytime)
			tick_time(t[i], step, b, sizeof b);
		else
			tick_number(t[i], b, sizeof b);
		fprintf(out, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			f->left, f->w - f->right, y, y, f->left - 6, y + 4, b);
	}
	fprintf(out, "<rect class=\"box\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n",
		f->left, f->top, f->w - f->left - f->right, f->h - f->top - f->bottom);
	fprintf(out, "<text class=\"label\" transform=\"translate(14 %d) rotate(-90)\" "
		"text-anchor=\"middle\">", (f->top + f->h - f->bottom) / 2);
	html_text(out, ylabel);
	fputs("</text>\n", out);
}

/* An x tick and its label, below the frame. */
static void x_tick(FILE *out, const struct frame *f, double x, const char *label)
{
	double px = fx(f, x);
	fprintf(out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>"
		"<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", px, px, f->top,
		f->h - f->bottom, px, f->h - f->bottom + 16);
	html_text(out, label);
	fputs("</text>\n", out);
}

static void x_label(FILE *out, const struct frame *f, const char *label)
{
	fprintf(out, "<text class=\"label\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		(f->left + f->w - f->right) / 2, f->h - 6);
	html_text(out, label);
	fputs("</text>\n", out);
}

static void svg_open(FILE *out, const struct frame *f, const char *title)
{
	fprintf(out, "<svg class=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"role=\"img\" aria-label=\"", f->w, f->h, f->w, f->h);
	html_attr(out, title);
	fputs("\">\n", out);
}

/* A sweep's shape ----------------------------------------------------------- */

enum xkind { X_NUMBER, X_POW2, X_WORDS };

struct sweep_shape {
	const char *xname;
	enum xkind xkind;
	double *x;              /* per point */
	char **words;           /* X_WORDS: the values in order of first use */
	size_t nwords;
	char **lines;           /* each line's name: the other axes, "T=f32" ("" for one line) */
	size_t nlines;
	size_t *line;           /* per point */
};

static const char *axis_text(const struct page_point *p, const char *name)
{
	for (size_t i = 0; i < p->naxes; i++)
		if (strcmp(p->axes[i].name, name) == 0)
			return p->axes[i].text;
	return "";
}

/* "T=f32,v=2": the point's axes but the first. */
static char *others_of(const struct page_point *p, const char *xname)
{
	struct strbuf sb = {0};
	strbuf_add(&sb, "", 0);
	for (size_t a = 0; a < p->naxes; a++) {
		if (strcmp(p->axes[a].name, xname) == 0)
			continue;
		if (sb.len)
			strbuf_addc(&sb, ',');
		strbuf_add(&sb, p->axes[a].name, strlen(p->axes[a].name));
		strbuf_addc(&sb, '=');
		strbuf_add(&sb, p->axes[a].text, strlen(p->axes[a].text));
	}
	return sb.buf;
}

/* keys[i] numbered by first use into id[i] (a key's first copy kept in names); how many. */
static size_t group(char **keys, size_t n, size_t *id, char **names)
{
	struct strmap *m = strmap_new(n);
	size_t ng = 0;
	for (size_t i = 0; i < n; i++) {
		long g = strmap_get(m, keys[i]);
		if (g < 0) {
			g = (long)ng;
			names[ng++] = keys[i];
			strmap_put(m, keys[i], g, NULL);
		}
		id[i] = (size_t)g;
	}
	strmap_free(m);
	return ng;
}

static void shape_of(const struct page_report *r, struct sweep_shape *sh)
{
	size_t n = r->npoints;
	const struct page_point *p0 = &r->points[0];
	memset(sh, 0, sizeof *sh);
	sh->xname = p0->naxes ? p0->axes[0].name : "point";
	sh->x = xcalloc(n, sizeof *sh->x);
	sh->line = xcalloc(n, sizeof *sh->line);
	bool numbers = p0->naxes > 0, pow2 = numbers;
	for (size_t i = 0; i < n; i++) {
		const char *t = axis_text(&r->points[i], sh->xname);
		double v = 0;
		pow2 = pow2 && pow2_text(t, &v);
		numbers = numbers && number_text(t, &v);
		sh->x[i] = v;
	}
	sh->xkind = pow2 ? X_POW2 : numbers ? X_NUMBER : X_WORDS;
	char **keys = xcalloc(n, sizeof *keys);
	size_t *id = xcalloc(n, sizeof *id);
	if (sh->xkind == X_WORDS) {
		sh->words = xcalloc(n, sizeof *sh->words);
		for (size_t i = 0; i < n; i++) {
			const struct page_point *p = &r->points[i];
			keys[i] = xstrdup(p->naxes ? axis_text(p, sh->xname) :
					  p->label ? p->label : "");
		}
		sh->nwords = group(keys, n, id, sh->words);
		for (size_t i = 0; i < n; i++) {
			sh->x[i] = (double)id[i];
			if (keys[i] != sh->words[id[i]])
				free(keys[i]);
		}
	}
	for (size_t i = 0; i < n; i++)
		keys[i] = others_of(&r->points[i], sh->xname);
	sh->lines = xcalloc(n, sizeof *sh->lines);
	sh->nlines = group(keys, n, sh->line, sh->lines);
	for (size_t i = 0; i < n; i++)
		if (keys[i] != sh->lines[sh->line[i]])
			free(keys[i]);
	free(keys);
	free(id);
}

static void shape_free(struct sweep_shape *sh)
{
	for (size_t i = 0; i < sh->nwords; i++)
		free(sh->words[i]);
	for (size_t i = 0; i < sh->nlines; i++)
		free(sh->lines[i]);
	free(sh->words);
	free(sh->lines);
	free(sh->x);
	free(sh->line);
}

/* The x axis's range and ticks, by kind. */
static void x_range(struct frame *f, const struct sweep_shape *sh, size_t n)
{
	if (sh->xkind == X_WORDS) {
		f->x0 = -0.5;
		f->x1 = (double)sh->nwords - 0.5;
		return;
	}
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		lo = fmin(lo, sh->x[i]);
		hi = fmax(hi, sh->x[i]);
	}
	f->xlog = lo > 0 && (sh->xkind == X_POW2 || hi / lo > 100);
	if (lo == hi) {
		lo = f->xlog ? lo / 2 : lo - 1;
		hi = f->xlog ? hi * 2 : hi + 1;
	}
	/* room for the first and last points' marks */
	double pad = f->xlog ? pow(hi / lo, 0.04) : (hi - lo) * 0.04;
	f->x0 = f->xlog ? lo / pad : lo - pad;
	f->x1 = f->xlog ? hi * pad : hi + pad;
}

static void x_ticks(FILE *out, const struct frame *f, const struct sweep_shape *sh)
{
	char b[48];
	if (sh->xkind == X_WORDS) {
		size_t every = sh->nwords / 12 + 1;
		for (size_t w = 0; w < sh->nwords; w += every)
			x_tick(out, f, (double)w, sh->words[w]);
	} else if (sh->xkind == X_POW2) {
		int k0 = (int)ceil(log2(f->x0)), k1 = (int)floor(log2(f->x1));
		int every = (k1 - k0) / 12 + 1;
		for (int k = k0; k <= k1; k += every) {
			double px = fx(f, ldexp(1, k));
			fprintf(out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" "
				"y2=\"%d\"/><text class=\"tick\" x=\"%.1f\" y=\"%d\" "
				"text-anchor=\"middle\">2<tspan dy=\"-5\" font-size=\"8\">%d</tspan>"
				"</text>\n", px, px, f->top, f->h - f->bottom, px, f->h - f->bottom + 17, k);
		}
	} else {
		double t[64];
		size_t n = ticks_of(f->x0, f->x1, f->xlog, t, 64);
		for (size_t i = 0; i < n; i++) {
			tick_number(t[i], b, sizeof b);
			x_tick(out, f, t[i], b);
		}
	}
	x_label(out, f, sh->xname);
}

/*
 * The y range of values v (and whiskers lo, hi; NULL: none) over n points:
 * from 0, or logarithmic when they are wide (may_log); zoom: around them.
 */
static bool y_range(struct frame *f, const double *v, const double *lo, const double *hi,
		    size_t n, bool may_log, bool zoom)
{
	double a = INFINITY, b = -INFINITY, pos = INFINITY;
	for (size_t i = 0; i < n; i++) {
		double l = lo && !isnan(lo[i]) ? lo[i] : v[i], h = hi && !isnan(hi[i]) ? hi[i] : v[i];
		if (isnan(v[i]))
			continue;
		a = fmin(a, l);
		b = fmax(b, h);
		if (l > 0)
			pos = fmin(pos, l);
	}
	if (!(a <= b))
		return false;
	f->ylog = may_log && pos > 0 && a > 0 && b / pos > PLOT_LOG_Y_SPAN;
	if (zoom && b > a) {
		double step = nice_step(b - a, 5);
		f->y0 = fmax(floor(a / step - 0.5) * step, 0);
		f->y1 = ceil(b / step + 0.5) * step;
	} else if (f->ylog) {
		f->y0 = pow(10, floor(log10(pos)));
		f->y1 = b * 1.15;
	} else {
		f->y0 = 0;
		f->y1 = b > 0 ? b * 1.1 : 1;
		double step = nice_step(f->y1, 5);
		f->y1 = ceil(f->y1 / step) * step;
	}
	return true;
}

/* The legend above the plot, its items in rows: the frame's top margin grows to hold them. */
static int legend_rows(const struct sweep_shape *sh, int width)
{
	int rows = 1, x = 0;
	for (size_t l = 0; l < sh->nlines; l++) {
		int w = 26 + 7 * (int)strlen(sh->lines[l]);
		if (x && x + w > width)
			rows++, x = 0;
		x += w;
	}
	return rows;
}

static void legend(FILE *out, const struct frame *f, const struct sweep_shape *sh)
{
	int x = f->left, y = 14;
	for (size_t l = 0; l < sh->nlines; l++) {
		int w = 26 + 7 * (int)strlen(sh->lines[l]);
		if (x > f->left && x + w > f->w - f->right)
			x = f->left, y += 18;
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" rx=\"2\" "
			"fill=\"%s\"/><text class=\"legend\" x=\"%d\" y=\"%d\">", x, y - 10,
			palette[l % NPALETTE], x + 17, y);
		html_text(out, sh->lines[l]);
		fputs("</text>\n", out);
		x += w;
	}
}

/* What a panel draws: the values, their whiskers, and a reference line (a peak). */
struct panel {
	const double *v, *lo, *hi;      /* lo, hi: NULL for none */
	bool ytime;
	const char *ylabel, *title;
	double ref;                     /* NaN: none */
	const char *ref_label;
};

/* One panel: a line per group, each point with its whisker and a tooltip. */
static void sweep_panel(FILE *out, const struct page_report *r, const struct sweep_shape *sh,
			const struct panel *pn)
{
	size_t n = r->npoints;
	struct frame f = {.w = 520, .h = 330, .left = 70, .right = 16, .top = 16, .bottom = 46};
	if (sh->nlines > 1)
		f.top += 18 * legend_rows(sh, f.w - f.left - f.right) + 4;
	f.h += f.top - 16;
	x_range(&f, sh, n);
	if (!y_range(&f, pn->v, pn->lo, pn->hi, n, true, false))
		return;
	if (pn->ref > 0 && pn->ref * 1.08 > f.y1)
		f.y1 = pn->ref * 1.12;
	svg_open(out, &f, pn->title);
	frame_draw(out, &f, pn->ytime, pn->ylabel);
	x_ticks(out, &f, sh);
	if (sh->nlines > 1)
		legend(out, &f, sh);
	if (pn->ref > 0) {
		double y = fy(&f, pn->ref);
		fprintf(out, "<line class=\"ref\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"tick ref-label\" x=\"%d\" y=\"%.1f\">",
			f.left, f.w - f.right, y, y, f.left + 6, y + 13);
		html_text(out, pn->ref_label);
		fputs("</text>\n", out);
	}
	for (size_t l = 0; l < sh->nlines; l++) {
		const char *colour = palette[l % NPALETTE];
		fprintf(out, "<g class=\"series\" stroke=\"%s\" fill=\"%s\">\n<polyline points=\"",
			colour, colour);
		for (size_t i = 0; i < n; i++)
			if (sh->line[i] == l && !isnan(pn->v[i]))
				fprintf(out, "%.1f,%.1f ", fx(&f, sh->x[i]), fy(&f, pn->v[i]));
		fputs("\"/>\n", out);
		for (size_t i = 0; i < n; i++) {
			double v = pn->v[i];
			if (sh->line[i] != l || isnan(v))
				continue;
			double x = fx(&f, sh->x[i]);
			if (pn->lo && pn->hi && !isnan(pn->lo[i]) && !isnan(pn->hi[i]))
				fprintf(out, "<line class=\"whisker\" x1=\"%.1f\" x2=\"%.1f\" "
					"y1=\"%.1f\" y2=\"%.1f\"/>", x, x, fy(&f, pn->lo[i]),
					fy(&f, pn->hi[i]));
			char b[32];
			if (pn->ytime)
				html_time(v, b, sizeof b);
			else
				tick_number(round(v * 100) / 100, b, sizeof b);
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"><title>", x, fy(&f, v));
			html_text(out, r->points[i].label);
			fprintf(out, ": %s%s</title></circle>\n", b, pn->ytime ? "" : " GB/s");
		}
		fputs("</g>\n", out);
	}
	fputs("</svg>\n", out);
}

void html_plot_sweep(FILE *out, const struct page_report *r)
{
	size_t n = r->npoints;
	if (n == 0)
		return;
	struct sweep_shape sh;
	shape_of(r, &sh);
	double *med = xcalloc(n, sizeof *med), *lo = xcalloc(n, sizeof *lo);
	double *hi = xcalloc(n, sizeof *hi), *gb = xcalloc(n, sizeof *gb);
	bool tp = false;
	for (size_t i = 0; i < n; i++) {
		const struct page_launch *l = r->points[i].launch;
		const struct page_throughput *t = r->points[i].throughput;
		med[i] = l ? l->median_s : NAN;
		lo[i] = l ? l->min_s : NAN;
		hi[i] = l ? l->max_s : NAN;
		gb[i] = t ? t->gb_per_s : NAN;
		tp |= !isnan(gb[i]);
	}
	fputs("<div class=\"charts\">", out);
	struct panel t = {med, lo, hi, true, "median launch time (min\xe2\x80\x93max)",
			  "median launch time against the first axis", NAN, NULL};
	sweep_panel(out, r, &sh, &t);
	if (tp) {
		double peak = r->device ? r->device->peak_bandwidth_gb_per_s : NAN;
		char label[64];
		snprintf(label, sizeof label, "the device's peak, %.0f GB/s", peak);
		struct panel g = {gb, NULL, NULL, false, "GB/s at the median",
				  "throughput against the first axis", peak, label};
		sweep_panel(out, r, &sh, &g);
	}
	fputs("</div>\n", out);
	free(med);
	free(lo);
	free(hi);
	free(gb);
	shape_free(&sh);
}

/* A plain file's launches ----------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

#define BINS 40

/* The histogram of the sorted times s[0..n), the median a line. */
static void histogram(FILE *out, const double *s, size_t n)
{
	struct frame f = {.w = 440, .h = 240, .left = 56, .right = 14, .top = 14, .bottom = 42};
	double lo = s[0], hi = s[n - 1], w = (hi - lo) / BINS;
	size_t count[BINS] = {0}, most = 0;
	for (size_t i = 0; i < n; i++) {
		size_t b = w > 0 ? (size_t)((s[i] - lo) / w) : 0;
		b = b >= BINS ? BINS - 1 : b;
		most = ++count[b] > most ? count[b] : most;
	}
	f.x0 = lo - w;
	f.x1 = hi + w;
	f.y0 = 0;
	f.y1 = ceil(most * 1.1 / nice_step(most * 1.1, 4)) * nice_step(most * 1.1, 4);
	svg_open(out, &f, "histogram of the launch times");
	frame_draw(out, &f, false, "launches");
	double t[64];
	size_t nt = ticks_of(f.x0, f.x1, false, t, 64);
	for (size_t i = 0; i < nt; i++) {
		char b[32];
		tick_time(t[i], nt > 1 ? t[1] - t[0] : 0, b, sizeof b);
		x_tick(out, &f, t[i], b);
	}
	x_label(out, &f, "launch time");
	for (size_t b = 0; b < BINS; b++) {
		if (count[b] == 0)
			continue;
		double x0 = fx(&f, lo + b * w), x1 = fx(&f, lo + (b + 1) * w);
		fprintf(out, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\"><title>%zu launches</title></rect>\n", x0, fy(&f, count[b]),
			x1 - x0 > 1.5 ? x1 - x0 - 0.5 : 1, fy(&f, 0) - fy(&f, count[b]), count[b]);
	}
	double med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	char b[32];
	html_time(med, b, sizeof b);
	fprintf(out, "<line class=\"median\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>"
		"<text class=\"tick median-label\" x=\"%.1f\" y=\"%d\">median %s</text>\n",
		fx(&f, med), fx(&f, med), f.top, f.h - f.bottom, fx(&f, med) + 4, f.top + 12, b);
	fputs("</svg>\n", out);
}

/* The times v[0..n) in launch order. */
static void in_order(FILE *out, const double *v, size_t n)
{
	struct frame f = {.w = 440, .h = 240, .left = 74, .right = 14, .top = 14, .bottom = 42};
	f.x0 = 1;
	f.x1 = (double)(n > 1 ? n : 2);
	if (!y_range(&f, v, NULL, NULL, n, false, true))
		return;
	svg_open(out, &f, "the launch times in launch order");
	frame_draw(out, &f, true, "launch time");
	double t[64];
	size_t nt = ticks_of(f.x0, f.x1, false, t, 64);
	for (size_t i = 0; i < nt; i++) {
		char b[32];
		snprintf(b, sizeof b, "%.0f", t[i]);
		x_tick(out, &f, t[i], b);
	}
	x_label(out, &f, "launch");
	/* a dot a launch up to a few thousand; past that, every k-th */
	size_t every = n / 4000 + 1;
	fputs("<g class=\"dots\">", out);
	for (size_t i = 0; i < n; i += every)
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.8\"/>", fx(&f, (double)i + 1),
			fy(&f, v[i]));
	fputs("</g>\n</svg>\n", out);
}

void html_plot_samples(FILE *out, const double *samples, size_t n)
{
	if (n < 2)
		return;
	double *s = xmalloc(n * sizeof *s);
	memcpy(s, samples, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_double);
	if (s[0] < s[n - 1]) {
		fputs("<div class=\"charts\">", out);
		histogram(out, s, n);
		in_order(out, samples, n);
		fputs("</div>\n", out);
	}
	free(s);
}
