/* readback.c - reading a file back by its block stamps. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/readback.h"
#include "lib/array.h"

#define CHUNK (1024 * 1024)

static void note_bad(struct ws_verify *v, uint64_t offset,
		     enum ws_block_state state, bool stale, uint64_t found)
{
	if (v->nlisted < WS_VERIFY_LISTED)
		v->listed[v->nlisted++] = (struct ws_verify_bad){
			.offset = offset, .state = state, .stale = stale,
			.found = found };
}

/* Runs of one pass (UINT32_MAX: none to judge): a healthy file has one or
 * two, so memory follows the damage, not the file's size. */
struct pass_run {
	uint64_t first, n;
	uint32_t pass;
};

struct pass_runs {
	struct pass_run *r;
	size_t n, cap;
};

static int add_block(struct pass_runs *pr, uint64_t b, uint32_t pass)
{
	if (pr->n && pr->r[pr->n - 1].pass == pass) {
		pr->r[pr->n - 1].n++;
		return 0;
	}
	if (array_grow((void **)&pr->r, pr->n, &pr->cap, sizeof(*pr->r)))
		return -ENOMEM;
	pr->r[pr->n++] = (struct pass_run){ .first = b, .n = 1, .pass = pass };
	return 0;
}

/* Before the newest pass's end a block of an older pass is a lost write. */
static void judge_passes(const struct pass_runs *pr, struct ws_verify *v)
{
	for (size_t i = 0; i < pr->n; i++) {
		const struct pass_run *r = &pr->r[i];

		if (r->first * WS_BLOCK >= v->last_pass_end)
			break;
		if (r->pass == UINT32_MAX || r->pass == v->last_pass)
			continue;
		v->stale += r->n;
		v->count[WS_BLOCK_OK] -= r->n;
		for (uint64_t k = 0; k < r->n && v->nlisted < WS_VERIFY_LISTED; k++)
			note_bad(v, (r->first + k) * WS_BLOCK, WS_BLOCK_OK, true, 0);
	}
}

/* Blocks after the run's last, all of one other run: an earlier run's
 * tail, not failures. */
static void set_aside_tail(struct ws_verify *v, uint64_t tail, bool pure)
{
	unsigned int k = 0;

	if (!pure || !tail || !v->run_end)
		return;
	v->older_tail = tail;
	v->count[WS_BLOCK_OTHER_RUN] -= tail;
	for (unsigned int i = 0; i < v->nlisted; i++)
		if (v->listed[i].offset < v->run_end)
			v->listed[k++] = v->listed[i];
	v->nlisted = k;
}

int readback_fd(int fd, uint64_t size, uint64_t run, struct ws_verify *v)
{
	uint64_t nblocks = size / WS_BLOCK, b = 0, tail = 0;
	struct pass_runs pr = { 0 };
	bool pure_tail = true;
	char *buf = NULL;
	int ret = 0;

	memset(v, 0, sizeof(*v));
	v->run = run;
	/* read what is on the disk, not what the page cache kept */
	fdatasync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (posix_memalign((void **)&buf, 4096, CHUNK)) {
		buf = NULL;
		ret = -ENOMEM;
		goto out;
	}
	while (b < nblocks) {
		size_t want = (nblocks - b) * WS_BLOCK < CHUNK ?
			      (size_t)((nblocks - b) * WS_BLOCK) : CHUNK;
		ssize_t n = pread(fd, buf, want, (off_t)(b * WS_BLOCK));

		if (n < 0) {
			ret = -errno;
			goto out;
		}
		if (n < WS_BLOCK)
			break;	/* the file shrank while read */
		for (size_t i = 0; i + WS_BLOCK <= (size_t)n; i += WS_BLOCK, b++) {
			struct ws_block_stamp st;
			enum ws_block_state s;

			s = ws_block_check(buf + i, b * WS_BLOCK, v->run, &st);
			if (s == WS_BLOCK_OK && !v->run)
				v->run = st.run;
			v->count[s]++;
			v->blocks++;
			if (s == WS_BLOCK_OK) {
				v->run_end = (b + 1) * WS_BLOCK;
				tail = 0;
				pure_tail = true;
			} else if (s == WS_BLOCK_OTHER_RUN &&
				   (!tail || st.run == v->older_run)) {
				v->older_run = st.run;
				tail++;
			} else {
				pure_tail = false;
			}
			if (s != WS_BLOCK_OK)
				note_bad(v, b * WS_BLOCK, s, false, st.offset);
			else if (st.pass >= v->last_pass) {
				v->last_pass = st.pass;
				v->last_pass_end = (b + 1) * WS_BLOCK;
			}
			ret = add_block(&pr, b, s == WS_BLOCK_OK ? st.pass : UINT32_MAX);
			if (ret)
				goto out;
		}
	}
	judge_passes(&pr, v);
	set_aside_tail(v, tail, pure_tail);
	if (!v->older_tail)
		v->older_run = 0;
out:
	v->err = -ret;
	/* nothing to check is no pass */
	v->clean = !ret && v->count[WS_BLOCK_OK] &&
		   v->count[WS_BLOCK_OK] + v->older_tail == v->blocks;
	free(pr.r);
	free(buf);
	return ret;
}

int readback_clean(const struct ws_verify *v)
{
	return v->clean;
}
