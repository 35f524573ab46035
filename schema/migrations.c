/*
 * migrations: the schema, one forward step per version.
 *
 * To change the schema, append a step; never edit a released one (a user's
 * database already ran it). Each step runs inside the transaction that
 * db_open() holds, followed by PRAGMA user_version = N. Document every
 * table, view and column in schema/README.md in the same commit.
 */
#include "db.h"

#include <stddef.h>

/* run_values as steps 6 and 8 create it (`run_ref`: its run_id's foreign-key clause) */
#define RUN_VALUES_TABLE(name, run_ref)                                                            \
	"CREATE TABLE " name " (\n"                                                                \
	"  run_id  INTEGER NOT NULL" run_ref ",\n"                                                 \
	"  name_id INTEGER NOT NULL,\n"                                                            \
	"  col     INTEGER,\n"                                                                     \
	"  value   ANY,\n"                                                                         \
	"  num     REAL,\n"                                                                        \
	"  PRIMARY KEY (run_id, name_id)\n"                                                        \
	") STRICT, WITHOUT ROWID;\n"

/* trace_samples after its trace_id column: version 1's, and version 9's rebuilt table */
#define TRACE_SAMPLE_COLUMNS                                                                       \
	"  row_no       INTEGER NOT NULL,\n" \
	"  epoch        REAL NOT NULL,\n" \
	"  app_rss_kb   INTEGER,\n" \
	"  mem_avail_kb INTEGER,\n" \
	"  conn         INTEGER,\n" \
	"  cpu_total_j  INTEGER,\n" \
	"  cpu_idle_j   INTEGER,\n" \
	"  app_j        INTEGER,\n" \
	"  threads      INTEGER,\n" \
	"  pg_rss_kb    INTEGER,\n" \
	"  pg_nproc     INTEGER,\n" \
	"  pg_backends  INTEGER,\n" \
	"  pg_j         INTEGER,\n" \
	"  xact_commit  INTEGER,\n" \
	"  wal_records  INTEGER,\n" \
	"  PRIMARY KEY (trace_id, row_no)\n" \
	") STRICT, WITHOUT ROWID;\n"

/* a run attribute's columns after file_id: version 1's run_attrs, version 10's attr_rows */
#define ATTR_ROW_TAIL                                                                              \
	"  line    INTEGER,\n" \
	"  col     INTEGER,\n" \
	"  value   TEXT,\n" \
	"  num     REAL,\n" \
	"  PRIMARY KEY (run_id, source, name)\n" \
	") STRICT, WITHOUT ROWID;\n"

