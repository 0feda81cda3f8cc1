/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Private to profile*.c: one answer of a profile, and the file checksum. */
#ifndef KTRACE_EXTRACT_PROFILE_PRIVATE_H
#define KTRACE_EXTRACT_PROFILE_PRIVATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KX_FNV_INIT 0xcbf29ce484222325ULL

/*
 * key: kind ('s' symbol, 'm' member, 'z' type size, 'e' enumerator),
 * a tab, the name (a type for 'm'), and for 'm' a tab and the member.
 */
struct kx_pentry {
	char *key;
	uint64_t v1;	/* address, offset, size or enumerator value */
	uint64_t v2;	/* member size */
	uint8_t present;
	uint8_t reloc;	/* symbol moved by KASLR */
};

static inline int kx_pentry_key(struct kx_pentry *e, char kind, const char *a,
				const char *b)
{
	/* "kind\ta" or "kind\ta\tb", built by hand: a profile has some 14,000 */
	size_t la = strlen(a), lb = b ? strlen(b) : 0;
	char *k = malloc(2 + la + (b ? 1 + lb : 0) + 1);

	e->key = k;
	if (!k)
		return -12; /* -ENOMEM */
	*k++ = kind;
	*k++ = '\t';
	memcpy(k, a, la);
	k += la;
	if (b) {
		*k++ = '\t';
		memcpy(k, b, lb);
		k += lb;
	}
	*k = 0;
	return 0;
}

uint64_t kx_profile_fnv1a(uint64_t h, const void *buf, size_t len);

/*
 * Where a profile's answers come from when it is made: the vmlinux DWARF
 * (profile-dwarf.c) or BTF plus a symbol list (profile-btf.c). The
 * callbacks answer as the target's do (0, -ENOENT when absent), except
 * that symbol() gives the link-time address and whether KASLR moves it.
 */
struct kx_psource {
	void *priv;
	int (*symbol)(void *priv, const char *name, uint64_t *addr, int *reloc);
	int (*member)(void *priv, const char *type, const char *member,
		      uint64_t *offset, uint64_t *size);
	int (*type_size)(void *priv, const char *type, uint64_t *size);
	int (*enumerator)(void *priv, const char *name, int64_t *value);
	/* call @cb with the name of every enumerator of the kernel */
	int (*enumerators)(void *priv, int (*cb)(void *arg, const char *name),
			   void *arg);
	void (*close)(void *priv);
	char release[65];
	char build_id[129];
	char arch[32];
	char source[600];
};

int kx_psource__dwarf(struct kx_psource *src, const char *vmlinux, int verbose,
		      char *msg, size_t msglen);
int kx_psource__btf(struct kx_psource *src, const char *btf,
		    const char *system_map, const char *release,
		    const char *build_id, char *msg, size_t msglen);

#endif /* KTRACE_EXTRACT_PROFILE_PRIVATE_H */
