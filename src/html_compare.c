/* --compare on the HTML page (html_compare.h). */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "html_compare.h"
#include "html_esc.h"
#include "scalar.h"

/* Reading ------------------------------------------------------------------ */

/* An entry as the JSON has it, before it is a struct cmp_entry. */
struct jentry {
	const char *file, *point, *why;
	double base_processes, processes, base_median_s, median_s, shift, shift_cycles;
	double p_value, p_min, spread_percent, threshold_percent, clock_ratio;
	int verdict, doubt;
	bool apart;
};

struct jcmp {
	const char *base, *note;
	double base_reports, threshold_percent;
	struct jentry *entries;
	size_t nentries;
	const char **only_here, **only_base;
	size_t nonly_here, nonly_base;
};

/* A word of names[0..n) (NULL entries are no word) as its index into *(int *)slot. */
static bool read_word(struct hr *r, void *slot, const char *const *names, int n,
		      const char *what)
{
	struct jscalar s;
	enum jtype t;
	struct jr *p = hr_parser(r);
	if (!jr_peek(p, &t))
		return false;
	if (t != JSTR && t != JNULL)
		return hr_fail(r, "%s, not a string", jtype_names[t]);
	struct jr_mark m = jr_here(p);
	if (!jr_scalar(p, &s))
		return false;
	for (int i = 0; i < n; i++)
		if (t == JSTR ? names[i] && strcmp(names[i], s.text) == 0 : names[i] == NULL) {
			*(int *)slot = i;
			return true;
		}
	return hr_fail_at(r, m, "'%.40s' is no %s", t == JSTR ? s.text : "null", what);
}

static bool read_verdict(struct hr *r, void *slot)
{
	return read_word(r, slot, verdict_names, VERDICT_COUNT, "verdict");
}

static bool read_doubt(struct hr *r, void *slot)
{
	return read_word(r, slot, doubt_names, DOUBT_COUNT, "reason to doubt");
}

#define F(type, field, key, kind) {key, kind, offsetof(type, field), 0, NULL, NULL}
#define FN(type, field, count, key, kind) \
	{key, kind, offsetof(type, field), offsetof(type, count), NULL, NULL}
#define FC(type, field, key, fn) {key, HF_CUSTOM, offsetof(type, field), 0, NULL, fn}

static const struct hfield entry_fields[] = {
	F(struct jentry, file, "file", HF_STR),
	F(struct jentry, point, "point", HF_STR),
	F(struct jentry, base_processes, "base_processes", HF_COUNT),
	F(struct jentry, processes, "processes", HF_COUNT),
	F(struct jentry, base_median_s, "base_median_s", HF_TIME),
	F(struct jentry, median_s, "median_s", HF_TIME),
	F(struct jentry, shift, "shift", HF_NUM),
	F(struct jentry, shift_cycles, "shift_cycles", HF_NUM),
	F(struct jentry, p_value, "p_value", HF_NUM),
	F(struct jentry, p_min, "p_min", HF_NUM),
	F(struct jentry, spread_percent, "spread_percent", HF_NUM),
	F(struct jentry, threshold_percent, "threshold_percent", HF_NUM),
	F(struct jentry, clock_ratio, "clock_ratio", HF_NUM),
	FC(struct jentry, verdict, "verdict", read_verdict),
	FC(struct jentry, doubt, "uncertain_because", read_doubt),
	F(struct jentry, why, "why", HF_STR),
	F(struct jentry, apart, "apart", HF_BOOL),
};
static const struct hobj entry_obj = {sizeof(struct jentry), entry_fields,
	sizeof entry_fields / sizeof *entry_fields, 0, "entries"};

static const struct hfield cmp_fields[] = {
	F(struct jcmp, base, "base", HF_STR),
	F(struct jcmp, base_reports, "base_reports", HF_COUNT),
	F(struct jcmp, note, "note", HF_STR),
	F(struct jcmp, threshold_percent, "threshold_percent", HF_NUM),
	{"entries", HF_LIST, offsetof(struct jcmp, entries), offsetof(struct jcmp, nentries),
	 &entry_obj, NULL},
	FN(struct jcmp, only_here, nonly_here, "only_here", HF_STRS),
	FN(struct jcmp, only_base, nonly_base, "only_in_base", HF_STRS),
};
static const struct hobj cmp_obj = {sizeof(struct jcmp), cmp_fields,
	sizeof cmp_fields / sizeof *cmp_fields, 0, NULL};

