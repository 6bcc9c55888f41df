/*
 * The compiled form of a template (private to expr.c and expr_vec.c):
 * the instructions of the stack machine, the pieces of text and the
 * names, in the one allocation tmpl_parse makes.  expr.c parses into it
 * and evaluates it one point at a time; expr_vec.c evaluates it at many
 * points at once and leaves what it cannot do to expr_apply, so that
 * every operator's meaning is written once, in expr.c.
 */
#ifndef CGR_EXPR_CODE_H
#define CGR_EXPR_CODE_H

#include <stdbool.h>
#include <stdint.h>

#include "expr.h"

/*
 * The compiled form is bytecode for a stack machine, one array for all the
 * expressions of a template: evaluating is a loop over 16-byte
 * instructions with no recursion (so no depth of a left-nested a+b+c+...
 * can overflow the C stack) and no allocation.  &&, || and ?: are jumps.
 */
enum op {
	OP_NONE,
	OP_INT, OP_FLOAT, OP_STR, OP_LOAD,             /* push */
	OP_NEG, OP_PLUS, OP_NOT,                       /* top to top */
	OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_POW,
	OP_SHL, OP_SHR,                                /* two to one */
	OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
	OP_AND,     /* pop; when false, push 0 and jump */
	OP_OR,      /* pop; when true, push 1 and jump */
	OP_BOOL,    /* the right side of && or || (in aux) to 0 or 1 */
	OP_JFALSE,  /* pop; when false, jump: the condition of ?: */
	OP_JUMP,
	OP_CALL,    /* argc arguments to one value, by funcs[aux] */
	OP_COUNT
};

struct ins {
	uint8_t op;
	uint8_t argc;               /* OP_CALL */
	uint8_t aux;                /* OP_CALL: index in funcs; OP_BOOL: OP_AND or OP_OR */
	uint32_t off;               /* the token's offset in the text, for errors */
	union {
		int64_t i;
		double f;
		struct { uint32_t at, len; } str;       /* OP_STR: bytes of the pool */
		struct { uint32_t name, slot; } load;   /* OP_LOAD */
		uint32_t to;                            /* jumps: an index in code */
	} u;
};

/* A literal run of text (bytes of the pool) or an expression (instructions). */
struct piece {
	bool expr;
	uint32_t at, len;
};

struct name {
	uint32_t at;                /* in the pool, NUL-terminated */
	uint32_t len;
	uint32_t off;               /* first use, in the text */
};

/*
 * One allocation: this header, then code, pieces, names and pool.  Only
 * tmpl_link writes to it after parsing, the slots of OP_LOAD.
 */
struct tmpl {
	struct ins *code;
	const struct piece *pieces;
	const struct name *names;
	const char *pool;
	uint32_t ncode, npieces, nnames, nexprs;
	bool whole;
	bool linked;
};

/*
 * Instruction in of a template applied to the values at sp, as the
 * evaluator of one point applies it: an operator's operands (sp[0], and
 * sp[1] for two), a call's arguments (sp[0..in->argc)), OP_BOOL's value;
 * the result in sp[0].  False and *err as tmpl_eval would fail.  Not for
 * the pushes and jumps.
 */
bool expr_apply(const struct ins *in, struct expr_val *sp, struct expr_err *err);

/* The name of the function an OP_CALL calls ("min", "sqrt", ...). */
const char *expr_func_name(const struct ins *in);

#endif
