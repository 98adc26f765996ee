/* The labels file of pdnkit train (engine/learn.h): the positions' search scores kept by
 * position key, written and read back, and the count of positions searched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/learn.h"
#include "engine/learn_int.h"

/* Where key is in the open-addressed table of cap (a power of two) slots, or the empty
 * slot where it would go. */
static size_t find_slot(const uint64_t *keys, const unsigned char *used, size_t cap, uint64_t key)
{
	size_t at = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & (cap - 1);
	while (used[at] && keys[at] != key)
		at = (at + 1) & (cap - 1);
	return at;
}

/* The searched positions' keys, each once (a position met in many games is searched and
 * kept once), into a table of *cap slots: how many, or (size_t)-1 when out of memory. */
static size_t searched_keys(const pk_learn_data *d, uint64_t **keys, unsigned char **used, size_t *cap)
{
	size_t n = 0;
	for (size_t i = 0; i < d->n; i++)
		n += d->v[i].tried != 0;
	size_t c = 16;
	while (c < 2 * n + 16)
		c *= 2;
	*keys = calloc(c, sizeof **keys);
	*used = calloc(c, 1);
	*cap = c;
	if (!*keys || !*used) {
		free(*keys);
		free(*used);
		*keys = NULL;
		*used = NULL;
		return (size_t)-1;
	}
	size_t distinct = 0;
	for (size_t i = 0; i < d->n; i++) {
		if (!d->v[i].tried)
			continue;
		size_t at = find_slot(*keys, *used, c, d->pos[i].key);
		if (!(*used)[at]) {
			(*used)[at] = 1;
			(*keys)[at] = d->pos[i].key;
			distinct++;
		}
	}
	return distinct;
}

size_t learn_searched(const pk_learn_data *d)
{
	uint64_t *keys;
	unsigned char *used;
	size_t cap, n = searched_keys(d, &keys, &used, &cap);
	free(keys);
	free(used);
	if (n == (size_t)-1) {   /* out of memory: the positions, a position met twice twice */
		n = 0;
		for (size_t i = 0; i < d->n; i++)
			n += d->v[i].tried != 0;
	}
	return n + d->nkept;
}

/* A hash of the positions' keys (format 2 of the labels file). */
static uint64_t positions_hash(const pk_learn_data *d)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < d->n; i++)
		h = (h ^ d->pos[i].key) * 1099511628211ull;
	return h;
}

static void put64(unsigned char *b, uint64_t x)
{
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(x >> (8 * i));
}

static uint64_t get64(const unsigned char *b)
{
	uint64_t x = 0;
	for (int i = 0; i < 8; i++)
		x |= (uint64_t)b[i] << (8 * i);
	return x;
}

/* The file (format 3): "pdnkit-labels 3\n", then the settings' key, the number of
 * entries and 0 (64-bit little-endian each), an entry for each position searched (its
 * key, 64 bits, and its score, 16 bits; INT16_MIN: none, a forced position), then a hash
 * of everything after the first line: a damaged file is refused, never trained on.
 * Positions are matched by key, so a file made for some games labels the same positions
 * of a larger collection, and only the others are searched. Format 2 (a score for each
 * position of exactly these games, no keys) is still read. */
