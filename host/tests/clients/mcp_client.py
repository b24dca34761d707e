"""Drives `isu mcp` with the official Python MCP SDK, as an agent would.

Usage: python3 mcp_client.py ISU ROOT

ROOT is a project folder holding sum_evens.isu and an isu-plugins.toml with the
python backend. The script initializes (protocol 2025-11-25), lists the tools,
walks the tree, inspects the program, runs it, makes a test fail with a patch,
patches it back, builds it, refuses hostile requests, and then connects again
with the newest protocol revision (2026-07-28, no initialize handshake).
Every result is checked against its tool's output schema. It exits 0 when
every check holds.
"""

import asyncio
import os
import sys

import jsonschema
import mcp
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ISU, ROOT = sys.argv[1], sys.argv[2]
PROGRAM = "programs/sum_evens.isu"
checks = 0


def check(cond, what):
    global checks
    if not cond:
        raise AssertionError(what)
    checks += 1


class Tools:
    def __init__(self, session, tools):
        self.session = session
        self.schemas = {t.name: t.output_schema for t in tools}

    async def call(self, name, args, error=False):
        result = await self.session.call_tool(name, args)
        check(bool(result.is_error) == error, f"{name} {args}: is_error {result.is_error}: {result.content}")
        jsonschema.validate(result.structured_content, self.schemas[name])
        check(result.content and result.content[0].type == "text", f"{name}: a text block")
        return result.structured_content

    async def invoke(self, target, interface, operation, arguments, error=False):
        args = {"target": target, "interface": interface, "operation": operation, "arguments": arguments}
        return await self.call("invoke", args, error)


def codes(result):
    return [d["code"] for d in result["diagnostics"]]


BREAK = "PATCH:\n  REPLACE S1_1_1:\n    ASSIGN:\n      TARGET: total\n      EXPR: (add (var total) (mul (var x) (const 2)))\n"
FIX = "PATCH:\n  REPLACE S1_1_1:\n    ASSIGN:\n      TARGET: total\n      EXPR: (add (var total) (var x))\n"


async def legacy():
    params = StdioServerParameters(command=ISU, args=["mcp", "--root", ROOT], cwd=ROOT)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            check(init.protocol_version == "2025-11-25", f"protocol {init.protocol_version}")
            listed = await session.list_tools()
            check(sorted(t.name for t in listed.tools) == ["inspect", "invoke", "tree"], "exactly three tools")
            for t in listed.tools:
                check(t.input_schema.get("type") == "object" and t.output_schema, f"{t.name} schemas")
            tools = Tools(session, listed.tools)

            tree = await tools.call("tree", {"path": "", "depth": 3})
            top = [c["name"] for c in tree["tree"]["children"]]
            check(top == ["programs", "stdlib", "packs", "backends"], f"top level {top}")
            programs = tree["tree"]["children"][0]["children"]
            check([p["path"] for p in programs] == [PROGRAM], f"programs {programs}")
            check([s["name"] for s in programs[0]["children"]] == ["S1", "S2"], "steps")
            check(programs[0]["children"][0]["children"] is None, "the depth's edge is null")

            info = await tools.call("inspect", {"path": PROGRAM})
            ops = [o["name"] for o in info["interfaces"][0]["operations"]]
            check(info["interfaces"][0]["name"] == "isu.program", "program interface")
            check({"check", "fmt", "run", "test", "patch", "build"} <= set(ops), f"operations {ops}")

            ran = await tools.invoke(PROGRAM, "isu.program", "run", {"args": {"xs": [1, 2, 3, 4, 10]}})
            check(ran["result"]["value"] == 16, f"run: {ran}")

            broken = await tools.invoke(PROGRAM, "isu.program", "patch", {"patch": BREAK, "write": True})
            check(broken["result"]["written"] is True, "patch written")
            failing = await tools.invoke(PROGRAM, "isu.program", "test", {}, error=True)
            check(failing["outcome"] == "failed" and "test_mismatch" in codes(failing), f"test fails: {failing}")
            step = await tools.invoke(PROGRAM + "/S1_1_1", "isu.step", "show", {})
            check("mul" in step["result"]["text"], "the step shows the patched text")

            await tools.invoke(PROGRAM, "isu.program", "patch", {"patch": FIX, "write": True})
            passing = await tools.invoke(PROGRAM, "isu.program", "test", {})
            check(passing["result"] == {"examples": 2, "passed": 2, "failed": 0}, f"test passes: {passing}")

            built = await tools.invoke(PROGRAM, "isu.program", "build", {"target": "python", "out": "out/"})
            path = built["result"]["artifacts"][0]["path"]
            check(os.path.isfile(os.path.join(ROOT, path)), f"built {path}")
            via_backend = await tools.invoke("backends/python", "isu.backend", "build", {"program": PROGRAM})
            check(via_backend["result"]["artifacts"][0]["bytes"] > 0, "backend build")

            # Hostile requests: each refused, nothing written outside the root.
            escape = await tools.call("tree", {"path": "programs/../../etc"}, error=True)
            check(codes(escape) == ["path_outside_root"], f"escape: {escape}")
            out = await tools.invoke(PROGRAM, "isu.program", "build", {"target": "python", "out": "../outside/"}, error=True)
            check(codes(out) == ["path_outside_root"], f"out: {out}")
            check(not os.path.exists(os.path.join(ROOT, "..", "outside")), "nothing outside the root")
            big = await tools.invoke(PROGRAM, "isu.program", "run", {"args": {"s": "x" * (50 << 20)}}, error=True)
            check(codes(big) == ["argument_too_large"], f"50 MB: {codes(big)}")
            wrong = await tools.invoke(PROGRAM, "isu.program", "run", {"argz": {}}, error=True)
            check(codes(wrong) == ["invalid_arguments"], f"bad arguments: {wrong}")
            try:
                await session.call_tool("delete_everything", {})
                check(False, "an unknown tool is a protocol error")
            except mcp.MCPError as e:
                check("unknown tool" in str(e), f"unknown tool: {e}")


async def modern():
    params = StdioServerParameters(command=ISU, args=["mcp", "--root", ROOT], cwd=ROOT)
    async with mcp.Client(params, mode="auto") as client:
        check(client.protocol_version == "2026-07-28", f"modern protocol {client.protocol_version}")
        listed = await client.list_tools()
        check(len(listed.tools) == 3, "three tools")
        result = await client.call_tool("inspect", {"path": "stdlib/LEN"})
        check(not result.is_error and result.structured_content["kind"] == "function", "inspect over 2026-07-28")


asyncio.run(legacy())
asyncio.run(modern())
print(f"mcp client: all {checks} checks hold")
