/* The terminal (see term.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "scalar.h"
#include "term.h"

const char *const color_when_names[COLOR_WHEN_COUNT] = {
	[COLOR_AUTO] = "auto", [COLOR_ALWAYS] = "always", [COLOR_NEVER] = "never",
};

static bool color;

bool term_smart(int fd)
{
	const char *t = getenv("TERM");
	/* as gcc and ninja judge it: a dumb terminal takes no escapes */
	return isatty(fd) && t != NULL && t[0] != '\0' && strcmp(t, "dumb") != 0;
}

unsigned term_width(int fd)
{
	struct winsize ws;
	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	uint64_t cols;
	const char *c = getenv("COLUMNS");
	if (c && parse_u64(c, &cols) == SCALAR_OK && cols > 0 && cols < 10000)
		return (unsigned)cols;
	return 80;
}

void term_color_choose(enum color_when when)
{
	/* no-color.org: NO_COLOR set and not empty; an explicit --color wins */
	const char *no = getenv("NO_COLOR");
	if (when == COLOR_AUTO)
		color = term_smart(STDERR_FILENO) && (no == NULL || no[0] == '\0');
	else
		color = when == COLOR_ALWAYS;
}

bool term_color(void)
{
	return color;
}
