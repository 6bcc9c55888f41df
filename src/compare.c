/*
 * --compare (compare.h): matching two reports, pooling base reports, and
 * the comparison's table and JSON.  The verdict itself is compare_judge's.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "diag.h"
#include "json.h"
#include "scalar.h"
#include "stats.h"
#include "strbuf.h"
#include "strmap.h"
#include "xmalloc.h"

/* Matching ------------------------------------------------------------------ */

/* s read whole as a decimal or 0x integer (signed or not) into *v: its digits, not a double's. */
static bool integer_text(const char *s, char *out, size_t len)
{
	errno = 0;
	char *end;
	if (*s == '-') {
		long long v = strtoll(s, &end, 0);
		if (end == s || *end || errno)
			return false;
		snprintf(out, len, "%lld", v);
		return true;
	}
	if (*s == '+' || !(*s >= '0' && *s <= '9'))
		return false;
	unsigned long long v = strtoull(s, &end, 0);
	if (end == s || *end || errno)
		return false;
	snprintf(out, len, "%llu", v);
	return true;
}

/*
 * An axis value as the comparison matches it: "i:" and an integer's
 * digits (2^k up to 2^63 too, and a number that is a whole below 2^53),
 * "f:" and a number's exact bits, or "s:" and the text.
 */
static void value_key(const char *text, struct strbuf *sb)
{
	char digits[32];
	double v;
	if (integer_text(text, digits, sizeof digits)) {
		strbuf_printf(sb, "i:%s", digits);
	} else if (pow2_text(text, &v) && v < 0x1p64) {
		strbuf_printf(sb, "i:%llu", (unsigned long long)v);
	} else if (number_text(text, &v)) {
		if (v == floor(v) && fabs(v) < 0x1p53)
			strbuf_printf(sb, "i:%.0f", v);
		else
			strbuf_printf(sb, "f:%a", v);
	} else {
		strbuf_printf(sb, "s:%s", text);
	}
}

bool axis_values_equal(const char *a, const char *b)
{
	struct strbuf x = {0}, y = {0};
	value_key(a, &x);
	value_key(b, &y);
	bool same = strcmp(x.buf, y.buf) == 0;
	strbuf_free(&x);
	strbuf_free(&y);
	return same;
}

static int by_name(const void *a, const void *b)
{
	const struct axis_value *x = *(const struct axis_value *const *)a;
	const struct axis_value *y = *(const struct axis_value *const *)b;
	return strcmp(x->name, y->name);
}

/* A point's axes and values, the axes in name order: equal for points that match (malloc'd). */
static char *point_key(const struct cmp_point *p)
{
	const struct axis_value **v = xcalloc(p->naxes ? p->naxes : 1, sizeof *v);
	for (size_t i = 0; i < p->naxes; i++)
		v[i] = &p->axes[i];
	qsort(v, p->naxes, sizeof *v, by_name);
	struct strbuf sb = {0};
	strbuf_addc(&sb, '\0');
	sb.len = 0;
	for (size_t i = 0; i < p->naxes; i++) {
		strbuf_printf(&sb, "%s\x1f", v[i]->name);
		value_key(v[i]->text, &sb);
		strbuf_addc(&sb, '\x1e');
	}
	free(v);
	return sb.buf;
}

/* A file's points by key: the first of two points of one key is the one matched. */
struct point_index {
	struct strmap *map;
	char **keys;
	size_t n;
};

static void index_points(const struct cmp_file *f, struct point_index *ix)
{
	ix->n = f->npoints;
	ix->map = strmap_new(f->npoints);
	ix->keys = xcalloc(f->npoints ? f->npoints : 1, sizeof *ix->keys);
	for (size_t i = 0; i < f->npoints; i++) {
		ix->keys[i] = point_key(&f->points[i]);
		strmap_put(ix->map, ix->keys[i], (long)i, NULL);
	}
}

