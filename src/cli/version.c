/* version.c - --version (version.h).  The commit and the libraries'
 * versions are make's: WS_BUILD_* of the build's gen/build_info.h, which
 * make includes on this file's command line (scripts/build-info.sh
 * writes it when they change); SQLite and json-c also say which library
 * they run with. */
#include <stdio.h>

#include <json-c/json.h>
#include <sqlite3.h>

#include "version.h"

void version_print(FILE *out)
{
	fprintf(out, "writestress %s\n", WS_VERSION);
	fprintf(out, "commit: %s\n", WS_BUILD_COMMIT);
	/* all three are built in: the build needs their libraries */
	fprintf(out, "features: io_uring sqlite tracing\n");
	fprintf(out, "libraries: liburing %s, SQLite %s, libtracefs %s, libtraceevent %s, json-c %s\n",
		WS_BUILD_URING, sqlite3_libversion(), WS_BUILD_TRACEFS,
		WS_BUILD_TRACEEVENT, json_c_version());
}
