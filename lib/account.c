// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The session's loss account: one section per recorder (struct
 * kt_losses), each filled by the one that counts it. Trace buffers keep
 * their own counts (a buffer's text ends with its own); ftrace's and the
 * ktrace recorder's go to the section their ops name, the kernel log,
 * relay and LTTng add theirs through their recorder ops once found, and
 * the session's own counts (addresses unnamed, instances and event table
 * entries not read) are ftrace's. Here too the "# ktrace:" lines every
 * text output ends with, written once for every front end: from a mark
 * of the account taken before the read, what that read lost.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "relay/relay.h"

/* the section of @l that @b's counts are in */
static struct kt_loss *section_of(const struct kt_buffer *b, struct kt_losses *l)
{
	size_t off = b->ops ? b->ops->loss_section : 0;

	return off ? (struct kt_loss *)((char *)l + off) : &l->ftrace;
}

static void session_losses(const struct kt_session *s, struct kt_losses *l)
{
	int i;

	for (i = 0; i < s->nr_buffers; i++)
		kt_loss__add(section_of(s->buffers[i], l), &s->buffers[i]->loss);
	l->ftrace.addrs_unnamed = __atomic_load_n(&s->addrs_unnamed, __ATOMIC_RELAXED);
	l->ftrace.addrs_substituted = __atomic_load_n(&s->addrs_substituted, __ATOMIC_RELAXED);
	l->ftrace.buffers_unread = s->buffers_unread;
	l->ftrace.events_unread = s->events_unread;
	/* the kernel log, relay, LTTng: each once it was found */
	kt_recorder__add_losses(s, l);
}

/* every section of struct kt_loss's kind, added: the session's whole count */
void kt_session__loss(const struct kt_session *s, struct kt_loss *loss)
{
	struct kt_losses l = { .sz = sizeof(l) };

	session_losses(s, &l);
	*loss = l.ftrace;
	kt_loss__add(loss, &l.log);
	kt_loss__add(loss, &l.krec);
}

int kt_session__losses(const struct kt_session *s, const char *instance, struct kt_losses *l)
{
	struct kt_losses own = { .sz = sizeof(own) };
	const struct kt_buffer *b = NULL;
	size_t sz;

	memcpy(&sz, l, sizeof(sz));
	if (sz < sizeof(size_t))
		return kt_err(EINVAL, "struct kt_losses: sz is %zu, not the size of the struct "
				      "(set .sz = sizeof(it))", sz);
	if (instance && !(b = kt_session__find_buffer(s, instance)))
		return kt_err(ENOENT, "no buffer %s", instance);
	if (b)
		kt_buffer__loss(b, section_of(b, &own));
	else
		session_losses(s, &own);
	/* .sz as the caller knows the struct: its own members past ours lost nothing */
	own.sz = sz;
	if (sz > sizeof(own))
		memset((char *)l + sizeof(own), 0, sz - sizeof(own));
	memcpy(l, &own, sz < sizeof(own) ? sz : sizeof(own));
	return 0;
}

struct kt_loss_mark {
	uint64_t addrs_unnamed, addrs_substituted;	/* the session's */
	struct kt_lttng_loss lttng;	/* what LTTng's walks had counted */
	int nr;
	struct kt_loss bufs[];	/* each buffer's, by its index in the session */
};

struct kt_loss_mark *kt_session__loss_mark(const struct kt_session *s)
{
	struct kt_loss_mark *m;
	int i;

