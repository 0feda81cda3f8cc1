// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ktrace recorder in a dump: find, walk, decode.
 *
 * find: module "krec" on the modules list; its symbols (mod->kallsyms)
 * krec_buffer (struct trace_buffer *, from ring_buffer_alloc()) and
 * krec_table (struct hlist_head[], the event table by name). The table's
 * types come from the module's own debuginfo, through the target; without
 * them the ring is still read, its records printed raw.
 * walk: the ring is a kernel ring buffer, read by the page iterator as
 * ftrace's are (kt_ring__load()), with the same loss accounting.
 * decode: each record by its event's format (decode.c).
 */
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include "../internal.h"
#include "krec.h"

#define KREC_MODULE	"krec"
#define KREC_MAX_BUCKETS	4096


struct krec_layout {
	struct kt_member hlist, name, format, id, size, nr_str, str_off, enabled, owner;
	struct kt_member node_next;
	struct kt_member rec_id, rec_size, rec_pid, rec_args;
};

static int probe_layout(struct kt_session *s, struct krec_layout *k)
{
	int err = 0;

	err |= kt_member__probe(s, "struct krec_entry", "hlist", &k->hlist);
	err |= kt_member__probe(s, "struct krec_entry", "name", &k->name);
	err |= kt_member__probe(s, "struct krec_entry", "format", &k->format);
	err |= kt_member__probe(s, "struct krec_entry", "id", &k->id);
	err |= kt_member__probe(s, "struct krec_entry", "size", &k->size);
	err |= kt_member__probe(s, "struct krec_entry", "nr_str", &k->nr_str);
	err |= kt_member__probe(s, "struct krec_entry", "str_off", &k->str_off);
	err |= kt_member__probe(s, "struct krec_entry", "enabled", &k->enabled);
	err |= kt_member__probe(s, "struct hlist_node", "next", &k->node_next);
	err |= kt_member__probe(s, "struct krec_record", "id", &k->rec_id);
	err |= kt_member__probe(s, "struct krec_record", "size", &k->rec_size);
	err |= kt_member__probe(s, "struct krec_record", "pid", &k->rec_pid);
	err |= kt_member__probe(s, "struct krec_record", "args", &k->rec_args);
	kt_member__probe(s, "struct krec_entry", "owner", &k->owner);
	return err ? -ENOENT : 0;
}

void kt_krec__ask_layout(struct kt_session *s)
{
	struct krec_layout k;

	probe_layout(s, &k);
}

static void event_free(struct kt_krec_event *e)
{
	free(e->name);
	free(e->format);
	free(e->owner);
}

static void krec_free(void *priv)
{
	struct krec *k = priv;
	int i;

	if (!k)
		return;
	for (i = 0; i < k->nr_events; i++)
		event_free(&k->events[i]);
	free(k->events);
	free(k);
}

