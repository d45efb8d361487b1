"""Writes fixtures.pt for AdaptiveMaxPoolTest with PyTorch 2.13: F.adaptive_max_pool1d/2d/3d with
return_indices over float64 inputs that hold ties (values from a few integers), NaNs and -0.0/+0.0,
batched and not, windows that overlap (in not a multiple of out), upsampling (out > in) and an
empty output; with the gradient of (out * up).sum() (zeros for the empty output, whose backward
PyTorch refuses).
"cases" lists (spatial dims, output_size, input shape).
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import torch
import torch.nn.functional as F

torch.manual_seed(31)
cases = [
    (1, [3], (2, 3, 7)),
    (1, [5], (2, 11)),
    (1, [9], (1, 2, 4)),
    (2, [2, 3], (2, 2, 5, 7)),
    (2, [3, 3], (3, 6, 6)),
    (2, [4, 1], (1, 1, 3, 9)),
    (2, [0, 2], (1, 2, 3, 3)),
    (3, [2, 3, 2], (1, 2, 3, 4, 5)),
    (3, [1, 1, 1], (2, 3, 2, 2)),
    (3, [3, 2, 4], (1, 1, 4, 3, 6)),
]
pool = {1: F.adaptive_max_pool1d, 2: F.adaptive_max_pool2d, 3: F.adaptive_max_pool3d}
out = {"cases": [[n, size, list(shape)] for n, size, shape in cases]}
for i, (n, size, shape) in enumerate(cases):
    x = torch.randint(-3, 4, shape).double()
    flat = x.view(-1)
    flat[torch.randperm(flat.numel())[: max(1, flat.numel() // 12)]] = float("nan")
    flat[torch.randperm(flat.numel())[: max(1, flat.numel() // 10)]] = -0.0
    x.requires_grad_(True)
    y, idx = pool[n](x, size, return_indices=True)
    up = torch.randn(y.shape, dtype=torch.float64)
    if y.numel() > 0:  # PyTorch's backward refuses an empty output; its gradient is zeros
        (y * up).sum().backward()
    grad = x.grad if x.grad is not None else torch.zeros_like(x)
    out[f"{i}.x"], out[f"{i}.out"], out[f"{i}.idx"], out[f"{i}.up"], out[f"{i}.grad"] = x.detach(), y.detach(), idx, up, grad
torch.save(out, "fixtures.pt")
