"""PyTorch's side of ComputeBenchmark's sums (2 threads, as jtensor's machine has): float32
[4096, 4096] summed over all, over dim 0 and over dim 1, out of place. Prints `peer OP MS` lines,
the median of 30 timed rounds after warm-up. Run it before and after jtensor's JMH run in one
command and report the ratio: python3 torch_cpu_sum_peer.py [THREADS]"""
import sys

import torch

from peer_timing import median_ms

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
a = torch.rand((4096, 4096), generator=torch.Generator().manual_seed(1))
for name, fn in (("sumAll", lambda: a.sum()), ("sumDim0", lambda: a.sum(0)), ("sumDim1", lambda: a.sum(1))):
    print(f"peer {name} {median_ms(fn, 30, warm=5):.3f}")
