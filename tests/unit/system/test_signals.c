/* test_signals.c - SIGINT and SIGTERM: the names, the first stop signal
 * kept, ws_stop raised, and a second SIGINT ending the process at once
 * (exit 130) after unlinking the registered files (up to 8) and writing
 * back the registered sysfs values (up to 4).  Each signal is raised in a
 * child of the test, which reports what it saw through a pipe, so neither
 * the handlers nor an exit reach the test runner. */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "lib/c.h"
#include "lib/exit.h"
#include "system/signals.h"
#include "suites.h"
#include "testutil.h"

/* ---- names ---- */

static const struct {
	int signo;
	const char *name;
} names[] = {
	{ SIGINT, "SIGINT" },
	{ SIGTERM, "SIGTERM" },
	{ SIGHUP, NULL },
	{ SIGKILL, NULL },
	{ 0, NULL },
	{ -1, NULL },
};

START_TEST(test_name)
{
	const char *got = signals_name(names[_i].signo);

	if (names[_i].name)
		ck_assert_str_eq(got, names[_i].name);
	else
		ck_assert_ptr_null(got);
}
END_TEST

/* ---- the handler, in a child ---- */

struct child {
	pid_t pid;
	int out;		/* the child's report */
	int err;		/* its stderr */
	char report[256];
	char stderr_text[256];
	int status;
};

static void read_all(int fd, char *buf, size_t len)
{
	size_t used = 0;
	ssize_t n;

	while (used < len - 1 && (n = read(fd, buf + used, len - 1 - used)) > 0)
		used += (size_t)n;
	buf[used] = '\0';
	close(fd);
}

/* Fork; the child runs body(out) and exits 0 unless a signal ended it. */
static void child_run(struct child *c, void (*body)(FILE *out, void *arg),
		      void *arg)
{
	int out[2], err[2];

	ck_assert_int_eq(pipe(out), 0);
	ck_assert_int_eq(pipe(err), 0);
	c->pid = fork();
	ck_assert_int_ge(c->pid, 0);
	if (c->pid == 0) {
		FILE *f;

		close(out[0]);
		close(err[0]);
		dup2(err[1], STDERR_FILENO);
		f = fdopen(out[1], "w");
		setvbuf(f, NULL, _IONBF, 0);
		body(f, arg);
		fclose(f);
		_exit(0);
	}
	close(out[1]);
	close(err[1]);
	read_all(out[0], c->report, sizeof(c->report));
	read_all(err[0], c->stderr_text, sizeof(c->stderr_text));
	ck_assert_int_eq(waitpid(c->pid, &c->status, 0), c->pid);
}

static void report(FILE *out)
{
	fprintf(out, "stop=%d received=%d;", (int)atomic_load(&ws_stop),
		signals_received());
}

static void before_any(FILE *out, void *arg)
{
	(void)arg;
	if (signals_install())
		_exit(3);
	report(out);
}

START_TEST(test_nothing_received)
{
	struct child c;

	child_run(&c, before_any, NULL);
	ck_assert(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0);
	ck_assert_str_eq(c.report, "stop=0 received=0;");
}
END_TEST

/* Signals raised in order; a report after each. */
static void raise_each(FILE *out, void *arg)
{
	const int *sigs = arg;

	if (signals_install())
		_exit(3);
	for (int i = 0; sigs[i]; i++) {
		raise(sigs[i]);
		report(out);
	}
}

static const struct {
	int sigs[4];
	const char *report;
	int exit_status;	/* the child's */
	bool again;		/* "interrupted again" said */
} sequences[] = {
	/* graceful: the run stops, the first signal is remembered */
	{ { SIGTERM }, "stop=1 received=15;", 0, false },
	{ { SIGINT }, "stop=1 received=2;", 0, false },
	{ { SIGTERM, SIGTERM }, "stop=1 received=15;stop=1 received=15;", 0, false },
	{ { SIGINT, SIGTERM }, "stop=1 received=2;stop=1 received=2;", 0, false },
	/* a second SIGINT ends the process at once, whatever came first */
	{ { SIGINT, SIGINT, SIGTERM }, "stop=1 received=2;", WS_EXIT_SIGINT, true },
	{ { SIGTERM, SIGINT, SIGTERM }, "stop=1 received=15;", WS_EXIT_SIGINT, true },
};

START_TEST(test_sequence)
{
	struct child c;

	child_run(&c, raise_each, (void *)sequences[_i].sigs);
	ck_assert_msg(WIFEXITED(c.status), "child ended by signal %d",
		      WTERMSIG(c.status));
	ck_assert_int_eq(WEXITSTATUS(c.status), sequences[_i].exit_status);
	ck_assert_str_eq(c.report, sequences[_i].report);
	if (sequences[_i].again)
		ck_assert_str_eq(c.stderr_text,
				 "\nwritestress: interrupted again, exiting at once\n");
	else
		ck_assert_str_eq(c.stderr_text, "");
}
END_TEST

/* ---- what a second SIGINT cleans up ---- */

static char dir[64];

static void dir_setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ws-signals-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void dir_teardown(void)
{
	ck_assert_msg(rmdir(dir) == 0, "%s: %s", dir, strerror(errno));
}

static bool exists(const char *name)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

