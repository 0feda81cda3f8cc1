/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A printk ring buffer in the fake kernel (fake-kernel.h), written the way
 * kernel/printk/printk_ringbuffer.c writes it (5.10-6.12 layout): the
 * bootstrap descriptor, ids from DESC0_ID, seq from the index then + count,
 * text blocks "id + text" aligned to 8, wrapped to the ring's start when
 * they would cross its end, tails pushed (descriptors made reusable) to
 * make room. A test writes records and then damages what it wants:
 *
 *	struct fkp *p = fkp_new(k, 4, 8);		// 16 descriptors, 256 bytes
 *	uint64_t id = fkp_printk(p, 1000, 1, 6, "hello");
 *	fkp_desc(p, id)->state_var = ...;		// through fkp_w64()
 */
#ifndef KTRACE_TESTS_FAKE_PRINTK_H
#define KTRACE_TESTS_FAKE_PRINTK_H

#include "fake-kernel.h"

/* struct printk_ringbuffer: desc_ring at 0, text_data_ring at 48, fail at 80 */
#define PRB_DESC_RING 0
#define PRB_TEXT_RING 48
#define PRB_FAIL 80
#define PRB_SIZE 88
/* prb_desc_ring */
#define PDR_COUNT_BITS 0
#define PDR_DESCS 8
#define PDR_INFOS 16
#define PDR_HEAD_ID 24
#define PDR_TAIL_ID 32
/* prb_data_ring */
#define PDA_SIZE_BITS 0
#define PDA_DATA 8
#define PDA_HEAD_LPOS 16
#define PDA_TAIL_LPOS 24
/* prb_desc (24 bytes) */
#define PD_STATE 0
#define PD_BEGIN 8
#define PD_NEXT 16
#define PD_SIZE 24
/* printk_info (88 bytes) */
#define PI_SEQ 0
#define PI_TS 8
#define PI_TEXT_LEN 16
#define PI_FACILITY 18
#define PI_FLAGS_LEVEL 19
#define PI_CALLER 20
#define PI_SUBSYSTEM 24
#define PI_DEVICE 40
#define PI_SIZE 88

#define FKP_ID_MASK (~(3ULL << 62))
#define FKP_SV(id, state) (((uint64_t)(state) << 62) | (id))
#define FKP_RESERVED 0
#define FKP_COMMITTED 1
#define FKP_FINALIZED 2
#define FKP_REUSABLE 3

static const struct fk_member fkp_members[] = {
	{ "struct printk_ringbuffer", "desc_ring", PRB_DESC_RING, 48 },
	{ "struct printk_ringbuffer", "text_data_ring", PRB_TEXT_RING, 32 },
	{ "struct printk_ringbuffer", "fail", PRB_FAIL, 8 },
	{ "struct prb_desc_ring", "count_bits", PDR_COUNT_BITS, 4 },
	{ "struct prb_desc_ring", "descs", PDR_DESCS, 8 },
	{ "struct prb_desc_ring", "infos", PDR_INFOS, 8 },
	{ "struct prb_desc_ring", "head_id", PDR_HEAD_ID, 8 },
	{ "struct prb_desc_ring", "tail_id", PDR_TAIL_ID, 8 },
	{ "struct prb_data_ring", "size_bits", PDA_SIZE_BITS, 4 },
	{ "struct prb_data_ring", "data", PDA_DATA, 8 },
	{ "struct prb_data_ring", "head_lpos", PDA_HEAD_LPOS, 8 },
	{ "struct prb_data_ring", "tail_lpos", PDA_TAIL_LPOS, 8 },
	{ "struct prb_desc", "state_var", PD_STATE, 8 },
	{ "struct prb_desc", "text_blk_lpos.begin", PD_BEGIN, 8 },
	{ "struct prb_desc", "text_blk_lpos.next", PD_NEXT, 8 },
	{ "struct printk_info", "seq", PI_SEQ, 8 },
	{ "struct printk_info", "ts_nsec", PI_TS, 8 },
	{ "struct printk_info", "text_len", PI_TEXT_LEN, 2 },
	{ "struct printk_info", "facility", PI_FACILITY, 1 },
	{ "struct printk_info", "flags", PI_FLAGS_LEVEL, 1 },
	{ "struct printk_info", "level", PI_FLAGS_LEVEL, 1 },
	{ "struct printk_info", "caller_id", PI_CALLER, 4 },
	{ "struct printk_info", "dev_info.subsystem", PI_SUBSYSTEM, 16 },
	{ "struct printk_info", "dev_info.device", PI_DEVICE, 48 },
};

