"""The commands of ``isu``, called through its JSON interface (``--format json``)."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Union

from ._binary import find_isu
from ._diagnostics import Diagnostic, IsuError, IsuTimeout, diagnostics

Program = Union[str, "os.PathLike[str]"]
"""A program: its text (``str``), or the path of its file (``pathlib.Path``)."""


class _Flags:
    """Settings whose fields are isu's flags of the same names
    (``max_steps`` is ``--max-steps``); ``None`` keeps isu's default."""

    def flags(self) -> list[str]:
        out: list[str] = []
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if value is not None:
                out += ["--" + f.name.replace("_", "-"), str(value)]
        return out


@dataclass(frozen=True)
class Limits(_Flags):
    """The limits of a run (``spec/semantics.md`` 7)."""

    max_steps: int | None = None
    max_size: int | None = None
    max_memory: int | None = None


@dataclass(frozen=True)
class Budget(_Flags):
    """The budgets of a run of the generate/repair loop."""

    max_rounds: int | None = None
    max_total_tokens: int | None = None
    max_time: float | None = None


@dataclass(frozen=True)
class Model:
    """A chat-completion server (OpenAI-compatible) and the model to ask."""

    url: str
    model: str | None = None
    key: str | None = None


@dataclass(frozen=True)
class Formatted:
    text: str
    canonical: bool
    warnings: list[Diagnostic]


@dataclass(frozen=True)
class TestReport:
    examples: int
    passed: int
    failed: int
    outcome: str
    warnings: list[Diagnostic]


@dataclass(frozen=True)
class Patched:
    """The patched text, and the steps renumbered (old ID to new)."""

    text: str
    renumbered: dict[str, str]
    warnings: list[Diagnostic]


@dataclass(frozen=True)
class Fixed:
    """The fixed text, the fixes applied, and what is left (warnings)."""

    text: str
    changed: bool
    applied: list[dict[str, Any]]
    rounds: int
    left: list[Diagnostic]


@dataclass(frozen=True)
class Artifact:
    kind: str
    path: str
    bytes: int
    executable: bool


@dataclass(frozen=True)
class Built:
    target: str
    artifacts: list[Artifact]
    warnings: list[Diagnostic]


@dataclass(frozen=True)
class Generated:
    """A run of the generate/repair loop: the last program (``None`` when
    there was none), how the run ended, what was left wrong, and what it cost."""

    program: str | None
    status: str
    """``passed``, or how the run ended without a program that passes
    (``gave_up``, ``off_contract``, a budget spent, ...)."""
    rounds: list[dict[str, Any]]
    passed: int
    examples: int
    tokens: dict[str, int]
    errors: list[Diagnostic]
    report: dict[str, Any] = field(repr=False)


@dataclass(frozen=True)
class TaskResult:
    id: str
    status: str
    passed: bool
    hidden_passed: int
    hidden: int
    rounds: int
    passed_in_round: int | None
    tokens: int
    ms: int


@dataclass(frozen=True)
class EvalReport:
    """``isu eval``'s report: every task's result and the figures."""

    model: str
    tasks: list[TaskResult]
    summary: dict[str, Any]
    shard: dict[str, Any] | None
    report: dict[str, Any] = field(repr=False)

    @property
    def pass_at_1(self) -> float:
        return float(self.summary.get("pass_at_1", 0.0))


@dataclass(frozen=True)
class Record:
    """A record of the lessons memory, as the store keeps it."""

    id: str
    kind: str
    record: dict[str, Any]
    created_at: str
    updated_at: str


def _invoke(
    args: Sequence[str],
    *,
    stdin: str | None = None,
    timeout: float | None = None,
    cwd: str | os.PathLike[str] | None = None,
    plugins: str | os.PathLike[str] | None = None,
    ok_field: str = "ok",
) -> dict[str, Any]:
    """Runs ``isu ARGS --format json``; its report, or an ``IsuError``."""
    command = [find_isu()]
    if plugins is not None:
        command += ["--plugins", os.fspath(plugins)]
    command += list(args) + ["--format", "json"]
    try:
        done = subprocess.run(
            command,
            check=False,
            input=stdin if stdin is not None else "",
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=None if cwd is None else os.fspath(cwd),
        )
    except subprocess.TimeoutExpired:
        # isu said nothing: the call was stopped from here.
        raise IsuTimeout(f"isu {args[0]} took more than {timeout} s and was stopped", [], -1, {}) from None
    try:
        report = json.loads(done.stdout)
    except ValueError:
        report = None
    if not isinstance(report, dict):
        # No JSON document: isu itself failed (it crashed, or is not isu).
        said = (done.stderr or done.stdout).strip()
        raise IsuError(f"isu {args[0]} printed no report (exit {done.returncode}): {said}", [], done.returncode, {})
    if not report.get(ok_field, False) or done.returncode not in (0,):
        found = diagnostics(report) or [
            Diagnostic.from_json(e) for e in report.get("errors") or [] if isinstance(e, dict)
        ]
        first = next((d for d in found if d.is_error), found[0] if found else None)
        message = str(first) if first else f"isu {args[0]} failed (exit {done.returncode})"
        raise IsuError(message, found, done.returncode, report)
    return report


