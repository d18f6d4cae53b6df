/* version.h - what `writestress --version` says: the version, the git
 * commit it was built from, and the features and libraries built in.
 * Main thread. */
#ifndef WS_VERSION_H
#define WS_VERSION_H

#include <stdio.h>

void version_print(FILE *out);

#endif
