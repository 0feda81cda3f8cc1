// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The dump's kallsyms (lib/kallsyms.c) in each address encoding the
 * kernel has used, written into a fake kernel's memory as
 * scripts/kallsyms lays them out, and read back by name:
 *   - offsets from kallsyms_relative_base (KALLSYMS_BASE_RELATIVE);
 *   - the same with KALLSYMS_ABSOLUTE_PERCPU (x86_64 until 6.15): an
 *     offset >= 0 is an absolute address (per-CPU), a negative one is
 *     kallsyms_relative_base - 1 - offset;
 *   - v7.0: no kallsyms_relative_base, each offset relative to its own
 *     place in kallsyms_offsets;
 *   - kallsyms_addresses (absolute, no base);
 * and a table made by kt_kallsyms__from_list() (a vmlinux's symbol table).
 * The expected addresses are the ones the tables were written from.
 */
#include "fake-check.h"

enum enc { BASE_RELATIVE, ABSOLUTE_PERCPU, PLACE_RELATIVE, ADDRESSES };

static const char *const names[] = { "_text", "_stext", "schedule", "do_sys_open", "fixed_percpu_data" };
#define NSYM 5

/* where each symbol is: code after _text, the last a per-CPU offset */
static void want_addrs(uint64_t text, uint64_t *a)
{
	a[0] = text;
	a[1] = text;
	a[2] = text + 0x1234560;
	a[3] = text + 0x2000000;
	a[4] = 0;	/* per-CPU: zero-based */
}

/* single-character tokens: token c is the character c */
static void write_tokens(struct fk_kernel *k)
{
	uint64_t ttab = fk_alloc(k, 512), tidx = fk_alloc(k, 512);
	int c;

	for (c = 0; c < 256; c++) {
		fk_ptr(k, ttab + 2 * c, 1)[0] = (uint8_t)c;
		fk_ptr(k, tidx + 2 * c, 2)[0] = (uint8_t)(2 * c);
		fk_ptr(k, tidx + 2 * c, 2)[1] = (uint8_t)((2 * c) >> 8);
	}
	fk_sym(k, "kallsyms_token_table", ttab);
	fk_sym(k, "kallsyms_token_index", tidx);
}

static void write_names(struct fk_kernel *k)
{
	uint64_t p = fk_alloc(k, FK_PAGE), num = fk_alloc(k, 8);	/* read to a page end */
	size_t i, at = 0;

	for (i = 0; i < NSYM; i++) {
		size_t n = strlen(names[i]);
		uint8_t *b = fk_ptr(k, p + at, n + 2);

		b[0] = (uint8_t)(n + 1);
		b[1] = i == NSYM - 1 ? 'D' : 'T';
		memcpy(b + 2, names[i], n);
		at += n + 2;
	}
	fk_sym(k, "kallsyms_names", p);
	fk_w32(k, num, NSYM);
	fk_sym(k, "kallsyms_num_syms", num);
}

static void run(enum enc enc, const char *what)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	uint64_t offs = fk_alloc(k, 64), base = fk_alloc(k, 8), want[NSYM], got;
	uint64_t text = 0xffffffff81000000ULL;
	struct kt_target t;
	struct kt_kallsyms *ks;
	char type;
	int i;

	/* the place-relative table reaches only +-2 GiB from itself */
	if (enc == PLACE_RELATIVE)
		text = offs - 0x10000000;
	want_addrs(text, want);
	write_tokens(k);
	write_names(k);
	for (i = 0; i < NSYM; i++) {
		int32_t o;

		switch (enc) {
		case BASE_RELATIVE:
			o = (int32_t)(uint32_t)(want[i] - text);
			break;
		case ABSOLUTE_PERCPU:
			o = i == NSYM - 1 ? (int32_t)want[i] : (int32_t)(text - 1 - want[i]);
			break;
		case PLACE_RELATIVE:
			o = (int32_t)(want[i] - (offs + 4 * (uint64_t)i));
			break;
		default:
			o = 0;
		}
		if (enc == ADDRESSES)
			fk_w64(k, offs + 8 * i, want[i]);
		else
			fk_w32(k, offs + 4 * i, (uint32_t)o);
	}
	if (enc == ADDRESSES) {
		fk_sym(k, "kallsyms_addresses", offs);
	} else {
		fk_sym(k, "kallsyms_offsets", offs);
		if (enc != PLACE_RELATIVE) {
			fk_w64(k, base, text);
			fk_sym(k, "kallsyms_relative_base", base);
		}
	}
	fk_sym(k, "_stext", text);
	fk_target(k, &t);
	ks = kt_kallsyms__load(&t);
	CHECK(ks != NULL, "%s: decoded (%s)", what, ks ? "ok" : kt_last_error());
	if (!ks) {
		fk_free(k);
		return;
	}
	CHECK(kt_kallsyms__count(ks) == NSYM, "%s: %u symbols", what, kt_kallsyms__count(ks));
	for (i = 1; i < NSYM; i++) {
		/* zero-based per-CPU offsets are only in absolute encodings */
		if (i == NSYM - 1 && (enc == BASE_RELATIVE || enc == PLACE_RELATIVE))
			continue;
		got = 0;
		CHECK(!kt_kallsyms__find(ks, names[i], &got, &type) && got == want[i],
		      "%s: %s at 0x%llx (want 0x%llx)", what, names[i], (unsigned long long)got,
		      (unsigned long long)want[i]);
	}
	kt_kallsyms__free(ks);
	fk_free(k);
}

static void from_list(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	uint64_t a[NSYM], got = 0;
	char types[NSYM] = { 'T', 'T', 't', 'T', 'D' }, type = 0;
	struct kt_target t;
	struct kt_kallsyms *ks;

	want_addrs(0xffffffff9a000000ULL, a);
	fk_sym(k, "_text", a[0]);
	fk_target(k, &t);
	ks = kt_kallsyms__from_list(&t, NSYM, a, types, names);
	CHECK(ks && kt_kallsyms__count(ks) == NSYM, "from_list: a table of %d", NSYM);
	CHECK(ks && !kt_kallsyms__find(ks, "schedule", &got, &type) && got == a[2] && type == 't',
	      "from_list: schedule at 0x%llx, type %c", (unsigned long long)got, type ? type : '?');
	CHECK(ks && kt_kallsyms__find(ks, "no_such_symbol", &got, &type) == -ENOENT,
	      "from_list: an unknown name is -ENOENT");
	kt_kallsyms__free(ks);
	fk_free(k);
}

int main(void)
{
	run(BASE_RELATIVE, "base-relative");
	run(ABSOLUTE_PERCPU, "absolute per-CPU");
	run(PLACE_RELATIVE, "place-relative (7.0)");
	run(ADDRESSES, "kallsyms_addresses");
	from_list();
	return fk_failed;
}
