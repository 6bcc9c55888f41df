/*
 * Modes' names, --mode's list and the rows of a run in modes (modes.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modes.h"
#include "xmalloc.h"

const char *const run_mode_names[MODE_COUNT] = {"graph", "stream", "capture"};

int run_mode_of(const char *name, size_t len)
{
	for (int m = 0; m < MODE_COUNT; m++)
		if (strlen(run_mode_names[m]) == len && memcmp(run_mode_names[m], name, len) == 0)
			return m;
	return -1;
}

bool mode_list_parse(const char *s, struct mode_list *out, char *bad, size_t badlen)
{
	memset(out, 0, sizeof *out);
	if (strcmp(s, "all") == 0) {
		*out = (struct mode_list){{MODE_GRAPH, MODE_CAPTURE, MODE_STREAM}, MODE_COUNT};
		return true;
	}
	for (const char *p = s;;) {
		size_t len = strcspn(p, ",");
		int m = run_mode_of(p, len);
		if (m < 0) {
			snprintf(bad, badlen, "%.*s", (int)len, p);
			return false;
		}
		bool dup = false;
		for (unsigned i = 0; i < out->n; i++)
			dup |= out->v[i] == (enum run_mode)m;
		if (!dup)
			out->v[out->n++] = (enum run_mode)m;
		if (p[len] == '\0')
			return true;
		p += len + 1;
	}
}

long mode_axis(const struct sweep *sw)
{
	for (size_t a = 0; sw && a < sw->naxes; a++)
		if (strcmp(sw->axes[a].name, MODE_AXIS) == 0)
			return (long)a;
	return -1;
}

bool modes_wanted(const struct sweep *sw, const struct mode_list *list)
{
	return list->n > 0 || mode_axis(sw) >= 0;
}

/* Each value of the file's axis "mode" is a mode's name: false after an error per bad one. */
static bool axis_values_ok(const struct axis *a, struct diag *d)
{
	bool ok = true;
	for (size_t v = 0; v < a->nvalues; v++) {
		const char *t = a->labels[v];
		if (run_mode_of(t, strlen(t)) >= 0)
			continue;
		diag_error(d, a->pos, "axis '%s' gives each point its mode (cugraphrun(1), MODES), "
			   "and '%s' is none: its values are graph, stream and capture", a->name, t);
		ok = false;
	}
	return ok;
}

bool mode_rows_make(const struct sweep *sw, const struct mode_list *list, struct mode_rows *r,
		    struct diag *d)
{
	memset(r, 0, sizeof *r);
	long ma = mode_axis(sw);
	if (ma >= 0 && !axis_values_ok(&sw->axes[ma], d))
		return false;
	size_t nmodes = ma >= 0 ? 1 : list->n;
	r->n = sw->npoints * nmodes;
	r->naxes = sw->naxes + (ma < 0);
	r->point = xcalloc(r->n ? r->n : 1, sizeof *r->point);
	r->mode = xcalloc(r->n ? r->n : 1, sizeof *r->mode);
	r->labels = xcalloc(r->n ? r->n : 1, sizeof *r->labels);
	size_t nax = r->n * r->naxes;
	r->axes = xcalloc(nax ? nax : 1, sizeof *r->axes);
	/*
	 * Row i is the natural order's row j: the stream rows moved after all
	 * others (modes.h says why), each group in the natural order.
	 */
	size_t i = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t j = 0; j < r->n; j++) {
			/* --mode's axis is the last: the points vary fastest */
			size_t k = j % sw->npoints, m = j / sw->npoints;
			const char *t = ma >= 0 ? sweep_value_label(sw, k, (size_t)ma) : NULL;
			enum run_mode mode = t ? (enum run_mode)run_mode_of(t, strlen(t)) : list->v[m];
			if ((mode == MODE_STREAM) != (pass == 1))
				continue;
			struct axis_value *ax = &r->axes[i * r->naxes];
			r->point[i] = k;
			r->mode[i] = mode;
			for (size_t a = 0; a < sw->naxes; a++)
				ax[a] = (struct axis_value){sw->axes[a].name, sweep_value_label(sw, k, a)};
			if (ma >= 0) {
				r->labels[i++] = xstrdup(sw->labels[k]);
				continue;
			}
			ax[sw->naxes] = (struct axis_value){MODE_AXIS, run_mode_names[mode]};
			const char *label = sw->labels[k] ? sw->labels[k] : "";
			r->labels[i++] = xasprintf("%s%s%s=%s", label, *label ? "," : "", MODE_AXIS,
						   run_mode_names[mode]);
		}
	return true;
}

void mode_rows_free(struct mode_rows *r)
{
	for (size_t i = 0; r->labels && i < r->n; i++)
		free(r->labels[i]);
	free(r->labels);
	free(r->point);
	free(r->mode);
	free(r->axes);
	memset(r, 0, sizeof *r);
}

/* The built-in kernels that set a condition, and their stream-mode variants (builtin.cu). */
static const struct {
	const char *func, *variant;
} builtin_variants[] = {
	{"set", "set_word"},
	{"set_from", "set_from_word"},
	{"countdown", "countdown_word"},
};

const char *mode_builtin_variant(const char *func)
{
	for (size_t i = 0; i < sizeof builtin_variants / sizeof *builtin_variants; i++)
		if (strcmp(builtin_variants[i].func, func) == 0)
			return builtin_variants[i].variant;
	return NULL;
}

static const struct arg *handle_in(const struct arg *args, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct arg *a = &args[i];
		const struct arg *h = a->kind == ARG_HANDLE ? a :
			a->kind == ARG_STRUCT ? handle_in(a->fields, a->nfields) : NULL;
		if (h)
			return h;
	}
	return NULL;
}

const struct arg *mode_handle_arg(const struct node *n)
{
	return n->kind == NK_KERNEL ? handle_in(n->u.kernel.args, n->u.kernel.nargs) : NULL;
}
