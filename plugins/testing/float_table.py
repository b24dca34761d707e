"""The table the Wasm and LLVM backends' float tests check their float text
against: Python's own repr and float() on doubles chosen to be hard (random
bit patterns, subnormals, powers of two and ten, the largest floats, values
near 2^53, sums that round), as one JSON object on stdout:

  floats: the doubles, as JSON numbers (repr, which reads back exactly);
  reprs:  repr of each (TO_STRING);
  texts:  decimal texts PARSE_FLOAT reads (long, short, with underscores,
          blanks, signs, fractions without digits on one side);
  parsed: float() of each text.

Deterministic: the same table on every run."""
import json
import math
import random
import struct
from decimal import Decimal, getcontext

getcontext().prec = 2000

rng = random.Random(32)
floats = []
while len(floats) < 3000:
    x = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
    if math.isfinite(x):
        floats.append(x)
floats += [2.0**e for e in range(-1074, 1024, 5)]
floats += [-(2.0**e) * 3 for e in range(-1074, 1022, 17)]
floats += [float(f"1e{k}") for k in range(-323, 309, 2)]
floats += [5e-324 * k for k in range(1, 200, 7)] + [2.2250738585072014e-308, 2.225073858507201e-308]
floats += [i / 10 for i in range(300)] + [i / 3 for i in range(1, 300, 11)] + [0.1 + 0.2, 1.1 * 1.1]
floats += [float(2**53 + k) for k in range(-3, 4)] + [1e15, 1e16, 1e17, 123456789012345680.0, 0.0001, 0.00001]
floats += [1.7976931348623157e308, -1.7976931348623157e308, 0.0, -0.0, 1186116450335856.2]
texts = []
for x in floats[::3]:
    texts += [repr(x), "%.25e" % x, "%.17g" % x]
texts += ["1_000.000_1", " -2 ", "5.", ".5", "+.5e-3", "\t1E+2\n", "-0", "00.5", "1e-400", "1e1_0"]
# Halfway between 0 and the least subnormal, exactly (ties to even: 0.0),
# and a little above it, far past the 768th digit (5e-324).
half = format(Decimal(2) ** -1075, "f")
texts += [half, half + "0" * 100 + "1", "9" * 400 + "e-400", "1" + "0" * 900 + "1e-901"]
parsed = [float(t) for t in texts]
print(json.dumps({"floats": floats, "reprs": [repr(x) for x in floats], "texts": texts, "parsed": parsed}))
