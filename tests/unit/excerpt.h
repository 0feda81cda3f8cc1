// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * An excerpt of a kernel's own trace (tests/unit/excerpts/CASE.txt, written
 * by scripts/make-excerpts), read into memory for test-excerpts.c: the
 * kernel's answers ("fact" lines), its kallsyms ("ksym"), saved cmdlines
 * ("comm"), current tracer ("tracer"), blk tracer ("blk"), events ("event",
 * "field", "fmt", "syscall") and records ("record") each with the line the
 * kernel printed for it ("line").
 */
#ifndef KTRACE_TESTS_EXCERPT_H
#define KTRACE_TESTS_EXCERPT_H

#include "fake-check.h"

#define MAX_EV 128
#define MAX_FIELDS 48
#define MAX_REC 512
#define MAX_BUF 8
#define MAX_CPU 64

struct xev {
	int id;
	char *system, *name, *fmt;
	struct fk_field f[MAX_FIELDS];
	int nf;
	/* a syscall event ("syscall enter|exit NAME NR"): its struct syscall_metadata */
	char sc_kind[8];
	char *sc_name;
	int sc_nr;
	/* a dynamic event ("funcs NAME"): its event.funcs, the printer's symbol */
	char *funcs;
	/* an eprobe ("eprobe SYSTEM EVENT"): the event it probes */
	char *ep_sys, *ep_ev;
};

struct xrec {
	char *buf, *line;
	int cpu, id;
	uint64_t ts;
	uint8_t *data;
	uint32_t len;
};

#define MAX_FACTS 64
#define MAX_KSYM 512

struct excerpt {
	char *kernel;
	/* the kernel's answers (its profile's lines): TRACE_FLAG_* values, members, symbols */
	struct fk_enum en[MAX_FACTS];
	int nen;
	struct fk_member mem[MAX_FACTS];
	int nmem;
	char *sym[MAX_FACTS];
	uint64_t sym_addr[MAX_FACTS];
	int nsym;
	/* the kernel's kallsyms where the records' code addresses are, in address order */
	char *ksym[MAX_KSYM];
	uint64_t ksym_addr[MAX_KSYM];
	int nksym;
	/* the saved cmdlines ("comm PID NAME"): the comms the blk tracer prints */
	int comm_pid[MAX_KSYM];
	char *comm[MAX_KSYM];
	int ncomm;
	/* the blk tracer ("blk TYPE FLAGS"): trace_blk_event.type, blk_tracer_flags.val */
	int blk_type;
	unsigned int blk_flags;
	/* the global buffer's current tracer ("tracer NAME"): blk_classic's lines are blk's */
	char *tracer;
	/* its options, the tracer's tracer_flags.val ("tflags VAL": funcgraph-*) */
	uint64_t tflags;
	bool has_tflags;
	/*
	 * a run ("kline" lines: function_graph): the kernel's trace file from
	 * its first line on, printed from all the records in their order
	 */
	char **kline;
	int nkline;
	/*
	 * a latency tracer's view (scripts/make-excerpts-latency): the trace
	 * array's trace_flags ("trflags"), its max buffer's CPU and
	 * time_start ("maxbuf"), that CPU's trace_array_cpu ("tac NAME
	 * VALUE"), each CPU's overruns ("overrun BUF CPU N"), the preemption
	 * model ("pdyn MODE": preempt_dynamic_mode; "pmodes NAME...")
	 */
	uint64_t trflags, time_start;
	bool has_trflags, has_maxbuf, has_pdyn;
	int max_cpu, pdyn;
	char *tac_name[16], *tac_val[16];
	int ntac;
	char *ov_buf[MAX_CPU];
	int ov_cpu[MAX_CPU];
	uint64_t ov_n[MAX_CPU];
	int nov;
	char *pmodes[16];
	int npmodes;
	struct xev ev[MAX_EV];
	int nev;
	struct xrec rec[MAX_REC];
	int nrec;
};

