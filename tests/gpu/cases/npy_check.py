#!/usr/bin/env python3
"""A .npy file cugraphrun wrote, against known answers.

    npy_check.py FILE SHAPE DESCR V0,V1,...

FILE must be NumPy format 1.0 with 'shape': SHAPE (as Python writes the
tuple, "(3, 5)") and 'descr': DESCR ("<i4"), C order, and hold exactly
the integers V0, V1, ... in order.  Exits 1 with the reason otherwise.
"""

import ast
import struct
import sys


def main():
    path, shape, descr, values = sys.argv[1:5]
    data = open(path, "rb").read()
    if data[:8] != b"\x93NUMPY\x01\x00":
        sys.exit("npy_check: %s: not a NumPy 1.0 file" % path)
    hlen = data[8] | data[9] << 8
    header = ast.literal_eval(data[10:10 + hlen].decode("latin-1"))
    if repr(header["shape"]) != shape:
        sys.exit("npy_check: shape %r, expected %s" % (header["shape"], shape))
    if header["descr"] != descr or header["fortran_order"]:
        sys.exit("npy_check: descr %r fortran_order %r" % (header["descr"], header["fortran_order"]))
    want = [int(v) for v in values.split(",")]
    fmt = {"<i4": "i", "<u2": "H", "<i2": "h", "|u1": "B"}[descr]
    size = struct.calcsize(fmt)
    body = data[10 + hlen:]
    got = list(struct.unpack("<%d%s" % (len(body) // size, fmt), body))
    if got != want:
        sys.exit("npy_check: values %r, expected %r" % (got, want))


main()
