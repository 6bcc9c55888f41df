/*
 * The loader's event source, private to the loader (load*.c include it,
 * nothing else does).  It owns libyaml: the parser and its input (a
 * string in memory, or a file streamed into libyaml's own buffer), the
 * current event as the loader's handlers see it (struct ev), anchors and
 * aliases (a log of the anchored nodes' events, their replays, the budget
 * of alias events and its limit), the nesting depth and its limit, and the
 * flag that stops everything after a fatal error, with the reporter that
 * sets it.  <yaml.h> is included here and by load*.c, and by the JSON
 * reader compare_read.c; nowhere else.
 *
 * Aliases are hidden: while an anchored node is being parsed its events
 * are also recorded in the log; an alias replays the recorded events as if
 * the node were written again, so that every handler of the loader
 * supports anchors for free.  Each anchor knows how many events it expands
 * to (its own aliases included), and an alias written in the document is
 * charged that many events up front against limits->max_alias_events: a
 * billion-laughs bomb fails at the first alias that would blow the budget,
 * before anything is expanded.  Nesting is bounded by limits->max_depth,
 * which also bounds the loader's recursion.  Values that are skipped after
 * an error are read raw (aliases not expanded), so skipping costs no
 * budget.
 *
 * The handlers call ev_next for every event of the file: it stays a call
 * of one out-of-line function (ev_advance), whose common case (an event
 * straight from libyaml, no alias, no anchor open) is a straight path.
 *
 * TEMPLATES.  A file with ${...} in it, an axes: section or a generator
 * is a template (cugraphrun(5)): one model per point of its sweep.  Its
 * events are recorded once (ev_record: libyaml parses the file once) in
 * the raw log, then replayed through the ordinary loader once per point
 * (ev_replay_start), with the point's values bound to the names of the
 * expressions (ev_slot, ev_bind).  While replaying, a scalar that holds
 * "${" is delivered as a plain scalar whose text is the template's value
 * (expr.h), so every handler and its messages work unchanged, at the
 * scalar's position; an error in an expression points at its column.
 * Anchors and aliases work in a replay as in a plain load; a generator
 * replays a stretch of the raw log again (ev_mark, ev_rewind).
 *
 * How a template is found without slowing plain files down: a regular
 * file is read in libyaml's chunks (read_file), and each chunk is
 * searched for "${" with memchr as it arrives, before libyaml scans it;
 * the loader itself stops at an axes: key or a generator.  Either way the
 * plain load stops as after a fatal error (es->fatal, with es->restart
 * saying why) and the loader starts again in template mode.  Errors
 * already given are given once: diag drops repeats.
 */
#ifndef CGR_LOAD_EVENTS_H
#define CGR_LOAD_EVENTS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include <yaml.h>

#include "diag.h"
#include "expr.h"
#include "load_limits.h"

/* The events the loader sees; ALIAS only when reading raw. */
enum evtype {
	EV_NONE,        /* nothing more: the input ended or a fatal error */
	EV_STREAM_START,
	EV_STREAM_END,
	EV_DOC_START,
	EV_DOC_END,
	EV_SCALAR,
	EV_ALIAS,
	EV_SEQ,
	EV_SEQ_END,
	EV_MAP,
	EV_MAP_END,
};

/* One event as the parsers see it, from libyaml or from a replay. */
struct ev {
	enum evtype type;
	struct pos pos;
	struct pos end;         /* just past the event's text */
	/* SCALAR: the text (NUL-terminated, valid until the next event); ALIAS: the name */
	const char *value;
	size_t len;
	/* SCALAR: quoted, block or !!str, so a string and never a number */
	bool quoted;
	/* SCALAR standing in for a broken alias, already reported */
	bool bad;
	long target;            /* ALIAS: the anchor, or -1 when broken */
};

/*
 * BUDGET: what one reading of a template's point may expand to
 * (load_point.h says how the points share a sweep's).  Nodes are counted
 * by the loader as it makes them (ev_count_node), YAML events as they are
 * delivered from the raw log or charged for an alias, a generator's
 * values as an event each (ev_count_values), and the bytes of their
 * scalars' text, as written or evaluated (a string may be kept in the
 * model); a generator is counted as its first value's nodes, events and
 * text times its values before it expands the rest (ev_project).  Past
 * any of them, the events stop as after a fatal error, silently: the
 * points' reader says why, with the sweep's axes.
 */
