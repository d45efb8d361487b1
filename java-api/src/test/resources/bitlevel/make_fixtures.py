"""Writes fixtures.pt for BitLevelAndBesselTest with PyTorch 2.13: i0, special.i0e/i1/i1e, polygamma
(n = 0 to 4), frexp, special.xlog1py, ldexp, nextafter, bitwise_left_shift/bitwise_right_shift and
isin. Float64 and
float32 cases carry the gradients of (out * up).sum() ("<case>.x", ".y", ".out", ".up", ".grad_x",
".grad_y"; frexp's exponent is ".exponent"); the float16, bfloat16, integer and bool cases values and
dtypes only. The Bessel functions also run over a wide range (to 700 in float64, where i0 nears
overflow) for their accuracy; nextafter covers ±0, subnormals, the largest finite value, inf and NaN;
the shifts every integer dtype with counts -1, 0, 1, width - 1, width, width + 1 and 100; isin promotes,
inverts and meets NaN and -0.0. "cases" lists the case names.
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from golden_cases import xy_recorder  # noqa: E402

torch.manual_seed(34)
out, cases = {}, []
add = xy_recorder(out, cases)
nan, inf = float("nan"), float("inf")

edges = [0.0, -0.0, 1e-8, -1e-30, 0.5, -0.5, 1.0, -2.0, 7.9, 8.0, 8.1, -8.5, 10.0, -20.0, 50.0]
special = [nan, inf, -inf, 1e300, -1e300, 5e-324, 2.2250738585072014e-308, 1.0 + 1e-12]
bessel = {"i0": torch.i0, "i0e": torch.special.i0e, "i1": torch.special.i1, "i1e": torch.special.i1e}
for dt, tag, far in [(torch.float64, "f64", 700.0), (torch.float32, "f32", 85.0)]:
    x = torch.cat([torch.tensor(edges, dtype=dt), torch.randn(17, dtype=dt) * 5])
    s = torch.tensor(special + [-nan], dtype=dt)
    wide = torch.linspace(-far, far, 1401, dtype=dt)
    for name, fn in bessel.items():
        add(f"{name}_{tag}", fn, x)
        add(f"{name}_special_{tag}", fn, s, grad=False)
        add(f"{name}_wide_{tag}", fn, wide, grad=False)
    for n in range(5):
        pg = lambda t, n=n: torch.polygamma(n, t)
        add(f"polygamma{n}_{tag}", pg, x.abs() + 0.05 if n > 1 else x)
        add(f"polygamma{n}_special_{tag}", pg, torch.cat([s, torch.tensor([0.0, -2.0, -1.5, 1e-3, 30.0], dtype=dt)]), grad=False)
    add(f"frexp_{tag}", torch.frexp, x)
    add(f"frexp_special_{tag}", torch.frexp, s, grad=False)
    a = torch.tensor([0.0, 0.0, 1.0, -2.0, 3.0, nan, 2.5, 0.0, 1.5], dtype=dt)
    b = torch.tensor([-1.0, 0.0, -1.0, inf, 0.5, 1.0, nan, nan, -0.5], dtype=dt)
    add(f"xlog1py_special_{tag}", torch.special.xlog1py, a, b, grad=False)
    add(f"xlog1py_{tag}", torch.special.xlog1py, torch.randn(12, dtype=dt), torch.rand(12, dtype=dt) * 3 - 0.9)
    add(f"xlog1py_bcast_{tag}", torch.special.xlog1py, torch.randn(3, 1, dtype=dt), torch.rand(4, dtype=dt) * 2)
    m = torch.tensor([1.0, -1.5, 1e-30, 3.0, 0.0, -0.0, inf, nan, 0.75, 1e30], dtype=dt)
    e = torch.tensor([3, -2, 150, -1074, 5000, 3, -5000, 1, 2**31 + 4, -2**33], dtype=torch.int64)
    add(f"ldexp_int_{tag}", torch.ldexp, m, e)
    add(f"ldexp_int32_{tag}", torch.ldexp, m, e.to(torch.int32))
    add(f"ldexp_float_{tag}", torch.ldexp, torch.randn(8, dtype=dt), torch.randn(8, dtype=dt) * 4)
    add(f"ldexp_special_float_{tag}", torch.ldexp, torch.tensor([0.0, inf, 1.0, -0.0, 1e-30], dtype=dt),
        torch.tensor([inf, inf, -inf, nan, 150.0], dtype=dt), grad=False)
    tiny = torch.finfo(dt).tiny
    big = torch.finfo(dt).max
    sub = tiny * torch.finfo(dt).eps
    nx = torch.tensor([0.0, -0.0, 0.0, -0.0, sub, sub, -sub, tiny, -tiny, 1.0, 1.0, -1.0, big, big, -big, inf, -inf, nan, 1.0, 2.0, 0.0],
                      dtype=dt)
    ny = torch.tensor([1.0, -1.0, -0.0, 0.0, 0.0, 1.0, 1.0, 0.0, -1.0, 2.0, 0.0, -2.0, inf, 0.0, -inf, 0.0, 0.0, 1.0, nan, 2.0, -0.0],
                      dtype=dt)
    add(f"nextafter_exact_{tag}", torch.nextafter, nx, ny, grad=False)
    add(f"nextafter_bcast_exact_{tag}", torch.nextafter, torch.randn(3, 1, dtype=dt), torch.randn(5, dtype=dt))
for dt, tag in [(torch.float16, "f16"), (torch.bfloat16, "bf16"), (torch.int64, "i64"), (torch.bool, "bool")]:
    if dt == torch.bool:
        x = torch.tensor([True, False, True])
    elif dt == torch.int64:
        x = torch.tensor([0, 1, -1, 2, -7, 30])
    else:
        x = torch.tensor(edges[:12] + [nan, inf, -inf], dtype=dt)
    for name, fn in bessel.items():
        add(f"{name}_special_{tag}", fn, x, grad=False)
    add(f"polygamma3_special_{tag}", lambda t: torch.polygamma(3, t), x, grad=False)
    if dt.is_floating_point:
        add(f"frexp_special_{tag}", torch.frexp, x, grad=False)
        fi = torch.finfo(dt)
        nx = torch.tensor([0.0, -0.0, 0.0, fi.tiny, 1.0, 1.0, -1.0, fi.max, -fi.max, inf, nan, 1.0, 0.0], dtype=dt)
        ny = torch.tensor([1.0, -1.0, -0.0, 0.0, 2.0, 0.0, -2.0, inf, 0.0, 0.0, 1.0, nan, -0.0], dtype=dt)
        add(f"nextafter_exact_{tag}", torch.nextafter, nx, ny, grad=False)
        add(f"ldexp_int_special_{tag}", torch.ldexp, torch.tensor([1.0, 1.0, 3.0, 2.0**-133, 1.0], dtype=dt), torch.tensor([-24, 15, 16, 257, -133]),
            grad=False)
    add(f"xlog1py_special_{tag}", torch.special.xlog1py, x, x.flip(0), grad=False)
    add(f"ldexp_special_{tag}", torch.ldexp, x, torch.tensor([2, -1, 3])[:1].expand(len(x)).contiguous(), grad=False)
ints = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
for dt in ints:
    info = torch.iinfo(dt)
    w = info.bits
    vals = [1, 5, 0, 3, info.min, info.max] + ([255] if dt == torch.uint8 else [-1, -8])
    counts = [c for c in [-1, 0, 1, w - 1, w, w + 1, 100] if info.min <= c <= info.max]
    a = torch.tensor([v for v in vals for _ in counts], dtype=dt)
    b = torch.tensor([c for _ in vals for c in counts], dtype=dt)
    tag = str(dt).replace("torch.", "")
    add(f"lshift_exact_{tag}", torch.bitwise_left_shift, a, b, grad=False)
    add(f"rshift_exact_{tag}", torch.bitwise_right_shift, a, b, grad=False)
# promotion: int8 by int64 counts gives int64; broadcasting
add("lshift_promote_exact_mixed", torch.bitwise_left_shift, torch.tensor([1, -3, 100], dtype=torch.int8), torch.tensor([3, 9, 60]), grad=False)
add("rshift_bcast_exact_mixed", torch.bitwise_right_shift, torch.tensor([[-100], [77]], dtype=torch.int16), torch.tensor([0, 2, 15, 16], dtype=torch.uint8),
    grad=False)
# isin
iv = torch.tensor([[1, 2, 3], [4, 5, 6]])
add("isin_exact_i64", torch.isin, iv, torch.tensor([2, 4, 6, 8]), grad=False)
add("isin_exact_promote", torch.isin, iv, torch.tensor([2.0, 4.5]), grad=False)
add("isin_exact_f32", torch.isin, torch.tensor([1.0, nan, 0.0, -0.0, inf, 2.5]), torch.tensor([nan, 1.0, 0.0, inf]), grad=False)
add("isin_exact_rounding", torch.isin, torch.tensor([16777217, 3]), torch.tensor([16777216.0]), grad=False)
add("isin_exact_f16_f64", torch.isin, torch.tensor([1.0, 2.0], dtype=torch.float16), torch.tensor([2.0001, 1.0], dtype=torch.float64), grad=False)
add("isin_exact_u8_i64", torch.isin, torch.tensor([1, 255, 0], dtype=torch.uint8), torch.tensor([-1, 0]), grad=False)
add("isin_exact_empty_test", torch.isin, torch.tensor([1.0, 2.0]), torch.tensor([]), grad=False)
add("isin_exact_empty_elements", torch.isin, torch.tensor([], dtype=torch.int32), torch.tensor([1, 2]), grad=False)
add("isin_exact_scalar_elements", torch.isin, torch.tensor(5), torch.tensor([[5, 6]]), grad=False)
add("isin_exact_invert", lambda a, b: torch.isin(a, b, invert=True), iv, torch.tensor([3, 1, 3]), grad=False)
r = torch.randint(-20, 20, (50,))
add("isin_exact_random", torch.isin, r, torch.randint(-20, 20, (30,)), grad=False)
out["isin_scalar_int8_258"] = torch.isin(torch.tensor([1, 2], dtype=torch.int8), 258)
out["isin_scalar_u8_m1"] = torch.isin(torch.tensor([1, 255], dtype=torch.uint8), -1)
out["isin_scalar_i32_2p5"] = torch.isin(torch.tensor([2, 3], dtype=torch.int32), 2.5)
out["isin_scalar_f32_2"] = torch.isin(torch.tensor([2.0, 3.0]), 2.0)
out["cases"] = cases
torch.save(out, "fixtures.pt")
print(len(cases), "cases")
