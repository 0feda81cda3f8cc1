/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KTRACE_EXTRACT_TICKET_H
#define KTRACE_EXTRACT_TICKET_H

#include "options.h"
#include "types/profile.h"

/* where this run's types and symbols came from */
struct kx_ticket_src {
	const char *profile;	/* the profile file used, or NULL */
	const char *vmlinux;	/* the vmlinux used, or NULL */
	/* --module-debuginfo, when its types were read: they go in the profile */
	const char *module_debuginfo;
	const char *release;	/* the dump's release, names the profile */
	/* the dump alone: its BTF and kallsyms make the profile */
	struct kx_indump *indump;
	const char *system_map;	/* --system-map: symbols at link time, complete */
	struct kx_dump *dump;
	struct kt_session *s;
};

/* --ticket: write it; returns the exit status */
int kx_ticket(const struct kx_options *o, struct kt_session *s, const struct kx_ticket_src *src);

#endif
