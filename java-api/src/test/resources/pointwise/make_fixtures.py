"""Writes fixtures.pt for PointwiseAdditionsTest with PyTorch 2.13: sinh, cosh, asinh, acosh, atanh,
log10, erfc, deg2rad, rad2deg, signbit, isposinf, isneginf, fmax, fmin, float_power (float64 and
float32 inputs with their gradients of (out * up).sum(): "<case>.x", ".y", ".out", ".up", ".grad_x",
".grad_y"), the same on float16, bfloat16, int64 and bool (values and dtypes only), and gcd/lcm over
every integer dtype with the edges (0, -1, the dtype's lowest, wrapping lcm). The float inputs hold 0,
-0.0, ±1, NaN, ±inf and large values. "cases" lists the case names.
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import torch

torch.manual_seed(33)
out, cases = {}, []
nan, inf = float("nan"), float("inf")


def add(name, fn, *xs, grad=True):
    xs = [x.clone().requires_grad_(grad and x.is_floating_point()) for x in xs]
    y = fn(*xs)
    out[f"{name}.x"] = xs[0].detach()
    if len(xs) > 1:
        out[f"{name}.y"] = xs[1].detach()
    out[f"{name}.out"] = y.detach()
    if grad and y.is_floating_point():
        up = torch.randn(y.shape, dtype=y.dtype)
        (y * up).sum().backward()
        out[f"{name}.up"] = up
        if xs[0].grad is not None:
            out[f"{name}.grad_x"] = xs[0].grad
        if len(xs) > 1 and xs[1].grad is not None:
            out[f"{name}.grad_y"] = xs[1].grad
    cases.append(name)


edges = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -3.0, 10.0, -20.0, 89.0, -89.0, 800.0, 1e-8, -1e-30, 0.999, -0.9999]
special = [nan, inf, -inf, 1e300, -1e300, 1.0 + 1e-12]
unary = {"sinh": torch.sinh, "cosh": torch.cosh, "asinh": torch.asinh, "acosh": torch.acosh, "atanh": torch.atanh,
         "log10": torch.log10, "erfc": torch.erfc, "deg2rad": torch.deg2rad, "rad2deg": torch.rad2deg,
         "signbit": torch.signbit, "isposinf": torch.isposinf, "isneginf": torch.isneginf}
for dt, tag in [(torch.float64, "f64"), (torch.float32, "f32")]:
    x = torch.cat([torch.tensor(edges, dtype=dt), torch.randn(23, dtype=dt) * 3])
    s = torch.tensor(special + [-nan], dtype=dt)
    for name, fn in unary.items():
        xin = x.abs() + 1 if name == "acosh" else (x.clamp(-1, 1) if name == "atanh" else x)
        # float32 sinh and cosh: PyTorch's float64 values rounded. Its float32 CPU kernel answers
        # sinh(89) = inf on a tensor of 16 elements or more (its vectorized path overflows exp(x)
        # first) and 2.2448e38, the true value, on fewer; jtensor gives the true value at any length.
        f = (lambda t, fn=fn: fn(t.double()).float()) if dt == torch.float32 and name in ("sinh", "cosh") else fn
        add(f"{name}_{tag}", f, xin)
        add(f"{name}_special_{tag}", fn, s, grad=False)
    a = torch.tensor([1.0, nan, nan, -0.0, 0.0, 2.0, -inf, 3.0], dtype=dt)
    b = torch.tensor([nan, 2.0, nan, 0.0, -0.0, 2.0, 5.0, inf], dtype=dt)
    a = torch.cat([a, torch.randn(12, dtype=dt)]).reshape(4, 5)
    b = torch.cat([b, torch.randn(12, dtype=dt)]).reshape(4, 5)
    add(f"fmax_{tag}", torch.fmax, a, b)
    add(f"fmin_{tag}", torch.fmin, a, b)
    add(f"fmax_bcast_{tag}", torch.fmax, a, b[0])
    pos = torch.rand(6, dtype=dt) * 3 + 0.1
    add(f"float_power_{tag}", torch.float_power, pos, torch.randn(6, dtype=dt))
for dt, tag in [(torch.float16, "f16"), (torch.bfloat16, "bf16"), (torch.int64, "i64"), (torch.bool, "bool")]:
    if dt == torch.bool:
        x = torch.tensor([True, False, True])
    elif dt == torch.int64:
        x = torch.tensor([0, 1, -1, 2, -7, 100, 2**40])
    else:
        x = torch.tensor(edges[:10] + [nan, inf, -inf], dtype=dt)
    for name, fn in unary.items():
        xin = x.abs() + 1 if name == "acosh" and dt != torch.bool else x
        add(f"{name}_special_{tag}", fn, xin, grad=False)
    if dt != torch.bool:
        add(f"fmax_special_{tag}", torch.fmax, x, x.flip(0))
        add(f"fmin_special_{tag}", torch.fmin, x, x.flip(0))
    add(f"float_power_special_{tag}", torch.float_power, x, x.flip(0), grad=False)
ints = {torch.uint8: [0, 1, 255, 128, 12, 18, 100, 3], torch.int8: [-128, 0, 127, -1, 12, -18, 100, 3],
        torch.int16: [-32768, 0, 300, -1, 12, -18, 30000, 7], torch.int32: [-2**31, 0, 2**30, -1, 12, -18, 2**20 + 1, 65537],
        torch.int64: [-2**63, 0, 2**62, -1, 12, -18, 2**40 + 3, 2**33]}
for dt, v in ints.items():
    a = torch.tensor(v, dtype=dt)
    b = torch.tensor(v[1:] + v[:1], dtype=dt)  # lowest against 0, never against -1
    # PyTorch's own gcd and lcm trap (SIGFPE, INT_MIN % -1 and INT_MIN / -1) on int32's and int64's lowest
    # against -1, and its lcm wherever the lowest's gcd with the other is -1: left out (PointwiseAdditionsTest
    # checks jtensor's answers there by hand)
    wide = dt in (torch.int32, torch.int64)
    pairs = torch.tensor([[x, y] for x in v for y in v if not (wide and {x, y} == {v[0], -1})], dtype=dt)
    add(f"gcd_special_{dt}".replace("torch.", ""), torch.gcd, pairs[:, 0], pairs[:, 1], grad=False)
    pairs = torch.tensor([[x, y] for x in v for y in v if not (wide and v[0] in (x, y))], dtype=dt)
    add(f"lcm_special_{dt}".replace("torch.", ""), torch.lcm, pairs[:, 0], pairs[:, 1], grad=False)
    rows = a[1:] if wide else a
    add(f"gcd_bcast_special_{dt}".replace("torch.", ""), torch.gcd, rows.reshape(-1, 1), b, grad=False)
out["cases"] = cases
torch.save(out, "fixtures.pt")
print(len(cases), "cases")
