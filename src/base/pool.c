/* Running one function on N threads at once. */
#include <pthread.h>
#include <time.h>
#include "base/pool.h"

typedef struct {
	void (*fn)(int i, void *ctx);
	void *ctx;
	int i;
} pool_arg;

static void *trampoline(void *arg)
{
	pool_arg *a = arg;
	a->fn(a->i, a->ctx);
	return NULL;
}

int pool_run(int n, void (*fn)(int i, void *ctx), void *ctx)
{
	if (n < 1)
		n = 1;
	if (n > POOL_MAX_THREADS)
		n = POOL_MAX_THREADS;
	pthread_t tid[POOL_MAX_THREADS];
	pool_arg args[POOL_MAX_THREADS];
	int started = 1;
	for (int i = 1; i < n; i++) {
		args[started] = (pool_arg){ fn, ctx, started };
		if (pthread_create(&tid[started], NULL, trampoline, &args[started]) != 0)
			break;
		started++;
	}
	fn(0, ctx);
	for (int i = 1; i < started; i++)
		pthread_join(tid[i], NULL);
	return started;
}

void pool_wait(pthread_cond_t *cv, pthread_mutex_t *mu, double seconds)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	long ns = ts.tv_nsec + (long)((seconds - (double)(long)seconds) * 1e9);
	ts.tv_sec += (time_t)seconds + ns / 1000000000L;
	ts.tv_nsec = ns % 1000000000L;
	pthread_cond_timedwait(cv, mu, &ts);
}
