// SPDX-License-Identifier: LGPL-2.1-or-later
/* trace.dat writer: not written yet. */
#include "internal.h"

int kt_tracedat__write(struct kt_session *s, struct kt_buffer *only, FILE *out)
{
	return kt_err(ENOTSUP, "trace.dat output is not implemented yet");
}
