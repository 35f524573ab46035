/*
 * Unit tests for common/infile: opening user and corpus files safely.
 * Inputs are written into a mkdtemp folder (removed at the end); the real
 * corpus file comes from SHARED_CORPORA. Expected hashes are SHA-256 from
 * sha256sum(1), not from the code under test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/err.h"
#include "common/infile.h"
#include "test_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef SHARED_CORPORA
#define SHARED_CORPORA "../shared/corpora"
#endif

static char tmpdir[] = "/tmp/coreplan-test-infile-XXXXXX";
static int root_fd = -1;

static int setup_dir(void **state)
{
	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	root_fd = open(tmpdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return root_fd >= 0 ? 0 : -1;
}

static int remove_dir(void **state)
{
	(void)state;
	close(root_fd);
	return remove_tree(tmpdir);
}

static const char *at(const char *relative)
{
	static char path[4][400];
	static int next;
	char *p = path[next++ & 3];
	snprintf(p, sizeof(path[0]), "%s/%s", tmpdir, relative);
	return p;
}

/* Write (mode "wb") or append ("ab") text to the file at relative. */
static void put_mode(const char *relative, const char *text, const char *mode)
{
	FILE *fp = fopen(at(relative), mode);
	assert_non_null(fp);
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
}

static void put(const char *relative, const char *text)
{
	put_mode(relative, text, "wb");
}

static void expect_msg_contains(const char *part)
{
	if (!strstr(err_msg(), part))
		fail_msg("message '%s' lacks '%s'", err_msg(), part);
}

