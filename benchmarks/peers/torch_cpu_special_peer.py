"""PyTorch's side of SpecialFunctionsBenchmark (2 threads, as jtensor's machine has): erfinv, erfc,
sin, atan, log10, log2, lgamma and expm1 over 1M float32 values in (0.01, 0.99), out of place.
Prints `peer OP US` lines, the median of timed rounds after warm-up, in microseconds. Run it before
and after jtensor's JMH run in one command and report the ratio:
python3 torch_cpu_special_peer.py [THREADS]"""
import sys

import torch

from peer_timing import median_ms

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
a = torch.rand(1024, 1024, generator=torch.Generator().manual_seed(0)) * 0.98 + 0.01
for op in ["erfinv", "erfc", "sin", "atan", "log10", "log2", "lgamma", "expm1"]:
    f = getattr(torch, op)
    print(f"peer {op} {median_ms(lambda: f(a), 100, warm=10) * 1e3:.1f}")
