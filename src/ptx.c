#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"
#include "strlist.h"
#include "strmap.h"
#include "xmalloc.h"

/* PTX identifiers: [a-zA-Z_$%][a-zA-Z0-9_$]*. */
static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$' || c == '%';
}

static bool space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Past a comment or a string at p, or p itself when there is none. */
static const char *skip_comment(const char *p)
{
	if (p[0] == '/' && p[1] == '/') {
		const char *e = strchr(p, '\n');
		return e ? e : p + strlen(p);
	}
	if (p[0] == '/' && p[1] == '*') {
		const char *e = strstr(p + 2, "*/");
		return e ? e + 2 : p + strlen(p);
	}
	if (p[0] == '"') {
		for (p++; *p && *p != '"'; p++)
			if (*p == '\\' && p[1])
				p++;
		return *p ? p + 1 : p;
	}
	return p;
}

static const char *skip_space(const char *p)
{
	for (;;) {
		while (space(*p))
			p++;
		const char *q = skip_comment(p);
		if (q == p)
			return p;
		p = q;
	}
}

/* The directive word at p (".entry"), standing alone? */
static bool word_at(const char *start, const char *p, const char *word, size_t len)
{
	return strncmp(p, word, len) == 0 && !ident_char(p[len]) &&
	       (p == start || !ident_char(p[-1]));
}

/* Count .param up to the ')' that closes the list opened before p. */
static long count_params(const char *start, const char *p)
{
	long n = 0;
	while (*p && *p != ')') {
		const char *q = skip_comment(p);
		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '.' && word_at(start, p, ".param", 6)) {
			n++;
			p += 6;
			continue;
		}
		p++;
	}
	return *p == ')' ? n : -1;
}

long ptx_entry_params(const char *text, const char *name)
{
	if (text == NULL || name == NULL || *name == '\0')
		return -1;
	/* ELF (cubin) and fatbin images are binary, not PTX */
	const unsigned char *u = (const unsigned char *)text;
	if ((u[0] == 0x7f && strncmp(text + 1, "ELF", 3) == 0) ||
	    (u[0] == 0x50 && u[1] == 0xed && u[2] == 0x55 && u[3] == 0xba))
		return -1;
	size_t nlen = strlen(name);
	const char *p = text;
	while (*p) {
		const char *q = skip_comment(p);
		if (q != p) {
			p = q;
			continue;
		}
		if (*p != '.' || !word_at(text, p, ".entry", 6)) {
			p++;
			continue;
		}
		p = skip_space(p + 6);
		if (strncmp(p, name, nlen) != 0 || ident_char(p[nlen]))
			continue;
		p = skip_space(p + nlen);
		/* no list at all: `.entry k {` or performance directives */
		return *p == '(' ? count_params(text, p + 1) : 0;
	}
	return -1;
}

/* Listing every entry ------------------------------------------------------ */

/* The PTX types a kernel parameter may have, and their sizes in bytes. */
static const struct {
	const char *name;
	size_t size;
} ptx_types[] = {
	{".b8", 1}, {".u8", 1}, {".s8", 1},
	{".b16", 2}, {".u16", 2}, {".s16", 2}, {".f16", 2}, {".bf16", 2},
	{".b32", 4}, {".u32", 4}, {".s32", 4}, {".f32", 4}, {".f16x2", 4}, {".bf16x2", 4},
	{".b64", 8}, {".u64", 8}, {".s64", 8}, {".f64", 8},
	{".b128", 16},
};

/* What may stand beside the type: the state space, alignment, pointer attributes. */
static const char *const ptx_param_words[] = {
	".param", ".align", ".ptr", ".global", ".const", ".local", ".shared",
};

/* The longest array length taken: far beyond the 32 KiB a kernel's parameters may have. */
#define PTX_MAX_ARRAY 1000000000ul

/* The word at p of n characters one of words[0..count)? */
static bool word_in(const char *p, size_t n, const char *const *words, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (strlen(words[i]) == n && strncmp(p, words[i], n) == 0)
			return true;
	return false;
}

