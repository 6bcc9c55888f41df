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
	const char *file, *point;
	double base_median_s, median_s, ratio, low, high, threshold_percent, floor_ratio;
	double base_samples, samples, settle_repeat;
	int verdict, doubt;
};

struct jcmp {
	const char *base, *note;
	double threshold_percent;
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
	F(struct jentry, base_median_s, "base_median_s", HF_TIME),
	F(struct jentry, median_s, "median_s", HF_TIME),
	F(struct jentry, ratio, "ratio", HF_NUM),
	F(struct jentry, low, "low", HF_NUM),
	F(struct jentry, high, "high", HF_NUM),
	F(struct jentry, threshold_percent, "threshold_percent", HF_NUM),
	F(struct jentry, floor_ratio, "floor_ratio", HF_NUM),
	F(struct jentry, base_samples, "base_samples", HF_COUNT),
	F(struct jentry, samples, "samples", HF_COUNT),
	FC(struct jentry, verdict, "verdict", read_verdict),
	FC(struct jentry, doubt, "uncertain_because", read_doubt),
	F(struct jentry, settle_repeat, "settle_repeat", HF_COUNT),
};
static const struct hobj entry_obj = {sizeof(struct jentry), entry_fields,
	sizeof entry_fields / sizeof *entry_fields, 0, "entries"};

