/*
 * A sweep's derived models (model_derive.h, load_point.h: POINTS) against the
 * models a full reading of every point gives (load_limits.full_points):
 * for every sweep of the examples, of the GPU suite's cases (their
 * modules stand-ins, as schema.test validates documents) and of the
 * golden error tests, and for the cases below written for the forms the
 * derivation takes or refuses, both ways must print the same messages
 * and give models that dump alike (model_dump.h), point by point, after
 * validation.  And the derivation must actually happen where the values
 * alone change, or the comparison proves nothing: the counts of derived
 * points are checked too.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "fileio.h"
#include "load.h"
#include "load_sweep.h"
#include "mod_check.h"
#include "model_derive.h"
#include "model_dump.h"
#include "ptrmap.h"
#include "sweep.h"
#include "unit.h"
#include "validate.h"

/* What one way of reading and validating a sweep gave. */
struct outcome {
	char *msgs;
	size_t len;
	unsigned nerrors, nwarnings;
	bool loaded, valid;
	size_t npoints, derived;
	char **dumps;                   /* per point, NULL where no model */
};

static char *dump(const struct gdef *g)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	gdef_dump(g, f);
	fclose(f);
	return text;
}

static void outcome_free(struct outcome *o)
{
	for (size_t k = 0; k < o->npoints; k++)
		free(o->dumps[k]);
	free(o->dumps);
	free(o->msgs);
	memset(o, 0, sizeof *o);
}

/*
 * The command line's "-a NAME=V,..." and "--set NAME=V" in text (a .args
 * file); its other options (-v) say nothing about the models.
 */
static size_t parse_args(char *text, struct axis_arg *args, size_t max)
{
	size_t n = 0;
	bool set = false, value = false;
	for (char *tok = strtok(text, " \t\n"); tok; tok = strtok(NULL, " \t\n")) {
		if (strcmp(tok, "-a") == 0 || strcmp(tok, "--set") == 0) {
			set = tok[1] == '-';
			value = true;
			continue;
		}
		if (!value)
			continue;
		value = false;
		ck_assert_uint_lt(n, max);
		const char *eq = strchr(tok, '=');
		args[n++] = (struct axis_arg){tok, eq ? (size_t)(eq - tok) : strlen(tok),
					      eq ? eq + 1 : "", set};
	}
	return n;
}

/* --disable's ids for run, as main.c applies them to every point after validation */
static const char *const *disable_ids;
static size_t ndisable;

/* Read path (its text given) as main.c does, derived or in full, with ms. */
static void run(const char *path, const char *text, const struct axis_arg *args, size_t nargs,
		const struct mod_settings *ms, bool full, struct outcome *o)
{
	memset(o, 0, sizeof *o);
	FILE *out = open_memstream(&o->msgs, &o->len);
	struct diag d;
	diag_init(&d, path, out);
	d.max_errors = 1000;
	struct load_limits lim = load_default_limits;
	lim.full_points = full;
	struct sweep *sw = sweep_load_string(path, text, strlen(text), &lim, args, nargs, &d);
	o->loaded = sw != NULL;
	if (sw && d.nerrors == 0)
		o->valid = sweep_validate(sw, &d, ms);
	for (size_t k = 0; o->valid && ndisable && k < sw->npoints; k++)
		o->valid = gdef_disable(sw->models[k], disable_ids, ndisable, &d);
	o->nerrors = d.nerrors;
	o->nwarnings = d.nwarnings;
	diag_finish(&d);
	fclose(out);
	if (sw == NULL)
		return;
	o->npoints = sw->npoints;
	o->dumps = calloc(sw->npoints, sizeof *o->dumps);
	for (size_t k = 0; k < sw->npoints; k++) {
		if (sw->models[k] == NULL)
			continue;
		o->dumps[k] = dump(sw->models[k]);
		o->derived += sw->models[k]->derive != NULL;
	}
	sweep_release(sw);
}

