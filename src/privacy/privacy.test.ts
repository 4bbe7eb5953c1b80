import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable, PassThrough } from 'node:stream';
import { detect, Redactor } from './index.ts';
import { redactStream } from '../cli/redact.ts';

const found = (text: string) => detect(text).map((f) => [f.type, text.slice(f.start, f.end)]);
// Fake values, built at run time so no key-shaped literal sits in the source.
const fake = (prefix: string, n: number, alphabet = 'aB3dE5fG7hJ9kL2mN4pQ6rS8tU') =>
  prefix + Array.from({ length: n }, (_, i) => alphabet[(i * 7) % alphabet.length]).join('');

test('typed keys: the value alone, the earlier row winning where spans overlap', () => {
  const gh = fake('ghp_', 36);
  const aws = fake('AKIA', 16, 'QWERTYUIOPASDFGHJKLZXCVBNM234567');
  assert.deepEqual(found(`git remote add origin https://bob:${gh}@github.com/x/y.git\nexport AWS_ACCESS_KEY_ID=${aws}`), [
    ['github_token', gh],
    ['aws_access_key', aws],
  ]);
  const jwt = `eyJ${fake('', 20)}.eyJ${fake('', 30)}.${fake('', 43)}`;
  assert.deepEqual(found(`curl -H "Authorization: Bearer ${jwt}" https://api.io`), [['jwt', jwt]]);
  assert.deepEqual(
    found('-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----').map((f) => f[0]),
    ['private_key'],
  );
});

test('placeholders, references, masks and public values are not secrets', () => {
  for (const text of [
    'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE',
    'OPENAI_API_KEY=sk-...',
    'DB_PASSWORD=${DB_PASSWORD}',
    'password: changeme',
    'TOKEN_TTL_SECONDS=3600',
    'API_KEY_HEADER=X-Api-Key',
    'GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX',
    'secret: ***',
    'postgres://user:password@localhost:5432/app',
    'api_key: process.env.API_KEY',
  ])
    assert.deepEqual(found(text), [], text);
  assert.deepEqual(found('STRIPE_WEBHOOK_SECRET=whsec_9fK2mQ7xLp4R'), [['env_secret', 'whsec_9fK2mQ7xLp4R']]);
});

test('personal data by check digits and shape; dates, ids and private addresses are not', () => {
  assert.deepEqual(found('card 4111 1111 1111 1111, not 4111 1111 1111 1112'), [['card_number', '4111 1111 1111 1111']]);
  assert.deepEqual(found('IBAN DE89 3704 0044 0532 0130 00 (DE89 3704 0044 0532 0130 01 is a typo)'), [
    ['iban', 'DE89 3704 0044 0532 0130 00'],
  ]);
  assert.deepEqual(found('mi móvil es +34 640 94 22 02. Gracias'), [['phone', '+34 640 94 22 02']]);
  assert.deepEqual(found('invoice 2026-0415-4680 due 2026-05-15, build 20.14.10, id 123e4567-e89b-12d3-a456-426614174000'), []);
  assert.deepEqual(found('from 192.168.1.20 and 10.0.0.7 via 203.0.113.9; client 162.74.91.178'), [['ip_address', '162.74.91.178']]);
  assert.deepEqual(found('write to anna.rossi@gmail.com, not dev@example.com'), [['email', 'anna.rossi@gmail.com']]);
});

test('the redactor numbers each value once, so the judge can still tell them apart', () => {
  const r = new Redactor();
  assert.equal(
    r.redact('send it to ann@corp.io, not bob@corp.io; ann@corp.io again'),
    'send it to [EMAIL_1], not [EMAIL_2]; [EMAIL_1] again',
  );
  assert.equal(r.redact('and cc bob@corp.io'), 'and cc [EMAIL_2]', 'numbers hold across texts of one redactor (one session)');
  assert.equal(new Redactor().redact(`key ${fake('sk-proj-', 40)}`), 'key [SECRET:openai_key]');
});

