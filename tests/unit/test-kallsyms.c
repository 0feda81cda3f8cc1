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
 * The expected addresses are the ones the tables were written from, in
 * address order as scripts/kallsyms sorts them (zero-based per-CPU
 * symbols first). Damaged tables that still decode are refused with the
 * reason: a token index that does not follow the tokens (a lost NUL),
 * addresses out of order.
 */
#include "fake-check.h"

enum enc { BASE_RELATIVE, ABSOLUTE_PERCPU, PLACE_RELATIVE, ADDRESSES };

static const char *const names[] = { "fixed_percpu_data", "_text", "_stext", "schedule", "do_sys_open" };
#define NSYM 5

/* where each symbol is: the first a per-CPU offset, code from _text on */
static void want_addrs(uint64_t text, uint64_t *a)
{
	a[0] = 0;	/* per-CPU: zero-based */
	a[1] = text;
	a[2] = text;
	a[3] = text + 0x1234560;
	a[4] = text + 0x2000000;
}

/* damage done to a table before it is read */
enum harm { WHOLE, TOKEN_INDEX, ORDER };

static void run_harmed(enum enc enc, const char *what, enum harm harm)
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
	/* without zero-based per-CPU symbols they are in the image (here: at _text) */
	if (enc == BASE_RELATIVE || enc == PLACE_RELATIVE)
		want[0] = text;
	if (harm == ORDER) {
		uint64_t x = want[3];

		want[3] = want[4];
		want[4] = x;
	}
	fk_kallsyms_tokens(k);
	fk_kallsyms_names(k, names, "DTTTT", NSYM);
	for (i = 0; i < NSYM; i++) {
		int32_t o;

		switch (enc) {
		case BASE_RELATIVE:
			o = (int32_t)(uint32_t)(want[i] - text);
			break;
		case ABSOLUTE_PERCPU:
			o = i == 0 ? (int32_t)want[i] : (int32_t)(text - 1 - want[i]);
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
	if (harm == TOKEN_INDEX) {
		uint64_t tidx = 0;

		/* token 66 said to start one byte late, as if a NUL were lost */
		fk_symbol(k, "kallsyms_token_index", &tidx);
		fk_ptr(k, tidx + 2 * 66, 2)[0]++;
	}
	fk_target(k, &t);
	ks = kt_kallsyms__load(&t);
	if (harm != WHOLE) {
		const char *want_msg = harm == ORDER ? "out of order at 1 place (the first: symbol 4"
						     : "token 66 starts at 132, the token before "
						       "it ends at 131: the tables are damaged";

		CHECK(!ks && errno == EBADMSG && strstr(kt_last_error(), want_msg),
		      "%s: refused: %s", what, ks ? "decoded" : kt_last_error());
		kt_kallsyms__free(ks);
		fk_free(k);
		return;
	}
	CHECK(ks != NULL, "%s: decoded (%s)", what, ks ? "ok" : kt_last_error());
	if (!ks) {
		fk_free(k);
		return;
	}
	CHECK(kt_kallsyms__count(ks) == NSYM, "%s: %u symbols", what, kt_kallsyms__count(ks));
	for (i = 0; i < NSYM; i++) {
		if (i == 1)	/* _text: where _stext is */
			continue;
		got = 0;
		CHECK(!kt_kallsyms__find(ks, names[i], &got, &type) && got == want[i],
		      "%s: %s at 0x%llx (want 0x%llx)", what, names[i], (unsigned long long)got,
		      (unsigned long long)want[i]);
	}
	kt_kallsyms__free(ks);
	fk_free(k);
}

static void run(enum enc enc, const char *what)
{
	run_harmed(enc, what, WHOLE);
}

static void from_list(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	uint64_t a[NSYM], got = 0;
	char types[NSYM] = { 'D', 'T', 'T', 't', 'T' }, type = 0;
	struct kt_target t;
	struct kt_kallsyms *ks;

	want_addrs(0xffffffff9a000000ULL, a);
	fk_sym(k, "_text", a[1]);
	fk_target(k, &t);
	ks = kt_kallsyms__from_list(&t, NSYM, a, types, names);
	CHECK(ks && kt_kallsyms__count(ks) == NSYM, "from_list: a table of %d", NSYM);
	CHECK(ks && !kt_kallsyms__find(ks, "schedule", &got, &type) && got == a[3] && type == 't',
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
	run_harmed(PLACE_RELATIVE, "a lost NUL in kallsyms_token_table", TOKEN_INDEX);
	run_harmed(PLACE_RELATIVE, "place-relative, two offsets swapped", ORDER);
	run_harmed(ABSOLUTE_PERCPU, "absolute per-CPU, two offsets swapped", ORDER);
	from_list();
	return fk_failed;
}