/* The first line where a and b differ, for the message. */
static void first_difference(const char *a, const char *b, char *buf, size_t len)
{
	size_t line = 1;
	const char *la = a, *lb = b;
	while (*a && *a == *b) {
		if (*a == '\n') {
			line++;
			la = a + 1;
			lb = b + 1;
		}
		a++;
		b++;
	}
	snprintf(buf, len, "line %zu:\n  full:    %.*s\n  derived: %.*s", line,
		 (int)strcspn(la, "\n"), la, (int)strcspn(lb, "\n"), lb);
}

/*
 * path read both ways must say and give the same; returns how many of
 * its points the derived way derived.
 */
static size_t compare(const char *path, const char *text, const struct axis_arg *args,
		      size_t nargs, const struct mod_settings *ms)
{
	struct outcome full, part;
	run(path, text, args, nargs, ms, true, &full);
	run(path, text, args, nargs, ms, false, &part);
	ck_assert_msg(full.derived == 0, "%s: a full reading derived %zu points", path,
		      full.derived);
	ck_assert_msg(strcmp(full.msgs, part.msgs) == 0,
		      "%s: the messages differ:\n--- full:\n%s--- derived:\n%s", path, full.msgs,
		      part.msgs);
	ck_assert_msg(full.nerrors == part.nerrors && full.nwarnings == part.nwarnings &&
		      full.loaded == part.loaded && full.valid == part.valid &&
		      full.npoints == part.npoints, "%s: the outcomes differ", path);
	for (size_t k = 0; k < full.npoints; k++) {
		ck_assert_msg((full.dumps[k] == NULL) == (part.dumps[k] == NULL),
			      "%s: point %zu has a model one way only", path, k + 1);
		if (full.dumps[k] == NULL)
			continue;
		char where[2048];
		if (strcmp(full.dumps[k], part.dumps[k]) != 0) {
			first_difference(full.dumps[k], part.dumps[k], where, sizeof where);
			ck_abort_msg("%s: point %zu's models differ at %s", path, k + 1, where);
		}
	}
	size_t derived = part.derived;
	outcome_free(&full);
	outcome_free(&part);
	return derived;
}

static char *slurp(const char *path)
{
	size_t len;
	char *text = read_whole_file(path, &len);
	ck_assert_msg(text != NULL, "cannot read %s: %s", path, strerror(errno));
	return text;
}

static bool is_sweep_yaml(const char *name)
{
	size_t n = strlen(name);
	return strncmp(name, "sweep-", 6) == 0 && n > 5 && strcmp(name + n - 5, ".yaml") == 0;
}

/* Every sweep-*.yaml in dir (sorted), each compared; how many in all. */
static size_t compare_dir(const char *dir, const struct mod_settings *ms, const char *args_dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	ck_assert_msg(n >= 0, "cannot list %s: %s", dir, strerror(errno));
	size_t files = 0;
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		if (is_sweep_yaml(name)) {
			char path[4096], argpath[4096];
			snprintf(path, sizeof path, "%s/%s", dir, name);
			char *text = slurp(path);
			struct axis_arg args[16];
			size_t nargs = 0;
			char *argtext = NULL;
			snprintf(argpath, sizeof argpath, "%s/%.*s.args", args_dir ? args_dir : dir,
				 (int)(strlen(name) - 5), name);
			if (args_dir && access(argpath, R_OK) == 0) {
				argtext = slurp(argpath);
				nargs = parse_args(argtext, args, 16);
			}
			compare(path, text, args, nargs, ms);
			free(argtext);
			free(text);
			files++;
		}
		free(names[i]);
	}
	free(names);
	return files;
}

static const struct mod_settings run_ms = {.sm = 0, .use_cache = true};
/* --validate's, but no compiling (the comparison is of the models, not of NVRTC) */
static const struct mod_settings validate_ms = {.sm = MOD_DEFAULT_SM, .use_cache = true};

