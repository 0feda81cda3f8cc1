// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * print_fmt, made printable outside the kernel (what libtraceevent needs
 * besides is in fmt-tep.c).
 *
 * Enumerators. TP_printk() arguments like __print_symbolic(REC->mode,
 * { HRTIMER_MODE_ABS, "ABS" }) reach the format file as names; the
 * kernel's own output code was compiled with their values, and only
 * TRACE_DEFINE_ENUM'd names are rewritten at boot (trace_event_eval_
 * update()). We do for every name what that does for some: ask the
 * debuginfo for the value and write it in.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "fmt.h"

void kt_sb__add(struct kt_sb *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *np = realloc(b->p, cap);

		if (!np) {
			b->oom = true;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

void kt_sb__str(struct kt_sb *b, const char *s)
{
	kt_sb__add(b, s, strlen(s));
}

/* end of the quoted format string starting at @p (at the opening quote) */
const char *kt_fmt__skip_quoted(const char *p)
{
	char q = *p++;

	while (*p && *p != q) {
		if (*p == '\\' && p[1])
			p++;
		p++;
	}
	return *p ? p + 1 : p;
}

/*
 * Successes are cached by name (an enumerator has one value kernel-wide);
 * failures are not, since another event's unit may know the name.
 */
static int lookup_enum(struct kt_session *s, const char *name, uint64_t code, int64_t *value)
{
	struct kt_enum_cache *c = &s->enums;
	size_t i;
	int err;

	for (i = 0; i < c->n; i++) {
		if (!strcmp(c->names[i], name)) {
			*value = c->values[i];
			return 0;
		}
	}
	if (s->t.enumerator_at && code)
		err = s->t.enumerator_at(s->t.priv, name, code, value);
	else if (s->t.enumerator && !s->t.enumerator_at)
		err = s->t.enumerator(s->t.priv, name, value);
	else
		err = -ENOENT;
	if (err)
		return err;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		char **nn = realloc(c->names, cap * sizeof(*nn));
		int64_t *nv;

		if (!nn)
			return 0;
		c->names = nn;
		nv = realloc(c->values, cap * sizeof(*nv));
		if (!nv)
			return 0;
		c->values = nv;
		c->cap = cap;
	}
	c->names[c->n] = strdup(name);
	if (c->names[c->n])
		c->values[c->n++] = *value;
	return 0;
}

void kt_fmt__free(struct kt_session *s)
{
	size_t i;

	for (i = 0; i < s->enums.n; i++)
		free(s->enums.names[i]);
	free(s->enums.names);
	free(s->enums.values);
	memset(&s->enums, 0, sizeof(s->enums));
}

/* an enumerator candidate: upper case, digits and '_', not a macro call */
static bool enum_candidate(const char *id, size_t n, const char *after)
{
	size_t i;
	bool upper = false;

	if (n < 2 || n > 127 || !strncmp(id, "REC", n))
		return false;
	for (i = 0; i < n; i++) {
		if (islower((unsigned char)id[i]))
			return false;
		upper |= isupper((unsigned char)id[i]);
	}
	while (*after == ' ')
		after++;
	return upper && *after != '(';
}

/* Replace enumerator names in the argument part @args with their values. */
static void resolve_args(struct kt_session *s, struct kt_sb *out, const char *args, uint64_t code)
{
	const char *p = args;

	while (*p) {
		if (*p == '"' || *p == '\'') {
			const char *e = kt_fmt__skip_quoted(p);

			kt_sb__add(out, p, e - p);
			p = e;
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			const char *e = p;
			char name[128];
			int64_t v;
			bool member = (p - args >= 2 && p[-1] == '>' && p[-2] == '-') ||
				      (p > args && p[-1] == '.');

			while (isalnum((unsigned char)*e) || *e == '_')
				e++;
			if (!member && enum_candidate(p, e - p, e)) {
				memcpy(name, p, e - p);
				name[e - p] = 0;
				if (!lookup_enum(s, name, code, &v)) {
					char num[32];

					snprintf(num, sizeof(num), v < 0 ? "(%lld)" : "%lld",
						 (long long)v);
					kt_sb__str(out, num);
					p = e;
					continue;
				}
			}
			kt_sb__add(out, p, e - p);
			p = e;
		} else if (isdigit((unsigned char)*p)) {
			const char *e = p;

			while (isalnum((unsigned char)*e))
				e++;
			kt_sb__add(out, p, e - p);
			p = e;
		} else {
			kt_sb__add(out, p, 1);
			p++;
		}
	}
}

char *kt_fmt__resolve_enums(struct kt_session *s, const char *print_fmt, uint64_t code)
{
	struct kt_sb out = { 0 };
	const char *end;

	if (*print_fmt != '"')
		return strdup(print_fmt);
	end = kt_fmt__skip_quoted(print_fmt);
	kt_sb__add(&out, print_fmt, end - print_fmt);
	resolve_args(s, &out, end, code);
	if (out.oom) {
		free(out.p);
		return NULL;
	}
	return out.p ? out.p : strdup(print_fmt);
}

/* SipHash-2-4 of one 64-bit word (lib/siphash.c siphash_1u64) */
#define ROL64(x, b) (((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND							\
	do {								\
		v0 += v1; v1 = ROL64(v1, 13); v1 ^= v0; v0 = ROL64(v0, 32); \
		v2 += v3; v3 = ROL64(v3, 16); v3 ^= v2;			\
		v0 += v3; v3 = ROL64(v3, 21); v3 ^= v0;			\
		v2 += v1; v1 = ROL64(v1, 17); v1 ^= v2; v2 = ROL64(v2, 32); \
	} while (0)

uint64_t kt_siphash_1u64(uint64_t first, const uint64_t key[2])
{
	uint64_t v0 = 0x736f6d6570736575ULL ^ key[0];
	uint64_t v1 = 0x646f72616e646f6dULL ^ key[1];
	uint64_t v2 = 0x6c7967656e657261ULL ^ key[0];
	uint64_t v3 = 0x7465646279746573ULL ^ key[1];
	uint64_t b = 8ULL << 56;

	v3 ^= first;
	SIPROUND;
	SIPROUND;
	v0 ^= first;
	v3 ^= b;
	SIPROUND;
	SIPROUND;
	v0 ^= b;
	v2 ^= 0xff;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	return (v0 ^ v1) ^ (v2 ^ v3);
}
