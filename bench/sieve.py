"""The sieve of Eratosthenes: how many primes are below n."""
import json
import sys


def sieve(n):
    flags = [True] * n
    count = 0
    i = 2
    while i < n:
        if flags[i]:
            count = count + 1
            for j in range(i * i, n, i):
                flags[j] = False
        i = i + 1
    return count


if __name__ == "__main__":
    args = json.loads(sys.argv[1])
    print(json.dumps(sieve(args["n"])))