START_TEST(test_examples)
{
	ck_assert_uint_ge(compare_dir(TOP_SRCDIR "/examples", &run_ms, NULL), 4);
	ck_assert_uint_ge(compare_dir(TOP_SRCDIR "/examples", &validate_ms, NULL), 4);
	/* the value sweeps derive every point after the first; the shape sweep none */
	char *text = slurp(TOP_SRCDIR "/examples/sweep-jacobi.yaml");
	ck_assert_uint_eq(compare(TOP_SRCDIR "/examples/sweep-jacobi.yaml", text, NULL, 0, &run_ms), 4);
	free(text);
	text = slurp(TOP_SRCDIR "/examples/sweep-saxpy.yaml");
	ck_assert_uint_eq(compare(TOP_SRCDIR "/examples/sweep-saxpy.yaml", text, NULL, 0, &run_ms), 14);
	free(text);
	text = slurp(TOP_SRCDIR "/examples/sweep-conditional.yaml");
	ck_assert_uint_eq(compare(TOP_SRCDIR "/examples/sweep-conditional.yaml", text, NULL, 0,
				  &run_ms), 4);
	free(text);
	text = slurp(TOP_SRCDIR "/examples/sweep-perf-scaling.yaml");
	ck_assert_uint_eq(compare(TOP_SRCDIR "/examples/sweep-perf-scaling.yaml", text, NULL, 0,
				  &run_ms), 0);
	free(text);
}
END_TEST

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(test_gpu_cases)
{
	/* the cases name ../kernels/tk.ptx and ../sources/sk.cu: stand-ins beside a copy */
	char tmp[] = "/tmp/check-derive.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(tmp));
	char dir[512], path[600];
	static const char *const sub[] = {"cases", "kernels", "sources"};
	for (size_t i = 0; i < 3; i++) {
		snprintf(dir, sizeof dir, "%s/%s", tmp, sub[i]);
		ck_assert_int_eq(mkdir(dir, 0700), 0);
	}
	snprintf(path, sizeof path, "%s/kernels/tk.ptx", tmp);
	write_file(path, "// a stand-in module\n");
	snprintf(path, sizeof path, "%s/sources/sk.cu", tmp);
	write_file(path, "// a stand-in source\n");
	struct dirent **names;
	int n = scandir(TOP_SRCDIR "/tests/gpu/cases", &names, NULL, alphasort);
	ck_assert_int_ge(n, 0);
	size_t files = 0;
	for (int i = 0; i < n; i++) {
		if (is_sweep_yaml(names[i]->d_name)) {
			char src[4096];
			snprintf(src, sizeof src, TOP_SRCDIR "/tests/gpu/cases/%s", names[i]->d_name);
			char *text = slurp(src);
			snprintf(path, sizeof path, "%s/cases/%s", tmp, names[i]->d_name);
			write_file(path, text);
			compare(path, text, NULL, 0, &run_ms);
			unlink(path);
			free(text);
			files++;
		}
		free(names[i]);
	}
	free(names);
	ck_assert_uint_ge(files, 10);
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "%s/%s", tmp, i ? "sources/sk.cu" : "kernels/tk.ptx");
		unlink(path);
	}
	for (size_t i = 0; i < 3; i++) {
		snprintf(dir, sizeof dir, "%s/%s", tmp, sub[i]);
		rmdir(dir);
	}
	rmdir(tmp);
}
END_TEST

START_TEST(test_error_cases)
{
	ck_assert_uint_ge(compare_dir(TOP_SRCDIR "/tests/errors", &validate_ms,
				      TOP_SRCDIR "/tests/errors"), 20);
}
END_TEST

/* A case of this file: name (messages name it), text; derived points expected. */
struct text_case {
	const char *name;
	const char *text;
	size_t derived;
	const char *disable;            /* --disable's one id, or NULL */
};

#define MODULE TOP_SRCDIR "/examples/kernels/empty.ptx"
/* not PTX: kernels with any arguments go unchecked against it */
#define STANDIN TOP_SRCDIR "/tests/errors/kernels/k.ptx"