static const char *const steps[] = {
	/* version 1: corpora, files, runs and everything read from them */
	"CREATE TABLE corpora (\n"
	"  corpus_id    INTEGER PRIMARY KEY,\n"
	"  name         TEXT NOT NULL UNIQUE,\n"
	"  source_path  TEXT NOT NULL,\n"
	"  content_hash TEXT NOT NULL,\n"
	"  imported_at  TEXT NOT NULL,\n"
	"  layout       TEXT NOT NULL,\n"
	"  manifest     TEXT NOT NULL,\n"
	"  options      TEXT NOT NULL\n"
	") STRICT;\n"
	"CREATE TABLE files (\n"
	"  file_id   INTEGER PRIMARY KEY,\n"
	"  corpus_id INTEGER NOT NULL REFERENCES corpora(corpus_id) ON DELETE CASCADE,\n"
	"  path      TEXT NOT NULL,\n"
	"  size      INTEGER NOT NULL,\n"
	"  sha256    TEXT NOT NULL,\n"
	"  kind      TEXT NOT NULL,\n"
	"  rows      INTEGER,\n"
	"  UNIQUE (corpus_id, path)\n"
	") STRICT;\n"
	"CREATE TABLE runs (\n"
	"  run_id        INTEGER PRIMARY KEY,\n"
	"  corpus_id     INTEGER NOT NULL REFERENCES corpora(corpus_id) ON DELETE CASCADE,\n"
	"  subcorpus     TEXT NOT NULL DEFAULT '',\n"
	"  tag           TEXT NOT NULL,\n"
	"  seq           INTEGER NOT NULL,\n"
	"  listed        INTEGER NOT NULL CHECK (listed IN (0, 1)),\n"
	"  results_file_id INTEGER REFERENCES files(file_id),\n"
	"  results_line  INTEGER,\n"
	"  tput          REAL,\n"
	"  gomaxprocs    INTEGER,\n"
	"  sessions      INTEGER,\n"
	"  established   INTEGER,\n"
	"  block         TEXT,\n"
	"  rep           INTEGER,\n"
	"  target        TEXT,\n"
	"  cfg           TEXT,\n"
	"  store         TEXT,\n"
	"  gogc          TEXT,\n"
	"  variant       TEXT,\n"
	"  p50_ms        REAL,\n"
	"  p95_ms        REAL,\n"
	"  p99_ms        REAL,\n"
	"  max_ms        REAL,\n"
	"  err           REAL,\n"
	"  patch_rate    REAL,\n"
	"  valid         INTEGER CHECK (valid IN (0, 1)),\n"
	"  gen_cpu_pct   REAL,\n"
	"  gen_saturated INTEGER CHECK (gen_saturated IN (0, 1)),\n"
	"  app_cores     REAL,\n"
	"  idle_rss_kb   REAL,\n"
	"  load_rss_kb   REAL,\n"
	"  interactions  INTEGER,\n"
	"  cpu_s         REAL,\n"
	"  started_at    TEXT,\n"
	"  duration_s    REAL,\n"
	"  UNIQUE (corpus_id, subcorpus, tag)\n"
	") STRICT;\n"
	"CREATE TABLE run_attrs (\n"
	"  run_id  INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,\n"
	"  source  TEXT NOT NULL,\n"
	"  name    TEXT NOT NULL,\n"
	"  file_id INTEGER REFERENCES files(file_id),\n"
	ATTR_ROW_TAIL
	"CREATE INDEX run_attrs_by_name ON run_attrs(name, run_id);\n"
	"CREATE TABLE idle_banners (\n"
	"  run_id  INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,\n"
	"  key     TEXT NOT NULL,\n"
	"  file_id INTEGER NOT NULL REFERENCES files(file_id),\n"
	"  status  TEXT NOT NULL,\n"
	"  value   TEXT NOT NULL,\n"
	"  num     REAL,\n"
	"  PRIMARY KEY (run_id, key)\n"
	") STRICT, WITHOUT ROWID;\n"
	"CREATE TABLE generator_records (\n"
	"  run_id   INTEGER PRIMARY KEY REFERENCES runs(run_id) ON DELETE CASCADE,\n"
	"  file_id  INTEGER NOT NULL REFERENCES files(file_id),\n"
	"  json     TEXT NOT NULL,\n"
	"  label                TEXT,\n"
	"  sessions_requested   INTEGER,\n"
	"  sessions_established INTEGER,\n"
	"  duration             TEXT,\n"
	"  interactions_counted INTEGER,\n"
	"  interactions_per_sec REAL,\n"
	"  p50_ms               REAL,\n"
	"  p95_ms               REAL,\n"
	"  p99_ms               REAL,\n"
	"  max_ms               REAL,\n"
	"  error_rate           REAL,\n"
	"  patch_rate           REAL,\n"
	"  generator_cpu_percent_of_machine REAL,\n"
	"  generator_possibly_saturated     INTEGER,\n"
	"  valid                INTEGER,\n"
	"  host                 TEXT,\n"
	"  started_at           TEXT\n"
	") STRICT;\n"
	"CREATE TABLE traces (\n"
	"  trace_id  INTEGER PRIMARY KEY,\n"
	"  run_id    INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,\n"
	"  kind      TEXT NOT NULL,\n"
	"  file_id   INTEGER NOT NULL REFERENCES files(file_id),\n"
	"  columns   TEXT NOT NULL,\n"
	"  rows      INTEGER NOT NULL,\n"
	"  backsteps INTEGER NOT NULL DEFAULT 0,\n"
	"  UNIQUE (run_id, kind)\n"
	") STRICT;\n"
	"CREATE TABLE trace_samples (\n"
	"  trace_id     INTEGER NOT NULL REFERENCES traces(trace_id) ON DELETE CASCADE,\n"
	TRACE_SAMPLE_COLUMNS
	"CREATE TABLE trace_extra (\n"
	"  trace_id INTEGER NOT NULL REFERENCES traces(trace_id) ON DELETE CASCADE,\n"
	"  row_no   INTEGER NOT NULL,\n"
	"  name     TEXT NOT NULL,\n"
	"  value    REAL,\n"
	"  PRIMARY KEY (trace_id, row_no, name)\n"
	") STRICT, WITHOUT ROWID;\n"
	"CREATE TABLE rejections (\n"
	"  run_id  INTEGER PRIMARY KEY REFERENCES runs(run_id) ON DELETE CASCADE,\n"
	"  file_id INTEGER NOT NULL REFERENCES files(file_id),\n"
	"  reason  TEXT NOT NULL\n"
	") STRICT;\n"
	"CREATE TABLE missing_files (\n"
	"  run_id        INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,\n"
	"  kind          TEXT NOT NULL,\n"
	"  expected_path TEXT NOT NULL,\n"
	"  PRIMARY KEY (run_id, kind)\n"
	") STRICT, WITHOUT ROWID;\n"
	"CREATE TABLE exclusions (\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,\n"
	"  reason TEXT NOT NULL,\n"
	"  detail TEXT NOT NULL,\n"
	"  PRIMARY KEY (run_id, reason)\n"
	") STRICT, WITHOUT ROWID;\n"
	"CREATE VIEW runs_v AS\n"
	"  SELECT r.*, c.name AS corpus,\n"
	"         EXISTS (SELECT 1 FROM exclusions e WHERE e.run_id = r.run_id) AS excluded,\n"
	"         (SELECT group_concat(e.reason || ': ' || e.detail, '; ')\n"
	"            FROM exclusions e WHERE e.run_id = r.run_id) AS exclusion_reasons\n"
	"    FROM runs r JOIN corpora c USING (corpus_id);\n"
	"CREATE VIEW run_fields AS\n"
	"  SELECT run_id, source, name, value, num FROM run_attrs\n"
	"  UNION ALL\n"
	"  SELECT run_id, 'idle', key, value, num FROM idle_banners;\n"
	"CREATE VIEW trace_rows AS\n"
	"  SELECT c.name AS corpus, r.subcorpus, r.tag, t.kind, s.*\n"
	"    FROM trace_samples s JOIN traces t USING (trace_id)\n"
	"    JOIN runs r USING (run_id) JOIN corpora c USING (corpus_id);\n",

	/* version 2: analyses list runs in results-table order without a sort */
	"CREATE INDEX runs_in_order ON runs(corpus_id, subcorpus, seq);\n",

	/* version 3: CPU topologies of the hosts runs ran on */
	"CREATE TABLE hosts (\n"
	"  host_id          INTEGER PRIMARY KEY,\n"
	"  name             TEXT NOT NULL UNIQUE,\n"
	"  source           TEXT NOT NULL,\n"
	"  logical_cpus     INTEGER NOT NULL,\n"
	"  physical_cores   INTEGER NOT NULL,\n"
	"  sockets          INTEGER,\n"
	"  threads_per_core INTEGER NOT NULL,\n"
	"  recorded_at      TEXT NOT NULL\n"
	") STRICT;\n"
	"CREATE TABLE host_cpus (\n"
	"  host_id INTEGER NOT NULL REFERENCES hosts(host_id) ON DELETE CASCADE,\n"
	"  cpu     INTEGER NOT NULL,\n"
	"  core    INTEGER NOT NULL,\n"
	"  socket  INTEGER,\n"
	"  node    INTEGER,\n"
	"  PRIMARY KEY (host_id, cpu)\n"
	") STRICT, WITHOUT ROWID;\n"
	"CREATE VIEW host_cores AS\n"
	"  SELECT h.name AS host, c.socket, c.core, count(*) AS threads,\n"
	"         group_concat(c.cpu, ',') AS cpus\n"
	"    FROM host_cpus c JOIN hosts h USING (host_id)\n"
	"   GROUP BY c.host_id, c.socket, c.core;\n",

	/* version 4: instance catalogs for sizing */
	"CREATE TABLE catalogs (\n"
	"  catalog_id  INTEGER PRIMARY KEY,\n"
	"  name        TEXT NOT NULL UNIQUE,\n"
	"  source_path TEXT NOT NULL,\n"
	"  sha256      TEXT NOT NULL,\n"
	"  loaded_at   TEXT NOT NULL\n"
	") STRICT;\n"
	"CREATE TABLE instances (\n"
	"  catalog_id              INTEGER NOT NULL REFERENCES catalogs(catalog_id)\n"
	"                            ON DELETE CASCADE,\n"
	"  instance                TEXT NOT NULL,\n"
	"  provider                TEXT NOT NULL,\n"
	"  series                  TEXT NOT NULL,\n"
	"  vcpus                   INTEGER NOT NULL CHECK (vcpus >= 1),\n"
	"  threads_per_core        INTEGER NOT NULL CHECK (threads_per_core IN (1, 2)),\n"
	"  sustained_vcpu_fraction REAL NOT NULL\n"
	"    CHECK (sustained_vcpu_fraction > 0 AND sustained_vcpu_fraction <= 1),\n"
	"  memory_gib              REAL NOT NULL,\n"
	"  cpu_family              TEXT NOT NULL,\n"
	"  price_per_hour          REAL NOT NULL,\n"
	"  price_region            TEXT NOT NULL,\n"
	"  price_source            TEXT NOT NULL,\n"
	"  price_date              TEXT NOT NULL,\n"
	"  physical_cores          REAL NOT NULL,\n"
	"  sustained_cores         REAL NOT NULL,\n"
	"  line                    INTEGER NOT NULL,\n"
	"  UNIQUE (catalog_id, instance)\n"
	") STRICT;\n",

	/* version 5: field sources: which source a plain field name reads, where each
	 * canonical field of a run came from */
	"CREATE TABLE field_prefs (\n"
	"  corpus_id INTEGER NOT NULL REFERENCES corpora(corpus_id) ON DELETE CASCADE,\n"
	"  subcorpus TEXT NOT NULL,\n"
	"  name      TEXT NOT NULL,\n"
	"  source    TEXT NOT NULL,\n"
	"  PRIMARY KEY (corpus_id, subcorpus, name)\n"
	") STRICT, WITHOUT ROWID;\n"
	"CREATE TABLE field_origins (\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,\n"
	"  field  TEXT NOT NULL,\n"
	"  source TEXT NOT NULL,\n"
	"  name   TEXT NOT NULL,\n"
	"  PRIMARY KEY (run_id, field)\n"
	") STRICT, WITHOUT ROWID;\n",

	/*
	 * version 6: runs of tool outputs stored compactly (a tool file of 200,000
	 * results holds them in a few columns): the values runs share (a Go
	 * configuration line, a benchmark's name, a command) once per attribute
	 * set, each run's own values with interned names. run_attrs and
	 * field_origins become views over the old tables and the new ones, so
	 * every reader sees every value as before. A set attribute with line NULL
	 * is on each run's own line (a benchmark's name on its result line); one
	 * with a line was set there (a configuration line) or is the file's
	 * (line 0: a constant). runs.attr_set and
	 * run_values.name_id carry no foreign-key clause: checking one would scan
	 * the runs (or run_values) for every set (or name) deleted; the importer
	 * keeps them consistent (attr_sets cascade with their corpus).
	 */
	"DROP VIEW run_fields;\n"
	"ALTER TABLE run_attrs RENAME TO attr_rows;\n"
	"DROP INDEX run_attrs_by_name;\n"
	"CREATE INDEX attr_rows_by_name ON attr_rows(name, run_id);\n"
	"ALTER TABLE field_origins RENAME TO origin_rows;\n"
	"CREATE TABLE attr_names (\n"
	"  name_id INTEGER PRIMARY KEY,\n"
	"  source  TEXT NOT NULL,\n"
	"  name    TEXT NOT NULL,\n"
	"  UNIQUE (source, name)\n"
	") STRICT;\n"
	"CREATE INDEX attr_names_by_name ON attr_names(name);\n"
	"CREATE TABLE attr_sets (\n"
	"  set_id    INTEGER PRIMARY KEY,\n"
	"  corpus_id INTEGER NOT NULL REFERENCES corpora(corpus_id) ON DELETE CASCADE\n"
	") STRICT;\n"
	"CREATE INDEX attr_sets_by_corpus ON attr_sets(corpus_id);\n"
	"CREATE TABLE set_attrs (\n"
	"  set_id  INTEGER NOT NULL REFERENCES attr_sets(set_id) ON DELETE CASCADE,\n"
	"  name_id INTEGER NOT NULL,\n"
	"  file_id INTEGER,\n"
	"  line    INTEGER,\n"
	"  col     INTEGER,\n"
	"  value   TEXT,\n"
	"  num     REAL,\n"
	"  PRIMARY KEY (set_id, name_id)\n"
	") STRICT, WITHOUT ROWID;\n"
	"CREATE TABLE set_origins (\n"
	"  set_id INTEGER NOT NULL REFERENCES attr_sets(set_id) ON DELETE CASCADE,\n"
	"  field  TEXT NOT NULL,\n"
	"  source TEXT NOT NULL,\n"
	"  name   TEXT NOT NULL,\n"
	"  PRIMARY KEY (set_id, field)\n"
	") STRICT, WITHOUT ROWID;\n"
	"ALTER TABLE runs ADD COLUMN attr_set INTEGER;\n"
	RUN_VALUES_TABLE("run_values", " REFERENCES runs(run_id) ON DELETE CASCADE")
	"CREATE VIEW run_attrs AS\n"
	"  SELECT run_id, source, name, file_id, line, col, value, num FROM attr_rows\n"
	"  UNION ALL\n"
	"  SELECT v.run_id, n.source, n.name, r.results_file_id, r.results_line, v.col,\n"
	"         CAST(v.value AS TEXT),\n"
	"         CASE WHEN v.num IS NOT NULL THEN v.num\n"
	"              WHEN typeof(v.value) = 'integer' THEN CAST(v.value AS REAL) END\n"
	"    FROM run_values v JOIN attr_names n ON n.name_id = v.name_id\n"
	"    JOIN runs r ON r.run_id = v.run_id\n"
	"  UNION ALL\n"
	"  SELECT r.run_id, n.source, n.name,\n"
	"         CASE WHEN s.line IS NULL THEN r.results_file_id ELSE s.file_id END,\n"
	"         coalesce(s.line, r.results_line), s.col, s.value, s.num\n"
	"    FROM runs r JOIN set_attrs s ON s.set_id = r.attr_set\n"
	"    JOIN attr_names n ON n.name_id = s.name_id;\n"
	"CREATE VIEW run_fields AS\n"
	"  SELECT run_id, source, name, value, num FROM run_attrs\n"
	"  UNION ALL\n"
	"  SELECT run_id, 'idle', key, value, num FROM idle_banners;\n"
	"CREATE VIEW field_origins AS\n"
	"  SELECT run_id, field, source, name FROM origin_rows\n"
	"  UNION ALL\n"
	"  SELECT r.run_id, o.field, o.source, o.name\n"
	"    FROM runs r JOIN set_origins o ON o.set_id = r.attr_set\n"
	"   WHERE NOT EXISTS (SELECT 1 FROM origin_rows x\n"
	"                      WHERE x.run_id = r.run_id AND x.field = o.field);\n"
	/* a row written to a view goes to the table of its own kind, as before */
	"CREATE TRIGGER run_attrs_insert INSTEAD OF INSERT ON run_attrs BEGIN\n"
	"  INSERT INTO attr_rows (run_id, source, name, file_id, line, col, value, num)\n"
	"  VALUES (NEW.run_id, NEW.source, NEW.name, NEW.file_id, NEW.line, NEW.col,\n"
	"          NEW.value, NEW.num);\n"
	"END;\n"
	"CREATE TRIGGER run_attrs_update INSTEAD OF UPDATE ON run_attrs BEGIN\n"
	"  UPDATE attr_rows SET run_id = NEW.run_id, source = NEW.source, name = NEW.name,\n"
	"         file_id = NEW.file_id, line = NEW.line, col = NEW.col, value = NEW.value,\n"
	"         num = NEW.num\n"
	"   WHERE run_id = OLD.run_id AND source = OLD.source AND name = OLD.name;\n"
	"END;\n"
	"CREATE TRIGGER run_attrs_delete INSTEAD OF DELETE ON run_attrs BEGIN\n"
	"  DELETE FROM attr_rows\n"
	"   WHERE run_id = OLD.run_id AND source = OLD.source AND name = OLD.name;\n"
	"END;\n"
	"CREATE TRIGGER field_origins_insert INSTEAD OF INSERT ON field_origins BEGIN\n"
	"  INSERT INTO origin_rows (run_id, field, source, name)\n"
	"  VALUES (NEW.run_id, NEW.field, NEW.source, NEW.name);\n"
	"END;\n",

	/* version 7: the CPU platforms of each catalog instance's family (sizing) */
	"ALTER TABLE instances ADD COLUMN cpu_platforms TEXT NOT NULL DEFAULT '';\n",

	/*
	 * version 8: run_values without a foreign-key clause, deleted with their
	 * run by a trigger instead. Checking the clause looked the run up again
	 * for every value stored (five per Google Benchmark row: a fifth of a
	 * tool import's database work); the importer writes a run's values just
	 * after the run, and the trigger removes them with it as the cascade did
	 * (also when a corpus is deleted: cascades fire triggers). The table is
	 * rebuilt (SQLite cannot drop a clause); legacy_alter_table keeps the
	 * rename from checking the views that name the old table meanwhile.
	 */
	RUN_VALUES_TABLE("run_values_v8", "")
	"INSERT INTO run_values_v8 (run_id, name_id, col, value, num)\n"
	"  SELECT run_id, name_id, col, value, num FROM run_values;\n"
	"PRAGMA legacy_alter_table = ON;\n"
	"DROP TABLE run_values;\n"
	"ALTER TABLE run_values_v8 RENAME TO run_values;\n"
	"PRAGMA legacy_alter_table = OFF;\n"
	"CREATE TRIGGER run_values_with_run AFTER DELETE ON runs BEGIN\n"
	"  DELETE FROM run_values WHERE run_id = OLD.run_id;\n"
	"END;\n",

	/*
	 * version 9: trace_samples without a foreign-key clause, deleted with
	 * their trace by a trigger instead, as run_values in version 8: the
	 * clause looked the trace up again for every sample stored (4.6M of the
	 * 35M instructions SQLite spends storing the GOMAXPROCS corpus's 3,963
	 * samples); the importer writes a trace's samples just after the trace.
	 */
	"CREATE TABLE trace_samples_v9 (\n"
	"  trace_id     INTEGER NOT NULL,\n"
	TRACE_SAMPLE_COLUMNS
	"INSERT INTO trace_samples_v9 SELECT * FROM trace_samples;\n"
	"PRAGMA legacy_alter_table = ON;\n"
	"DROP TABLE trace_samples;\n"
	"ALTER TABLE trace_samples_v9 RENAME TO trace_samples;\n"
	"PRAGMA legacy_alter_table = OFF;\n"
	"CREATE TRIGGER trace_samples_with_trace AFTER DELETE ON traces BEGIN\n"
	"  DELETE FROM trace_samples WHERE trace_id = OLD.trace_id;\n"
	"END;\n",

	/*
	 * version 10: a run's attributes, idle banner keys and field origins
	 * without foreign-key clauses, deleted with their run by one trigger,
	 * as run_values (8) and trace_samples (9). The clauses looked the run
	 * (and the file) up again for every row stored: 3.6M of the 21.6M
	 * instructions SQLite spends storing the GOMAXPROCS corpus's 1,641
	 * attributes. Deleting a file no longer scans attr_rows for rows naming
	 * it (no index on file_id): files go only with their corpus, and its
	 * runs with it.
	 */
	"CREATE TABLE attr_rows_v10 (\n"
	"  run_id  INTEGER NOT NULL,\n"
	"  source  TEXT NOT NULL,\n"
	"  name    TEXT NOT NULL,\n"
	"  file_id INTEGER,\n"
	ATTR_ROW_TAIL
	"INSERT INTO attr_rows_v10 SELECT run_id, source, name, file_id, line, col, value, num\n"
	"  FROM attr_rows;\n"
	"CREATE TABLE idle_banners_v10 (\n"
	"  run_id  INTEGER NOT NULL,\n"
	"  key     TEXT NOT NULL,\n"
	"  file_id INTEGER NOT NULL,\n"
	"  status  TEXT NOT NULL,\n"
	"  value   TEXT NOT NULL,\n"
	"  num     REAL,\n"
	"  PRIMARY KEY (run_id, key)\n"
	") STRICT, WITHOUT ROWID;\n"
	"INSERT INTO idle_banners_v10 SELECT run_id, key, file_id, status, value, num\n"
	"  FROM idle_banners;\n"
	"CREATE TABLE origin_rows_v10 (\n"
	"  run_id INTEGER NOT NULL,\n"
	"  field  TEXT NOT NULL,\n"
	"  source TEXT NOT NULL,\n"
	"  name   TEXT NOT NULL,\n"
	"  PRIMARY KEY (run_id, field)\n"
	") STRICT, WITHOUT ROWID;\n"
	"INSERT INTO origin_rows_v10 SELECT run_id, field, source, name FROM origin_rows;\n"
	"PRAGMA legacy_alter_table = ON;\n"
	"DROP TABLE attr_rows;\n"
	"DROP TABLE idle_banners;\n"
	"DROP TABLE origin_rows;\n"
	"ALTER TABLE attr_rows_v10 RENAME TO attr_rows;\n"
	"ALTER TABLE idle_banners_v10 RENAME TO idle_banners;\n"
	"ALTER TABLE origin_rows_v10 RENAME TO origin_rows;\n"
	"PRAGMA legacy_alter_table = OFF;\n"
	"CREATE INDEX attr_rows_by_name ON attr_rows(name, run_id);\n"
	"CREATE TRIGGER run_rows_with_run AFTER DELETE ON runs BEGIN\n"
	"  DELETE FROM attr_rows WHERE run_id = OLD.run_id;\n"
	"  DELETE FROM idle_banners WHERE run_id = OLD.run_id;\n"
	"  DELETE FROM origin_rows WHERE run_id = OLD.run_id;\n"
	"END;\n",
};

int schema_latest_version(void)
{
	return (int)(sizeof(steps) / sizeof(steps[0]));
}

const char *schema_migration_sql(int version)
{
	if (version < 1 || version > schema_latest_version())
		return NULL;
	return steps[version - 1];
}
