/*
 * Unit tests for common/outfile: output files created new, never over a
 * file coreplan did not write, never through a symbolic link.
 *
 * Each test works in its own mkdtemp folder under /tmp (removed by the
 * teardown). The marker's lines are checked against SHA-256 values
 * computed outside the code under test (`printf 'hello\n' | sha256sum`:
 * 5891b5b5...e03; `printf 'new\n' | sha256sum`: 7aa7a535...d4c, GNU
 * coreutils). Every refusal is checked to leave the file it names byte for
 * byte as it was (and a link's target untouched); a FIFO at an output name
 * is refused without opening it (the test would hang otherwise).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/err.h"
#include "common/outfile.h"
#include "test_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HELLO_SHA "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"
#define NEW_SHA "7aa7a5359173d05b63cfd682e3c38487f3cb4f7f1d60659fe59fab1505977d4c"

static char dir[64];

static void rm_tree(const char *path)
{
	if (remove_tree(path) != 0)
		fprintf(stderr, "cannot remove '%s'\n", path);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/coreplan-test-outfile-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	err_clear();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rm_tree(dir);
	return 0;
}

static char *path_of(const char *name)
{
	static char buf[4][512];
	static int k;
	char *p = buf[k++ % 4];
	snprintf(p, 512, "%s/%s", dir, name);
	return p;
}

static void put(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

static char *get(const char *path)
{
	static char buf[8192];
	FILE *fp = fopen(path, "r");
	size_t n;
	if (!fp)
		fail_msg("cannot read '%s'", path);
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

static void check_err(const char *part)
{
	if (!strstr(err_msg(), part))
		fail_msg("expected [%s] in the message [%s]", part, err_msg());
	err_clear();
}

/* Stage TEXT as NAME and commit it into d (replace as given); returns outdir_commit's code. */
static int write_one(struct outdir *d, const char *name, const char *text, bool replace)
{
	char *stage = NULL, path[600];
	FILE *fp = NULL;
	int rc;
	assert_int_equal(outdir_stage(d, &stage), 0);
	snprintf(path, sizeof(path), "%s/%s", stage, name);
	assert_int_equal(outfile_create(path, NULL, &fp), 0);
	fputs(text, fp);
	assert_int_equal(outfile_close(fp, path), 0);
	rc = outdir_commit(d, stage, name, replace);
	outdir_unstage(stage);
	{
		struct stat st;
		if (lstat(stage, &st) == 0)
			fail_msg("the stage '%s' is left behind", stage);
	}
	free(stage);
	return rc;
}

/* Entries of dir other than . and .. */
static size_t entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	size_t n = 0;
	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* ---- names ---- */

static void test_names(void **state)
{
	static const char *const refused[] = {"|touch PWNED;x.svg",
					      "<touch PWNED;x.svg",
					      "a\nb.svg",
					      "tab\there.svg",
					      "esc\x1b[1m.svg",
					      "a/b.svg",
					      ".",
					      "..",
					      "",
					      ".coreplan-outputs",
					      ".coreplan-tmp-x",
					      NULL};
	static const char *const accepted[] = {"x.svg", "it's $x @m `a`.svg", "-.svg", "+",
					       "~x",    "sp ace.png",         NULL};
	(void)state;
	for (size_t i = 0; refused[i]; i++) {
		if (outfile_name_check(refused[i], "--out") == 0)
			fail_msg("name [%s] accepted", refused[i]);
		err_clear();
	}
	assert_int_equal(outfile_name_check("|touch PWNED;x.svg", "--out"), ERR_DATA);
	check_err("starts with '|', which gnuplot reads as a command to run");
	for (size_t i = 0; accepted[i]; i++)
		if (outfile_name_check(accepted[i], "--out") != 0)
			fail_msg("name [%s] refused: %s", accepted[i], err_msg());
}

/* ---- creating ---- */

