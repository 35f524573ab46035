/*
 * Unit tests for cli/opt: each option type fills the variable its spec is
 * bound to, values outside the spec's range or choices are refused with
 * the message a user reads (the exact text is the expected value: it is
 * what --help promises), modes and conflicts are refused, and a misspelt
 * option gets the closest name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cli/common.h"
#include "cli/opt.h"
#include "common/err.h"
#include "common/strbuf.h"
#include "common/strvec.h"

#include <string.h>

static const char *name;
static bool quiet, has_frac;
static double frac;
static size_t trim;
static int64_t cores;
static int direction, format;
static struct strvec group;
static const char *by, *pair_by;
static int calls;

static const struct opt_choice formats[] = {
	{"md", 0}, {"tsv", 1}, {"json", 2}, {"markdown", 0}, {NULL},
};

static int count_call(const struct opt_spec *spec, const char *text)
{
	(void)text;
	(*(int *)spec->value)++;
	return 0;
}

static const struct opt_spec specs[] = {
	OPT_STRING("name", "NAME", &name, "a name", .nonempty = true, .noun = "a host name"),
	{.name = "quiet", .short_name = 'q', .type = OPT_T_FLAG, .value = &quiet, .help = "hush"},
	OPT_DOUBLE("frac", "F", &frac, "a fraction", OPT_GT(0), OPT_LE(1), .given = &has_frac),
	OPT_INT("trim", "N", &trim, "rows", OPT_LE(100000)),
	OPT_INT("cores", "N", &cores, "cores", OPT_GE(1), OPT_LE(64)),
	OPT_MODE("lower", &direction, -1, "lower is better"),
	OPT_MODE("higher", &direction, 1, "higher is better"),
	OPT_CHOICE("format", "F", &format, formats, "output format"),
	OPT_LIST("group", "F1[,F2]", &group, "fields", .noun = "field names", .repeatable = true),
	OPT_STRING("by", "FIELD", &by, "level", .conflicts = "pair-by"),
	OPT_STRING("pair-by", "FIELD", &pair_by, "pairs"),
	OPT_CALL("tick", "X", count_call, &calls, "counted", .repeatable = true),
	{.name = "secret", .type = OPT_T_FLAG, .value = &quiet, .help = "hidden", .hidden = true},
	OPT_END,
};

static const struct opt_cmd cmd = {"test", "ARG...", NULL, specs};

static void reset(void)
{
	name = by = pair_by = NULL;
	quiet = has_frac = false;
	frac = 0.8;
	trim = 1;
	cores = 0;
	direction = format = calls = 0;
	strvec_clear(&group);
	err_clear();
}

/* Parse the words after "test"; the parser's result. */
static int parse(const char *const *words, struct opt_parser *p)
{
	static char *argv[32];
	int argc = 0;
	argv[argc++] = (char *)"test";
	while (*words && argc < 31)
		argv[argc++] = (char *)(uintptr_t)*words++;
	argv[argc] = NULL;
	reset();
	assert_int_equal(opt_parser_init(p, &cmd, argc, argv), 0);
	return opt_parse(p);
}

#define WORDS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* A command line that must be refused with exactly this message. */
static void refused(const char *const *words, const char *message)
{
	struct opt_parser p;
	assert_int_equal(parse(words, &p), ERR_USAGE);
	assert_string_equal(err_msg(), message);
	opt_parser_release(&p);
}

static void test_targets(void **state)
{
	struct opt_parser p;
	(void)state;
	assert_int_equal(
		parse(WORDS("--name", "epyc", "-q", "--frac=0.5", "a", "--trim", "0", "--cores",
			    "64", "--lower", "--format", "markdown", "--group", "target,cfg",
			    "--group", "store", "--tick", "1", "--tick", "2", "--", "--b"),
		      &p),
		OPT_DONE);
	assert_string_equal(name, "epyc");
	assert_true(quiet);
	assert_true(frac == 0.5);
	assert_true(has_frac);
	assert_int_equal(trim, 0);
	assert_int_equal(cores, 64);
	assert_int_equal(direction, -1);
	assert_int_equal(format, 0); /* an alias */
	assert_int_equal(group.n, 3);
	assert_string_equal(group.v[2], "store");
	assert_int_equal(calls, 2);
	assert_int_equal(p.noperands, 2);
	assert_string_equal(p.operands[0], "a");
	assert_string_equal(p.operands[1], "--b");
	assert_int_equal(opt_count(&p, 11), 2);
	opt_parser_release(&p);
	/* untouched when not given */
	assert_int_equal(parse(WORDS("x"), &p), OPT_DONE);
	assert_true(frac == 0.8);
	assert_false(has_frac);
	opt_parser_release(&p);
	opt_release_targets(specs);
	assert_null(group.v);
}

static void test_ranges(void **state)
{
	(void)state;
	refused(WORDS("--frac", "0"), "--frac needs a number above 0 and at most 1, got '0'");
	refused(WORDS("--frac", "1.5"), "--frac needs a number above 0 and at most 1, got '1.5'");
	refused(WORDS("--frac", "nan"), "--frac needs a number above 0 and at most 1, got 'nan'");
	refused(WORDS("--cores", "0"), "--cores needs a whole number from 1 to 64, got '0'");
	refused(WORDS("--cores", "2.5"), "--cores needs a whole number from 1 to 64, got '2.5'");
	/* an unsigned target has 0 as its floor */
	refused(WORDS("--trim", "-1"), "--trim needs a whole number from 0 to 100000, got '-1'");
	refused(WORDS("--name", ""), "--name needs a host name");
	refused(WORDS("--format", "jsn"),
		"--format needs one of md, tsv, json, got 'jsn' (did you mean 'json'?)");
	refused(WORDS("--format", "xml"), "--format needs one of md, tsv, json, got 'xml'");
	refused(WORDS("--group", ","), "--group needs field names, got ','");
}