enum ev_over { EV_OVER_NONE, EV_OVER_NODES, EV_OVER_EVENTS, EV_OVER_TEXT };

struct ev_budget {
	size_t nodes, events, text;     /* the most this reading may make (SIZE_MAX: no limit) */
	size_t nodes_made, events_made, text_made;
	enum ev_over over;              /* the one passed, or none */
	size_t at_least;                /* then: what the reading comes to, at least */
	struct pos pos;                 /* where it was passed */
};

struct rec;
struct raw;
struct anchor;
struct frame;
struct strmap;
struct sweep;

/* The event source of one file. */
struct evsrc {
	struct ev ev;           /* the current event */
	bool fatal;             /* a fatal error: no more events, no more errors */
	/*
	 * Errors reported, repeats included (an alias replaying an error that
	 * the diag gives once): the loader compares it before and after a
	 * part of the file to know that the part is broken.
	 */
	size_t nerrs;
	unsigned depth;         /* collections open, as delivered */
	struct diag *d;
	const char *file;       /* as messages name it */
	const struct load_limits *lim;
	/* the input: text[0..len) in memory, or len bytes of the file fd */
	const char *text;
	size_t len;
	int fd;
	size_t unread;          /* bytes of fd not handed to libyaml yet */
	int read_errno;         /* why reading fd failed, or 0 */
	yaml_parser_t parser;
	/*
	 * The current event and the one after it, parsed ahead, in yev.  An
	 * empty one is a YAML_NO_EVENT: yaml_event_delete and
	 * yaml_parser_parse both start by zeroing the event.
	 */
	yaml_event_t yev[2];
	unsigned cur;           /* yev[cur] is the current one, the other ahead */
	unsigned raw_depth;     /* collections open in the parser's stream */
	struct rec *log;
	size_t nlog, caplog;
	size_t log_expanded;    /* running count of expanded events logged */
	struct anchor *anchors;
	size_t nanchors, capanchors;
	struct strmap *anchor_index;
	size_t *open;           /* anchors being recorded, innermost last */
	size_t nopen, capopen;
	struct frame *frames;
	size_t nframes, capframes;  /* replays under way: nframes > 0 inside an alias */
	struct pos alias_pos;       /* the alias written in the file that started them */
	size_t alias_events;    /* charged against lim->max_alias_events */
	/* TEMPLATES */
	bool restart;           /* a plain load stopped: the file is a template */
	bool from_raw;          /* events come from raw[], not libyaml */
	bool subst;             /* evaluate ${...} while replaying */
	unsigned unbound;       /* > 0 while a generator with no values is read past */
	unsigned char last_byte; /* read_file: the last byte of the chunk before */
	struct raw *raw;        /* every event of the file, recorded once */
	size_t nraw, capraw;
	size_t rnext;           /* the next event of raw to deliver */
	/* names of expressions: slot i is names[i], its value vals[i] */
	struct strmap *slot_index;
	char **names;
	struct expr_val *vals;
	bool *bound, *is_axis;
	size_t nslots, capslots, capvals, capbound, capaxis;
	struct strbuf out;      /* the evaluated text of the current scalar */
	size_t axis_evals;      /* scalars evaluated that read an axis */
	size_t generated;       /* events generators read again (lim->max_generated_events) */
	size_t raw_read;        /* events of the raw log delivered since ev_replay_start */
	struct sweep *sw;       /* names used are noted in it (sweep_note_use) */
	struct ev_budget budget;        /* BUDGET */
	/* ev_record: the text of the scalars that hold ${...}, and where the longest is */
	size_t tmpl_bytes, tmpl_longest;
	struct pos tmpl_longest_pos;
	/* POINTS: what a point's full reading records for the next points, or NULL */
	struct ev_rec *rec;
	long ctx;               /* the object open in rec, or -1 */
};

/*
 * Start es (which the caller zeroed) on no input yet; file names the file
 * in messages and must outlive es.  Out of memory exits, as xmalloc does.
 */
