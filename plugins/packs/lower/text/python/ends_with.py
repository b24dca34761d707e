def text__ENDS_WITH(s, suffix):
    return s.endswith(suffix)
