/*
 * Kernel nodes, their arguments and launch attributes (load_kernel.h).
 */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "load_kernel.h"
#include "xmalloc.h"

static void parse_arg(struct ld *l, struct arg *a, const char *name);

/*
 * The argument takes form kind.  The forms share their storage (struct
 * arg's union), so a second form written beside a first (an error, said
 * once the mapping is read) starts from a clean slate, not from the bits
 * of the other.
 */
static void arg_form(struct arg *a, enum arg_kind kind)
{
	if (a->kind == kind)
		return;
	memset(&a->ref, 0, sizeof *a - offsetof(struct arg, ref));
	a->ref.idx = -1;
	a->kind = kind;
}

/* A list of arguments or fields, placed in the arena at its final length. */
static struct arg *parse_arg_list(struct ld *l, const char *name, size_t *np)
{
	struct arg small[8], *v = small;
	size_t n = 0, cap = sizeof small / sizeof *small;
	ld_next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		if (n == cap) {
			struct arg *nv = xreallocarray(v == small ? NULL : v, cap * 2, sizeof *v);
			if (v == small)
				memcpy(nv, small, sizeof small);
			v = nv;
			cap *= 2;
		}
		memset(&v[n], 0, sizeof *v);
		parse_arg(l, &v[n++], name);
	}
	ld_next(l);
	struct arg *out = NULL;
	if (n) {
		out = arena_alloc(&l->g->arena, n * sizeof *out);
		memcpy(out, v, n * sizeof *out);
	}
	if (v != small)
		free(v);
	*np = n;
	return out;
}

static void key_arg_buffer(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct arg *a = obj;
	arg_form(a, ARG_BUFFER);
	get_ref(l, "a buffer name", kd->name, &a->ref);
}

/* {pitch: x}: the bytes from one row of buffer x to the next, as allocated */
static void key_arg_pitch(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct arg *a = obj;
	arg_form(a, ARG_PITCH);
	get_ref(l, "a buffer name", kd->name, &a->ref);
}

static void key_arg_handle(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct arg *a = obj;
	arg_form(a, ARG_HANDLE);
	get_ref(l, "a condition name", kd->name, &a->ref);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void key_arg_bytes(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct arg *a = obj;
	static const char what[] = "hex digits, two per byte (such as \"00ff10ab\")";
	arg_form(a, ARG_BYTES);
	if (!ld_is_scalar(l) || ld_is_null(l)) {
		ld_expected(l, what, kd->name);
		return;
	}
	const char *s = l->es.ev.value;
	size_t n = l->es.ev.len;
	bool ok = n > 0 && n % 2 == 0;
	for (size_t i = 0; ok && i < n; i++)
		ok = hexval(s[i]) >= 0;
	if (!ok) {
		ld_expected(l, what, kd->name);
		return;
	}
	a->bytes = arena_alloc(&l->g->arena, n / 2);
	a->nbytes = n / 2;
	for (size_t i = 0; i < n / 2; i++)
		a->bytes[i] = (uint8_t)(hexval(s[2 * i]) << 4 | hexval(s[2 * i + 1]));
	ld_next(l);
}

static void key_arg_struct(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct arg *a = obj;
	arg_form(a, ARG_STRUCT);
	if (!want_seq(l, "a list of fields", kd->name))
		return;
	a->fields = parse_arg_list(l, kd->name, &a->nfields);
}

static void key_arg_scalar(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct arg *a = obj;
	arg_form(a, ARG_SCALAR);
	a->type = (enum elem_type)kd->arg;
	get_num(l, kd->name, &a->num);
}

/* access: read|write|readwrite, beside buffer: what the kernel does through it */
static void key_arg_access(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	int i = get_choice(l, "an access (read, write or readwrite)", "access", kd->name,
			   arg_access_names + 1, ARG_ACCESS_COUNT - 1, NULL);
	if (i >= 0)
		((struct arg *)obj)->access = (uint8_t)(i + 1);
}

static const struct keydef arg_keys[] = {
	KEY("buffer", key_arg_buffer),
	ROW_UINT("offset", struct arg, offset, 0, UINT64_MAX),
	KEY("access", key_arg_access),
	KEY("pitch", key_arg_pitch),
	KEY("handle", key_arg_handle),
	KEY("bytes", key_arg_bytes),
	KEY("struct", key_arg_struct),
	KEY_ARG("i8", key_arg_scalar, ET_I8),
	KEY_ARG("u8", key_arg_scalar, ET_U8),
	KEY_ARG("i16", key_arg_scalar, ET_I16),
	KEY_ARG("u16", key_arg_scalar, ET_U16),
	KEY_ARG("i32", key_arg_scalar, ET_I32),
	KEY_ARG("u32", key_arg_scalar, ET_U32),
	KEY_ARG("i64", key_arg_scalar, ET_I64),
	KEY_ARG("u64", key_arg_scalar, ET_U64),
	KEY_ARG("f16", key_arg_scalar, ET_F16),
	KEY_ARG("bf16", key_arg_scalar, ET_BF16),
	KEY_ARG("f32", key_arg_scalar, ET_F32),
	KEY_ARG("f64", key_arg_scalar, ET_F64),
};
static const struct keytab arg_tab = KEYTAB(arg_keys);
#define ARG_BUFFER_BIT 1u
#define ARG_OFFSET_BIT 2u
#define ARG_ACCESS_BIT 4u
#define ARG_FORMS (((1u << (sizeof arg_keys / sizeof *arg_keys)) - 1) & ~ARG_OFFSET_BIT & \
		   ~ARG_ACCESS_BIT)