/*
 * Check, write and save OUT/a.txt (text; force replaces coreplan's own
 * file), free d, then find text in it and manifest_rows after the marker's
 * header.
 */
static void commit_a_txt(struct outdir *d, const char *text, bool force,
			 const char *manifest_rows)
{
	char want[512];
	assert_int_equal(outdir_check(d, "a.txt", force), 0);
	assert_int_equal(write_one(d, "a.txt", text, force), 0);
	assert_int_equal(outdir_save(d), 0);
	outdir_free(d);
	assert_string_equal(get(path_of("a.txt")), text);
	snprintf(want, sizeof(want), "%s%s", OUTDIR_MANIFEST_HEADER, manifest_rows);
	assert_string_equal(get(path_of(".coreplan-outputs")), want);
}

static void test_create_new_and_marker(void **state)
{
	struct outdir *d = NULL;
	(void)state;
	assert_int_equal(outdir_open(dir, "OUT", false, &d), 0);
	commit_a_txt(d, "hello\n", false, "\nf\t6\t" HELLO_SHA "\t-\ta.txt\n");
	/* the folder holds the file and the marker: no stage, no temporary file */
	assert_int_equal(entries(dir), 2);
	/* the marker's mode follows the umask like any file (not mkstemp's 0600) */
	{
		struct stat st;
		mode_t mask = umask(022);
		umask(mask);
		assert_int_equal(stat(path_of(".coreplan-outputs"), &st), 0);
		assert_int_equal(st.st_mode & 0777, 0666 & ~mask);
	}
}

/* A first run: OUT/a.txt written ("hello\n") and the folder saved. */
static void save_hello(void)
{
	struct outdir *d = NULL;
	assert_int_equal(outdir_open(dir, "OUT", false, &d), 0);
	assert_int_equal(write_one(d, "a.txt", "hello\n", false), 0);
	assert_int_equal(outdir_save(d), 0);
	outdir_free(d);
}

static void test_own_file_needs_force(void **state)
{
	struct outdir *d = NULL;
	(void)state;
	save_hello();
	assert_int_equal(outdir_open(dir, "OUT", false, &d), 0);
	assert_int_equal(outdir_check(d, "a.txt", false), ERR_DATA);
	check_err("cannot write 'OUT/a.txt': it exists (coreplan wrote it; --force replaces it)");
	/* without replace the commit never replaces, even coreplan's own file */
	assert_int_equal(write_one(d, "a.txt", "new\n", false), ERR_DATA);
	check_err("OUT/a.txt");
	assert_string_equal(get(path_of("a.txt")), "hello\n");
	commit_a_txt(d, "new\n", true, "\nf\t4\t" NEW_SHA "\t-\ta.txt\n");
}

static void test_foreign_file_refused_even_with_force(void **state)
{
	struct outdir *d = NULL;
	(void)state;
	put(path_of("results.tsv"), "tag\ttput\nr1\t5\n");
	assert_int_equal(outdir_open(dir, "OUT", false, &d), 0);
	for (int force = 0; force <= 1; force++) {
		assert_int_equal(outdir_check(d, "results.tsv", force), ERR_DATA);
		check_err(
			"cannot write 'OUT/results.tsv': it exists and coreplan did not write it");
	}
	assert_int_equal(write_one(d, "results.tsv", "new\n", true), ERR_DATA);
	check_err("did not write it");
	assert_int_equal(write_one(d, "results.tsv", "new\n", false), ERR_DATA);
	err_clear();
	outdir_free(d);
	assert_string_equal(get(path_of("results.tsv")), "tag\ttput\nr1\t5\n");
}

