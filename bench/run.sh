#!/usr/bin/env bash
# bench/run.sh [DIR] — ctxoff's benchmark suite, every figure measured side by side with a
# reference in the same run and reported as a ratio. DIR holds the generated inputs
# (default: a directory under ${TMPDIR:-/tmp}); generating the 1 GiB input takes a minute.
#
# BENCH_SECTIONS="1 6" runs only those sections (default: all). BEFORE=PATH names another
# ctxoff binary (say, one built from an earlier commit) that section 6 measures too, against
# the same references in the same runs: its rows end in "(before)".
#
# Needs: cargo, python3, hyperfine and ripgrep (installed with apt-get when missing and root),
# GNU time (/usr/bin/time) for peak RSS.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
data=${1:-${TMPDIR:-/tmp}/ctxoff-bench}
runs=${BENCH_RUNS:-5}
sections=${BENCH_SECTIONS:-1 2 3 4 5 6}
before=${BEFORE:-}
want() { [[ " $sections " == *" $1 "* ]]; }

need() {
    command -v "$1" >/dev/null && return
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update -qq && apt-get install -y -qq "$2" >/dev/null
    else
        echo "bench: $1 is missing (install $2)" >&2
        exit 2
    fi
}
need hyperfine hyperfine
need rg ripgrep
need /usr/bin/time time

# The corpus's own generator, beside the corpus files it draws lines from.
bash "$repo/tests/fixtures/corpus/gen-big.sh" "$data" >/dev/null

(cd "$repo" && cargo build --release -q && cargo build --release -q --example reference_count --example spawn_floor)
# Builds go to target/<host triple>/ (see .cargo/config.toml).
release="$repo/target/$(rustc -vV | sed -n 's/^host: //p')/release"
ctxoff="$release/ctxoff"
reference="$release/examples/reference_count"
floor="$release/examples/spawn_floor"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export CTXOFF_DIR="$scratch/root" CTXOFF_SESSION=bench CTXOFF_CONFIG=/dev/null
results="$scratch/results"
: > "$results"

# compare NAME REFERENCE_CMD CTXOFF_CMD [hyperfine options]: median of each, ratio ctxoff/reference.
# RUNS=N before the call overrides the number of runs.
compare() {
    local name=$1 ref=$2 cmd=$3 n=${RUNS:-$runs}
    shift 3
    hyperfine -N -i --runs "$n" --warmup "${WARMUP:-1}" --export-json "$scratch/h.json" "$@" "$ref" "$cmd" >/dev/null 2>&1 ||
        hyperfine -i --runs "$n" --warmup "${WARMUP:-1}" --export-json "$scratch/h.json" "$@" "$ref" "$cmd" >/dev/null
    python3 - "$scratch/h.json" "$name" >>"$results" <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1]))["results"]
ref, new = (statistics.median(x["times"]) for x in r)
print(f"{sys.argv[2]}\t{ref*1000:.2f} ms\t{new*1000:.2f} ms\t{new/ref:.2f}x\t{(new-ref)*1000:+.2f} ms")
PY
}

# cpu NAME REF CMD: median CPU time (user + sys) of REF and CMD, RUNS runs each (default 10),
# interleaved, and their ratio. With BEFORE set, CMD with that binary for ctxoff's runs beside
# them, in a row "NAME (before)" against the same REF runs.
cpu() {
    local name=$1 ref=$2 cmd=$3 n=${RUNS:-10} i which c
    : > "$scratch/cpu"
    for ((i = 0; i < n; i++)); do
        for which in ref ${before:+before} ctxoff; do
            case $which in
                ref) c=$ref ;;
                before) c=${cmd//$ctxoff/$before} ;;
                ctxoff) c=$cmd ;;
            esac
            /usr/bin/time -a -o "$scratch/cpu" -f "$which %U %S" sh -c "exec $c" >/dev/null 2>&1 || true
        done
    done
    python3 - "$scratch/cpu" "$name" >>"$results" <<'PY'
import statistics, sys
times = {}
for line in open(sys.argv[1]):
    which, user, system = line.split()
    times.setdefault(which, []).append(float(user) + float(system))
