#!/usr/bin/env bash
# The LLVM backend's benchmarks: each program of bench/ compiled to a native
# executable, beside the same algorithm in C (gcc -O2); prints the times and
# the ratios to C as a table (bench/llvm/README.md).
# Usage: bench/llvm/run.sh [--repeat N] [--rounds R] [NAME ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
exec cargo run --release -q -p isu_backend_llvm --example bench -- "$@"
