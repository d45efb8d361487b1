"""Writes fixtures.pt for ElementwiseAdditionsTest with PyTorch 2.13: issue 21's elementwise ops
(asin, acos, atan, atan2, elu, nan_to_num, isinf, isfinite) on float64 inputs with their outputs
and, for the differentiable ones, the gradients of (output * up).sum() ("<case>.x", "<case>.out",
"<case>.up", "<case>.grad_x"/"<case>.grad_y"); nan_to_num and the predicates also on float32,
float16 and int64 inputs holding NaN and infinities. "cases" lists the case names.
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import torch

torch.manual_seed(21)
out, cases = {}, []


def add(name, fn, *xs, grad=True):
    xs = [x.clone().requires_grad_(grad and x.is_floating_point()) for x in xs]
    y = fn(*xs)
    out[f"{name}.x"] = xs[0].detach()
    if len(xs) > 1:
        out[f"{name}.y"] = xs[1].detach()
    out[f"{name}.out"] = y.detach()
    if grad:
        up = torch.randn(y.shape, dtype=y.dtype)
        (y * up).sum().backward()
        out[f"{name}.up"] = up
        out[f"{name}.grad_x"] = xs[0].grad
        if len(xs) > 1:
            out[f"{name}.grad_y"] = xs[1].grad
    cases.append(name)


u = torch.rand(3, 5, dtype=torch.float64) * 1.8 - 0.9
w = torch.randn(3, 5, dtype=torch.float64) * 2
add("asin", torch.asin, u)
add("acos", torch.acos, u)
add("atan", torch.atan, w)
add("atan2", torch.atan2, w, torch.randn(5, dtype=torch.float64))  # broadcast over rows
add("elu", lambda x: torch.nn.functional.elu(x), w)
add("elu_alpha", lambda x: torch.nn.functional.elu(x, alpha=0.5), w)
add("nan_to_num_grad", lambda x: torch.nan_to_num(x, nan=0.0, posinf=3.0, neginf=-3.0), w)
special = torch.tensor([0.0, -1.5, float("nan"), float("inf"), -float("inf"), 2.5, -0.0, 1e30])
for dt, tag in [(torch.float64, "f64"), (torch.float32, "f32"), (torch.float16, "f16")]:
    s = special.to(dt)
    add(f"nan_to_num_default_{tag}", torch.nan_to_num, s, grad=False)
    add(f"nan_to_num_values_{tag}", lambda x: torch.nan_to_num(x, nan=7.0, posinf=8.0, neginf=-9.0), s, grad=False)
    add(f"isinf_{tag}", torch.isinf, s, grad=False)
    add(f"isfinite_{tag}", torch.isfinite, s, grad=False)
i = torch.tensor([3, -7, 0, 2**40], dtype=torch.int64)
add("nan_to_num_default_i64", torch.nan_to_num, i, grad=False)
add("isinf_i64", torch.isinf, i, grad=False)
add("isfinite_i64", torch.isfinite, i, grad=False)
out["cases"] = cases
torch.save(out, "fixtures.pt")