static void test_changed_file_refused(void **state)
{
	struct outdir *d = NULL;
	(void)state;
	save_hello();
	put(path_of("a.txt"), "HELLO\n"); /* the same size, other bytes: the hash tells */
	assert_int_equal(outdir_open(dir, "OUT", false, &d), 0);
	assert_int_equal(outdir_check(d, "a.txt", true), ERR_DATA);
	check_err("cannot write 'OUT/a.txt': it changed since coreplan wrote it");
	assert_int_equal(outdir_remove(d, "a.txt"), ERR_DATA);
	err_clear();
	outdir_free(d);
	assert_string_equal(get(path_of("a.txt")), "HELLO\n");
}

static void test_symlink_never_followed(void **state)
{
	char target[600];
	struct outdir *d = NULL;
	FILE *fp = NULL;
	(void)state;
	snprintf(target, sizeof(target), "%s.victim", dir);
	put(target, "precious\n");
	assert_int_equal(symlink(target, path_of("x.svg.tsv")), 0);
	assert_int_equal(outdir_open(dir, "OUT", false, &d), 0);
	for (int force = 0; force <= 1; force++) {
		assert_int_equal(outdir_check(d, "x.svg.tsv", force), ERR_DATA);
		check_err("cannot write 'OUT/x.svg.tsv': it is a symbolic link");
	}
	assert_int_equal(write_one(d, "x.svg.tsv", "new\n", false), ERR_DATA);
	err_clear();
	assert_int_equal(write_one(d, "x.svg.tsv", "new\n", true), ERR_DATA);
	err_clear();
	outdir_free(d);
	/* outfile_create on the link itself: O_EXCL|O_NOFOLLOW refuses it */
	assert_int_equal(outfile_create(path_of("x.svg.tsv"), "LINK", &fp), ERR_DATA);
	check_err("cannot write 'LINK'");
	assert_null(fp);
	assert_string_equal(get(target), "precious\n");
	unlink(target);
}

static void test_symlink_marker_not_followed(void **state)
{
	char target[600];
	struct outdir *d = NULL;
	(void)state;
	snprintf(target, sizeof(target), "%s.victim", dir);
	put(target, OUTDIR_MANIFEST_HEADER "\n");
	assert_int_equal(symlink(target, path_of(".coreplan-outputs")), 0);
	assert_int_equal(outdir_open(dir, "OUT", false, &d), ERR_DATA);
	check_err("'OUT/.coreplan-outputs': it is a symbolic link (not followed)");
	assert_null(d);
	assert_string_equal(get(target), OUTDIR_MANIFEST_HEADER "\n");
	unlink(target);
}

static void test_foreign_marker_refused(void **state)
{
	struct outdir *d = NULL;
	(void)state;
	put(path_of(".coreplan-outputs"), "my own notes\n");
	assert_int_equal(outdir_open(dir, "OUT", false, &d), ERR_DATA);
	check_err("'OUT/.coreplan-outputs' is not coreplan's list of the files it wrote");
	assert_string_equal(get(path_of(".coreplan-outputs")), "my own notes\n");
	/* a forged line without a hash proves nothing */
	put(path_of(".coreplan-outputs"), OUTDIR_MANIFEST_HEADER "\nf\t6\tabc\t-\ta.txt\n");
	assert_int_equal(outdir_open(dir, "OUT", false, &d), ERR_DATA);
	check_err("without its size and sha256");
}

static void test_fifo_refused_without_blocking(void **state)
{
	struct outdir *d = NULL;
	(void)state;
	assert_int_equal(mkfifo(path_of("p.svg"), 0600), 0);
	/* listed as coreplan's file: still never opened (a FIFO is no regular file) */
	put(path_of(".coreplan-outputs"), OUTDIR_MANIFEST_HEADER "\nf\t6\t" HELLO_SHA "\t-\tp.svg\n");
	assert_int_equal(outdir_open(dir, "OUT", false, &d), 0);
	assert_int_equal(outdir_check(d, "p.svg", true), ERR_DATA);
	check_err("cannot write 'OUT/p.svg': it changed since coreplan wrote it");
	assert_int_equal(outdir_check(d, "q.svg", true), 0);
	outdir_free(d);
	assert_int_equal(unlink(path_of(".coreplan-outputs")), 0);
	assert_int_equal(mkfifo(path_of(".coreplan-outputs"), 0600), 0);
	assert_int_equal(outdir_open(dir, "OUT", false, &d), ERR_DATA);
	check_err("not a regular file");
}

