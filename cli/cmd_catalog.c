/* cmd_catalog: `coreplan catalog`, store instance catalogs in the database and list them. */
#include "cmd.h"
#include "common.h"
#include "datadir.h"
#include "opt.h"

#include "../analysis/catalogs.h"
#include "../importers/catalog.h"
#include "../common/err.h"
#include "../reports/builders.h"

#include <string.h>


enum { OPT_NAME = CLI_OUTPUT_COUNT, OPT_SHOW, OPT_FAMILIES };

static const struct opt_spec specs[] = {
	CLI_SPECS_OUTPUT,
	[OPT_NAME] = {"name", 0, "NAME",
		      "store the one FILE under NAME (default: its base name without extension)",
		      false},
	[OPT_SHOW] = {"show", 0, NULL, "only list the stored instances (view instances)", false},
	[OPT_FAMILIES] = {"families", 0, NULL,
			  "only list the CPU families and series with their instances (view "
			  "families)",
			  false},
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"With FILEs, store each catalog (format: importers/catalog.h, e.g.\n"
	"fixtures/catalogs/gce.tsv) in the database, in one transaction: a catalog\n"
	"of the same name is replaced, a bad file stores nothing, and an instance\n"
	"type already listed by another catalog is refused (each FILE a regular file of\n"
	"at most 256 MiB). Without FILEs, store\n"
	"the shipped catalogs when the database holds none. The tables are\n"
	"catalogs and instances (schema/README.md); `coreplan size` sizes on them\n"
	"unless it is given --catalog FILE. Markdown shows the section of what was\n"
	"asked (catalogs; --show: instances; --families: families) unless --view\n"
	"names one; json has every section.\n"
	"\n"
	"examples:\n"
	"  coreplan catalog\n"
	"  coreplan catalog --name gce prices/gce-2027.tsv\n"
	"  coreplan catalog --families\n";

static const char *const views[] = {"catalogs", "instances", "families", NULL};

static int option(void *request, int which, const char *value)
{
	struct catalog_request *req = request;
	switch (which) {
	case OPT_NAME:
		if (!*value)
			return err_usage("--name needs a name");
		req->name = value;
		return 0;
	case OPT_SHOW:
		if (req->action == CATALOG_FAMILIES)
			return err_usage("give --show or --families, not both");
		req->action = CATALOG_SHOW;
		return 0;
	case OPT_FAMILIES:
		if (req->action == CATALOG_SHOW)
			return err_usage("give --show or --families, not both");
		req->action = CATALOG_FAMILIES;
		return 0;
	}
	return 0;
}

static int check(void *request, struct cli_args *a)
{
	static const char *const shown[] = {[CATALOG_STORE] = "catalogs",
					    [CATALOG_SHOW] = "instances",
					    [CATALOG_FAMILIES] = "families"};
	struct catalog_request *req = request;
	if (req->action != CATALOG_STORE && a->noperands > 0)
		return err_usage("--%s only reads: no FILE (got '%s')",
				 req->action == CATALOG_SHOW ? "show" : "families", a->operands[0]);
	if (req->name && a->noperands != 1)
		return err_usage("--name names one FILE (got %zu)", a->noperands);
	req->files = a->operands;
	req->nfiles = a->noperands;
	if (req->action != CATALOG_STORE)
		a->db_mode = CLI_DB_READ;
	if (!a->view && a->format != DOC_JSON)
		a->view = shown[req->action];
	return 0;
}

static int run(sqlite3 *db, void *request, struct cli_args *a, struct doc **out)
{
	struct catalog_request *req = request;
	struct catalog_result res;
	int rc = catalog_run(db, req, &res);
	(void)a;
	if (rc == 0)
		rc = build_catalog(req, &res, out);
	catalog_result_release(&res);
	return rc;
}

int cmd_catalog(int argc, char **argv, const struct global_opts *g)
{
	static const struct cli_def def = {
		{"catalog", "[FILE...]", details, specs, views}, CLI_DB_WRITE, option, check, run};
	struct catalog_request req;
	memset(&req, 0, sizeof(req));
	req.action = CATALOG_STORE;
	req.shipped_dir = cli_catalog_dir();
	req.reader = catalog_read;
	return cli_run(&def, &req, argc, argv, g);
}
