/* corpus_detect: what a path is: a manifest, a profile, a tool's output or a table (corpus_int.h).
 */
#include "corpus_int.h"

#include "../common/err.h"
#include "../common/hash.h"
#include "../common/infile.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "../schema/catalog.h"
#include "../schema/db.h"
#include "../schema/fields.h"
#include "../schema/topology.h"
#include "manifest.h"
#include "mapping.h"
#include "profiles.h"
#include "runfiles.h"
#include "table.h"
#include "tools.h"
#include "topology.h"
#include "trace.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- tool outputs (tools.h) ---- */

/*
 * What a file of the folder is, from its structure (tools.h,
 * tool_classify: read as far as that takes, never parsed from these
 * bytes: the file is hashed and read again to be imported).
 */
static int classify(struct importer *im, const char *relative, struct tool_class *out)
{
	struct infile in;
	struct tool_src src;
	int rc = infile_open_in(&in, im->root_fd, im->root, relative, relative, INFILE_NO_LIMIT);
	memset(out, 0, sizeof(*out));
	if (rc)
		return rc;
	rc = tool_src_file(&src, &in, relative);
	if (rc == 0)
		rc = tool_classify(&src, out);
	tool_src_close(&src);
	infile_close(&in);
	return rc;
}

/* The format a file is read as: the one named, else the one detected (else NULL, *class says). */
static int file_format(struct importer *im, const char *relative, const struct tool_format **out,
		       struct tool_class *class)
{
	int rc;
	*out = NULL;
	memset(class, 0, sizeof(*class));
	if (im->opts->format) {
		*out = tool_find(im->opts->format);
		return *out ? 0
			    : err_usage("unknown format '%s' (one of %s)", im->opts->format,
					tool_names());
	}
	rc = classify(im, relative, class);
	if (rc == 0 && class->kind == TOOL_KIND_TOOL)
		*out = class->format;
	return rc;
}

/* A name the generated manifest can hold verbatim (no spaces, braces or '#'). */
static bool plain_file_name(const char *name)
{
	if (!*name || *name == '.' || strlen(name) > 200)
		return false;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._+-", *p))
			return false;
	return true;
}

