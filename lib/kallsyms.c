// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * kallsyms from the dump (kernel/kallsyms.c), decoded once on first use:
 * the token-compressed kallsyms_names stream expanded through
 * kallsyms_token_table/kallsyms_token_index, addresses from
 * kallsyms_offsets + kallsyms_relative_base (or kallsyms_addresses on
 * kernels without KALLSYMS_BASE_RELATIVE; or, since v7.0, offsets each
 * relative to its own place, with no base). Whether negative offsets mean
 * "relative to the base" (KALLSYMS_ABSOLUTE_PERCPU, x86_64 until 6.11)
 * is not in the debuginfo, so both readings are tried against the
 * address of _stext that the target knows; a target that does not know
 * _stext (one that takes its symbols from these very tables) is told by
 * the sign of _stext's offset, negative only in the absolute-per-CPU
 * encoding.
 *
 * The decoder reads through a bare target, not a session, so that a
 * front end can decode the tables before it opens a session: the
 * standalone extractor takes every symbol from them when the dump is
 * all it has (kt_kallsyms__load(), kt_kallsyms__find()).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define KT_MAX_KALLSYMS	(1u << 22)

struct kt_kallsyms {
	uint32_t num;
	uint64_t *addr;
	/* kallsyms_names as read, entry i at comp[comp_off[i]] (load_names()) */
	uint8_t *comp;
	uint32_t *comp_off;
	char *tokens;
	uint16_t index[256], tlen[256], maxtl;
	const char **lazy;	/* names expanded one by one (name_of()) */
	uint32_t *name_off;	/* into pool, once all_names() made it */
	char *pool;
	uint32_t *by_addr;	/* indexes sorted by address */
	/*
	 * the addresses in address order (@addr itself when the table was
	 * in order), and an index of them by address from _text on: bucket
	 * i of @bucket is the last place at or below _text + (i << @shift),
	 * so a lookup searches only the few places between two buckets
	 */
	uint64_t *saddr;
	uint32_t *bucket, nbucket;
	unsigned int shift;
	uint64_t base;		/* _text, or the lowest address if above it */
	uint32_t *by_name;	/* indexes sorted by name, built on first find */
	uint64_t text;		/* _text: below it are per-CPU offsets, not code */
	uint64_t serial;	/* names this table for lookup_cache */
	uint64_t names_end;	/* the first byte after kallsyms_names (load_names()) */
};

/*
 * The symbols found, per thread, by address: the records of a trace name
 * the same few thousand addresses over and over (the function tracer's
 * functions and their callers, trace_printk() call sites), and a lookup
 * that misses costs some cache misses (the index, the addresses, the
 * name). LOOKUP_SLOTS of them, direct-mapped by a hash of the address;
 * the table is malloc()ed on a thread's first lookup and freed when the
 * thread ends (the TLS itself stays small: the crash extension is
 * dlopen()ed, and its TLS comes out of a small reserve).
 */
#define LOOKUP_SLOTS 4096
struct lookup_slot {
	uint64_t addr, start, size;
	const char *name;
	uint32_t pos;		/* its place in address order */
};
struct lookup_cache {
	uint64_t serial;	/* the table's, kt_kallsyms.serial */
	struct lookup_slot slot[LOOKUP_SLOTS];
};
static uint64_t kallsyms_serial;
static __thread struct lookup_cache *lookup_cache;
static pthread_key_t lookup_key;
static pthread_once_t lookup_once = PTHREAD_ONCE_INIT;
static bool lookup_key_ok;

static void lookup_key_init(void)
{
	lookup_key_ok = !pthread_key_create(&lookup_key, free);
}

/* this thread's cache for @k, emptied when it was another table's; NULL: none */
static struct lookup_cache *lookup_cache_of(const struct kt_kallsyms *k)
{
	struct lookup_cache *c = lookup_cache;

	if (!c) {
		pthread_once(&lookup_once, lookup_key_init);
		if (!lookup_key_ok)
			return NULL;
		c = malloc(sizeof(*c));
		if (!c)
			return NULL;
		if (pthread_setspecific(lookup_key, c)) {
			free(c);
			return NULL;
		}
		c->serial = 0;
		lookup_cache = c;
	}
	if (c->serial != k->serial) {
		/* an address of 0 is never looked up here: below _text */
		memset(c->slot, 0, sizeof(c->slot));
		c->serial = k->serial;
	}
	return c;
}

static unsigned int lookup_hash(uint64_t addr)
{
	return (unsigned int)(((addr >> 2) * 0x9e3779b97f4a7c15ull) >> 52) % LOOKUP_SLOTS;
}

/* a bucket of the address index spans 4 KiB, more when the table spans more than 1 GiB */
#define BUCKET_SHIFT 12
#define BUCKET_MAX (1u << 18)

void kt_kallsyms__free(struct kt_kallsyms *k)
{
	if (!k)
		return;
	if (k->saddr != k->addr)
		free(k->saddr);
	free(k->bucket);
	free(k->addr);
	if (k->lazy) {
		uint32_t i;

		for (i = 0; i < k->num; i++)
			if (k->lazy[i])
				free((char *)k->lazy[i] - 1);
		free(k->lazy);
	}
	free(k->comp);
	free(k->comp_off);
	free(k->tokens);
	free(k->name_off);
	free(k->pool);
	free(k->by_addr);
	free(k->by_name);
	free(k);
}

static int t_read(const struct kt_target *t, uint64_t addr, void *buf, size_t len)
{
	if (!addr)
		return -EFAULT;
	return t->read(t->priv, addr, buf, len);
}

/*
 * The @n words of @size bytes at @p, read as they lie in the dump, in the
 * host's order (a big-endian kernel's tables read on a little-endian host)
 */
