#!/usr/bin/env python3
"""Seeded generator of dev-2.jsonl (300 items: 150 with findings, 150 hard negatives).

Written blind (without reading the detector or the set-1 files), from the rules in brief.md.
Every value is random with the right shape and check digits; nothing is a real key.

The first half of this file is a small library (value generators with Luhn, mod-97, Verhoeff, RRN, CPF,
codice fiscale, DNI/NIE, NIR, Steuer-ID, BSN and SIN check digits, and `build`, which turns a template with
⟨slot⟩ markers into text plus UTF-16 offsets). The second half holds the dev-2 templates.

    python3 gen_dev2.py            # writes dev-2.jsonl next to this file
"""
import base64
import json
import os
import random
import re
import string
import sys

# ----------------------------------------------------------------------------------------------------------
# library
# ----------------------------------------------------------------------------------------------------------

SLOT = re.compile(r"⟨(\w+)⟩")


def S(typ, value):
    """A labelled value for a slot."""
    return (typ, value)


def build(template, slots):
    """Fill ⟨name⟩ markers; slots map a name to plain text or to S(type, value). Returns (text, findings)."""
    out, findings, pos, last = [], [], 0, 0
    for m in SLOT.finditer(template):
        lit = template[last:m.start()]
        out.append(lit)
        pos += len(lit)
        v = slots[m.group(1)]
        if isinstance(v, tuple):
            typ, val = v
            findings.append({"type": typ, "start": pos, "end": pos + len(val)})
        else:
            val = v
        out.append(val)
        pos += len(val)
        last = m.end()
    out.append(template[last:])
    text = "".join(out)
    assert "⟨" not in text and "⟩" not in text, text
    assert all(ord(c) < 0x10000 and not (0xD800 <= ord(c) <= 0xDFFF) for c in text), "non-BMP char"
    for f in findings:
        v = text[f["start"]:f["end"]]
        assert v == v.strip() and v, (f, v)
    return text, findings


class Gen:
    """Random value generators (all fake)."""

    def __init__(self, seed):
        self.r = random.Random(seed)

    # basic alphabets -------------------------------------------------------------------------------------
    def choice(self, xs):
        return self.r.choice(xs)

    def randint(self, a, b):
        return self.r.randint(a, b)

    def s(self, n, alpha=string.ascii_letters + string.digits):
        return "".join(self.r.choice(alpha) for _ in range(n))

    def hex(self, n):
        return self.s(n, "0123456789abcdef")

    def HEX(self, n):
        return self.s(n, "0123456789ABCDEF")

    def digits(self, n):
        return self.s(n, string.digits)

    def upper(self, n):
        return self.s(n, string.ascii_uppercase)

    def lower(self, n):
        return self.s(n, string.ascii_lowercase)

    def b64(self, nbytes):
        return base64.b64encode(bytes(self.r.getrandbits(8) for _ in range(nbytes))).decode()

    def b64url(self, nbytes):
        return base64.urlsafe_b64encode(bytes(self.r.getrandbits(8) for _ in range(nbytes))).decode().rstrip("=")

    def uuid(self):
        h = self.hex(32)
        h = h[:12] + "4" + h[13:16] + self.choice("89ab") + h[17:]
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    def password(self, kind=None):
        """Human-ish passwords of several shapes."""
        k = kind if kind is not None else self.randint(0, 5)
        words = ["Sunflower", "Tiger", "Ocean", "Maple", "Falcon", "Pepper", "Lotus", "Comet", "Raven", "Cobalt", "Mango",
                 "Granite", "Willow", "Orbit", "Saffron", "Nimbus", "Quartz", "Bamboo", "Juniper", "Kestrel"]
        if k == 0:
            return self.choice(words) + self.choice(["!", "#", "@", "$", "_", "."]) + self.digits(self.randint(2, 4))
        if k == 1:
            return self.s(self.randint(12, 20), string.ascii_letters + string.digits + "!#%&*+-_=?")
        if k == 2:
            return "-".join(self.choice(["river", "copper", "lamp", "violet", "thunder", "pickle", "harbor", "velvet", "cactus",
                                         "ember", "glacier", "walnut", "meadow", "sprocket"]) for _ in range(3)) + self.digits(2)
        if k == 3:
            return self.choice(words).lower() + self.digits(4) + self.choice(["!", "?", "*"])
        if k == 4:
            return self.s(self.randint(16, 28), string.ascii_letters + string.digits)
        return self.choice(words) + self.choice(words) + self.digits(3) + self.choice("!@#%")

    # typed secrets ------------------------------------------------------------------------------------------
    def openai(self):
        return self.choice(["sk-proj-", "sk-svcacct-", "sk-"]) + self.s(self.randint(40, 60), string.ascii_letters + string.digits + "_-") + "T3BlbkFJ" + self.s(40)

    def anthropic(self):
        return "sk-ant-api03-" + self.s(93, string.ascii_letters + string.digits + "_-") + "AA"

    def aws_akid(self, prefix="AKIA"):
        return prefix + self.s(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")

    def aws_secret(self):
        return self.s(40, string.ascii_letters + string.digits + "/+")

    def gcp_api(self):
        return "AIza" + self.s(35, string.ascii_letters + string.digits + "_-")

    def ghp(self, pre="ghp_"):
        return pre + self.s(36)

    def github_pat(self):
        return "github_pat_11" + self.s(20, string.ascii_uppercase + string.digits) + "_" + self.s(59)

    def slack_token(self, pre="xoxb"):
        return f"{pre}-{self.digits(12)}-{self.digits(13)}-{self.s(24)}"

    def slack_webhook(self):
        return f"https://hooks.slack.com/services/T{self.s(10, string.ascii_uppercase + string.digits)}/B{self.s(10, string.ascii_uppercase + string.digits)}/{self.s(24)}"

    def stripe(self, pre="sk_live_"):
        return pre + self.s(self.randint(24, 99))

    def npm(self):
        return "npm_" + self.s(36)

    def hf(self):
        return "hf_" + self.s(34, string.ascii_letters)

    def telegram(self):
        return f"{self.randint(10**9 // 2, 8 * 10**9)}:AA{self.s(33, string.ascii_letters + string.digits + '_-')}"

    def twilio_sk(self):
        return "SK" + self.hex(32)

    def twilio_sid(self):
        return "AC" + self.hex(32)

    def sendgrid(self):
        return "SG." + self.s(22, string.ascii_letters + string.digits + "_-") + "." + self.s(43, string.ascii_letters + string.digits + "_-")

    def jwt(self, payload=None, alg="HS256"):
        hdr = {"alg": alg, "typ": "JWT"}
        if alg.startswith("RS") or alg.startswith("ES"):
            hdr["kid"] = self.s(16)
        if payload is None:
            iat = self.randint(1_700_000_000, 1_760_000_000)
            payload = {"sub": self.uuid(), "iat": iat, "exp": iat + self.choice([900, 3600, 86400])}
        enc = lambda d: base64.urlsafe_b64encode(json.dumps(d, separators=(",", ":")).encode()).decode().rstrip("=")
        sig = self.b64url(32 if alg.endswith("256") and alg.startswith("HS") else (64 if alg.startswith("ES") else 256))
        return f"{enc(hdr)}.{enc(payload)}.{sig}"

    def pem(self, label="OPENSSH PRIVATE KEY", nbytes=None, width=70):
        nbytes = nbytes or (400 if "OPENSSH" in label else 1190)
        body = self.b64(nbytes)
        if "OPENSSH" in label:
            body = "b3BlbnNzaC1rZXktdjEAAAAA" + body
        lines = [body[i:i + width] for i in range(0, len(body), width)]
        return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"

    def sa_private_key_escaped(self):
        body = self.b64(1190)
        lines = [body[i:i + 64] for i in range(0, len(body), 64)]
        return "-----BEGIN PRIVATE KEY-----\\n" + "\\n".join(lines) + "\\n-----END PRIVATE KEY-----"

    # personal data ------------------------------------------------------------------------------------------
    @staticmethod
    def luhn_check(payload):
        total = 0
        for i, c in enumerate(reversed(payload)):
            x = int(c)
            if i % 2 == 0:
                x *= 2
                if x > 9:
                    x -= 9
            total += x
        return str((10 - total % 10) % 10)

    @staticmethod
    def luhn_ok(num):
        d = re.sub(r"[ -]", "", num)
        total = 0
        for i, c in enumerate(reversed(d)):
            x = int(c)
            if i % 2:
                x *= 2
                if x > 9:
                    x -= 9
            total += x
        return total % 10 == 0

    def card_digits(self, brand):
        spec = {
            "visa": (["4"], 16), "visa13": (["4"], 13), "mc": (["51", "52", "53", "54", "55"], 16),
            "mc2": ([str(x) for x in range(2221, 2721)], 16), "amex": (["34", "37"], 15), "discover": (["6011", "644", "65"], 16),
            "jcb": ([str(x) for x in range(3528, 3590)], 16), "diners": (["36", "38"], 14), "unionpay19": (["62"], 19),
            "unionpay": (["62"], 16), "mir": (["2200", "2201", "2202", "2203", "2204"], 16), "maestro": (["6759", "6761", "5018", "5020"], 16),
            "rupay": (["6521", "6522", "6080"], 16), "elo": (["636368", "504175", "509066"], 16), "troy": (["9792"], 16),
        }[brand]
        pre, n = self.choice(spec[0]), spec[1]
        payload = pre + self.digits(n - 1 - len(pre))
        return payload + self.luhn_check(payload)

    @staticmethod
    def group(d, sizes, sep=" "):
        out, i = [], 0
        for k in sizes:
            out.append(d[i:i + k])
            i += k
        if i < len(d):
            out.append(d[i:])
        return sep.join(x for x in out if x)

    def card(self, brand="visa", sep=" "):
        d = self.card_digits(brand)
        if sep is None:
            return d
        sizes = {15: [4, 6, 5], 14: [4, 6, 4], 19: [4, 4, 4, 4, 3], 13: [4, 4, 5]}.get(len(d), [4, 4, 4, 4])
        return self.group(d, sizes, sep)

    def card_bad_luhn(self, brand="visa", sep=" "):
        c = self.card(brand, sep)
        last = int(c[-1])
        c = c[:-1] + str((last + self.randint(1, 9)) % 10)
        assert not self.luhn_ok(c)
        return c

    IBAN_SPEC = {
        "DE": "n18", "ES": "n20", "NL": "a4n10", "SA": "n2n18", "TR": "n5z1n16", "BR": "n23a1n1", "FR": "n10n11n2",
        "IT": "a1n10n12", "GB": "a4n14", "PT": "n21", "PL": "n24", "AE": "n19", "CH": "n5n12", "BE": "n12", "AT": "n16",
        "IE": "a4n14", "GR": "n7n16", "UA": "n6n19", "SE": "n20", "NO": "n11", "DK": "n14", "FI": "n14", "EG": "n25",
        "QA": "a4n21", "KW": "a4n22", "MA": "n24", "LU": "n3n13", "RO": "a4n16", "CZ": "n20", "HU": "n24",
    }

    @staticmethod
    def iban_check(cc, bban):
        s = bban + cc + "00"
        s = "".join(str(ord(c) - 55) if c.isalpha() else c for c in s)
        return f"{98 - int(s) % 97:02d}"

    @staticmethod
    def iban_ok(iban):
        t = iban.replace(" ", "")
        s = t[4:] + t[:4]
        s = "".join(str(ord(c) - 55) if c.isalpha() else c for c in s)
        return int(s) % 97 == 1

    def bban(self, cc):
        out = ""
        for kind, n in re.findall(r"([anz])(\d+)", self.IBAN_SPEC[cc]):
            n = int(n)
            out += self.upper(n) if kind == "a" else ("0" * n if kind == "z" else self.digits(n))
        return out

    def iban(self, cc, spaced=True):
        b = self.bban(cc)
        t = cc + self.iban_check(cc, b) + b
        assert self.iban_ok(t)
        return " ".join(t[i:i + 4] for i in range(0, len(t), 4)) if spaced else t

    def iban_bad(self, cc, spaced=True):
        t = self.iban(cc, False)
        chk = int(t[2:4])
        t = t[:2] + f"{(chk + self.randint(1, 40)) % 97 + 2:02d}"[-2:] + t[4:]
        while self.iban_ok(t):
            t = t[:2] + f"{self.randint(2, 98):02d}" + t[4:]
        return " ".join(t[i:i + 4] for i in range(0, len(t), 4)) if spaced else t

    # government ids
    def ssn(self, sep="-"):
        while True:
            a = self.randint(1, 899)
            if a != 666:
                break
        return f"{a:03d}{sep}{self.randint(1, 99):02d}{sep}{self.randint(1, 9999):04d}"

    def uk_nino(self, spaced=True):
        bad1, bad2 = set("DFIQUV"), set("DFIOQUV")
        while True:
            a, b = self.choice(string.ascii_uppercase), self.choice(string.ascii_uppercase)
            if a in bad1 or b in bad2 or a + b in ("BG", "GB", "KN", "NK", "NT", "TN", "ZZ"):
                continue
            break
        d = self.digits(6)
        suf = self.choice("ABCD")
        return f"{a}{b} {d[:2]} {d[2:4]} {d[4:]} {suf}" if spaced else f"{a}{b}{d}{suf}"

    VERHOEFF_D = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
                  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
                  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
                  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]]
    VERHOEFF_P = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
                  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
                  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8]]
    VERHOEFF_INV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]

    def verhoeff_check(self, num):
        c = 0
        for i, ch in enumerate(reversed(num)):
            c = self.VERHOEFF_D[c][self.VERHOEFF_P[(i + 1) % 8][int(ch)]]
        return str(self.VERHOEFF_INV[c])

    def verhoeff_ok(self, num):
        c = 0
        for i, ch in enumerate(reversed(num)):
            c = self.VERHOEFF_D[c][self.VERHOEFF_P[i % 8][int(ch)]]
        return c == 0

    def aadhaar(self, sep=" "):
        p = str(self.randint(2, 9)) + self.digits(10)
        d = p + self.verhoeff_check(p)
        assert self.verhoeff_ok(d)
        return f"{d[:4]}{sep}{d[4:8]}{sep}{d[8:]}"

    def pan(self, surname_initial=None):
        return self.upper(3) + self.choice("PPPPC") + (surname_initial or self.upper(1)) + f"{self.randint(1, 9999):04d}" + self.upper(1)

    def rrn(self, sep="-"):
        yy, mm, dd = self.randint(60, 99), self.randint(1, 12), self.randint(1, 28)
        g = self.choice("12")
        body = f"{yy:02d}{mm:02d}{dd:02d}{g}{self.digits(5)}"
        w = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]
        chk = (11 - sum(int(a) * b for a, b in zip(body, w)) % 11) % 10
        d = body + str(chk)
        return d[:6] + sep + d[6:]

    def cpf(self, formatted=True):
        while True:
            d = [self.randint(0, 9) for _ in range(9)]
            if len(set(d)) > 1:
                break
        for n in (9, 10):
            s = sum(d[i] * (n + 1 - i) for i in range(n))
            r = s * 10 % 11
            d.append(0 if r == 10 else r)
        t = "".join(map(str, d))
        return f"{t[:3]}.{t[3:6]}.{t[6:9]}-{t[9:]}" if formatted else t

    CF_ODD = dict(zip("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                      [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16,
                       10, 22, 25, 24, 23]))

    def codice_fiscale(self, surname, name, female=False):
        def cons(s):
            return [c for c in s.upper() if c.isalpha() and c not in "AEIOU"]

        def vow(s):
            return [c for c in s.upper() if c in "AEIOU"]

        sc = (cons(surname) + vow(surname) + ["X"] * 3)[:3]
        nc = cons(name)
        nc = [nc[0], nc[2], nc[3]] if len(nc) >= 4 else (nc + vow(name) + ["X"] * 3)[:3]
        yy = self.randint(50, 99)
        mm = self.choice("ABCDEHLMPRST")
        dd = self.randint(1, 28) + (40 if female else 0)
        town = self.choice(["H501", "F205", "F839", "L219", "A944", "G273", "D612", "L736", "C351", "A662"])
        base = "".join(sc + nc) + f"{yy:02d}{mm}{dd:02d}{town}"
        s = 0
        for i, ch in enumerate(base):
            if i % 2 == 0:
                s += self.CF_ODD[ch]
            else:
                s += int(ch) if ch.isdigit() else ord(ch) - 65
        return base + chr(65 + s % 26)

    def dni(self):
        n = self.randint(10_000_000, 99_999_999)
        return f"{n:08d}" + "TRWAGMYFPDXBNJZSQVHLCKE"[n % 23]

    def nie(self):
        p = self.choice("XYZ")
        n = self.randint(0, 9_999_999)
        return f"{p}{n:07d}" + "TRWAGMYFPDXBNJZSQVHLCKE"[int(str("XYZ".index(p)) + f"{n:07d}") % 23]

    def nir(self, spaced=True):
        sex = self.choice("12")
        yy, mm = self.randint(50, 99), self.randint(1, 12)
        dep = self.choice(["75", "69", "13", "33", "31", "59", "67", "44", "06", "92", "93", "94", "34", "35"])
        com, order = self.randint(1, 999), self.randint(1, 999)
        body = f"{sex}{yy:02d}{mm:02d}{dep}{com:03d}{order:03d}"
        key = 97 - int(body) % 97
        if spaced:
            return f"{sex} {yy:02d} {mm:02d} {dep} {com:03d} {order:03d} {key:02d}"
        return body + f"{key:02d}"

    def steuer_id(self, spaced=False):
        while True:
            digs = list(range(10))
            self.r.shuffle(digs)
            dup = digs[0]
            ten = digs[:9]  # nine distinct digits, one missing
            ten.append(dup)
            self.r.shuffle(ten)
            if ten[0] != 0:
                break
        product = 10
        for d in ten:
            s = (d + product) % 10
            if s == 0:
                s = 10
            product = (s * 2) % 11
        chk = 11 - product
        if chk == 10:
            chk = 0
        t = "".join(map(str, ten)) + str(chk)
        return f"{t[:2]} {t[2:5]} {t[5:8]} {t[8:]}" if spaced else t

    def bsn(self):
        while True:
            d = [self.randint(1, 6)] + [self.randint(0, 9) for _ in range(7)]
            s = sum(x * w for x, w in zip(d, range(9, 1, -1)))
            last = s % 11
            if last < 10:
                return "".join(map(str, d)) + str(last)

    def sin(self, sep=" "):
        p = str(self.randint(1, 7)) + self.digits(7)
        d = p + self.luhn_check(p)
        return f"{d[:3]}{sep}{d[3:6]}{sep}{d[6:]}"

    # network
    @staticmethod
    def ip_public_ok(p):
        a, b, c = p[0], p[1], p[2]
        if a in (0, 10, 127) or a >= 224:
            return False
        if (a == 172 and 16 <= b <= 31) or (a == 192 and b == 168) or (a == 169 and b == 254) or (a == 100 and 64 <= b <= 127):
            return False
        if (a == 192 and b == 0 and c in (0, 2)) or (a == 198 and b in (18, 19)) or (a == 198 and b == 51 and c == 100) or (a == 203 and b == 0 and c == 113):
            return False
        return True

    def ip(self):
        while True:
            p = [self.randint(1, 223), self.randint(0, 255), self.randint(0, 255), self.randint(1, 254)]
            if self.ip_public_ok(p):
                return ".".join(map(str, p))

    def ip_private(self):
        k = self.randint(0, 3)
        if k == 0:
            return f"10.{self.randint(0, 255)}.{self.randint(0, 255)}.{self.randint(1, 254)}"
        if k == 1:
            return f"192.168.{self.randint(0, 255)}.{self.randint(1, 254)}"
        if k == 2:
            return f"172.{self.randint(16, 31)}.{self.randint(0, 255)}.{self.randint(1, 254)}"
        return f"100.{self.randint(64, 127)}.{self.randint(0, 255)}.{self.randint(1, 254)}"

    def ipv6(self):
        return f"2a{self.randint(0, 15):02x}:{self.hex(4)}:{self.hex(4)}:{self.hex(4)}:{self.hex(4)}:{self.hex(4)}:{self.hex(4)}:{self.hex(4)}".replace(":0", ":", 0)

    # people ------------------------------------------------------------------------------------------------
    NAMES = {
        "en": (["James", "Olivia", "Ethan", "Hannah", "Marcus", "Chloe", "Tyler", "Megan", "Derek", "Lauren", "Connor", "Abigail"],
               ["Whitfield", "Donovan", "Pratt", "Callahan", "Mercer", "Holloway", "Brennan", "Lockhart", "Sutton", "Harlow", "Ramsey", "Fenwick"]),
        "de": (["Lukas", "Anna", "Jonas", "Leonie", "Felix", "Katrin", "Tobias", "Miriam", "Sebastian", "Jana"],
               ["Hoffmann", "Becker", "Schulte", "Krüger", "Vogel", "Lehmann", "Brandt", "Hartmann", "Wendt", "Seidel"]),
        "fr": (["Camille", "Julien", "Manon", "Thibault", "Élodie", "Mathieu", "Chloé", "Antoine", "Margaux", "Rémi"],
               ["Lefèvre", "Moreau", "Girard", "Fontaine", "Chevalier", "Rousseau", "Garnier", "Lambert", "Faure", "Mercier"]),
        "es": (["Lucía", "Javier", "Carmen", "Alejandro", "Paula", "Sergio", "Marta", "Diego", "Nuria", "Álvaro"],
               ["García Ruiz", "Fernández López", "Martín Soto", "Navarro Gil", "Romero Díaz", "Torres Vega", "Molina Cano", "Ortega Ramos"]),
        "it": (["Giulia", "Marco", "Francesca", "Luca", "Chiara", "Alessandro", "Elena", "Davide", "Sara", "Matteo"],
               ["Rossi", "Bianchi", "Esposito", "Ricci", "Marino", "Greco", "Bruno", "Gallo", "Conti", "Mancini"]),
        "pt": (["João", "Ana Clara", "Pedro", "Mariana", "Lucas", "Beatriz", "Rafael", "Larissa", "Thiago", "Camila"],
               ["Silva Santos", "Oliveira", "Souza Lima", "Pereira", "Carvalho", "Almeida Costa", "Ribeiro", "Rodrigues", "Gomes"]),
        "ru": (["Алексей", "Мария", "Дмитрий", "Екатерина", "Иван", "Ольга", "Сергей", "Анна", "Никита", "Татьяна"],
               ["Смирнов", "Кузнецова", "Попов", "Волкова", "Соколов", "Морозова", "Лебедев", "Новикова", "Козлов", "Павлова"]),
        "ko": (["민준", "서연", "지호", "하은", "도윤", "지우", "현우", "수빈"], ["김", "이", "박", "최", "정", "강", "조", "윤"]),
        "ja": (["翔太", "美咲", "大輔", "陽菜", "健一", "さくら", "拓也", "由美"], ["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村"]),
        "zh": (["伟", "芳", "娜", "秀英", "敏", "静", "磊", "洋", "艳", "军"], ["王", "李", "张", "刘", "陈", "杨", "赵", "黄", "周", "吴"]),
        "in": (["Rahul", "Priya", "Aarav", "Ananya", "Vikram", "Sneha", "Arjun", "Kavya", "Rohit", "Neha"],
               ["Sharma", "Verma", "Iyer", "Nair", "Reddy", "Gupta", "Menon", "Kulkarni", "Chatterjee", "Joshi"]),
        "ar": (["أحمد", "فاطمة", "محمد", "نورة", "خالد", "سارة", "يوسف", "مريم"], ["العتيبي", "الحربي", "القحطاني", "الشمري", "المطيري", "الزهراني"]),
        "arl": (["Ahmed", "Fatima", "Omar", "Layla", "Khalid", "Noura", "Youssef", "Mariam"], ["Al-Harbi", "Haddad", "El-Sayed", "Mansour", "Al-Qahtani", "Nasser"]),
        "tr": (["Emre", "Zeynep", "Burak", "Elif", "Mehmet", "Ayşe", "Can", "Selin"], ["Yılmaz", "Kaya", "Demir", "Şahin", "Çelik", "Aydın", "Öztürk", "Arslan"]),
        "nl": (["Daan", "Sanne", "Bram", "Fleur", "Thijs", "Lotte", "Joris", "Eva"], ["de Vries", "Jansen", "van Dijk", "Bakker", "Visser", "Smit", "Mulder", "de Boer"]),
        "pl": (["Jakub", "Zofia", "Kacper", "Maja", "Piotr", "Alicja"], ["Nowak", "Kowalska", "Wiśniewski", "Wójcik", "Kamińska", "Lewandowski"]),
        "ca": (["Liam", "Émilie", "Noah", "Sophie", "Owen", "Maëlle"], ["Tremblay", "Gagnon", "Roy", "Côté", "Bouchard", "MacDonald"]),
    }

    def first_last(self, lang):
        f, l = self.NAMES[lang]
        f, l = self.choice(f), self.choice(l)
        if lang == "ru" and f[-1] in "аяь" and l[-1] not in "ая":
            l += "а"
        if lang == "ru" and f[-1] not in "аяь" and l[-1] == "а":
            l = l[:-1]
        return f, l

    def name(self, lang="en"):
        f, l = self.first_last(lang)
        if lang in ("ko", "ja", "zh"):
            return l + f
        if lang == "ar":
            return f + " " + l
        return f + " " + l

    def translit(self, s):
        tbl = {"á": "a", "é": "e", "í": "i", "ó": "o", "ú": "u", "ã": "a", "ç": "c", "è": "e", "ü": "ue", "ö": "oe", "ä": "ae",
               "ß": "ss", "ë": "e", "ï": "i", "ô": "o", "â": "a", "ê": "e", "ı": "i", "ş": "s", "ğ": "g", "Ç": "C", "Ş": "S",
               "Ö": "O", "Ü": "U", "É": "E", "Á": "A", "ń": "n", "ś": "s", "ł": "l", "ó": "o", "ż": "z", "ą": "a", "ę": "e"}
        return "".join(tbl.get(c, c) for c in s)

    def email_for(self, first, last, domain=None):
        f = self.translit(first).lower().replace(" ", "")
        l = self.translit(last).lower().replace(" ", "").replace("-", "")
        if not f.isascii() or not l.isascii():
            f, l = self.lower(self.randint(4, 6)), self.lower(self.randint(3, 6))
        local = self.choice([f"{f}.{l}", f"{f[0]}{l}", f"{f}{l}{self.randint(1, 99)}", f"{f}_{l}", f"{l}.{f}"])
        domain = domain or self.choice(["gmail.com", "outlook.com", "yahoo.com", "proton.me", "icloud.com", "hotmail.com", "gmx.de",
                                        "web.de", "orange.fr", "libero.it", "uol.com.br", "mail.ru", "yandex.ru", "naver.com",
                                        "qq.com", "163.com", "yahoo.co.jp", "rediffmail.com", "fastmail.com"])
        return f"{local}@{domain}"

    def email(self, domain=None):
        return self.email_for(*self.first_last(self.choice(["en", "de", "fr", "it", "in", "nl"])), domain)


