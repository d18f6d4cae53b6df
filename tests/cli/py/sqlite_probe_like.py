#!/usr/bin/env python3
"""sqlite_probe_like.py DB STOPFILE OUT - a SQLite client committing as
writestress's sqlite probe does (probe_sqlite.c), at the caller's
priority: rollback journal, synchronous=FULL, the database grown to
1 MiB and emptied first, then one 4 KiB row per transaction every 100 ms
(one at a time: a slow commit delays the next; OUT.ready made once
grown, so that a run measures its probes' idle times on an idle disk,
not behind the growing), the table emptied,
untimed, before it passes 1 MiB again; until STOPFILE exists.  Writes
"START_S LATENCY_S" per commit to OUT, START_S on the clock where the
stop file was seen at 0 (so negative), the database and its journal
removed at the end."""
import os
import sqlite3
import sys
import time

WRAP, ROW = 1 << 20, 4096
db_path, stop, out = sys.argv[1:4]
db = sqlite3.connect(db_path, isolation_level=None)
db.execute("PRAGMA journal_mode=DELETE")
db.execute("PRAGMA synchronous=FULL")
db.execute("CREATE TABLE IF NOT EXISTS mail (id INTEGER PRIMARY KEY, body BLOB)")
body = os.urandom(ROW)
db.execute("BEGIN")
for _ in range(WRAP // ROW):
    db.execute("INSERT INTO mail (body) VALUES (?)", (body,))
db.execute("COMMIT")
db.execute("DELETE FROM mail")
open(out + ".ready", "w").close()
lat, appended = [], 0
due = time.monotonic()
while not os.path.exists(stop):
    if appended + ROW > WRAP:
        db.execute("DELETE FROM mail")
        appended = 0
    t0 = time.monotonic()
    db.execute("BEGIN")
    db.execute("INSERT INTO mail (body) VALUES (?)", (body,))
    db.execute("COMMIT")
    t1 = time.monotonic()
    appended += ROW
    lat.append((t0, t1 - t0))
    due = max(due + 0.1, t1)
    time.sleep(max(0.0, due - time.monotonic()))
end = time.monotonic()
db.close()
for suffix in ("", "-journal"):
    try:
        os.unlink(db_path + suffix)
    except FileNotFoundError:
        pass
with open(out, "w") as f:
    f.writelines(f"{t - end:.3f} {x:.6f}\n" for t, x in lat)
