def text__REPLACE(s, old, new, max_size):
    if not old:
        raise ValueError("out_of_domain", "text.REPLACE: the text to replace is the empty string")
    found = s.count(old)
    n = len(s) + found * (len(new) - len(old))
    if n > max_size:
        raise ValueError("size_limit", f"text.REPLACE: the result of {n} characters would pass the size limit")
    return s.replace(old, new)