static const struct text_case cases[] = {
	/* a buffer's count: the memset and copy that use it take theirs from it, the checks too */
	{"count", "cugraphrun: 1\naxes: {n: [16, 32, 8]}\n"
	 "buffers:\n  a: {type: u32, count: \"${n}\", init: {iota: {start: 1}}}\n"
	 "  b: {type: u32, count: \"${n}\"}\n  c: {type: u8, size: 4}\n"
	 "nodes:\n  - {id: z, memset: {buffer: a, value: 7}}\n"
	 "  - {id: cp, after: z, copy: {from: a, to: b}}\n"
	 "  - {id: h, after: cp, memset: {buffer: c, value: \"${n}\", count: 4}}\n"
	 "checks:\n  - {buffer: b, expect: 7}\n  - {buffer: c, expect: [\"${n}\", \"${n}\", "
	 "\"${n}\", \"${n}\"], atol: \"${n / 100.0}\"}\n", 2, NULL},
	/* grids in a child graph and in an if's bodies, an argument in a struct */
	{"nested", "cugraphrun: 1\naxes: {g: [1, 2, 3], v: [5, 6]}\n"
	 "modules: {k: " STANDIN "}\nbuffers: {x: {type: f32, count: 8}}\n"
	 "conditions: {c: {default: 1}}\n"
	 "nodes:\n  - id: sub\n    graph:\n      nodes:\n"
	 "        - {id: in, kernel: {function: k.empty, grid: \"${g}\"}}\n"
	 "        - {id: deep, graph: {nodes: [{id: d2, kernel: {function: k.empty, "
	 "block: [\"${g}\", 2]}}]}}\n"
	 "  - id: pick\n    if:\n      condition: c\n"
	 "      then: [{id: t, kernel: {function: k.empty, args: [{struct: [{i32: \"${v}\"}, "
	 "{f32: 1.5}]}, {buffer: x, offset: \"${g}\"}]}}]\n"
	 "      else: [{id: e, memset: {buffer: x, value: \"${v}.5\"}}]\n"
	 "  - {id: s, kernel: {function: builtin.set, args: [{handle: c}, {u32: \"${v - 5}\"}]}}\n",
	 5, NULL},
	/* a condition's default, the run section, throughput, name, description, a host sleep */
	/* (the third point's sleep of 0 ms is refused by the validator: that point is read in full) */
	{"sections", "cugraphrun: 1\nname: \"n${r}\"\ndescription: \"r is ${r}\"\n"
	 "axes: {r: [1, 2, 0]}\nconditions: {c: {default: \"${r}\"}}\n"
	 "nodes:\n  - {id: s, kernel: {function: builtin.set, args: [{handle: c}, {u32: 0}]}}\n"
	 "  - {id: w, after: s, while: {condition: c, body: [{empty: {}}]}}\n"
	 "  - {id: zz, host: {sleep: \"${r} ms\"}}\n"
	 "run: {repeat: \"${r + 1}\", warmup: 2, timeout: \"${r + 1} s\"}\n"
	 "throughput: {bytes: \"${r * 4}\", items: \"${r}\"}\n", 1, NULL},
	/* structure: an id, an after, a generator's range, a buffer's type, a function */
	{"shape", "cugraphrun: 1\naxes: {n: [1, 2], T: [u32, f32]}\n"
	 "modules: {k: " MODULE "}\nbuffers: {x: {type: \"${T}\", count: 4}}\n"
	 "nodes:\n  - for: {i: {from: 0, to: \"${n}\"}}\n    nodes:\n"
	 "      - {id: \"k${i}\", kernel: {function: k.empty}}\n"
	 "  - {id: \"last${n}\", after: k0, memset: {buffer: x, value: 1}}\n", 0, NULL},
	/* a value inside an anchored node, and an object read through an alias */
	{"anchors", "cugraphrun: 1\naxes: {g: [1, 2, 3]}\nmodules: {k: " MODULE "}\n"
	 "nodes:\n  - {id: a, kernel: &k {function: k.empty, grid: \"${g}\"}}\n"
	 "  - {id: b, kernel: *k}\n  - {id: c, kernel: {<<: *k, block: \"${g}\"}}\n", 0, NULL},
	/* a value valid at the first point and out of range at the third: said for it */
	{"range", "cugraphrun: 1\naxes: {o: [0, 4, 9, 2]}\nbuffers: {x: {type: u8, count: 8}}\n"
	 "nodes:\n  - {id: m, memset: {buffer: x, value: 1, offset: \"${o}\"}}\n"
	 "  - {id: n, memset: {buffer: x, value: \"${o * 40}\"}}\n", 2, NULL},
	/* a warning at every point (an event never recorded): every point says it */
	{"warning", "cugraphrun: 1\naxes: {v: [1, 2]}\nevents: [e]\nbuffers: {x: {type: u8, "
	 "count: 8}}\nnodes:\n  - {id: m, memset: {buffer: x, value: \"${v}\"}}\n", 0, NULL},
	/* the first point invalid: each point says its own errors */
	{"invalid", "cugraphrun: 1\naxes: {v: [1, 2]}\nbuffers: {x: {type: u8, count: 8}}\n"
	 "nodes:\n  - {id: m, memset: {buffer: y, value: \"${v}\"}}\n", 0, NULL},
	/* a kernel with a launch attribute, and a window on a buffer that changes */
	{"attrs", "cugraphrun: 1\naxes: {g: [2, 4]}\nmodules: {k: " MODULE "}\n"
	 "buffers: {x: {type: u8, count: \"${g * 64}\"}}\n"
	 "nodes:\n  - {id: a, kernel: {function: k.empty, grid: \"${g}\", cluster: 2}}\n"
	 "  - {id: b, kernel: {function: k.empty, access_policy: {buffer: x}}}\n", 0, NULL},
	/*
	 * a value axis first, a shape axis second: each shape's first point is
	 * read in full, and the points after it derived from it
	 */
	{"bases", "cugraphrun: 1\naxes: {v: [1, 2, 3], n: [1, 2]}\nmodules: {k: " MODULE "}\n"
	 "nodes:\n  - for: {i: {from: 1, to: \"${n}\"}}\n    nodes:\n"
	 "      - {id: \"k${i}\", kernel: {function: k.empty, grid: \"${v * i}\"}}\n", 4, NULL},
	/* --disable on every point: the nodes a derived model shares and those it copied */
	{"disable", "cugraphrun: 1\naxes: {g: [1, 2, 3]}\nmodules: {k: " MODULE "}\n"
	 "nodes:\n  chain: true\n  nodes:\n"
	 "    - {id: a, kernel: {function: k.empty, grid: \"${g}\"}}\n"
	 "    - {id: b, kernel: {function: k.empty}}\n"
	 "    - {id: c, kernel: {function: k.empty, block: \"${g}\"}}\n", 2, "c"},
	{"disable-shared", "cugraphrun: 1\naxes: {g: [1, 2, 3]}\nmodules: {k: " MODULE "}\n"
	 "nodes:\n  chain: true\n  nodes:\n"
	 "    - {id: a, kernel: {function: k.empty, grid: \"${g}\"}}\n"
	 "    - {id: b, kernel: {function: k.empty}}\n", 2, "b"},
	/* host set and copy, a reduction's bound and a check's slice (issue 24's forms) */
	{"checks", "cugraphrun: 1\naxes: {v: [1, 2, 3]}\nbuffers:\n"
	 "  x: {type: u32, count: 8, memory: host}\n  y: {type: u32, count: 8, memory: host}\n"
	 "nodes:\n  - {id: s, host: {set: {buffer: x, value: \"${v}\", offset: 2, count: 4}}}\n"
	 "  - {id: c, after: s, host: {copy: {from: x, to: y, count: \"${v}\"}}}\n"
	 "checks:\n  - {buffer: x, sum: {le: \"${8 * v}\"}}\n"
	 "  - {buffer: y, offset: 1, count: \"${v}\", max: {ge: \"${v}\"}}\n", 2, NULL},
	/*
	 * a buffer's count that host set and copy and a check's reference take
	 * theirs from: each derived point gets its own (it once kept the first
	 * point's, and a set of 16 elements went into a buffer of 8), and the
	 * check against a buffer of another size is refused at every point
	 */
	{"resize-host", "cugraphrun: 1\naxes: {n: [16, 32, 8]}\nbuffers:\n"
	 "  a: {type: u32, count: \"${n}\", memory: host}\n"
	 "  b: {type: u32, count: \"${n}\", memory: host}\n"
	 "  r: {type: u32, count: 16, memory: host}\n"
	 "nodes:\n  - {id: s, host: {set: {buffer: a, value: 3}}}\n"
	 "  - {id: c, after: s, host: {copy: {from: a, to: b}}}\n"
	 "checks:\n  - {buffer: b, expect: 3}\n  - {buffer: r, expect: {buffer: a}}\n", 1, NULL},
	/*
	 * shapes from an axis (issue 34): the buffer read again, the regions of
	 * the nodes and checks that name it validated again in their own copies
	 * (w and the last check are not read again: their regions, the rest of
	 * the buffer, change with it all the same)
	 */
	{"shapes", "cugraphrun: 1\naxes: {r: [2, 4, 8]}\nbuffers:\n"
	 "  t: {type: i32, shape: [\"${r}\", 8], pitch: 64, memory: host}\n"
	 "  v: {type: i32, count: 8, memory: host}\n"
	 "nodes:\n  - {id: w, memset: {buffer: t, value: 1, offset: [1, 0]}}\n"
	 "  - {id: m, after: w, memset: {buffer: t, value: \"${r}\", offset: [\"${r - 1}\", 0], "
	 "shape: [1, 8]}}\n"
	 "  - {id: c, after: m, copy: {from: {buffer: t, offset: [\"${r - 1}\", 0]}, to: v, "
	 "shape: [1, 8]}}\n"
	 "  - {id: d, after: c, host: {dump: {buffer: t, offset: [0, 0], shape: [\"${r}\", 2]}}}\n"
	 "checks:\n  - {buffer: t, offset: [0, 0], shape: [\"${r}\", 1], sum: \"${r}\"}\n"
	 "  - {buffer: t, offset: [1, 0], nonzero: {ge: 0}}\n",
	 2, NULL},
	/* a value the loader refuses at a later point */
	{"refused", "cugraphrun: 1\naxes: {g: [1, 0, 2]}\nmodules: {k: " MODULE "}\n"
	 "nodes:\n  - {id: a, kernel: {function: k.empty, grid: \"${g}\"}}\n", 0, NULL},
};

