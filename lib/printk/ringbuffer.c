// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The lockless printk ring buffer (kernel/printk/printk_ringbuffer.c,
 * 5.10+), read from a dump.
 *
 * The pointer prb holds a struct printk_ringbuffer: a ring of descriptors
 * (desc_ring: descs[] and infos[], 2^count_bits of each, head_id and
 * tail_id) and a ring of text (text_data_ring: 2^size_bits bytes at
 * data, head_lpos and tail_lpos). A descriptor's state_var holds its id
 * in the low bits and its state in the top two; its text_blk_lpos says
 * where its text block is, as logical positions that count up forever
 * (the index in the ring is lpos & (size - 1)). A block starts with the
 * descriptor's id (an unsigned long), the text follows; a block that
 * would cross the end of the ring is stored at its start instead.
 *
 * The kernel's own readers trust all this; a dump may not deserve it.
 * Every descriptor from tail to head is checked: its id and state, its
 * sequence number against its index, its text block against the ring's
 * window, alignment and the id the block starts with, text_len against
 * the block. A record that fails is skipped and counted as corrupt; one
 * whose bytes are not in the dump, as unreadable. The walk is bounded
 * by the ring's size whatever head_id and tail_id say. 64-bit kernels
 * (unsigned long is 8 bytes).
 */
#include <stdlib.h>
#include <string.h>
#include "printk.h"

/* state_var: id in the low 62 bits, state in the top 2 (printk_ringbuffer.h) */
#define DESC_FLAGS_SHIFT	62
#define DESC_ID_MASK		(~(3ULL << DESC_FLAGS_SHIFT))
/* enum desc_state: 5.10+ (desc_finalized came with prb_reserve_in_last) */
#define DESC_RESERVED		0
#define DESC_COMMITTED		1
#define DESC_FINALIZED		2
#define DESC_REUSABLE		3
/* data-less blocks have bit 0 set: FAILED_LPOS (no space for the text),
 * NO_LPOS (5.10; EMPTY_LINE_LPOS since 6.10: an empty line, no block) */
#define FAILED_LPOS		0x1ULL
#define NO_LPOS			0x3ULL
#define ID_SIZE			8	/* sizeof(prb_data_block.id) */
#define MAX_WARNINGS		5


/* A kernel array copied page by page; pages that cannot be read are zeros. */
struct area {
	const char *what;
	uint64_t addr, len;
	uint8_t *buf;
	uint8_t *ok;		/* per page touched: read */
	uint64_t first_page;
	uint64_t bad_pages;
};

struct prb {
	uint64_t addr;
	uint32_t count_bits, size_bits;
	uint64_t count, size;
	uint64_t head_id, tail_id, head_lpos, tail_lpos, fail;
	struct area descs, infos, text;
	uint64_t warned;
	bool seen_valid;
	uint64_t lost_before_first;
	bool be;		/* the kernel's byte order (kt_layout.be) */
};

static int area_read(struct kt_session *s, struct area *a)
{
	uint64_t off = 0, npages;
	int err = 0;

	a->first_page = a->addr / 4096;
	npages = (a->addr + a->len - 1) / 4096 - a->first_page + 1;
	a->buf = malloc(a->len);
	a->ok = calloc(npages, 1);
	if (!a->buf || !a->ok)
		return kt_err(ENOMEM, "kernel log: no memory for %s (%llu bytes)", a->what,
			      (unsigned long long)a->len);
	while (off < a->len) {
		uint64_t at = a->addr + off, chunk = 4096 - at % 4096;
		int ret;

		if (chunk > a->len - off)
			chunk = a->len - off;
		ret = kt_read(s, at, a->buf + off, chunk);
		if (!ret) {
			a->ok[at / 4096 - a->first_page] = 1;
		} else {
			memset(a->buf + off, 0, chunk);
			if (!a->bad_pages++)
				err = ret;
		}
		off += chunk;
	}
	if (a->bad_pages == npages)
		return kt_err(err, "kernel log: cannot read %s at 0x%llx (%llu bytes): %s",
			      a->what, (unsigned long long)a->addr,
			      (unsigned long long)a->len, strerror(-err));
	if (a->bad_pages)
		kt_warn(s, "kernel log: %llu of %llu pages of %s at 0x%llx unreadable",
			(unsigned long long)a->bad_pages, (unsigned long long)npages, a->what,
			(unsigned long long)a->addr);
	return 0;
}

