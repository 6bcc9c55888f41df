/*
 * Scalars of the file format: element types, numbers as written, sizes in
 * bytes and durations.  Pure functions over strings; no allocation except
 * where noted.  Numbers keep what was written (integer or float, sign) so
 * that range checks against an element type happen once the type is known,
 * with the number's own position.
 */
#ifndef CGR_SCALAR_H
#define CGR_SCALAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

enum elem_type {
	ET_I8, ET_U8, ET_I16, ET_U16, ET_I32, ET_U32, ET_I64, ET_U64,
	ET_F16, ET_BF16, ET_F32, ET_F64,
	ET_COUNT
};

struct elem_info {
	const char *name;
	unsigned size;      /* bytes */
	bool is_float;
	bool is_signed;
};

extern const struct elem_info elem_infos[ET_COUNT];
/* All names in enum order, for "did you mean" and messages. */
extern const char *const elem_names[ET_COUNT];

/* False when name is no element type. */
bool elem_from_name(const char *name, enum elem_type *out);

enum num_kind {
	NUM_UINT,   /* a non-negative integer, in u */
	NUM_INT,    /* a negative integer, in i */
	NUM_FLOAT,  /* a number written with '.', 'e', inf or nan, in f */
};

/* A number as written in the file, with its position. */
struct num {
	struct pos pos;
	enum num_kind kind;
	union {
		uint64_t u;
		int64_t i;
		double f;
	};
};

enum scalar_err {
	SCALAR_OK,
	SCALAR_SYNTAX,   /* not a number / size / duration at all */
	SCALAR_RANGE,    /* a number, but too large */
	SCALAR_UNIT,     /* a number with an unknown unit */
};

/* Integers: decimal or 0x hex, optional sign. */
enum scalar_err parse_int(const char *s, struct num *out);
/* Integers or floats (strtod syntax, inf, -inf, nan). */
enum scalar_err parse_number(const char *s, struct num *out);
/* Non-negative integer in u64. */
enum scalar_err parse_u64(const char *s, uint64_t *out);
/* Bytes: an integer, or "<int> <unit>" with B, KiB, MiB, GiB, TiB, kB, MB, GB. */
enum scalar_err parse_size(const char *s, uint64_t *out);
/* Nanoseconds: "<number> <unit>" with ns, us, ms, s, min; a bare number is seconds. */
enum scalar_err parse_duration(const char *s, uint64_t *ns_out);
/* true/false (also True/TRUE/False/FALSE). */
bool parse_bool(const char *s, bool *out);
/* YAML null: "", "~", "null", "Null", "NULL". */
bool is_null_scalar(const char *s);

/*
 * Encode n as one element of type t into out (elem_infos[t].size bytes,
 * host byte order).  Returns NULL on success, else why it does not fit
 * ("300 does not fit u8", "a fraction for an integer type"); the message
 * is static or stored in why_buf.
 */
const char *num_encode(const struct num *n, enum elem_type t, void *out,
		       char *why_buf, size_t why_len);
/* The value of n as a double (for comparisons with tolerance). */
double num_to_double(const struct num *n);
/* Decode one element of type t at p as a double. */
double elem_to_double(enum elem_type t, const void *p);
/* Write element p of type t as text, exactly (for messages and dumps). */
int elem_format(enum elem_type t, const void *p, char *buf, size_t len);
/* Write n as it was written, roughly (for messages). */
int num_format(const struct num *n, char *buf, size_t len);

uint16_t f32_to_f16(float f);
float f16_to_f32(uint16_t h);
uint16_t f32_to_bf16(float f);
float bf16_to_f32(uint16_t h);

/* Format a size in bytes for humans: "4 MiB", "1000 B". */
int format_size(uint64_t bytes, char *buf, size_t len);
/* Format a duration for humans with 3 significant digits: "61.2 us". */
int format_duration(double seconds, char *buf, size_t len);
/* The same, and the unit's size in seconds and the decimals used, for figures beside it. */
int format_duration_scaled(double seconds, char *buf, size_t len, double *scale, int *prec);

/*
 * Is s an identifier, [A-Za-z_][A-Za-z0-9_]* (ASCII, whatever the
 * locale): an axis or generator variable, a define's name?
 */
bool is_identifier(const char *s);

/*
 * An axis value's text as a number: "2^k" (k up to four digits) in *v,
 * and for number_text also what strtod reads whole and finite.  How the
 * table aligns, the plot places and --compare matches axis values.
 */
bool pow2_text(const char *s, double *v);
bool number_text(const char *s, double *v);

#endif
