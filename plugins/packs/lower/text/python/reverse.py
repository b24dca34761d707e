def text__REVERSE(s):
    return s[::-1]
