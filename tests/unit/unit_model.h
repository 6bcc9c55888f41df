/*
 * Unit tests: a graph file's model, loaded and validated from text, and
 * its nodes found by id.  Both stop the test (Check) when the file is not
 * what the test meant.
 */
#ifndef CGR_UNIT_MODEL_H
#define CGR_UNIT_MODEL_H

#include <check.h>
#include <string.h>

#include "load.h"
#include "model.h"
#include "unit_cap.h"
#include "validate.h"

/* A file that loads and validates without a message, as t.yaml. */
static inline struct gdef *unit_valid(const char *text)
{
	struct cap c;
	cap_open(&c, "t.yaml");
	struct gdef *g = gdef_load_string("t.yaml", text, strlen(text), NULL, &c.d);
	ck_assert_ptr_nonnull(g);
	ck_assert_msg(c.d.nerrors == 0 && gdef_validate(g, &c.d), "errors:\n%s", cap_text(&c));
	ck_assert_str_eq(cap_text(&c), "");
	cap_close(&c);
	return g;
}

/* The node of a validated model whose id is id, wherever it stands. */
static inline const struct node *unit_node(const struct gdef *g, const char *id)
{
	for (size_t i = 0; i < g->nall_nodes; i++)
		if (strcmp(g->all_nodes[i]->id, id) == 0)
			return g->all_nodes[i];
	ck_abort_msg("no node %s", id);
	return NULL;
}

#endif
