/*
 * The report as an HTML page (report_html.h): the page's document and
 * its sections, from the page's model.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "describe_render.h"
#include "diag.h"
#include "fileio.h"
#include "html_compare.h"
#include "html_esc.h"
#include "html_read.h"
#include "html_svg_plot.h"
#include "prof_stat.h"
#include "report_html.h"
#include "report_print.h"
#include "xmalloc.h"

/* Formatting ----------------------------------------------------------------- */

#define tm html_time

/* A number for people: a count ("1024"), or a figure to 3 significant digits; "–" for none. */
static const char *num(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "\xe2\x80\x93");
	else if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3g", v);
	return buf;
}

/* One cell of a time, right-aligned. */
static void td_time(FILE *out, double s)
{
	char b[32];
	fprintf(out, "<td class=\"num\">%s</td>", tm(s, b, sizeof b));
}

static void td_num(FILE *out, double v)
{
	char b[32];
	fprintf(out, "<td class=\"num\">%s</td>", num(v, b, sizeof b));
}

/* <code>s</code>, escaped. */
static void code(FILE *out, const char *s)
{
	fputs("<code>", out);
	html_text(out, s);
	fputs("</code>", out);
}

/* What an exit status says (cugraphrun(1), EXIT STATUS), and its badge's class. */
static const char *status_word(double st, const char **cls)
{
	static const struct { int status; const char *word, *cls; } words[] = {
		{0, "passed", "ok"}, {1, "a check failed", "bad"}, {2, "error", "bad"},
		{3, "CUDA error", "bad"}, {4, "slower", "warn"}, {124, "timed out", "bad"},
	};
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (st == words[i].status) {
			*cls = words[i].cls;
			return words[i].word;
		}
	*cls = "bad";
	return "failed";
}

/* The page's head and style ---------------------------------------------------- */

static const char page_style[] =
	":root{--fg:#1d2430;--muted:#5b6575;--line:#dde2ea;--bg:#f6f7f9;--card:#fff;"
	"--ok:#1a7f37;--bad:#cf222e;--warn:#9a6700;--accent:#0969da}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',"
	"Arial,sans-serif;color:var(--fg);background:var(--bg)}\n"
	"header.top{background:#1d2430;color:#fff;padding:20px 32px}\n"
	"header.top h1{margin:0;font-size:22px;font-weight:600}\n"
	"header.top .sub{color:#b8c1cf;font-size:13px;margin-top:4px}\n"
	"main{max-width:1180px;margin:0 auto;padding:20px 32px 48px}\n"
	"section{background:var(--card);border:1px solid var(--line);border-radius:8px;"
	"padding:16px 20px;margin:16px 0}\n"
	"section.file{padding:0;overflow:hidden}\n"
	"section.file>.fhead{display:flex;gap:12px;align-items:center;padding:12px 20px;"
	"border-bottom:1px solid var(--line);background:#fafbfc}\n"
	"section.file>.fhead h2{margin:0;font-size:17px}\n"
	"section.file>.fbody{padding:4px 20px 16px}\n"
	"section.file section{border:0;padding:0;margin:18px 0}\n"
	"h2{font-size:18px;margin:0 0 10px}h3{font-size:15px;margin:0 0 8px}\n"
	"code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}\n"
	"pre{white-space:pre-wrap;word-break:break-word;margin:0}\n"
	"table{border-collapse:collapse;width:100%;font-size:14px}\n"
	"th,td{padding:5px 10px;border-bottom:1px solid var(--line);text-align:left;"
	"vertical-align:middle}\n"
	"th{font-weight:600;color:var(--muted);font-size:12px;text-transform:uppercase;"
	"letter-spacing:.03em}\n"
	"td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"tr.path td{font-weight:600}\n"
	".scroll{overflow-x:auto}\n"
	".cards{display:flex;flex-wrap:wrap;gap:12px;margin:4px 0 8px}\n"
	".card{flex:1 1 150px;background:var(--card);border:1px solid var(--line);"
	"border-radius:8px;padding:10px 14px}\n"
	".card .k{font-size:12px;color:var(--muted);text-transform:uppercase;"
	"letter-spacing:.03em}\n"
	".card .v{font-size:20px;font-weight:600;margin-top:2px;font-variant-numeric:tabular-nums}\n"
	".card .s{font-size:12px;color:var(--muted)}\n"
	".badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;"
	"font-weight:600;color:#fff;background:#6e7781;white-space:nowrap}\n"
	".badge.ok,.badge.v-same,.badge.r-passed{background:var(--ok)}\n"
	".badge.bad,.badge.v-slower,.badge.r-failed,.badge.r-error,.badge.r-timeout{background:var(--bad)}\n"
	".badge.warn,.badge.v-uncertain,.badge.r-slower{background:var(--warn)}\n"
	".badge.v-faster{background:var(--accent)}.badge.r-skipped{background:#8c959f}\n"
	".badge.s-error{background:var(--bad)}.badge.s-warning{background:var(--warn)}"
	".badge.s-note{background:#6e7781}\n"
	".diagram{overflow:auto;border:1px solid var(--line);border-radius:6px;"
	"background:#fff;padding:8px;text-align:center}\n"
	/* the whole graph in view: a tall or wide one scaled down to fit */
	".diagram svg{max-width:100%;max-height:1200px;width:auto;height:auto}\n"
	".charts{display:flex;flex-wrap:wrap;gap:16px;margin:8px 0}\n"
	"svg.chart{max-width:100%;height:auto;background:#fff}\n"
	"svg .grid{stroke:#eaeef2;stroke-width:1}svg .box{fill:none;stroke:#8c959f}\n"
	"svg .tick{font-size:11px;fill:#57606a}svg .label{font-size:12px;fill:#24292f}\n"
	"svg .legend{font-size:12px;fill:#24292f}\n"
	"svg .series polyline{fill:none;stroke-width:2}svg .series circle{stroke:#fff;"
	"stroke-width:1}\n"
	"svg .whisker{stroke-width:1.2;opacity:.45}\n"
	"svg .bar{fill:#54aeff}svg .median{stroke:#cf222e;stroke-width:1.5;stroke-dasharray:4 3}\n"
	"svg .ref{stroke:#57606a;stroke-width:1;stroke-dasharray:6 4}svg .ref-label{fill:#57606a}\n"
	"svg .median-label{fill:#cf222e}svg .dots circle{fill:#0969da;opacity:.6}\n"
	"svg.iv{vertical-align:middle}svg.iv .band{fill:#ddf4ff}svg.iv .one{stroke:#57606a;"
	"stroke-width:1}\n"
	"svg.iv line.ci{stroke-width:3}svg.iv .v-same{stroke:var(--ok);fill:var(--ok)}"
	"svg.iv .v-slower{stroke:var(--bad);fill:var(--bad)}"
	"svg.iv .v-faster{stroke:var(--accent);fill:var(--accent)}"
	"svg.iv .v-uncertain{stroke:var(--warn);fill:var(--warn)}\n"
	".share{display:inline-block;height:10px;border-radius:2px;vertical-align:middle;"
	"border:1px solid #d0d7de;margin-right:6px}\n"
	"ul.diags{list-style:none;padding:0;margin:0}ul.diags>li{padding:6px 0;"
	"border-bottom:1px solid var(--line)}\n"
	"ul.diags .where{color:var(--muted);font-size:13px;margin:0 6px}\n"
	"ul.notes{margin:4px 0 0 24px;padding:0;color:var(--muted)}\n"
	"ol.path{margin:6px 0;padding-left:22px}ol.path li{margin:2px 0}\n"
	"details>summary{cursor:pointer;color:var(--muted);margin:4px 0 8px}\n"
	".muted{color:var(--muted)}.note{color:var(--muted);font-style:italic}\n"
	"a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}\n"
	"footer{color:var(--muted);font-size:12px;text-align:center;padding:16px}\n";

