/* array.h - growable arrays: the one way an array of unknown length makes
 * room for one more element (the read-back's pass runs, compare's rows
 * and differences, report's rows and groups).
 *
 *	if (array_grow((void **)&rows, nrows, &cap, sizeof(*rows)))
 *		return -ENOMEM;
 *	rows[nrows++] = row;
 *
 * Not thread-safe; the array is the caller's (free() it).
 */
#ifndef WS_ARRAY_H
#define WS_ARRAY_H

#include <stddef.h>

#include "lib/c.h"

/* Room for element n of *v, which holds n elements of size bytes in *cap
 * allocated: the capacity doubles when full (from 16).  0, or -ENOMEM
 * with *v and *cap as they were (also when the size would overflow). */
WS_MUST_CHECK int array_grow(void **v, size_t n, size_t *cap, size_t size);

#endif
