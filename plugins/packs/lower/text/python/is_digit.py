def text__IS_DIGIT(s):
    return s != "" and all("0" <= c <= "9" for c in s)
