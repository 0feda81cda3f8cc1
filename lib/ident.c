// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The dump's identity, a session-level fact: the kernel release and GNU
 * build-id, read from the crashed kernel's own VMCOREINFO text.
 *
 * kernel/crash_core.c (kernel/vmcore_info.c since 6.9) keeps the text in
 * memory at vmcoreinfo_data, vmcoreinfo_size bytes of "KEY=value\n" lines;
 * OSRELEASE is there since 2.6.24, BUILD-ID since 5.9 (commit 0935288c6e00).
 * Reading it through the target makes the answer the same in crash and in
 * ktrace-extract, whatever the dump format kept of the ELF note.
 *
 * With a capture kernel loaded (4.15+, kimage_crash_copy_vmcoreinfo) the
 * crash switches vmcoreinfo_data to a safe copy mapped in the crash
 * kernel's reserved memory, which a kdump does not contain; the same text
 * was then written as an ELF note at vmcoreinfo_note (update_vmcoreinfo_note),
 * in ordinary memory: read that instead.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define VMCOREINFO_MAX	(64 * 1024)

/* the text of the ELF note at vmcoreinfo_note: 0, or -errno */
static int read_note(struct kt_session *s, char **text, uint64_t *size)
{
	uint32_t hdr[3];
	uint64_t addr, note;
	char name[12];

	if (kt_symbol(s, "vmcoreinfo_note", &addr) || kt_read_u64(s, addr, &note) || !note)
		return -ENOENT;
	/* Elf64_Nhdr: namesz, descsz, type; then "VMCOREINFO\0" padded to 12 */
	if (kt_read(s, note, hdr, sizeof(hdr)) || kt_read(s, note + 12, name, sizeof(name)))
		return -EFAULT;
	kt_order(s->l.be, hdr, 3, 4);
	if (hdr[0] != 11 || memcmp(name, "VMCOREINFO", 11) || !hdr[1] || hdr[1] > VMCOREINFO_MAX)
		return -EBADMSG;
	*text = calloc(1, (size_t)hdr[1] + 1);
	if (!*text)
		return -ENOMEM;
	*size = hdr[1];
	if (kt_read(s, note + 24, *text, hdr[1])) {
		free(*text);
		*text = NULL;
		return -EFAULT;
	}
	return 0;
}

static void load(struct kt_session *s)
{
	uint64_t addr, data = 0, size = 0;
	char *text = NULL, *line, *save = NULL;
	int err;

	if (s->ident_tried)
		return;
	s->ident_tried = true;
	if (!kt_symbol(s, "vmcoreinfo_data", &addr))
		kt_read_u64(s, addr, &data);
	if (!kt_symbol(s, "vmcoreinfo_size", &addr))
		kt_read_u64(s, addr, &size);
	if (!size || size > VMCOREINFO_MAX)
		size = 4096;	/* VMCOREINFO_BYTES: one page */
	if (data) {
		text = calloc(1, size + 1);
		if (!text)
			return;
		if (kt_read(s, data, text, size)) {
			free(text);
			text = NULL;
		}
	}
	if (!text) {
		err = read_note(s, &text, &size);
		if (err) {
			/* said when the release or build-id is asked (warn()) */
			snprintf(s->ident_err, sizeof(s->ident_err),
				 "cannot read the VMCOREINFO text at 0x%llx (vmcoreinfo_data) nor "
				 "its note (vmcoreinfo_note): %s", (unsigned long long)data,
				 strerror(-err));
			return;
		}
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "OSRELEASE=", 10) && !s->release)
			s->release = strndup(line + 10, 64);
		else if (!strncmp(line, "BUILD-ID=", 9) && !s->build_id)
			s->build_id = strndup(line + 9, 128);
		else if (!strncmp(line, "PAGESIZE=", 9) && !s->vmci_page_size) {
			char *end;
			unsigned long v = strtoul(line + 9, &end, 10);

			/* a power of two from 4 KiB to 256 KiB (hexagon's largest) */
			if (*end || v < 4096 || v > (256u << 10) || (v & (v - 1)))
				kt_warn(s, "VMCOREINFO: implausible PAGESIZE=%.20s, not used",
					line + 9);
			else
				s->vmci_page_size = (uint32_t)v;
		}
	}
	free(text);
}

/* the identity asked: why there is none, once */
static void warn(struct kt_session *s)
{
	if (s->ident_err[0]) {
		kt_warn(s, "%s", s->ident_err);
		s->ident_err[0] = 0;
	}
}

const char *kt_session__release(struct kt_session *s)
{
	load(s);
	warn(s);
	return s->release;
}

/* see internal.h */
int kt_ident__version(struct kt_session *s, unsigned int *major, unsigned int *minor)
{
	const char *r = kt_session__release(s);

	return r && sscanf(r, "%u.%u", major, minor) == 2 ? 0 : -ENOENT;
}

const char *kt_session__build_id(struct kt_session *s)
{
	load(s);
	warn(s);
	return s->build_id;
}

uint32_t kt_ident__page_size(struct kt_session *s)
{
	load(s);
	return s->vmci_page_size;
}

void kt_ident__free(struct kt_session *s)
{
	free(s->release);
	free(s->build_id);
	s->release = s->build_id = NULL;
}
