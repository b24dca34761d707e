# ---------------------------------------------------------------------------
# Isu runtime: the semantics of spec/semantics.md and spec/stdlib.md that
# Python does not give by itself. The generated function below uses plain
# Python where Python agrees with Isu and these helpers where it does not.
#
# Where an error happens: helpers raise IsuError without a step (or with the
# one the generated code passes them, `_overflow("add", "S2_1")`); the
# function records the step it runs in its local _step (`_step = "S2_1"`
# before a line of a step that may fail otherwise) and catches every error
# at its end, naming that step when the error names none.
# Python's own IndexError
# (an index past the end), KeyError (a missing map key), ZeroDivisionError
# and UnboundLocalError (a LOCAL read before assignment) become the Isu
# errors of the same meaning there.
# ---------------------------------------------------------------------------
from __future__ import annotations

import itertools as _itertools
import json as _json
import math as _math
import re as _re
import sys as _sys
# @struct-import (the dataclass decorator, in a module with structs)

# The default limits of a run, those of every Isu executor (written in when
# this module was generated): the step budget (each round of a LOOP spends
# one unit; a standard function, or an ASSIGN that copies, spends the lengths
# of the strings and collections it reads, builds or stores), and the most
# elements, entries or characters a value may hold; and the most the
# variables may hold together (each counts the size work counts of its value).
MAX_STEPS = @MAX_STEPS@
MAX_SIZE = @MAX_SIZE@
MAX_MEMORY = @MAX_MEMORY@

_INT_MIN = -9223372036854775808
_INT_MAX = 9223372036854775807


# The class _Code (every runtime error code of spec/errors.md, from the
# language's own table) and _RUNTIME_CODES (the codes a run can stop with)
# are generated here:
# @runtime-codes


