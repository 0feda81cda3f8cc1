/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Types of the crashed kernel from BTF, through libbpf: the target's
 * member(), type_size() and enumerator() answered from one struct btf.
 */
#ifndef KTRACE_EXTRACT_TYPES_BTF_H
#define KTRACE_EXTRACT_TYPES_BTF_H

#include <stdint.h>

struct btf;
struct kx_btf;

/*
 * Answer from @btf (taken over: freed by kx_btf__free(), also on
 * failure). Return 0 or -ENOMEM.
 */
int kx_btf__new(struct btf *btf, struct kx_btf **out);
void kx_btf__free(struct kx_btf *b);
/* the raw BTF bytes (as in /sys/kernel/btf/vmlinux), for writing it out */
const void *kx_btf__raw(const struct kx_btf *b, uint32_t *size);
/* number of types, the void type 0 included */
unsigned int kx_btf__type_cnt(const struct kx_btf *b);

/*
 * As the target's callbacks (include/ktrace/target.h): @type is "struct
 * foo", "union foo", "enum foo" or a typedef or base type name, @member
 * a dotted path, anonymous members seen through. 0, -ENOENT when absent,
 * -EINVAL when a path goes through a non-aggregate, -EIO when BTF cannot
 * size it.
 */
int kx_btf__member(struct kx_btf *b, const char *type, const char *member,
		   uint64_t *offset, uint64_t *size);
int kx_btf__size(struct kx_btf *b, const char *type, uint64_t *size);
/*
 * The first enumerator @name in the BTF; *@nvalues (may be NULL) gets
 * how many different values enumerators of that name have in the kernel
 * (more than 1: a DWARF reader, which asks the right compilation unit,
 * may answer another). 0 or -ENOENT.
 */
int kx_btf__enumerator(struct kx_btf *b, const char *name, int64_t *value,
		       unsigned int *nvalues);
/* @cb with the name of every enumerator; stops at its first non-zero return */
int kx_btf__enumerators(struct kx_btf *b, int (*cb)(void *arg, const char *name),
			void *arg);

#endif /* KTRACE_EXTRACT_TYPES_BTF_H */
