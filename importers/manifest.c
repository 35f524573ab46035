/* manifest: see manifest.h. */
#include "manifest.h"
#include "tools.h"

#include "../common/err.h"
#include "../common/infile.h"
#include "../common/strbuf.h"
#include "../common/strvec.h"
#include "../schema/fields.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Split on spaces and tabs (or on `sep` when not 0), appended to the list. */
static int split_words(const char *value, char sep, char ***list, size_t *count)
{
	struct strvec words = {*list, *count, *count}; /* adopted: see strvec.h */
	int n = strvec_split(&words, value, sep == '|' ? "|" : " \t");
	*list = words.v;
	*count = words.n;
	return n < 0 ? err_set("out of memory") : 0;
}

static int set_string(char **slot, const char *value)
{
	free(*slot);
	*slot = strdup(value);
	return *slot ? 0 : err_set("out of memory");
}

static int parse_bool(const char *value, bool *out)
{
	if (!strcmp(value, "yes") || !strcmp(value, "true") || !strcmp(value, "1"))
		*out = true;
	else if (!strcmp(value, "no") || !strcmp(value, "false") || !strcmp(value, "0"))
		*out = false;
	else
		return -1;
	return 0;
}

static const char *const override_sources[] = {"results", "join", "generator", "idle",
					       "acct",    "tag",  "set",       NULL};