START_TEST(test_text_cases)
{
	const struct text_case *c = &cases[_i];
	char name[64];
	snprintf(name, sizeof name, "%s.yaml", c->name);
	disable_ids = &c->disable;
	ndisable = c->disable != NULL;
	size_t derived = compare(name, c->text, NULL, 0, &run_ms);
	ndisable = 0;
	ck_assert_msg(derived == c->derived, "%s: %zu points derived, expected %zu", c->name,
		      derived, c->derived);
}
END_TEST

/* The comparison can fail: one value changed shows in the dump. */
START_TEST(test_dump_sees_a_value)
{
	const char *text = "cugraphrun: 1\naxes: {g: [1, 2]}\nmodules: {k: " MODULE "}\n"
		"nodes:\n  - {id: a, kernel: {function: k.empty, grid: \"${g}\"}}\n";
	struct diag d;
	diag_init(&d, "t.yaml", stderr);
	struct sweep *sw = sweep_load_string("t.yaml", text, strlen(text), NULL, NULL, 0, &d);
	ck_assert_ptr_nonnull(sw);
	ck_assert(sweep_validate(sw, &d, &run_ms));
	ck_assert_ptr_nonnull(sw->models[1]->derive);
	char *a = dump(sw->models[0]), *b = dump(sw->models[1]);
	ck_assert_str_ne(a, b);
	/* the same model as the first, but for its grid: the same dump */
	struct node *n = sw->models[1]->all_nodes[0];
	n->u.kernel.grid[0] = 1;
	free(b);
	b = dump(sw->models[1]);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	sweep_release(sw);
}
END_TEST

