/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Sub-buffers of a ring walk read ahead (readahead.c), for pages.c. */
#ifndef KTRACE_LIB_READAHEAD_H
#define KTRACE_LIB_READAHEAD_H

#include <stdint.h>

struct kt_session;
struct kt_readahead;

/*
 * Windows of up to @bytes of blocks of @len bytes; NULL when the target
 * has no read_blocks(), a window would hold fewer than two, or no memory.
 */
struct kt_readahead *kt_readahead__new(struct kt_session *s, uint32_t len, uint32_t bytes);
void kt_readahead__free(struct kt_readahead *ra);
/* blocks in a window */
unsigned int kt_readahead__cap(const struct kt_readahead *ra);
/* how many windows the walk has begun: it changes when the next may be queued */
unsigned int kt_readahead__seq(const struct kt_readahead *ra);
/*
 * The next block of the window, if it is the one at @addr: 1 with *@data
 * (valid until the next call), 0 when it could not be read (read it from
 * the dump), -ENOENT when the window does not hold @addr next (read a new
 * one).
 */
int kt_readahead__take(struct kt_readahead *ra, uint64_t addr, const uint8_t **data);
/* a new window of the blocks at @addrs[@n], read now: 0 or -errno */
int kt_readahead__read(struct kt_readahead *ra, const uint64_t *addrs, unsigned int n);
/* the window after it, read on a thread while the walk takes this one */
void kt_readahead__queue(struct kt_readahead *ra, const uint64_t *addrs, unsigned int n);

#endif /* KTRACE_LIB_READAHEAD_H */
