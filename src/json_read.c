/*
 * Reading JSON text strictly (json_read.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "utf8.h"
#include "xmalloc.h"

const char *const jtype_names[] = {
	[JNULL] = "null", [JBOOL] = "a boolean", [JNUM] = "a number", [JSTR] = "a string",
	[JARR] = "a list", [JOBJ] = "an object",
};

/*
 * The keys of the object open at one level, for finding a key given twice:
 * open addressing, at most half full (it doubles past that, so at most
 * four slots a key up to JSON_MAX_KEYS), a slot counting only when its
 * generation is the object's, so that a new object at the level starts
 * empty without clearing anything.
 */
struct key_slot {
	uint64_t gen;
	uint64_t hash;
	struct jr_mark m;       /* the key's opening quote */
};

struct jr_keys {
	struct key_slot *slot;
	size_t cap;             /* a power of two */
	size_t n;               /* the object's keys so far */
	uint64_t gen;
};

void jr_init(struct jr *p, const char *text, size_t len, struct diag *d)
{
	memset(p, 0, sizeof *p);
	p->s = text;
	p->len = len;
	p->m.line = 1;
	p->d = d;
}

void jr_free(struct jr *p)
{
	for (unsigned i = 0; i < JSON_MAX_DEPTH; i++)
		if (p->keys[i]) {
			free(p->keys[i]->slot);
			free(p->keys[i]);
		}
	free(p->sbuf);
	free(p->kbuf);
	memset(p, 0, sizeof *p);
}

struct pos jr_pos_of(const struct jr *p, struct jr_mark m)
{
	/* the column in characters: every byte but UTF-8's continuation bytes */
	size_t col = 1;
	for (size_t i = m.line_at; i < m.at && i < p->len; i++)
		col += ((unsigned char)p->s[i] & 0xc0) != 0x80;
	return (struct pos){m.line > UINT32_MAX ? UINT32_MAX : (uint32_t)m.line,
			    col > UINT32_MAX ? UINT32_MAX : (uint32_t)col};
}

struct jr_mark jr_here(const struct jr *p)
{
	return p->m;
}

void jr_error(struct jr *p, struct jr_mark m, const char *fmt, ...)
{
	if (p->failed) {
		diag_code(NULL); /* the message goes, and its code with it */
		return;
	}
	p->failed = true;
	va_list ap;
	va_start(ap, fmt);
	diag_vmsg(p->d, DIAG_ERROR, jr_pos_of(p, m), fmt, ap);
	va_end(ap);
}

/* A syntax error at m: "invalid JSON: ...". */
static __attribute__((format(printf, 3, 4), cold)) bool bad(struct jr *p, struct jr_mark m,
							   const char *fmt, ...)
{
	if (p->failed)
		return false;
	char what[200];
	va_list ap;
	va_start(ap, fmt);
	diag_code_keep(fmt, ap);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	jr_error(p, m, "invalid JSON: %s", what);
	return false;
}

/* The byte at the mark, or -1 at the end of the text. */
static inline int cur(const struct jr *p)
{
	return p->m.at < p->len ? (unsigned char)p->s[p->m.at] : -1;
}

static void skip_space(struct jr *p)
{
	const char *s = p->s;
	size_t at = p->m.at;
	while (at < p->len) {
		char c = s[at];
		if (c == '\n') {
			p->m.line++;
			p->m.line_at = at + 1;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			break;
		}
		at++;
	}
	p->m.at = at;
}

/* What the byte at the mark is, for a message: 'x', or byte 0x00. */
static const char *byte_words(const struct jr *p, char *buf, size_t len)
{
	int c = cur(p);
	if (c < 0)
		snprintf(buf, len, "the end of the text");
	else if (c > 0x20 && c < 0x7f)
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "byte 0x%02x", (unsigned)c);
	return buf;
}

