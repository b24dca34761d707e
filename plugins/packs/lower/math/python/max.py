def math__MAX(xs):
    if not xs:
        raise ValueError("empty_collection", "math.MAX: the array is empty")
    return max(xs)
