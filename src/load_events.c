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
#include "strmap.h"
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
	/* on the first definition of a name: the newest one */
	long newest;
};

/* A replay in progress. */
struct frame {
	size_t next, end;
};

static const struct pos nopos;

static struct pos mkpos(yaml_mark_t m)
{
	return (struct pos){(uint32_t)m.line + 1, (uint32_t)m.column + 1};
}

void ev_verror(struct evsrc *es, bool fatal, struct pos pos, const char *fmt, va_list ap)
{
	if (es->fatal)
		return;
	es->nerrs++;
	diag_vmsg(es->d, DIAG_ERROR, pos, fmt, ap);
	if (fatal)
		es->fatal = true;
}

static void err(struct evsrc *es, struct pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), cold));
static void fatal(struct evsrc *es, struct pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), cold));

static void err(struct evsrc *es, struct pos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ev_verror(es, false, pos, fmt, ap);
	va_end(ap);
}

static void fatal(struct evsrc *es, struct pos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ev_verror(es, true, pos, fmt, ap);
	va_end(ap);
}

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

/* The byte at offset off of the input, or -1: the file is read again. */
static int byte_at(const struct evsrc *es, size_t off)
{
	if (off >= es->len)
		return -1;
	if (es->text)
		return (unsigned char)es->text[off];
	unsigned char c;
	ssize_t n;
	while ((n = pread(es->fd, &c, 1, (off_t)off)) < 0 && errno == EINTR)
		;
	return n == 1 ? c : -1;
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
			fatal(es, nopos, "cannot read %s: %s", es->file, strerror(es->read_errno));
			break;
		}
		if (p->problem_value != -1)
			fatal(es, offset_pos(es, p->problem_offset),
			      "the file is not UTF-8 text: %s (0x%x at byte %zu)", problem,
			      (unsigned)p->problem_value, p->problem_offset);
		else
			fatal(es, offset_pos(es, p->problem_offset),
			      "the file is not UTF-8 text: %s (at byte %zu)", problem,
			      p->problem_offset);
		break;
	default:
		/* A tab where YAML wants indentation: say so, in YAML's words and ours. */
		if (p->problem && strcmp(p->problem, "found character that cannot start any token") == 0 &&
		    byte_at(es, p->problem_mark.index) == '\t') {
			fatal(es, mkpos(p->problem_mark), "invalid YAML: a tab, where YAML wants "
			      "spaces: YAML indents with spaces only; replace the tab with spaces");
			break;
		}
		if (p->context)
			fatal(es, mkpos(p->problem_mark), "invalid YAML: %s (%s at %u:%u)",
			      problem, p->context, mkpos(p->context_mark).line,
			      mkpos(p->context_mark).col);
		else
			fatal(es, mkpos(p->problem_mark), "invalid YAML: %s", problem);
		break;
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
	err(es, v->pos, "unsupported YAML tag '%.60s' (cugraphrun files use no tags)", tag);
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
	err(es, v->pos, "unsupported YAML tag '%.60s' on a %s (cugraphrun files use no tags)",
	    tag, what);
}

static long resolve_alias(struct evsrc *es, const char *name, struct pos pos)
{
	long i = es->anchor_index ? strmap_get(es->anchor_index, name) : -1;
	if (i < 0) {
		err(es, pos, "unknown anchor in alias '*%.60s' (an anchor '&%.60s' must come before its aliases)",
		    name, name);
		return -1;
	}
	i = es->anchors[i].newest;
	if (es->anchors[i].open) {
		err(es, pos, "alias '*%.60s' is inside the node it refers to (recursive structures are not supported)",
		    name);
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
static bool parse_event(struct evsrc *es)
{
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
	const char *anchor = NULL;
	v->pos = mkpos(e->start_mark);
	v->end = mkpos(e->end_mark);
	v->quoted = false;
	v->bad = false;
	v->target = -1;
	switch (e->type) {
	case YAML_NO_EVENT:
		es->fatal = true;
		return false;
	case YAML_STREAM_START_EVENT:
		v->type = EV_STREAM_START;
		return true;
	case YAML_STREAM_END_EVENT:
		v->type = EV_STREAM_END;
		return true;
	case YAML_DOCUMENT_START_EVENT:
		v->type = EV_DOC_START;
		return true;
	case YAML_DOCUMENT_END_EVENT:
		v->type = EV_DOC_END;
		return true;
	case YAML_SCALAR_EVENT:
		v->type = EV_SCALAR;
		v->value = (const char *)e->data.scalar.value;
		v->len = e->data.scalar.length;
		v->quoted = e->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
		if (e->data.scalar.tag)
			scalar_tag(es, v, (const char *)e->data.scalar.tag);
		anchor = (const char *)e->data.scalar.anchor;
		break;
	case YAML_ALIAS_EVENT:
		v->type = EV_ALIAS;
		v->value = (const char *)e->data.alias.anchor;
		v->len = strlen(v->value);
		v->target = resolve_alias(es, v->value, v->pos);
		break;
	case YAML_SEQUENCE_START_EVENT:
		v->type = EV_SEQ;
		anchor = (const char *)e->data.sequence_start.anchor;
		if (e->data.sequence_start.tag)
			collection_tag(es, v, (const char *)e->data.sequence_start.tag,
				       "tag:yaml.org,2002:seq", "sequence");
		break;
	case YAML_MAPPING_START_EVENT:
		v->type = EV_MAP;
		anchor = (const char *)e->data.mapping_start.anchor;
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

/* Charge n events of an alias written in the document against the budget. */
static bool charge(struct evsrc *es, size_t n, struct pos pos, const char *name)
{
	size_t max = es->lim->max_alias_events, used = es->alias_events;
	if (n <= max - used) {
		es->alias_events += n;
		return true;
	}
	char count[32];
	if (n == SIZE_MAX)
		snprintf(count, sizeof count, "more than %zu", SIZE_MAX - 1);
	else
		snprintf(count, sizeof count, "%zu", n);
	if (used == 0)
		fatal(es, pos, "alias '*%.60s' expands to %s YAML events, more than the limit of %zu for all aliases together",
		      name, count, max);
	else
		fatal(es, pos, "alias '*%.60s' expands to %s YAML events; with the %zu expanded before it, that passes the limit of %zu for all aliases together",
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
			fatal(es, es->ev.pos, "lists and mappings nested more than %u deep (a limit "
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
		ev_advance(es, level == 0 ? expand_after : false);
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

void ev_free(struct evsrc *es)
{
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
