"""PyTorch's side of WindowsBenchmark and TrainingStepBenchmark's CNN on the CPU (2 threads, as
jtensor's machine has): conv2d [32, 64, 56, 56] x [64, 64, 3, 3] padding 1 and max_pool2d(2) of
[32, 64, 56, 56], each then sum().backward(); and the CNN training step at batch 128 (Adam). Prints
`peer CASE MS` lines, the median of timed rounds after warm-up. Run it before and after jtensor's
JMH run in one command and report the ratio: python3 torch_cpu_windows_peer.py [THREADS]"""
import statistics
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 2)


def median_ms(fn, rounds, warm=3):
    for _ in range(warm):
        fn()
    ts = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(ts)


torch.manual_seed(0)
x = torch.randn(32, 64, 56, 56, requires_grad=True)
w = (torch.randn(64, 64, 3, 3) * 0.05).requires_grad_()
b = torch.zeros(64, requires_grad=True)


def conv():
    F.conv2d(x, w, b, padding=1).sum().backward()
    x.grad = w.grad = b.grad = None


def pool():
    F.max_pool2d(x, 2).sum().backward()
    x.grad = None


cnn = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
                    nn.MaxPool2d(2), nn.Flatten(), nn.Linear(32 * 7 * 7, 128), nn.ReLU(), nn.Linear(128, 10))
opt = torch.optim.Adam(cnn.parameters(), 1e-3)
cx, cy = torch.randn(128, 1, 28, 28), torch.randint(0, 10, (128,))


def step():
    opt.zero_grad()
    loss = F.cross_entropy(cnn(cx), cy)
    loss.backward()
    opt.step()
    loss.item()


print(f"peer torch {torch.__version__} threads {torch.get_num_threads()}", flush=True)
print(f"peer conv2dForwardBackward {median_ms(conv, 15):.2f}", flush=True)
print(f"peer maxPool2dForwardBackward {median_ms(pool, 15):.2f}", flush=True)
print(f"peer cnnStep {median_ms(step, 60, warm=20):.2f}", flush=True)