static void index_free(struct point_index *ix)
{
	for (size_t i = 0; i < ix->n; i++)
		free(ix->keys[i]);
	free(ix->keys);
	strmap_free(ix->map);
}

static long index_find(const struct point_index *ix, const struct cmp_point *p)
{
	char *k = point_key(p);
	long at = strmap_get(ix->map, k);
	free(k);
	return at;
}

static char *point_name(const char *file, const char *label, bool with_file)
{
	if (!with_file)
		return xstrdup(label ? label : file);
	return label ? xasprintf("%s[%s]", file, label) : xstrdup(file);
}

char *comparison_entry_name(const struct cmp_entry *e, bool with_file)
{
	return point_name(e->file, e->label, with_file);
}

static void add_entry(struct comparison *c, const char *file, const struct cmp_point *bp,
		      const struct cmp_point *p)
{
	struct cmp_entry *e = VEC_PUSH(c->entries, c->nentries, c->capentries);
	e->file = file;
	e->label = p->label;
	compare_judge(bp->procs, bp->nprocs, p->procs, p->nprocs, c->threshold, &e->j);
	e->apart = e->j.doubt == DOUBT_FEW_LAUNCHES || e->j.doubt == DOUBT_NO_LAUNCHES;
	if (e->apart)
		c->apart++;
	else
		c->counts[e->j.verdict]++;
}

