// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The recorders a session finds on first use, one way for all of them:
 * the first ask runs the recorder's find (under the session's lock when
 * worker threads render: a find reads memory), keeps its state or its
 * error, and every later ask gets the same answer without reading again.
 * A recorder that cannot be read is said (kt_err) to whoever asks for it;
 * the session and the other recorders go on.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static const struct kt_recorder_ops *const recorders[KT_REC_NR] = {
	[KT_REC_PRINTK] = &kt_printk_recorder,
	[KT_REC_RELAY] = &kt_relay_recorder,
	[KT_REC_LTTNG] = &kt_lttng_recorder,
};

void *kt_recorder__get(struct kt_session *s, enum kt_recorder_id id)
{
	struct kt_recorder_slot *r = &s->rec[id];

	if (!r->tried) {
		r->tried = true;
		r->err = recorders[id]->find(s, &r->state);
		if (r->err) {
			if (r->err > 0)
				r->err = -r->err;
			snprintf(r->errmsg, sizeof(r->errmsg), "%s", kt_last_error());
		}
	}
	if (r->err) {
		kt_err(r->err, "%s", r->errmsg);
		return NULL;
	}
	return r->state;
}

void *kt_recorder__peek(const struct kt_session *s, enum kt_recorder_id id)
{
	const struct kt_recorder_slot *r = &s->rec[id];

	return r->tried && !r->err ? r->state : NULL;
}

int kt_recorder__err(const struct kt_session *s, enum kt_recorder_id id)
{
	return s->rec[id].err;
}

void kt_recorder__free_all(struct kt_session *s)
{
	int i;

	for (i = 0; i < KT_REC_NR; i++) {
		if (s->rec[i].state)
			recorders[i]->free(s->rec[i].state);
		memset(&s->rec[i], 0, sizeof(s->rec[i]));
	}
}

void kt_recorder__add_losses(const struct kt_session *s, struct kt_losses *l)
{
	int i;

	for (i = 0; i < KT_REC_NR; i++) {
		const void *state = kt_recorder__peek(s, i);

		if (state && recorders[i]->loss)
			recorders[i]->loss(state, l);
	}
}
