"""Diagnostics as dataclasses, and the exceptions that carry them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Span:
    """Where in the text: 1-based line and column, byte offsets start..end."""

    line: int
    column: int
    start: int
    end: int


@dataclass(frozen=True)
class Diagnostic:
    """One error or warning, in the shape of ``spec/errors.md``.

    ``kind`` is ``ParseError``, ``StaticError``, ``RuntimeError``,
    ``TestFail``, ``UsageError`` and the like; ``code`` is stable
    (``spec/errors.md`` lists every one). ``extra`` holds the fields this
    class does not name (``expected``, ``actual``, ``fixes``, ...).
    """

    code: str
    kind: str
    message: str
    severity: str = "error"
    step: str | None = None
    span: Span | None = None
    hint: str | None = None
    vars: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    @staticmethod
    def from_json(d: dict[str, Any]) -> Diagnostic:
        known = {"code", "kind", "message", "severity", "step", "span", "hint", "vars"}
        span = d.get("span")
        return Diagnostic(
            code=str(d.get("code", "")),
            kind=str(d.get("kind", "")),
            message=str(d.get("message", "")),
            severity=str(d.get("severity", "error")),
            step=d.get("step"),
            span=Span(span["line"], span["column"], span["start"], span["end"]) if isinstance(span, dict) else None,
            hint=d.get("hint"),
            vars=list(d.get("vars") or []),
            extra={k: v for k, v in d.items() if k not in known},
        )

    def __str__(self) -> str:
        where = f" in step {self.step}" if self.step else ""
        at = f" at {self.span.line}:{self.span.column}" if self.span else ""
        return f"{self.severity}[{self.code}]{at}{where}: {self.message}"


def diagnostics(report: dict[str, Any]) -> list[Diagnostic]:
    """The diagnostics of a report of ``isu ... --format json``."""
    return [Diagnostic.from_json(d) for d in report.get("diagnostics") or [] if isinstance(d, dict)]


class IsuError(Exception):
    """A command of ``isu`` failed: its diagnostics, exit code and report.

    ``diagnostics`` is empty only when isu gave no report (it crashed) or was
    stopped (``IsuTimeout``); the message then says what happened."""

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic], exit_code: int, report: dict[str, Any]):
        super().__init__(message)
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        self.exit_code = exit_code
        self.report = report

    @property
    def codes(self) -> list[str]:
        """The codes of the diagnostics, in order."""
        return [d.code for d in self.diagnostics]


class IsuTimeout(IsuError):
    """``isu`` took longer than the call's ``timeout`` and was stopped (exit
    code -1, no diagnostics, no report)."""
