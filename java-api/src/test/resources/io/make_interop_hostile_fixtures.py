# Fixtures for InteropHostileTest, made with PyTorch 2.13 (CPU): run from this folder with
#   python make_interop_hostile_fixtures.py
# The safetensors file is written by hand per the spec (the safetensors package is not installed):
# 8-byte little-endian header length, the JSON header, then the tensors' bytes back to back.
import json
import struct

import torch

# a dict holding a tensor and its (typed) storage: torch.load(weights_only=True) loads both, sharing bytes
x = torch.arange(3.0)
torch.save({"t": x, "s": x.storage()}, "hostile_storage_value.pt")
# torch dtypes as values, as checkpoints keep them: weights_only=True loads them as torch.dtype
torch.save({"dtype": torch.float16, "dtypes": [torch.bfloat16, torch.bool, torch.int64], "w": torch.ones(2)},
           "hostile_dtype_values.pt")

# mixed dtypes in one safetensors file, so that its tensors' bytes sit side by side
ts = {"w": torch.tensor([[1.5, -2.0], [3.0, 4.25]], dtype=torch.bfloat16),
      "mask": torch.tensor([True, False, True]),
      "steps": torch.tensor(7, dtype=torch.int16),
      "h": torch.tensor([0.5, -1.0], dtype=torch.float16),
      "ids": torch.tensor([200, 3], dtype=torch.uint8)}
names = {torch.bfloat16: "BF16", torch.bool: "BOOL", torch.int16: "I16", torch.float16: "F16", torch.uint8: "U8"}
header, body = {"__metadata__": {"format": "pt"}}, b""
for k, t in ts.items():
    raw = t.reshape(-1).view(torch.uint8).numpy().tobytes()
    header[k] = {"dtype": names[t.dtype], "shape": list(t.shape), "data_offsets": [len(body), len(body) + len(raw)]}
    body += raw
h = json.dumps(header).encode()
h += b" " * (-len(h) % 8)
with open("hostile_mixed.safetensors", "wb") as f:
    f.write(struct.pack("<Q", len(h)) + h + body)

# meta tensors (no storage, _rebuild_meta_tensor_no_storage), one a transposed view; and a uint16
# tensor, which torch.save rebuilds with _rebuild_tensor_v3 over an UntypedStorage
m = torch.empty(2, 3, device="meta")
torch.save({"m": m.t(), "p": torch.nn.Parameter(torch.empty(4, dtype=torch.float16, device="meta")), "c": torch.ones(1)},
           "hostile_meta.pt")
torch.save({"u": torch.tensor([1, 2], dtype=torch.uint16)}, "hostile_uint16.pt")
