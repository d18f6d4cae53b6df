/* A stall's reason in words (record/stall.c), on its own: figures in,
 * the exact sentence every output prints out; each rule's sentence at
 * the edges its words turn on (one iclog or more, a step above 0, no
 * site, no duration), the remarks of short evidence in their order, and
 * the room's cut.  The judge that fills the figures:
 * trace/test_stallcause.c. */
#include <string.h>

#include <check.h>

#include "lib/c.h"
#include "record/stall.h"
#include "suites.h"

#define MS 1000000ull
#define SEC 1000000000ull
#define MIB (1024ull * 1024)

#define WBT_HELD "waited in rq_qos_wait: writeback throttling (wbt, latency target 2.00 ms) held its write back"
#define ALLOWED "; it allowed 4 writes in flight (2 of background writeback), step "
#define CHANGED ", changed 1 times while the probe waited"

/* The stall's own span: the device busy 20 ms of 620 ms. */
#define QUIET_SPAN { .span_ns = 620 * MS, .busy_ns = 20 * MS, .max_service_ns = 20 * MS }
#define QUIET_WORDS "no traced layer held it: the device was busy 20.0 ms of 620 ms, each request in <= 20.0 ms"

/* A commit of 900 ms, 890 of it in its longest phase, of iclogs (0: a
 * jbd2 commit) and its log's bytes, in whose span the device was not
 * busy. */
#define COMMIT(phase_, iclogs_, bytes_) { .on_commit = true, .tid = 412, .commit_ns = 900 * MS, \
		      .phase = phase_, .phase_ns = 890 * MS, .iclogs = iclogs_,		\
		      .log_bytes = bytes_, .wbytes = MIB,					\
		      .dev = { .span_ns = 900 * MS, .busy_ns = 100 * MS,		\
			       .max_service_ns = 30 * MS } }
#define JBD2_COMMIT(phase_) COMMIT(phase_, 0, 48 * 4096)
#define COMMIT_SPAN "the device was busy 100 ms of 900 ms, each request in <= 30.0 ms"

/* The device's rate against a cgroup's limit of bytes, and its words. */
#define LIMIT_ROW(name_, rate_, limit_, words_)						\
	{ "limit in bytes, " name_, { .site = "jbd2_log_wait_commit",			\
				       .reason = { .cause = WS_CAUSE_LIMIT,		\
						   .limit = { .rate = (rate_), .limit = (limit_) } } }, \
	  "waited in jbd2_log_wait_commit; the device wrote " words_ " the cgroup's limit of 100.0 MiB/s" }