/*
 * One parameter declaration at *pp, up to the ',' or ')' after it (left
 * at *pp); false when it is not one: no .param, no name, a stray
 * character, a list that never closes.
 */
static bool parse_param(const char *start, const char **pp, struct ptx_param *pr)
{
	const char *p = *pp;
	bool param = false, named = false, typed = false, array = false;
	size_t elem = 0;
	unsigned long count = 1;
	memset(pr, 0, sizeof *pr);
	for (;;) {
		p = skip_space(p);
		if (*p == ',' || *p == ')' || *p == '\0')
			break;
		if (*p == '.' && ident_char(p[1])) {
			size_t n = 1;
			while (ident_char(p[n]))
				n++;
			if (n == 6 && word_at(start, p, ".param", 6)) {
				param = true;
			} else if (!word_in(p, n, ptx_param_words,
					    sizeof ptx_param_words / sizeof *ptx_param_words) && !typed) {
				/* the type: a known one has a size, another none (0) */
				typed = true;
				for (size_t i = 0; i < sizeof ptx_types / sizeof *ptx_types; i++)
					if (strlen(ptx_types[i].name) == n &&
					    strncmp(p, ptx_types[i].name, n) == 0)
						elem = ptx_types[i].size;
				snprintf(pr->type, sizeof pr->type, "%.*s", (int)n, p);
			}
			p += n;
		} else if (*p >= '0' && *p <= '9') {
			/* .align's operand */
			while (*p >= '0' && *p <= '9')
				p++;
		} else if (*p == '[' && named && !array) {
			array = true;
			p = skip_space(p + 1);
			if (*p == ']') {
				count = 0;      /* unsized: no size to check */
			} else {
				count = 0;
				if (!(*p >= '0' && *p <= '9'))
					return false;
				while (*p >= '0' && *p <= '9') {
					count = count * 10 + (unsigned long)(*p++ - '0');
					if (count > PTX_MAX_ARRAY)
						return false;
				}
				p = skip_space(p);
				if (*p != ']')
					return false;
			}
			p++;
		} else if (ident_char(*p) && !named) {
			named = true;
			while (ident_char(*p))
				p++;
		} else {
			return false;
		}
	}
	if (!param || !named || !typed || *p == '\0')
		return false;
	pr->size = elem * count;
	if (array) {
		size_t tl = strlen(pr->type);
		if (count)
			snprintf(pr->type + tl, sizeof pr->type - tl, "[%lu]", count);
		else
			snprintf(pr->type + tl, sizeof pr->type - tl, "[]");
	}
	*pp = p;
	return true;
}

/* The parameter list after the '(' at *pp, up to and past its ')'; false when unreadable. */
static bool parse_params(const char *start, const char **pp, struct ptx_entry *e)
{
	const char *p = skip_space(*pp);
	size_t cap = 0;
	if (*p == ')') {
		*pp = p + 1;
		return true;
	}
	for (;;) {
		struct ptx_param pr;
		if (!parse_param(start, &p, &pr))
			return false;
		*VEC_PUSH(e->params, e->nparams, cap) = pr;
		if (*p == ')')
			break;
		p++;            /* the ',' */
	}
	*pp = p + 1;
	return true;
}

static bool same_params(const struct ptx_entry *a, const struct ptx_entry *b)
{
	if (a->nparams != b->nparams)
		return false;
	for (size_t i = 0; i < a->nparams; i++)
		if (a->params[i].size != b->params[i].size ||
		    strcmp(a->params[i].type, b->params[i].type) != 0)
			return false;
	return true;
}

void ptx_entries_free(struct ptx_entry *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].name);
		free(v[i].params);
	}
	free(v);
}

/*
 * The name a .extern .shared declaration at p (past ".extern") declares,
 * into names; p unchanged when it declares no shared memory.
 */
