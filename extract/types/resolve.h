/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Where this run's types and symbols come from: a layout profile, the
 * vmlinux's DWARF, or the dump itself (its BTF with its kallsyms or a
 * System.map), tried in one order by one resolver, the out-of-tree
 * modules' DWARF layered on whichever answered.
 */
#ifndef KTRACE_EXTRACT_TYPES_RESOLVE_H
#define KTRACE_EXTRACT_TYPES_RESOLVE_H

#include <stdio.h>
#include <ktrace/session.h>
#include <ktrace/target.h>

struct kx_dump;
struct kx_indump;
struct kx_options;
struct kx_resolver;

/* the source that answered */
enum kx_types_from {
	KX_TYPES_PROFILE,	/* --profile */
	KX_TYPES_DWARF,		/* the vmlinux's DWARF and symbols, given or found */
	KX_TYPES_DUMP,		/* the dump's BTF, with its kallsyms or a System.map */
};

/*
 * Open the dump of @o and resolve its types and symbols. On success
 * return -1 with *@out, @t and @so's symbol tables filled in; otherwise
 * the exit status, the cause said on stderr (the same messages and
 * statuses as each source gives alone).
 */
int kx_resolver__open(const struct kx_options *o, struct kx_resolver **out, struct kt_target *t,
		      struct kt_open_opts *so);
/* after the session is freed */
void kx_resolver__close(struct kx_resolver *r);

enum kx_types_from kx_resolver__from(const struct kx_resolver *r);
struct kx_dump *kx_resolver__dump(const struct kx_resolver *r);
/* the vmlinux in use (KX_TYPES_DWARF), or NULL */
const char *kx_resolver__vmlinux(const struct kx_resolver *r);
/* the profile file in use (KX_TYPES_PROFILE), or NULL */
const char *kx_resolver__profile(const struct kx_resolver *r);
/* the dump's own sources (KX_TYPES_DUMP), or NULL */
struct kx_indump *kx_resolver__indump(const struct kx_resolver *r);
/* --system-map, with KX_TYPES_DUMP; NULL otherwise */
const char *kx_resolver__system_map(const struct kx_resolver *r);
/* --module-debuginfo with KX_TYPES_DWARF, when modules' types were read; else NULL */
const char *kx_resolver__module_debuginfo(const struct kx_resolver *r);

/*
 * After the session: say on stderr what the source could not answer
 * (damaged BTF, unreadable kallsyms, questions an older profile lacks).
 * 1 when that lost data (exit status 10), else 0.
 */
int kx_resolver__report(struct kx_resolver *r);
/* the same, when the session could not be opened */
void kx_resolver__report_failed_open(struct kx_resolver *r);

#endif /* KTRACE_EXTRACT_TYPES_RESOLVE_H */
