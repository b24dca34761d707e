def text__SUBSTR(s, start, count):
    if start < 0 or count < 0 or start + count > len(s):
        raise IndexError("index_out_of_range", f"text.SUBSTR: {count} characters from {start} are not all inside a string of {len(s)}")
    return s[start : start + count]
