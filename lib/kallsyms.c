// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * kallsyms from the dump (kernel/kallsyms.c), decoded once on first use:
 * the token-compressed kallsyms_names stream expanded through
 * kallsyms_token_table/kallsyms_token_index, addresses from
 * kallsyms_offsets + kallsyms_relative_base (or kallsyms_addresses on
 * kernels without KALLSYMS_BASE_RELATIVE). Whether negative offsets mean
 * "relative to the base" (KALLSYMS_ABSOLUTE_PERCPU, x86_64 until 6.11)
 * is not in the debuginfo, so both readings are tried against the
 * address of _stext that the target knows.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define KT_MAX_KALLSYMS	(1u << 22)

struct kt_kallsyms {
	uint32_t num;
	uint64_t *addr;
	uint32_t *name_off;	/* into pool */
	char *types;
	char *pool;
	uint32_t *by_addr;	/* indexes sorted by address */
	uint64_t text;		/* _text: below it are per-CPU offsets, not code */
};

void kt_kallsyms__free(struct kt_kallsyms *k)
{
	if (!k)
		return;
	free(k->addr);
	free(k->name_off);
	free(k->types);
	free(k->pool);
	free(k->by_addr);
	free(k);
}

/* sequential reader over the dump */
struct seq {
	struct kt_session *s;
	uint64_t base, pos;
	uint8_t buf[65536];
	uint64_t buf_at;
	uint32_t buf_len;
};

static int seq_byte(struct seq *q, uint8_t *b)
{
	if (q->pos < q->buf_at || q->pos >= q->buf_at + q->buf_len) {
		uint64_t at = q->base + q->pos;
		uint32_t len = sizeof(q->buf) - (uint32_t)(at & 4095);

		/* shrink to what is readable up to a page end */
		while (kt_read(q->s, at, q->buf, len)) {
			if (len <= 4096 - (at & 4095))
				return -EFAULT;
			len = (uint32_t)(4096 - (at & 4095));
		}
		q->buf_at = q->pos;
		q->buf_len = len;
	}
	*b = q->buf[q->pos - q->buf_at];
	q->pos++;
	return 0;
}

static int cmp_addr(const void *a, const void *b, void *ctx)
{
	const struct kt_kallsyms *k = ctx;
	uint64_t x = k->addr[*(const uint32_t *)a];
	uint64_t y = k->addr[*(const uint32_t *)b];

	return (x > y) - (x < y);
}

static int load_names(struct kt_session *s, struct kt_kallsyms *k)
{
	uint64_t names, ttab, tidx;
	uint16_t index[256];
	char *tokens = NULL;
	size_t pool_len = 0, pool_cap = 1 << 20, tsize;
	struct seq *q = NULL;
	uint32_t i, maxoff = 0;
	int err = -EFAULT;

	if (kt_symbol(s, "kallsyms_names", &names) ||
	    kt_symbol(s, "kallsyms_token_table", &ttab) ||
	    kt_symbol(s, "kallsyms_token_index", &tidx) ||
	    kt_read(s, tidx, index, sizeof(index)))
		return kt_err(ENOENT, "kallsyms tables not found in the dump");
	for (i = 0; i < 256; i++)
		if (index[i] > maxoff)
			maxoff = index[i];
	tsize = maxoff + 256;
	tokens = calloc(1, tsize + 1);
	q = calloc(1, sizeof(*q));
	k->pool = malloc(pool_cap);
	if (!tokens || !q || !k->pool)
		goto nomem;
	if (kt_read(s, ttab, tokens, tsize) && kt_read(s, ttab, tokens, maxoff + 1))
		goto out;
	q->s = s;
	q->base = names;
	for (i = 0; i < k->num; i++) {
		uint8_t b, b2;
		uint32_t len, j;

		if (seq_byte(q, &b))
			goto out;
		len = b;
		if (b & 0x80) {	/* 6.1: two-byte lengths for long names */
			if (seq_byte(q, &b2))
				goto out;
			len = (b & 0x7f) | (uint32_t)b2 << 7;
		}
		k->name_off[i] = (uint32_t)pool_len;
		k->types[i] = '?';
		for (j = 0; j < len; j++) {
			const char *t;
			size_t tl;

			if (seq_byte(q, &b))
				goto out;
			if (index[b] >= tsize)
				goto bad;
			t = tokens + index[b];
			tl = strnlen(t, tsize - index[b]);
			if (pool_len + tl + 2 > pool_cap) {
				char *np;

				pool_cap *= 2;
				np = realloc(k->pool, pool_cap);
				if (!np)
					goto nomem;
				k->pool = np;
			}
			memcpy(k->pool + pool_len, t, tl);
			pool_len += tl;
		}
		k->pool[pool_len++] = 0;
		/* the first character is the symbol type */
		if (k->pool[k->name_off[i]]) {
			k->types[i] = k->pool[k->name_off[i]];
			k->name_off[i]++;
		}
	}
	err = 0;
	goto out;
bad:
	err = kt_err(EBADMSG, "kallsyms_names: token index out of range");
	goto out;
nomem:
	err = -ENOMEM;
out:
	free(tokens);
	free(q);
	return err;
}

