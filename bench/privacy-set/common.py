# Shared fake-value generators and marker parsing for the privacy set.
# Markers: F(type, value) -> "\u27e6type\u27e7value\u27e6/\u27e7" ; parse() strips them and records spans.
import random, string, base64, json, re

UP = string.ascii_uppercase; LO = string.ascii_lowercase; DG = string.digits
AN = UP + LO + DG; HEX = '0123456789abcdef'
OPEN, CLOSE, END = '\u27e6', '\u27e7', '\u27e6/\u27e7'

def F(t, v): return f'{OPEN}{t}{CLOSE}{v}{END}'

_mk = re.compile(re.escape(OPEN) + r'(\w+)' + re.escape(CLOSE) + r'(.*?)' + re.escape(END), re.S)
def parse(marked):
    out, findings, pos = [], [], 0
    n = 0
    for m in _mk.finditer(marked):
        out.append(marked[pos:m.start()]); n += m.start() - pos
        t, v = m.group(1), m.group(2)
        findings.append({'type': t, 'start': n, 'end': n + len(v), '_v': v})
        out.append(v); n += len(v); pos = m.end()
    out.append(marked[pos:])
    text = ''.join(out)
    assert OPEN not in text and CLOSE not in text, marked[:200]
    for f in findings:
        assert text[f['start']:f['end']] == f.pop('_v')
    assert all(ord(c) < 0x10000 for c in text), 'non-BMP char'
    return text, findings

def rs(r, n, alpha=AN): return ''.join(r.choice(alpha) for _ in range(n))

# ---------- secrets ----------
def openai_key(r):
    if r.random() < 0.65: return 'sk-proj-' + rs(r, 64, AN + '-_') + 'T3BlbkFJ' + rs(r, 64, AN + '-_')
    if r.random() < 0.5: return 'sk-svcacct-' + rs(r, 58, AN + '-_') + 'T3BlbkFJ' + rs(r, 58, AN + '-_')
    return 'sk-' + rs(r, 20) + 'T3BlbkFJ' + rs(r, 20)
def anthropic_key(r): return 'sk-ant-api03-' + rs(r, 93, AN + '-_') + 'AA'
def aws_access_key(r): return ('AKIA' if r.random() < 0.8 else 'ASIA') + rs(r, 16, UP + '234567')
def aws_secret_key(r): return rs(r, 40, AN + '/+')
def gcp_api_key(r): return 'AIza' + rs(r, 35, AN + '-_')
def github_token(r):
    k = r.random()
    if k < 0.45: return 'ghp_' + rs(r, 36)
    if k < 0.6: return 'gho_' + rs(r, 36)
    if k < 0.75: return 'ghs_' + rs(r, 36)
    return 'github_pat_11' + rs(r, 20, UP + DG) + '_' + rs(r, 59)
def slack_token(r):
    if r.random() < 0.6: return f'xoxb-{r.randint(10**10, 10**12)}-{r.randint(10**11, 10**13)}-{rs(r, 24)}'
    return f'xoxp-{r.randint(10**10, 10**12)}-{r.randint(10**10, 10**12)}-{r.randint(10**11, 10**13)}-{rs(r, 32, HEX)}'
def slack_webhook(r): return f'https://hooks.slack.com/services/T{rs(r, 8, UP + DG)}/B{rs(r, 10, UP + DG)}/{rs(r, 24)}'
def stripe_key(r):
    p = r.choice(['sk_live_', 'sk_live_', 'rk_live_', 'sk_test_'])
    return p + rs(r, r.choice([24, 99]))