/* "abc": the FIPS 180-2 test vector, also printf abc | sha256sum. */
static void test_hash_while_reading(void **state)
{
	struct infile f;
	char buf[2], hex[HASH_HEX_LEN + 1];
	size_t got;
	int64_t size = 0;
	(void)state;
	put("abc.txt", "abc");
	assert_int_equal(infile_open(&f, at("abc.txt"), "abc.txt", 16), 0);
	assert_int_equal(infile_read(&f, buf, 2, &got), 0);
	assert_int_equal(got, 2);
	/* the byte the caller did not read is read and hashed by infile_end */
	assert_int_equal(infile_end(&f, hex, &size), 0);
	assert_string_equal(hex,
			    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	assert_int_equal(size, 3);
	infile_close(&f);
	infile_close(&f); /* twice is harmless */
}

/* sha256sum and stat -c %s of the real corpus's results.tsv. */
static void test_real_corpus_file(void **state)
{
	char hex[HASH_HEX_LEN + 1];
	int64_t size = 0;
	(void)state;
	assert_int_equal(infile_hash(SHARED_CORPORA "/sky/gomaxprocs-scaling-20260816/results.tsv",
				     "results.tsv", hex, &size),
			 0);
	assert_string_equal(hex,
			    "f4243e17335ecc74a67aa8d0d68372274f24a22d165ab3fbc728e8d0198f6a86");
	assert_int_equal(size, 4031);
}

/* A FIFO is refused at once (no writer: an ordinary open would block forever). */
static void test_fifo_refused(void **state)
{
	struct infile f;
	(void)state;
	assert_int_equal(mkfifo(at("pipe"), 0600), 0);
	assert_int_equal(infile_open(&f, at("pipe"), "pipe", 0), ERR_DATA);
	assert_string_equal(err_msg(), "'pipe' is a FIFO, not a regular file: not read");
	assert_int_equal(f.fd, -1);
	assert_int_equal(infile_open_in(&f, root_fd, tmpdir, "pipe", "pipe", 0), ERR_DATA);
	assert_string_equal(err_msg(), "'pipe' is a FIFO, not a regular file: not read");
	infile_close(&f);
}

static void test_devices_and_folders_refused(void **state)
{
	struct infile f;
	(void)state;
	assert_int_equal(infile_open(&f, "/dev/zero", "/dev/zero", 0), ERR_DATA);
	assert_string_equal(err_msg(),
			    "'/dev/zero' is a character device, not a regular file: not read");
	assert_int_equal(infile_open(&f, tmpdir, "dir", 0), ERR_DATA);
	assert_string_equal(err_msg(), "'dir' is a folder, not a regular file: not read");
	assert_int_equal(infile_open(&f, at("none"), "none", 0), ERR_DATA);
	assert_string_equal(err_msg(), "cannot open 'none': No such file or directory");
}

static void test_limit(void **state)
{
	struct infile f;
	char *text = NULL;
	size_t len = 0;
	(void)state;
	put("eleven.txt", "0123456789\n");
	assert_int_equal(infile_open(&f, at("eleven.txt"), "eleven.txt", 10), ERR_DATA);
	assert_string_equal(err_msg(),
			    "eleven.txt: larger than 10 bytes (the limit for this file): not read");
	assert_int_equal(infile_open(&f, at("eleven.txt"), "eleven.txt", 11), 0);
	assert_int_equal(infile_slurp(&f, &text, &len), 0);
	assert_int_equal(len, 11);
	assert_string_equal(text, "0123456789\n");
	free(text);
	infile_close(&f);
	assert_int_equal(infile_open(&f, "/dev/null", "x", INFILE_TEXT_MAX), ERR_DATA);
	(void)INFILE_TABLE_MAX;
}

/* Grown after the open (the limit is also enforced while reading). */
static void test_limit_while_reading(void **state)
{
	struct infile f;
	char *text = NULL;
	size_t len = 0;
	(void)state;
	put("grow.txt", "abc");
	assert_int_equal(infile_open(&f, at("grow.txt"), "grow.txt", 8), 0);
	put_mode("grow.txt", "defghijk", "ab");
	assert_int_equal(infile_slurp(&f, &text, &len), ERR_DATA);
	assert_string_equal(err_msg(), "grow.txt: larger than 8 bytes (the limit for this file)");
	assert_null(text);
	infile_close(&f);
}

static void test_links_and_dots_refused_in_corpus(void **state)
{
	struct infile f;
	(void)state;
	assert_int_equal(mkdir(at("c"), 0700), 0);
	assert_int_equal(mkdir(at("c/runs"), 0700), 0);
	assert_int_equal(mkdir(at("outside"), 0700), 0);
	put("outside/secret.txt", "secret\n");
	put("c/runs/ok.txt", "ok\n");
	assert_int_equal(symlink("../outside/secret.txt", at("c/link.txt")), 0);
	assert_int_equal(symlink("../outside", at("c/linked")), 0);

	assert_int_equal(infile_open_in(&f, root_fd, tmpdir, "c/runs/ok.txt", "runs/ok.txt", 0), 0);
	infile_close(&f);
	assert_int_equal(infile_open_in(&f, root_fd, tmpdir, "c/link.txt", "link.txt", 0),
			 ERR_DATA);
	assert_string_equal(err_msg(), "'link.txt' is a symbolic link: not followed (links "
				       "inside a corpus folder are never read)");
	assert_int_equal(
		infile_open_in(&f, root_fd, tmpdir, "c/linked/secret.txt", "linked/secret.txt", 0),
		ERR_DATA);
	assert_string_equal(err_msg(), "'linked/secret.txt': 'linked' is a symbolic link: not "
				       "followed (links inside a corpus folder are never read)");
	assert_int_equal(infile_open_in(&f, root_fd, tmpdir, "c/../outside/secret.txt", "x", 0),
			 ERR_DATA);
	expect_msg_contains("'..' component");
	assert_int_equal(infile_open_in(&f, root_fd, tmpdir, "c//runs/ok.txt", "y", 0), ERR_DATA);
	expect_msg_contains("empty or '..' component");
	/* '.' stays in the folder */
	assert_int_equal(infile_open_in(&f, root_fd, tmpdir, "./c/./runs/ok.txt", "v", 0), 0);
	infile_close(&f);
	assert_int_equal(infile_open_in(&f, root_fd, tmpdir, "/etc/passwd", "z", 0), ERR_DATA);
	assert_string_equal(err_msg(), "'z' is an absolute path: corpus files are read inside the "
				       "corpus folder only");
	assert_int_equal(infile_open_in(&f, root_fd, tmpdir, "c/runs/none.txt", "n", 0), ERR_DATA);
	assert_string_equal(err_msg(), "cannot open 'n': No such file or directory");
	/* the real path must be below the root given */
	assert_int_equal(infile_open_in(&f, root_fd, "/nonexistent-root", "c/runs/ok.txt", "w", 0),
			 ERR_DATA);
	expect_msg_contains("is outside the corpus folder '/nonexistent-root'");
}

static void test_opendir_in(void **state)
{
	int fd = -1;
	(void)state;
	assert_int_equal(mkdir(at("d"), 0700), 0);
	assert_int_equal(mkdir(at("d/sub"), 0700), 0);
	assert_int_equal(symlink("sub", at("d/alias")), 0);
	put("d/file.txt", "x");
	assert_int_equal(infile_opendir_in(root_fd, "d/sub", "d/sub", &fd), 0);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(infile_opendir_in(root_fd, "", ".", &fd), 0);
	assert_true(fd >= 0 && fd != root_fd);
	close(fd);
	assert_int_equal(infile_opendir_in(root_fd, "d/none", "d/none", &fd), 1);
	assert_int_equal(fd, -1);
	assert_int_equal(infile_opendir_in(root_fd, "d/none/deeper", "d/none/deeper", &fd), 1);
	assert_int_equal(infile_opendir_in(root_fd, "d/file.txt", "d/file.txt", &fd), 1);
	assert_int_equal(infile_opendir_in(root_fd, "d/alias", "d/alias", &fd), ERR_DATA);
	expect_msg_contains("'alias' is a symbolic link: not followed");
	assert_int_equal(infile_opendir_in(root_fd, "d/alias/x", "d/alias/x", &fd), ERR_DATA);
	expect_msg_contains("'alias' is a symbolic link: not followed");
	assert_int_equal(infile_opendir_in(root_fd, "../", "../", &fd), ERR_DATA);
}

/*
 * Bytes kept from an earlier read: read back in pieces, ended with the
 * hash and size given (the "abc" vector of test_hash_while_reading), and
 * refused over a limit as an open would be.
 */
static void test_kept(void **state)
{
	static const char abc_sha[] =
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
	struct infile f;
	char buf[2], hex[HASH_HEX_LEN + 1];
	size_t got;
	int64_t size = 0;
	(void)state;
	assert_int_equal(infile_open_kept(&f, "abc", 3, abc_sha, "abc.txt", 16), 0);
	assert_int_equal(f.fd, -1);
	assert_int_equal(infile_read(&f, buf, 2, &got), 0);
	assert_int_equal(got, 2);
	assert_memory_equal(buf, "ab", 2);
	assert_int_equal(infile_read(&f, buf, 2, &got), 0);
	assert_int_equal(got, 1);
	assert_int_equal(buf[0], 'c');
	assert_int_equal(infile_read(&f, buf, 2, &got), 0);
	assert_int_equal(got, 0);
	assert_int_equal(infile_end(&f, hex, &size), 0);
	assert_string_equal(hex, abc_sha);
	assert_int_equal(size, 3);
	infile_close(&f);
	assert_int_equal(infile_open_kept(&f, "abc", 3, abc_sha, "abc.txt", 2), ERR_DATA);
	assert_string_equal(err_msg(), "abc.txt: larger than 2 bytes (the limit for this file): "
				       "not read");
	assert_int_equal(f.fd, -1);
	infile_close(&f);
}

/*
 * infile_open_below keeps a file's folder open for the next file in it:
 * a folder swapped for a link after it was opened is still the folder
 * opened (its files are the ones already checked), and is walked again,
 * and refused, once another folder was opened between. The inside check
 * is made on the folder, and on a file directly in the root.
 */
static void test_open_below(void **state)
{
	struct infile_dirs dirs;
	struct infile f;
	(void)state;
	assert_int_equal(mkdir(at("b"), 0700), 0);
	assert_int_equal(mkdir(at("b/runs"), 0700), 0);
	assert_int_equal(mkdir(at("b/other"), 0700), 0);
	put("b/runs/a.txt", "a\n");
	put("b/runs/b.txt", "b\n");
	put("b/other/x.txt", "x\n");
	infile_dirs_init(&dirs, root_fd, tmpdir);
	assert_int_equal(infile_open_below(&f, &dirs, "b/runs/a.txt", "a", 0), 0);
	infile_close(&f);
	assert_string_equal(dirs.folder, "b/runs");
	assert_int_equal(rename(at("b/runs"), at("b/moved")), 0);
	assert_int_equal(symlink("moved", at("b/runs")), 0);
	assert_int_equal(infile_open_below(&f, &dirs, "b/runs/b.txt", "b", 0), 0);
	infile_close(&f);
	assert_int_equal(infile_open_below(&f, &dirs, "b/other/x.txt", "x", 0), 0);
	infile_close(&f);
	assert_string_equal(dirs.folder, "b/other");
	assert_int_equal(infile_open_below(&f, &dirs, "b/runs/a.txt", "runs/a.txt", 0), ERR_DATA);
	expect_msg_contains("'runs' is a symbolic link: not followed");
	assert_null(dirs.folder);
	/* a '..' below a cached folder is refused as anywhere */
	assert_int_equal(infile_open_below(&f, &dirs, "b/other/x.txt", "x", 0), 0);
	infile_close(&f);
	assert_int_equal(infile_open_below(&f, &dirs, "b/other/..", "dots", 0), ERR_DATA);
	expect_msg_contains("'..' component");
	infile_dirs_release(&dirs);
	/* the root's real path: checked on the folder and on a file directly in the root */
	put("top.txt", "t\n");
	infile_dirs_init(&dirs, root_fd, "/nonexistent-root");
	assert_int_equal(infile_open_below(&f, &dirs, "b/other/x.txt", "x", 0), ERR_DATA);
	expect_msg_contains("is outside the corpus folder '/nonexistent-root'");
	assert_int_equal(infile_open_below(&f, &dirs, "top.txt", "top", 0), ERR_DATA);
	expect_msg_contains("is outside the corpus folder '/nonexistent-root'");
	infile_dirs_release(&dirs);
}

/* Appended to between the open and the end: refused, though every byte was read. */
static void test_changed_while_read(void **state)
{
	struct infile f;
	char hex[HASH_HEX_LEN + 1];
	(void)state;
	put("rows.tsv", "1\t2\n3\t4\n");
	assert_int_equal(infile_open(&f, at("rows.tsv"), "rows.tsv", 0), 0);
	put_mode("rows.tsv", "5\t6\n", "ab");
	assert_int_equal(infile_end(&f, hex, NULL), ERR_DATA);
	assert_string_equal(err_msg(), "'rows.tsv' changed while it was read (8 bytes at the open, "
				       "12 read, 12 now): nothing stored");
	infile_close(&f);
}

/* Rewritten between two opens (same size, other bytes): infile_same says so. */
static void test_same_identity(void **state)
{
	struct infile f;
	struct infile_id first;
	struct timespec pause = {0, 20 * 1000 * 1000};
	(void)state;
	put("gen.json", "{\"a\": 1}\n");
	assert_int_equal(infile_open_in(&f, root_fd, tmpdir, "gen.json", "gen.json", 0), 0);
	first = f.id;
	infile_close(&f);
	assert_int_equal(infile_open_in(&f, root_fd, tmpdir, "gen.json", "gen.json", 0), 0);
	assert_int_equal(infile_same(&f, &first), 0);
	infile_close(&f);
	nanosleep(&pause, NULL);
	put("gen.json", "{\"a\": 2}\n");
	assert_int_equal(infile_open_in(&f, root_fd, tmpdir, "gen.json", "gen.json", 0), 0);
	assert_int_equal(infile_same(&f, &first), ERR_DATA);
	assert_string_equal(err_msg(), "'gen.json' changed during the import (its size, times or "
				       "inode differ from when it was hashed): nothing stored");
	infile_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_while_reading),
		cmocka_unit_test(test_real_corpus_file),
		cmocka_unit_test(test_fifo_refused),
		cmocka_unit_test(test_devices_and_folders_refused),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_limit_while_reading),
		cmocka_unit_test(test_links_and_dots_refused_in_corpus),
		cmocka_unit_test(test_opendir_in),
		cmocka_unit_test(test_changed_while_read),
		cmocka_unit_test(test_same_identity),
		cmocka_unit_test(test_kept),
		cmocka_unit_test(test_open_below),
	};
	return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