static void extern_shared(const char *start, const char *p, struct strlist *names)
{
	p = skip_space(p);
	if (!word_at(start, p, ".shared", 7))
		return;
	p += 7;
	/* .align N and the type go by: the name is the identifier before '[' or ';' */
	const char *name = NULL;
	size_t len = 0;
	while (*p && *p != ';' && *p != '[') {
		p = skip_space(p);
		if (*p == '.' || (*p >= '0' && *p <= '9')) {
			p++;
			while (ident_char(*p))
				p++;
			continue;
		}
		if (ident_char(*p)) {
			name = p;
			while (ident_char(*p))
				p++;
			len = (size_t)(p - name);
			continue;
		}
		if (*p && *p != ';' && *p != '[')
			p++;
	}
	if (name) {
		char *n = xstrndup(name, len);
		strlist_add(names, n);
		free(n);
	}
}

/*
 * Does the body of the entry whose parameters end at p (performance
 * directives may come first; a declaration has no body) name one of the
 * .extern .shared names, or declare one of its own?
 */
static bool body_uses_shared(const char *start, const char *p, const struct strlist *names)
{
	while (*p && *p != '{' && *p != ';')
		p = skip_comment(p) != p ? skip_comment(p) : p + 1;
	if (*p != '{')
		return false;
	int depth = 0;
	for (; *p; ) {
		const char *q = skip_comment(p);
		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '{')
			depth++;
		else if (*p == '}' && --depth == 0)
			return false;
		if (*p == '.' && word_at(start, p, ".extern", 7)) {
			const char *r = skip_space(p + 7);
			if (word_at(start, r, ".shared", 7))
				return true;
		}
		if (ident_char(*p) && *p != '%' && (p == start || !ident_char(p[-1]))) {
			const char *w = p;
			while (ident_char(*p))
				p++;
			for (size_t i = 0; i < names->n; i++)
				if (strlen(names->v[i]) == (size_t)(p - w) &&
				    strncmp(names->v[i], w, (size_t)(p - w)) == 0)
					return true;
			continue;
		}
		p++;
	}
	return false;
}

long ptx_entries(const char *text, struct ptx_entry **out)
{
	*out = NULL;
	if (text == NULL)
		return -1;
	const unsigned char *u = (const unsigned char *)text;
	if ((u[0] == 0x7f && strncmp(text + 1, "ELF", 3) == 0) ||
	    (u[0] == 0x50 && u[1] == 0xed && u[2] == 0x55 && u[3] == 0xba))
		return -1;
	struct ptx_entry *v = NULL;
	size_t n = 0, cap = 0;
	bool version = false, ok = true;
	struct strmap *index = strmap_new(16);
	struct strlist shared = {0};
	const char *p = text;
	while (*p && ok) {
		const char *q = skip_comment(p);
		if (q != p) {
			p = q;
			continue;
		}
		if (*p != '.') {
			p++;
			continue;
		}
		if (word_at(text, p, ".version", 8)) {
			version = true;
			p += 8;
			continue;
		}
		if (word_at(text, p, ".extern", 7)) {
			extern_shared(text, p + 7, &shared);
			p += 7;
			continue;
		}
		if (!word_at(text, p, ".entry", 6)) {
			p++;
			continue;
		}
		p = skip_space(p + 6);
		const char *name = p;
		while (ident_char(*p))
			p++;
		struct ptx_entry e = {0};
		if (p == name) {
			ok = false;
			break;
		}
		e.name = xstrndup(name, (size_t)(p - name));
		p = skip_space(p);
		/* no list at all: `.entry k {` or performance directives */
		if (*p == '(') {
			p++;
			ok = parse_params(text, &p, &e);
		}
		e.dyn_shared = ok && body_uses_shared(text, p, &shared);
		/* a name twice (a declaration and its definition) must agree */
		long dup = ok ? strmap_get(index, e.name) : -1;
		if (dup >= 0)
			ok = same_params(&v[dup], &e);
		if (ok && dup < 0) {
			strmap_put(index, e.name, (long)n, NULL);
			*VEC_PUSH(v, n, cap) = e;
		} else {
			free(e.name);
			free(e.params);
		}
	}
	strmap_free(index);
	strlist_free(&shared);
	if (!ok || !version) {
		ptx_entries_free(v, n);
		return -1;
	}
	*out = v;
	return (long)n;
}

