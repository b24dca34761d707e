"""Collatz lengths: for every start below n, the number of terms of its Collatz sequence (halve an
even term, 3x+1 an odd one, until 1); returns the sum of the lengths and the longest."""
import json
import sys


def collatz(n):
    total = 0
    longest = 0
    for i in range(1, n):
        x = i
        length = 1
        while x != 1:
            if x % 2 == 0:
                x = x // 2
            else:
                x = x * 3 + 1
            length = length + 1
        total = total + length
        longest = max(longest, length)
    return [total, longest]


if __name__ == "__main__":
    args = json.loads(sys.argv[1])
    print(json.dumps(collatz(args["n"])))
