/* The state of a search thread and of an engine, written once for every board: included
 * by the header of each instance (search_int.h for English, search_mb.h for the
 * mailbox boards) after it defines N_MOVE, N_SQ (the squares, for the history and
 * countermove tables), N_WORKER, N_ENGINE_STRUCT, N_WEIGHTS, N_ITERATION and N_EGDB
 * (engine/node.inc.c says what each is), and N_ENGINE_EXTRA: fields of its own. */
/* What one thread of the search owns; the transposition table is shared. */
typedef struct N_WORKER {
	N_ENGINE_STRUCT *e;
	int id;                           /* 0: the main thread, which reports */
	N_MOVE killers[MAX_PLY][2];
	uint32_t history[N_SQ][N_SQ];
	N_MOVE counter[N_SQ][N_SQ];          /* the refutation of a move, by its from and to */
	N_MOVE path[MAX_PLY];            /* the move played at each ply of the line searched */
	uint64_t nodes;
#if N_EGDB
	uint64_t egdb_hits;
	uint64_t egdb_reads;              /* probes that went to the shared cache */
#endif
	_Atomic uint64_t shown_nodes;     /* nodes, published every 1024 for the others */
	bool stopped;
	uint64_t keys[MAX_GAME + MAX_PLY];
	int rev[MAX_GAME + MAX_PLY];     /* reversible plies ending at each entry */
	int base;                         /* entries before the root */
	N_MOVE pv[MAX_PLY][MAX_PLY];
	int pvlen[MAX_PLY];
	int iter_depth;                   /* the iteration being searched */
	int in_probcut;                   /* inside probcut's shallow search (probcut-depth) */
	bool superseded;                  /* stopped because another thread completed it */
#ifdef N_EVAL_CACHE
	uint64_t eval_cache[N_EVAL_CACHE]; /* leaf_eval's recent evaluations (a power of two;
					   * cleared at each search's start, as the weights
					   * may have changed) */
#endif
#if N_EGDB
	uint64_t *egdb_seen;              /* this thread's recent database results: the key's
					   * high bits and the result (NULL until the first probe) */
#endif
} N_WORKER;

N_ENGINE_STRUCT {
	pk_tt tt;
	N_WEIGHTS w;
	pk_features f;
	int nthreads;
	N_WORKER *wk[MAX_THREADS];
	/* the current search */
	uint64_t node_limit;
	double t0, deadline;
	volatile sig_atomic_t *stop;
	atomic_bool abort;                /* set by the main thread: helpers end */
#if N_EGDB
	pk_egdb *egdb;
	int egdb_pieces;                  /* probe positions of up to this many pieces */
	bool draw_play;                   /* the root is a database draw played for a win */
	bool win_play;                    /* the root is a database win or loss without
					   * distances (egdb-wins=1): such positions below it
					   * are searched on to the horizon, not scored at once */
	bool root_in_egdb;                /* the root's database score is known: */
	int root_egdb_score;
#endif
	const N_MOVE *exclude;           /* root moves left out */
	int nexclude;
	/* the deepest iteration any thread has completed */
	pthread_mutex_t lock;
	atomic_int shared_depth;
	N_ITERATION shared;
	_Atomic uint64_t busy[BUSY_SLOTS];
#ifdef N_ENGINE_EXTRA
	N_ENGINE_EXTRA
#endif
};


