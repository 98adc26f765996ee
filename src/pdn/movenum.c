/* Move numbers as PDN writes them. */
#include <stdio.h>
#include <string.h>
#include "pdn/movenum.h"
#include "rules/pos.h"

int movenum_token(int number, int stm, bool first, char *buf, size_t size)
{
	return movenum_token_as(number, stm == PK_BLACK, first, buf, size);
}

int movenum_token_as(int number, bool opens, bool first, char *buf, size_t size)
{
	if (opens)
		return snprintf(buf, size, "%d.", number);
	if (first)
		return snprintf(buf, size, "%d...", number);
	if (size)
		buf[0] = 0;
	return 0;
}

size_t movenum_line(const char *moves, int number, int stm, char sep, char *buf, size_t size)
{
	return movenum_line_as(moves, number, stm == PK_BLACK, sep, buf, size);
}

size_t movenum_line_as(const char *moves, int number, bool opens, char sep, char *buf, size_t size)
{
	size_t k = 0;
	if (!size)
		return 0;
	buf[0] = 0;
	bool first = true;
	for (const char *p = moves; *p;) {
		const char *sp = strchr(p, ' ');
		int n = sp ? (int)(sp - p) : (int)strlen(p);
		char num[24], group[128];
		movenum_token_as(number, opens, first, num, sizeof num);
		/* separator, number, separator, move: all of it or nothing (no move cut) */
		int g = snprintf(group, sizeof group, "%s%s%s%.*s", first ? "" : (char[]){ sep, 0 }, num,
				 num[0] ? (char[]){ sep, 0 } : "", n, p);
		if (g < 0 || (size_t)g >= sizeof group || k + (size_t)g + 1 > size)
			break;
		memcpy(buf + k, group, (size_t)g + 1);
		k += (size_t)g;
		if (!opens)
			number++;
		opens = !opens;
		first = false;
		p += n;
		while (*p == ' ')
			p++;
	}
	return k;
}