/* Why the byte at the mark starts no value: what the text is, when it is not JSON. */
static bool no_value(struct jr *p)
{
	static const struct {
		char c;
		const char *why;
	} hints[] = {
		{'\'', "a string is in double quotes, not single"},
		{'/', "JSON has no comments"},
		{'#', "JSON has no comments"},
		{'%', "a YAML directive is no JSON"},
		{'&', "a YAML anchor is no JSON"},
		{'*', "a YAML alias is no JSON"},
		{'!', "a YAML tag is no JSON"},
		{'N', "NaN is no JSON number (a report writes null)"},
		{'I', "Infinity is no JSON number (a report writes null)"},
		{'+', "a JSON number has no '+' sign"},
		{'.', "a JSON number starts with a digit"},
	};
	char b[32];
	if (cur(p) < 0)
		return bad(p, p->m, "the text ends where a value was expected%s",
			   p->depth ? " (inside a list or an object)" : "");
	for (size_t i = 0; i < sizeof hints / sizeof *hints; i++)
		if (cur(p) == hints[i].c) {
			diag_code("json-invalid-value-start");
			return bad(p, p->m, "%s", hints[i].why);
		}
	return bad(p, p->m, "%s starts no JSON value (a string is in double quotes)",
		   byte_words(p, b, sizeof b));
}

bool jr_peek(struct jr *p, enum jtype *t)
{
	if (p->failed)
		return false;
	skip_space(p);
	switch (cur(p)) {
	case '{':
		*t = JOBJ;
		return true;
	case '[':
		*t = JARR;
		return true;
	case '"':
		*t = JSTR;
		return true;
	case 't':
	case 'f':
		*t = JBOOL;
		return true;
	case 'n':
		*t = JNULL;
		return true;
	case '-':
	case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		*t = JNUM;
		return true;
	default:
		return no_value(p);
	}
}

/* Room for n more bytes in *buf, holding len. */
static void reserve(char **buf, size_t *cap, size_t len, size_t n)
{
	if (len + n <= *cap)
		return;
	size_t want = *cap ? *cap : 64;
	while (want < len + n)
		want *= 2;
	*buf = xreallocarray(*buf, want, 1);
	*cap = want;
}

static int hex4(const char *s)
{
	int v = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v << 4 | d;
	}
	return v;
}

