"""PyTorch's side of TransformerBenchmark on the CPU (2 threads, as jtensor's machine has): a
BERT-base encoder layer (nn.TransformerEncoderLayer(768, 12, 3072, dropout=0.1, activation="gelu",
batch_first=True)) over [8, 128, 768] float32: inference (eval, no_grad: PyTorch's fast path)
without and with a key padding mask (the last 32 tokens of every other sequence), and without the
fast path (torch.backends.mha.set_fastpath_enabled(False): the layer's ops one by one), and a training
forward + backward (y.backward(ones)). Prints `peer CASE MS` lines, the median of timed rounds after
warm-up. Run it before and after jtensor's JMH run in one command and report the ratio:
python3 torch_cpu_transformer_peer.py [THREADS [CASE...]]"""
import sys

import torch
import torch.nn as nn

from peer_timing import median_ms

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
wanted = set(sys.argv[2:])
BATCH, TOKENS, WIDTH, HEADS, FEEDFORWARD, PADDED = 8, 128, 768, 12, 3072, 32

torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(WIDTH, HEADS, FEEDFORWARD, dropout=0.1, activation="gelu", batch_first=True)
src = torch.randn(BATCH, TOKENS, WIDTH)
padding = torch.zeros(BATCH, TOKENS, dtype=torch.bool)
padding[::2, TOKENS - PADDED:] = True
ones = torch.ones(BATCH, TOKENS, WIDTH)


def inference(mask):
    def run():
        layer.eval()
        with torch.no_grad():
            layer(src, src_key_padding_mask=mask)
    return run


def without_fast_path(run):
    def wrapped():
        torch.backends.mha.set_fastpath_enabled(False)
        try:
            run()
        finally:
            torch.backends.mha.set_fastpath_enabled(True)
    return wrapped


def training():
    layer.train()
    layer(src).backward(ones)
    layer.zero_grad()


cases = {
    "encoderLayerInference": inference(None),
    "encoderLayerInferencePadded": inference(padding),
    # PyTorch's layer-by-layer path in eval, for comparison: the fast path is not always the faster on a CPU
    "encoderLayerInferenceWithoutFastPath": without_fast_path(inference(None)),
    "encoderLayerTrainingForwardBackward": training,
}
for name, fn in cases.items():
    if wanted and name not in wanted:
        continue
    print(f"peer {name} {median_ms(fn, 15, warm=3):.2f}", flush=True)
