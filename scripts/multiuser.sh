#!/usr/bin/env bash
# Multi-user and race checks of the scratch space's safety (SPEC §4, §5): what another user on
# the same machine can make ctxoff read, delete or report. Needs root and real users: it creates
# two users (ctxoff-mu-a-PID, ctxoff-mu-b-PID), and removes them and everything it made when it
# ends. Every loop is bounded.
#
#   sudo scripts/multiuser.sh [CTXOFF] [--before OLD_CTXOFF] [--runs N]
#
# CTXOFF defaults to the release build. With --before, each check runs with both binaries and
# prints them side by side. Exit status 1 when a check fails for CTXOFF.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
new=""
old=""
runs=1500
while [ $# -gt 0 ]; do
    case "$1" in
        --before) old=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        *) new=$1; shift ;;
    esac
done
if [ -z "$new" ]; then
    new=$(ls "$repo"/target/*/release/ctxoff "$repo"/target/release/ctxoff 2>/dev/null | head -1)
fi
[ -x "$new" ] || { echo "multiuser.sh: no ctxoff binary (build with cargo build --release)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "multiuser.sh: needs root (it creates and removes two users)" >&2; exit 2; }
for tool in useradd userdel runuser python3; do
    command -v $tool >/dev/null || { echo "multiuser.sh: needs $tool" >&2; exit 2; }
done

alice=ctxoff-mu-a-$$
bob=ctxoff-mu-b-$$
work=$(mktemp -d /tmp/ctxoff-multiuser.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    userdel --force "$alice" 2>/dev/null || true
    userdel --force "$bob" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
chmod 755 "$work"
useradd --no-create-home --home-dir "$work/home-a" --shell /bin/sh "$alice"
useradd --no-create-home --home-dir "$work/home-b" --shell /bin/sh "$bob"
mkdir -p "$work/home-a" "$work/home-b" "$work/bin"
chown "$alice:" "$work/home-a"; chown "$bob:" "$work/home-b"
chmod 700 "$work/home-a" "$work/home-b"
install -m 755 "$new" "$work/bin/new"
[ -n "$old" ] && install -m 755 "$old" "$work/bin/old"
: > "$work/config.toml"; chmod 644 "$work/config.toml"
root="$work/agent"
mkdir -m 1777 "$root"

as() { # as USER COMMAND...: runs with a clean ctxoff environment
    local user=$1; shift
    runuser -u "$user" -- env -i PATH=/usr/bin:/bin HOME="$work/home-${user:10:1}" \
        CTXOFF_CONFIG="$work/config.toml" CTXOFF_DIR="$root" "$@"
}

binaries=(new)
[ -n "$old" ] && binaries=(old new)
failed=0
row() { printf '%-64s %s\n' "$1" "$2"; }
row "check" "$( [ -n "$old" ] && printf '%-22s' before)after"

# 1. Alice swaps her session directory with a symlink to bob's private directory, in a loop
#    (renameat2 RENAME_EXCHANGE); bob reads her output by path. Does bob ever get his own file?
as "$bob" mkdir -m 700 "$work/home-b/secret"
as "$bob" sh -c "echo bob-secret > $work/home-b/secret/x_1.txt"
as "$alice" sh -c "mkdir -m 755 $root/alice-s && echo alice-output > $root/alice-s/x_1.txt && chmod 644 $root/alice-s/x_1.txt && ln -s $work/home-b/secret $root/alice-x"
cat > "$work/swap.py" <<'PY'
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
a, b, stop = sys.argv[1].encode(), sys.argv[2].encode(), sys.argv[3]
deadline = time.time() + 300
swaps = 0
while time.time() < deadline and not (swaps % 1000 == 0 and os.path.exists(stop)):
    libc.renameat2(-100, a, -100, b, 2)  # AT_FDCWD, RENAME_EXCHANGE
    swaps += 1
# Leave the real directory in its place.
if os.path.islink(sys.argv[1]):
    libc.renameat2(-100, a, -100, b, 2)
PY
chmod 644 "$work/swap.py"
for bin in "${binaries[@]}"; do
    rm -f "$work/stop"
    as "$alice" python3 "$work/swap.py" "$root/alice-s" "$root/alice-x" "$work/stop" &
    pids+=($!)
    leaked=$(as "$bob" sh -c "for i in \$(seq $runs); do $work/bin/$bin lines $root/alice-s/x_1.txt 1 --plain 2>/dev/null; done" | grep -c bob-secret || true)
    touch "$work/stop"
    wait "${pids[-1]}" 2>/dev/null || true
    [ "$bin" = new ] && [ "$leaked" != 0 ] && failed=1
    eval "swap_$bin='$leaked of $runs reads'"
done
row "1. reads through a swapped session dir that returned bob's file" "$( [ -n "$old" ] && printf '%-22s' "$swap_old")$swap_new"

# 2. Bob asks for an output of alice's private session: the error says why.
as "$alice" sh -c "mkdir -m 700 $root/alice-p && echo private > $root/alice-p/x_1.txt"
for bin in "${binaries[@]}"; do
    msg=$(as "$bob" "$work/bin/$bin" lines "$root/alice-p/x_1.txt" 1 2>&1 || true)
    case "$msg" in
        *"permission denied"*) eval "perm_$bin='permission denied'" ;;
        *"no such output"*) eval "perm_$bin='no such output file'" ;;
        *) eval "perm_$bin='other: ${msg:0:30}'" ;;
    esac
done
row "2. another user's unreadable output is reported as" "$( [ -n "$old" ] && printf '%-22s' "$perm_old")$perm_new"
case "$perm_new" in "permission denied") ;; *) failed=1 ;; esac

# 3. Bob runs gc --all in a loop while alice captures: none of alice's outputs go.
for bin in "${binaries[@]}"; do
    session=alice-gc-$bin
    as "$bob" sh -c "for i in \$(seq 200); do $work/bin/$bin gc --all -q 2>/dev/null; done" &
    pids+=($!)
    as "$alice" sh -c "for i in \$(seq 20); do $work/bin/$bin --session $session --threshold 10 seq 1 2000 >/dev/null; done"
    wait "${pids[-1]}" 2>/dev/null || true
    kept=$(ls "$root/$session" 2>/dev/null | grep -c '^seq_' || true)
    eval "gc_$bin='$kept of 20 outputs kept'"
    [ "$bin" = new ] && [ "$kept" != 20 ] && failed=1
done
row "3. alice's outputs kept while bob runs gc --all 200 times" "$( [ -n "$old" ] && printf '%-22s' "$gc_old")$gc_new"

# 4. gc with alice's home directory as its root, everything aged a day: what goes.
for bin in "${binaries[@]}"; do
    home=$work/home-a/gc-$bin
    as "$alice" sh -c "mkdir -p $home/src/empty $home/notes $home/build && echo '{\"id\":1}' > $home/notes/index.jsonl && echo made > $home/build/make_1.txt && touch -d '1 day ago' $home/src/empty $home/src $home/notes/index.jsonl $home/notes $home/build/make_1.txt $home/build"
    as "$alice" "$work/bin/$bin" --dir "$home" gc --all -q 2>/dev/null || true
    left=$(cd "$home" && find . -mindepth 1 | wc -l)
    eval "home_$bin='$left of 6 entries left'"
    [ "$bin" = new ] && [ "$left" != 6 ] && failed=1
done
row "4. gc --dir \$HOME --all leaves the user's files" "$( [ -n "$old" ] && printf '%-22s' "$home_old")$home_new"

# 5. The command interrupts ctxoff as its first act: ctxoff killed by the signal (orphaning the
#    command) instead of forwarding it.
cat > "$work/sigint.py" <<'PY'
import subprocess, sys
bin, runs = sys.argv[1], int(sys.argv[2])
killed = sum(
    subprocess.run([bin, "sh", "-c", "kill -INT $PPID; sleep 0.05"], capture_output=True).returncode < 0
    for _ in range(runs)
)
print(killed)
PY
chmod 644 "$work/sigint.py"
for bin in "${binaries[@]}"; do
    k=$(as "$alice" python3 "$work/sigint.py" "$work/bin/$bin" 300)
    eval "sig_$bin='$k of 300 runs'"
    [ "$bin" = new ] && [ "$k" != 0 ] && failed=1
done
row "5. ctxoff killed by a SIGINT sent right after the spawn" "$( [ -n "$old" ] && printf '%-22s' "$sig_old")$sig_new"

if [ "$failed" = 0 ]; then echo "all checks passed"; else echo "FAILED"; fi
exit "$failed"