test('openclaw-rl redact: JSON lines out; a bad --jsonl line names its number', async () => {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c) => (text += c));
  await redactStream(Readable.from(['{"text":"mail ann@corp.io"}\n', '\n', '{"text":"and ann@corp.io"}\n']), out, true);
  assert.deepEqual(
    text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).text),
    ['mail [EMAIL_1]', 'and [EMAIL_1]'],
  );
  await assert.rejects(
    redactStream(Readable.from(['{"text":"x"}\n', '{"txt":"y"}\n']), new PassThrough(), true),
    /stdin line 2: expected \{"text"/,
  );
});

test('passwords said in words in several languages, recovery codes, and what a secret-printing command printed', () => {
  const said = [
    ['the wifi password Tulip#4471, thanks', 'Tulip#4471'],
    ['집 비밀번호는 maple-river42 이야', 'maple-river42'],
    ['服务器密码改成 Quartz@2231 了', 'Quartz@2231'],
    ['machine api.host.io\n  login ana\n  password 4e1c9a7b-77aa-41d2', '4e1c9a7b-77aa-41d2'],
    ['$ docker login -u ci -p Zx81kLmq0Pw registry.io', 'Zx81kLmq0Pw'],
  ];
  for (const [text, value] of said)
    assert.deepEqual(
      found(text).map((f) => f[1]),
      [value],
      text,
    );
  assert.deepEqual(found('the password is incorrect. Try the password reset page.'), []);
  assert.deepEqual(
    found('Your recovery codes:\n  k2j4m-9x8q7\n  p0o9i-8u7y6\n\nStore them safely.').map((f) => f[1]),
    ['k2j4m-9x8q7', 'p0o9i-8u7y6'],
  );
  assert.deepEqual(found('$ kubectl get secret db -o jsonpath={.data.pw} | base64 -d\nQk39xLm20aZp'), [['other_secret', 'Qk39xLm20aZp']]);
});

test('ids told apart by the word before them and their check digits; numbers inside an IBAN or named as a meeting are not phones', () => {
  // CPF, DNI and BSN with valid check digits, and the same numbers with one digit changed.
  assert.deepEqual(
    found('CPF 52998224725 / DNI 48217395B / BSN: 111222333').map((f) => f[1]),
    ['52998224725', '48217395B', '111222333'],
  );
  assert.deepEqual(found('CPF 52998224726 / DNI 12345678A / BSN: 111222334'), []);
  assert.deepEqual(found('Aadhaar No: 234123412346'), [['gov_id', '234123412346']]);
  assert.deepEqual(found('The bank rejects IBAN DE59 9751 4281 4939 8244 34'), []);
  assert.deepEqual(found('Meeting ID: 244 4217 7377'), []);
  assert.deepEqual(found('total 27 136 069,00 ₽'), []);
  assert.deepEqual(found('text me at +1 961 417 3725'), [['phone', '+1 961 417 3725']]);
});

test('secrets said after words in Hebrew, Greek, Vietnamese and Ukrainian, safe codes, recovery-code lists, revealed and shown-once tokens', () => {
  assert.deepEqual(found('Ο κωδικός του router είναι Lemon#4471!'), [['other_secret', 'Lemon#4471!']]);
  assert.deepEqual(found('הסיסמה של הוויפי היא Tamar2290$'), [['other_secret', 'Tamar2290$']]);
  assert.deepEqual(found('Mật khẩu wifi: Xoai.8812'), [['other_secret', 'Xoai.8812']]);
  assert.deepEqual(found('Пароль до банку — Kvitka-5531!'), [['other_secret', 'Kvitka-5531!']]);
  assert.deepEqual(found('la combinazione della cassaforte è 7391'), [['other_secret', '7391']]);
  assert.deepEqual(found('Backup codes for your account\n1. kq7m 2xzp\n2. wrtb nm4c\nKeep them safe.'), [
    ['other_secret', 'kq7m 2xzp'],
    ['other_secret', 'wrtb nm4c'],
  ]);
  assert.deepEqual(found('$ aws configure\nAWS Secret Access Key [None]: Qw7pL0zR3tY6uI9oP2aS5dF8gH1jK4lZ7xC0vB3n'), [
    ['aws_secret_key', 'Qw7pL0zR3tY6uI9oP2aS5dF8gH1jK4lZ7xC0vB3n'],
  ]);
  assert.deepEqual(found('Token created. Copy it now, it will not be shown again.\nv7Rt2Lx9Qm4Kp8Zw3Nc6Hs1B'), [
    ['other_secret', 'v7Rt2Lx9Qm4Kp8Zw3Nc6Hs1B'],
  ]);
  // Not secrets: a database port and path after a password variable, a hashing algorithm, a tracking number.
  assert.deepEqual(found('DATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/app'), []);
  assert.deepEqual(found('password_hash: argon2id'), []);
  assert.deepEqual(found('ヤマト伝票番号 9904-6730-3786'), []);
});