def item(id_, source, text, findings, negative_kind=None, note=None):
    o = {"id": id_, "source": source, "text": text, "findings": findings,
         "negative_kind": None if findings else negative_kind}
    if note:
        o["note"] = note
    return o


def run_templates(g, pos_templates, neg_templates, n_pos, n_neg, prefix):
    """Instantiate templates round-robin (each call gets an instance number) until the counts are met."""
    out = []
    seen = set()

    def fill(templates, n, positive):
        got, i = 0, 0
        res, count = [], {}
        while got < n:
            t = templates[i % len(templates)]
            inst = count.get(t, 0)
            count[t] = inst + 1
            i += 1
            r = t(g, inst)
            if r is None:
                continue
            source, tpl, slots, extra = r[0], r[1], r[2], r[3]
            text, findings = build(tpl, slots)
            if positive:
                assert findings, (t.__name__, text)
            else:
                assert not findings, t.__name__
            if text in seen:
                continue
            seen.add(text)
            res.append((source, text, findings, extra, t.__name__))
            got += 1
        return res

    pos = fill(pos_templates, n_pos, True)
    neg = fill(neg_templates, n_neg, False)
    rows = []
    for k, (source, text, findings, extra, tname) in enumerate(pos):
        rows.append(item(f"{prefix}-p{k + 1:03d}", source, text, findings, None, f"{tname}: {extra}"))
    for k, (source, text, findings, extra, tname) in enumerate(neg):
        kind, note = extra if isinstance(extra, tuple) else (extra, "")
        rows.append(item(f"{prefix}-n{k + 1:03d}", source, text, [], kind, f"{tname}" + (f": {note}" if note else "")))
    g.r.shuffle(rows)
    return rows


def pick(xs, inst):
    return xs[inst % len(xs)]


LANG_Q = [
    ("ko", "이거 실행하니까 이렇게 나오는데 뭐가 문제야?\n\n"),
    ("ru", "Вот что выдаёт команда, посмотри, пожалуйста, что не так:\n\n"),
    ("pt", "olha o que apareceu aqui, tá certo isso?\n\n"),
    ("it", "Mi dà questo output, puoi controllare?\n\n"),
    ("de", "Kannst du dir das mal anschauen? Das kommt raus:\n\n"),
    ("es", "Me sale esto al ejecutarlo, ¿qué hago?\n\n"),
    ("fr", "J'ai ce résultat, tu peux regarder ce qui cloche ?\n\n"),
    ("ja", "これを実行したらこうなりました。原因わかりますか？\n\n"),
    ("zh", "运行后输出如下，帮我看看哪里有问题：\n\n"),
    ("hinglish", "yeh output aa raha hai, kya galat hai bata do\n\n"),
    ("ar", "هذا ما يظهر عندي، ما المشكلة؟\n\n"),
    ("tr", "Bunu çalıştırınca şu çıkıyor, sorun ne?\n\n"),
]


def L(fn, offset=1, every=2, questions=None):
    """On every `every`-th instance, the user pastes the output into a chat with a question in another language."""
    qs = questions or LANG_Q
    state = {"k": len(fn.__name__)}

    def w(g, inst):
        r = fn(g, inst)
        if r is None or inst % every != offset:
            return r
        source, tpl, slots, extra = r
        lang, q = qs[state["k"] % len(qs)]
        state["k"] += 5
        if isinstance(extra, tuple):
            extra = (extra[0], f"lang={lang} (question) + " + extra[1])
        else:
            extra = f"lang={lang} (question) + " + extra
        return ("chat", q + tpl, slots, extra)

    w.__name__ = fn.__name__
    return w


def write(rows, path):
    with open(path, "w", encoding="utf-8") as f:
        for o in rows:
            f.write(json.dumps(o, ensure_ascii=False) + "\n")



# ----------------------------------------------------------------------------------------------------------
# dev-2: phone and address shapes (US, KR, JP, RU, BR, DE, IN, CN, ES, NL)
# ----------------------------------------------------------------------------------------------------------


def d_phone(g, cc, style=None):
    D = g.digits
    st = style if style is not None else g.randint(0, 2)
    if cc == "us":
        a = f"{g.randint(2, 9)}{g.randint(0, 9)}{g.randint(1, 9)}"
        b = f"{g.randint(2, 9)}{g.digits(2)}"
        while b == "555":
            b = f"{g.randint(2, 9)}{g.digits(2)}"
        c = D(4)
        return [f"+1 ({a}) {b}-{c}", f"({a}) {b}-{c}", f"{a}-{b}-{c}", f"+1 {a} {b} {c}"][st % 4]
    if cc == "kr":
        return [f"010-{D(4)}-{D(4)}", f"+82 10-{D(4)}-{D(4)}", f"02-{D(4)}-{D(4)}"][st % 3]
    if cc == "jp":
        return [f"090-{D(4)}-{D(4)}", f"+81 80-{D(4)}-{D(4)}", f"03-{D(4)}-{D(4)}"][st % 3]
    if cc == "ru":
        return [f"+7 (9{D(2)}) {D(3)}-{D(2)}-{D(2)}", f"8 9{D(2)} {D(3)} {D(2)} {D(2)}", f"+79{D(9)}"][st % 3]
    if cc == "br":
        return [f"+55 11 9{D(4)}-{D(4)}", f"(21) 9{D(4)}-{D(4)}", f"+55 (31) 9{D(4)}-{D(4)}"][st % 3]
    if cc == "de":
        return [f"+49 151 {D(8)}", f"0171 {D(7)}", f"+49 30 {D(4)} {D(4)}", f"089 {D(3)} {D(4)}"][st % 4]
    if cc == "in":
        return [f"+91 9{D(4)} {D(5)}", f"+91-7{D(9)}", f"09{D(4)} {D(5)}"][st % 3]
    if cc == "cn":
        return [f"138 {D(4)} {D(4)}", f"+86 139 {D(4)} {D(4)}", f"15{D(9)}"][st % 3]
    if cc == "es":
        return [f"+34 6{D(2)} {D(2)} {D(2)} {D(2)}", f"6{D(2)} {D(3)} {D(3)}", f"+34 91 {D(3)} {D(2)} {D(2)}"][st % 3]
    if cc == "nl":
        return [f"+31 6 {D(8)}", f"06-{D(8)}", f"+31 20 {D(3)} {D(4)}"][st % 3]
    raise KeyError(cc)