static void page_head(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      /* nothing loads, nothing runs: whatever a report held stays text */
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"cugraphrun " PACKAGE_VERSION "\">\n<title>", out);
	html_text(out, title);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", page_style);
}

static void page_foot(FILE *out, const struct page *pg)
{
	fputs("</main>\n<footer>made by cugraphrun " PACKAGE_VERSION, out);
	if (pg->path) {
		fputs(" from ", out);
		html_text(out, pg->path);
	}
	fputs("</footer>\n</body>\n</html>\n", out);
}

/* A report's sections -------------------------------------------------------- */

/* The heading levels of a report's sections: h2 alone, h3 within a suite's file. */
struct ctx {
	int h;
	const char *id;         /* the file's id on a suite's page: its sections' prefix */
};

static void section_open(FILE *out, const struct ctx *c, const char *cls, const char *title)
{
	fprintf(out, "<section class=\"%s\"><h%d>%s</h%d>\n", cls, c->h, title, c->h);
}

static void card(FILE *out, const char *k, const char *v, const char *sub, const char *cls)
{
	fprintf(out, "<div class=\"card\"><div class=\"k\">%s</div><div class=\"v%s%s\">", k,
		cls ? " " : "", cls ? cls : "");
	html_text(out, v);
	fputs("</div>", out);
	if (sub) {
		fputs("<div class=\"s\">", out);
		html_text(out, sub);
		fputs("</div>", out);
	}
	fputs("</div>\n", out);
}

