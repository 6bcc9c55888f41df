/* --complete: a graph file's axis names and node ids (see complete_names.h). */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "complete_names.h"
#include "diag.h"
#include "load.h"
#include "sweep.h"
#include "utf8.h"

bool complete_shell_safe(const char *name)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t n = strlen(name);
	if (n == 0)
		return false;
	for (size_t i = 0, used; i < n; i += used) {
		int32_t cp = utf8_next(s + i, n - i, &used);
		bool ok = (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') ||
			(cp >= '0' && cp <= '9') || (cp > 0 && cp < 0x80 && strchr("._+-@%^/", cp)) ||
			cp > 0xa0;
		if (!ok)
			return false;
	}
	return true;
}

/*
 * path open, if it is a regular file of a size a completion reads; -1
 * otherwise.  Without blocking: a FIFO has no writer.
 */
static int open_small(const char *path)
{
	if (strcmp(path, "-") == 0)
		return -1;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat sb;
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size > COMPLETE_MAX_BYTES ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static void list_axes(const struct sweep *sw)
{
	for (size_t i = 0; i < sw->naxes; i++)
		if (complete_shell_safe(sw->axes[i].name))
			printf("%s\n", sw->axes[i].name);
}

/* The nodes --disable takes: kernel, memset and copy nodes of the top-level graph. */
static void list_ids(const struct sweep *sw)
{
	const struct gdef *g = sw->npoints ? sw->models[0] : NULL;
	for (size_t i = 0; g && g->root && i < g->root->nnodes; i++) {
		const struct node *n = g->root->nodes[i];
		if ((n->kind == NK_KERNEL || n->kind == NK_MEMSET || n->kind == NK_COPY) &&
		    n->id && complete_shell_safe(n->id))
			printf("%s\n", n->id);
	}
}

static const struct {
	const char *what;
	void (*list)(const struct sweep *sw);
} lists[] = {
	{"axes", list_axes},
	{"ids", list_ids},
};

int complete_names_main(const struct options *o)
{
	size_t k = 0;
	while (k < sizeof lists / sizeof *lists && strcmp(lists[k].what, o->complete) != 0)
		k++;
	if (k == sizeof lists / sizeof *lists) {
		usage_error("invalid --complete '%s': expected axes or ids", o->complete);
		return 2;
	}
	/* SIGALRM's default action ends the process: a file that takes longer lists nothing */
	signal(SIGALRM, SIG_DFL);
	alarm(COMPLETE_SECONDS);
	int fd = open_small(o->file);
	if (fd < 0)
		return 0;
	struct diag d;
	diag_init(&d, o->file, stderr);
	d.quiet = true;
	struct sweep *sw = sweep_load_fd(o->file, fd, NULL, 0, &d);
	if (sw)
		lists[k].list(sw);
	sweep_release(sw);
	diag_free(&d);
	return 0;
}
