/*
 * Unit tests for the terminal: the status line (term_progress.c), the
 * colours of diagnostics (diag.c, term.c) and --color.
 */
#include "config.h"

#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"
#include "diag.h"
#include "term.h"
#include "term_progress.h"
#include "unit.h"

/* The line for these figures, at width columns. */
static const char *line(size_t done, size_t total, double elapsed, const char *name,
			unsigned width)
{
	static char buf[2048];
	size_t n = progress_format(buf, sizeof buf, done, total, elapsed, name, width);
	ck_assert_uint_eq(n, strlen(buf));
	return buf;
}

START_TEST(test_progress_text)
{
	/* the pace so far: 42 s for 3 files, 7 to go: 98 s */
	ck_assert_str_eq(line(3, 10, 42, "graphs/fft.yaml", 80),
			 "[3/10] graphs/fft.yaml  0:42 elapsed, about 1:38 left");
	/* nothing finished yet: no estimate; no file running: no name */
	ck_assert_str_eq(line(0, 200, 0.4, "a.yaml", 80), "[0/200] a.yaml  0:00 elapsed");
	ck_assert_str_eq(line(5, 9, 61, NULL, 80), "[5/9]  1:01 elapsed, about 0:49 left");
	ck_assert_str_eq(line(9, 9, 3725, "z.yaml", 80), "[9/9] z.yaml  1:02:05 elapsed");
	/* a name is the user's: its control characters as visible escapes */
	ck_assert_str_eq(line(0, 1, 0, "a\nb\033[2J.yaml", 80),
			 "[0/1] a\\nb\\x1b[2J.yaml  0:00 elapsed");
}
END_TEST

START_TEST(test_progress_fits)
{
	/* never the last column (a line that wraps cannot be rewritten): the name's middle goes */
	const char *name = "suites/nightly/graphs/a-rather-long-directory-name/fft-radix-8.yaml";
	ck_assert_str_eq(line(37, 200, 42, name, 60),
			 "[37/200] suites/n...x-8.yaml  0:42 elapsed, about 3:05 left");
	/* then the estimate, then the clock, then the name */
	ck_assert_str_eq(line(37, 200, 42, name, 40), "[37/200] suites...-8.yaml  0:42 elapsed");
	ck_assert_str_eq(line(37, 200, 42, name, 30), "[37/200] suites/n...ix-8.yaml");
	ck_assert_str_eq(line(37, 200, 42, name, 12), "[37/200]");
	ck_assert_str_eq(line(37, 200, 42, name, 3), "[3");
	for (unsigned w = 1; w < 130; w++)
		ck_assert_uint_le(strlen(line(37, 200, 42, name, w)), w > 1 ? w - 1 : 1);
	/* wide characters count two columns, and are never cut in two */
	ck_assert_str_eq(line(1, 4, 5, "日本語のとても長いファイル名です.yaml", 30),
			 "[1/4] 日本語のと...です.yaml");
}
END_TEST

static double fake_now;
static double fake_clock(void)
{
	return fake_now;
}

/* What the line wrote to f since the last call. */
static const char *written(FILE *f, char **buf, size_t *len, size_t *seen)
{
	static char out[1024];
	fflush(f);
	snprintf(out, sizeof out, "%.*s", (int)(*len - *seen), *buf + *seen);
	*seen = *len;
	return out;
}

START_TEST(test_progress_draws)
{
	char *buf = NULL;
	size_t len = 0, seen = 0;
	FILE *f = open_memstream(&buf, &len);
	fake_now = 100;
	progress_start_on(f, 80, fake_clock, 3);
	/* nothing is up: nothing to take down */
	progress_clear();
	ck_assert_str_eq(written(f, &buf, &len, &seen), "");
	progress_update(0, "a.yaml");
	ck_assert_str_eq(written(f, &buf, &len, &seen), "\r[0/3] a.yaml  0:00 elapsed\033[K");
	/* the same figures: not drawn again */
	progress_update(0, "a.yaml");
	ck_assert_str_eq(written(f, &buf, &len, &seen), "");
	ck_assert_int_eq(progress_tick_ms(), 1000);
	fake_now = 101.25;
	ck_assert_int_eq(progress_tick_ms(), 750);
	progress_update(1, "b.yaml");
	ck_assert_str_eq(written(f, &buf, &len, &seen),
			 "\r[1/3] b.yaml  0:01 elapsed, about 0:03 left\033[K");
	/* other output takes the line down; the next update puts it back */
	progress_clear();
	ck_assert_str_eq(written(f, &buf, &len, &seen), "\r\033[K");
	progress_clear();
	ck_assert_str_eq(written(f, &buf, &len, &seen), "");
	progress_update(1, "b.yaml");
	ck_assert_str_eq(written(f, &buf, &len, &seen),
			 "\r[1/3] b.yaml  0:01 elapsed, about 0:03 left\033[K");
	/* a diagnostic takes it down itself */
	struct diag d;
	diag_init(&d, "g.yaml", f);
	diag_error(&d, (struct pos){2, 3}, "bad");
	ck_assert_str_eq(written(f, &buf, &len, &seen), "\r\033[Kg.yaml:2:3: error: bad\n");
	diag_free(&d);
	progress_end();
	ck_assert_str_eq(written(f, &buf, &len, &seen), "");
	ck_assert_int_eq(progress_tick_ms(), -1);
	progress_update(2, "c.yaml");
	ck_assert_str_eq(written(f, &buf, &len, &seen), "");
	fclose(f);
	free(buf);
}
END_TEST