static int load_addrs(struct kt_session *s, struct kt_kallsyms *k)
{
	uint64_t offs, base, stext, sym;
	int32_t *o;
	uint32_t i, ref = UINT32_MAX;
	int mode;

	if (!kt_symbol(s, "kallsyms_addresses", &sym))
		return kt_read(s, sym, k->addr, (size_t)k->num * 8);
	if (kt_symbol(s, "kallsyms_offsets", &offs) ||
	    kt_symbol(s, "kallsyms_relative_base", &sym) || kt_read_u64(s, sym, &base))
		return kt_err(ENOENT, "kallsyms_offsets/kallsyms_relative_base not found");
	o = malloc((size_t)k->num * 4);
	if (!o)
		return -ENOMEM;
	if (kt_read(s, offs, o, (size_t)k->num * 4)) {
		free(o);
		return kt_err(EFAULT, "cannot read kallsyms_offsets at 0x%llx",
			      (unsigned long long)offs);
	}
	for (i = 0; i < k->num; i++)
		if (!strcmp(k->pool + k->name_off[i], "_stext")) {
			ref = i;
			break;
		}
	mode = 0;
	if (ref != UINT32_MAX && !kt_symbol(s, "_stext", &stext)) {
		int32_t r = o[ref];

		if (base + (uint32_t)r == stext)
			mode = 0;
		else if (r < 0 && base - 1 - r == stext)
			mode = 1;
	}
	for (i = 0; i < k->num; i++) {
		if (mode == 0)
			k->addr[i] = base + (uint32_t)o[i];
		else
			k->addr[i] = o[i] >= 0 ? (uint64_t)o[i] : base - 1 - o[i];
	}
	free(o);
	return 0;
}

static struct kt_kallsyms *kallsyms(struct kt_session *s)
{
	struct kt_kallsyms *k;
	uint64_t sym;
	uint32_t num, i;

	if (s->kallsyms_tried)
		return s->kallsyms;
	s->kallsyms_tried = true;
	if (kt_symbol(s, "kallsyms_num_syms", &sym) || kt_read_u32(s, sym, &num) ||
	    !num || num > KT_MAX_KALLSYMS) {
		kt_warn(s, "no kallsyms in the dump: addresses are printed as numbers");
		return NULL;
	}
	k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	k->num = num;
	k->addr = calloc(num, 8);
	k->name_off = calloc(num, 4);
	k->types = calloc(num, 1);
	k->by_addr = calloc(num, 4);
	if (!k->addr || !k->name_off || !k->types || !k->by_addr ||
	    load_names(s, k) || load_addrs(s, k)) {
		kt_warn(s, "cannot decode kallsyms: %s", kt_last_error());
		kt_kallsyms__free(k);
		return NULL;
	}
	for (i = 0; i < num; i++)
		k->by_addr[i] = i;
	qsort_r(k->by_addr, num, 4, cmp_addr, k);
	if (kt_symbol(s, "_text", &k->text))
		k->text = 0;
	s->kallsyms = k;
	return k;
}

/*
 * The symbol containing @addr, as kallsyms_lookup() answers: its start,
 * its size (up to the next symbol at a higher address) and, for a
 * module's symbol, the module's name (else NULL).
 */
const char *kt_symbol_lookup(struct kt_session *s, uint64_t addr, uint64_t *start,
			     uint64_t *size, const char **module)
{
	struct kt_kallsyms *k = kallsyms(s);
	uint32_t lo = 0, hi, nx;

	*module = NULL;
	if (!k || !k->num || addr < k->addr[k->by_addr[0]] || addr < k->text)
		return kt_modsyms__lookup(s, addr, start, size, module);
	hi = k->num;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (k->addr[k->by_addr[mid]] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/*
	 * Past the last symbol of vmlinux (its end marker, _end or similar)
	 * lie module addresses: they are not the last symbol's, and kallsyms
	 * of the dump's vmlinux cannot name them.
	 */
	if (lo == k->num - 1 && addr != k->addr[k->by_addr[lo]])
		return kt_modsyms__lookup(s, addr, start, size, module);
	*start = k->addr[k->by_addr[lo]];
	for (nx = lo + 1; nx < k->num && k->addr[k->by_addr[nx]] == *start; nx++)
		;
	*size = nx < k->num ? k->addr[k->by_addr[nx]] - *start : 0;
	return k->pool + k->name_off[k->by_addr[lo]];
}

const char *kt_session__symbol(struct kt_session *s, uint64_t addr, uint64_t *start)
{
	uint64_t st, size;
	const char *mod, *name = kt_symbol_lookup(s, addr, &st, &size, &mod);

	if (name && start)
		*start = st;
	return name;
}

int kt_session__kallsym(struct kt_session *s, int idx, uint64_t *addr, char *type,
			const char **name)
{
	struct kt_kallsyms *k = kallsyms(s);
	uint32_t i;

	if (!k || idx < 0 || (uint32_t)idx >= k->num)
		return 0;
	i = k->by_addr[idx];
	*addr = k->addr[i];
	*type = k->types[i];
	*name = k->pool + k->name_off[i];
	return 1;
}
