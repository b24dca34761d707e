# The Python backend's worker: one python3 process that runs many runs of
# generated modules, so that a run costs a call, not a process start and a
# compile of the module (src/exec.rs starts it and speaks to it).
#
# Each request is one line of JSON: {"key": K, "source": TEXT, "args": TEXT,
# "max_steps": N, "max_size": N, "max_memory": N}, "source" only the first
# time K is asked for since the cache was last emptied (it holds at most 8
# modules; the backend follows the same rule). Each answer is one line: the
# module's _answer (what `python3 MODULE.py` prints), or {"crash": TEXT}
# when the module failed in a way it does not report itself.
#
# Each module runs as a module of its own, registered in sys.modules while
# it is cached: the dataclasses of a program's structs look their module up
# there.
import json
import sys
import traceback
import types

CACHED = 8


def main() -> None:
    modules = {}
    for line in sys.stdin:
        try:
            req = json.loads(line)
            ns = modules.get(req["key"])
            if ns is None:
                if len(modules) >= CACHED:
                    for old in modules.values():
                        sys.modules.pop(old["__name__"], None)
                    modules.clear()
                module = types.ModuleType(f"isu_module_{req['key']}")
                sys.modules[module.__name__] = module
                ns = module.__dict__
                modules[req["key"]] = ns
                exec(compile(req["source"], "module.py", "exec"), ns)
            out = ns["_answer"](req["args"], req["max_steps"], req["max_size"], req["max_memory"])
            text = json.dumps(out)
        except BaseException:
            text = json.dumps({"crash": traceback.format_exc()[-4000:]})
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


main()