def d_address(g, cc, sep=", "):
    n = g.randint(2, 189)
    if cc == "us":
        st = g.choice(["Maple Ridge Dr", "Harrison St", "Alder Creek Rd", "W Cortland Ave", "Linden Ct", "N Halsted St", "Birchwood Ln"])
        city = g.choice([("Portland", "OR", "972"), ("Austin", "TX", "787"), ("Columbus", "OH", "432"), ("Madison", "WI", "537"),
                         ("Raleigh", "NC", "276"), ("Boise", "ID", "837")])
        apt = g.choice(["", f" Apt {g.randint(1, 40)}{g.choice('ABCD')}", f" Unit {g.randint(100, 999)}"])
        return f"{g.randint(100, 9899)} {st}{apt}{sep}{city[0]}, {city[1]} {city[2]}{g.digits(2)}"
    if cc == "de":
        st = g.choice(["Lindenstraße", "Am Mühlbach", "Goethestraße", "Kastanienallee", "Bergmannstraße", "Hauptstraße", "Rosenweg"])
        city = g.choice([("10", "Berlin"), ("80", "München"), ("50", "Köln"), ("20", "Hamburg"), ("04", "Leipzig"), ("70", "Stuttgart")])
        return f"{st} {n}{g.choice(['', 'a', 'b'])}{sep}{city[0]}{g.digits(3)} {city[1]}"
    if cc == "es":
        st = g.choice(["Calle de Embajadores", "Avinguda Diagonal", "Calle Mayor", "Paseo de la Castellana", "Calle San Vicente", "Calle Alcalá"])
        city = g.choice([("28", "Madrid"), ("08", "Barcelona"), ("46", "Valencia"), ("41", "Sevilla"), ("29", "Málaga")])
        return f"{st} {n}, {g.randint(1, 9)}º {g.choice('ABCD')}{sep}{city[0]}{g.digits(3)} {city[1]}"
    if cc == "kr":
        gu = g.choice(["서울특별시 마포구 월드컵북로", "서울특별시 강남구 테헤란로", "경기도 성남시 분당구 판교역로", "부산광역시 해운대구 센텀중앙로", "서울특별시 송파구 올림픽로"])
        return f"{gu} {n}, {g.randint(101, 120)}동 {g.randint(1, 25)}{g.randint(1, 4):02d}호 ({g.digits(5)})"
    if cc == "jp":
        return f"〒{g.digits(3)}-{g.digits(4)} " + g.choice(["東京都世田谷区三軒茶屋", "大阪府大阪市北区梅田", "東京都杉並区高円寺南", "神奈川県横浜市港北区日吉",
                                                            "京都府京都市左京区北白川"]) + f"{g.randint(1, 5)}-{g.randint(1, 30)}-{g.randint(1, 20)}"
    if cc == "cn":
        return g.choice(["上海市浦东新区张杨路", "北京市朝阳区建国路", "广州市天河区体育西路", "深圳市南山区科技园南路", "杭州市西湖区文三路"]) + \
            f"{n}号{g.randint(1, 30)}栋{g.randint(1, 32)}0{g.randint(1, 8)}室"
    if cc == "in":
        return f"Flat {g.randint(1, 20)}{g.randint(1, 12):02d}, " + g.choice(["Prestige Lakeside Habitat", "Lodha Palava", "DLF Park Place", "Sobha Dream Acres", "Hiranandani Gardens"]) + \
            f"{sep}{g.choice(['Whitefield', 'Powai', 'Sector 54', 'Varthur Road', 'Andheri East'])}, " + \
            g.choice(["Bengaluru 5600", "Mumbai 4000", "Gurugram 1220", "Pune 4110", "Hyderabad 5000"]) + g.digits(2)
    if cc == "br":
        return f"Rua {g.choice(['das Palmeiras', 'Augusta', 'Oscar Freire', 'Voluntários da Pátria', 'XV de Novembro'])}, {n}, apto {g.randint(11, 154)}" + \
            f"{sep}{g.choice(['Pinheiros', 'Botafogo', 'Savassi', 'Centro'])}, {g.choice(['São Paulo - SP', 'Rio de Janeiro - RJ', 'Belo Horizonte - MG', 'Curitiba - PR'])}, {g.digits(5)}-{g.digits(3)}"
    if cc == "ru":
        return f"ул. {g.choice(['Профсоюзная', 'Ленина', 'Садовая', 'Маршала Жукова', 'Гагарина'])}, д. {n}, кв. {g.randint(1, 240)}" + \
            f"{sep}{g.choice(['Москва', 'Санкт-Петербург', 'Казань', 'Новосибирск'])}, {g.randint(101, 630)}{g.digits(3)}"
    if cc == "nl":
        return f"{g.choice(['Prinsengracht', 'Lange Voorhout', 'Oudegracht', 'Kerkstraat', 'Vondelstraat'])} {n}{sep}{g.randint(1011, 9999)} {g.upper(2)} " + \
            g.choice(["Amsterdam", "Utrecht", "Den Haag", "Rotterdam", "Groningen"])
    raise KeyError(cc)


# ----------------------------------------------------------------------------------------------------------
# dev-2 positive templates: each returns (source, template, slots, note)
# ----------------------------------------------------------------------------------------------------------

def p_wifi_password(g, i):
    pw = g.password(pick([0, 2, 3, 5, 0, 1, 3], i))
    v = pick([
        ("en", "hey, the wifi at the lake house is LakeHouse-5G and the password is ⟨pw⟩ — don't post it in the family group pls"),
        ("ko", "집 와이파이 이름은 olleh_GiGA_{x} 이고 비밀번호는 ⟨pw⟩ 이야. 손님 오시면 알려드려"),
        ("ru", "Пароль от вайфая в офисе: ⟨pw⟩ (сеть Office-Guest-2, второй этаж)"),
        ("de", "Das WLAN-Passwort für die Ferienwohnung lautet ⟨pw⟩, das Netz heißt FRITZ!Box 7590 {x}."),
        ("es", "La contraseña del wifi del piso es ⟨pw⟩ y la red se llama MOVISTAR_{x}. Ya me contarás si va bien"),
        ("ja", "会議室のWi-Fiのパスワードは ⟨pw⟩ です。SSIDは Guest-5F です。"),
        ("pt", "a senha do wifi da casa da praia é ⟨pw⟩ — rede VIVOFIBRA-{x}"),
    ], i)
    lang, tpl = v
    tpl = tpl.replace("{x}", g.HEX(4))
    return ("messaging" if i % 2 else "chat", tpl, {"pw": S("other_secret", pw)}, f"lang={lang}; wifi password in prose")


def p_account_login_chat(g, i):
    lang = pick(["en", "pt", "hi", "it", "tr"], i)
    pw = g.password(pick([0, 5, 3, 2, 1], i))
    if lang == "en":
        f, l = g.first_last("en")
        em = g.email_for(f, l)
        tpl = "can you log into my Costco account and check if the order went through? email is ⟨em⟩, password ⟨pw⟩. thanks!"
        return ("chat", tpl, {"em": S("email", em), "pw": S("other_secret", pw)}, "lang=en; account credentials in chat")
    if lang == "pt":
        f, l = g.first_last("pt")
        em = g.email_for(f, l, "uol.com.br")
        tpl = "Entra na minha conta do iFood pra ver o pedido? login: ⟨em⟩ / senha: ⟨pw⟩"
        return ("chat", tpl, {"em": S("email", em), "pw": S("other_secret", pw)}, "lang=pt; account credentials in chat")
    if lang == "hi":
        tpl = "bhai mera IRCTC login kar de, user id rahul_k{n} hai aur password ⟨pw⟩ hai. tatkal ticket book karni hai kal subah 10 baje"
        return ("chat", tpl.replace("{n}", g.digits(3)), {"pw": S("other_secret", pw)}, "lang=hinglish; password in prose")
    if lang == "it":
        f, l = g.first_last("it")
        em = g.email_for(f, l, "libero.it")
        tpl = "Mi controlli la PEC? Accedi con ⟨em⟩ e la password è ⟨pw⟩, poi cerca la raccomandata dell'INPS."
        return ("chat", tpl, {"em": S("email", em), "pw": S("other_secret", pw)}, "lang=it; account credentials in chat")
    tpl = "e-Devlet şifremi unuttum sandım ama buldum: ⟨pw⟩ — vergi borcuna bakabilir misin?"
    return ("chat", tpl, {"pw": S("other_secret", pw)}, "lang=tr; password in prose")


def p_mysql_cli(g, i):
    pw = g.password(pick([1, 4, 0], i))
    v = i % 3
    if v == 0:
        ip = g.ip()
        tpl = ("$ mysql -uroot -p⟨pw⟩ -h ⟨ip⟩ shop_prod -e 'SELECT COUNT(*) FROM orders WHERE created_at > NOW() - INTERVAL 1 DAY'\n"
               "mysql: [Warning] Using a password on the command line interface can be insecure.\n+----------+\n| COUNT(*) |\n+----------+\n|     {c} |\n+----------+")
        return ("tool_output", tpl.replace("{c}", str(g.randint(1000, 9999))), {"pw": S("other_secret", pw), "ip": S("ip_address", ip)}, "mysql -p flag glued + public host")
    if v == 1:
        tpl = ("Running: mysqldump -u backup --password=⟨pw⟩ --single-transaction --routines crm > /backups/crm-{d}.sql\n"
               "mysqldump: [Warning] Using a password on the command line interface can be insecure.\nDump completed in 41.2s")
        return ("log", tpl.replace("{d}", "2025-0" + str(g.randint(1, 9)) + "-1" + str(g.randint(0, 9))), {"pw": S("other_secret", pw)}, "--password= flag in cron log")
    tpl = "root@db-02:~# mysqladmin -uroot -p'⟨pw⟩' processlist status\nUptime: 1849201  Threads: 12  Questions: 88120391  Slow queries: 17  Opens: 4410"
    return ("tool_output", tpl, {"pw": S("other_secret", pw)}, "mysqladmin -p quoted")


def p_pgpassword(g, i):
    pw = g.password(pick([4, 0, 1], i))
    if i % 2 == 0:
        ip = g.ip()
        tpl = "PGPASSWORD=⟨pw⟩ psql -h ⟨ip⟩ -U analytics -d warehouse -c '\\dt+ public.*'\n                 List of relations\n Schema |   Name    | Type  |  Owner\n--------+-----------+-------+-----------\n public | events    | table | analytics\n public | sessions  | table | analytics"
        return ("tool_output", tpl, {"pw": S("env_secret", pw), "ip": S("ip_address", ip)}, "PGPASSWORD inline env assignment + public host")
    tpl = "#!/bin/sh\n# nightly dump, runs from cron at 02:15\nexport PGPASSWORD='⟨pw⟩'\npg_dump -h localhost -U postgres -Fc billing > /var/backups/billing_$(date +%F).dump"
    return ("code", tpl, {"pw": S("env_secret", pw)}, "export PGPASSWORD in backup script")


def p_docker_login(g, i):
    v = i % 3
    if v == 0:
        pw = g.password(4)
        tpl = "$ docker login -u ci-deployer -p ⟨pw⟩ registry.gitlab.com\nWARNING! Using --password via the CLI is insecure. Use --password-stdin.\nLogin Succeeded"
        return ("tool_output", tpl, {"pw": S("other_secret", pw)}, "docker login -p")
    if v == 1:
        tok = g.ghp()
        tpl = "- name: Push image\n  run: |\n    docker login ghcr.io -u octo-bot -p ⟨t⟩\n    docker push ghcr.io/acme/api:${GITHUB_SHA}"
        return ("config", tpl, {"t": S("github_token", tok)}, "docker login with a hardcoded ghp_ token in a workflow")
    pw = g.password(1)
    tpl = "helm registry login harbor.internal.acme.io --username 'robot$ci' --password '⟨pw⟩'\nLogin Succeeded"
    return ("tool_output", tpl, {"pw": S("other_secret", pw)}, "helm registry login --password")


def p_kubectl_secret(g, i):
    if i % 2 == 0:
        a = base64.b64encode(g.password(4).encode()).decode()
        b = base64.b64encode(("sk_live_" + g.s(32)).encode()).decode()
        u = base64.b64encode(b"payments").decode()
        tpl = ("$ kubectl get secret payments-env -n prod -o yaml\napiVersion: v1\ndata:\n  DB_PASSWORD: ⟨a⟩\n  DB_USER: {u}\n  STRIPE_API_KEY: ⟨b⟩\nkind: Secret\n"
               "metadata:\n  creationTimestamp: \"2025-03-11T09:14:55Z\"\n  name: payments-env\n  namespace: prod\n  resourceVersion: \"{rv}\"\n  uid: {uid}\ntype: Opaque")
        return ("tool_output", tpl.replace("{u}", u).replace("{rv}", g.digits(8)).replace("{uid}", g.uuid()),
                {"a": S("env_secret", a), "b": S("env_secret", b)}, "k8s Secret data values are base64 of secrets")
    pw = g.password(4)
    tpl = "$ kubectl get secret grafana-admin -n monitoring -o jsonpath='{.data.admin-password}' | base64 -d\n⟨pw⟩"
    return ("tool_output", tpl, {"pw": S("other_secret", pw)}, "decoded secret printed alone by kubectl|base64 -d")


def p_netrc(g, i):
    f, l = g.first_last(pick(["en", "de", "nl"], i))
    em = g.email_for(f, l)
    if i % 2 == 0:
        tok = g.uuid()
        tpl = "$ cat ~/.netrc\nmachine api.heroku.com\n  login ⟨em⟩\n  password ⟨t⟩\nmachine git.heroku.com\n  login ⟨em⟩\n  password ⟨t⟩"
        return ("tool_output", tpl, {"em": S("email", em), "t": S("env_secret", tok)}, "netrc with a UUID-shaped Heroku API key, repeated")
    pw = g.password(0)
    tpl = "machine urs.earthdata.nasa.gov login {u} password ⟨pw⟩\nmachine api.github.com login {u} password ⟨gh⟩"
    return ("config", tpl.replace("{u}", g.translit(f).lower() + g.digits(2)), {"pw": S("env_secret", pw), "gh": S("github_token", g.ghp())},
            "single-line .netrc entries; ghp_ keeps its typed label")


def p_pgpass(g, i):
    a, b = g.password(4), g.password(pick([0, 3], i))
    tpl = ("$ cat ~/.pgpass\n# hostname:port:database:username:password\n"
           "orders-prod.cluster-c{h}.eu-west-1.rds.amazonaws.com:5432:orders:app_rw:⟨a⟩\nlocalhost:5432:*:postgres:⟨b⟩")
    return ("tool_output", tpl.replace("{h}", g.lower(11)), {"a": S("env_secret", a), "b": S("env_secret", b)}, "pgpass password fields")


def p_npmrc(g, i):
    if i % 2 == 0:
        tpl = "//registry.npmjs.org/:_authToken=⟨n⟩\n@acme:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=⟨t⟩\nalways-auth=true"
        return ("config", tpl, {"n": S("npm_token", g.npm()), "t": S("github_token", g.ghp())}, ".npmrc with two typed tokens")
    f, l = g.first_last("en")
    pw = base64.b64encode(g.password(4).encode()).decode()
    tpl = ("registry=https://artifactory.acme-corp.io/artifactory/api/npm/npm-virtual/\n//artifactory.acme-corp.io/artifactory/api/npm/npm-virtual/:_password=⟨p⟩\n"
           "//artifactory.acme-corp.io/artifactory/api/npm/npm-virtual/:username={u}\n//artifactory.acme-corp.io/artifactory/api/npm/npm-virtual/:email=⟨em⟩\n"
           "//artifactory.acme-corp.io/artifactory/api/npm/npm-virtual/:always-auth=true")
    return ("config", tpl.replace("{u}", g.translit(f).lower()), {"p": S("env_secret", pw), "em": S("email", g.email_for(f, l, "acme-corp.io"))},
            ".npmrc legacy _password (base64) + work e-mail")


def p_pip_index(g, i):
    v = i % 3
    if v == 0:
        pw = g.password(4)
        tpl = "$ cat ~/.config/pip/pip.conf\n[global]\nindex-url = https://deploy:⟨pw⟩@pypi.acme-corp.io/simple\ntimeout = 60"
        return ("tool_output", tpl, {"pw": S("password_in_url", pw)}, "pip.conf index-url with credentials")
    if v == 1:
        tok = "glpat-" + g.s(20, string.ascii_letters + string.digits + "_-")
        tpl = "pip install --extra-index-url https://__token__:⟨t⟩@gitlab.com/api/v4/projects/{p}/packages/pypi/simple acme-ml==2.4.1"
        return ("tool_output", tpl.replace("{p}", g.digits(8)), {"t": S("other_secret", tok)}, "glpat token inside an index URL (glpat -> other_secret)")
    pw = g.password(1)
    tpl = "$ poetry config http-basic.acme-private deploy-bot '⟨pw⟩'\n$ poetry install\nInstalling dependencies from lock file"
    return ("tool_output", tpl, {"pw": S("other_secret", pw)}, "poetry http-basic password as CLI argument")


def p_git_remote(g, i):
    v = i % 3
    if v == 0:
        t = g.ghp("ghs_")
        tpl = "$ git remote -v\norigin\thttps://x-access-token:⟨t⟩@github.com/acme/billing-api.git (fetch)\norigin\thttps://x-access-token:⟨t⟩@github.com/acme/billing-api.git (push)"
        return ("tool_output", tpl, {"t": S("github_token", t)}, "ghs_ token in remote URL, fetch+push")
    if v == 1:
        t = "glpat-" + g.s(20, string.ascii_letters + string.digits + "_-")
        tpl = "[remote \"origin\"]\n\turl = https://oauth2:⟨t⟩@gitlab.com/acme/infra/terraform-live.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*"
        return ("config", tpl, {"t": S("other_secret", t)}, ".git/config with glpat in URL")
    pw = g.password(4)
    tpl = "Cloning into 'mobile-app'...\n$ git clone https://jenkins:⟨pw⟩@bitbucket.org/acme-team/mobile-app.git\nremote: Enumerating objects: 18234, done."
    return ("log", tpl, {"pw": S("password_in_url", pw)}, "plain password in clone URL")


