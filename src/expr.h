/*
 * The expression language of templates: a scalar's text with ${...} in
 * it, parsed once into a compact compiled template, its names linked to
 * slots, then evaluated as often as a sweep asks against an array of
 * values indexed by slot.  No YAML, no model, no CUDA here: the loader and
 * the sweep call in.
 *
 * Ownership: a struct tmpl owns all of its memory, in one allocation made
 * by tmpl_parse; tmpl_free releases it and accepts NULL.  A string value
 * (struct expr_val) never owns its bytes: it borrows them from where they
 * live, the caller's variable values, the compiled template (for 'quoted'
 * literals) or the caller's strbuf (for an interpolated result), and is
 * valid as long as that is.  Evaluation allocates nothing, except that an
 * interpolated result may grow the caller's strbuf.
 *
 * TEMPLATES
 *
 * A template is literal text with zero or more ${EXPR} pieces in it,
 * scanned left to right:
 *
 *     $${     is the literal text "${" (the escape), always;
 *     ${      starts an expression, which ends at the first '}' that is
 *             not inside a 'string';
 *     $       anywhere else is itself.
 *
 * So "$${x}" is the text "${x}", "$$" and "a$b" are themselves, and a '$'
 * right before an expression's value is written ${'$'}${x}.  A template
 * that is exactly one ${EXPR}, with nothing before or after it, is whole:
 * its value is the expression's value, with its type (int, float or
 * string).  Any other template's value is a string: its literal pieces
 * and each expression's value as text (see FORMATTING), in order.  A
 * template without any ${EXPR} is the string of its literal text.
 *
 * VALUES
 *
 * int (int64_t), float (double) and string (bytes and a length; always
 * NUL-terminated, so also a C string).  Strings come from variables whose
 * values are words (a type axis T: [float, double]) and from literals.
 *
 * GRAMMAR (lowest precedence first; '*' repeats, '?' optional)
 *
 *     expr     = or ( '?' expr ':' expr )?          right associative
 *     or       = and ( '||' and )*
 *     and      = eq ( '&&' eq )*
 *     eq       = rel ( ( '==' | '!=' ) rel )*
 *     rel      = shift ( ( '<' | '<=' | '>' | '>=' ) shift )*
 *     shift    = add ( ( '<<' | '>>' ) add )*
 *     add      = mul ( ( '+' | '-' ) mul )*
 *     mul      = unary ( ( '*' | '/' | '%' ) unary )*
 *     unary    = ( '-' | '+' | '!' ) unary | power
 *     power    = primary ( '**' unary )?            right associative
 *     primary  = INT | FLOAT | STRING | NAME | NAME '(' args? ')'
 *              | '(' expr ')'
 *     args     = expr ( ',' expr )*
 *
 * so -2**2 is -(2**2) = -4, 2**-1 is 2**(-1), 2**3**2 is 2**9 and a-b-c
 * is (a-b)-c.  Blanks (space, tab, newline, carriage return) may stand
 * between tokens.
 *
 *     INT      decimal digits, or 0x and hex digits: 42, 0x1F.  No sign (a
 *              minus is the operator), no octal (010 is ten), no '_'.  At
 *              most 9223372036854775807, except that -9223372036854775808
 *              is INT64_MIN when no '**' follows.
 *     FLOAT    digits with a '.' or an exponent or both: 1.5, 1., .5, 1e-3,
 *              2.5E+2.  Too large for a double (1e999) is an error.
 *     STRING   'any bytes but a single quote': 'f32'.  No escapes.
 *     NAME     [A-Za-z_][A-Za-z0-9_]*: a variable, or a function when a
 *              '(' follows.  A variable may share a function's name.
 *
 * A number directly followed by a letter, digit, '_' or '.' (12ab, 1.2.3,
 * 0x) is a malformed number.
 *
 * OPERATORS
 *
 * Arithmetic (+ - * / % **, unary - +) on two ints is int, with C
 * semantics: '/' truncates toward zero, '%' takes the sign of the
 * dividend.  With a float on either side both are floats and the result
 * is a float (IEEE 754: '%' is fmod, '**' is pow).  Errors:
 *
 *     integer overflow in 'OP'       an int result outside int64
 *                                    (INT64_MIN / -1, -INT64_MIN,
 *                                    2**63, 1 << 63, ...)
 *     division by zero in 'OP'       '/' or '%' by 0 or 0.0, int or float
 *     negative exponent N in '**' of integers (make one a float)
 *     string 'S' in 'OP' (arithmetic takes numbers)
 *
 * '<<' and '>>' take ints only (a float is an error: "float F in '<<'
 * (shifts take integers)"); the count must be 0 to 63 ("shift count N
 * out of range in '<<' (0 to 63)").  a << b is a * 2**b, an overflow
 * error when it does not fit; a >> b is arithmetic (floor: -5 >> 1 is
 * -3).
 *
 * Comparisons (== != < <= > >=) yield int 0 or 1.  Numbers compare by
 * value, exactly, ints with floats too (2 == 2.0; 2**53+1 > 2.0**53); a
 * NaN is unequal to everything, itself included.  Two strings compare
 * bytewise (memcmp order, a prefix first).  A string with a number is an
 * error: "comparing string 'S' with a number in '=='".
 *
 * Conditions: '!', '&&', '||' and the condition of '?:' take a number,
 * true when nonzero (NaN is true, as in C); a string is an error ("string
 * 'S' as a condition in '&&'", "... in '?'" for ?:).  '!', '&&' and '||'
 * yield int 0 or 1.
 * '&&', '||' and '?:' evaluate left to right and only as much as they
 * need: a branch that is not evaluated cannot fail (n > 0 ? 100 / n : 0).
 * The branches of '?:' may have different types.
 *
 * FUNCTIONS (a wrong count of arguments, or an unknown function, is an
 * error when parsing; anything else about arguments when evaluating)
 *
 *     min(a, b, ...)  max(a, b, ...)
 *                     2 to 64 numbers: the least or greatest; int when all
 *                     are ints, else a float (NaN if any is NaN)
 *     ceil_div(a, b)  ints, a >= 0, b > 0: (a + b - 1) / b, with no
 *                     overflow for any such a and b
 *     abs(x)          int or float as x; abs(INT64_MIN) overflows
 *     floor(x), ceil(x), round(x)
 *                     an int x as is; a float rounded down, up, or to the
 *                     nearest with halves away from zero, as an int when
 *                     it fits int64, else as the float (inf, nan, 1e300)
 *     sqrt(x), log2(x), pow(x, y)
 *                     float, IEEE 754 (sqrt(-1) is nan, log2(0) is -inf)
 *     int(x)          an int x as is; a float truncated toward zero; an
 *                     error when NaN or outside int64
 *     float(x)        x as a float
 *     sizeof(T)       int: the size in bytes of the element type named by
 *                     the string T: the format's names (u8 i8 u16 i16 u32
 *                     i32 u64 i64 f16 bf16 f32 f64) and the C and CUDA
 *                     spellings: char, signed char, unsigned char, bool,
 *                     short, unsigned short, int, unsigned, unsigned int,
 *                     long, unsigned long, long long, unsigned long long,
 *                     size_t, int8_t to int64_t, uint8_t to uint64_t,
 *                     float, double, half, __half, __nv_bfloat16,
 *                     nv_bfloat16 (long and size_t are 8, as on 64-bit
 *                     Linux)
 *
 * Their errors, at the function's name:
 *
 *     string 'S' in 'F' (it takes numbers)         any but sizeof
 *     float F in 'ceil_div' (it takes integers)
 *     division by zero in 'ceil_div'
 *     negative divisor N in 'ceil_div'
 *     negative dividend N in 'ceil_div'
 *     integer overflow in 'abs'
 *     float nan in 'int' (NaN has no integer value)
 *     float F out of range in 'int'
 *     unknown type 'S' in 'sizeof' (did you mean 'U'?)
 *                                                  the hint when one is
 *                                                  close (or differs in case)
 *     N in 'sizeof' (it takes a type name such as 'f32')
 *                                                  also "float F in ..."
 *
 * FORMATTING (what a value interpolates to, expr_format)
 *
 * An int in decimal (-12); a string as is; a float as %.Ng with the
 * fewest digits N (at most 17) that read back as the same double, with
 * ".0" appended when that has no '.', exponent, inf or nan, so that it
 * reads back as a float too (2.0, 0.1, 0.30000000000000004, 1e+20, 5e-324,
 * -0.0, inf, -inf, nan).
 *
 * ERRORS
 *
 * Every error is a message and a byte span (offset and length) into the
 * scalar's text, which the loader turns into file:line:col.  Parsing
 * reports the first error only; its span is the offending token (or the
 * place where one is missing, length 0 at the end).  Messages:
 *
 *     unterminated '${'                          at the '${'
 *     unterminated string                        at its quote
 *     unexpected character 'C'                   a whole UTF-8 character,
 *                                                other bytes as \xNN
 *     unexpected '=' (did you mean '=='?)        and '&' for '&&', '|' for '||'
 *     malformed number '12ab'
 *     integer N is too large (at most 9223372036854775807)
 *     float N is too large
 *     expected an expression after 'TOK'         at what came instead ('${'
 *                                                at the start of a piece)
 *     expected an expression                     an empty bare expression
 *     expected ')' to match '('
 *     expected ',' or ')' after an argument of 'F'
 *     expected ':' for '?'
 *     unexpected 'TOK' after the expression
 *     unknown function 'F' (did you mean 'G'?)   at the name
 *     'F' takes 1 argument, found M              at the name; "2 arguments",
 *                                                "2 to 64 arguments"
 *     too many arguments for 'F' (at most 64)
 *     too many names (more than 64)              distinct names in a template
 *     expression nested too deeply (more than 64 levels)
 *     expression too complex (more than 256 values at once)
 *     template too long (more than 1048576 bytes)
 *     unknown name 'N'                           when linking, at the name
 *     template evaluated before tmpl_link        a caller's mistake
 *
 * and the evaluation errors above, at their operator or function name
 * (the error of the first operation that fails, in evaluation order).
 * Text from the input (names, strings, tokens) is cut to about 40 bytes,
 * with "...", and shown as in "unexpected character".
 * Nesting (parentheses, unary operators, '**', '?:', calls) is bounded,
 * so no input overflows the C stack; any byte sequence is safe.
 */