/* The figures at a glance: the result, the time, the checks, the throughput, the device. */
static void cards(FILE *out, const struct page_report *r)
{
	char a[64], b[96];
	const char *cls;
	const char *word = status_word(r->exit_status, &cls);
	snprintf(b, sizeof b, "exit status %s", num(r->exit_status, a, sizeof a));
	fputs("<div class=\"cards\">\n", out);
	card(out, "result", word, isnan(r->exit_status) ? NULL : b, NULL);
	const struct page_launch *l = r->launch;
	if (l && !isnan(l->median_s)) {
		char sub[96], c2[32], c3[32];
		snprintf(sub, sizeof sub, "%s launches, min %s, max %s", num(l->repeat, a, sizeof a),
			 tm(l->min_s, c2, sizeof c2), tm(l->max_s, c3, sizeof c3));
		card(out, "median launch", tm(l->median_s, b, sizeof b), sub, NULL);
	} else if (r->has_points) {
		snprintf(b, sizeof b, "%zu", r->npoints);
		card(out, "points", b, "a sweep: a row and a mark each", NULL);
	}
	if (r->checks && r->checks->failed > 0) {
		char v[40];
		snprintf(v, sizeof v, "%s failed", num(r->checks->failed, a, sizeof a));
		snprintf(b, sizeof b, "%s passed", num(r->checks->passed, a, sizeof a));
		card(out, "checks", v, b, NULL);
	} else if (r->checks) {
		snprintf(b, sizeof b, "%s passed", num(r->checks->passed, a, sizeof a));
		card(out, "checks", r->checks->passed > 0 ? "passed" : "none",
		     r->checks->passed > 0 ? b : NULL, NULL);
	}
	const struct page_throughput *t = r->throughput;
	if (t && !isnan(t->gb_per_s)) {
		char sub[64];
		snprintf(b, sizeof b, "%.4g GB/s", t->gb_per_s);
		snprintf(sub, sizeof sub, isnan(t->peak_percent) ? "at the median" :
			 "%.1f%% of the device's peak", t->peak_percent);
		card(out, "throughput", b, sub, NULL);
	}
	if (r->device && r->device->name) {
		snprintf(b, sizeof b, "%s, driver %s", r->device->sm ? r->device->sm : "",
			 r->device->driver ? r->device->driver : "?");
		card(out, "device", r->device->name, b, NULL);
	}
	fputs("</div>\n", out);
}

/* "12 nodes: 8 kernel, 2 memset" */
static void graph_line(FILE *out, const struct page_report *r)
{
	const struct page_graph *g = r->graph;
	char a[32];
	if (g == NULL)
		return;
	fprintf(out, "<p>%s node%s", num(g->nodes, a, sizeof a), g->nodes == 1 ? "" : "s");
	const char *sep = ": ";
	for (size_t i = 0; i < g->nkinds; i++)
		if (g->by_kind[i].count > 0) {
			fprintf(out, "%s%s ", sep, num(g->by_kind[i].count, a, sizeof a));
			html_text(out, g->by_kind[i].name);
			sep = ", ";
		}
	if (r->ndisabled) {
		fputs("; switched off: ", out);
		for (size_t i = 0; i < r->ndisabled; i++) {
			fputs(i ? ", " : "", out);
			code(out, r->disabled[i]);
		}
	}
	fputs("</p>\n", out);
}

/* The description, drawn: the same picture as --describe=FILE.svg. */
static void diagram(FILE *out, const struct ctx *c, const struct page_report *r)
{
	/* a file that did not read has neither: nothing to say here */
	bool ran = r->has_points || (r->launch && r->launch->repeat > 0);
	if (r->graph == NULL && r->description.text == NULL && !ran)
		return;
	section_open(out, c, "graph", "Graph");
	graph_line(out, r);
	if (r->description.text == NULL) {
		fputs("<p class=\"note\">This report carries no description (a report of an "
		      "earlier cugraphrun, or of a file that did not read).</p>\n</section>\n", out);
		return;
	}
	char why[256], *svg;
	int rc = describe_svg_inline(r->description.text, &svg, why, sizeof why);
	if (rc == 0) {
		fputs("<div class=\"diagram\">", out);
		fputs(svg, out);
		fputs("</div>\n", out);
		if (r->profile)
			fputs("<p class=\"muted\">Each node that ran is filled by its share of the "
			      "launch and labelled with its median time; the critical path is "
			      "bold.</p>\n", out);
	} else {
		fputs("<p class=\"note\">The graph is not drawn here: ", out);
		html_text(out, why);
		fputs(". <code>cugraphrun --describe=graph.svg</code> draws it.</p>\n", out);
	}
	free(svg);
	fputs("</section>\n", out);
}