test('codes under a heading after lines of prose, alarm and wifi codes, a key id with its secret, triple-quoted values; ids, zip codes and times are not phones', () => {
  assert.deepEqual(found('Códigos de recuperación de Proton\nGuárdalos bien.\n\nK7Q2-MM4T-8WZP\nR2D9-PLX7-C4VB\nGracias!'), [
    ['other_secret', 'K7Q2-MM4T-8WZP'],
    ['other_secret', 'R2D9-PLX7-C4VB'],
  ]);
  assert.deepEqual(found("le code de l'alarme c'est 552190"), [['other_secret', '552190']]);
  assert.deepEqual(found('пароль от вайфая в офисе qrtz55817'), [['other_secret', 'qrtz55817']]);
  assert.deepEqual(found('new BasicAWSCredentials("AKIAZB73MADHNDVBM55R", "Qw7pL0zR3tY6uI9oP2aS5dF8gH1jK4lZ7xC0vB3n")'), [
    ['aws_access_key', 'AKIAZB73MADHNDVBM55R'],
    ['aws_secret_key', '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'],
  ]);
  assert.deepEqual(found('password = """h7Kq#pW2zLm9"""'), [['env_secret', 'h7Kq#pW2zLm9']]);
  assert.deepEqual(found('is 4986 4713 6667 2324 a typo? and the ZIP 94107-1234'), []);
  assert.deepEqual(found('{"sessionId": "1b014639-9fb2-4fb7-93ab-f61b7d5f0d77"}'), []);
  assert.deepEqual(found('API_KEY_SECRET_ARN: arn:aws:secretsmanager:eu-west-1:123456789012:secret:api-key-Ab12Cd'), []);
});

test('gate and alarm codes in more languages, Thai and Swahili passwords, Terraform defaults, live vendor keys; Diners lengths, RF references and codice fiscale check letters', () => {
  assert.deepEqual(found('de code van het hek is 4417'), [['other_secret', '4417']]);
  assert.deepEqual(found('Die Alarmanlage hat einen neuen Code: 6620.'), [['other_secret', '6620']]);
  assert.deepEqual(found('Nenosiri la wifi ni Tembo8842Juu'), [['other_secret', 'Tembo8842Juu']]);
  assert.deepEqual(found('variable "db_password" {\n  sensitive = true\n  default   = "hQ7z!pLw2mRx"\n}'), [
    ['env_secret', 'hQ7z!pLw2mRx'],
  ]);
  assert.deepEqual(found('your key: acme_live_Q7wErT9yUiOp3AsDfGh2JkLz'), [['other_secret', 'acme_live_Q7wErT9yUiOp3AsDfGh2JkLz']]);
  assert.deepEqual(found('pk_live_Q7wErT9yUiOp3AsDfGh2JkLzXcVbNm'), [], 'a publishable key is public');
  assert.deepEqual(found('kafka offset=5421103448235400 partition=3'), []);
  assert.deepEqual(found('Referenz RF18 5390 0754 7034'), []);
  assert.deepEqual(found('CF: RSSMRA85T10A562S'), [['gov_id', 'RSSMRA85T10A562S']]);
  assert.deepEqual(found('CF: RSSMRA85T10A562T'), [], 'a wrong check letter');
});

