/* Outputs against inputs (outputs.h). */
#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include "outputs.h"

/* The reply every clash gets: why the run stops there. */
#define CLASH_WHY "an output may not replace a file the run reads"

struct against {
	const struct options *o;
	struct diag *d;
	uint32_t clashed;
	bool any;
};

/* The output that the file at path is, if any; its bit in a->clashed. */
static const struct output_name *clash(struct against *a, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return NULL;
	const struct output_name *v = outputs_find(a->o->outputs, a->o->noutputs, st.st_dev,
						   st.st_ino);
	if (v && v - a->o->outputs < 32)
		a->clashed |= UINT32_C(1) << (v - a->o->outputs);
	a->any |= v != NULL;
	return v;
}

static void input_file(void *ctx, const char *what, const char *written, const char *path,
		       struct pos pos)
{
	struct against *a = ctx;
	const struct output_name *v = clash(a, path);
	if (v)
		diag_error(a->d, pos, "%s '%s' is the file %s=%s writes: " CLASH_WHY, what,
			   written, v->option, v->path);
}

bool outputs_vs_graph(const struct options *o, const struct gdef *g, struct diag *d,
		      uint32_t *clashed)
{
	struct against a = {o, d, 0, false};
	*clashed = 0;
	if (o->noutputs == 0)
		return true;
	const struct output_name *v = strcmp(o->file, "-") == 0 ? NULL : clash(&a, o->file);
	if (v)
		diag_error(d, (struct pos){0, 0}, "the graph file is the file %s=%s writes: "
			   CLASH_WHY, v->option, v->path);
	gdef_input_files(g, input_file, &a);
	*clashed = a.clashed;
	return !a.any;
}

bool outputs_vs_sweep(const struct options *o, const struct sweep *sw, struct diag *d,
		      uint32_t *clashed)
{
	*clashed = 0;
	bool ok = true;
	const char *prefix = d->prefix;
	/* a point's module or data may be a file of its own ("k_${n}.ptx"): every point's */
	for (size_t k = 0; k < sw->npoints; k++) {
		uint32_t c = 0;
		d->prefix = k == 0 ? NULL : sw->labels[k];
		if (sw->models[k] && !outputs_vs_graph(o, sw->models[k], d, &c))
			ok = false;
		*clashed |= c;
	}
	d->prefix = prefix;
	return ok;
}

bool outputs_vs_input(const struct options *o, const char *what, const char *path)
{
	struct against a = {o, NULL, 0, false};
	const struct output_name *v = clash(&a, path);
	if (v)
		errorx("%s=%s is the %s %s: " CLASH_WHY, v->option, v->path, what, path);
	return v == NULL;
}

bool outputs_vs_file(const struct options *o, const char *path)
{
	return outputs_vs_input(o, "graph file", path);
}

bool outputs_vs_bases(const struct options *o)
{
	bool ok = true;
	for (size_t i = 0; i < o->ncompare_paths; i++)
		ok &= outputs_vs_input(o, "--compare base", o->compare_paths[i]);
	return ok;
}
