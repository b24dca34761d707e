def math__MIN(xs):
    if not xs:
        raise ValueError("empty_collection", "math.MIN: the array is empty")
    return min(xs)