/* One kernel argument (or struct field). */
static void parse_arg(struct ld *l, struct arg *a, const char *name)
{
	a->pos = l->es.ev.pos;
	a->ref.idx = -1;
	if (l->es.ev.type == EV_MAP) {
		struct seen s;
		parse_keys(l, &arg_tab, a, "in a kernel argument", &s);
		uint32_t forms = s.mask & ARG_FORMS;
		if (forms == 0 && s.unknown == 0)
			ld_error(l, s.pos, "a kernel argument needs a form: a buffer name, {buffer: x, offset: n}, {pitch: x}, {handle: c}, {bytes: \"...\"}, {struct: [...]} or a typed value such as {f32: 1.5}");
		else if (forms & (forms - 1))
			two_forms(l, &arg_tab, &s, ARG_FORMS, "a kernel argument", "form");
		else if ((s.mask & ARG_OFFSET_BIT) && !(s.mask & ARG_BUFFER_BIT))
			ld_error(l, s.at[1], "'offset' goes with 'buffer' in a kernel argument ({buffer: x, offset: n})");
		else if ((s.mask & ARG_ACCESS_BIT) && !(s.mask & ARG_BUFFER_BIT))
			ld_error(l, s.at[2], "'access' goes with 'buffer' in a kernel argument ({buffer: x, access: read})");
		return;
	}
	struct num n;
	if (ld_is_scalar(l) && !l->es.ev.quoted && !ld_is_null(l) &&
	    parse_number(l->es.ev.value, &n) != SCALAR_SYNTAX) {
		const char *v = l->es.ev.value;
		bool f = n.kind == NUM_FLOAT;
		ld_error(l, l->es.ev.pos, "untyped kernel argument %.60s: write {%s: %.60s}, {%s: %.60s} or another element type",
			 v, f ? "f32" : "i32", v, f ? "f64" : "f32", v);
		ld_skip(l);
		return;
	}
	arg_form(a, ARG_BUFFER);
	get_ref(l, "a kernel argument (a buffer name, or a mapping such as {f32: 1.5})",
		name, &a->ref);
}

