/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The ktrace recorder (kmod/ktrace-recorder, "krec"): events declared by a
 * name and a printf-like format, recorded into a ring buffer of its own.
 * A record is a struct krec_record (id, size, pid) and the arguments
 * packed in the order of the format: 4 bytes for int conversions, 8 for
 * l/ll/z ones, and for %s a 32-bit data location (length << 16 | offset
 * from the record's start) of the string, stored after the fixed part.
 * The module writes every field with memcpy() of the value: the kernel's
 * byte order (big-endian on s390x).
 */
#ifndef KTRACE_LIB_KREC_H
#define KTRACE_LIB_KREC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KT_KREC_MAX_ARGS	8

/* one event of krec's table, as read from the dump */
struct kt_krec_event {
	uint16_t id;
	char *name, *format, *owner;
	uint16_t size;			/* the table's fixed part: header and arguments */
	uint8_t nr_str;
	uint16_t str_off[KT_KREC_MAX_ARGS];
	bool enabled;
	/* from the format (kt_krec__parse) */
	uint8_t nr_args;
	uint8_t arg_size[KT_KREC_MAX_ARGS];
	bool bad_format;		/* the format does not match size/str_off */
};

/* where the fields of struct krec_record are (from the module's types),
 * and the byte order the kernel wrote the records in */
struct kt_krec_hdr {
	uint32_t id_off, size_off, pid_off, len;
	bool be;
};

/*
 * Derive the argument layout from @e->format and check it against the
 * table's size and string offsets. 0, or -EBADMSG (and e->bad_format)
 * when they disagree or the format has a conversion krec cannot record.
 */
int kt_krec__parse(struct kt_krec_event *e, const struct kt_krec_hdr *h);

/*
 * Render record @rec (@len bytes) of event @e into @out as krec's own
 * read interface does. 0; -EBADMSG if the record is shorter than the
 * format's fixed part, the event's format is bad, or a string's data
 * location points outside the record (out then says "(bad record)").
 */
int kt_krec__render(const struct kt_krec_event *e, const struct kt_krec_hdr *h,
		    const uint8_t *rec, uint32_t len, char *out, size_t n);

/* the u16 at @off of @rec (@size bytes) in @h's byte order, 0 past the end */
uint16_t kt_krec__u16(const struct kt_krec_hdr *h, const uint8_t *rec, uint32_t size,
		      uint32_t off);
/* the event of @id in @ev (@nr, sorted by id), or NULL */
const struct kt_krec_event *kt_krec__find(const struct kt_krec_event *ev, int nr, uint32_t id);
/* the event of record @rec, and in *@len the bytes its size says are its own */
const struct kt_krec_event *kt_krec__record_event(const struct kt_krec_event *ev, int nr,
						  const struct kt_krec_hdr *h, const uint8_t *rec,
						  uint32_t size, uint32_t *len);

/* what a krec ring's kt_buffer holds (find.c) */
struct krec {
	struct kt_krec_hdr hdr;
	struct kt_krec_event *events;	/* by id, sorted */
	int nr_events;
};

/* trace.dat (dat.c): kt_ring_ops.dat_format and .dat_fix_record */
char *kt_krec__dat_format(struct kt_buffer *b, int i, int id_base);
void kt_krec__dat_fix_record(struct kt_buffer *b, uint8_t *rec, uint32_t size, int id_base);

struct kt_loss;
/*
 * "NAME: TEXT" of record @rec (@size bytes, as the ring holds it), as
 * krec's read interface prints after the time stamp and CPU. An unknown
 * id ("<id N>: (no such event)") is counted in @loss->events_unknown and
 * gives -ENOENT; a record its format cannot decode ("NAME: (bad
 * record)") in @loss->records_bad, -EBADMSG.
 */
int kt_krec__text(const struct kt_krec_event *ev, int nr, const struct kt_krec_hdr *h,
		  const uint8_t *rec, uint32_t size, char *out, size_t n, struct kt_loss *loss);

struct kt_buffer;
/* the event table of a krec buffer (0 and NULL for any other buffer) */
int kt_krec__events(const struct kt_buffer *b, const struct kt_krec_event **ev);

struct kt_session;
/* ask the target every question of the recorder's layout, the answers
 * dropped (lib/questions.c: what a layout profile must answer) */
void kt_krec__ask_layout(struct kt_session *s);

#endif
