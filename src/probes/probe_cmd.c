/* probe_cmd.c - the cmd probe: a user's own command, timed.
 *
 * A launcher forked at setup, while writestress is one privileged thread,
 * drops once to --probe-user (nobody when root) and runs sh -c CMD when
 * the probe thread asks: the probe threads keep no capabilities, and a
 * command never runs as root by default.  Being forked, it runs only
 * async-signal-safe calls and posix_spawn.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/c.h"
#include "probes/probe.h"
#include "probe_kinds.h"
#include "system/signals.h"

#define MAX_GROUPS 64
#define CMD_STOP_POLL_MS 50	/* how soon a stop signal reaches a command */

struct cmd_result {
	int status;
	int err;
	char last_stderr[WS_STDERR_LINE];
};

int probe_cmd_drain(int fd, struct cmd_stderr *t)
{
	char buf[512];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		size_t k = (size_t)n, keep = sizeof(t->tail) - k;

		if (k >= sizeof(t->tail)) {
			memcpy(t->tail, buf + k - sizeof(t->tail), sizeof(t->tail));
			t->len = sizeof(t->tail);
			continue;
		}
		if (t->len > keep) {
			memmove(t->tail, t->tail + t->len - keep, keep);
			t->len = keep;
		}
		memcpy(t->tail + t->len, buf, k);
		t->len += k;
	}
	return n == 0 ? 0 : 1;
}

void probe_cmd_last_line(const struct cmd_stderr *t, char *out, size_t len)
{
	size_t end = t->len, start, n;

	while (end && (unsigned char)t->tail[end - 1] <= ' ')
		end--;
	for (start = end; start && t->tail[start - 1] != '\n'; start--)
		;
	n = end - start < len - 1 ? end - start : len - 1;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)t->tail[start + i];

		out[i] = c < ' ' || c == 0x7f ? '?' : (char)c;
	}
	out[n] = '\0';
}

static int64_t monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Resolved in the parent: getpwnam is not async-signal-safe. */
struct cmd_user {
	bool change;
	uid_t uid;
	gid_t gid;
	gid_t groups[MAX_GROUPS];
	int ngroups;
};

static int resolve_user(struct probe *p, struct cmd_user *u)
{
	struct cmd_probe *c = p->priv;
	const char *name = p->cfg->probe_user;
	struct passwd *pw;

	memset(u, 0, sizeof(*u));
	if (geteuid() != 0)
		return 0;
	if (!name)
		name = "nobody";
	pw = getpwnam(name);
	if (!pw) {
		snprintf(p->err, sizeof(p->err),
			 "%s probe: no user '%.64s' to run its command as", probe_name(p), name);
		return -ENOENT;
	}
	u->change = true;
	u->uid = pw->pw_uid;
	u->gid = pw->pw_gid;
	u->ngroups = MAX_GROUPS;
	if (getgrouplist(pw->pw_name, pw->pw_gid, u->groups, &u->ngroups) < 0) {
		/* in more than MAX_GROUPS: its primary group alone */
		u->ngroups = 1;
		u->groups[0] = pw->pw_gid;
	}
	snprintf(c->user, sizeof(c->user), "%s", pw->pw_name);
	snprintf(c->env_home, sizeof(c->env_home), "HOME=%s", pw->pw_dir);
	snprintf(c->env_user, sizeof(c->env_user), "USER=%s", pw->pw_name);
	snprintf(c->env_logname, sizeof(c->env_logname), "LOGNAME=%s", pw->pw_name);
	return 0;
}

static char **command_env(struct probe *p, const struct cmd_user *u)
{
	struct cmd_probe *c = p->priv;
	extern char **environ;
	size_t n = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 4, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!u->change || (strncmp(environ[i], "HOME=", 5) &&
				   strncmp(environ[i], "USER=", 5) &&
				   strncmp(environ[i], "LOGNAME=", 8)))
			env[k++] = environ[i];
	if (u->change) {
		env[k++] = c->env_home;
		env[k++] = c->env_user;
		env[k++] = c->env_logname;
	}
	env[k] = NULL;
	return env;
}

