/* trace_fixture.c - recorded runs read back (see trace_fixture.h). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/array.h"
#include "record_fixture.h"
#include "trace_fixture.h"

/* A header line the tracer or record.sh wrote; false when not one. */
static int header(const char *line, struct recorded *r)
{
	struct recorded_stall *s = &r->stalls[r->nstalls];
	unsigned long long a, b;

	if (sscanf(line, "# device_counted (%*[^)]): writes %lu bytes %lu time_ms %lu flushes %lu flush_ms %lu",
		   &r->writes, &r->bytes, &r->time_ms, &r->flushes, &r->flush_ms) >= 4) {
		/* flush_ms only in recordings since the flushes were timed */
		r->flush_timed = strstr(line, " flush_ms ") != NULL;
		/* merges in recordings since the bios were traced */
		r->have_merges = strstr(line, " merges ") &&
				 sscanf(strstr(line, " merges "), " merges %lu", &r->merges) == 1;
		return 1;
	}
	if (sscanf(line, "# jbd2_counted (%*[^)]): transactions %lu logging_ms %lu",
		   &r->transactions, &r->logging_ms) == 2)
		return 1;
	if (sscanf(line, "# xfs_counted (%*[^)]): log writes %lu blocks %lu",
		   &r->xfs_log_writes, &r->xfs_log_blocks) == 2)
		return 1;
	if (sscanf(line, "# lost %llu %llu", &a, &b) == 2) {
		ck_assert_uint_lt(r->nlost, sizeof(r->lost) / sizeof(r->lost[0]));
		r->lost[r->nlost].ts_ns = a;
		r->lost[r->nlost++].total = b;
		return 1;
	}
	if (sscanf(line, "# origin %llu", &a) == 1) {
		r->origin_ns = a;
		return 1;
	}
	if (sscanf(line, "# io_limit_bps %llu iops %llu", &a, &b) == 2) {
		r->limit_bps = a;
		r->limit_iops = b;
		return 1;
	}
	if (sscanf(line, "# wbt_lat_us %llu", &a) == 1) {
		r->wbt_lat_us = (uint32_t)a;
		return 1;
	}
	if (r->nstalls < sizeof(r->stalls) / sizeof(r->stalls[0]) &&
	    sscanf(line, "# stall %llu %llu %d %63s -> %47[^\n]", &a, &b, &s->tid,
		   s->site, s->cause) == 5) {
		s->start_ns = a;
		s->duration_ns = b;
		if (!strcmp(s->site, "-"))
			s->site[0] = '\0';
		r->nstalls++;
		return 1;
	}
	return 0;
}

void recorded_load(const char *name, struct recorded *r)
{
	char path[4096], line[512];
	size_t cap = 0;
	FILE *f;

	snprintf(line, sizeof(line), "tests/fixtures/trace/%s", name);
	source_path(path, sizeof(path), line);
	f = fopen(path, "r");
	ck_assert_msg(f, "cannot read %s", path);
	memset(r, 0, sizeof(*r));
	while (fgets(line, sizeof(line), f)) {
		struct trace_event e;
		int got;

		if (header(line, r))
			continue;
		got = trace_event_parse(line, &e);
		ck_assert_msg(got >= 0, "%s: not an event: %s", name, line);
		if (!got)
			continue;
		ck_assert_int_eq(array_grow((void **)&r->ev, r->n, &cap, sizeof(*r->ev)), 0);
		r->ev[r->n++] = e;
	}
	fclose(f);
	ck_assert_uint_gt(r->writes, 0);
}

void recorded_free(struct recorded *r)
{
	free(r->ev);
	r->ev = NULL;
}

enum ws_stall_cause explain_stall(const struct evidence *ev, const struct stall_query *q,
				  struct explained *x)
{
	memset(x, 0, sizeof(*x));
	x->st.duration_ns = q->duration_ns;
	snprintf(x->st.site, sizeof(x->st.site), "%s", q->site ? q->site : "");
	evidence_explain(ev, q, &x->st.reason);
	explained_words(x);
	return x->st.reason.cause;
}

const char *explained_words(struct explained *x)
{
	return ws_stall_words(&x->st, "fsync", x->why, sizeof(x->why));
}
