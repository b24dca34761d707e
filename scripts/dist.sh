#!/usr/bin/env bash
# Writes a relocatable folder of isu, and an archive of it:
#
#   DIR/bin/isu
#   DIR/lib/isu/plugins/plugins.toml     the default manifest (host/src/plugins/default-plugins.toml)
#   DIR/lib/isu/plugins/lib*.so          the plugins it names (.dylib on macOS)
#   DIR/share/isu/conformance/           the conformance cases (also built into isu)
#   DIR/share/isu/spec/                  the specification
#   DIR/share/isu/crates/NAME-VERSION/   isu_plugin_api and isu_lang as they would be
#                                        published (`cargo package`), which the crates
#                                        of `isu plugins new` build against
#   DIR.tar.gz                           all of it, under the folder's name
#
# isu finds its plugins beside itself (BIN/../lib/isu/plugins), so the folder
# works wherever it is moved or unpacked (spec/plugin-abi.md, "Discovery").
#
# Usage: scripts/dist.sh [--profile PROFILE] [--no-build] [--without NAME]... DIR
#   --profile PROFILE  the cargo profile to package (default: release)
#   --no-build         package what is built already instead of running
#                      `cargo build --profile PROFILE` (the target folder is
#                      $CARGO_TARGET_DIR, else target/)
#   --without NAME     leave the plugin NAME out of the folder and its manifest
#                      (e.g. `--without llvm`); repeatable. A plugin the build
#                      left out (the LLVM backend where LLVM 19 is missing) is
#                      left out without being named, with a notice
set -euo pipefail

usage() {
    echo "usage: scripts/dist.sh [--profile PROFILE] [--no-build] [--without NAME]... DIR (see the top of the script)" >&2
    exit 2
}

profile=release
build=1
dir=
without=()
while [ $# -gt 0 ]; do
    case "$1" in
        --profile) [ $# -ge 2 ] || usage; profile=$2; shift 2 ;;
        --no-build) build=0; shift ;;
        --without) [ $# -ge 2 ] || usage; without+=("$2"); shift 2 ;;
        -h | --help) usage ;;
        -*) echo "dist.sh: unknown option $1" >&2; usage ;;
        *) [ -z "$dir" ] || usage; dir=$1; shift ;;
    esac
done
[ -n "$dir" ] || usage

root=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
case "$profile" in
    dev | test) built=$target/debug ;;
    release | bench) built=$target/release ;;
    *) built=$target/$profile ;;
esac
case "$(uname -s)" in
    Darwin) lib_prefix=lib lib_suffix=.dylib ;;
    *) lib_prefix=lib lib_suffix=.so ;;
esac

if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
    echo "dist.sh: $dir is not empty; name a new folder" >&2
    exit 1
fi