/* cp as UTF-8 into out; its length. */
static size_t put_utf8(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A \u escape at s[at] ('\\'), surrogate pairs joined; its code point, or -1 after a message. */
static int32_t u_escape(struct jr *p, size_t *at)
{
	const char *s = p->s;
	struct jr_mark m = {*at, p->m.line, p->m.line_at};
	if (p->len - *at < 6 || hex4(s + *at + 2) < 0)
		return bad(p, m, "\\u needs four hex digits"), -1;
	int32_t cp = hex4(s + *at + 2);
	*at += 6;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return bad(p, m, "\\u%04x is half of a surrogate pair, alone", (unsigned)cp), -1;
	if (cp >= 0xd800 && cp <= 0xdbff) {
		int lo = p->len - *at >= 6 && s[*at] == '\\' && s[*at + 1] == 'u' ?
			hex4(s + *at + 2) : -1;
		if (lo < 0xdc00 || lo > 0xdfff)
			return bad(p, m, "\\u%04x is half of a surrogate pair, alone",
				   (unsigned)cp), -1;
		*at += 6;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (cp == 0)
		return bad(p, m, "a string holds a NUL character (\\u0000): not read"), -1;
	return cp;
}

/*
 * The string whose opening quote is at the mark, checked, and unescaped
 * into *buf (NUL-terminated) unless buf is NULL; the mark moves past it.
 */
static bool read_string(struct jr *p, char **buf, size_t *cap, size_t *lenp)
{
	static const char short_esc[128] = {
		['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b', ['f'] = '\f',
		['n'] = '\n', ['r'] = '\r', ['t'] = '\t',
	};
	const unsigned char *s = (const unsigned char *)p->s;
	struct jr_mark start = p->m;
	size_t at = p->m.at + 1, len = 0;
	for (;;) {
		/* a run of plain bytes at once */
		size_t run = at;
		while (run < p->len && s[run] >= 0x20 && s[run] < 0x80 && s[run] != '"' &&
		       s[run] != '\\')
			run++;
		if (buf && run > at) {
			reserve(buf, cap, len, run - at + 5);
			memcpy(*buf + len, s + at, run - at);
			len += run - at;
		}
		at = run;
		if (at >= p->len)
			return bad(p, start, "the text ends inside this string");
		struct jr_mark here = {at, p->m.line, p->m.line_at};
		unsigned c = s[at];
		char out[4];
		size_t n = 0;
		if (c == '"')
			break;
		if (c < 0x20)
			return bad(p, here, "a control character (byte 0x%02x) in a string: "
				   "JSON writes it as an escape", c);
		if (c == '\\') {
			unsigned e = at + 1 < p->len ? s[at + 1] : 0;
			if (e == 'u') {
				int32_t cp = u_escape(p, &at);
				if (cp < 0)
					return false;
				n = put_utf8(out, (uint32_t)cp);
			} else if (e < 128 && short_esc[e]) {
				out[0] = short_esc[e];
				n = 1;
				at += 2;
			} else {
				return bad(p, here, "\\%c is no JSON escape", e > 0x20 && e < 0x7f ?
					   (char)e : '?');
			}
		} else {
			size_t k;
			if (utf8_next(s + at, p->len - at, &k) < 0)
				return bad(p, here, "byte 0x%02x in a string is not UTF-8", c);
			memcpy(out, s + at, k);
			n = k;
			at += k;
		}
		if (buf) {
			reserve(buf, cap, len, n + 1);
			memcpy(*buf + len, out, n);
			len += n;
		}
	}
	if (buf) {
		reserve(buf, cap, len, 1);
		(*buf)[len] = '\0';
	}
	if (lenp)
		*lenp = len;
	p->m.at = at + 1;
	return true;
}

/* The digits at s[*at..end) into *mant (the first 19 significant), *ndig and *count. */
static void digits(const char *s, size_t *at, size_t end, uint64_t *mant, unsigned *ndig,
		   size_t *count)
{
	size_t i = *at;
	for (; i < end && s[i] >= '0' && s[i] <= '9'; i++) {
		/* leading zeros are no significant digits */
		if (*ndig || s[i] != '0') {
			if (*ndig < 19)
				*mant = *mant * 10 + (uint64_t)(s[i] - '0');
			++*ndig;
		}
	}
	*count = i - *at;
	*at = i;
}

/*
 * Clinger's fast path: a mantissa of at most 15 digits (exact in a double)
 * times or over a power of ten up to 1e22 (exact too) is one correctly
 * rounded operation, the value strtod gives, without its cost (a report's
 * samples are millions of "1.23456789e-05").  False when it does not apply.
 */
static bool fast_number(uint64_t mant, unsigned ndig, long exp10, bool neg, double *v)
{
	static const double pow10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
	};
	if (ndig > 15 || exp10 < -22 || exp10 > 22)
		return false;
	double d = (double)mant;
	d = exp10 < 0 ? d / pow10[-exp10] : d * pow10[exp10];
	*v = neg ? -d : d;
	return true;
}

/* A number at the mark, by RFC 8259's grammar, into p->sbuf and out. */
static bool read_number(struct jr *p, struct jscalar *out)
{
	const char *s = p->s;
	size_t at = p->m.at, end = p->len, count;
	uint64_t mant = 0;
	unsigned ndig = 0;
	long exp10 = 0;
	bool neg = s[at] == '-';
	at += neg;
	if (at < end && s[at] == '0' && at + 1 < end && s[at + 1] >= '0' && s[at + 1] <= '9')
		return bad(p, p->m, "a number with a leading zero");
	digits(s, &at, end, &mant, &ndig, &count);
	if (count == 0)
		return bad(p, p->m, "'-' without digits");
	if (at < end && s[at] == '.') {
		at++;
		digits(s, &at, end, &mant, &ndig, &count);
		if (count == 0)
			return bad(p, p->m, "a number's '.' without digits after it");
		/* the fast path needs this only where every digit is in mant (15 or fewer) */
		exp10 -= (long)count;
	}
	if (at < end && (s[at] == 'e' || s[at] == 'E')) {
		at++;
		bool eneg = at < end && s[at] == '-';
		at += at < end && (s[at] == '+' || s[at] == '-');
		long e = 0;
		size_t d = at;
		for (; at < end && s[at] >= '0' && s[at] <= '9'; at++)
			e = e < 100000 ? e * 10 + (s[at] - '0') : e;
		if (at == d)
			return bad(p, p->m, "a number's exponent without digits");
		exp10 += eneg ? -e : e;
	}
	size_t n = at - p->m.at;
	reserve(&p->sbuf, &p->scap, 0, n + 1);
	memcpy(p->sbuf, s + p->m.at, n);
	p->sbuf[n] = '\0';
	p->m.at = at;
	if (out) {
		out->type = JNUM;
		/* else the C locale's strtod: cugraphrun never sets another */
		if (!fast_number(mant, ndig, exp10, neg, &out->num))
			out->num = strtod(p->sbuf, NULL);
		out->text = p->sbuf;
		out->len = n;
	}
	return true;
}

static bool read_literal(struct jr *p, struct jscalar *out)
{
	static const struct {
		const char *word;
		enum jtype type;
		bool b;
	} words[] = {{"null", JNULL, false}, {"true", JBOOL, true}, {"false", JBOOL, false}};
	for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
		size_t n = strlen(words[i].word);
		if (p->len - p->m.at >= n && memcmp(p->s + p->m.at, words[i].word, n) == 0) {
			p->m.at += n;
			if (out) {
				out->type = words[i].type;
				out->b = words[i].b;
				out->text = words[i].word;
				out->len = n;
			}
			return true;
		}
	}
	return bad(p, p->m, "no JSON value starts so (null, true and false are lower case, "
		   "a string is in double quotes)");
}

bool jr_scalar(struct jr *p, struct jscalar *out)
{
	enum jtype t;
	if (!jr_peek(p, &t))
		return false;
	if (out)
		memset(out, 0, sizeof *out);
	switch (t) {
	case JSTR: {
		size_t len;
		if (!read_string(p, out ? &p->sbuf : NULL, &p->scap, &len))
			return false;
		if (out) {
			out->type = JSTR;
			out->text = p->sbuf;
			out->len = len;
		}
		return true;
	}
	case JNUM:
		return read_number(p, out);
	case JNULL:
	case JBOOL:
		return read_literal(p, out);
	default:
		return bad(p, p->m, "a list or an object where a single value was expected");
	}
}

bool jr_begin(struct jr *p)
{
	enum jtype t;
	if (!jr_peek(p, &t))
		return false;
	if (t != JOBJ && t != JARR)
		return bad(p, p->m, "a single value where a list or an object was expected");
	if (p->depth >= JSON_MAX_DEPTH) {
		jr_error(p, p->m, "nested more than %d levels deep: no cugraphrun report is",
			 JSON_MAX_DEPTH);
		return false;
	}
	struct jr_frame *f = &p->frames[p->depth];
	*f = (struct jr_frame){.object = t == JOBJ};
	if (f->object) {
		if (p->keys[p->depth] == NULL)
			p->keys[p->depth] = xcalloc(1, sizeof *p->keys[p->depth]);
		p->keys[p->depth]->gen = ++p->generation;
		p->keys[p->depth]->n = 0;
	}
	p->depth++;
	p->m.at++;
	return true;
}

static uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3u;
	return h;
}

