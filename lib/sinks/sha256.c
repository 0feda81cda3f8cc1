// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * SHA-256 (FIPS 180-4), for the ticket's manifest: small enough to carry
 * in libktrace so the kdump initramfs needs no crypto library.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "sha256.h"

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

/*
 * One 64-byte block: Ch and Maj in their forms with one operation fewer,
 * eight rounds unrolled so the state is renamed rather than moved. The
 * capture kernel of a kdump often runs where this code is all there is
 * (no SHA extensions; an emulated CPU in the tests), and a ticket hashes
 * every file it wrote.
 */
#define S0(x) (ROR(x, 2) ^ ROR(x, 13) ^ ROR(x, 22))
#define S1(x) (ROR(x, 6) ^ ROR(x, 11) ^ ROR(x, 25))
#define s0(x) (ROR(x, 7) ^ ROR(x, 18) ^ ((x) >> 3))
#define s1(x) (ROR(x, 17) ^ ROR(x, 19) ^ ((x) >> 10))
#define CH(e, f, g) ((g) ^ ((e) & ((f) ^ (g))))
#define MAJ(a, b, c) (((a) & (b)) | ((c) & ((a) | (b))))

static void block(struct kt_sha256 *c, const uint8_t *p)
{
	uint32_t w[64], a, b, d, e, f, g, h, cc, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 64; i++)
		w[i] = s1(w[i - 2]) + w[i - 7] + s0(w[i - 15]) + w[i - 16];
	a = c->h[0], b = c->h[1], cc = c->h[2], d = c->h[3];
	e = c->h[4], f = c->h[5], g = c->h[6], h = c->h[7];
	/* eight rounds a turn, the variables renamed instead of moved */
#define ROUND(a, b, c, d, e, f, g, h, i)                              \
	do {                                                          \
		t1 = h + S1(e) + CH(e, f, g) + K[i] + w[i];           \
		t2 = S0(a) + MAJ(a, b, c);                            \
		d += t1;                                              \
		h = t1 + t2;                                          \
	} while (0)
	for (i = 0; i < 64; i += 8) {
		ROUND(a, b, cc, d, e, f, g, h, i);
		ROUND(h, a, b, cc, d, e, f, g, i + 1);
		ROUND(g, h, a, b, cc, d, e, f, i + 2);
		ROUND(f, g, h, a, b, cc, d, e, i + 3);
		ROUND(e, f, g, h, a, b, cc, d, i + 4);
		ROUND(d, e, f, g, h, a, b, cc, i + 5);
		ROUND(cc, d, e, f, g, h, a, b, i + 6);
		ROUND(b, cc, d, e, f, g, h, a, i + 7);
	}
#undef ROUND
	c->h[0] += a, c->h[1] += b, c->h[2] += cc, c->h[3] += d;
	c->h[4] += e, c->h[5] += f, c->h[6] += g, c->h[7] += h;
}

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/*
 * The same compression with the SHA extensions (Goldmont, Zen and later):
 * sha256rnds2 does two rounds on the state held as ABEF/CDGH halves,
 * sha256msg1/msg2 the message schedule, four words at a time. About ten
 * times the portable code: a ticket's manifest hashes every file it wrote.
 */
__attribute__((target("sha,sse4.1"))) static void blocks_shani(uint32_t h[8], const uint8_t *p,
							     size_t n)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bull, 0x0405060700010203ull);
	__m128i abef, cdgh, t, m, w[4], abef0, cdgh0;
	int i;

	t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xb1);	/* CDAB */
	cdgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]), 0x1b);	/* EFGH */
	abef = _mm_alignr_epi8(t, cdgh, 8);
	cdgh = _mm_blend_epi16(cdgh, t, 0xf0);
	for (; n; n--, p += 64) {
		abef0 = abef;
		cdgh0 = cdgh;
		for (i = 0; i < 16; i++) {
			if (i < 4) {
				w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)),
							bswap);
			} else {
				/* W[t..t+3] from W[t-16..t-1]: w[i & 3] holds W[t-16..t-13] */
				t = _mm_sha256msg1_epu32(w[i & 3], w[(i + 1) & 3]);
				t = _mm_add_epi32(t, _mm_alignr_epi8(w[(i + 3) & 3], w[(i + 2) & 3], 4));
				w[i & 3] = _mm_sha256msg2_epu32(t, w[(i + 3) & 3]);
			}
			m = _mm_add_epi32(w[i & 3], _mm_loadu_si128((const __m128i *)&K[4 * i]));
			cdgh = _mm_sha256rnds2_epu32(cdgh, abef, m);
			abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(m, 0x0e));
		}
		abef = _mm_add_epi32(abef, abef0);
		cdgh = _mm_add_epi32(cdgh, cdgh0);
	}
	t = _mm_shuffle_epi32(abef, 0x1b);		/* FEBA */
	cdgh = _mm_shuffle_epi32(cdgh, 0xb1);		/* DCHG */
	_mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(t, cdgh, 0xf0));	/* DCBA */
	_mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(cdgh, t, 8));	/* HGFE */
}

/* CPUID.7.0:EBX bit 29 (SHA), CPUID.1:ECX bit 19 (SSE4.1); not every
 * compiler's __builtin_cpu_supports() knows "sha" (clang 14 does not) */
static bool have_shani(void)
{
	static int known = -1;
	unsigned int a, b, c, d;

	if (known < 0) {
		known = __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 19)) &&
			__get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29)) &&
			!getenv("KTRACE_NO_SHANI");
	}
	return known;
}
#endif

static void blocks(struct kt_sha256 *c, const uint8_t *p, size_t n)
{
#if defined(__x86_64__)
	if (have_shani()) {
		blocks_shani(c->h, p, n);
		return;
	}
#endif
	for (; n; n--, p += 64)
		block(c, p);
}

void kt_sha256__init(struct kt_sha256 *c)
{
	static const uint32_t iv[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

	memcpy(c->h, iv, sizeof(iv));
	c->len = 0;
	c->fill = 0;
}

void kt_sha256__update(struct kt_sha256 *c, const void *data, size_t n)
{
	const uint8_t *p = data;

	c->len += n;
	if (c->fill) {
		size_t take = 64 - c->fill < n ? 64 - c->fill : n;

		memcpy(c->buf + c->fill, p, take);
		c->fill += take, p += take, n -= take;
		if (c->fill < 64)
			return;
		blocks(c, c->buf, 1);
		c->fill = 0;
	}
	blocks(c, p, n / 64);
	p += n / 64 * 64;
	n %= 64;
	memcpy(c->buf, p, n);
	c->fill = n;
}

void kt_sha256__final(struct kt_sha256 *c, char hex[65])
{
	uint64_t bits = c->len * 8;
	uint8_t pad[72] = { 0x80 };
	size_t n = (c->fill < 56 ? 56 : 120) - c->fill;
	int i;

	for (i = 0; i < 8; i++)
		pad[n + i] = (uint8_t)(bits >> (56 - 8 * i));
	kt_sha256__update(c, pad, n + 8);
	for (i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", (c->h[i / 4] >> (24 - 8 * (i % 4))) & 0xff);
}
