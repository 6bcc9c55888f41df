/*
 * The modes' table and break-even (report_modes.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "json.h"
#include "report_modes.h"
#include "scalar.h"
#include "stats.h"
#include "xmalloc.h"

bool report_has_modes(const struct report *r)
{
	return r->npoints > 0 && r->points[0].mode != NULL;
}

/* Do points a and b have the same axis values, but for the mode? */
static bool same_point(const struct point_report *a, const struct point_report *b)
{
	if (a->naxes != b->naxes)
		return false;
	for (size_t i = 0; i < a->naxes; i++)
		if (strcmp(a->axes[i].name, MODE_AXIS) != 0 &&
		    (strcmp(a->axes[i].name, b->axes[i].name) != 0 ||
		     strcmp(a->axes[i].text, b->axes[i].text) != 0))
			return false;
	return true;
}

/* The figure of a row one launch costs: wall time of the loop, or the median GPU time. */
static double per_launch(const struct point_report *p, bool gpu)
{
	if (!gpu)
		return p->mode->loop_launches ? p->mode->wall_s : NAN;
	if (p->nsamples == 0)
		return NAN;
	struct stats st;
	stats_compute(p->samples, p->nsamples, &st);
	return st.median;
}

void mode_break_even(const struct report *r, size_t k, bool gpu, struct break_even *be)
{
	const struct point_report *p = &r->points[k];
	be->kind = BE_UNKNOWN;
	be->launches = NAN;
	if (p->mode == NULL || p->mode->mode == MODE_STREAM)
		return;
	const struct point_report *s = NULL;
	for (size_t i = 0; i < r->npoints && s == NULL; i++)
		if (r->points[i].mode && r->points[i].mode->mode == MODE_STREAM &&
		    same_point(&r->points[i], p))
			s = &r->points[i];
	if (s == NULL)
		return;
	const struct mode_row *m = p->mode;
	double once = m->prepare_s + m->instantiate_s + m->upload_s;
	double saving = per_launch(s, gpu) - per_launch(p, gpu);
	if (!isfinite(once) || !isfinite(saving))
		return;
	if (saving <= 0) {
		be->kind = BE_NEVER;
		return;
	}
	be->kind = BE_AT;
	/* measured figures: a ratio one rounding above a whole number is that number */
	be->launches = fmax(1, ceil(once / saving * (1 - 1e-9)));
}

static char *be_cell(const struct break_even *be)
{
	if (be->kind == BE_NEVER)
		return xstrdup("never");
	if (be->kind == BE_UNKNOWN)
		return xstrdup("-");
	return xasprintf("%.0f", be->launches);
}

static char *dur_cell(double s)
{
	char buf[32];
	if (!isfinite(s))
		return xstrdup("-");
	format_duration(s, buf, sizeof buf);
	return xstrdup(buf);
}

/* The one-time work in words: "build 25.1 us", "capture 40.2 us", "plan 3.10 us". */
static char *prepare_cell(const struct mode_row *m)
{
	static const char *const words[MODE_COUNT] = {"build", "plan", "capture"};
	char buf[32];
	format_duration(m->prepare_s, buf, sizeof buf);
	return xasprintf("%s %s", words[m->mode], buf);
}

/* A table of cells: rows of ncols strings, row 0 the header, right-aligned columns in right. */
struct cells {
	char **v;
	size_t ncols, nrows;
	bool *right;
};

static void cells_print(FILE *out, const struct cells *t)
{
	size_t *w = xcalloc(t->ncols, sizeof *w);
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		if (strlen(t->v[i]) > w[i % t->ncols])
			w[i % t->ncols] = strlen(t->v[i]);
	for (size_t r = 0; r < t->nrows; r++) {
		fputs("  ", out);
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = t->v[r * t->ncols + c];
			bool last = c + 1 == t->ncols;
			if (t->right[c])
				fprintf(out, "%*s", (int)w[c], s);
			else
				fprintf(out, "%-*s", last ? 0 : (int)w[c], s);
			if (!last)
				fputs("  ", out);
		}
		fputc('\n', out);
	}
	free(w);
}

static const char *const fixed_heads[] = {
	"median", "prepare", "instantiate", "upload", "first", "submit", "wall", "streams",
	"checks", "even (wall)", "even (GPU)",
};
#define NFIXED (sizeof fixed_heads / sizeof *fixed_heads)

