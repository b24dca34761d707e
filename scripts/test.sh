#!/usr/bin/env bash
# The one command that runs every test of the project (README "Testing"; .ci/run runs it).
# Needs python3 and node (installed on the image), ruff (`pip install ruff`) and the
# agreement tests' packages (`python3 -m pip install -r host/tests/agreement/requirements.txt`).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-2}"

echo "== format"
cargo fmt --all -- --check
cargo fmt --manifest-path agreement/Cargo.toml -- --check
echo "== clippy"
cargo clippy --workspace --all-targets -- -D warnings
echo "== build"
cargo build --workspace
echo "== tests"
cargo test --workspace
echo "== llguidance agreement (its own workspace: see agreement/Cargo.toml)"
CARGO_TARGET_DIR=target/agreement cargo test --manifest-path agreement/Cargo.toml