static uint64_t bytes_hash(uint64_t h, const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

/* The settings' key without the stride (--label-every): a label is a label whichever
 * positions were chosen. */
#define SETTINGS_NO_STRIDE(s) ((s) & ~(uint64_t)0xFF00)

int learn_labels_save(const pk_learn_data *d, uint64_t settings, FILE *f)
{
	unsigned char h[16 + 24];
	memcpy(h, "pdnkit-labels 3\n", 16);
	uint64_t *keys;
	unsigned char *used;
	size_t cap, distinct = searched_keys(d, &keys, &used, &cap);
	if (distinct == (size_t)-1)
		return -1;
	uint64_t n = distinct + d->nkept;
	put64(h + 16, SETTINGS_NO_STRIDE(settings));
	put64(h + 24, n);
	put64(h + 32, 0);
	uint64_t sum = bytes_hash(14695981039346656037ull, h + 16, 24);
	int rc = fwrite(h, 1, sizeof h, f) == sizeof h ? 0 : -1;
	/* each key once (its slot emptied once written), then the file's others */
	for (size_t i = 0; i < d->n + d->nkept && rc == 0; i++) {
		uint64_t key;
		int16_t score;
		if (i < d->n) {
			if (!d->v[i].tried)
				continue;
			size_t at = find_slot(keys, used, cap, d->pos[i].key);
			if (used[at] != 1)
				continue;
			used[at] = 2;
			key = d->pos[i].key;
			score = d->v[i].score;
		} else {
			key = d->kept_keys[i - d->n];
			score = d->kept_scores[i - d->n];
		}
		unsigned char b[10];
		put64(b, key);
		b[8] = (unsigned char)((uint16_t)score & 0xFF);
		b[9] = (unsigned char)((uint16_t)score >> 8);
		sum = bytes_hash(sum, b, sizeof b);
		if (fwrite(b, 1, sizeof b, f) != sizeof b)
			rc = -1;
	}
	free(keys);
	free(used);
	unsigned char t[8];
	put64(t, sum);
	return rc == 0 && fwrite(t, 1, 8, f) == 8 ? 0 : -1;
}

/* Format 4: a score for each of exactly these positions, in their order, no keys: the
 * header (the settings' key without the stride, the number of positions, the hash of
 * their keys), then 16 bits a position (NOT_SEARCHED for one not searched yet, NO_SCORE
 * for a forced one), then the hash of everything after the first line. Two bytes a
 * position instead of ten, and the scores of a game's positions side by side: what
 * compresses, for labels kept where space counts. */
#define NOT_SEARCHED (INT16_MIN + 1)

int learn_labels_save_ordered(const pk_learn_data *d, uint64_t settings, FILE *f)
{
	unsigned char h[16 + 24];
	memcpy(h, "pdnkit-labels 4\n", 16);
	put64(h + 16, SETTINGS_NO_STRIDE(settings));
	put64(h + 24, d->n);
	put64(h + 32, positions_hash(d));
	uint64_t sum = bytes_hash(14695981039346656037ull, h + 16, 24);
	int rc = fwrite(h, 1, sizeof h, f) == sizeof h ? 0 : -1;
	for (size_t i = 0; i < d->n && rc == 0; i++) {
		int16_t score = d->v[i].tried ? d->v[i].score : NOT_SEARCHED;
		unsigned char b[2] = { (unsigned char)((uint16_t)score & 0xFF), (unsigned char)((uint16_t)score >> 8) };
		sum = bytes_hash(sum, b, 2);
		if (fwrite(b, 1, 2, f) != 2)
			rc = -1;
	}
	unsigned char t[8];
	put64(t, sum);
	return rc == 0 && fwrite(t, 1, 8, f) == 8 ? 0 : -1;
}

/* The n scores of an ordered file (formats 2 and 4) after its header, and the hash that
 * ends it, checked from sum (the hash so far): 0 with *out (malloc'ed), -1 when the file
 * is damaged, cut short or longer than it says, -2 when out of memory. */
static int read_scores(size_t n, uint64_t sum, FILE *f, int16_t **out)
{
	int16_t *scores = malloc(n * sizeof *scores + 1);
	if (!scores)
		return -2;
	for (size_t i = 0; i < n; i++) {
		unsigned char b[2];
		if (fread(b, 1, 2, f) != 2) {
			free(scores);
			return -1;
		}
		sum = bytes_hash(sum, b, 2);
		scores[i] = (int16_t)(uint16_t)(b[0] | b[1] << 8);
	}
	unsigned char t[8];
	if (fread(t, 1, 8, f) != 8 || get64(t) != sum || fgetc(f) != EOF) {
		free(scores);
		return -1;
	}
	*out = scores;
	return 0;
}

static int load_v4(pk_learn_data *d, uint64_t settings, const unsigned char *h, size_t *matched, FILE *f)
{
	if (get64(h + 16) != SETTINGS_NO_STRIDE(settings) || get64(h + 24) != d->n || get64(h + 32) != positions_hash(d))
		return 1;
	int16_t *scores;
	int rc = read_scores(d->n, bytes_hash(14695981039346656037ull, h + 16, 24), f, &scores);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < d->n; i++) {
		if (scores[i] == NOT_SEARCHED)
			continue;
		d->v[i].score = scores[i];
		d->v[i].tried = 1;
		d->labelled += scores[i] != NO_SCORE;
		(*matched)++;
	}
	free(scores);
	return 0;
}

