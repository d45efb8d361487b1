"""Writes fixtures.pt for PadTest with PyTorch 2.13: F.pad in each mode (constant with a value and
a negative, cropping pad; reflect; replicate; circular; negative pads in each) on float64 inputs, with the gradient of
(out * up).sum() ("<i>.x", "<i>.out", "<i>.up", "<i>.grad"; "cases" lists (mode, pad, value)).
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import torch
import torch.nn.functional as F

torch.manual_seed(3)
cases = [
    ("constant", [1, 2], 1.5, (2, 3, 4)),
    ("constant", [2, -1, 0, 1], 0.0, (2, 3, 4)),
    ("reflect", [2, 1], 0.0, (1, 2, 5)),
    ("reflect", [1, 2, 2, 1], 0.0, (1, 1, 4, 5)),
    ("replicate", [2, 0, 1, 3], 0.0, (1, 2, 3, 4)),
    ("replicate", [1, 1, 1, 1, 2, 0], 0.0, (1, 1, 2, 3, 3)),
    ("circular", [1, 2], 0.0, (2, 2, 4)),
    ("circular", [2, 1, 1, 3], 0.0, (1, 1, 3, 4)),
    # negative pads crop the mirrored or repeated range (PyTorch's kernels index it)
    ("reflect", [-1, 2, 2, -3], 0.0, (1, 1, 4, 5)),
    ("reflect", [-3, 3], 0.0, (1, 2, 5)),
    ("reflect", [3, -5], 0.0, (1, 2, 5)),
    ("replicate", [2, -3, -1, 4], 0.0, (1, 2, 3, 4)),
    ("replicate", [-2, 5], 0.0, (1, 2, 5)),
]
out = {"cases": [[m, p, v] for m, p, v, _ in cases]}
for i, (mode, pad, value, shape) in enumerate(cases):
    x = torch.randn(shape, dtype=torch.float64, requires_grad=True)
    y = F.pad(x, pad, mode=mode, value=value) if mode == "constant" else F.pad(x, pad, mode=mode)
    up = torch.randn(y.shape, dtype=torch.float64)
    (y * up).sum().backward()
    out[f"{i}.x"], out[f"{i}.out"], out[f"{i}.up"], out[f"{i}.grad"] = x.detach(), y.detach(), up, x.grad
torch.save(out, "fixtures.pt")
