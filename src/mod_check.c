/*
 * Kernel nodes against their modules, without a GPU (see mod_check.h).
 * A module is read when the first kernel node that uses it is checked, so
 * that its errors come in file order among the others, and only modules
 * some node uses are read, as only those are loaded on the GPU.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cubin.h"
#include "fileio.h"
#include "mod_cache.h"
#include "mod_check.h"
#include "rtc_nvrtc.h"
#include "strlist.h"
#include "strmap.h"
#include "xmalloc.h"

/* Names listed in "it has: ..." before the rest are only counted. */
#define MOD_LIST_NAMES 24

/* What is known of one module. */
struct mod_state {
	bool read;                      /* its first kernel node came */
	bool usable;                    /* its kernels can be checked */
	/* its kernels: own, or the sweep's cache's (mod_cache.h) */
	const struct mod_listing *lst;
	struct mod_listing own;
	struct rtc_image im;            /* a source module's compile */
	struct rtc_image unknown;       /* its first, when names were unknown (bad) */
	/* the last kernel found: a large file names one kernel over and over */
	const char *last;
	long last_idx;
};

struct mod_check {
	struct gdef *g;
	struct diag *d;
	struct mod_settings s;
	struct mod_state *mods;         /* per g->modules */
	/* the CUDA version PTX files are checked against (validate_cuda), asked once */
	bool isa_asked;
	int cuda;
	char cuda_from[32];
};

struct mod_check *mod_check_new(struct gdef *g, struct diag *d, const struct mod_settings *s)
{
	struct mod_check *mc = xcalloc(1, sizeof *mc);
	mc->g = g;
	mc->d = d;
	mc->s = *s;
	mc->mods = xcalloc(g->nmodules ? g->nmodules : 1, sizeof *mc->mods);
	return mc;
}

void mod_check_free(struct mod_check *mc)
{
	if (mc == NULL)
		return;
	for (size_t i = 0; i < mc->g->nmodules; i++) {
		struct mod_state *st = &mc->mods[i];
		mod_listing_free(&st->own);
		rtc_image_free(&st->im);
		rtc_image_free(&st->unknown);
	}
	free(mc->mods);
	free(mc);
}

bool mod_parse_arch(const char *s, int *sm)
{
	if (strncmp(s, "sm_", 3) != 0)
		return false;
	s += 3;
	size_t n = strspn(s, "0123456789");
	if ((n != 2 && n != 3) || s[n] != '\0' || s[0] == '0')
		return false;
	*sm = atoi(s);
	return true;
}

/* Where a module's own errors go: its file, else its name. */
static struct pos or_file_pos(const struct module *m)
{
	return m->file_pos.line ? m->file_pos : m->pos;
}

bool mod_check_ptx(const struct module *m, const struct ptx_header *h, int sm, const char *arch,
		   int cuda, const char *from, struct diag *d)
{
	bool ok = true;
	if (!ptx_target_runs(h, sm)) {
		char runs[96];
		ptx_target_words(h, runs, sizeof runs);
		diag_error(d, or_file_pos(m), "module '%s' ('%s') is PTX for %s (its .target), which "
			   "runs on %s, and %s is sm_%d: compile it for compute_%d or lower, or "
			   "with no 'a' or 'f'", m->name, m->file, h->target, runs, arch, sm, sm);
		ok = false;
	}
	int isa = cuda ? ptx_isa_of_cuda(cuda) : 0;
	if (isa && h->isa > isa) {
		diag_error(d, or_file_pos(m), "module '%s' ('%s') is PTX ISA %d.%d (its .version), "
			   "and CUDA %d.%d (%s) takes PTX ISA %d.%d at most: compile it with that "
			   "toolkit or an older one", m->name, m->file, h->isa / 10, h->isa % 10,
			   cuda / 1000, cuda % 1000 / 10, from, isa / 10, isa % 10);
		ok = false;
	}
	return ok;
}

void mod_warn_shared(const struct node *n, struct diag *d)
{
	const struct kernel_node *k = &n->u.kernel;
	if (k->shared)
		return;
	diag_warning(d, k->function_pos.line ? k->function_pos : n->pos, "kernel '%s' uses "
		     "dynamic shared memory (.extern .shared in its PTX), and node '%s' gives it "
		     "none: add 'shared:' with the bytes it needs, or it reads and writes past its "
		     "block's shared memory", k->function, n->id);
}

