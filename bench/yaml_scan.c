/*
 * yaml_scan FILE: the baseline of the front-end benchmark.  It only runs
 * libyaml's event parser over FILE (read into memory first, as the loader
 * does) and prints the number of events: the least any loader built on
 * libyaml can cost.  bench/frontend.py compares cugraphrun --validate with
 * it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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
	size_t cap = 1 << 16, len = 0;
	unsigned char *buf = malloc(cap);
	size_t n;
	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap)
			buf = realloc(buf, cap *= 2);
	}
	if (buf == NULL || ferror(f)) {
		fprintf(stderr, "yaml_scan: cannot read %s\n", argv[1]);
		return 2;
	}
	fclose(f);

	yaml_parser_t parser;
	yaml_event_t event;
	unsigned long events = 0;
	if (!yaml_parser_initialize(&parser)) {
		fprintf(stderr, "yaml_scan: out of memory\n");
		return 2;
	}
	yaml_parser_set_input_string(&parser, buf, len);
	for (;;) {
		if (!yaml_parser_parse(&parser, &event)) {
			fprintf(stderr, "yaml_scan: %s:%zu:%zu: %s\n", argv[1],
				parser.problem_mark.line + 1, parser.problem_mark.column + 1,
				parser.problem ? parser.problem : "syntax error");
			yaml_parser_delete(&parser);
			return 1;
		}
		events++;
		int done = event.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&event);
		if (done)
			break;
	}
	yaml_parser_delete(&parser);
	free(buf);
	printf("%lu events\n", events);
	return 0;
}
