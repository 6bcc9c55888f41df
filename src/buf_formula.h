/*
 * Formulas: a buffer's initial values and a check's expected values given
 * element by element by an expression (init: {formula: ...}, expect:
 * {formula: ...}; cugraphrun(5), Buffers and Checks), with no CUDA in
 * sight.  The expression is the template language of expr.h, compiled
 * once per formula and evaluated a block of elements at a time
 * (expr_vec.h); its variables are the element's indices:
 *
 *     i        a buffer with no shape: the element's index in the buffer
 *     i, j, k  a shaped buffer: the indices of its first, second and third
 *              dimension, the last varying fastest, as a C array
 *              b[i][j][k] is laid out
 *
 * and nothing else: a sweep's axis values and a generator's variables
 * are written ${NAME}, which the loader evaluates at each point before
 * the formula is read, so that an axis or a generator variable called i
 * is ${i} while the bare i is the index.  A value is converted to the
 * buffer's element type as a number written in the file is: an integer
 * must fit an integer type, a float is no integer (int() makes one), a
 * float that overflows the type is an error.
 *
 * SHAPES.  A buffer's dimensions as formulas see them come from
 * formula_dims, which is the one place that reads a buffer's shape for
 * them: a buffer with a shape of 2 or 3 axes ([rows, columns]) has those
 * dimensions, i the slowest (i the row, j the column); one without, or
 * of one axis, has a single dimension of b->count elements.  Element e
 * of the host copy is the e-th of the buffer's elements in that order,
 * without padding; formula_where says where it is in words for messages.
 *
 * Ownership: a struct formula_prog owns its compiled template and its
 * scratch, and borrows the formula and the buffer it was made for, which
 * must outlive it.  One program is for one thread.
 */
#ifndef CGR_BUF_FORMULA_H
#define CGR_BUF_FORMULA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "expr.h"
#include "model.h"

/* The index variables, by slot. */
enum { FORMULA_I, FORMULA_J, FORMULA_K, FORMULA_NVARS };
extern const char *const formula_vars[FORMULA_NVARS];

/* b's dimensions as formulas index them (1 to 3), and each one's extent, i's first. */
unsigned formula_dims(const struct buffer *b, uint64_t ext[FORMULA_NVARS]);

/*
 * Where element e of b is, for a message after its index: "" for a
 * buffer without a shape, " [2, 5]" for one with (shape.h's words).
 */
void formula_where(const struct buffer *b, uint64_t e, char *buf, size_t len);

/* Where byte off of f's text is in the file (its scalar, unless exact). */
struct pos formula_pos(const struct formula *f, uint32_t off);

struct formula_prog;

/*
 * f compiled for buffer b (its element type and dimensions); NULL and
 * *err (a message, and its span in f->text) when it does not parse or
 * names anything but b's indices.
 */
struct formula_prog *formula_compile(const struct formula *f, const struct buffer *b,
				     struct expr_err *err);
void formula_free(struct formula_prog *p);

/*
 * Elements first to first + n - 1 of the buffer, each encoded in its
 * element type into out (n elements).  False at the first element whose
 * value cannot be had: *at is its index, why says what ("division by
 * zero in '/'", "300 does not fit u8", "2.5 is not an integer, as i32
 * needs"), and *span is the error's span in the text when the
 * expression failed (len 0 when the value did not fit).
 */
bool formula_values(struct formula_prog *p, uint64_t first, uint64_t n, void *out,
		    uint64_t *at, char *why, size_t len, struct expr_err *span);

/*
 * For the validator: f for buffer b as what ("init of buffer 'x'",
 * "expected values of buffer 'x'") compiles, and gives values the
 * element type takes at elements first and first + count - 1 (the rest
 * is seen when it runs); else errors through d, at the formula.  True
 * when it holds.
 */
bool formula_check(const struct formula *f, const struct buffer *b, uint64_t first,
		   uint64_t count, const char *what, struct diag *d);

/*
 * Report through d that f could not give element at's value (what, at
 * and why as formula_values gave them; span its error's).
 */
void formula_report(const struct formula *f, const struct buffer *b, const char *what,
		    uint64_t at, const char *why, const struct expr_err *span, struct diag *d);

#endif