	m = malloc(sizeof(*m) + (size_t)s->nr_buffers * sizeof(m->bufs[0]));
	if (!m) {
		kt_err(ENOMEM, "loss mark: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	m->addrs_unnamed = __atomic_load_n(&s->addrs_unnamed, __ATOMIC_RELAXED);
	m->addrs_substituted = __atomic_load_n(&s->addrs_substituted, __ATOMIC_RELAXED);
	m->nr = s->nr_buffers;
	for (i = 0; i < m->nr; i++)
		m->bufs[i] = s->buffers[i]->loss;
	memset(&m->lttng, 0, sizeof(m->lttng));
	if (kt_recorder__peek(s, KT_REC_LTTNG)) {
		struct kt_losses l = { .sz = sizeof(l) };

		kt_recorder__add_losses(s, &l);
		m->lttng = l.lttng;
	}
	return m;
}

void kt_loss_mark__free(struct kt_loss_mark *m)
{
	free(m);
}

/*
 * What @b's reads since @m lost, as if they were its first: the open's
 * counts and what the reads added. A buffer added after @m (a ring read
 * with kt_session__add_ring()) was read from its open on.
 */
static void read_since(const struct kt_session *s, const struct kt_loss_mark *m,
		       const struct kt_buffer *b, struct kt_loss *l)
{
	int i;

	/* buffers are only ever added, at the end */
	for (i = 0; i < m->nr && i < s->nr_buffers; i++) {
		if (s->buffers[i] == b) {
			kt_buffer__read_loss(b, &m->bufs[i], l);
			return;
		}
	}
	kt_buffer__read_loss(b, &b->open_loss, l);
}

/* @b's read since @m, the session's address counts since @m taken as its own */
void kt_loss_mark__buffer(const struct kt_session *s, const struct kt_loss_mark *m,
			  const struct kt_buffer *b, struct kt_loss *l)
{
	read_since(s, m, b, l);
	/* the session's counts since @m: the read's lines named them */
	l->addrs_unnamed = __atomic_load_n(&s->addrs_unnamed, __ATOMIC_RELAXED) - m->addrs_unnamed;
	l->addrs_substituted = __atomic_load_n(&s->addrs_substituted, __ATOMIC_RELAXED) -
			       m->addrs_substituted;
}

int kt_session__write_trailer(const struct kt_session *s, const struct kt_loss_mark *m,
			      const struct kt_buffer *b, unsigned int flags, FILE *out)
{
	const struct kt_log *log;
	struct kt_loss l;
	int i;

	if (!m || (flags & ~KT_TRAILER_TIMELINE) || (!(flags & KT_TRAILER_TIMELINE) && !b))
		return kt_err(EINVAL, "trailer: %s", !m ? "no loss mark" :
				      flags & ~KT_TRAILER_TIMELINE ? "unknown flags" : "no buffer");
	if (!(flags & KT_TRAILER_TIMELINE)) {
		kt_loss_mark__buffer(s, m, b, &l);
		kt_loss__print(&l, out, "# ktrace: ");
		return 0;
	}
	/*
	 * the log's line (all of it is merged), then each merged buffer's,
	 * its own counts: the session's addresses are no one buffer's
	 */
	log = kt_recorder__peek(s, KT_REC_PRINTK);
	if (log)
		kt_log__print_loss(log, out, "# ktrace: log: ");
	for (i = 0; i < s->nr_buffers; i++) {
		const struct kt_buffer *bi = s->buffers[i];
		char prefix[300];

		if ((b && bi != b) || !kt_clock__comparable(kt_buffer__clock(bi), NULL))
			continue;
		snprintf(prefix, sizeof(prefix), "# ktrace: %s: ", kt_buffer__name(bi));
		read_since(s, m, bi, &l);
		kt_loss__print(&l, out, prefix);
	}
	return 0;
}

/* @l less @since, counter by counter (@since was taken before: never more) */
static void lttng_since(struct kt_lttng_loss *l, const struct kt_lttng_loss *since)
{
	uint64_t *v = (uint64_t *)l;
	const uint64_t *w = (const uint64_t *)since;
	size_t i;

	for (i = 0; i < sizeof(*l) / sizeof(*v); i++)
		v[i] -= w[i];
}

/*
 * The stderr summaries, each from its section of the account, printed as
 * its recorder's table in loss.c says (kt_loss__print() and the others)
 */
int kt_session__print_losses(const struct kt_session *s, const struct kt_loss_mark *m,
			     enum kt_loss_summary what, FILE *out, const char *prefix)
{
	struct kt_losses l = { .sz = sizeof(l) };
	struct kt_relay_loss rl = { 0 };
	const struct kt_relay *r;
	struct kt_loss t;
	bool lost;

	switch (what) {
	case KT_LOSSES_TRACE:
		kt_session__loss(s, &t);
		if (out)
			kt_loss__print(&t, out, prefix);
		return kt_loss__any(&t);
	case KT_LOSSES_LOG:
		kt_recorder__add_losses(s, &l);
		if (out)
			kt_loss__print_log(&l.log, out, prefix);
		return kt_loss__any(&l.log);
	case KT_LOSSES_RELAY:
	case KT_LOSSES_BLKTRACE:
		r = kt_recorder__peek(s, KT_REC_RELAY);
		if (r)
			kt_relay__add_losses(r, what == KT_LOSSES_RELAY ? KT_RELAY_RAW :
					  KT_RELAY_BLKTRACE, &rl);
		lost = kt_relay_loss__any(&rl);
		if (out && lost)
			kt_relay_loss__print(&rl, out, prefix);
		return lost;
	case KT_LOSSES_LTTNG:
		kt_recorder__add_losses(s, &l);
		if (m)
			lttng_since(&l.lttng, &m->lttng);
		lost = kt_lttng_loss__any(&l.lttng);
		if (out && lost)
			kt_lttng_loss__print(&l.lttng, out, prefix);
		return lost;
	}
	return kt_err(EINVAL, "no loss summary %d", (int)what);
}
