"""Bubble sort of n pseudo-random ints (a linear congruential generator): neighbours compared and
swapped, n-1 passes each one shorter; returns a checksum."""
import json
import sys


def bubble_sort(n, seed):
    xs = []
    x = seed
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        xs.append(x % 100000)
    for i in range(1, n):
        for j in range(0, n - i):
            if xs[j] > xs[j + 1]:
                t = xs[j]
                xs[j] = xs[j + 1]
                xs[j + 1] = t
    total = 0
    for i in range(n):
        total = (total * 31 + xs[i]) % 1000000007
    return total


if __name__ == "__main__":
    args = json.loads(sys.argv[1])
    print(json.dumps(bubble_sort(args["n"], args["seed"])))
