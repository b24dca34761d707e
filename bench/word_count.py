"""Word frequencies: build a text of n pseudo-random words (some capitalized), lower-case and split it,
count with a dict, render the counts in key order; returns the length of the rendering and the most
frequent word's count."""
import json
import sys


def word_count(n, vocab, seed):
    words = []
    x = seed
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        k = (x // 16) % vocab
        if x % 3 == 0:
            words.append("Word" + str(k))
        else:
            words.append("word" + str(k))
    text = " \n".join(words)
    counts = {}
    for w in text.lower().split():
        counts[w] = counts.get(w, 0) + 1
    parts = []
    best = 0
    for w in sorted(counts):
        c = counts[w]
        parts.append(w + "=" + str(c))
        best = max(best, c)
    return [len(",".join(parts)), best]


if __name__ == "__main__":
    args = json.loads(sys.argv[1])
    print(json.dumps(word_count(args["n"], args["vocab"], args["seed"])))