/* Is the key p->kbuf[0..len) the key whose quote is at m? */
static bool same_key(struct jr *p, struct jr_mark m, size_t len)
{
	struct jr_mark was = p->m;
	p->m = m;
	char *buf = NULL;
	size_t cap = 0, n = 0;
	/* read before without an error: it reads again the same */
	read_string(p, &buf, &cap, &n);
	p->m = was;
	bool same = n == len && memcmp(buf, p->kbuf, len) == 0;
	free(buf);
	return same;
}

/* Room for one more key in k: twice the slots, the object's keys placed again. */
static void keys_grow(struct jr_keys *k)
{
	if (2 * (k->n + 1) <= k->cap)
		return;
	size_t cap = k->cap ? 2 * k->cap : 32;
	struct key_slot *slot = xcalloc(cap, sizeof *slot);
	for (size_t i = 0; i < k->cap; i++) {
		if (k->slot[i].gen != k->gen)
			continue;
		size_t j = k->slot[i].hash & (cap - 1);
		while (slot[j].gen == k->gen)
			j = (j + 1) & (cap - 1);
		slot[j] = k->slot[i];
	}
	free(k->slot);
	k->slot = slot;
	k->cap = cap;
}

/* The key just read (p->kbuf, len; its quote at m) among its object's; false when again. */
static bool key_once(struct jr *p, struct jr_mark m, size_t len)
{
	struct jr_keys *k = p->keys[p->depth - 1];
	uint64_t h = hash_bytes(p->kbuf, len);
	keys_grow(k);
	size_t i = h & (k->cap - 1);
	for (; k->slot[i].gen == k->gen; i = (i + 1) & (k->cap - 1)) {
		if (k->slot[i].hash == h && same_key(p, k->slot[i].m, len)) {
			struct pos first = jr_pos_of(p, k->slot[i].m);
			char what[64];
			snprintf(what, sizeof what, "\"%.40s\"%s", p->kbuf, len > 40 ? "..." : "");
			return bad(p, m, "the key %s again: an object holds each key once (the "
				   "first is at %u:%u)", diag_esc(what), first.line, first.col);
		}
	}
	k->slot[i] = (struct key_slot){k->gen, h, m};
	k->n++;
	return true;
}

