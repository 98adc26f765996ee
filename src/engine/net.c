/* The network evaluation. */
#include <ctype.h>
#ifdef __AVX2__
#include <immintrin.h>
#endif
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/net.h"
#include "engine/pattern.h"

int net_inputs(const pk_pos *p, int in[32])
{
	uint32_t own = (uint32_t)p->side[p->stm], opp = (uint32_t)p->side[!p->stm], k = (uint32_t)p->kings;
	if (p->stm == PK_WHITE) {
		/* turned half a circle: the mover's men always move towards square 32 */
		own = bb_reverse32(own);
		opp = bb_reverse32(opp);
		k = bb_reverse32(k);
	}
	uint32_t plane[4] = { own & ~k, own & k, opp & ~k, opp & k };
	int n = 0;
	for (int q = 0; q < 4; q++)
		for (uint32_t x = plane[q]; x && n < 32; x &= x - 1)
			in[n++] = q * 32 + __builtin_ctz(x);
	return n;
}

int net_vinputs(int stm, uint64_t white, uint64_t black, uint64_t kings, int in[50])
{
	uint64_t own = stm == PK_WHITE ? white : black, opp = stm == PK_WHITE ? black : white;
	uint64_t plane[4] = { own & ~kings, own & kings, opp & ~kings, opp & kings };
	int n = 0;
	for (int q = 0; q < 4; q++)
		for (uint64_t x = plane[q]; x && n < 50; x &= x - 1) {
			int s = __builtin_ctzll(x);
			in[n++] = q * 50 + (stm == PK_WHITE ? s : 49 - s);
		}
	return n;
}

int net_eval(const pk_net *n, const pk_pos *p)
{
	int in[32];
	int k = net_inputs(p, in);
	return net_eval_inputs(n, in, k);
}

void net_acc_full(const pk_net *n, pk_net_acc *a, const int *in, int k)
{
	for (int j = 0; j < NET_H1; j++)
		a->v[j] = n->b1[j];
	for (int i = 0; i < k; i++)
		net_acc_add(n, a, in[i], 1);
}

#ifdef __AVX2__
/* Eight units' sums, each spread over eight 32-bit lanes, added across: lane k of the
 * result is unit k's sum. */
static inline __m256i add_across8(const __m256i sum[8])
{
	__m256i x0 = _mm256_hadd_epi32(_mm256_hadd_epi32(sum[0], sum[1]), _mm256_hadd_epi32(sum[2], sum[3]));
	__m256i x1 = _mm256_hadd_epi32(_mm256_hadd_epi32(sum[4], sum[5]), _mm256_hadd_epi32(sum[6], sum[7]));
	return _mm256_add_epi32(_mm256_permute2x128_si256(x0, x1, 0x20), _mm256_permute2x128_si256(x0, x1, 0x31));
}
#endif

/* The second layer's sums s[o] = b2[o] + w2[o] . h1. */
static void net_layer2(const pk_net *n, const int16_t *h1, int32_t s[NET_H2])
{
#ifdef __AVX2__
	/* pairs of products added in 32 bits, eight lanes at a time, eight units' lanes then
	 * added across in one register */
	_Static_assert(NET_H1 % 32 == 0 && NET_H2 % 8 == 0, "the layers in whole registers");
	__m256i acc[NET_H2 / 8];
	if (n->w2_bytes) {
		/* the activations (0 .. 127) as unsigned bytes and the weights as signed ones:
		 * each pair of products is at most 2 * 127 * 128 in magnitude, so the 16-bit
		 * pair sums never saturate, and the 32-bit sums are those of the 16-bit path */
		__m256i h[NET_H1 / 32], ones = _mm256_set1_epi16(1);
		for (int j = 0; j < NET_H1 / 32; j++) {
			__m256i a = _mm256_loadu_si256((const __m256i *)(h1 + 32 * j));
			__m256i b = _mm256_loadu_si256((const __m256i *)(h1 + 32 * j + 16));
			/* packus works within 128-bit lanes: the quarters put back in order */
			h[j] = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
		}
		for (int o = 0; o < NET_H2; o += 8) {
			__m256i sum[8];
			for (int u = 0; u < 8; u++) {
				const int8_t *row = n->w2b[o + u];
				sum[u] = _mm256_setzero_si256();
				for (int j = 0; j < NET_H1 / 32; j++) {
					__m256i p = _mm256_maddubs_epi16(h[j], _mm256_loadu_si256((const __m256i *)(row + 32 * j)));
					sum[u] = _mm256_add_epi32(sum[u], _mm256_madd_epi16(p, ones));
				}
			}
			acc[o / 8] = add_across8(sum);
		}
	} else {
		__m256i h[NET_H1 / 16];
		for (int j = 0; j < NET_H1 / 16; j++)
			h[j] = _mm256_loadu_si256((const __m256i *)(h1 + 16 * j));
		for (int o = 0; o < NET_H2; o += 8) {
			__m256i sum[8];
			for (int u = 0; u < 8; u++) {
				const int16_t *row = n->w2[o + u];
				sum[u] = _mm256_setzero_si256();
				for (int j = 0; j < NET_H1 / 16; j++)
					sum[u] = _mm256_add_epi32(sum[u], _mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)(row + 16 * j)), h[j]));
			}
			acc[o / 8] = add_across8(sum);
		}
	}
	for (int o = 0; o < NET_H2; o += 8)
		_mm256_storeu_si256((__m256i *)(s + o),
				    _mm256_add_epi32(acc[o / 8], _mm256_loadu_si256((const __m256i *)(n->b2 + o))));
