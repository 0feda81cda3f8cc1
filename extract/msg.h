/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef KTRACE_EXTRACT_MSG_H
#define KTRACE_EXTRACT_MSG_H

#include <stddef.h>

/* Format an error message into @msg (@msglen bytes); NULL @msg: nothing. */
void kx_set_msg(char *msg, size_t msglen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
