# Flags candidate secrets/PII that are NOT covered by a labelled span (to catch labelling omissions).
import json, re, sys
from common import luhn_ok
PRIV = re.compile(r'^(10\.|127\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.|192\.0\.2\.|198\.51\.100\.|203\.0\.113\.|0\.)')
PATS = {
 'email': r'[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}',
 'key': r'\b(sk-[A-Za-z0-9_-]{16,}|sk_(live|test)_[A-Za-z0-9]{10,}|rk_live_\w+|AKIA[A-Z0-9]{16}|ASIA[A-Z0-9]{16}|AIza[\w-]{30,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w+|xox[bpae]-[\w-]+|hf_[A-Za-z]{30,}|npm_[A-Za-z0-9]{30,}|SG\.[\w-]{20,}|glpat-[\w-]+)',
 'jwt': r'eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+',
 'pem': r'-----BEGIN [A-Z ]*PRIVATE KEY-----',
 'ipv4': r'(?<![\d.])\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?![\d.])',
 'digits': r'(?<!\d)(?:\d[ -]?){12,18}\d(?!\d)',
 'urlpw': r'://[^/\s:@]+:([^@\s/]+)@',
}
for fn in sys.argv[1:]:
    for line in open(fn):
        o = json.loads(line); t = o['text']
        cov = lambda a, b: any(f['start'] <= a and b <= f['end'] or (a <= f['start'] and f['end'] <= b) for f in o['findings'])
        for k, p in PATS.items():
            for m in re.finditer(p, t):
                a, b = m.span(1) if k == 'urlpw' else m.span()
                v = t[a:b]
                if k == 'ipv4' and (PRIV.match(v) or not all(int(x) < 256 for x in v.split('.'))): continue
                if k == 'digits' and not luhn_ok(re.sub(r'\D', '', v)): continue
                if k == 'email' and re.search(r'@(example\.(com|org)|users\.noreply|.*iam\.gserviceaccount\.com)', v, re.I): continue
                if k == 'urlpw' and v.startswith('$'): continue
                if not cov(a, b): print(fn, o['id'], k, repr(v[:70]))