def p_cookie(g, i):
    v = i % 3
    if v == 0:
        tpl = "curl 'https://app.shopwave.io/api/cart' \\\n  -H 'accept: application/json' \\\n  -H 'cookie: _ga=GA1.2.{a}.{b}; sessionid=⟨s⟩; theme=dark' \\\n  --compressed"
        return ("tool_output", tpl.replace("{a}", g.digits(9)).replace("{b}", g.digits(10)), {"s": S("other_secret", g.s(32, string.ascii_lowercase + string.digits))},
                "Django sessionid cookie in a copied curl")
    if v == 1:
        val = "s%3A" + g.s(32, string.ascii_letters + string.digits + "-_") + "." + g.s(43, string.ascii_letters + string.digits + "%")
        tpl = "HTTP/1.1 200 OK\nX-Powered-By: Express\nSet-Cookie: connect.sid=⟨v⟩; Path=/; Expires=Fri, 14 Nov 2025 10:22:31 GMT; HttpOnly\nContent-Type: application/json; charset=utf-8"
        return ("tool_output", tpl, {"v": S("other_secret", val)}, "connect.sid session cookie")
    val = g.b64(120).replace("=", "") + "--" + g.hex(40)
    tpl = "Cookie: _shopfront_session=⟨v⟩; locale=pt-BR"
    return ("log", "Started GET \"/account/orders\" for 10.4.2.17\n  " + tpl, {"v": S("other_secret", val)}, "Rails session cookie in request log")


def p_bearer(g, i):
    tok = g.s(pick([40, 64, 48], i), string.ascii_letters + string.digits + pick(["", "-_", "."], i))
    v = i % 3
    if v == 0:
        tpl = "> GET /v2/accounts/me HTTP/2\n> Host: api.fintrack.io\n> user-agent: curl/8.5.0\n> accept: */*\n> authorization: Bearer ⟨t⟩\n>\n< HTTP/2 200\n< content-type: application/json"
        return ("tool_output", tpl, {"t": S("bearer_token", tok)}, "curl -v opaque bearer")
    if v == 1:
        tpl = '{"log": {"entries": [{"request": {"method": "POST", "url": "https://api.routeplanner.app/v1/trips", "headers": [{"name": "Authorization", "value": "Bearer ⟨t⟩"}, {"name": "Content-Type", "value": "application/json"}]}}]}}'
        return ("api_json", tpl, {"t": S("bearer_token", tok)}, "HAR export with bearer")
    tpl = "2025-06-02T11:20:43Z DEBUG httpx request headers={'host': 'api.ledgerly.com', 'authorization': 'Bearer ⟨t⟩', 'accept': 'application/json'}"
    return ("log", tpl, {"t": S("bearer_token", tok)}, "debug log prints headers")


def p_basic(g, i):
    user = pick(["webhook", "admin", "svc-reporting"], i)
    b = base64.b64encode(f"{user}:{g.password(pick([4, 0, 1], i))}".encode()).decode()
    if i % 2 == 0:
        tpl = "POST /hooks/orders HTTP/1.1\nHost: erp.acme-corp.io\nAuthorization: Basic ⟨b⟩\nContent-Type: application/json\nContent-Length: 412"
        return ("log", tpl, {"b": S("basic_auth", b)}, "Basic auth in a request dump")
    tpl = "location /metrics {\n    proxy_pass http://127.0.0.1:9100;\n    proxy_set_header Authorization \"Basic ⟨b⟩\";\n}"
    return ("config", tpl, {"b": S("basic_auth", b)}, "Basic header in nginx config")


def p_slack_webhook(g, i):
    u = g.slack_webhook()
    if i % 2 == 0:
        tpl = "#!/usr/bin/env bash\nset -e\n./deploy.sh\ncurl -X POST -H 'Content-type: application/json' --data '{\"text\":\"✅ deploy finished\"}' ⟨u⟩"
        return ("code", tpl, {"u": S("slack_webhook", u)}, "slack webhook in deploy script")
    tpl = "import requests\n\ndef alert(msg):\n    requests.post(\"⟨u⟩\", json={\"text\": msg}, timeout=5)"
    return ("code", tpl, {"u": S("slack_webhook", u)}, "slack webhook in python")


def p_discord_webhook(g, i):
    u = f"https://discord.com/api/webhooks/{g.digits(18)}/{g.s(68, string.ascii_letters + string.digits + '_-')}"
    if i % 2 == 0:
        tpl = "const hook = '⟨u⟩';\nawait fetch(hook, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ content: `Build #${n} failed` }) });"
        return ("code", tpl, {"u": S("other_secret", u)}, "Discord webhook URL (whole URL labelled, no typed key)")
    tpl = "achei o webhook do servidor, é esse aqui: ⟨u⟩ — consegue fazer o bot mandar o resumo diário lá?"
    return ("chat", tpl, {"u": S("other_secret", u)}, "lang=pt; Discord webhook URL in chat")


def p_telegram(g, i):
    t = g.telegram()
    v = i % 2
    if v == 0:
        tpl = "import telebot\n\nbot = telebot.TeleBot(\"⟨t⟩\")\n\n@bot.message_handler(commands=['start'])\ndef start(m):\n    bot.reply_to(m, 'Привет!')"
        return ("code", tpl, {"t": S("telegram_bot_token", t)}, "telegram token in code")
    tpl = "Вот токен от BotFather: ⟨t⟩\nНастрой, пожалуйста, вебхук на наш сервер и проверь getWebhookInfo."
    return ("messaging", tpl, {"t": S("telegram_bot_token", t)}, "lang=ru; telegram token in chat")


def p_twilio(g, i):
    sid, tok = g.twilio_sid(), g.hex(32)
    to, fr = d_phone(g, "us", 3), d_phone(g, "us", 3)
    to, fr = to.replace(" ", "").replace("(", "").replace(")", "").replace("-", ""), fr.replace(" ", "").replace("(", "").replace(")", "").replace("-", "")
    tpl = ("curl -X POST \"https://api.twilio.com/2010-04-01/Accounts/{sid}/Messages.json\" \\\n  --data-urlencode \"Body=Your table is ready\" \\\n"
           "  --data-urlencode \"From=⟨fr⟩\" \\\n  --data-urlencode \"To=⟨to⟩\" \\\n  -u {sid}:⟨tok⟩")
    return ("code", tpl.replace("{sid}", sid), {"fr": S("phone", fr), "to": S("phone", to), "tok": S("twilio_key", tok)},
            "Twilio auth token as -u password; SID not labelled")


def p_sendgrid(g, i):
    f, l = g.first_last(pick(["en", "es", "fr"], i))
    em = g.email_for(f, l)
    tpl = ("const sgMail = require('@sendgrid/mail');\nsgMail.setApiKey('⟨k⟩');\nawait sgMail.send({\n  to: '⟨em⟩',\n  from: '⟨fr⟩',\n"
           "  subject: 'Your receipt',\n  html: '<p>Thanks for your order!</p>',\n});")
    return ("code", tpl, {"k": S("sendgrid_key", g.sendgrid()), "em": S("email", em), "fr": S("email", "hello@brightcup.coffee")},
            "sendgrid key + customer e-mail + the shop's hello@ role mailbox")


def p_mailgun(g, i):
    k = "key-" + g.hex(32)
    f, l = g.first_last("en")
    em = g.email_for(f, l)
    tpl = ("curl -s --user 'api:⟨k⟩' \\\n    https://api.mailgun.net/v3/mg.harborbikes.com/messages \\\n    -F from='Harbor Bikes <support@harborbikes.com>' \\\n"
           "    -F to=⟨em⟩ \\\n    -F subject='Your repair is done' \\\n    -F text='Pick it up any time after 3pm.'")
    tpl = tpl.replace("<support@harborbikes.com>", "<⟨sup⟩>")
    return ("code", tpl, {"k": S("other_secret", k), "em": S("email", em), "sup": S("email", "support@harborbikes.com")},
            "mailgun key-… as curl --user password; support@ role mailbox labelled")


def p_azure_conn(g, i):
    key = g.b64(64)
    acct = "st" + g.lower(8) + g.digits(3)
    if i % 2 == 0:
        tpl = ('{\n  "Logging": { "LogLevel": { "Default": "Information" } },\n  "ConnectionStrings": {\n    "Blob": "DefaultEndpointsProtocol=https;AccountName={a};AccountKey=⟨k⟩;EndpointSuffix=core.windows.net"\n  }\n}')
        return ("config", tpl.replace("{a}", acct), {"k": S("env_secret", key)}, "Azure storage AccountKey inside a connection string")
    k2 = g.b64(32)
    tpl = "Endpoint=sb://orders-bus-{x}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=⟨k⟩"
    return ("tool_output", "$ az servicebus namespace authorization-rule keys list ... --query primaryConnectionString -o tsv\n" + tpl.replace("{x}", g.lower(5)),
            {"k": S("env_secret", k2)}, "Service Bus SharedAccessKey")


def p_gcp_sa(g, i):
    proj = g.choice(["acme-data", "trip-planner", "ml-sandbox"]) + "-" + g.digits(6)
    pk = g.sa_private_key_escaped()
    tpl = ('{\n  "type": "service_account",\n  "project_id": "{p}",\n  "private_key_id": "{kid}",\n  "private_key": "⟨pk⟩\\n",\n'
           '  "client_email": "etl-runner@{p}.iam.gserviceaccount.com",\n  "client_id": "{cid}",\n  "auth_uri": "https://accounts.google.com/o/oauth2/auth",\n'
           '  "token_uri": "https://oauth2.googleapis.com/token"\n}')
    pre = pick(["", "this is the key file I downloaded, but BigQuery still says permission denied:\n\n"], i)
    return ("chat" if pre else "config", pre + tpl.replace("{p}", proj).replace("{kid}", g.hex(40)).replace("{cid}", g.digits(21)),
            {"pk": S("gcp_service_account_key", pk)}, "service account JSON")


def p_firebase(g, i):
    k = g.gcp_api()
    p = g.choice(["pomodoro", "recipebox", "habitloop"]) + "-" + g.hex(5)
    if i % 2 == 0:
        tpl = ("const firebaseConfig = {\n  apiKey: \"⟨k⟩\",\n  authDomain: \"{p}.firebaseapp.com\",\n  projectId: \"{p}\",\n  storageBucket: \"{p}.appspot.com\",\n"
               "  messagingSenderId: \"{m}\",\n  appId: \"1:{m}:web:{h}\"\n};")
        return ("code", tpl.replace("{p}", p).replace("{m}", g.digits(12)).replace("{h}", g.hex(22)), {"k": S("gcp_api_key", k)}, "firebase web config")
    tpl = "Firebaseの設定はこれで合ってますか？ apiKey: ⟨k⟩ 、projectId: {p}。ログインすると auth/invalid-api-key が出ます。"
    return ("chat", tpl.replace("{p}", p), {"k": S("gcp_api_key", k)}, "lang=ja; AIza key in chat")


def p_shopify(g, i):
    t = "shpat_" + g.hex(32)
    if i % 2 == 0:
        tpl = "SHOPIFY_STORE=brightcup-coffee.myshopify.com\nSHOPIFY_ADMIN_API_ACCESS_TOKEN=⟨t⟩\nSHOPIFY_API_VERSION=2025-01"
        return ("config", tpl, {"t": S("env_secret", t)}, "shpat_ token on an env line (no typed key)")
    tpl = ("curl -X GET \"https://brightcup-coffee.myshopify.com/admin/api/2025-01/orders.json?status=any\" \\\n  -H \"X-Shopify-Access-Token: ⟨t⟩\"")
    return ("code", tpl, {"t": S("other_secret", t)}, "shpat_ token in a custom auth header")


def p_sentry(g, i):
    k = g.hex(32)
    o, pr = g.digits(6), g.digits(7)
    if i % 2 == 0:
        tpl = "import sentry_sdk\n\nsentry_sdk.init(\n    dsn=\"https://⟨k⟩@o{o}.ingest.sentry.io/{p}\",\n    traces_sample_rate=0.2,\n)"
        return ("code", tpl.replace("{o}", o).replace("{p}", pr), {"k": S("other_secret", k)}, "Sentry DSN key")
    tpl = "[2025-05-19 08:02:11] INFO sentry: Initialised with DSN https://⟨k⟩@o{o}.ingest.us.sentry.io/{p} (release web@4.18.2)"
    return ("log", tpl.replace("{o}", o).replace("{p}", pr), {"k": S("other_secret", k)}, "Sentry DSN in log")


def p_vault(g, i):
    t = "hvs." + g.s(pick([24, 90], i), string.ascii_letters + string.digits + "_-")
    tpl = pick(["export VAULT_ADDR=https://vault.acme-corp.io:8200\nexport VAULT_TOKEN=⟨t⟩\nvault kv get -mount=secret payments/prod",
                "# ~/.zshrc\nexport VAULT_ADDR='https://vault.service.consul:8200'\nexport VAULT_TOKEN='⟨t⟩'\nalias vk='vault kv'"], i)
    return ("config", tpl, {"t": S("env_secret", t)}, "Vault hvs. token on VAULT_TOKEN")


def p_bitwarden(g, i):
    f, l = g.first_last(pick(["en", "de", "fr"], i))
    em = g.email_for(f, l)
    p1, p2 = g.password(4), g.password(0)
    tpl = ('{"encrypted": false, "items": [\n  {"type": 1, "name": "Amazon", "login": {"uris": [{"uri": "https://www.amazon.de"}], "username": "⟨em⟩", "password": "⟨p1⟩", "totp": null}},\n'
           '  {"type": 1, "name": "Router", "login": {"uris": [{"uri": "http://192.168.178.1"}], "username": "admin", "password": "⟨p2⟩"}}\n]}')
    return ("tool_output", tpl, {"em": S("email", em), "p1": S("env_secret", p1), "p2": S("env_secret", p2)}, "unencrypted Bitwarden JSON export")


def p_ssh_key(g, i):
    if i % 2 == 0:
        k = g.pem("OPENSSH PRIVATE KEY", 300)
        return ("tool_output", "$ cat ~/.ssh/id_ed25519\n⟨k⟩\n$ ", {"k": S("private_key", k)}, "openssh private key")
    k = g.pem("RSA PRIVATE KEY", 600, 64)
    tpl = "cat > /root/.ssh/deploy_key <<'EOF'\n⟨k⟩\nEOF\nchmod 600 /root/.ssh/deploy_key"
    return ("code", tpl, {"k": S("private_key", k)}, "RSA key in heredoc")


def p_jwt_cookie(g, i):
    j = g.jwt({"sub": g.digits(7), "role": "customer", "iat": 1736500000 + g.randint(0, 9999999), "exp": 1766500000}, pick(["HS256", "RS256"], i))
    if i % 2 == 0:
        tpl = "< HTTP/2 200\n< set-cookie: access_token=⟨j⟩; Path=/; Secure; HttpOnly; SameSite=Lax\n< cache-control: no-store"
        return ("tool_output", tpl, {"j": S("jwt", j)}, "JWT in set-cookie")
    tpl = "> localStorage.getItem('auth')\n'{\"token\":\"⟨j⟩\",\"user\":{\"id\":{u}}}'"
    return ("tool_output", tpl.replace("{u}", g.digits(6)), {"j": S("jwt", j)}, "JWT in localStorage (devtools console)")


def p_do_token(g, i):
    t = "dop_v1_" + g.hex(64)
    tpl = "$ cat ~/.config/doctl/config.yaml\naccess-token: ⟨t⟩\ncontext: default\noutput: text"
    return ("tool_output", tpl, {"t": S("env_secret", t)}, "DigitalOcean token in doctl config")


def p_datadog(g, i):
    k = g.hex(32)
    tpl = ("docker run -d --name dd-agent \\\n  -e DD_API_KEY=⟨k⟩ \\\n  -e DD_SITE=\"datadoghq.eu\" \\\n  -v /var/run/docker.sock:/var/run/docker.sock:ro \\\n"
           "  gcr.io/datadoghq/agent:7")
    return ("tool_output", tpl, {"k": S("env_secret", k)}, "DD_API_KEY in docker run -e")


def p_aws_creds(g, i):
    a, s = g.aws_akid(), g.aws_secret()
    tpl = "$ cat ~/.aws/credentials\n[default]\naws_access_key_id = ⟨a⟩\naws_secret_access_key = ⟨s⟩\nregion = eu-central-1"
    return ("tool_output", tpl, {"a": S("aws_access_key", a), "s": S("aws_secret_key", s)}, "aws credentials file")


def p_openai_chat(g, i):
    k = g.openai()
    tpl = pick(["minha chave é ⟨k⟩ e tá dando 401 Unauthorized, o que pode ser?",
                "I rotated it already, new key: ⟨k⟩ — can you rerun the eval script with it?"], i)
    return ("chat", tpl, {"k": S("openai_key", k)}, pick(["lang=pt; ", "lang=en; "], i) + "openai key in chat")


def p_redis_cli(g, i):
    pw = g.password(4)
    ip = g.ip()
    tpl = ("$ redis-cli -h ⟨ip⟩ -p 6379 -a ⟨pw⟩ INFO keyspace\nWarning: Using a password with '-a' or '-u' option on the command line interface may not be safe.\n"
           "# Keyspace\ndb0:keys={k},expires={e},avg_ttl=0")
    return ("tool_output", tpl.replace("{k}", g.digits(5)).replace("{e}", g.digits(3)), {"ip": S("ip_address", ip), "pw": S("other_secret", pw)}, "redis-cli -a")


def p_recovery_codes(g, i):
    codes = [f"{g.lower(5)}-{g.lower(5)}" if i % 2 == 0 else f"{g.digits(4)} {g.digits(4)}" for _ in range(pick([4, 5], i))]
    if i % 2 == 0:
        head = "GitHub recovery codes — keep somewhere safe, each works once:\n"
    else:
        head = "Backup-Codes für mein Google-Konto (bitte in den Tresor legen):\n"
    tpl = head + "\n".join(f"  ⟨c{k}⟩" for k in range(len(codes)))
    return ("chat", tpl, {f"c{k}": S("other_secret", c) for k, c in enumerate(codes)}, pick(["lang=en", "lang=de"], i) + "; 2FA recovery codes")