/* A name taken between the check and the commit: the commit fails, the newcomer stays. */
static void test_commit_never_replaces_a_newcomer(void **state)
{
	struct outdir *d = NULL;
	char *stage = NULL, path[600];
	FILE *fp = NULL;
	(void)state;
	assert_int_equal(outdir_open(dir, "OUT", false, &d), 0);
	assert_int_equal(outdir_check(d, "a.txt", false), 0);
	assert_int_equal(outdir_stage(d, &stage), 0);
	snprintf(path, sizeof(path), "%s/a.txt", stage);
	assert_int_equal(outfile_create(path, NULL, &fp), 0);
	fputs("new\n", fp);
	assert_int_equal(outfile_close(fp, path), 0);
	put(path_of("a.txt"), "someone else's\n");
	assert_int_equal(outdir_commit(d, stage, "a.txt", false), ERR_DATA);
	check_err("cannot write 'OUT/a.txt': it exists");
	/* with replace too: it is not coreplan's */
	assert_int_equal(outdir_commit(d, stage, "a.txt", true), ERR_DATA);
	check_err("did not write it");
	outdir_unstage(stage);
	free(stage);
	outdir_free(d);
	assert_string_equal(get(path_of("a.txt")), "someone else's\n");
	assert_int_equal(entries(dir), 1); /* no stage, no marker: nothing was written */
}

/* A stage's removal does not follow a link out of it. */
static void test_unstage_keeps_link_targets(void **state)
{
	struct outdir *d = NULL;
	char *stage = NULL, outside[600], link[700], sub[700];
	(void)state;
	snprintf(outside, sizeof(outside), "%s.outside", dir);
	assert_int_equal(mkdir(outside, 0700), 0);
	snprintf(link, sizeof(link), "%s/keep", outside);
	put(link, "keep\n");
	assert_int_equal(outdir_open(dir, "OUT", false, &d), 0);
	assert_int_equal(outdir_stage(d, &stage), 0);
	snprintf(link, sizeof(link), "%s/link", stage);
	assert_int_equal(symlink(outside, link), 0);
	snprintf(sub, sizeof(sub), "%s/sub", stage);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(sub, sizeof(sub), "%s/sub/f", stage);
	put(sub, "x\n");
	outdir_unstage(stage);
	{
		struct stat st;
		assert_int_not_equal(lstat(stage, &st), 0);
	}
	free(stage);
	outdir_free(d);
	snprintf(link, sizeof(link), "%s/keep", outside);
	assert_string_equal(get(link), "keep\n");
	rm_tree(outside);
}

