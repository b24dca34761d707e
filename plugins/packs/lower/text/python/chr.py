def text__CHR(n):
    if not (0 <= n <= 0x10FFFF) or 0xD800 <= n <= 0xDFFF:
        raise ValueError("out_of_domain", f"text.CHR: {n} is no Unicode scalar value")
    return chr(n)