/* Point p's row from column c on. */
static void fill_row(const struct report *r, size_t k, char **row)
{
	const struct point_report *p = &r->points[k];
	const struct mode_row *m = p->mode;
	size_t c = 0;
	row[c++] = dur_cell(per_launch(p, true));
	row[c++] = prepare_cell(m);
	row[c++] = dur_cell(m->instantiate_s);
	row[c++] = dur_cell(m->upload_s);
	row[c++] = dur_cell(p->first_launch_s);
	row[c++] = dur_cell(m->loop_launches ? m->submit_s : NAN);
	row[c++] = dur_cell(per_launch(p, false));
	row[c++] = xasprintf("%u", m->streams);
	row[c++] = p->checks_passed + p->checks_failed == 0 ? xstrdup("none") :
		p->checks_failed ? xasprintf("%u of %u failed", p->checks_failed,
					     p->checks_passed + p->checks_failed) :
		xasprintf("%u passed", p->checks_passed);
	struct break_even be;
	mode_break_even(r, k, false, &be);
	row[c++] = be_cell(&be);
	mode_break_even(r, k, true, &be);
	row[c++] = be_cell(&be);
}

void report_print_modes(FILE *out, const struct report *r)
{
	const struct point_report *first = &r->points[0];
	struct cells t = {.ncols = first->naxes + NFIXED, .nrows = r->npoints + 1};
	t.v = xcalloc(t.ncols * t.nrows, sizeof *t.v);
	t.right = xcalloc(t.ncols, sizeof *t.right);
	for (size_t a = 0; a < first->naxes; a++) {
		t.v[a] = xstrdup(diag_esc(first->axes[a].name));
		/* an axis of numbers to the right, as a sweep's table has it */
		bool numeric = true;
		double v;
		for (size_t k = 0; k < r->npoints && numeric; k++)
			numeric = a < r->points[k].naxes && number_text(r->points[k].axes[a].text, &v);
		t.right[a] = numeric;
	}
	for (size_t c = 0; c < NFIXED; c++) {
		t.v[first->naxes + c] = xstrdup(fixed_heads[c]);
		/* figures to the right, words (prepare, checks) to the left */
		t.right[first->naxes + c] = c != 1 && c != 8;
	}
	size_t launches = 0;
	for (size_t k = 0; k < r->npoints; k++) {
		const struct point_report *p = &r->points[k];
		char **row = t.v + (k + 1) * t.ncols;
		for (size_t a = 0; a < first->naxes; a++)
			row[a] = xstrdup(a < p->naxes ? diag_esc(p->axes[a].text) : "");
		fill_row(r, k, row + first->naxes);
		if (p->mode->loop_launches > launches)
			launches = p->mode->loop_launches;
	}
	fprintf(out, "  %-12s %zu (each point from scratch in its mode)\n", "modes", r->npoints);
	cells_print(out, &t);
	fprintf(out, "  %-12s median: the timed launches' median GPU time; submit, wall: per launch "
		"of\n  %-12s %zu launches back to back; even: the launches that repay the graph's "
		"prepare,\n  %-12s instantiate and upload by its saving per launch over stream mode\n",
		"legend", "", launches, "");
	for (size_t i = 0; i < t.ncols * t.nrows; i++)
		free(t.v[i]);
	free(t.v);
	free(t.right);
}

static void json_be(FILE *out, const struct break_even *be)
{
	if (be->kind == BE_NEVER)
		fputs("\"never\"", out);
	else if (be->kind == BE_AT)
		fprintf(out, "%.0f", be->launches);
	else
		fputs("null", out);
}

void report_modes_json(FILE *out, const struct report *r)
{
	fputc('[', out);
	for (size_t k = 0; k < r->npoints; k++) {
		const struct point_report *p = &r->points[k];
		const struct mode_row *m = p->mode;
		fprintf(out, "%s\n    {", k ? "," : "");
		json_key(out, 3, true, "label");
		json_string(out, p->label);
		json_key(out, 3, false, "mode");
		json_string(out, run_mode_names[m->mode]);
		static const char *const keys[] = {
			"prepare_s", "instantiate_s", "upload_s", "first_launch_s", "gpu_s",
			"submit_s", "wall_s",
		};
		bool loop = m->loop_launches > 0;
		const double v[] = {
			m->prepare_s, m->instantiate_s, m->upload_s, p->first_launch_s,
			per_launch(p, true), loop ? m->submit_s : NAN, loop ? m->wall_s : NAN,
		};
		for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
			json_key(out, 3, false, keys[i]);
			json_number(out, v[i]);
		}
		json_key(out, 3, false, "loop_launches");
		fprintf(out, "%zu", m->loop_launches);
		json_key(out, 3, false, "streams");
		fprintf(out, "%u", m->streams);
		json_key(out, 3, false, "host_waits");
		fprintf(out, "%u", m->host_waits);
		json_key(out, 3, false, "break_even");
		if (m->mode == MODE_STREAM) {
			fputs("null", out);
		} else {
			struct break_even be;
			fputs("{\"wall\": ", out);
			mode_break_even(r, k, false, &be);
			json_be(out, &be);
			fputs(", \"gpu\": ", out);
			mode_break_even(r, k, true, &be);
			json_be(out, &be);
			fputc('}', out);
		}
		fputs("\n    }", out);
	}
	fputs(r->npoints ? "\n  ]" : "]", out);
}
