# atan(t) = t + t^3 p(t^2) for |t| <= tan(pi/8): fit p over z = t^2 in [0, tan(pi/8)^2]
import mpmath, numpy as np
mpmath.mp.dps = 40
hi = float(mpmath.tan(mpmath.pi / 8)) ** 2
def f(z):
    t = mpmath.sqrt(mpmath.mpf(z))
    return float((mpmath.atan(t) - t) / t ** 3) if z > 0 else -1 / 3
for deg in (5,):
    n = 300; k = np.arange(n); u = np.cos(np.pi * (k + 0.5) / n); z = (u + 1) * hi / 2
    poly = np.polynomial.Polynomial.fit(z, [f(v) for v in z], deg).convert()
    zz = np.linspace(0, hi, 2001)
    err = max(abs(poly(a) - f(a)) * a / 3 for a in zz)  # relative to atan t ~ t: error * t^2
    print(deg, err)
print(",\n".join(repr(float(v)) for v in poly.coef[::-1]))
