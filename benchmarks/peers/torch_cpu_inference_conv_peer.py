"""PyTorch's side of InferenceConvBenchmark on the CPU (2 threads, as jtensor's machine has): a
ResNet's 3x3, stride-1, padding-1 conv2d C -> C, forward under no_grad then sum().item(), float32,
at batch 1 for [512, 7x7], [256, 14x14], [128, 28x28], [64, 56x56] and at batch 8 for [512, 7x7];
then the same layers' forward and input and weight gradients (conv2dBackward). Prints `peer LAYER
MS` and `peer backward LAYER MS` lines (the median of timed rounds after warm-up), LAYER as the
benchmark's @Param. Run it before and after jtensor's JMH run in one command and report the ratio:
python3 torch_cpu_inference_conv_peer.py [THREADS]"""
import sys

import torch
import torch.nn.functional as F

from peer_timing import median_ms

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
torch.manual_seed(0)
for layer in ["1x512@7", "1x256@14", "1x128@28", "1x64@56", "8x512@7"]:
    n, c, hw = (int(v) for v in layer.replace("@", "x").split("x"))
    x, w, b = torch.randn(n, c, hw, hw), torch.randn(c, c, 3, 3) * 0.05, torch.randn(c)

    def forward():
        with torch.no_grad():
            F.conv2d(x, w, b, 1, 1).sum().item()

    print(f"peer {layer} {median_ms(forward, 200, warm=25):.3f}")

    xg, wg, up = x.clone().requires_grad_(), w.clone().requires_grad_(), torch.randn(n, c, hw, hw)

    def backward():
        y = F.conv2d(xg, wg, b, 1, 1)
        gx, gw = torch.autograd.grad(y, (xg, wg), up)
        gx.sum().item() + gw.sum().item()

    print(f"peer backward {layer} {median_ms(backward, 100, warm=15):.3f}")