/* Format 2: a score for each of exactly these positions. */
static int load_v2(pk_learn_data *d, uint64_t settings, const unsigned char *h, FILE *f)
{
	if (get64(h + 16) != d->n || get64(h + 24) != settings || get64(h + 32) != positions_hash(d))
		return 1;
	int16_t *scores;
	if (read_scores(d->n, 14695981039346656037ull, f, &scores) < 0)
		return -1;   /* damaged, cut short or longer than it says (or out of memory) */
	size_t labelled = 0;
	for (size_t i = 0; i < d->n; i++) {
		d->v[i].score = scores[i];
		d->v[i].tried = 1;
		labelled += scores[i] != NO_SCORE;
	}
	free(scores);
	d->labelled = labelled;
	return 0;
}

int learn_labels_load(pk_learn_data *d, uint64_t settings, size_t *matched, FILE *f)
{
	unsigned char h[40];
	*matched = 0;
	if (fread(h, 1, sizeof h, f) != sizeof h || memcmp(h, "pdnkit-labels ", 14))
		return -1;
	if (!memcmp(h, "pdnkit-labels 2\n", 16)) {
		int rc = load_v2(d, settings, h, f);
		if (rc == 0)
			*matched = d->n;
		return rc == 0 ? 3 : rc;   /* read: the caller writes it again in format 3 */
	}
	if (!memcmp(h, "pdnkit-labels 4\n", 16)) {
		int rc = load_v4(d, settings, h, matched, f);
		return rc == 0 ? 4 : rc;
	}
	if (memcmp(h, "pdnkit-labels 3\n", 16))
		return 1;   /* an older format, without a check: labelled again */
	if (get64(h + 16) != SETTINGS_NO_STRIDE(settings))
		return 1;
	uint64_t n = get64(h + 24);
	uint64_t sum = bytes_hash(14695981039346656037ull, h + 16, 24);
	/* the entries in an open-addressed table of keys, twice their number or more */
	size_t cap = 16;
	while (cap < 2 * n + 16)
		cap *= 2;
	if (n > ((uint64_t)1 << 40) || !(cap >> 1 > n))
		return -1;
	uint64_t *keys = calloc(cap, sizeof *keys);
	int16_t *scores = malloc(cap * sizeof *scores);
	unsigned char *used = calloc(cap, 1);
	if (!keys || !scores || !used) {
		free(keys);
		free(scores);
		free(used);
		return -2;
	}
	int rc = 0;
	for (uint64_t k = 0; k < n; k++) {
		unsigned char b[10];
		if (fread(b, 1, sizeof b, f) != sizeof b) {
			rc = -1;
			break;
		}
		sum = bytes_hash(sum, b, sizeof b);
		uint64_t key = get64(b);
		size_t at = find_slot(keys, used, cap, key);
		used[at] = 1;
		keys[at] = key;
		scores[at] = (int16_t)(uint16_t)(b[8] | b[9] << 8);
	}
	unsigned char t[8];
	if (rc == 0 && (fread(t, 1, 8, f) != 8 || get64(t) != sum || fgetc(f) != EOF))
		rc = -1;   /* damaged, cut short or longer than it says */
	if (rc == 0)
		for (size_t i = 0; i < d->n; i++) {
			size_t at = find_slot(keys, used, cap, d->pos[i].key);
			if (!used[at])
				continue;
			used[at] = 2;   /* matched: written back from the position */
			d->v[i].score = scores[at];
			d->v[i].tried = 1;
			d->labelled += scores[at] != NO_SCORE;
			(*matched)++;
		}
	/* the entries that label none of these positions, kept to be written back */
	size_t nk = 0;
	for (size_t at = 0; rc == 0 && at < cap; at++)
		nk += used[at] == 1;
	free(d->kept_keys);
	free(d->kept_scores);
	d->kept_keys = NULL;
	d->kept_scores = NULL;
	d->nkept = 0;
	if (rc == 0 && nk) {
		d->kept_keys = malloc(nk * sizeof *d->kept_keys);
		d->kept_scores = malloc(nk * sizeof *d->kept_scores);
		if (!d->kept_keys || !d->kept_scores)
			rc = -2;
		for (size_t at = 0; rc == 0 && at < cap; at++)
			if (used[at] == 1) {
				d->kept_keys[d->nkept] = keys[at];
				d->kept_scores[d->nkept++] = scores[at];
			}
	}
	free(keys);
	free(scores);
	free(used);
	return rc;
}
