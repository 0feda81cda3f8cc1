// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Any ring buffer, by address or by symbol (--ring): the struct
 * trace_buffer (struct ring_buffer before 5.6) of a trace array, of a
 * recorder, of a driver that keeps one for post-mortem use. Walked with
 * the same page iterator as ftrace's buffers; with no event table its
 * records are printed raw: cpu, time stamp, length and the payload in hex.
 */
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include "../internal.h"

#define RING_SCAN_BYTES	4096	/* how far into a symbol a ring pointer is looked for */

static int raw_text(struct kt_buffer *b, const struct kt_record *r, struct trace_seq *q)
{
	const uint8_t *d = r->data;
	uint32_t i;

	trace_seq_printf(q, "len %u:", r->size);
	for (i = 0; i < r->size; i++)
		trace_seq_printf(q, " %02x", d[i]);
	return 0;
}

void kt_raw__json(const struct kt_record *r, FILE *out)
{
	const uint8_t *d = r->data;
	uint32_t i;

	fputs(",\"hex\":\"", out);
	for (i = 0; i < r->size; i++)
		fprintf(out, "%02x", d[i]);
	fputc('"', out);
}

static void raw_json(struct kt_buffer *b, const struct kt_record *r, FILE *out)
{
	kt_raw__json(r, out);
}

const struct kt_ring_ops kt_raw_ops = {
	.kind = "raw",
	.text = raw_text,
	.json = raw_json,
};

/* the symbol's address: the kernel's, else a loaded module's */
static int ring_symbol(struct kt_session *s, const char *name, uint64_t *addr, uint64_t *size)
{
	*size = 0;
	if (!kt_symbol(s, name, addr))
		return 0;
	return kt_modsyms__find(s, NULL, name, addr, size);
}

/*
 * @spec to the address of a ring: 0xADDR is one; SYMBOL+OFF holds a
 * pointer to one; SYMBOL is one, holds a pointer to one, or holds one
 * in its first RING_SCAN_BYTES (the first that checks out).
 */
static int ring_resolve(struct kt_session *s, const char *spec, uint64_t *rb)
{
	char *name = strdup(spec), *plus, *end;
	uint64_t sym, size, off, p;
	int err = -ENOENT;

	if (!name)
		return -ENOMEM;
	if (!strncmp(spec, "0x", 2)) {
		*rb = strtoull(spec, &end, 16);
		err = *end ? kt_err(EINVAL, "--ring %s: not an address", spec) :
		      kt_ring__check(s, *rb) ? 0 :
		      kt_err(ENOENT, "--ring %s: no ring buffer at 0x%llx (its per-CPU buffers "
				     "do not point back at it)", spec, (unsigned long long)*rb);
		goto out;
	}
	plus = strchr(name, '+');
	if (plus)
		*plus++ = 0;
	if (ring_symbol(s, name, &sym, &size)) {
		err = kt_err(ENOENT, "--ring %s: no symbol %s in the kernel or its modules", spec,
			     name);
		goto out;
	}
	if (plus) {
		off = strtoull(plus, &end, 0);
		if (*end) {
			err = kt_err(EINVAL, "--ring %s: bad offset '%s'", spec, plus);
			goto out;
		}
		if (kt_read_u64(s, sym + off, &p) || !kt_ring__check(s, p)) {
			err = kt_err(ENOENT, "--ring %s: the word at 0x%llx is not a pointer to a "
					     "ring buffer", spec, (unsigned long long)(sym + off));
			goto out;
		}
		*rb = p;
		err = 0;
		goto out;
	}
	if (kt_ring__check(s, sym)) {
		*rb = sym;
		err = 0;
		goto out;
	}
	if (!size || size > RING_SCAN_BYTES)
		size = RING_SCAN_BYTES;
	for (off = 0; off + 8 <= size; off += 8) {
		if (kt_read_u64(s, sym + off, &p))
			break;
		if (kt_ring__check(s, p)) {
			if (off)
				kt_warn(s, "--ring %s: the ring pointer is at %s+0x%llx (0x%llx)",
					spec, name, (unsigned long long)off, (unsigned long long)p);
			*rb = p;
			err = 0;
			goto out;
		}
	}
	err = kt_err(ENOENT, "--ring %s: %s at 0x%llx is no ring buffer and holds no pointer "
			     "to one in its first %llu bytes", spec, name, (unsigned long long)sym,
		     (unsigned long long)size);
out:
	free(name);
	return err;
}

struct kt_buffer *kt_session__add_ring(struct kt_session *s, const char *spec)
{
	struct kt_buffer *b;
	uint64_t rb = 0;
	int err, i;

	if (!s->l.cpu_buffer.present) {
		kt_err(ENOENT, "--ring: struct ring_buffer_per_cpu has no member buffer here");
		errno = ENOENT;
		return NULL;
	}
	err = ring_resolve(s, spec, &rb);
	if (err) {
		errno = -err;
		return NULL;
	}
	/* a ring already known (a recorder's) is that buffer, decoded */
	for (i = 0; i < s->nr_buffers; i++)
		if (s->buffers[i]->rb == rb && s->buffers[i]->ops)
			return s->buffers[i];
	b = kt_ring__load(s, spec, rb);
	if (!b) {
		errno = EBADMSG;
		return NULL;
	}
	err = kt_session__add_buffer(s, b);
	if (err) {
		kt_buffer__free(b);
		errno = -err;
		return NULL;
	}
	return b;
}

void kt_buffer__print_events(struct kt_buffer *b, FILE *out, bool verbose)
{
	char *fmt;
	int i;

	if (!b->ops || !b->ops->dat_format)
		return;
	for (i = 0; (fmt = b->ops->dat_format(b, i, 0)); i++) {
		char name[256] = "";
		int id = -1;

		if (verbose) {
			fprintf(out, "%s\n", fmt);
		} else if (sscanf(fmt, "name: %255s\nID: %d", name, &id) == 2) {
			fprintf(out, "%5d  %s:%s\n", id, b->ops->dat_system, name);
		}
		free(fmt);
	}
}