/* The derived models share what did not change: one node copied of three. */
START_TEST(test_sharing)
{
	const char *text = "cugraphrun: 1\naxes: {g: [1, 2, 3]}\nmodules: {k: " MODULE "}\n"
		"nodes:\n  chain: true\n  nodes:\n"
		"    - {id: a, kernel: {function: k.empty}}\n"
		"    - {id: b, kernel: {function: k.empty, grid: \"${g}\"}}\n"
		"    - {id: c, kernel: {function: k.empty}}\n";
	struct diag d;
	diag_init(&d, "t.yaml", stderr);
	struct sweep *sw = sweep_load_string("t.yaml", text, strlen(text), NULL, NULL, 0, &d);
	ck_assert_ptr_nonnull(sw);
	ck_assert(sweep_validate(sw, &d, &run_ms));
	const struct gdef *g0 = sw->models[0];
	for (size_t k = 1; k < 3; k++) {
		const struct gdef *g = sw->models[k];
		ck_assert_ptr_eq(g->derive->base, g0);
		ck_assert_uint_eq(g->derive->nnodes, 1);
		ck_assert_ptr_eq(g->all_nodes[0], g0->all_nodes[0]);
		ck_assert_ptr_ne(g->all_nodes[1], g0->all_nodes[1]);
		ck_assert_ptr_eq(g->all_nodes[2], g0->all_nodes[2]);
		ck_assert_uint_eq(g->all_nodes[1]->u.kernel.grid[0], k + 1);
		ck_assert_ptr_eq(g->all_nodes[1]->deps, g0->all_nodes[1]->deps);
	}
	sweep_release(sw);
}
END_TEST