static FK_UNUSED int fkp_member(void *priv, const char *type, const char *member,
				uint64_t *off, uint64_t *size)
{
	size_t i;

	for (i = 0; i < sizeof(fkp_members) / sizeof(fkp_members[0]); i++) {
		if (!strcmp(fkp_members[i].type, type) && !strcmp(fkp_members[i].member, member)) {
			*off = fkp_members[i].off;
			*size = fkp_members[i].size;
			return 0;
		}
	}
	return fk_member(priv, type, member, off, size);
}

static FK_UNUSED int fkp_type_size(void *priv, const char *type, uint64_t *size)
{
	if (!strcmp(type, "struct prb_desc")) {
		*size = PD_SIZE;
		return 0;
	}
	if (!strcmp(type, "struct printk_info")) {
		*size = PI_SIZE;
		return 0;
	}
	return fk_type_size(priv, type, size);
}

/* The writer's view: live records oldest first, to push the tails. */
struct fkp {
	struct fk_kernel *k;
	uint64_t prb, descs, infos, data;
	uint32_t count_bits, size_bits;
	uint64_t count, size;
	uint64_t live[1024];	/* ids, oldest first */
	int nr_live;
};

static FK_UNUSED uint64_t fkp_desc(struct fkp *p, uint64_t id)
{
	return p->descs + (id & (p->count - 1)) * PD_SIZE;
}

static FK_UNUSED uint64_t fkp_info(struct fkp *p, uint64_t id)
{
	return p->infos + (id & (p->count - 1)) * PI_SIZE;
}

static FK_UNUSED uint64_t fkp_r64(struct fkp *p, uint64_t addr)
{
	uint64_t v;

	memcpy(&v, fk_ptr(p->k, addr, 8), 8);
	return v;
}

/* prb with 2^@count_bits descriptors and 2^@size_bits bytes of text */
static FK_UNUSED struct fkp *fkp_new(struct fk_kernel *k, uint32_t count_bits,
				     uint32_t size_bits)
{
	struct fkp *p = calloc(1, sizeof(*p));
	uint64_t ptr, id0, last;

	p->k = k;
	p->count_bits = count_bits;
	p->size_bits = size_bits;
	p->count = 1ULL << count_bits;
	p->size = 1ULL << size_bits;
	p->prb = fk_alloc(k, PRB_SIZE);
	p->descs = fk_alloc(k, (uint32_t)(p->count * PD_SIZE));
	p->infos = fk_alloc(k, (uint32_t)(p->count * PI_SIZE));
	p->data = fk_alloc(k, (uint32_t)p->size);
	ptr = fk_alloc(k, 8);
	fk_w64(k, ptr, p->prb);
	fk_sym(k, "prb", ptr);
	fk_w32(k, p->prb + PRB_DESC_RING + PDR_COUNT_BITS, count_bits);
	fk_w64(k, p->prb + PRB_DESC_RING + PDR_DESCS, p->descs);
	fk_w64(k, p->prb + PRB_DESC_RING + PDR_INFOS, p->infos);
	fk_w32(k, p->prb + PRB_TEXT_RING + PDA_SIZE_BITS, size_bits);
	fk_w64(k, p->prb + PRB_TEXT_RING + PDA_DATA, p->data);
	/* DESC0_ID: -(count + 1) as the 32-bit unsigned _DESCS_COUNT makes it */
	id0 = (uint32_t)-(uint32_t)(p->count + 1);
	fk_w64(k, p->prb + PRB_DESC_RING + PDR_HEAD_ID, id0);
	fk_w64(k, p->prb + PRB_DESC_RING + PDR_TAIL_ID, id0);
	/* BLK0_LPOS: -size */
	fk_w64(k, p->prb + PRB_TEXT_RING + PDA_HEAD_LPOS, -p->size);
	fk_w64(k, p->prb + PRB_TEXT_RING + PDA_TAIL_LPOS, -p->size);
	last = fkp_desc(p, id0);
	fk_w64(k, last + PD_STATE, FKP_SV(id0, FKP_REUSABLE));
	fk_w64(k, last + PD_BEGIN, 1);
	fk_w64(k, last + PD_NEXT, 1);
	fk_w64(k, p->infos + PI_SEQ, -p->count);	/* index 0: becomes 0 */
	return p;
}