static void test_usage_errors(void **state)
{
	(void)state;
	refused(WORDS("--frc", "1"), "unknown option '--frc' (did you mean '--frac'?)");
	refused(WORDS("--grop", "a"), "unknown option '--grop' (did you mean '--group'?)");
	refused(WORDS("--hlep"), "unknown option '--hlep' (did you mean '--help'?)");
	refused(WORDS("--frobnicate"), "unknown option '--frobnicate'");
	refused(WORDS("--secrte"), "unknown option '--secrte'"); /* hidden: not suggested */
	refused(WORDS("-x"), "unknown option '-x'");
	refused(WORDS("-qq"), "unknown option '-qq' (options cannot be combined)");
	refused(WORDS("--quiet=yes"), "option '--quiet' takes no value");
	refused(WORDS("--name"), "option '--name' needs a value (NAME)");
	refused(WORDS("--name", "a", "--name", "b"), "option '--name' given more than once");
	refused(WORDS("--higher", "--lower"), "give --lower or --higher, not both");
	refused(WORDS("--pair-by", "block", "--by", "gomaxprocs"),
		"--by and --pair-by cannot be combined");
	refused(WORDS("--by", "gomaxprocs", "--pair-by", "block"),
		"--by and --pair-by cannot be combined");
}

/* Help states each constraint from the spec: what --help and the man page print. */
static void test_describe(void **state)
{
	static const char *const want[] = {
		"a name",
		"hush",
		"a fraction [0 < F <= 1]",
		"rows [0 <= N <= 100000]",
		"cores [1 <= N <= 64]",
		"lower is better",
		"higher is better",
		"output format [md|tsv|json]",
		"fields (repeatable)",
		"level",
		"pairs",
		"counted (repeatable)",
		"hidden",
	};
	struct strbuf sb = STRBUF_INIT;
	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		strbuf_reset(&sb);
		assert_int_equal(opt_describe(&specs[i], &sb), 0);
		assert_string_equal(strbuf_str(&sb), want[i]);
	}
	strbuf_release(&sb);
}

/* A config's key = value: as --key=value, a flag taking yes or no. */
static void test_apply(void **state)
{
	(void)state;
	reset();
	assert_int_equal(opt_apply_word(opt_find(specs, "quiet"), "yes"), 0);
	assert_true(quiet);
	assert_int_equal(opt_apply_word(opt_find(specs, "quiet"), "no"), 0);
	assert_false(quiet);
	assert_int_equal(opt_apply_word(opt_find(specs, "quiet"), "1"), ERR_USAGE);
	assert_string_equal(err_msg(), "'quiet' takes yes or no, got '1'");
	assert_int_equal(opt_apply_word(opt_find(specs, "cores"), "8"), 0);
	assert_int_equal(cores, 8);
	assert_int_equal(opt_apply(opt_find(specs, "frac"), "2"), ERR_USAGE);
	assert_string_equal(err_msg(), "--frac needs a number above 0 and at most 1, got '2'");
	assert_null(opt_find(specs, "nosuch"));
	assert_int_equal(opt_apply(opt_find(specs, "name"), NULL), ERR_USAGE);
	assert_string_equal(err_msg(), "--name needs a value (NAME)");
}

static void test_help_and_stop(void **state)
{
	struct opt_parser p;
	char *argv[] = {(char *)"coreplan", (char *)"--quiet", (char *)"runs",
			(char *)"--frac",   (char *)"9",       NULL};
	(void)state;
	reset();
	assert_int_equal(opt_parser_init(&p, &cmd, 5, argv), 0);
	p.stop_at_operand = true; /* main.c: the command's options are the command's */
	assert_int_equal(opt_parse(&p), OPT_DONE);
	assert_int_equal(p.next, 2);
	assert_true(quiet);
	assert_true(frac == 0.8);
	opt_parser_release(&p);
}

/*
 * The shared choice tables agree with the parsers they stand for: each
 * --metric-kind name is the kind common/units parses it to, in the order of
 * field_metric_kinds (the list the kinds' documentation gives), and each
 * --format name is the format doc_format_parse gives.
 */
static void test_shared_choices(void **state)
{
	struct strbuf names = STRBUF_INIT;
	(void)state;
	for (size_t i = 0; cli_metric_kinds[i].name; i++) {
		enum field_kind kind;
		assert_int_equal(field_kind_parse(cli_metric_kinds[i].name, &kind), 0);
		assert_int_equal(kind, cli_metric_kinds[i].value);
		strbuf_addf(&names, "%s%s", i ? ", " : "", cli_metric_kinds[i].name);
	}
	assert_string_equal(strbuf_str(&names), field_metric_kinds);
	for (size_t i = 0; cli_formats[i].name; i++) {
		enum doc_format parsed;
		assert_int_equal(doc_format_parse(cli_formats[i].name, &parsed), 0);
		assert_int_equal(parsed, cli_formats[i].value);
	}
	strbuf_release(&names);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_targets),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_help_and_stop),
		cmocka_unit_test(test_shared_choices),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