/* A folder coreplan wrote (a report's plots/): checked and removed by its own marker. */
static void test_folder_owned_and_removed(void **state)
{
	struct outdir *d = NULL, *sub = NULL;
	char *stage = NULL, plots[700];
	(void)state;
	assert_int_equal(outdir_open(dir, "OUT", false, &d), 0);
	assert_int_equal(outdir_stage(d, &stage), 0);
	snprintf(plots, sizeof(plots), "%s/plots", stage);
	assert_int_equal(mkdir(plots, 0777), 0);
	assert_int_equal(outdir_open(plots, "OUT/plots", false, &sub), 0);
	assert_int_equal(write_one(sub, "01.svg", "hello\n", false), 0);
	assert_int_equal(outdir_save(sub), 0);
	outdir_free(sub);
	assert_int_equal(outdir_commit(d, stage, "plots", false), 0);
	assert_int_equal(outdir_save(d), 0);
	outdir_unstage(stage);
	free(stage);
	outdir_free(d);
	assert_string_equal(get(path_of(".coreplan-outputs")),
			    OUTDIR_MANIFEST_HEADER "\nd\t-\t-\t-\tplots\n");
	/* a file put in it by someone else: the folder is no longer all coreplan's */
	put(path_of("plots/notes.txt"), "mine\n");
	assert_int_equal(outdir_open(dir, "OUT", false, &d), 0);
	{
		bool empty = true;
		assert_int_equal(outdir_check_all(d, true, &empty), ERR_DATA);
		check_err("cannot write 'OUT/plots/notes.txt': it exists and coreplan did not "
			  "write it");
		assert_false(empty);
	}
	assert_int_equal(outdir_clear(d, NULL), ERR_DATA);
	err_clear();
	outdir_free(d);
	assert_string_equal(get(path_of("plots/notes.txt")), "mine\n");
	assert_string_equal(get(path_of("plots/01.svg")), "hello\n");
	/* without it: cleared, the folder and its marker gone */
	assert_int_equal(unlink(path_of("plots/notes.txt")), 0);
	assert_int_equal(outdir_open(dir, "OUT", false, &d), 0);
	assert_int_equal(outdir_clear(d, NULL), 0);
	assert_int_equal(outdir_save(d), 0);
	outdir_free(d);
	assert_int_equal(entries(dir), 1);
	assert_string_equal(get(path_of(".coreplan-outputs")), OUTDIR_MANIFEST_HEADER "\n");
}

static void test_open_creates_and_names(void **state)
{
	struct outdir *d = NULL;
	char deep[600], file[600];
	(void)state;
	snprintf(deep, sizeof(deep), "%s/a/b/c", dir);
	assert_int_equal(outdir_open(deep, NULL, true, &d), 0);
	outdir_free(d);
	snprintf(file, sizeof(file), "%s/f", dir);
	put(file, "x\n");
	snprintf(deep, sizeof(deep), "%s/f/sub", dir);
	assert_int_equal(outdir_open(deep, NULL, true, &d), ERR_DATA);
	check_err("cannot create");
	snprintf(deep, sizeof(deep), "%s/missing", dir);
	assert_int_equal(outdir_open(deep, "M", false, &d), ERR_DATA);
	check_err("cannot write into 'M': No such file or directory");
}

/* every test in a fresh output folder, removed after it */
/* Writers: a version 1 marker reads with writer "-"; a clear removes only its writer's entries. */
static void test_writers_and_old_marker(void **state)
{
	struct outdir *d = NULL;
	const char *const legacy[] = {"report.md", NULL};
	(void)state;
	put(path_of("report.md"), "hello\n");
	put(path_of("mine.svg"), "hello\n");
	put(path_of(".coreplan-outputs"),
	    "# coreplan outputs 1: kind, size, sha256, name of each file it wrote here\n"
	    "f\t6\t" HELLO_SHA "\treport.md\nf\t6\t" HELLO_SHA "\tmine.svg\n");
	assert_int_equal(outdir_open(dir, "OUT", false, &d), 0);
	outdir_set_writer(d, "report");
	assert_int_equal(write_one(d, "new.md", "new\n", false), 0);
	/* the old marker's report.md counts as the report's (legacy); mine.svg does not */
	assert_int_equal(outdir_clear(d, legacy), 0);
	assert_int_equal(outdir_save(d), 0);
	outdir_free(d);
	assert_int_equal(access(path_of("report.md"), F_OK), -1);
	assert_int_equal(access(path_of("new.md"), F_OK), -1);
	assert_string_equal(get(path_of("mine.svg")), "hello\n");
	assert_string_equal(get(path_of(".coreplan-outputs")),
			    OUTDIR_MANIFEST_HEADER "\nf\t6\t" HELLO_SHA "\t-\tmine.svg\n");
	/* another writer's entry stays through a clear */
	assert_int_equal(outdir_open(dir, "OUT", false, &d), 0);
	outdir_set_writer(d, "plot");
	assert_int_equal(write_one(d, "p.svg", "new\n", false), 0);
	outdir_set_writer(d, "report");
	assert_int_equal(outdir_clear(d, legacy), 0);
	assert_int_equal(outdir_save(d), 0);
	outdir_free(d);
	assert_string_equal(get(path_of("p.svg")), "new\n");
	assert_non_null(strstr(get(path_of(".coreplan-outputs")),
			       "\nf\t4\t" NEW_SHA "\tplot\tp.svg\n"));
}