#ifndef CGR_EXPR_H
#define CGR_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "scalar.h"
#include "strbuf.h"

#define EXPR_MAX_DEPTH 64       /* nesting levels */
#define EXPR_MAX_STACK 256      /* values pending at once while evaluating */
#define EXPR_MAX_ARGS 64        /* arguments of min and max */
#define EXPR_MAX_NAMES 64       /* distinct names in a template */
#define TMPL_MAX_LEN (1u << 20) /* bytes of a template's text */

enum expr_type { EXPR_INT, EXPR_FLOAT, EXPR_STR };

/* 16 bytes, passed and copied by value. */
struct expr_val {
	enum expr_type type;
	uint32_t len;               /* EXPR_STR: bytes at s, not counting its '\0' */
	union {
		int64_t i;
		double f;
		const char *s;      /* borrowed; s[len] == '\0' */
	};
};

static inline struct expr_val expr_int(int64_t i)
{
	return (struct expr_val){.type = EXPR_INT, .i = i};
}

static inline struct expr_val expr_float(double f)
{
	return (struct expr_val){.type = EXPR_FLOAT, .f = f};
}

/* s must stay alive, and s[len] be '\0', as long as the value is used. */
static inline struct expr_val expr_str(const char *s, uint32_t len)
{
	return (struct expr_val){.type = EXPR_STR, .len = len, .s = s};
}