static void remove_file(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ck_assert_int_eq(unlink(path), 0);
}

#define NFILES (WS_MAX_UNLINK + 2)
static char file_names[NFILES][16];
static char restore_paths[6][160];

/* Register: "" and NULL (ignored), then f0..f9 (room for 8), and six
 * sysfs values (room for 4); then two SIGINTs. */
static void register_and_interrupt(FILE *out, void *arg)
{
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY);

	(void)arg;
	if (dirfd < 0 || signals_install())
		_exit(3);
	signals_unlink_at_exit(dirfd, "");
	signals_unlink_at_exit(dirfd, NULL);
	for (int i = 0; i < NFILES; i++)
		signals_unlink_at_exit(dirfd, file_names[i]);
	for (int i = 0; i < 6; i++)
		signals_restore_at_exit(restore_paths[i], "mq-deadline");
	raise(SIGINT);
	fputs("after one;", out);
	raise(SIGINT);
	fputs("after two;", out);	/* not reached */
}

START_TEST(test_second_sigint_cleans_up)
{
	struct child c;

	for (int i = 0; i < NFILES; i++) {
		snprintf(file_names[i], sizeof(file_names[i]), "f%d", i);
		tu_write_file(dir, file_names[i], "probe");
	}
	for (int i = 0; i < 6; i++) {
		char name[16];

		snprintf(name, sizeof(name), "sched%d", i);
		tu_write_file(dir, name, "kyber");
		snprintf(restore_paths[i], sizeof(restore_paths[i]), "%s/%s", dir,
			 name);
	}
	child_run(&c, register_and_interrupt, NULL);
	ck_assert(WIFEXITED(c.status));
	ck_assert_int_eq(WEXITSTATUS(c.status), WS_EXIT_SIGINT);
	ck_assert_str_eq(c.report, "after one;");

	/* the first WS_MAX_UNLINK registered go; the last two had no room */
	for (int i = 0; i < NFILES; i++) {
		ck_assert_msg(exists(file_names[i]) == (i >= WS_MAX_UNLINK), "%s",
			      file_names[i]);
		if (i >= WS_MAX_UNLINK)
			remove_file(file_names[i]);
	}
	/* the first four values written back; the others had no room */
	for (int i = 0; i < 6; i++) {
		char text[64] = "";
		FILE *f = fopen(restore_paths[i], "r");

		ck_assert_ptr_nonnull(f);
		ck_assert_ptr_nonnull(fgets(text, sizeof(text), f));
		fclose(f);
		ck_assert_str_eq(text, i < 4 ? "mq-deadline" : "kyber");
		unlink(restore_paths[i]);
	}
}
END_TEST

/* A directory whose owner forgot its files (it removed them and closes
 * its fd) is left alone by the second SIGINT; another's files still go. */
static void forget_and_interrupt(FILE *out, void *arg)
{
	int kept = open(dir, O_RDONLY | O_DIRECTORY);
	int other = open(dir, O_RDONLY | O_DIRECTORY);

	(void)arg;
	(void)out;
	if (kept < 0 || other < 0 || signals_install())
		_exit(3);
	signals_unlink_at_exit(kept, "forgotten");
	signals_unlink_at_exit(other, "removed");
	signals_unlink_forget(kept);
	raise(SIGINT);
	raise(SIGINT);
}

START_TEST(test_forgotten_are_kept)
{
	struct child c;

	tu_write_file(dir, "forgotten", "probe");
	tu_write_file(dir, "removed", "probe");
	child_run(&c, forget_and_interrupt, NULL);
	ck_assert(WIFEXITED(c.status));
	ck_assert_int_eq(WEXITSTATUS(c.status), WS_EXIT_SIGINT);
	ck_assert(exists("forgotten"));
	ck_assert(!exists("removed"));
	remove_file("forgotten");
}
END_TEST

/* SIGTERM alone is graceful: nothing is unlinked, the run cleans up. */
static void register_and_term(FILE *out, void *arg)
{
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY);

	(void)arg;
	if (dirfd < 0 || signals_install())
		_exit(3);
	signals_unlink_at_exit(dirfd, "keep");
	raise(SIGTERM);
	raise(SIGTERM);
	report(out);
}

START_TEST(test_sigterm_unlinks_nothing)
{
	struct child c;

	tu_write_file(dir, "keep", "probe");
	child_run(&c, register_and_term, NULL);
	ck_assert(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0);
	ck_assert_str_eq(c.report, "stop=1 received=15;");
	ck_assert(exists("keep"));
	remove_file("keep");
}
END_TEST

Suite *signals_suite(void)
{
	Suite *s = suite_create("signals");
	TCase *tc = tcase_create("handler");
	TCase *files = tcase_create("files");

	tcase_add_loop_test(tc, test_name, 0, ARRAY_SIZE(names));
	tcase_add_test(tc, test_nothing_received);
	tcase_add_loop_test(tc, test_sequence, 0, ARRAY_SIZE(sequences));
	tcase_add_checked_fixture(files, dir_setup, dir_teardown);
	tcase_add_test(files, test_second_sigint_cleans_up);
	tcase_add_test(files, test_forgotten_are_kept);
	tcase_add_test(files, test_sigterm_unlinks_nothing);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, files);
	return s;
}