static void excerpt_free(struct excerpt *x)
{
	int i, j;

	free(x->kernel);
	free(x->tracer);
	for (i = 0; i < x->nkline; i++)
		free(x->kline[i]);
	free(x->kline);
	for (i = 0; i < x->ntac; i++) {
		free(x->tac_name[i]);
		free(x->tac_val[i]);
	}
	for (i = 0; i < x->nov; i++)
		free(x->ov_buf[i]);
	for (i = 0; i < x->npmodes; i++)
		free(x->pmodes[i]);
	for (i = 0; i < x->nen; i++)
		free((char *)x->en[i].name);
	for (i = 0; i < x->nmem; i++) {
		free((char *)x->mem[i].type);
		free((char *)x->mem[i].member);
	}
	for (i = 0; i < x->nsym; i++)
		free(x->sym[i]);
	for (i = 0; i < x->nksym; i++)
		free(x->ksym[i]);
	for (i = 0; i < x->ncomm; i++)
		free(x->comm[i]);
	for (i = 0; i < x->nev; i++) {
		free(x->ev[i].system);
		free(x->ev[i].name);
		free(x->ev[i].fmt);
		free(x->ev[i].sc_name);
		free(x->ev[i].funcs);
		free(x->ev[i].ep_sys);
		free(x->ev[i].ep_ev);
		for (j = 0; j < x->ev[i].nf; j++) {
			free((char *)x->ev[i].f[j].type);
			free((char *)x->ev[i].f[j].name);
		}
	}
	for (i = 0; i < x->nrec; i++) {
		free(x->rec[i].buf);
		free(x->rec[i].line);
		free(x->rec[i].data);
	}
}

static int unhex(const char *h, uint8_t **out, uint32_t *len)
{
	size_t n = strlen(h), i;
	uint8_t *d;

	if (n % 2 || n / 2 > 4000)
		return -1;
	d = calloc(1, n / 2 + 4);
	for (i = 0; i < n / 2; i++) {
		unsigned v;

		if (sscanf(h + 2 * i, "%2x", &v) != 1) {
			free(d);
			return -1;
		}
		d[i] = (uint8_t)v;
	}
	*out = d;
	*len = (uint32_t)(n / 2);
	return 0;
}

/* "enum\tNAME\tVALUE", "member\tTYPE\tMEMBER\tOFF\tSIZE" ("-": absent), "sym\tNAME\tADDR\t..." */
static int fact(struct excerpt *x, char *l)
{
	char *v[6] = { 0 };
	int n = 0;

	for (char *p = strtok(l, "\t"); p && n < 6; p = strtok(NULL, "\t"))
		v[n++] = p;
	if (n >= 3 && !strcmp(v[0], "enum") && x->nen < MAX_FACTS) {
		x->en[x->nen].name = strdup(v[1]);
		x->en[x->nen++].value = strtoll(v[2], NULL, 0);
	} else if (n >= 4 && !strcmp(v[0], "member") && !strcmp(v[3], "-")) {
		/* absent in that kernel: the fake kernel does not have it either */
	} else if (n >= 5 && !strcmp(v[0], "member") && x->nmem < MAX_FACTS) {
		x->mem[x->nmem].type = strdup(v[1]);
		x->mem[x->nmem].member = strdup(v[2]);
		x->mem[x->nmem].off = (uint32_t)strtoul(v[3], NULL, 0);
		x->mem[x->nmem++].size = (uint32_t)strtoul(v[4], NULL, 0);
	} else if (n >= 3 && !strcmp(v[0], "sym") && x->nsym < MAX_FACTS) {
		x->sym[x->nsym] = strdup(v[1]);
		x->sym_addr[x->nsym++] = strtoull(v[2], NULL, 16);
	} else if (n >= 2 && !strcmp(v[0], "nosym")) {
		/* absent */
	} else {
		return -1;
	}
	return 0;
}

