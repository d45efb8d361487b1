"""Writes hostile_fixtures.pt for nn/GridSampleHostileTest with PyTorch 2.13 (CPU): F.grid_sample
where the coordinate arithmetic is stressed, with the gradients of (out * up).sum() (".x", ".grid",
".out", ".up", ".grad_x", ".grad_grid"):
"far_...": grids of magnitude 10 to 1e4 (reflection folds them many times; float32's ulp matters);
"edge_...": grids exactly on -1, 1 and the pixel edges and centres next to them;
"tiny_...": 1 x 1 (and 1 x 1 x 1) inputs, where reflection's span is 0 with align_corners;
"huge_...": float32 grids of magnitude 1e4 to 1e8 under reflection (ATen's vectorized 2-D kernel, as
shipped for AVX2/AVX-512, rounds its unnormalization and remainder once each: FMA);
"edge3d_...": 5-D grids on the borders and pixel edges (ATen's scalar 3-D kernel: no FMA);
and 16-bit forwards with NaN in input and grid ("half_...", ".out64": float64 sampling of the same values).
"cases" lists the names as "<kind>_<mode>_<padding>_<align>_<dtype>". Regenerate: python3 make_hostile_fixtures.py."""
import functools
import itertools

import torch
import torch.nn.functional as F

import sampling

torch.manual_seed(64)
out, cases = {}, []
nan = float("nan")
MODES, PADS = ["bilinear", "nearest", "bicubic"], ["zeros", "border", "reflection"]
sample = functools.partial(sampling.sample, out, cases)

for (dt, tag), mode, pad, align in itertools.product([(torch.float64, "f64"), (torch.float32, "f32")], MODES, PADS, [False, True]):
    a = int(align)
    mag = 10 ** (torch.rand(1, 3, 4, 2, dtype=torch.float64) * 3 + 1)  # 10 .. 1e4
    sign = torch.randint(0, 2, (1, 3, 4, 2)).to(torch.float64) * 2 - 1
    sample(f"far_{mode}_{pad}_{a}_{tag}", torch.randn(1, 2, 3, 5, dtype=dt), (mag * sign).to(dt), mode, pad, align)
    # -1, 1, the edges and centres of the border pixels, and just past them, for W = 5, H = 3
    xs = torch.tensor([-1, 1, -0.8, 0.8, -0.6, 0.6, -1.2, 1.2, 0, -1 + 1e-7, 1 - 1e-7, 0.5], dtype=torch.float64)
    ys = torch.tensor([-1, 1, 1, -1, -2 / 3, 2 / 3, -1 / 3, 1 / 3, -4 / 3, 4 / 3, 0, 1], dtype=torch.float64)
    grid = torch.stack([xs, ys], -1).reshape(1, 3, 4, 2).to(dt)
    sample(f"edge_{mode}_{pad}_{a}_{tag}", torch.randn(1, 2, 3, 5, dtype=dt), grid, mode, pad, align)
    sample(f"tiny_{mode}_{pad}_{a}_{tag}", torch.randn(2, 2, 1, 1, dtype=dt),
           torch.rand(2, 2, 3, 2, dtype=dt) * 4 - 2, mode, pad, align)
    if mode != "bicubic":
        sample(f"tiny3d_{mode}_{pad}_{a}_{tag}", torch.randn(1, 2, 1, 1, 1, dtype=dt),
               torch.rand(1, 2, 2, 2, 3, dtype=dt) * 4 - 2, mode, pad, align)

for mode in MODES:
    for align in [False, True]:
        mag = 10 ** (torch.rand(1, 4, 8, 2, dtype=torch.float64) * 4 + 4)
        sign = torch.randint(0, 2, (1, 4, 8, 2)).to(torch.float64) * 2 - 1
        sample(f"huge_{mode}_reflection_{int(align)}_f32", torch.randn(1, 2, 3, 5), (mag * sign).float(), mode, "reflection", align)
for mode in MODES[:2]:
    for pad in PADS:
        for align in [False, True]:
            v = torch.tensor([-1, 1, -2 / 3, 2 / 3, -1 / 3, 1 / 3, -0.6, 0.6, -1.2, 0, 1 - 1e-7, -4 / 3], dtype=torch.float64)
            grid = torch.stack([v, v.flip(0), v.roll(3)], -1).reshape(1, 2, 2, 3, 3)
            sample(f"edge3d_{mode}_{pad}_{int(align)}_f64", torch.randn(1, 2, 3, 3, 5, dtype=torch.float64), grid, mode, pad, align)

for dt, tag in [(torch.float16, "f16"), (torch.bfloat16, "bf16")]:
    for mode in MODES:
        for pad in PADS:
            x = torch.randn(1, 2, 3, 4)
            x[0, 0, 1, 2] = nan
            grid = torch.rand(1, 3, 3, 2) * 2.4 - 1.2
            grid[0, 0, 0, 0], grid[0, 1, 1, 1] = nan, nan
            x, grid = x.to(dt), grid.to(dt)
            name = f"half_{mode}_{pad}_0_{tag}"
            sample(name, x, grid, mode, pad, False, grad=False)
            out[f"{name}.out64"] = F.grid_sample(x.double(), grid.double(), mode=mode, padding_mode=pad, align_corners=False)

out["cases"] = cases
torch.save(out, "hostile_fixtures.pt")
print(len(cases), "cases")
