#!/usr/bin/env python3
"""sqlite_commits.py DB STOPFILE OUT - a mail store committing beside the
writer: Python's sqlite3 (the real SQLite library), rollback journal,
synchronous=FULL, one 2 KiB row per transaction every 100 ms (one at a
time: a slow commit delays the next), until STOPFILE exists.  Writes one
commit latency in seconds per line to OUT; the database and its journal
are removed at the end."""
import os
import sqlite3
import sys
import time

db_path, stop, out = sys.argv[1:4]
db = sqlite3.connect(db_path, isolation_level=None)
db.execute("PRAGMA journal_mode=DELETE")
db.execute("PRAGMA synchronous=FULL")
db.execute("CREATE TABLE IF NOT EXISTS mail (id INTEGER PRIMARY KEY, body BLOB)")
lat = []
due = time.monotonic()
while not os.path.exists(stop):
    t0 = time.monotonic()
    db.execute("BEGIN")
    db.execute("INSERT INTO mail (body) VALUES (?)", (os.urandom(2048),))
    db.execute("COMMIT")
    t1 = time.monotonic()
    lat.append(t1 - t0)
    due = max(due + 0.1, t1)
    time.sleep(max(0.0, due - time.monotonic()))
db.close()
for suffix in ("", "-journal"):
    try:
        os.unlink(db_path + suffix)
    except FileNotFoundError:
        pass
with open(out, "w") as f:
    f.writelines(f"{x:.6f}\n" for x in lat)
