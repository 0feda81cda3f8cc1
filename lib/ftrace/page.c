// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One ring-buffer sub-buffer (struct buffer_data_page), decoded.
 *
 * A page from a dump is hostile: commit is checked against the sub-buffer
 * size and every event length against what is left of the page before
 * the event is touched. The walk mirrors the kernel's reader
 * (rb_update_read_stamp in kernel/trace/ring_buffer.c): padding does not
 * move the clock, a time extend adds to it, an absolute stamp replaces it
 * (with the top five bits restored from the page stamp, 5.17+ TS_MSB).
 *
 * libtraceevent's kbuffer could walk this, but kbuffer_load_subbuffer()
 * trusts commit and each event length; we validate first and walk here.
 */
#include <string.h>
#include "../internal.h"

/*
 * One event of the walk of kt_page__next() over the committed data @len
 * of @data, without the clock: 1 past it (*@pos moved), 0 at the end,
 * -EBADMSG where that walk would fail (an event longer than the data
 * left), -EPROTO at a null padding. *@discard: the offset of the first
 * padding that keeps a time delta (@len: none). Such padding is an event
 * discarded after it was reserved (rb_event_discard()), or the unused end
 * of a page the writer left for the next (rb_reset_tail()), which most
 * full pages have. *@record: set at a data event or a padding.
 *
 * A null padding (type 29, time delta 0) is what rb_reset_tail() writes
 * when fewer than RB_EVNT_MIN_SIZE bytes are left at the end of a page,
 * and it sets the page's write (and so its commit) back to the padding's
 * offset: the committed data never holds one. One before the commit end
 * is damage, and what follows it would be dropped unsaid.
 */
static inline __attribute__((always_inline)) int
validate_step(bool be, const uint8_t *data, uint32_t len, uint32_t *pos, uint32_t *discard,
	      bool *record)
{
	uint32_t at = *pos, left = len - at, hdr, type_len, n;

	if (!left)
		return 0;
	if (left < 4)
		return -EBADMSG;
	hdr = kt_rb_hdr(be, data + at);
	type_len = hdr & 0x1f;
	if (type_len && type_len <= RINGBUF_TYPE_DATA_TYPE_LEN_MAX) {
		/* the length is in the header */
		n = type_len * 4;
		if (n > left - 4)
			return -EBADMSG;
		*pos = at + 4 + n;
		*record = true;
		return 1;
	}
	if (type_len == RINGBUF_TYPE_PADDING && !(hdr >> 5))
		return -EPROTO;
	if (left < 8)
		return -EBADMSG;
	switch (type_len) {
	case RINGBUF_TYPE_PADDING:
		n = kt_get32(be, data + at + 4);
		if (n > left - 4 || (n & 3))
			return -EBADMSG;
		if (*discard == len)
			*discard = at;
		*pos = at + 4 + n;
		*record = true;
		return 1;
	case RINGBUF_TYPE_TIME_EXTEND:
	case RINGBUF_TYPE_TIME_STAMP:
		*pos = at + 8;
		return 1;
	default:	/* 0: the length word follows the header */
		n = kt_get32(be, data + at + 4);
		if (n < 4 || n > left - 4 || (n & 3))
			return -EBADMSG;
		*pos = at + 4 + n;
		*record = true;
		return 1;
	}
}

/*
 * The end of a walk: a time extend or an absolute stamp is written in
 * the same reservation as the event it stamps (rb_add_timestamp()), and
 * a discarded event stays as padding (or goes with its stamp,
 * rb_try_to_discard()): committed data of nothing but stamps is damage
 * (-ENOMSG), not a page without events.
 */
static inline int validate_end(int ret, uint32_t len, bool record)
{
	return !ret && len && !record ? -ENOMSG : ret;
}

/*
 * The whole page validated: the hot path of trace.dat (every event of a
 * 1 GiB ring), so the walk keeps its position in a register and stores
 * nothing else.
 */
static int validate(bool be, const uint8_t *data, uint32_t len, uint32_t *discard)
{
	uint32_t pos = 0;
	bool record = false;
	int ret;

	*discard = len;
	while ((ret = validate_step(be, data, len, &pos, discard, &record)) > 0)
		;
	return validate_end(ret, len, record);
}

/*
 * Each step of the walk waits for the load of the header it stepped to;
 * walks of four pages, a step of each in turn, overlap those waits
 * (about 1.8 times the pages a second of one walk at a time).
 */
#define CHECK_LANES 4

static uint32_t committed(const struct kt_layout *l, const uint8_t *page, uint32_t subbuf_size,
			  bool *bad)
{
	uint64_t commit = kt_getn(l->be, page + l->dp_commit.off, l->dp_commit.size == 4 ? 4 : 8);

	commit &= ~(uint64_t)RB_MISSED_FLAGS;
	*bad = commit > subbuf_size - l->dp_data.off;
	return *bad ? 0 : (uint32_t)commit;
}

void kt_page__check(const struct kt_layout *l, const uint8_t *const *pages, unsigned int n,
		    uint32_t subbuf_size, struct kt_page_check *chk)
{
	unsigned int i, k;

	for (i = 0; i < n; i += CHECK_LANES) {
		const uint8_t *data[CHECK_LANES];
		uint32_t len[CHECK_LANES], pos[CHECK_LANES] = { 0 };
		bool record[CHECK_LANES] = { false };
		unsigned int live = 0;
		bool bad;

		for (k = 0; k < CHECK_LANES && i + k < n; k++) {
			data[k] = pages[i + k] + l->dp_data.off;
			len[k] = committed(l, pages[i + k], subbuf_size, &bad);
			/* kt_page__load_checked() refuses that commit itself */
			chk[i + k].ret = bad ? -EBADMSG : 0;
			chk[i + k].discard = len[k];
			if (!bad)
				live |= 1u << k;
		}
		while (live) {
			for (k = 0; k < CHECK_LANES; k++) {
				int ret;

				if (!(live & (1u << k)))
					continue;
				ret = validate_step(l->be, data[k], len[k], &pos[k],
						    &chk[i + k].discard, &record[k]);
				if (ret <= 0) {
					chk[i + k].ret = validate_end(ret, len[k], record[k]);
					live &= ~(1u << k);
				}
			}
		}
	}
}

