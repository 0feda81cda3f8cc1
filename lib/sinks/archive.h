/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef KTRACE_LIB_ARCHIVE_H
#define KTRACE_LIB_ARCHIVE_H

#include <stdbool.h>

struct kt_archive;

/* by suffix: 0 .tar, 1 .tar.gz/.tgz, 2 .tar.zst; -1 not an archive name */
int kt_archive__kind(const char *path);
/* NULL with errno set (EINVAL: not an archive name; EEXIST: temp file exists) */
struct kt_archive *kt_archive__create(const char *path);
int kt_archive__add_dir(struct kt_archive *a, const char *name);
/* the file @src stored as @name */
int kt_archive__add_file(struct kt_archive *a, const char *name, const char *src);
/* @keep: finish and rename into place; else remove. 0 or -errno */
int kt_archive__close(struct kt_archive *a, bool keep);

#endif
