"""Integer arithmetic in a counted loop: a sum of squares modulo a prime."""
import json
import sys


def int_loop(n):
    s = 0
    for i in range(n):
        s = (s + i * i) % 1000000007
    return s


if __name__ == "__main__":
    args = json.loads(sys.argv[1])
    print(json.dumps(int_loop(args["n"])))
