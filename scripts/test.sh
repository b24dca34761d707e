#!/usr/bin/env bash
# The one command that runs every test of the project (README "Testing"; .ci/run runs it).
# Needs python3 and node (installed on the image) and ruff (`pip install ruff`).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-2}"

echo "== format"
cargo fmt --all -- --check
echo "== clippy"
cargo clippy --workspace --all-targets -- -D warnings
echo "== build"
cargo build --workspace
echo "== tests"
cargo test --workspace