/* @chk: the page's validation, done by kt_page__check(); NULL: do it */
static int load(struct kt_page_cursor *c, const struct kt_layout *l, const uint8_t *page,
		uint32_t subbuf_size, uint32_t start, const struct kt_page_check *chk)
{
	uint32_t max = subbuf_size - l->dp_data.off;
	uint64_t commit;

	memset(c, 0, sizeof(*c));
	c->be = l->be;
	c->page_ts = kt_get64(l->be, page + l->dp_time_stamp.off);
	commit = kt_getn(l->be, page + l->dp_commit.off, l->dp_commit.size == 4 ? 4 : 8);
	c->data = page + l->dp_data.off;
	c->ts = c->page_ts;
	c->missed = commit & RB_MISSED_EVENTS;
	c->missed_stored = commit & RB_MISSED_STORED;
	commit &= ~(uint64_t)RB_MISSED_FLAGS;
	if (commit > max)
		return -EBADMSG;
	c->len = (uint32_t)commit;
	if (c->missed_stored && c->len + 8 <= max)
		c->missed_count = kt_getn(l->be, c->data + c->len, l->dp_commit.size == 4 ? 4 : 8);
	if (start > c->len)
		return -EBADMSG;
	/* validate the whole page before anything on it is believed */
	if (chk) {
		if (chk->ret)
			return chk->ret;
		c->discard = chk->discard;
	} else {
		int ret = validate(l->be, c->data, c->len, &c->discard);

		if (ret)
			return ret;
	}
	/* records before @start were consumed by a reader; walk for the clock */
	if (start) {
		const uint8_t *d;
		uint32_t sz;
		uint64_t ts;
		int ret;

		while (c->pos < start) {
			ret = kt_page__next(c, &d, &sz, &ts);
			if (ret <= 0)
				return ret ? ret : -EBADMSG;
		}
		if (c->pos != start)
			return -EBADMSG;
	}
	return 0;
}

int kt_page__load(struct kt_page_cursor *c, const struct kt_layout *l,
		  const uint8_t *page, uint32_t subbuf_size, uint32_t start)
{
	return load(c, l, page, subbuf_size, start, NULL);
}

int kt_page__load_checked(struct kt_page_cursor *c, const struct kt_layout *l,
			  const uint8_t *page, uint32_t subbuf_size, uint32_t start,
			  const struct kt_page_check *chk)
{
	return load(c, l, page, subbuf_size, start, chk);
}

const char *kt_page__why(int err)
{
	switch (err) {
	case -EPROTO:
		return "a null padding before the end of the committed data";
	case -ENOMSG:
		return "committed data of nothing but time stamps";
	default:
		return "commit or an event length beyond the data";
	}
}

static uint64_t event_stamp(bool be, const uint8_t *ev, uint32_t hdr)
{
	return ((uint64_t)kt_get32(be, ev + 4) << TS_SHIFT) + (hdr >> 5);
}

int kt_page__next(struct kt_page_cursor *c, const uint8_t **data, uint32_t *size,
		  uint64_t *ts)
{
	for (;;) {
		uint32_t left = c->len - c->pos;
		const uint8_t *ev = c->data + c->pos;
		uint32_t hdr, type_len, delta, len;
		uint64_t abs;

		if (!left)
			return 0;
		if (left < 4 || (c->pos & 3))
			return -EBADMSG;
		hdr = kt_rb_hdr(c->be, ev);
		type_len = hdr & 0x1f;
		delta = hdr >> 5;

		switch (type_len) {
		case RINGBUF_TYPE_PADDING:
			/* a null event is never committed (validate_step()) */
			if (!delta)
				return -EBADMSG;
			if (left < 8)
				return -EBADMSG;
			len = kt_get32(c->be, ev + 4);
			if (len > left - 4)
				return -EBADMSG;
			c->pos += 4 + len;
			if (c->pos & 3)
				return -EBADMSG;
			continue;
		case RINGBUF_TYPE_TIME_EXTEND:
			if (left < 8)
				return -EBADMSG;
			c->ts += event_stamp(c->be, ev, hdr);
			c->pos += 8;
			continue;
		case RINGBUF_TYPE_TIME_STAMP:
			if (left < 8)
				return -EBADMSG;
			abs = event_stamp(c->be, ev, hdr);
			if (c->page_ts & TS_MSB) {
				abs |= c->page_ts & TS_MSB;
				if (abs < c->page_ts)
					abs += 1ULL << 59;
			}
			c->ts = abs;
			c->pos += 8;
			continue;
		case 0:
			if (left < 8)
				return -EBADMSG;
			len = kt_get32(c->be, ev + 4);	/* includes the length word */
			if (len < 4 || len > left - 4 || (len & 3))
				return -EBADMSG;
			c->ts += delta;
			*data = ev + 8;
			*size = len - 4;
			*ts = c->ts;
			c->pos += 4 + len;
			return 1;
		default:
			len = type_len * 4;
			if (len > left - 4)
				return -EBADMSG;
			c->ts += delta;
			*data = ev + 4;
			*size = len;
			*ts = c->ts;
			c->pos += 4 + len;
			return 1;
		}
	}
}
