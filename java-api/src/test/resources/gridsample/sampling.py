"""The fixture scripts' one grid_sample case (make_fixtures.py, make_hostile_fixtures.py)."""
import torch
import torch.nn.functional as F


def sample(out, cases, name, x, grid, mode, pad, align, grad=True):
    """F.grid_sample of x at grid into out as "<name>.x", ".grid", ".out" and, with grad, the
    gradients of (out * up).sum() (".up", ".grad_x", ".grad_grid"); name appended to cases."""
    x = x.clone().requires_grad_(grad)
    grid = grid.clone().requires_grad_(grad)
    y = F.grid_sample(x, grid, mode=mode, padding_mode=pad, align_corners=align)
    out[f"{name}.x"], out[f"{name}.grid"], out[f"{name}.out"] = x.detach(), grid.detach(), y.detach()
    if grad:
        up = torch.randn(y.shape, dtype=y.dtype)
        (y * up).sum().backward()
        out[f"{name}.up"], out[f"{name}.grad_x"], out[f"{name}.grad_grid"] = up, x.grad, grid.grad
    cases.append(name)