#else
	for (int o = 0; o < NET_H2; o++) {
		s[o] = n->b2[o];
		for (int j = 0; j < NET_H1; j++)
			s[o] += n->w2[o][j] * h1[j];
	}
#endif
}

int net_eval_acc(const pk_net *n, const pk_net_acc *a)
{
	_Alignas(32) int16_t h1[NET_H1];
#ifdef __AVX2__
	for (int j = 0; j < NET_H1; j += 16) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(a->v + j));
		x = _mm256_min_epi16(_mm256_max_epi16(x, _mm256_setzero_si256()), _mm256_set1_epi16(NET_Q1));
		_mm256_store_si256((__m256i *)(h1 + j), x);
	}
#else
	for (int j = 0; j < NET_H1; j++)
		h1[j] = (int16_t)(a->v[j] < 0 ? 0 : a->v[j] > NET_Q1 ? NET_Q1 : a->v[j]);
#endif
	_Alignas(32) int32_t s[NET_H2];
	net_layer2(n, h1, s);
	int64_t out = n->b3;
#ifdef __AVX2__
	/* the same terms eight at a time: a sum of 32 products of at most 127 * 32767 fits
	 * in 32 bits */
	__m256i t = _mm256_setzero_si256();
	for (int o = 0; o < NET_H2; o += 8) {
		__m256i x = _mm256_load_si256((const __m256i *)(s + o));
		x = _mm256_min_epi32(_mm256_srai_epi32(_mm256_max_epi32(x, _mm256_setzero_si256()), 6), _mm256_set1_epi32(NET_Q1));
		__m256i w = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(n->w3 + o)));
		t = _mm256_add_epi32(t, _mm256_mullo_epi32(x, w));
	}
	__m128i q = _mm_add_epi32(_mm256_castsi256_si128(t), _mm256_extracti128_si256(t, 1));
	q = _mm_add_epi32(q, _mm_shuffle_epi32(q, 0x4E));
	q = _mm_add_epi32(q, _mm_shuffle_epi32(q, 0xB1));
	out += _mm_cvtsi128_si32(q);
	_Static_assert(NET_Q2 == 64, "the division by NET_Q2 a shift of a number not below 0");
#else
	for (int o = 0; o < NET_H2; o++) {
		/* in 127ths after the division (of a number not below 0: the same on every machine) */
		int32_t h = s[o] < 0 ? 0 : s[o] / NET_Q2;
		out += (int64_t)n->w3[o] * (h > NET_Q1 ? NET_Q1 : h);
	}
#endif
	return (int)(out * 100 / (NET_Q1 * NET_Q2));
}

int net_eval_inputs(const pk_net *n, const int *in, int k)
{
	pk_net_acc a;
	net_acc_full(n, &a, in, k);
	return net_eval_acc(n, &a);
}

