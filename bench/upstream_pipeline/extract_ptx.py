#!/usr/bin/env python3
"""Writes the PTX of a gpu.binary (cubin-format=isa) in lowered MLIR: extract_ptx.py IN OUT."""
import re
import sys

text = open(sys.argv[1]).read()
found = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', text)
if not found:
    sys.exit(f"{sys.argv[1]}: no gpu.binary assembly")
# MLIR escapes bytes as \XX (hex) and '\\' as '\5C'.
ptx = re.sub(r'\\([0-9A-Fa-f]{2})', lambda m: chr(int(m.group(1), 16)), found.group(1))
open(sys.argv[2], 'w').write(ptx)
