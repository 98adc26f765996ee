/* The Hub protocol's text (version 2, as draughts GUIs and engines speak it), shared by
 * pdnkit as a Hub engine (pdnkit engine) and pdnkit driving one (proto/client.h):
 * command lines "cmd a=1 b="x y" flag", positions as a side letter and one letter a
 * square (32 of w, b, W, B, e for English draughts), moves as Hub writes them
 * ("11-15", "22x15x18": from, to, then the pieces taken) or as PDN does. */
#ifndef PK_HUB_H
#define PK_HUB_H

#include <stdbool.h>
#include <stddef.h>
#include "rules/gen.h"
#include "rules/variant.h"

#define HUB_MAX_ARGS 32

typedef struct {
	char *name[HUB_MAX_ARGS], *value[HUB_MAX_ARGS];
	int n;
} hub_line;

/* Splits a line in place; returns the command, or NULL for a blank line. A name without
 * "=" has the value "". */
char *hub_parse(char *s, hub_line *l);
/* The value of a name, or NULL. */
const char *hub_arg(const hub_line *l, const char *name);

/* "W" or "B", then 32 of w, b, W, B, e; 0, or -1 when s is not one. */
int hub_pos(const char *s, pk_pos *p);
void hub_pos_text(const pk_pos *p, char out[34]);

/* A move in Hub's form ("from-to", or "fromxto" then "xN" for each piece taken), or as
 * PDN writes it when pdn is set. */
void hub_move_text(const pk_pos *p, const pk_move *m, bool pdn, char *buf, size_t size);
/* The legal move a Hub (or PDN) move names, or false. "fromxto" alone is accepted when
 * one capture only has those ends. */
bool hub_read_move(const pk_pos *p, const char *text, bool pdn, pk_move *out);

/* The variants of Hub's "variant" parameter that pdnkit plays: "english" (NULL),
 * "normal" (Hub's name of International draughts; "international" too) and "frisian".
 * False for another name. */
bool hub_variant(const char *name, const pk_variant **v);
/* Another variant's position: "W" or "B", then one of w, b, W, B, e a playing square
 * (50 on a 10x10 board); 0, or -1 when s is not one (or has more pieces a side than the
 * start). */
int hub_vpos(const pk_variant *v, const char *s, pk_vpos *p);
/* Its text into out (room for the squares, the side and the end). */
void hub_vpos_text(const pk_vpos *p, char *out, size_t size);
/* Another variant's move in Hub's form ("32-28", "28x19x23": from, to, then the pieces
 * taken in square order) or as its PDN writes it. */
void hub_vmove_text(const pk_vpos *p, const pk_vmove *m, bool pdn, char *buf, size_t size);
/* The legal move a Hub (or PDN) move names in another variant, or false; "fromxto"
 * alone when one capture only has those ends. */
bool hub_read_vmove(const pk_vpos *p, const char *text, bool pdn, pk_vmove *out);

#endif