test('a file path under a credentials key, a CEP, a counting-up example, tracking numbers and tax-id words inside other words are not findings; Django keys are', () => {
  assert.deepEqual(found('FIREBASE_CREDENTIALS=../secrets/firebase-admin.json\nTLS_KEY=/srv/certs/api.key'), []);
  assert.deepEqual(found('Loja Centro — Rua XV de Novembro, 300, Curitiba - PR, 80020-310'), []);
  assert.deepEqual(found('expect(isValidPhone("2345 6789 012")).toBe(false)'), []);
  assert.deepEqual(found('Your parcel: FedEx 7712 4410 3896\nParcel 3: DHL 2291077155'), []);
  const key = `django-insecure-${fake('', 40, 'a7=k&3!x#q9^m2+p%z')}`;
  assert.deepEqual(found(`SECRET_KEY  '${key}'`), [['env_secret', key]]);
  // "minn" ends in "inn": the words for a tax id count only as words; the Icelandic number is a phone.
  assert.deepEqual(found('síminn minn er +354 690 4127'), [['phone', '+354 690 4127']]);
});

test('heldout-8 as rules: .NET appSettings and HAR session cookies are secrets; versions, settings references and one-time codes are not; a CSV field after a phone does not hide it', () => {
  const cookie = fake('s%3A', 40);
  assert.deepEqual(found(`<add key="MailPassword" value="Quartz88!?" />`), [['env_secret', 'Quartz88!?']]);
  assert.deepEqual(found(`{ "name": "PHPSESSID", "value": "${cookie}" }`), [['other_secret', cookie]]);
  assert.deepEqual(found('Firmware version: 5.2.19.204\nBIOS 2.7.131.9'), []);
  assert.deepEqual(found('openai.api_key = config.OPENAI_API_KEY'), []);
  assert.deepEqual(found('Tu código de acceso es 551902. No lo compartas con nadie.'), []);
  assert.deepEqual(found('o PIN do cartão é 4417, não compartilhe'), [['other_secret', '4417']]);
  assert.deepEqual(found('E1,Ann Lee,+1 (415) 555-2671,91000'), [['phone', '+1 (415) 555-2671']]);
});

test('heldout-9 as rules: test cards on a page about testing, image names, secrets stored elsewhere or encrypted, policy examples and postcodes are not findings; WHOIS phones are', () => {
  assert.deepEqual(found('Sandbox: use the test card 4242 4242 4242 4242, any CVC'), []);
  assert.deepEqual(found('pay with my card 4242 4242 4242 4242 pls'), [['card_number', '4242 4242 4242 4242']]);
  assert.deepEqual(found('<img srcset="/a/logo@2x.png 2x, /a/logo@3x.png 3x">'), []);
  assert.deepEqual(found('"DB_PASSWORD": "@Microsoft.KeyVault(SecretUri=https://kv.vault.azure.net/secrets/db/)"'), []);
  assert.deepEqual(found('api_token: ENC[AES256_GCM,data:q1w2e3r4t5,iv:abc,tag:def,type:str]'), []);
  assert.deepEqual(found('Un mot de passe comme Password1! sera refusé.'), []);
  assert.deepEqual(found('〒150-0002 東京都渋谷区'), []);
  assert.deepEqual(found('Tech Phone: +44.2079460958'), [['phone', '+44.2079460958']]);
});

