/* array.h - room for one more element of a growable array; the caller
 * owns it (free()).  Not thread-safe.
 */
#ifndef WS_ARRAY_H
#define WS_ARRAY_H

#include <stddef.h>

#include "lib/c.h"

/* Room for element n; the capacity doubles (from 16).  0, or -ENOMEM
 * (also on overflow) with *v and *cap untouched. */
WS_MUST_CHECK int array_grow(void **v, size_t n, size_t *cap, size_t size);

#endif
