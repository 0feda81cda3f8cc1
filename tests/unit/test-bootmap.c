// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * last_boot_info of a boot-mapped (persistent) instance on a 6.15+ kernel,
 * against the fake kernel: what show_last_boot_header() and l_show() of
 * kernel/trace/trace.c print from tr->scratch: the previous boot's clock
 * ("trace_clock: %s\n"), kernel text ("%lx\t[kernel]\n") and modules
 * ("%lx\t%s\n") while TRACE_ARRAY_FL_LAST_BOOT is set, else "# Current\n".
 */
#include "fake-check.h"

/* an entry of trace_scratch.entries[] */
static void mod(struct fk_kernel *k, uint64_t scr, int i, uint64_t addr, const char *name)
{
	uint64_t e = scr + TS_ENTRIES + (uint64_t)i * TME_SIZE;

	fk_w64(k, e, addr);
	memcpy(fk_ptr(k, e + 8, strlen(name) + 1), name, strlen(name) + 1);
}

static void run(uint32_t flags, uint64_t nr, int want_err, const char *want, const char *what)
{
	struct fk_buffer gb, ib;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r0 = fk_ring_new(k, &gb, 0, 2), *r1;
	struct fk_session fs;
	uint64_t scr;
	char buf[1024] = "";
	int err;

	k->bootmap = true;
	fk_instance(k, "boot_map", &ib, 1);
	r1 = fk_ring_new(k, &ib, 0, 2);
	scr = fk_alloc(k, 4096);
	memcpy(fk_ptr(k, scr + TS_CLOCK, 6), "local", 6);
	fk_w64(k, scr + TS_TEXT_ADDR, 0xffffffff9a000000ULL);
	fk_w64(k, scr + TS_NR_ENTRIES, nr);
	mod(k, scr, 0, 0xffffffffc0a00000ULL, "ext4");
	mod(k, scr, 1, 0xffffffffc0b10000ULL, "jbd2");
	fk_w64(k, ib.tr + TR_RANGE_ADDR_START, 0xffff888010000000ULL);
	fk_w64(k, ib.tr + TR_SCRATCH, scr);
	fk_w32(k, ib.tr + TR_FLAGS, flags);
	if (fk_open(k, &fs, true))
		return;
	err = kt_session__last_boot_info(fs.s, kt_session__find_buffer(fs.s, "boot_map"), buf,
					 sizeof(buf));
	if (want_err) {
		CHECK(err == want_err, "%s: refused (%s)", what, kt_last_error());
	} else {
		CHECK(!err, "%s: printed%s%s", what, err ? ": " : "", err ? kt_last_error() : "");
		CHECK_STR(buf, want, what);
	}
	fk_close(&fs);
	fk_free(k);
	free(r0);
	free(r1);
}

/*
 * the previous boot's events in a boot-mapped buffer with both deltas 0
 * (nokaslr, or the same KASLR slot): the kernel still moves their module
 * addresses (trace_adjust_address(): while TRACE_ARRAY_FL_LAST_BOOT is
 * set), which ktrace does not: counted as not rendered, said. Without the
 * flag (this boot's events) nothing is counted.
 */
static void last_boot_events(uint32_t flags, bool counted, const char *what)
{
	struct fk_buffer gb, ib;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r0 = fk_ring_new(k, &gb, 0, 2), *r1;
	struct fk_session fs;
	struct fk_pb pb;
	struct kt_loss l;
	char *text;

	k->bootmap = true;
	fk_instance(k, "boot_map", &ib, 1);
	r1 = fk_ring_new(k, &ib, 0, 2);
	fk_ring_set(r1, 0, 1);
	pb = fk_page(r1, 0, 100);
	fk_ev(&pb, 10, 1, 1);
	fk_ev(&pb, 10, 1, 2);
	fk_w32(k, ib.tr + TR_FLAGS, flags);
	if (fk_open(k, &fs, true))
		return;
	text = fk_text(fs.s, kt_session__find_buffer(fs.s, "boot_map"), false);
	kt_buffer__loss(kt_session__find_buffer(fs.s, "boot_map"), &l);
	if (counted) {
		CHECK(l.events_unrendered == 2, "%s: both records counted as not rendered (%llu)", what,
		      (unsigned long long)l.events_unrendered);
		CHECK(strstr(fk_log(&fs), "previous boot") != NULL, "%s: said: %s", what,
		      fk_log(&fs));
	} else {
		CHECK(l.events_unrendered == 0, "%s: nothing counted (%llu)", what,
		      (unsigned long long)l.events_unrendered);
	}
	free(text);
	fk_close(&fs);
	fk_free(k);
	free(r0);
	free(r1);
}

int main(void)
{
	last_boot_events(2 | FK_TRACE_ARRAY_FL_LAST_BOOT, true,
			 "LAST_BOOT with text_delta and data_delta 0");
	last_boot_events(2, false, "this boot's events in a boot-mapped buffer");
	/* TRACE_ARRAY_FL_BOOT (BIT(1)) alone: this boot writes to it */
	run(2, 2, 0, "# Current\n", "this boot's buffer");
	run(2 | FK_TRACE_ARRAY_FL_LAST_BOOT, 2, 0,
	    "trace_clock: local\nffffffff9a000000\t[kernel]\n"
	    "ffffffffc0a00000\text4\nffffffffc0b10000\tjbd2\n",
	    "the previous boot's buffer: its clock, kernel and modules");
	run(2 | FK_TRACE_ARRAY_FL_LAST_BOOT, 0, 0, "trace_clock: local\nffffffff9a000000\t[kernel]\n",
	    "the previous boot's buffer, no module");
	run(2 | FK_TRACE_ARRAY_FL_LAST_BOOT, 1ULL << 40, -EBADMSG, NULL,
	    "a damaged module count");
	return fk_failed;
}
