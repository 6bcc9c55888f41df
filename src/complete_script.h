/*
 * The shells' completions for cugraphrun, written from the option table
 * (cli.h: cli_options) when the program is built (src/gen_completion.c),
 * never by hand: a new option is offered as soon as it is in the table.
 * What an option's value completes to is the one thing the table does not
 * say; complete_script.c keeps that beside it, by the option's name, from
 * the lists the parser itself reads (--instantiate's flags, --dot-flags'
 * names, --modules' and --color's words).  Operands complete to .yaml and
 * .yml files and folders; -a and --set to the axis names, and --disable to
 * the node ids, of the graph file already on the command line, which the
 * script asks cugraphrun for (complete_names.h).
 *
 * The bash script follows bash-completion's conventions (_init_completion,
 * _filedir), for its completionsdir; the zsh one is an _arguments
 * function for a site-functions folder.  Neither expands a word that came
 * from a file: ids are matched and offered as they are.
 */
#ifndef CGR_COMPLETE_SCRIPT_H
#define CGR_COMPLETE_SCRIPT_H

#include <stdio.h>

void complete_write_bash(FILE *out);
void complete_write_zsh(FILE *out);

#endif