static void key_kernel_function(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct kernel_node *k = &((struct node *)obj)->u.kernel;
	/*
	 * Large graphs repeat one function over and over: share the strings of
	 * the last kernel with the same one (the model's strings are never
	 * written to nor freed alone) rather than copy three per node.
	 */
	const struct kernel_node *last = l->last_kernel;
	if (last && ld_is_scalar(l) && !ld_is_null(l) && last->func &&
	    l->last_kernel_len == l->es.ev.len &&
	    memcmp(last->function, l->es.ev.value, l->es.ev.len) == 0) {
		k->function = last->function;
		k->function_pos = k->module.pos = l->es.ev.pos;
		k->module.name = last->module.name;
		k->func = last->func;
		ld_next(l);
		return;
	}
	if (!get_text(l, "'module.function'", kd->name, &k->function, &k->function_pos))
		return;
	l->last_kernel = k;
	l->last_kernel_len = strlen(k->function);
	const char *dot = strchr(k->function, '.');
	if (dot && dot != k->function && dot[1] != '\0') {
		k->module.name = gdef_strndup(l->g, k->function, (size_t)(dot - k->function));
		k->module.pos = k->function_pos;
		k->func = gdef_strdup(l->g, dot + 1);
	}
}

/* grid and block: an integer or [x, y, z], each from 1 to 2^31-1. */
static void parse_dim3(struct ld *l, const char *name, uint32_t d[3], struct pos *pos)
{
	uint64_t v;
	*pos = l->es.ev.pos;
	if (l->es.ev.type == EV_SEQ) {
		size_t n = 0;
		bool ok = true;
		ld_next(l);
		while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
			if (n >= 3)
				ld_skip(l);
			else if (get_u64(l, name, 1, INT32_MAX, &v, NULL))
				d[n] = (uint32_t)v;
			else
				ok = false;
			n++;
		}
		ld_next(l);
		if (ok && (n == 0 || n > 3))
			ld_error(l, *pos, "expected 1 to 3 sizes [x, y, z] for '%.60s', found %zu", name, n);
		return;
	}
	if (l->es.ev.type == EV_MAP) {
		ld_expected(l, "an integer or a list [x, y, z]", name);
		return;
	}
	if (get_u64(l, name, 1, INT32_MAX, &v, NULL))
		d[0] = (uint32_t)v;
}

static void key_kernel_grid(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct kernel_node *k = &((struct node *)obj)->u.kernel;
	parse_dim3(l, kd->name, k->grid, &k->grid_pos);
}

static void key_kernel_block(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct kernel_node *k = &((struct node *)obj)->u.kernel;
	parse_dim3(l, kd->name, k->block, &k->block_pos);
}

static void key_kernel_args(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct kernel_node *k = &((struct node *)obj)->u.kernel;
	k->args_pos = l->es.ev.pos;
	if (ld_is_null(l)) {
		ld_next(l);
		return;
	}
	if (!want_seq(l, "a list of kernel arguments", kd->name))
		return;
	k->args = parse_arg_list(l, kd->name, &k->nargs);
}

/*
 * The launch attributes of kernel node n, made with its first attribute
 * key.  A kernel's keys are read one after the other, so the attributes
 * made last are n's.  Key k is marked as written, at kpos.
 */
static struct kernel_attrs *kernel_attrs(struct ld *l, struct node *n, enum kattr k,
					 struct pos kpos)
{
	struct gdef *g = l->g;
	struct kernel_attrs *a;
	if (n->u.kernel.has_attrs) {
		a = g->kattrs[g->nkattrs - 1];
	} else {
		a = arena_alloc(&g->arena, sizeof *a);
		a->node = n;
		a->carveout = -1;
		a->window.hit_ratio = 1;
		a->window.hit = ACCESS_PERSISTING;
		a->window.miss = ACCESS_STREAMING;
		a->window.buffer.idx = -1;
		*VEC_PUSH(g->kattrs, g->nkattrs, g->capkattrs) = a;
		n->u.kernel.has_attrs = true;
	}
	a->set |= 1u << k;
	a->pos[k] = kpos;
	return a;
}

static void key_kernel_cluster(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct kernel_attrs *a = kernel_attrs(l, obj, (enum kattr)kd->arg, kpos);
	uint32_t *d = kd->arg == KATTR_CLUSTER ? a->cluster : a->preferred_cluster;
	struct pos pos;
	d[0] = d[1] = d[2] = 1;
	parse_dim3(l, kd->name, d, &pos);
}

