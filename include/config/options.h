/* options.h - the run's options: the settings table's rows (fields.h) with
 * what only the configuration knows attached, each CLI_CUSTOM row's parse
 * and each wiring row's offset in struct ws_config.  The run and matrix
 * read them, so both refuse alike.  Built on first use, then constant.
 */
#ifndef WS_OPTIONS_H
#define WS_OPTIONS_H

#include <stddef.h>

#include "lib/cli.h"

const struct cli_option *config_options(size_t *n);

/* NAME without dashes, or NULL. */
const struct cli_option *config_option(const char *name);

#endif
