"""The product of two n-by-n matrices of pseudo-random ints, row by row; returns the trace and a
checksum of the product."""
import json
import sys


def matrix_product(n, seed):
    a = []
    b = []
    c = []
    x = seed
    for i in range(n):
        row = []
        for j in range(n * 2):
            x = (x * 1103515245 + 12345) % 2147483648
            row.append(x % 201)
        a.append(row[0:n])
        b.append(row[n:n * 2])
    for i in range(n):
        row = []
        ai = a[i]
        for j in range(n):
            s = 0
            for k in range(n):
                s = s + ai[k] * b[k][j]
            row.append(s)
        c.append(row)
    tr = 0
    total = 0
    for i in range(n):
        tr = tr + c[i][i]
        for j in range(n):
            total = (total * 31 + c[i][j]) % 1000000007
    return [tr, total]


if __name__ == "__main__":
    args = json.loads(sys.argv[1])
    print(json.dumps(matrix_product(args["n"], args["seed"])))
