#!/usr/bin/env python3
"""cmd_runs.py STOPFILE OUT CMD - a command timed from outside, beside the
cmd probe: /bin/sh -c CMD started with posix_spawn (as the probe's
launcher starts it) and waited for, one run at a time, until STOPFILE
exists.  Writes each run's wall time in milliseconds, one a line, to OUT.
Under the same load as the probe, its runs pay the same start-up costs:
the yardstick of what the probe should report."""
import os
import sys
import time

stop, out, cmd = sys.argv[1:4]
runs = []
while not os.path.exists(stop):
    t0 = time.monotonic()
    pid = os.posix_spawn("/bin/sh", ["sh", "-c", cmd], os.environ)
    os.waitpid(pid, 0)
    runs.append((time.monotonic() - t0) * 1000)
with open(out, "w") as f:
    f.writelines(f"{ms:.3f}\n" for ms in runs)