/* A plain file's launches: the figures and their charts. */
static void launch_section(FILE *out, const struct ctx *c, const struct page_report *r)
{
	const struct page_launch *l = r->launch;
	char a[32];
	section_open(out, c, "timing", "Timing");
	fputs("<div class=\"scroll\"><table><thead><tr><th class=\"num\">launches</th>"
	      "<th class=\"num\">warm-up</th><th class=\"num\">first launch</th>"
	      "<th class=\"num\">median</th><th class=\"num\">min</th><th class=\"num\">mean</th>"
	      "<th class=\"num\">max</th><th class=\"num\">stddev</th></tr></thead><tbody><tr>", out);
	td_num(out, l->repeat);
	td_num(out, l->warmup);
	td_time(out, r->first_launch_s);
	td_time(out, l->median_s);
	td_time(out, l->min_s);
	td_time(out, l->mean_s);
	td_time(out, l->max_s);
	td_time(out, l->stddev_s);
	fputs("</tr></tbody></table></div>\n", out);
	if (l->mean_s > 0 && !isnan(l->stddev_s))
		fprintf(out, "<p class=\"muted\">The standard deviation is %.2f%% of the mean.</p>\n",
			100 * l->stddev_s / l->mean_s);
	html_plot_samples(out, l->samples, l->nsamples);
	if (l->nsamples == 0 && !isnan(l->repeat) && l->repeat > 0)
		fprintf(out, "<p class=\"note\">The report holds no samples of its %s launches.</p>\n",
			num(l->repeat, a, sizeof a));
	fputs("</section>\n", out);
}

/* "n=2^20, T=f32" from a point's axes, or its label. */
static void point_name(FILE *out, const struct page_point *p)
{
	if (p->naxes == 0) {
		code(out, p->label ? p->label : "(point)");
		return;
	}
	fputs("<code>", out);
	for (size_t a = 0; a < p->naxes; a++) {
		fputs(a ? ", " : "", out);
		html_text(out, p->axes[a].name);
		fputc('=', out);
		html_text(out, p->axes[a].text);
	}
	fputs("</code>", out);
}

/* A sweep: the chart, then a row per point. */
static void points_section(FILE *out, const struct ctx *c, const struct page_report *r)
{
	section_open(out, c, "timing", "Timing");
	html_plot_sweep(out, r);
	bool tp = false;
	for (size_t i = 0; i < r->npoints; i++)
		tp |= r->points[i].throughput && !isnan(r->points[i].throughput->gb_per_s);
	fprintf(out, "<div class=\"scroll\"><table><thead><tr><th>point</th><th>prepared</th>"
		"<th class=\"num\">launches</th><th class=\"num\">median</th><th class=\"num\">min"
		"</th><th class=\"num\">max</th><th class=\"num\">stddev</th>%s<th>checks</th>"
		"</tr></thead><tbody>\n", tp ? "<th class=\"num\">GB/s</th>" : "");
	for (size_t i = 0; i < r->npoints; i++) {
		const struct page_point *p = &r->points[i];
		const struct page_launch *l = p->launch;
		char a[32], b[32];
		fputs("<tr><td>", out);
		point_name(out, p);
		fputs("</td><td>", out);
		if (p->prepare) {
			html_text(out, p->prepare->kind);
			fprintf(out, " <span class=\"muted\">%s</span>",
				tm(p->prepare->seconds, a, sizeof a));
			if (p->prepare->reason) {
				fputs("<br><span class=\"muted\">", out);
				html_text(out, p->prepare->reason);
				fputs("</span>", out);
			}
		}
		fputs("</td>", out);
		td_num(out, l ? l->repeat : NAN);
		td_time(out, l ? l->median_s : NAN);
		td_time(out, l ? l->min_s : NAN);
		td_time(out, l ? l->max_s : NAN);
		td_time(out, l ? l->stddev_s : NAN);
		if (tp) {
			double gb = p->throughput ? p->throughput->gb_per_s : NAN;
			if (isnan(gb))
				td_num(out, gb);
			else
				fprintf(out, "<td class=\"num\">%.*f</td>", gb >= 100 ? 0 : gb >= 10 ? 1 : 2,
					gb);
		}
		if (p->checks)
			fprintf(out, "<td>%s passed%s%s%s</td></tr>\n",
				num(p->checks->passed, a, sizeof a),
				p->checks->failed > 0 ? ", <span class=\"badge bad\">" : "",
				p->checks->failed > 0 ? num(p->checks->failed, b, sizeof b) : "",
				p->checks->failed > 0 ? " failed</span>" : "");
		else
			fputs("<td>\xe2\x80\x93</td></tr>\n", out);
	}
	fputs("</tbody></table></div>\n</section>\n", out);
}

/* One process's record as a row. */
static void proc_row(FILE *out, const struct page_point *pt, const struct page_proc *p)
{
	char a[32];
	fputs("<tr>", out);
	if (pt) {
		fputs("<td>", out);
		point_name(out, pt);
		fputs("</td>", out);
	}
	td_num(out, p->pid);
	td_num(out, p->launches);
	fputs("<td>", out);
	html_text(out, p->stopped_by);
	fputs("</td>", out);
	td_time(out, p->median_s);
	td_time(out, p->p10_s);
	td_time(out, p->iqr_s);
	fprintf(out, "<td class=\"num\">%s%s</td>", num(round(p->precision_percent * 1000) / 1000,
							a, sizeof a),
		isnan(p->precision_percent) ? "" : "%");
	char b1[32], b2[32];
	fprintf(out, "<td class=\"num\">%s / %s</td><td><code>", num(round(p->sm_clock_before_mhz),
								     b1, sizeof b1),
		num(round(p->sm_clock_after_mhz), b2, sizeof b2));
	html_text(out, p->gpu_uuid ? p->gpu_uuid : "\xe2\x80\x93");
	fputs("</code></td></tr>\n", out);
}

