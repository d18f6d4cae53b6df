/* config.c - the configuration's defaults. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/options.h"
#include "record/fields.h"

/* A default its own option refuses is a bug the unit tests catch. */
void config_defaults(struct ws_config *cfg)
{
	struct cli rows = { .default_of = ws_field_default };
	char why[CLI_WHY_LEN];

	rows.opts = config_options(&rows.nopts);
	memset(cfg, 0, sizeof(*cfg));
	if (cli_defaults(&rows, cfg, why)) {
		fprintf(stderr, "writestress: internal error: %s\n", why);
		abort();
	}
}