/* Reads one excerpt file; 0, or -1 with a "not ok" said. */
static int parse(const char *path, struct excerpt *x)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int lineno = 0, bad = 0;
	struct xev *e = NULL;

	memset(x, 0, sizeof(*x));
	if (!f) {
		CHECK(0, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	while (!bad && (n = getline(&line, &cap, f)) > 0) {
		char a[64], b[64], c[128], hex[8200];
		unsigned off, size;
		int sig, pos = 0, cpu, id;
		unsigned long long ts;

		lineno++;
		if (line[n - 1] == '\n')
			line[--n] = 0;
		if (!*line || *line == '#')
			continue;
		if (!strncmp(line, "kernel ", 7)) {
			x->kernel = strdup(line + 7);
		} else if (!strncmp(line, "fact\t", 5)) {
			if (fact(x, line + 5)) {
				bad = 1;
				break;
			}
		} else if (sscanf(line, "ksym %llx %127s", &ts, c) == 2) {
			if (x->nksym == MAX_KSYM) {
				bad = 1;
				break;
			}
			x->ksym_addr[x->nksym] = ts;
			x->ksym[x->nksym++] = strdup(c);
		} else if (sscanf(line, "comm %d %n", &id, &pos) == 1 && pos) {
			if (x->ncomm == MAX_KSYM) {
				bad = 1;
				break;
			}
			x->comm_pid[x->ncomm] = id;
			x->comm[x->ncomm++] = strdup(line + pos);
		} else if (sscanf(line, "tracer %63s", a) == 1) {
			free(x->tracer);
			x->tracer = strdup(a);
		} else if (sscanf(line, "trflags %llx", &ts) == 1) {
			x->trflags = ts;
			x->has_trflags = true;
		} else if (sscanf(line, "maxbuf %d %llu", &x->max_cpu, &ts) == 2) {
			x->time_start = ts;
			x->has_maxbuf = true;
		} else if (sscanf(line, "tac %63s %n", a, &pos) == 1 && pos) {
			if (x->ntac == 16) {
				bad = 1;
				break;
			}
			x->tac_name[x->ntac] = strdup(a);
			x->tac_val[x->ntac++] = strdup(line + pos);
		} else if (sscanf(line, "overrun %63s %d %llu", a, &cpu, &ts) == 3) {
			if (x->nov == MAX_CPU) {
				bad = 1;
				break;
			}
			x->ov_buf[x->nov] = strdup(a);
			x->ov_cpu[x->nov] = cpu;
			x->ov_n[x->nov++] = ts;
		} else if (sscanf(line, "pdyn %d", &x->pdyn) == 1) {
			x->has_pdyn = true;
		} else if (!strncmp(line, "pmodes ", 7)) {
			for (char *p = strtok(line + 7, " "); p && x->npmodes < 16; p = strtok(NULL, " "))
				x->pmodes[x->npmodes++] = strdup(p);
		} else if (sscanf(line, "tflags %llx", &ts) == 1) {
			x->tflags = ts;
			x->has_tflags = true;
		} else if (!strncmp(line, "kline ", 6) || !strcmp(line, "kline")) {
			char **kl = realloc(x->kline, (size_t)(x->nkline + 1) * sizeof(*kl));

			if (!kl) {
				bad = 1;
				break;
			}
			x->kline = kl;
			x->kline[x->nkline++] = strdup(line[5] ? line + 6 : "");
		} else if (sscanf(line, "blk %d %u", &x->blk_type, &off) == 2) {
			x->blk_flags = off;
		} else if (sscanf(line, "event %d %63s %127s", &id, a, c) == 3) {
			if (x->nev == MAX_EV) {
				bad = 1;
				break;
			}
			e = &x->ev[x->nev++];
			e->id = id;
			e->system = strdup(a);
			e->name = strdup(c);
		} else if (e && sscanf(line, "field %u %u %d %63s %n", &off, &size, &sig, b, &pos) == 4 &&
			   pos) {
			if (e->nf == MAX_FIELDS) {
				bad = 1;
				break;
			}
			e->f[e->nf].offset = off;
			e->f[e->nf].size = size;
			e->f[e->nf].is_signed = sig;
			e->f[e->nf].name = strdup(b);
			e->f[e->nf].type = strdup(line + pos);
			e->nf++;
		} else if (e && sscanf(line, "syscall %7s %127s %d", e->sc_kind, c, &e->sc_nr) == 3 &&
			   (!strcmp(e->sc_kind, "enter") || !strcmp(e->sc_kind, "exit"))) {
			e->sc_name = strdup(c);
		} else if (e && sscanf(line, "eprobe %63s %127s", a, c) == 2) {
			e->ep_sys = strdup(a);
			e->ep_ev = strdup(c);
		} else if (e && sscanf(line, "funcs %127s", c) == 1) {
			free(e->funcs);
			e->funcs = strdup(c);
		} else if (e && !strncmp(line, "fmt ", 4)) {
			e->fmt = strdup(line + 4);
		} else if (sscanf(line, "record %63s %d %llu %d %8199s", a, &cpu, &ts, &id, hex) == 5) {
			struct xrec *r;

			if (x->nrec == MAX_REC || cpu < 0 || cpu >= MAX_CPU) {
				bad = 1;
				break;
			}
			r = &x->rec[x->nrec];
			if (unhex(hex, &r->data, &r->len) || r->len < 8) {
				bad = 1;
				break;
			}
			x->nrec++;
			r->buf = strdup(a);
			r->cpu = cpu;
			r->ts = ts;
			r->id = id;
		} else if (!strncmp(line, "line ", 5) && x->nrec && !x->rec[x->nrec - 1].line) {
			x->rec[x->nrec - 1].line = strdup(line + 5);
		} else {
			bad = 1;
		}
	}
	free(line);
	fclose(f);
	if (bad || !x->kernel || !x->nrec) {
		CHECK(0, "%s: line %d: not an excerpt (scripts/make-excerpts writes them)", path,
		      lineno);
		excerpt_free(x);
		return -1;
	}
	return 0;
}

#endif /* KTRACE_TESTS_EXCERPT_H */
