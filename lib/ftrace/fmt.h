/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef KTRACE_LIB_FMT_H
#define KTRACE_LIB_FMT_H

#include "../internal.h"

/*
 * print_fmt with enumerator names replaced by values, looked up in the unit
 * of kernel code address @code (the event's probe; 0: none); caller frees
 */
char *kt_fmt__resolve_enums(struct kt_session *s, const char *print_fmt, uint64_t code);
/*
 * print_fmt for libtraceevent (fmt-tep.c): bare %p and %ps routed through
 * __kt_ptr() and __kt_sym(), the numbers glibc prints otherwise than the
 * kernel through __kt_num(); caller frees
 */
char *kt_fmt__for_tep(const char *print_fmt, const char *fields);
/*
 * The field @name (@n bytes) among the "\tfield:TYPE NAME;" (or
 * "NAME[N];") lines of format text @fmt, before its print fmt: the ';'
 * that ends its declaration, *@array (if given) set when it is an array;
 * NULL when it has none.
 */
const char *kt_fmt__field(const char *fmt, const char *name, size_t n, bool *array);
void kt_fmt__free(struct kt_session *s);

/* a string grown by appending (fmt.c); oom once an allocation failed */
struct kt_sb {
	char *p;
	size_t len, cap;
	bool oom;
};

void kt_sb__add(struct kt_sb *b, const char *s, size_t n);
void kt_sb__str(struct kt_sb *b, const char *s);
/* the end of the quoted text at @p (its opening quote) */
const char *kt_fmt__skip_quoted(const char *p);

/*
 * fmtcheck.c: a print fmt (as kt_fmt__for_tep() made it) made safe for
 * libtraceevent, or refused. Into *@out (malloc'd): divisors that are not
 * a non-zero constant wrapped in __kt_nz(), widths and precisions capped
 * at @seq_size (the dump's trace_seq: wider never fits), '*' arguments
 * wrapped in __kt_width() or __kt_prec(). Refused with -EINVAL and the
 * reason in @why: nesting deeper than KT_FMT_MAX_NEST, or widths that
 * alone overflow the trace_seq. -ENOMEM.
 */
/*
 * a trace_printk() format with its widths and precisions capped the same
 * way (a format with a '*' is printed by trace_printk.c itself, the record's
 * width clamped and bounded, never by libtraceevent); caller frees, NULL:
 * no memory
 */
char *kt_fmtcheck__printk(const char *fmt, uint32_t seq_size);
#define KT_FMT_MAX_NEST		256
int kt_fmtcheck__apply(const char *print_fmt, uint32_t seq_size, char **out, char *why,
		       size_t len);
uint64_t kt_siphash_1u64(uint64_t first, const uint64_t key[2]);

#endif
