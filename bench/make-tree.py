"""make-tree.py DIR SESSIONS OUTPUTS: a scratch space for the gc benchmark, with manifests."""
import json, os, sys

root, sessions, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.makedirs(root, mode=0o1777, exist_ok=True)
os.chmod(root, 0o1777)
old = 1_000_000_000  # 2001: everything is stale
for s in range(sessions):
    d = os.path.join(root, f"s{s}")
    os.makedirs(d, mode=0o700, exist_ok=True)
    lines = []
    for n in range(1, per + 1):
        name = f"cmd_{n}.txt"
        p = os.path.join(d, name)
        with open(p, "w") as f:
            f.write("x\n" * 64)
        os.utime(p, (old, old))
        lines.append(json.dumps({"n": n, "file": name, "name": "cmd", "argv": ["cmd"], "cwd": "/",
                                 "started": "2001-09-09T01:46:40Z", "duration_ms": 1, "exit_code": 0,
                                 "signal": None, "bytes": 128, "lines": 64, "tokens": 64,
                                 "encoding": "o200k_base", "sha256": "0" * 64, "complete": True}))
    with open(os.path.join(d, "index.jsonl"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(d, ".seq"), "w") as f:
        f.write(str(per))
