/* array.c - growable arrays (see array.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/array.h"

#define ARRAY_FIRST 16

int array_grow(void **v, size_t n, size_t *cap, size_t size)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? 2 * *cap : ARRAY_FIRST;
	if (ncap < *cap || !size || ncap > SIZE_MAX / size)
		return -ENOMEM;
	p = realloc(*v, ncap * size);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = ncap;
	return 0;
}
