/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The flattened dump format (makedumpfile -F, QEMU's kdump-*-flat
 * formats, Debian's kdump-tools), rearranged for libkdumpfile.
 */
#ifndef KTRACE_EXTRACT_FLAT_H
#define KTRACE_EXTRACT_FLAT_H

#include <stddef.h>
#include <stdint.h>

struct kx_flat;

/*
 * If @fd (the file @path) is a flattened dump, rearrange it and return
 * 0 with *@flat set; if it is not, return 0 with *@flat NULL. On error
 * return -errno with a message naming the file, offset and cause.
 */
/*
 * With @force, a file cut short is rearranged as far as it goes: 0 with
 * the reason in @msg, and kx_flat__truncated() true.
 */
int kx_flat__open(int fd, const char *path, int force, struct kx_flat **flat, char *msg,
		  size_t msglen);
int kx_flat__truncated(const struct kx_flat *flat);
/* Did the records read fill [off, off + len) of the image? (1 when whole) */
int kx_flat__filled(const struct kx_flat *flat, uint64_t off, uint64_t len);
void kx_flat__close(struct kx_flat *flat);
/* 1 if @fd starts with a flattened dump's header, 0 if not, or -errno */
int kx_flat__probe(int fd);
/*
 * The block size of the kdump-compressed header in the flattened dump
 * @fd's first record (at offset 0), or 0 (not one, or not first)
 */
uint32_t kx_flat__block(int fd);
/*
 * Walk the record headers of the flattened dump @fd to its end mark,
 * reading no data: 0 if whole, else -errno with a message (truncated or
 * corrupt, at which offset).
 */
int kx_flat__check(int fd, const char *path, char *msg, size_t msglen);
/*
 * True when the libkdumpfile we are built with reads flattened files
 * itself (0.5.4: Debian 13) and KTRACE_FLAT=rearrange does not ask for
 * our own rearrangement (which is what 0.5.1, Debian 12, needs).
 */
int kx_flat__by_lib(void);
/* a read-only descriptor of the rearranged kdump-compressed image */
int kx_flat__fd(const struct kx_flat *flat);
/* bytes of memory the rearranged image holds */
uint64_t kx_flat__memory(const struct kx_flat *flat);

#endif /* KTRACE_EXTRACT_FLAT_H */
