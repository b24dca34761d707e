#!/usr/bin/env bash
# The one command that runs every test of the project (README "Testing"; .ci/run runs it).
#
# It installs what it lacks first:
# - the Python packages of scripts/test-requirements.txt, into a virtual
#   environment, target/venv, whose bin folder it puts first on the PATH;
# - LLVM 19 and clang 19 for the LLVM backend, through apt-get, when they are
#   missing, LLVM_SYS_191_PREFIX is not set and it runs as root. Otherwise a
#   machine without LLVM 19 builds and tests everything but that backend,
#   which the build leaves out with a notice (README "The LLVM backend and
#   building without LLVM"). ISU_REQUIRE_LLVM=1 (as CI sets) makes its absence
#   an error instead;
# - the VS Code extension's npm packages (editors/vscode, `npm ci`), for its
#   grammar test and .vsix build, when its package-lock.json changed;
# - Chromium, for the test that opens the HTML pages of the repair loop, through
#   apt-get when it is missing and it runs as root; without it that test says so
#   and is skipped, unless ISU_REQUIRE_CHROMIUM=1 (as CI sets).
# It needs python3 (3.9 or later), node, gcc and a Rust toolchain with
# clippy and rustfmt.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-2}"

as_root() { [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; }
apt_install() {
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "$@" >/dev/null
}

echo "== Python packages (target/venv)"
venv=target/venv
if [[ ! -x "$venv/bin/python3" ]]; then
    mkdir -p target
    if ! python3 -m venv "$venv" 2>/dev/null; then
        # Debian's python3 makes virtual environments with python3-venv.
        as_root || { echo "python3 cannot make a virtual environment: install python3-venv" >&2; exit 1; }
        rm -rf "$venv"
        apt_install python3-venv
        python3 -m venv "$venv"
    fi
fi
# Installed again only when the requirements change.
wanted=$(cat scripts/test-requirements.txt host/tests/agreement/requirements.txt host/tests/clients/lsp/requirements.txt)
if [[ "$(cat "$venv/installed.txt" 2>/dev/null)" != "$wanted" ]]; then
    "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check -r scripts/test-requirements.txt
    printf '%s' "$wanted" >"$venv/installed.txt"
fi
PATH="$PWD/$venv/bin:$PATH"
export PATH

echo "== LLVM 19"
llvm_here() {
    { [[ -x /usr/lib/llvm-19/bin/llvm-config && -x /usr/lib/llvm-19/bin/clang ]]; } ||
        { command -v llvm-config-19 && command -v clang-19; } >/dev/null 2>&1
}
if [[ -n "${LLVM_SYS_191_PREFIX:-}" ]]; then
    echo "LLVM_SYS_191_PREFIX=$LLVM_SYS_191_PREFIX: the build looks for LLVM 19 there alone"
elif llvm_here; then
    echo "found"
elif as_root; then
    echo "installing llvm-19-dev and clang-19"
    apt_install llvm-19-dev clang-19
else
    echo "note: LLVM 19 is missing and this is not root: the build leaves the LLVM backend out" >&2
fi

echo "== the VS Code extension's npm packages (editors/vscode/node_modules)"
# Installed again only when the lock file changes.
lock=editors/vscode/package-lock.json
stamp=editors/vscode/node_modules/.installed-lock.json
if ! cmp -s "$lock" "$stamp"; then
    (cd editors/vscode && npm ci --no-audit --no-fund --loglevel=error)
    cp "$lock" "$stamp"
fi

echo "== Chromium"
if command -v chromium >/dev/null 2>&1; then
    echo "found"
elif as_root; then
    echo "installing chromium"
    apt_install chromium
else
    echo "note: chromium is missing and this is not root: the test of the HTML pages is skipped" >&2
fi

echo "== format"
cargo fmt --all -- --check
cargo fmt --manifest-path agreement/Cargo.toml -- --check
echo "== clippy"
cargo clippy --workspace --all-targets -- -D warnings
echo "== build"
cargo build --workspace
echo "== tests"
cargo test --workspace
echo "== the published crates on their rust-version (scripts/msrv.sh)"
scripts/msrv.sh
echo "== llguidance agreement (its own workspace: see agreement/Cargo.toml)"
CARGO_TARGET_DIR=target/agreement cargo test --manifest-path agreement/Cargo.toml
