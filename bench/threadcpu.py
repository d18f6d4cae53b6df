#!/usr/bin/python3
"""threadcpu.py - run a command and say how much CPU each of its threads used.

usage:
  threadcpu.py --out FILE [--limit SECONDS] [--interval SECONDS] -- CMD...
      Run CMD and sample /proc/PID/task/*/{comm,stat,schedstat} every
      INTERVAL seconds (default 0.5) until it exits.  FILE gets:
          wall SECONDS              (spawn to exit, CLOCK_MONOTONIC)
          rusage USER SYS           (the whole process, from wait4)
          samples N
          clk_tck TICKS_PER_SECOND
          thread NAME TICKS NS      (one line per thread name, summed over
                                     its threads: utime+stime in clock ticks,
                                     fields 14 and 15 of stat, and the run
                                     time in ns, field 1 of schedstat, as
                                     last sampled)
      A thread's CPU time after its last sample is lost; the "rusage" line
      covers the whole process, so the difference is what was lost.

CMD must not fork and exit (a wrapper that execs, like `rig.sh run`, is
fine): its pid is the one sampled.  CMD's output goes where this script's
goes.  The exit status is CMD's
(128 + N if a signal N killed it), 124 if it ran past --limit (it then gets
SIGTERM, and SIGKILL 5 s later), 2 on bad usage.  Only the standard library
is used, so any python3 will do.
"""
import os
import select
import signal
import sys
import time

LOST_GRACE = 5


def usage():
    sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
    sys.exit(2)


def parse(argv):
    opts = {"out": None, "limit": 0.0, "interval": 0.5}
    i = 1
    while i < len(argv) and argv[i] != "--":
        key = argv[i].lstrip("-")
        if key not in ("out", "limit", "interval") or i + 1 >= len(argv):
            usage()
        opts[key] = argv[i + 1] if key == "out" else float(argv[i + 1])
        i += 2
    cmd = argv[i + 1:]
    if not cmd or not opts["out"]:
        usage()
    return opts, cmd


class Limit:
    """SIGTERM the child after LIMIT seconds, SIGKILL it LOST_GRACE later."""

    def __init__(self, pid, limit):
        self.pid = pid
        self.expired = False
        if limit > 0:
            signal.signal(signal.SIGALRM, self.fire)
            signal.setitimer(signal.ITIMER_REAL, limit)

    def fire(self, _sig, _frame):
        try:
            os.kill(self.pid, signal.SIGKILL if self.expired else signal.SIGTERM)
        except ProcessLookupError:
            return
        self.expired = True
        signal.setitimer(signal.ITIMER_REAL, LOST_GRACE)

    def stop(self):
        signal.setitimer(signal.ITIMER_REAL, 0)


def status(st, limit):
    if limit.expired:
        return 124
    if os.WIFSIGNALED(st):
        return 128 + os.WTERMSIG(st)
    return os.WEXITSTATUS(st)


def read_thread(task):
    """(comm, ticks, ns) of one thread, None if it is gone."""
    try:
        with open(task + "/comm") as f:
            comm = f.read().strip()
        with open(task + "/stat") as f:
            stat = f.read()
        # fields after "(comm)": the first is field 3 (state)
        rest = stat[stat.rindex(")") + 2:].split()
        ticks = int(rest[14 - 3]) + int(rest[15 - 3])
        try:
            with open(task + "/schedstat") as f:
                ns = int(f.read().split()[0])
        except OSError:
            ns = -1
    except (OSError, ValueError, IndexError):
        return None
    return comm, ticks, ns


def main(argv):
    opts, cmd = parse(argv)
    t0 = time.monotonic_ns()
    try:
        pid = os.posix_spawnp(cmd[0], cmd, os.environ)
    except OSError as e:
        sys.stderr.write("threadcpu.py: cannot run %s: %s\n" % (cmd[0], e))
        return 127
    limit = Limit(pid, opts["limit"])
    threads = {}
    samples = 0
    base = "/proc/%d/task" % pid
    # wake at once when the child exits (pidfd), or every interval
    try:
        waiter = select.poll()
        waiter.register(os.pidfd_open(pid), select.POLLIN)

        def pause():
            waiter.poll(opts["interval"] * 1000)
    except (AttributeError, OSError):
        def pause():
            time.sleep(opts["interval"])
    while True:
        done, st, ru = os.wait4(pid, os.WNOHANG)
        if done:
            break
        try:
            tids = os.listdir(base)
        except OSError:
            tids = []
        for tid in tids:
            seen = read_thread(base + "/" + tid)
            if seen:
                threads[tid] = seen
        samples += 1
        pause()
    t1 = time.monotonic_ns()
    limit.stop()
    wall = (t1 - t0) / 1e9
    with open(opts["out"], "a") as out:
        out.write("wall %.6f\n" % wall)
        out.write("rusage %.6f %.6f\n" % (ru.ru_utime, ru.ru_stime))
        out.write("samples %d\n" % samples)
        out.write("clk_tck %d\n" % os.sysconf("SC_CLK_TCK"))
        names = {}
        for comm, ticks, ns in threads.values():
            t, n = names.get(comm, (0, 0))
            names[comm] = (t + ticks, n + ns if ns >= 0 and n >= 0 else -1)
        for comm in sorted(names):
            out.write("thread %s %d %d\n" % (comm.replace(" ", "_"), *names[comm]))
    return status(st, limit)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