/* @len bytes at @off of @a, or NULL if out of range or not read */
static const uint8_t *area_get(const struct area *a, uint64_t off, uint64_t len)
{
	uint64_t p, last;

	if (!len || off > a->len || len > a->len - off)
		return NULL;
	last = (a->addr + off + len - 1) / 4096;
	for (p = (a->addr + off) / 4096; p <= last; p++)
		if (!a->ok[p - a->first_page])
			return NULL;
	return a->buf + off;
}

static void area_free(struct area *a)
{
	free(a->buf);
	free(a->ok);
}

static int read_field(struct kt_session *s, uint64_t base, const struct kt_member *m,
		      const char *name, uint64_t *v)
{
	int err = kt_read_member(s, base, m, v);

	if (err)
		return kt_err(err, "kernel log: cannot read %s at 0x%llx: %s", name,
			      (unsigned long long)(base + m->off), strerror(-err));
	return 0;
}

/* find: prb, its two rings, their bounds */
static int read_header(struct kt_session *s, struct prb *r)
{
	const struct kt_layout *l = &s->l;
	uint64_t sym, dr, tr, v, descs, infos, data;
	int err;

	r->be = l->be;
	if (!l->prb_desc_ring.present || !l->prb_text_data_ring.present ||
	    !l->pdr_infos.present || !l->pd_text_next.present || !l->pi_text_len.present ||
	    !l->pi_ts_nsec.present || !l->pd_state_var.present || !l->prb_desc_size ||
	    !l->printk_info_size)
		return kt_err(ENOENT, "kernel log: the layout has no lockless printk ring "
				      "(struct printk_ringbuffer, prb_desc_ring.infos: kernel "
				      "before 5.10, or debuginfo or profile without them)");
	err = kt_symbol(s, "prb", &sym);
	if (err)
		return kt_err(err, "kernel log: no symbol prb");
	err = kt_read_u64(s, sym, &r->addr);
	if (err)
		return kt_err(err, "kernel log: cannot read prb at 0x%llx: %s",
			      (unsigned long long)sym, strerror(-err));
	dr = r->addr + l->prb_desc_ring.off;
	tr = r->addr + l->prb_text_data_ring.off;
	if (read_field(s, dr, &l->pdr_count_bits, "prb->desc_ring.count_bits", &v))
		return -errno;
	r->count_bits = (uint32_t)v;
	if (read_field(s, tr, &l->pda_size_bits, "prb->text_data_ring.size_bits", &v))
		return -errno;
	r->size_bits = (uint32_t)v;
	if (read_field(s, dr, &l->pdr_descs, "prb->desc_ring.descs", &descs) ||
	    read_field(s, dr, &l->pdr_infos, "prb->desc_ring.infos", &infos) ||
	    read_field(s, dr, &l->pdr_head_id, "prb->desc_ring.head_id", &r->head_id) ||
	    read_field(s, dr, &l->pdr_tail_id, "prb->desc_ring.tail_id", &r->tail_id) ||
	    read_field(s, tr, &l->pda_data, "prb->text_data_ring.data", &data) ||
	    read_field(s, tr, &l->pda_head_lpos, "prb->text_data_ring.head_lpos",
		       &r->head_lpos) ||
	    read_field(s, tr, &l->pda_tail_lpos, "prb->text_data_ring.tail_lpos",
		       &r->tail_lpos))
		return -errno;
	if (kt_read_member(s, r->addr, &l->prb_fail, &r->fail))
		r->fail = 0;
	if (r->count_bits < 1 || r->count_bits > KT_LOG_MAX_COUNT_BITS ||
	    r->size_bits < 4 || r->size_bits > KT_LOG_MAX_SIZE_BITS)
		return kt_err(EBADMSG, "kernel log: printk ring at 0x%llx: count_bits %u or "
				       "size_bits %u out of range (corrupt)",
			      (unsigned long long)r->addr, r->count_bits, r->size_bits);
	r->count = 1ULL << r->count_bits;
	r->size = 1ULL << r->size_bits;
	r->descs.what = "prb->desc_ring.descs";
	r->descs.addr = descs;
	r->descs.len = r->count * l->prb_desc_size;
	r->infos.what = "prb->desc_ring.infos";
	r->infos.addr = infos;
	r->infos.len = r->count * l->printk_info_size;
	r->text.what = "prb->text_data_ring.data";
	r->text.addr = data;
	r->text.len = r->size;
	if (area_read(s, &r->descs) || area_read(s, &r->infos) || area_read(s, &r->text))
		return -errno;
	return 0;
}