/* An entry's parameter list and body ----------------------------------------- */

static bool is_image(const char *text)
{
	const unsigned char *u = (const unsigned char *)text;
	return (u[0] == 0x7f && strncmp(text + 1, "ELF", 3) == 0) ||
	       (u[0] == 0x50 && u[1] == 0xed && u[2] == 0x55 && u[3] == 0xba);
}

/* The ')' closing the list opened before p, or NULL; comments and strings skipped. */
static const char *close_paren(const char *p)
{
	while (*p && *p != ')') {
		const char *q = skip_comment(p);
		p = q != p ? q : p + 1;
	}
	return *p ? p : NULL;
}

/* The '}' closing the body opened before p (inner blocks nest), or NULL. */
static const char *close_brace(const char *p)
{
	unsigned depth = 1;
	while (*p) {
		const char *q = skip_comment(p);
		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '{')
			depth++;
		else if (*p == '}' && --depth == 0)
			return p;
		p++;
	}
	return NULL;
}

/*
 * After an entry's name at p: its parameter list and body, or false for a
 * declaration (ending in ';') or text that does not close.  Between the
 * list and the body may stand performance directives (.maxntid 256, 1, 1).
 */
static bool entry_parts(const char *p, struct ptx_span *params, struct ptx_span *body)
{
	p = skip_space(p);
	params->start = params->end = p;
	if (*p == '(') {
		const char *e = close_paren(p + 1);
		if (e == NULL)
			return false;
		params->start = p + 1;
		params->end = e;
		p = e + 1;
	}
	for (;;) {
		p = skip_space(p);
		if (*p == '{' || *p == ';' || *p == '\0')
			break;
		p++;
	}
	if (*p != '{')
		return false;
	const char *e = close_brace(p + 1);
	if (e == NULL)
		return false;
	body->start = p + 1;
	body->end = e;
	return true;
}

bool ptx_entry_span(const char *text, const char *name, struct ptx_span *params,
		    struct ptx_span *body)
{
	if (text == NULL || name == NULL || *name == '\0' || is_image(text))
		return false;
	size_t nlen = strlen(name);
	const char *p = text;
	while (*p) {
		const char *q = skip_comment(p);
		if (q != p) {
			p = q;
			continue;
		}
		if (*p != '.' || !word_at(text, p, ".entry", 6)) {
			p++;
			continue;
		}
		p = skip_space(p + 6);
		if (strncmp(p, name, nlen) != 0 || ident_char(p[nlen]))
			continue;
		if (entry_parts(p + nlen, params, body))
			return true;
		p += nlen;
	}
	return false;
}

char *ptx_uncomment(struct ptx_span s)
{
	size_t n = (size_t)(s.end - s.start);
	char *out = xmalloc(n + 1);
	size_t k = 0;
	for (const char *p = s.start; p < s.end;) {
		const char *q = skip_comment(p);
		bool str = *p == '"';
		if (q == p) {
			out[k++] = *p++;
			continue;
		}
		/* a string as it is; a comment as spaces, keeping its newlines
		 * (either stops at the span's end) */
		for (; p < q && p < s.end; p++)
			out[k++] = str || *p == '\n' ? *p : ' ';
	}
	out[k] = '\0';
	return out;
}

/* C's names of the PTX types kernels' parameters have (nvcc's choices: int is .u32). */
static const struct {
	const char *ptx, *c;
} c_types[] = {
	{".b8", "char"}, {".u8", "unsigned char"}, {".s8", "signed char"},
	{".b16", "short"}, {".u16", "unsigned short"}, {".s16", "short"},
	{".f16", "__half"}, {".bf16", "__nv_bfloat16"},
	{".b32", "int or unsigned int"}, {".u32", "int or unsigned int"}, {".s32", "int"},
	{".f32", "float"}, {".f16x2", "__half2"}, {".bf16x2", "__nv_bfloat162"},
	{".b64", "a pointer or a 64-bit integer"}, {".u64", "a pointer or a 64-bit integer"},
	{".s64", "long long"}, {".f64", "double"},
};

