"""Writes fixtures.pt for StatisticsTest with PyTorch 2.13: aminmax, var_mean, std_mean, quantile and
nanquantile (each interpolation) over float64 (with the gradients of Σ out_k · up_k), float32,
int64, bool, 0-dim, empty inputs and rows holding NaN. Each case "<name>" holds "<name>.in0", ...
(its tensors), ".out0", ".out1" (its results), and for float64 ".up0", ".up1" and ".grad0", ...;
"cases" lists the names; StatisticsTest maps each name to the call with the arguments below.
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import torch

torch.manual_seed(45)
out, cases = {}, []
f64, nan = torch.float64, float("nan")


def add(name, fn, *xs, levels=None):
    """levels: quantile's q, passed last and without a gradient (jtensor's levels carry none)."""
    grad = all(x.dtype == f64 for x in xs)
    xs = [x.clone().requires_grad_(grad) for x in xs]
    if levels is not None:
        xs.append(levels)
    ys = fn(*xs)
    ys = list(ys) if isinstance(ys, tuple) else [ys]
    for k, x in enumerate(xs):
        out[f"{name}.in{k}"] = x.detach()
    for k, y in enumerate(ys):
        out[f"{name}.out{k}"] = y.detach()
    if grad:
        total = 0
        for k, y in enumerate(ys):
            up = torch.randn(y.shape, dtype=y.dtype)
            out[f"{name}.up{k}"] = up
            total = total + (y * up).sum()
        total.backward()
        for k, x in enumerate(xs):
            if x.requires_grad:
                out[f"{name}.grad{k}"] = x.grad if x.grad is not None else torch.zeros_like(x)
    cases.append(name)


x = torch.randn(3, 5, dtype=f64)
x[0, 1] = x[0, 3]  # a tie: amin/amax share the gradient evenly
add("aminmax_all", torch.aminmax, x)
add("aminmax_dim", lambda t: torch.aminmax(t, dim=1, keepdim=True), x)
add("aminmax_dim0", lambda t: torch.aminmax(t, dim=0), x.float())
add("aminmax_i64", lambda t: torch.aminmax(t, dim=-1), torch.randint(-9, 9, (2, 4)))
add("aminmax_bool", torch.aminmax, torch.tensor([[True, False], [True, True]]))
add("aminmax_scalar", lambda t: torch.aminmax(t, dim=0), torch.tensor(2.5, dtype=f64))
add("aminmax_empty", lambda t: torch.aminmax(t, dim=0), torch.ones(2, 0, dtype=f64))
add("aminmax_nan", torch.aminmax, torch.tensor([1.0, nan, -2.0]))
add("varmean_all", torch.var_mean, x)
add("varmean_dim", lambda t: torch.var_mean(t, dim=[1], correction=0, keepdim=True), x)
add("varmean_dims", lambda t: torch.var_mean(t, dim=[0, 1], correction=2), x)
add("varmean_f32", lambda t: torch.var_mean(t, dim=[0]), x.float())
add("varmean_one", torch.var_mean, torch.ones(1, dtype=f64))
add("stdmean_all", torch.std_mean, x)
add("stdmean_dim", lambda t: torch.std_mean(t, dim=[-1], correction=0, keepdim=True), x)
add("stdmean_f32", lambda t: torch.std_mean(t, dim=[1], correction=1), x.float())
rows = torch.randn(4, 7, dtype=f64)
rows[1, 2] = nan
rows[2, :] = nan
rows[3, 0] = nan
rows[3, 5] = nan
q = torch.tensor([0.0, 0.2, 0.5, 0.75, 1.0], dtype=f64)
for mode in ["linear", "lower", "higher", "midpoint", "nearest"]:
    add(f"quantile_{mode}", lambda t, l, m=mode: torch.quantile(t, l, dim=1, interpolation=m), rows[[0, 3]], levels=q)
    add(f"nanquantile_{mode}", lambda t, l, m=mode: torch.nanquantile(t, l, dim=1, interpolation=m), rows, levels=q)
    add(f"nanquantile_f32_{mode}", lambda t, l, m=mode: torch.nanquantile(t, l, dim=0, keepdim=True, interpolation=m),
        rows.float().t(), levels=q.float())
    add(f"quantile_all_{mode}", lambda t, l, m=mode: torch.quantile(t, l, interpolation=m), rows[0], levels=torch.tensor(0.3, dtype=f64))
add("nanquantile_all", lambda t, l: torch.nanquantile(t, l, keepdim=True), rows, levels=torch.tensor(0.4, dtype=f64))
out["cases"] = cases
torch.save(out, "fixtures.pt")
print(len(cases), "cases")