class IsuError(Exception):
    """A runtime error of the Isu program: a stable code (spec/errors.md),
    the step ID it belongs to (None in a STATE initializer or for the
    arguments), and a message for people."""

    def __init__(self, code: str, message: str, step: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.step = step


def _overflow(op: str, step: str | None = None) -> None:
    raise IsuError(_Code.INT_OVERFLOW, f"the result of {op} does not fit in 64 bits", step)


def _index_error() -> None:
    raise IsuError(_Code.INDEX_OUT_OF_RANGE, "an array index outside 0..LEN")


def _step_limit(step: str | None = None) -> None:
    raise IsuError(_Code.STEP_LIMIT, "the run used up its step budget (loop rounds and work)", step)


def _out_of_work(_value: object) -> None:
    """step_limit for the work of a call the fuel did not cover, called with
    the call itself, so that the call's own error comes first."""
    _step_limit()


def _memory_limit(step: str | None = None) -> None:
    raise IsuError(_Code.MEMORY_LIMIT, "a store would make the variables hold more than the memory limit", step)


def _too_long(n: int, max_size: int, what: str) -> None:
    """A result of length n that is too long, or whose work the fuel did not cover."""
    if n > max_size:
        _size_limit(what)
    _step_limit()


def _size_limit(what: str, step: str | None = None) -> None:
    raise IsuError(_Code.SIZE_LIMIT, f"{what} would grow past the size limit", step)


def _list(xs: list, max_size: int) -> list:
    """The array of a (list ...), which is size_limit when longer than the size limit."""
    if len(xs) > max_size:
        _size_limit("(list ...)")
    return xs


def _pack_result(r, max_size: int, what: str):
    """A pack function's result, which is size_limit when longer than the
    size limit (spec/semantics.md 5.6), whatever the function checked itself."""
    if len(r) > max_size:
        _size_limit(what)
    return r


def _zero_step() -> None:
    raise IsuError(_Code.ZERO_STEP, "a range with the step 0")


def _div(a: int, b: int) -> int:
    """(div a b): the quotient truncated toward zero."""
    if b == 0:
        raise IsuError(_Code.DIVISION_BY_ZERO, f"(div {a} 0): division by zero")
    q = abs(a) // abs(b)
    if (a < 0) != (b < 0):
        return -q
    if q > _INT_MAX:
        _overflow(f"(div {a} {b})")
    return q


def _mod(a: int, b: int) -> int:
    """(mod a b): the remainder with the sign of the dividend."""
    if b == 0:
        raise IsuError(_Code.DIVISION_BY_ZERO, f"(mod {a} 0): division by zero")
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def _abs(a: int) -> int:
    if a == _INT_MIN:
        _overflow(f"ABS({a})")
    return abs(a)


def _range(start: int, end: int, step: int) -> range:
    """The rounds of (range i START END STEP) with a STEP known only at run time."""
    if step == 0:
        _zero_step()
    return range(start, end, step)


# The rounds of a `while` the fuel covers: _units(None, fuel) yields None
# (which makes no int) that many times, and its __length_hint__() tells how
# many are left when the loop stops.
_units = _itertools.repeat


def _rounds(r: range) -> int:
    """The number of rounds of a range, which may be too many for len()."""
    return (r.stop - r.start + r.step - (1 if r.step > 0 else -1)) // r.step if r else 0


# ---- floats: IEEE-754 binary64, Python's own float -------------------------
# Every value is finite: an operation whose result is not (overflow to an
# infinity, NaN) is float_not_finite. The generated code checks a result x
# inline as `x - x == 0.0`, false for both.


def _not_finite(op: str) -> None:
    raise IsuError(_Code.FLOAT_NOT_FINITE, f"the result of {op} is not a finite float")


def _to_int(x: float, f, name: str) -> int:
    """TRUNC, FLOOR, CEIL or ROUND (f: math.trunc, math.floor, math.ceil,
    round, which gives an int, half to even) of x, within 64 bits."""
    v = f(x)
    if _INT_MIN <= v <= _INT_MAX:
        return v
    raise IsuError(_Code.INT_OVERFLOW, f"{name}({x!r}) does not fit in 64 bits")


def _sqrt(x: float) -> float:
    if x < 0.0:
        raise IsuError(_Code.OUT_OF_DOMAIN, f"SQRT({x!r}): below zero")
    return _math.sqrt(x)


_BLANKS = " \t\n\r\x0b\x0c"
_DIGITS = "[0-9](?:_?[0-9])*"
_FLOAT_TEXT = _re.compile(f"[+-]?(?:{_DIGITS}(?:\\.(?:{_DIGITS})?)?|\\.{_DIGITS})(?:[eE][+-]?{_DIGITS})?")


def _parse_float(s: str) -> float:
    """PARSE_FLOAT: what float() reads of ASCII text, less inf and nan
    (float() would also read other Unicode digits and spaces)."""
    t = s.strip(_BLANKS)
    if _FLOAT_TEXT.fullmatch(t) is None:
        raise IsuError(_Code.INVALID_NUMBER, f"PARSE_FLOAT of {_json.dumps(s)}: not a decimal number")
    x = float(t)
    if x - x != 0.0:
        raise IsuError(_Code.FLOAT_NOT_FINITE, f"PARSE_FLOAT of {_json.dumps(s)}: beyond the float range")
    return x


def _uninitialized(name: str) -> None:
    raise IsuError(_Code.UNINITIALIZED_READ, f"`{name}` is read before any assignment to it")


def _push_into(xs: list, x: object, max_size: int) -> list:
    """PUSH on an array the caller owns: appends in place and returns it."""
    if len(xs) >= max_size:
        _size_limit("PUSH's result")
    xs.append(x)
    return xs


def _pop_empty() -> None:
    raise IsuError(_Code.EMPTY_COLLECTION, "POP of an empty array")


def _pop_from(xs: list) -> list:
    """POP on an array the caller owns: removes the last element in place."""
    if not xs:
        raise IsuError(_Code.EMPTY_COLLECTION, "POP of an empty array")
    del xs[-1]
    return xs


def _extend_into(xs: list, ys: list, max_size: int) -> list:
    """CONCAT of two arrays, the first owned by the caller: extends it in place."""
    if len(xs) + len(ys) > max_size:
        _size_limit("CONCAT's result")
    xs.extend(ys)
    return xs


def _map_set_into(m: dict, k: object, v: object, max_size: int) -> dict:
    """MAP_SET on a map the caller owns: sets the key in place."""
    if k not in m and len(m) >= max_size:
        _size_limit("MAP_SET's result")
    m[k] = v
    return m


def _size(ty, v) -> int:
    """The size work counts (spec/semantics.md 7) of v, of type ty: the
    characters of a string; the elements of an array plus their sizes; the
    entries of a map plus the sizes of their keys and values; the fields of
    a struct plus their sizes."""
    if ty == "string":
        return len(v)
    if type(ty) is str:
        return 0
    if ty[0] == "struct":
        _, fields, fixed = _STRUCTS[ty[1]]
        if fixed is not None:
            return fixed
        return len(fields) + sum(_size(t, getattr(v, a)) for _, a, t in fields)
    if ty[0] == "array":
        e = ty[1]
        if e == "string":
            return len(v) + sum(map(len, v))
        if type(e) is str:
            return len(v)
        return len(v) + sum(_size(e, x) for x in v)
    n = len(v)
    if ty[1] == "string":
        n += sum(map(len, v))
    t = ty[2]
    if t == "string":
        n += sum(map(len, v.values()))
    elif type(t) is not str:
        n += sum(_size(t, x) for x in v.values())
    return n


def _put(p, k, v, kty, vty, max_size: int, what: str) -> int:
    """p[k] = v, k an index of the list p already checked or a key of the
    dict p (a new key past the size limit fails), and how much the size of
    p grows by it (spec/semantics.md 7, the memory limit)."""
    if type(p) is list or k in p:
        d = _size(vty, v) - _size(vty, p[k])
    else:
        if len(p) >= max_size:
            _size_limit(what)
        d = 1 + _size(kty, k) + _size(vty, v)
    p[k] = v
    return d


def _popped(xs: list, ty) -> int:
    """POP of an array (of elements of type ty) the caller owns, in place,
    and how much its size shrinks by it: one and the size removed."""
    if not xs:
        _pop_empty()
    return 1 + _size(ty, xs.pop())


def _map_set_counted(m: dict, k: object, v: object, max_size: int, ty) -> tuple:
    """MAP_SET on a map the caller owns, and the size it had before (its work)."""
    n = _size(ty, m)
    return _map_set_into(m, k, v, max_size), n


def _pop_counted(xs: list, ty) -> tuple:
    """POP on an array the caller owns, and the size it had before (its work)."""
    n = _size(ty, xs)
    return _pop_from(xs), n


def _repeat_counted(x: object, n: int, max_size: int, copy, ty, fuel: int) -> tuple:
    """REPEAT of an array or map and its work, n times one plus the size of
    x: the n independent copies are made only once the fuel covers them."""
    if n < 0:
        raise IsuError(_Code.NEGATIVE_COUNT, f"REPEAT with the count {n}, below 0")
    if n > max_size:
        _size_limit("REPEAT's result")
    units = n * (1 + _size(ty, x))
    if units > fuel:
        _step_limit()
    return [copy(x) for _ in range(n)], units


def _map_has(m: dict, k: object) -> bool:
    """MAP_HAS where evaluating m before k matters."""
    return k in m


def _slice(v, start: int, end: int):
    """SLICE of an array or a string: 0 <= start <= end <= LEN, or an error."""
    if 0 <= start <= end <= len(v):
        return v[start:end]
    raise IsuError(
        _Code.INDEX_OUT_OF_RANGE,
        f"SLICE from {start} to {end} is outside 0 <= start <= end <= {len(v)}",
    )


def _repeat(x: object, n: int, max_size: int) -> list:
    """REPEAT of an int, bool or string (immutable, so the copies may be one object)."""
    if n < 0:
        raise IsuError(_Code.NEGATIVE_COUNT, f"REPEAT with the count {n}, below 0")
    if n > max_size:
        _size_limit("REPEAT's result")
    return [x] * n


def _join(xs: list, sep: str, max_size: int) -> str:
    n = len(sep) * max(len(xs) - 1, 0) + sum(map(len, xs))
    if n > max_size:
        _size_limit("JOIN's result")
    return sep.join(xs)


def _chars(s: str, max_size: int) -> list:
    if len(s) > max_size:
        _size_limit("CHARS's result")
    return list(s)


_ASCII_WORD = _re.compile(r"[^ \t\n\x0b\x0c\r]+")
_NOT_ASCII_SPACE = _re.compile(r"[\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")


def _split_whitespace(s: str) -> list:
    """The pieces of s between runs of ASCII whitespace (str.split() would
    also split at other Unicode spaces)."""
    if _NOT_ASCII_SPACE.search(s) is None:
        return s.split()
    return _ASCII_WORD.findall(s)


_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def _lower(s: str) -> str:
    """LOWER: ASCII A-Z to a-z, every other character unchanged."""
    if s.isascii():
        return s.lower()
    return s.translate(_ASCII_LOWER)


_ASCII_UPPER = {c: c - 32 for c in range(ord("a"), ord("z") + 1)}


def _upper(s: str) -> str:
    """UPPER: ASCII a-z to A-Z, every other character unchanged (str.upper
    would change other letters too, and make "SS" of "\u00df")."""
    if s.isascii():
        return s.upper()
    return s.translate(_ASCII_UPPER)


def _split(s: str, sep: str, max_size: int) -> list:
    """SPLIT: the pieces between the occurrences of sep (str.split keeps
    empty pieces too); at most len(s) + 1 of them, so they are counted once
    made."""
    if not sep:
        raise IsuError(_Code.EMPTY_SEPARATOR, "SPLIT with the empty separator")
    pieces = s.split(sep)
    if len(pieces) > max_size:
        _size_limit("SPLIT's result")
    return pieces


def _index_of(xs: list, x: object) -> int:
    """INDEX_OF of an array: the first index of an element equal to x
    (Python's == is Isu's eq on values of one type), or -1."""
    try:
        return xs.index(x)
    except ValueError:
        return -1


_DECIMAL = _re.compile(r"-?[0-9]+")


def _parse_int(s: str) -> int:
    if _DECIMAL.fullmatch(s) is not None:
        digits = s.lstrip("-").lstrip("0")
        if len(digits) <= 19:
            v = int(digits or "0")
            v = -v if s.startswith("-") else v
            if _INT_MIN <= v <= _INT_MAX:
                return v
        raise IsuError(_Code.PARSE_INT_FAILED, f"PARSE_INT of {_json.dumps(s)}: outside the 64-bit range")
    raise IsuError(_Code.PARSE_INT_FAILED, f"PARSE_INT of {_json.dumps(s)}: not an optional '-' followed by digits")


def _nodes(ty, v) -> int:
    """How many JSON values the result v of type ty holds in all."""
    if type(ty) is str:
        return 1
    if ty[0] == "struct":
        return 1 + sum(_nodes(t, getattr(v, a)) for _, a, t in _STRUCTS[ty[1]][1])
    if ty[0] == "array":
        if type(ty[1]) is str:
            return 1 + len(v)
        return 1 + sum(_nodes(ty[1], x) for x in v)
    if type(ty[2]) is str:
        return 1 + len(v)
    return 1 + sum(_nodes(ty[2], x) for x in v.values())


def _result(v, ty, max_size: int):
    """The value of a RETURN of an array, map or struct: its JSON form may hold at most max_size values."""
    if _nodes(ty, v) > max_size:
        _size_limit("the result, written out as JSON,")
    return v


def _scalar_result(v, max_size: int):
    """The value of a RETURN of an int, bool or string: one JSON value, which
    a size limit of 0 does not let through."""
    if max_size < 1:
        _size_limit("the result, written out as JSON,")
    return v


# A pack function's Python definition reports a runtime error by raising any
# exception with the code as its first argument: raise OverflowError("int_overflow").
# _RUNTIME_CODES (before this runtime) lists the codes it may use.

# What the generated function turns into Isu errors (_at_step says how).
_ERRORS = (IsuError, ArithmeticError, LookupError, ValueError, UnboundLocalError)


def _pack_function(e: BaseException) -> str | None:
    """The pack function e came out of, if it did."""
    tb = e.__traceback__.tb_next if e.__traceback__ is not None else None
    if tb is None or tb.tb_frame.f_code.co_name not in _PACK_FUNCTIONS:
        return None
    return tb.tb_frame.f_code.co_name


def _at_step(e: BaseException, step: str | None) -> BaseException:
    """The Isu error for an exception that stopped the generated function
    in `step`; any other exception unchanged."""
    pack = _pack_function(e)
    if pack is not None:
        if not (e.args and e.args[0] in _RUNTIME_CODES):
            return e
        err = IsuError(e.args[0], f"{pack.replace('__', '.', 1)} failed: {e!r}")
    elif isinstance(e, IsuError):
        err = e
    elif isinstance(e, IndexError):
        err = IsuError(_Code.INDEX_OUT_OF_RANGE, "an array index past the end")
    elif isinstance(e, KeyError):
        err = IsuError(_Code.MISSING_KEY, f"the key {_json.dumps(e.args[0])} is not in the map")
    elif isinstance(e, ZeroDivisionError):
        err = IsuError(_Code.DIVISION_BY_ZERO, "division by zero")
    elif isinstance(e, UnboundLocalError):
        name = getattr(e, "name", None) or "a LOCAL"  # (NameError.name is Python 3.10+)
        err = IsuError(_Code.UNINITIALIZED_READ, f"`{_NAMES.get(name, name)}` is read before any assignment to it")
    else:
        return e
    if err.step is None:
        err.step = step
    return err


# ---- values at the boundary: JSON in and out -------------------------------
# A type is "int", "bool", "string", ("array", T), ("map", K, V) or
# ("struct", NAME), whose class, fields (JSON key, attribute, type) and
# fixed size (or None) are _STRUCTS[NAME].


def _from_json(ty, v, where: str):
    if ty == "int":
        if type(v) is int and _INT_MIN <= v <= _INT_MAX:
            return v
    elif ty == "float":
        # A float of JSON (json.loads reads 1e400 as inf, NaN as nan), or an
        # int that a float holds exactly.
        if type(v) is float and v - v == 0.0:
            return v
        if type(v) is int and _INT_MIN <= v <= _INT_MAX and v == int(float(v)):
            return float(v)
    elif ty == "bool":
        if type(v) is bool:
            return v
    elif ty == "string":
        if type(v) is str:
            return v
    elif ty[0] == "array":
        if type(v) is list:
            return [_from_json(ty[1], x, f"{where}[{i}]") for i, x in enumerate(v)]
    elif ty[0] == "struct":
        if type(v) is dict:
            cls, fields, _ = _STRUCTS[ty[1]]
            for k in v:
                if all(k != name for name, _, _ in fields):
                    raise IsuError(_Code.INVALID_ARGUMENT, f"{where}: {ty[1]} has no field {k}")
            for name, _, _ in fields:
                if name not in v:
                    raise IsuError(_Code.INVALID_ARGUMENT, f"{where}: the field {name} of {ty[1]} is missing")
            return cls(*[_from_json(t, v[name], f"{where}.{name}") for name, _, t in fields])
    elif type(v) is dict:
        out = {}
        for k, x in v.items():
            key = k
            if ty[1] == "int":
                key = _int_key(k)
                if key is None:
                    raise IsuError(_Code.INVALID_ARGUMENT, f"{where}: the key {_json.dumps(k)} is not the decimal text of an int")
            out[key] = _from_json(ty[2], x, f"{where}[{_json.dumps(k)}]")
        return out
    raise IsuError(_Code.INVALID_ARGUMENT, f"{where}: expected {_type_text(ty)}, found {_json.dumps(v)[:80]}")


def _int_key(k: str):
    digits = k.removeprefix("-")
    if digits.isdigit() and digits.isascii() and (digits == "0" or not digits.startswith("0")) and k != "-0":
        v = int(k)
        if _INT_MIN <= v <= _INT_MAX:
            return v
    return None


def _to_json(ty, v):
    if type(ty) is str:
        return v
    if ty[0] == "struct":
        return {name: _to_json(t, getattr(v, a)) for name, a, t in _STRUCTS[ty[1]][1]}
    if ty[0] == "array":
        if type(ty[1]) is str:
            return v
        return [_to_json(ty[1], x) for x in v]
    return {str(k): _to_json(ty[2], x) for k, x in sorted(v.items())}


def _type_text(ty) -> str:
    if type(ty) is str:
        return ty
    if ty[0] == "struct":
        return ty[1]
    if ty[0] == "array":
        return f"{_type_text(ty[1])}[]"
    return f"map<{_type_text(ty[1])},{_type_text(ty[2])}>"


def run(args: dict, max_steps: int = MAX_STEPS, max_size: int = MAX_SIZE, max_memory: int = MAX_MEMORY):
    """Runs the function on JSON-shaped arguments (an object, as json.loads
    gives it) and returns its JSON-shaped result; raises IsuError."""
    if type(args) is not dict:
        raise IsuError(_Code.INVALID_ARGUMENT, "the arguments must be a JSON object")
    values = []
    for name, ty in _ARGS:
        if name not in args:
            raise IsuError(_Code.INVALID_ARGUMENT, f"the argument `{name}` is missing")
        values.append(_from_json(ty, args[name], f"`{name}`"))
    for name in sorted(args):
        if name not in dict(_ARGS):
            raise IsuError(_Code.INVALID_ARGUMENT, f"`{name}` is not an argument of {_FUNC_NAME}")
    if _COUNTS_MEMORY:
        result = _ENTRY(*values, _fuel=max_steps, _max_size=max_size, _mem=max_memory)
    else:
        # No store of this function can add to what its variables hold.
        result = _ENTRY(*values, _fuel=max_steps, _max_size=max_size)
    return _to_json(_RETURNS, result)


def _object(pairs: list) -> dict:
    """A JSON object of the arguments, which may not repeat a key (json.loads
    would keep the last one)."""
    out = {}
    for k, v in pairs:
        if k in out:
            raise IsuError(_Code.INVALID_ARGUMENT, f"the arguments are not Isu JSON: the key {_json.dumps(k)} appears twice in one object")
        out[k] = v
    return out


def _answer(text: str, max_steps: int, max_size: int, max_memory: int) -> dict:
    """The outcome of a run on the arguments' JSON text: {"ok": RESULT} or
    {"error": {"code", "step", "message"}}, as _main prints it and the
    backend's worker (src/worker.py) answers it."""
    try:
        args = _json.loads(text, object_pairs_hook=_object)
        return {"ok": run(args, max_steps, max_size, max_memory)}
    except IsuError as e:
        return {"error": {"code": e.code, "step": e.step, "message": e.message}}
    except ValueError as e:
        return {"error": {"code": _Code.INVALID_ARGUMENT, "step": None, "message": f"the arguments are not JSON: {e}"}}


def _main() -> None:
    """python3 THIS.py [--max-steps N] [--max-size N] [--max-memory N] < ARGS.json:
    prints {"ok": RESULT} or {"error": {"code", "step", "message"}} as one line."""
    limits = {"--max-steps": MAX_STEPS, "--max-size": MAX_SIZE, "--max-memory": MAX_MEMORY}
    argv = _sys.argv[1:]
    while argv:
        flag, value, *argv = argv if len(argv) > 1 else (argv[0], "")
        if flag not in limits or not value.isdigit():
            _sys.exit(f"usage: {_sys.argv[0]} [--max-steps N] [--max-size N] [--max-memory N] < ARGS.json")
        limits[flag] = int(value)
    out = _answer(_sys.stdin.read(), limits["--max-steps"], limits["--max-size"], limits["--max-memory"])
    _sys.stdout.write(_json.dumps(out) + "\n")
    _sys.exit(0 if "ok" in out else 1)
