/* Other processes' writes in words and rules (record/culprit.c): "no
 * writer" under 1 MiB from others, at it and over it; a run disturbed
 * from 1 MiB and 1% of its writer's bytes, on both sides of each; a
 * culprit's name with its cgroup's last part, a kernel thread's, one gone
 * before its name was read; a stall's culprits in a sentence; bytes by
 * command, a command's processes summed, past the eighth in others; the
 * stalls each process was first in. */
#include <string.h>

#include "suites.h"
#include "record/culprit.h"
#include "record/summary.h"

#define MIB (1024 * 1024ULL)

static struct ws_culprits run_table(void)
{
	struct ws_culprits t = { .traced = true, .n = 3 };

	t.row[0] = (struct ws_culprit){ .pid = 4242, .written = 812 * MIB };
	strcpy(t.row[0].comm, "rsync");
	strcpy(t.row[0].cgroup, "/user.slice/user-1000.slice/session-2.scope");
	t.row[1] = (struct ws_culprit){ .pid = 1881, .written = 40 * MIB };
	strcpy(t.row[1].comm, "firefox");
	t.row[2] = (struct ws_culprit){ .pid = 321, .kernel = true, .written = 3 * MIB };
	strcpy(t.row[2].comm, "jbd2/sda2-8");
	return t;
}

START_TEST(test_no_writer_boundary)
{
	struct ws_stall_culprits c = { .traced = true };

	ck_assert_uint_eq(WS_CULPRIT_NO_WRITER_BYTES, 1 * 1024 * 1024);
	c.total_written = 1048575;
	ck_assert(ws_stall_no_writer(&c));
	c.total_written = 1048576;
	ck_assert(!ws_stall_no_writer(&c));
	c.total_written = 1048577;
	ck_assert(!ws_stall_no_writer(&c));
	c = (struct ws_stall_culprits){ .traced = false };
	ck_assert(!ws_stall_no_writer(&c));	/* not traced: not known */
}
END_TEST

/* Others' bytes are the rows but kernel threads', and others'. */
START_TEST(test_disturbed_boundary)
{
	struct ws_culprits t = { .traced = true, .n = 2 };

	ck_assert_int_eq(WS_CULPRIT_DISTURBED_PCT, 1);
	t.row[0] = (struct ws_culprit){ .pid = 1, .written = 1048576 - 4096 };
	t.row[1] = (struct ws_culprit){ .pid = 2, .kernel = true, .written = 64 * MIB };
	t.others_written = 4096;
	ck_assert_uint_eq(ws_culprits_others_written(&t), 1048576);
	/* 1 MiB is 1% of 100 MiB: at it, a byte under, a byte over */
	ck_assert(ws_culprits_disturbed(&t, 104857600));
	ck_assert(ws_culprits_disturbed(&t, 104857599));
	ck_assert(!ws_culprits_disturbed(&t, 104857601));
	/* under 1 MiB, whatever the run wrote */
	t.others_written = 4095;
	ck_assert(!ws_culprits_disturbed(&t, 0));
	t.others_written = 4096;
	t.traced = false;
	ck_assert(!ws_culprits_disturbed(&t, 0));
}
END_TEST

START_TEST(test_names)
{
	struct ws_culprits t = run_table();
	struct ws_culprit gone = { .pid = 77 }, early = { .pid = 0 };
	char buf[160];

	ck_assert_str_eq(ws_culprit_name(&t.row[0], buf, sizeof(buf)),
			 "rsync (pid 4242, session-2.scope)");
	ck_assert_str_eq(ws_culprit_name(&t.row[1], buf, sizeof(buf)), "firefox (pid 1881)");
	ck_assert_str_eq(ws_culprit_name(&t.row[2], buf, sizeof(buf)),
			 "jbd2/sda2-8 (kernel, pid 321)");
	ck_assert_str_eq(ws_culprit_name(&gone, buf, sizeof(buf)), "pid 77");
	ck_assert_str_eq(ws_culprit_name(&early, buf, sizeof(buf)),
			 "an unknown writer");
	ck_assert_str_eq(ws_cgroup_leaf("/ws_flood"), "ws_flood");
	ck_assert_str_eq(ws_cgroup_leaf("/"), "/");
	ck_assert_str_eq(ws_cgroup_leaf(""), "");
	ck_assert_ptr_null(ws_culprit_of(&t, 9));
	ck_assert_ptr_null(ws_culprit_of(&t, 0));
}
END_TEST