/* One file of this run against its base file. */
static void compare_file(struct comparison *c, const struct cmp_file *bf,
			 const struct cmp_file *f, bool with_file)
{
	struct point_index ix;
	index_points(bf, &ix);
	bool *used = xcalloc(bf->npoints ? bf->npoints : 1, sizeof *used);
	for (size_t i = 0; i < f->npoints; i++) {
		const struct cmp_point *p = &f->points[i];
		long j = index_find(&ix, p);
		if (j < 0 || used[j]) {
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
	index_free(&ix);
}

void compare_docs(const struct cmp_doc *base, const struct cmp_doc *cur, double threshold,
		  bool list_base_files, struct comparison *out)
{
	memset(out, 0, sizeof *out);
	out->base = base->path;
	out->nbases = base->nmerged ? base->nmerged : 1;
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

/* Documents ------------------------------------------------------------------ */

/* The records of point k among r->procs (by point, then process), as figures in the arena. */
static void procs_of_point(const struct report *r, size_t k, struct arena *a, struct cmp_point *p)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nprocs; i++)
		n += r->procs[i].point == k && r->procs[i].launches > 0;
	struct proc_fig *v = arena_alloc(a, (n ? n : 1) * sizeof *v);
	p->procs = v;
	p->nprocs = 0;
	for (size_t i = 0; i < r->nprocs; i++) {
		const struct proc_record *rec = &r->procs[i];
		if (rec->point == k && rec->launches > 0)
			v[p->nprocs++] = (struct proc_fig){.median_s = rec->median_s,
							   .clock_mhz = proc_record_clock(rec),
							   .launches = rec->launches};
	}
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
	for (size_t i = 0; i < f->npoints; i++) {
		pts[i] = (struct cmp_point){
			rows[i].label, rows[i].axes, rows[i].naxes, rows[i].samples,
			rows[i].nsamples, rows[i].bytes, rows[i].items, NULL, 0,
		};
		procs_of_point(r, i, &doc->arena, &pts[i]);
	}
	return doc;
}

/* A point of the merged document: the first document's, its processes grown by the others'. */
struct merged_point {
	struct cmp_point p;
	size_t cap;
	struct proc_fig *procs;
};

struct merged_file {
	const struct cmp_file *first;
	struct merged_point *points;
	size_t n, cap;
	struct strmap *keys;            /* the points so far, by key */
	char **owned;
	size_t nowned, capowned;
};

static void merge_point(struct merged_file *mf, const struct cmp_point *p)
{
	char *k = point_key(p);
	long at = strmap_get(mf->keys, k);
	struct merged_point *mp;
	if (at < 0) {
		strmap_put(mf->keys, k, (long)mf->n, NULL);
		*VEC_PUSH(mf->owned, mf->nowned, mf->capowned) = k;
		mp = VEC_PUSH(mf->points, mf->n, mf->cap);
		*mp = (struct merged_point){.p = *p};
		mp->p.procs = NULL;
		mp->p.nprocs = 0;
	} else {
		free(k);
		mp = &mf->points[at];
	}
	for (size_t i = 0; i < p->nprocs; i++)
		*VEC_PUSH(mp->procs, mp->p.nprocs, mp->cap) = p->procs[i];
}

struct cmp_doc *cmp_docs_merge(struct cmp_doc **docs, size_t n)
{
	if (n == 1)
		return docs[0];
	struct cmp_doc *out = xcalloc(1, sizeof *out);
	out->path = docs[0]->path;
	out->nmerged = n;
	struct strmap *by_path = strmap_new(16);
	struct merged_file *mf = NULL;
	size_t nf = 0, capf = 0;
	char **paths = NULL;
	size_t npaths = 0, cappaths = 0;
	for (size_t d = 0; d < n; d++) {
		out->suite |= docs[d]->suite;
		for (size_t i = 0; i < docs[d]->nfiles; i++) {
			const struct cmp_file *f = &docs[d]->files[i];
			if (!f->has_report)
				continue;
			char path[4096];
			compare_normal_path(f->file, path, sizeof path);
			long at = strmap_get(by_path, path);
			if (at < 0) {
				char *key = xstrdup(path);
				*VEC_PUSH(paths, npaths, cappaths) = key;
				at = (long)nf;
				strmap_put(by_path, key, at, NULL);
				*VEC_PUSH(mf, nf, capf) = (struct merged_file){
					.first = f, .keys = strmap_new(f->npoints)};
			}
			for (size_t k = 0; k < f->npoints; k++)
				merge_point(&mf[at], &f->points[k]);
		}
	}
	/* everything the comparison reads, copied into the new document's arena */
	out->nfiles = nf;
	out->files = arena_alloc(&out->arena, (nf ? nf : 1) * sizeof *out->files);
	for (size_t i = 0; i < nf; i++) {
		struct cmp_file *f = &out->files[i];
		const struct cmp_file *src = mf[i].first;
		*f = (struct cmp_file){
			.file = arena_strndup(&out->arena, src->file, strlen(src->file)),
			.has_report = true,
			.name = src->name ? arena_strndup(&out->arena, src->name, strlen(src->name)) :
				NULL,
			.peak_gb_per_s = src->peak_gb_per_s,
			.npoints = mf[i].n,
		};
		struct cmp_point *pts = arena_alloc(&out->arena, (mf[i].n ? mf[i].n : 1) *
						    sizeof *pts);
		for (size_t k = 0; k < mf[i].n; k++) {
			const struct cmp_point *p = &mf[i].points[k].p;
			struct axis_value *ax = arena_alloc(&out->arena, (p->naxes ? p->naxes : 1) *
							    sizeof *ax);
			for (size_t a = 0; a < p->naxes; a++)
				ax[a] = (struct axis_value){
					arena_strndup(&out->arena, p->axes[a].name,
						      strlen(p->axes[a].name)),
					arena_strndup(&out->arena, p->axes[a].text,
						      strlen(p->axes[a].text))};
			/* a point keeps its last processes, the newest when reports go oldest first */
			size_t keep = p->nprocs < COMPARE_MAX_PROCESSES ? p->nprocs :
				COMPARE_MAX_PROCESSES;
			struct proc_fig *procs = arena_alloc(&out->arena, (keep ? keep : 1) *
							     sizeof *procs);
			if (keep)
				memcpy(procs, mf[i].points[k].procs + (p->nprocs - keep),
				       keep * sizeof *procs);
			pts[k] = (struct cmp_point){
				.label = p->label ? arena_strndup(&out->arena, p->label,
								  strlen(p->label)) : NULL,
				.axes = ax, .naxes = p->naxes, .bytes = p->bytes, .items = p->items,
				.procs = procs, .nprocs = keep,
			};
			free(mf[i].points[k].procs);
		}
		f->points = pts;
		free(mf[i].points);
		for (size_t k = 0; k < mf[i].nowned; k++)
			free(mf[i].owned[k]);
		free(mf[i].owned);
		strmap_free(mf[i].keys);
	}
	free(mf);
	for (size_t i = 0; i < npaths; i++)
		free(paths[i]);
	free(paths);
	strmap_free(by_path);
	cmp_doc_index(out);
	return out;
}

int comparison_status(const struct comparison *c)
{
	return c->counts[VERDICT_SLOWER] ? EXIT_SLOWER : 0;
}

/* Output ---------------------------------------------------------------------- */

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

/* The p-value as the table gives it: two significant digits, "-" without one. */
static void fmt_p(double p, char *buf, size_t len)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2g", p);
}

