/*
 * The fuzz target without libFuzzer: feed it every file named on the
 * command line, and every file in every folder named (not recursively),
 * in the order given.  A crash, a sanitizer report or a leak is the
 * failure; the exit status is 0 when every input was read, 1 otherwise.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return 1;
	}
	size_t cap = 4096, len = 0;
	uint8_t *buf = malloc(cap);
	size_t n;
	while (buf != NULL && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			uint8_t *nb = realloc(buf, cap *= 2);
			if (nb == NULL)
				free(buf);
			buf = nb;
		}
	}
	int bad = buf == NULL || ferror(f);
	fclose(f);
	if (bad) {
		fprintf(stderr, "replay: %s: cannot read\n", path);
		free(buf);
		return 1;
	}
	printf("replay: %s (%zu bytes)\n", path, len);
	fflush(stdout);
	/* in a buffer of exactly its size, as libFuzzer gives it: a read past the end is caught */
	uint8_t *exact = malloc(len ? len : 1);
	if (exact == NULL) {
		free(buf);
		perror("replay");
		return 1;
	}
	memcpy(exact, buf, len);
	free(buf);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_dir(const char *dir)
{
	DIR *dp = opendir(dir);
	if (dp == NULL) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	char **names = NULL;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		char **nn = realloc(names, (n + 1) * sizeof *names);
		size_t len = strlen(dir) + strlen(de->d_name) + 2;
		char *p = malloc(len);
		if (nn == NULL || p == NULL) {
			perror("replay");
			exit(1);
		}
		names = nn;
		snprintf(p, len, "%s/%s", dir, de->d_name);
		names[n++] = p;
	}
	closedir(dp);
	if (n > 0)
		qsort(names, n, sizeof *names, cmp_names);
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
			rc |= replay_file(names[i]);
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	LLVMFuzzerInitialize(&argc, &argv);
	int rc = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			rc |= replay_dir(argv[i]);
		else
			rc |= replay_file(argv[i]);
	}
	return rc;
}