void ev_init(struct evsrc *es, const char *file, const struct load_limits *lim,
	     struct diag *d);
/* The input: len bytes of text, which must outlive es. */
void ev_input_string(struct evsrc *es, const char *text, size_t len);
/* The input: size bytes of the regular file fd, read as libyaml asks. */
void ev_input_fd(struct evsrc *es, int fd, size_t size);
/* Release what es holds (not fd). */
void ev_free(struct evsrc *es);

/*
 * Advance to the next event.  With expand, an alias is replaced by the
 * events of its node; without (skipping, merge keys), it comes as
 * EV_ALIAS.  A broken alias comes as a bad null scalar.
 */
void ev_advance(struct evsrc *es, bool expand);

static inline void ev_next(struct evsrc *es)
{
	ev_advance(es, true);
}

/* Consume the current value; the event after it is read with expand_after. */
void ev_skip_value_ex(struct evsrc *es, bool expand_after);

static inline void ev_skip_value(struct evsrc *es)
{
	ev_skip_value_ex(es, true);
}

/* Merge keys: the kind of event the node anchored as anchor starts with. */
enum evtype ev_anchor_type(const struct evsrc *es, long anchor);
/*
 * Replay the keys of the mapping anchored as anchor, and its end, in place
 * of the current mapping's end (whose depth they keep); pos is the merge
 * key's alias, charged for the replay.  False when the budget is spent (a
 * fatal error).
 */
bool ev_replay_keys(struct evsrc *es, long anchor, struct pos pos);

/*
 * Is the event after the current one (a mapping's start) the plain
 * scalar word, its first key?  Looks ahead without reading.
 */
bool ev_next_is(const struct evsrc *es, const char *word);

/* The current event as messages show it: "a list", "'abc'", "null", ... */
const char *ev_found(const struct ev *e, char *buf, size_t len);

/* --- templates --- */

/*
 * A plain load stops here: the file is a template (see TEMPLATES).  Sets
 * es->restart and stops the events as a fatal error does, silently.
 */
void ev_want_template(struct evsrc *es);

/*
 * Record every event of the input (a string) in the raw log; false after
 * a YAML syntax error (reported, with the hint that an expression in flow
 * style needs quotes when the parser stopped at one).  Then the events
 * come from the log: ev_replay_start before each pass.
 */
bool ev_record(struct evsrc *es);
/* Note in es->sw every name the recorded templates use (for -a of a new axis). */
void ev_note_names(struct evsrc *es);
/* Start delivering the raw log again from its first event, anchors forgotten. */
void ev_replay_start(struct evsrc *es, bool subst);

/* The slot of a name (made on first use), its value and whether it is bound now. */
long ev_slot(struct evsrc *es, const char *name);
void ev_bind(struct evsrc *es, long slot, struct expr_val v);
void ev_unbind(struct evsrc *es, long slot);

/* A place in the raw log to come back to (a generator's nodes). */
struct ev_mark {
	size_t raw;             /* the event's index */
	unsigned depth, raw_depth;
};

/*
 * Mark the current event, which must come straight from the raw log (not
 * from an alias) with no anchor open; false (and nothing marked) if not.
 */
bool ev_mark(const struct evsrc *es, struct ev_mark *m);
/*
 * Deliver the marked event again, and what follows it; the events read
 * since the mark are charged against lim->max_generated_events (a fatal
 * error, at pos, when that is spent).
 */
void ev_rewind(struct evsrc *es, const struct ev_mark *m, struct pos pos);

/* No budget: what a plain load and a point read again have. */
#define EV_NO_BUDGET ((struct ev_budget){SIZE_MAX, SIZE_MAX, SIZE_MAX, 0, 0, 0, EV_OVER_NONE, 0, {0, 0}})

/* Stop the events, the budget's what passed at pos: the reading comes to at least at_least. */
void ev_over_budget(struct evsrc *es, enum ev_over what, size_t at_least, struct pos pos)
	__attribute__((cold));

/* The loader made a node, at pos. */
static inline void ev_count_node(struct evsrc *es, struct pos pos)
{
	struct ev_budget *b = &es->budget;
	if (++b->nodes_made > b->nodes)
		ev_over_budget(es, EV_OVER_NODES, b->nodes_made, pos);
}

