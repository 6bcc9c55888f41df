/*
 * yaml_scan FILE: the baseline of the front-end benchmark.  It runs
 * libyaml's event parser over FILE the plain way (yaml_parser_set_input_file,
 * yaml_parser_parse, yaml_event_delete) and prints the number of events:
 * the least any loader built on libyaml's events can cost.
 * bench/frontend.py compares `cugraphrun --validate` with it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <yaml.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: yaml_scan FILE\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (f == NULL) {
		fprintf(stderr, "yaml_scan: cannot read %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	yaml_parser_t parser;
	if (!yaml_parser_initialize(&parser)) {
		fprintf(stderr, "yaml_scan: out of memory\n");
		return 2;
	}
	yaml_parser_set_input_file(&parser, f);
	unsigned long events = 0;
	int status = 0;
	for (;;) {
		yaml_event_t event;
		if (!yaml_parser_parse(&parser, &event)) {
			fprintf(stderr, "yaml_scan: %s:%zu:%zu: %s\n", argv[1],
				parser.problem_mark.line + 1, parser.problem_mark.column + 1,
				parser.problem ? parser.problem : "syntax error");
			status = 1;
			break;
		}
		events++;
		int done = event.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&event);
		if (done)
			break;
	}
	yaml_parser_delete(&parser);
	fclose(f);
	if (status == 0)
		printf("%lu events\n", events);
	return status;
}
