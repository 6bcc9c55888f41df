#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "ptx.h"

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
