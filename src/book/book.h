/* Opening books: a tree of positions and book moves from a root, each move with the
 * games that played it and their results (merged across transpositions), optionally an
 * engine score. Stored as in pdnkit-book(5): the tree in depth-first order, each move as
 * its rank in the position's legal moves ordered by a fixed static ranking, shape and
 * ranks range coded; transpositions cost nothing (the decoder recognises a position it
 * has seen); the statistics in a second stream. A book is of English draughts (format
 * version 1, the functions on pk_pos) or of one other variant (version 2, the book_v*
 * functions on pk_vpos); the tree, the coding and the checks are the same. */
#ifndef PK_BOOK_H
#define PK_BOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rules/gen.h"
#include "pdn/replay.h"
#include "pdn/vreplay.h"
#include "rules/variant.h"
#include "rules/gpos.h"

#define BOOK_FORMAT_VERSION 1      /* English draughts */
#define BOOK_VFORMAT_VERSION 2     /* another variant: its GameType in the header */
#define BOOK_RANK_VERSION 1
#define BOOK_VRANK_VERSION 1
#define BOOK_HEADER_BYTES 64
#define BOOK_NO_SCORE INT16_MIN

typedef struct {
	pk_move move;
	int ordinal;              /* in the canonical legal-move list */
	uint32_t games, black_wins, draws, white_wins;
	int score;                /* engine score, side to move's view; BOOK_NO_SCORE when none */
} pk_book_move;

/* ---- building ---- */
typedef struct pk_bookb pk_bookb;

/* A builder for a book rooted at root, holding the first `plies` plies after it. */
pk_bookb *bookb_new(const pk_pos *root, int plies);
void bookb_free(pk_bookb *b);
/* Add a replayed game: from the first time it reaches the root, its next plies. The
 * result is RES_*. 0, or -1 when out of memory. */
int bookb_add_game(pk_bookb *b, const pk_replay *rp, int result);
/* Add one move with statistics directly (book expand); merges with what is there. */
int bookb_add_move(pk_bookb *b, const pk_pos *p, int ordinal, uint32_t games, uint32_t bw, uint32_t dr,
		   uint32_t ww, int score);
long bookb_games(const pk_bookb *b);     /* games that reached the root */
/* The same for a book of another variant: rooted at a position of that variant, fed
 * with replays (kept) of its games. */
pk_bookb *bookb_vnew(const pk_vpos *root, int plies);
int bookb_add_vgame(pk_bookb *b, const pk_vreplay *rp, int result);
const pk_variant *bookb_variant(const pk_bookb *b);   /* NULL: English draughts */
/* A book move (ordinal in the generator's list) of a position of the book's variant with
 * its score (BOOK_NO_SCORE: none) and no games; a position of another variant is
 * ignored. 0, or -1 when out of memory. */
int bookb_add_gmove(pk_bookb *b, const pk_gpos *p, int ordinal, int score);

typedef struct {
	int min_games;            /* drop moves played by fewer games (0: keep all) */
	double min_score;         /* drop moves scoring less for the mover: (wins + draws/2) / games */
	int side;                 /* PK_BLACK or PK_WHITE: min_score for that side only; -1 both */
} pk_book_filter;

typedef struct {
	long positions, moves, links;   /* links: moves into a position stored elsewhere */
	long inner;                     /* positions with at least one book move */
	double ordinal_bits;            /* sum over stored moves of log2(legal moves) */
	long forced;                    /* stored moves that were the only legal move */
	int plies, max_ply;
	bool scores;
	size_t bytes, header_bytes, tree_bytes, stats_bytes;
	double uniform_bits;            /* sum over positions of log2 C(legal, book moves) */
	char root_fen[VAR_FEN_STRLEN];
	int gametype;                   /* 21: English draughts */
} pk_book_info;

/* Encode the book (filtered) into a malloc'ed buffer. 0, or -1 when out of memory. */
int bookb_encode(pk_bookb *b, const pk_book_filter *f, uint8_t **out, size_t *len, pk_book_info *info);

/* ---- reading ---- */
typedef struct pk_book pk_book;

