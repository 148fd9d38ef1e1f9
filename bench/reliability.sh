#!/usr/bin/env bash
# Side-by-side measurements for the scratch space's scaling and bounded memory: `ctxoff list` of
# sessions of 10,000, 60,000 and 100,000 outputs (seconds), and `ctxoff lines` capped on one
# line of 100 MiB and 200 MiB (peak RSS). Prints one table; run with two builds to compare:
#
#   bench/reliability.sh NEW_CTXOFF [OLD_CTXOFF]
set -euo pipefail
new=${1:?usage: bench/reliability.sh NEW_CTXOFF [OLD_CTXOFF]}
old=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bins=("$new")
[ -n "$old" ] && bins=("$old" "$new")
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

make_session() { # make_session ROOT SESSION N: N outputs with their manifest lines
    python3 - "$1" "$2" "$3" <<'PY'
import json, os, sys
root, session, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = os.path.join(root, session)
os.makedirs(d, mode=0o700)
with open(os.path.join(d, "index.jsonl"), "w") as m:
    for i in range(1, n + 1):
        f = f"seq_{i}.txt"
        open(os.path.join(d, f), "w").write("1\n")
        m.write(json.dumps({"n": i, "file": f, "name": "seq", "argv": ["seq", "1"], "cwd": "/",
            "started": "2026-01-01T00:00:00Z", "duration_ms": 1, "exit_code": 0, "signal": None,
            "bytes": 2, "lines": 1, "tokens": 1, "encoding": "o200k_base", "sha256": "",
            "complete": True}) + "\n")
PY
}

if [ -n "$old" ]; then printf '%-40s%-16s%s\n' measure before after; else printf '%-40s%s\n' measure ctxoff; fi
scratch="$work/scratch"
mkdir -m 1777 "$scratch"
for n in 10000 60000 100000; do
    make_session "$scratch" "s$n" "$n"
    printf '%-40s' "list of $n outputs (s)"
    for b in "${bins[@]}"; do
        t=$( { /usr/bin/time -f %e "$b" --dir "$scratch" --session "s$n" list >/dev/null; } 2>&1 | tail -1)
        printf '%-16s' "$t"
    done
    echo
done
mkdir -p "$scratch/big"
for mib in 100 200; do
    python3 -c "import sys; f=open('$scratch/big/line_$mib.txt','wb'); f.write(b'x'*($mib<<20)); f.write(b'\n')"
    printf '%-40s' "lines (capped) of a $mib MiB line (KiB RSS)"
    for b in "${bins[@]}"; do
        kb=$( { /usr/bin/time -f %M "$b" --dir "$scratch" --session big lines "line_$mib" 1 >/dev/null; } 2>&1 | tail -1)
        printf '%-16s' "$kb"
    done
    echo
    rm "$scratch/big/line_$mib.txt"
done