ref = statistics.median(times["ref"]) * 1000
for which, label in (("before", " (before)"), ("ctxoff", "")):
    if which in times:
        t = statistics.median(times[which]) * 1000
        print(f"{sys.argv[2]}{label}\t{ref:.1f} ms cpu\t{t:.1f} ms cpu\t{t/max(ref, 0.1):.2f}x\t{t-ref:+.1f} ms")
PY
}

# peak RSS in MiB of a shell command
rss() { /usr/bin/time -f %M sh -c "$1" 2>&1 >/dev/null | tail -1 | awk '{printf "%.1f", $1/1024}'; }

if want 1; then
echo "== 1. small output (no tokenizer, no file) =="
RUNS=300 WARMUP=20 compare "true" "true" "$ctxoff true"
RUNS=300 WARMUP=20 compare "echo hi" "echo hi" "$ctxoff echo hi"
# What any program that captures a command's output pays here before doing anything else.
RUNS=300 WARMUP=20 compare "true (vs spawn with pipes, wait)" "$floor true" "$ctxoff true"
fi

if want 2; then
echo "== 2. capture =="
clean="rm -rf $scratch/root"
for f in log-100m.txt log-1g.txt one-line-100m.txt minified-50m.json random-10m.bin; do
    F="$data/$f"
    RUNS=3 compare "cat $f (vs cat >/dev/null)" "cat $F" "$ctxoff cat $F" --prepare "$clean"
    RUNS=3 compare "cat $f | ctxoff (vs tee file)" "sh -c 'cat $F | tee $scratch/tee.out >/dev/null'" \
        "sh -c 'cat $F | $ctxoff --name pipe >/dev/null'" --prepare "$clean"
    if [ "$f" = log-1g.txt ]; then
        # The capture target: saving, hashing and analysing overlap with counting. Both count
        # on every core; the second reference is the same count held to one core.
        RUNS=3 compare "cat $f (vs count of the same bytes)" "$ctxoff count $F" "$ctxoff cat $F" --prepare "$clean"
        if command -v taskset >/dev/null; then
            RUNS=3 compare "cat $f (vs count on one core)" "taskset -c 0 $ctxoff count $F" "$ctxoff cat $F" --prepare "$clean"
        fi
    fi
    $clean
    printf 'peak RSS %s\tctxoff cat %s MiB\tcat | ctxoff %s MiB\n' "$f" \
        "$(rss "$ctxoff cat $F")" "$(rm -rf "$scratch/root"; rss "cat $F | $ctxoff")" >>"$results"
done
fi

if want 3; then
echo "== 3. token counting =="
for f in log-100m.txt minified-50m.json letter-4m.txt; do
    RUNS=3 compare "count $f (vs tiktoken-rs)" "$reference o200k_base $data/$f" "$ctxoff count $data/$f"
done
# tiktoken-rs overflows its stack on 1 MiB of spaces: ctxoff alone, against the letter run.
compare "count spaces-1m (vs letter-4m/4)" "$ctxoff count $data/letter-4m.txt" "$ctxoff count $data/spaces-1m.txt"
size=$(stat -c %s "$data/log-100m.txt")
secs=$(hyperfine -N --runs 3 --export-json "$scratch/c.json" "$ctxoff count $data/log-100m.txt" >/dev/null 2>&1 &&
    python3 -c "import json,statistics;print(statistics.median(json.load(open('$scratch/c.json'))['results'][0]['times']))")
python3 -c "print(f'count throughput\tlog-100m\t{$size/$secs/1e6:.0f} MB/s')" >>"$results"
fi

