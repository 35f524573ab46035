/* cmd_catalog: `coreplan catalog`, store instance catalogs in the database and list them. */
#include "cmd.h"
#include "common.h"
#include "datadir.h"
#include "opt.h"

#include "../analysis/catalogs.h"
#include "../common/err.h"
#include "../importers/catalog.h"
#include "../reports/builders.h"

static struct catalog_request req;

static const struct opt_spec specs[] = {
	CLI_SPECS_OUTPUT,
	OPT_STRING("name", "NAME", &req.name,
		   "store the one FILE under NAME (default: its base name without extension)",
		   .nonempty = true, .noun = "a name"),
	OPT_MODE("show", &req.action, CATALOG_SHOW,
		 "only list the stored instances (view instances)"),
	OPT_MODE("families", &req.action, CATALOG_FAMILIES,
		 "only list the CPU families and series with their instances (view families)"),
	OPT_END,
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

static int check(struct cli_args *a)
{
	static const char *const shown[] = {[CATALOG_STORE] = "catalogs",
					    [CATALOG_SHOW] = "instances",
					    [CATALOG_FAMILIES] = "families"};
	if (req.action != CATALOG_STORE && a->noperands > 0)
		return err_usage("--%s only reads: no FILE (got '%s')",
				 req.action == CATALOG_SHOW ? "show" : "families", a->operands[0]);
	if (req.name && a->noperands != 1)
		return err_usage("--name names one FILE (got %zu)", a->noperands);
	req.files = a->operands;
	req.nfiles = a->noperands;
	if (req.action != CATALOG_STORE)
		a->db_mode = CLI_DB_READ;
	if (!a->view && a->format != DOC_JSON)
		a->view = shown[req.action];
	return 0;
}

CLI_ANALYSIS_RUN(run, req, struct catalog_result, catalog_run, build_catalog,
		 catalog_result_release)

static void defaults(void)
{
	req.action = CATALOG_STORE;
	req.shipped_dir = cli_catalog_dir();
	req.reader = catalog_read;
}

const struct cli_def cli_catalog = {
	.cmd = {"catalog", "[FILE...]", details, specs, build_catalog_views},
	.db = CLI_DB_WRITE,
	CLI_REQUEST(req),
	.defaults = defaults,
	.check = check,
	.run = run};