/* Where and what: a byte span of the template's text and a message. */
struct expr_err {
	uint32_t off;
	uint32_t len;
	char msg[160];
	/* the message's catalog code (diag_catalog.h): its printer names it with diag_code */
	const char *code;
};

struct tmpl;

/*
 * True when text[0..len) holds "${": an expression, the escape "$${" or
 * an unterminated "${", so that it must go through tmpl_parse; false when
 * the text is its own value.  Costs a memchr for text without '$'.
 */
static inline bool tmpl_has_expr(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	while ((p = memchr(p, '$', (size_t)(end - p))) != NULL) {
		if (++p < end && *p == '{')
			return true;
	}
	return false;
}

/*
 * Compile text[0..len) (any bytes) as a template; NULL and *err when it is
 * malformed.  Names are recorded, not resolved: tmpl_link does that.
 */
struct tmpl *tmpl_parse(const char *text, size_t len, struct expr_err *err);
/*
 * Compile text[0..len) as a bare expression, without "${" and "}" (for
 * fields that are expressions by nature, such as a sweep's filter); the
 * result is a whole template.
 */
struct tmpl *tmpl_parse_expr(const char *text, size_t len, struct expr_err *err);
void tmpl_free(struct tmpl *t);

/* Exactly one ${EXPR} and nothing else: the value keeps the expression's type. */
bool tmpl_is_whole(const struct tmpl *t);
/* The number of ${EXPR} pieces; 0: the value is the constant literal text. */
size_t tmpl_nexprs(const struct tmpl *t);

