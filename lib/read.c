// SPDX-License-Identifier: LGPL-2.1-or-later
/* Reading the crashed kernel through the target. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

int kt_read(struct kt_session *s, uint64_t addr, void *buf, size_t len)
{
	if (!addr)
		return -EFAULT;
	return s->t.read(s->t.priv, addr, buf, len);
}

int kt_read_u64(struct kt_session *s, uint64_t addr, uint64_t *v)
{
	uint8_t b[8];
	int err = kt_read(s, addr, b, 8);

	if (!err)
		*v = kt_le64(b);
	return err;
}

int kt_read_u32(struct kt_session *s, uint64_t addr, uint32_t *v)
{
	uint8_t b[4];
	int err = kt_read(s, addr, b, 4);

	if (!err)
		*v = kt_le32(b);
	return err;
}

int kt_read_member(struct kt_session *s, uint64_t base, const struct kt_member *m,
		   uint64_t *v)
{
	uint8_t b[8] = { 0 };
	int err;

	if (!m->present)
		return -ENOENT;
	if (m->size != 1 && m->size != 2 && m->size != 4 && m->size != 8)
		return -EINVAL;
	err = kt_read(s, base + m->off, b, m->size);
	if (err)
		return err;
	switch (m->size) {
	case 1: *v = b[0]; break;
	case 2: *v = (uint64_t)b[0] | (uint64_t)b[1] << 8; break;
	case 4: *v = kt_le32(b); break;
	default: *v = kt_le64(b); break;
	}
	return 0;
}

/*
 * Strings are read in chunks that do not cross a page boundary, so a
 * string at the end of a mapped page before an unmapped one still reads.
 */
int kt_read_string(struct kt_session *s, uint64_t addr, size_t max, char **out)
{
	size_t len = 0, cap = 64;
	char *buf = malloc(cap);
	int err;

	if (!buf)
		return -ENOMEM;
	while (len < max) {
		size_t chunk = 4096 - ((addr + len) & 4095);
		char tmp[4096];
		char *nul;

		if (chunk > max - len)
			chunk = max - len;
		err = kt_read(s, addr + len, tmp, chunk);
		if (err) {
			free(buf);
			return err;
		}
		nul = memchr(tmp, 0, chunk);
		if (len + chunk + 1 > cap) {
			char *n;

			while (len + chunk + 1 > cap)
				cap *= 2;
			n = realloc(buf, cap);
			if (!n) {
				free(buf);
				return -ENOMEM;
			}
			buf = n;
		}
		if (nul) {
			memcpy(buf + len, tmp, nul - tmp);
			len += nul - tmp;
			buf[len] = 0;
			*out = buf;
			return 0;
		}
		memcpy(buf + len, tmp, chunk);
		len += chunk;
	}
	free(buf);
	return -E2BIG;
}

int kt_symbol(struct kt_session *s, const char *name, uint64_t *addr)
{
	return s->t.symbol(s->t.priv, name, addr);
}