test('heldout-10 as rules: a UUID session id, a window.__X_SECRET__ reference, a JWT header alone, a password manager, a boleto number, an Arabic order number and epoch seconds are not findings', () => {
  assert.deepEqual(found('msg="login" session=0c3e9a1b-5f42-4d7e-9b1a-2f6c8d0e4a11 ip_country=FR'), []);
  assert.deepEqual(found('const cfg = { apiSecret: window.__API_SECRET__ };'), []);
  assert.deepEqual(found('what is in this header? token: eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiJ9'), []);
  assert.deepEqual(found('our password manager is 1Password, not LastPass'), []);
  assert.deepEqual(found('Nosso número: 40512960334'), []);
  assert.deepEqual(found('طلبك رقم 77120953 في الطريق'), []);
  assert.deepEqual(found('-rw-r--r-- 1 dev dev 4410 1717402210 notes.md'), []);
});

test('heldout-11 as rules: passwords in more languages and in a chat reply, Wi-Fi keys in digit groups, aligned key tables, az login, "@" inside a URL password, ids under a table header and 220.x addresses are found; ARNs, YOUR/… placeholders, message ids, OIDs and upgrade versions are not', () => {
  assert.deepEqual(found('Mu meili parool on Kask77!mets, ära seda kellelegi ütle'), [['other_secret', 'Kask77!mets']]);
  assert.deepEqual(found('Lykilorðið fyrir routerinn er fjall-sjor-42'), [['other_secret', 'fjall-sjor-42']]);
  assert.deepEqual(found('Wifiaren pasahitza Itsaso2024# da'), [['other_secret', 'Itsaso2024#']]);
  assert.deepEqual(found('[08:01] Mia: what was the gym locker password?\n[08:02] Tom: Lemon-4471x\n[08:02] Mia: ty'), [
    ['other_secret', 'Lemon-4471x'],
  ]);
  assert.deepEqual(found('WLAN-Netzwerkschlüssel: 1203 9981 4410 5526 0913'), [['other_secret', '1203 9981 4410 5526 0913']]);
  const hmac = fake('', 40, 'A1b2C3d4E5f6');
  assert.deepEqual(
    found(`Key             Value\n---             -----\nsmtp_password   Hx82-pqLm-77\nsigning_secret ${hmac}\nttl             768h`),
    [
      ['other_secret', 'Hx82-pqLm-77'], // (the row for "password" said in words reads it first)
      ['env_secret', hmac],
    ],
  );
  assert.deepEqual(found('az login --service-principal -u app-id -p Qv8~rT2.nKx_501 --tenant t'), [['other_secret', 'Qv8~rT2.nKx_501']]);
  assert.deepEqual(found('mongodb://svc:Pa@ss#91z@mongo.internal:27017/db'), [['password_in_url', 'Pa@ss#91z']]);
  assert.deepEqual(found('name;email;aadhaar\nR K;r@corp.in;398745612300'), [
    ['email', 'r@corp.in'],
    ['gov_id', '398745612300'],
  ]);
  assert.deepEqual(found('198745612300 alone is a number'), []);
  assert.deepEqual(found('client 221.14.9.77 connected'), [['ip_address', '221.14.9.77']]);
  assert.deepEqual(found('"valueFrom": "arn:aws:secretsmanager:us-east-2:123456789012:secret:api/key-AbCdEf:token::"'), []);
  assert.deepEqual(found('post("https://hooks.slack.com/services/YOUR/WEBHOOK/PATH")'), []);
  assert.deepEqual(found('Message-ID: <a81f0c2e9d7b44e1@smtp.relay.mailhost.net>'), []);
  assert.deepEqual(found('ID_CE_KEY_USAGE_OID = "2.5.29.15"'), []);
  assert.deepEqual(found('Router update: 3.18.44.2 → 3.18.45.0 (2025-01-30)'), []);
});

