/*
 * The completion scripts (see complete_script.h): each option of the
 * table with what its value completes to, written out as bash's case arms
 * and zsh's _arguments specs between fixed heads and tails.
 */
#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "cli.h"
#include "complete_script.h"
#include "model.h"
#include "term.h"

/* What an option's value completes to. */
enum vkind {
	V_NONE,                         /* free text (a count, a duration): nothing to offer */
	V_FILE,                         /* a file, of one extension when it is read */
	V_WORDS,                        /* one of words */
	V_LIST,                         /* a comma list of words */
	V_AXIS,                         /* NAME= of the file's axes */
	V_IDS,                          /* a comma list of the file's node ids */
};

static const char *const devices_words[] = {"all"};

/*
 * What the option table does not say, by long name.  An option missing
 * here takes a file when its value is called FILE, else free text.
 */
static const struct value_rule {
	const char *option;
	enum vkind kind;
	const char *const *words;       /* V_WORDS, V_LIST: the parser's own list */
	size_t nwords;
	const char *also;               /* one more word (--instantiate's "none") */
	const char *ext;                /* V_FILE: the extension of the file read; NULL: any */
	bool repeatable;                /* every one given counts: offered again */
	bool alone;                     /* --help, --version: nothing goes with it */
} rules[] = {
	{"instantiate", V_LIST, .words = inst_flag_names, .nwords = INST_FLAG_COUNT, .also = "none"},
	{"dot-flags", V_LIST, .words = dot_flag_names, .nwords = DOT_FLAG_COUNT},
	{"modules", V_WORDS, .words = module_api_names, .nwords = 2},
	{"mode", V_LIST, .words = run_mode_names, .nwords = MODE_COUNT, .also = "all"},
	{"color", V_WORDS, .words = color_when_names, .nwords = COLOR_WHEN_COUNT},
	{"devices", V_WORDS, .words = devices_words, .nwords = 1},
	{"axis", V_AXIS, .repeatable = true},
	{"set", V_AXIS, .repeatable = true},
	{"disable", V_IDS, .repeatable = true},
	{"dump", V_NONE, .repeatable = true},
	{"compare", V_FILE, .ext = "json"},
	{"help", V_NONE, .alone = true},
	{"version", V_NONE, .alone = true},
};

/* The rule of option o (a default one when the table has none). */
static struct value_rule rule_of(const struct cli_opt *o)
{
	for (size_t i = 0; i < sizeof rules / sizeof *rules; i++)
		if (strcmp(rules[i].option, o->opt.name) == 0)
			return rules[i];
	bool file = o->arg && strstr(o->arg, "FILE") != NULL;
	return (struct value_rule){.option = o->opt.name, .kind = file ? V_FILE : V_NONE};
}

/* The short option's letter, or 0. */
static int short_of(const struct cli_opt *o)
{
	return o->opt.val < 256 && isalpha(o->opt.val) ? o->opt.val : 0;
}

/* The value's name as a message: "[=FILE]" as FILE. */
static void metavar(const struct cli_opt *o, char *buf, size_t len)
{
	const char *a = o->arg ? o->arg : "VALUE";
	a += strspn(a, "[=");
	snprintf(buf, len, "%.*s", (int)strcspn(a, "]"), a);
}

/*
 * The help text's first phrase, on one line, as a description: up to "; "
 * or " (", at most about 70 columns.  Brackets become parentheses (zsh
 * reads a description up to ']').
 */
