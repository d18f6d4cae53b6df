"""Check contrib/kubernetes/writestress-job.yaml without a cluster: it
parses as YAML, is one batch/v1 Job whose one container is privileged,
runs writestress with --json into a mounted volume and --prom into the
volume of node_exporter's textfile directory, and every mount names a
declared volume (and every volume is mounted).

usage: k8s_manifest.py MANIFEST
Prints what is wrong and exits 1, or exits 0.
"""
import sys

import yaml

problems = []


def want(cond, what):
    if not cond:
        problems.append(what)


def mount_of(mounts, path):
    """The mount whose mountPath holds path, or None."""
    for m in mounts:
        if path == m["mountPath"] or path.startswith(m["mountPath"].rstrip("/") + "/"):
            return m
    return None


def check_command(argv, mounts, volumes):
    want(argv[0] == "writestress", f"the command is {argv[0]!r}, not writestress")
    for opt in ("--json", "--prom"):
        if opt not in argv[:-1]:
            want(False, f"the command has no {opt}")
            continue
        path = argv[argv.index(opt) + 1]
        m = mount_of(mounts, path)
        want(m is not None, f"{opt} {path} is on no mounted volume")
        if m and opt == "--prom":
            hp = volumes.get(m["name"], {}).get("hostPath", {}).get("path", "")
            want("node-exporter" in hp or "textfile" in hp,
                 f"--prom goes to volume {m['name']} ({hp}), not a textfile directory")
            want(path.endswith(".prom"), f"--prom {path}: node_exporter reads *.prom only")
    target = argv[-1]
    m = mount_of(mounts, target)
    want(m is not None and "hostPath" in volumes.get(m["name"], {}),
         f"the target {target} is not on a hostPath volume")
    want("--remove" in argv, "the command has no --remove: the data file would stay")


def check_job(job):
    want(job.get("apiVersion") == "batch/v1", f"apiVersion {job.get('apiVersion')}")
    spec = job["spec"]["template"]["spec"]
    want(spec.get("restartPolicy") in ("Never", "OnFailure"),
         f"restartPolicy {spec.get('restartPolicy')}")
    volumes = {v["name"]: v for v in spec.get("volumes", [])}
    want(len(volumes) == len(spec.get("volumes", [])), "two volumes share a name")
    cs = spec["containers"]
    want(len(cs) == 1, f"{len(cs)} containers")
    c = cs[0]
    want(c.get("securityContext", {}).get("privileged") is True, "the container is not privileged")
    mounts = c.get("volumeMounts", [])
    for m in mounts:
        want(m["name"] in volumes, f"mount {m['mountPath']} names no volume: {m['name']}")
    for name in volumes:
        want(any(m["name"] == name for m in mounts), f"volume {name} is not mounted")
    env = {e["name"] for e in c.get("env", [])}
    argv = list(c.get("command", [])) + list(c.get("args", []))
    for a in argv:
        for ref in a.split("$(")[1:]:
            want(ref.split(")")[0] in env, f"{a}: $({ref.split(')')[0]}) is not in env")
    check_command(argv, mounts, volumes)


def main():
    try:
        with open(sys.argv[1]) as f:
            docs = [d for d in yaml.safe_load_all(f) if d is not None]
    except yaml.YAMLError as e:
        print(f"not YAML: {' '.join(str(e).split())}")
        return 1
    want(len(docs) == 1, f"{len(docs)} documents, expected one Job")
    want(docs and docs[0].get("kind") == "Job", "the document is not a Job")
    if not problems:
        check_job(docs[0])
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
