"""Writes fixtures.pt for ActivationsAndSpecialTest with PyTorch 2.13: the activations (hardswish,
hardsigmoid, mish, selu, celu, logsigmoid, hard/softshrink, tanhshrink, softsign, threshold,
hardtanh, relu6, glu, prelu) and special functions (lgamma, digamma, sinc, frac, hypot, logaddexp,
logaddexp2, xlogy, copysign, fmod, heaviside, nansum, nanmean) on float64 and float32 inputs with
their gradients of (out * up).sum() ("<case>.x", ".y", ".out", ".up", ".grad_x", ".grad_y"), and on
float16, bfloat16, int64 and bool inputs (values and dtypes only). The inputs hold the kinks (±3,
±lambd, the bounds), 0, -0.0, NaN and infinities. "cases" lists the case names.
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import torch
import torch.nn.functional as F

torch.manual_seed(32)
out, cases = {}, []
nan, inf = float("nan"), float("inf")


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
        if len(xs) > 1 and xs[1].grad is not None:
            out[f"{name}.grad_y"] = xs[1].grad
    cases.append(name)


edges = [-3.0, 3.0, 0.0, -0.0, 6.0, 0.5, -0.5, 1.2, -1.2, 0.3, -1.0, 1.0, 2.0, -20.0, 20.0, 40.0, -40.0]
unary = {
    "hardswish": F.hardswish, "hardsigmoid": F.hardsigmoid, "mish": F.mish, "selu": F.selu,
    "celu": lambda x: F.celu(x, alpha=0.7), "logsigmoid": F.logsigmoid, "hardshrink": F.hardshrink,
    "hardshrink_1.2": lambda x: F.hardshrink(x, 1.2), "softshrink": F.softshrink,
    "softshrink_1.2": lambda x: F.softshrink(x, 1.2), "tanhshrink": F.tanhshrink, "softsign": F.softsign,
    "threshold": lambda x: F.threshold(x, 0.3, -2.0), "hardtanh": F.hardtanh,
    "hardtanh_wide": lambda x: F.hardtanh(x, -0.5, 2.0), "relu6": F.relu6, "frac": torch.frac, "sinc": torch.sinc,
    "elu_selu_like": lambda x: F.elu(x, alpha=1.3),
}
for dt, tag in [(torch.float64, "f64"), (torch.float32, "f32")]:
    x = torch.cat([torch.tensor(edges, dtype=dt), torch.randn(31, dtype=dt) * 4])
    for name, fn in unary.items():
        add(f"{name}_{tag}", fn, x)
    pos = torch.cat([torch.tensor([0.5, 1.0, 2.0, 10.0, 10.5, 1e-3, 30.0, 1e5], dtype=dt), torch.rand(12, dtype=dt) * 20 + 0.01])
    neg = torch.tensor([-0.5, -1.5, -2.25, -7.9, -0.001, -10.5, -12.75], dtype=dt)
    g = torch.cat([pos, neg])
    add(f"lgamma_{tag}", torch.lgamma, g)
    add(f"digamma_{tag}", torch.digamma, g)
    a, b = torch.randn(4, 6, dtype=dt) * 3, torch.randn(6, dtype=dt) * 3  # b broadcast over rows
    add(f"hypot_{tag}", torch.hypot, a, b)
    add(f"logaddexp_{tag}", torch.logaddexp, a, b)
    add(f"logaddexp2_{tag}", torch.logaddexp2, a, b)
    add(f"xlogy_{tag}", torch.xlogy, a, b.abs() + 0.1)
    add(f"copysign_{tag}", torch.copysign, a, b)
    add(f"fmod_{tag}", torch.fmod, a, b)
    add(f"glu_{tag}", lambda t: F.glu(t, 0), a)
    add(f"glu_last_{tag}", F.glu, a)
    add(f"prelu_{tag}", F.prelu, torch.randn(2, 3, 4, dtype=dt), torch.tensor([0.25, -0.5, 2.0], dtype=dt))
    add(f"prelu_one_{tag}", F.prelu, torch.randn(2, 3, 4, dtype=dt), torch.tensor([0.1], dtype=dt))
    m = torch.randn(3, 5, dtype=dt)
    m[0, 1] = nan
    m[2, :] = nan
    add(f"nansum_{tag}", torch.nansum, m)
    add(f"nansum_dim_{tag}", lambda t: torch.nansum(t, 1, keepdim=True), m)
    add(f"nanmean_{tag}", torch.nanmean, m)
    add(f"nanmean_dim_{tag}", lambda t: torch.nanmean(t, 1), m)
    add(f"nanmean_dim0_{tag}", lambda t: torch.nanmean(t, 0, keepdim=True), m)

# special values, no gradients
sx = torch.tensor([0.0, -0.0, nan, inf, -inf, -1.0, -2.0, 1.0, 3.0, -3.0, 1e30, -1e30, 5e-324], dtype=torch.float64)
for dt, tag in [(torch.float64, "f64"), (torch.float32, "f32"), (torch.float16, "f16"), (torch.bfloat16, "bf16")]:
    s = sx.to(dt)
    for name, fn in list(unary.items()) + [("lgamma", torch.lgamma), ("digamma", torch.digamma)]:
        add(f"{name}_special_{tag}", fn, s, grad=False)
    p, q = torch.meshgrid(s, s, indexing="ij")
    for name, fn in [("hypot", torch.hypot), ("logaddexp", torch.logaddexp), ("logaddexp2", torch.logaddexp2),
                     ("xlogy", torch.xlogy), ("copysign", torch.copysign), ("fmod", torch.fmod), ("heaviside", torch.heaviside)]:
        add(f"{name}_special_{tag}", fn, p.reshape(-1), q.reshape(-1), grad=False)
i = torch.tensor([7, -7, 0, 3, -3, 2**40, 1, 6], dtype=torch.int64)
j = torch.tensor([2, 2, 5, -2, -2, 3, 1, 4], dtype=torch.int64)
for name, fn in [("threshold", lambda t: F.threshold(t, 1.5, 7.9)), ("hardtanh", lambda t: F.hardtanh(t, -1.5, 1.5)), ("relu6", F.relu6),
                 ("lgamma", torch.lgamma), ("digamma", torch.digamma), ("sinc", torch.sinc), ("nansum", torch.nansum)]:
    add(f"{name}_i64", fn, i, grad=False)
for name, fn in [("fmod", torch.fmod), ("xlogy", torch.xlogy), ("copysign", torch.copysign), ("heaviside", torch.heaviside)]:
    add(f"{name}_i64", fn, i, j, grad=False)
bo, bv = torch.tensor([True, False, True, False]), torch.tensor([False, True, True, False])
add("heaviside_bool", torch.heaviside, bo, bv, grad=False)
add("lgamma_bool", torch.lgamma, bo, grad=False)
add("nansum_bool", torch.nansum, bo, grad=False)
out["cases"] = cases
torch.save(out, "fixtures.pt")
print(len(cases), "cases")
