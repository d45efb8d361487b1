"""Writes fixtures.pt for StatisticsTest with PyTorch 2.13: aminmax, var_mean, std_mean, quantile and
nanquantile (each interpolation), cov, corrcoef, histc, histogram, renorm and logit over float64
(with the gradients of Σ out_k · up_k for the float64 inputs), float32, float16, int64, bool, 0-dim,
empty inputs and rows holding NaN. Each case "<name>" holds "<name>.in0", ...
(its tensors), ".out0", ".out1" (its results), and for float64 ".up0", ".up1" and ".grad0", ...;
"cases" lists the names; StatisticsTest maps each name to the call with the arguments below.
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import torch

torch.manual_seed(45)
out, cases = {}, []
f64, nan = torch.float64, float("nan")


def add(name, fn, *xs, levels=None):
    """levels: quantile's q, passed last and without a gradient (jtensor's levels carry none)."""
    # the float64 inputs take gradients, except histc's and histogram's (PyTorch has no derivative for them)
    grad = any(x.dtype == f64 for x in xs) and not name.startswith("hist")
    xs = [x.clone().requires_grad_(grad and x.dtype == f64) for x in xs]
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
v = torch.randn(3, 6, dtype=f64)
fw, aw = torch.tensor([1, 2, 0, 3, 1, 1]), torch.rand(6, dtype=f64) + 0.1
add("cov", torch.cov, v)
add("cov_1d", torch.cov, v[0])
add("cov_corr0", lambda t: torch.cov(t, correction=0), v)
add("cov_weights", lambda t, f, a: torch.cov(t, correction=1, fweights=f, aweights=a), v, fw, aw)
add("cov_fweights", lambda t, f: torch.cov(t, correction=2, fweights=f), v, fw)
add("cov_int", torch.cov, torch.randint(-5, 6, (2, 5)))
add("cov_mixed", lambda t, a: torch.cov(t, aweights=a), v.float(), aw)
add("cov_dof", lambda t: torch.cov(t, correction=7), v)
add("corrcoef", torch.corrcoef, v)
add("corrcoef_1d", torch.corrcoef, v[1])
add("corrcoef_f32", torch.corrcoef, v.float())
h = torch.randn(50)
add("histc", lambda t: torch.histc(t, bins=7), h)
add("histc_range", lambda t: torch.histc(t, bins=4, min=-1, max=1), h)
add("histc_same", lambda t: torch.histc(t, bins=3), torch.ones(4))
add("histc_f64", lambda t: torch.histc(t, bins=5), h.double().detach())
add("histc_inf", lambda t: torch.histc(t, bins=3, min=0, max=2), torch.tensor([1.0, float("inf"), nan, 2.0, 0.0]))
add("histc_empty", lambda t: torch.histc(t, bins=3), torch.ones(0))
add("histogram", lambda t: torch.histogram(t, 5), h)
add("histogram_range", lambda t, w: torch.histogram(t, 4, range=(-1.0, 1.0), weight=w), h, torch.rand(50))
add("histogram_density", lambda t: torch.histogram(t, 6, density=True), h)
add("histogram_edges", lambda t, e: torch.histogram(t, e), h, torch.tensor([-2.0, -0.5, 0.0, 0.25, 3.0]))
add("histogram_edges_density", lambda t, e, w: torch.histogram(t, e, weight=w, density=True), h, torch.tensor([-2.0, -0.5, 0.0, 0.25, 3.0]), torch.rand(50))
add("histogram_same", lambda t: torch.histogram(t, 3), torch.ones(3, dtype=f64))
add("histogram_empty", lambda t: torch.histogram(t, 3), torch.ones(0))
w = torch.randn(3, 4, dtype=f64)
add("renorm", lambda t: t.renorm(2, 0, 1.5), w)
add("renorm_p1", lambda t: t.renorm(1, 1, 1.0), w)
add("renorm_inf", lambda t: t.renorm(float("inf"), 0, 1.0), w)
add("renorm_half_p", lambda t: t.renorm(0.5, 0, 3.0), w)
add("renorm_f32", lambda t: t.renorm(2, -1, 0.5), torch.randn(2, 3, 4))
add("renorm_f16", lambda t: t.renorm(2, 0, 1.0), torch.randn(3, 4).half())
p = torch.tensor([0.0, 0.05, 0.1, 0.25, 0.5, 0.9, 0.95, 1.0, 2.0, -0.5, nan], dtype=f64)
add("logit", torch.logit, p)
add("logit_eps", lambda t: torch.logit(t, eps=0.1), p)
add("logit_f32", lambda t: torch.logit(t, eps=1e-6), p.float())
add("logit_f16", lambda t: torch.logit(t, eps=0.2), p.half())
add("logit_wide_eps", lambda t: torch.logit(t, eps=0.7), p)
add("logit_i64", torch.logit, torch.tensor([0, 1, 2]))
add("logit_bool", torch.logit, torch.tensor([True, False]))
out["cases"] = cases
torch.save(out, "fixtures.pt")
print(len(cases), "cases")
