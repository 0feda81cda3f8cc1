/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KREC_INTERNAL_H
#define KREC_INTERNAL_H

#include <linux/mutex.h>

struct dentry;
extern struct trace_buffer *krec_buffer;
extern struct hlist_head krec_table[1 << KREC_HASH_BITS];
extern struct mutex krec_lock;

struct krec_entry *krec_find_id(u16 id);
void krec_create_read_files(struct dentry *dir);
void krec_create_format_file(struct krec_entry *e);

#endif