/* Check and decode a book file's bytes (copied as needed). NULL with the reason in err
 * when the file is not a book, is of another version or move order, is truncated, or
 * fails its checksum or its counts. */
pk_book *book_load(const uint8_t *data, size_t len, char *err, size_t errsize);
pk_book *book_open(const char *path, char *err, size_t errsize);
void book_free(pk_book *bk);
void book_info(const pk_book *bk, pk_book_info *info);
const pk_pos *book_root(const pk_book *bk);

/* The book moves of a position, most played first (then by score, then by generator
 * order); at most cap. Returns how many there are (0 when the position is not in it).
 * Path moves are left out: a move without games or score in a position of more than one
 * legal move only leads to the positions a book was grown from (book expand
 * --ballots), it is not one to play. book_walk shows them. */
int book_probe(const pk_book *bk, const pk_pos *p, pk_book_move *out, int cap);

/* Walk the tree depth first from the root, moves most played first. enter is called for
 * each move with the position before it and the move's ply (0-based); `transposes` when
 * the position after it was already walked (its moves are not walked again). Return
 * nonzero from enter to stop. */
typedef int (*book_walk_fn)(void *ctx, const pk_pos *before, const pk_book_move *m, int ply, bool transposes);
int book_walk(const pk_book *bk, book_walk_fn enter, void *ctx);

/* Whether m is one of the book moves of p. */
bool book_has_move(const pk_book *bk, const pk_pos *p, const pk_move *m);
/* An identifier of the book's content (its data checksum), e.g. for settings. */
uint32_t book_id(const pk_book *bk);

/* ---- books of the other variants ---- */
typedef struct {
	pk_vmove move;
	int ordinal;              /* in vgen()'s list */
	uint32_t games, black_wins, draws, white_wins;
	int score;
} pk_book_vmove;

/* The variant of a book: NULL for English draughts (then the functions above apply and
 * those below find nothing), else its variant (and the other way round). */
const pk_variant *book_variant(const pk_book *bk);
const pk_vpos *book_vroot(const pk_book *bk);
int book_vprobe(const pk_book *bk, const pk_vpos *p, pk_book_vmove *out, int cap);
typedef int (*book_vwalk_fn)(void *ctx, const pk_vpos *before, const pk_book_vmove *m, int ply, bool transposes);
int book_vwalk(const pk_book *bk, book_vwalk_fn enter, void *ctx);
bool book_has_vmove(const pk_book *bk, const pk_vpos *p, const pk_vmove *m);
/* Whether m is one of the book moves of p, a position of any variant (none when the book
 * is of another variant). */
bool book_has_gmove(const pk_book *bk, const pk_gpos *p, const pk_gmove *m);
/* The fixed ranking of a variant position's moves (version BOOK_VRANK_VERSION), and its
 * check value for variant v. */
void book_vrank_moves(const pk_vpos *p, const pk_vmovelist *ml, int *rank);
uint32_t book_vrank_check(const pk_variant *v);

/* The book that ships with pdnkit (book/pdnkit.book, built in by the Makefile); NULL
 * with the reason in err when it was built without one or the built-in data is refused. */
pk_book *book_default(char *err, size_t errsize);
/* The book of v that ships with pdnkit (NULL v or English draughts: book_default; the
 * others: book/book-*.book, built in by the Makefile); NULL with the reason in err when
 * none of v is built in. */
pk_book *book_default_for(const pk_variant *v, char *err, size_t errsize);

/* The fixed static ranking of a position's legal moves that the file codes moves by
 * (book/rank.c): rank[i] = rank of generator move i (0 = first). */
void book_rank_moves(const pk_pos *p, const pk_movelist *ml, int *rank);
/* A check value of the ranking on fixed positions, stored in every file: a file made
 * with another ranking is refused rather than misread. */
uint32_t book_rank_check(void);

/* The book as one PDN game (the most played move as the main line, the others as
 * variations, transpositions not expanded twice), Event tag `event`, through sink.
 * 0, or -1 when out of memory or the sink failed. */
int book_write_pdn(const pk_book *bk, const char *event, int (*sink)(void *ctx, const char *buf, size_t len), void *ctx);

#endif
