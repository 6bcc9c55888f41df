/*
 * gen_completion bash|zsh: the shell's completion script for cugraphrun
 * on standard output, from the option table (complete_script.h).  Run by
 * make; not installed.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "complete_script.h"

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "bash") == 0)
		complete_write_bash(stdout);
	else if (argc == 2 && strcmp(argv[1], "zsh") == 0)
		complete_write_zsh(stdout);
	else {
		fputs("usage: gen_completion bash|zsh\n", stderr);
		return 2;
	}
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