static void t_order(const struct kt_target *t, void *p, size_t n, unsigned int size)
{
	bool be = t->flags & KT_TARGET_BIG_ENDIAN;
	size_t i;

	if (be == (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__))
		return;
	for (i = 0; i < n; i++) {
		uint8_t *w = (uint8_t *)p + i * size;

		switch (size) {
		case 2: { uint16_t v; memcpy(&v, w, 2); v = __builtin_bswap16(v); memcpy(w, &v, 2); break; }
		case 4: { uint32_t v; memcpy(&v, w, 4); v = __builtin_bswap32(v); memcpy(w, &v, 4); break; }
		default: { uint64_t v; memcpy(&v, w, 8); v = __builtin_bswap64(v); memcpy(w, &v, 8); break; }
		}
	}
}

static int t_symbol(const struct kt_target *t, const char *name, uint64_t *addr)
{
	return t->symbol(t->priv, name, addr);
}

/* sequential reader over the dump */
struct seq {
	const struct kt_target *t;
	uint64_t base, pos;
	uint8_t buf[65536];
	uint64_t buf_at;
	uint32_t buf_len;
};

static int seq_fill(struct seq *q)
{
	{
		uint64_t at = q->base + q->pos;
		uint32_t len = sizeof(q->buf) - (uint32_t)(at & 4095);

		/* shrink to what is readable up to a page end */
		while (t_read(q->t, at, q->buf, len)) {
			if (len <= 4096 - (at & 4095))
				return -EFAULT;
			len = (uint32_t)(4096 - (at & 4095));
		}
		q->buf_at = q->pos;
		q->buf_len = len;
	}
	return 0;
}

/* @n bytes from the reading position in the window, else NULL */
static inline const uint8_t *seq_span(struct seq *q, uint32_t n)
{
	if ((q->pos < q->buf_at || q->pos + n > q->buf_at + q->buf_len) &&
	    (seq_fill(q) || q->pos + n > q->buf_at + q->buf_len))
		return NULL;
	return q->buf + (q->pos - q->buf_at);
}

/* one byte per call, a hundred thousand names: the common case inline */
static inline int seq_byte(struct seq *q, uint8_t *b)
{
	if ((q->pos < q->buf_at || q->pos >= q->buf_at + q->buf_len) && seq_fill(q))
		return -EFAULT;
	*b = q->buf[q->pos - q->buf_at];
	q->pos++;
	return 0;
}

static int cmp_addr(const void *a, const void *b, void *ctx)
{
	const struct kt_kallsyms *k = ctx;
	uint64_t x = k->addr[*(const uint32_t *)a];
	uint64_t y = k->addr[*(const uint32_t *)b];

	if (x != y)
		return (x > y) - (x < y);
	/* equal addresses keep table order */
	return (*(const uint32_t *)a > *(const uint32_t *)b) -
	       (*(const uint32_t *)a < *(const uint32_t *)b);
}

/*
 * kallsyms_names read whole, each entry checked (its tokens exist, it
 * expands to a type and a name) and its place noted; names are expanded
 * when first asked for (name_of()): a trace names a few hundred of some
 * hundred thousand symbols. Lookups by name expand them all (all_names()).
 */
