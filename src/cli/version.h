/* version.h - `writestress --version`: version, commit, libraries. */
#ifndef WS_VERSION_H
#define WS_VERSION_H

#include <stdio.h>

void version_print(FILE *out);

#endif