/* The CUDA version PTX modules are checked against under --validate, and whence; 0: none. */
static int validate_cuda(struct mod_check *mc, char *from, size_t len)
{
	if (mc->s.cuda) {
		snprintf(from, len, "--driver");
		return mc->s.cuda;
	}
	int v = rtc_version();
	if (v)
		snprintf(from, len, "NVRTC %d.%d", v / 1000, v % 1000 / 10);
	return v;
}

/* "module 'k' ('kernels/k.ptx'): note: ...: WHY", under -v. */
static void not_checked(const struct mod_check *mc, const struct module *m, const char *why)
{
	if (!mc->s.verbose || mc->d->quiet)
		return;
	/* a sweep's points say it once (the cache is the sweep's) */
	if (mc->s.cache && !mod_cache_first_note(mc->s.cache, m->name, m->file))
		return;
	fprintf(mc->d->out, "cugraphrun: module '%s' ('%s'): note: its kernels are not "
		"checked: %s\n", diag_esc(m->name), diag_esc(m->file), why);
}

/* What a listing that is not complete could not read, for not_checked. */
static const char *incomplete_why(const struct image_listing *l, int sm, char *buf, size_t len)
{
	switch (l->kind) {
	case IMAGE_UNKNOWN:
		return "it is neither PTX (no .version), a cubin nor a fatbin that cugraphrun "
		       "can read";
	case IMAGE_PTX:         /* PTX that cannot be read is IMAGE_UNKNOWN */
		return "its PTX cannot be read";
	case IMAGE_CUBIN:
		return "cugraphrun cannot read this cubin";
	case IMAGE_FATBIN:
		break;
	}
	if (sm == 0)
		snprintf(buf, len, "the device decides which entries of the fatbin it loads "
			 "(it holds: %s), and some are compressed or cannot be read; --validate "
			 "--arch reads those of one architecture", l->holds);
	else
		snprintf(buf, len, "what an sm_%d device may load from the fatbin (it holds: "
			 "%s) is compressed or cannot be read", sm, l->holds);
	return buf;
}

/* The function names of the source module's kernel nodes, each once. */
static void source_names(const struct mod_check *mc, const struct module *m,
			 struct strlist *names)
{
	struct strmap *seen = strmap_new(16);
	for (size_t i = 0; i < mc->g->nall_nodes; i++) {
		const struct node *n = mc->g->all_nodes[i];
		if (n->kind != NK_KERNEL || n->u.kernel.module.name == NULL ||
		    n->u.kernel.func == NULL || strcmp(n->u.kernel.module.name, m->name) != 0)
			continue;
		if (strmap_put(seen, n->u.kernel.func, 0, NULL))
			strlist_add(names, n->u.kernel.func);
	}
	strmap_free(seen);
}

/* A source module compiled for mc->s.sm: its image, or NULL (reported, or noted). */
static const void *compile_source(struct mod_check *mc, size_t mi, size_t *len)
{
	const struct module *m = &mc->g->modules[mi];
	struct mod_state *st = &mc->mods[mi];
	if (!mc->s.compile_sources || mc->s.sm == 0)
		return NULL;    /* a run compiles it for its device */
	struct strlist names = {0};
	source_names(mc, m, &names);
	struct rtc_settings rs = {
		.use_cache = mc->s.use_cache,
		.verbose = mc->s.verbose && !mc->d->quiet,
		.if_available = true,
	};
	int rc = rtc_compile(m, (const char *const *)names.v, names.n, mc->s.sm / 10,
			     mc->s.sm % 10, &rs, &st->im, mc->d);
	if (rc == 2 && st->im.bad.n) {
		/*
		 * One unknown name fails the whole compile: the others are
		 * compiled again without those, to check their nodes too.
		 */
		st->unknown = st->im;
		memset(&st->im, 0, sizeof st->im);
		struct strlist known = {0};
		for (size_t i = 0; i < names.n; i++) {
			bool bad = false;
			for (size_t b = 0; b < st->unknown.bad.n && !bad; b++)
				bad = strcmp(names.v[i], st->unknown.bad.v[b]) == 0;
			if (!bad)
				strlist_add(&known, names.v[i]);
		}
		rc = known.n == 0 ? 2 :
			rtc_compile(m, (const char *const *)known.v, known.n, mc->s.sm / 10,
				    mc->s.sm % 10, &rs, &st->im, mc->d);
		strlist_free(&known);
	}
	strlist_free(&names);
	/* names it does not have (unknown.bad) are reported at each node, in file order */
	if (rc != 0 && st->im.no_nvrtc) {
		char why[600];
		snprintf(why, sizeof why, "it is CUDA C++, and NVRTC cannot be loaded (%s)",
			 rtc_why());
		not_checked(mc, m, why);
	}
	if (rc != 0)
		return NULL;
	*len = st->im.size;
	return st->im.data;
}

