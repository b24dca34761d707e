"""Isu from Python: the ``isu`` binary's commands, typed.

Every function runs the ``isu`` installed with this package (or ``$ISU_BIN``)
with ``--format json`` and returns dataclasses; a command that fails raises
``IsuError``, whose ``diagnostics`` are ``Diagnostic`` dataclasses with
stable codes (``spec/errors.md``). ``timeout`` (seconds) stops a call that
takes longer, raising ``IsuTimeout``; ``Limits`` bounds a run's steps, sizes
and memory, ``Budget`` a model run's rounds, tokens and time. A program is
its text (``str``) or its file (``pathlib.Path``).

    import isu
    isu.run(Path("sum_evens.isu"), {"xs": [1, 2, 3, 4]})  # 6
"""

from ._api import (
    Artifact,
    Budget,
    Built,
    EvalReport,
    Fixed,
    Formatted,
    Generated,
    Limits,
    Model,
    Patched,
    Program,
    Record,
    TaskResult,
    TestReport,
    build,
    check,
    eval,
    eval_merge,
    fix,
    fmt,
    gen,
    memory_add,
    memory_query,
    patch,
    repair,
    run,
    test,
)
from ._binary import find_isu
from ._diagnostics import Diagnostic, IsuError, IsuTimeout, Span

__all__ = [
    "Artifact",
    "Budget",
    "Built",
    "Diagnostic",
    "EvalReport",
    "Fixed",
    "Formatted",
    "Generated",
    "IsuError",
    "IsuTimeout",
    "Limits",
    "Model",
    "Patched",
    "Program",
    "Record",
    "Span",
    "TaskResult",
    "TestReport",
    "build",
    "check",
    "eval",
    "eval_merge",
    "find_isu",
    "fix",
    "fmt",
    "gen",
    "memory_add",
    "memory_query",
    "patch",
    "repair",
    "run",
    "test",
]
