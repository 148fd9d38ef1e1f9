#!/usr/bin/env bash
# bench/fidelity.sh [--verbose] [CORPUS_DIR...] — what stays in a model's context for every
# output of the fixture corpora: tokens (o200k_base, exact) and ground-truth items visible, for
# raw output, each agent's own truncation rule and ctxoff (defaults and a tight budget).
# Builds ctxoff and the benchmark in release mode first. No python needed.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
cargo build --release -q
cargo build --release -q --example fidelity
# Release builds go to target/<host triple>/release (.cargo/config.toml sets the target).
out="$repo/target/$(rustc -vV | sed -n 's/^host: //p')/release"
[ -x "$out/ctxoff" ] || out="$repo/target/release"
exec "$out/examples/fidelity" --ctxoff "$out/ctxoff" "$@"
