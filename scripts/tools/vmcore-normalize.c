// SPDX-License-Identifier: GPL-2.0
/*
 * vmcore-normalize - put an ELF vmcore's program headers right after the
 * ELF header, in place.
 *
 * QEMU's dump-guest-memory (7.2) writes a section header at offset 64 and the
 * program headers after it (e_phoff 192); makedumpfile 1.7.2 reads the
 * program headers at sizeof(Elf64_Ehdr) whatever e_phoff says, and fails with
 * "Can't get the number of PT_LOAD". Moving the table down to offset 64 only
 * overwrites the section header and the old table, never segment data, since
 * every segment lies after the old table. The section header is dropped: QEMU
 * only writes one to hold e_phnum when it overflows PN_XNUM, which we refuse.
 *
 * usage: vmcore-normalize FILE   (modifies FILE; run it on a copy)
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fail(const char *file, const char *what)
{
	fprintf(stderr, "vmcore-normalize: %s: %s%s%s\n", file, what,
		errno ? ": " : "", errno ? strerror(errno) : "");
	return 1;
}

int main(int argc, char **argv)
{
	Elf64_Ehdr ehdr;
	Elf64_Phdr *phdr = NULL;
	size_t size;
	int fd, ret = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: vmcore-normalize FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0)
		return fail(argv[1], "cannot open");
	errno = 0;
	if (pread(fd, &ehdr, sizeof(ehdr), 0) != sizeof(ehdr))
		goto out_short;
	if (memcmp(ehdr.e_ident, ELFMAG, SELFMAG) ||
	    ehdr.e_ident[EI_CLASS] != ELFCLASS64 || ehdr.e_type != ET_CORE ||
	    ehdr.e_phentsize != sizeof(Elf64_Phdr)) {
		fail(argv[1], "not a 64-bit ELF core file");
		goto out;
	}
	if (ehdr.e_phnum == PN_XNUM) {
		fail(argv[1], "e_phnum overflow (PN_XNUM) is not handled");
		goto out;
	}
	if (ehdr.e_phoff == sizeof(ehdr)) {
		ret = 0; /* already normal */
		goto out;
	}
	if (ehdr.e_phoff < sizeof(ehdr)) {
		fail(argv[1], "program headers overlap the ELF header");
		goto out;
	}
	size = (size_t)ehdr.e_phnum * sizeof(Elf64_Phdr);
	phdr = malloc(size);
	if (!phdr) {
		fail(argv[1], "out of memory");
		goto out;
	}
	if (pread(fd, phdr, size, ehdr.e_phoff) != (ssize_t)size)
		goto out_short;
	ehdr.e_phoff = sizeof(ehdr);
	ehdr.e_shoff = 0;
	ehdr.e_shnum = 0;
	ehdr.e_shstrndx = SHN_UNDEF;
	if (pwrite(fd, &ehdr, sizeof(ehdr), 0) != sizeof(ehdr) ||
	    pwrite(fd, phdr, size, sizeof(ehdr)) != (ssize_t)size) {
		fail(argv[1], "cannot write the headers");
		goto out;
	}
	ret = 0;
	goto out;
out_short:
	fail(argv[1], "short read of the ELF headers");
out:
	free(phdr);
	if (close(fd) && !ret)
		ret = fail(argv[1], "close");
	return ret;
}