/* The processes that timed the file (--processes), or each point's. */
static void procs_section(FILE *out, const struct ctx *c, const struct page_report *r)
{
	size_t n = r->nprocs;
	for (size_t i = 0; i < r->npoints; i++)
		n += r->points[i].nprocs;
	if (n == 0)
		return;
	section_open(out, c, "processes", "Processes");
	/* a sweep's are a row a point and a process: folded when there are many */
	fprintf(out, "<details%s><summary>%zu record%s: each process's launches, what stopped "
		"them, its median, 10th percentile and interquartile range, how precisely its "
		"median is known (95%%), and the SM clock measured before and after</summary>\n",
		n <= 8 ? " open" : "", n, n == 1 ? "" : "s");
	fprintf(out, "<div class=\"scroll\"><table><thead><tr>%s<th class=\"num\">pid</th>"
		"<th class=\"num\">launches</th><th>stopped by</th><th class=\"num\">median</th>"
		"<th class=\"num\">p10</th><th class=\"num\">IQR</th><th class=\"num\">precision"
		"</th><th class=\"num\">SM MHz before / after</th><th>GPU</th></tr></thead><tbody>\n",
		r->has_points ? "<th>point</th>" : "");
	for (size_t i = 0; i < r->nprocs; i++)
		proc_row(out, NULL, &r->procs[i]);
	for (size_t k = 0; k < r->npoints; k++)
		for (size_t i = 0; i < r->points[k].nprocs; i++)
			proc_row(out, &r->points[k], &r->points[k].procs[i]);
	fputs("</tbody></table></div>\n</details>\n</section>\n", out);
}

static int by_time(const void *a, const void *b)
{
	const struct page_prof_node *x = *(const struct page_prof_node *const *)a;
	const struct page_prof_node *y = *(const struct page_prof_node *const *)b;
	double u = isnan(x->per_launch_s) ? -1 : x->per_launch_s;
	double v = isnan(y->per_launch_s) ? -1 : y->per_launch_s;
	return (u < v) - (u > v);
}

/* The critical path, step by step. */
static void critical_path(FILE *out, const struct page_path *p)
{
	char a[32], b[32], d[32];
	fprintf(out, "<h4>Critical path</h4>\n<p>%s of GPU work against a median profiled launch "
		"of %s: %s of launch overhead and gaps.</p>\n<ol class=\"path\">\n",
		tm(p->total_s, a, sizeof a), tm(p->launch_median_s, b, sizeof b),
		tm(p->overhead_and_gaps_s, d, sizeof d));
	for (size_t i = 0; i < p->nsteps; i++) {
		const struct page_step *s = &p->steps[i];
		double depth = isnan(s->depth) ? 0 : fmin(s->depth, 10);
		fprintf(out, "<li style=\"margin-left:%.0fem\">", 1.5 * depth);
		code(out, s->id);
		fputs(" <span class=\"muted\">", out);
		html_text(out, s->kind);
		fprintf(out, "</span> %s", tm(s->time_s, a, sizeof a));
		if (!isnan(s->iterations))
			fprintf(out, " <span class=\"muted\">(%s iterations)</span>",
				num(s->iterations, b, sizeof b));
		fputs("</li>\n", out);
	}
	fputs("</ol>\n", out);
}

