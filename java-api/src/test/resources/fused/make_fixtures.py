"""Writes fixtures.pt for FusedArithmeticTest with PyTorch 2.13: torch.addcmul and torch.addcdiv over
float64 (broadcast, with the gradients of (out * up).sum() for all three tensors), float32 (many
random values: jtensor rounds as PyTorch's fused kernel, so they compare bit for bit), float16,
bfloat16, int64 and mixed dtypes. Each case "<name>" holds "<name>.in0", ".in1", ".in2", ".out",
and for float64 ".up", ".grad0", ".grad1", ".grad2"; "cases" lists the names; FusedArithmeticTest
maps each name to the call with the value below.
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from golden_cases import randn as r, recorder  # noqa: E402

torch.manual_seed(62)
out, cases = {}, []
add = recorder(out, cases)
f32, f16, bf16 = torch.float32, torch.float16, torch.bfloat16
ints = lambda *s: torch.randint(-9, 10, s)

add("addcmul", lambda a, b, c: torch.addcmul(a, b, c, value=0.7), r(3, 1), r(4), r(1, 4))
add("addcmul_default", torch.addcmul, r(2, 3), r(2, 3), r(3))
add("addcmul_f32", lambda a, b, c: torch.addcmul(a, b, c, value=-0.3), r(4000, dtype=f32), r(4000, dtype=f32), r(4000, dtype=f32))
add("addcmul_f16", lambda a, b, c: torch.addcmul(a, b, c, value=0.1), r(64, dtype=f16), r(64, dtype=f16), r(64, dtype=f16))
add("addcmul_bf16", lambda a, b, c: torch.addcmul(a, b, c, value=0.1), r(64, dtype=bf16), r(64, dtype=bf16), r(64, dtype=bf16))
add("addcmul_int", lambda a, b, c: torch.addcmul(a, b, c, value=3), ints(2, 3), ints(3), ints(2, 1))
add("addcmul_int_half", lambda a, b, c: torch.addcmul(a, b, c, value=0.5), ints(5), ints(5), ints(5))
add("addcmul_mixed", lambda a, b, c: torch.addcmul(a, b, c, value=2), ints(4), r(4, dtype=f32), ints(4))
add("addcmul_f16_f32", torch.addcmul, r(5, dtype=f16), r(5, dtype=f32), r(5, dtype=f16))
add("addcdiv", lambda a, b, c: torch.addcdiv(a, b, c, value=-1.3), r(3, 1), r(4), r(1, 4) + 3)
add("addcdiv_f32", lambda a, b, c: torch.addcdiv(a, b, c, value=0.01), r(4000, dtype=f32), r(4000, dtype=f32), r(4000, dtype=f32) + 5)
add("addcdiv_bf16", lambda a, b, c: torch.addcdiv(a, b, c, value=0.5), r(64, dtype=bf16), r(64, dtype=bf16), r(64, dtype=bf16) + 4)
add("addcdiv_int_self", lambda a, b, c: torch.addcdiv(a, b, c, value=2), ints(4), r(4, dtype=f32), ints(4) * 0 + 3)
out["cases"] = cases
torch.save(out, os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures.pt"))
print(len(cases), "cases")
