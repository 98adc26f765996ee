/* The network evaluation: a small neural network that sees the whole board, from the
 * side to move's view (the board turned for White, so one network serves both sides):
 * 128 inputs (the mover's men, the mover's kings, the opponent's men and kings on each
 * of the 32 squares), two hidden layers of NET_H1 and NET_H2 clipped-linear units (0 .. 1)
 * and one output, a number of men added to the rest of the evaluation (engine/eval.h): what it
 * learns is what the hand-set terms and the patterns miss. Integer arithmetic only, so
 * the same position has the same value on every machine: the first layer's weights in
 * 127ths, the others in 64ths. Learned by pdnkit train --net (engine/learn.h) from
 * game results and search scores; book/net.txt is built in. */
#ifndef PK_NET_H
#define PK_NET_H

#include <stddef.h>
#include <stdint.h>
#include "rules/pos.h"

#define NET_IN 128
#ifndef NET_H1
#define NET_H1 128                      /* the first hidden layer's units */
#endif
#define NET_H2 32                       /* the second's */
#define NET_FORMAT 1
#define NET_Q1 127                      /* first layer's scale: an activation of 1 is 127 */
#define NET_Q2 64                       /* the other layers' weights' scale */
/* The weights as the file lists them, in this order. */
#define NET_NWEIGHTS (NET_IN * NET_H1 + NET_H1 + NET_H2 * NET_H1 + NET_H2 + NET_H2 + 1)

typedef struct pk_net {
	int16_t w1[NET_IN][NET_H1];     /* input i's weight into hidden unit j, in 127ths */
	int16_t b1[NET_H1];
	int16_t w2[NET_H2][NET_H1];     /* second layer: w2[out][in], in 64ths */
	int32_t b2[NET_H2];             /* in 127 * 64ths */
	int16_t w3[NET_H2];             /* output layer, in 64ths */
	int32_t b3;                     /* in 127 * 64ths */
	uint32_t checksum;              /* FNV-1a of the weights: names them in settings */
	int16_t w2t[NET_H1][NET_H2];    /* w2 turned: w2t[in][out], for the evaluation */
} pk_net;

/* The inputs that are 1 (0 .. 127) of p, from the side to move's view; their number. */
int net_inputs(const pk_pos *p, int in[32]);
/* The network's value of p in hundredths of a man, for the side to move. */
int net_eval(const pk_net *n, const pk_pos *p);

/* The text form: "pdnkit-net 1", "layers 128 H1 H2 1", then the NET_NWEIGHTS integers in
 * the order of the struct (w1 by input, then b1, w2 by output unit, b2, w3, b3),
 * separated by white space; '#' comments. 0, or -1 with the line and reason in err.
 * A file with the two header lines and no weights at all is "no network": 1. */
int net_parse(const char *text, pk_net *n, char *err, size_t errsize);
/* The text of n (malloc'ed; NULL when out of memory), with a header comment. */
char *net_format(const pk_net *n, const char *comment);
/* The checksum and the turned copy of w2, after the weights are set. */
void net_prepare(pk_net *n);

/* The built-in network (book/net.txt); NULL when it holds none. */
const pk_net *net_builtin(void);

#endif