/* --profile: per node, the heaviest first, and the critical path. */
static void profile_section(FILE *out, const struct ctx *c, const struct page_profile *p)
{
	char a[32], b[32];
	section_open(out, c, "profile", "Profile");
	fprintf(out, "<p>%s launches under CUPTI, median %s", num(p->launches, a, sizeof a),
		tm(p->median_s, b, sizeof b));
	if (!isnan(p->cost_ratio))
		fprintf(out, " (x%.2f the plain launch's)", p->cost_ratio);
	fprintf(out, "; %s activity records", num(p->records, a, sizeof a));
	if (p->dropped_records > 0 || p->incomplete_records > 0)
		fprintf(out, ", <span class=\"badge warn\">%s dropped, %s incomplete</span>",
			num(p->dropped_records, a, sizeof a), num(p->incomplete_records, b, sizeof b));
	fputs(".</p>\n", out);
	const struct page_prof_node **v = xcalloc(p->nnodes ? p->nnodes : 1, sizeof *v);
	for (size_t i = 0; i < p->nnodes; i++)
		v[i] = &p->nodes[i];
	qsort(v, p->nnodes, sizeof *v, by_time);
	fputs("<div class=\"scroll\"><table><thead><tr><th>node</th><th>kind</th>"
	      "<th class=\"num\">runs a launch</th><th class=\"num\">median</th>"
	      "<th class=\"num\">min</th><th class=\"num\">max</th><th class=\"num\">a launch</th>"
	      "<th>share</th></tr></thead><tbody>\n", out);
	for (size_t i = 0; i < p->nnodes; i++) {
		const struct page_prof_node *n = v[i];
		char colour[8];
		double share = isnan(n->share) ? 0 : n->share;
		prof_colour(share, colour);
		fprintf(out, "<tr%s><td>", n->on_critical_path ? " class=\"path\"" : "");
		code(out, n->id);
		if (n->disabled)
			fputs(" <span class=\"muted\">(off)</span>", out);
		fputs("</td><td>", out);
		html_text(out, n->kind);
		fputs("</td>", out);
		td_num(out, round(n->executions * 100) / 100);
		td_time(out, n->median_s);
		td_time(out, n->min_s);
		td_time(out, n->max_s);
		td_time(out, n->per_launch_s);
		fprintf(out, "<td><span class=\"share\" style=\"width:%.0fpx;background:%s\"></span>"
			"%.1f%%</td></tr>\n", 4 + fmin(share, 1) * 120, colour, 100 * share);
	}
	fputs("</tbody></table></div>\n<p class=\"muted\">Bold rows are on the critical "
	      "path.</p>\n", out);
	free(v);
	if (p->path)
		critical_path(out, p->path);
	fputs("</section>\n", out);
}

/* Phases and events: where the time outside the launches went. */
static void phases_section(FILE *out, const struct ctx *c, const struct page_report *r)
{
	const struct page_phases *ph = r->phases;
	char a[32];
	if (ph == NULL && r->nevents == 0)
		return;
	section_open(out, c, "phases", "Phases");
	if (ph) {
		static const char *const names[] = {"compile", "load", "build", "instantiate",
						    "upload"};
		const double v[] = {ph->compile_s, ph->load_s, ph->build_s, ph->instantiate_s,
				    ph->upload_s};
		fputs("<div class=\"cards\">", out);
		for (size_t i = 0; i < sizeof names / sizeof *names; i++)
			/* a phase that did not happen (no run: nothing built) is 0 */
			if (v[i] > 0)
				card(out, names[i], tm(v[i], a, sizeof a), NULL, NULL);
		fputs("</div>\n", out);
	}
	if (r->nevents) {
		fputs("<table><thead><tr><th>from event</th><th>to event</th><th class=\"num\">"
		      "elapsed</th></tr></thead><tbody>\n", out);
		for (size_t i = 0; i < r->nevents; i++) {
			fputs("<tr><td>", out);
			code(out, r->events[i].from);
			fputs("</td><td>", out);
			code(out, r->events[i].to);
			fputs("</td>", out);
			td_time(out, r->events[i].seconds);
			fputs("</tr>\n", out);
		}
		fputs("</tbody></table>\n", out);
	}
	fputs("</section>\n", out);
}

/* "file:12:5" of a message or note: what it has of them. */
static void where(FILE *out, const char *file, double line, double col)
{
	char a[32], b[32];
	if (file == NULL && isnan(line))
		return;
	fputs("<span class=\"where\">", out);
	html_text(out, file);
	if (!isnan(line))
		fprintf(out, ":%s:%s", num(line, a, sizeof a), num(col, b, sizeof b));
	fputs("</span>", out);
}

static void diags_section(FILE *out, const struct ctx *c, const struct page_report *r)
{
	if (r->ndiags == 0)
		return;
	section_open(out, c, "diagnostics", "Diagnostics");
	fputs("<ul class=\"diags\">\n", out);
	for (size_t i = 0; i < r->ndiags; i++) {
		const struct page_diag *d = &r->diags[i];
		const char *sev = d->severity ? d->severity : "error";
		bool known = strcmp(sev, "error") == 0 || strcmp(sev, "warning") == 0 ||
			strcmp(sev, "note") == 0;
		fprintf(out, "<li><span class=\"badge s-%s\">", known ? sev : "error");
		html_text(out, sev);
		fputs("</span>", out);
		where(out, d->file, d->line, d->column);
		fputs("<pre>", out);
		html_text(out, d->message);
		fputs("</pre>", out);
		if (d->nnotes) {
			fputs("<ul class=\"notes\">", out);
			for (size_t k = 0; k < d->nnotes; k++) {
				fputs("<li>note", out);
				where(out, d->notes[k].file, d->notes[k].line, d->notes[k].column);
				fputs("<pre>", out);
				html_text(out, d->notes[k].message);
				fputs("</pre></li>", out);
			}
			fputs("</ul>", out);
		}
		fputs("</li>\n", out);
	}
	fputs("</ul>\n</section>\n", out);
}

