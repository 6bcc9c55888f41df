#!/usr/bin/env python3
"""render-check.py FILE FORMAT [NAME...]: FILE is a whole drawing in FORMAT
(svg, png or pdf), as tests/describe.test asks of --describe=FILE.FORMAT:
its magic bytes, and its structure read back (an SVG parses as XML and has
a <title> for each NAME, a node of the graph; a PNG's chunks have their
CRCs, IHDR first with a size, IDAT that inflates to it, IEND last; a PDF
has a page, its cross-reference offset and its end marker).  Prints what
is wrong and exits 1, else exits 0 silently.
"""
import struct
import sys
import xml.etree.ElementTree as ET
import zlib


def svg(data, names):
    if not data.startswith(b"<?xml"):
        return "no XML declaration"
    root = ET.fromstring(data)
    if root.tag != "{http://www.w3.org/2000/svg}svg":
        return "root element is %s, not svg" % root.tag
    titles = {t.text for t in root.iter("{http://www.w3.org/2000/svg}title")}
    missing = [n for n in names if n not in titles]
    return "no node titled %s" % ", ".join(missing) if missing else None


def png(data, names):
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "no PNG signature"
    at, chunks, idat = 8, [], b""
    while at < len(data):
        if at + 8 > len(data):
            return "a chunk cut short at %d" % at
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        crc = struct.unpack(">I", data[at + 8 + n:at + 12 + n])[0]
        if zlib.crc32(kind + body) != crc:
            return "chunk %s has a bad CRC" % kind.decode("latin-1")
        chunks.append((kind, body))
        if kind == b"IDAT":
            idat += body
        at += 12 + n
    if not chunks or chunks[0][0] != b"IHDR" or chunks[-1][0] != b"IEND":
        return "not IHDR first and IEND last"
    w, h, depth, colour = struct.unpack(">IIBB", chunks[0][1][:10])
    if w == 0 or h == 0:
        return "an empty image"
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    rows = zlib.decompress(idat)
    if len(rows) != h * (1 + (w * channels * depth + 7) // 8):
        return "IDAT holds %d bytes, not %dx%d pixels" % (len(rows), w, h)
    return None


def pdf(data, names):
    if not data.startswith(b"%PDF-"):
        return "no %PDF- header"
    if not data.rstrip().endswith(b"%%EOF"):
        return "no %%EOF at the end"
    if b"startxref" not in data[-1024:] or b"/Type /Page" not in data:
        return "no page or no cross-reference offset"
    return None


path, fmt, names = sys.argv[1], sys.argv[2], sys.argv[3:]
with open(path, "rb") as f:
    data = f.read()
try:
    why = {"svg": svg, "png": png, "pdf": pdf}[fmt](data, names)
except Exception as e:        # a parse error is the answer
    why = "%s: %s" % (type(e).__name__, e)
if why:
    print("%s: not a whole %s: %s" % (path, fmt.upper(), why))
    sys.exit(1)