test('long texts are read once: the same findings every time, whoever asks', () => {
  const key = fake('ghp_', 36);
  const long = `${'The agent may use these tools. '.repeat(120)}\nexport GITHUB_TOKEN=${key}\nmail ann@corp.io`;
  const first = detect(long);
  assert.ok(long.length > 2048);
  assert.deepEqual(detect(long), first);
  assert.deepEqual(
    first.map((f) => f.type),
    ['github_token', 'email'],
  );
  const r1 = new Redactor();
  const r2 = new Redactor();
  assert.equal(r1.redact(`mail bob@corp.io\n${long}`).includes('[EMAIL_2]'), true); // bob is 1 in this session, ann 2
  assert.equal(r2.redact(long).includes('[EMAIL_1]'), true);
  // A text of the same length with another value is read on its own.
  const other = long.replace('ann@corp.io', 'ann@corp.iq');
  assert.equal(other.length, long.length);
  assert.deepEqual(
    detect(other).map((f) => other.slice(f.start, f.end)),
    [key, 'ann@corp.iq'],
  );
});

test('heldout-12 as rules: secrets set from a command line, key id and secret apart by "/", passwords "changed to" and Thai ones, a phone after "No. Telefon" or a phone word, tokens as URL user names are found; YAML tags, git config URLs, SNMP ticks, dashed addresses, "#" ids, URL user names that are words and section numbers are not', () => {
  const secret = fake('', 40, 'Zq7Wm2Xp9Lk4Rt6Yv3Bn8Hs5');
  assert.deepEqual(found(`$ aws configure set aws_secret_access_key ${secret}`), [['env_secret', secret]]);
  assert.deepEqual(found('dotnet user-secrets set "Smtp:Password" "Fjord-2291!"'), [['env_secret', 'Fjord-2291!']]);
  const id = fake('AKIA', 16, 'QWERTYUIOPASDFGHJKLZXCVBNM234567');
  assert.deepEqual(found(`keys: ${id} / ${secret}`), [
    ['aws_access_key', id],
    ['aws_secret_key', secret],
  ]);
  assert.deepEqual(found('Das WLAN-Passwort habe ich geändert auf Birke#5521, bitte weitersagen'), [['other_secret', 'Birke#5521']]);
  assert.deepEqual(found('I changed the router password to Maple!8830 yesterday'), [['other_secret', 'Maple!8830']]);
  assert.deepEqual(found('รหัสผ่านอีเมลใหม่คือ Sakura2290x นะ'), [['other_secret', 'Sakura2290x']]);
  assert.deepEqual(found('No. Telefon: +60 12-447 3019'), [['phone', '+60 12-447 3019']]);
  assert.deepEqual(found('my phone: +251 922 418 3071 (a digit too many)'), [['phone', '+251 922 418 3071']]);
  const token = fake('', 36, 'a1B2c3D4e5F6g7H8');
  assert.deepEqual(found(`git clone https://${token}@git.example-corp.net/team/app.git`), [['other_secret', token]]);
  assert.deepEqual(found('ldap_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6131623762'), []);
  assert.deepEqual(found('api_password: !secret api_password'), []);
  assert.deepEqual(found('credential.https://gitlab.com.username=mira'), []);
  assert.deepEqual(found('sysUpTime: Timeticks: (88412207) 10 days, 5:35:22'), []);
  assert.deepEqual(found('ptr: 93-184-216-34.static.example-isp.net'), []);
  assert.deepEqual(found('Refill Rx#7730156-22019 ready'), []);
  assert.deepEqual(found('https://MASKED@o11.ingest.sentry.io/42'), []);
  assert.deepEqual(found('See section 3.14.2.7 and art. 21.3.1.4 of the contract'), []);
  assert.deepEqual(found('Linha digitável … Nosso número: 30415920776'), []);
  assert.deepEqual(found('رقم طلبك 55102938 قيد التوصيل'), []);
});

