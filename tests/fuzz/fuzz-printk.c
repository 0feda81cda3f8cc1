// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the printk ring buffer of a dump, as hostile as it
 * gets, through kt_session__log() and the text and JSON writers.
 *
 * A fake kernel (tests/unit/fake-printk.h) logs a few records into a ring
 * of 16 descriptors and 512 bytes of text, as the kernel would; the input
 * is then XORed over the descriptors, the infos, the text and the ring's
 * head/tail ids and lpos, in that order (an empty input leaves a sound
 * ring). Beyond not crashing: every record's text fits the text ring and
 * the number of records stays within the descriptor count.
 */
#include <stdio.h>
#include "fake-check.h"
#include "fake-printk.h"

static void xor_in(struct fk_kernel *k, uint64_t addr, size_t len, const uint8_t **in,
		   size_t *left)
{
	uint8_t *p = fk_ptr(k, addr, len);
	size_t i;

	for (i = 0; i < len && *left; i++, (*left)--)
		p[i] ^= *(*in)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len)
{
	struct kt_open_opts o = { .sz = sizeof(o), .no_events = true };
	const struct kt_log_record *r;
	struct kt_log_opts lo = { .sz = sizeof(lo) };
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct kt_session *s;
	struct kt_target t;
	struct kt_log *log;
	struct fkp *p;
	FILE *null = fopen("/dev/null", "w");
	size_t n = 0;

	free(fk_ring_new(k, &gb, 0, 2));
	p = fkp_new(k, 4, 9);
	fkp_printk(p, 1000, 1, 6, "Linux version fuzz");
	fkp_printk(p, 2000, 0x80000001, 4, "two\nlines");
	fkp_printk(p, 3000, 7, 0, "");
	fkp_printk(p, 4000, 1, 0, "Kernel panic - not syncing: fuzz");
	xor_in(k, p->descs, p->count * PD_SIZE, &in, &len);
	xor_in(k, p->infos, p->count * PI_SIZE, &in, &len);
	xor_in(k, p->data, p->size, &in, &len);
	xor_in(k, p->prb + PRB_DESC_RING + PDR_HEAD_ID, 16, &in, &len);
	xor_in(k, p->prb + PRB_TEXT_RING + PDA_HEAD_LPOS, 16, &in, &len);
	fk_target(k, &t);
	t.member = fkp_member;
	t.type_size = fkp_type_size;
	o.log = null;
	s = kt_session__open(&t, &o);
	if (!s)
		abort();	/* the trace side is sound: the session must open */
	log = kt_session__log(s);
	if (log) {
		kt_log__for_each_record(r, log) {
			if (r->text_len > p->size || strlen(r->text) > r->text_len)
				abort();
			n++;
		}
		if (n > p->count)
			abort();
		kt_log__write(log, null, &lo);
		lo.json = true;
		kt_log__write(log, null, &lo);
		kt_timeline__write(s, null, NULL);
	}
	kt_session__free(s);
	fclose(null);
	free(p);
	fk_free(k);
	return 0;
}
