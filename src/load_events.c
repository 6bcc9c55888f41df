/*
 * The loader's event source: libyaml's events, with anchors and aliases
 * hidden, as load_events.h describes.  While an anchored node is open its
 * events are logged (record); an alias in the document resolves to the
 * newest anchor of its name, is charged the events that anchor expands to,
 * and is replayed from the log (a frame) as if the node were written again.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <yaml.h>

#include "load_events.h"
#include "scalar.h"
#include "strmap.h"
#include "sweep.h"
#include "xmalloc.h"

/* One recorded event of an anchored node. */
struct rec {
	enum evtype type;
	bool quoted;
	struct pos pos, end;
	char *value;            /* owned copy */
	size_t len;
	long target;
};

/* An anchored node of the document, recorded for its aliases. */
struct anchor {
	char *name;
	size_t start, end;      /* its events in the log: [start, end) */
	/* events it delivers with its own aliases expanded (saturating) */
	size_t expanded;
	size_t expanded_at_open;
	unsigned raw_depth;     /* collections open around the anchored node */
	bool open;              /* still being recorded */
	bool unbound;           /* opened in a generator with no values: its text was never evaluated */
	/* on the first definition of a name: the newest one */
	long newest;
};

/* A replay in progress. */
struct frame {
	size_t next, end;
};

/* One event of a template file, recorded once (ev_record). */
struct raw {
	enum evtype type;
	bool quoted;
	bool expr;              /* SCALAR: holds "${" */
	bool failed;            /* its template did not compile (reported) */
	bool uses_axis;         /* its template reads an axis */
	struct pos pos, end;
	char *value;            /* SCALAR: the text; ALIAS: the name (owned) */
	size_t len;
	char *anchor;           /* the anchor on it, or NULL (owned) */
	struct tmpl *t;         /* compiled on its first replay */
	long *slots;            /* the slot of each of t's names */
};

static const struct pos nopos;

static struct pos mkpos(yaml_mark_t m)
{
	return (struct pos){(uint32_t)m.line + 1, (uint32_t)m.column + 1};
}

void ev_verror(struct evsrc *es, bool fatal, struct pos pos, const char *fmt, va_list ap)
{
	if (es->fatal) {
		diag_code(NULL); /* the message goes, and its code with it */
		return;
	}
	es->nerrs++;
	diag_vmsg(es->d, DIAG_ERROR, pos, fmt, ap);
	if (fatal)
		es->fatal = true;
}

static void ev_error(struct evsrc *es, struct pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), cold));
static void ev_fatal(struct evsrc *es, struct pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), cold));

static void ev_error(struct evsrc *es, struct pos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ev_verror(es, false, pos, fmt, ap);
	va_end(ap);
}

static void ev_fatal(struct evsrc *es, struct pos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ev_verror(es, true, pos, fmt, ap);
	va_end(ap);
}

static void count_events(struct evsrc *es, size_t n, struct pos pos);

static size_t sat_add(size_t a, size_t b)
{
	return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

/* Move p over n bytes of text. */
static void pos_advance(struct pos *p, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\n') {
			p->line++;
			p->col = 1;
		} else if ((c & 0xc0) != 0x80) {
			p->col++;
		}
	}
}

/*
 * Line and column of a byte offset, for libyaml's reader errors.  A file
 * is read again up to the offset: it was streamed, never kept.
 */
