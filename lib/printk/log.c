// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The kernel log as a session fact: read once (ringbuffer.c), kept with
 * the session; its panic record; text as makedumpfile --dump-dmesg writes
 * it, and JSON Lines.
 */
#include <stdlib.h>
#include <string.h>
#include "printk.h"

/* panic() in kernel/panic.c: pr_emerg("Kernel panic - not syncing: %s\n", buf) */
static const char panic_prefix[] = "Kernel panic - not syncing: ";

void kt_log__free(struct kt_log *log)
{
	size_t i;

	if (!log)
		return;
	for (i = 0; i < log->n; i++)
		free((char *)log->recs[i].text);
	free(log->recs);
	free(log->panic_msg);
	free(log);
}

static void find_panic(struct kt_log *log)
{
	size_t i = log->n, len;
	const char *msg;

	while (i-- > 0) {
		if (strncmp(log->recs[i].text, panic_prefix, sizeof(panic_prefix) - 1))
			continue;
		log->panic = &log->recs[i];
		msg = log->recs[i].text + sizeof(panic_prefix) - 1;
		len = strcspn(msg, "\n");
		log->panic_msg = strndup(msg, len);
		return;
	}
}

/* the kernel log's find (recorder.c): the printk ring read whole */
static int log_find(struct kt_session *s, void **state)
{
	struct kt_log *log = calloc(1, sizeof(*log));
	int err;

	if (!log)
		return kt_err(ENOMEM, "kernel log: out of memory");
	log->s = s;
	err = kt_log__read_prb(s, log);
	if (err) {
		kt_log__free(log);
		return err;
	}
	find_panic(log);
	*state = log;
	return 0;
}

static void log_free(void *state)
{
	kt_log__free(state);
}

/* the kernel log's section of the account: its log_* counts */
static void log_losses(const void *state, struct kt_losses *l)
{
	const struct kt_log *log = state;

	kt_loss__add(&l->log, &log->loss);
}

const struct kt_recorder_ops kt_printk_recorder = {
	.find = log_find,
	.free = log_free,
	.loss = log_losses,
};

struct kt_log *kt_session__log(struct kt_session *s)
{
	return kt_recorder__get(s, KT_REC_PRINTK);
}

size_t kt_log__record_cnt(const struct kt_log *log) { return log->n; }

const struct kt_log_record *kt_log__record(const struct kt_log *log, size_t idx)
{
	return idx < log->n ? &log->recs[idx] : NULL;
}

const struct kt_log_record *kt_log__next_record(const struct kt_log *log,
						const struct kt_log_record *prev)
{
	size_t idx = prev ? (size_t)(prev - log->recs) + 1 : 0;

	return kt_log__record(log, idx);
}

void kt_log__loss(const struct kt_log *log, struct kt_loss *loss)
{
	*loss = log->loss;
}

void kt_log__print_loss(const struct kt_log *log, FILE *out, const char *prefix)
{
	kt_loss__print_log(&log->loss, out, prefix);
}

const struct kt_log_record *kt_log__panic_record(const struct kt_log *log)
{
	return log->panic;
}

const char *kt_log__panic_message(const struct kt_log *log)
{
	return log->panic_msg;
}

const char *kt_session__panic_message(struct kt_session *s)
{
	struct kt_log *log = kt_session__log(s);

	if (!log)
		return NULL;
	if (!log->panic_msg)
		errno = ENOENT;
	return log->panic_msg;
}

const char *kt_log_record__caller(const struct kt_log_record *r, char *buf, size_t len)
{
	if (r->caller_id & KT_LOG_CALLER_CPU)
		snprintf(buf, len, "C%u", r->caller_id & ~KT_LOG_CALLER_CPU);
	else
		snprintf(buf, len, "T%u", r->caller_id);
	return buf;
}

/*
 * dump_record() of makedumpfile (printk.c) and dmesg: the time stamp in
 * seconds with microseconds, then the text; a newline inside the text
 * starts a line indented under the first; what is neither printable nor
 * white space in the C locale is written \xNN (makedumpfile sign-extends
 * bytes from 0x80 up, "\xffffffc3"; we write "\xc3").
 */
void kt_log__print_record(const struct kt_log_record *r, FILE *out)
{
	char stamp[48];
	int indent;
	uint32_t i;

	indent = snprintf(stamp, sizeof(stamp), "[%5llu.%06llu] ",
			  (unsigned long long)(r->ts_nsec / 1000000000),
			  (unsigned long long)(r->ts_nsec % 1000000000 / 1000));
	fputs(stamp, out);
	for (i = 0; i < r->text_len; i++) {
		unsigned char c = (unsigned char)r->text[i];

		if (c == '\n')
			fprintf(out, "\n%*s", indent, "");
		else if ((c >= 0x20 && c < 0x7f) || (c >= '\t' && c <= '\r'))
			fputc(c, out);
		else
			fprintf(out, "\\x%02x", c);
	}
	fputc('\n', out);
}

static void json_record(const struct kt_log_record *r, FILE *out)
{
	char caller[16];

	fprintf(out, "{\"seq\":%llu,\"ts\":%llu,\"timestamp\":\"%llu.%06llu\",\"caller\":\"%s\","
		     "\"level\":%d,\"facility\":%d,\"flags\":%u",
		(unsigned long long)r->seq, (unsigned long long)r->ts_nsec,
		(unsigned long long)(r->ts_nsec / 1000000000),
		(unsigned long long)(r->ts_nsec % 1000000000 / 1000),
		kt_log_record__caller(r, caller, sizeof(caller)), r->level, r->facility,
		r->flags);
	if (*r->subsystem) {
		fputs(",\"subsystem\":", out);
		kt_json__str(out, r->subsystem, 64);
	}
	if (*r->device) {
		fputs(",\"device\":", out);
		kt_json__str(out, r->device, 64);
	}
	fputs(",\"text\":", out);
	kt_json__str(out, r->text, r->text_len);
	fputs("}\n", out);
}

static void json_header(const struct kt_log *log, FILE *out)
{
	fputs("{\"log\":\"printk\"", out);
	kt_loss__json_log(&log->loss, out);
	if (log->panic_msg) {
		fputs(",\"panic\":", out);
		kt_json__str(out, log->panic_msg, KT_MAX_STR);
	}
	fputs("}\n", out);
}

int kt_log__write(const struct kt_log *log, FILE *out, const struct kt_log_opts *opts)
{
	struct kt_log_opts o = { 0 };
	const struct kt_log_record *r;
	int err = kt_opts__copy(&o, sizeof(o), opts, "kt_log_opts");

	if (err)
		return err;
	if (!o.ts_max)
		o.ts_max = UINT64_MAX;
	if (o.json)
		json_header(log, out);
	kt_log__for_each_record(r, log) {
		if (r->ts_nsec < o.ts_min || r->ts_nsec > o.ts_max)
			continue;
		if (o.json)
			json_record(r, out);
		else
			kt_log__print_record(r, out);
	}
	return ferror(out) ? -EIO : 0;
}