static const struct words_row {
	const char *name;
	struct ws_stall st;
	const char *words;
} rows[] = {
	{ "not traced", { .site = "folio_wait_bit" }, "" },
	{ "dirty", { .site = "balance_dirty_pages",
		     .reason = { .cause = WS_CAUSE_DIRTY, .dirty = { 500 * MS } } },
	  "fsync was paused 500 ms by the dirty limit (balance_dirty_pages)" },
	{ "limit in bytes", { .site = "jbd2_log_wait_commit",
			      .reason = { .cause = WS_CAUSE_LIMIT,
					  .limit = { .rate = 90.0 * MIB, .limit = 100 * MIB } } },
	  "waited in jbd2_log_wait_commit; the device wrote 90.0 MiB/s, at the cgroup's limit of 100.0 MiB/s" },
	{ "limit in requests, half as much again", { .reason = { .cause = WS_CAUSE_LIMIT,
					     .limit = { .rate = 149.96, .limit = 100,
							.requests = true } } },
	  "waited in the kernel; the device took 150.0 requests/s, above the cgroup's limit of 100/s" },
	/* "at" the limit within 10% of it, both edges inclusive */
	LIMIT_ROW("10% under exactly", 90.0 * MIB, 100 * MIB, "90.0 MiB/s, at"),
	LIMIT_ROW("just over 10% under", 89.9 * MIB, 100 * MIB, "89.9 MiB/s, below"),
	LIMIT_ROW("just under 10% under", 90.1 * MIB, 100 * MIB, "90.1 MiB/s, at"),
	LIMIT_ROW("10% over exactly", 110.0 * MIB, 100 * MIB, "110.0 MiB/s, at"),
	LIMIT_ROW("just under 10% over", 109.9 * MIB, 100 * MIB, "109.9 MiB/s, at"),
	LIMIT_ROW("just over 10% over", 110.1 * MIB, 100 * MIB, "110.1 MiB/s, above"),
	/* issue 40: 25.4 MiB/s on a limit of 20.0 was said to be at it */
	{ "27% over the limit", { .site = "folio_wait_bit",
				  .reason = { .cause = WS_CAUSE_LIMIT,
					      .limit = { .rate = 25.4 * MIB, .limit = 20 * MIB } } },
	  "waited in folio_wait_bit; the device wrote 25.4 MiB/s, above the cgroup's limit of 20.0 MiB/s" },
	{ "requests, 10% over exactly", { .reason = { .cause = WS_CAUSE_LIMIT,
						      .limit = { .rate = 110, .limit = 100,
								 .requests = true } } },
	  "waited in the kernel; the device took 110.0 requests/s, at the cgroup's limit of 100/s" },
	{ "requests, just over 10% over", { .reason = { .cause = WS_CAUSE_LIMIT,
							.limit = { .rate = 110.1, .limit = 100,
								   .requests = true } } },
	  "waited in the kernel; the device took 110.1 requests/s, above the cgroup's limit of 100/s" },
	{ "requests, 10% under exactly", { .reason = { .cause = WS_CAUSE_LIMIT,
						       .limit = { .rate = 90, .limit = 100,
								  .requests = true } } },
	  "waited in the kernel; the device took 90.0 requests/s, at the cgroup's limit of 100/s" },
	{ "requests, just over 10% under", { .reason = { .cause = WS_CAUSE_LIMIT,
							 .limit = { .rate = 89.9, .limit = 100,
								    .requests = true } } },
	  "waited in the kernel; the device took 89.9 requests/s, below the cgroup's limit of 100/s" },
	{ "wbt, not traced", { .site = "rq_qos_wait",
			       .reason = { .cause = WS_CAUSE_WBT, .wbt = { .lat_us = 2000 } } },
	  WBT_HELD ", its limits not traced (no wbt_step events)" },
	{ "wbt, never changed", { .site = "rq_qos_wait",
				  .reason = { .cause = WS_CAUSE_WBT,
					      .wbt = { .lat_us = 2000, .traced = true } } },
	  WBT_HELD ", at limits it never changed in the trace" },
	{ "wbt at step 0", { .site = "rq_qos_wait",
			     .reason = { .cause = WS_CAUSE_WBT,
					 .wbt = { .lat_us = 2000, .traced = true, .known = true,
						  .normal = 4, .bg = 2, .changes = 1 } } },
	  WBT_HELD ALLOWED "0" CHANGED },
	{ "wbt cut to step 1", { .site = "rq_qos_wait",
				 .reason = { .cause = WS_CAUSE_WBT,
					     .wbt = { .lat_us = 2000, .known = true, .step = 1,
						      .normal = 4, .bg = 2, .changes = 1 } } },
	  WBT_HELD ALLOWED "1: cut down after reads missed the target" CHANGED },
	{ "wbt, bios waited", { .site = "rq_qos_wait",
				.reason = { .cause = WS_CAUSE_WBT,
					    .wbt = { .lat_us = 2000, .known = true, .step = -1,
						     .normal = 4, .bg = 2, .changes = 1,
						     .bios_waited = true,
						     .max_bio_wait_ns = 300 * MS } } },
	  WBT_HELD ALLOWED "-1" CHANGED "; bios waited up to 300 ms for a request meanwhile" },
	{ "wbt, bios waited 0 s", { .site = "rq_qos_wait",
				    .reason = { .cause = WS_CAUSE_WBT,
						.wbt = { .lat_us = 2000, .bios_waited = true } } },
	  WBT_HELD ", its limits not traced (no wbt_step events); bios waited up to 0 s for a request meanwhile" },
	{ "nothing held it, no site", { .duration_ns = 620 * MS,
					.reason = { .cause = WS_CAUSE_UNKNOWN,
						    .span = { .dev = QUIET_SPAN } } },
	  "waited in the kernel; " QUIET_WORDS },
	{ "a queue, at once", { .site = "btrfs_sync_log",
				.reason = { .cause = WS_CAUSE_QUEUE,
					    .span = { .finding = WS_SPAN_DEPTH,
						      .dev = { .span_ns = 740 * MS, .busy_ns = 1924 * MS,
							       .max_service_ns = 300 * MS } } } },
	  "waited in btrfs_sync_log; the device held 2.6 requests at once on average, each answered in <= 300 ms" },
	{ "a queue, two at once", { .site = "folio_wait_bit",
				    .reason = { .cause = WS_CAUSE_QUEUE,
						.span = { .finding = WS_SPAN_DEPTH,
							  .dev = { .span_ns = SEC, .busy_ns = 2 * SEC } } } },
	  "waited in folio_wait_bit; the device held 2.0 requests at once on average, each answered in <= 0 s" },
	{ "a queue, to issue", { .site = "folio_wait_bit",
				 .reason = { .cause = WS_CAUSE_QUEUE,
					     .span = { .finding = WS_SPAN_ISSUE_WAIT,
						       .dev = { .span_ns = SEC, .max_queue_ns = 500 * MS } } } },
	  "waited in folio_wait_bit; a request waited 500 ms to be issued" },
	{ "the device", { .site = "folio_wait_writeback",
			  .reason = { .cause = WS_CAUSE_DEVICE,
				      .span = { .finding = WS_SPAN_BUSY,
						.dev = { .span_ns = 2100 * MS, .busy_ns = 1200 * MS,
							 .max_service_ns = 1200 * MS } } } },
	  "waited in folio_wait_writeback; the device was busy 1.20 s of 2.10 s with 0.6 requests at once, the longest 1.20 s" },
	{ "the device, no span", { .site = "folio_wait_bit",
				   .reason = { .cause = WS_CAUSE_DEVICE,
					       .span = { .finding = WS_SPAN_BUSY } } },
	  "waited in folio_wait_bit; the device was busy 0 s of 0 s with 0.0 requests at once, the longest 0 s" },
	{ "a commit named", { .site = "jbd2_log_wait_commit", .duration_ns = SEC,
			      .reason = { .cause = WS_CAUSE_UNKNOWN,
					  .span = { .named = true, .tid = 412, .commit_ns = 900 * MS,
						    .own_ns = 300 * MS, .dev = QUIET_SPAN } } },
	  "waited in jbd2_log_wait_commit; " QUIET_WORDS "; commit 412 ran 900 ms, 30.0% of the stall" },
	{ "a log write named", { .site = "xlog_wait_on_iclog", .duration_ns = 3 * SEC,
				 .reason = { .cause = WS_CAUSE_UNKNOWN,
					     .span = { .named = true, .tid = 9, .iclogs = 1,
						       .commit_ns = 900 * MS, .own_ns = 100 * MS,
						       .dev = QUIET_SPAN } } },
	  "waited in xlog_wait_on_iclog; " QUIET_WORDS "; log write 9 ran 900 ms, 3.3% of the stall" },
	{ "a commit named, no duration", { .site = "jbd2_log_wait_commit",
					   .reason = { .cause = WS_CAUSE_UNKNOWN,
						       .span = { .named = true, .tid = 412,
								 .commit_ns = 900 * MS,
								 .own_ns = 300 * MS,
								 .dev = QUIET_SPAN } } },
	  "waited in jbd2_log_wait_commit; " QUIET_WORDS "; commit 412 ran 900 ms, 0.0% of the stall" },
	{ "the commit", { .site = "jbd2_log_wait_commit",
			  .reason = { .cause = WS_CAUSE_JOURNAL, .span = JBD2_COMMIT(WS_PHASE_LOGGING) } },
	  "waited in jbd2_log_wait_commit: commit 412 ran 900 ms (890 ms logging); the device wrote 1.00 MiB meanwhile (192 KiB the journal's); " COMMIT_SPAN },
	{ "the commit, locked", { .site = "jbd2_log_wait_commit",
				  .reason = { .cause = WS_CAUSE_JOURNAL,
					      .span = JBD2_COMMIT(WS_PHASE_LOCKED) } },
	  "waited in jbd2_log_wait_commit: commit 412 ran 900 ms (890 ms locked); the device wrote 1.00 MiB meanwhile (192 KiB the journal's); " COMMIT_SPAN },
	{ "the commit, flushing", { .site = "jbd2_log_wait_commit",
				    .reason = { .cause = WS_CAUSE_JOURNAL,
						.span = JBD2_COMMIT(WS_PHASE_FLUSHING) } },
	  "waited in jbd2_log_wait_commit: commit 412 ran 900 ms (890 ms flushing); the device wrote 1.00 MiB meanwhile (192 KiB the journal's); " COMMIT_SPAN },
	{ "the commit's queue", { .site = "jbd2_log_wait_commit",
				  .reason = { .cause = WS_CAUSE_QUEUE,
					      .span = { .on_commit = true, .tid = 412,
							.commit_ns = 900 * MS,
							.phase = WS_PHASE_LOGGING,
							.phase_ns = 890 * MS,
							.log_bytes = 48 * 4096, .wbytes = MIB,
							.finding = WS_SPAN_ISSUE_WAIT,
							.dev = { .span_ns = 900 * MS,
								 .max_queue_ns = 450 * MS } } } },
	  "waited in jbd2_log_wait_commit: commit 412 ran 900 ms (890 ms logging); the device wrote 1.00 MiB meanwhile (192 KiB the journal's); a request waited 450 ms to be issued" },
	{ "a log write of one iclog", { .site = "xlog_wait_on_iclog",
					.reason = { .cause = WS_CAUSE_JOURNAL,
						    .span = COMMIT(WS_PHASE_LOGGING, 1, 262144) } },
	  "waited in xlog_wait_on_iclog: log write 412 ran 900 ms (1 iclog, 256 KiB); the device wrote 1.00 MiB meanwhile; " COMMIT_SPAN },
	{ "a log write of two", { .site = "xlog_wait_on_iclog",
				  .reason = { .cause = WS_CAUSE_JOURNAL,
					      .span = COMMIT(WS_PHASE_LOGGING, 2, 524288) } },
	  "waited in xlog_wait_on_iclog: log write 412 ran 900 ms (2 iclogs, 512 KiB); the device wrote 1.00 MiB meanwhile; " COMMIT_SPAN },
	{ "evidence overwritten", { .duration_ns = 620 * MS,
				    .reason = { .cause = WS_CAUSE_UNKNOWN, .overwritten = true,
						.span = { .dev = QUIET_SPAN } } },
	  "waited in the kernel; " QUIET_WORDS " (the run's first commits, pauses or wbt changes are no longer kept: judged without them)" },
	{ "events lost", { .site = "balance_dirty_pages",
			   .reason = { .cause = WS_CAUSE_DIRTY, .lost_events = 30,
				       .dirty = { 200 * MS } } },
	  "fsync was paused 200 ms by the dirty limit (balance_dirty_pages) (the trace lost 30 events meanwhile: judged on part of the evidence)" },
	{ "every remark, in order", { .site = "rq_qos_wait",
				      .reason = { .cause = WS_CAUSE_WBT, .overwritten = true,
						  .lost_events = 1, .before_trace = true,
						  .wbt = { .lat_us = 100, .traced = true } } },
	  "waited in rq_qos_wait: writeback throttling (wbt, latency target 100 µs) held its write back, at limits it never changed in the trace"
	  " (the run's first commits, pauses or wbt changes are no longer kept: judged without them)"
	  " (the trace lost 1 events meanwhile: judged on part of the evidence)"
	  " (it began before the trace started: judged on part of the evidence)" },
};

