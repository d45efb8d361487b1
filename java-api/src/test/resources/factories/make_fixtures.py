"""Writes fixtures.pt for DerivedFactoriesTest with PyTorch 2.13: logspace (bases, dtypes, 0 and 1
steps, a decreasing range), vander (N, increasing, int8/bool/float inputs) and full_like's casts.
Each case "<name>" holds ".out", and ".in0" where it has an input; "cases" lists the names;
DerivedFactoriesTest maps each name to the call with the arguments below.
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from golden_cases import recorder  # noqa: E402

torch.manual_seed(47)
out, cases = {}, []
f64 = torch.float64
record = recorder(out, cases)


def add(name, fn, *xs):
    # no gradients: PyTorch 2.13's vander has no working backward (its cumprod result is overwritten
    # in place), DerivedFactoriesTest checks jtensor's with GradCheck instead; the rest have no input
    record(name, fn, *xs, grad=False)


add("logspace", lambda: torch.logspace(-2, 3, 11))
add("logspace_base2", lambda: torch.logspace(0, 10, 7, base=2, dtype=f64))
add("logspace_down", lambda: torch.logspace(3, -1.5, 5, base=3.5, dtype=f64))
add("logspace_one", lambda: torch.logspace(2, 5, 1))
add("logspace_zero", lambda: torch.logspace(2, 5, 0))
add("logspace_i64", lambda: torch.logspace(0, 3, 4, dtype=torch.int64))
add("logspace_f16", lambda: torch.logspace(-1, 1, 6, dtype=torch.float16))
x = torch.randn(4, dtype=f64)
add("vander", torch.vander, x)
add("vander_n", lambda t: torch.vander(t, N=6, increasing=True), x)
add("vander_n1", lambda t: torch.vander(t, N=1), x)
add("vander_n0", lambda t: torch.vander(t, N=0), x)
add("vander_i8", torch.vander, torch.tensor([2, -3, 5], dtype=torch.int8))
add("vander_bool", lambda t: torch.vander(t, N=3), torch.tensor([True, False]))
add("vander_f32", lambda t: torch.vander(t, N=5), x.float())
add("fulllike_i64", lambda: torch.full_like(torch.ones(2, 3, dtype=torch.int64), 2.7))
add("fulllike_bool", lambda: torch.full_like(torch.ones(3, dtype=torch.bool), 2))
add("fulllike_f16", lambda: torch.full_like(torch.ones(2, dtype=torch.float16), 1.0 / 3))
out["cases"] = cases
torch.save(out, os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures.pt"))
print(len(cases), "cases")