if want 4; then
echo "== 4. retrieval on a 1 GiB output =="
rm -rf "$scratch/root"
out=$("$ctxoff" --json cat "$data/log-1g.txt" | python3 -c 'import json,sys;print(json.load(sys.stdin)["path"])')
# --output=pipe: GNU grep stops at the first match when its output is /dev/null.
compare "grep rare (vs rg -n)" "rg -n E0502 $out" "$ctxoff grep $out E0502 --all -C 0" --output=pipe
compare "grep rare (vs grep -n)" "grep -n E0502 $out" "$ctxoff grep $out E0502 --all -C 0" --output=pipe
compare "grep common (vs rg -n)" "rg -n ERROR $out" "$ctxoff grep $out ERROR --all -C 0" --output=pipe
compare "grep common (vs grep -n)" "grep -n ERROR $out" "$ctxoff grep $out ERROR --all -C 0" --output=pipe
lines=$(wc -l <"$out")
compare "lines start (vs sed -n)" "sed -n '100,200p;200q' $out" "$ctxoff lines $out 100:200 --all" --output=pipe
compare "lines middle (vs sed -n)" "sed -n '$((lines / 2)),$((lines / 2 + 100))p;$((lines / 2 + 100))q' $out" "$ctxoff lines $out $((lines / 2)):$((lines / 2 + 100)) --all" --output=pipe
compare "lines end (vs sed -n)" "sed -n '$((lines - 100)),\$p' $out" "$ctxoff lines $out $((lines - 100)): --all" --output=pipe
compare "lines end (vs tail -n)" "tail -n 100 $out" "$ctxoff lines $out -100: --all" --output=pipe
fi

if want 5; then
echo "== 5. gc of 10,000 sessions, 100,000 outputs =="
python3 "$here/make-tree.py" "$scratch/tree-template" 10000 10
RUNS=3 compare "gc --all (vs rm -rf)" "rm -rf $scratch/gc" "$ctxoff --dir $scratch/gc gc --all -q" \
    --prepare "rm -rf $scratch/gc; cp -a $scratch/tree-template $scratch/gc"
fi

if want 6; then
echo "== 6. tokenizer ready, and inputs slow to count (CPU time) =="
printf 'hi\n' >"$scratch/three.txt"
# Counting a few bytes is the tokenizer's start-up: the reference is reading them.
cpu "count 3-byte file, o200k (vs cat)" "cat $scratch/three.txt" "$ctxoff count $scratch/three.txt"
cpu "count 3-byte file, cl100k (vs cat)" "cat $scratch/three.txt" \
    "$ctxoff count --encoding cl100k_base $scratch/three.txt"
# An offload: capture, count, save, summarise.
cpu "cat log-100k.txt, offloaded (vs cat)" "cat $data/log-100k.txt" "$ctxoff cat $data/log-100k.txt"
# Reading back from a 100 MiB output loads a tokenizer to cap what is printed.
rm -rf "$scratch/root"
out=$("$ctxoff" --json cat "$data/log-100m.txt" | python3 -c 'import json,sys;print(json.load(sys.stdin)["path"])')
cpu "lines -50: of 100 MiB (vs tail -n)" "tail -n 50 $out" "$ctxoff lines $out -50:"
cpu "lines 1000:1049 of 100 MiB (vs sed -n)" "sed -n '1000,1049p;1049q' $out" "$ctxoff lines $out 1000:1049"
RUNS=5 cpu "count letter-20m.txt (vs cat)" "cat $data/letter-20m.txt" "$ctxoff count $data/letter-20m.txt"
RUNS=3 cpu "count log-20m.txt (vs tiktoken-rs)" "$reference o200k_base $data/log-20m.txt" \
    "$ctxoff count $data/log-20m.txt"
# Every input class against tiktoken-rs, in both encodings.
for f in word-4m.txt base64-4m.txt cjk-3m.txt emoji-4m.txt random-10m.bin; do
    for e in o200k_base cl100k_base; do
        RUNS=3 cpu "count $f, $e (vs tiktoken-rs)" "$reference $e $data/$f" "$ctxoff count --encoding $e $data/$f"
    done
done
# tiktoken-rs overflows its regex's stack on a megabyte of spaces.
RUNS=3 cpu "count spaces-1m.txt (vs cat)" "cat $data/spaces-1m.txt" "$ctxoff count $data/spaces-1m.txt"
fi

echo
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
printf 'benchmark\treference\tctxoff\tratio\tdifference\n' | cat - "$results" | column -t -s "$(printf '\t')"
