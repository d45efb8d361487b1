"""PyTorch's side of ElementwiseBenchmark (2 threads, as jtensor's machine has): exp, log, sigmoid,
tanh, gelu, relu, add, mul, sum and randn over float32 [512, 256] and [1024, 4096], out of place.
Prints `peer OP SHAPE US` lines, the median of timed rounds after warm-up, in microseconds. Run it
before and after jtensor's JMH run in one command and report the ratio:
python3 torch_cpu_elementwise_peer.py [THREADS]"""
import statistics
import sys
import time

import torch
import torch.nn.functional as F

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 2)


def median_us(fn, seconds=1.0):
    for _ in range(20):
        fn()
    ts = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end or len(ts) < 20:
        t0 = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(ts)


for shape in ((512, 256), (1024, 4096)):
    g = torch.Generator().manual_seed(0)
    a = torch.rand(shape, generator=g) + 0.5
    b = torch.rand(shape, generator=g)
    cases = {
        "exp": lambda: a.exp(), "log": lambda: a.log(), "sigmoid": lambda: a.sigmoid(),
        "tanh": lambda: a.tanh(), "gelu": lambda: F.gelu(a), "relu": lambda: a.relu(),
        "add": lambda: a + b, "mul": lambda: a * b, "sum": lambda: a.sum(),
        "randn": lambda: torch.randn(shape, generator=g),
    }
    for name, fn in cases.items():
        print(f"peer {name} {shape[0]},{shape[1]} {median_us(fn):.1f}", flush=True)