/*
 * A generator (at pos) made n values: each counts as an event, so that a
 * generator nested in another is counted in the outer one's first value
 * even when its own nodes are never read (a body that is missing or in
 * error), and 10,000 values times 10,000 stop at the projection.
 */
void ev_count_values(struct evsrc *es, size_t n, struct pos pos);

/*
 * A generator (at pos) has expanded its first value, which made nodes,
 * read events and evaluated text bytes: are its rest other values, as
 * many each, within the budget?  Else the events stop.
 */
void ev_project(struct evsrc *es, size_t rest, size_t nodes, size_t events, size_t text,
		struct pos pos);

/* --- points read from the one before (load_point.h: POINTS) --- */

/*
 * The objects of a model that a point may change alone: a kernel, memset,
 * copy or host node's kind mapping, a buffer, a condition, a check, the
 * run: and throughput: sections, the name and the description.  Each is
 * the value of one key, read from a stretch of the raw log that nothing
 * else reads (no anchor in it or open around it, no alias, no merge),
 * with the generator variables bound around it as they were.
 */
enum ev_ctx_kind {
	CTX_NODE, CTX_BUFFER, CTX_CONDITION, CTX_CHECK, CTX_RUN, CTX_THROUGHPUT, CTX_NAME,
	CTX_DESCRIPTION,
};

struct ev_gen {                 /* a generator variable's value around an object */
	long slot;
	struct expr_val v;
};

struct ev_ctx {
	enum ev_ctx_kind kind;
	void *obj;                      /* CTX_NODE: the node (in the model's arena) */
	size_t index;                   /* CTX_BUFFER, CTX_CONDITION, CTX_CHECK: its index */
	const void *key;                /* the loader's key (a struct keydef), for the top-level ones */
	struct pos kpos;
	size_t start, end;              /* its value: raw[start] up to (not) raw[end] */
	unsigned depth, raw_depth;      /* at raw[start] */
	bool usable;                    /* read from the raw log alone: it can be read again */
	size_t anchors, aliases;        /* at its start, to see none come in it */
	struct ev_gen *gen;
	size_t ngen;
};

/* A scalar of the file that read an axis: its text at the point recorded. */
struct ev_site {
	size_t raw;
	long ctx;                       /* the object it is in, or -1: the model's shape */
	char *text;
	size_t len;
	bool quoted;
	struct ev_gen *gen;             /* the generator variables it read, as they were */
	size_t ngen;
};

struct ev_rec {
	struct ev_ctx *ctx;
	size_t nctx, capctx;
	struct ev_site *sites;
	size_t nsites, capsites;
};

void ev_rec_free(struct ev_rec *r);

/*
 * The current event starts the value of an object of kind (obj, index,
 * key, kpos as struct ev_ctx has them): while it is read, scalars that
 * read an axis are noted as its sites.  Returns the object's number in
 * es->rec, or -1 when nothing is recorded or an object is open already.
 */
long ev_ctx_open(struct evsrc *es, enum ev_ctx_kind kind, void *obj, size_t index,
		 const void *key, struct pos kpos);
/* The value has been read: the current event is the one after it. */
void ev_ctx_close(struct evsrc *es, long ctx);

/*
 * Does site s read the same text now, with the point's values bound (and
 * the generator variables of its object as they were)?  False too when
 * it cannot be evaluated now (its error is said by a full reading).
 */
bool ev_site_same(struct evsrc *es, const struct ev_rec *rec, const struct ev_site *s);

/*
 * Deliver object c's value again (its first event the current one), with
 * its generator variables bound; ev_reread_end after reading it: true when
 * exactly its events were read, without an error.  Values are evaluated
 * as in a point's reading.
 */
void ev_reread(struct evsrc *es, const struct ev_ctx *c);
bool ev_reread_end(struct evsrc *es, const struct ev_ctx *c);

/*
 * An error at pos, unless a fatal one came before (after it, more would
 * be noise); with fatal, nothing more is read (syntax, limits, version).
 */
void ev_verror(struct evsrc *es, bool fatal, struct pos pos, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0), cold));

#endif
