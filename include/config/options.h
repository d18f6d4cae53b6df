/* options.h - the run's options as the command line reads them into a
 * struct ws_config: the settings table's rows that have an option (or
 * head a group of them), in --help's order (record/fields.h), with what
 * only the configuration knows attached by name: how a value no type
 * describes is read (every CLI_CUSTOM row's parse) and where a value
 * that is not a setting goes (a wiring row's offset in struct ws_config).
 *
 * The run's command line (cli/opts.c) is these rows; matrix takes the
 * run's options it passes on to its children from here, so it refuses
 * what the run refuses, in the same words.  The rows are built once, on
 * first use, and constant afterwards: any thread may read them.
 */
#ifndef WS_OPTIONS_H
#define WS_OPTIONS_H

#include <stddef.h>

#include "lib/cli.h"

/* Every row, n of them. */
const struct cli_option *config_options(size_t *n);

/* The row of option NAME (no dashes: "stall"), or NULL. */
const struct cli_option *config_option(const char *name);

#endif
