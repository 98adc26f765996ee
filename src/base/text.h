/* Small helpers for text held on the heap. */
#ifndef PK_BASE_TEXT_H
#define PK_BASE_TEXT_H

#include <stdlib.h>
#include <string.h>

/* Replaces the text in *slot (heap-allocated or NULL) with a copy of v. Nothing is done
 * when v is NULL or already the text there. 0, or -1 when out of memory (*slot kept). */
static inline int text_replace(char **slot, const char *v)
{
	if (!v || (*slot && !strcmp(*slot, v)))
		return 0;
	char *c = strdup(v);
	if (!c)
		return -1;
	free(*slot);
	*slot = c;
	return 0;
}

#endif