static int load_names(const struct kt_target *s, struct kt_kallsyms *k)
{
	uint64_t names, ttab, tidx;
	size_t comp_len = 0, comp_cap = 1 << 20, tsize;
	struct seq *q = NULL;
	uint32_t i, maxoff = 0;
	int err = -EFAULT;

	if (t_symbol(s, "kallsyms_names", &names) ||
	    t_symbol(s, "kallsyms_token_table", &ttab) ||
	    t_symbol(s, "kallsyms_token_index", &tidx))
		return kt_err(ENOENT, "kallsyms tables not found in the dump");
	if (t_read(s, tidx, k->index, sizeof(k->index)))
		return kt_err(EFAULT, "cannot read kallsyms_token_index at 0x%llx",
			      (unsigned long long)tidx);
	t_order(s, k->index, 256, 2);
	for (i = 0; i < 256; i++)
		if (k->index[i] > maxoff)
			maxoff = k->index[i];
	tsize = maxoff + 256;
	k->tokens = calloc(1, tsize + 1);
	q = calloc(1, sizeof(*q));
	k->comp = malloc(comp_cap);
	k->comp_off = calloc(k->num, sizeof(*k->comp_off));
	k->lazy = calloc(k->num, sizeof(*k->lazy));
	if (!k->tokens || !q || !k->comp || !k->comp_off || !k->lazy)
		goto nomem;
	if (t_read(s, ttab, k->tokens, tsize) && t_read(s, ttab, k->tokens, maxoff + 1)) {
		err = kt_err(EFAULT, "cannot read kallsyms_token_table at 0x%llx",
			     (unsigned long long)ttab);
		goto out;
	}
	/* each token's length once, not once per use; UINT16_MAX: no such token */
	for (i = 0; i < 256; i++) {
		k->tlen[i] = k->index[i] < tsize ?
			(uint16_t)strnlen(k->tokens + k->index[i], tsize - k->index[i]) : UINT16_MAX;
		if (k->tlen[i] != UINT16_MAX && k->tlen[i] > k->maxtl)
			k->maxtl = k->tlen[i];
	}
	/*
	 * scripts/kallsyms writes the 256 tokens one after the other, each
	 * with its NUL, and kallsyms_token_index[i] where token i starts: a
	 * token that does not start where the one before it ended is a
	 * damaged table (a lost NUL joins two tokens, and every name using
	 * them would be printed wrong)
	 */
	for (i = 0; i < 256; i++) {
		uint32_t want = i ? k->index[i - 1] + k->tlen[i - 1] + 1u : 0;

		if (k->tlen[i] == UINT16_MAX || k->index[i] != want) {
			err = kt_err(EBADMSG, "kallsyms_token_index at 0x%llx: token %u starts at "
					      "%u, the token before it ends at %u: the tables are "
					      "damaged", (unsigned long long)tidx, i, k->index[i],
				     want);
			goto out;
		}
	}
	q->t = s;
	q->base = names;
	for (i = 0; i < k->num; i++) {
		const uint8_t *p;
		uint8_t b, b2;
		uint32_t len, hdr = 1, j, out = 0;

		if (seq_byte(q, &b))
			goto unreadable;
		len = b;
		if (b & 0x80) {	/* 6.1: two-byte lengths for long names */
			if (seq_byte(q, &b2))
				goto unreadable;
			len = (b & 0x7f) | (uint32_t)b2 << 7;
			hdr = 2;
		}
		if (comp_len + hdr + len > comp_cap) {
			uint8_t *nc;

			while (comp_len + hdr + len > comp_cap)
				comp_cap *= 2;
			nc = realloc(k->comp, comp_cap);
			if (!nc)
				goto nomem;
			k->comp = nc;
		}
		k->comp_off[i] = (uint32_t)comp_len;
		k->comp[comp_len++] = b;
		if (hdr == 2)
			k->comp[comp_len++] = b2;
		p = seq_span(q, len);
		for (j = 0; j < len; j++) {
			uint8_t c;

			if (p)
				c = p[j];
			else if (seq_byte(q, &c))
				goto unreadable;
			/* every token has a length: the check above */
			out += k->tlen[c];
			k->comp[comp_len++] = c;
		}
		if (p)
			q->pos += len;
		/* the first character is the symbol type, a name follows */
		if (out < 2)
			goto empty;
	}
	k->names_end = names + q->pos;
	err = 0;
	goto out;
unreadable:
	err = kt_err(EFAULT, "cannot read kallsyms_names at 0x%llx (symbol %u of %u)",
		     (unsigned long long)(names + q->pos), i, k->num);
	goto out;
empty:
	/* zeroed or garbled tables decode to empty names */
	err = kt_err(EBADMSG, "kallsyms_names at 0x%llx: symbol %u of %u (at 0x%llx) has no "
		     "name: the tables are damaged", (unsigned long long)names, i, k->num,
		     (unsigned long long)(names + q->pos));
	goto out;
nomem:
	err = -ENOMEM;
out:
	free(q);
	return err;
}

/* entry @i expanded into @o (room for its length times the longest token
 * plus one); its length without the NUL */
static size_t expand(const struct kt_kallsyms *k, uint32_t i, char *o)
{
	const uint8_t *p = k->comp + k->comp_off[i];
	uint32_t len = p[0], j;
	char *start = o;

	if (p[0] & 0x80) {
		len = (p[0] & 0x7f) | (uint32_t)p[1] << 7;
		p++;
	}
	for (p++, j = 0; j < len; j++, p++) {
		const char *t = k->tokens + k->index[*p];
		uint16_t tl = k->tlen[*p];

		/* tokens are a few bytes: a loop, not a call to memcpy */
		for (; tl; tl--)
			*o++ = *t++;
	}
	*o = 0;
	return (size_t)(o - start);
}

static uint32_t comp_len_of(const struct kt_kallsyms *k, uint32_t i)
{
	const uint8_t *p = k->comp + k->comp_off[i];

	return p[0] & 0x80 ? ((p[0] & 0x7f) | (uint32_t)p[1] << 7) : p[0];
}

/*
 * The name of entry @i, its type the character before it (type_of()),
 * expanded on first use by any thread: a thread that loses the race
 * frees its copy. The names of all_names() win from then on.
 */
