"""A small PNG reader for checking screenshots: size, colours, brightness (no imaging library)."""

from __future__ import annotations

import struct
import zlib


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGBA or RGB bytes) of an 8-bit non-interlaced PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and chunk[12] == 0
            channels = {2: 3, 6: 4}[color]
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * channels, [], bytes(width * channels)
    for y in range(height):
        at = y * (stride + 1)
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b, c = prev[x], prev[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = bytes(line)
    return width, height, [bytes(r[i] for i in range(len(r)) if i % channels != 3) if channels == 4
                           else r for r in rows]


def look(data: bytes) -> tuple[int, int, int, float]:
    """(width, height, distinct colours, mean brightness 0-255)."""
    width, height, rows = png_pixels(data)
    colours = {row[i:i + 3] for row in rows for i in range(0, len(row), 3)}
    mean = sum(sum(row) for row in rows) / (width * height * 3)
    return width, height, len(colours), mean
