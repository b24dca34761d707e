def text__IS_ALPHA(s):
    return s != "" and all("a" <= c <= "z" or "A" <= c <= "Z" for c in s)
