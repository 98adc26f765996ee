/* The range coder. */
#include <stdlib.h>
#include "book/rc.h"

#define TOP (1u << 24)
#define MOVE_BITS 4

void rc_probs_init(rc_prob *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = RC_PROB_INIT;
}

void rc_enc_init(rc_enc *e)
{
	e->buf = NULL;
	e->len = e->cap = 0;
	e->low = 0;
	e->range = 0xFFFFFFFFu;
	e->cache = 0;
	e->cache_size = 1;
	e->oom = false;
}

static void put_byte(rc_enc *e, uint8_t b)
{
	if (e->len == e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 4096;
		uint8_t *nb = realloc(e->buf, cap);
		if (!nb) {
			e->oom = true;
			return;
		}
		e->buf = nb;
		e->cap = cap;
	}
	e->buf[e->len++] = b;
}

static void shift_low(rc_enc *e)
{
	if ((uint32_t)e->low < 0xFF000000u || (e->low >> 32) != 0) {
		uint8_t carry = (uint8_t)(e->low >> 32);
		uint8_t temp = e->cache;
		do {
			put_byte(e, (uint8_t)(temp + carry));
			temp = 0xFF;
		} while (--e->cache_size != 0);
		e->cache = (uint8_t)(e->low >> 24);
	}
	e->cache_size++;
	e->low = (e->low & 0x00FFFFFFu) << 8;
}

void rc_enc_bit(rc_enc *e, rc_prob *p, int bit)
{
	uint32_t bound = (e->range >> RC_PROB_BITS) * *p;
	if (!bit) {
		e->range = bound;
		*p = (rc_prob)(*p + (((1u << RC_PROB_BITS) - *p) >> MOVE_BITS));
	} else {
		e->low += bound;
		e->range -= bound;
		*p = (rc_prob)(*p - (*p >> MOVE_BITS));
	}
	while (e->range < TOP) {
		e->range <<= 8;
		shift_low(e);
	}
}

void rc_enc_direct(rc_enc *e, uint32_t value, int nbits)
{
	for (int i = nbits - 1; i >= 0; i--) {
		e->range >>= 1;
		if (value >> i & 1)
			e->low += e->range;
		while (e->range < TOP) {
			e->range <<= 8;
			shift_low(e);
		}
	}
}

int rc_enc_finish(rc_enc *e)
{
	for (int i = 0; i < 5; i++)
		shift_low(e);
	return e->oom ? -1 : 0;
}

void rc_enc_free(rc_enc *e)
{
	free(e->buf);
	e->buf = NULL;
}

static uint8_t next_byte(rc_dec *d)
{
	if (d->pos < d->len)
		return d->buf[d->pos++];
	d->overrun++;
	return 0;
}

void rc_dec_init(rc_dec *d, const uint8_t *buf, size_t len)
{
	d->buf = buf;
	d->len = len;
	d->pos = 0;
	d->overrun = 0;
	d->range = 0xFFFFFFFFu;
	d->code = 0;
	for (int i = 0; i < 5; i++)
		d->code = (d->code << 8) | next_byte(d);
}

int rc_dec_bit(rc_dec *d, rc_prob *p)
{
	uint32_t bound = (d->range >> RC_PROB_BITS) * *p;
	int bit;
	if (d->code < bound) {
		d->range = bound;
		*p = (rc_prob)(*p + (((1u << RC_PROB_BITS) - *p) >> MOVE_BITS));
		bit = 0;
	} else {
		d->code -= bound;
		d->range -= bound;
		*p = (rc_prob)(*p - (*p >> MOVE_BITS));
		bit = 1;
	}
	while (d->range < TOP) {
		d->range <<= 8;
		d->code = (d->code << 8) | next_byte(d);
	}
	return bit;
}

uint32_t rc_dec_direct(rc_dec *d, int nbits)
{
	uint32_t v = 0;
	for (int i = 0; i < nbits; i++) {
		d->range >>= 1;
		uint32_t bit = d->code >= d->range;
		if (bit)
			d->code -= d->range;
		v = (v << 1) | bit;
		while (d->range < TOP) {
			d->range <<= 8;
			d->code = (d->code << 8) | next_byte(d);
		}
	}
	return v;
}

void rc_enc_tree(rc_enc *e, rc_prob *probs, int bits, uint32_t v)
{
	uint32_t m = 1;
	for (int i = bits - 1; i >= 0; i--) {
		int b = v >> i & 1;
		rc_enc_bit(e, &probs[m - 1], b);
		m = (m << 1) | (uint32_t)b;
	}
}

uint32_t rc_dec_tree(rc_dec *d, rc_prob *probs, int bits)
{
	uint32_t m = 1;
	for (int i = 0; i < bits; i++)
		m = (m << 1) | (uint32_t)rc_dec_bit(d, &probs[m - 1]);
	return m - (1u << bits);
}

static int bit_length(uint32_t v)
{
	int n = 0;
	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

void rc_enc_gamma(rc_enc *e, rc_prob *probs, uint32_t v)
{
	uint64_t x = (uint64_t)v + 1;
	int n = x > 0xFFFFFFFFu ? 33 : bit_length((uint32_t)x);   /* 1..33 */
	for (int i = 1; i < n; i++)
		rc_enc_bit(e, &probs[i - 1], 1);
	if (n < 33)
		rc_enc_bit(e, &probs[n - 1], 0);
	/* the bits below the top one */
	for (int i = n - 2, k = 0; i >= 0; i--, k++) {
		int b = (int)(x >> i & 1);
		if (k < 2)
			rc_enc_bit(e, &probs[33 + 2 * n + k], b);
		else
			rc_enc_direct(e, (uint32_t)b, 1);
	}
}

uint32_t rc_dec_gamma(rc_dec *d, rc_prob *probs)
{
	int n = 1;
	while (n < 33 && rc_dec_bit(d, &probs[n - 1]))
		n++;
	uint64_t x = 1;
	for (int i = n - 2, k = 0; i >= 0; i--, k++) {
		int b = k < 2 ? rc_dec_bit(d, &probs[33 + 2 * n + k]) : (int)rc_dec_direct(d, 1);
		x = (x << 1) | (uint64_t)b;
	}
	return (uint32_t)(x - 1);
}