enum cmd_wait probe_cmd_wait_polling(pid_t pid, int timeout_ms, int sock,
				     int errfd, struct cmd_stderr *t, int *status)
{
	char c;

	for (int waited = 0;; waited++) {
		struct timespec ms = { 0, 1000000 };
		pid_t r = waitpid(pid, status, WNOHANG);

		if (errfd >= 0)
			probe_cmd_drain(errfd, t);
		if (r == pid)
			return CMD_DONE;
		if (r < 0 && errno != EINTR)
			return CMD_LOST;
		if (waited >= timeout_ms)
			return CMD_TIMED_OUT;
		if (recv(sock, &c, 1, MSG_DONTWAIT | MSG_PEEK) >= 0)
			return CMD_STOPPED;
		nanosleep(&ms, NULL);
	}
}

/* A stop is a byte, or the end, on sock. */
static enum cmd_wait wait_bounded(pid_t pid, int timeout_ms, int sock, int errfd,
				  struct cmd_stderr *t, int *status)
{
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	int64_t deadline = monotonic_ms() + timeout_ms;

	if (pfd < 0)
		return probe_cmd_wait_polling(pid, timeout_ms, sock, errfd, t, status);
	for (;;) {
		struct pollfd fds[3] = { { .fd = pfd, .events = POLLIN },
					 { .fd = sock, .events = POLLIN },
					 { .fd = errfd, .events = POLLIN } };
		int64_t left = deadline - monotonic_ms();
		int r = poll(fds, 3, left > 0 ? (int)left : 0);

		if (r < 0 && errno == EINTR)
			continue;
		/* a command that fills its stderr does not keep it alive */
		if (r == 0 || (left <= 0 && !(fds[0].revents & POLLIN))) {
			close(pfd);
			return CMD_TIMED_OUT;
		}
		/* a pipe every writer closed stays readable: stop asking */
		if (fds[2].revents && !probe_cmd_drain(errfd, t))
			errfd = -1;
		if (fds[0].revents & POLLIN)
			break;
		if (fds[1].revents) {
			close(pfd);
			return CMD_STOPPED;
		}
	}
	close(pfd);
	return waitpid(pid, status, 0) == pid ? CMD_DONE : CMD_LOST;
}

/* posix_spawn's vfork copies no memory: a start costs a shell's. */
static pid_t spawn_command(const char *line, char **env, int devnull, int errfd)
{
	char *argv[] = { "sh", "-c", (char *)line, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, dfl;
	pid_t pid = -1;
	int err;

	sigemptyset(&none);
	signals_stop_set(&dfl);
	if (posix_spawn_file_actions_init(&fa))
		return -1;
	if (posix_spawnattr_init(&at)) {
		posix_spawn_file_actions_destroy(&fa);
		return -1;
	}
	/* each returns an error number, not -1 */
	if (!(err = posix_spawn_file_actions_adddup2(&fa, devnull, 0)) &&
	    !(err = posix_spawn_file_actions_adddup2(&fa, devnull, 1)) &&
	    !(err = posix_spawn_file_actions_adddup2(&fa, errfd, 2)) &&
	    !(err = posix_spawnattr_setpgroup(&at, 0)) &&
	    !(err = posix_spawnattr_setsigmask(&at, &none)) &&
	    !(err = posix_spawnattr_setsigdefault(&at, &dfl)) &&
	    !(err = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP |
					      POSIX_SPAWN_SETSIGMASK |
					      POSIX_SPAWN_SETSIGDEF)))
		err = posix_spawn(&pid, "/bin/sh", &fa, &at, argv, env);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	if (err) {
		errno = err;
		return -1;
	}
	return pid;
}

static volatile sig_atomic_t running_pid;

/* writestress is gone: so is the command, not left alone in its group. */
static void on_parent_death(int sig)
{
	(void)sig;
	if (running_pid > 0)
		kill(-(pid_t)running_pid, SIGKILL);
	ws_exit_now(0);
}

