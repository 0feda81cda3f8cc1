// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lib/sinks/sha256.c against the FIPS 180-4 examples, fed whole and byte by
 * byte; run again with KTRACE_NO_SHANI=1 so both the SHA-extension and the
 * portable code are checked on a CPU that has the extensions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sinks/sha256.h"

static int failed;
static const char *mode = "";

static void check(const char *what, const void *data, size_t n, const char *want)
{
	struct kt_sha256 c;
	char got[65];
	size_t i;

	kt_sha256__init(&c);
	kt_sha256__update(&c, data, n);
	kt_sha256__final(&c, got);
	printf("%s - %s%s: whole\n", strcmp(got, want) ? "not ok" : "ok", what, mode);
	failed |= !!strcmp(got, want);
	kt_sha256__init(&c);
	for (i = 0; i < n; i++)
		kt_sha256__update(&c, (const char *)data + i, 1);
	kt_sha256__final(&c, got);
	printf("%s - %s%s: byte by byte\n", strcmp(got, want) ? "not ok" : "ok", what, mode);
	failed |= !!strcmp(got, want);
}

int main(int argc, char **argv)
{
	static char million[1000000];
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	int st;

	if (getenv("KTRACE_NO_SHANI"))
		mode = " (portable code)";

	check("empty", "", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check("abc", "abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	check("two blocks", two, strlen(two),
	      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	memset(million, 'a', sizeof(million));
	check("a million a", million, sizeof(million),
	      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	if (!getenv("KTRACE_NO_SHANI")) {
		fflush(stdout);
		if (fork() == 0) {
			setenv("KTRACE_NO_SHANI", "1", 1);
			execv("/proc/self/exe", argv);
			_exit(127);
		}
		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			failed = 1;
	}
	(void)argc;
	return failed;
}
