"""Checks every entry's CRC-32 with Python's zipfile (torch's own reader skips them), loads a .pt
file that jtensor wrote with torch.load(weights_only=True), prints its description
(as make_pt_fixtures.py describes fixtures) as JSON, and saves what it loaded with torch.save to a
second path, for jtensor to read back. Run by PtPythonTest: python3 torch_reads_jtensor.py IN OUT
"""
import json
import sys
import zipfile

import torch

from make_pt_fixtures import describe_tree

with zipfile.ZipFile(sys.argv[1]) as z:
    bad = z.testzip()
    assert bad is None, f"entry {bad} fails its CRC-32 check"
loaded = torch.load(sys.argv[1], weights_only=True)
print(json.dumps({"torch_version": torch.__version__, "loaded": describe_tree(loaded, {})}))
torch.save(loaded, sys.argv[2])