/* Blocked as the launcher exits: the handler's exit inside this one
 * deadlocks in the coverage build (both dump counts under one lock). */
static void death_signal(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGUSR1);
}

static _Noreturn void launcher_exit(int status)
{
	sigset_t death;

	death_signal(&death);
	sigprocmask(SIG_BLOCK, &death, NULL);
	ws_exit_now(status);
}

static void launcher_loop(int sock, int devnull, const char *line,
			  char **env, int timeout_ms)
{
	sigset_t death, old;
	char c;

	death_signal(&death);
	while (recv(sock, &c, 1, 0) == 1) {
		struct cmd_result res = { .status = 0 };
		struct cmd_stderr tail = { .len = 0 };
		enum cmd_wait w = CMD_DONE;
		int err, errpipe[2] = { -1, -1 };
		pid_t pid;

		if (c != 'r')
			continue;	/* a stop that came as the command ended */
		/* what a command left running writes later is not the next's */
		if (pipe2(errpipe, O_CLOEXEC) == 0)
			fcntl(errpipe[0], F_SETFL, O_NONBLOCK);
		/* a death between the spawn and the store would leave the
		 * command running */
		sigprocmask(SIG_BLOCK, &death, &old);
		pid = spawn_command(line, env, devnull, errpipe[1] >= 0 ? errpipe[1] : devnull);
		err = errno;
		running_pid = pid;
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (errpipe[1] >= 0)
			close(errpipe[1]);
		if (pid < 0)
			res.err = err;
		else
			w = wait_bounded(pid, timeout_ms, sock, errpipe[0], &tail, &res.status);
		if (w == CMD_LOST) {
			res.err = ECHILD;
		} else if (w != CMD_DONE) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &res.status, 0);
			res.err = w == CMD_TIMED_OUT ? ETIMEDOUT : EINTR;
			if (w == CMD_STOPPED && recv(sock, &c, 1, 0) != 1)
				break;	/* writestress is gone */
		}
		running_pid = 0;
		if (errpipe[0] >= 0) {
			probe_cmd_drain(errpipe[0], &tail);
			close(errpipe[0]);
		}
		probe_cmd_last_line(&tail, res.last_stderr, sizeof(res.last_stderr));
		if (send(sock, &res, sizeof(res), MSG_NOSIGNAL) != sizeof(res))
			break;
	}
	launcher_exit(0);
}

static void launcher_main(struct probe *p, const struct cmd_user *u,
			  int sock, int devnull, char **env, pid_t parent)
{
	struct cmd_probe *c = p->priv;
	uint64_t t = p->cfg->set.cmds.timeout_ns / 1000000;
	int timeout_ms = t > INT32_MAX ? INT32_MAX : (int)t;
	int lo = sock < devnull ? sock : devnull, hi = sock ^ devnull ^ lo;
	struct cmd_result ready = { .status = 0 };

	/* an ignored SIGCHLD, if inherited, would leave no status to wait for */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
	signal(SIGUSR1, on_parent_death);
	if (fchdir(p->dirfd))
		(void)!chdir("/");
	if (u->change && (setgroups((size_t)u->ngroups, u->groups) ||
			  setgid(u->gid) || setuid(u->uid)))
		ready.err = errno;
	/* the credentials change clears it */
	prctl(PR_SET_PDEATHSIG, SIGUSR1);
	if (getppid() != parent)
		launcher_exit(0);
	if (lo > 3)
		close_range(3, (unsigned int)lo - 1, 0);
	if (hi > lo + 1)
		close_range((unsigned int)lo + 1, (unsigned int)hi - 1, 0);
	close_range((unsigned int)hi + 1, ~0u, 0);
	if (send(sock, &ready, sizeof(ready), MSG_NOSIGNAL) != sizeof(ready) ||
	    ready.err)
		launcher_exit(126);
	launcher_loop(sock, devnull, c->cmd->line, env, timeout_ms);
}

