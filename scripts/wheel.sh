#!/usr/bin/env bash
# Writes Isu's platform wheel into DIR: isu-VERSION-py3-none-PLATFORM.whl,
# holding the `isu` binary (installed on the PATH), its plugins (installed in
# PREFIX/lib/isu/plugins, beside PREFIX/bin, where isu looks for them) and the
# typed Python package `isu` (python/isu), for Python 3.9 and later.
#
#   pip install DIR/isu-*.whl
#
# It packages the folder scripts/dist.sh makes, so it takes dist.sh's options:
# Usage: scripts/wheel.sh [--profile PROFILE] [--no-build] [--without NAME]... DIR
#   --no-build  package the build that is there (as CI does, from its one
#               cargo build) instead of running `cargo build` first
set -euo pipefail

usage() {
    echo "usage: scripts/wheel.sh [--profile PROFILE] [--no-build] [--without NAME]... DIR" >&2
    exit 2
}
pass=()
out=
while [ $# -gt 0 ]; do
    case "$1" in
        --profile | --without) [ $# -ge 2 ] || usage; pass+=("$1" "$2"); shift 2 ;;
        --no-build) pass+=("$1"); shift ;;
        -h | --help) usage ;;
        -*) echo "wheel.sh: unknown option $1" >&2; usage ;;
        *) [ -z "$out" ] || usage; out=$1; shift ;;
    esac
done
[ -n "$out" ] || usage

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$root/scripts/dist.sh" ${pass[@]+"${pass[@]}"} "$work/isu" >/dev/null
python3 "$root/scripts/wheel.py" "$work/isu" "$out"
