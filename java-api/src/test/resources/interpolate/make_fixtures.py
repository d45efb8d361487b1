"""Writes fixtures.pt for InterpolateTest with PyTorch 2.13: F.interpolate in nearest (1-D, 2-D,
3-D; by size and by a non-integer scale factor), linear, bilinear (align_corners both ways,
down- and up-sampling) and trilinear, and (session 31) nearest-exact, bicubic and area, float64, with the gradient of (out * up).sum().
"cases" lists (mode, size or None, scale_factor or None, align_corners).
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import torch
import torch.nn.functional as F

torch.manual_seed(4)
cases = [
    ("nearest", [7], None, False, (2, 3, 5)),
    ("nearest", [3, 8], None, False, (1, 2, 5, 4)),
    ("nearest", None, [1.7, 2.5], False, (1, 1, 3, 4)),
    ("nearest", [2, 3, 5], None, False, (1, 1, 3, 4, 2)),
    ("linear", [9], None, False, (2, 2, 4)),
    ("linear", [9], None, True, (2, 2, 4)),
    ("bilinear", [6, 7], None, False, (1, 2, 3, 4)),
    ("bilinear", [6, 7], None, True, (1, 2, 3, 4)),
    ("bilinear", [2, 3], None, False, (2, 1, 5, 7)),
    ("bilinear", None, [2.0, 0.5], False, (1, 1, 4, 6)),
    ("trilinear", [3, 4, 2], None, True, (1, 1, 2, 3, 3)),
    # session 31: nearest-exact, bicubic and area
    ("nearest-exact", [7], None, False, (2, 3, 5)),
    ("nearest-exact", None, [1.7, 0.6], False, (1, 2, 5, 6)),
    ("nearest-exact", [2, 3, 5], None, False, (1, 1, 3, 4, 2)),
    ("bicubic", [7, 9], None, False, (1, 2, 4, 5)),
    ("bicubic", [7, 9], None, True, (1, 2, 4, 5)),
    ("bicubic", [2, 3], None, False, (2, 1, 5, 7)),
    ("bicubic", None, [1.7, 0.6], True, (1, 1, 4, 6)),
    ("area", [3], None, False, (2, 2, 10)),
    ("area", [3, 4], None, False, (1, 2, 7, 9)),
    ("area", None, [0.5, 0.5], False, (1, 1, 9, 8)),
    ("area", [2, 3, 2], None, False, (1, 1, 5, 4, 3)),
]
out = {"cases": [[m, s, f, a] for m, s, f, a, _ in cases]}
for i, (mode, size, factor, align, shape) in enumerate(cases):
    x = torch.randn(shape, dtype=torch.float64, requires_grad=True)
    kw = {} if mode in ("nearest", "nearest-exact", "area") else {"align_corners": align}
    y = F.interpolate(x, size=size, scale_factor=factor, mode=mode, **kw)
    up = torch.randn(y.shape, dtype=torch.float64)
    (y * up).sum().backward()
    out[f"{i}.x"], out[f"{i}.out"], out[f"{i}.up"], out[f"{i}.grad"] = x.detach(), y.detach(), up, x.grad
torch.save(out, "fixtures.pt")
