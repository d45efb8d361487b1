"""PyTorch's side of StepMemory: the extra memory the CNN training step of TrainingStepBenchmark
(batch 128, Adam) needs, as the growth of the process's peak resident set (ru_maxrss) from just
before its first step to after 10 (activations, gradients, the optimizer's state, scratch; the
model and the batch exist before). Prints `peer cnnStepPeakMiB X`. python3 ... [THREADS]"""
import resource
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
torch.manual_seed(0)
cnn = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
                    nn.MaxPool2d(2), nn.Flatten(), nn.Linear(32 * 7 * 7, 128), nn.ReLU(), nn.Linear(128, 10))
opt = torch.optim.Adam(cnn.parameters(), 1e-3)
cx, cy = torch.randn(128, 1, 28, 28), torch.randint(0, 10, (128,))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
for _ in range(10):
    opt.zero_grad()
    loss = F.cross_entropy(cnn(cx), cy)
    loss.backward()
    opt.step()
    loss.item()
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"peer torch {torch.__version__} threads {torch.get_num_threads()}", flush=True)
print(f"peer cnnStepPeakMiB {(after - before) / 1024:.2f}", flush=True)
