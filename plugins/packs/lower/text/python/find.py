def text__FIND(s, t, start):
    if not 0 <= start <= len(s):
        raise IndexError("index_out_of_range", f"text.FIND: the start {start} is outside 0..{len(s)}")
    return s.find(t, start)
