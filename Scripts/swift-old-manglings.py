#!/usr/bin/env python3
"""Writes Swift 1-3 manglings (`_T…`, the mangling before Swift 4), one per line, for comparing `apm-inspect demangle`
with `swift-demangle --simplified`: functions, methods, initializers, accessors, closures, local names, generic
functions, specializations, thunks, metadata and types, built from the old mangling's grammar with a fixed seed so
every run writes the same names.

Usage: swift-old-manglings.py [SEED] [COUNT]
"""
import random
import sys

random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
WORDS = ["Demo","Kit","App","Widget","Store","Cell","View","Model","Parser","load","draw","update","value","count","items","name","index","render","fetch","title"]
def ident(w): return f"{len(w)}{w}"
class G:
    def __init__(s): s.subs = []
    def sub(s, i): return "S_" if i == 0 else f"S{i-1}_"
    def module(s, m):
        if m in s.subs: return s.sub(s.subs.index(m))
        s.subs.append(m); return ident(m)
    def nominal(s, kind, mod, name):
        key = (kind, mod, name)
        if key in s.subs: return s.sub(s.subs.index(key))
        m = s.module(mod); s.subs.append(key); return kind + m + ident(name)
    def type(s, depth=0):
        r = random.random()
        if depth > 2 or r < 0.35: return random.choice(["Si","SS","Sb","Sd","Sf","Su","Sc"])
        if r < 0.45: return "GSa" + s.type(depth+1) + "_"
        if r < 0.55: return "GSq" + s.type(depth+1) + "_"
        if r < 0.6: return "GVs10Dictionary" + s.type(depth+1) + s.type(depth+1) + "_"
        if r < 0.75: return s.nominal(random.choice("CVO"), random.choice(["Demo","Kit"]), random.choice(["Widget","Store","Cell","Model"]))
        if r < 0.85: return s.tuple(depth+1)
        if r < 0.9: return "F" + s.tuple(depth+1) + s.type(depth+1)
        return "M" + s.nominal(random.choice("CVO"), random.choice(["Demo","Kit"]), random.choice(["Widget","Store"]))
    def tuple(s, depth=0):
        n = random.choice([0,0,1,1,2,3])
        out = "T"
        for _ in range(n):
            if random.random() < 0.6: out += ident(random.choice(WORDS).lower())
            out += s.type(depth+1)
        return out + "_"
    def args(s):
        r = random.random()
        if r < 0.15: return s.type(1)
        return s.tuple(1)
def name():
    g = G()
    mod = random.choice(["Demo","Kit","App"])
    kind = random.random()
    ctxk = random.choice("CVO")
    def ctx():
        c = g.nominal(ctxk, mod, random.choice(["Widget","Store","Cell","View"]))
        if random.random() < 0.15:
            inner = random.choice(["Inner","Item"])
            key = ("C", "nested", inner); g.subs.append(key)
            c = "C" + c + ident(inner)
        return c
    if kind < 0.25:
        c = ctx(); return "_TF" + c + ident(random.choice(WORDS)) + "f" + g.args() + g.type()
    if kind < 0.35:
        return "_TF" + g.module(mod) + ident(random.choice(WORDS)) + "F" + g.args() + g.type()
    if kind < 0.42:
        c = ctx(); return "_TF" + c + random.choice("gsmwW") + ident(random.choice(WORDS)) + g.type()
    if kind < 0.5:
        c = ctx(); return "_TF" + c + random.choice("cC") + "f" + g.args() + "S0_"
    if kind < 0.55:
        c = ctx(); return "_TF" + c + random.choice("dDeE")
    if kind < 0.62:
        c = ctx(); f = "F" + c + ident(random.choice(WORDS)) + "f" + g.args() + g.type()
        return "_TF" + f + random.choice("Uu") + random.choice(["_","0_","1_"]) + "F" + g.args() + g.type()
    if kind < 0.67:
        c = ctx(); return "_TZF" + c + ident(random.choice(WORDS)) + "f" + g.args() + g.type()
    if kind < 0.72:
        c = ctx(); return "_TTo" + "F" + c + ident(random.choice(WORDS)) + "f" + g.args() + g.type()
    if kind < 0.77:
        c = ctx(); return "_TPA__TF" + c + ident(random.choice(WORDS)) + "f" + g.args() + g.type()
    if kind < 0.82:
        t = random.choice(["Si","SS","Sb"]); c = ctx()
        return "_TTSg5" + t + "___TF" + c + ident(random.choice(WORDS)) + "urf" + random.choice(["x","Tx_","T1ax1bSi_"]) + g.type()
    if kind < 0.87:
        c = ctx(); return "_TM" + random.choice(["a","n","","L","f"]) + c
    if kind < 0.9:
        c = ctx(); return "_TWV" + c
    if kind < 0.94:
        c = ctx(); return "_Tv" + c + ident(random.choice(WORDS)) + g.type()
    if kind < 0.97:
        c = ctx(); return "_TF" + c + "L" + random.choice(["_","0_"]) + ident(random.choice(WORDS)) + "f" + g.args() + g.type()
    return "_Tt" + g.type()
seen = set()
for _ in range(int(sys.argv[2]) if len(sys.argv) > 2 else 2000):
    n = name()
    if n not in seen:
        seen.add(n); print(n)