static void print_entry(FILE *out, const struct comparison *c, const struct cmp_entry *e,
			const char *name, int wname)
{
	const struct judgement *j = &e->j;
	char bm[32], m[32], sh[16], p[16], procs[32];
	fmt_time(j->base_median, bm, sizeof bm);
	fmt_time(j->median, m, sizeof m);
	if (isnan(j->shift))
		snprintf(sh, sizeof sh, "-");
	else
		snprintf(sh, sizeof sh, "%.3f", j->shift);
	fmt_p(j->p, p, sizeof p);
	snprintf(procs, sizeof procs, "%zu/%zu", j->nbase, j->n);
	fprintf(out, "  %-*s  %9s  %9s  %6s  %7s  %7s  %s", wname, name, bm, m, sh, p, procs,
		verdict_words[j->verdict]);
	if (j->doubt != DOUBT_NONE) {
		char why[512];
		judgement_why(j, why, sizeof why);
		fprintf(out, ": %s", why);
	}
	if (j->threshold > c->threshold && j->doubt == DOUBT_NONE)
		fprintf(out, " (threshold %.3g%%: the base's own spread)", j->threshold * 100);
	fputc('\n', out);
}

void comparison_print(FILE *out, const struct comparison *c)
{
	/* the base's path, its files and labels are the user's: escaped (diag.h) */
	fprintf(out, "  %-12s with %s", "comparison", diag_esc(c->base));
	if (c->nbases > 1)
		fprintf(out, " and %zu more base report%s", c->nbases - 1, c->nbases > 2 ? "s" : "");
	fprintf(out, ": processes' median launch times, this / base (Hodges-Lehmann), rank test "
		"at p < %g, threshold %g%%\n", COMPARE_ALPHA, c->threshold * 100);
	if (c->note)
		fprintf(out, "  %-12s %s\n", "", diag_esc(c->note));
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
		fprintf(out, "  %-*s  %9s  %9s  %6s  %7s  %7s  %s\n", (int)wname, "point", "base",
			"this", "shift", "p", "procs", "verdict");
	for (size_t i = 0; i < c->nentries; i++) {
		print_entry(out, c, &c->entries[i], names[i], (int)wname);
		free(names[i]);
	}
	free(names);
	for (size_t i = 0; i < c->nonly_here; i++)
		fprintf(out, "  %-12s %s\n", i ? "" : "only here", diag_esc(c->only_here[i]));
	for (size_t i = 0; i < c->nonly_base; i++)
		fprintf(out, "  %-12s %s\n", i ? "" : "only in base", diag_esc(c->only_base[i]));
	if (c->nentries == 0) {
		fprintf(out, "  %-12s nothing in common with the base\n", "");
		return;
	}
	fprintf(out, "  %-12s %u same, %u faster, %u slower, %u uncertain", "verdicts",
		c->counts[VERDICT_SAME], c->counts[VERDICT_FASTER], c->counts[VERDICT_SLOWER],
		c->counts[VERDICT_UNCERTAIN]);
	if (c->apart)
		fprintf(out, "; %u apart, too few launches to judge", c->apart);
	fputc('\n', out);
	for (size_t i = 0; i < c->nentries; i++)
		if (c->entries[i].j.doubt == DOUBT_FEW_PROCESSES) {
			fprintf(out, "  %-12s a gate needs at least %d base processes: record the base "
				"with --processes=%d, or give several base reports (--compare "
				"repeated, or a folder)\n", "", COMPARE_BASE_PROCESSES,
				COMPARE_BASE_PROCESSES);
			break;
		}
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

static void entry_json(FILE *out, const struct cmp_entry *e)
{
	const struct judgement *j = &e->j;
	fputs("{\"file\": ", out);
	json_string(out, e->file);
	fputs(", \"point\": ", out);
	json_string(out, e->label);
	fprintf(out, ", \"base_processes\": %zu, \"processes\": %zu", j->nbase, j->n);
	const char *const keys[] = {
		"base_median_s", "median_s", "shift", "shift_cycles", "p_value", "p_min",
		"spread_percent", "threshold_percent", "clock_ratio",
	};
	const double values[] = {
		j->base_median, j->median, j->shift, j->shift_cycles, j->p, j->p_min,
		j->spread * 100, j->threshold * 100, j->clock_ratio,
	};
	for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
		fprintf(out, ", \"%s\": ", keys[k]);
		json_number(out, values[k]);
	}
	fprintf(out, ", \"verdict\": \"%s\", \"uncertain_because\": ", verdict_names[j->verdict]);
	json_string(out, doubt_names[j->doubt]);
	fputs(", \"why\": ", out);
	if (j->doubt == DOUBT_NONE) {
		fputs("null", out);
	} else {
		char why[512];
		judgement_why(j, why, sizeof why);
		json_string(out, why);
	}
	fprintf(out, ", \"apart\": %s}", e->apart ? "true" : "false");
}