static int add_override(struct manifest_table *t, const char *field, const char *value)
{
	const char *colon = strchr(value, ':');
	struct manifest_override *grown;
	bool known = false;
	if (!colon || colon == value || !colon[1])
		return -1;
	for (size_t i = 0; override_sources[i]; i++)
		if (strlen(override_sources[i]) == (size_t)(colon - value) &&
		    !strncmp(override_sources[i], value, (size_t)(colon - value)))
			known = true;
	if (!known)
		return -1;
	grown = realloc(t->overrides, (t->noverrides + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	t->overrides = grown;
	grown[t->noverrides].field = strdup(field);
	grown[t->noverrides].source = strndup(value, (size_t)(colon - value));
	grown[t->noverrides].name = strdup(colon + 1);
	t->noverrides++;
	return 0;
}

/*
 * prefer.NAME = SOURCE: NAME is not a canonical field (those take
 * field.NAME = source:name), SOURCE one of the sources. A later line for
 * the same NAME replaces an earlier one. -1: bad value, -3: canonical.
 */
static int add_prefer(struct manifest_table *t, const char *name, const char *source)
{
	struct manifest_kv *grown;
	bool known = false;
	for (size_t i = 0; override_sources[i]; i++)
		known |= !strcmp(override_sources[i], source);
	if (!known || strchr(name, '@'))
		return -1;
	if (field_find(name))
		return -3;
	for (size_t i = 0; i < t->nprefer; i++)
		if (!strcmp(t->prefer[i].key, name))
			return set_string(&t->prefer[i].value, source) ? -1 : 0;
	grown = realloc(t->prefer, (t->nprefer + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	t->prefer = grown;
	grown[t->nprefer].key = strdup(name);
	grown[t->nprefer].value = strdup(source);
	t->nprefer++;
	return grown[t->nprefer - 1].key && grown[t->nprefer - 1].value ? 0 : -1;
}

static int add_set(struct manifest_table *t, const char *value)
{
	char **words = NULL;
	size_t nwords = 0;
	int rc = split_words(value, 0, &words, &nwords);
	for (size_t i = 0; rc == 0 && i < nwords; i++) {
		char *eq = strchr(words[i], '=');
		struct manifest_kv *grown;
		if (!eq || eq == words[i]) {
			rc = -1;
			break;
		}
		grown = realloc(t->set, (t->nset + 1) * sizeof(*grown));
		if (!grown) {
			rc = -1;
			break;
		}
		t->set = grown;
		grown[t->nset].key = strndup(words[i], (size_t)(eq - words[i]));
		grown[t->nset].value = strdup(eq + 1);
		t->nset++;
	}
	for (size_t i = 0; i < nwords; i++)
		free(words[i]);
	free(words);
	return rc;
}

/* One `key = value` line inside a [table] section. */
static int table_key(struct manifest_table *t, const char *key, const char *value)
{
	struct {
		const char *key;
		char **slot;
	} strings[] = {
		{"file", &t->file},           {"format", &t->format},
		{"subcorpus", &t->subcorpus}, {"tag", &t->tag},
		{"run-dir", &t->run_dir},     {"discover", &t->discover},
		{"generator", &t->generator}, {"idle", &t->idle},
		{"acct", &t->acct},           {"trace", &t->trace},
		{"window", &t->window},       {"rejected", &t->rejected},
		{"topology", &t->topology},
	};
	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
		if (!strcmp(key, strings[i].key))
			return set_string(strings[i].slot, value) ? -1 : 0;
	if (!strcmp(key, "tag-parse"))
		return split_words(value, '|', &t->tag_parse, &t->ntag_parse) ? -1 : 0;
	if (!strcmp(key, "trace-columns"))
		return split_words(value, 0, &t->trace_columns, &t->ntrace_columns) ? -1 : 0;
	if (!strcmp(key, "text"))
		return split_words(value, 0, &t->text, &t->ntext) ? -1 : 0;
	if (!strcmp(key, "require-trace"))
		return parse_bool(value, &t->require_trace);
	if (!strcmp(key, "set"))
		return add_set(t, value);
	if (!strcmp(key, "join")) {
		char **words = NULL;
		size_t nwords = 0;
		int rc = split_words(value, 0, &words, &nwords);
		if (rc == 0 && nwords == 2) {
			/* a later join line replaces an earlier one */
			free(t->join_file);
			free(t->join_key);
			t->join_file = words[0];
			t->join_key = words[1];
			free(words);
			return 0;
		}
		for (size_t i = 0; i < nwords; i++)
			free(words[i]);
		free(words);
		return -1;
	}
	if (!strncmp(key, "field.", 6) && key[6])
		return add_override(t, key + 6, value);
	if (!strncmp(key, "prefer.", 7) && key[7])
		return add_prefer(t, key + 7, value);
	return -2;
}

static int new_table(struct manifest *m, const char *section)
{
	struct manifest_table *grown = realloc(m->tables, (m->ntables + 1) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	m->tables = grown;
	memset(&grown[m->ntables], 0, sizeof(grown[0]));
	grown[m->ntables].section = strdup(section);
	m->ntables++;
	return 0;
}

static int check_table(const struct manifest_table *t, const char *origin)
{
	if (!t->file)
		return err_at(origin, 0, 0, "[table %s] has no 'file ='", t->section);
	if (!t->tag)
		return err_at(origin, 0, 0, "[table %s] has no 'tag ='", t->section);
	if (t->format && !tool_find(t->format))
		return err_at(origin, 0, 0, "[table %s]: unknown format '%s' (one of %s)",
			      t->section, t->format, tool_names());
	if ((t->trace || t->window) && t->ntrace_columns == 0)
		return err_at(origin, 0, 0, "[table %s] names a trace but no 'trace-columns ='",
			      t->section);
	if (t->ntrace_columns) {
		bool has_epoch = false;
		for (size_t i = 0; i < t->ntrace_columns; i++)
			has_epoch |= !strcmp(t->trace_columns[i], "epoch");
		if (!has_epoch)
			return err_at(origin, 0, 0,
				      "[table %s] trace-columns must name an 'epoch' column",
				      t->section);
	}
	return 0;
}

/* Keys whose values are paths or patterns inside the corpus folder. */
static const char *const path_keys[] = {"file", "run-dir", "discover", "generator", "idle",
					"acct", "trace",   "window",   "rejected",  "topology",
					"join", "text",    NULL};

/* Does one path word leave the folder: absolute, or a '..' component? */
static bool leaves_folder(const char *word, size_t n)
{
	if (n > 0 && word[0] == '/')
		return true;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && word[j] != '/')
			j++;
		if (j - i == 2 && word[i] == '.' && word[i + 1] == '.')
			return true;
		i = j + 1;
	}
	return false;
}

/* 0, or the error naming the key and value of a path that leaves the folder. */
static int check_confined(const char *key, const char *value, const char *origin, long line_no,
			  long col)
{
	bool listed = false;
	const char *p = value;
	for (size_t i = 0; path_keys[i]; i++)
		listed |= !strcmp(key, path_keys[i]);
	if (!listed)
		return 0;
	while (*p) {
		size_t n;
		while (*p == ' ' || *p == '\t')
			p++;
		n = strcspn(p, " \t");
		if (n && leaves_folder(p, n))
			return err_at(origin, line_no, col,
				      "'%s = %s' leaves the corpus folder (an absolute path or a "
				      "'..' component): paths and patterns are confined to the "
				      "corpus folder",
				      key, value);
		p += n;
		if (!strcmp(key, "join"))
			break; /* the second word is a column */
	}
	return 0;
}

static int parse_line(struct manifest *m, char *line, long line_no, const char *origin, int *where)
{
	enum { TOP, TABLE, FILES };
	char *s = str_trim(line);
	char *eq, *key, *value;
	int rc;
	if (*s == '\0' || *s == '#')
		return 0;
	if (*s == '[') {
		char *close = strchr(s, ']');
		if (!close || close[1])
			return err_at(origin, line_no, 1, "malformed section header '%s'", s);
		*close = '\0';
		s = str_trim(s + 1);
		if (!strncmp(s, "table", 5) && (s[5] == ' ' || s[5] == '\t')) {
			char *name = str_trim(s + 5);
			for (size_t i = 0; i < m->ntables; i++)
				if (!strcmp(m->tables[i].section, name))
					return err_at(origin, line_no, 1,
						      "duplicate section [table %s]", name);
			if ((rc = new_table(m, name)) != 0)
				return rc;
			*where = TABLE;
		} else if (!strcmp(s, "files")) {
			*where = FILES;
		} else {
			return err_at(origin, line_no, 1,
				      "unknown section [%s] (expected [table NAME] or [files])", s);
		}
		return 0;
	}
	eq = strchr(s, '=');
	if (!eq)
		return err_at(origin, line_no, 1, "expected 'key = value', got '%s'", s);
	*eq = '\0';
	key = str_trim(s);
	value = str_trim(eq + 1);
	if (*where == TOP) {
		if (strcmp(key, "layout"))
			return err_at(origin, line_no, 1, "unknown key '%s' before any section",
				      key);
		return set_string(&m->layout, value);
	}
	if (*where == FILES) {
		if (strcmp(key, "text"))
			return err_at(origin, line_no, 1, "unknown key '%s' in [files]", key);
		rc = check_confined(key, value, origin, line_no, (long)(value - s) + 1);
		return rc ? rc : split_words(value, 0, &m->corpus_text, &m->ncorpus_text);
	}
	rc = check_confined(key, value, origin, line_no, (long)(value - s) + 1);
	if (rc)
		return rc;
	rc = table_key(&m->tables[m->ntables - 1], key, value);
	if (rc == -2)
		return err_at(origin, line_no, 1, "unknown key '%s' in [table %s]", key,
			      m->tables[m->ntables - 1].section);
	if (rc == -3)
		return err_at(origin, line_no, 1,
			      "'%s' is a canonical field: its source is chosen with 'field.%s = "
			      "SOURCE:NAME', not prefer",
			      key + 7, key + 7);
	if (rc && !strncmp(key, "prefer.", 7))
		return err_at(origin, line_no, (long)(value - s) + 1,
			      "bad value for '%s': '%s' (prefer.NAME = SOURCE, one of results, "
			      "join, generator, idle, acct, tag, set)",
			      key, value);
	if (rc)
		return err_at(origin, line_no, (long)(value - s) + 1, "bad value for '%s': '%s'",
			      key, value);
	return 0;
}

static int parse_lines(struct manifest *m, char *text, const char *origin)
{
	int where = 0;
	long line_no = 0;
	char *line = text;
	while (line && *line) {
		char *newline = strchr(line, '\n');
		int rc;
		if (newline)
			*newline = '\0';
		line_no++;
		rc = parse_line(m, line, line_no, origin, &where);
		if (rc)
			return rc;
		line = newline ? newline + 1 : NULL;
	}
	return 0;
}

int manifest_parse(const char *text, const char *origin, struct manifest **out)
{
	struct manifest *m = calloc(1, sizeof(*m));
	struct strbuf lines = STRBUF_INIT;
	int rc;
	*out = NULL;
	if (!m)
		return err_set("out of memory");
	m->text = strdup(text);
	if (!m->text) {
		manifest_free(m);
		return err_set("out of memory");
	}
	if (strbuf_adds(&lines, text)) {
		manifest_free(m);
		return err_set("out of memory");
	}
	rc = parse_lines(m, lines.buf ? lines.buf : (char *)"", origin);
	strbuf_release(&lines);
	if (rc == 0 && m->ntables == 0)
		rc = err_at(origin, 0, 0, "no [table NAME] section");
	for (size_t i = 0; rc == 0 && i < m->ntables; i++)
		rc = check_table(&m->tables[i], origin);
	if (rc == 0 && !m->layout)
		rc = set_string(&m->layout, "manifest");
	if (rc) {
		manifest_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

int manifest_read_infile(struct infile *in, const char *origin, struct manifest **out)
{
	char *text = NULL;
	size_t len = 0;
	int rc = infile_slurp(in, &text, &len);
	*out = NULL;
	if (rc == 0 && memchr(text, '\0', len))
		rc = err_at(origin, 0, 0, "NUL byte: not a text manifest");
	if (rc == 0)
		rc = manifest_parse(text, origin, out);
	free(text);
	return rc;
}

int manifest_read_file(const char *path, struct manifest **out)
{
	struct infile in;
	int rc = infile_open(&in, path, path, MANIFEST_MAX_BYTES);
	*out = NULL;
	if (rc == 0)
		rc = manifest_read_infile(&in, path, out);
	if (rc == 0)
		rc = infile_end(&in, NULL, NULL);
	if (rc) {
		manifest_free(*out);
		*out = NULL;
	}
	infile_close(&in);
	return rc;
}

static void free_list(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

static void table_release(struct manifest_table *t)
{
	char *strings[] = {t->section,   t->file,     t->subcorpus, t->tag,
			   t->run_dir,   t->discover, t->join_file, t->join_key,
			   t->generator, t->idle,     t->acct,      t->trace,
			   t->window,    t->rejected, t->topology,  t->format};
	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
		free(strings[i]);
	free_list(t->tag_parse, t->ntag_parse);
	free_list(t->trace_columns, t->ntrace_columns);
	free_list(t->text, t->ntext);
	for (size_t i = 0; i < t->nset; i++) {
		free(t->set[i].key);
		free(t->set[i].value);
	}
	free(t->set);
	for (size_t i = 0; i < t->noverrides; i++) {
		free(t->overrides[i].field);
		free(t->overrides[i].source);
		free(t->overrides[i].name);
	}
	free(t->overrides);
	for (size_t i = 0; i < t->nprefer; i++) {
		free(t->prefer[i].key);
		free(t->prefer[i].value);
	}
	free(t->prefer);
}

void manifest_free(struct manifest *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->ntables; i++)
		table_release(&m->tables[i]);
	free(m->tables);
	free_list(m->corpus_text, m->ncorpus_text);
	free(m->layout);
	free(m->text);
	free(m);
}

int manifest_expand(const char *template_text, manifest_lookup_fn lookup, void *arg, char **out)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = template_text;
	*out = NULL;
	while (*p) {
		const char *open = strchr(p, '{');
		const char *close;
		char name[128];
		const char *value;
		if (!open) {
			strbuf_adds(&sb, p);
			break;
		}
		strbuf_add(&sb, p, (size_t)(open - p));
		close = strchr(open, '}');
		if (!close || (size_t)(close - open - 1) >= sizeof(name) || close == open + 1) {
			strbuf_release(&sb);
			return err_set("malformed template '%s'", template_text);
		}
		memcpy(name, open + 1, (size_t)(close - open - 1));
		name[close - open - 1] = '\0';
		value = lookup(name, arg);
		if (!value) {
			strbuf_release(&sb);
			return err_set("template '%s' names '{%s}', which this run does not have",
				       template_text, name);
		}
		strbuf_adds(&sb, value);
		p = close + 1;
	}
	*out = strbuf_detach(&sb);
	return *out ? 0 : err_set("out of memory");
}

void manifest_free_captures(char **names, char **values, size_t count)
{
	free_list(names, count);
	free_list(values, count);
}

/* Recursive matcher: shortest capture first, backtracking on failure. */
static int match_at(const char *pat, const char *text, char **names, char **values, size_t *n,
		    size_t cap, long *budget)
{
	/* a hostile tag must not make the backtracking exponential */
	if (--*budget < 0)
		return 0;
	if (*pat == '\0')
		return *text == '\0';
	if (*pat == '{') {
		const char *close = strchr(pat, '}');
		size_t len = strlen(text);
		if (!close || *n >= cap)
			return 0;
		for (size_t take = 1; take <= len; take++) {
			size_t slot = *n;
			names[slot] = strndup(pat + 1, (size_t)(close - pat - 1));
			values[slot] = strndup(text, take);
			(*n)++;
			if (match_at(close + 1, text + take, names, values, n, cap, budget))
				return 1;
			(*n)--;
			free(names[slot]);
			free(values[slot]);
		}
		return 0;
	}
	if (*pat != *text)
		return 0;
	return match_at(pat + 1, text + 1, names, values, n, cap, budget);
}

int manifest_match(const char *pattern, const char *text, char ***names_out, char ***values_out,
		   size_t *count)
{
	size_t cap = 0;
	size_t n = 0;
	long budget = 100000;
	char **names, **values;
	for (const char *p = pattern; *p; p++)
		cap += *p == '{';
	names = calloc(cap + 1, sizeof(*names));
	values = calloc(cap + 1, sizeof(*values));
	*names_out = *values_out = NULL;
	*count = 0;
	if (!names || !values) {
		free(names);
		free(values);
		return 0;
	}
	if (strlen(text) > 4096 || !match_at(pattern, text, names, values, &n, cap, &budget)) {
		manifest_free_captures(names, values, n);
		return 0;
	}
	*names_out = names;
	*values_out = values;
	*count = n;
	return 1;
}