def _program(program: Program) -> tuple[str, str | None]:
    """The file argument and standard input of a program."""
    if isinstance(program, str):
        return "-", program
    return os.fspath(program), None


def _warnings(report: Mapping[str, Any]) -> list[Diagnostic]:
    return diagnostics(dict(report))


def _settings(settings: Mapping[str, str] | None) -> list[str]:
    out: list[str] = []
    for name, value in (settings or {}).items():
        out += ["--set", f"{name}={value}"]
    return out


def check(
    program: Program, *, timeout: float | None = None, plugins: str | os.PathLike[str] | None = None
) -> list[Diagnostic]:
    """Parses, canonicalizes and validates; the warnings, or an ``IsuError``
    carrying every error."""
    file, text = _program(program)
    return _warnings(_invoke(["check", file], stdin=text, timeout=timeout, plugins=plugins))


def fmt(program: Program, *, timeout: float | None = None, plugins: str | os.PathLike[str] | None = None) -> Formatted:
    """The canonical text of a program."""
    file, text = _program(program)
    r = _invoke(["fmt", file], stdin=text, timeout=timeout, plugins=plugins)
    return Formatted(text=r["text"], canonical=bool(r.get("canonical")), warnings=_warnings(r))


def run(
    program: Program,
    args: Mapping[str, Any] | None = None,
    *,
    target: str | None = None,
    settings: Mapping[str, str] | None = None,
    limits: Limits = Limits(),
    timeout: float | None = None,
    backend_timeout: float | None = None,
    plugins: str | os.PathLike[str] | None = None,
) -> Any:
    """Runs a program on ``args`` (the reference interpreter, or ``target``'s
    backend); its result. A runtime error is an ``IsuError`` whose
    diagnostic names the step."""
    file, text = _program(program)
    with tempfile.TemporaryDirectory() as tmp:
        # Through a file: arguments of any size.
        given = Path(tmp) / "args.json"
        given.write_text(json.dumps(dict(args or {})), encoding="utf-8")
        argv = ["run", file, "--args", f"@{given}"] + limits.flags()
        if target:
            argv += ["--target", target] + _settings(settings)
        if backend_timeout is not None:
            argv += ["--timeout", str(backend_timeout)]
        return _invoke(argv, stdin=text, timeout=timeout, plugins=plugins).get("value")


def test(
    program: Program,
    *,
    target: str | None = None,
    settings: Mapping[str, str] | None = None,
    limits: Limits = Limits(),
    timeout: float | None = None,
    plugins: str | os.PathLike[str] | None = None,
) -> TestReport:
    """Runs the program's IO examples; a failing one is an ``IsuError`` with
    a ``TestFail`` diagnostic."""
    file, text = _program(program)
    argv = ["test", file] + limits.flags()
    if target:
        argv += ["--target", target] + _settings(settings)
    r = _invoke(argv, stdin=text, timeout=timeout, plugins=plugins)
    return TestReport(
        examples=int(r.get("examples", 0)),
        passed=int(r.get("passed", 0)),
        failed=int(r.get("failed", 0)),
        outcome=str(r.get("outcome", "")),
        warnings=_warnings(r),
    )


def patch(
    program: Program, patch: str, *, timeout: float | None = None, plugins: str | os.PathLike[str] | None = None
) -> Patched:
    """Applies a patch (``PATCH:`` then entries) and re-validates."""
    file, text = _program(program)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "patch.isu"
        path.write_text(patch, encoding="utf-8")
        r = _invoke(["patch", file, str(path)], stdin=text, timeout=timeout, plugins=plugins)
    return Patched(text=r["text"], renumbered=dict(r.get("renumbered") or {}), warnings=_warnings(r))