static struct pos offset_pos(const struct evsrc *es, size_t off)
{
	struct pos p = {1, 1};
	if (off > es->len)
		off = es->len;
	if (es->text) {
		pos_advance(&p, es->text, off);
		return p;
	}
	char buf[16384];
	for (size_t done = 0; done < off;) {
		size_t want = off - done < sizeof buf ? off - done : sizeof buf;
		ssize_t n = pread(es->fd, buf, want, (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		pos_advance(&p, buf, (size_t)n);
		done += (size_t)n;
	}
	return p;
}

/* The byte at off of the input, or -1. */
static int input_byte(const struct evsrc *es, size_t off)
{
	if (off >= es->len)
		return -1;
	if (es->text)
		return (unsigned char)es->text[off];
	unsigned char c;
	return pread(es->fd, &c, 1, (off_t)off) == 1 ? c : -1;
}

/*
 * YAML's own syntax cuts through an unquoted expression: in flow style a
 * '{', '}', '[', ']' or ',' of it is YAML's, anywhere a ": " or " #".
 * When the parser stopped inside one (a "${" before the problem on its
 * line, not closed before it), say that it needs quotes, quoting it.
 */
static void expr_hint(const struct evsrc *es, size_t at, bool flow, char *buf, size_t len)
{
	buf[0] = '\0';
	size_t start = SIZE_MAX;
	for (size_t i = at + 1, back = 0; i-- > 0 && back < 512; back++) {
		int c = input_byte(es, i);
		if (c == '\n' || c < 0)
			break;
		if (c == '}' && i < at)
			break;
		if (c == '$' && input_byte(es, i + 1) == '{') {
			start = i;
			break;
		}
	}
	if (start == SIZE_MAX)
		return;
	char text[64];
	size_t n = 0;
	int depth = 0;
	for (size_t i = start; n + 4 < sizeof text; i++) {
		int c = input_byte(es, i);
		if (c < 0 || c == '\n')
			break;
		text[n++] = (char)c;
		if (c == '{')
			depth++;
		else if (c == '}' && --depth == 0)
			break;
	}
	if (depth != 0 && n + 4 >= sizeof text) {
		memcpy(text + n, "...", 3);
		n += 3;
	}
	text[n] = '\0';
	if (flow)
		snprintf(buf, len, "; in flow style ([...] or {...}) an expression must be quoted: \"%s\"",
			 text);
	else
		snprintf(buf, len, "; an expression holding ': ', ' #' or a flow indicator must be "
			 "quoted: \"%s\"", text);
}

static __attribute__((cold)) void yaml_failed(struct evsrc *es)
{
	const yaml_parser_t *p = &es->parser;
	const char *problem = p->problem ? p->problem : "syntax error";
	switch (p->error) {
	case YAML_MEMORY_ERROR:
		errorx("out of memory while reading YAML");
		exit(3);
	case YAML_READER_ERROR:
		if (es->read_errno) {
			ev_fatal(es, nopos, "cannot read %s: %s", es->file, strerror(es->read_errno));
			break;
		}
		if (p->problem_value != -1)
			ev_fatal(es, offset_pos(es, p->problem_offset),
				 "the file is not UTF-8 text: %s (0x%x at byte %zu)", problem,
				 (unsigned)p->problem_value, p->problem_offset);
		else
			ev_fatal(es, offset_pos(es, p->problem_offset),
				 "the file is not UTF-8 text: %s (at byte %zu)", problem,
				 p->problem_offset);
		break;
	default: {
		/* A tab where YAML wants indentation: say so, in YAML's words and ours. */
		if (p->problem && strcmp(p->problem, "found character that cannot start any token") == 0 &&
		    input_byte(es, p->problem_mark.index) == '\t') {
			ev_fatal(es, mkpos(p->problem_mark), "invalid YAML: a tab, where YAML wants "
				 "spaces: YAML indents with spaces only; replace the tab with spaces");
			break;
		}
		char hint[160];
		bool flow = p->context && strstr(p->context, "flow") != NULL;
		expr_hint(es, p->problem_mark.index, flow, hint, sizeof hint);
		if (p->context)
			ev_fatal(es, mkpos(p->problem_mark), "invalid YAML: %s (%s at %u:%u)%s",
				 problem, p->context, mkpos(p->context_mark).line,
				 mkpos(p->context_mark).col, hint);
		else
			ev_fatal(es, mkpos(p->problem_mark), "invalid YAML: %s%s", problem, hint);
		break;
	}
	}
}

/* Tags: !!str makes a string, the core schema's others change nothing. */
static void scalar_tag(struct evsrc *es, struct ev *v, const char *tag)
{
	static const char *const plain_tags[] = {
		"tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
		"tag:yaml.org,2002:bool", "tag:yaml.org,2002:null",
	};
	if (strcmp(tag, "tag:yaml.org,2002:str") == 0 || strcmp(tag, "!") == 0) {
		v->quoted = true;
		return;
	}
	for (size_t i = 0; i < sizeof plain_tags / sizeof *plain_tags; i++)
		if (strcmp(tag, plain_tags[i]) == 0) {
			v->quoted = false;
			return;
		}
	ev_error(es, v->pos, "unsupported YAML tag '%.60s' (cugraphrun files use no tags)", tag);
}

/*
 * Tags on collections: the core schema's own (!!map on a mapping, !!seq on
 * a sequence) and the non-specific '!' change nothing; any other (!!binary,
 * !custom) would be ignored without a word, so it is an error.
 */
static void collection_tag(struct evsrc *es, struct ev *v, const char *tag,
			   const char *own, const char *what)
{
	if (strcmp(tag, own) == 0 || strcmp(tag, "!") == 0)
		return;
	ev_error(es, v->pos, "unsupported YAML tag '%.60s' on a %s (cugraphrun files use no tags)",
		 tag, what);
}

static long resolve_alias(struct evsrc *es, const char *name, struct pos pos)
{
	long i = es->anchor_index ? strmap_get(es->anchor_index, name) : -1;
	if (i < 0) {
		ev_error(es, pos, "unknown anchor in alias '*%.60s' (an anchor '&%.60s' must come before its aliases)",
			 name, name);
		return -1;
	}
	i = es->anchors[i].newest;
	if (es->anchors[i].open) {
		ev_error(es, pos, "alias '*%.60s' is inside the node it refers to (recursive structures are not supported)",
			 name);
		return -1;
	}
	if (es->anchors[i].unbound) {
		ev_error(es, pos, "alias '*%.60s' repeats a node of a generator that has no values here, "
			 "so its ${...} have none either (anchor it outside the generator)", name);
		return -1;
	}
	return i;
}

static void open_anchor(struct evsrc *es, const char *name)
{
	size_t idx = es->nanchors;
	struct anchor *a = VEC_PUSH(es->anchors, es->nanchors, es->capanchors);
	a->name = xstrdup(name);
	a->start = es->nlog;
	a->expanded_at_open = es->log_expanded;
	a->raw_depth = es->raw_depth;
	a->open = true;
	a->unbound = es->unbound > 0;
	a->newest = (long)idx;
	if (es->anchor_index == NULL)
		es->anchor_index = strmap_new(16);
	long old;
	if (!strmap_put(es->anchor_index, a->name, (long)idx, &old))
		es->anchors[old].newest = (long)idx;
	*VEC_PUSH(es->open, es->nopen, es->capopen) = idx;
}

/* Log the current parser event while an anchored node is open. */
static void record(struct evsrc *es)
{
	const struct ev *v = &es->ev;
	struct rec *r = VEC_PUSH(es->log, es->nlog, es->caplog);
	r->type = v->type;
	r->quoted = v->quoted;
	r->pos = v->pos;
	r->end = v->end;
	r->target = v->target;
	if (v->type == EV_SCALAR || v->type == EV_ALIAS) {
		r->value = xmalloc(v->len + 1);
		memcpy(r->value, v->value, v->len);
		r->value[v->len] = '\0';
		r->len = v->len;
	}
	size_t n = 1;
	if (v->type == EV_ALIAS && v->target >= 0)
		n = es->anchors[v->target].expanded;
	es->log_expanded = sat_add(es->log_expanded, n);
	/* The node of the innermost open anchor ends when its depth is back. */
	while (es->nopen > 0) {
		struct anchor *a = &es->anchors[es->open[es->nopen - 1]];
		if (es->raw_depth != a->raw_depth)
			break;
		a->end = es->nlog;
		a->expanded = es->log_expanded == SIZE_MAX ? SIZE_MAX :
			es->log_expanded - a->expanded_at_open;
		a->open = false;
		es->nopen--;
	}
}

/*
 * The next event from libyaml into es->ev; false on a fatal error.  libyaml
 * hands out the scalar before a syntax error ("x: type: f32" gives "type",
 * then fails), so each event is parsed one ahead, and one that a syntax
 * error follows is never handled: its complaints would only be noise.
 */
static bool raw_event(struct evsrc *es);

/* What every event from libyaml or the raw log goes through: anchors, depth, the log. */
static inline __attribute__((always_inline)) bool event_tail(struct evsrc *es,
							       const char *anchor)
{
	struct ev *v = &es->ev;
	if (anchor)
		open_anchor(es, anchor);
	if (v->type == EV_SEQ || v->type == EV_MAP)
		es->raw_depth++;
	else if (v->type == EV_SEQ_END || v->type == EV_MAP_END)
		es->raw_depth--;
	if (es->nopen > 0)
		record(es);
	return true;
}

/*
 * libyaml's event e as the loader's, into v: its type (EV_NONE for no
 * event), position, text and quoting (tags checked), and *anchor, the
 * anchor on it or NULL; an alias's name is its text, its target the
 * caller's to resolve.  The one reading of libyaml's events: a plain
 * load's (parse_event) and a template's recording (ev_record).
 */
static inline __attribute__((always_inline)) void convert_event(struct evsrc *es,
								  const yaml_event_t *e,
								  struct ev *v,
								  const char **anchor)
{
	v->pos = mkpos(e->start_mark);
	v->end = mkpos(e->end_mark);
	v->quoted = false;
	v->bad = false;
	v->target = -1;
	v->type = EV_NONE;
	*anchor = NULL;
	switch (e->type) {
	case YAML_NO_EVENT:
		break;
	case YAML_STREAM_START_EVENT:
		v->type = EV_STREAM_START;
		break;
	case YAML_STREAM_END_EVENT:
		v->type = EV_STREAM_END;
		break;
	case YAML_DOCUMENT_START_EVENT:
		v->type = EV_DOC_START;
		break;
	case YAML_DOCUMENT_END_EVENT:
		v->type = EV_DOC_END;
		break;
	case YAML_SCALAR_EVENT:
		v->type = EV_SCALAR;
		v->value = (const char *)e->data.scalar.value;
		v->len = e->data.scalar.length;
		v->quoted = e->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
		if (e->data.scalar.tag)
			scalar_tag(es, v, (const char *)e->data.scalar.tag);
		*anchor = (const char *)e->data.scalar.anchor;
		break;
	case YAML_ALIAS_EVENT:
		v->type = EV_ALIAS;
		v->value = (const char *)e->data.alias.anchor;
		v->len = strlen(v->value);
		break;
	case YAML_SEQUENCE_START_EVENT:
		v->type = EV_SEQ;
		*anchor = (const char *)e->data.sequence_start.anchor;
		if (e->data.sequence_start.tag)
			collection_tag(es, v, (const char *)e->data.sequence_start.tag,
				       "tag:yaml.org,2002:seq", "sequence");
		break;
	case YAML_MAPPING_START_EVENT:
		v->type = EV_MAP;
		*anchor = (const char *)e->data.mapping_start.anchor;
		if (e->data.mapping_start.tag)
			collection_tag(es, v, (const char *)e->data.mapping_start.tag,
				       "tag:yaml.org,2002:map", "mapping");
		break;
	case YAML_SEQUENCE_END_EVENT:
		v->type = EV_SEQ_END;
		break;
	case YAML_MAPPING_END_EVENT:
		v->type = EV_MAP_END;
		break;
	}
}

static bool parse_event(struct evsrc *es)
{
	if (es->from_raw)
		return raw_event(es);
	/* The look-ahead becomes current; the old current's slot takes the next. */
	yaml_event_t *e = &es->yev[es->cur ^ 1], *ahead = &es->yev[es->cur];
	yaml_event_delete(ahead);
	es->cur ^= 1;
	/* Empty only at the start, and after the end of the stream. */
	if (e->type == YAML_NO_EVENT && !yaml_parser_parse(&es->parser, e)) {
		yaml_failed(es);
		return false;
	}
	if (e->type != YAML_STREAM_END_EVENT && e->type != YAML_NO_EVENT &&
	    !yaml_parser_parse(&es->parser, ahead)) {
		yaml_failed(es);
		return false;
	}
	struct ev *v = &es->ev;
	const char *anchor;
	convert_event(es, e, v, &anchor);
	if (v->type == EV_NONE) {
		es->fatal = true;
		return false;
	}
	if (v->type == EV_ALIAS)
		v->target = resolve_alias(es, v->value, v->pos);
	return event_tail(es, anchor);
}

/* Charge n events of an alias written in the document against the budget. */
static bool charge(struct evsrc *es, size_t n, struct pos pos, const char *name)
{
	size_t max = es->lim->max_alias_events, used = es->alias_events;
	if (n <= max - used) {
		es->alias_events += n;
		count_events(es, n, pos);
		return !es->fatal;
	}
	char count[32];
	if (n == SIZE_MAX)
		snprintf(count, sizeof count, "more than %zu", SIZE_MAX - 1);
	else
		snprintf(count, sizeof count, "%zu", n);
	if (used == 0)
		ev_fatal(es, pos, "alias '*%.60s' expands to %s YAML events, more than the limit of %zu for all aliases together",
			 name, count, max);
	else
		ev_fatal(es, pos, "alias '*%.60s' expands to %s YAML events; with the %zu expanded before it, that passes the limit of %zu for all aliases together",
			 name, count, used, max);
	return false;
}

/* Replay events [start, end) of the log. */
static void push_frame(struct evsrc *es, size_t start, size_t end)
{
	struct frame *f = VEC_PUSH(es->frames, es->nframes, es->capframes);
	f->next = start;
	f->end = end;
}

void ev_advance(struct evsrc *es, bool expand)
{
	for (;;) {
		if (es->fatal) {
			es->ev = (struct ev){.type = EV_NONE, .target = -1};
			return;
		}
		if (es->nframes > 0) {
			struct frame *f = &es->frames[es->nframes - 1];
			if (f->next == f->end) {
				es->nframes--;
				continue;
			}
			const struct rec *r = &es->log[f->next++];
			es->ev = (struct ev){
				.type = r->type, .pos = r->pos, .end = r->end, .value = r->value,
				.len = r->len, .quoted = r->quoted, .target = r->target,
			};
		} else if (!parse_event(es)) {
			continue;
		}
		if (es->ev.type != EV_ALIAS || !expand)
			break;
		long t = es->ev.target;
		if (t < 0) {
			es->ev = (struct ev){.type = EV_SCALAR, .pos = es->ev.pos,
					    .value = "", .bad = true, .target = -1};
			break;
		}
		/* Replayed aliases were paid for with the alias that started it all. */
		if (es->nframes == 0 &&
		    !charge(es, es->anchors[t].expanded, es->ev.pos, es->ev.value))
			continue;
		if (es->nframes == 0)
			es->alias_pos = es->ev.pos;
		push_frame(es, es->anchors[t].start, es->anchors[t].end);
	}
	if (es->ev.type == EV_SEQ || es->ev.type == EV_MAP) {
		if (++es->depth > es->lim->max_depth) {
			ev_fatal(es, es->ev.pos, "lists and mappings nested more than %u deep (a limit "
				 "of any file; graphs themselves nest at most %d deep)",
				 es->lim->max_depth, LOAD_MAX_GRAPH_DEPTH);
			es->ev = (struct ev){.type = EV_NONE, .target = -1};
		}
	} else if (es->ev.type == EV_SEQ_END || es->ev.type == EV_MAP_END) {
		es->depth--;
	}
}

void ev_skip_value_ex(struct evsrc *es, bool expand_after)
{
	unsigned level = 0;
	/* a template's expressions inside a skipped value are not evaluated */
	bool subst = es->subst;
	for (;;) {
		switch (es->ev.type) {
		case EV_SEQ:
		case EV_MAP:
			level++;
			break;
		case EV_SEQ_END:
		case EV_MAP_END:
			if (level == 0)
				return;
			level--;
			break;
		case EV_NONE:
			return;
		default:
			break;
		}
		es->subst = level == 0 && subst;
		ev_advance(es, level == 0 ? expand_after : false);
		es->subst = subst;
		if (level == 0)
			return;
	}
}

enum evtype ev_anchor_type(const struct evsrc *es, long anchor)
{
	return es->log[es->anchors[anchor].start].type;
}

bool ev_replay_keys(struct evsrc *es, long anchor, struct pos pos)
{
	const struct anchor *a = &es->anchors[anchor];
	if (es->nframes == 0 && !charge(es, a->expanded, pos, a->name))
		return false;
	if (es->nframes == 0)
		es->alias_pos = pos;
	/* Its keys and its end, which closes the current mapping again. */
	push_frame(es, a->start + 1, a->end);
	es->depth++;
	return true;
}

void ev_init(struct evsrc *es, const char *file, const struct load_limits *lim,
	     struct diag *d)
{
	es->file = file;
	es->lim = lim;
	es->d = d;
	es->fd = -1;
	es->budget = EV_NO_BUDGET;
	if (!yaml_parser_initialize(&es->parser)) {
		errorx("out of memory while reading YAML");
		exit(3);
	}
}

void ev_input_string(struct evsrc *es, const char *text, size_t len)
{
	es->text = text;
	es->len = len;
	yaml_parser_set_input_string(&es->parser, (const unsigned char *)text, len);
}

/*
 * libyaml's read handler for a regular file: straight into its own
 * buffer, never past the size the file had when opened.  1 for success
 * (*nread 0 at the end), 0 for an error, as libyaml wants.
 */
static int read_file(void *data, unsigned char *buf, size_t size, size_t *nread)
{
	struct evsrc *es = data;
	if (size > es->unread)
		size = es->unread;
	ssize_t n = 0;
	if (size > 0) {
		do
			n = read(es->fd, buf, size);
		while (n < 0 && errno == EINTR);
	}
	if (n < 0) {
		es->read_errno = errno;
		return 0;
	}
	es->unread -= (size_t)n;
	*nread = (size_t)n;
	/* "${" ahead: a template (see TEMPLATES); memchr keeps plain files at full speed */
	if (n > 0 && !es->restart) {
		const unsigned char *p = buf, *end = buf + n;
		bool hit = es->last_byte == '$' && p[0] == '{';
		while (!hit && (p = memchr(p, '$', (size_t)(end - p))) != NULL)
			hit = ++p < end && *p == '{';
		es->last_byte = buf[n - 1];
		if (hit)
			ev_want_template(es);
	}
	return 1;
}

/*
 * A regular file is streamed: libyaml reads it into its own small buffer
 * as it goes (read_file), as yaml_parser_set_input_file does, rather than
 * from a copy or a mapping of the whole file.  Mapping it cost libyaml a
 * tenth more time than reading (its string reader copies from pages that
 * are cold) and left the file's pages resident in the peak.
 */
void ev_input_fd(struct evsrc *es, int fd, size_t size)
{
	es->fd = fd;
	es->len = es->unread = size;
	yaml_parser_set_input(&es->parser, read_file, es);
}

/* ------------------------------------------------------------------
 * Templates (load_events.h: TEMPLATES)
 */

void ev_over_budget(struct evsrc *es, enum ev_over what, size_t at_least, struct pos pos)
{
	if (es->fatal)
		return;
	es->budget.over = what;
	es->budget.at_least = at_least;
	es->budget.pos = pos;
	es->fatal = true;
}

/* a + n * each, or SIZE_MAX where it would not fit */
static size_t projected(size_t a, size_t n, size_t each)
{
	size_t p;
	if (__builtin_mul_overflow(n, each, &p) || __builtin_add_overflow(a, p, &p))
		return SIZE_MAX;
	return p;
}

void ev_project(struct evsrc *es, size_t rest, size_t nodes, size_t events, size_t text,
		struct pos pos)
{
	struct ev_budget *b = &es->budget;
	size_t n = projected(b->nodes_made, rest, nodes), e = projected(b->events_made, rest, events),
	       t = projected(b->text_made, rest, text);
	if (n > b->nodes)
		ev_over_budget(es, EV_OVER_NODES, n, pos);
	else if (e > b->events)
		ev_over_budget(es, EV_OVER_EVENTS, e, pos);
	else if (t > b->text)
		ev_over_budget(es, EV_OVER_TEXT, t, pos);
}

/* n more events delivered or replayed (an alias's, charged at pos). */
static void count_events(struct evsrc *es, size_t n, struct pos pos)
{
	struct ev_budget *b = &es->budget;
	b->events_made = sat_add(b->events_made, n);
	if (b->events_made > b->events)
		ev_over_budget(es, EV_OVER_EVENTS, b->events_made, pos);
}

void ev_count_values(struct evsrc *es, size_t n, struct pos pos)
{
	count_events(es, n, pos);
}

void ev_want_template(struct evsrc *es)
{
	es->restart = true;
	es->fatal = true;
}

const char *ev_found(const struct ev *e, char *buf, size_t len)
{
	switch (e->type) {
	case EV_SEQ:
		return "a list";
	case EV_MAP:
		return "a mapping";
	case EV_ALIAS:
		return "an alias";
	case EV_SCALAR:
		break;
	default:
		return "nothing";
	}
	if (!e->quoted && is_null_scalar(e->value))
		return "null";
	size_t n = 0;
	while (n < e->len && e->value[n] != '\n' && e->value[n] != '\0' && n < 40)
		n++;
	/* Cut at a character boundary. */
	if (n < e->len)
		while (n > 0 && ((unsigned char)e->value[n] & 0xc0) == 0x80)
			n--;
	const char *more = n < e->len ? "..." : "";
	if (e->quoted)
		snprintf(buf, len, "the string \"%.*s%s\"", (int)n, e->value, more);
	else
		snprintf(buf, len, "'%.*s%s'", (int)n, e->value, more);
	return buf;
}

bool ev_next_is(const struct evsrc *es, const char *word)
{
	const char *value = NULL;
	bool quoted = true;
	/* a replay's events come first, then the raw log or libyaml's look-ahead */
	for (size_t i = es->nframes; i-- > 0;) {
		const struct frame *f = &es->frames[i];
		if (f->next < f->end) {
			const struct rec *r = &es->log[f->next];
			if (r->type == EV_SCALAR) {
				value = r->value;
				quoted = r->quoted;
			}
			goto check;
		}
	}
	if (es->from_raw) {
		if (es->rnext < es->nraw && es->raw[es->rnext].type == EV_SCALAR) {
			value = es->raw[es->rnext].value;
			quoted = es->raw[es->rnext].quoted;
		}
	} else {
		const yaml_event_t *y = &es->yev[es->cur ^ 1];
		if (y->type == YAML_SCALAR_EVENT) {
			value = (const char *)y->data.scalar.value;
			quoted = y->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
		}
	}
check:
	/* every node of a large file comes by here: its first key is rarely the word */
	return value && !quoted && value[0] == word[0] && strcmp(value, word) == 0;
}

long ev_slot(struct evsrc *es, const char *name)
{
	if (es->slot_index == NULL)
		es->slot_index = strmap_new(16);
	long i = strmap_get(es->slot_index, name);
	if (i >= 0)
		return i;
	char **np = VEC_PUSH(es->names, es->nslots, es->capslots);
	*np = xstrdup(name);
	i = (long)es->nslots - 1;
	size_t n = (size_t)i;
	*VEC_PUSH(es->vals, n, es->capvals) = expr_int(0);
	n = (size_t)i;
	*VEC_PUSH(es->bound, n, es->capbound) = false;
	n = (size_t)i;
	*VEC_PUSH(es->is_axis, n, es->capaxis) = false;
	strmap_put(es->slot_index, *np, i, NULL);
	return i;
}

void ev_bind(struct evsrc *es, long slot, struct expr_val v)
{
	es->vals[slot] = v;
	es->bound[slot] = true;
}

void ev_unbind(struct evsrc *es, long slot)
{
	es->bound[slot] = false;
}

static long lookup_slot(void *ctx, const char *name)
{
	struct evsrc *es = ctx;
	if (es->sw)
		sweep_note_use(es->sw, name);
	return ev_slot(es, name);
}

/*
 * Where byte off of a scalar's text is in the file: exact when the scalar
 * is written as it reads (one line, no escapes), else the scalar's start.
 */
static struct pos text_pos(const struct raw *r, size_t off)
{
	uint32_t chars = 0, upto = 0;
	for (size_t i = 0; i < r->len; i++)
		if (((unsigned char)r->value[i] & 0xc0) != 0x80) {
			chars++;
			if (i < off)
				upto++;
		}
	bool exact = r->end.line == r->pos.line &&
		r->end.col - r->pos.col == chars + (r->quoted ? 2 : 0);
	if (!exact)
		return r->pos;
	return (struct pos){r->pos.line, r->pos.col + (r->quoted ? 1 : 0) + upto};
}

static __attribute__((cold)) void expr_error(struct evsrc *es, const struct raw *r,
					     const struct expr_err *e)
{
	diag_code(e->code);
	ev_error(es, text_pos(r, e->off), "%s", e->msg);
}

/* Compile r's template once: its names' slots, which it is noted it reads. */
static bool compile(struct evsrc *es, struct raw *r)
{
	struct expr_err e;
	if (r->t == NULL)
		r->t = tmpl_parse(r->value, r->len, &e);
	if (r->t == NULL || !tmpl_link(r->t, lookup_slot, es, &e)) {
		/* the text's own fault, at every point: said without a point's label */
		const char *prefix = es->d->prefix;
		es->d->prefix = NULL;
		expr_error(es, r, &e);
		es->d->prefix = prefix;
		r->failed = true;
		return false;
	}
	size_t n = tmpl_nnames(r->t);
	r->slots = xcalloc(n ? n : 1, sizeof *r->slots);
	for (size_t i = 0; i < n; i++) {
		r->slots[i] = ev_slot(es, tmpl_name(r->t, i, NULL));
		r->uses_axis |= es->is_axis[r->slots[i]];
	}
	return true;
}

/* A name the template reads that has no value here: "unknown name", with a hint. */
static __attribute__((cold)) void unbound(struct evsrc *es, const struct raw *r, size_t i)
{
	size_t off;
	const char *name = tmpl_name(r->t, i, &off);
	const char **known = xcalloc(es->nslots ? es->nslots : 1, sizeof *known);
	size_t n = 0;
	for (size_t s = 0; s < es->nslots; s++)
		if (es->bound[s])
			known[n++] = es->names[s];
	const char *hint = diag_suggest(name, known, n);
	if (hint)
		ev_error(es, text_pos(r, off), "unknown name '%.60s' (did you mean '%s'?)", name, hint);
	else if (n == 0)
		ev_error(es, text_pos(r, off), "unknown name '%.60s' (the file has no axes: give "
			 "it an axis, or -a %.60s=...)", name, name);
	else
		ev_error(es, text_pos(r, off), "unknown name '%.60s'", name);
	free(known);
}

/*
 * A scalar that read an axis, as the point being recorded read it (es->out),
 * for ev_site_same.  It belongs to the open object unless anchored or read
 * inside an anchored node: an alias elsewhere would carry its value.
 */
static __attribute__((cold)) void note_site(struct evsrc *es, const struct raw *r)
{
	struct ev_site *st = VEC_PUSH(es->rec->sites, es->rec->nsites, es->rec->capsites);
	st->raw = (size_t)(r - es->raw);
	st->ctx = r->anchor == NULL && es->nopen == 0 ? es->ctx : -1;
	st->text = xmalloc(es->out.len + 1);
	if (es->out.len)
		memcpy(st->text, es->out.buf, es->out.len);
	st->text[es->out.len] = '\0';
	st->len = es->out.len;
	st->quoted = es->ev.quoted;
	size_t cap = 0;
	for (size_t i = 0; i < tmpl_nnames(r->t); i++)
		if (!es->is_axis[r->slots[i]])
			*VEC_PUSH(st->gen, st->ngen, cap) =
				(struct ev_gen){r->slots[i], es->vals[r->slots[i]]};
}

/*
 * The scalar r, its template evaluated: into es->ev, or a bad scalar after
 * an error.  Keys too: {"${T}": 5} is an argument of the point's type.
 */
static void substitute(struct evsrc *es, struct raw *r)
{
	struct ev *v = &es->ev;
	struct expr_err e;
	struct expr_val res;
	/* compiled once (ev_note_names may have parsed it already, not linked it) */
	if (r->failed || (r->slots == NULL && !compile(es, r)))
		goto bad;
	for (size_t i = 0; i < tmpl_nnames(r->t); i++)
		if (!es->bound[r->slots[i]]) {
			unbound(es, r, i);
			goto bad;
		}
	strbuf_truncate(&es->out, 0);
	if (!tmpl_eval(r->t, es->vals, &es->out, &res, &e)) {
		expr_error(es, r, &e);
		goto bad;
	}
	if (tmpl_is_whole(r->t)) {
		strbuf_truncate(&es->out, 0);
		expr_format(&res, &es->out);
	}
	if (es->out.buf == NULL)
		strbuf_grow(&es->out, 1);
	v->value = es->out.buf;
	v->len = es->out.len;

	/* a value is no string for being an expression's: {grid: "${n}"} is a number */
	v->quoted = r->quoted && tmpl_nexprs(r->t) == 0;
	if (r->uses_axis) {
		es->axis_evals++;
		if (es->rec)
			note_site(es, r);
	}
	return;
bad:
	v->value = "";
	v->len = 0;
	v->bad = true;
}

/* The next event from the raw log, as parse_event's from libyaml. */
static bool raw_event(struct evsrc *es)
{
	if (es->rnext >= es->nraw) {
		es->fatal = true;
		return false;
	}
	struct raw *r = &es->raw[es->rnext++];
	struct ev *v = &es->ev;
	es->raw_read++;
	count_events(es, 1, r->pos);
	*v = (struct ev){
		.type = r->type, .pos = r->pos, .end = r->end, .value = r->value,
		.len = r->len, .quoted = r->quoted, .target = -1,
	};
	if (r->type == EV_SCALAR && r->expr && es->subst)
		substitute(es, r);
	else if (r->type == EV_ALIAS)
		v->target = resolve_alias(es, r->value, r->pos);
	/* a scalar's text, as written or evaluated, may be kept: counted (BUDGET) */
	struct ev_budget *b = &es->budget;
	b->text_made += v->len;
	if (b->text_made > b->text)
		ev_over_budget(es, EV_OVER_TEXT, b->text_made, v->pos);
	return event_tail(es, r->anchor);
}

void ev_note_names(struct evsrc *es)
{
	for (size_t i = 0; i < es->nraw; i++) {
		struct raw *r = &es->raw[i];
		struct expr_err e;
		if (!r->expr || r->t || r->failed)
			continue;
		/* a template that does not compile says so when it is first read */
		r->t = tmpl_parse(r->value, r->len, &e);
		for (size_t k = 0; r->t && k < tmpl_nnames(r->t); k++)
			sweep_note_use(es->sw, tmpl_name(r->t, k, NULL));
	}
}

bool ev_record(struct evsrc *es)
{
	for (;;) {
		yaml_event_t e;
		if (!yaml_parser_parse(&es->parser, &e)) {
			yaml_failed(es);
			return false;
		}
		struct raw *r = VEC_PUSH(es->raw, es->nraw, es->capraw);
		struct ev v;
		const char *anchor;
		convert_event(es, &e, &v, &anchor);
		size_t len = v.type == EV_SCALAR || v.type == EV_ALIAS ? v.len : 0;
		r->type = v.type;
		r->quoted = v.quoted;
		r->pos = v.pos;
		r->end = v.end;
		r->len = len;
		r->value = xmalloc(len + 1);
		if (len)
			memcpy(r->value, v.value, len);
		r->value[len] = '\0';
		r->expr = v.type == EV_SCALAR && tmpl_has_expr(r->value, len);
		if (r->expr)
			es->tmpl_bytes += len;
		if (r->expr && len > es->tmpl_longest) {
			es->tmpl_longest = len;
			es->tmpl_longest_pos = r->pos;
		}
		r->anchor = anchor ? xstrdup(anchor) : NULL;
		bool end = e.type == YAML_STREAM_END_EVENT || e.type == YAML_NO_EVENT;
		yaml_event_delete(&e);
		if (end)
			break;
	}
	es->from_raw = true;
	return true;
}

void ev_replay_start(struct evsrc *es, bool subst)
{
	for (size_t i = 0; i < es->nlog; i++)
		free(es->log[i].value);
	es->nlog = 0;
	es->log_expanded = 0;
	for (size_t i = 0; i < es->nanchors; i++)
		free(es->anchors[i].name);
	es->nanchors = 0;
	strmap_free(es->anchor_index);
	es->anchor_index = NULL;
	es->nopen = 0;
	es->nframes = 0;
	es->alias_events = 0;
	es->depth = es->raw_depth = 0;
	es->rnext = 0;
	es->fatal = false;
	es->subst = subst;
	es->axis_evals = 0;
	es->generated = 0;
	es->raw_read = 0;
	es->ev = (struct ev){.type = EV_NONE, .target = -1};
}

bool ev_mark(const struct evsrc *es, struct ev_mark *m)
{
	if (!es->from_raw || es->nopen > 0 || es->rnext == 0)
		return false;
	for (size_t i = 0; i < es->nframes; i++)
		if (es->frames[i].next < es->frames[i].end)
			return false;
	m->raw = es->rnext - 1;
	m->depth = es->depth;
	m->raw_depth = es->raw_depth;
	return true;
}

void ev_rewind(struct evsrc *es, const struct ev_mark *m, struct pos pos)
{
	if (es->fatal)
		return;
	size_t max = es->lim->max_generated_events ? es->lim->max_generated_events : 10000000;
	es->generated = sat_add(es->generated, es->rnext - m->raw);
	if (es->generated > max) {
		ev_fatal(es, pos, "generators read more than %zu YAML events again (the limit for one "
			 "point)", max);
		return;
	}
	es->nframes = 0;
	es->rnext = m->raw;
	es->depth = m->depth - 1;
	es->raw_depth = m->raw_depth - 1;
	ev_next(es);
}

/* ------------------------------------------------------------------
 * Points read from the one before (load_events.h; load_point.h: POINTS)
 */

__attribute__((cold)) void ev_rec_free(struct ev_rec *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; i < r->nctx; i++)
		free(r->ctx[i].gen);
	free(r->ctx);
	for (size_t i = 0; i < r->nsites; i++) {
		free(r->sites[i].text);
		free(r->sites[i].gen);
	}
	free(r->sites);
	memset(r, 0, sizeof *r);
}

/* Events come from the raw log alone: no alias being replayed, no anchor open. */
static bool raw_alone(const struct evsrc *es)
{
	if (!es->from_raw || es->nopen > 0 || es->fatal)
		return false;
	for (size_t i = 0; i < es->nframes; i++)
		if (es->frames[i].next < es->frames[i].end)
			return false;
	return true;
}

__attribute__((cold)) long ev_ctx_open(struct evsrc *es, enum ev_ctx_kind kind, void *obj, size_t index,
		 const void *key, struct pos kpos)
{
	if (es->rec == NULL || es->ctx >= 0 || es->rnext == 0)
		return -1;
	struct ev_ctx *c = VEC_PUSH(es->rec->ctx, es->rec->nctx, es->rec->capctx);
	c->kind = kind;
	c->obj = obj;
	c->index = index;
	c->key = key;
	c->kpos = kpos;
	c->start = es->rnext - 1;
	/* as they were before raw[start] came (it opened a collection, or not) */
	bool opens = es->ev.type == EV_SEQ || es->ev.type == EV_MAP;
	c->depth = es->depth - opens;
	c->raw_depth = es->raw_depth - opens;
	c->usable = raw_alone(es) && es->raw[c->start].anchor == NULL &&
		es->raw[c->start].type == es->ev.type;
	c->anchors = es->nanchors;
	c->aliases = es->alias_events;
	size_t cap = 0;
	for (size_t i = 0; i < es->nslots; i++)
		if (es->bound[i] && !es->is_axis[i])
			*VEC_PUSH(c->gen, c->ngen, cap) = (struct ev_gen){(long)i, es->vals[i]};
	es->ctx = (long)(es->rec->nctx - 1);
	/* a scalar value was delivered (and noted) before its object opened: it is the object's */
	struct ev_rec *rec = es->rec;
	if (c->usable && rec->nsites && rec->sites[rec->nsites - 1].raw == c->start)
		rec->sites[rec->nsites - 1].ctx = es->ctx;
	return es->ctx;
}

__attribute__((cold)) void ev_ctx_close(struct evsrc *es, long ctx)
{
	if (ctx < 0)
		return;
	struct ev_ctx *c = &es->rec->ctx[ctx];
	c->end = es->rnext - 1;
	c->usable = c->usable && raw_alone(es) && es->rnext > c->start &&
		es->nanchors == c->anchors && es->alias_events == c->aliases;
	es->ctx = -1;
}

/* Bind an object's generator variables as they were (save: what they were now). */
static void bind_gen(struct evsrc *es, const struct ev_gen *gen, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ev_bind(es, gen[i].slot, gen[i].v);
}

static void unbind_gen(struct evsrc *es, const struct ev_gen *gen, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ev_unbind(es, gen[i].slot);
}

__attribute__((cold)) bool ev_site_same(struct evsrc *es, const struct ev_rec *rec, const struct ev_site *s)
{
	(void)rec;
	struct raw *r = &es->raw[s->raw];
	if (r->failed || r->slots == NULL)
		return false;
	bind_gen(es, s->gen, s->ngen);
	bool ok = true;
	for (size_t i = 0; ok && i < tmpl_nnames(r->t); i++)
		ok = es->bound[r->slots[i]];
	struct expr_val res;
	struct expr_err e;
	strbuf_truncate(&es->out, 0);
	ok = ok && tmpl_eval(r->t, es->vals, &es->out, &res, &e);
	if (ok && tmpl_is_whole(r->t)) {
		strbuf_truncate(&es->out, 0);
		expr_format(&res, &es->out);
	}
	unbind_gen(es, s->gen, s->ngen);
	bool quoted = r->quoted && tmpl_nexprs(r->t) == 0;
	return ok && quoted == s->quoted && es->out.len == s->len &&
	       (s->len == 0 || memcmp(es->out.buf, s->text, s->len) == 0);
}

__attribute__((cold)) void ev_reread(struct evsrc *es, const struct ev_ctx *c)
{
	es->nframes = 0;
	es->nopen = 0;
	es->fatal = false;
	es->subst = true;
	es->rec = NULL;
	es->ctx = -1;
	es->rnext = c->start;
	es->depth = c->depth;
	es->raw_depth = c->raw_depth;
	bind_gen(es, c->gen, c->ngen);
	ev_next(es);
}

__attribute__((cold)) bool ev_reread_end(struct evsrc *es, const struct ev_ctx *c)
{
	bool ok = !es->fatal && raw_alone(es) && es->rnext == c->end + 1;
	unbind_gen(es, c->gen, c->ngen);
	return ok;
}

void ev_free(struct evsrc *es)
{
	for (size_t i = 0; i < es->nraw; i++) {
		free(es->raw[i].value);
		free(es->raw[i].anchor);
		tmpl_free(es->raw[i].t);
		free(es->raw[i].slots);
	}
	free(es->raw);
	for (size_t i = 0; i < es->nslots; i++)
		free(es->names[i]);
	free(es->names);
	free(es->vals);
	free(es->bound);
	free(es->is_axis);
	strmap_free(es->slot_index);
	strbuf_free(&es->out);
	yaml_event_delete(&es->yev[0]);
	yaml_event_delete(&es->yev[1]);
	yaml_parser_delete(&es->parser);
	for (size_t i = 0; i < es->nlog; i++)
		free(es->log[i].value);
	free(es->log);
	for (size_t i = 0; i < es->nanchors; i++)
		free(es->anchors[i].name);
	free(es->anchors);
	strmap_free(es->anchor_index);
	free(es->open);
	free(es->frames);
}
