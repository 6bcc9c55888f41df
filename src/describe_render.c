#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <graphviz/gvc.h>

#include "describe_render.h"
#include "diag.h"
#include "fileio.h"

#if defined(__SANITIZE_ADDRESS__)
/*
 * Graphviz 2.42 leaks in its own code on every drawing (gvContext's plugin
 * configuration, gvPluginList's copies, the text layout caches), and so do
 * the fontconfig, pango, cairo and glib it draws text with: LeakSanitizer
 * is told to pass over what those libraries keep, and only that (a leak
 * of ours has none of them on its stack).
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libgvc.so\n"
	       "leak:libgvplugin_\n"
	       "leak:libfontconfig.so\n"
	       "leak:libpango\n"
	       "leak:libcairo.so\n"
	       "leak:libglib-2.0.so\n"
	       "leak:libexpat.so\n";
}
#endif

/* Each format: its name in a file's name and for Graphviz, and what draws it. */
static const struct format_info {
	const char *ext;        /* ".svg"; NULL: DOT, the default */
	const char *device;     /* Graphviz's output format */
	const char *missing;    /* what is missing when it cannot */
} formats[DESCRIBE_FORMAT_COUNT] = {
	[DESCRIBE_DOT] = {NULL, NULL, NULL},
	[DESCRIBE_SVG] = {".svg", "svg", "no SVG renderer (its core plugin); a .dot name needs none"},
	[DESCRIBE_PNG] = {".png", "png",
		"no PNG renderer (its cairo or gd plugin); a .svg or .dot name needs none"},
	[DESCRIBE_PDF] = {".pdf", "pdf",
		"no PDF renderer (its cairo plugin); a .svg or .dot name needs none"},
};

enum describe_format describe_format_of(const char *path)
{
	for (int f = 0; path && f < DESCRIBE_FORMAT_COUNT; f++)
		if (formats[f].ext && path_has_ext(path, formats[f].ext))
			return (enum describe_format)f;
	return DESCRIBE_DOT;
}

/* Does gvc have a plugin of kind ("device", "layout") named name? */
static bool has_plugin(GVC_t *gvc, const char *kind, const char *name)
{
	int n = 0;
	char **list = gvPluginList(gvc, kind, &n, NULL);
	bool found = false;
	for (int i = 0; i < n; i++) {
		/* "png" or, in some versions, "png:cairo" */
		size_t len = strcspn(list[i], ":");
		found |= strlen(name) == len && strncmp(list[i], name, len) == 0;
		free(list[i]);
	}
	free(list);
	return found;
}

/* What stops gvc from drawing f, or NULL. */
static const char *missing_in(GVC_t *gvc, enum describe_format f)
{
	if (!has_plugin(gvc, "layout", "dot"))
		return "no dot layout (its dot_layout plugin); a .dot name needs none";
	return has_plugin(gvc, "device", formats[f].device) ? NULL : formats[f].missing;
}

/* NULL when this Graphviz can draw f (DOT always), else why not. */
static const char *format_missing(enum describe_format f)
{
	if (f == DESCRIBE_DOT)
		return NULL;
	GVC_t *gvc = gvContext();
	const char *why = missing_in(gvc, f);
	gvFreeContext(gvc);
	return why;
}

bool describe_can_draw(const char *path)
{
	enum describe_format f = describe_format_of(path && strcmp(path, "-") ? path : NULL);
	const char *why = format_missing(f);
	if (why)
		errorx("cannot draw --describe=%s: this Graphviz has %s", diag_esc(path), why);
	return why == NULL;
}

/* Graphviz's error messages, said as ours (the first is enough). */
static char gv_error[512];

static int keep_error(char *msg)
{
	static const char prefix[] = "Error: ";
	if (strncmp(msg, prefix, sizeof prefix - 1) == 0)
		msg += sizeof prefix - 1;
	if (gv_error[0] == '\0') {
		snprintf(gv_error, sizeof gv_error, "%s", msg);
		gv_error[strcspn(gv_error, "\n")] = '\0';
	}
	return 0;
}

int describe_render(const char *dot, enum describe_format f, FILE *out)
{
	GVC_t *gvc = gvContext();
	const char *why = missing_in(gvc, f);
	if (why) {
		errorx("cannot draw the description as %s: this Graphviz has %s",
		       formats[f].device, why);
		gvFreeContext(gvc);
		return -1;
	}
	gv_error[0] = '\0';
	agusererrf old = agseterrf(keep_error);
	agerrlevel_t level = agseterr(AGERR);
	/* read back, as dot(1) reads it: the same input, the same drawing */
	Agraph_t *g = agmemread(dot);
	int rc = g ? gvLayout(gvc, g, "dot") : -1;
	if (rc == 0) {
		rc = gvRender(gvc, g, formats[f].device, out);
		gvFreeLayout(gvc, g);
	}
	if (g)
		agclose(g);
	agseterr(level);
	agseterrf(old);
	gvFreeContext(gvc);
	if (rc != 0)
		errorx("cannot draw the description as %s: %s", formats[f].device,
		       gv_error[0] ? gv_error : "Graphviz failed");
	return rc == 0 ? 0 : -1;
}