/* Past the ',' before the next item or key, or the closing c; false at the close or an error. */
static bool more(struct jr *p, char close)
{
	struct jr_frame *f = &p->frames[p->depth - 1];
	skip_space(p);
	if (cur(p) == close) {
		p->m.at++;
		p->depth--;
		return false;
	}
	if (f->n > 0) {
		char b[32];
		if (cur(p) != ',')
			return bad(p, p->m, "%s where ',' or '%c' was expected%s",
				   byte_words(p, b, sizeof b), close,
				   cur(p) < 0 ? " (the text ends too soon)" : "");
		p->m.at++;
		skip_space(p);
		if (cur(p) == close)
			return bad(p, p->m, "a comma before '%c': JSON has no trailing comma", close);
	}
	f->n++;
	return true;
}

bool jr_next_key(struct jr *p, const char **key, size_t *lenp)
{
	if (p->failed)
		return false;
	if (!more(p, '}'))
		return false;
	char b[32];
	struct jr_mark m = p->m;
	if (cur(p) == '\'')
		return bad(p, m, "a key is a string in double quotes, not single");
	if (cur(p) != '"')
		return bad(p, m, "%s where an object's key was expected (a key is a string in "
			   "double quotes)", byte_words(p, b, sizeof b));
	if (p->frames[p->depth - 1].n > JSON_MAX_KEYS)
		return bad(p, m, "an object of more than %d keys: no cugraphrun report has one",
			   JSON_MAX_KEYS);
	size_t len;
	if (!read_string(p, &p->kbuf, &p->kcap, &len) || !key_once(p, m, len))
		return false;
	skip_space(p);
	if (cur(p) != ':')
		return bad(p, p->m, "%s where ':' after the key was expected",
			   byte_words(p, b, sizeof b));
	p->m.at++;
	if (key)
		*key = p->kbuf;
	if (lenp)
		*lenp = len;
	return true;
}

