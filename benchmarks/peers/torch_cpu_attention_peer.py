"""PyTorch's side of AttentionBenchmark on the CPU (2 threads, as jtensor's machine has):
scaled_dot_product_attention over q, k, v [4, 8, 1024, 64] float32, causal and not, forward alone
and forward + backward (y.backward(ones), as the measurement behind issue
20's figure), and causal attention composed of matmul, masked_fill, softmax, matmul (the T x T
scores in memory) for comparison. Prints `peer CASE MS` lines, the median of timed rounds after
warm-up. Run it before and after jtensor's JMH run in one command and report the ratio:
python3 torch_cpu_attention_peer.py [THREADS [CASE...]]"""
import sys

import torch
import torch.nn.functional as F

from peer_timing import median_ms

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
wanted = set(sys.argv[2:])


torch.manual_seed(0)
q, k, v = (torch.randn(4, 8, 1024, 64, requires_grad=True) for _ in range(3))
later = torch.ones(1024, 1024, dtype=torch.bool).triu(1)


def clear():
    q.grad = k.grad = v.grad = None


def fwd_bwd(causal):
    def run():
        y = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        y.backward(torch.ones_like(y))
        clear()
    return run


def forward(causal):
    def run():
        with torch.no_grad():
            F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    return run


def composed():
    s = (q @ k.transpose(-2, -1) / 8.0).masked_fill(later, float("-inf"))
    y = s.softmax(-1) @ v
    y.backward(torch.ones_like(y))
    clear()


cases = {
    "causalForwardBackward": fwd_bwd(True),
    "causalForward": forward(True),
    "forwardBackward": fwd_bwd(False),
    "composedCausalForwardBackward": composed,
}
for name, fn in cases.items():
    if wanted and name not in wanted:
        continue
    print(f"peer {name} {median_ms(fn, 7, warm=2):.2f}", flush=True)