START_TEST(test_words)
{
	const struct words_row *row = &rows[_i];
	char why[WS_STALL_WORDS_LEN];

	memset(why, 'x', sizeof(why));
	ck_assert_ptr_eq(ws_stall_words(&row->st, "fsync", why, sizeof(why)), why);
	ck_assert_msg(!strcmp(why, row->words), "%s:\n  said     '%s'\n  expected '%s'",
		      row->name, why, row->words);
}
END_TEST

/* The probe's own name where its thread was paused. */
START_TEST(test_probe_named)
{
	struct ws_stall st = { .reason = { .cause = WS_CAUSE_DIRTY, .dirty = { 2 * SEC } } };
	char why[WS_STALL_WORDS_LEN];

	ck_assert_str_eq(ws_stall_words(&st, "save@2", why, sizeof(why)),
			 "save@2 was paused 2.00 s by the dirty limit (balance_dirty_pages)");
}
END_TEST

/* The room cuts the sentence, remarks and all, and it stays a string;
 * the longest sentence fills the record's room and stops there. */
START_TEST(test_cut_to_the_room)
{
	struct ws_stall st = {
		.site = "a_wait_site_whose_name_runs_to_forty_seven_chrs",
		.reason = { .cause = WS_CAUSE_WBT, .overwritten = true, .before_trace = true,
			    .lost_events = UINT64_MAX,
			    .wbt = { .lat_us = UINT32_MAX, .known = true, .step = INT32_MIN,
				     .normal = UINT32_MAX, .bg = UINT32_MAX,
				     .changes = UINT32_MAX, .bios_waited = true,
				     .max_bio_wait_ns = UINT64_MAX } },
	};
	char why[WS_STALL_WORDS_LEN], small[16];

	ws_stall_words(&st, "fsync", why, sizeof(why));
	ck_assert_uint_eq(strlen(why), sizeof(why) - 1);
	ws_stall_words(&st, "fsync", small, sizeof(small));
	ck_assert_str_eq(small, "waited in a_wai");
	ck_assert_str_eq(ws_stall_words(&st, "fsync", small, 1), "");
}
END_TEST

START_TEST(test_cause_names)
{
	ck_assert_str_eq(ws_stall_cause_name(WS_CAUSE_QUEUE), "queue behind other writes");
	ck_assert_str_eq(ws_stall_cause_name(WS_CAUSE_LIMIT), "cgroup I/O limit");
	ck_assert_str_eq(ws_stall_cause_name(WS_CAUSE_NOT_TRACED), "");
	ck_assert_str_eq(ws_stall_cause_name(WS_CAUSE_NR), "?");
	for (int c = WS_CAUSE_DEVICE; c < WS_CAUSE_NR; c++)
		ck_assert_int_gt(strlen(ws_stall_cause_name((enum ws_stall_cause)c)), 0);
}
END_TEST

Suite *stall_words_suite(void)
{
	Suite *s = suite_create("stall_words");
	TCase *tc = tcase_create("words");

	tcase_add_loop_test(tc, test_words, 0, (int)ARRAY_SIZE(rows));
	tcase_add_test(tc, test_probe_named);
	tcase_add_test(tc, test_cut_to_the_room);
	tcase_add_test(tc, test_cause_names);
	suite_add_tcase(s, tc);
	return s;
}