static const char *name_of(struct kt_kallsyms *k, uint32_t i)
{
	const char *pool = __atomic_load_n(&k->pool, __ATOMIC_ACQUIRE), *p;
	const char *expect = NULL;
	char *n;

	if (pool)
		return pool + k->name_off[i];
	p = __atomic_load_n(&k->lazy[i], __ATOMIC_ACQUIRE);
	if (p)
		return p;
	n = malloc((size_t)comp_len_of(k, i) * k->maxtl + 1);
	if (!n)
		return &"??"[1];	/* a type letter before it, as every name has */
	expand(k, i, n);
	if (!__atomic_compare_exchange_n(&k->lazy[i], &expect, n + 1, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		free(n);
		return expect;
	}
	return n + 1;
}

/* the type letter of entry @i: kallsyms keeps it before the name */
static char type_of(const struct kt_kallsyms *k, uint32_t i)
{
	return name_of((struct kt_kallsyms *)k, i)[-1];
}

/* every name expanded into one pool, for lookups by name (sorting them) */
static int all_names(struct kt_kallsyms *k)
{
	size_t len = 0, cap = 1 << 20;
	char *pool;
	uint32_t i;

	if (__atomic_load_n(&k->pool, __ATOMIC_ACQUIRE))
		return 0;
	pool = malloc(cap);
	if (!pool)
		return -ENOMEM;
	for (i = 0; i < k->num; i++) {
		size_t need = len + (size_t)comp_len_of(k, i) * k->maxtl + 1;

		if (need > cap) {
			char *np;

			while (need > cap)
				cap *= 2;
			np = realloc(pool, cap);
			if (!np) {
				free(pool);
				return -ENOMEM;
			}
			pool = np;
		}
		len += expand(k, i, pool + len) + 1;
	}
	/* names from one pass, offsets from a second: realloc may have moved it */
	for (i = 0, len = 0; i < k->num; i++) {
		k->name_off[i] = (uint32_t)len + 1;
		len += strlen(pool + len) + 1;
	}
	__atomic_store_n(&k->pool, pool, __ATOMIC_RELEASE);
	return 0;
}

/*
 * 6.1+ kallsyms_seqs_of_names ("kallsyms: Improve the performance of
 * kallsyms_lookup_name()"): the symbols' indexes in name order, 3 bytes
 * each, most significant first (get_symbol_seq()), sorted by strcmp() of
 * the names without their type letter (scripts/kallsyms.c
 * compare_names(); ties by index). VMCOREINFO does not list it and
 * kallsyms does not name its own tables; where it is has moved: after
 * kallsyms_markers (6.1), after kallsyms_relative_base (6.12), after
 * kallsyms_offsets (7.x, no base). Each place is tried; the one holding a
 * permutation of 0..num-1 is the table (no other bytes are one).
 *
 * A damaged token that kept its NUL decodes to names that still look
 * like names, from the dump alone nothing else tells: those names are
 * out of this order. 0 when in order or when no table is found (before
 * 6.1), -EBADMSG said.
 */
static inline uint32_t seq_at(const uint8_t *b, uint32_t i)
{
	return (uint32_t)b[3 * i] << 16 | (uint32_t)b[3 * i + 1] << 8 | b[3 * i + 2];
}

static int check_name_order(const struct kt_target *t, struct kt_kallsyms *k)
{
	uint64_t cand[8], sym, seqs = 0;
	uint32_t num = k->num, i, nc = 0, bad = 0, first = 0;
	size_t len = (size_t)num * 3;
	uint8_t *b = malloc(len), *seen = malloc((num + 7) / 8);
	int err = 0, a;

	if (!b || !seen) {
		err = -ENOMEM;
		goto out;
	}
	if (!t_symbol(t, "kallsyms_offsets", &sym)) {
		cand[nc++] = sym + 4ull * num;
		cand[nc++] = (sym + 4ull * num + 7) & ~7ull;
	}
	if (!t_symbol(t, "kallsyms_relative_base", &sym))
		cand[nc++] = sym + 8;
	for (a = 4; a <= 8; a += 4) {
		uint64_t m = (k->names_end + a - 1) & ~(uint64_t)(a - 1);

		m += 4ull * ((num + 255) / 256);
		cand[nc++] = m;
		cand[nc++] = (m + 7) & ~7ull;
	}
	for (i = 0; i < nc && !seqs; i++) {
		uint32_t j;

		if (t_read(t, cand[i], b, len))
			continue;
		memset(seen, 0, (num + 7) / 8);
		for (j = 0; j < num; j++) {
			uint32_t v = seq_at(b, j);

			if (v >= num || seen[v / 8] & (1u << (v % 8)))
				break;
			seen[v / 8] |= (uint8_t)(1u << (v % 8));
		}
		if (j == num)
			seqs = cand[i];
	}
	if (!seqs)
		goto out;
	err = all_names(k);
	if (err)
		goto out;
	for (i = 0; i + 1 < num; i++) {
		const char *nx = k->pool + k->name_off[seq_at(b, i)];
		const char *ny = k->pool + k->name_off[seq_at(b, i + 1)];

		/* Clang LTO's promoted names: some kernels sorted them cut at ".llvm." */
		if (strcmp(nx, ny) <= 0 || strstr(nx, ".llvm.") || strstr(ny, ".llvm."))
			continue;
		if (!bad++)
			first = i;
	}
	if (bad)
		err = kt_err(EBADMSG, "kallsyms_seqs_of_names at 0x%llx: the decoded names are out of "
				      "the kernel's name order at %u place%s (the first: '%.48s' before "
				      "'%.48s'): the tables are damaged", (unsigned long long)seqs, bad,
			     bad == 1 ? "" : "s", k->pool + k->name_off[seq_at(b, first)],
			     k->pool + k->name_off[seq_at(b, first + 1)]);
out:
	free(b);
	free(seen);
	return err;
}

/*
 * The dump's names against the kernel's whole symbol table (@t's, with
 * KT_TARGET_SYMTAB: the vmlinux's .symtab or System.map): every name
 * kallsyms lists is a symbol of the kernel it was built into, so a name
 * the table lacks was decoded wrong. A damaged token that keeps its NUL
 * (a letter overwritten) still decodes, to names that look like names,
 * and every name using that token is wrong: up to KALLSYMS_SAMPLE names
 * spread over the table are asked. 0, or -EBADMSG said.
 */
#define KALLSYMS_SAMPLE 4096
/*
 * A name System.map keeps too: scripts/mksysmap leaves out local labels
 * (.LC0, which 5.10's kallsyms lists), the types a, N, U and w, arm's
 * mapping symbols ($x), and the prefixes and suffixes below; a plain C
 * identifier of another type is in both tables. A letter changed in a
 * token keeps an identifier an identifier.
 */
static bool askable(const char *name)
{
	static const char *const skip[] = { "__efistub_", "__pi_", "__kvm_nvhe_",
					    "__kcfi_typeid_", "__AArch64", "__ARM" };
	const char *p;
	size_t i;

	if (strchr("aNUw", name[-1]) ||
	    !((*name >= 'A' && *name <= 'Z') || (*name >= 'a' && *name <= 'z') || *name == '_'))
		return false;
	for (p = name; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	for (i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strncmp(name, skip[i], strlen(skip[i])))
			return false;
	if (strstr(name, "Thunk_") || strstr(name, "_veneer") || strstr(name, "_from_arm") ||
	    strstr(name, "_from_thumb"))
		return false;
	return true;
}

static int check_names_known(const struct kt_target *t, struct kt_kallsyms *k)
{
	uint32_t step = k->num > KALLSYMS_SAMPLE ? k->num / KALLSYMS_SAMPLE : 1, i, n = 0, asked = 0;
	const char *bad = NULL;
	uint64_t a;

	/* a caller's struct that ends before flags promises nothing */
	if (t->sz < offsetof(struct kt_target, flags) + sizeof(t->flags) ||
	    !(t->flags & KT_TARGET_SYMTAB))
		return 0;
	for (i = 0; i < k->num; i += step) {
		const char *name = name_of(k, i);

		if (!askable(name))
			continue;
		asked++;
		if (!t_symbol(t, name, &a))
			continue;
		if (!n++)
			bad = name;
	}
	if (!n)
		return 0;
	return kt_err(EBADMSG, "%u of %u names asked are not in the kernel's symbol table (the "
			       "vmlinux's or System.map), the first '%.60s': the tables are damaged",
		      n, asked, bad);
}

static int load_addrs(const struct kt_target *s, struct kt_kallsyms *k)
{
	uint64_t offs, base, stext, sym;
	int32_t *o;
	uint32_t i, ref = UINT32_MAX;
	bool have_stext;
	int mode;

	if (!t_symbol(s, "kallsyms_addresses", &sym)) {
		if (t_read(s, sym, k->addr, (size_t)k->num * 8))
			return kt_err(EFAULT, "cannot read kallsyms_addresses at 0x%llx",
				      (unsigned long long)sym);
		t_order(s, k->addr, k->num, 8);
		return 0;
	}
	if (t_symbol(s, "kallsyms_offsets", &offs))
		return kt_err(ENOENT, "neither kallsyms_addresses nor kallsyms_offsets is known");
	o = malloc((size_t)k->num * 4);
	if (!o)
		return -ENOMEM;
	if (t_read(s, offs, o, (size_t)k->num * 4)) {
		free(o);
		return kt_err(EFAULT, "cannot read kallsyms_offsets at 0x%llx",
			      (unsigned long long)offs);
	}
	t_order(s, o, k->num, 4);
	/*
	 * v7.0 dropped kallsyms_relative_base: each kallsyms_offsets[i] is
	 * relative to its own place (offset_to_ptr(&kallsyms_offsets[i])).
	 * Told by the table's own shape, not a release: no base symbol.
	 */
	if (t_symbol(s, "kallsyms_relative_base", &sym)) {
		for (i = 0; i < k->num; i++)
			k->addr[i] = offs + (uint64_t)i * 4 + (uint64_t)(int64_t)o[i];
		free(o);
		return 0;
	}
	if (t_read(s, sym, &base, sizeof(base))) {
		free(o);
		return kt_err(EFAULT, "cannot read kallsyms_relative_base at 0x%llx",
			      (unsigned long long)sym);
	}
	t_order(s, &base, 1, 8);
	/*
	 * the first entry named _stext: when the target knows _stext, only
	 * the entries that decode to it in either reading are expanded
	 */
	have_stext = !t_symbol(s, "_stext", &stext);
	for (i = 0; i < k->num; i++) {
		if (have_stext && base + (uint32_t)o[i] != stext &&
		    !(o[i] < 0 && base - 1 - o[i] == stext))
			continue;
		if (!strcmp(name_of(k, i), "_stext")) {
			ref = i;
			break;
		}
	}
	mode = 0;
	if (ref != UINT32_MAX && have_stext) {
		int32_t r = o[ref];

		if (base + (uint32_t)r == stext)
			mode = 0;
		else if (r < 0 && base - 1 - r == stext)
			mode = 1;
	} else if (ref != UINT32_MAX) {
		mode = o[ref] < 0;
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

static int cmp_name(const void *a, const void *b, void *ctx);

/*
 * The address index (see struct kt_kallsyms) from @base = max(_text, the
 * lowest address) up: a lookup is below it only for per-CPU offsets and
 * module addresses, which are not looked up here.
 */
static int build_index(struct kt_kallsyms *k)
{
	uint64_t last = k->saddr[k->num - 1], span;
	uint32_t i, p = 0;

	k->base = k->saddr[0] > k->text ? k->saddr[0] : k->text;
	span = last > k->base ? last - k->base : 0;
	k->shift = BUCKET_SHIFT;
	while ((span >> k->shift) >= BUCKET_MAX)
		k->shift++;
	k->nbucket = last >= k->base ? (uint32_t)(span >> k->shift) + 1 : 0;
	k->bucket = malloc((size_t)k->nbucket * 4 + 4);
	if (!k->bucket)
		return -ENOMEM;
	for (i = 0; i < k->nbucket; i++) {
		uint64_t b = k->base + ((uint64_t)i << k->shift);

		while (p + 1 < k->num && k->saddr[p + 1] <= b)
			p++;
		k->bucket[i] = p;
	}
	return 0;
}

/*
 * The address kt_kallsyms__find() gives for @name (the least entry of
 * that name in its order), 0 if none, by one pass: a single name does
 * not need the table sorted by name (a sort of every name, a sixth of a
 * small dump's run).
 */
static uint64_t find_once(struct kt_kallsyms *k, const char *name)
{
	uint32_t i, best = UINT32_MAX;

	if (all_names(k))
		return 0;
	for (i = 0; i < k->num; i++) {
		if (strcmp(k->pool + k->name_off[i], name))
			continue;
		if (best == UINT32_MAX || cmp_name(&i, &best, k) < 0)
			best = i;
	}
	return best == UINT32_MAX ? 0 : k->addr[best];
}

static struct kt_kallsyms *finish(const struct kt_target *t, struct kt_kallsyms *k,
				  bool from_dump);

struct kt_kallsyms *kt_kallsyms__load(const struct kt_target *t)
{
	struct kt_kallsyms *k;
	uint64_t sym;
	uint32_t num;
	int err;

	if (t_symbol(t, "kallsyms_num_syms", &sym)) {
		kt_err(ENOENT, "kallsyms_num_syms not known");
		return NULL;
	}
	if (t_read(t, sym, &num, sizeof(num))) {
		kt_err(EFAULT, "cannot read kallsyms_num_syms at 0x%llx",
		       (unsigned long long)sym);
		return NULL;
	}
	t_order(t, &num, 1, 4);
	if (!num || num > KT_MAX_KALLSYMS) {
		kt_err(EBADMSG, "kallsyms_num_syms at 0x%llx is %u: damaged",
		       (unsigned long long)sym, num);
		return NULL;
	}
	k = calloc(1, sizeof(*k));
	if (!k)
		goto nomem;
	k->num = num;
	k->addr = calloc(num, 8);
	k->name_off = calloc(num, 4);
	k->by_addr = calloc(num, 4);
	if (!k->addr || !k->name_off || !k->by_addr)
		goto nomem;
	err = load_names(t, k);
	if (!err)
		err = load_addrs(t, k);
	if (!err)
		err = check_name_order(t, k);
	if (!err)
		err = check_names_known(t, k);
	if (err == -ENOMEM)
		goto nomem;
	if (err) {
		kt_kallsyms__free(k);
		errno = -err;
		return NULL;
	}
	return finish(t, k, true);
nomem:
	kt_kallsyms__free(k);
	kt_err(ENOMEM, "kallsyms: out of memory");
	return NULL;
}

/*
 * The rest of a table made by kt_kallsyms__load() (@from_dump) or
 * __from_list(): the order by address, _text and the index. Frees @k on
 * failure.
 *
 * scripts/kallsyms sorts the table by address in every encoding (the
 * absolute per-CPU symbols of x86_64's KALLSYMS_ABSOLUTE_PERCPU, small
 * numbers, first): a dump's table out of order is damaged, and the names
 * of the addresses near a wrong entry would be wrong, so it is refused.
 * A table made from a list (System.map, the vmlinux's symbols) is sorted.
 */
static struct kt_kallsyms *finish(const struct kt_target *t, struct kt_kallsyms *k,
				  bool from_dump)
{
	uint32_t num = k->num, i, descents = 0, first = 0;
	bool sorted;
	uint64_t sym;

	k->by_addr[0] = 0;
	for (i = 1; i < num; i++) {
		k->by_addr[i] = i;
		if (k->addr[i - 1] > k->addr[i] && !descents++)
			first = i;
	}
	sorted = !descents;
	if (!sorted && from_dump) {
		uint64_t where = 0;

		if (t_symbol(t, "kallsyms_offsets", &where))
			t_symbol(t, "kallsyms_addresses", &where);
		kt_err(EBADMSG, "kallsyms_offsets at 0x%llx: the addresses are out of order at "
				"%u place%s (the first: symbol %u at 0x%llx after 0x%llx): the "
				"tables are damaged", (unsigned long long)where, descents,
		       descents == 1 ? "" : "s", first, (unsigned long long)k->addr[first],
		       (unsigned long long)k->addr[first - 1]);
		kt_kallsyms__free(k);
		errno = EBADMSG;
		return NULL;
	}
	if (!sorted)
		qsort_r(k->by_addr, num, 4, cmp_addr, k);
	k->saddr = sorted ? k->addr : malloc((size_t)num * 8);
	if (!k->saddr)
		goto nomem;
	for (i = 0; !sorted && i < num; i++)
		k->saddr[i] = k->addr[k->by_addr[i]];
	/*
	 * _text: when the target knows its address, the entries there are
	 * looked at alone (expanding every name costs a tenth of a small
	 * dump's ticket); else, or when none of them is named _text, by name
	 */
	if (!t_symbol(t, "_text", &sym)) {
		uint32_t lo = 0, hi = num;

		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (k->addr[k->by_addr[mid]] < sym)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < num && k->addr[k->by_addr[lo]] == sym && !k->text; lo++)
			if (!strcmp(name_of(k, k->by_addr[lo]), "_text"))
				k->text = sym;
	}
	if (!k->text)
		k->text = find_once(k, "_text");
	if (build_index(k))
		goto nomem;
	k->serial = __atomic_add_fetch(&kallsyms_serial, 1, __ATOMIC_RELAXED);
	return k;
nomem:
	kt_kallsyms__free(k);
	kt_err(ENOMEM, "kallsyms: out of memory");
	return NULL;
}

struct kt_kallsyms *kt_kallsyms__from_list(const struct kt_target *t, uint32_t num,
					   const uint64_t *addr, const char *types,
					   const char *const *names)
{
	struct kt_kallsyms *k;
	size_t len = 0, at = 0;
	uint32_t i;

	if (!num || num > KT_MAX_KALLSYMS) {
		kt_err(EINVAL, "a symbol list of %u entries", num);
		return NULL;
	}
	for (i = 0; i < num; i++)
		len += strlen(names[i]) + 2;
	k = calloc(1, sizeof(*k));
	if (!k)
		goto nomem;
	k->num = num;
	k->addr = malloc((size_t)num * 8);
	k->name_off = malloc((size_t)num * 4);
	k->by_addr = malloc((size_t)num * 4);
	k->pool = malloc(len);
	if (!k->addr || !k->name_off || !k->by_addr || !k->pool)
		goto nomem;
	/* as all_names() lays them out: the type letter, then the name */
	for (i = 0; i < num; i++) {
		size_t n = strlen(names[i]);

		k->addr[i] = addr[i];
		k->pool[at] = types[i];
		memcpy(k->pool + at + 1, names[i], n + 1);
		k->name_off[i] = (uint32_t)at + 1;
		at += n + 2;
	}
	return finish(t, k, false);
nomem:
	kt_kallsyms__free(k);
	kt_err(ENOMEM, "kallsyms: out of memory");
	return NULL;
}

uint32_t kt_kallsyms__count(const struct kt_kallsyms *k)
{
	return k->num;
}

/* global before weak before local, then the lower address, then table order */
static int rank(char type)
{
	if (type == 'w' || type == 'W' || type == 'v' || type == 'V')
		return 1;
	return type >= 'A' && type <= 'Z' ? 0 : 2;
}

static int cmp_name(const void *a, const void *b, void *ctx)
{
	const struct kt_kallsyms *k = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(k->pool + k->name_off[x], k->pool + k->name_off[y]);

	if (c)
		return c;
	c = rank(type_of(k, x)) - rank(type_of(k, y));
	if (c)
		return c;
	if (k->addr[x] != k->addr[y])
		return k->addr[x] < k->addr[y] ? -1 : 1;
	return (x > y) - (x < y);
}

int kt_kallsyms__find(struct kt_kallsyms *k, const char *name, uint64_t *addr, char *type)
{
	uint32_t lo = 0, hi = k->num, i;

	if (all_names(k))
		return -ENOMEM;
	if (!k->by_name) {
		k->by_name = malloc((size_t)k->num * 4);
		if (!k->by_name)
			return -ENOMEM;
		for (i = 0; i < k->num; i++)
			k->by_name[i] = i;
		qsort_r(k->by_name, k->num, 4, cmp_name, k);
	}
	/* the first entry of that name is the best ranked */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (strcmp(k->pool + k->name_off[k->by_name[mid]], name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == k->num || strcmp(k->pool + k->name_off[k->by_name[lo]], name))
		return -ENOENT;
	*addr = k->addr[k->by_name[lo]];
	if (type)
		*type = type_of(k, k->by_name[lo]);
	return 0;
}

static struct kt_kallsyms *kallsyms(struct kt_session *s)
{
	char why[256];
	int e;

	if (s->kallsyms_tried)
		return s->kallsyms;
	s->kallsyms_tried = true;
	s->kallsyms = kt_kallsyms__load(&s->t);
	if (s->kallsyms)
		return s->kallsyms;
	e = errno;
	snprintf(why, sizeof(why), "%s", kt_last_error());
	if (s->kallsyms_else) {
		s->kallsyms = s->kallsyms_else(s->kallsyms_else_ctx, why);
		if (s->kallsyms) {
			s->kallsyms_substitute = true;
			kt_warn(s, "the dump's kallsyms cannot be decoded (%s): symbols from the "
				   "vmlinux's symbol table, counted", why);
			return s->kallsyms;
		}
	}
	kt_warn(s, "%s kallsyms (%s): code addresses are printed as numbers and counted",
		e == ENOENT ? "no" : "cannot decode the dump's", why);
	return s->kallsyms;
}

/*
 * the last place in address order at or below @addr, which is at or
 * above the index's base and the lowest address
 */
static uint32_t place_of(const struct kt_kallsyms *k, uint64_t addr)
{
	uint64_t i = (addr - k->base) >> k->shift;
	uint32_t lo, hi;

	if (i >= k->nbucket)
		return k->num - 1;
	lo = k->bucket[i];
	hi = i + 1 < k->nbucket ? k->bucket[i + 1] + 1 : k->num;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (k->saddr[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
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
	struct lookup_cache *c;
	struct lookup_slot *e = NULL;
	const char *name;
	uint32_t lo, nx;

	*module = NULL;
	if (!k || !k->num) {
		/* no table at all: what the kernel named is printed as a number */
		name = kt_modsyms__lookup(s, addr, start, size, module);
		if (!name)
			__atomic_add_fetch(&s->addrs_unnamed, 1, __ATOMIC_RELAXED);
		return name;
	}
	if (addr < k->saddr[0] || addr < k->text)
		return kt_modsyms__lookup(s, addr, start, size, module);
	c = lookup_cache_of(k);
	if (c) {
		e = &c->slot[lookup_hash(addr)];
		if (e->addr == addr) {
			*start = e->start;
			*size = e->size;
			if (s->kallsyms_substitute)
				__atomic_add_fetch(&s->addrs_substituted, 1, __ATOMIC_RELAXED);
			if (s->sym_used)
				kt_used__mark(s->sym_used, e->pos);
			return e->name;
		}
	}
	lo = place_of(k, addr);
	/*
	 * Past the last symbol of vmlinux (its end marker, _end or similar)
	 * lie module addresses: they are not the last symbol's, and kallsyms
	 * of the dump's vmlinux cannot name them.
	 */
	if (lo == k->num - 1 && addr != k->saddr[lo])
		return kt_modsyms__lookup(s, addr, start, size, module);
	/*
	 * Of symbols at one address the kernel names the first in its table
	 * (get_symbol_pos(): "search for the first aliased symbol"); 5.10's
	 * __softirqentry_text_start before __do_softirq, for one
	 */
	while (lo && k->saddr[lo - 1] == k->saddr[lo])
		lo--;
	*start = k->saddr[lo];
	for (nx = lo + 1; nx < k->num && k->saddr[nx] == *start; nx++)
		;
	*size = nx < k->num ? k->saddr[nx] - *start : 0;
	if (s->sym_used)
		kt_used__mark(s->sym_used, lo);
	if (s->kallsyms_substitute)
		__atomic_add_fetch(&s->addrs_substituted, 1, __ATOMIC_RELAXED);
	name = name_of(k, k->by_addr[lo]);
	if (e && name) {
		e->addr = addr;
		e->start = *start;
		e->size = *size;
		e->name = name;
		e->pos = lo;
	}
	return name;
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
	*name = name_of(k, i);
	*type = (*name)[-1];
	return 1;
}

int kt_kallsyms__entry(struct kt_session *s, int idx, uint64_t *addr, char *type,
		       const char **name, char *buf, size_t len)
{
	struct kt_kallsyms *k = kallsyms(s);
	uint32_t i;

	if (!k || idx < 0 || (uint32_t)idx >= k->num)
		return 0;
	i = k->by_addr[idx];
	*addr = k->addr[i];
	if (__atomic_load_n(&k->pool, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&k->lazy[i], __ATOMIC_ACQUIRE) ||
	    (size_t)comp_len_of(k, i) * k->maxtl + 1 > len) {
		*name = name_of(k, i);
	} else {
		expand(k, i, buf);
		*name = buf + 1;
	}
	*type = (*name)[-1];
	return 1;
}

int kt_session__track_used(struct kt_session *s, bool on)
{
	struct kt_kallsyms *k;

	free(s->sym_used);
	free(s->type_used);
	s->sym_used = s->type_used = NULL;
	if (!on)
		return 0;
	s->type_used = calloc(65536 / 64, sizeof(uint64_t));
	if (!s->type_used)
		return -ENOMEM;
	k = kallsyms(s);
	if (k && k->num) {
		s->sym_used = calloc((k->num + 63) / 64, sizeof(uint64_t));
		if (!s->sym_used) {
			free(s->type_used);
			s->type_used = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

/*
 * Every 8-byte value at a 4-byte step of a record read that falls among
 * vmlinux's symbols counts as looked up (and the byte before it, for
 * %pB): a reader of the trace.dat may name addresses this session's
 * output did not, in records it skipped (before a latency trace's start,
 * a function-graph call folded away) or fields an option hid (the parent
 * of a function tracer's call with print-parent off).
 */
void kt_kallsyms__mark_record(struct kt_session *s, const uint8_t *data, uint32_t size)
{
	struct kt_kallsyms *k = s->kallsyms;
	uint64_t lo, hi, start, len;
	const char *mod;
	uint32_t i;

	if (!k || !k->num || size < 8)
		return;
	lo = k->addr[k->by_addr[0]] > k->text ? k->addr[k->by_addr[0]] : k->text;
	hi = k->addr[k->by_addr[k->num - 1]];
	for (i = 0; i + 8 <= size; i += 4) {
		uint64_t v = kt_get64(s->l.be, data + i);

		if (v <= lo || v > hi)
			continue;
		kt_symbol_lookup(s, v, &start, &len, &mod);
		kt_symbol_lookup(s, v - 1, &start, &len, &mod);
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * What a reader of a trace.dat needs of kallsyms to name every address
 * this session's reads and output met, in address order (indexes of
 * kt_session__kallsym()), from the used bits alone (a trace names a few
 * hundred of some hundred thousand symbols): of the entries at an
 * address that was looked up, the first in the table (the one the
 * kernel names, as kt_symbol_lookup() does); the first entry at the
 * next address above (trace-cmd takes an address to be in the greatest
 * entry at or below it only when a greater one follows); and everything
 * below _text (per-CPU offsets, absolute symbols), which a reader may
 * match against small numbers. Of aliases, trace-cmd given the whole
 * table names whichever its binary search meets first; given this, the
 * kernel's. -1 when not tracking or out of memory (then: every entry),
 * else the count in *@out (freed by the caller).
 */
long kt_kallsyms__needed_list(struct kt_session *s, uint32_t **out)
{
	struct kt_kallsyms *k = kallsyms(s);
	uint32_t *l = NULL, w, n = 0, cap = 0, low = 0, i, j;

	*out = NULL;
	if (!k || !s->sym_used)
		return -1;
	while (low < k->num && k->addr[k->by_addr[low]] < k->text)
		low++;
	for (w = 0; w < (k->num + 63) / 64; w++) {
		uint64_t bits = s->sym_used[w];

		while (bits) {
			uint64_t a;

			j = w * 64 + (uint32_t)__builtin_ctzll(bits);
			bits &= bits - 1;
			if (n + 2 > cap) {
				uint32_t *nl = realloc(l, (cap = cap ? 2 * cap : 256) * sizeof(*l));

				if (!nl) {
					free(l);
					return -1;
				}
				l = nl;
			}
			a = k->addr[k->by_addr[j]];
			for (i = j; i > 0 && k->addr[k->by_addr[i - 1]] == a; i--)
				;
			if (i >= low)
				l[n++] = i;
			for (i = j + 1; i < k->num && k->addr[k->by_addr[i]] == a; i++)
				;
			if (i < k->num && i >= low)
				l[n++] = i;
		}
	}
	qsort(l, n, sizeof(*l), cmp_u32);
	for (i = j = 0; i < n; i++)
		if (!j || l[j - 1] != l[i])
			l[j++] = l[i];
	/* the entries below _text first: they come first in address order */
	{
		uint32_t *all = malloc(((size_t)low + j + 1) * sizeof(*all));

		if (!all) {
			free(l);
			return -1;
		}
		for (i = 0; i < low; i++)
			all[i] = i;
		if (j)
			memcpy(all + low, l, j * sizeof(*l));
		free(l);
		*out = all;
	}
	return (long)low + j;
}