static int cmp_id(const void *a, const void *b)
{
	const struct kt_krec_event *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* one struct krec_entry at @e into @ev; 0 or -EFAULT */
static int read_entry(struct kt_session *s, const struct krec_layout *k, uint64_t e,
		      struct kt_krec_event *ev)
{
	uint64_t name, fmt, id, size, nr_str, enabled, owner;
	uint8_t offs[2 * KT_KREC_MAX_ARGS];
	int i;

	memset(ev, 0, sizeof(*ev));
	if (kt_read_member(s, e, &k->name, &name) || kt_read_member(s, e, &k->format, &fmt) ||
	    kt_read_member(s, e, &k->id, &id) || kt_read_member(s, e, &k->size, &size) ||
	    kt_read_member(s, e, &k->nr_str, &nr_str) ||
	    kt_read_member(s, e, &k->enabled, &enabled))
		return -EFAULT;
	if (kt_read_string(s, name, 256, &ev->name) || kt_read_string(s, fmt, 1024, &ev->format))
		return -EFAULT;
	ev->id = (uint16_t)id;
	ev->size = (uint16_t)size;
	ev->nr_str = nr_str > KT_KREC_MAX_ARGS ? KT_KREC_MAX_ARGS : (uint8_t)nr_str;
	ev->enabled = enabled != 0;
	if (k->str_off.size < sizeof(offs) || kt_read(s, e + k->str_off.off, offs, sizeof(offs)))
		return -EFAULT;
	for (i = 0; i < KT_KREC_MAX_ARGS; i++)
		ev->str_off[i] = kt_get16(s->l.be, offs + 2 * i);
	if (k->owner.present && !kt_read_member(s, e, &k->owner, &owner) && owner &&
	    s->l.mod_name.present)
		kt_read_string(s, owner + s->l.mod_name.off, 56, &ev->owner);
	return 0;
}

/* every entry of krec_table (@nb buckets at @table), bounded, loops detected */
static int read_table(struct kt_session *s, const struct krec_layout *k, struct krec *kr,
		      uint64_t table, uint64_t nb, struct kt_loss *loss)
{
	struct kt_seen seen = { 0 };
	uint64_t i, node;
	int err = 0;

	for (i = 0; i < nb; i++) {
		if (kt_read_u64(s, table + 8 * i, &node)) {
			kt_warn(s, "krec: cannot read krec_table[%llu] at 0x%llx",
				(unsigned long long)i, (unsigned long long)(table + 8 * i));
			loss->list_anomalies++;
			continue;
		}
		while (node) {
			struct kt_krec_event *n;

			if (kr->nr_events >= KT_MAX_EVENTS || kt_seen__add(&seen, node)) {
				kt_warn(s, "krec: krec_table[%llu] loops at 0x%llx",
					(unsigned long long)i, (unsigned long long)node);
				loss->list_anomalies++;
				break;
			}
			n = realloc(kr->events, (kr->nr_events + 1) * sizeof(*n));
			if (!n) {
				err = -ENOMEM;
				goto out;
			}
			kr->events = n;
			n = &kr->events[kr->nr_events];
			if (read_entry(s, k, node - k->hlist.off, n)) {
				kt_warn(s, "krec: cannot read struct krec_entry at 0x%llx",
					(unsigned long long)(node - k->hlist.off));
				event_free(n);
				loss->list_anomalies++;
				break;
			}
			kr->nr_events++;
			if (kt_krec__parse(n, &kr->hdr))
				kt_warn(s, "krec: event %s (id %u): format \"%s\" does not match its "
					   "size %u and string offsets; its records are not decoded",
					n->name, n->id, n->format, n->size);
			if (kt_read_u64(s, node + k->node_next.off, &node)) {
				loss->list_anomalies++;
				break;
			}
		}
	}
	if (kr->nr_events)	/* qsort(NULL, 0, ...) is undefined */
		qsort(kr->events, kr->nr_events, sizeof(*kr->events), cmp_id);
out:
	kt_seen__free(&seen);
	return err;
}

/* "NAME: TEXT" after the time stamp and CPU, as krec's trace file (krec_read.c) */
static int krec_text(struct kt_buffer *b, const struct kt_record *r, struct trace_seq *q)
{
	const struct krec *k = b->priv;
	char text[1100];
	int err;

	err = kt_krec__text(k->events, k->nr_events, &k->hdr, r->data, r->size, text,
			    sizeof(text), &b->loss);
	trace_seq_puts(q, text);
	/* counted by kt_krec__text(): the text sink must not count again */
	return err == -ENOENT ? 0 : err;
}

static void krec_json(struct kt_buffer *b, const struct kt_record *r, FILE *out)
{
	const struct krec *k = b->priv;
	const struct kt_krec_event *e;
	char text[1024];
	uint32_t len;

	e = kt_krec__record_event(k->events, k->nr_events, &k->hdr, r->data, r->size, &len);
	if (r->size >= k->hdr.len)
		fprintf(out, ",\"id\":%u,\"pid\":%u",
			kt_krec__u16(&k->hdr, (const uint8_t *)r->data, r->size, k->hdr.id_off),
			kt_get32(k->hdr.be, (const uint8_t *)r->data + k->hdr.pid_off));
	if (!e) {
		b->loss.events_unknown++;
		fputs(",\"event\":null", out);
		kt_raw__json(r, out);
		return;
	}
	fputs(",\"event\":", out);
	kt_json__str(out, e->name, 256);
	if (e->owner) {
		fputs(",\"module\":", out);
		kt_json__str(out, e->owner, 64);
	}
	if (kt_krec__render(e, &k->hdr, r->data, len, text, sizeof(text))) {
		b->loss.records_bad++;
		fputs(",\"text\":null", out);
		kt_raw__json(r, out);
		return;
	}
	fputs(",\"text\":", out);
	kt_json__str(out, text, sizeof(text));
}

static const struct kt_ring_ops krec_ops = {
	.kind = "krec",
	.loss_section = offsetof(struct kt_losses, krec),
	.text = krec_text,
	.json = krec_json,
	.free = krec_free,
	.dat_system = "krec",
	.dat_format = kt_krec__dat_format,
	.dat_fix_record = kt_krec__dat_fix_record,
};

int kt_krec__load(struct kt_session *s)
{
	struct krec_layout k;
	struct kt_buffer *b;
	struct krec *kr = NULL;
	uint64_t sym, size, rb, table, tsize;
	int err;

	if (kt_modsyms__find(s, KREC_MODULE, "krec_buffer", &sym, &size))
		return 0;	/* not loaded */
	if (kt_read_u64(s, sym, &rb) || !rb)
		return kt_err(EFAULT, "krec: cannot read krec_buffer at 0x%llx, or it is NULL",
			      (unsigned long long)sym);
	b = kt_ring__load(s, KREC_MODULE, rb);
	if (!b)
		return -EBADMSG;
	if (probe_layout(s, &k)) {
		kt_warn(s, "krec: module krec is loaded but its types (struct krec_entry, "
			   "struct krec_record) are unknown: give the directory of its .ko "
			   "built with debuginfo (--module-debuginfo); its ring is printed raw");
		goto add;
	}
	if (kt_modsyms__find(s, KREC_MODULE, "krec_table", &table, &tsize) || tsize < 8) {
		kt_warn(s, "krec: no symbol krec_table in module krec; its ring is printed raw");
		goto add;
	}
	kr = calloc(1, sizeof(*kr));
	if (!kr) {
		err = -ENOMEM;
		goto fail;
	}
	kr->hdr = (struct kt_krec_hdr){ k.rec_id.off, k.rec_size.off, k.rec_pid.off,
					k.rec_args.off, s->l.be };
	err = read_table(s, &k, kr, table,
			 tsize / 8 > KREC_MAX_BUCKETS ? KREC_MAX_BUCKETS : tsize / 8, &b->loss);
	if (err)
		goto fail;
	b->ops = &krec_ops;
	b->priv = kr;
add:
	b->open_loss = b->loss;
	err = kt_session__add_buffer(s, b);
	if (!err)
		return 0;
fail:
	if (b->priv == kr)
		b->priv = NULL;
	krec_free(kr);
	kt_buffer__free(b);
	return err;
}

/* for the hostile-input tests: events of the krec ring @b */
int kt_krec__events(const struct kt_buffer *b, const struct kt_krec_event **ev)
{
	const struct krec *k = b->ops == &krec_ops ? b->priv : NULL;

	*ev = k ? k->events : NULL;
	return k ? k->nr_events : 0;
}
