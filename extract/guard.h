/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KTRACE_EXTRACT_GUARD_H
#define KTRACE_EXTRACT_GUARD_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * The files a run reads (the vmcore, the vmlinux, a profile, a System.map,
 * BTF), by device and inode: an output is written beside its path and
 * renamed over it, so an output that is one of them (or a hard link or
 * symbolic link to one) would replace the evidence. Checked before
 * anything is written.
 */
#define KX_GUARD_MAX 8

struct kx_guard {
	struct kx_guard_in {
		dev_t dev;
		ino_t ino;
		const char *path;
	} in[KX_GUARD_MAX];
	int n;
};

/* remember @path (NULL, or a path that does not stat: nothing to guard) */
void kx_guard__add(struct kx_guard *g, const char *path);
/*
 * 0: @out (the output of option @opt) is none of the inputs; -1: it is
 * one, said on stderr. @dir_names: the names written into @out when it
 * is an existing directory (a NULL-terminated array, or NULL), each
 * checked too.
 */
int kx_guard__check(const struct kx_guard *g, const char *opt, const char *out,
		    const char *const *dir_names);

#endif
