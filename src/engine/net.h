/* The network evaluation: a small neural network that sees the whole board, from the
 * side to move's view (the board turned for White in English draughts, for Black on a
 * 10x10 board, so one network serves both sides): 128 inputs (the mover's men, the
 * mover's kings, the opponent's men and kings on each of the 32 squares), or 200 for a
 * 10x10 board's 50 (engine/vsearch.h adds it to that evaluation), two hidden layers of NET_H1 and NET_H2 clipped-linear units (0 .. 1)
 * and one output, a number of men added to the rest of the evaluation (engine/eval.h): what it
 * learns is what the hand-set terms and the patterns miss. Integer arithmetic only, so
 * the same position has the same value on every machine: the first layer's weights in
 * 127ths, the others in 64ths. Learned by pdnkit train --net (engine/learn.h) from
 * game results and search scores; book/net.txt is built in. */
#ifndef PK_NET_H
#define PK_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "rules/pos.h"

#define NET_IN 128                      /* English draughts' inputs */
#define NET_VIN 200                     /* a 10x10 board's */
#define NET_IN_MAX NET_VIN
#ifndef NET_H1
#define NET_H1 64                       /* the first hidden layer's units */
#endif
#define NET_H2 32                       /* the second's */
#define NET_FORMAT 1
#define NET_Q1 127                      /* first layer's scale: an activation of 1 is 127 */
#define NET_Q2 64                       /* the other layers' weights' scale */
/* The weights as the file lists them, in this order, for a network of that many inputs. */
#define NET_NWEIGHTS_IN(in) ((in) * NET_H1 + NET_H1 + NET_H2 * NET_H1 + NET_H2 + NET_H2 + 1)
#define NET_NWEIGHTS NET_NWEIGHTS_IN(NET_IN)

typedef struct pk_net {
	int inputs;                     /* NET_IN (also when 0) or NET_VIN */
	int16_t w1[NET_IN_MAX][NET_H1]; /* input i's weight into hidden unit j, in 127ths */
	int16_t b1[NET_H1];
	int16_t w2[NET_H2][NET_H1];     /* second layer: w2[out][in], in 64ths */
	int32_t b2[NET_H2];             /* in 127 * 64ths */
	int16_t w3[NET_H2];             /* output layer, in 64ths */
	int32_t b3;                     /* in 127 * 64ths */
	uint32_t checksum;              /* FNV-1a of the weights: names them in settings */
	/* w2 in 8 bits when every weight fits (set by net_prepare): the second layer then
	 * multiplies bytes, twice as many a step, with the same sums */
	bool w2_bytes;
	int8_t w2b[NET_H2][NET_H1];
} pk_net;

/* The first layer's sums, its biases included, for the inputs that are 1: what an
 * evaluation kept up to date move by move holds (a 10x10 search keeps one for each side's
 * view). Sums wrap as 16-bit integers, so that adding and taking away rows in any order
 * gives the same sums as net_acc_full. */
typedef struct {
	_Alignas(32) int16_t v[NET_H1];
} pk_net_acc;

void net_acc_full(const pk_net *n, pk_net_acc *a, const int *in, int k);
/* Input i turned on (sign 1) or off (-1): sixteen sums at a time. */
typedef uint16_t net_vec __attribute__((vector_size(32)));
static inline void net_acc_add(const pk_net *n, pk_net_acc *a, int i, int sign)
{
	const int16_t *row = n->w1[i];
	for (int j = 0; j < NET_H1; j += 16) {
		net_vec x, r;
		memcpy(&x, a->v + j, sizeof x);
		memcpy(&r, row + j, sizeof r);
		x = sign > 0 ? x + r : x - r;
		memcpy(a->v + j, &x, sizeof x);
	}
}
/* to = from with the rows of inputs on[0 .. non) added and off[0 .. noff) taken away, in
 * one pass over the sums (to may be from). */
static inline void net_acc_update(const pk_net *n, const pk_net_acc *from, pk_net_acc *to, const int *on, int non,
				  const int *off, int noff)
{
	/* the sums held in registers while the rows go by (the loops over them unrolled) */
	net_vec x[NET_H1 / 16], r;
#pragma GCC unroll 8
	for (int j = 0; j < NET_H1 / 16; j++)
		memcpy(&x[j], from->v + 16 * j, sizeof x[j]);
	for (int i = 0; i < non; i++) {
		const int16_t *row = n->w1[on[i]];
#pragma GCC unroll 8
		for (int j = 0; j < NET_H1 / 16; j++) {
			memcpy(&r, row + 16 * j, sizeof r);
			x[j] += r;
		}
	}
	for (int i = 0; i < noff; i++) {
		const int16_t *row = n->w1[off[i]];
#pragma GCC unroll 8
		for (int j = 0; j < NET_H1 / 16; j++) {
			memcpy(&r, row + 16 * j, sizeof r);
			x[j] -= r;
		}
	}
#pragma GCC unroll 8
	for (int j = 0; j < NET_H1 / 16; j++)
		memcpy(to->v + 16 * j, &x[j], sizeof x[j]);
}
/* The value (hundredths of a man, for the side whose view a is) from the first layer's
 * sums. */
int net_eval_acc(const pk_net *n, const pk_net_acc *a);

/* The inputs that are 1 (0 .. 127) of p, from the side to move's view; their number. */
int net_inputs(const pk_pos *p, int in[32]);
/* The network's value of p in hundredths of a man, for the side to move. */
int net_eval(const pk_net *n, const pk_pos *p);
/* Its value for the inputs in[0 .. k) that are 1. */
int net_eval_inputs(const pk_net *n, const int *in, int k);
/* The inputs that are 1 of a 10x10 position from the side to move's view (stm), given the
 * squares (bit s - 1 for square s) of White's and Black's pieces and of the kings: the
 * mover's men 0-49, kings 50-99, the opponent's men 100-149 and kings 150-199, square s at
 * s - 1 with White to move, at 50 - s with Black (turned half a circle). Their number. */
int net_vinputs(int stm, uint64_t white, uint64_t black, uint64_t kings, int in[50]);
/* The number of inputs of n (NET_IN or NET_VIN). */
static inline int net_inputs_of(const pk_net *n) { return n->inputs ? n->inputs : NET_IN; }

/* The text form: "pdnkit-net 1", "layers 128 H1 H2 1" (or 200), then the weights' integers in
 * the order of the struct (w1 by input, then b1, w2 by output unit, b2, w3, b3),
 * separated by white space; '#' comments. 0, or -1 with the line and reason in err.
 * A file with the two header lines and no weights at all is "no network": 1. */
int net_parse(const char *text, pk_net *n, char *err, size_t errsize);
/* The text of n (malloc'ed; NULL when out of memory), with a header comment. */
char *net_format(const pk_net *n, const char *comment);
/* The checksum and the second layer's 8-bit copy, after the weights are set. */
void net_prepare(pk_net *n);

/* The built-in network (book/net.txt); NULL when it holds none. */
const pk_net *net_builtin(void);
/* The built-in network of a 10x10 variant by its name (book/vnet-NAME.txt), or NULL. */
const pk_net *net_builtin_variant(const char *name);

#endif
