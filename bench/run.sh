#!/usr/bin/env bash
# Isu's benchmarks: every kernel of bench/ on C, CPython, the interpreter and
# every backend, interleaved, several rounds; prints one table of ratios
# (bench/README.md). Usage: bench/run.sh [--rounds R] [--quick] [--json FILE]
# [--runners LIST] [--no-build] [--bin-dir DIR] [NAME ...]; --help says more.
set -euo pipefail
exec python3 "$(dirname "$0")/all.py" "$@"
