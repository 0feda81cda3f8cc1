// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The vmlinux DWARF one compilation unit at a time.
 *
 * libdw finds a unit from an offset by reading the header of every unit
 * before it (libdw/libdw_findcu.c), and dwarf_getaranges() reads the
 * header of every unit .debug_aranges names. On a distribution vmlinux
 * that is some 3,000 headers spread over 150+ MB of .debug_info, and
 * each one read through the file mapping brings the pages around it in
 * too (the kernel maps up to fault_around_bytes, 64 KiB, per fault):
 * about 100 MB of resident file pages for a dozen units of interest.
 *
 * So the unit that holds an address is looked up in .debug_aranges here,
 * and libdw is given an in-memory ELF image whose .debug_info is that one
 * unit and whose other .debug_* sections are the file's own (the same
 * bytes of the mapping, nothing copied). Unit-relative references
 * (DW_FORM_ref1..ref_udata), the only kind GCC emits within a unit of a
 * kernel built without LTO, and offsets into .debug_abbrev, .debug_str
 * and the other sections stay valid. Only the pages of the units read
 * and of the strings and abbreviations they use become resident.
 *
 * A walk over every unit (the slow path of types for a name no anchor
 * finds) reads .debug_info through a read-only mapping of its own, and
 * gives back the pages of the units it has left behind: clean pages of
 * a file, read again from it if a DIE kept in the index is asked for.
 */
#include <byteswap.h>
#include <endian.h>
#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "dwarf-unit.h"

/* the file's .debug_* sections, given to every unit's image */
struct dsec {
	Elf_Data *data;
	GElf_Word type;
	size_t name;		/* offset in kx_dunits.names */
	int is_info;
};

/* one unit read: its image, its handle, its unit DIE */
struct dunit {
	uint64_t off;		/* of the unit header in .debug_info */
	uint64_t die_off;
	Elf *elf;
	Dwarf *dw;
	Dwarf_Die cudie;
};

struct kx_dunits {
	Elf *elf;
	int fd;
	int swap;		/* the file's byte order is not ours */
	Elf_Data *info, *aranges;
	struct dsec secs[24];
	size_t nsecs;
	char names[512];	/* the images' .shstrtab */
	size_t names_len, shstrtab_name;
	struct dunit *units;
	size_t nunits, units_cap;
	/* .debug_info's place in the file; 0 when decompressed in memory */
	uint64_t info_file_off;
	int image_failed;	/* libdw refused a one-unit image */
	/* the walk over every unit: its handle, image and mapping */
	Dwarf *all;
	Elf *all_elf;
	char *all_map;
	size_t all_map_len, all_skew;
};

static uint64_t get_uint(const struct kx_dunits *u, const unsigned char *p,
			 unsigned int size)
{
	uint64_t v = 0;
	uint32_t v32;
	uint16_t v16;

	switch (size) {
	case 2:
		memcpy(&v16, p, 2);
		return u->swap ? bswap_16(v16) : v16;
	case 4:
		memcpy(&v32, p, 4);
		return u->swap ? bswap_32(v32) : v32;
	default:
		memcpy(&v, p, 8);
		return u->swap ? bswap_64(v) : v;
	}
}

static int add_name(struct kx_dunits *u, const char *name, size_t *off)
{
	size_t len = strlen(name) + 1;

	if (len > sizeof(u->names) - u->names_len)
		return -ENOMEM;
	memcpy(u->names + u->names_len, name, len);
	*off = u->names_len;
	u->names_len += len;
	return 0;
}

/*
 * Collect the .debug_* sections. Compressed ones (SHF_COMPRESSED, or the
 * older .zdebug_*) are decompressed in memory first, as dwarf_begin_elf()
 * would do, so that offsets into them mean what the DWARF says.
 */
