#!/usr/bin/env bash
# The one command that runs every test of the project (README "Testing"; .ci/run runs it).
# Needs python3 and node (installed on the image), ruff (`pip install ruff`), the
# agreement tests' packages (`python3 -m pip install -r host/tests/agreement/requirements.txt`),
# the LSP client the language server's tests use (`python3 -m pip install -r
# host/tests/clients/lsp/requirements.txt`), the VS Code extension's npm packages (`npm ci` in
# editors/vscode),
# and for the LLVM backend LLVM 19 with clang 19 (`apt-get install llvm-19-dev clang-19`). On a
# machine without LLVM 19 the LLVM backend is left out, with a notice (README "Building without
# LLVM"); ISU_REQUIRE_LLVM=1 (as CI sets) makes its absence an error instead.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-2}"

scope=(--workspace)
prefix="${LLVM_SYS_191_PREFIX:-/usr/lib/llvm-19}"
if [[ ! -x "$prefix/bin/llvm-config" || ! -x "$prefix/bin/clang" ]]; then
    if [[ "${ISU_REQUIRE_LLVM:-}" == 1 ]]; then
        echo "LLVM 19 is missing ($prefix/bin/llvm-config, $prefix/bin/clang): apt-get install llvm-19-dev clang-19" >&2
        exit 1
    fi
    echo "note: LLVM 19 is not installed ($prefix): the LLVM backend is left out of the tests" >&2
    scope=(--workspace --exclude isu_backend_llvm)
    export ISU_NO_LLVM=1
fi

echo "== format"
cargo fmt --all -- --check
cargo fmt --manifest-path agreement/Cargo.toml -- --check
echo "== clippy"
cargo clippy "${scope[@]}" --all-targets -- -D warnings
echo "== build"
cargo build "${scope[@]}"
echo "== tests"
cargo test "${scope[@]}"
echo "== llguidance agreement (its own workspace: see agreement/Cargo.toml)"
CARGO_TARGET_DIR=target/agreement cargo test --manifest-path agreement/Cargo.toml
