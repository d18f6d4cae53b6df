/* datagen.c - buffer contents (see datagen.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "caps.h"
#include "datagen.h"
#include "thread.h"

#define LANES 4
#define BLOCK 4096

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void datagen_init(struct datagen *g, enum ws_data mode, unsigned int pct,
		  uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	g->mode = mode;
	g->compress_pct = pct;
	for (int w = 0; w < 4; w++)
		for (int l = 0; l < LANES; l++)
			g->s[w][l] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256+ in four independent lanes laid out as structure of arrays,
 * so the compiler keeps them in vector registers: the refill runs at about
 * memory speed and is never what limits the writer. */
static void fill_random(struct datagen *g, uint64_t *out, size_t words)
{
	uint64_t s0[LANES], s1[LANES], s2[LANES], s3[LANES];
	size_t i;

	memcpy(s0, g->s[0], sizeof(s0));
	memcpy(s1, g->s[1], sizeof(s1));
	memcpy(s2, g->s[2], sizeof(s2));
	memcpy(s3, g->s[3], sizeof(s3));
	for (i = 0; i + LANES <= words; i += LANES) {
		for (int l = 0; l < LANES; l++) {
			uint64_t t = s1[l] << 17;

			out[i + l] = s0[l] + s3[l];
			s2[l] ^= s0[l];
			s3[l] ^= s1[l];
			s1[l] ^= s2[l];
			s0[l] ^= s3[l];
			s2[l] ^= t;
			s3[l] = rotl(s3[l], 45);
		}
	}
	for (int l = 0; i < words; i++, l++)
		out[i] = s0[l] + s3[l];	/* tail: < LANES words */
	memcpy(g->s[0], s0, sizeof(s0));
	memcpy(g->s[1], s1, sizeof(s1));
	memcpy(g->s[2], s2, sizeof(s2));
	memcpy(g->s[3], s3, sizeof(s3));
}

/* Zero the first pct % of each 4 KiB block: compressors see long runs. */
static void zero_part(void *buf, size_t len, unsigned int pct)
{
	size_t zero = (size_t)BLOCK * pct / 100;

	for (size_t off = 0; off < len; off += BLOCK) {
		size_t n = len - off < zero ? len - off : zero;

		memset((char *)buf + off, 0, n);
	}
}

void datagen_fill(struct datagen *g, void *buf, size_t len)
{
	switch (g->mode) {
	case WS_DATA_RANDOM:
		fill_random(g, buf, len / 8);
		break;
	case WS_DATA_COMPRESSIBLE:
		fill_random(g, buf, len / 8);
		zero_part(buf, len, g->compress_pct);
		break;
	case WS_DATA_FIXED:
		/* the buffer is only ever as large as the first fill */
		if (!g->filled)
			fill_random(g, buf, len / 8);
		break;
	case WS_DATA_ZERO:
		if (!g->filled)
			memset(buf, 0, len);
		break;
	case WS_DATA_NR:
		abort();
	}
	g->filled = 1;
}

static void *filler_main(void *arg)
{
	struct datagen_feed *f = arg;
	unsigned int i = 0;

	pthread_mutex_lock(&f->lock);
	for (;;) {
		while (!f->stop && f->full[i])
			pthread_cond_wait(&f->changed, &f->lock);
		if (f->stop)
			break;
		/* the writer never touches an empty buffer: fill unlocked */
		pthread_mutex_unlock(&f->lock);
		datagen_fill(&f->gen, f->buf[i], f->len);
		pthread_mutex_lock(&f->lock);
		f->full[i] = true;
		pthread_cond_broadcast(&f->changed);
		i ^= 1;
	}
	pthread_mutex_unlock(&f->lock);
	return NULL;
}

