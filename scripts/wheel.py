"""Assembles Isu's platform wheel from a folder of scripts/dist.sh.

    python3 scripts/wheel.py DIST_FOLDER OUT_DIR

The wheel holds the Python package (python/isu), the binary as a script
(installed into the environment's bin folder, so `isu` is on the PATH) and
the plugins as data under lib/isu/plugins (and share/isu, with the plugin API's
crates) which pip installs beside that bin
folder: the layout isu searches (BIN/../lib/isu/plugins). The same inputs give
the same bytes: entries sorted, times fixed.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import stat
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path
from typing import List, Tuple

ROOT = Path(__file__).resolve().parent.parent
NAME = "isu"
EPOCH = (1980, 1, 1, 0, 0, 0)


def version() -> str:
    text = (ROOT / "Cargo.toml").read_text(encoding="utf-8")
    m = re.search(r'^\[workspace\.package\][^\[]*?^version = "([^"]+)"', text, re.M | re.S)
    if not m:
        sys.exit("wheel.py: no [workspace.package] version in Cargo.toml")
    return m.group(1)


def platform_tag() -> str:
    # This machine's platform: the binary is built for it and its C library.
    return re.sub(r"[-.]", "_", sysconfig.get_platform())


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def metadata(ver: str) -> str:
    readme = (ROOT / "python" / "README.md").read_text(encoding="utf-8")
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {NAME}\n"
        f"Version: {ver}\n"
        "Summary: Isu: programs that language models write, parsed, checked, run, repaired and compiled\n"
        "License: MIT OR Apache-2.0\n"
        "Requires-Python: >=3.9\n"
        "Classifier: Programming Language :: Python :: 3\n"
        "Classifier: Typing :: Typed\n"
        "Description-Content-Type: text/markdown\n"
        "\n" + readme
    )


def main(argv: List[str]) -> int:
    if len(argv) != 3:
        print("usage: python3 scripts/wheel.py DIST_FOLDER OUT_DIR", file=sys.stderr)
        return 2
    dist, out = Path(argv[1]), Path(argv[2])
    binary = dist / "bin" / "isu"
    plugins = dist / "lib" / "isu" / "plugins"
    if not binary.is_file() or not plugins.is_dir():
        print(f"wheel.py: {dist} is not a folder of scripts/dist.sh (no bin/isu, lib/isu/plugins)", file=sys.stderr)
        return 1
    ver = version()
    reported = subprocess.run([str(binary), "--version"], capture_output=True, text=True).stdout.split()
    if reported[-1:] != [ver]:
        print(f"wheel.py: {binary} says {' '.join(reported)!r}, Cargo.toml {ver}", file=sys.stderr)
        return 1
    tag = f"py3-none-{platform_tag()}"
    data = f"{NAME}-{ver}.data"
    info = f"{NAME}-{ver}.dist-info"
    entries: List[Tuple[str, bytes, bool]] = []
    package = ROOT / "python" / "isu"
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            entries.append((f"isu/{path.relative_to(package).as_posix()}", path.read_bytes(), False))
    entries.append((f"{data}/scripts/isu", binary.read_bytes(), True))
    for path in sorted(plugins.iterdir()):
        if path.is_file():
            entries.append((f"{data}/data/lib/isu/plugins/{path.name}", path.read_bytes(), False))
    # share/isu: the documentation and the plugin API's crates, which
    # `isu plugins new` finds at BIN/../share/isu/crates.
    share = dist / "share" / "isu"
    if share.is_dir():
        for path in sorted(share.rglob("*")):
            if path.is_file():
                rel = path.relative_to(share).as_posix()
                entries.append((f"{data}/data/share/isu/{rel}", path.read_bytes(), False))
    entries.append((f"{info}/METADATA", metadata(ver).encode(), False))
    wheel = f"Wheel-Version: 1.0\nGenerator: isu scripts/wheel.py\nRoot-Is-Purelib: false\nTag: {tag}\n"
    entries.append((f"{info}/WHEEL", wheel.encode(), False))
    record = [record_line(n, d) for n, d, _ in entries] + [f"{info}/RECORD,,"]
    entries.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode(), False))

    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{NAME}-{ver}-{tag}.whl"
    tmp = target.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, content, executable in entries:
            zi = zipfile.ZipInfo(name, EPOCH)
            mode = 0o755 if executable else 0o644
            zi.external_attr = (stat.S_IFREG | mode) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, content)
    os.replace(tmp, target)
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
