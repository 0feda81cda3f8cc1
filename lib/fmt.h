/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef KTRACE_LIB_FMT_H
#define KTRACE_LIB_FMT_H

#include "internal.h"

/*
 * print_fmt with enumerator names replaced by values, looked up in the unit
 * of kernel code address @code (the event's probe; 0: none); caller frees
 */
char *kt_fmt__resolve_enums(struct kt_session *s, const char *print_fmt, uint64_t code);
/* print_fmt with bare %p routed through __kt_ptr(); caller frees */
char *kt_fmt__for_tep(const char *print_fmt);
void kt_fmt__free(struct kt_session *s);
uint64_t kt_siphash_1u64(uint64_t first, const uint64_t key[2]);

#endif