/* A report's sections, the errors first when there are any. */
static void report_body(FILE *out, const struct ctx *c, const struct page_report *r)
{
	bool errors = false;
	for (size_t i = 0; i < r->ndiags; i++)
		errors |= r->diags[i].severity == NULL || strcmp(r->diags[i].severity, "error") == 0;
	cards(out, r);
	if (errors)
		diags_section(out, c, r);
	diagram(out, c, r);
	if (r->has_points)
		points_section(out, c, r);
	else if (r->launch && r->launch->repeat > 0)
		launch_section(out, c, r);
	procs_section(out, c, r);
	if (r->profile)
		profile_section(out, c, r->profile);
	if (r->comparison) {
		section_open(out, c, "comparison", "Comparison");
		html_comparison(out, r->comparison);
		fputs("</section>\n", out);
	}
	phases_section(out, c, r);
	if (!errors)
		diags_section(out, c, r);
}

/* One file's page ---------------------------------------------------------------- */

static void report_page(FILE *out, const struct page *pg)
{
	const struct page_report *r = pg->report;
	char *title = r->name ? xasprintf("%s (%s)", r->name, r->file) : xstrdup(r->file);
	page_head(out, title);
	fputs("<header class=\"top\"><h1>", out);
	html_text(out, title);
	fputs("</h1><div class=\"sub\">cugraphrun report", out);
	if (r->cugraphrun) {
		fputs(", made by cugraphrun ", out);
		html_text(out, r->cugraphrun);
	}
	fputs("</div></header>\n<main>\n", out);
	struct ctx c = {2, NULL};
	report_body(out, &c, r);
	free(title);
}

/* A suite's page ------------------------------------------------------------------- */

/* Failures first: a rank per result, in that order on the page (others: with the errors). */
static int result_rank(const struct page_entry *e)
{
	static const char *const order[] = {"error", "timeout", "failed", "slower", "passed",
					    "skipped"};
	for (size_t i = 0; e->result && i < sizeof order / sizeof *order; i++)
		if (strcmp(order[i], e->result) == 0)
			return (int)i;
	return 0;
}

struct ranked {
	const struct page_entry *e;
	size_t i;
	int rank;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	return (x->i > y->i) - (x->i < y->i);
}

static void result_badge(FILE *out, const struct page_entry *e)
{
	const char *res = e->result ? e->result : "unknown";
	fputs("<span class=\"badge r-", out);
	html_id(out, "", res);
	fputs("\">", out);
	html_text(out, e->expected_failure ? "expected failure" : res);
	fputs("</span>", out);
}

/* The median of a plain file's report, or its points' count, for the index. */
static void entry_time(FILE *out, const struct page_entry *e)
{
	char a[32];
	const struct page_report *r = e->report;
	if (r && r->launch && !isnan(r->launch->median_s))
		fprintf(out, "<td class=\"num\">%s</td>", tm(r->launch->median_s, a, sizeof a));
	else if (r && r->has_points)
		fprintf(out, "<td class=\"num\">%zu points</td>", r->npoints);
	else
		fputs("<td class=\"num\">\xe2\x80\x93</td>", out);
}

