"""PyTorch's side of GpuBenchmark and GpuTrainingBenchmark, on the same GPU in the same run.

Each case is the Java benchmark's: the same shapes, dtypes, models, REPS ops queued then one
synchronize, the per-op time the median of several timed rounds after warm-up. Prints one line per
case, `peer KEY SECONDS_PER_OP RATE`, the KEY being GpuFigures' key, so gpu-check.sh can set the two
side by side. Run: python3 torch_gpu_peer.py [--rounds N]
"""
import statistics
import sys
import time

import torch
import torch.nn.functional as F

REPS = 10
N256M, SIDE, GEMM = 256 << 20, 16384, 8192
dev = torch.device("cuda:0")
rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 5


def timed(fn, ops, warm=2):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - t0) / ops)
    return statistics.median(times)


def report(key, seconds, work=None):
    rate = f"{work / seconds / 1e12:.2f}T/s" if work else f"{seconds * 1e6:.2f}us"
    print(f"peer {key} {seconds:.6e} {rate}", flush=True)


def bandwidth():
    a = torch.full((N256M,), 1.5, device=dev)
    b = torch.full((N256M,), 2.5, device=dev)
    dst = torch.empty(N256M, device=dev)
    m = torch.full((SIDE, SIDE), 0.5, device=dev)
    n = torch.full((SIDE, SIDE), 0.25, device=dev)
    nt = n.t()
    cases = [
        ("copy1GiB", lambda: [dst.copy_(a) for _ in range(REPS)], 8.0 * N256M),
        ("add256M", lambda: [a.add(b) for _ in range(REPS)], 12.0 * N256M),
        ("sum256M", lambda: [a.sum() for _ in range(REPS)], 4.0 * N256M),
        ("sumDim0", lambda: [m.sum(0) for _ in range(REPS)], 4.0 * SIDE * SIDE),
        ("sumDim1", lambda: [m.sum(1) for _ in range(REPS)], 4.0 * SIDE * SIDE),
        ("addTransposed", lambda: [m.add(nt) for _ in range(REPS)], 12.0 * SIDE * SIDE),
        ("softmaxDim1", lambda: [m.softmax(1) for _ in range(REPS)], 8.0 * SIDE * SIDE),
        ("layerNormDim1", lambda: [F.layer_norm(m, (SIDE,), None, None, 1e-5) for _ in range(REPS)], 8.0 * SIDE * SIDE),
        ("batchNorm64Channels", lambda: [F.batch_norm(m.view(SIDE // 64, 64, SIDE // 128, 128), None, None, training=True) for _ in range(REPS)],
         8.0 * SIDE * SIDE),
    ]
    for key, fn, work in cases:
        report(key, timed(fn, REPS), work)
    del a, b, dst, m, n, nt
    torch.cuda.empty_cache()


def attention():
    for dtype in ("float32", "float16", "bfloat16"):
        g = torch.Generator().manual_seed(0)
        q, k, v, up = (torch.randn(4, 8, 1024, 64, generator=g).to(dev, getattr(torch, dtype)) for _ in range(4))
        for t in (q, k, v):
            t.requires_grad_()

        def step():
            for _ in range(REPS):
                F.scaled_dot_product_attention(q, k, v, is_causal=True).backward(up)

        report(f"sdpaCausalForwardBackward dtype={dtype}", timed(step, REPS))

        def forward():
            with torch.no_grad():
                for _ in range(REPS):
                    F.scaled_dot_product_attention(q, k, v, is_causal=True)

        report(f"sdpaCausalForward dtype={dtype}", timed(forward, REPS))


def gemm():
    torch.backends.cuda.matmul.allow_tf32 = False
    g = torch.Generator().manual_seed(0)
    ra, rb = torch.rand(GEMM, GEMM, generator=g), torch.rand(GEMM, GEMM, generator=g)
    for name, dtype in (("float32", torch.float32), ("bfloat16", torch.bfloat16), ("float16", torch.float16)):
        a, b = ra.to(dev, dtype), rb.to(dev, dtype)
        report(f"matmul gemm={name}", timed(lambda: [a @ b for _ in range(REPS)], REPS), 2.0 * GEMM ** 3)


def host_costs():
    a = torch.full((4,), 1.0, device=dev)
    b = torch.full((4,), 2.0, device=dev)
    report("add4HostCost", timed(lambda: [a.add(b) for _ in range(1000)], 1000))
    report("alloc1MiBCached", timed(lambda: [torch.empty(1 << 18, device=dev) for _ in range(1000)], 1000))


def training():
    torch.manual_seed(0)
    for model in ("mlp", "cnn"):
        if model == "mlp":
            net = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(), torch.nn.Linear(256, 128), torch.nn.ReLU(),
                                      torch.nn.Linear(128, 10))
            x = torch.randn(128, 784)
        else:
            net = torch.nn.Sequential(torch.nn.Conv2d(1, 16, 3, 1, 1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                                      torch.nn.Conv2d(16, 32, 3, 1, 1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                                      torch.nn.Flatten(), torch.nn.Linear(32 * 7 * 7, 128), torch.nn.ReLU(),
                                      torch.nn.Linear(128, 10))
            x = torch.randn(128, 1, 28, 28)
        net, x, y = net.to(dev), x.to(dev), torch.randint(0, 10, (128,)).to(dev)
        opt = torch.optim.Adam(net.parameters(), 1e-3)

        def step():
            opt.zero_grad()
            loss = F.cross_entropy(net(x), y)
            loss.backward()
            opt.step()
            return loss.item()  # waits for the step's kernels, as the Java benchmark does

        report(f"step model={model}", timed(lambda: [step() for _ in range(20)], 20, warm=5))


if __name__ == "__main__":
    print(f"peer device {torch.cuda.get_device_name(0)} torch {torch.__version__}", flush=True)
    bandwidth()
    attention()
    gemm()
    host_costs()
    training()