/*
 * Many nodes of one graph and many graphs copied in one point, some
 * nested: each node found by its place (local) and each graph by the
 * map, not by a search; the models must still be a full reading's.
 */
START_TEST(test_many_copies)
{
	enum { ROOT = 400, CHILDREN = 300, BODY = 50 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fputs("cugraphrun: 1\naxes: {v: [1, 2, 3]}\nbuffers: {b: {type: u32, count: 64}}\n"
	      "nodes:\n", f);
	for (int i = 0; i < ROOT; i++)
		fputs("  - memset: {buffer: b, value: \"${v}\"}\n", f);
	for (int i = 0; i < CHILDREN; i++)
		fputs("  - graph: [{memset: {buffer: b, value: \"${v}\"}}]\n", f);
	fputs("  - graph:\n      - graph:\n", f);
	for (int i = 0; i < BODY; i++)
		fputs("          - memset: {buffer: b, value: \"${v}\"}\n", f);
	fclose(f);
	ck_assert_uint_eq(compare("many.yaml", text, NULL, 0, &run_ms), 2);
	struct diag d;
	diag_init(&d, "many.yaml", stderr);
	struct sweep *sw = sweep_load_string("many.yaml", text, len, NULL, NULL, 0, &d);
	ck_assert_ptr_nonnull(sw);
	for (size_t k = 1; k < 3; k++) {
		const struct derive *dv = sw->models[k]->derive;
		ck_assert_ptr_nonnull(dv);
		/* every memset, and the graph nodes that hold some */
		ck_assert_uint_eq(dv->nnodes, ROOT + CHILDREN * 2 + BODY + 2);
		/* the root, each child graph, the two nested ones */
		ck_assert_uint_eq(dv->ngraphs, 1 + CHILDREN + 2);
		ck_assert_uint_eq(sw->models[k]->root->nnodes, ROOT + CHILDREN + 1);
	}
	sweep_release(sw);
	free(text);
}
END_TEST

/* The map the derived models find graphs by: many keys, absent ones, replaced values. */
START_TEST(test_ptrmap)
{
	enum { N = 50000 };
	char *keys = malloc(N * 24);
	struct ptrmap *m = ptrmap_new(0);
	for (size_t i = 0; i < N; i++)
		ptrmap_put(m, keys + i * 24, i);
	for (size_t i = 0; i < N; i++)
		ck_assert_int_eq(ptrmap_get(m, keys + i * 24), (long)i);
	ck_assert_int_eq(ptrmap_get(m, keys + 1), -1);
	ck_assert_int_eq(ptrmap_get(m, keys + N * 24), -1);
	ptrmap_put(m, keys, 7);
	ck_assert_int_eq(ptrmap_get(m, keys), 7);
	ptrmap_free(m);
	ptrmap_free(NULL);
	free(keys);
}
END_TEST

static Suite *derive_suite(void)
{
	Suite *s = suite_create("derive");
	TCase *tc = tcase_create("against full readings");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_examples);
	tcase_add_test(tc, test_gpu_cases);
	tcase_add_test(tc, test_error_cases);
	tcase_add_loop_test(tc, test_text_cases, 0, (int)(sizeof cases / sizeof *cases));
	tcase_add_test(tc, test_dump_sees_a_value);
	tcase_add_test(tc, test_sharing);
	tcase_add_test(tc, test_many_copies);
	tcase_add_test(tc, test_ptrmap);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(derive_suite)
