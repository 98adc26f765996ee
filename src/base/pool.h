/* Running one function on N threads at once, the calling thread being the first: the
 * one way the core starts threads (perft, the search's helpers, the batch annotator,
 * the match referee). */
#ifndef PK_POOL_H
#define PK_POOL_H

#include <pthread.h>

#define POOL_MAX_THREADS 256

/* Runs fn(i, ctx) for i = 0..n-1 (n clamped to 1..POOL_MAX_THREADS): i = 0 on the
 * calling thread, the others on threads of their own, and returns when all have
 * returned. Returns how many ran: fewer when a thread could not be started, so the
 * work must be shared out dynamically (a job counter), never assumed to be n parts. */
int pool_run(int n, void (*fn)(int i, void *ctx), void *ctx);

/* Waits on cv (mu held) at most `seconds`: the beat of the watchers that poll a condition
 * of their own (a closed connection, a deadline) while another thread works. */
void pool_wait(pthread_cond_t *cv, pthread_mutex_t *mu, double seconds);

#endif
