def math__CLAMP(x, lo, hi):
    if lo > hi:
        raise ValueError("out_of_domain", f"math.CLAMP: the bounds {lo} > {hi}")
    return min(max(x, lo), hi)