static int collect_sections(struct kx_dunits *u)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int ret;

	if (elf_getshdrstrndx(u->elf, &shstrndx))
		return -EIO;
	u->names_len = 1;
	while ((scn = elf_nextscn(u->elf, scn))) {
		struct dsec *s;
		GElf_Shdr shdr;
		const char *name;
		char plain[64];

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(u->elf, shstrndx, shdr.sh_name);
		if (!name)
			continue;
		if (!strncmp(name, ".zdebug_", 8)) {
			if (elf_compress_gnu(scn, 0, 0) < 0)
				continue;
			snprintf(plain, sizeof(plain), ".%s", name + 2);
			name = plain;
		} else if (strncmp(name, ".debug_", 7)) {
			continue;
		} else if ((shdr.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0) {
			continue;
		}
		if (u->nsecs == sizeof(u->secs) / sizeof(u->secs[0]))
			break;
		s = &u->secs[u->nsecs];
		s->data = elf_getdata(scn, NULL);
		if (!s->data || !s->data->d_buf || !s->data->d_size)
			continue;
		s->type = shdr.sh_type;
		ret = add_name(u, name, &s->name);
		if (ret)
			return ret;
		if (!strcmp(name, ".debug_info")) {
			s->is_info = 1;
			u->info = s->data;
			if (!(shdr.sh_flags & SHF_COMPRESSED) && name != plain &&
			    gelf_getshdr(scn, &shdr) && shdr.sh_offset)
				u->info_file_off = shdr.sh_offset;
		} else if (!strcmp(name, ".debug_aranges")) {
			u->aranges = s->data;
		}
		u->nsecs++;
	}
	if (!u->info)
		return -ENOENT;
	return add_name(u, ".shstrtab", &u->shstrtab_name);
}

int kx_dunits__open(Elf *elf, int fd, struct kx_dunits **out)
{
	struct kx_dunits *u;
	GElf_Ehdr ehdr;
	int ret;

	*out = NULL;
	if (!gelf_getehdr(elf, &ehdr))
		return -EIO;
	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->elf = elf;
	u->fd = fd;
	u->swap = ehdr.e_ident[EI_DATA] !=
		  (__BYTE_ORDER == __LITTLE_ENDIAN ? ELFDATA2LSB : ELFDATA2MSB);
	ret = collect_sections(u);
	if (ret) {
		kx_dunits__close(u);
		return ret;
	}
	*out = u;
	return 0;
}

void kx_dunits__close(struct kx_dunits *u)
{
	size_t i;

	if (!u)
		return;
	for (i = 0; i < u->nunits; i++) {
		dwarf_end(u->units[i].dw);
		elf_end(u->units[i].elf);
	}
	free(u->units);
	if (u->all)
		dwarf_end(u->all);
	if (u->all_elf)
		elf_end(u->all_elf);
	if (u->all_map)
		munmap(u->all_map, u->all_map_len);
	free(u);
}

static Elf *unit_image(struct kx_dunits *u, const char *info, uint64_t size);

Dwarf *kx_dunits__all(struct kx_dunits *u)
{
	long page = sysconf(_SC_PAGESIZE);
	void *map;

	if (u->all)
		return u->all;
	if (u->info_file_off && page > 0) {
		u->all_skew = u->info_file_off % (uint64_t)page;
		u->all_map_len = u->all_skew + u->info->d_size;
		map = mmap(NULL, u->all_map_len, PROT_READ, MAP_PRIVATE, u->fd,
			   (off_t)(u->info_file_off - u->all_skew));
		if (map != MAP_FAILED) {
			u->all_map = map;
			u->all_elf = unit_image(u, u->all_map + u->all_skew, u->info->d_size);
			if (u->all_elf)
				u->all = dwarf_begin_elf(u->all_elf, DWARF_C_READ, NULL);
			if (u->all)
				return u->all;
			if (u->all_elf)
				elf_end(u->all_elf);
			munmap(u->all_map, u->all_map_len);
			u->all_elf = NULL;
			u->all_map = NULL;
		}
	}
	u->all = dwarf_begin_elf(u->elf, DWARF_C_READ, NULL);
	return u->all;
}