bool jr_next_item(struct jr *p)
{
	return !p->failed && more(p, ']');
}

bool jr_skip(struct jr *p)
{
	unsigned base = p->depth;
	do {
		enum jtype t;
		if (!jr_peek(p, &t))
			return false;
		if (t == JOBJ || t == JARR) {
			if (!jr_begin(p))
				return false;
		} else if (!jr_scalar(p, NULL)) {
			return false;
		}
		/* out of every container that ends here, to the next value */
		while (p->depth > base) {
			bool next = p->frames[p->depth - 1].object ? jr_next_key(p, NULL, NULL) :
				jr_next_item(p);
			if (p->failed)
				return false;
			if (next)
				break;
		}
	} while (p->depth > base);
	return true;
}

bool jr_count(struct jr *p, size_t *n)
{
	*n = 0;
	struct jr_mark start;
	enum jtype t;
	if (!jr_peek(p, &t))
		return false;
	start = p->m;
	if (!jr_begin(p))
		return false;
	while (t == JOBJ ? jr_next_key(p, NULL, NULL) : jr_next_item(p)) {
		if (!jr_skip(p))
			return false;
		++*n;
	}
	if (p->failed)
		return false;
	p->m = start;
	return true;
}

bool jr_numbers_bound(struct jr *p, size_t *n)
{
	enum jtype t;
	if (!jr_peek(p, &t) || t != JARR)
		return false;
	const char *s = p->s + p->m.at + 1, *end = p->s + p->len;
	const char *close = memchr(s, ']', (size_t)(end - s));
	if (close == NULL)
		close = end;
	size_t commas = 0;
	for (const char *c = s; (c = memchr(c, ',', (size_t)(close - c))) != NULL; c++)
		commas++;
	*n = commas + 1;
	return true;
}

void jr_fork(const struct jr *p, struct jr *q)
{
	jr_init(q, p->s, p->len, p->d);
	q->m = p->m;
	q->depth = 1;
	q->frames[0] = p->frames[p->depth - 1];
	/* the keys before here are p's: q checks those after it */
	q->keys[0] = xcalloc(1, sizeof *q->keys[0]);
	q->keys[0]->gen = ++q->generation;
	q->keys[0]->n = 0;
}

bool jr_end(struct jr *p)
{
	if (p->failed)
		return false;
	skip_space(p);
	if (cur(p) >= 0)
		return bad(p, p->m, "more than one value: only white space may follow the first");
	return true;
}

/* The reader's path ---------------------------------------------------------- */

size_t jr_path_push(struct jr_path *p, const char *what)
{
	size_t was = p->len, room = sizeof p->s - 4;
	if (p->len < room)
		p->s[p->len++] = '/';
	for (size_t n = 0; *what && p->len < room; what++, n++) {
		if (n == 40) {
			memcpy(p->s + p->len, "...", 3);
			p->len += 3;
			break;
		}
		/* a JSON Pointer writes ~ as ~0 and / as ~1 */
		if (*what == '~' || *what == '/') {
			p->s[p->len++] = '~';
			p->s[p->len++] = *what == '~' ? '0' : '1';
		} else {
			p->s[p->len++] = *what;
		}
	}
	p->s[p->len] = '\0';
	return was;
}

size_t jr_path_index(struct jr_path *p, size_t i)
{
	char n[24];
	snprintf(n, sizeof n, "%zu", i);
	return jr_path_push(p, n);
}

void jr_path_pop(struct jr_path *p, size_t len)
{
	p->len = len;
	p->s[len] = '\0';
}

const char *jr_path_text(const struct jr_path *p)
{
	return p->len ? p->s : "/";
}