/* A stage a killed coreplan left is removed by the next open; a look-alike without the marker stays. */
static void test_dead_stage_swept(void **state)
{
	struct outdir *d = NULL;
	char *stage = NULL, file[700];
	(void)state;
	assert_int_equal(outdir_open(dir, "OUT", false, &d), 0);
	assert_int_equal(outdir_stage(d, &stage), 0);
	snprintf(file, sizeof(file), "%s/half.svg", stage);
	put(file, "hello\n");
	outdir_free(d); /* killed: the stage stays */
	assert_int_equal(access(file, F_OK), 0);
	assert_int_equal(mkdir(path_of(".coreplan-tmp-mine"), 0777), 0);
	put(path_of(".coreplan-tmp-mine/notes"), "mine\n");
	put(path_of(".coreplan-tmp-outputs-1-2-3"), OUTDIR_MANIFEST_HEADER "\n");
	put(path_of(".coreplan-tmp-notes"), "mine\n");
	assert_int_equal(outdir_open(dir, "OUT", false, &d), 0);
	outdir_free(d);
	assert_int_equal(access(stage, F_OK), -1);
	assert_int_equal(access(path_of(".coreplan-tmp-outputs-1-2-3"), F_OK), -1);
	assert_string_equal(get(path_of(".coreplan-tmp-mine/notes")), "mine\n");
	assert_string_equal(get(path_of(".coreplan-tmp-notes")), "mine\n");
	free(stage);
}

/* outdir_expect: the marker lists a staged file before it moves in. */
static void test_expect_lists_before_the_move(void **state)
{
	struct outdir *d = NULL;
	char *stage = NULL, file[700];
	(void)state;
	assert_int_equal(outdir_open(dir, "OUT", false, &d), 0);
	outdir_set_writer(d, "report");
	assert_int_equal(outdir_stage(d, &stage), 0);
	snprintf(file, sizeof(file), "%s/a.txt", stage);
	put(file, "hello\n");
	assert_int_equal(outdir_expect(d, stage, "a.txt"), 0);
	assert_int_equal(outdir_save(d), 0);
	assert_string_equal(get(path_of(".coreplan-outputs")),
			    OUTDIR_MANIFEST_HEADER "\nf\t6\t" HELLO_SHA "\treport\ta.txt\n");
	assert_int_equal(outdir_commit(d, stage, "a.txt", false), 0);
	assert_int_equal(outdir_save(d), 0);
	outdir_unstage(stage);
	free(stage);
	outdir_free(d);
	assert_string_equal(get(path_of("a.txt")), "hello\n");
}

#define TEST(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(test_names),
		TEST(test_create_new_and_marker),
		TEST(test_own_file_needs_force),
		TEST(test_foreign_file_refused_even_with_force),
		TEST(test_changed_file_refused),
		TEST(test_symlink_never_followed),
		TEST(test_symlink_marker_not_followed),
		TEST(test_foreign_marker_refused),
		TEST(test_fifo_refused_without_blocking),
		TEST(test_commit_never_replaces_a_newcomer),
		TEST(test_unstage_keeps_link_targets),
		TEST(test_folder_owned_and_removed),
		TEST(test_open_creates_and_names),
		TEST(test_writers_and_old_marker),
		TEST(test_dead_stage_swept),
		TEST(test_expect_lists_before_the_move),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
