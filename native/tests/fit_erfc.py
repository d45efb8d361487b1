# erfc(z) = t exp(P(t) - z^2), t = 2 / (2 + z), z >= 0 (Numerical Recipes' transform): fit P over
# t in [2/12.1, 1] (z up to 10.1, past float's last nonzero erfc) as a polynomial in u = (t - c) * s.
import mpmath, numpy as np
mpmath.mp.dps = 40
lo, hi = 2 / 12.1, 1.0
c, s = (hi + lo) / 2, 2 / (hi - lo)
def f(t):
    t = mpmath.mpf(t); z = 2 / t - 2
    return float(mpmath.log(mpmath.erfc(z) / t) + z * z)
for deg in (12,):  # 14 reaches 2e-11
    n = 400
    k = np.arange(n); u = np.cos(np.pi * (k + 0.5) / n); t = c + u / s
    y = np.array([f(v) for v in t])
    ch = np.polynomial.chebyshev.Chebyshev.fit(u, y, deg, domain=[-1, 1])
    poly = ch.convert(kind=np.polynomial.Polynomial)
    uu = np.linspace(-1, 1, 3001); tt = c + uu / s
    err = max(abs(poly(a) - f(b)) for a, b in zip(uu, tt))
    print(deg, err)
    if err < 3e-11: break
print("c =", repr(c), "s =", repr(s))
print(",\n".join(repr(v) for v in poly.coef[::-1]))
