/* SPDX-License-Identifier: GPL-2.0 */
/*
 * krec - the ktrace recorder: events declared where they are used, by a
 * name and a printf-like format, recorded into a ring buffer of their own.
 *
 * A user declares an event at file scope and records it:
 *
 *	KREC_EVENT(mydrv_xmit, "dev=%s len=%u seq=%llu");
 *	...
 *	krec(mydrv_xmit, dev->name, skb->len, seq);
 *
 * and registers its events once (module init):
 *
 *	static struct krec_event *mydrv_events[] = { &mydrv_xmit, ... };
 *	krec_register_events(THIS_MODULE, mydrv_events, ARRAY_SIZE(mydrv_events));
 *
 * The arguments are packed after a struct krec_record in the order of the
 * format: 4 bytes for int-sized conversions (%d %i %u %x %X %c, with h or
 * hh), 8 bytes for long ones (l, ll, z), and for %s a 32-bit data
 * location (length << 16 | offset from the record's start) of the string,
 * which follows the fixed part with its NUL. No padding anywhere.
 */
#ifndef KREC_H
#define KREC_H

#include <linux/types.h>
#include <linux/list.h>

#define KREC_MAX_ARGS		8
#define KREC_MAX_RECORD		512	/* bytes of one record, strings included */
#define KREC_HASH_BITS		5

struct krec_entry;

/* what a call site declares */
struct krec_event {
	const char *name;
	const char *format;
	struct krec_entry *entry;	/* set by krec_register_events() */
};

/* the record header, first in every ring-buffer payload */
struct krec_record {
	u16 id;
	u16 size;		/* bytes written: header, arguments, strings */
	u32 pid;
	u8 args[];
} __packed;

/*
 * The event table entry (in the hash table krec_table, by name). The
 * reader of a crash dump walks this table: keep the members' names.
 */
struct krec_entry {
	struct hlist_node hlist;
	const char *name;
	const char *format;
	u16 id;
	u16 size;			/* fixed part: header and arguments */
	u8 nr_args;
	u8 nr_str;
	u8 arg_size[KREC_MAX_ARGS];	/* 4, 8; 4 for a string's data location */
	u16 str_off[KREC_MAX_ARGS];	/* offsets of the strings' data locations */
	bool enabled;
	struct module *owner;
	struct dentry *dir;
};

#define KREC_EVENT(ev, fmt)						\
	static struct krec_event ev = { .name = #ev, .format = fmt }

extern bool krec_enabled;
void krec_write(struct krec_event *ev, ...);

#define krec(ev, ...)							\
	do {								\
		if (READ_ONCE(krec_enabled) && (ev).entry &&		\
		    READ_ONCE((ev).entry->enabled))			\
			krec_write(&(ev), ##__VA_ARGS__);		\
	} while (0)

struct module;
int krec_register_events(struct module *owner, struct krec_event **events, int n);
void krec_unregister_events(struct krec_event **events, int n);

/* krec_fmt.c: the format as the packing and the rendering see it */
struct krec_spec {
	const char *start;	/* '%' */
	int head;		/* '%', flags, width, precision */
	char len[3];		/* the length modifier: "", "h", "hh", "l", "ll", "z" */
	char conv;
	u8 size;		/* bytes of its argument in the record */
};
/* the next conversion of *@fmt, or 0 at the end; -EINVAL if unsupported */
int krec_next_spec(const char **fmt, struct krec_spec *spec);
int krec_parse(struct krec_entry *e);
int krec_render(const struct krec_entry *e, const void *rec, u32 len, char *buf,
		size_t size);

#endif