test('heldout-13 as rules: a Thai "รหัส" and a "login … user / password" pair are secrets; CSS class names, ISSN and EAN barcodes, structured payment references, .tld addresses and documented or counting-up ids are not findings', () => {
  assert.deepEqual(found('ชื่อ Wi-Fi HomeNet รหัส Mango-7741 นะ'), [['other_secret', 'Mango-7741']]);
  assert.deepEqual(found('รหัสไปรษณีย์ 10110'), []);
  assert.deepEqual(found('die Zugangsdaten fürs Portal: k.weber / Tanne!2291x'), [['other_secret', 'Tanne!2291x']]);
  const key = `sk-${fake('', 40, 'Aq9Zt4Kp2Wm7Xr5')}`;
  assert.deepEqual(found(`.sk-fade-bounce-delay{} OPENAI=${key}`), [['openai_key', key]]);
  assert.deepEqual(found('Rivista, ISSN 1120-4471, e EAN 8 012345 678906'), []);
  assert.deepEqual(found('OCR: 7 312345 998811  Knäckebröd  24,90'), []);
  assert.deepEqual(found('Mededeling: +++120/4471/08832+++'), []);
  assert.deepEqual(found('type it as name@domain.tld or you@yourdomain.com'), []);
  assert.deepEqual(found('Format: AAA-GG-SSSS, e.g. 123-45-6789; the Woolworth card 078-05-1120'), []);
  assert.deepEqual(found('Codice fiscale di esempio: RSSMRA80A01H501U'), []);
  assert.deepEqual(found('SSN: 536-22-8471'), [['gov_id', '536-22-8471']]);
});

test('heldout-14 as rules: phone words read through OCR digits and "WA"/"HP", a +CC number with a legacy digit, codes on their header\'s line are found; long solid ids, the first groups of a card-like run and plot or permit numbers are not', () => {
  assert.deepEqual(found('M0vil / Te1éfono: +52 1 55 3318 2096'), [['phone', '+52 1 55 3318 2096']]);
  assert.deepEqual(found('No. WA: +62 274 418207'), [['phone', '+62 274 418207']]);
  assert.deepEqual(found('my Dropbox backup codes: 4417 9021, 5530 1184'), [
    ['other_secret', '4417 9021'],
    ['other_secret', '5530 1184'],
  ]);
  assert.deepEqual(found('uploaded manifest 4929172630081155218 to depot 991'), []);
  assert.deepEqual(found('卡号 6228480402564890018'), [['card_number', '6228480402564890018']]);
  assert.deepEqual(found('rejected "5310 7728 4419 0036": LUHN_CHECK_FAILED'), []);
  assert.deepEqual(found('Plot 331-9047 · permit 7713402291 · Makani 30416 88214'), []);
});

test('heldout-15 as rules: a Kubernetes env list in YAML, a WireGuard PresharedKey, a four-word passphrase after a colon and space-apart recovery codes are secrets; an unclosed parenthesis, a URL user part, a masked e-mail and meter numbers are not findings', () => {
  const key = fake('', 40, 'Pq3Rs7Tu1Vw5Xy9Za');
  assert.deepEqual(found(`env:\n  - name: MAILER_API_KEY\n    value: "${key}"\n  - name: LOG_LEVEL\n    value: debug`), [
    ['env_secret', key],
  ]);
  const psk = `${fake('', 43, 'Ab3Cd7Ef1Gh5')}=`;
  assert.deepEqual(found(`[Peer]\nPresharedKey = ${psk}`), [['env_secret', psk]]);
  assert.deepEqual(found('Passwort fürs Staging: otter-lantern-quartz-meadow'), [['other_secret', 'otter-lantern-quartz-meadow']]);
  assert.deepEqual(found('Backup codes: r7kq-2mzt w3xp-h8vd'), [
    ['other_secret', 'r7kq-2mzt'],
    ['other_secret', 'w3xp-h8vd'],
  ]);
  assert.deepEqual(found('his Aadhaar (4172 9930 2184 did not validate'), []);
  assert.deepEqual(found('git clone https://oauth2:glpat-XXXXXXXXXXXXXXXXXXXX@gitlab.com/a/b.git'), []);
  assert.deepEqual(found('sent to XXXXXX@gmail.com and *****@corp.io'), []);
  assert.deepEqual(found('MPAN 01 8811 4402 337'), []);
  assert.deepEqual(found('Title,Url,Username\n"Shop","https://shop.io","mila.kovac@gmail.com"'), [['email', 'mila.kovac@gmail.com']]);
});
