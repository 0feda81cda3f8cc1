// SPDX-License-Identifier: LGPL-2.1-or-later
/* trace.dat version 7: not written yet. */
#include "tracedat.h"

int kt_dat__write_v7(struct kt_dat *d)
{
	return kt_err(ENOTSUP, "trace.dat version 7 is not written yet");
}
