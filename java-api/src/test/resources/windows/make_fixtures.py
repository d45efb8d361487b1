"""Writes fixtures.pt for WindowFunctionsTest with PyTorch 2.13: torch.hann_window, hamming_window,
blackman_window, bartlett_window and kaiser_window at lengths 0 to 9 and 64, periodic and symmetric, in
float32 (the default), float64, float16 and bfloat16, hamming with alpha/beta and kaiser with beta.
Each case is "<fn>.<length>.<periodic>.<dtype>[.<params>]"; "cases" lists the names.
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import os

import torch

out, cases = {}, []
dtypes = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16, "bfloat16": torch.bfloat16}


def add(name, fn, n, periodic, dtype, *params):
    key = f"{name}.{n}.{int(periodic)}.{dtype}" + "".join(f".{p}" for p in params)
    out[key] = fn(n, periodic, *params, dtype=dtypes[dtype])
    cases.append(key)


for n in list(range(10)) + [64]:
    for periodic in (True, False):
        for dtype in dtypes:
            add("hann", torch.hann_window, n, periodic, dtype)
            add("hamming", torch.hamming_window, n, periodic, dtype)
            add("blackman", torch.blackman_window, n, periodic, dtype)
            add("bartlett", torch.bartlett_window, n, periodic, dtype)
            add("kaiser", torch.kaiser_window, n, periodic, dtype)
        add("hamming", torch.hamming_window, n, periodic, "float64", 0.3, 0.2)
        add("kaiser", torch.kaiser_window, n, periodic, "float64", 5.0)
        add("kaiser", torch.kaiser_window, n, periodic, "float32", 0.5)
out["cases"] = cases
torch.save(out, os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures.pt"))
print(len(cases), "cases")