START_TEST(test_stall_words)
{
	struct ws_culprits t = run_table();
	struct ws_stall_culprits c = { .traced = true, .n = 2,
		.total_written = 852 * MIB };
	char buf[512];

	c.top[0] = (struct ws_stall_culprit){ 4242, 10, 812 * MIB };
	c.top[1] = (struct ws_stall_culprit){ 1881, 2, 40 * MIB };
	ck_assert_str_eq(ws_stall_culprit_words(&c, &t, true, buf, sizeof(buf)),
			 "812 MiB written by rsync (pid 4242, session-2.scope) and 40.0 MiB by firefox (pid 1881)");
	/* one not in the run's table: its pid */
	c.top[1].pid = 999;
	ck_assert_str_eq(ws_stall_culprit_words(&c, &t, true, buf, sizeof(buf)),
			 "812 MiB written by rsync (pid 4242, session-2.scope) and 40.0 MiB by pid 999");
	/* dirtied, nothing written back yet */
	c = (struct ws_stall_culprits){ .traced = true, .n = 1, .total_written = 2 * MIB };
	c.top[0] = (struct ws_stall_culprit){ 1881, 7, 0 };
	ck_assert_str_eq(ws_stall_culprit_words(&c, &t, true, buf, sizeof(buf)),
			 "7 folios dirtied by firefox (pid 1881)");
	c = (struct ws_stall_culprits){ .traced = true, .total_written = 120 * 1024 };
	ck_assert_str_eq(ws_stall_culprit_words(&c, &t, true, buf, sizeof(buf)),
			 "no writer: 120 KiB from other processes");
	ck_assert_str_eq(ws_stall_culprit_words(&c, &t, false, buf, sizeof(buf)), "");
	c.traced = false;
	ck_assert_str_eq(ws_stall_culprit_words(&c, &t, true, buf, sizeof(buf)), "");
}
END_TEST

START_TEST(test_by_command)
{
	struct ws_culprits t = { .traced = true, .others_written = 5, .before_trace = 7 };
	struct ws_command_bytes b;

	/* cc1 twice, then nine other commands */
	for (unsigned int i = 0; i < 11; i++) {
		t.row[i] = (struct ws_culprit){ .pid = (int32_t)(100 + i), .written = 1000 - i };
		snprintf(t.row[i].comm, WS_COMM_LEN, "cmd%u", i ? i - 1 : 0);
	}
	t.n = 11;
	ws_culprits_by_command(&t, &b);
	ck_assert(b.traced);
	ck_assert_uint_eq(b.n, WS_COMMANDS_KEPT);
	ck_assert_str_eq(b.cmd[0].comm, "cmd0");
	ck_assert_uint_eq(b.cmd[0].written, 1000 + 999);
	ck_assert_str_eq(b.cmd[7].comm, "cmd7");
	/* cmd8 and cmd9 (991, 990), others' 5 and the 7 before the trace */
	ck_assert_uint_eq(b.others, 991 + 990 + 5 + 7);
}
END_TEST

/* A stall counts for its first writer only; a stall with no writer for
 * nobody. */
START_TEST(test_count_stalls)
{
	static struct ws_probe_summary ps;
	struct ws_summary sum = { .nprobes = 1, .probes = &ps, .culprits = run_table() };

	ps.nrecorded = 3;
	for (int k = 0; k < 3; k++) {
		ps.stalls[k].culprits = (struct ws_stall_culprits){ .traced = true, .n = 2,
			.total_written = 2 * MIB };
		ps.stalls[k].culprits.top[0].pid = k == 1 ? 1881 : 4242;
		ps.stalls[k].culprits.top[1].pid = k == 1 ? 4242 : 1881;
	}
	ps.stalls[2].culprits.total_written = MIB - 1;
	ws_summary_count_culprit_stalls(&sum);
	ck_assert_uint_eq(sum.culprits.row[0].stalls, 1);
	ck_assert_uint_eq(sum.culprits.row[1].stalls, 1);
	ck_assert_uint_eq(sum.culprits.row[2].stalls, 0);
}
END_TEST

Suite *culprit_words_suite(void)
{
	Suite *s = suite_create("culprit_words");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_no_writer_boundary);
	tcase_add_test(tc, test_disturbed_boundary);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_stall_words);
	tcase_add_test(tc, test_by_command);
	tcase_add_test(tc, test_count_stalls);
	suite_add_tcase(s, tc);
	return s;
}
