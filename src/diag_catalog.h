/*
 * The message catalog (src/messages.def): every diagnostic's stable code,
 * found by the printf format its call site gives, the way gettext finds a
 * translation.  Call sites stay as they are; a site whose format names
 * nothing by itself ("%s" of a message built in pieces) names its code
 * with diag_code() just before it.  tools/catalog keeps the catalog in
 * step with src/ and with cugraphrun(1) DIAGNOSTICS, and make check fails
 * when they differ.
 *
 * Ownership: codes are static strings.  The code a site names waits for
 * the next message of its thread.
 */
#ifndef CGR_DIAG_CATALOG_H
#define CGR_DIAG_CATALOG_H

#include <stdarg.h>

/* A message's code where the catalog lacks its format (a bug: make check says so). */
#define DIAG_CODE_NONE "diag-uncataloged"

/*
 * The code of the next message given (diag_error, errorx, ld_error, ...):
 * for a site whose format names nothing by itself.  NULL forgets it (a
 * printer that drops a message drops its code too).
 */
void diag_code(const char *code);

/*
 * For a printer that formats its message and hands it on ("invalid JSON:
 * %s"): the code of its own format fmt (with ap) waits for the message,
 * unless a site named one already.
 */
void diag_code_keep(const char *fmt, va_list ap);

/*
 * The code of format fmt with arguments ap; NULL when the catalog lacks
 * it.  "%s" with a format-free text is found by that text (the same
 * message, written as usage_error("%s", "no graph file given")).
 */
const char *diag_code_of(const char *fmt, va_list ap);

/*
 * The code of a message given now: the one a site named, else its
 * format's, else DIAG_CODE_NONE.  Forgets the named one.
 */
const char *diag_code_take(const char *fmt, va_list ap);

/* Build the index of formats now, before threads print (diag_init calls it). */
void diag_catalog_init(void);

#endif