def fix(program: Program, *, timeout: float | None = None, plugins: str | os.PathLike[str] | None = None) -> Fixed:
    """Applies every machine-applicable fix, to a fixed point."""
    file, text = _program(program)
    r = _invoke(["fix", file], stdin=text, timeout=timeout, plugins=plugins)
    return Fixed(
        text=r["text"],
        changed=bool(r.get("changed")),
        applied=list(r.get("applied") or []),
        rounds=int(r.get("rounds", 0)),
        left=_warnings(r),
    )


def build(
    program: Program,
    target: str,
    out: str | os.PathLike[str],
    *,
    emit: Iterable[str] = (),
    settings: Mapping[str, str] | None = None,
    timeout: float | None = None,
    plugins: str | os.PathLike[str] | None = None,
) -> Built:
    """Compiles through ``target``'s backend into the folder (or file) ``out``."""
    file, text = _program(program)
    argv = ["build", file, "--target", target, "-o", os.fspath(out)] + _settings(settings)
    for kind in emit:
        argv += ["--emit", kind]
    r = _invoke(argv, stdin=text, timeout=timeout, plugins=plugins)
    artifacts = [
        Artifact(kind=a["kind"], path=a["path"], bytes=int(a["bytes"]), executable=bool(a["executable"]))
        for a in r.get("artifacts") or []
    ]
    return Built(target=str(r.get("target", target)), artifacts=artifacts, warnings=_warnings(r))


def _model_flags(model: Model | None, replies: str | os.PathLike[str] | Sequence[str] | None, tmp: str) -> list[str]:
    if (model is None) == (replies is None):
        raise ValueError("give a model (isu.Model(url, model, key)) or replies, one of them")
    if model is not None:
        argv = ["--url", model.url]
        if model.model:
            argv += ["--model", model.model]
        if model.key:
            argv += ["--key", model.key]
        return argv
    if isinstance(replies, (list, tuple)):
        path = Path(tmp) / "replies.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in replies), encoding="utf-8")
        return ["--replies", str(path)]
    return ["--replies", os.fspath(replies)]  # type: ignore[arg-type]


def _log(log: str | os.PathLike[str] | None, tmp: str) -> str:
    """Where the loop's event log goes: ``log``, else a file dropped after the call."""
    return os.fspath(log) if log is not None else str(Path(tmp) / "run.log.jsonl")


def _generated(r: dict[str, Any]) -> Generated:
    return Generated(
        program=r.get("program"),
        status=str(r.get("status", "")),
        rounds=list(r.get("rounds") or []),
        passed=int(r.get("passed", 0)),
        examples=int(r.get("examples", 0)),
        tokens=dict(r.get("tokens") or {}),
        errors=[Diagnostic.from_json(e) for e in r.get("errors") or [] if isinstance(e, dict)],
        report=r,
    )


def _loop(
    argv: list[str], stdin: str | None, timeout: float | None, plugins: str | os.PathLike[str] | None
) -> Generated:
    """A run of the loop: its outcome however it ended (its ``status``); an
    ``IsuError`` only when the loop could not run (a bad flag, a task the
    checks refuse, a server that cannot be reached)."""
    try:
        return _generated(_invoke(argv, stdin=stdin, timeout=timeout, plugins=plugins))
    except IsuTimeout:
        raise
    except IsuError as e:
        if "status" in e.report:
            return _generated(e.report)
        raise


def gen(
    words: str,
    *,
    name: str,
    args: str = "",
    returns: str,
    examples: Sequence[tuple[Mapping[str, Any], Any]] = (),
    model: Model | None = None,
    replies: str | os.PathLike[str] | Sequence[str] | None = None,
    budget: Budget = Budget(),
    log: str | os.PathLike[str] | None = None,
    timeout: float | None = None,
    plugins: str | os.PathLike[str] | None = None,
) -> Generated:
    """Writes a program from ``words`` with a model (or scripted ``replies``),
    repairing it until it passes its ``examples`` (pairs of arguments and
    result). A run that ends without a program is returned, with its status.
    ``log`` keeps the run's event log (``isu replay`` runs it again)."""
    with tempfile.TemporaryDirectory() as tmp:
        argv = ["gen", words, "--name", name, "--args", args, "--returns", returns, "--log", _log(log, tmp)]
        for given, result in examples:
            argv += ["--example", f"{json.dumps(dict(given))}=>{json.dumps(result)}"]
        argv += _model_flags(model, replies, tmp) + budget.flags()
        return _loop(argv, None, timeout, plugins)