/* A descriptor that fails validation: counted, and told for the first few. */
static void bad(struct kt_session *s, struct prb *r, struct kt_log *log, uint64_t id,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void bad(struct kt_session *s, struct prb *r, struct kt_log *log, uint64_t id,
		const char *fmt, ...)
{
	uint64_t idx = id & (r->count - 1);
	char why[256];
	va_list ap;

	log->loss.log_corrupt++;
	if (!r->seen_valid)
		r->lost_before_first++;
	if (r->warned++ >= MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	kt_warn(s, "kernel log: descriptor %llu (id 0x%llx) at 0x%llx: %s: skipped",
		(unsigned long long)idx, (unsigned long long)id,
		(unsigned long long)(r->descs.addr + idx * s->l.prb_desc_size), why);
}

static void unreadable(struct prb *r, struct kt_log *log)
{
	log->loss.log_unreadable++;
	if (!r->seen_valid)
		r->lost_before_first++;
}

/*
 * The text block [@begin, @next) of descriptor @id: get_data() in
 * printk_ringbuffer.c, plus the checks it leaves to WARN_ON or to the
 * state machine. Returns the text and its room, or NULL with @why set
 * (*@why NULL: the bytes are not in the dump).
 */
static const char *text_block(const struct prb *r, uint64_t id, uint64_t begin,
			      uint64_t next, uint64_t *room, char *why, size_t whylen)
{
	uint64_t mask = r->size - 1, off, len;
	const uint8_t *blk;

	if (begin % ID_SIZE || next % ID_SIZE) {
		snprintf(why, whylen, "text block 0x%llx..0x%llx not aligned",
			 (unsigned long long)begin, (unsigned long long)next);
		return NULL;
	}
	if (next == begin || next - begin > r->size) {
		snprintf(why, whylen, "text block 0x%llx..0x%llx is empty or larger than the "
				      "%llu-byte ring", (unsigned long long)begin,
			 (unsigned long long)next, (unsigned long long)r->size);
		return NULL;
	}
	/* blocks of live descriptors lie between the ring's tail and head */
	if (begin - r->tail_lpos > r->size || next - r->tail_lpos > r->size ||
	    r->head_lpos - next > r->size) {
		snprintf(why, whylen, "text block 0x%llx..0x%llx outside the ring's "
				      "0x%llx..0x%llx", (unsigned long long)begin,
			 (unsigned long long)next, (unsigned long long)r->tail_lpos,
			 (unsigned long long)r->head_lpos);
		return NULL;
	}
	/*
	 * Same wrap: the block is in place. Next wrap: at the ring's start.
	 * next - 1, not next: since "printk_ringbuffer: don't needlessly wrap
	 * data blocks around" (2025) a block may end exactly at the end of
	 * the ring; before, such a block was wrapped.
	 */
	if (begin >> r->size_bits == (next - 1) >> r->size_bits) {
		off = begin & mask;
		len = next - begin;
	} else {
		off = 0;
		len = next & mask;
	}
	if (len < ID_SIZE) {
		snprintf(why, whylen, "text block 0x%llx..0x%llx shorter than its id",
			 (unsigned long long)begin, (unsigned long long)next);
		return NULL;
	}
	blk = area_get(&r->text, off, len);
	if (!blk) {
		why[0] = '\0';
		return NULL;
	}
	if (kt_get64(r->be, blk) != id) {
		snprintf(why, whylen, "text block at ring offset 0x%llx holds id 0x%llx",
			 (unsigned long long)off, (unsigned long long)kt_get64(r->be, blk));
		return NULL;
	}
	*room = len - ID_SIZE;
	return (const char *)blk + ID_SIZE;
}

/* a NUL-terminated copy of the char array member @m of @info into @dst */
static char *copy_str(char *dst, const uint8_t *info, const struct kt_member *m)
{
	if (!m->present || !m->size) {
		*dst = '\0';
		return dst + 1;
	}
	memcpy(dst, info + m->off, m->size);
	dst[m->size] = '\0';
	return dst + strlen(dst) + 1;
}

static int add_record(struct kt_session *s, struct kt_log *log, const uint8_t *info,
		      const char *text, uint32_t text_len)
{
	const struct kt_layout *l = &s->l;
	struct kt_log_record *rec;
	size_t need = (size_t)text_len + 1 + (l->pi_subsystem.present ? l->pi_subsystem.size : 0) +
		      1 + (l->pi_device.present ? l->pi_device.size : 0) + 1;
	char *buf, *p;

	if (log->n == log->cap) {
		size_t nc = log->cap ? 2 * log->cap : 1024;
		struct kt_log_record *nr = realloc(log->recs, nc * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		log->recs = nr;
		log->cap = nc;
	}
	buf = malloc(need);
	if (!buf)
		return -ENOMEM;
	rec = &log->recs[log->n++];
	memset(rec, 0, sizeof(*rec));
	memcpy(buf, text, text_len);
	buf[text_len] = '\0';
	rec->text = buf;
	rec->text_len = text_len;
	rec->subsystem = p = buf + text_len + 1;
	p = copy_str(p, info, &l->pi_subsystem);
	rec->device = p;
	copy_str(p, info, &l->pi_device);
	rec->seq = kt_get64(l->be, info + l->pi_seq.off);
	rec->ts_nsec = kt_get64(l->be, info + l->pi_ts_nsec.off);
	rec->caller_id = l->pi_caller_id.present ? kt_get32(l->be, info + l->pi_caller_id.off) : 0;
	rec->facility = l->pi_facility.present ? info[l->pi_facility.off] : 0;
	rec->level = -1;
	/*
	 * u8 flags:5, level:3 share a byte: GCC fills it from bit 0 on a
	 * little-endian machine, from bit 7 on a big-endian one (s390x)
	 */
	if (l->pi_level.present && l->pi_flags.present && l->pi_level.off == l->pi_flags.off) {
		uint8_t v = info[l->pi_flags.off];

		rec->flags = l->be ? v >> 3 : v & 0x1f;
		rec->level = l->be ? v & 7 : v >> 5;
	}
	log->loss.log_records++;
	return 0;
}

/* walk and decode: one descriptor; -ENOMEM is the only error */
static int read_desc(struct kt_session *s, struct prb *r, struct kt_log *log, uint64_t id,
		     bool is_head)
{
	const struct kt_layout *l = &s->l;
	uint64_t idx = id & (r->count - 1), sv, seq, begin, next, room = 0;
	const uint8_t *d, *info;
	const char *text = "";
	uint16_t text_len;
	char why[200];
	int err;

	d = area_get(&r->descs, idx * l->prb_desc_size, l->prb_desc_size);
	if (!d) {
		unreadable(r, log);
		return 0;
	}
	sv = kt_get64(l->be, d + l->pd_state_var.off);
	if ((sv & DESC_ID_MASK) != id) {
		/* a writer moved head_id and had not yet claimed the descriptor */
		if (is_head) {
			log->loss.log_inflight++;
			return 0;
		}
		bad(s, r, log, id, "state_var 0x%llx holds another id",
		    (unsigned long long)sv);
		return 0;
	}
	switch (sv >> DESC_FLAGS_SHIFT) {
	case DESC_RESERVED:
		/* being written when the kernel stopped */
		log->loss.log_inflight++;
		return 0;
	case DESC_REUSABLE:
		/* recycled by the writer (or the ring's initial tail): no record */
		return 0;
	}
	info = area_get(&r->infos, idx * l->printk_info_size, l->printk_info_size);
	if (!info) {
		unreadable(r, log);
		return 0;
	}
	seq = kt_get64(l->be, info + l->pi_seq.off);
	/* a descriptor's seq starts at its index and grows by the ring's count */
	if ((seq & (r->count - 1)) != idx) {
		bad(s, r, log, id, "seq %llu does not belong at index %llu",
		    (unsigned long long)seq, (unsigned long long)idx);
		return 0;
	}
	text_len = kt_get16(l->be, info + l->pi_text_len.off);
	begin = kt_get64(l->be, d + l->pd_text_begin.off);
	next = kt_get64(l->be, d + l->pd_text_next.off);
	if ((begin & 1) || (next & 1)) {
		if (begin != NO_LPOS || next != NO_LPOS) {
			/* FAILED_LPOS: the kernel found no room for the text */
			log->loss.log_dropped++;
			if (!r->seen_valid)
				r->lost_before_first++;
			return 0;
		}
	} else {
		text = text_block(r, id, begin, next, &room, why, sizeof(why));
		if (!text && !why[0]) {
			unreadable(r, log);
			return 0;
		}
		if (!text) {
			bad(s, r, log, id, "%s", why);
			return 0;
		}
	}
	if (text_len > room) {
		bad(s, r, log, id, "text_len %u past its %llu-byte text block", text_len,
		    (unsigned long long)room);
		return 0;
	}
	err = add_record(s, log, info, text, text_len);
	if (err)
		return err;
	if (!r->seen_valid) {
		r->seen_valid = true;
		/* records 0 .. seq - 1 are gone, less those counted lost here */
		log->loss.log_overwritten = seq > r->lost_before_first ?
					    seq - r->lost_before_first : 0;
	}
	return 0;
}

int kt_log__read_prb(struct kt_session *s, struct kt_log *log)
{
	struct prb r;
	uint64_t n, id, i;
	int err;

	memset(&r, 0, sizeof(r));
	err = read_header(s, &r);
	if (err)
		goto out;
	r.head_id &= DESC_ID_MASK;
	r.tail_id &= DESC_ID_MASK;
	n = ((r.head_id - r.tail_id) & DESC_ID_MASK) + 1;
	if (n > r.count) {
		kt_warn(s, "kernel log: tail_id 0x%llx is %llu descriptors behind head_id 0x%llx, "
			   "more than the ring's %llu: reading the last %llu",
			(unsigned long long)r.tail_id, (unsigned long long)n - 1,
			(unsigned long long)r.head_id, (unsigned long long)r.count,
			(unsigned long long)r.count);
		log->loss.log_corrupt++;
		n = r.count;
	}
	id = (r.head_id - (n - 1)) & DESC_ID_MASK;
	for (i = 0; i < n && !err; i++, id = (id + 1) & DESC_ID_MASK)
		err = read_desc(s, &r, log, id, id == r.head_id);
	if (err)
		kt_err(err, "kernel log: out of memory");
	log->loss.log_dropped += r.fail;
	if (r.warned > MAX_WARNINGS)
		kt_warn(s, "kernel log: %llu more corrupt descriptors skipped",
			(unsigned long long)(r.warned - MAX_WARNINGS));
out:
	area_free(&r.descs);
	area_free(&r.infos);
	area_free(&r.text);
	return err;
}
