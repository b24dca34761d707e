#!/usr/bin/env bash
# The published crates (isu_lang, isu_plugin_api) built with the oldest Rust
# their `rust-version` names (1.70), as a plugin author would build them: each
# packaged as crates.io would hold it (`cargo package`), unpacked into a
# workspace of its own under target/msrv, with the dependency versions of
# scripts/msrv/Cargo.lock, which Rust 1.70 builds.
#
# rustup installs the toolchain when it is missing. `scripts/msrv.sh --update`
# resolves that lock file again, preferring the newest versions whose own
# `rust-version` allows 1.70 (cargo's MSRV-aware resolver) and serde 1.0.228,
# the last whose derive builds with syn 2 (serde_derive 1.0.229 takes syn 3,
# which needs Rust 1.71); run it when a dependency of the crates changes.
set -euo pipefail
cd "$(dirname "$0")/.."
msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' plugin-api/Cargo.toml)
if [[ "$(sed -n 's/^rust-version = "\(.*\)"/\1/p' lang/Cargo.toml)" != "$msrv" ]]; then
    echo "lang and plugin-api name different rust-versions" >&2
    exit 1
fi
rustup toolchain list | grep -q "^$msrv" ||
    rustup toolchain install "$msrv" --profile minimal --no-self-update
out=target/msrv
rm -rf "$out/ws"
mkdir -p "$out/ws"
cargo package --quiet -p isu_lang -p isu_plugin_api --no-verify --allow-dirty --target-dir "$out/package"
for c in "$out"/package/package/isu_lang-*.crate "$out"/package/package/isu_plugin_api-*.crate; do
    tar xzf "$c" -C "$out/ws"
done
lang=$(cd "$out/ws" && ls -d isu_lang-*)
api=$(cd "$out/ws" && ls -d isu_plugin_api-*)
cat >"$out/ws/Cargo.toml" <<TOML
[workspace]
members = ["$lang", "$api"]
resolver = "2"

[patch.crates-io]
isu_lang = { path = "$lang" }
TOML
if [[ "${1:-}" == "--update" ]]; then
    (
        cd "$out/ws"
        export CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback
        cargo generate-lockfile --quiet
        cargo update --quiet -p serde --precise 1.0.228
        cargo update --quiet -p serde_derive --precise 1.0.228
        # Rust 1.70's cargo reads lock files of version 3.
        sed -i 's/^version = 4$/version = 3/' Cargo.lock
    )
    cp "$out/ws/Cargo.lock" scripts/msrv/Cargo.lock
else
    cp scripts/msrv/Cargo.lock "$out/ws/Cargo.lock"
fi
# Cargo 1.70 warns of the manifest keys it does not know yet (`lints`).
log="$out/build.log"
if ! (cd "$out/ws" && cargo "+$msrv" build --locked --quiet -p isu_lang -p isu_plugin_api) 2>"$log"; then
    cat "$log" >&2
    exit 1
fi
grep -v 'unused manifest key' "$log" >&2 || true
echo "isu_lang and isu_plugin_api build with Rust $msrv"
