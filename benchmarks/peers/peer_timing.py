"""The timing every CPU peer script shares: the median of timed rounds after warm-up, in ms."""
import statistics
import time


def median_ms(fn, rounds, warm=3):
    for _ in range(warm):
        fn()
    ts = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(ts)
