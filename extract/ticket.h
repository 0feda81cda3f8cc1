/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KTRACE_EXTRACT_TICKET_H
#define KTRACE_EXTRACT_TICKET_H

#include "options.h"

struct kx_resolver;

/* --ticket: write it, with the layout profile of what @r resolved; returns the exit status */
int kx_ticket(const struct kx_options *o, struct kt_session *s, const struct kx_resolver *r);

#endif
