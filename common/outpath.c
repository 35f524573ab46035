/* outpath: see outpath.h. */
#include "outpath.h"

#include "err.h"
#include "outfile.h"
#include "strbuf.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* realpath of path, or NULL with errno (ENOENT: it does not exist). */
static char *resolved(const char *path)
{
	return realpath(*path ? path : ".", NULL);
}

int outpath_absolute(const char *path, char **abs)
{
	char *head = strdup(path), *real = NULL;
	struct strbuf rest = STRBUF_INIT, out = STRBUF_INIT;
	int rc = 0;
	*abs = NULL;
	if (!head)
		return err_set("out of memory");
	/* drop trailing names until what is left exists; they are appended again */
	while (rc == 0 && !(real = resolved(head))) {
		char *slash = strrchr(head, '/');
		struct strbuf tail = STRBUF_INIT;
		if (errno != ENOENT && errno != ENOTDIR) {
			rc = err_set("cannot resolve '%s': %s", path, strerror(errno));
			break;
		}
		if (strbuf_addf(&tail, "/%s%s", slash ? slash + 1 : head, strbuf_str(&rest)))
			rc = err_set("out of memory");
		strbuf_release(&rest);
		rest = tail;
		if (slash == head)
			head[1] = '\0'; /* "/x": its parent is "/" */
		else if (slash)
			*slash = '\0';
		else
			head[0] = '\0'; /* "x": its parent is the current folder */
	}
	if (rc == 0 && strbuf_addf(&out, "%s%s", strcmp(real, "/") ? real : "",
				   strbuf_str(&rest)))
		rc = err_set("out of memory");
	if (rc == 0)
		*abs = strbuf_detach(&out);
	strbuf_release(&out);
	strbuf_release(&rest);
	free(real);
	free(head);
	return rc;
}

bool outpath_within(const char *abs_path, const char *abs_root)
{
	size_t n = strlen(abs_root);
	while (n > 1 && abs_root[n - 1] == '/')
		n--;
	if (strncmp(abs_path, abs_root, n) != 0)
		return false;
	return abs_path[n] == '\0' || abs_path[n] == '/' || (n == 1 && abs_root[0] == '/');
}

int outpath_refuse_nested(const char *abs_path, const char *display)
{
	char *path = strdup(abs_path), *slash;
	int rc = path ? 0 : err_set("out of memory");
	/* each ancestor A with the name C below it on the way to abs_path */
	while (rc == 0 && (slash = strrchr(path, '/')) != NULL) {
		const char *child = slash + 1, *parent = slash == path ? "/" : path;
		char *writer = NULL;
		bool listed = false;
		*slash = '\0';
		if (*child)
			rc = outdir_lists(parent, child, &listed, &writer);
		if (rc == 0 && listed)
			rc = err_set("cannot write into '%s': it is inside '%s%s%s', which 'coreplan "
				     "%s' wrote (the next one into '%s' replaces it): choose a folder "
				     "outside it",
				     display, path, "/", child,
				     strcmp(writer, "-") ? writer : "report", parent);
		free(writer);
		if (slash == path)
			break;
	}
	free(path);
	return rc;
}
