#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""png-info.py PNG: print "WIDTH HEIGHT COLOURS" for an 8-bit RGB or RGBA,
non-interlaced PNG (what Chromium's --screenshot writes); exit 2 otherwise.

COLOURS counts the distinct pixel values, so a blank page gives 1."""

import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def unfilter(data, width, height, bpp):
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    pos = 0
    for _ in range(height):
        kind = data[pos]
        line = bytearray(data[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xff
            elif kind == 2:
                line[i] = (line[i] + b) & 0xff
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xff
            elif kind == 4:
                line[i] = (line[i] + paeth(a, b, c)) & 0xff
        rows.append(bytes(line))
        prev = line
    return rows


def main():
    if len(sys.argv) != 2:
        print("usage: png-info.py PNG", file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        blob = f.read()
    if blob[:8] != b"\x89PNG\r\n\x1a\n":
        print("png-info.py: '%s' is not a PNG" % sys.argv[1], file=sys.stderr)
        return 2
    pos, idat, head = 8, b"", None
    while pos < len(blob):
        length, kind = struct.unpack(">I4s", blob[pos:pos + 8])
        body = blob[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = head
    if depth != 8 or colour not in (2, 6) or interlace:
        print("png-info.py: only 8-bit RGB(A) non-interlaced PNGs", file=sys.stderr)
        return 2
    bpp = 3 if colour == 2 else 4
    rows = unfilter(zlib.decompress(idat), width, height, bpp)
    colours = set()
    for row in rows:
        for i in range(0, len(row), bpp):
            colours.add(row[i:i + bpp])
    print(width, height, len(colours))
    return 0


if __name__ == "__main__":
    sys.exit(main())