const char *ptx_c_type(const char *type, char *buf, size_t len)
{
	const char *bracket = strchr(type, '[');
	if (bracket) {
		unsigned long n = strtoul(bracket + 1, NULL, 10);
		snprintf(buf, len, "a struct or array of %lu bytes", n);
		return n ? buf : NULL;
	}
	for (size_t i = 0; i < sizeof c_types / sizeof *c_types; i++)
		if (strcmp(type, c_types[i].ptx) == 0)
			return c_types[i].c;
	return NULL;
}

/* The header ------------------------------------------------------------- */

bool ptx_header(const char *text, struct ptx_header *h)
{
	memset(h, 0, sizeof *h);
	const unsigned char *u = (const unsigned char *)text;
	if ((u[0] == 0x7f && strncmp(text + 1, "ELF", 3) == 0) ||
	    (u[0] == 0x50 && u[1] == 0xed && u[2] == 0x55 && u[3] == 0xba))
		return false;
	bool version = false;
	const char *p = text;
	/* the header comes before the first .entry, .func or declaration */
	while (*p && !(version && h->target[0])) {
		const char *q = skip_comment(p);
		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '.' && word_at(text, p, ".version", 8)) {
			p = skip_space(p + 8);
			int major = 0, minor = 0;
			while (*p >= '0' && *p <= '9')
				major = major * 10 + (*p++ - '0');
			if (*p == '.')
				p++;
			while (*p >= '0' && *p <= '9')
				minor = minor * 10 + (*p++ - '0');
			h->isa = major * 10 + (minor > 9 ? 9 : minor);
			version = true;
			continue;
		}
		if (*p == '.' && word_at(text, p, ".target", 7)) {
			p = skip_space(p + 7);
			/* a list: "sm_90, texmode_independent"; the sm_ word is the target */
			while (*p && *p != '\n' && *p != ';') {
				const char *w = p;
				while (ident_char(*p))
					p++;
				size_t n = (size_t)(p - w);
				if (n > 3 && strncmp(w, "sm_", 3) == 0 && !h->target[0]) {
					snprintf(h->target, sizeof h->target, "%.*s", (int)n, w);
					int sm = 0;
					const char *d = w + 3;
					while (d < p && *d >= '0' && *d <= '9')
						sm = sm * 10 + (*d++ - '0');
					h->sm = sm;
					h->suffix = d < p && (*d == 'a' || *d == 'f') ? *d : 0;
				}
				if (p == w)
					p++;
			}
			if (!h->target[0])
				snprintf(h->target, sizeof h->target, "%s", "?");
			continue;
		}
		if (*p == '.' && (word_at(text, p, ".entry", 6) || word_at(text, p, ".func", 5)))
			break;
		p++;
	}
	if (strcmp(h->target, "?") == 0)
		h->target[0] = '\0';
	return version;
}

bool ptx_target_runs(const struct ptx_header *h, int sm)
{
	if (h->sm == 0 || sm == 0)
		return true;
	switch (h->suffix) {
	case 'a':
		return sm == h->sm;
	case 'f':
		return sm / 10 == h->sm / 10 && sm >= h->sm;
	default:
		return sm >= h->sm;
	}
}

void ptx_target_words(const struct ptx_header *h, char *buf, size_t len)
{
	switch (h->suffix) {
	case 'a':
		snprintf(buf, len, "sm_%d devices alone", h->sm);
		break;
	case 'f':
		snprintf(buf, len, "sm_%d and the later ones of its family (sm_%dx)", h->sm,
			 h->sm / 10);
		break;
	default:
		snprintf(buf, len, "sm_%d and newer", h->sm);
		break;
	}
}

int ptx_isa_of_cuda(int cuda)
{
	int major = cuda / 1000, minor = cuda % 1000 / 10;
	/* CUDA 12.6 to 12.9: one ISA step fewer than the release (12.6 kept 8.5) */
	if (major == 12 && minor >= 6)
		return 80 + minor - 1;
	return (major - 4) * 10 + minor;
}
