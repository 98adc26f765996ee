/* A binary adaptive range coder (the LZMA kind): each bit is coded with a probability
 * that adapts to the bits seen in its context. Used by the opening book. */
#ifndef PK_RC_H
#define PK_RC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RC_PROB_BITS 11
#define RC_PROB_INIT (1u << (RC_PROB_BITS - 1))
typedef uint16_t rc_prob;

typedef struct {
	uint8_t *buf;
	size_t len, cap;
	uint64_t low;
	uint32_t range;
	uint8_t cache;
	uint64_t cache_size;
	bool oom;
} rc_enc;

typedef struct {
	const uint8_t *buf;
	size_t len, pos;
	uint32_t range, code;
	size_t overrun;          /* bytes asked for past the end: the input is truncated */
} rc_dec;

void rc_enc_init(rc_enc *e);
void rc_enc_bit(rc_enc *e, rc_prob *p, int bit);
void rc_enc_direct(rc_enc *e, uint32_t value, int nbits);   /* bits at probability 1/2 */
/* Finish: the coded bytes are e->buf[0 .. e->len). Returns -1 when memory ran out. */
int rc_enc_finish(rc_enc *e);
void rc_enc_free(rc_enc *e);

void rc_dec_init(rc_dec *d, const uint8_t *buf, size_t len);
int rc_dec_bit(rc_dec *d, rc_prob *p);
uint32_t rc_dec_direct(rc_dec *d, int nbits);

/* A value in [0, 2^bits) coded MSB first through a tree of 2^bits - 1 contexts. */
void rc_enc_tree(rc_enc *e, rc_prob *probs, int bits, uint32_t v);
uint32_t rc_dec_tree(rc_dec *d, rc_prob *probs, int bits);

/* An unsigned number as an Elias-gamma code with adaptive bits: the length in unary
 * (probs[0..32]), then the bits below the top one, the first two adaptive
 * (probs[33..33+2*32]), the rest direct. */
#define RC_GAMMA_PROBS (33 + 2 * 33 + 2 * 33)
void rc_enc_gamma(rc_enc *e, rc_prob *probs, uint32_t v);
uint32_t rc_dec_gamma(rc_dec *d, rc_prob *probs);

void rc_probs_init(rc_prob *p, size_t n);

#endif
