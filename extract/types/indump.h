/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The dump as its own debuginfo: types from the BTF the kernel carries in
 * memory (CONFIG_DEBUG_INFO_BTF: __start_BTF..__stop_BTF), symbols from
 * its kallsyms tables, which VMCOREINFO lists since v6.0, or from a
 * System.map for older kernels.
 */
#ifndef KTRACE_EXTRACT_TYPES_INDUMP_H
#define KTRACE_EXTRACT_TYPES_INDUMP_H

#include <stddef.h>
#include <stdio.h>
#include <ktrace/target.h>

struct kt_kallsyms;
struct kx_dump;
struct kx_indump;

struct kx_indump_opts {
	size_t sz;
	/* symbols from this System.map instead of the dump's kallsyms */
	const char *system_map;
	/* accept a System.map that does not match the dump */
	int force;
	/* what was read and how long it took, to stderr */
	int verbose;
};

/*
 * Answer the target's questions from dump @d itself. On success return
 * -1 with *@out and @t filled in (free *@out after closing the session,
 * before closing @d); otherwise the exit status (KT_EXIT_DEBUGINFO when
 * the dump's BTF or kallsyms are missing or unusable, KT_EXIT_MISMATCH
 * for another kernel's System.map), the cause said on stderr.
 */
int kx_indump__attach(struct kx_dump *d, const struct kx_indump_opts *opts,
		      struct kx_indump **out, struct kt_target *t);
void kx_indump__free(struct kx_indump *x);

/* the dump's kallsyms, decoded; for kt_open_opts.kallsyms (may be NULL) */
struct kt_kallsyms *kx_indump__kallsyms(struct kx_indump *x);

/*
 * Say on @f what the dump's BTF and kallsyms could not answer: damaged
 * BTF bytes (and the "absent" answers given from damaged BTF), kallsyms
 * tables that cannot be read, enumerators the BTF has with several
 * values. Return how many of these lost data (exit status 10).
 */
unsigned int kx_indump__report(struct kx_indump *x, FILE *f);

/* the dump's BTF as raw bytes, or NULL */
const void *kx_indump__btf_raw(const struct kx_indump *x, uint32_t *size);

/* a one-line description of the sources, for the note on stderr */
const char *kx_indump__describe(const struct kx_indump *x);

#endif /* KTRACE_EXTRACT_TYPES_INDUMP_H */
