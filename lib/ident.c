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
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define VMCOREINFO_MAX	(64 * 1024)

static void load(struct kt_session *s)
{
	uint64_t addr, data, size = 0;
	char *text = NULL, *line, *save = NULL;

	if (s->ident_tried)
		return;
	s->ident_tried = true;
	if (kt_symbol(s, "vmcoreinfo_data", &addr) || kt_read_u64(s, addr, &data) || !data)
		return;
	if (!kt_symbol(s, "vmcoreinfo_size", &addr))
		kt_read_u64(s, addr, &size);
	if (!size || size > VMCOREINFO_MAX)
		size = 4096;	/* VMCOREINFO_BYTES: one page */
	text = calloc(1, size + 1);
	if (!text)
		return;
	if (kt_read(s, data, text, size)) {
		kt_warn(s, "cannot read the VMCOREINFO text at 0x%llx (%llu bytes)",
			(unsigned long long)data, (unsigned long long)size);
		goto out;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "OSRELEASE=", 10) && !s->release)
			s->release = strndup(line + 10, 64);
		else if (!strncmp(line, "BUILD-ID=", 9) && !s->build_id)
			s->build_id = strndup(line + 9, 128);
	}
out:
	free(text);
}

const char *kt_session__release(struct kt_session *s)
{
	load(s);
	return s->release;
}

const char *kt_session__build_id(struct kt_session *s)
{
	load(s);
	return s->build_id;
}

void kt_ident__free(struct kt_session *s)
{
	free(s->release);
	free(s->build_id);
	s->release = s->build_id = NULL;
}
