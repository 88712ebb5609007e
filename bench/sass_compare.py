import subprocess, re, sys
def kernels(lib):
    out = subprocess.run(['cuobjdump', '-sass', lib], capture_output=True, text=True).stdout
    ks = {}; cur = None; body = []
    for line in out.splitlines():
        m = re.match(r'\s*Function : (\S+)', line)
        if m:
            if cur: ks.setdefault(cur, '\n'.join(body))
            cur = m.group(1); body = []; continue
        if cur and re.match(r'\s*/\*[0-9a-f]{4,}\*/', line):
            ins = re.sub(r'/\*[0-9a-f]{4,}\*/', '', line)          # addresses
            ins = re.sub(r'/\* 0x[0-9a-f]+ \*/', '', ins)           # encodings
            ins = ins.strip()
            if ins and not ins.startswith('.'): body.append(ins)
    if cur: ks.setdefault(cur, '\n'.join(body))
    return ks
a = kernels(sys.argv[1]); b = kernels(sys.argv[2])
common = set(a) & set(b)
same = sum(1 for k in common if a[k] == b[k])
print(f"base {len(a)} kernels, new {len(b)}, common {len(common)}, identical {same}")
for k in sorted(set(a) ^ set(b))[:10]: print('only in one:', k[:120])
for k in sorted(common):
    if a[k] != b[k]: print('differs:', k[:150])
import difflib
shown = 0
for k in sorted(common):
    if a[k] != b[k] and shown < 4:
        shown += 1
        print('=====', k[:100])
        for line in list(difflib.unified_diff(a[k].splitlines(), b[k].splitlines(), lineterm='', n=0))[:12]: print(line)
