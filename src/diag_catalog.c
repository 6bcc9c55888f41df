#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "diag_catalog.h"

struct msg_row {
	const char *code, *fmt;
};

static const struct msg_row rows[] = {
#define MSG(code, fmt, desc) {code, fmt},
#define MSG_ALSO(code, fmt, desc) {code, fmt},
#define MSG_CODE(code, fmt, desc)
#define MSG_RETIRED(code, fmt, desc)
#include "messages.def"
#undef MSG
#undef MSG_ALSO
#undef MSG_CODE
#undef MSG_RETIRED
};
#define NROWS (sizeof rows / sizeof *rows)

/* Open addressing over the formats: a row's index + 1, 0 for empty. */
#define SLOTS 4096
_Static_assert(NROWS < SLOTS / 2, "messages.def outgrew the index: raise SLOTS");
static uint16_t slots[SLOTS];
static bool indexed;

static uint32_t fmt_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

void diag_catalog_init(void)
{
	if (indexed)
		return;
	for (size_t i = 0; i < NROWS; i++) {
		uint32_t k = fmt_hash(rows[i].fmt) % SLOTS;
		while (slots[k])
			k = (k + 1) % SLOTS;
		slots[k] = (uint16_t)(i + 1);
	}
	indexed = true;
}

static const char *lookup(const char *fmt)
{
	diag_catalog_init();
	for (uint32_t k = fmt_hash(fmt) % SLOTS; slots[k]; k = (k + 1) % SLOTS)
		if (strcmp(rows[slots[k] - 1].fmt, fmt) == 0)
			return rows[slots[k] - 1].code;
	return NULL;
}

const char *diag_code_of(const char *fmt, va_list ap)
{
	if (strcmp(fmt, "%s") != 0)
		return lookup(fmt);
	va_list copy;
	va_copy(copy, ap);
	const char *text = va_arg(copy, const char *);
	va_end(copy);
	return text && strchr(text, '%') == NULL ? lookup(text) : NULL;
}

/* the code a site named, for its thread's next message */
static _Thread_local const char *named;

void diag_code(const char *code)
{
	named = code;
}

void diag_code_keep(const char *fmt, va_list ap)
{
	if (named == NULL)
		named = diag_code_of(fmt, ap);
}

const char *diag_code_take(const char *fmt, va_list ap)
{
	const char *code = named ? named : diag_code_of(fmt, ap);
	named = NULL;
	return code ? code : DIAG_CODE_NONE;
}
