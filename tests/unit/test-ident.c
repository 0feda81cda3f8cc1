// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The dump's identity (lib/ident.c) and the panicking CPU (lib/panic.c)
 * against a fake kernel: release and build-id from the VMCOREINFO text at
 * vmcoreinfo_data; from the note at vmcoreinfo_note when the text is the
 * safe copy in the crash kernel's memory, which a kdump does not hold; and
 * nothing, said, when neither can be read or the note is not VMCOREINFO.
 */
#include "fake-check.h"

static const char text[] = "OSRELEASE=6.1.0-99-test\nPAGESIZE=4096\n"
			   "BUILD-ID=0123456789abcdef0123456789abcdef01234567\n";

/* the note update_vmcoreinfo_note() writes: Elf64_Nhdr, name, text */
static uint64_t note(struct fk_kernel *k, const char *name)
{
	uint64_t n = fk_alloc(k, 24 + sizeof(text));

	fk_w32(k, n, 11);
	fk_w32(k, n + 4, sizeof(text) - 1);
	fk_w32(k, n + 8, 0);
	memcpy(fk_ptr(k, n + 12, 11), name, 11);
	memcpy(fk_ptr(k, n + 24, sizeof(text) - 1), text, sizeof(text) - 1);
	return n;
}

/* @how: 0 text readable, 1 text unreadable (note read), 2 neither, 3 bad note */
static void run(int how, const char *what)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(2, &gb);
	struct fk_session fs;
	uint64_t data, p, pn, n, size, pc;
	struct fk_ring *r0, *r1;
	const char *r, *b, *src;

	r0 = fk_ring_new(k, &gb, 0, 2);
	r1 = fk_ring_new(k, &gb, 1, 2);
	data = fk_alloc(k, FK_PAGE);
	memcpy(fk_ptr(k, data, sizeof(text)), text, sizeof(text));
	p = fk_alloc(k, 8);
	fk_w64(k, p, data);
	fk_sym(k, "vmcoreinfo_data", p);
	size = fk_alloc(k, 8);
	fk_w64(k, size, sizeof(text) - 1);
	fk_sym(k, "vmcoreinfo_size", size);
	pn = fk_alloc(k, 8);
	n = note(k, how == 3 ? "VMCOREINFX" : "VMCOREINFO");
	fk_w64(k, pn, n);
	fk_sym(k, "vmcoreinfo_note", pn);
	pc = fk_alloc(k, 4);
	fk_w32(k, pc, how ? 1 : 0xffffffff);
	fk_sym(k, "panic_cpu", pc);
	if (how)
		fk_fail(k, data, -EFAULT);
	if (how == 2)
		fk_fail(k, n, -ENODATA);
	if (fk_open(k, &fs, true))
		return;
	r = kt_session__release(fs.s);
	b = kt_session__build_id(fs.s);
	if (how < 2) {
		CHECK_STR(r ? r : "(null)", "6.1.0-99-test", what);
		CHECK_STR(b ? b : "(null)", "0123456789abcdef0123456789abcdef01234567", what);
	} else {
		CHECK(!r && !b, "%s: no release or build-id", what);
		CHECK(strstr(fk_log(&fs), "cannot read the VMCOREINFO text"), "%s: said: %s", what,
		      fk_log(&fs));
	}
	CHECK(kt_session__panic_cpu(fs.s, &src) == (how ? 1 : -1), "%s: panic cpu", what);
	fk_close(&fs);
	fk_free(k);
	free(r0);
	free(r1);
}

/* a release newer than the newest tested is said once; a tested one is not */
static void newer(const char *release, bool said)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_session fs;
	char t[128];
	uint64_t data, p, size;
	struct fk_ring *r0 = fk_ring_new(k, &gb, 0, 2);

	snprintf(t, sizeof(t), "OSRELEASE=%s\nPAGESIZE=4096\n", release);
	data = fk_alloc(k, FK_PAGE);
	memcpy(fk_ptr(k, data, strlen(t) + 1), t, strlen(t) + 1);
	p = fk_alloc(k, 8);
	fk_w64(k, p, data);
	fk_sym(k, "vmcoreinfo_data", p);
	size = fk_alloc(k, 8);
	fk_w64(k, size, strlen(t));
	fk_sym(k, "vmcoreinfo_size", size);
	if (!fk_open(k, &fs, true)) {
		CHECK(!!strstr(fk_log(&fs), "is newer than the newest ktrace is tested on (7.3)") == said,
		      "release %s: %s", release, said ? "said to be newer" : "not said to be newer");
		fk_close(&fs);
	}
	fk_free(k);
	free(r0);
}

int main(void)
{
	newer("7.4.0-1-cloud-amd64", true);
	newer("8.0.0", true);
	newer("7.3.4+deb13-cloud-amd64", false);
	newer("6.12.118+deb13-cloud-amd64", false);
	run(0, "VMCOREINFO text at vmcoreinfo_data");
	run(1, "the safe copy unreadable: the note at vmcoreinfo_note");
	run(2, "neither readable");
	run(3, "a note that is not VMCOREINFO");
	return fk_failed;
}
