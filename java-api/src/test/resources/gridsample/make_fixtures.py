"""Writes fixtures.pt for nn/GridSampleTest with PyTorch 2.13 (CPU): F.grid_sample on 4-D input for
every mode x padding_mode x align_corners in float64 and float32, on 5-D input ("3d_...") for
bilinear and nearest, on a size-1 spatial dim ("unit_...") ("<case>.x", ".grid", ".out", and
the gradients of (out * up).sum(): ".up", ".grad_x", ".grad_grid"), the grid reaching outside
[-1, 1]; the same with NaN, +-inf and 1e30 in the grid (".grad_*" left out where PyTorch 2.13's
backward crashes: 4-D bilinear with border or reflection padding); float16 and bfloat16 forwards
(".out64": the same values sampled in float64); and
F.affine_grid in 2-D and 3-D with theta's gradient. "cases" lists the grid_sample case names,
"affine" the affine_grid ones. Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import torch
import torch.nn.functional as F

import sampling

torch.manual_seed(53)
out, cases, affine = {}, [], []
nan, inf = float("nan"), float("inf")
MODES = ["bilinear", "nearest", "bicubic"]
PADS = ["zeros", "border", "reflection"]


def sample(name, x, grid, mode, pad, align, grad=True):
    sampling.sample(out, cases, name, x, grid, mode, pad, align, grad)


for dt, tag in [(torch.float64, "f64"), (torch.float32, "f32")]:
    for mode in MODES:
        for pad in PADS:
            for align in [False, True]:
                name = f"{mode}_{pad}_{int(align)}_{tag}"
                x = torch.randn(2, 3, 4, 5, dtype=dt)
                grid = (torch.rand(2, 3, 6, 2, dtype=dt) * 2.8 - 1.4)  # a third of the points outside [-1, 1]
                sample(name, x, grid, mode, pad, align)
                # non-finite and huge grid coordinates
                g = torch.rand(1, 2, 4, 2, dtype=dt) * 2 - 1
                g[0, 0, 0, 0], g[0, 0, 1, 1], g[0, 0, 2, 0], g[0, 0, 3, 1] = nan, nan, inf, -inf
                g[0, 1, 0, 0], g[0, 1, 1, 1], g[0, 1, 2, 0] = 1e30, -1e30, -inf
                crashes = mode == "bilinear" and pad != "zeros"
                sample(f"nonfinite_{name}", torch.randn(1, 2, 3, 4, dtype=dt), g, mode, pad, align, grad=not crashes)

for dt, tag in [(torch.float64, "f64"), (torch.float32, "f32")]:  # 5-D: PyTorch's scalar 3-D kernel
    for mode in MODES[:2]:
        for pad in PADS:
            for align in [False, True]:
                name = f"3d_{mode}_{pad}_{int(align)}_{tag}"
                x = torch.randn(2, 2, 3, 4, 5, dtype=dt)
                grid = torch.rand(2, 2, 3, 4, 3, dtype=dt) * 2.8 - 1.4
                sample(name, x, grid, mode, pad, align)
                g = torch.rand(1, 2, 2, 2, 3, dtype=dt) * 2 - 1
                g[0, 0, 0, 0, 0], g[0, 0, 0, 1, 1], g[0, 0, 1, 0, 2], g[0, 0, 1, 1, 0] = nan, nan, inf, -inf
                g[0, 1, 0, 0, 0], g[0, 1, 0, 1, 1], g[0, 1, 1, 0, 2] = 1e30, -1e30, -inf
                sample(f"nonfinite_{name}", torch.randn(1, 2, 3, 3, 4, dtype=dt), g, mode, pad, align)

for mode in MODES:  # a size-1 spatial dim ("unit_"): unnormalization and reflection degenerate there
    for pad in PADS:
        for align in [False, True]:
            sample(f"unit_{mode}_{pad}_{int(align)}_f64", torch.randn(2, 2, 1, 4, dtype=torch.float64),
                   torch.rand(2, 3, 2, 2, dtype=torch.float64) * 3 - 1.5, mode, pad, align)
            if mode != "bicubic":
                sample(f"unit_3d_{mode}_{pad}_{int(align)}_f64", torch.randn(1, 2, 2, 1, 3, dtype=torch.float64),
                       torch.rand(1, 2, 2, 2, 3, dtype=torch.float64) * 3 - 1.5, mode, pad, align)

for dt, tag in [(torch.float16, "f16"), (torch.bfloat16, "bf16")]:
    for mode in MODES:
        for pad in PADS:
            x = torch.randn(2, 2, 5, 4).to(dt)
            grid = (torch.rand(2, 4, 3, 2) * 2.4 - 1.2).to(dt)
            name = f"{mode}_{pad}_0_{tag}"
            sample(name, x, grid, mode, pad, False, grad=False)
            # PyTorch's 16-bit CPU path computes the coordinates and weights in the 16-bit type (bfloat16
            # nearest can pick another pixel); jtensor computes in float32 and rounds once, so its reference
            # is float64 sampling of the same values
            out[f"{name}.out64"] = F.grid_sample(x.double(), grid.double(), mode=mode, padding_mode=pad, align_corners=False)
    for mode in MODES[:2]:
        x = torch.randn(1, 2, 3, 4, 3).to(dt)
        grid = (torch.rand(1, 2, 3, 2, 3) * 2.4 - 1.2).to(dt)
        name = f"3d_{mode}_border_0_{tag}"
        sample(name, x, grid, mode, "border", False, grad=False)
        out[f"{name}.out64"] = F.grid_sample(x.double(), grid.double(), mode=mode, padding_mode="border", align_corners=False)

for dims, tag in [([2, 3, 4, 5], "2d"), ([2, 1, 1, 3], "2d_unit"), ([2, 3, 3, 4, 2], "3d")]:
    for align in [False, True]:
        sp = len(dims) - 2
        theta = torch.randn(dims[0], sp, sp + 1, dtype=torch.float64, requires_grad=True)
        g = F.affine_grid(theta, dims, align_corners=align)
        up = torch.randn(g.shape, dtype=g.dtype)
        (g * up).sum().backward()
        name = f"affine_{tag}_{int(align)}"
        out[f"{name}.theta"], out[f"{name}.out"], out[f"{name}.up"], out[f"{name}.grad"] = theta.detach(), g.detach(), up, theta.grad
        out[f"{name}.size"] = torch.tensor(dims)
        affine.append(name)

out["cases"], out["affine"] = cases, affine
torch.save(out, "fixtures.pt")
print(len(cases), "grid_sample cases,", len(affine), "affine_grid cases")