def stripe_pk(r): return r.choice(['pk_live_', 'pk_test_']) + rs(r, 99)
def private_key(r, kind=None, lines=None):
    kind = kind or r.choice(['RSA PRIVATE KEY', 'PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'EC PRIVATE KEY'])
    n = lines or (r.randint(6, 14) if kind != 'EC PRIVATE KEY' else 3)
    raw = base64.b64encode(bytes(r.getrandbits(8) for _ in range(48 * n))).decode()
    if kind == 'OPENSSH PRIVATE KEY': raw = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB' + raw[52:]
    if kind == 'PRIVATE KEY': raw = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC' + raw[32:]
    if kind == 'RSA PRIVATE KEY': raw = 'MIIEpAIBAAKCAQEA' + raw[16:]
    body = '\n'.join(raw[i:i + 64] for i in range(0, len(raw), 64))
    return f'-----BEGIN {kind}-----\n{body}\n-----END {kind}-----'
def b64url(b): return base64.urlsafe_b64encode(b).decode().rstrip('=')
def jwt(r, payload=None):
    h = {'alg': r.choice(['HS256', 'RS256', 'ES256']), 'typ': 'JWT'}
    p = payload or {'sub': str(r.randint(10**5, 10**9)), 'role': r.choice(['user', 'admin', 'service_role', 'anon']),
                    'iat': 1760000000 + r.randint(0, 10**7)}
    p.setdefault('exp', p.get('iat', 1760000000) + 3600)
    sig = b64url(bytes(r.getrandbits(8) for _ in range(32 if h['alg'] == 'HS256' else 64)))
    return b64url(json.dumps(h, separators=(',', ':')).encode()) + '.' + b64url(json.dumps(p, separators=(',', ':')).encode()) + '.' + sig
def npm_token(r): return 'npm_' + rs(r, 36)
def hf_token(r): return 'hf_' + rs(r, 34, UP + LO)
def telegram_token(r): return f'{r.randint(10**9, 8 * 10**9)}:AA{rs(r, 33, AN + "-_")}'
def twilio_sk(r): return 'SK' + rs(r, 32, HEX)
def twilio_ac(r): return 'AC' + rs(r, 32, HEX)
def sendgrid_key(r): return 'SG.' + rs(r, 22, AN + '-_') + '.' + rs(r, 43, AN + '-_')
def opaque(r, n=40): return rs(r, n, AN)
def password(r):
    words = ['Tangerine', 'blue', 'Harbor', 'kestrel', 'Mango', 'velvet', 'Orbit', 'quartz', 'Saturno', 'lobo', 'Zebra', 'ferro']
    k = r.random()
    if k < 0.4: return r.choice(words) + r.choice(['!', '#', '_', '@', '.']) + str(r.randint(10, 9999)) + r.choice(['', 'x', 'Q', '$'])
    if k < 0.7: return rs(r, r.randint(16, 32), AN)
    return rs(r, r.randint(12, 20), AN + '!#%^*-_')
def basic_cred(r, user=None):
    user = user or r.choice(['admin', 'deploy', 'ci-bot', 'grafana', 'jenkins', 'api', 'svc_reports'])
    return base64.b64encode(f'{user}:{password(r)}'.encode()).decode()

# ---------- personal ----------
def luhn_ok(num):
    d = [int(c) for c in num][::-1]
    s = sum(x if i % 2 == 0 else (x * 2 - 9 if x * 2 > 9 else x * 2) for i, x in enumerate(d))
    return s % 10 == 0
def luhn_complete(prefix, length, r):
    body = prefix + ''.join(r.choice(DG) for _ in range(length - len(prefix) - 1))
    for c in DG:
        if luhn_ok(body + c): return body + c
TEST_CARDS = ['4111111111111111', '4242424242424242', '5555555555554444', '5105105105105100', '4012888888881881',
              '378282246310005', '371449635398431', '6011111111111117', '4000056655665556', '5200828282828210', '3566002020360505']
def card_digits(r):
    if r.random() < 0.4: return r.choice(TEST_CARDS)
    p, L = r.choice([('4', 16), ('51', 16), ('53', 16), ('2221', 16), ('34', 15), ('37', 15), ('6011', 16), ('4', 16)])
    return luhn_complete(p, L, r)
def fmt_card(d, r, style=None):
    style = style or r.choice(['plain', 'space', 'dash', 'space'])
    if style == 'plain': return d
    sep = ' ' if style == 'space' else '-'
    if len(d) == 15: return sep.join([d[:4], d[4:10], d[10:]])
    return sep.join(d[i:i + 4] for i in range(0, len(d), 4))
def card(r, style=None): return fmt_card(card_digits(r), r, style)
def bad_card(r, style=None):
    d = card_digits(r)
    last = str((int(d[-1]) + r.randint(1, 9)) % 10)
    d = d[:-1] + last
    assert not luhn_ok(d)
    return fmt_card(d, r, style)

def _iban_check(cc, bban):
    s = ''.join(str(int(c, 36)) for c in bban + cc + '00')
    return '%02d' % (98 - int(s) % 97)
def iban(r, cc=None, spaced=None):
    cc = cc or r.choice(['DE', 'GB', 'FR', 'IT', 'ES', 'NL', 'PT', 'BE'])
    if cc == 'DE': bban = rs(r, 18, DG)
    elif cc == 'GB': bban = r.choice(['NWBK', 'BARC', 'HBUK', 'LOYD', 'MIDL']) + rs(r, 14, DG)
    elif cc == 'FR': bban = rs(r, 10, DG) + rs(r, 11, UP + DG) + rs(r, 2, DG)
    elif cc == 'IT': bban = r.choice(UP) + rs(r, 10, DG) + rs(r, 12, DG)
    elif cc == 'ES': bban = rs(r, 20, DG)
    elif cc == 'NL': bban = r.choice(['ABNA', 'INGB', 'RABO', 'TRIO']) + rs(r, 10, DG)
    elif cc == 'PT': bban = rs(r, 21, DG)
    elif cc == 'BE': bban = rs(r, 12, DG)
    s = cc + _iban_check(cc, bban) + bban
    if spaced is None: spaced = r.random() < 0.6
    return ' '.join(s[i:i + 4] for i in range(0, len(s), 4)) if spaced else s
def iban_valid(s):
    s = s.replace(' ', '')
    t = s[4:] + s[:4]
    return int(''.join(str(int(c, 36)) for c in t)) % 97 == 1

def ssn(r):
    a = r.choice([x for x in range(1, 900) if x != 666])
    return f'{a:03d}-{r.randint(1, 99):02d}-{r.randint(1, 9999):04d}'
def uk_ni(r, spaced=None):
    first = [c for c in UP if c not in 'DFIQUV']; second = [c for c in UP if c not in 'DFIOQUV']
    while True:
        p = r.choice(first) + r.choice(second)
        if p not in ('BG', 'GB', 'NK', 'KN', 'TN', 'NT', 'ZZ'): break
    d = rs(r, 6, DG); s = r.choice('ABCD')
    if spaced is None: spaced = r.random() < 0.5
    return f'{p} {d[:2]} {d[2:4]} {d[4:]} {s}' if spaced else p + d + s
_vd = [[0,1,2,3,4,5,6,7,8,9],[1,2,3,4,0,6,7,8,9,5],[2,3,4,0,1,7,8,9,5,6],[3,4,0,1,2,8,9,5,6,7],[4,0,1,2,3,9,5,6,7,8],
       [5,9,8,7,6,0,4,3,2,1],[6,5,9,8,7,1,0,4,3,2],[7,6,5,9,8,2,1,0,4,3],[8,7,6,5,9,3,2,1,0,4],[9,8,7,6,5,4,3,2,1,0]]
_vp = [[0,1,2,3,4,5,6,7,8,9],[1,5,7,6,2,8,3,0,9,4],[5,8,0,3,7,9,6,1,4,2],[8,9,1,6,0,4,3,5,2,7],[9,4,5,3,1,2,6,8,7,0],
       [4,2,8,6,5,7,3,9,0,1],[2,7,9,3,8,0,6,4,1,5],[7,0,4,6,9,1,3,2,5,8]]
_vinv = [0,4,3,2,1,5,6,7,8,9]
def verhoeff_digit(num):
    c = 0
    for i, ch in enumerate(reversed(num)): c = _vd[c][_vp[(i + 1) % 8][int(ch)]]
    return str(_vinv[c])
def aadhaar(r, spaced=True):
    b = str(r.randint(2, 9)) + rs(r, 10, DG); n = b + verhoeff_digit(b)
    return f'{n[:4]} {n[4:8]} {n[8:]}' if spaced else n
def pan(r): return rs(r, 3, UP) + 'P' + r.choice(UP) + rs(r, 4, DG) + r.choice(UP)
def kr_rrn(r):
    yy = r.randint(60, 99); mm = r.randint(1, 12); dd = r.randint(1, 28); g = r.choice('12')
    b = f'{yy:02d}{mm:02d}{dd:02d}{g}' + rs(r, 5, DG)
    w = [2,3,4,5,6,7,8,9,2,3,4,5]
    c = (11 - sum(int(x) * y for x, y in zip(b, w)) % 11) % 10
    return b[:6] + '-' + b[6:] + str(c)
_cf_odd = dict(zip('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ', [1,0,5,7,9,13,15,17,19,21,1,0,5,7,9,13,15,17,19,21,2,4,18,20,11,3,6,8,12,14,16,10,22,25,24,23]))
def codice_fiscale(r):
    cons = 'BCDFGLMNPRSTVZ'
    s = rs(r, 3, cons) + rs(r, 3, cons) + f'{r.randint(50, 99):02d}' + r.choice('ABCDEHLMPRST') + f'{r.randint(1, 28) + r.choice([0, 40]):02d}' + r.choice('FHLAGD') + f'{r.randint(100, 999)}'
    tot = sum(_cf_odd[c] if i % 2 == 0 else (int(c) if c.isdigit() else ord(c) - 65) for i, c in enumerate(s))
    return s + chr(65 + tot % 26)
def cpf(r, fmt=True):
    d = [r.randint(0, 9) for _ in range(9)]
    for k in (10, 11):
        s = sum(x * (k - i) for i, x in enumerate(d)); m = s % 11
        d.append(0 if m < 2 else 11 - m)
    n = ''.join(map(str, d))
    return f'{n[:3]}.{n[3:6]}.{n[6:9]}-{n[9:]}' if fmt else n

def phone(r, cc=None):
    cc = cc or r.choice(['US', 'UK', 'KR', 'RU', 'BR', 'IT', 'IN', 'DE', 'CN', 'ES', 'FR'])
    d = lambda n: rs(r, n, DG)
    a = r.randint(0, 2)
    if cc == 'US':
        ac = r.choice(['415', '646', '312', '206', '737', '617', '213'])
        n = str(r.randint(2, 9)) + d(2)
        return [f'+1 ({ac}) {n}-{d(4)}', f'({ac}) {n}-{d(4)}', f'+1-{ac}-{n}-{d(4)}'][a]
    if cc == 'UK': return [f'+44 7{d(3)} {d(6)}', f'07{d(3)} {d(3)} {d(3)}', f'+44 20 {d(4)} {d(4)}'][a]
    if cc == 'KR': return [f'+82 10-{d(4)}-{d(4)}', f'010-{d(4)}-{d(4)}', f'+82-2-{d(3)}-{d(4)}'][a]
    if cc == 'RU': return [f'+7 (9{d(2)}) {d(3)}-{d(2)}-{d(2)}', f'8 9{d(2)} {d(3)} {d(2)} {d(2)}', f'+79{d(9)}'][a]
    if cc == 'BR': return [f'+55 11 9{d(4)}-{d(4)}', f'(21) 9{d(4)}-{d(4)}', f'+55 (31) 9{d(4)}-{d(4)}'][a]
    if cc == 'IT': return [f'+39 3{d(2)} {d(3)} {d(4)}', f'3{d(2)} {d(7)}', f'+39 02 {d(4)} {d(4)}'][a]
    if cc == 'IN': return [f'+91 9{d(4)} {d(5)}', f'+91-98{d(8)}', f'09{d(4)} {d(5)}'][a]
    if cc == 'DE': return [f'+49 151 {d(8)}', f'0170 {d(7)}', f'+49 (0)30 {d(8)}'][a]
    if cc == 'CN': return [f'+86 138 {d(4)} {d(4)}', f'139{d(8)}', f'+86 10 {d(4)} {d(4)}'][a]
    if cc == 'ES': return [f'+34 6{d(2)} {d(2)} {d(2)} {d(2)}', f'6{d(2)} {d(3)} {d(3)}', f'+34 91 {d(3)} {d(2)} {d(2)}'][a]
    if cc == 'FR': return [f'+33 6 {d(2)} {d(2)} {d(2)} {d(2)}', f'06 {d(2)} {d(2)} {d(2)} {d(2)}', f'+33 1 {d(2)} {d(2)} {d(2)} {d(2)}'][a]

PUB_FIRST = [3, 13, 18, 34, 35, 44, 52, 54, 64, 66, 78, 80, 81, 82, 85, 88, 91, 95, 104, 107, 109, 138, 141, 142, 146, 151, 157, 159, 162, 176, 178, 185, 188, 193, 194, 195, 212, 213, 217]
def ipv4(r): return f'{r.choice(PUB_FIRST)}.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}'
def ipv6(r):
    pre = r.choice(['2a01:4f8', '2600:1f18', '2a02:c207', '2001:41d0', '2604:a880', '2a03:2880'])
    return pre + ':' + ':'.join(format(r.randint(0, 0xffff), 'x') for _ in range(6)) if r.random() < 0.5 else pre + ':' + format(r.randint(1, 0xffff), 'x') + '::' + format(r.randint(1, 0xffff), 'x')
def private_ip(r):
    return r.choice([f'10.{r.randint(0,255)}.{r.randint(0,255)}.{r.randint(1,254)}', f'192.168.{r.randint(0,255)}.{r.randint(1,254)}',
                     f'172.{r.randint(16,31)}.{r.randint(0,255)}.{r.randint(1,254)}', f'127.0.0.1', f'100.{r.randint(64,127)}.{r.randint(0,255)}.{r.randint(1,254)}'])

FIRST = {'en': ['Emily', 'James', 'Olivia', 'Marcus', 'Priya', 'Daniel', 'Hannah', 'Tyler', 'Grace', 'Nathan'],
         'ko': ['김민준', '이서연', '박지훈', '최유나', '정하은'], 'ru': ['Алексей', 'Мария', 'Дмитрий', 'Екатерина', 'Игорь'],
         'pt': ['João', 'Ana', 'Lucas', 'Beatriz', 'Rafael'], 'it': ['Giulia', 'Marco', 'Francesca', 'Luca', 'Chiara'],
         'in': ['Rahul', 'Ananya', 'Vikram', 'Sneha', 'Arjun'], 'zh': ['王伟', '李娜', '张敏', '刘洋', '陈静'],
         'es': ['Lucía', 'Javier', 'Carmen', 'Diego', 'Sofía'], 'de': ['Lukas', 'Anna', 'Jonas', 'Lea', 'Felix']}
LAST = {'en': ['Carter', 'Nguyen', 'Okafor', 'Whitfield', 'Brennan', 'Sato', 'Delgado', 'Hughes'], 'ko': [''], 'zh': [''],
        'ru': ['Смирнов', 'Кузнецова', 'Волков', 'Орлова'], 'pt': ['Silva', 'Oliveira', 'Costa', 'Ferreira'],
        'it': ['Rossi', 'Bianchi', 'Esposito', 'Romano'], 'in': ['Sharma', 'Iyer', 'Patel', 'Reddy', 'Mehta'],
        'es': ['García', 'Martínez', 'López', 'Ruiz'], 'de': ['Müller', 'Schneider', 'Becker', 'Hoffmann']}
def name(r, lang='en'):
    f = r.choice(FIRST[lang]); l = r.choice(LAST[lang])
    return f if not l else f'{f} {l}'
ASCII = {'ü': 'ue', 'í': 'i', 'á': 'a', 'ã': 'a', 'é': 'e', 'ó': 'o', 'ç': 'c'}
def email_for(r, nm=None, domain=None):
    nm = nm or name(r)
    base = ''.join(ASCII.get(c, c) for c in nm.lower())
    base = re.sub(r'[^a-z ]', '', base).strip() or r.choice(['minjun', 'seoyeon', 'wei', 'jing', 'alexey', 'maria'])
    parts = base.split()
    local = r.choice(['.'.join(parts), parts[0] + str(r.randint(1, 99)), parts[0][0] + (parts[-1] if len(parts) > 1 else str(r.randint(70, 99)))])
    domain = domain or r.choice(['gmail.com', 'outlook.com', 'yahoo.co.uk', 'naver.com', 'yandex.ru', 'uol.com.br', 'libero.it',
                                 'rediffmail.com', 'qq.com', 'gmx.de', 'protonmail.com', 'icloud.com', 'hey.com'])
    return f'{local}@{domain}'

def street_address(r, cc=None):
    cc = cc or r.choice(['US', 'UK', 'DE', 'IT', 'BR', 'KR', 'RU', 'ES', 'IN'])
    n = r.randint(2, 220)
    if cc == 'US': return f'{r.randint(100, 9999)} {r.choice(["Larkin St", "Maple Avenue", "W 87th Street", "Cedar Ridge Dr", "Pine St"])}, {r.choice(["Apt 4B, ", "Unit 12, ", ""])}{r.choice(["San Francisco, CA 94109", "Austin, TX 78704", "Brooklyn, NY 11215", "Seattle, WA 98103"])}'
    if cc == 'UK': return f'{n} {r.choice(["Elmwood Road", "Kingsley Close", "Marlborough Street"])}, {r.choice(["Leeds LS6 2QR", "Bristol BS7 8NE", "London N16 7UX", "Manchester M14 5RG"])}'
    if cc == 'DE': return f'{r.choice(["Kastanienallee", "Bergmannstraße", "Lindenweg", "Schillerstraße"])} {n}, {r.choice(["10435 Berlin", "80331 München", "50667 Köln", "20095 Hamburg"])}'
    if cc == 'IT': return f'Via {r.choice(["Giuseppe Verdi", "Roma", "Garibaldi", "dei Mille"])} {n}, {r.choice(["20121 Milano", "00184 Roma", "40126 Bologna", "10123 Torino"])}'
    if cc == 'BR': return f'Rua {r.choice(["Augusta", "das Flores", "Haddock Lobo", "Voluntários da Pátria"])}, {r.randint(10, 2500)} - {r.choice(["Consolação, São Paulo - SP, 01305-000", "Botafogo, Rio de Janeiro - RJ, 22270-010", "Savassi, Belo Horizonte - MG, 30140-071"])}'
    if cc == 'KR': return f'{r.choice(["서울특별시 강남구 테헤란로", "서울특별시 마포구 월드컵북로", "부산광역시 해운대구 센텀중앙로"])} {n}, {r.randint(101, 115)}동 {r.randint(1, 25)}0{r.randint(1, 4)}호'
    if cc == 'RU': return f'ул. {r.choice(["Профсоюзная", "Ленина", "Садовая", "Тверская"])}, д. {n}, кв. {r.randint(1, 300)}, {r.choice(["Москва, 117420", "Санкт-Петербург, 191186", "Казань, 420111"])}'
    if cc == 'ES': return f'{r.choice(["Calle de Alcalá", "Carrer de Mallorca", "Calle Mayor"])} {n}, {r.randint(1, 8)}º {r.choice("ABCD")}, {r.choice(["28009 Madrid", "08013 Barcelona", "46002 Valencia"])}'
    if cc == 'IN': return f'Flat {r.randint(101, 904)}, {r.choice(["Sai Residency", "Prestige Lakeside", "Green Glen Layout"])}, {r.choice(["14th Cross, Indiranagar, Bengaluru 560038", "Andheri West, Mumbai 400053", "Sector 62, Noida 201309"])}'

# ---------- negatives ----------
def git_sha(r, n=40): return rs(r, n, HEX)
def uuid4(r):
    h = rs(r, 32, HEX); return f'{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice("89ab")}{h[17:20]}-{h[20:]}'
def sha256(r): return rs(r, 64, HEX)
def integrity(r): return 'sha512-' + base64.b64encode(bytes(r.getrandbits(8) for _ in range(64))).decode()
def png_b64(r, n=120): return 'iVBORw0KGgoAAAANSUhEUgAA' + base64.b64encode(bytes(r.getrandbits(8) for _ in range(n))).decode()

def emit(path, items, prefix):
    with open(path, 'w', encoding='utf-8') as fh:
        for i, it in enumerate(items, 1):
            src, marked, nk, note = it
            text, fnd = parse(marked)
            if nk is None: assert fnd, ('positive without findings', marked[:120])
            else: assert not fnd, ('negative with findings', marked[:120])
            obj = {'id': f'{prefix}-{i:04d}', 'source': src, 'text': text, 'findings': fnd, 'negative_kind': nk}
            if note: obj['note'] = note
            fh.write(json.dumps(obj, ensure_ascii=False) + '\n')
