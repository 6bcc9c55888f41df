/* The report's description (report_describe.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "describe.h"
#include "prof_stat.h"
#include "report_describe.h"

char *report_description(const struct report *r)
{
	if (r->model == NULL)
		return NULL;
	struct describe_overlay ov;
	struct describe_opts o = {.buffers = r->describe_buffers, .format = DESCRIBE_DOT};
	if (r->profile) {
		/* the overlay writes its colours into the summary's scratch, nothing else */
		prof_overlay((struct prof_summary *)r->profile, &ov);
		o.overlay = &ov;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (mem == NULL)
		return NULL;
	int rc = describe_write(r->model, &o, mem);
	if (fclose(mem) != 0 || rc != 0) {
		free(text);
		return NULL;
	}
	return text;
}