static const struct hfield cmp_fields[] = {
	F(struct jcmp, base, "base", HF_STR),
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

bool html_compare_read(struct hr *r, void *slot)
{
	bool failed;
	if (hr_null(r, &failed))
		return true;
	if (failed)
		return false;
	struct jcmp *j = hr_object(r, &cmp_obj);
	struct comparison *c = j ? hr_alloc(r, sizeof *c) : NULL;
	struct cmp_entry *e = c ? hr_alloc(r, j->nentries * sizeof *e) : NULL;
	if (e == NULL)
		return false;
	c->base = j->base;
	c->note = (char *)j->note;
	c->threshold = j->threshold_percent / 100;
	c->entries = e;
	c->nentries = j->nentries;
	for (size_t i = 0; i < j->nentries; i++) {
		const struct jentry *je = &j->entries[i];
		e[i] = (struct cmp_entry){
			.file = je->file, .label = je->point,
			.base_median = je->base_median_s, .median = je->median_s,
			.nbase = count_of(je->base_samples), .n = count_of(je->samples),
			.iv = {je->ratio, je->low, je->high},
			.threshold = je->threshold_percent / 100, .floor_ratio = je->floor_ratio,
			.verdict = (enum verdict)je->verdict, .doubt = (enum doubt)je->doubt,
			.settle = je->settle_repeat > UINT32_MAX ? UINT32_MAX :
				(uint32_t)count_of(je->settle_repeat),
		};
		c->counts[e[i].verdict]++;
	}
	c->only_here = (char **)j->only_here;
	c->nonly_here = j->nonly_here;
	c->only_base = (char **)j->only_base;
	c->nonly_base = j->nonly_base;
	*(struct comparison **)slot = c;
	return true;
}

void html_compare_base(const struct comparison *c, const char **base, const char ***only,
		       size_t *n)
{
	*base = c->base;
	*only = (const char **)c->only_base;
	*n = c->nonly_base;
}

/* Drawing ------------------------------------------------------------------ */

/* The ratio scale of the table's interval column: the same for every row. */
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

/* Every interval and threshold band of c in view, a little room around them. */
static struct scale scale_of(const struct comparison *c)
{
	struct scale s = {1 / (1 + c->threshold), 1 + c->threshold};
	for (size_t i = 0; i < c->nentries; i++) {
		const struct cmp_entry *e = &c->entries[i];
		if (e->iv.low > 0 && isfinite(e->iv.low))
			s.lo = fmin(s.lo, e->iv.low);
		if (e->iv.high > 0 && isfinite(e->iv.high))
			s.hi = fmax(s.hi, e->iv.high);
	}
	/* far outliers would squash the rest: a factor of 4 either way at most */
	s.lo = fmax(s.lo / 1.05, 0.25);
	s.hi = fmin(s.hi * 1.05, 4);
	return s;
}

/* One row's interval, drawn: the threshold band, 1, the interval and the ratio. */
static void interval_svg(FILE *out, const struct scale *s, const struct cmp_entry *e)
{
	double t = e->threshold > 0 ? e->threshold : 0;
	fprintf(out, "<svg class=\"iv\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"role=\"img\"><title>ratio %.3f, 95%% interval %.3f-%.3f, threshold %.3g%%</title>",
		BAR_W, BAR_H, BAR_W, BAR_H, e->iv.ratio, e->iv.low, e->iv.high, t * 100);
	double b0 = bar_x(s, 1 - t), b1 = bar_x(s, 1 + t);
	fprintf(out, "<rect class=\"band\" x=\"%.1f\" y=\"2\" width=\"%.1f\" height=\"%d\"/>",
		b0, b1 - b0, BAR_H - 4);
	fprintf(out, "<line class=\"one\" x1=\"%.1f\" x2=\"%.1f\" y1=\"1\" y2=\"%d\"/>",
		bar_x(s, 1), bar_x(s, 1), BAR_H - 1);
	if (e->iv.low > 0 && e->iv.high > 0 && isfinite(e->iv.low) && isfinite(e->iv.high))
		fprintf(out, "<line class=\"ci v-%s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>",
			verdict_names[e->verdict], bar_x(s, e->iv.low), bar_x(s, e->iv.high),
			BAR_H / 2, BAR_H / 2);
	if (e->iv.ratio > 0 && isfinite(e->iv.ratio))
		fprintf(out, "<circle class=\"v-%s\" cx=\"%.1f\" cy=\"%d\" r=\"3.5\"/>",
			verdict_names[e->verdict], bar_x(s, e->iv.ratio), BAR_H / 2);
	fputs("</svg>", out);
}

/* Why an UNCERTAIN entry is so, and what would settle it. */
static void doubt_text(FILE *out, const struct cmp_entry *e)
{
	switch (e->doubt) {
	case DOUBT_NONE:
		return;
	case DOUBT_NO_LAUNCHES:
		fputs("no timed launches to compare", out);
		return;
	case DOUBT_FEW_LAUNCHES:
		fprintf(out, "fewer than %d launches in a run", COMPARE_MIN_SAMPLES);
		break;
	case DOUBT_STRADDLES:
		fputs("the interval straddles the threshold", out);
		break;
	case DOUBT_FLOORS_AGREE:
		fprintf(out, "the fastest tenth of the launches moved x%.3f only: the runs differ "
			"in mode, not in work", e->floor_ratio);
		return;
	}
	if (e->settle)
		fprintf(out, "; about <code>-n %u</code> in both would settle it", e->settle);
}

static void time_cell(FILE *out, double s)
{
	char b[32];
	fprintf(out, "<td class=\"num\">%s</td>", html_time(s, b, sizeof b));
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

void html_comparison(FILE *out, const struct comparison *c)
{
	struct scale s = scale_of(c);
	fputs("<p>Against <code>", out);
	html_text(out, c->base);
	fprintf(out, "</code>: the ratio of medians (this / base) with its bootstrap 95%% "
		"interval; a change within %.3g%% (the band) is SAME.", c->threshold * 100);
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
		fputs("<table class=\"cmp\"><thead><tr><th>point</th><th>base</th><th>this</th>"
		      "<th>ratio</th><th>interval</th><th>verdict</th></tr></thead><tbody>\n", out);
		for (size_t i = 0; i < c->nentries; i++) {
			const struct cmp_entry *e = &c->entries[i];
			fputs("<tr><td><code>", out);
			html_text(out, e->label ? e->label : e->file);
			fputs("</code></td>", out);
			time_cell(out, e->base_median);
			time_cell(out, e->median);
			if (isnan(e->iv.ratio))
				fputs("<td class=\"num\">-</td><td>", out);
			else
				fprintf(out, "<td class=\"num\">x%.3f</td><td>", e->iv.ratio);
			interval_svg(out, &s, e);
			fprintf(out, "</td><td><span class=\"badge v-%s\">%s</span> ",
				verdict_names[e->verdict], verdict_words[e->verdict]);
			doubt_text(out, e);
			fputs("</td></tr>\n", out);
		}
		fputs("</tbody></table>\n", out);
	}
	name_list(out, "Only here", c->only_here, c->nonly_here);
	name_list(out, "Only in the base", c->only_base, c->nonly_base);
}
