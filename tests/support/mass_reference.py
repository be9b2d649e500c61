# Reference figures for test_mass's real models, from a model file's own text (no assimp, no
# sepax): decimal coordinates as exact fractions, vertices welded by value, every directed edge
# counted, signed-tetrahedron integrals in exact rational arithmetic (about the origin: exact, so
# nothing cancels). Reads OBJ (faces fanned), SMD and ASCII STL.
#     python3 tests/support/mass_reference.py /usr/share/assimp/models/SMD/holy_grailref.smd
import sys
from fractions import Fraction as F
from collections import Counter

def read_obj(path):
    vs, tris = [], []
    for line in open(path):
        p = line.split()
        if not p: continue
        if p[0] == 'v': vs.append(tuple(F(x) for x in p[1:4]))
        elif p[0] == 'f':
            idx = [int(c.split('/')[0]) for c in p[1:]]
            idx = [i - 1 if i > 0 else len(vs) + i for i in idx]
            for k in range(1, len(idx) - 1):       # fan, as a convex face
                tris.append((vs[idx[0]], vs[idx[k]], vs[idx[k + 1]]))
    return tris

def read_smd(path):
    lines = open(path).read().split('\n')
    i = lines.index('triangles') + 1
    tris = []
    while lines[i].strip() != 'end':
        c = [tuple(F(x) for x in lines[i + k].split()[1:4]) for k in (1, 2, 3)]
        tris.append(tuple(c)); i += 4
    return tris

def read_stl_ascii(path):
    tris, cur = [], []
    for line in open(path):
        p = line.split()
        if p and p[0] == 'vertex':
            cur.append(tuple(F(x) for x in p[1:4]))
            if len(cur) == 3: tris.append(tuple(cur)); cur = []
    return tris

def check(tris):
    ids = {}
    def vid(p): return ids.setdefault(p, len(ids))   # Fraction(-0) == Fraction(0): -0 welds with 0
    edges = Counter()
    for a, b, c in tris:
        t = (vid(a), vid(b), vid(c))
        if len(set(t)) < 3: continue
        for k in range(3): edges[(t[k], t[(k + 1) % 3])] += 1
    closed = all(n == 1 and edges.get((b, a), 0) == 1 for (a, b), n in edges.items()) and len(edges) > 0
    boundary = sum(1 for (a, b), n in edges.items() if edges.get((b, a), 0) != n)
    V = F(0); m1 = [F(0)] * 3; m2 = [[F(0)] * 3 for _ in range(3)]
    for p0, p1, p2 in tris:
        det = (p0[0] * (p1[1] * p2[2] - p1[2] * p2[1]) - p0[1] * (p1[0] * p2[2] - p1[2] * p2[0])
               + p0[2] * (p1[0] * p2[1] - p1[1] * p2[0]))
        s = [p0[i] + p1[i] + p2[i] for i in range(3)]
        V += det
        for i in range(3):
            m1[i] += det * s[i]
            for j in range(3):
                m2[i][j] += det * (p0[i] * p0[j] + p1[i] * p1[j] + p2[i] * p2[j] + s[i] * s[j])
    V /= 6
    c = [x / 24 / V for x in m1] if V else [0, 0, 0]
    C = [[m2[i][j] / 120 - V * c[i] * c[j] for j in range(3)] for i in range(3)]
    tr = C[0][0] + C[1][1] + C[2][2]
    I = [[(tr if i == j else 0) - C[i][j] for j in range(3)] for i in range(3)]
    return closed, boundary, len(ids), V, c, I

path = sys.argv[1]
reader = read_obj if path.lower().endswith('.obj') else read_smd if path.lower().endswith('.smd') else read_stl_ascii
tris = reader(path)
closed, boundary, nv, V, c, I = check(tris)
print(path, 'triangles', len(tris), 'welded vertices', nv, 'closed', closed, 'unmatched directed edges', boundary)
print('  volume %.10g' % float(V))
print('  centre %.10g %.10g %.10g' % tuple(float(x) for x in c))
for r in I: print('  inertia row %.10g %.10g %.10g' % tuple(float(x) for x in r))