def p_temp_password_mail(g, i):
    f, l = g.first_last(pick(["en", "nl"], i))
    em = g.email_for(f, l, "lindqvist-logistics.com")
    pw = g.password(pick([1, 4], i))
    tpl = ("From: IT Service Desk <⟨sd⟩>\nTo: ⟨nm⟩ <⟨em⟩>\nSubject: Your VPN account is ready\n\nHi {f},\n\n"
           "your GlobalProtect account has been created.\nUsername: {u}\nTemporary password: ⟨pw⟩\n\nYou will be asked to change it at first login.\n\nIT Service Desk")
    return ("email", tpl.replace("{f}", f).replace("{u}", g.translit(f[0] + l).lower().replace(" ", "")),
            {"nm": S("person_name", f"{f} {l}"), "em": S("email", em), "pw": S("other_secret", pw),
             "sd": S("email", "servicedesk@lindqvist-logistics.com")}, "temporary password in mail; servicedesk@ role mailbox is also labelled")


def p_email_thread(g, i):
    lang = pick(["fr", "it", "en"], i)
    a, b, c = g.first_last(lang), g.first_last(lang), g.first_last(lang)
    dom = pick(["atelier-lumiere.fr", "studiobianchi.it", "northwind-analytics.com"], i)
    ea, eb, ec = g.email_for(*a, dom), g.email_for(*b), g.email_for(*c, dom)
    body = pick(["Bonjour,\n\nvous trouverez ci-joint le devis révisé. Merci de me confirmer avant vendredi.\n\nCordialement,",
                 "Ciao,\n\nti giro il preventivo aggiornato, fammi sapere entro venerdì.\n\nGrazie,",
                 "Hi,\n\nattached is the revised quote. Let me know by Friday.\n\nThanks,"], i)
    subj = pick(["Re: devis rénovation cuisine", "Re: preventivo sito web", "Re: quote for Q3 dashboards"], i)
    tpl = f"From: ⟨na⟩ <⟨ea⟩>\nTo: ⟨nb⟩ <⟨eb⟩>\nCc: ⟨nc⟩ <⟨ec⟩>\nDate: Tue, 4 Mar 2025 09:41:07 +0100\nSubject: {subj}\n\n{body}\n{a[0]}"
    return ("email", tpl, {"na": S("person_name", " ".join(a)), "ea": S("email", ea), "nb": S("person_name", " ".join(b)), "eb": S("email", eb),
                           "nc": S("person_name", " ".join(c)), "ec": S("email", ec)}, f"lang={lang}; mail headers with display names")


def p_vcard(g, i):
    cc = pick(["us", "de", "br"], i)
    lang = {"us": "en", "de": "de", "br": "pt"}[cc]
    f, l = g.first_last(lang)
    ph, em, adr = d_phone(g, cc, 0), g.email_for(f, l), d_address(g, cc)
    tpl = "BEGIN:VCARD\nVERSION:3.0\nFN:⟨fn⟩\nTEL;TYPE=CELL:⟨ph⟩\nEMAIL;TYPE=HOME:⟨em⟩\nADR;TYPE=HOME;LABEL=\"⟨adr⟩\":;;;;;;\nEND:VCARD"
    return ("tool_output", tpl.replace("{l}", l).replace("{f}", f),
            {"fn": S("person_name", f"{f} {l}"), "ph": S("phone", ph), "em": S("email", em), "adr": S("street_address", adr)}, f"vCard {cc}")


def p_ics(g, i):
    lang = pick(["en", "de", "es"], i)
    o, a1, a2 = g.first_last(lang), g.first_last(lang), g.first_last(lang)
    dom = pick(["brightloop.io", "hafenwerk.de", "cosmica.es"], i)
    eo, e1, e2 = g.email_for(*o, dom), g.email_for(*a1, dom), g.email_for(*a2)
    tpl = ("BEGIN:VEVENT\nDTSTART:20250612T090000Z\nDTEND:20250612T093000Z\nSUMMARY:Quarterly planning\nUID:{uid}@google.com\n"
           "ORGANIZER;CN=⟨no⟩:mailto:⟨eo⟩\nATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;CN=⟨n1⟩:mailto:⟨e1⟩\n"
           "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=OPT-PARTICIPANT;PARTSTAT=NEEDS-ACTION;CN=⟨n2⟩:mailto:⟨e2⟩\nEND:VEVENT")
    return ("calendar", tpl.replace("{uid}", g.s(26, string.ascii_lowercase + string.digits)),
            {"no": S("person_name", " ".join(o)), "eo": S("email", eo), "n1": S("person_name", " ".join(a1)), "e1": S("email", e1),
             "n2": S("person_name", " ".join(a2)), "e2": S("email", e2)}, f"lang={lang}; ICS attendees (UID@google.com not labelled)")


def p_shipping(g, i):
    cc = pick(["es", "us", "de"], i)
    lang = {"es": "es", "us": "en", "de": "de"}[cc]
    f, l = g.first_last(lang)
    adr, ph = d_address(g, cc, "\n"), d_phone(g, cc, 1)
    hdr = {"es": ("Tu pedido ha salido del almacén.\n\nDirección de envío:\n", "\nTeléfono: ", "Pedido n.º"),
           "us": ("Your order has shipped!\n\nShip to:\n", "\nPhone: ", "Order #"),
           "de": ("Deine Bestellung ist unterwegs.\n\nLieferadresse:\n", "\nTelefon: ", "Bestellnummer")}[cc]
    tpl = hdr[0] + "⟨nm⟩\n⟨adr⟩" + hdr[1] + "⟨ph⟩\n\n" + hdr[2] + " {o}"
    return ("email", tpl.replace("{o}", f"{g.digits(3)}-{g.digits(7)}-{g.digits(7)}"),
            {"nm": S("person_name", f"{f} {l}"), "adr": S("street_address", adr), "ph": S("phone", ph)}, f"lang={lang}; shipping block")


def p_self_intro(g, i):
    cc = pick(["kr", "ru", "cn", "br", "us", "jp"], i)
    lang = {"kr": "ko", "ru": "ru", "cn": "zh", "br": "pt", "us": "en", "jp": "ja"}[cc]
    nm = g.name(lang)
    ph = d_phone(g, cc, i)
    tpl = {"ko": "안녕하세요, 저는 ⟨nm⟩입니다. 예약 변경 때문에 연락드렸어요. 제 번호는 ⟨ph⟩ 입니다.",
           "ru": "Здравствуйте! Меня зовут ⟨nm⟩, перезвоните мне, пожалуйста, по номеру ⟨ph⟩ после шести.",
           "zh": "你好，我叫⟨nm⟩，快递到了请打我电话⟨ph⟩，谢谢。",
           "pt": "Oi, meu nome é ⟨nm⟩ e meu WhatsApp é ⟨ph⟩. Vi o anúncio do apartamento e queria agendar uma visita.",
           "en": "Hi, my name is ⟨nm⟩, my cell is ⟨ph⟩ — please call me when the part arrives.",
           "ja": "はじめまして、⟨nm⟩と申します。折り返しは ⟨ph⟩ までお願いします。"}[lang]
    return ("chat", tpl, {"nm": S("person_name", nm), "ph": S("phone", ph)}, f"lang={lang}; self-introduction with phone")


