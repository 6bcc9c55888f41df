/*
 * --plot through gnuplot (report_plot.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "diag.h"
#include "fileio.h"
#include "report_plot.h"
#include "report_table.h"
#include "scalar.h"
#include "stats.h"
#include "strbuf.h"
#include "xmalloc.h"

extern char **environ;

/* name looked up on PATH, as execvp would, into buf. */
static bool on_path(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH");
	if (path == NULL || *path == '\0')
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, ":");
		/* an empty entry is the current directory */
		if ((size_t)snprintf(buf, len, "%.*s%s%s", (int)n, n ? p : ".", "/", name) < len &&
		    access(buf, X_OK) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

bool plot_program(char *buf, size_t len)
{
	const char *e = getenv("GNUPLOT");
	if (e && *e) {
		if (strchr(e, '/'))
			return (size_t)snprintf(buf, len, "%s", e) < len && access(buf, X_OK) == 0;
		return on_path(e, buf, len);
	}
	return on_path("gnuplot", buf, len);
}

int report_plot_check(void)
{
	char prog[4096];
	if (plot_program(prog, sizeof prog))
		return 0;
	const char *e = getenv("GNUPLOT");
	if (e && *e)
		errorx("--plot: GNUPLOT names '%s', which is no program that can be run", e);
	else
		errorx("--plot needs gnuplot, and there is none on PATH (Debian: apt-get install "
		       "gnuplot-nox; or name it with GNUPLOT=/path/to/gnuplot)");
	return 2;
}

/*
 * s as a gnuplot single-quoted string, inert text: gnuplot runs `...`
 * inside double quotes (and expands backslashes there), but inside single
 * quotes it does nothing except read '' as one quote.  Control bytes and
 * bytes that are not UTF-8 go in as visible escapes (\n, \x1b), which
 * keeps a label on its line: names, paths and axis values come from a
 * graph file or a stored report, never from the user at the terminal.
 */
static void gp_string(FILE *out, const char *s)
{
	fputc('\'', out);
	for (const char *c = diag_esc(s); *c; c++) {
		if (*c == '\'')
			fputc('\'', out);
		fputc(*c, out);
	}
	fputc('\'', out);
}

/* The point's value of axis name: where a sweep's points have it, first, else looked for. */
static const char *axis_text(const struct point_report *p, const char *name)
{
	if (p->naxes && strcmp(p->axes[0].name, name) == 0)
		return p->axes[0].text;
	for (size_t i = 1; i < p->naxes; i++)
		if (strcmp(p->axes[i].name, name) == 0)
			return p->axes[i].text;
	return "";
}

/* The plot's shape: the x of each point, and which line it is on. */
struct shape {
	const char *xname;              /* the first axis */
	enum { X_NUMBER, X_POW2, X_WORDS } xkind;
	double *x;                      /* per point */
	const char **words;             /* X_WORDS: the first axis's values in order */
	size_t nwords;
	char **lines;                   /* each line's title: the other axes, "T=f32" */
	size_t nlines;
	size_t *line;                   /* per point: its line */
	size_t *by_line;                /* the points, line by line, each line's in order */
	size_t *line_at;                /* line l's points: by_line[line_at[l] .. line_at[l + 1]) */
};

/* "T=f32,v=2": the axes after the first, built in one pass (malloc'd). */
static char *others_of(const struct point_report *p)
{
	struct strbuf sb = {0};
	strbuf_add(&sb, "", 0);
	for (size_t a = 1; a < p->naxes; a++) {
		if (a > 1)
			strbuf_addc(&sb, ',');
		strbuf_add(&sb, p->axes[a].name, strlen(p->axes[a].name));
		strbuf_addc(&sb, '=');
		strbuf_add(&sb, p->axes[a].text, strlen(p->axes[a].text));
	}
	return sb.buf;
}

struct keyed {
	const char *key;
	size_t i;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

/*
 * keys[0..n) grouped: id[i] is the group of keys[i], the groups numbered
 * in the order of their first key, and first[g] the index of group g's
 * first key.  The number of groups.  By sorting, O(n log n): looking each
 * key up among the groups so far was O(n^2) (50,000 points: 11.7 s).
 */
static size_t group_keys(const char *const *keys, size_t n, size_t *id, size_t *first)
{
	struct keyed *k = xcalloc(n, sizeof *k);
	for (size_t i = 0; i < n; i++)
		k[i] = (struct keyed){keys[i], i};
	qsort(k, n, sizeof *k, cmp_keyed);
	/* each run of one key starts at its first index (ties sort by index) */
	size_t ng = 0;
	for (size_t j = 0; j < n; j++)
		if (j == 0 || strcmp(k[j - 1].key, k[j].key) != 0)
			first[ng++] = k[j].i;
	qsort(first, ng, sizeof *first, cmp_size);
	/* group g is the run whose first index is first[g]: id of the run's first, then the run's */
	for (size_t g = 0; g < ng; g++)
		id[first[g]] = g;
	for (size_t j = 1; j < n; j++)
		if (strcmp(k[j - 1].key, k[j].key) == 0)
			id[k[j].i] = id[k[j - 1].i];
	free(k);
	return ng;
}

/* The points line by line (a counting sort by line, stable): what each panel writes. */
static void order_by_line(struct shape *sh, size_t n)
{
	sh->line_at = xcalloc(sh->nlines + 1, sizeof *sh->line_at);
	sh->by_line = xcalloc(n ? n : 1, sizeof *sh->by_line);
	for (size_t i = 0; i < n; i++)
		sh->line_at[sh->line[i] + 1]++;
	for (size_t l = 0; l < sh->nlines; l++)
		sh->line_at[l + 1] += sh->line_at[l];
	size_t *next = xcalloc(sh->nlines ? sh->nlines : 1, sizeof *next);
	memcpy(next, sh->line_at, sh->nlines * sizeof *next);
	for (size_t i = 0; i < n; i++)
		sh->by_line[next[sh->line[i]]++] = i;
	free(next);
}

static void shape_of(const struct report *r, struct shape *sh)
{
	size_t n = r->npoints;
	memset(sh, 0, sizeof *sh);
	sh->xname = r->points[0].naxes ? r->points[0].axes[0].name : "point";
	sh->x = xcalloc(n, sizeof *sh->x);
	sh->line = xcalloc(n, sizeof *sh->line);
	sh->words = xcalloc(n, sizeof *sh->words);
	bool numbers = r->points[0].naxes > 0, pow2 = numbers;
	for (size_t i = 0; i < n; i++) {
		const char *t = axis_text(&r->points[i], sh->xname);
		double v;
		pow2 &= pow2_text(t, &v);
		numbers &= number_text(t, &v);
		sh->x[i] = v;
	}
	sh->xkind = pow2 ? X_POW2 : numbers ? X_NUMBER : X_WORDS;
	const char **keys = xcalloc(n, sizeof *keys);
	size_t *id = xcalloc(n, sizeof *id), *first = xcalloc(n, sizeof *first);
	if (sh->xkind == X_WORDS) {
		/* a point without axes (a sweep of one) is at 0, named by its label */
		for (size_t i = 0; i < n; i++) {
			const struct point_report *p = &r->points[i];
			keys[i] = p->naxes ? axis_text(p, sh->xname) : p->label ? p->label : "";
		}
		sh->nwords = group_keys(keys, n, id, first);
		for (size_t w = 0; w < sh->nwords; w++)
			sh->words[w] = keys[first[w]];
		for (size_t i = 0; i < n; i++)
			sh->x[i] = (double)id[i];
	}
	char **others = xcalloc(n, sizeof *others);
	for (size_t i = 0; i < n; i++)
		others[i] = others_of(&r->points[i]);
	sh->nlines = group_keys((const char *const *)others, n, sh->line, first);
	sh->lines = xcalloc(sh->nlines ? sh->nlines : 1, sizeof *sh->lines);
	for (size_t l = 0; l < sh->nlines; l++) {
		sh->lines[l] = others[first[l]];
		others[first[l]] = NULL;
	}
	for (size_t i = 0; i < n; i++)
		free(others[i]);
	free(others);
	free(keys);
	free(id);
	free(first);
	order_by_line(sh, n);
}

static void shape_free(struct shape *sh)
{
	for (size_t l = 0; l < sh->nlines; l++)
		free(sh->lines[l]);
	free(sh->lines);
	free(sh->line);
	free(sh->x);
	free(sh->words);
	free(sh->by_line);
	free(sh->line_at);
}

/* One panel: a datablock per line, then the plot command; column 2 of rows is y. */
static void panel(FILE *out, const struct shape *sh, const double *y, const char *ylabel,
		  const char *prefix)
{
	fputs("set ylabel ", out);
	gp_string(out, ylabel);
	fputc('\n', out);
	for (size_t l = 0; l < sh->nlines; l++) {
		fprintf(out, "$%s%zu << EOD\n", prefix, l);
		for (size_t k = sh->line_at[l]; k < sh->line_at[l + 1]; k++) {
			size_t i = sh->by_line[k];
			if (isfinite(y[i]))
				fprintf(out, "%.9g %.9g\n", sh->x[i], y[i]);
		}
		fputs("EOD\n", out);
	}
	fputs("plot ", out);
	for (size_t l = 0; l < sh->nlines; l++) {
		fprintf(out, "%s$%s%zu using 1:2 with linespoints pointtype 7 title ", l ? ", \\\n     " : "",
			prefix, l);
		gp_string(out, *sh->lines[l] ? sh->lines[l] : "median");
	}
	fputc('\n', out);
}

void report_plot_script(FILE *out, const struct report *r)
{
	struct shape sh;
	shape_of(r, &sh);
	size_t n = r->npoints;
	double *t = xcalloc(n, sizeof *t), *gb = xcalloc(n, sizeof *gb);
	double tmax = 0, tmin = INFINITY;
	bool tp = false;
	for (size_t i = 0; i < n; i++) {
		const struct point_report *p = &r->points[i];
		struct stats st;
		stats_compute(p->samples, p->nsamples, &st);
		t[i] = p->nsamples ? st.median : NAN;
		if (p->nsamples && st.median > tmax)
			tmax = st.median;
		if (p->nsamples && st.median > 0 && st.median < tmin)
			tmin = st.median;
		struct throughput th;
		throughput_of(p->bytes, p->items, t[i], r->peak_gb_per_s, &th);
		gb[i] = th.gb_per_s;
		tp |= !isnan(th.gb_per_s);
	}
	/*
	 * One unit for the whole axis, the one the largest median reads best
	 * in: the word after the number, which %.0f of any double fits
	 * before (a median of 1e30 s overflowed 32 bytes, and the space was
	 * not found).
	 */
	char unit[400], ylabel[64];
	double scale;
	int prec;
	format_duration_scaled(tmax, unit, sizeof unit, &scale, &prec);
	for (size_t i = 0; i < n; i++)
		t[i] /= scale;
	const char *word = strrchr(unit, ' ');
	snprintf(ylabel, sizeof ylabel, "median launch time (%s)", word ? word + 1 : "s");

	fprintf(out, "set terminal svg size 800,%d dynamic noenhanced font 'sans,12' "
		"background '#ffffff'\n", tp ? 760 : 460);
	/* a fixed left margin keeps the two panels' x axes one above the other */
	fputs("set encoding utf8\nset grid\nset key outside right top\nset lmargin 12\nset xlabel ", out);
	gp_string(out, sh.xname);
	fputc('\n', out);
	if (sh.xkind == X_POW2)
		fputs("set logscale x 2\nset format x '2^%L'\n", out);
	if (sh.xkind == X_WORDS) {
		fputs("set xtics (", out);
		for (size_t w = 0; w < sh.nwords; w++) {
			fputs(w ? ", " : "", out);
			gp_string(out, sh.words[w]);
			fprintf(out, " %zu", w);
		}
		fprintf(out, ")\nset xrange [-0.5:%zu.5]\n", sh.nwords ? sh.nwords - 1 : 0);
	}
	/*
	 * Medians more than 30 times apart (a graph's launch against stream
	 * launches of the same shape) on a log scale, where the lower lines
	 * are not flattened onto the axis; GB/s always from 0.
	 */
	bool logy = tmax > PLOT_LOG_Y_SPAN * tmin;
	fputs(logy ? "set logscale y 10\nset yrange [*:*]\n" : "set yrange [0:*]\n", out);
	if (tp)
		fputs("set multiplot layout 2,1\n", out);
	fputs("set title ", out);
	char *title = r->name ? xasprintf("%s (%s)", r->name, r->file) : xstrdup(r->file);
	gp_string(out, title);
	free(title);
	fputc('\n', out);
	panel(out, &sh, t, ylabel, "t");
	if (tp) {
		if (logy)
			fputs("unset logscale y\nset yrange [0:*]\n", out);
		fputs("set title 'throughput'\n", out);
		panel(out, &sh, gb, "GB/s", "g");
		fputs("unset multiplot\n", out);
	}
	free(t);
	free(gb);
	shape_free(&sh);
}

/*
 * gnuplot with script on its stdin and out_fd as its stdout; its stderr
 * into errbuf.  The exit status (or 128 + a signal), or -1 after a
 * message when it could not be started.
 */
static int run_gnuplot(const char *prog, const char *script, size_t len, int out_fd,
		       char *errbuf, size_t errlen)
{
	int in[2];
	FILE *err = tmpfile();
	if (err == NULL || pipe(in) != 0) {
		errorx("--plot: cannot run %s: %s", prog, strerror(errno));
		if (err)
			fclose(err);
		return -1;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, fileno(err), STDERR_FILENO);
	posix_spawn_file_actions_addclose(&fa, in[1]);
	char *argv[] = {(char *)"gnuplot", NULL};
	pid_t pid;
	int rc = posix_spawn(&pid, prog, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(in[0]);
	if (rc != 0) {
		errorx("--plot: cannot run %s: %s", prog, strerror(rc));
		close(in[1]);
		fclose(err);
		return -1;
	}
	/* a gnuplot that stops reading must not kill us with SIGPIPE */
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old);
	write_full(in[1], script, len);
	close(in[1]);
	sigaction(SIGPIPE, &old, NULL);
	int ws = 0;
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	rewind(err);
	size_t n = fread(errbuf, 1, errlen - 1, err);
	errbuf[n] = '\0';
	fclose(err);
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

int report_plot(const char *path, const struct report *r)
{
	if (!report_is_sweep(r)) {
		errorx("--plot: %s has no axes, so there is nothing to draw against: a plot "
		       "needs a sweep", r->file);
		return 2;
	}
	char prog[4096];
	if (!plot_program(prog, sizeof prog))
		return report_plot_check();
	char *script = NULL;
	size_t len = 0;
	FILE *s = open_memstream(&script, &len);
	report_plot_script(s, r);
	fclose(s);
	FILE *out = output_open(path);
	if (out == NULL) {
		free(script);
		return 2;
	}
	fflush(out);
	char err[2048];
	int st = run_gnuplot(prog, script, len, fileno(out), err, sizeof err);
	free(script);
	/* a gnuplot that failed wrote part of an SVG at most: the old file stays */
	int rc = output_close(out, path, st == 0 ? OUTPUT_OK : OUTPUT_REPORTED);
	if (st == 0 && rc == 0)
		return 0;
	if (st > 0) {
		errorx("--plot: gnuplot (%s) failed with status %d, so %s was not written%s", prog,
		       st, path, *err ? ":" : "");
		/* gnuplot's own lines, laid out as it wrote them, controls escaped */
		if (*err) {
			diag_write_block(stderr, err, strlen(err));
			if (err[strlen(err) - 1] != '\n')
				fputc('\n', stderr);
		}
	}
	return 2;
}