/*
 * A module file's kernels, or NULL: unreadable (reported before) or too
 * large.  From the sweep's cache when the file was listed for an earlier
 * point and has not changed since.
 */
static const struct mod_listing *list_module(struct mod_check *mc, size_t mi)
{
	const struct module *m = &mc->g->modules[mi];
	struct mod_state *st = &mc->mods[mi];
	struct stat sb;
	if (m->path == NULL || stat(m->path, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size == 0)
		return NULL;
	if ((unsigned long long)sb.st_size > READ_MAX_BYTES) {
		not_checked(mc, m, "the file is larger than 1 GiB");
		return NULL;
	}
	const struct mod_listing *l = mc->s.cache ?
		mod_cache_find(mc->s.cache, m->path, mc->s.sm, &sb) : NULL;
	if (l)
		return l;
	size_t len = 0;
	/* and no further, should it have grown since */
	char *image = read_whole_file_max(m->path, READ_MAX_BYTES, &len);
	if (image == NULL)
		return NULL;
	image_list(image, len, mc->s.sm, &st->own.list);
	free(image);
	mod_listing_index(&st->own);
	if (mc->s.cache)
		return mod_cache_add(mc->s.cache, m->path, mc->s.sm, &sb, &st->own);
	return &st->own;
}

/* Read and list module mi, once; report what is wrong with it as a whole. */
static void open_module(struct mod_check *mc, size_t mi)
{
	const struct module *m = &mc->g->modules[mi];
	struct mod_state *st = &mc->mods[mi];
	st->read = true;
	if (m->source) {
		size_t len = 0;
		const void *image = compile_source(mc, mi, &len);
		if (image == NULL)
			return;
		image_list(image, len, mc->s.sm, &st->own.list);
		mod_listing_index(&st->own);
		st->lst = &st->own;
	} else {
		st->lst = list_module(mc, mi);
		if (st->lst == NULL)
			return;
	}
	const struct image_listing *l = &st->lst->list;
	char why[400];
	/* a PTX file against --arch and a CUDA version; a run checks against its device */
	if (l->kind == IMAGE_PTX && mc->s.sm && !m->source) {
		char from[48] = "";
		/*
		 * A PTX ISA that every NVRTC cugraphrun loads (12.0 on: ISA 8.0)
		 * takes needs no NVRTC to check: loading NVRTC for its version
		 * alone costs about 30 MB of resident memory (bench/frontend.py:
		 * 76 MB for 100,000 nodes of ISA 9.0 PTX against 45.6 MB before
		 * the check).
		 */
		bool isa_known_ok = l->ptx.isa && l->ptx.isa <= ptx_isa_of_cuda(RTC_MIN_CUDA);
		if (!mc->isa_asked && !(isa_known_ok && !mc->s.cuda)) {
			mc->isa_asked = true;
			mc->cuda = validate_cuda(mc, mc->cuda_from, sizeof mc->cuda_from);
		}
		snprintf(from, sizeof from, "%s", mc->cuda_from);
		if (mc->cuda == 0 && !isa_known_ok && mc->s.verbose && !mc->d->quiet)
			fprintf(mc->d->out, "cugraphrun: module '%s' ('%s'): note: its PTX ISA "
				"(.version) is not checked: NVRTC cannot be loaded, and no --driver "
				"says which CUDA runs it\n", diag_esc(m->name), diag_esc(m->file));
		mod_check_ptx(m, &l->ptx, mc->s.sm, "--arch", mc->isa_asked ? mc->cuda : 0, from,
			      mc->d);
	}
	if (l->no_code) {
		diag_error(mc->d, or_file_pos(m), "module '%s' ('%s') has no code for sm_%d "
			   "(--arch); it holds: %s", m->name, m->file, mc->s.sm,
			   l->holds[0] ? l->holds : "neither cubins nor PTX");
		return;
	}
	if (!l->complete) {
		not_checked(mc, m, incomplete_why(l, mc->s.sm, why, sizeof why));
		return;
	}
	st->usable = true;
}

/* "a, b, c" for the first MOD_LIST_NAMES names, then how many in all. */
static char *name_list(const char *const *names, size_t n)
{
	size_t show = n > MOD_LIST_NAMES ? MOD_LIST_NAMES : n, len = 64;
	for (size_t i = 0; i < show; i++)
		len += strlen(names[i]) + 2;
	char *s = xmalloc(len);
	size_t at = 0;
	s[0] = '\0';
	for (size_t i = 0; i < show; i++)
		at += (size_t)snprintf(s + at, len - at, "%s%s", i ? ", " : "", names[i]);
	if (show < n)
		snprintf(s + at, len - at, ", ... (%zu in all)", n);
	return s;
}

/* A function the module does not have: the error lists what it has. */
static void unknown_function(struct mod_check *mc, const struct kernel_node *k,
			     const struct mod_state *st)
{
	const struct module *m = &mc->g->modules[k->module.idx];
	struct pos at = k->function_pos;
	const struct image_listing *l = &st->lst->list;
	if (l->n == 0) {
		diag_error(mc->d, at, "no function '%s' in module '%s', whose '%s' has no kernels",
			   k->func, m->name, m->file);
		return;
	}
	if (!diag_may_print(mc->d)) {
		diag_error(mc->d, at, "no function '%s' in module '%s'", k->func, m->name);
		return;
	}
	const char *hint = diag_suggest(k->func, st->lst->names, l->n);
	char *list = name_list(st->lst->names, l->n);
	if (hint)
		diag_error(mc->d, at, "no function '%s' in module '%s' (did you mean '%s'?); it "
			   "has: %s", k->func, m->name, hint, list);
	else
		diag_error(mc->d, at, "no function '%s' in module '%s'; it has: %s", k->func,
			   m->name, list);
	free(list);
}

/* An argument's form as the file writes it, and C's word for it: "{i64: ...}: long long in C". */
static void arg_form(const struct arg *a, char *buf, size_t len)
{
	static const char *const c_of[ET_COUNT] = {
		[ET_I8] = "signed char", [ET_U8] = "unsigned char", [ET_I16] = "short",
		[ET_U16] = "unsigned short", [ET_I32] = "int", [ET_U32] = "unsigned int",
		[ET_I64] = "long long", [ET_U64] = "unsigned long long", [ET_F16] = "__half",
		[ET_BF16] = "__nv_bfloat16", [ET_F32] = "float", [ET_F64] = "double",
	};
	switch (a->kind) {
	case ARG_SCALAR:
		snprintf(buf, len, "{%s: ...}: %s in C", elem_infos[a->type].name, c_of[a->type]);
		return;
	case ARG_BUFFER:
		snprintf(buf, len, "a buffer: a pointer");
		return;
	case ARG_HANDLE:
		snprintf(buf, len, "a handle: a cudaGraphConditionalHandle");
		return;
	case ARG_PITCH:
		snprintf(buf, len, "{pitch: ...}: size_t in C");
		return;
	case ARG_BYTES:
		snprintf(buf, len, "{bytes: ...}");
		return;
	case ARG_STRUCT:
		snprintf(buf, len, "{struct: ...}");
		return;
	}
	buf[0] = '\0';
}

bool mod_check_args(struct diag *d, const struct node *n, size_t np,
		    const struct ptx_param *params)
{
	const struct kernel_node *k = &n->u.kernel;
	unsigned before = d->nerrors;
	if (k->nargs != np) {
		/* at the first argument too many, else where the arguments are (or would be) */
		struct pos at = k->nargs > np && k->args[np].pos.line ? k->args[np].pos :
				k->args_pos.line ? k->args_pos : k->function_pos;
		diag_error(d, at, "kernel '%s' takes %zu parameter%s, but node '%s' passes %zu "
			   "argument%s", k->function, np, np == 1 ? "" : "s", n->id, k->nargs,
			   k->nargs == 1 ? "" : "s");
		return false;
	}
	for (size_t i = 0; i < np && params; i++) {
		const struct ptx_param *p = &params[i];
		size_t have = arg_size(&k->args[i]);
		if (p->size == 0 || have == p->size)
			continue;
		struct pos at = k->args[i].pos.line ? k->args[i].pos :
				k->args_pos.line ? k->args_pos : k->function_pos;
		/* both sides in C's words too: the kernel's source says int, its PTX .u32 */
		char ptype[96] = "", cbuf[48], aform[96];
		const char *c = p->type[0] ? ptx_c_type(p->type, cbuf, sizeof cbuf) : NULL;
		if (p->type[0])
			snprintf(ptype, sizeof ptype, " (%s%s%s%s)", p->type, c ? ": " : "",
				 c ? c : "", c ? " in C" : "");
		arg_form(&k->args[i], aform, sizeof aform);
		diag_error(d, at, "argument %zu of node '%s' is %zu byte%s (%s), but parameter %zu "
			   "of '%s' is %zu byte%s%s", i + 1, n->id, have, have == 1 ? "" : "s",
			   aform, i + 1, k->function, p->size, p->size == 1 ? "" : "s", ptype);
	}
	return d->nerrors == before;
}

void mod_check_kernel(struct mod_check *mc, const struct node *n)
{
	const struct kernel_node *k = &n->u.kernel;
	if (k->module.idx < 0 || k->func == NULL)
		return;
	const struct module *m = &mc->g->modules[k->module.idx];
	struct mod_state *st = &mc->mods[k->module.idx];
	if (m->builtin)
		return;
	if (!st->read)
		open_module(mc, (size_t)k->module.idx);
	if (st->unknown.bad.n)
		mod_report_unknown_name(m, k, &st->unknown, mc->d);
	if (!st->usable)
		return;
	/* a source's kernels by the symbols NVRTC gave their names */
	const char *symbol = m->source ? rtc_lowered(&st->im, k->func) : k->func;
	if (symbol == NULL)
		return;
	long i;
	if (st->last && strcmp(st->last, symbol) == 0) {
		i = st->last_idx;
	} else {
		i = strmap_get(st->lst->index, symbol);
		st->last = i >= 0 ? st->lst->list.v[i].name : NULL;
		st->last_idx = i;
	}
	if (i < 0) {
		unknown_function(mc, k, st);
		return;
	}
	const struct image_kernel *ik = &st->lst->list.v[i];
	if (ik->everywhere && ik->nparams >= 0)
		mod_check_args(mc->d, n, (size_t)ik->nparams, ik->params);
	if (ik->dyn_shared)
		mod_warn_shared(n, mc->d);
}

/* Split "fill, scale<...>, put" (source_kernels) into its names, in *names (malloc'd). */
static size_t split_kernels(char *list, const char ***names)
{
	size_t n = 0, cap = 0;
	*names = NULL;
	for (char *p = list; p && *p; ) {
		char *comma = strstr(p, ", ");
		if (comma)
			*comma = '\0';
		*VEC_PUSH(*names, n, cap) = p;
		p = comma ? comma + 2 : NULL;
	}
	return n;
}

void mod_report_unknown_name(const struct module *m, const struct kernel_node *k,
			     const struct rtc_image *im, struct diag *d)
{
	bool bad = false;
	for (size_t b = 0; b < im->bad.n && !bad; b++)
		bad = strcmp(im->bad.v[b], k->func) == 0;
	if (!bad)
		return;
	if (im->kernels == NULL || im->kernels[0] == '\0') {
		diag_error(d, k->function_pos, "no kernel '%s' in module '%s' ('%s'), which "
			   "declares no __global__ function", k->func, m->name, m->file);
		return;
	}
	char *copy = xstrdup(im->kernels);
	const char **names;
	size_t nnames = split_kernels(copy, &names);
	const char *hint = diag_may_print(d) ? diag_suggest(k->func, names, nnames) : NULL;
	char mean[256] = "";
	if (hint)
		snprintf(mean, sizeof mean, " (did you mean '%.200s'?)", hint);
	diag_error(d, k->function_pos, "no kernel '%s' in module '%s' ('%s')%s; the source "
		   "declares: %s", k->func, m->name, m->file, mean, im->kernels);
	free(names);
	free(copy);
}