def repair(
    program: Program,
    *,
    model: Model | None = None,
    replies: str | os.PathLike[str] | Sequence[str] | None = None,
    budget: Budget = Budget(),
    log: str | os.PathLike[str] | None = None,
    timeout: float | None = None,
    plugins: str | os.PathLike[str] | None = None,
) -> Generated:
    """Repairs a program with a model (or scripted ``replies``) until it
    passes its IO examples."""
    file, text = _program(program)
    with tempfile.TemporaryDirectory() as tmp:
        argv = ["repair", file, "--log", _log(log, tmp)] + _model_flags(model, replies, tmp) + budget.flags()
        return _loop(argv, text, timeout, plugins)


def _eval_report(r: dict[str, Any]) -> EvalReport:
    fields = TaskResult.__dataclass_fields__
    return EvalReport(
        model=str(r.get("model", "")),
        tasks=[TaskResult(**{k: t.get(k) for k in fields}) for t in r.get("tasks") or []],
        summary=dict(r.get("summary") or {}),
        shard=r.get("shard"),
        report=r,
    )


def eval(
    tasks: str | os.PathLike[str],
    model: Model,
    *,
    jobs: int = 1,
    shard: tuple[int, int] | None = None,
    budget: Budget = Budget(),
    timeout: float | None = None,
    plugins: str | os.PathLike[str] | None = None,
) -> EvalReport:
    """Runs a task file (JSON Lines) through the model; pass@1 and the repair
    figures. ``shard=(i, n)`` runs shard i of n (1-based)."""
    with tempfile.TemporaryDirectory() as tmp:
        argv = ["eval", os.fspath(tasks), "--jobs", str(jobs)] + _model_flags(model, None, tmp)
        if shard is not None:
            argv += ["--shard", f"{shard[0]}/{shard[1]}"]
        argv += budget.flags()
        return _eval_report(_invoke(argv, timeout=timeout, plugins=plugins, ok_field="model"))


def eval_merge(reports: Sequence[str | os.PathLike[str]], *, timeout: float | None = None) -> EvalReport:
    """One report from the JSON reports of every shard of a run: the report
    of the whole run."""
    argv = ["eval", "--merge"] + [os.fspath(r) for r in reports]
    return _eval_report(_invoke(argv, timeout=timeout, ok_field="model"))


def _store_flags(store: str | None, root: str | os.PathLike[str] | None) -> list[str]:
    out: list[str] = []
    if store is not None:
        out += ["--store", store]
    if root is not None:
        out += ["--root", os.fspath(root)]
    return out


def _record(r: Mapping[str, Any]) -> Record:
    return Record(
        id=r["id"], kind=r["kind"], record=dict(r["record"]), created_at=r["created_at"], updated_at=r["updated_at"]
    )


def memory_add(
    records: Iterable[Mapping[str, Any]],
    *,
    store: str | None = None,
    root: str | os.PathLike[str] | None = None,
    timeout: float | None = None,
) -> list[Record]:
    """Adds records (JSON objects) to the lessons memory; the records kept."""
    lines = "".join(json.dumps(dict(r)) + "\n" for r in records)
    r = _invoke(["memory", "add", "-"] + _store_flags(store, root), stdin=lines, timeout=timeout, cwd=root)
    return [_record(x) for x in r.get("added") or []]


def memory_query(
    *,
    text: str | None = None,
    kind: str | None = None,
    where: Mapping[str, Any] | None = None,
    limit: int | None = None,
    store: str | None = None,
    root: str | os.PathLike[str] | None = None,
    timeout: float | None = None,
) -> list[Record]:
    """The records that match, newest first."""
    argv = ["memory", "query"] + _store_flags(store, root)
    if text is not None:
        argv += ["--text", text]
    if kind is not None:
        argv += ["--kind", kind]
    for name, value in (where or {}).items():
        argv += ["--where", f"{name}={json.dumps(value)}"]
    if limit is not None:
        argv += ["--limit", str(limit)]
    r = _invoke(argv, timeout=timeout, cwd=root)
    return [_record(x) for x in r.get("records") or []]