void net_prepare(pk_net *n)
{
	uint32_t h = 2166136261u;
#define MIX(v) do { uint32_t x_ = (uint32_t)(v); for (int b_ = 0; b_ < 4; b_++) h = (h ^ ((x_ >> (8 * b_)) & 0xFF)) * 16777619u; } while (0)
	for (int i = 0; i < net_inputs_of(n); i++)
		for (int j = 0; j < NET_H1; j++)
			MIX(n->w1[i][j]);
	for (int j = 0; j < NET_H1; j++)
		MIX(n->b1[j]);
	for (int o = 0; o < NET_H2; o++)
		for (int j = 0; j < NET_H1; j++)
			MIX(n->w2[o][j]);
	for (int o = 0; o < NET_H2; o++)
		MIX(n->b2[o]);
	for (int o = 0; o < NET_H2; o++)
		MIX(n->w3[o]);
	MIX(n->b3);
#undef MIX
	n->checksum = h;
	n->w2_bytes = true;
	for (int o = 0; o < NET_H2; o++)
		for (int j = 0; j < NET_H1; j++) {
			int x = n->w2[o][j];
			n->w2_bytes &= x >= -128 && x <= 127;
			n->w2b[o][j] = (int8_t)(x < -128 ? -128 : x > 127 ? 127 : x);
		}
}

/* Where the k-th weight of the file goes, and its range. */
static void slot(pk_net *n, long k, int16_t **s16, int32_t **s32)
{
	*s16 = NULL;
	*s32 = NULL;
	if (k < net_inputs_of(n) * NET_H1) {
		*s16 = &n->w1[k / NET_H1][k % NET_H1];
		return;
	}
	k -= net_inputs_of(n) * NET_H1;
	if (k < NET_H1) {
		*s16 = &n->b1[k];
		return;
	}
	k -= NET_H1;
	if (k < NET_H2 * NET_H1) {
		*s16 = &n->w2[k / NET_H1][k % NET_H1];
		return;
	}
	k -= NET_H2 * NET_H1;
	if (k < NET_H2) {
		*s32 = &n->b2[k];
		return;
	}
	k -= NET_H2;
	if (k < NET_H2) {
		*s16 = &n->w3[k];
		return;
	}
	*s32 = &n->b3;
}

int net_parse(const char *text, pk_net *n, char *err, size_t errsize)
{
	memset(n, 0, sizeof *n);
	int line = 1, version = 0, header = 0;
	long count = 0;
	const char *s = text;
	while (*s) {
		if (*s == '\n') {
			line++;
			s++;
			continue;
		}
		if (*s == '#') {
			while (*s && *s != '\n')
				s++;
			continue;
		}
		if (isspace((unsigned char)*s)) {
			s++;
			continue;
		}
		if (header < 2) {
			/* the header lines, each whole */
			const char *end = strchr(s, '\n');
			size_t len = end ? (size_t)(end - s) : strlen(s);
			char buf[128];
			snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), s);
			char *hash = strchr(buf, '#');
			if (hash)
				*hash = 0;
			int a, b, c, d;
			char extra;
			if (header == 0 && (sscanf(buf, "pdnkit-net %d %c", &version, &extra) != 1 || version != NET_FORMAT)) {
				snprintf(err, errsize, "line %d: not a network file of format %d (\"pdnkit-net %d\" first)", line,
					 NET_FORMAT, NET_FORMAT);
				return -1;
			}
			if (header == 1 && (sscanf(buf, " layers %d %d %d %d %c", &a, &b, &c, &d, &extra) != 4 ||
					    (a != NET_IN && a != NET_VIN) || b != NET_H1 || c != NET_H2 || d != 1)) {
				snprintf(err, errsize,
					 "line %d: expected \"layers %d %d %d 1\" (or %d inputs, a 10x10 board's), the shape of this program's network",
					 line, NET_IN, NET_H1, NET_H2, NET_VIN);
				return -1;
			}
			if (header == 1)
				n->inputs = a;
			header++;
			s += len;
			continue;
		}
		char *e;
		errno = 0;
		long v = strtol(s, &e, 10);
		if (e == s || (*e && !isspace((unsigned char)*e) && *e != '#')) {
			snprintf(err, errsize, "line %d: not a whole number", line);
			return -1;
		}
		if (count >= NET_NWEIGHTS_IN(n->inputs)) {
			snprintf(err, errsize, "line %d: more than the %d weights of the network", line, NET_NWEIGHTS_IN(n->inputs));
			return -1;
		}
		int16_t *p16;
		int32_t *p32;
		slot(n, count, &p16, &p32);
		long lim = p16 ? 32767 : 1L << 30;
		if (errno || v < -lim || v > lim) {
			snprintf(err, errsize, "line %d: weight %ld is out of its range (-%ld .. %ld)", line, count + 1, lim, lim);
			return -1;
		}
		if (p16)
			*p16 = (int16_t)v;
		else
			*p32 = (int32_t)v;
		count++;
		s = e;
	}
	if (header < 2) {
		snprintf(err, errsize, "%s", header ? "no \"layers\" line" : "empty: no \"pdnkit-net 1\" line");
		return -1;
	}
	net_prepare(n);
	if (count == 0)
		return 1;
	if (count != NET_NWEIGHTS_IN(n->inputs)) {
		snprintf(err, errsize, "line %d: %ld weights, the network has %d", line, count, NET_NWEIGHTS_IN(n->inputs));
		return -1;
	}
	return 0;
}