/* One [table] per file, all in subcorpus "", tags FILE:ROW. */
static int tool_manifest(struct importer *im, const struct tool_format *fmt, char **names, size_t n)
{
	struct strbuf text = STRBUF_INIT;
	int rc;
	strbuf_addf(&text, "# %s output, one run per result\nlayout = %s\n", fmt->name, fmt->name);
	for (size_t i = 0; i < n; i++) {
		if (!plain_file_name(names[i])) {
			strbuf_release(&text);
			return err_set(
				"cannot import '%s' as %s output: its name may hold only "
				"letters, digits and . _ + - (rename it, or write a manifest)",
				names[i], fmt->name);
		}
		if (i == 0)
			strbuf_adds(&text, "\n[table main]\n");
		else
			strbuf_addf(&text, "\n[table file%zu]\nsubcorpus =\n", i + 1);
		strbuf_addf(&text, "file = %s\nformat = %s\ntag = %s:{row}\n", names[i], fmt->name,
			    names[i]);
	}
	im->manifest_origin = strdup("generated manifest");
	rc = im->manifest_origin
		     ? manifest_parse(strbuf_str(&text), "generated manifest", &im->manifest)
		     : err_set("out of memory");
	strbuf_release(&text);
	return rc;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * A folder without manifest: when every file at its top (dot files aside)
 * is of one tool format (named, or detected), the tool manifest; else 0
 * with *done false and *why saying what did not fit.
 */
static int tool_folder(struct importer *im, bool *done, char *why, size_t whylen)
{
	const struct tool_format *first = NULL;
	char **names = NULL;
	size_t n = 0;
	/* its own description: a dup would share the offset the walk reads from */
	int fd = openat(im->root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	int rc = 0;
	*done = false;
	snprintf(why, whylen, "no files");
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return err_set("cannot open folder '%s': %s", im->root, strerror(errno));
	}
	while (rc == 0 && (e = readdir(dir)) != NULL) {
		struct stat st;
		char **grown;
		if (e->d_name[0] == '.')
			continue;
		if (fstatat(im->root_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    S_ISLNK(st.st_mode))
			continue; /* the walk warns about links */
		if (!S_ISREG(st.st_mode)) {
			snprintf(why, whylen, "'%s' is not a file", e->d_name);
			goto out;
		}
		grown = realloc(names, (n + 1) * sizeof(*names));
		if (!grown || !(grown[n] = strdup(e->d_name))) {
			names = grown ? grown : names;
			rc = err_set("out of memory");
			break;
		}
		names = grown;
		n++;
	}
	if (rc || n == 0)
		goto out;
	qsort(names, n, sizeof(*names), compare_names);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const struct tool_format *fmt;
		struct tool_class class;
		rc = file_format(im, names[i], &fmt, &class);
		if (rc)
			goto out;
		if (!fmt)
			snprintf(why, whylen, "'%.100s' is not a tool's output: %.300s", names[i],
				 class.kind == TOOL_KIND_TABLE ? "it is a headed table"
							       : class.why);
		else if (first && fmt != first)
			snprintf(why, whylen, "'%.100s' is %s, '%.100s' %s", names[i], fmt->what,
				 names[0], first->what);
		if (!fmt || (first && fmt != first))
			goto out;
		first = fmt;
	}
	rc = tool_manifest(im, first, names, n);
	*done = rc == 0;
out:
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(dir);
	return rc;
}

/* A single TSV/CSV table is a corpus: one run per row. */
static int single_table_manifest(struct importer *im, struct manifest **out)
{
	static const char *const tag_columns[] = {"tag", "run", "label", "name", NULL};
	struct table t = {0};
	struct strbuf text = STRBUF_INIT;
	const char *tag = "row{row}";
	const struct tool_format *fmt;
	struct tool_class class;
	struct infile in;
	int rc = file_format(im, im->single, &fmt, &class);
	if (rc == 0 && fmt)
		return tool_manifest(im, fmt, &im->single, 1);
	if (rc)
		return rc;
	if (class.kind != TOOL_KIND_TABLE)
		return err_set(
			"cannot import '%s': %s (coreplan reads %s, a headed TSV or CSV "
			"table with one row per run, or a corpus folder; import --format NAME "
			"names a tool format)",
			im->single, class.why, tool_names());
	rc = im_open_early(im, im->single, im->single, INFILE_TABLE_MAX, &in);
	if (rc == 0)
		rc = im_end_early(im, &in, table_read_infile(&in, im->single, TABLE_SNIFF, &t));
	for (size_t i = 0; rc == 0 && tag_columns[i]; i++)
		if (table_col(&t, tag_columns[i]) >= 0) {
			tag = tag_columns[i];
			break;
		}
	if (rc == 0) {
		strbuf_addf(&text,
			    "# a single headed table: one run per row\nlayout = table\n"
			    "\n[table main]\nfile = %s\n",
			    im->single);
		if (strcmp(tag, "row{row}"))
			strbuf_addf(&text, "tag = {%s}\n", tag);
		else
			strbuf_addf(&text, "tag = %s\n", tag);
		rc = manifest_parse(strbuf_str(&text), "generated manifest", out);
	}
	table_release(&t);
	strbuf_release(&text);
	return rc;
}

int im_choose_manifest(struct importer *im, const char *path, bool is_dir)
{
	struct strbuf own = STRBUF_INIT;
	const char *why = NULL;
	const char *profile;
	struct stat st;
	if (im->opts->format && im->opts->manifest_path)
		return err_usage("--format reads files without a manifest: the manifest says "
				 "`format = NAME` in its [table] instead");
	if (im->opts->manifest_path) {
		im->manifest_origin = strdup(im->opts->manifest_path);
		return manifest_read_file(im->opts->manifest_path, &im->manifest);
	}
	if (!is_dir) {
		int rc = single_table_manifest(im, &im->manifest);
		if (rc == 0 && !im->manifest_origin)
			im->manifest_origin = strdup("generated manifest");
		return rc;
	}
	/* the folder's own manifest: a link or a FIFO of that name is refused, never read */
	if (fstatat(im->root_fd, "coreplan.manifest", &st, AT_SYMLINK_NOFOLLOW) == 0) {
		struct infile in;
		int rc;
		if (im->opts->format)
			return err_usage("--format reads files without a manifest, but '%s' has "
					 "coreplan.manifest (say `format = NAME` in it)",
					 path);
		strbuf_addf(&own, "%s/coreplan.manifest", path);
		im->manifest_origin = strbuf_detach(&own);
		if (!im->manifest_origin)
			return err_set("out of memory");
		rc = im_open_early(im, "coreplan.manifest", im->manifest_origin, MANIFEST_MAX_BYTES,
				   &in);
		if (rc == 0)
			rc = im_end_early(
				im, &in,
				manifest_read_infile(&in, im->manifest_origin, &im->manifest));
		return rc;
	}
	profile = im->opts->format ? NULL : profile_detect(im->root, &why);
	if (!profile) {
		char tool_why[512];
		bool done;
		int rc = tool_folder(im, &done, tool_why, sizeof(tool_why));
		if (rc || done)
			return rc;
		if (im->opts->format)
			return err_set("cannot import '%s' as %s output: %s", path,
				       im->opts->format, tool_why);
		return err_set("cannot import '%s': %s; nor is it a folder of one tool's outputs "
			       "(%s; formats: %s)",
			       path, why, tool_why, tool_names());
	}
	im->manifest_origin = strdup(profile);
	return manifest_parse(profile_text(profile), profile, &im->manifest);
}
