"""Loads a .pt file that jtensor wrote with torch.load(weights_only=True), prints its description
(as make_pt_fixtures.py describes fixtures) as JSON, and saves what it loaded with torch.save to a
second path, for jtensor to read back. Run by PtPythonTest: python3 torch_reads_jtensor.py IN OUT
"""
import json
import sys

import torch

from make_pt_fixtures import describe_tree

loaded = torch.load(sys.argv[1], weights_only=True)
print(json.dumps({"torch_version": torch.__version__, "loaded": describe_tree(loaded, {})}))
torch.save(loaded, sys.argv[2])