static void summary(const char *help, char *buf, size_t len)
{
	size_t n = 0;
	for (const char *p = help; *p && n + 1 < len; p++) {
		if (p[0] == ';' || (isspace((unsigned char)p[0]) && p[1] == '('))
			break;
		if (isspace((unsigned char)*p)) {
			if (n && buf[n - 1] != ' ')
				buf[n++] = ' ';
			continue;
		}
		if (n > 70 && buf[n - 1] == ' ')
			break;
		buf[n++] = *p == '[' ? '(' : *p == ']' ? ')' : *p;
	}
	while (n && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
}

/* The rule's words, each after a space. */
static void write_words(FILE *out, const struct value_rule *r)
{
	for (size_t i = 0; i < r->nwords; i++)
		fprintf(out, " %s", r->words[i]);
	if (r->also)
		fprintf(out, " %s", r->also);
}

/* bash ---------------------------------------------------------------------- */

static const char bash_head[] =
	"# bash completion for cugraphrun(1)                        -*- shell-script -*-\n"
	"# Written from cugraphrun's option table (src/cli.c) by src/gen_completion\n"
	"# when cugraphrun is built; do not edit.\n"
	"\n"
	"# Offer the words after $1 and $2 that start with $2, each after $1.  No\n"
	"# word is expanded: a node id is the file's text, not the shell's.\n"
	"_cugraphrun_offer()\n"
	"{\n"
	"    local pre=$1 cur=$2 w\n"
	"    shift 2\n"
	"    for w in \"$@\"; do\n"
	"        [[ $w == \"$cur\"* ]] && COMPREPLY+=(\"$pre$w\")\n"
	"    done\n"
	"}\n"
	"\n"
	"# A comma list after $1: its last word ($2's) completed from the words\n"
	"# after $2 that it does not hold yet, the others kept.\n"
	"_cugraphrun_list()\n"
	"{\n"
	"    local pre=$1 cur=$2 held=, w\n"
	"    shift 2\n"
	"    if [[ $cur == *,* ]]; then\n"
	"        held=,${cur%,*},\n"
	"        pre+=${cur%,*},\n"
	"        cur=${cur##*,}\n"
	"    fi\n"
	"    for w in \"$@\"; do\n"
	"        [[ $held != *\",$w,\"* && $w == \"$cur\"* ]] && COMPREPLY+=(\"$pre$w\")\n"
	"    done\n"
	"}\n"
	"\n"
	"# $1 with a leading ~ made $HOME, in REPLY; nothing else is expanded.\n"
	"_cugraphrun_home()\n"
	"{\n"
	"    REPLY=$1\n"
	"    [[ $REPLY == \"~\" || $REPLY == \"~/\"* ]] && REPLY=$HOME${REPLY#\\~}\n"
	"}\n"
	"\n"
	"# The names of kind $1 (axes, ids) of the first graph file on the line,\n"
	"# as cugraphrun lists them (--complete), in the array _cugraphrun_got.\n"
	"_cugraphrun_names()\n"
	"{\n"
	"    local i w cmd REPLY\n"
	"    _cugraphrun_got=()\n"
	"    for ((i = 1; i < ${#words[@]}; i++)); do\n"
	"        ((i == cword)) && continue\n"
	"        w=${words[i]}\n"
	"        case $w in\n"
	"            -*) continue ;;\n"
	"            *.[Yy][Aa][Mm][Ll] | *.[Yy][Mm][Ll]) ;;\n"
	"            *) continue ;;\n"
	"        esac\n"
	"        _cugraphrun_home \"$w\"\n"
	"        w=$REPLY\n"
	"        _cugraphrun_home \"${words[0]}\"\n"
	"        cmd=$REPLY\n"
	"        mapfile -t _cugraphrun_got < <(\"$cmd\" --complete=\"$1\" -- \"$w\" 2>/dev/null)\n"
	"        return 0\n"
	"    done\n"
	"    return 1\n"
	"}\n"
	"\n"
	"# -a and --set: NAME= for each of the file's axes, after $1.\n"
	"_cugraphrun_axes()\n"
	"{\n"
	"    [[ $2 == *=* ]] && return\n"
	"    _cugraphrun_names axes || return\n"
	"    _cugraphrun_offer \"$1\" \"$2\" \"${_cugraphrun_got[@]/%/=}\"\n"
	"    compopt -o nospace\n"
	"}\n"
	"\n"
	"# --disable: a comma list of the file's node ids, after $1.\n"
	"_cugraphrun_ids()\n"
	"{\n"
	"    _cugraphrun_names ids || return\n"
	"    _cugraphrun_list \"$1\" \"$2\" \"${_cugraphrun_got[@]}\"\n"
	"}\n"
	"\n"
	"_cugraphrun()\n"
	"{\n"
	"    local cur prev words cword split\n"
	"    _init_completion -s || return\n"
	"\n"
	"    local i\n"
	"    for ((i = 1; i < cword; i++)); do\n"
	"        if [[ ${words[i]} == -- ]]; then\n"
	"            _filedir '@(yaml|yml)'\n"
	"            return\n"
	"        fi\n"
	"    done\n"
	"\n"
	"    case $prev in\n";

static const char bash_tail[] =
	"    _filedir '@(yaml|yml)'\n"
	"} &&\n"
	"    complete -F _cugraphrun cugraphrun\n"
	"\n"
	"# ex: filetype=sh\n";

/* What completes a value of rule r written after pre, cur being "$cur" or a part of it. */
static void bash_action(FILE *out, const struct value_rule *r, const char *pre, const char *cur)
{
	switch (r->kind) {
	case V_NONE:
		break;
	case V_FILE:
		fprintf(out, "_filedir%s%s; ", r->ext ? " " : "", r->ext ? r->ext : "");
		break;
	case V_WORDS:
		fprintf(out, "_cugraphrun_offer %s %s", pre, cur);
		write_words(out, r);
		fputs("; ", out);
		break;
	case V_LIST:
		fprintf(out, "_cugraphrun_list %s %s", pre, cur);
		write_words(out, r);
		fputs("; ", out);
		break;
	case V_AXIS:
		fprintf(out, "_cugraphrun_axes %s %s; ", pre, cur);
		break;
	case V_IDS:
		fprintf(out, "_cugraphrun_ids %s %s; ", pre, cur);
		break;
	}
	fputs("return", out);
}

/* The case arm of an option that takes a value, after it ($prev). */
static void bash_value_arm(FILE *out, const struct cli_opt *o, const struct value_rule *r)
{
	fputs("        ", out);
	if (short_of(o))
		fprintf(out, "-%c|", short_of(o));
	fprintf(out, "--%s)\n            ", o->opt.name);
	/* an optional value is only ever --name=VALUE: else the word is the next operand */
	if (o->opt.has_arg == optional_argument)
		fputs("$split && { ", out);
	bash_action(out, r, "\"\"", "\"$cur\"");
	fputs(o->opt.has_arg == optional_argument ? "; } ;;\n" : " ;;\n", out);
}

void complete_write_bash(FILE *out)
{
	size_t n;
	const struct cli_opt *opts = cli_options(&n);
	fputs(bash_head, out);
	for (size_t i = 0; i < n; i++) {
		struct value_rule r = rule_of(&opts[i]);
		if (opts[i].help && opts[i].opt.has_arg != no_argument)
			bash_value_arm(out, &opts[i], &r);
	}
	fputs("    esac\n    $split && return\n\n    case $cur in\n", out);
	/* "-aNAME=": a short option's value in its word */
	for (size_t i = 0; i < n; i++) {
		struct value_rule r = rule_of(&opts[i]);
		int c = short_of(&opts[i]);
		if (!opts[i].help || !c || opts[i].opt.has_arg == no_argument || r.kind == V_NONE ||
		    r.kind == V_FILE)
			continue;
		fprintf(out, "        -%c?*)\n            ", c);
		char cur[32];
		snprintf(cur, sizeof cur, "\"${cur#-%c}\"", c);
		char pre[8];
		snprintf(pre, sizeof pre, "-%c", c);
		bash_action(out, &r, pre, cur);
		fputs(" ;;\n", out);
	}
	fputs("        -*)\n            _cugraphrun_offer \"\" \"$cur\"", out);
	for (size_t i = 0; i < n; i++) {
		const struct cli_opt *o = &opts[i];
		if (!o->help)
			continue;
		if (short_of(o))
			fprintf(out, " -%c", short_of(o));
		if (o->opt.has_arg != required_argument)
			fprintf(out, " --%s", o->opt.name);
		if (o->opt.has_arg != no_argument)
			fprintf(out, " --%s=", o->opt.name);
	}
	fputs("\n            [[ ${COMPREPLY-} == *= ]] && compopt -o nospace\n"
	      "            return\n"
	      "            ;;\n"
	      "    esac\n", out);
	fputs(bash_tail, out);
}

/* zsh ----------------------------------------------------------------------- */

static const char zsh_head[] =
	"#compdef cugraphrun\n"
	"# zsh completion for cugraphrun(1).\n"
	"# Written from cugraphrun's option table (src/cli.c) by src/gen_completion\n"
	"# when cugraphrun is built; do not edit.\n"
	"\n"
	"# The names of kind $1 (axes, ids) of the first graph file on the line, as\n"
	"# cugraphrun lists them (--complete), in reply.  Nothing is expanded but a\n"
	"# leading ~.\n"
	"_cugraphrun_names() {\n"
	"  local i w cmd\n"
	"  reply=()\n"
	"  for (( i = 2; i <= $#words; i++ )); do\n"
	"    (( i == CURRENT )) && continue\n"
	"    w=${(Q)words[i]}\n"
	"    [[ $w == -* ]] && continue\n"
	"    [[ $w == *.([Yy][Aa][Mm][Ll]|[Yy][Mm][Ll]) ]] || continue\n"
	"    [[ $w == '~' || $w == '~/'* ]] && w=$HOME${w#\\~}\n"
	"    cmd=${(Q)words[1]}\n"
	"    [[ $cmd == '~/'* ]] && cmd=$HOME${cmd#\\~}\n"
	"    reply=( ${(f)\"$(\"$cmd\" --complete=$1 -- \"$w\" 2>/dev/null)\"} )\n"
	"    return 0\n"
	"  done\n"
	"  return 1\n"
	"}\n"
	"\n"
	"# -a and --set: NAME= for each of the file's axes.\n"
	"_cugraphrun_axes() {\n"
	"  local -a reply\n"
	"  [[ $PREFIX == *=* ]] && return 1\n"
	"  _cugraphrun_names axes || return 1\n"
	"  compadd -S '=' -- $reply\n"
	"}\n"
	"\n"
	"# --disable: the file's node ids (_sequence gives compadd's options).\n"
	"_cugraphrun_ids() {\n"
	"  local -a reply\n"
	"  _cugraphrun_names ids || return 1\n"
	"  compadd \"$@\" -- $reply\n"
	"}\n"
	"\n"
	"_cugraphrun() {\n"
	"  _arguments -s -S : \\\n";

static const char zsh_tail[] =
	"    '*:graph file or directory:_files -g \"*.(yaml|yml)(-.)\"'\n"
	"}\n"
	"\n"
	"_cugraphrun \"$@\"\n";

/* The spec's action for a value of rule r. */
static void zsh_action(FILE *out, const struct value_rule *r)
{
	switch (r->kind) {
	case V_NONE:
		fputs(" ", out);
		break;
	case V_FILE:
		if (r->ext)
			fprintf(out, "_files -g \"*.%s(-.)\"", r->ext);
		else
			fputs("_files", out);
		break;
	case V_WORDS:
		fputs("(", out);
		for (size_t i = 0; i < r->nwords; i++)
			fprintf(out, "%s%s", i ? " " : "", r->words[i]);
		fputs(")", out);
		break;
	case V_LIST:
		fputs("_sequence compadd -", out);
		write_words(out, r);
		break;
	case V_AXIS:
		fputs("_cugraphrun_axes", out);
		break;
	case V_IDS:
		fputs("_sequence _cugraphrun_ids", out);
		break;
	}
}

/* One option's spec, both its names in one brace expansion. */
static void zsh_spec(FILE *out, const struct cli_opt *o, const struct value_rule *r)
{
	int c = short_of(o);
	fputs("    ", out);
	if (r->alone)
		fputs("'(- *)'", out);
	else if (r->repeatable)
		fputs("'*'", out);
	else if (c)
		fprintf(out, "'(-%c --%s)'", c, o->opt.name);
	const char *sfx = o->opt.has_arg == required_argument ? "=" :
		o->opt.has_arg == optional_argument ? "=-" : "";
	if (c)
		fprintf(out, "{-%c%s,--%s%s}", c, o->opt.has_arg == no_argument ? "" : "+",
			o->opt.name, sfx);
	else
		fprintf(out, "--%s%s", o->opt.name, sfx);
	char text[128], var[64];
	summary(o->help, text, sizeof text);
	fputs("'[", out);
	for (const char *p = text; *p; p++)
		fputs(*p == '\'' ? "'\\''" : (char[2]){*p, 0}, out);
	fputs("]", out);
	if (o->opt.has_arg != no_argument) {
		metavar(o, var, sizeof var);
		fprintf(out, "%s%s:", o->opt.has_arg == optional_argument ? "::" : ":", var);
		zsh_action(out, r);
	}
	fputs("' \\\n", out);
}

void complete_write_zsh(FILE *out)
{
	size_t n;
	const struct cli_opt *opts = cli_options(&n);
	fputs(zsh_head, out);
	for (size_t i = 0; i < n; i++) {
		struct value_rule r = rule_of(&opts[i]);
		if (opts[i].help)
			zsh_spec(out, &opts[i], &r);
	}
	fputs(zsh_tail, out);
}