void kx_dunits__release(struct kx_dunits *u, uint64_t from, uint64_t to)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t start, end;

	if (!u->all_map || page <= 0 || from >= to)
		return;
	/* the page holding @to may hold the next unit too: kept */
	start = u->all_skew + from;
	end = u->all_skew + to;
	if (end > u->all_map_len)
		end = u->all_map_len;
	start -= start % (size_t)page;
	end -= end % (size_t)page;
	if (start >= end)
		return;
	/* our own PROT_READ, MAP_PRIVATE mapping of the file: never written */
	madvise(u->all_map + start, end - start, MADV_DONTNEED);
}

/*
 * The .debug_info offset of the unit whose .debug_aranges set covers
 * @addr (DWARF 5 section 6.1.2; the same layout since DWARF 2): 0, or
 * -ENOENT. A set that cannot be parsed is skipped.
 */
static int aranges_find(const struct kx_dunits *u, uint64_t addr, uint64_t *off)
{
	const unsigned char *p = u->aranges->d_buf;
	const unsigned char *end = p + u->aranges->d_size;

	while (end - p >= 4) {
		const unsigned char *set = p, *next;
		unsigned int offsize = 4, asize, tsize;
		uint64_t len = get_uint(u, p, 4), info_off;

		p += 4;
		if (len == 0xffffffff) {
			if (end - p < 8)
				break;
			len = get_uint(u, p, 8);
			p += 8;
			offsize = 8;
		}
		if (len > (uint64_t)(end - p))
			break;
		next = p + len;
		if (next - p < 2 + offsize + 2 || get_uint(u, p, 2) != 2) {
			p = next;
			continue;
		}
		info_off = get_uint(u, p + 2, offsize);
		asize = p[2 + offsize];
		p += 2 + offsize + 2;
		/* a segment selector size other than 0 is not for us */
		if ((asize != 4 && asize != 8) || p[-1]) {
			p = next;
			continue;
		}
		tsize = 2 * asize;
		p += (tsize - (size_t)(p - set) % tsize) % tsize;
		while (next - p >= (ptrdiff_t)tsize) {
			uint64_t start = get_uint(u, p, asize);
			uint64_t length = get_uint(u, p + asize, asize);

			if (!start && !length)
				break;
			if (addr >= start && addr - start < length) {
				*off = info_off;
				return 0;
			}
			p += tsize;
		}
		p = next;
	}
	return -ENOENT;
}

/* An in-memory image whose .debug_info is the @size bytes at @info. */
static Elf *unit_image(struct kx_dunits *u, const char *info, uint64_t size)
{
	GElf_Ehdr orig, ehdr;
	GElf_Shdr shdr;
	Elf_Scn *scn;
	Elf_Data *data;
	Elf *e;
	size_t i;

	if (!gelf_getehdr(u->elf, &orig))
		return NULL;
	/* ELF_C_WRITE only to build the image in memory: no elf_update() */
	e = elf_begin(u->fd, ELF_C_WRITE, NULL);
	if (!e)
		return NULL;
	if (!gelf_newehdr(e, gelf_getclass(u->elf)) || !gelf_getehdr(e, &ehdr))
		goto fail;
	memcpy(ehdr.e_ident, orig.e_ident, EI_NIDENT);
	ehdr.e_type = orig.e_type;
	ehdr.e_machine = orig.e_machine;
	ehdr.e_version = EV_CURRENT;
	if (!gelf_update_ehdr(e, &ehdr))
		goto fail;
	for (i = 0; i <= u->nsecs; i++) {
		const struct dsec *s = i < u->nsecs ? &u->secs[i] : NULL;

		scn = elf_newscn(e);
		data = scn ? elf_newdata(scn) : NULL;
		if (!data || !gelf_getshdr(scn, &shdr))
			goto fail;
		data->d_type = ELF_T_BYTE;
		data->d_version = EV_CURRENT;
		data->d_align = 1;
		if (!s) {
			data->d_buf = u->names;
			data->d_size = u->names_len;
			shdr.sh_type = SHT_STRTAB;
			shdr.sh_name = u->shstrtab_name;
		} else {
			data->d_buf = s->is_info ? (void *)info : s->data->d_buf;
			data->d_size = s->is_info ? size : s->data->d_size;
			shdr.sh_type = s->type;
			shdr.sh_name = s->name;
		}
		shdr.sh_size = data->d_size;
		shdr.sh_addralign = 1;
		if (!gelf_update_shdr(scn, &shdr))
			goto fail;
	}
	ehdr.e_shstrndx = elf_ndxscn(scn);
	if (!gelf_update_ehdr(e, &ehdr))
		goto fail;
	return e;
fail:
	elf_end(e);
	return NULL;
}

