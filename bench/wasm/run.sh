#!/usr/bin/env bash
# The Wasm backend's benchmarks: each program of bench/ compiled to Wasm and
# timed in wasmtime, beside the same algorithm in C (gcc -O2) and the
# reference interpreter; prints the times and the ratios to C.
# Usage: bench/wasm/run.sh [--repeat N] [NAME ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
exec cargo run --release -q -p isu_backend_wasm --example bench -- "$@"