/* A count the JSON gave, as the struct holds it (NaN: none, 0). */
static size_t count_of(double v)
{
	return isnan(v) ? 0 : v > (double)SIZE_MAX ? SIZE_MAX : (size_t)v;
}

/* An entry of the JSON as the comparison holds it (what the JSON lacks: NaN, 0). */
static struct cmp_entry entry_of(const struct jentry *je)
{
	return (struct cmp_entry){
		.file = je->file, .label = je->point, .apart = je->apart,
		.j = {
			.verdict = (enum verdict)je->verdict, .doubt = (enum doubt)je->doubt,
			.nbase = count_of(je->base_processes), .n = count_of(je->processes),
			.base_median = je->base_median_s, .median = je->median_s,
			.shift = je->shift, .shift_cycles = je->shift_cycles, .p = je->p_value,
			.p_min = je->p_min, .spread = je->spread_percent / 100,
			.threshold = je->threshold_percent / 100, .clock_ratio = je->clock_ratio,
			.clock_low = NAN,
		},
	};
}

bool html_compare_read(struct hr *r, void *slot)
{
	bool failed;
	if (hr_null(r, &failed))
		return true;
	if (failed)
		return false;
	struct jcmp *j = hr_object(r, &cmp_obj);
	struct page_cmp *pc = j ? hr_alloc(r, sizeof *pc) : NULL;
	struct cmp_entry *e = pc ? hr_alloc(r, j->nentries * sizeof *e) : NULL;
	const char **why = e ? hr_alloc(r, j->nentries * sizeof *why) : NULL;
	if (why == NULL)
		return false;
	struct comparison *c = &pc->c;
	c->base = j->base;
	c->nbases = count_of(j->base_reports);
	c->note = (char *)j->note;
	c->threshold = j->threshold_percent / 100;
	c->entries = e;
	c->nentries = j->nentries;
	for (size_t i = 0; i < j->nentries; i++) {
		e[i] = entry_of(&j->entries[i]);
		why[i] = j->entries[i].why;
		if (e[i].apart)
			c->apart++;
		else
			c->counts[e[i].j.verdict]++;
	}
	c->only_here = (char **)j->only_here;
	c->nonly_here = j->nonly_here;
	c->only_base = (char **)j->only_base;
	c->nonly_base = j->nonly_base;
	pc->why = why;
	*(struct page_cmp **)slot = pc;
	return true;
}

void html_compare_base(const struct page_cmp *pc, const char **base, const char ***only,
		       size_t *n)
{
	*base = pc->c.base;
	*only = (const char **)pc->c.only_base;
	*n = pc->c.nonly_base;
}

/* Drawing ------------------------------------------------------------------ */

/* The shift scale of the table's chart column: the same for every row. */
struct scale {
	double lo, hi;
};

#define BAR_W 180
#define BAR_H 18

static double bar_x(const struct scale *s, double v)
{
	double f = (log(v) - log(s->lo)) / (log(s->hi) - log(s->lo));
	return 4 + fmin(fmax(f, 0), 1) * (BAR_W - 8);
}

static bool drawable(double v)
{
	return v > 0 && isfinite(v);
}

/* Every shift and threshold band of c in view, a little room around them. */
static struct scale scale_of(const struct comparison *c)
{
	struct scale s = {1 / (1 + c->threshold), 1 + c->threshold};
	for (size_t i = 0; i < c->nentries; i++) {
		const struct judgement *j = &c->entries[i].j;
		const double v[] = {j->shift, j->shift_cycles, 1 - j->threshold, 1 + j->threshold};
		for (size_t k = 0; k < sizeof v / sizeof *v; k++)
			if (drawable(v[k])) {
				s.lo = fmin(s.lo, v[k]);
				s.hi = fmax(s.hi, v[k]);
			}
	}
	/* far outliers would squash the rest: a factor of 4 either way at most */
	s.lo = fmax(s.lo / 1.05, 0.25);
	s.hi = fmin(s.hi * 1.05, 4);
	return s;
}