/* true or false into one of the attributes' flags (kd->arg says which). */
static void key_kernel_flag(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct node *n = obj;
	struct kernel_attrs *a = kernel_attrs(l, n, (enum kattr)kd->arg, kpos);
	bool v = false;
	get_bool(l, kd->name, &v);
	switch (kd->arg) {
	case KATTR_COOPERATIVE:
		a->cooperative = v;
		break;
	case KATTR_DEVICE_UPDATABLE:
		n->u.kernel.device_updatable = v;
		break;
	case KATTR_NVLINK_CENTRIC:
		a->nvlink_centric = v;
		break;
	case KATTR_NON_PORTABLE_CLUSTER:
		a->non_portable_cluster = v;
		break;
	default:
		break;
	}
}

static void key_kernel_scheduling(struct ld *l, void *obj, const struct keydef *kd,
				  struct pos kpos)
{
	struct kernel_attrs *a = kernel_attrs(l, obj, KATTR_CLUSTER_SCHEDULING, kpos);
	int i = get_choice(l, "a cluster scheduling policy (default, spread or load_balancing)",
			   "cluster scheduling policy", kd->name, cluster_scheduling_names,
			   CLUSTER_SCHED_COUNT, NULL);
	if (i >= 0)
		a->cluster_scheduling = (uint8_t)i;
}

static void key_kernel_domain(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct kernel_attrs *a = kernel_attrs(l, obj, KATTR_DOMAIN, kpos);
	int i = get_choice(l, "a memory synchronisation domain (default or remote)",
			   "memory synchronisation domain", kd->name, sync_domain_names,
			   DOMAIN_COUNT, NULL);
	if (i >= 0)
		a->domain = (uint8_t)i;
}

static const struct keydef domain_map_keys[] = {
	ROW_UINT("default", struct kernel_attrs, domain_map[DOMAIN_DEFAULT], 0, UINT8_MAX),
	ROW_UINT("remote", struct kernel_attrs, domain_map[DOMAIN_REMOTE], 0, UINT8_MAX),
};
static const struct keytab domain_map_tab = KEYTAB(domain_map_keys);

static void key_kernel_domain_map(struct ld *l, void *obj, const struct keydef *kd,
				  struct pos kpos)
{
	struct kernel_attrs *a = kernel_attrs(l, obj, KATTR_DOMAIN_MAP, kpos);
	struct seen s;
	if (want_map(l, "a mapping {default: id, remote: id}", kd->name))
		parse_keys(l, &domain_map_tab, a, "in 'mem_sync_domain_map'", &s);
}

static void key_kernel_carveout(struct ld *l, void *obj, const struct keydef *kd,
				struct pos kpos)
{
	struct kernel_attrs *a = kernel_attrs(l, obj, KATTR_CARVEOUT, kpos);
	uint64_t v;
	if (get_u64(l, kd->name, 0, 100, &v, NULL))
		a->carveout = (int)v;
}

static const char access_what[] = "an access property (normal, streaming or persisting)";

#define T struct access_window
static const struct keydef window_keys[] = {
	ROW_REF("buffer", T, buffer, "a buffer name"),
	ROW_UINT("offset", T, offset, 0, UINT64_MAX, POS(T, offset_pos)),
	ROW_UINT("count", T, count, 1, UINT64_MAX, POS(T, count_pos), HAS(T, has_count)),
	ROW("hit_ratio", FIELD_NONNEG, T, hit_ratio, POS(T, hit_ratio_pos)),
	ROW_CHOICE("hit", T, hit, access_prop_names, ACCESS_COUNT, access_what, "access property",
		   POS(T, hit_pos)),
	ROW_CHOICE("miss", T, miss, access_prop_names, ACCESS_COUNT, access_what,
		   "access property", POS(T, miss_pos)),
};
#undef T
static const struct keytab window_tab = KEYTAB(window_keys);