static void suite_index(FILE *out, const struct ranked *v, size_t n)
{
	char a[32];
	fputs("<section class=\"index\"><h2>Files</h2><div class=\"scroll\"><table><thead><tr>"
	      "<th>result</th><th>file</th><th class=\"num\">median launch</th>"
	      "<th class=\"num\">seconds</th><th>why</th></tr></thead><tbody>\n", out);
	for (size_t k = 0; k < n; k++) {
		const struct page_entry *e = v[k].e;
		fputs("<tr><td>", out);
		result_badge(out, e);
		fputs("</td><td><a href=\"#", out);
		html_id(out, "f", e->file);
		fputs("\">", out);
		code(out, e->file);
		fputs("</a></td>", out);
		entry_time(out, e);
		fprintf(out, "<td class=\"num\">%s</td><td>", num(round(e->seconds * 1000) / 1000, a,
								    sizeof a));
		html_text(out, e->skip_reason ? e->skip_reason : e->message);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody></table></div></section>\n", out);
}

static void suite_file(FILE *out, const struct page_entry *e)
{
	char a[32];
	fputs("<section class=\"file\" id=\"", out);
	html_id(out, "f", e->file);
	fputs("\"><div class=\"fhead\">", out);
	result_badge(out, e);
	fputs("<h2>", out);
	html_text(out, e->file);
	fprintf(out, "</h2><span class=\"muted\">%s s</span></div>\n<div class=\"fbody\">\n",
		num(round(e->seconds * 1000) / 1000, a, sizeof a));
	if (e->skip_reason || e->message) {
		fputs("<p>", out);
		html_text(out, e->skip_reason ? e->skip_reason : e->message);
		fputs("</p>\n", out);
	}
	if (e->report) {
		struct ctx c = {3, e->file};
		report_body(out, &c, e->report);
	} else {
		fputs("<p class=\"note\">This file made no report.</p>\n", out);
	}
	fputs("</div></section>\n", out);
}

static void suite_page(FILE *out, const struct page *pg)
{
	const struct page_summary *s = pg->summary;
	page_head(out, "cugraphrun suite");
	fprintf(out, "<header class=\"top\"><h1>Suite of %zu file%s</h1><div class=\"sub\">"
		"cugraphrun suite report</div></header>\n<main>\n", pg->nfiles,
		pg->nfiles == 1 ? "" : "s");
	char a[32];
	const char *cls;
	fputs("<div class=\"cards\">\n", out);
	card(out, "result", status_word(pg->exit_status, &cls), NULL, NULL);
	if (s) {
		static const char *const names[] = {"passed", "failed", "skipped", "errors",
						    "timeouts", "slower"};
		const double v[] = {s->passed, s->failed, s->skipped, s->errors, s->timeouts,
				    s->slower};
		for (size_t i = 0; i < sizeof names / sizeof *names; i++)
			if (v[i] > 0 || i < 3)
				card(out, names[i], num(v[i], a, sizeof a), NULL, NULL);
	}
	fputs("</div>\n", out);
	if (pg->compare_base) {
		fputs("<p>Compared with <code>", out);
		html_text(out, pg->compare_base);
		fputs("</code>", out);
		for (size_t i = 0; i < pg->nonly_in_base; i++) {
			fputs(i ? ", " : "; in the base only: ", out);
			code(out, pg->only_in_base[i]);
		}
		fputs(".</p>\n", out);
	}
	struct ranked *v = xcalloc(pg->nfiles ? pg->nfiles : 1, sizeof *v);
	for (size_t i = 0; i < pg->nfiles; i++)
		v[i] = (struct ranked){&pg->files[i], i, result_rank(&pg->files[i])};
	qsort(v, pg->nfiles, sizeof *v, cmp_ranked);
	suite_index(out, v, pg->nfiles);
	for (size_t k = 0; k < pg->nfiles; k++)
		suite_file(out, v[k].e);
	free(v);
}

void report_html_page(FILE *out, const struct page *pg)
{
	if (pg->suite)
		suite_page(out, pg);
	else
		report_page(out, pg);
	page_foot(out, pg);
}

/* Writing --------------------------------------------------------------------------- */

int report_html_write(const char *path, const struct page *pg)
{
	const char *to = path && strcmp(path, "-") != 0 ? path : NULL;
	FILE *out = output_open(to);
	if (out == NULL)
		return 2;
	report_html_page(out, pg);
	return output_close(out, to, OUTPUT_OK) != 0 ? 2 : 0;
}

/* The document at name (text[0..len)) as its page into path. */
static int page_of_text(const char *path, const char *name, const char *text, size_t len)
{
	struct diag d;
	diag_init(&d, name, stderr);
	struct page *pg = page_parse(name, text, len, &d);
	diag_finish(&d);
	diag_free(&d);
	if (pg == NULL)
		return 2;
	int rc = report_html_write(path, pg);
	page_free(pg);
	return rc;
}

int report_write_html(const char *path, const struct report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (mem == NULL) {
		errorx("cannot write --html=%s: %s", path ? path : "-", strerror(errno));
		return 2;
	}
	report_print_json(mem, r);
	int rc = fclose(mem) == 0 ? page_of_text(path, r->file, text, len) : 2;
	free(text);
	return rc;
}

/* The stored document at file as a page; NULL after its errors. */
static struct page *page_of_file(const char *file)
{
	struct diag d;
	diag_init(&d, file, stderr);
	struct page *pg = page_read(file, &d);
	diag_finish(&d);
	diag_free(&d);
	return pg;
}

int report_html_stored(const char *path, const char *report, const struct comparison *cmp)
{
	struct page *pg = page_of_file(report);
	if (pg == NULL)
		return 2;
	/* borrowed: the page frees no comparison (html_page.h) */
	struct page_cmp pc = {.c = cmp ? *cmp : (struct comparison){0}};
	if (cmp && pg->report)
		pg->report->comparison = &pc;
	int rc = report_html_write(path, pg);
	page_free(pg);
	return rc;
}

int suite_html_write(const char *path, FILE *body, const unsigned counts[RES_COUNT],
		     const struct suite_compare *cmp, int status, const char *tmpdir)
{
	char *doc = xasprintf("%s/suite-html.json", tmpdir);
	int rc = suite_json_write(doc, body, counts, cmp, status);
	struct page *pg = rc == 0 ? page_of_file(doc) : NULL;
	if (pg) {
		/* the document was the page's way here, not a file of the user's */
		pg->path = NULL;
		rc = report_html_write(path, pg);
		page_free(pg);
	} else {
		rc = 2;
	}
	unlink(doc);
	free(doc);
	return rc;
}