/* One row's shift, drawn: the band it is judged by, 1, the shift (and in cycles, hollow). */
static void shift_svg(FILE *out, const struct scale *s, const struct cmp_entry *e)
{
	const struct judgement *j = &e->j;
	double t = j->threshold > 0 && j->threshold < 1 ? j->threshold : 0;
	const char *v = verdict_names[j->verdict];
	fprintf(out, "<svg class=\"iv\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"role=\"img\"><title>shift x%.3f, threshold %.3g%%</title>", BAR_W, BAR_H, BAR_W,
		BAR_H, j->shift, t * 100);
	double b0 = bar_x(s, 1 - t), b1 = bar_x(s, 1 + t);
	fprintf(out, "<rect class=\"band\" x=\"%.1f\" y=\"2\" width=\"%.1f\" height=\"%d\"/>",
		b0, b1 - b0, BAR_H - 4);
	fprintf(out, "<line class=\"one\" x1=\"%.1f\" x2=\"%.1f\" y1=\"1\" y2=\"%d\"/>",
		bar_x(s, 1), bar_x(s, 1), BAR_H - 1);
	if (drawable(j->shift_cycles))
		fprintf(out, "<circle class=\"cycles v-%s\" cx=\"%.1f\" cy=\"%d\" r=\"3.5\"/>", v,
			bar_x(s, j->shift_cycles), BAR_H / 2);
	if (drawable(j->shift))
		fprintf(out, "<circle class=\"v-%s\" cx=\"%.1f\" cy=\"%d\" r=\"4\"/>", v,
			bar_x(s, j->shift), BAR_H / 2);
	fputs("</svg>", out);
}

static void time_cell(FILE *out, double s, size_t processes)
{
	char b[32];
	fprintf(out, "<td class=\"num\">%s <span class=\"muted\">(%zu)</span></td>",
		html_time(s, b, sizeof b), processes);
}

static void name_list(FILE *out, const char *what, char *const *v, size_t n)
{
	if (n == 0)
		return;
	fprintf(out, "<p class=\"only\">%s: ", what);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", <code>" : "<code>", out);
		html_text(out, v[i]);
		fputs("</code>", out);
	}
	fputs("</p>\n", out);
}

/* One match: its name, the two medians, the shift drawn, the verdict and why. */
static void entry_row(FILE *out, const struct scale *s, const struct cmp_entry *e,
		      const char *why)
{
	const struct judgement *j = &e->j;
	char b[512];
	fputs("<tr><td><code>", out);
	html_text(out, e->label ? e->label : e->file);
	fputs("</code></td>", out);
	time_cell(out, j->base_median, j->nbase);
	time_cell(out, j->median, j->n);
	if (isnan(j->shift))
		fputs("<td class=\"num\">\xe2\x80\x93</td><td>", out);
	else
		fprintf(out, "<td class=\"num\">x%.3f</td><td>", j->shift);
	shift_svg(out, s, e);
	if (e->apart)
		fputs("</td><td><span class=\"badge\">APART</span> ", out);
	else
		fprintf(out, "</td><td><span class=\"badge v-%s\">%s</span> ",
			verdict_names[j->verdict], verdict_words[j->verdict]);
	if (why == NULL) {
		judgement_why(j, b, sizeof b);
		why = b;
	}
	html_text(out, why);
	fputs("</td></tr>\n", out);
}

void html_comparison(FILE *out, const struct page_cmp *pc)
{
	const struct comparison *c = &pc->c;
	struct scale s = scale_of(c);
	fputs("<p>Against <code>", out);
	html_text(out, c->base);
	fprintf(out, "</code>, process against process: the shift of the processes' median "
		"times (this / base, Hodges-Lehmann; hollow: in SM cycles) against the "
		"threshold it is judged by (the band: %.3g%%, or the base's own spread when "
		"wider).", c->threshold * 100);
	for (int v = 0; v < VERDICT_COUNT; v++)
		if (c->counts[v])
			fprintf(out, " <span class=\"badge v-%s\">%u %s</span>", verdict_names[v],
				c->counts[v], verdict_words[v]);
	fputs("</p>\n", out);
	if (c->note) {
		fputs("<p class=\"note\">", out);
		html_text(out, c->note);
		fputs("</p>\n", out);
	}
	if (c->nentries) {
		fputs("<div class=\"scroll\"><table class=\"cmp\"><thead><tr><th>point</th>"
		      "<th class=\"num\">base (processes)</th><th class=\"num\">this (processes)"
		      "</th><th class=\"num\">shift</th><th></th><th>verdict</th></tr></thead>"
		      "<tbody>\n", out);
		for (size_t i = 0; i < c->nentries; i++)
			entry_row(out, &s, &c->entries[i], pc->why ? pc->why[i] : NULL);
		fputs("</tbody></table></div>\n", out);
	}
	name_list(out, "Only here", c->only_here, c->nonly_here);
	name_list(out, "Only in the base", c->only_base, c->nonly_base);
}
