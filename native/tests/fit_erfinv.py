# erfinv(y) = y p(w) for w = -log((1 - y)(1 + y)), Giles' variable: p a polynomial in w - 2.5 for
# w < 5 (|y| < 0.9966), in sqrt(w) - 3 above, up to w = 16.7 (float's |y| nearest 1 is 1 - 2^-24)
import mpmath, numpy as np
mpmath.mp.dps = 40
def f(w):  # erfinv(y) / y at y = sqrt(1 - e^-w)
    w = mpmath.mpf(w)
    if w == 0: return float(mpmath.sqrt(mpmath.pi) / 2)
    y = mpmath.sqrt(-mpmath.expm1(-w))
    return float(mpmath.erfinv(y) / y)
def fit(lo, hi, var, deg):
    n = 300; k = np.arange(n); u = np.cos(np.pi * (k + 0.5) / n)
    v = lo + (u + 1) * (hi - lo) / 2          # the variable
    w = np.array([var(a) for a in v])
    y = np.array([f(a) for a in w])
    poly = np.polynomial.Polynomial.fit(v - (lo + hi) / 2, y, deg).convert()
    vv = np.linspace(lo, hi, 3001)
    err = max(abs(poly(a - (lo + hi) / 2) / f(var(a)) - 1) for a in vv)
    return poly, err
for deg in (12,):  # 16 reaches 2e-13
    p1, e1 = fit(0.0, 5.0, lambda a: a, deg)
    p2, e2 = fit(np.sqrt(5.0), np.sqrt(16.7), lambda a: a * a, deg)
    print(deg, e1, e2)
print("p1 (in w - 2.5):", ", ".join(repr(float(c)) for c in p1.coef[::-1]))
print("p2 (in sqrt(w) - %r):" % ((np.sqrt(5.0) + np.sqrt(16.7)) / 2), ", ".join(repr(float(c)) for c in p2.coef[::-1]))
