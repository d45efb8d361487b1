"""Writes fixtures.pt for RearrangeTest with PyTorch 2.13: flip, repeat and tile on float64 inputs
(a permuted view among them), each with the gradient of (out * up).sum(). Keys per case i: "<i>.x",
"<i>.out", "<i>.up", "<i>.grad"; "cases" lists (op, args). Regenerate: python3 make_fixtures.py
(a virtualenv with torch)."""
import torch

torch.manual_seed(7)
cases = [
    ("flip", [0], (3, 4)),
    ("flip", [1, -3], (2, 3, 4)),
    ("flip", [0, 1, 2], (2, 1, 3)),
    ("repeat", [2, 3], (2, 3)),
    ("repeat", [2, 1, 2], (3, 2)),
    ("repeat", [1, 1], (2, 2)),
    ("repeat", [0, 2], (2, 2)),
    ("repeat", [3, 2], ()),
    ("tile", [2], (2, 3)),
    ("tile", [2, 1, 3], (2, 2)),
]
out = {"cases": [[op, args] for op, args, _ in cases]}
for i, (op, args, shape) in enumerate(cases):
    base = torch.randn(shape[::-1] if len(shape) > 1 else shape, dtype=torch.float64)
    x = (base.permute(*reversed(range(len(shape)))) if len(shape) > 1 else base).clone(memory_format=torch.preserve_format)
    x.requires_grad_()
    y = x.flip(args) if op == "flip" else x.repeat(*args) if op == "repeat" else x.tile(args)
    up = torch.randn(y.shape, dtype=torch.float64)
    (y * up).sum().backward()
    out[f"{i}.x"], out[f"{i}.out"], out[f"{i}.up"], out[f"{i}.grad"] = x.detach(), y.detach(), up, x.grad
torch.save(out, "fixtures.pt")