/* retire the oldest live record: reusable, tails past it */
static FK_UNUSED void fkp_retire(struct fkp *p)
{
	uint64_t id = p->live[0], d = fkp_desc(p, id), next = fkp_r64(p, d + PD_NEXT);

	fk_w64(p->k, d + PD_STATE, FKP_SV(id, FKP_REUSABLE));
	fk_w64(p->k, p->prb + PRB_DESC_RING + PDR_TAIL_ID, (id + 1) & FKP_ID_MASK);
	if (!(next & 1))
		fk_w64(p->k, p->prb + PRB_TEXT_RING + PDA_TAIL_LPOS, next);
	memmove(p->live, p->live + 1, --p->nr_live * sizeof(p->live[0]));
}

/* printk() one record, finalized; returns its id */
static FK_UNUSED uint64_t fkp_printk(struct fkp *p, uint64_t ts, uint32_t caller, int level,
				     const char *text)
{
	struct fk_kernel *k = p->k;
	uint64_t head = fkp_r64(p, p->prb + PRB_DESC_RING + PDR_HEAD_ID);
	uint64_t id = (head + 1) & FKP_ID_MASK, d, in, seq, begin, next, sz;
	uint32_t len = (uint32_t)strlen(text);

	while (p->nr_live && ((id - p->live[0]) & FKP_ID_MASK) >= p->count)
		fkp_retire(p);
	/* the bootstrap descriptor, tail of a fresh ring, is pushed when reached */
	if (((id - fkp_r64(p, p->prb + PRB_DESC_RING + PDR_TAIL_ID)) & FKP_ID_MASK) >= p->count)
		fk_w64(k, p->prb + PRB_DESC_RING + PDR_TAIL_ID, (id - p->count + 1) & FKP_ID_MASK);
	d = fkp_desc(p, id);
	in = fkp_info(p, id);
	begin = fkp_r64(p, p->prb + PRB_TEXT_RING + PDA_HEAD_LPOS);
	sz = (8 + len + 7) & ~7ULL;
	if (!len) {
		begin = next = 3;	/* NO_LPOS: an empty line has no block */
	} else {
		next = begin + sz;
		/* crossing the end of the ring: the block goes to its start */
		if (begin >> p->size_bits != next >> p->size_bits)
			next = (next & ~(p->size - 1)) + sz;
		while (p->nr_live && next - fkp_r64(p, p->prb + PRB_TEXT_RING + PDA_TAIL_LPOS) >
					     p->size)
			fkp_retire(p);
		fk_w64(k, p->data + (begin & (p->size - 1)), id);
		if (next - begin > sz)
			fk_w64(k, p->data, id);
		memcpy(fk_ptr(k, p->data + ((next - sz) & (p->size - 1)) + 8, len), text, len);
		fk_w64(k, p->prb + PRB_TEXT_RING + PDA_HEAD_LPOS, next);
	}
	seq = fkp_r64(p, in + PI_SEQ);
	seq = !seq && (id & (p->count - 1)) ? (id & (p->count - 1)) : seq + p->count;
	memset(fk_ptr(k, in, PI_SIZE), 0, PI_SIZE);
	fk_w64(k, in + PI_SEQ, seq);
	fk_w64(k, in + PI_TS, ts);
	*fk_ptr(k, in + PI_TEXT_LEN, 1) = (uint8_t)len;
	*fk_ptr(k, in + PI_TEXT_LEN + 1, 1) = (uint8_t)(len >> 8);
	*fk_ptr(k, in + PI_FLAGS_LEVEL, 1) = (uint8_t)(2 | level << 5);	/* LOG_NEWLINE */
	fk_w32(k, in + PI_CALLER, caller);
	fk_w64(k, d + PD_BEGIN, begin);
	fk_w64(k, d + PD_NEXT, next);
	fk_w64(k, d + PD_STATE, FKP_SV(id, FKP_FINALIZED));
	fk_w64(k, p->prb + PRB_DESC_RING + PDR_HEAD_ID, id);
	p->live[p->nr_live++] = id;
	return id;
}

#endif /* KTRACE_TESTS_FAKE_PRINTK_H */
