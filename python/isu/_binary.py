"""Finding the ``isu`` binary this package drives."""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path

EXE = "isu.exe" if sys.platform == "win32" else "isu"


def _candidates() -> list[Path]:
    found: list[Path] = []
    # The scripts folder of this interpreter's install schemes: where pip put
    # the wheel's binary (a venv's bin, the system's, or the user's).
    names = sysconfig.get_scheme_names()
    default = sysconfig.get_default_scheme() if hasattr(sysconfig, "get_default_scheme") else None
    schemes = [default] + [s for s in (f"{os.name}_user", "osx_framework_user") if s in names]
    for scheme in schemes:
        try:
            found.append(Path(sysconfig.get_path("scripts", scheme) if scheme else sysconfig.get_path("scripts")) / EXE)
        except KeyError:
            pass
    # Beside the package, whatever the interpreter: PREFIX/bin for
    # PREFIX/lib/pythonX.Y/site-packages/isu (a --target or --prefix install).
    here = Path(__file__).resolve().parent
    for up in list(here.parents)[:4]:
        found.append(up / "bin" / EXE)
    return found


def find_isu() -> str:
    """The path of the ``isu`` binary: ``$ISU_BIN``, else the one installed
    with this package, else ``isu`` on the PATH.

    Raises ``FileNotFoundError`` naming where it looked when there is none.
    """
    named = os.environ.get("ISU_BIN")
    if named:
        if not Path(named).is_file():
            raise FileNotFoundError(f"ISU_BIN is {named}, which is not a file")
        return named
    candidates = _candidates()
    for path in candidates:
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    on_path = shutil.which("isu")
    if on_path:
        return on_path
    looked = ", ".join(str(p) for p in candidates)
    raise FileNotFoundError(
        f"no isu binary: not in {looked}, nor on the PATH; install the wheel (`pip install isu-*.whl`) or set ISU_BIN"
    )