static void key_kernel_window(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct kernel_attrs *a = kernel_attrs(l, obj, KATTR_ACCESS_POLICY, kpos);
	struct seen s;
	if (!want_map(l, "a mapping {buffer, offset, count, hit_ratio, hit, miss}", kd->name))
		return;
	parse_keys(l, &window_tab, &a->window, "in 'access_policy'", &s);
	require_keys(l, &window_tab, &s, 1, "in 'access_policy'");
}

static const struct keydef kernel_keys[] = {
	KEY("function", key_kernel_function),
	KEY("grid", key_kernel_grid),
	KEY("block", key_kernel_block),
	ROW_SIZE("shared", struct node, u.kernel.shared, UINT32_MAX,
		 POS(struct node, u.kernel.shared_pos)),
	KEY("args", key_kernel_args),
	ROW_INT("priority", struct node, u.kernel.priority, INT_MIN, INT_MAX,
		POS(struct node, u.kernel.priority_pos), HAS(struct node, u.kernel.has_priority)),
	/* launch attributes (struct kernel_attrs) */
	KEY_ARG("access_policy", key_kernel_window, KATTR_ACCESS_POLICY),
	KEY_ARG("cooperative", key_kernel_flag, KATTR_COOPERATIVE),
	KEY_ARG("cluster", key_kernel_cluster, KATTR_CLUSTER),
	KEY_ARG("cluster_scheduling", key_kernel_scheduling, KATTR_CLUSTER_SCHEDULING),
	KEY_ARG("mem_sync_domain_map", key_kernel_domain_map, KATTR_DOMAIN_MAP),
	KEY_ARG("mem_sync_domain", key_kernel_domain, KATTR_DOMAIN),
	KEY_ARG("preferred_cluster", key_kernel_cluster, KATTR_PREFERRED_CLUSTER),
	KEY_ARG("device_updatable", key_kernel_flag, KATTR_DEVICE_UPDATABLE),
	KEY_ARG("nvlink_centric", key_kernel_flag, KATTR_NVLINK_CENTRIC),
	KEY_ARG("non_portable_cluster", key_kernel_flag, KATTR_NON_PORTABLE_CLUSTER),
	KEY_ARG("carveout", key_kernel_carveout, KATTR_CARVEOUT),
};
/* More '<' than '>': a C++ template name that a comma cut short. */
static int angle_depth(const char *s)
{
	int depth = 0;
	for (; *s; s++)
		depth += (*s == '<') - (*s == '>');
	return depth;
}

/*
 * {function: k.dot<float, 256>} in flow style: YAML ends the value at the
 * comma and reads "256>" as a key of its own.  Such keys are gathered back
 * into the name (l->tmpl) while its brackets are open, and parse_kernel
 * says to quote it.
 */
static bool kernel_unknown(struct ld *l, void *obj, const char *key, struct pos kpos)
{
	const struct kernel_node *k = &((struct node *)obj)->u.kernel;
	if (l->tmpl == NULL) {
		if (k->function == NULL || angle_depth(k->function) <= 0)
			return false;
		l->tmpl = xstrdup(k->function);
	} else if (angle_depth(l->tmpl) <= 0) {
		return false;
	}
	char *more = xasprintf("%s, %s", l->tmpl, key);
	free(l->tmpl);
	l->tmpl = more;
	return true;
}

static const struct keytab kernel_tab = {kernel_keys, sizeof kernel_keys / sizeof *kernel_keys,
					 kernel_unknown};

void parse_kernel(struct ld *l, struct node *n)
{
	struct seen s;
	if (!want_map(l, "a mapping {function, grid, block, shared, args}", "kernel"))
		return;
	parse_keys(l, &kernel_tab, n, "in 'kernel'", &s);
	require_keys(l, &kernel_tab, &s, 1, "in 'kernel'");
	if (l->tmpl) {
		ld_error(l, n->u.kernel.function_pos, "the kernel name '%.100s' was cut at a comma: in a "
			 "flow mapping ({...}) YAML ends a value there; quote the name: "
			 "function: \"%.100s\"", l->tmpl, l->tmpl);
		free(l->tmpl);
		l->tmpl = NULL;
	}
}

