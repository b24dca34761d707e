"""Insertion sort of n pseudo-random ints (a linear congruential generator); returns a checksum."""
import json
import sys


def insertion_sort(n, seed):
    xs = []
    x = seed
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        xs.append(x % 100000)
    for i in range(1, n):
        key = xs[i]
        j = i - 1
        while j >= 0 and xs[j] > key:
            xs[j + 1] = xs[j]
            j = j - 1
        xs[j + 1] = key
    total = 0
    for i in range(n):
        total = (total * 31 + xs[i]) % 1000000007
    return total


if __name__ == "__main__":
    args = json.loads(sys.argv[1])
    print(json.dumps(insertion_sort(args["n"], args["seed"])))
