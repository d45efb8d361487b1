"""Writes fixtures.pt for OrderStatisticsTest with PyTorch 2.13: median (of all elements; along a
dim, with a NaN row and ties), quantile (a scalar level over all elements, a level along a dim,
several levels with keepdim) and bincount (counts, float32 weights, minlength), with the
gradients of median's and quantile's values for an upstream "up". Regenerate: python3 make_fixtures.py."""
import torch

torch.manual_seed(7)
x = torch.tensor([[3., 1., 2., 5., 2.], [4., 4., 0., 1., 9.], [1., float("nan"), 2., float("nan"), 0.]], dtype=torch.float64)
clean = x[:2].clone()
out = {"x": x, "clean": clean}


def grad_of(fn, inp):
    a = inp.clone().requires_grad_(True)
    y = fn(a)
    up = torch.randn(y.shape, dtype=y.dtype)
    (y * up).sum().backward()
    return y.detach(), up, a.grad


out["median_all"] = torch.median(clean)
v, i = torch.median(x, 1)
out["median_dim1.values"], out["median_dim1.indices"] = v, i
out["median_dim0_keep.values"], out["median_dim0_keep.indices"] = torch.median(clean, 0, keepdim=True)
out["median_dim1_clean.out"], out["median_dim1_clean.up"], out["median_dim1_clean.grad"] = grad_of(lambda a: torch.median(a, 1).values, clean)
out["quantile_all"] = torch.quantile(clean, 0.3)
out["quantile_dim1"] = torch.quantile(x, 0.3, dim=1)
q = torch.tensor([0.25, 0.5, 0.9], dtype=torch.float64)
out["q"] = q
out["quantile_levels_dim0_keep"] = torch.quantile(clean, q, dim=0, keepdim=True)
out["quantile_grad.out"], out["quantile_grad.up"], out["quantile_grad.grad"] = grad_of(lambda a: torch.quantile(a, q, dim=1), clean)
b = torch.tensor([1, 3, 3, 0, 7, 3])
w = torch.tensor([0.5, 1.0, 2.0, 0.25, 1.5, 3.0])
out["b"], out["w"] = b, w
out["bincount"] = torch.bincount(b)
out["bincount_weights"] = torch.bincount(b, weights=w)
out["bincount_minlength"] = torch.bincount(b, minlength=10)
torch.save(out, "fixtures.pt")