int datagen_feed_start(struct datagen_feed *f, enum ws_data mode,
		       unsigned int pct, uint64_t seed, size_t len)
{
	int nbuf, ret = 0;

	memset(f, 0, sizeof(*f));
	datagen_init(&f->gen, mode, pct, seed);
	f->len = len;
	f->refill = mode == WS_DATA_RANDOM || mode == WS_DATA_COMPRESSIBLE;
	nbuf = f->refill ? 2 : 1;
	for (int i = 0; i < nbuf && !ret; i++) {
		ret = posix_memalign(&f->buf[i], 4096, len);
		if (ret)
			f->buf[i] = NULL;
		else	/* touch every page now, so no fault is timed */
			memset(f->buf[i], 0, len);
	}
	if (ret)
		goto out_free;
	if (!f->refill) {
		datagen_fill(&f->gen, f->buf[0], len);
		return 0;
	}
	ret = pthread_mutex_init(&f->lock, NULL);
	if (ret)
		goto out_free;
	ret = pthread_cond_init(&f->changed, NULL);
	if (ret)
		goto out_mutex;
	ret = ws_thread_start(&f->filler, &(struct ws_thread_spec){ .name = "ws-fill" },
			      filler_main, f);
	if (ret) {
		ret = -ret;	/* positive like pthread's, until the end */
		goto out_cond;
	}
	return 0;

out_cond:
	pthread_cond_destroy(&f->changed);
out_mutex:
	pthread_mutex_destroy(&f->lock);
out_free:
	free(f->buf[0]);
	free(f->buf[1]);
	f->buf[0] = f->buf[1] = NULL;
	return -ret;
}

void *datagen_feed_get(struct datagen_feed *f)
{
	if (!f->refill)
		return f->buf[0];
	pthread_mutex_lock(&f->lock);
	while (!f->full[f->next])
		pthread_cond_wait(&f->changed, &f->lock);
	pthread_mutex_unlock(&f->lock);
	return f->buf[f->next];
}

void datagen_feed_put(struct datagen_feed *f)
{
	if (!f->refill)
		return;
	pthread_mutex_lock(&f->lock);
	f->full[f->next] = false;
	pthread_cond_broadcast(&f->changed);
	pthread_mutex_unlock(&f->lock);
	f->next ^= 1;
}

void datagen_feed_stop(struct datagen_feed *f)
{
	if (f->refill && f->buf[0]) {
		pthread_mutex_lock(&f->lock);
		f->stop = true;
		pthread_cond_broadcast(&f->changed);
		pthread_mutex_unlock(&f->lock);
		pthread_join(f->filler, NULL);
		pthread_cond_destroy(&f->changed);
		pthread_mutex_destroy(&f->lock);
	}
	free(f->buf[0]);
	free(f->buf[1]);
	f->buf[0] = f->buf[1] = NULL;
}

static const char *const data_names[WS_DATA_NR] = {
	[WS_DATA_RANDOM] = "random",
	[WS_DATA_FIXED] = "fixed",
	[WS_DATA_ZERO] = "zero",
	[WS_DATA_COMPRESSIBLE] = "compressible",
};

const char *datagen_name(enum ws_data mode)
{
	return mode < WS_DATA_NR ? data_names[mode] : "?";
}

int datagen_parse(const char *s, enum ws_data *mode, unsigned int *pct)
{
	static const char prefix[] = "compressible=";
	const char *p;
	unsigned long v = 0;

	for (int m = 0; m < WS_DATA_NR; m++) {
		if (m != WS_DATA_COMPRESSIBLE && !strcmp(s, data_names[m])) {
			*mode = (enum ws_data)m;
			*pct = 0;
			return 0;
		}
	}
	if (strncmp(s, prefix, sizeof(prefix) - 1))
		return -EINVAL;
	p = s + sizeof(prefix) - 1;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned long)(*p - '0');
		if (v > 100)
			return -EINVAL;
	}
	if (*p)
		return -EINVAL;
	*mode = WS_DATA_COMPRESSIBLE;
	*pct = (unsigned int)v;
	return 0;
}