int probe_cmd_setup(struct probe *p)
{
	struct cmd_probe *c = p->priv;
	struct cmd_result ready = { .err = EPIPE };
	struct cmd_user u;
	int sv[2], devnull, ret;
	char **env;
	pid_t pid, self = getpid();

	c->cmd = &p->cfg->set.cmds.list[p->instance];
	c->sock = -1;
	if ((ret = resolve_user(p, &u)))
		return ret;
	env = command_env(p, &u);
	if (!env)
		goto out_fail;
	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (devnull < 0)
		goto out_fail;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		goto out_null;
	pid = fork();
	if (pid == 0)
		launcher_main(p, &u, sv[1], devnull, env, self);
	if (pid < 0)
		goto out_sock;
	close(sv[1]);
	close(devnull);
	free(env);
	c->launcher = pid;
	c->sock = sv[0];
	if (recv(c->sock, &ready, sizeof(ready), MSG_WAITALL) != sizeof(ready) ||
	    ready.err) {
		snprintf(p->err, sizeof(p->err), "%s probe: cannot run its command as %s: %s",
			 probe_name(p), c->user[0] ? c->user : "you",
			 strerror(ready.err ? ready.err : EPIPE));
		return -(ready.err ? ready.err : EPIPE);
	}
	return 0;

out_sock:
	close(sv[0]);
	close(sv[1]);
out_null:
	close(devnull);
out_fail:
	ret = errno ? -errno : -ENOMEM;
	free(env);
	snprintf(p->err, sizeof(p->err), "%s probe: cannot start its launcher: %s",
		 probe_name(p), strerror(-ret));
	return ret;
}

int probe_cmd_run(struct probe *p)
{
	struct cmd_probe *c = p->priv;
	struct cmd_result res;
	bool stopping = false;
	char req = 'r';

	p->fail = (struct ws_probe_failure){ .kind = WS_FAIL_NONE };
	p->fail_stderr[0] = '\0';
	if (signals_received())
		return -ECANCELED;
	if (send(c->sock, &req, 1, MSG_NOSIGNAL) != 1)
		return -EPIPE;
	/* a Ctrl-C (or SIGTERM) ends the command now, not at its timeout */
	for (;;) {
		struct pollfd fds = { .fd = c->sock, .events = POLLIN };

		if (poll(&fds, 1, CMD_STOP_POLL_MS) > 0)
			break;
		if (signals_received() && !stopping) {
			stopping = true;
			if (send(c->sock, "k", 1, MSG_NOSIGNAL) != 1)
				return -EPIPE;
		}
	}
	if (recv(c->sock, &res, sizeof(res), MSG_WAITALL) != sizeof(res))
		return -EPIPE;
	if (res.err || !WIFEXITED(res.status) || WEXITSTATUS(res.status))
		snprintf(p->fail_stderr, sizeof(p->fail_stderr), "%s", res.last_stderr);
	if (res.err == ETIMEDOUT) {
		p->fail.kind = WS_FAIL_TIMEOUT;
		return -ETIMEDOUT;
	}
	if (res.err == EINTR)
		return -ECANCELED;	/* cut short by the stop: not a latency */
	if (res.err == ECHILD) {
		p->fail.kind = WS_FAIL_LOST;
		return -ECHILD;
	}
	if (res.err)
		return -res.err;
	if (WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0)
		return 0;
	if (WIFEXITED(res.status))
		p->fail = (struct ws_probe_failure){ .kind = WS_FAIL_EXIT,
						     .code = WEXITSTATUS(res.status) };
	else
		p->fail = (struct ws_probe_failure){ .kind = WS_FAIL_SIGNAL,
						     .code = WTERMSIG(res.status) };
	return -ECHILD;
}

void probe_cmd_cleanup(struct probe *p)
{
	struct cmd_probe *c = p->priv;

	if (c->launcher > 0) {
		close(c->sock);	/* the launcher exits */
		waitpid(c->launcher, NULL, 0);
	}
	c->sock = -1;
	c->launcher = 0;
}

const char *probe_cmd_user(const struct probe *p)
{
	const struct cmd_probe *c = p->priv;

	return p->ops && p->ops->setup == probe_cmd_setup && c ? c->user : "";
}