def p_card_chat(g, i):
    v = pick(["en", "ru", "es"], i)
    if v == "en":
        c = g.card(pick(["visa", "mc", "amex"], i // 3), " ")
        tpl = "just use my card for the hotel deposit: ⟨c⟩, exp 09/28. billing zip is the same as last time"
    elif v == "ru":
        c = g.card("mir", " ")
        tpl = "Оплати, пожалуйста, коммуналку с моей карты ⟨c⟩, срок до 11/27. Код пришлю отдельно."
    else:
        c = g.card("mc", "-")
        tpl = "Paga la reserva con esta tarjeta: ⟨c⟩ (caduca 04/29). Gracias!"
    return ("chat", tpl, {"c": S("card_number", c)}, f"lang={v}; card number in chat")


def p_iban_invoice(g, i):
    cc = pick(["DE", "NL", "ES"], i)
    lang = {"DE": "de", "NL": "nl", "ES": "es"}[cc]
    f, l = g.first_last(lang)
    ib = g.iban(cc, i % 2 == 0)
    tpl = {"DE": "Hallo,\nanbei die Rechnung für die Übersetzung. Bitte überweise den Betrag von 480,00 € bis zum 15.07. auf folgendes Konto:\n\nKontoinhaber: ⟨nm⟩\nIBAN: ⟨ib⟩\nBIC: {bic}\n\nViele Grüße",
           "NL": "Hoi! Wil je de €45 voor het weekend overmaken naar ⟨ib⟩ t.n.v. ⟨nm⟩? Dank je!",
           "ES": "Hola, te paso mis datos para el reembolso de la fianza:\nTitular: ⟨nm⟩\nIBAN: ⟨ib⟩\nUn saludo"}[cc]
    return ("email" if cc != "NL" else "messaging", tpl.replace("{bic}", g.upper(6) + "XX"),
            {"nm": S("person_name", f"{f} {l}"), "ib": S("iban", ib)}, f"lang={lang}; IBAN with account holder")


def p_ssn_hr(g, i):
    f, l = g.first_last("en")
    em = g.email_for(f, l, "corvid-labs.com")
    ssn = g.ssn(pick(["-", "-", ""], i))
    tpl = ('{"employee_id": "E{eid}", "legal_name": "⟨nm⟩", "ssn": "⟨ssn⟩", "work_email": "⟨em⟩", "hire_date": "2023-08-14", '
           '"department": "Platform", "pay_grade": "L5", "w4_status": "single"}')
    return ("api_json", tpl.replace("{eid}", g.digits(5)), {"nm": S("person_name", f"{f} {l}"), "ssn": S("gov_id", ssn), "em": S("email", em)}, "HR record with SSN")


def p_cpf(g, i):
    f, l = g.first_last("pt")
    cpf = g.cpf(i % 2 == 0)
    em = g.email_for(f, l, "gmail.com")
    tpl = pick(["Cadastro para a nota fiscal:\nNome: ⟨nm⟩\nCPF: ⟨cpf⟩\nE-mail: ⟨em⟩",
                "pode emitir a NF no nome da minha mãe? ⟨nm⟩, CPF ⟨cpf⟩, o e-mail dela é ⟨em⟩"], i)
    return ("chat", tpl, {"nm": S("person_name", f"{f} {l}"), "cpf": S("gov_id", cpf), "em": S("email", em)}, "lang=pt; CPF")


def p_aadhaar(g, i):
    f, l = g.first_last("in")
    ad = g.aadhaar(pick([" ", "", "-"], i))
    ph = d_phone(g, "in", i)
    tpl = pick(["KYC ke liye details: naam ⟨nm⟩, Aadhaar ⟨ad⟩, mobile ⟨ph⟩. PAN baad mein bhejta hoon.",
                "Please update my records. Name: ⟨nm⟩ | Aadhaar No: ⟨ad⟩ | Registered mobile: ⟨ph⟩"], i)
    return ("chat", tpl, {"nm": S("person_name", f"{f} {l}"), "ad": S("gov_id", ad), "ph": S("phone", ph)}, pick(["lang=hinglish", "lang=en"], i) + "; Aadhaar KYC")


def p_rrn(g, i):
    nm = g.name("ko")
    rrn = g.rrn()
    ph = d_phone(g, "kr", 0)
    tpl = "[가입 신청서]\n성명: ⟨nm⟩\n주민등록번호: ⟨rrn⟩\n휴대전화: ⟨ph⟩\n신청일: 2025-04-02"
    return ("tool_output", tpl, {"nm": S("person_name", nm), "rrn": S("gov_id", rrn), "ph": S("phone", ph)}, "lang=ko; RRN form")


def p_dni(g, i):
    f, l = g.first_last("es")
    d = g.dni()
    tpl = pick(["Para el contrato de alquiler necesito: nombre completo ⟨nm⟩, DNI ⟨d⟩. ¿Lo pasas tú al casero?",
                "Titular de la reserva: ⟨nm⟩ — DNI/NIF: ⟨d⟩ — Llegada: 14/08"], i)
    return ("chat", tpl, {"nm": S("person_name", f"{f} {l}"), "d": S("gov_id", d)}, "lang=es; DNI (brief: DNI 'not used' in set 1; labelled gov_id here)")


def p_bsn(g, i):
    f, l = g.first_last("nl")
    b = g.bsn()
    tpl = "Beste,\n\nVoor de loonadministratie mijn gegevens:\nNaam: ⟨nm⟩\nBSN: ⟨b⟩\nIBAN: ⟨ib⟩\n\nMet vriendelijke groet,\n{f}"
    return ("email", tpl.replace("{f}", f), {"nm": S("person_name", f"{f} {l}"), "b": S("gov_id", b), "ib": S("iban", g.iban("NL"))}, "lang=nl; BSN (11-proof)")


def p_sin(g, i):
    f, l = g.first_last("ca")
    s = g.sin(pick([" ", "-"], i))
    tpl = pick(["T4 slip correction — Employee: ⟨nm⟩, SIN ⟨s⟩, box 14 should read $68,412.50",
                "Formulaire TD1 — Nom : ⟨nm⟩ — NAS : ⟨s⟩ — Province : Québec"], i)
    return ("tool_output", tpl, {"nm": S("person_name", f"{f} {l}"), "s": S("gov_id", s)}, pick(["lang=en", "lang=fr"], i) + "; Canadian SIN (Luhn)")


def p_nginx_log(g, i):
    ips = [g.ip() for _ in range(3)]
    priv = g.ip_private()
    lines = [
        '⟨a⟩ - - [12/Jun/2025:10:14:02 +0000] "GET /api/v1/products?page=2 HTTP/1.1" 200 5120 "-" "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X)"',
        '{priv} - - [12/Jun/2025:10:14:03 +0000] "GET /healthz HTTP/1.1" 200 2 "-" "kube-probe/1.29"',
        '⟨b⟩ - - [12/Jun/2025:10:14:05 +0000] "POST /api/v1/login HTTP/1.1" 401 61 "-" "python-requests/2.31.0"',
        '⟨c⟩ - - [12/Jun/2025:10:14:05 +0000] "GET /wp-login.php HTTP/1.1" 404 153 "-" "Mozilla/5.0"',
    ]
    return ("log", "\n".join(lines).replace("{priv}", priv), {"a": S("ip_address", ips[0]), "b": S("ip_address", ips[1]), "c": S("ip_address", ips[2])},
            "access log, private probe IP unlabelled")


def p_auth_log(g, i):
    ip = g.ip()
    ip2 = g.ip()
    tpl = ("Jun 12 03:11:47 web-1 sshd[{p1}]: Failed password for invalid user oracle from ⟨a⟩ port {pt} ssh2\n"
           "Jun 12 03:11:49 web-1 sshd[{p1}]: Connection closed by invalid user oracle ⟨a⟩ port {pt} [preauth]\n"
           "Jun 12 03:12:02 web-1 sshd[{p2}]: Accepted publickey for deploy from ⟨b⟩ port {pt2} ssh2: ED25519 SHA256:{fp}")
    return ("log", tpl.replace("{p1}", str(g.randint(100000, 999999))).replace("{p2}", str(g.randint(100000, 999999))).replace("{pt}", str(g.randint(30000, 65000))).replace("{pt2}", str(g.randint(30000, 65000))).replace("{fp}", g.b64(32).rstrip("=")),
            {"a": S("ip_address", ip), "b": S("ip_address", ip2)}, "sshd auth.log (IP repeated; key fingerprint not labelled)")


def p_ipv6(g, i):
    v6 = g.ipv6()
    tpl = ("$ ip -6 addr show dev eth0\n2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 state UP qlen 1000\n    inet6 ⟨v⟩/64 scope global dynamic mngtmpaddr\n"
           "       valid_lft 86061sec preferred_lft 14061sec\n    inet6 fe80::{ll}/64 scope link\n       valid_lft forever preferred_lft forever")
    return ("tool_output", tpl.replace("{ll}", f"{g.hex(4)}:{g.hex(4)}:{g.hex(4)}:{g.hex(4)}"), {"v": S("ip_address", v6)}, "public IPv6; link-local not labelled")


def p_crm_contacts(g, i):
    ccs = pick([["jp", "br", "ru"], ["in", "de", "cn"], ["kr", "es", "us"]], i)
    langs = {"jp": "ja", "br": "pt", "ru": "ru", "in": "in", "de": "de", "cn": "zh", "kr": "ko", "es": "es", "us": "en"}
    slots, rows = {}, []
    for k, cc in enumerate(ccs):
        lang = langs[cc]
        f, l = g.first_last(lang)
        nm = g.name(lang) if lang in ("ja", "zh", "ko") else f"{f} {l}"
        em = g.email_for(f, l)
        slots[f"n{k}"], slots[f"e{k}"], slots[f"p{k}"] = S("person_name", nm), S("email", em), S("phone", d_phone(g, cc, k + i))
        rows.append(f'{{"id": {g.randint(100000, 999999)}, "name": "⟨n{k}⟩", "email": "⟨e{k}⟩", "phone": "⟨p{k}⟩", "owner_id": {g.randint(1000, 9999)}, "stage": "lead"}}')
    return ("api_json", '{"data": [' + ", ".join(rows) + '], "has_more": true}', slots, "CRM contacts API, phones in several national formats")


def p_customer_api(g, i):
    cc = pick(["us", "de", "nl"], i)
    lang = {"us": "en", "de": "de", "nl": "nl"}[cc]
    f, l = g.first_last(lang)
    tpl = ('{"object": "customer", "id": "cus_{cid}", "name": "⟨nm⟩", "email": "⟨em⟩", "phone": "⟨ph⟩", '
           '"shipping": {"address_text": "⟨adr⟩"}, "created": {ts}, "livemode": true}')
    return ("api_json", tpl.replace("{cid}", g.s(14)).replace("{ts}", str(g.randint(1_700_000_000, 1_750_000_000))),
            {"nm": S("person_name", f"{f} {l}"), "em": S("email", g.email_for(f, l)), "ph": S("phone", d_phone(g, cc, 0)), "adr": S("street_address", d_address(g, cc))},
            "customer object (cus_ id not labelled)")


def p_signature_de(g, i):
    f, l = g.first_last("de")
    adr = d_address(g, "de", "\n")
    tpl = ("Hallo zusammen,\n\nich bin ab Montag wieder erreichbar.\n\nBeste Grüße\n⟨nm⟩\nUX-Design & Illustration\n⟨adr⟩\nMobil: ⟨ph⟩\n⟨em⟩")
    return ("email", tpl, {"nm": S("person_name", f"{f} {l}"), "adr": S("street_address", adr), "ph": S("phone", d_phone(g, "de", 0)), "em": S("email", g.email_for(f, l, "posteo.de"))},
            "lang=de; freelancer's own signature (address belongs to the person)")


def p_cn_delivery(g, i):
    nm = g.name("zh")
    tpl = pick(["收货人：⟨nm⟩\n电话：⟨ph⟩\n地址：⟨adr⟩\n备注：放门口就行",
                "麻烦帮我改一下收货地址：⟨adr⟩，收件人⟨nm⟩，手机⟨ph⟩。"], i)
    return ("chat", tpl, {"nm": S("person_name", nm), "ph": S("phone", d_phone(g, "cn", i)), "adr": S("street_address", d_address(g, "cn"))}, "lang=zh; delivery details")


def p_ar_transfer(g, i):
    nm = g.name("ar")
    ib = g.iban("SA", i % 2 == 0)
    tpl = pick(["السلام عليكم، أرجو تحويل المبلغ إلى حسابي: ⟨ib⟩ باسم ⟨nm⟩. رقم جوالي ⟨ph⟩ للتأكيد.",
                "الآيبان: ⟨ib⟩\nالاسم: ⟨nm⟩\nالجوال: ⟨ph⟩"], i)
    ph = "+966 5" + g.digits(1) + " " + g.digits(3) + " " + g.digits(4) if i % 2 == 0 else "05" + g.digits(8)
    return ("messaging", tpl, {"ib": S("iban", ib), "nm": S("person_name", nm), "ph": S("phone", ph)}, "lang=ar; Saudi IBAN + phone")


def p_tr_iban(g, i):
    f, l = g.first_last("tr")
    tpl = "Kira ödemesi için hesap bilgilerim:\nAlıcı: ⟨nm⟩\nIBAN: ⟨ib⟩\nAçıklama kısmına daire numarasını yazarsanız sevinirim."
    return ("messaging", tpl, {"nm": S("person_name", f"{f} {l}"), "ib": S("iban", g.iban("TR"))}, "lang=tr; TR IBAN")


def p_ru_sbp(g, i):
    nm = g.name("ru")
    tpl = pick(["Переведи по СБП на номер ⟨ph⟩ (Сбер, получатель ⟨nm⟩), или на карту ⟨c⟩.",
                "Скинь деньги за билеты на карту ⟨c⟩ или по номеру ⟨ph⟩, получатель ⟨nm⟩."], i)
    return ("messaging", tpl, {"ph": S("phone", d_phone(g, "ru", i)), "nm": S("person_name", nm), "c": S("card_number", g.card(pick(["mir", "visa"], i), " "))},
            "lang=ru; phone + card for a transfer")


def p_jp_order(g, i):
    nm = g.name("ja")
    tpl = "【ご注文内容の確認】\nお届け先：⟨adr⟩\nお名前：⟨nm⟩ 様\n電話番号：⟨ph⟩\nお届け予定日：6月14日（土）"
    return ("email", tpl, {"adr": S("street_address", d_address(g, "jp")), "nm": S("person_name", nm), "ph": S("phone", d_phone(g, "jp", 0))}, "lang=ja; order confirmation")


def p_in_address(g, i):
    f, l = g.first_last("in")
    tpl = "Deliver to: ⟨nm⟩, ⟨adr⟩. Call ⟨ph⟩ before coming, gate pe guard ko bol dena."
    return ("chat", tpl, {"nm": S("person_name", f"{f} {l}"), "adr": S("street_address", d_address(g, "in")), "ph": S("phone", d_phone(g, "in", i + 1))},
            "lang=hinglish; delivery address")


def p_ip_chat(g, i):
    ip = g.ip()
    tpl = pick(["can't ssh into my VPS anymore, the IP is ⟨ip⟩ and it just times out on port 22. ufw maybe?",
                "Mein Server (⟨ip⟩) antwortet nicht mehr auf Port 443, nginx läuft aber laut systemctl."], i)
    return ("chat", tpl, {"ip": S("ip_address", ip)}, pick(["lang=en", "lang=de"], i) + "; server IP in chat")


def p_stripe_code(g, i):
    k = g.stripe(pick(["sk_live_", "rk_live_"], i))
    tpl = pick(["import stripe\nstripe.api_key = \"⟨k⟩\"\n\nsession = stripe.checkout.Session.create(mode=\"payment\", line_items=items)",
                "// TODO move to env before merging!!\nconst stripe = new Stripe('⟨k⟩', { apiVersion: '2024-06-20' });"], i)
    return ("code", tpl, {"k": S("stripe_key", k)}, "hardcoded stripe key")


def p_env_misc(g, i):
    v = i % 2
    if v == 0:
        tpl = ("NODE_ENV=production\nDATABASE_URL=postgresql://app:⟨pw⟩@{h}:5432/app\nNEXTAUTH_SECRET=⟨ns⟩\nNEXTAUTH_URL=https://app.pinecrest.dev\n"
               "RESEND_API_KEY=⟨rk⟩\nTOKEN_TTL_SECONDS=3600")
        return ("config", tpl.replace("{h}", "db-" + g.lower(6) + ".internal"), {"pw": S("password_in_url", g.password(4)), "ns": S("env_secret", g.b64(32)),
                                                                             "rk": S("env_secret", "re_" + g.s(32, string.ascii_letters + string.digits + "_"))},
                ".env mixed (TTL not a secret)")
    tpl = "[database]\nhost = \"db.internal\"\nuser = \"ledger\"\npassword = \"⟨pw⟩\"\n\n[paypal]\nclient_id = \"A{cid}\"\nclient_secret = \"⟨cs⟩\"\nmode = \"live\""
    return ("config", tpl.replace("{cid}", g.s(79, string.ascii_letters + string.digits + "-_")), {"pw": S("env_secret", g.password(0)), "cs": S("env_secret", "E" + g.s(79, string.ascii_letters + string.digits + "-_"))},
            "TOML with PayPal client secret (client_id public)")


def p_ko_password(g, i):
    pw = g.password(pick([3, 0], i))
    tpl = pick(["팀장님, 공유 드라이브 계정 비번 ⟨pw⟩ 로 바꿨습니다. 다른 분들께도 전달 부탁드려요.",
                "엄마 넷플릭스 비번 바꿨어! 새 비밀번호: ⟨pw⟩"], i)
    return ("messaging", tpl, {"pw": S("other_secret", pw)}, "lang=ko; password in prose")


def p_zh_password(g, i):
    pw = g.password(pick([0, 4], i))
    tpl = pick(["服务器root密码改成 ⟨pw⟩ 了，记得更新一下堡垒机里的配置。", "路由器后台密码是⟨pw⟩，管理地址 192.168.31.1"], i)
    return ("messaging", tpl, {"pw": S("other_secret", pw)}, "lang=zh; password in prose")


def p_jwt_query(g, i):
    j = g.jwt({"sub": g.uuid(), "scope": "download", "exp": 1767000000 + g.randint(0, 99999)})
    tpl = '{ip} - - [02/Jul/2025:14:03:11 +0000] "GET /export/report.pdf?token=⟨j⟩ HTTP/1.1" 200 482113 "-" "Mozilla/5.0"'
    return ("log", tpl.replace("{ip}", g.ip_private()), {"j": S("jwt", j)}, "JWT in query string (private client IP)")


def p_hf(g, i):
    t = g.hf()
    tpl = pick(["!huggingface-cli login --token ⟨t⟩\nToken is valid (permission: write).\nLogin successful",
                "from huggingface_hub import login\nlogin(token=\"⟨t⟩\")  # remove before sharing the notebook"], i)
    return ("tool_output", tpl, {"t": S("huggingface_token", t)}, "hf token in notebook")


def p_slack_bot(g, i):
    t = g.slack_token("xoxb")
    tpl = "from slack_sdk import WebClient\nclient = WebClient(token=\"⟨t⟩\")\nclient.chat_postMessage(channel=\"#ops\", text=\"backup ok\")"
    return ("code", tpl, {"t": S("slack_token", t)}, "slack bot token")


def p_anthropic_env(g, i):
    tpl = "$ env | grep -i key\nANTHROPIC_API_KEY=⟨k⟩\nSSH_AUTH_SOCK=/private/tmp/com.apple.launchd.{x}/Listeners\nKEYTIMEOUT=1"
    return ("tool_output", tpl.replace("{x}", g.s(10)), {"k": S("anthropic_key", g.anthropic())}, "anthropic key leaked by env")


def p_checkout_debug(g, i):
    lang = pick(["en", "pt", "it"], i)
    f, l = g.first_last(lang)
    brand = pick(["visa", "elo", "mc"], i)
    c = g.card(brand, None)
    tpl = ('2025-05-30 17:44:02,118 DEBUG payments.views: POST /checkout payload={"cardholder_name": "⟨nm⟩", "card_number": "⟨c⟩", '
           '"exp_month": {m}, "exp_year": 2029, "save_card": true, "amount": {a}, "currency": "{cur}"}')
    return ("log", tpl.replace("{m}", str(g.randint(1, 12))).replace("{a}", str(g.randint(1000, 90000))).replace("{cur}", {"en": "USD", "pt": "BRL", "it": "EUR"}[lang]),
            {"nm": S("person_name", f"{f} {l}"), "c": S("card_number", c)}, "full PAN + name on card in a debug log")


def p_travel_agent_card(g, i):
    f, l = g.first_last(pick(["en", "de"], i))
    c = g.card("amex", " ")
    tpl = ("Hi,\n\nplease hold the Lisbon package for me and charge the deposit to my Amex ⟨c⟩ (name on card: ⟨nm⟩).\n"
           "You can reach me on ⟨ph⟩ if anything is unclear.\n\nBest,\n{f}")
    return ("email", tpl.replace("{f}", f), {"c": S("card_number", c), "nm": S("person_name", f"{f} {l}"), "ph": S("phone", d_phone(g, pick(["us", "de"], i), 2))},
            "Amex 4-6-5 + name on card")


def p_pgp_private(g, i):
    body = g.b64(pick([900, 1100], i))
    lines = "\n".join(body[k:k + 64] for k in range(0, len(body), 64))
    blk = f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQWGBGZ{lines}\n={g.s(4)}\n-----END PGP PRIVATE KEY BLOCK-----"
    tpl = "$ gpg --export-secret-keys --armor release@acme-corp.io\n⟨k⟩"
    return ("tool_output", tpl.replace("release@acme-corp.io", "⟨em⟩"), {"em": S("email", "release@acme-corp.io"), "k": S("other_secret", blk)},
            "PGP private key block (check.mjs private_key shape is PEM-only, so other_secret); release@ role mailbox labelled")


DEV_POS = [p_checkout_debug, p_travel_agent_card, p_pgp_private, p_wifi_password, p_account_login_chat, L(p_mysql_cli), L(p_pgpassword), L(p_docker_login), L(p_kubectl_secret), p_netrc, L(p_pgpass), L(p_npmrc),
           L(p_pip_index), L(p_git_remote), L(p_cookie), L(p_bearer), p_basic, p_slack_webhook, p_discord_webhook, p_telegram, p_twilio, p_sendgrid,
           p_mailgun, p_azure_conn, p_gcp_sa, p_firebase, p_shopify, p_sentry, L(p_vault), p_bitwarden, p_ssh_key, p_jwt_cookie, L(p_do_token),
           L(p_datadog), L(p_aws_creds), p_openai_chat, L(p_redis_cli), p_recovery_codes, p_temp_password_mail, p_email_thread, p_vcard, p_ics,
           p_shipping, p_self_intro, p_card_chat, p_iban_invoice, p_ssn_hr, p_cpf, p_aadhaar, p_rrn, p_dni, p_bsn, p_sin, L(p_nginx_log),
           L(p_auth_log), L(p_ipv6), p_crm_contacts, p_customer_api, p_signature_de, p_cn_delivery, p_ar_transfer, p_tr_iban, p_ru_sbp, p_jp_order,
           p_in_address, p_ip_chat, p_stripe_code, p_env_misc, p_ko_password, p_zh_password, p_jwt_query, p_hf, p_slack_bot, p_anthropic_env]


# ----------------------------------------------------------------------------------------------------------
# dev-2 hard negatives: each returns (source, text, {}, (negative_kind, note))
# ----------------------------------------------------------------------------------------------------------

def N(source, text, kind, note=""):
    return (source, text, {}, (kind, note))


def n_git_log(g, i):
    msgs = pick([["fix(auth): refresh token before expiry", "chore: bump vite to 5.4.8", "feat: add SEPA mandate form", "test: cover webhook retries"],
                 ["Merge pull request #{n} from acme/feature/i18n-ko", "docs: update README install steps", "refactor: split billing service", "fix: handle empty cart"],
                 ["Revert \"perf: cache product list\"", "ci: pin node 20.11", "feat(api): paginate /orders", "build(deps): bump axios from 1.6.8 to 1.7.2"]], i)
    lines = [f"{g.hex(7)} {m.replace('{n}', g.digits(4))}" for m in msgs]
    return N("tool_output", "$ git log --oneline -4\n" + "\n".join(lines), "git_sha", "short SHAs")


def n_git_show(g, i):
    sha = g.hex(40)
    tpl = (f"$ git rev-parse HEAD\n{sha}\n$ git describe --tags\nv{g.randint(1, 4)}.{g.randint(0, 20)}.{g.randint(0, 9)}-{g.randint(1, 40)}-g{sha[:7]}\n"
           f"$ git merge-base main origin/release\n{g.hex(40)}")
    return N("tool_output", tpl, "git_sha", "full SHAs and describe output")


def n_uuid_api(g, i):
    tpl = ('{"request_id": "' + g.uuid() + '", "trace_id": "' + g.hex(32) + '", "span_id": "' + g.hex(16) + '", "data": {"job_id": "' + g.uuid() +
           '", "status": "queued", "attempt": 1}}')
    return N("api_json", tpl, "uuid", "request/trace/span ids")


def n_sha256sum(g, i):
    ver = f"{g.randint(1, 3)}.{g.randint(0, 30)}.{g.randint(0, 9)}"
    files = pick([["linux-amd64.tar.gz", "linux-arm64.tar.gz", "darwin-arm64.tar.gz"], ["setup-x64.exe", "setup-arm64.exe"], ["src.zip", "src.tar.xz"]], i)
    tpl = "$ sha256sum -c SHA256SUMS\n" + "\n".join(f"{g.hex(64)}  tool-{ver}-{f}: OK" for f in files)
    return N("tool_output", tpl, "hash", "sha256 checksums")


def n_data_uri(g, i):
    img = g.b64(pick([180, 240, 300], i))
    tpl = pick([f'<img alt="logo" width="32" height="32" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACAAAAAg{img}">',
                f'.icon-check {{ background-image: url("data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9{img}"); }}',
                f"@font-face {{\n  font-family: 'Inter';\n  src: url(data:font/woff2;base64,d09GMgABAAAAA{img}) format('woff2');\n  font-display: swap;\n}}"], i)
    return N(pick(["web_page", "code", "code"], i), tpl, "data_uri", "base64 image / font")


def n_doc_jwt(g, i):
    tpl = pick(["## Authentication\n\nSend the access token in the header:\n\n```\nAuthorization: Bearer <access_token>\n```\n\nA token looks like `eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOi...` and expires after 15 minutes.",
                "JWTs have three parts: `xxxxx.yyyyy.zzzzz` — header, payload and signature, each base64url-encoded.",
                "curl https://api.acme.dev/v1/me \\\n  -H \"Authorization: Bearer $ACCESS_TOKEN\"\n# => {\"id\": 42, \"plan\": \"free\"}"], i)
    return N("web_page" if i % 3 != 2 else "code", tpl, "doc_placeholder_jwt", "JWT-shaped placeholders in docs")


def n_readme_placeholders(g, i):
    tpl = pick(["Copy `.env.example` to `.env` and fill in:\n\n```\nOPENAI_API_KEY=sk-...\nANTHROPIC_API_KEY=<your-anthropic-key>\nSTRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx\nDATABASE_URL=postgres://user:password@localhost:5432/app\n```",
                "# .env.example\nGITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\nHF_TOKEN=hf_...\nSLACK_BOT_TOKEN=xoxb-your-bot-token\nSESSION_SECRET=changeme",
                "Set the key before running:\n\n    export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\n    export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n    export AWS_DEFAULT_REGION=us-west-2"], i)
    return N("web_page" if i % 3 != 1 else "config", tpl, "placeholder", "documented placeholders")


def n_compose_refs(g, i):
    tpl = pick(["services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:?set it in .env}\n  api:\n    build: .\n    environment:\n      DATABASE_URL: postgres://app:${POSTGRES_PASSWORD}@db:5432/app\n      JWT_SECRET: ${JWT_SECRET}",
                "const db = new Pool({\n  host: process.env.PGHOST,\n  user: process.env.PGUSER,\n  password: process.env.PGPASSWORD,\n});\nconst stripe = new Stripe(process.env.STRIPE_SECRET_KEY!);",
                "import os\nDB_PASSWORD = os.environ[\"DB_PASSWORD\"]\nAPI_KEY = os.getenv(\"PARTNER_API_KEY\", \"\")\nSECRET_KEY = os.environ.get(\"DJANGO_SECRET_KEY\")"], i)
    return N("config" if i % 3 == 0 else "code", tpl, "env_reference", "references, not values")


def n_gha_secrets(g, i):
    tpl = pick(["      - name: Publish\n        run: npm publish --access public\n        env:\n          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}\n      - uses: docker/login-action@v3\n        with:\n          registry: ghcr.io\n          username: ${{ github.actor }}\n          password: ${{ secrets.GITHUB_TOKEN }}",
                "deploy:\n  stage: deploy\n  script:\n    - echo \"$CI_REGISTRY_PASSWORD\" | docker login -u \"$CI_REGISTRY_USER\" --password-stdin \"$CI_REGISTRY\"\n    - kubectl set image deploy/api api=$CI_REGISTRY_IMAGE:$CI_COMMIT_SHA",
                "- name: Configure AWS\n  uses: aws-actions/configure-aws-credentials@v4\n  with:\n    role-to-assume: arn:aws:iam::{acct}:role/gha-deploy\n    aws-region: eu-west-1".replace("{acct}", g.digits(12))], i)
    return N("config", tpl, "env_reference", "CI secrets references / role ARN")


def n_ci_masked(g, i):
    tpl = pick(["$ echo $DEPLOY_TOKEN\n***\n$ curl -H \"Authorization: Bearer ***\" https://api.fly.io/v1/apps\n{\"apps\": []}",
                "Run ./scripts/release.sh\n  env:\n    NPM_TOKEN: ***\n    GH_TOKEN: ***\nPublishing @acme/ui@3.2.0 ... done",
                "[MASKED] Variable CI_JOB_TOKEN is masked\nUsing docker image sha256:{h} for node:20-alpine\n$ npm ci --registry https://gitlab.com/api/v4/packages/npm/".replace("{h}", g.hex(64))], i)
    return N("log", tpl, "masked", "CI masking")


def n_masked_keys(g, i):
    tpl = pick([f"NAME          KEY            CREATED      LAST USED\nprod-backend  sk-proj-…{g.s(4)}  2025-01-12   2 hours ago\nnotebook      sk-…{g.s(4)}       2024-11-03   never",
                f"Your API keys\n• Default key   ak_••••••••••••{g.s(4)}   Revoke\n• CI key        ak_••••••••••••{g.s(4)}   Revoke",
                f"Stripe: Secret key sk_live_...{g.s(4)} (last revealed 3 months ago). Use \"Roll key\" to create a new one."], i)
    return N("web_page", tpl, "masked", "dashboard with truncated keys")


def n_order_tracking(g, i):
    tpl = pick([f"Your package is on the way!\nOrder #{g.digits(3)}-{g.digits(7)}-{g.digits(7)}\nCarrier: UPS, tracking 1Z{g.upper(3)}{g.digits(3)}{g.digits(10)}\nEstimated delivery: Thursday, June 12",
                f"Ihre Sendung {g.digits(14)} wurde heute um 07:42 Uhr im Paketzentrum Bochum bearbeitet. Zustellung voraussichtlich morgen zwischen 10:00 und 13:00 Uhr.",
                f"配送状況：お問い合わせ伝票番号 {g.digits(4)}-{g.digits(4)}-{g.digits(4)}（ヤマト運輸）。注文番号 {g.digits(3)}-{g.digits(7)}-{g.digits(7)}。"], i)
    return N("email", tpl, "order_number", pick(["lang=en", "lang=de", "lang=ja"], i) + "; order / tracking numbers")


def n_flight(g, i):
    pnr = g.s(6, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    tpl = pick([f"Booking confirmed ✈\nBooking reference: {pnr}\nLH 401  FRA → JFK  14 Aug  10:05 – 12:50  Seat 32K\nE-ticket: 220-{g.digits(10)}\nBaggage: 1 × 23 kg",
                f"Reserva {pnr} · Vuelo IB3166 Madrid–Lisboa · Salida 07:15, Puerta K58 · Billete electrónico 075{g.digits(10)}",
                f"항공권 예약번호 {pnr} / KE017 인천→로스앤젤레스 / 9월 3일 14:30 출발 / 좌석 45A"], i)
    return N("email", tpl, "booking_ref", "booking reference, flight number, ticket number")


def n_sku_isbn(g, i):
    tpl = pick(["SKU            Qty  Price\nTSH-BLK-M-0421   2   19.90\nMUG-CER-350-WH   1    8.50\nEAN 4006381333931 (Stabilo Boss)",
                "Reading list:\n- ISBN 978-0-13-468599-1 — The Pragmatic Programmer\n- ISBN 978-1-4920-5298-5 — Designing Data-Intensive Applications\n- ISBN 0-596-52068-9",
                "品番: HX-2290-BK / JANコード: 4902370548495 / 在庫: 128個 / 単価: ¥3,480"], i)
    return N("web_page" if i % 3 else "tool_output", tpl, "sku_isbn", "product codes")


def n_lockfile(g, i):
    name = pick(["lodash", "zod", "picocolors"], i)
    ver = f"{g.randint(1, 4)}.{g.randint(0, 23)}.{g.randint(0, 30)}"
    integ = "sha512-" + g.b64(64)
    tpl = f'"node_modules/{name}": {{\n  "version": "{ver}",\n  "resolved": "https://registry.npmjs.org/{name}/-/{name}-{ver}.tgz",\n  "integrity": "{integ}",\n  "license": "MIT"\n}}'
    return N("code", tpl, "hash", "npm integrity")


def n_epoch_json(g, i):
    ts = g.randint(1_700_000_000_000, 1_760_000_000_000)
    tpl = f'{{"level":30,"time":{ts},"pid":{g.randint(1000, 99999)},"hostname":"api-{g.hex(10)}-{g.lower(5)}","reqId":"req-{g.s(4)}","responseTime":{g.randint(2, 900)}.{g.digits(4)},"msg":"request completed"}}'
    return N("log", tpl, "timestamp", "epoch ms, pid, reqId")


def n_numbers_not_phone(g, i):
    tpl = pick([f"총 결제 금액: 1,{g.digits(3)},{g.digits(3)}원 (부가세 {g.digits(3)},{g.digits(3)}원 포함) · 주문 수량 {g.randint(2, 40)}개",
                f"Итого к оплате: {g.randint(10, 99)} {g.digits(3)} {g.digits(3)},00 ₽; ИНН получателя указан в договоре; партия № {g.digits(10)}",
                f"Population (2024 est.): {g.randint(1, 9)},{g.digits(3)},{g.digits(3)} · Area: {g.digits(3)},{g.digits(3)} km² · Coordinates: {g.randint(10, 60)}.{g.digits(6)}, -{g.randint(10, 120)}.{g.digits(6)}"], i)
    return N("web_page" if i % 3 == 2 else "tool_output", tpl, "numeric_not_phone", pick(["lang=ko", "lang=ru", "lang=en"], i) + "; amounts, quantities, coordinates")


def n_luhn_fail(g, i):
    c = g.card_bad_luhn(pick(["visa", "mc", "amex"], i), " ")
    tpl = pick([f"the checkout keeps saying 'invalid card number' for {c} — did I mistype it? I'll grab the physical card",
                f"Stripe error: card_declined / incorrect_number (number entered: {c})",
                f"La web me dice que el número {c} no es válido, ¿me habré equivocado en un dígito?"], i)
    return N("chat" if i % 3 != 1 else "log", tpl, "luhn_fail", "card-shaped number failing Luhn")


def n_iban_fail(g, i):
    cc = pick(["DE", "ES", "NL"], i)
    ib = g.iban_bad(cc)
    tpl = pick([f"Fehlermeldung der Bank: \"IBAN ungültig\" — {ib}. Kannst du die Nummer nochmal prüfen?",
                f"Validation failed: field 'iban' value '{ib}' has invalid check digits",
                f"El banco rechaza el IBAN {ib}, dice que el dígito de control no cuadra."], i)
    return N("chat" if i % 3 != 1 else "log", tpl, "iban_fail", "IBAN-shaped string failing mod 97")


def n_pubkey(g, i):
    tpl = pick([f"$ cat ~/.ssh/authorized_keys\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{g.b64(32)[:43]} deploy@ci\nssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{g.b64(300)} laptop",
                f"-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA{g.b64(200)[:64]}\n{g.b64(200)[:64]}\n{g.b64(120)[:40]}IDAQAB\n-----END PUBLIC KEY-----",
                f"$ gpg --list-keys\npub   ed25519 2024-03-02 [SC] [expires: 2027-03-02]\n      {g.HEX(40)}\nuid           [ultimate] release signing key\nsub   cv25519 2024-03-02 [E]"], i)
    return N("tool_output", tpl, "public_key", "public keys / fingerprints")


def n_publishable(g, i):
    pk = "pk_live_" + g.s(99)
    tpl = pick([f"<script src=\"https://js.stripe.com/v3/\"></script>\n<script>\n  const stripe = Stripe('{pk}');\n  const elements = stripe.elements();\n</script>",
                f"NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY={pk}\nNEXT_PUBLIC_POSTHOG_HOST=https://eu.posthog.com",
                f"const stripePromise = loadStripe(\"pk_test_{g.s(99)}\");"], i)
    return N("code", tpl, "publishable_key", "publishable Stripe key")


def n_private_ip(g, i):
    tpl = pick([f"$ docker network inspect bridge | grep -E 'Subnet|Gateway|IPv4'\n    \"Subnet\": \"172.17.0.0/16\",\n    \"Gateway\": \"172.17.0.1\"\n    \"IPv4Address\": \"172.17.0.{g.randint(2, 40)}/16\",",
                f"eth0: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 1500\n        inet 10.{g.randint(0, 255)}.{g.randint(0, 255)}.{g.randint(2, 250)}  netmask 255.255.240.0  broadcast 10.0.15.255\n        inet6 fe80::{g.hex(4)}:{g.hex(4)}:{g.hex(4)}:{g.hex(4)}  prefixlen 64  scopeid 0x20<link>",
                f"tailscale status\n100.{g.randint(64, 127)}.{g.randint(0, 255)}.{g.randint(1, 254)}   macbook      linux   -\n100.{g.randint(64, 127)}.{g.randint(0, 255)}.{g.randint(1, 254)}   nas          linux   idle"], i)
    return N("tool_output", tpl, "private_ip", "private/CGNAT/link-local IPs")


def n_example_email(g, i):
    tpl = pick(["To invite a teammate, enter their address, e.g. `jane.doe@example.com`, and choose a role.",
                "git config --global user.email \"you@example.com\"\ngit config --global user.name \"Your Name\"",
                "SMTP test: sending from alerts@monitoring.test to ops@example.org ... 250 OK (sandbox)"], i)
    return N("web_page" if i % 3 == 0 else "tool_output", tpl, "example_email", "reserved example domains")


def n_reset_password(g, i):
    tpl = pick(["We received a request to reset your password. Click the button below to choose a new password. If you didn't ask for this, you can ignore this email.",
                "Wir haben eine Anfrage zum Zurücksetzen Ihres Passworts erhalten. Der Link ist 30 Minuten gültig.",
                "Recebemos uma solicitação para redefinir a sua senha. Se não foi você, ignore este e-mail."], i)
    return N("email", tpl, "password_word_no_value", pick(["lang=en", "lang=de", "lang=pt"], i))


def n_password_hidden(g, i):
    tpl = pick(["Account settings\nEmail: (verified)\nPassword: ••••••••••  [Change]\nTwo-factor: enabled",
                "DB_HOST=db.internal\nDB_USER=app\nDB_PASSWORD=[REDACTED]\nDB_POOL=10",
                "パスワード：（非表示）\n最終変更日：2025年3月4日"], i)
    return N("web_page" if i % 3 != 1 else "config", tpl, "masked", "masked password fields")


def n_otp(g, i):
    c = g.digits(6)
    tpl = pick([f"Your Uber code is {c}. Never share this code.",
                f"[Kakao] 인증번호 [{c}]를 입력해주세요.",
                f"Код подтверждения: {c}. Никому не сообщайте его.",
                f"{c} is your verification code for WhatsApp. Don't share it."], i)
    return N("messaging", tpl, "otp_code", "one-time code (not labelled by rule)")


def n_object_ids(g, i):
    oid = lambda: g.hex(24)
    tpl = pick([f"test> db.orders.find({{status: 'paid'}}, {{_id: 1, userId: 1}}).limit(2)\n[\n  {{ _id: ObjectId('{oid()}'), userId: ObjectId('{oid()}') }},\n  {{ _id: ObjectId('{oid()}'), userId: ObjectId('{oid()}') }}\n]",
                f'{{"id": "evt_{g.s(24)}", "type": "payment_intent.succeeded", "data": {{"object": {{"id": "pi_{g.s(24)}", "amount": 4200, "currency": "eur", "customer": "cus_{g.s(14)}", "latest_charge": "ch_{g.s(24)}"}}}}}}',
                f"$ docker ps\nCONTAINER ID   IMAGE                 COMMAND                  STATUS\n{g.hex(12)}   redis:7-alpine        \"docker-entrypoint.s…\"   Up 3 days\n{g.hex(12)}   ghcr.io/acme/api:{g.hex(7)}   \"node dist/main.js\"      Up 3 days"], i)
    return N(pick(["tool_output", "api_json", "tool_output"], i), tpl, "identifier", "object/container ids")


def n_secret_key_ref(g, i):
    tpl = pick(["        env:\n          - name: DB_PASSWORD\n            valueFrom:\n              secretKeyRef:\n                name: db-credentials\n                key: password\n          - name: REDIS_URL\n            value: redis://redis:6379/0",
                "resource \"aws_db_instance\" \"main\" {\n  engine         = \"postgres\"\n  username       = \"app\"\n  password       = var.db_password\n  instance_class = \"db.t4g.medium\"\n}",
                "- name: create app user\n  community.mysql.mysql_user:\n    name: app\n    password: \"{{ vault_mysql_app_password }}\"\n    priv: 'app.*:ALL'"], i)
    return N("config", tpl, "env_reference", "secretKeyRef / var. / ansible vault refs")


def n_placeholder_pw(g, i):
    tpl = pick(["Default credentials: admin / admin. You will be asked to change them on first login.",
                "# docker run -e MYSQL_ROOT_PASSWORD=changeme -d mysql:8\n# (replace changeme with something real in production)",
                "Connection string format: `postgres://user:password@localhost:5432/dbname`"], i)
    return N("web_page", tpl, "placeholder_password", "placeholder/vendor-default passwords")


def n_arn_ids(g, i):
    acct = g.digits(12)
    tpl = pick([f'{{"UserId": "AROA{g.s(17, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")}:botocore-session-{g.digits(10)}", "Account": "{acct}", "Arn": "arn:aws:sts::{acct}:assumed-role/dev-admin/botocore-session-{g.digits(10)}"}}',
                f"GOOGLE_CLIENT_ID={g.digits(12)}-{g.s(32, string.ascii_lowercase + string.digits)}.apps.googleusercontent.com\nGOOGLE_REDIRECT_URI=https://app.pinecrest.dev/api/auth/callback/google",
                f"arn:aws:lambda:eu-central-1:{acct}:function:resize-images:$LATEST"], i)
    return N(pick(["api_json", "config", "log"], i), tpl, "public_identifier", "AWS account/role ids, OAuth client id")


def n_crypto_addr(g, i):
    tpl = pick([f"Donations welcome 🙏\nETH: 0x{g.hex(40)}\nBTC: bc1q{g.s(38, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l')}",
                f"Transfer of 0.25 ETH to 0x{g.HEX(40)} confirmed in block {g.randint(18000000, 21000000)} (tx 0x{g.hex(64)})",
                f"USDT (TRC20) deposit address: T{g.s(33, '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz')}"], i)
    tpl = tpl.replace("🙏", "")
    return N("web_page" if i % 3 != 1 else "tool_output", tpl, "blockchain_address", "wallet and tx ids")


def n_meeting(g, i):
    tpl = pick([f"BEGIN:VEVENT\nDTSTART;TZID=Europe/Berlin:20250618T140000\nDTEND;TZID=Europe/Berlin:20250618T150000\nSUMMARY:Sprint review\nLOCATION:https://zoom.us/j/{g.digits(11)}\nDESCRIPTION:Meeting ID: {g.digits(3)} {g.digits(4)} {g.digits(4)}\nUID:{g.uuid()}\nEND:VEVENT",
                f"Join Microsoft Teams meeting\nMeeting ID: {g.digits(3)} {g.digits(3)} {g.digits(3)} {g.digits(3)}\nDial-in by phone: find a local number\nConference ID: {g.digits(9)}#",
                f"Google Meet: meet.google.com/{g.lower(3)}-{g.lower(4)}-{g.lower(3)} · 화요일 오후 3시 · 주간 회의"], i)
    return N("calendar", tpl, "meeting_id", "meeting ids, no attendees")


def n_build_numbers(g, i):
    tpl = pick([f"Build #{g.randint(1000, 99999)} finished in 12m 31s · pipeline {g.digits(10)} · job {g.digits(10)} · artifact size {g.randint(10, 999)}.{g.digits(1)} MB",
                f"Xcode build {g.randint(15, 16)}F{g.randint(10, 99)} · CFBundleVersion {g.digits(10)} · TestFlight build {g.randint(100, 999)}",
                f"Gradle: BUILD SUCCESSFUL in 4m 17s\n{g.randint(100, 300)} actionable tasks: {g.randint(20, 90)} executed, {g.randint(50, 200)} up-to-date\nversionCode={g.digits(9)}"], i)
    return N("log", tpl, "build_number", "build/job numbers")


def n_invoice(g, i):
    tpl = pick([f"Invoice INV-2025-{g.digits(6)}\nCustomer no. {g.digits(8)}\nAmount due: €1,{g.digits(3)}.{g.digits(2)}\nDue date: 30 June 2025",
                f"Rechnungsnummer: RE-{g.digits(4)}-{g.digits(5)} · Kundennummer: {g.digits(9)} · Zahlbar bis 15.07.2025",
                f"Fattura n. {g.digits(4)}/2025 del 03/06/2025 · Codice cliente {g.digits(7)} · Totale € {g.digits(3)},{g.digits(2)}"], i)
    return N("email", tpl, "invoice_number", pick(["lang=en", "lang=de", "lang=it"], i) + "; invoice/customer numbers")


def n_signatures(g, i):
    tpl = pick([f"X-GitHub-Event: push\nX-GitHub-Delivery: {g.uuid()}\nX-Hub-Signature-256: sha256={g.hex(64)}",
                f"Stripe-Signature: t={g.randint(1_700_000_000, 1_760_000_000)},v1={g.hex(64)},v0={g.hex(64)}",
                f"<script nonce=\"{g.b64(16)}\">window.__CONFIG__ = {{ build: \"{g.hex(8)}\" }};</script>\nETag: W/\"{g.hex(8)}-{g.s(27)}\""], i)
    return N("log" if i % 3 != 2 else "web_page", tpl, "signature", "HMAC signature headers / nonces / etags")


def n_gosum(g, i):
    mods = pick([["github.com/spf13/cobra v1.8.1", "golang.org/x/sys v0.21.0"], ["github.com/gin-gonic/gin v1.10.0", "google.golang.org/grpc v1.64.0"],
                 ["github.com/stretchr/testify v1.9.0", "go.uber.org/zap v1.27.0"]], i)
    tpl = "\n".join(f"{m} h1:{g.b64(32)}\n{m}/go.mod h1:{g.b64(32)}" for m in mods)
    return N("code", tpl, "hash", "go.sum hashes")


def n_non_secret_values(g, i):
    tpl = pick(["TOKEN_TTL_SECONDS=3600\nJWT_ALGORITHM=HS256\nAPI_KEY_HEADER=X-Api-Key\nPASSWORD_MIN_LENGTH=12\nSECRET_ROTATION_DAYS=90",
                "auth:\n  password_hashing: argon2id\n  token_expiry: 15m\n  refresh_token_expiry: 720h\n  secret_store: aws-secrets-manager\n  api_key_prefix: ak_",
                "[security]\nsecret_key_length = 64\npassword_reset_timeout = 1800\ntoken_url = \"https://auth.acme-corp.io/oauth/token\""], i)
    return N("config", tpl, "non_secret_value", "secret-named keys with non-credential values")


def n_certificate(g, i):
    body = g.b64(pick([700, 900, 800], i))
    lines = "\n".join(body[k:k + 64] for k in range(0, len(body), 64))
    tpl = pick([f"$ openssl s_client -connect api.acme-corp.io:443 -showcerts </dev/null\n---\nCertificate chain\n 0 s:CN = api.acme-corp.io\n-----BEGIN CERTIFICATE-----\nMIIF{lines}\n-----END CERTIFICATE-----",
                f"apiVersion: v1\nclusters:\n- cluster:\n    certificate-authority-data: LS0tLS1CRUdJTi{body[:120]}\n    server: https://{g.hex(32).upper()}.gr7.eu-west-1.eks.amazonaws.com\n  name: prod",
                f"ca.crt: |\n  -----BEGIN CERTIFICATE-----\n  MIID{body[:64]}\n  {body[64:128]}\n  -----END CERTIFICATE-----"], i)
    return N("tool_output" if i % 3 == 0 else "config", tpl, "public_certificate", "certificates / CA data")


def n_known_hosts(g, i):
    tpl = "\n".join(f"|1|{g.b64(20)}|{g.b64(20)} ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB{g.b64(64)}" for _ in range(2))
    tpl = pick(["$ cat ~/.ssh/known_hosts\n", "The authenticity of host can't be established. Saved to known_hosts:\n", ""], i) + tpl
    return N("tool_output", tpl, "public_key", "hashed known_hosts")


def n_jp_books(g, i):
    tpl = pick([f"書籍情報\nISBN978-4-{g.digits(3)}-{g.digits(5)}-{g.digits(1)} C3055 ¥2980E\n発売日：2024年11月20日\nページ数：{g.randint(200, 600)}",
                f"《深入理解计算机系统》 ISBN 978-7-111-{g.digits(5)}-{g.digits(1)} 定价：139.00元 出版日期：2016-11",
                f"Libro: \"Cien años de soledad\" — ISBN 978-84-{g.digits(3)}-{g.digits(4)}-{g.digits(1)} — 496 páginas — 10,95 €"], i)
    return N("web_page", tpl, "isbn", pick(["lang=ja", "lang=zh", "lang=es"], i) + "; ISBNs and prices")


def n_express_cn(g, i):
    tpl = pick([f"顺丰速运 运单号：SF{g.digits(13)}\n【深圳市】快件已到达 深圳南山集散中心\n预计送达：明天 12:00 前",
                f"[쿠팡] 주문번호 {g.digits(15)} 상품이 배송 출발했습니다. 송장번호 {g.digits(12)} (CJ대한통운)",
                f"Seu pedido #{g.digits(10)} foi enviado. Código de rastreio: {g.upper(2)}{g.digits(9)}BR (Correios)"], i)
    return N("messaging", tpl, "tracking_number", pick(["lang=zh", "lang=ko", "lang=pt"], i) + "; tracking/order numbers")


def n_media_ids(g, i):
    tpl = pick([f"https://www.youtube.com/watch?v={g.s(11, string.ascii_letters + string.digits + '-_')}&t=93s",
                f"spotify:playlist:{g.s(22)} · https://open.spotify.com/track/{g.s(22)}?si={g.hex(16)}",
                f"chrome-extension://{g.s(32, 'abcdefghijklmnop')}/popup.html"], i)
    return N("chat" if i % 3 != 2 else "log", "look at this: " + tpl if i % 3 != 2 else tpl, "identifier", "media/extension ids")


def n_redacted_log(g, i):
    tpl = pick(["2025-06-12T10:01:44Z INFO  auth: login ok user_id=84213 email=[REDACTED] ip=[FILTERED]\n2025-06-12T10:01:44Z DEBUG auth: issued session token=[REDACTED] ttl=3600",
                "Parameters: {\"user\"=>{\"email\"=>\"[FILTERED]\", \"password\"=>\"[FILTERED]\", \"remember_me\"=>\"1\"}}",
                "level=info msg=\"connect db\" dsn=\"postgres://app:*****@db:5432/app?sslmode=require\""], i)
    return N("log", tpl, "masked", "redacted log values")


def n_password_policy(g, i):
    tpl = pick(["La contraseña debe tener al menos 12 caracteres, una mayúscula, un número y un símbolo.",
                "Le mot de passe doit contenir au moins 8 caractères. Mot de passe oublié ? Cliquez ici.",
                "Şifreniz en az 10 karakter olmalı ve son 5 şifrenizden farklı olmalıdır."], i)
    return N("web_page", tpl, "password_word_no_value", pick(["lang=es", "lang=fr", "lang=tr"], i) + "; password rules")


def n_localhost(g, i):
    tpl = pick(["  VITE v5.4.8  ready in 412 ms\n\n  ➜  Local:   http://localhost:5173/\n  ➜  Network: http://192.168.1.23:5173/",
                "Starting development server at http://127.0.0.1:8000/\nQuit the server with CONTROL-C.\n[12/Jun/2025 10:20:11] \"GET /admin/ HTTP/1.1\" 302 0",
                "listen tcp 0.0.0.0:8080: bind: address already in use"], i)
    return N("tool_output", tpl, "private_ip", "localhost/LAN dev servers")


def n_ip_hostname(g, i):
    a, b, c, d = g.ip().split(".")
    tpl = pick([f"ssh -i ~/.ssh/aws.pem ubuntu@ec2-{a}-{b}-{c}-{d}.eu-central-1.compute.amazonaws.com",
                f"PING 203.0.113.{g.randint(1, 254)} (203.0.113.{g.randint(1, 254)}): 56 data bytes\nRequest timeout for icmp_seq 0",
                f"Example: `ufw allow from 198.51.100.0/24 to any port 22` and `dig @192.0.2.53 example.com`"], i)
    return N("tool_output" if i % 3 != 2 else "web_page", tpl, "ip_in_hostname", "IP inside hostname / documentation ranges")


def n_cursor(g, i):
    cur = base64.b64encode(json.dumps({"id": g.randint(1000, 999999), "ts": g.randint(1_700_000_000, 1_760_000_000)}).encode()).decode()
    tpl = pick([f'{{"items": [], "next_cursor": "{cur}", "has_more": false}}',
                f"GET /v1/orders?limit=50&after={cur.rstrip('=')}",
                f'kubectl.kubernetes.io/last-applied-configuration: {base64.b64encode(json.dumps({"apiVersion": "v1", "kind": "ConfigMap"}).encode()).decode()}'], i)
    return N("api_json" if i % 3 == 0 else "log", tpl, "base64_json", "base64 JSON that is not a JWT")


def n_business_address(g, i):
    tpl = pick(["The clinic is at 1420 Harrison St, San Francisco, CA 94103 — open Mon–Fri 8–6, walk-ins welcome.",
                "Die Praxis Dr. Weber befindet sich in der Schillerstraße 12, 60313 Frankfurt am Main (2. OG, Aufzug vorhanden).",
                "O restaurante fica na Rua Augusta, 1508 - Consolação, São Paulo. Reservas pelo site."], i)
    return N("web_page" if i % 3 != 1 else "chat", tpl, "business_address", pick(["lang=en", "lang=de", "lang=pt"], i) + "; public address of a business")


def n_news_names(g, i):
    tpl = pick(["The central bank's governor, Christine Lagarde, said on Thursday that inflation was moving toward target.",
                "Nach Angaben von Bundeskanzler Olaf Scholz soll das Gesetz im Herbst verabschiedet werden.",
                "El entrenador Carlo Ancelotti confirmó la alineación para el partido del sábado."], i)
    return N("web_page", tpl, "public_person", "people quoted in news, no contact data")


def n_git_blame(g, i):
    who = pick(["Priya Raman", "Tomasz Nowicki", "Hiroshi Tanaka"], i)
    tpl = (f"{g.hex(8)} (  {who} 2024-11-02 14:21:07 +0100  41)     if (!session) return res.status(401).end();\n"
           f"{g.hex(8)} (  {who} 2024-11-02 14:21:07 +0100  42)     const user = await db.users.find(session.userId);")
    return N("tool_output", tpl, "git_author", "git blame author names (not labelled by rule)")


def n_versions(g, i):
    tpl = pick(['"dependencies": {\n  "react": "^18.3.1",\n  "next": "14.2.5",\n  "typescript": "~5.5.4",\n  "@types/node": ">=20.11.0 <21"\n}',
                f"Python 3.12.{g.randint(0, 7)} (main, Jun  6 2025, 18:44:40) [GCC 12.2.0] on linux\nnumpy 2.0.{g.randint(0, 2)}  torch 2.3.1+cu121  CUDA 12.1",
                f"Chrome/126.0.{g.randint(1000, 9999)}.{g.randint(10, 200)} · macOS 14.5 (23F79) · kernel 23.5.0"], i)
    return N("code" if i % 3 == 0 else "tool_output", tpl, "version", "versions")


def n_hex_colors(g, i):
    tpl = pick([":root {\n  --brand: #1f6feb;\n  --brand-dark: #0b3d91;\n  --surface: #f6f8fa;\n  --danger: #d1242f;\n}",
                "theme: {\n  colors: { primary: '#FF5A5F', secondary: '#00A699', muted: '#767676' }\n}",
                "<svg viewBox=\"0 0 24 24\"><path fill=\"#E34F26\" d=\"M1.5 0h21l-1.91 21.563L11.977 24l-8.564-2.438L1.5 0z\"/></svg>"], i)
    return N("code", tpl, "identifier", "hex colours / svg path numbers")


def n_gps(g, i):
    tpl = pick([f"EXIF: GPSLatitude 48 deg 51' {g.randint(10, 59)}.{g.digits(2)}\" N, GPSLongitude 2 deg 21' {g.randint(10, 59)}.{g.digits(2)}\" E, Altitude {g.randint(30, 90)} m",
                f'{{"lat": -23.{g.digits(7)}, "lng": -46.{g.digits(7)}, "accuracy": {g.randint(5, 40)}, "speed": 0}}',
                f"geo:37.{g.digits(6)},127.{g.digits(6)}?z=17"], i)
    return N("tool_output" if i % 3 == 0 else "api_json", tpl, "numeric_not_phone", "coordinates")


def n_hashed_pw(g, i):
    tpl = pick([f"$ cat /etc/shadow | grep deploy\ndeploy:!:19876:0:99999:7:::",
                f"user.password_digest = \"$2b$12$...\"  # bcrypt hash stored, plaintext never logged",
                f"Password hash algorithm: scrypt (N=32768, r=8, p=1); salt length 16 bytes; pepper from KMS key alias/app-pepper"], i)
    return N("tool_output" if i % 3 == 0 else "code", tpl, "password_word_no_value", "password mentioned, no credential")


def n_pgp_public(g, i):
    body = g.b64(pick([500, 600, 450], i))
    lines = "\n".join(body[k:k + 64] for k in range(0, len(body), 64))
    tpl = f"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmDMEZ{lines}\n=Ab3x\n-----END PGP PUBLIC KEY BLOCK-----"
    return N("web_page", tpl, "public_key", "PGP public key block")


def n_zip_only(g, i):
    tpl = pick([f"Shipping to ZIP 97{g.digits(3)}: 3–5 business days, $6.95. Free over $50.",
                f"Postleitzahl {g.randint(10, 99)}{g.digits(3)} liegt im Liefergebiet. Lieferung am Dienstag.",
                f"배송 지역: 서울특별시 전 지역 (우편번호 {g.digits(5)} 포함) · 당일 배송 가능"], i)
    return N("web_page", tpl, "postcode_only", pick(["lang=en", "lang=de", "lang=ko"], i) + "; postcode without address")


def n_first_name_chat(g, i):
    tpl = pick(["[19:04] Rahul: bro build fail ho gaya again\n[19:05] Ankit: logs bhej\n[19:05] Rahul: npm ERR! code ERESOLVE",
                "Marie a dit qu'elle passerait demain vers 10h pour récupérer les clés.",
                "Sergio: ¿quedamos el jueves a las 8?\nLucía: perfecto, reservo yo"], i)
    return N("messaging", tpl, "first_name_only", pick(["lang=hinglish", "lang=fr", "lang=es"], i) + "; first names / handles only")


DEV_NEG = [L(n_git_log), L(n_git_show), L(n_uuid_api), L(n_sha256sum), n_data_uri, n_doc_jwt, n_readme_placeholders, L(n_compose_refs), n_gha_secrets, L(n_ci_masked),
           n_masked_keys, n_order_tracking, n_flight, n_sku_isbn, L(n_lockfile), L(n_epoch_json), n_numbers_not_phone, n_luhn_fail, n_iban_fail, L(n_pubkey),
           n_publishable, L(n_private_ip), n_example_email, n_reset_password, n_password_hidden, n_otp, L(n_object_ids), L(n_secret_key_ref), n_placeholder_pw,
           n_arn_ids, n_crypto_addr, n_meeting, L(n_build_numbers), n_invoice, L(n_signatures), L(n_gosum), n_non_secret_values, L(n_certificate), L(n_known_hosts),
           n_jp_books, n_express_cn, n_media_ids, n_redacted_log, n_password_policy, L(n_localhost), n_ip_hostname, n_cursor, n_business_address,
           n_news_names, n_git_blame, L(n_versions), n_hex_colors, n_gps, n_hashed_pw, n_pgp_public, n_zip_only, n_first_name_chat]


if __name__ == "__main__":
    g = Gen(20251205)
    rows = run_templates(g, DEV_POS, DEV_NEG, 150, 150, "dev2")
    write(rows, os.path.join(os.path.dirname(os.path.abspath(__file__)), "dev-2.jsonl"))
    print(f"wrote {len(rows)} rows")