/* A suite's worker: no line, whatever it is asked, and its parent's is not taken down. */
START_TEST(test_progress_forbidden)
{
	progress_forbid();
	progress_start(3, true);
	ck_assert_int_eq(progress_tick_ms(), -1);
	progress_update(1, "a.yaml");
	progress_clear();
	ck_assert_int_eq(progress_tick_ms(), -1);
}
END_TEST

/* A pseudo-terminal's other end, open (and its master in *m). */
static int open_pty(int *m)
{
	*m = posix_openpt(O_RDWR | O_NOCTTY);
	ck_assert_int_ge(*m, 0);
	ck_assert_int_eq(grantpt(*m), 0);
	ck_assert_int_eq(unlockpt(*m), 0);
	int fd = open(ptsname(*m), O_RDWR | O_NOCTTY);
	ck_assert_int_ge(fd, 0);
	return fd;
}

/* What the terminal shows on m: len bytes, or what came within a few seconds. */
static const char *read_pty(int m, size_t len)
{
	static char buf[512];
	size_t n = 0;
	struct pollfd p = {.fd = m, .events = POLLIN};
	while (n < len && n < sizeof buf - 1 && poll(&p, 1, 5000) > 0) {
		ssize_t got = read(m, buf + n, sizeof buf - 1 - n);
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	buf[n] = '\0';
	return buf;
}

/* A terminal takes the line and the colours, unless TERM is dumb; a file takes neither. */
START_TEST(test_terminal_or_not)
{
	int m, pty = open_pty(&m);
	FILE *file = tmpfile();
	struct winsize ws = {.ws_row = 24, .ws_col = 132};
	ck_assert_int_eq(ioctl(pty, TIOCSWINSZ, &ws), 0);
	setenv("TERM", "xterm", 1);
	ck_assert(term_smart(pty));
	ck_assert(!term_smart(fileno(file)));
	ck_assert_uint_eq(term_width(pty), 132);
	setenv("COLUMNS", "100", 1);
	ck_assert_uint_eq(term_width(fileno(file)), 100);
	unsetenv("COLUMNS");
	ck_assert_uint_eq(term_width(fileno(file)), 80);
	setenv("TERM", "dumb", 1);
	ck_assert(!term_smart(pty));
	unsetenv("TERM");
	ck_assert(!term_smart(pty));

	/* standard error on each in turn: auto colours and draws on the terminal only */
	setenv("TERM", "xterm", 1);
	dup2(pty, 2);
	term_color_choose(COLOR_AUTO);
	ck_assert(term_color());
	setenv("NO_COLOR", "", 1);
	term_color_choose(COLOR_AUTO);
	ck_assert(term_color());
	progress_start(3, false);
	ck_assert_int_eq(progress_tick_ms(), -1);
	progress_start(3, true);
	ck_assert_int_ge(progress_tick_ms(), 1);
	progress_update(1, "a.yaml");
	progress_end();
	const char want[] = "\r[1/3] a.yaml  0:00 elapsed, about 0:00 left\033[K\r\033[K";
	ck_assert_str_eq(read_pty(m, strlen(want)), want);
	dup2(fileno(file), 2);
	term_color_choose(COLOR_AUTO);
	ck_assert(!term_color());
	progress_start(3, true);
	ck_assert_int_eq(progress_tick_ms(), -1);
	fclose(file);
	close(pty);
	close(m);
}
END_TEST

/* One message at each level into a string, as d prints them. */
static char *messages(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct diag d;
	diag_init(&d, "dir/\033[31mg.yaml", f);
	diag_error(&d, (struct pos){4, 7}, "unknown key '%s'", "a\033]0;x\007b");
	diag_note(&d, (struct pos){2, 1}, "declared here");
	diag_warning(&d, (struct pos){0, 0}, "odd");
	diag_free(&d);
	diag_write_lead(f, DIAG_ERROR);
	fputs("usage\n", f);
	fclose(f);
	return buf;
}

START_TEST(test_diag_colors)
{
	term_color_choose(COLOR_NEVER);
	char *plain = messages();
	ck_assert_str_eq(plain,
			 "dir/\\x1b[31mg.yaml:4:7: error: unknown key 'a\\x1b]0;x\\x07b'\n"
			 "dir/\\x1b[31mg.yaml:2:1: note: declared here\n"
			 "dir/\\x1b[31mg.yaml: warning: odd\n"
			 "cugraphrun: error: usage\n");
	term_color_choose(COLOR_ALWAYS);
	ck_assert(term_color());
	char *color = messages();
	/* gcc's: the place bold, the level bold and coloured; the user's text still escaped */
	ck_assert_str_eq(color,
			 "\033[01mdir/\\x1b[31mg.yaml:4:7:\033[m \033[01;31merror:\033[m unknown key "
			 "'a\\x1b]0;x\\x07b'\n"
			 "\033[01mdir/\\x1b[31mg.yaml:2:1:\033[m \033[01;36mnote:\033[m declared here\n"
			 "\033[01mdir/\\x1b[31mg.yaml:\033[m \033[01;35mwarning:\033[m odd\n"
			 "\033[01mcugraphrun:\033[m \033[01;31merror:\033[m usage\n");
	/* without its colours, the same text: what --junit and --json keep of a capture */
	size_t n = diag_strip_color(color, strlen(color));
	color[n] = '\0';
	ck_assert_str_eq(color, plain);
	/* only colours go: any other sequence stays */
	char other[] = "a\033[01;31mb\033[mc\033[2Jd\033[";
	other[diag_strip_color(other, strlen(other))] = '\0';
	ck_assert_str_eq(other, "abc\033[2Jd\033[");
	term_color_choose(COLOR_NEVER);
	free(plain);
	free(color);
}
END_TEST

/* NO_COLOR turns auto off; an explicit --color=always wins over it (no-color.org). */
START_TEST(test_no_color)
{
	setenv("NO_COLOR", "1", 1);
	term_color_choose(COLOR_AUTO);
	ck_assert(!term_color());
	term_color_choose(COLOR_ALWAYS);
	ck_assert(term_color());
	unsetenv("NO_COLOR");
	term_color_choose(COLOR_NEVER);
	ck_assert(!term_color());
}
END_TEST

/* --color: the three words, anything else a usage error. */
START_TEST(test_color_option)
{
	static const struct {
		const char *arg;
		enum cli_result r;
		bool color;
	} cases[] = {
		{"--color=always", CLI_OK, true},
		{"--color=never", CLI_OK, false},
		{"--color=auto", CLI_OK, false},
		{"--color=sometimes", CLI_USAGE, false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *argv[] = {(char *)"cugraphrun", (char *)cases[i].arg, (char *)"g.yaml", NULL};
		struct options o;
		int saved = dup(2);
		FILE *tmp = tmpfile();
		dup2(fileno(tmp), 2);
		enum cli_result r = cli_parse(3, argv, &o);
		fflush(stderr);
		dup2(saved, 2);
		close(saved);
		fclose(tmp);
		ck_assert_int_eq(r, cases[i].r);
		if (r == CLI_OK)
			ck_assert_int_eq(term_color(), cases[i].color);
		cli_free(&o);
	}
	term_color_choose(COLOR_NEVER);
}
END_TEST

static Suite *term_suite(void)
{
	Suite *s = suite_create("term");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_progress_text);
	tcase_add_test(tc, test_progress_fits);
	tcase_add_test(tc, test_progress_draws);
	tcase_add_test(tc, test_progress_forbidden);
	tcase_add_test(tc, test_terminal_or_not);
	tcase_add_test(tc, test_diag_colors);
	tcase_add_test(tc, test_no_color);
	tcase_add_test(tc, test_color_option);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(term_suite)
