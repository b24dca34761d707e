def text__PAD_RIGHT(s, width, fill, max_size):
    if len(fill) != 1:
        raise ValueError("out_of_domain", f"text.PAD_RIGHT: the fill {fill!r} is not one character")
    if width <= len(s):
        return s
    if width > max_size:
        raise ValueError("size_limit", f"text.PAD_RIGHT: the result of {width} characters would pass the size limit")
    return s + fill * (width - len(s))
