def text__ORD(s):
    if len(s) != 1:
        raise ValueError("out_of_domain", f"text.ORD: {s!r} is not one character")
    return ord(s)
