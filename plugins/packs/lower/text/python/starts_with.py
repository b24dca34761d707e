def text__STARTS_WITH(s, prefix):
    return s.startswith(prefix)
