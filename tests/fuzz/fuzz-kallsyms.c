// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the dump's kallsyms tables (lib/kallsyms.c), decoded
 * from memory the input lays out as a damaged dump could hold them:
 * kallsyms_num_syms, the token index and table, kallsyms_names, the
 * offsets (each encoding: from kallsyms_relative_base, with absolute
 * per-CPU entries, place-relative, kallsyms_addresses) and whatever lies
 * where kallsyms_seqs_of_names is looked for; with or without a symbol
 * table to ask the names of (KT_TARGET_SYMTAB). A decoded table is then
 * asked by name.
 *
 * Input: 1 byte (encoding % 4, bit 2: KT_TARGET_SYMTAB, bit 3: the
 * relative base unreadable), num_syms (u16), where in the blob the names,
 * the token table and the offsets start (3 x u16), the token index (512
 * bytes); the rest is the blob, one region of memory.
 */
#include <stdlib.h>
#include "fake-kernel.h"

#define HDR (1 + 2 + 6 + 512)

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len)
{
	static const char *const ask[] = { "_text", "_stext", "schedule", "a", "" };
	struct fk_buffer gb;
	struct fk_kernel *k;
	struct kt_target t;
	struct kt_kallsyms *ks;
	uint64_t blob, tidx, num, base, a;
	uint32_t n, blen, at[3];
	unsigned int enc, i;
	char type;

	if (len < HDR + 1 || len - HDR > (1u << 20))
		return 0;
	enc = in[0] & 3;
	n = (uint32_t)(in[1] | in[2] << 8);
	blen = (uint32_t)(len - HDR);
	for (i = 0; i < 3; i++)
		at[i] = (uint32_t)(in[3 + 2 * i] | in[4 + 2 * i] << 8) % blen;
	k = fk_new(1, &gb);
	num = fk_alloc(k, 4);
	fk_w32(k, num, n);
	fk_sym(k, "kallsyms_num_syms", num);
	tidx = fk_alloc(k, 512);
	memcpy(fk_ptr(k, tidx, 512), in + 9, 512);
	fk_sym(k, "kallsyms_token_index", tidx);
	/* whole pages: the names are read ahead up to a page's end, as in a dump */
	blob = fk_alloc(k, (blen + FK_PAGE - 1) & ~(uint32_t)(FK_PAGE - 1));
	memcpy(fk_ptr(k, blob, blen), in + HDR, blen);
	fk_sym(k, "kallsyms_names", blob + at[0]);
	fk_sym(k, "kallsyms_token_table", blob + at[1]);
	fk_sym(k, enc == 3 ? "kallsyms_addresses" : "kallsyms_offsets", blob + at[2]);
	if (enc < 2) {
		base = fk_alloc(k, 8);
		fk_w64(k, base, 0xffffffff81000000ULL);
		if (in[0] & 8)
			fk_fail(k, base, -EFAULT);
		fk_sym(k, "kallsyms_relative_base", base);
	}
	fk_sym(k, "_stext", 0xffffffff81000000ULL);
	fk_sym(k, "schedule", 0xffffffff81234560ULL);
	if (in[0] & 4)
		k->target_flags |= KT_TARGET_SYMTAB;
	fk_target(k, &t);
	ks = kt_kallsyms__load(&t);
	if (ks) {
		for (i = 0; i < sizeof(ask) / sizeof(ask[0]); i++)
			kt_kallsyms__find(ks, ask[i], &a, &type);
		kt_kallsyms__count(ks);
		kt_kallsyms__free(ks);
	}
	fk_free(k);
	return 0;
}
