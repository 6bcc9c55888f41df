/*
 * --compare on the command line (compare_cli.h).
 */
#include "config.h"

#include <string.h>

#include "compare.h"
#include "compare_cli.h"
#include "diag.h"

int compare_open(struct options *o)
{
	if (o->compare == NULL || o->validate)
		return 0;
	struct diag d;
	diag_init(&d, o->compare, stderr);
	struct cmp_doc *base = cmp_doc_read(o->compare, &d);
	diag_finish(&d);
	if (base == NULL)
		return 2;
	o->compare_doc = base;
	return 0;
}

void compare_close(struct options *o)
{
	cmp_doc_free((struct cmp_doc *)o->compare_doc);
	o->compare_doc = NULL;
}

int compare_offline_main(const struct options *o)
{
	struct diag d;
	diag_init(&d, o->file, stderr);
	struct cmp_doc *cur = cmp_doc_read(o->file, &d);
	diag_finish(&d);
	if (cur == NULL)
		return 2;
	struct comparison c;
	compare_docs(o->compare_doc, cur, o->compare_threshold, true, &c);
	if (o->verbosity > VERB_QUIET) {
		printf("%s\n", diag_esc(o->file));
		comparison_print(stdout, &c);
		fflush(stdout);
	}
	comparison_say_slower(&c);
	int status = comparison_status(&c);
	comparison_free(&c);
	cmp_doc_free(cur);
	return status;
}
