/* What the files of the web layer share: the server's state, a request being answered
 * and its arguments, and the calls of the store (collection.c). Not for other layers:
 * they see web/web.h. */
#ifndef PK_WEB_INTERNAL_H
#define PK_WEB_INTERNAL_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include "base/json.h"
#include "rules/gpos.h"
#include "rules/gen.h"
#include "store/store.h"
#include "web/cache.h"
#include "web/http.h"
#include "web/web.h"
#include "base/port.h"

#define MAX_STORES 64
#define MAX_ENGINES 16
#define ARG_MAX 200           /* bytes of a text argument */
#define MOVES_MAX 4000        /* bytes of a move list */

struct pk_web {
	pk_web_opts o;
	http_server *http;
	pthread_mutex_t mu;
	pk_store *idle[MAX_STORES];   /* open handles not in use */
	int nidle;
	unsigned long long file_id;   /* the store's file (device and inode) when opened: a
				       * file put in its place is opened anew */
	unsigned generation;          /* counts the files seen under the path */
	int nopen;                    /* handles open (in use or idle) */
	pthread_cond_t store_free;    /* a handle was given back */
	bool busy[MAX_ENGINES];
	bool annotating;              /* an annotation on request under way (one at a time) */
	volatile sig_atomic_t stop;   /* analyses stop when set */
	long served;
	web_cache *cache;             /* answers of the store's calls (web/cache.h) */
};

/* A request being answered: its answer is built in out; a failure sets status and error. */
typedef struct {
	const http_request *rq;
	pk_buf *out;
	int status;
	char error[300];
} req;

/* Fail the request with status and a message (the first failure stays); false. */
bool req_fail(req *r, int status, const char *fmt, ...) PK_PRINTF(3, 4);
/* The value of argument name (the first given), NULL when absent; too long, not UTF-8,
 * or holding a control character: NULL and the request failed. */
const char *req_arg(req *r, const char *name, size_t max);
/* A whole number in [lo, hi]; def when absent. */
bool req_long(req *r, const char *name, long lo, long hi, long def, long *out);
bool req_bool(req *r, const char *name);
/* The position of fen= or moves= (the start when neither); *named when one was given. */
bool req_position(req *r, pk_pos *p, bool *named);
/* The same in any variant: "variant" (a name or GameType; English draughts when absent)
 * and its "fen" or "moves" in its notation; 0 arguments: its start. */
bool req_gposition(req *r, pk_gpos *p, bool *named);
/* A position's squares as the game page draws them (b w men, B W kings, . empty; square
 * 1 first) into s (room for VAR_MAX_SQ + 1). */
void web_gboard_string(const pk_gpos *p, char *s);
/* Whether a variation of this depth opens among els[from..to) of g. */
bool web_has_variations(const pk_game *g, int from, int to, int depth);
/* Those variations as a JSON array of lines (web/variations.c), each replacing the move
 * played from `before` (move number `number`): each move's text, number, side, board
 * after it, squares it went over and the variations that replace it in turn. */
void web_json_variations(req *r, const pk_game *g, int from, int to, int depth, const pk_gpos *before, int number);
/* ,"variant":KEY,"first":SIDE,"<key>":{rows, cols, sq, names} for another variant's
 * board (nothing for English draughts, whose board the page knows). */
void web_json_geometry(req *r, const pk_variant *v, const char *key);
/* A move of any variant as web_json_move writes it. */
void web_json_gmove(req *r, const pk_gpos *before, const pk_gmove *m);
/* The 32 playing squares as characters (the pages' board). */
void web_board_string(const pk_pos *p, char s[33]);
/* A move as JSON: its text, from, to and path. */
void web_json_move(req *r, const pk_pos *before, const pk_move *m);
/* The endgame databases' value of p as ,"egdb":{...} (nothing without databases). */
void web_json_egdb(pk_web *w, req *r, const pk_pos *p);
/* The same for a position of any variant (another variant's own databases, egdb/vegdb.h);
 * null without them. */
void web_json_gegdb(pk_web *w, req *r, const pk_gpos *p);
/* ,"egdb":{value, plies} of move m of p for the side that plays it (nothing when the
 * databases do not hold the position after it). */
void web_json_move_egdb(pk_web *w, req *r, const pk_gpos *p, const pk_gmove *m);

/* --- guard.c --- */

/* A long request (an analysis, an annotation), watched on a thread of its own: its
 * search stops (stop set, why said) when the server stops, its client leaves, or its
 * deadline passes. */
enum { GUARD_NONE, GUARD_STOPPING, GUARD_TIME, GUARD_GONE };
typedef struct {
	pk_web *w;
	const http_request *rq;
	double deadline;                 /* monotonic seconds; 0: none */
	volatile sig_atomic_t stop;      /* what the search watches */
	volatile sig_atomic_t done;
	volatile int why;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t t;
	bool running;
} guard;
/* seconds: the deadline from now (0: none). */
void guard_start(guard *g, pk_web *w, const http_request *rq, double seconds);
void guard_end(guard *g);
/* Whether a request may name this host: a numeric address, localhost, or --allow-host. */
bool host_allowed(const pk_web *w, const char *host);
/* Whether a POST's Origin is the page's own (http:// and the Host asked). */
bool origin_same(const http_request *rq);
/* The request's arguments are those the call takes; else it fails (400) naming the
 * stranger and the ones it takes. */
bool args_known(req *r, const char *call);
/* At most size - 1 bytes of s for a message, printable ASCII only. */
void json_safe_name(const char *s, char *out, size_t size);

/* /api/position and /api/egdb (position.c). */
void api_position(pk_web *w, req *r);
void api_egdb(pk_web *w, req *r);

/* The calls of the store (collection.c). */
void collection_games(pk_web *w, req *r, pk_store *s);
void collection_game(pk_web *w, req *r, pk_store *s);
void collection_explorer(pk_web *w, req *r, pk_store *s);
void collection_stats(pk_web *w, req *r, pk_store *s);
void collection_players(pk_web *w, req *r, pk_store *s);
void collection_export(pk_web *w, req *r, pk_store *s);

#endif
