"""PyTorch's side of WindowsBenchmark, NormBenchmark and TrainingStepBenchmark's CNN on the CPU (2
threads, as jtensor's machine has): conv2d [32, 64, 56, 56] x [64, 64, 3, 3] padding 1 and
max_pool2d(2) of [32, 64, 56, 56], the ResNet's downsampling convs (3x3 stride 2 of [128, 16, 28,
28] to 32 channels plus the 1x1 stride-2 shortcut), batch_norm (training) and group_norm(32) of the same, layer_norm
of [4096, 768], each then sum().backward(); a ResNet BasicBlock step at [32, 64, 32, 32] (Adam);
and the CNN training step at batch 128 (Adam). Optional cases to run: python3 ... THREADS [CASE...]. Prints
`peer CASE MS` lines, the median of timed rounds after warm-up. Run it before and after jtensor's
JMH run in one command and report the ratio: python3 torch_cpu_windows_peer.py [THREADS]
PyTorch's CPU blocks come from glibc's malloc, which mmaps large ones and unmaps them on free, so
a case that allocates the same activations each round page-faults them in every round (conv2d
here: ~530 ms against ~75 ms): run it also under MALLOC_MMAP_THRESHOLD_=1000000000
MALLOC_TRIM_THRESHOLD_=1000000000 and compare with that figure too (docs/performance.md, session 20)."""
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

from peer_timing import median_ms

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
wanted = set(sys.argv[2:])


torch.manual_seed(0)
x = torch.randn(32, 64, 56, 56, requires_grad=True)
w = (torch.randn(64, 64, 3, 3) * 0.05).requires_grad_()
b = torch.zeros(64, requires_grad=True)


def conv():
    F.conv2d(x, w, b, padding=1).sum().backward()
    x.grad = w.grad = b.grad = None


sx = torch.randn(128, 16, 28, 28, requires_grad=True)
sw = (torch.randn(32, 16, 3, 3) * 0.1).requires_grad_()
shortcut = (torch.randn(32, 16, 1, 1) * 0.1).requires_grad_()


def strided_conv():
    (F.conv2d(sx, sw, None, 2, 1) + F.conv2d(sx, shortcut, None, 2, 0)).sum().backward()
    sx.grad = sw.grad = shortcut.grad = None


def pool():
    F.max_pool2d(x, 2).sum().backward()
    x.grad = None


nw, nb = torch.ones(64, requires_grad=True), torch.zeros(64, requires_grad=True)
rm, rv = torch.zeros(64), torch.ones(64)
rows = torch.randn(4096, 768, requires_grad=True)
lw, lb = torch.ones(768, requires_grad=True), torch.zeros(768, requires_grad=True)


def batch_norm():
    F.batch_norm(x, rm, rv, nw, nb, True, 0.1, 1e-5).sum().backward()
    x.grad = nw.grad = nb.grad = None


def group_norm():
    F.group_norm(x, 32, nw, nb, 1e-5).sum().backward()
    x.grad = nw.grad = nb.grad = None


def layer_norm():
    F.layer_norm(rows, (768,), lw, lb, 1e-5).sum().backward()
    rows.grad = lw.grad = lb.grad = None


block = nn.ModuleList([nn.Conv2d(64, 64, 3, padding=1, bias=False), nn.BatchNorm2d(64),
                       nn.Conv2d(64, 64, 3, padding=1, bias=False), nn.BatchNorm2d(64)])
block_opt = torch.optim.Adam(block.parameters(), 1e-3)
bx = torch.randn(32, 64, 32, 32)


def basic_block():
    block_opt.zero_grad()
    h = block[3](block[2](F.relu(block[1](block[0](bx)))))
    F.relu(h + bx).sum().backward()
    block_opt.step()


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
cases = [("conv2dForwardBackward", conv, 15, 3), ("maxPool2dForwardBackward", pool, 15, 3),
         ("stridedConvForwardBackward", strided_conv, 15, 3),
         ("batchNorm2dForwardBackward", batch_norm, 15, 3), ("groupNormForwardBackward", group_norm, 15, 3),
         ("layerNormForwardBackward", layer_norm, 15, 3), ("basicBlockStep", basic_block, 10, 3),
         ("cnnStep", step, 60, 20)]
for name, fn, rounds, warm in cases:
    if not wanted or name in wanted:
        print(f"peer {name} {median_ms(fn, rounds, warm=warm):.2f}", flush=True)
