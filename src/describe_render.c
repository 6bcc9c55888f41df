#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <graphviz/gvc.h>

#include "describe_render.h"
#include "diag.h"
#include "fileio.h"
#include "xmalloc.h"

/* gcc says __SANITIZE_ADDRESS__, clang (the fuzzers' build) __has_feature */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CGR_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(CGR_ASAN)
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

/*
 * The one Graphviz context of the process, made at its first drawing and
 * kept: Graphviz 2.42's pango plugin keeps the name of the last font it
 * measured, a pointer into its context's font table, so that a drawing in
 * a second context (a suite's page draws a graph per file, --describe one
 * more) read a freed name (AddressSanitizer: heap-use-after-free in
 * textspan_size).  What the context holds is Graphviz's, freed at exit.
 */
static GVC_t *context(void)
{
	static GVC_t *gvc;
	if (gvc == NULL)
		gvc = gvContext();
	return gvc;
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
	return missing_in(context(), f);
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
	GVC_t *gvc = context();
	const char *why = missing_in(gvc, f);
	if (why) {
		errorx("cannot draw the description as %s: this Graphviz has %s",
		       formats[f].device, why);
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
	if (rc != 0)
		errorx("cannot draw the description as %s: %s", formats[f].device,
		       gv_error[0] ? gv_error : "Graphviz failed");
	return rc == 0 ? 0 : -1;
}

/*
 * The attributes a description carries (describe.c, and the profile's
 * colours), and a few more that only change how it looks: nothing that
 * reads a file (image, shapefile, fontpath, stylesheet), links out (URL,
 * href, target), names a font or writes raw text into SVG (fontname, id,
 * class, comment).
 */
static const char *const safe_attrs[] = {
	"label", "shape", "style", "fillcolor", "color", "fontcolor", "penwidth", "margin",
	"lhead", "ltail", "weight", "dir", "constraint", "minlen", "compound", "labelloc",
	"nodesep", "ranksep", "rankdir", "arrowhead", "arrowtail",
};

static bool attr_safe(const char *name)
{
	for (size_t i = 0; i < sizeof safe_attrs / sizeof *safe_attrs; i++)
		if (strcmp(safe_attrs[i], name) == 0)
			return true;
	return false;
}

/* Is obj's label an HTML-like one (<...>), which may hold <IMG SRC=...>? */
static bool html_label(void *obj)
{
	char *v = agget(obj, (char *)"label");
	return v && *v && aghtmlstr(v);
}

/* The first HTML-like label in g, its subgraphs, nodes and edges: what it belongs to, or NULL. */
static const char *html_label_in(Agraph_t *g, Agraph_t *root)
{
	if (html_label(g))
		return "a graph";
	for (Agraph_t *sub = agfstsubg(g); sub; sub = agnxtsubg(sub))
		if (html_label_in(sub, root))
			return "a graph";
	if (g != root)
		return NULL;
	for (Agnode_t *n = agfstnode(g); n; n = agnxtnode(g, n)) {
		if (html_label(n))
			return "a node";
		for (Agedge_t *e = agfstout(g, n); e; e = agnxtout(g, e))
			if (html_label(e))
				return "an edge";
	}
	return NULL;
}

/* Is the graph read from a description safe to draw (describe_dot_safe)? */
static bool graph_safe(Agraph_t *g, char *why, size_t whylen)
{
	static const int kinds[] = {AGRAPH, AGNODE, AGEDGE};
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
		for (Agsym_t *a = agnxtattr(g, kinds[k], NULL); a; a = agnxtattr(g, kinds[k], a))
			if (!attr_safe(a->name)) {
				snprintf(why, whylen, "it has the attribute '%.40s', which a "
					 "description never has", a->name);
				return false;
			}
	const char *html = html_label_in(g, g);
	if (html)
		snprintf(why, whylen, "%s has an HTML-like label (<...>), which a description "
			 "never has", html);
	return html == NULL;
}

/* dot read back (errors kept, none printed): NULL with the reason in why. */
static Agraph_t *read_dot(const char *dot, char *why, size_t whylen)
{
	gv_error[0] = '\0';
	agusererrf old = agseterrf(keep_error);
	agerrlevel_t level = agseterr(AGERR);
	Agraph_t *g = agmemread(dot);
	agseterr(level);
	agseterrf(old);
	if (g == NULL)
		snprintf(why, whylen, "it does not read as DOT: %s",
			 gv_error[0] ? gv_error : "Graphviz could not read it");
	return g;
}

bool describe_dot_safe(const char *dot, char *why, size_t whylen)
{
	Agraph_t *g = read_dot(dot, why, whylen);
	if (g == NULL)
		return false;
	bool ok = graph_safe(g, why, whylen);
	agclose(g);
	return ok;
}

/* n bytes of s onto o, a control character (a label may hold one) as U+FFFD; the end. */
static char *copy_text(char *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
		} else {
			*o++ = (char)c;
		}
	}
	return o;
}

/* text[0..len) from its <svg> on, its comments left out: a new string. */
static char *svg_element(const char *text, size_t len)
{
	const char *s = strstr(text, "<svg");
	if (s == NULL)
		return NULL;
	char *out = xmalloc(3 * len + 1), *o = out;
	while (*s) {
		const char *c = strstr(s, "<!--"), *end = c ? strstr(c + 4, "-->") : NULL;
		o = copy_text(o, s, c ? (size_t)(c - s) : strlen(s));
		if (c == NULL)
			break;
		s = end ? end + 3 : c + strlen(c);
	}
	*o = '\0';
	return out;
}

int describe_svg_inline(const char *dot, char **svg, char *why, size_t whylen)
{
	*svg = NULL;
	Agraph_t *g = read_dot(dot, why, whylen);
	if (g == NULL || !graph_safe(g, why, whylen)) {
		if (g)
			agclose(g);
		return -1;
	}
	int objects = agnnodes(g) + agnedges(g);
	if (objects > DESCRIBE_INLINE_MAX) {
		snprintf(why, whylen, "%d nodes and edges, more than the page lays out (%d)",
			 objects, DESCRIBE_INLINE_MAX);
		agclose(g);
		return 1;
	}
	GVC_t *gvc = context();
	const char *missing = missing_in(gvc, DESCRIBE_SVG);
	char *text = NULL;
	size_t len = 0;
	FILE *mem = missing ? NULL : open_memstream(&text, &len);
	int rc = -1;
	gv_error[0] = '\0';
	agusererrf old = agseterrf(keep_error);
	agerrlevel_t level = agseterr(AGERR);
	if (mem && gvLayout(gvc, g, "dot") == 0) {
		rc = gvRender(gvc, g, "svg", mem);
		gvFreeLayout(gvc, g);
	}
	agseterr(level);
	agseterrf(old);
	if (mem && fclose(mem) != 0)
		rc = -1;
	if (rc == 0 && (*svg = svg_element(text, len)) == NULL)
		rc = -1;
	if (rc != 0)
		snprintf(why, whylen, "%s", missing ? missing : gv_error[0] ? gv_error :
			 "Graphviz failed");
	free(text);
	agclose(g);
	return rc;
}
