/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef KTRACE_LIB_SHA256_H
#define KTRACE_LIB_SHA256_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct kt_sha256 {
	uint32_t h[8];
	uint64_t len;
	uint8_t buf[64];
	size_t fill;
};

void kt_sha256__init(struct kt_sha256 *c);
void kt_sha256__update(struct kt_sha256 *c, const void *data, size_t n);
/* lower-case hex digest, NUL-terminated */
void kt_sha256__final(struct kt_sha256 *c, char hex[65]);

#endif