/* The distinct variable names used, in order of first use. */
size_t tmpl_nnames(const struct tmpl *t);
/* Name i (NUL-terminated, owned by t); *off, when off is not NULL, its first offset. */
const char *tmpl_name(const struct tmpl *t, size_t i, size_t *off);

/*
 * A name's slot: 0 to INT32_MAX, or negative when there is no such name.
 * Called once per distinct name per tmpl_link.
 */
typedef long (*tmpl_lookup_fn)(void *ctx, const char *name);
/* The lookup for a strmap of names to slots (ctx is the struct strmap *). */
long tmpl_lookup_strmap(void *ctx, const char *name);

/*
 * Resolve every name of t to its slot; false and "unknown name 'N'" at
 * the name's first use (the span is the name: callers may add "did you
 * mean" with diag_suggest) when lookup knows one not.  May be called
 * again, to relink against other slots; a template without names needs
 * no link.
 */
bool tmpl_link(struct tmpl *t, tmpl_lookup_fn lookup, void *ctx, struct expr_err *err);

/*
 * Evaluate linked t with vars[slot] the value of each name (vars may be
 * NULL when t has no names).  A whole template's value is its
 * expression's (a string borrowed from vars or t, out untouched: out may
 * be NULL).  Any other template's text is appended to out, and *res is a
 * string pointing into out->buf, valid until out next changes.  False and
 * *err on an evaluation error; out is then as it was.  t is only read:
 * threads may evaluate one linked template at once, each into its own out.
 */
bool tmpl_eval(const struct tmpl *t, const struct expr_val *vars, struct strbuf *out,
	       struct expr_val *res, struct expr_err *err);

/* Append the text v interpolates to (see FORMATTING above). */
void expr_format(const struct expr_val *v, struct strbuf *out);

/*
 * Values to what the loader needs: true and *out, or false and why, a
 * phrase to follow the value's own description ("'${n}' for 'count' ..."):
 *
 *     is 300, out of range (0 to 255)
 *     is 2.5, not an integer
 *     is 'float', not a number
 *
 * A float is never an integer here, not even 4.0 (int() makes one), as
 * in the file a number with a '.' is none.
 */
bool expr_to_u64(const struct expr_val *v, uint64_t min, uint64_t max, uint64_t *out,
		 char *why, size_t why_len);
bool expr_to_i64(const struct expr_val *v, int64_t min, int64_t max, int64_t *out,
		 char *why, size_t why_len);
bool expr_to_double(const struct expr_val *v, double *out, char *why, size_t why_len);
/* A number as scalar.h keeps one, for num_encode against an element type. */
bool expr_to_num(const struct expr_val *v, struct num *out, char *why, size_t why_len);

#endif