/* Read the unit at @off of .debug_info into a new entry of u->units. */
static int read_unit(struct kx_dunits *u, uint64_t off, struct dunit **out)
{
	const unsigned char *p = (const unsigned char *)u->info->d_buf + off;
	uint64_t left = u->info->d_size - off, len, hdr = 4;
	struct dunit *du;
	Dwarf_Off next;
	size_t hsize;

	if (off >= u->info->d_size || left < 4)
		return -EIO;
	len = get_uint(u, p, 4);
	if (len == 0xffffffff) {
		if (left < 12)
			return -EIO;
		len = get_uint(u, p + 4, 8);
		hdr = 12;
	}
	if (len > left - hdr)
		return -EIO;
	if (u->nunits == u->units_cap) {
		size_t cap = u->units_cap ? 2 * u->units_cap : 16;
		struct dunit *units = realloc(u->units, cap * sizeof(*units));

		if (!units)
			return -ENOMEM;
		u->units = units;
		u->units_cap = cap;
	}
	du = &u->units[u->nunits];
	memset(du, 0, sizeof(*du));
	du->off = off;
	du->elf = unit_image(u, (const char *)u->info->d_buf + off, hdr + len);
	if (!du->elf)
		return -ENOMEM;
	du->dw = dwarf_begin_elf(du->elf, DWARF_C_READ, NULL);
	if (!du->dw || dwarf_nextcu(du->dw, 0, &next, &hsize, NULL, NULL, NULL) ||
	    !dwarf_offdie(du->dw, hsize, &du->cudie)) {
		if (du->dw)
			dwarf_end(du->dw);
		elf_end(du->elf);
		return -EIO;
	}
	du->die_off = off + hsize;
	u->nunits++;
	*out = du;
	return 0;
}

/* libdw's own lookup on the whole file (no .debug_aranges, or no image) */
static int whole_file_at_addr(struct kx_dunits *u, uint64_t addr,
			      Dwarf_Die *cudie, uint64_t *die_off)
{
	Dwarf *all = kx_dunits__all(u);

	if (!all)
		return -EIO;
	if (!dwarf_addrdie(all, addr, cudie))
		return -ENOENT;
	*die_off = dwarf_dieoffset(cudie);
	return 0;
}

int kx_dunits__at_addr(struct kx_dunits *u, uint64_t addr, Dwarf_Die *cudie,
		       uint64_t *die_off)
{
	struct dunit *du = NULL;
	uint64_t off;
	size_t i;
	int ret;

	if (!u->aranges || u->image_failed)
		return whole_file_at_addr(u, addr, cudie, die_off);
	ret = aranges_find(u, addr, &off);
	if (ret)
		return ret;
	for (i = 0; i < u->nunits; i++)
		if (u->units[i].off == off)
			du = &u->units[i];
	if (!du) {
		ret = read_unit(u, off, &du);
		if (ret == -EIO) {
			/* libdw would not read the one-unit image (elfutils 0.192
			 * of Debian 13 refuses it where 0.188 reads it): from
			 * now on, libdw's own lookup on the whole file */
			u->image_failed = 1;
			if (getenv("KTRACE_DEBUG"))
				fprintf(stderr, "ktrace-extract: DWARF: libdw refused the "
					"one-unit image (%s); reading the whole file\n",
					dwarf_errmsg(-1));
			return whole_file_at_addr(u, addr, cudie, die_off);
		}
		if (ret)
			return ret;
	}
	*cudie = du->cudie;
	*die_off = du->die_off;
	return 0;
}