# Each plugin left out is a crate the build leaves out too (`file` is the
# crate's name).
excluded=()
for name in ${without[@]+"${without[@]}"}; do
    crate=$(awk -v n="$name" '
        /^\[\[plugin\]\]/ { cur = "" }
        /^name = "/ { cur = $0 }
        /^file = "/ && cur == "name = \"" n "\"" { f = $0; sub(/^file = "/, "", f); sub(/".*$/, "", f); print f }
    ' "$root/host/src/plugins/default-plugins.toml")
    if [ -z "$crate" ]; then
        echo "dist.sh: --without $name: isu ships no plugin of that name" >&2
        exit 2
    fi
    excluded+=(--exclude "$crate")
done

if [ "$build" = 1 ]; then
    (cd "$root" && cargo build --workspace ${excluded[@]+"${excluded[@]}"} --profile "$profile")
fi

# A plugin whose crate the build left out (the LLVM backend on a machine
# without LLVM 19: its library holds the reason, not the plugin) is left out
# of the folder too, with the build's reason. The built isu says which: it
# refuses such a plugin as missing though its file is there.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
(cd "$scratch" && env -u ISU_PLUGINS HOME="$scratch" XDG_CONFIG_HOME="$scratch" \
    "$built/isu" plugins --format json >"$scratch/plugins.json") || true
while IFS=$'\t' read -r name reason; do
    [ -n "$name" ] || continue
    echo "dist.sh: leaving out the plugin $name: $reason" >&2
    without+=("$name")
done < <(python3 - "$scratch/plugins.json" <<'PY'
import json, os, sys
try:
    plugins = json.load(open(sys.argv[1])).get("plugins", [])
except (OSError, ValueError):
    plugins = []
for p in plugins:
    error = p.get("error") or {}
    if p.get("status") == "refused" and error.get("code") == "missing_file" and os.path.isfile(p.get("file", "")):
        print(f"{p['name']}\t{error.get('message', '')}")
PY
)

# The default manifest without the plugins left out: each `[[plugin]]` block
# runs to the next one (or the end), and goes when its name is left out.
shipped=$(awk -v names=" ${without[*]:-} " '
    /^\[\[plugin\]\]/ { flush(); inblock = 1; block = $0 "\n"; drop = 0; next }
    inblock && /^name = "/ { n = $0; sub(/^name = "/, "", n); sub(/".*$/, "", n); if (index(names, " " n " ")) drop = 1 }
    inblock { block = block $0 "\n"; next }
    { printf "%s\n", $0 }
    function flush() { if (inblock && !drop) printf "%s", block; inblock = 0; block = "" }
    END { flush() }
' "$root/host/src/plugins/default-plugins.toml")

mkdir -p "$dir/bin" "$dir/lib/isu/plugins" "$dir/share/isu/conformance"
dir=$(cd "$dir" && pwd)
cp "$built/isu" "$dir/bin/isu"
printf '%s\n' "$shipped" >"$dir/lib/isu/plugins/plugins.toml"
for crate in $(printf '%s\n' "$shipped" | sed -n 's/^file = "\(.*\)"$/\1/p'); do
    library=$built/$lib_prefix$crate$lib_suffix
    if [ ! -f "$library" ]; then
        echo "dist.sh: $library is not built (run \`cargo build --workspace --profile $profile\`)" >&2
        exit 1
    fi
    cp "$library" "$dir/lib/isu/plugins/"
done
cp -R "$root/conformance/cases" "$root/conformance/README.md" "$dir/share/isu/conformance/"
cp -R "$root/spec" "$dir/share/isu/spec"
cp "$root/README.md" "$dir/share/isu/README.md"

# The crates a plugin builds against, at the version this isu speaks, as
# `cargo package` makes them (workspace fields resolved, paths gone), so a
# crate made by `isu plugins new` builds with no Isu repository on the
# machine (spec/plugin-abi.md, "Discovery").
packaged=$(mktemp -d)
(cd "$root" && cargo package --quiet --no-verify --allow-dirty \
    -p isu_lang -p isu_plugin_api --target-dir "$packaged")
mkdir -p "$dir/share/isu/crates"
for krate in "$packaged"/package/*.crate; do
    tar -xzf "$krate" -C "$dir/share/isu/crates"
done
rm -rf "$packaged"

# The folder must load every plugin it ships, with no manifest of this
# machine's user or of the current folder in the way.
if ! (cd "$scratch" && env -u ISU_PLUGINS HOME="$scratch" XDG_CONFIG_HOME="$scratch" \
    "$dir/bin/isu" plugins verify >"$scratch/verify.txt"); then
    cat "$scratch/verify.txt" >&2
    echo "dist.sh: $dir/bin/isu does not load its plugins" >&2
    exit 1
fi

archive=$dir.tar.gz
name=$(basename "$dir")
if tar --version 2>/dev/null | grep -q 'GNU tar'; then
    # The same build gives the same archive: sorted, no times or owners.
    tar -C "$(dirname "$dir")" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
        -cf - "$name" | gzip -n >"$archive"
else
    tar -C "$(dirname "$dir")" -cf - "$name" | gzip -n >"$archive"
fi
echo "wrote $dir and $archive"