char *net_format(const pk_net *n, const char *comment)
{
	int nin = net_inputs_of(n), squares = nin / 4;
	size_t cap = 4096 + (size_t)NET_NWEIGHTS_IN(nin) * 12, len = 0;
	char *out = malloc(cap);
	if (!out)
		return NULL;
#define PUT(...) (len += (size_t)snprintf(out + len, cap - len, __VA_ARGS__))
	PUT("pdnkit-net %d\nlayers %d %d %d 1\n# %s\n", NET_FORMAT, nin, NET_H1, NET_H2, comment ? comment : "");
	static const char *const plane[4] = { "own men", "own kings", "opponent's men", "opponent's kings" };
	for (int i = 0; i < nin; i++) {
		if (i % squares == 0)
			PUT("# first layer: %s on squares 1-%d (from the mover's side), a line a square\n", plane[i / squares],
			    squares);
		for (int j = 0; j < NET_H1; j++)
			PUT("%d%c", n->w1[i][j], j + 1 < NET_H1 ? ' ' : '\n');
	}
	PUT("# first layer's biases\n");
	for (int j = 0; j < NET_H1; j++)
		PUT("%d%c", n->b1[j], j + 1 < NET_H1 ? ' ' : '\n');
	PUT("# second layer, a line an output unit\n");
	for (int o = 0; o < NET_H2; o++)
		for (int j = 0; j < NET_H1; j++)
			PUT("%d%c", n->w2[o][j], j + 1 < NET_H1 ? ' ' : '\n');
	PUT("# second layer's biases\n");
	for (int o = 0; o < NET_H2; o++)
		PUT("%d%c", n->b2[o], o + 1 < NET_H2 ? ' ' : '\n');
	PUT("# output layer, then its bias\n");
	for (int o = 0; o < NET_H2; o++)
		PUT("%d%c", n->w3[o], o + 1 < NET_H2 ? ' ' : '\n');
	PUT("%d\n", n->b3);
#undef PUT
	return out;
}

/* book/net.txt as text, generated at build time. */
extern const char eval_net_text[];

const pk_net *net_builtin(void)
{
	static pk_net n;
	static int state;             /* 0 not read, 1 read and used, 2 none */
	if (!state) {
		char err[200];
		state = net_parse(eval_net_text, &n, err, sizeof err) == 0 ? 1 : 2;
	}
	return state == 1 ? &n : NULL;
}

/* book/vnet-NAME.txt as text, after each variant's name, generated at build time. */
extern const char *const vnet_texts[];
#define MAX_VNETS 4
static pk_net *vnets[MAX_VNETS];
static const char *vnet_names[MAX_VNETS];
static int nvnets;
static pthread_once_t vnets_once = PTHREAD_ONCE_INIT;

static void read_vnets(void)
{
	for (int i = 0; vnet_texts[i] && vnet_texts[i + 1] && nvnets < MAX_VNETS; i += 2) {
		pk_net *n = malloc(sizeof *n);
		char err[200];
		if (!n || net_parse(vnet_texts[i + 1], n, err, sizeof err) != 0 || n->inputs != NET_VIN) {
			free(n);
			continue;   /* a broken file is caught by the tests */
		}
		vnet_names[nvnets] = vnet_texts[i];
		vnets[nvnets++] = n;
	}
}

const pk_net *net_builtin_variant(const char *name)
{
	pthread_once(&vnets_once, read_vnets);
	for (int i = 0; i < nvnets; i++)
		if (!strcmp(vnet_names[i], name))
			return vnets[i];
	return NULL;
}
