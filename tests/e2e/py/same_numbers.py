# same_numbers.py (tests/e2e/lib.sh same_numbers): EXPECTED ACTUAL, "key value" lines: the same keys in order, values equal to 1e-12 relative
import sys
a = [l.split() for l in sys.argv[1].splitlines()]
b = [l.split() for l in sys.argv[2].splitlines()]
ok = len(a) == len(b) and len(a) > 0 and all(x[0] == y[0] and abs(float(x[1]) - float(y[1])) <= 1e-12 * abs(float(x[1])) for x, y in zip(a, b))
print("ok" if ok else "differ")