void comparison_json(FILE *out, const struct comparison *c, int depth)
{
	fputc('{', out);
	json_key(out, depth + 1, true, "base");
	json_string(out, c->base);
	json_key(out, depth + 1, false, "base_reports");
	fprintf(out, "%zu", c->nbases);
	json_key(out, depth + 1, false, "method");
	fprintf(out, "{\"unit\": \"process\", \"statistic\": \"Hodges-Lehmann shift of the "
		"processes' median launch times (this / base)\", \"test\": \"Mann-Whitney U, "
		"two-sided, exact\", \"alpha\": %g, \"min_launches\": %d}", COMPARE_ALPHA,
		COMPARE_MIN_LAUNCHES);
	json_key(out, depth + 1, false, "threshold_percent");
	json_number(out, c->threshold * 100);
	json_key(out, depth + 1, false, "note");
	json_string(out, c->note);
	json_key(out, depth + 1, false, "entries");
	fputc('[', out);
	for (size_t i = 0; i < c->nentries; i++) {
		fprintf(out, "%s\n%*s", i ? "," : "", (depth + 2) * 2, "");
		entry_json(out, &c->entries[i]);
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
	fprintf(out, ", \"apart\": %u}", c->apart);
	fprintf(out, "\n%*s}", depth * 2, "");
}

void comparison_say_slower(const struct comparison *c)
{
	for (size_t i = 0; i < c->nentries; i++) {
		const struct cmp_entry *e = &c->entries[i];
		const struct judgement *j = &e->j;
		if (j->verdict != VERDICT_SLOWER)
			continue;
		errorx("%s%s%s%s: SLOWER than %s: x%.3f (%zu processes against %zu, p = %.2g, "
		       "threshold %.3g%%%s)", e->file, e->label ? "[" : "", e->label ? e->label : "",
		       e->label ? "]" : "", c->base, j->shift, j->n, j->nbase, j->p,
		       j->threshold * 100, j->threshold > c->threshold ? ": the base's own spread" :
		       "");
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
