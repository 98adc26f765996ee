/* A game as read from PDN, nothing interpreted yet: tag pairs and the move text as a
 * flat list of elements (moves, numbers, comments, NAGs, variation brackets, set-ups,
 * the result), each with its line and column. Strings live in the game's arena. */
#ifndef PK_PDN_H
#define PK_PDN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pdn/diag.h"

enum {
	EL_MOVE,        /* a move token as written, e.g. "9-14", "26x17x10", "11-15!" */
	EL_NUMBER,      /* a move number; value = the number, flags & ELF_DOTS3 for "1..." */
	EL_COMMENT,     /* {text} (flags & ELF_LINE for a ';' comment) */
	EL_NAG,         /* $n; value = n */
	EL_VAR_START,   /* ( */
	EL_VAR_END,     /* ) */
	EL_SETUP,       /* /FEN "..."/ : text is the FEN */
	EL_RESULT,      /* the result token as written */
};

#define ELF_DOTS3 1u
#define ELF_LINE  2u

typedef struct {
	uint8_t kind;
	uint8_t depth;      /* variation depth, 0 = main line */
	uint16_t flags;
	uint32_t line, col;
	uint32_t off, len;  /* text in the arena, NUL-terminated there */
	int32_t value;
} pk_el;

typedef struct {
	uint32_t name, value;   /* arena offsets of NUL-terminated strings */
	uint32_t line, col;
} pk_tag;

typedef struct {
	int index;              /* 1-based number of the game in its file */
	uint64_t offset;        /* byte offset of its first character in the (decompressed) input */
	uint32_t line;          /* line of its first character */
	char *arena;
	size_t alen, acap;
	pk_tag *tags;
	int ntags, tagcap;
	pk_el *els;
	int nel, elcap;
	pk_findings findings;   /* the reader's, then the replay's */
	int nreader;            /* how many of them the reader made */
	bool oom;               /* memory ran out while reading: the game is incomplete */
} pk_game;

void game_init(pk_game *g);
void game_reset(pk_game *g);
void game_free(pk_game *g);
static inline const char *game_str(const pk_game *g, uint32_t off) { return g->arena + off; }
/* Value of the first tag with this name (case-insensitive), or NULL. */
const char *game_tag(const pk_game *g, const char *name);
/* Copy len bytes into the arena with a NUL; returns the offset or UINT32_MAX. */
uint32_t game_store(pk_game *g, const char *s, size_t len);
int game_add_tag(pk_game *g, const char *name, size_t nlen, const char *value, size_t vlen,
		 uint32_t line, uint32_t col);
pk_el *game_add_el(pk_game *g, int kind, int depth, uint32_t line, uint32_t col,
		   const char *text, size_t len);

/* Reading games one at a time from a stream; memory stays bounded by the largest game. */
typedef struct pk_reader pk_reader;

#define PDN_MAX_TAG_VALUE 4096
#define PDN_MAX_COMMENT   (1u << 20)
#define PDN_MAX_TOKEN     256
#define PDN_MAX_DEPTH     64
#define PDN_MAX_GAME      (32u << 20)   /* arena bytes of one game */

#define PDN_MAX_JUNK      (1u << 20)    /* input without a tag or a move before it is "not PDN" */

pk_reader *pdn_open(const char *path, int *err);   /* "-" = stdin; NULL + errno on failure */
/* A flag (set by a signal handler) that stops reading within one buffer (64 KiB) of
 * input, whatever the input: pdn_read then returns -1 and pdn_interrupted() true; the
 * game being read is not returned. */
void pdn_set_stop(pk_reader *r, const volatile sig_atomic_t *stop);
bool pdn_interrupted(const pk_reader *r);
pk_reader *pdn_open_mem(const char *buf, size_t len);
/* 1: a game was read into g; 0: end of input; -1: read error (pdn_error). */
int pdn_read(pk_reader *r, pk_game *g);
const char *pdn_error(const pk_reader *r);
uint64_t pdn_bytes_read(const pk_reader *r);
void pdn_close(pk_reader *r);

#endif
