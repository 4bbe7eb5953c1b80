# Generator for dev-1.jsonl (written first). Values are random fakes; see brief.md for labelling rules.
import random
from common import *
r = random.Random(20261205)
P, N = [], []
def pos(f): P.append(f); return f
def neg(f): N.append(f); return f

def shuf(r, head, lines, keep=0.7):
    k = max(2, int(len(lines) * r.uniform(keep, 1.0)))
    return head + '\n'.join(r.sample(lines, k))

# ---------------- POSITIVES ----------------
@pos
def env_cat(r):
    db = password(r); ok = openai_key(r); st = stripe_key(r); js = opaque(r, 48)
    return 'tool_output', f"""$ cat .env
NODE_ENV=production
PORT=3000
DATABASE_URL=postgres://app:{F('password_in_url', db)}@db.internal:5432/app
OPENAI_API_KEY={F('openai_key', ok)}
STRIPE_SECRET_KEY={F('stripe_key', st)}
SESSION_SECRET={F('env_secret', js)}
LOG_LEVEL=info
""", None, None

@pos
def paste_key_help(r):
    k = anthropic_key(r)
    lang = r.choice(['en', 'pt', 'ko'])
    msg = {'en': f"why does this fail?? I set ANTHROPIC_API_KEY={F('anthropic_key', k)} in my shell and still get 401 invalid x-api-key",
           'pt': f"alguém sabe por que dá 401? minha chave é {F('anthropic_key', k)} e já exportei no terminal",
           'ko': f"이 키로 호출하면 계속 401이 떠요: {F('anthropic_key', k)} 뭐가 문제일까요?"}[lang]
    return 'chat', msg, None, 'user pastes key in chat'

@pos
def curl_bearer(r):
    t = opaque(r, r.choice([32, 40, 64]))
    return 'tool_output', f"""$ curl -s -X POST https://api.linear.app/graphql \\
  -H "Authorization: Bearer {F('bearer_token', t)}" \\
  -H "Content-Type: application/json" \\
  -d '{{"query":"{{ viewer {{ id name }} }}"}}'
{{"data":{{"viewer":{{"id":"{uuid4(r)}","name":"ci"}}}}}}""", None, None

@pos
def curl_basic(r):
    c = basic_cred(r)
    return 'tool_output', f"""> GET /api/v1/health HTTP/1.1
> Host: grafana.acme-metrics.net
> Authorization: Basic {F('basic_auth', c)}
> User-Agent: curl/8.5.0
>
< HTTP/1.1 200 OK
< Content-Type: application/json
{{"database":"ok","version":"10.4.2"}}""", None, 'curl -v output'

@pos
def git_remote(r):
    t = github_token(r)
    return 'tool_output', f"""$ git remote -v
origin\thttps://x-access-token:{F('github_token', t)}@github.com/acme-corp/payments-service.git (fetch)
origin\thttps://x-access-token:{F('github_token', t)}@github.com/acme-corp/payments-service.git (push)""", None, 'same token twice'

@pos
def docker_compose(r):
    pg = password(r); rp = password(r); mk = opaque(r, 32)
    return 'config', f"""version: "3.9"
services:
  db:
    image: postgres:16-alpine
    environment:
      POSTGRES_USER: shop
      POSTGRES_PASSWORD: {F('env_secret', pg)}
      POSTGRES_DB: shop
    ports:
      - "5432:5432"
  redis:
    image: redis:7
    command: ["redis-server", "--requirepass", "{F('other_secret', rp)}"]
  api:
    build: .
    environment:
      - DATABASE_URL=postgresql://shop:{F('password_in_url', pg)}@db:5432/shop
      - MEILI_MASTER_KEY={F('env_secret', mk)}
      - REDIS_HOST=redis
    depends_on: [db, redis]
""", None, 'redis --requirepass flag value is other_secret'

@pos
def ci_log_echo(r):
    t = npm_token(r)
    return 'log', f"""2026-03-14T09:12:03.118Z Run npm publish --access public
2026-03-14T09:12:03.120Z + echo "//registry.npmjs.org/:_authToken={F('npm_token', t)}" > ~/.npmrc
2026-03-14T09:12:04.554Z npm notice Publishing to https://registry.npmjs.org/ with tag latest
2026-03-14T09:12:06.901Z + @acme/ui-kit@4.2.1
2026-03-14T09:12:06.902Z ##[group]Post job cleanup""", None, None

@pos
def stacktrace_dsn(r):
    p = password(r); ip = ipv4(r)
    return 'log', f"""Traceback (most recent call last):
  File "/srv/app/worker.py", line 88, in <module>
    engine = create_engine(settings.DB_URL)
  File "/usr/lib/python3.11/site-packages/sqlalchemy/engine/create.py", line 602, in create_engine
    raise exc.ArgumentError(
sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at "{F('ip_address', ip)}", port 5432 failed: FATAL:  password authentication failed for user "reporting"
(Background on this error at: https://sqlalche.me/e/20/e3q8)
DB_URL=postgresql+psycopg2://reporting:{F('password_in_url', p)}@{F('ip_address', ip)}:5432/analytics""", None, None

@pos
def json_api_user(r):
    lang = r.choice(['en', 'pt', 'de', 'it'])
    nm = name(r, lang); em = email_for(r, nm); ph = phone(r, {'en': 'US', 'pt': 'BR', 'de': 'DE', 'it': 'IT'}[lang])
    return 'api_json', f"""{{
  "id": "cus_{rs(r, 14)}",
  "object": "customer",
  "created": 1741892211,
  "name": "{F('person_name', nm)}",
  "email": "{F('email', em)}",
  "phone": "{F('phone', ph)}",
  "currency": "eur",
  "livemode": true
}}""", None, 'customer object: name next to email/phone'

@pos
def whatsapp_card(r):
    c = card(r); lang = r.choice(['en', 'hi', 'es', 'ru'])
    exp = f'{r.randint(1,12):02d}/{r.randint(27,31)}'
    msg = {'en': f"[14:02] Mom: honey can you book the flights? my card is {F('card_number', c)} exp {exp}",
           'hi': f"[21:17] Rohit: bhai mera card use kar le ticket ke liye {F('card_number', c)} expiry {exp}, OTP main bhej dunga",
           'es': f"[09:41] Papá: usa mi tarjeta para pagar la luz: {F('card_number', c)} vence {exp}",
           'ru': f"[18:30] Оля: оплати, пожалуйста, заказ моей картой {F('card_number', c)}, срок {exp}"}[lang]
    return 'messaging', msg, None, None

@pos
def email_signature(r):
    lang = r.choice(['en', 'it', 'de'])
    nm = name(r, lang); em = email_for(r, nm, r.choice(['brightlane.io', 'studiolegale-rm.it', 'kanzlei-becker.de'])); ph = phone(r, {'en': 'UK', 'it': 'IT', 'de': 'DE'}[lang])
    ad = street_address(r, {'en': 'UK', 'it': 'IT', 'de': 'DE'}[lang])
    return 'email', f"""Hi team,

Attached is the signed SOW for Q3. Let me know if legal needs anything else before Friday.

Best regards,
--
{F('person_name', nm)}
Head of Partnerships
{F('street_address', ad)}
M: {F('phone', ph)}
{F('email', em)}""", None, 'signature block'

@pos
def calendar_invite(r):
    a = name(r, 'en'); b = name(r, 'in'); ea = email_for(r, a, 'northwind.com'); eb = email_for(r, b)
    return 'calendar', f"""BEGIN:VEVENT
DTSTART:20260412T150000Z
DTEND:20260412T153000Z
SUMMARY:Interview – Senior Backend Engineer
ORGANIZER;CN={F('person_name', a)}:mailto:{F('email', ea)}
ATTENDEE;CN={F('person_name', b)};ROLE=REQ-PARTICIPANT:mailto:{F('email', eb)}
LOCATION:https://meet.google.com/xkq-ptow-ibz
UID:{uuid4(r)}@google.com
END:VEVENT""", None, None

@pos
def bank_statement(r):
    nm = name(r, 'en'); ib = iban(r, 'GB'); ad = street_address(r, 'UK')
    rows = '\n'.join(f"{d} Mar 2026   {m:<34} {amt:>9}" for d, m, amt in [
        ('02', 'TESCO STORES 2231', '-42.17'), ('03', 'TFL TRAVEL CHARGE', '-8.10'), ('05', 'SALARY NORTHWIND LTD', '+3,412.55'),
        ('09', 'AMAZON MKTPLACE PMTS', '-23.99'), ('11', 'DIRECT DEBIT THAMES WATER', '-38.00'), ('14', 'CARD PAYMENT PRET A MANGER', '-6.45')])
    return 'web_page', f"""Online Banking  |  Statements  |  Sign out
Account holder: {F('person_name', nm)}
{F('street_address', ad)}
Current Account   Sort code 20-{r.randint(10,99)}-{r.randint(10,99)}   IBAN: {F('iban', ib)}
Statement period 01 Mar 2026 – 31 Mar 2026
Date          Description                          Amount
{rows}
Closing balance £1,{r.randint(100,999)}.{r.randint(10,99)}
Download PDF   Print""", None, 'sort code not labelled (part of account, no type)'

@pos
def kubeconfig(r):
    t = jwt(r, {'iss': 'kubernetes/serviceaccount', 'kubernetes.io/serviceaccount/namespace': 'prod', 'sub': 'system:serviceaccount:prod:deployer'})
    ip = ipv4(r)
    return 'config', f"""apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUMvakNDQWVhZ0F3SUJBZ0lCQURBTkJna3Foa2lHOXcwQkFRc0ZBREFWTVJNd0VRWURWUVFERXdwcmRXSmwK
    server: https://{F('ip_address', ip)}:6443
  name: prod
contexts:
- context: {{cluster: prod, user: deployer}}
  name: prod
current-context: prod
users:
- name: deployer
  user:
    token: {F('jwt', t)}""", None, 'CA data is a public certificate, not labelled'

@pos
def aws_creds(r):
    a = aws_access_key(r); s = aws_secret_key(r)
    return 'tool_output', f"""$ cat ~/.aws/credentials
[default]
aws_access_key_id = {F('aws_access_key', a)}
aws_secret_access_key = {F('aws_secret_key', s)}
region = eu-west-1

[staging]
aws_access_key_id = {F('aws_access_key', aws_access_key(r).replace('ASIA', 'AKIA'))}
aws_secret_access_key = {F('aws_secret_key', aws_secret_key(r))}""", None, None

@pos
def gcp_sa(r):
    pk = private_key(r, 'PRIVATE KEY').replace('\n', '\\n')
    return 'code', f"""{{
  "type": "service_account",
  "project_id": "acme-analytics-prod",
  "private_key_id": "{git_sha(r)}",
  "private_key": "{F('gcp_service_account_key', pk)}\\n",
  "client_email": "bq-loader@acme-analytics-prod.iam.gserviceaccount.com",
  "client_id": "{rs(r, 21, DG)}",
  "auth_uri": "https://accounts.google.com/o/oauth2/auth",
  "token_uri": "https://oauth2.googleapis.com/token"
}}""", None, 'private_key_id and service-account email not labelled'

@pos
def pem_file(r):
    k = private_key(r, r.choice(['OPENSSH PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY']))
    return 'tool_output', f"$ cat ~/.ssh/id_deploy\n{F('private_key', k)}\n$ ", None, None

@pos
def python_hardcoded(r):
    g = gcp_api_key(r); h = hf_token(r)
    return 'code', f"""import requests
from huggingface_hub import login

GOOGLE_MAPS_KEY = "{F('gcp_api_key', g)}"
login(token="{F('huggingface_token', h)}")

def geocode(addr: str):
    r = requests.get("https://maps.googleapis.com/maps/api/geocode/json",
                     params={{"address": addr, "key": GOOGLE_MAPS_KEY}}, timeout=10)
    r.raise_for_status()
    return r.json()["results"][0]["geometry"]["location"]
""", None, None

@pos
def slack_bot_env(r):
    t = slack_token(r); w = slack_webhook(r)
    return 'config', f"""# slack integration
SLACK_BOT_TOKEN={F('slack_token', t)}
SLACK_ALERTS_WEBHOOK={F('slack_webhook', w)}
SLACK_CHANNEL=#deploys
""", None, None

@pos
def telegram_bot(r):
    t = telegram_token(r)
    lang = r.choice(['ru', 'en'])
    pre = 'Вот мой бот, почему он не отвечает на /start?' if lang == 'ru' else 'my bot stopped replying, here is the code:'
    return 'chat', f"""{pre}
```python
from telegram.ext import Application, CommandHandler
app = Application.builder().token("{F('telegram_bot_token', t)}").build()
app.add_handler(CommandHandler("start", start))
app.run_polling()
```""", None, None

@pos
def twilio_sendgrid(r):
    sk = twilio_sk(r); tok = rs(r, 32, HEX); sg = sendgrid_key(r); ph = phone(r, 'US')
    return 'config', f"""TWILIO_ACCOUNT_SID={twilio_ac(r)}
TWILIO_API_KEY={F('twilio_key', sk)}
TWILIO_AUTH_TOKEN={F('twilio_key', tok)}
TWILIO_FROM_NUMBER={F('phone', ph)}
SENDGRID_API_KEY={F('sendgrid_key', sg)}
MAIL_FROM_NAME=ShipFast""", None, 'Account SID (AC...) is an identifier, not labelled; auth token typed twilio_key by context'

@pos
def gov_ids_form(r):
    kind = r.choice(['us', 'uk', 'in', 'kr', 'it', 'br'])
    nm = name(r, {'us': 'en', 'uk': 'en', 'in': 'in', 'kr': 'ko', 'it': 'it', 'br': 'pt'}[kind])
    if kind == 'us': body = f"Applicant: {F('person_name', nm)}\nSSN: {F('gov_id', ssn(r))}\nDOB: 1988-04-12"
    elif kind == 'uk': body = f"Employee: {F('person_name', nm)}\nNational Insurance No: {F('gov_id', uk_ni(r))}\nTax code: 1257L"
    elif kind == 'in': body = f"Name: {F('person_name', nm)}\nAadhaar: {F('gov_id', aadhaar(r))}\nPAN: {F('gov_id', pan(r))}"
    elif kind == 'kr': body = f"성명: {F('person_name', nm)}\n주민등록번호: {F('gov_id', kr_rrn(r))}\n연락처: {F('phone', phone(r, 'KR'))}"
    elif kind == 'it': body = f"Nome e cognome: {F('person_name', nm)}\nCodice fiscale: {F('gov_id', codice_fiscale(r))}\nResidenza: {F('street_address', street_address(r, 'IT'))}"
    else: body = f"Nome: {F('person_name', nm)}\nCPF: {F('gov_id', cpf(r))}\nCelular: {F('phone', phone(r, 'BR'))}"
    return 'web_page', f"Onboarding form – review before submit\n{body}\n[ Back ]  [ Submit ]", None, None

@pos
def nginx_access_log(r):
    lines = []
    for _ in range(r.randint(3, 6)):
        ip = ipv4(r) if r.random() < 0.8 else ipv6(r)
        lines.append(f'{F("ip_address", ip)} - - [12/Mar/2026:10:{r.randint(10,59)}:{r.randint(10,59)} +0000] "GET /api/products?page={r.randint(1,9)} HTTP/1.1" 200 {r.randint(300,9000)} "-" "Mozilla/5.0"')
    lines.insert(1, f'10.0.{r.randint(0,9)}.{r.randint(2,200)} - - [12/Mar/2026:10:11:02 +0000] "GET /healthz HTTP/1.1" 200 2 "-" "kube-probe/1.29"')
    return 'log', '\n'.join(lines), None, 'internal 10.x probe not labelled'

@pos
def multi_chat_ru(r):
    nm = name(r, 'ru'); ph = phone(r, 'RU'); em = email_for(r, None, 'yandex.ru'); ad = street_address(r, 'RU')
    return 'chat', f"""Сделай, пожалуйста, письмо курьерской службе: доставка для {F('person_name', nm)}, адрес {F('street_address', ad)}, телефон {F('phone', ph)}, копию отправь на {F('email', em)}.""", None, None

@pos
def pt_chat_pix(r):
    c = cpf(r); ph = phone(r, 'BR')
    return 'messaging', f"""[10:22] Carla: manda o pix pra mim, a chave é meu CPF {F('gov_id', c)}
[10:23] Carla: ou pelo celular {F('phone', ph)} se preferir""", None, None

@pos
def zh_chat(r):
    ph = phone(r, 'CN'); em = email_for(r, None, 'qq.com'); nm = r.choice(['王伟', '李娜', '张敏'])
    return 'chat', f"帮我给房东写一封邮件，说明我下个月搬走。我的名字是{F('person_name', nm)}，电话{F('phone', ph)}，邮箱{F('email', em)}。", None, None

@pos
def es_iban(r):
    ib = iban(r, 'ES')
    return 'messaging', f"Hola! Para la fianza del piso hazme una transferencia a este IBAN: {F('iban', ib)} (titular: la misma de siempre). Gracias!!", None, None

@pos
def de_mail(r):
    nm = name(r, 'de'); ib = iban(r, 'DE'); em = email_for(r, nm, 'gmx.de')
    return 'email', f"""From: {F('person_name', nm)} <{F('email', em)}>
Subject: Rechnung 2026-031

Hallo,

anbei die Rechnung für März. Bitte überweisen Sie den Betrag innerhalb von 14 Tagen auf folgendes Konto:
IBAN: {F('iban', ib)}
BIC: {r.choice(['COBADEFFXXX', 'DEUTDEDBBER', 'GENODEM1GLS'])}

Viele Grüße""", None, 'BIC is a bank id, not labelled'

@pos
def github_actions_yaml(r):
    t = github_token(r)
    return 'config', f"""name: release
on: {{ push: {{ tags: ['v*'] }} }}
jobs:
  publish:
    runs-on: ubuntu-latest
    env:
      GH_TOKEN: {F('github_token', t)}   # TODO move to secrets
      NPM_TOKEN: ${{{{ secrets.NPM_TOKEN }}}}
    steps:
      - uses: actions/checkout@v4
      - run: gh release create ${{{{ github.ref_name }}}} --generate-notes""", None, 'secrets.NPM_TOKEN reference is not a finding'

@pos
def jwt_in_cookie(r):
    j = jwt(r, {'sub': uuid4(r), 'email_verified': True, 'iat': 1760100000})
    sid = opaque(r, 32)
    return 'tool_output', f"""HTTP/2 200
set-cookie: access_token={F('jwt', j)}; Path=/; HttpOnly; Secure; SameSite=Lax
set-cookie: connect.sid={F('other_secret', 's%3A' + sid)}; Path=/; HttpOnly
content-type: application/json; charset=utf-8
x-request-id: {uuid4(r)}""", None, 'session cookie value is other_secret'

@pos
def mysql_cli(r):
    p = password(r).replace('!', '_').replace('#','_')
    return 'tool_output', f"""$ mysql -h {private_ip(r)} -u root -p{F('other_secret', p)} -e "SHOW DATABASES;"
mysql: [Warning] Using a password on the command line interface can be insecure.
+--------------------+
| Database           |
+--------------------+
| information_schema |
| orders             |
+--------------------+""", None, None

@pos
def openai_python(r):
    k = openai_key(r)
    return 'code', f"""from openai import OpenAI

client = OpenAI(api_key="{F('openai_key', k)}")
resp = client.responses.create(model="gpt-4.1-mini", input="Summarise this ticket")
print(resp.output_text)""", None, None

@pos
def hinglish_otp(r):
    ph = phone(r, 'IN'); ad = street_address(r, 'IN'); nm = name(r, 'in')
    return 'messaging', f"""[19:04] {nm.split()[0]}: yaar delivery wale ko ye address de dena - {F('street_address', ad)}
[19:05] {nm.split()[0]}: aur mera number {F('phone', ph)} hai agar wo call kare toh""", None, 'first name alone in chat header not labelled'

@pos
def supabase_env(r):
    a = jwt(r, {'iss': 'supabase', 'ref': rs(r, 20, LO), 'role': 'anon', 'iat': 1740000000})
    s = jwt(r, {'iss': 'supabase', 'ref': rs(r, 20, LO), 'role': 'service_role', 'iat': 1740000000})
    return 'config', f"""NEXT_PUBLIC_SUPABASE_URL=https://{rs(r, 20, LO)}.supabase.co
NEXT_PUBLIC_SUPABASE_ANON_KEY={F('jwt', a)}
SUPABASE_SERVICE_ROLE_KEY={F('jwt', s)}""", None, 'anon key is a JWT too -> labelled jwt'

@pos
def browser_profile(r):
    nm = name(r, 'en'); em = email_for(r, nm); ph = phone(r, 'US'); ad = street_address(r, 'US')
    return 'web_page', f"""Account settings
Personal information
  Full name        {F('person_name', nm)}
  Email            {F('email', em)}   Verified ✓
  Mobile           {F('phone', ph)}
  Shipping address {F('street_address', ad)}
Security
  Password         ••••••••  Change
  Two-step verification  On
Save changes""", None, 'masked password not labelled'

@pos
def stripe_curl(r):
    k = stripe_key(r)
    return 'tool_output', f"""$ curl https://api.stripe.com/v1/refunds -u {F('stripe_key', k)}: -d payment_intent=pi_{rs(r, 24)}
{{
  "id": "re_{rs(r, 24)}",
  "object": "refund",
  "amount": 1999,
  "status": "succeeded"
}}""", None, None

@pos
def ipv6_firewall(r):
    a = ipv6(r); b = ipv4(r)
    return 'tool_output', f"""$ sudo ufw status numbered
Status: active
     To                         Action      From
     --                         ------      ----
[ 1] 22/tcp                     ALLOW IN    {F('ip_address', b)}
[ 2] 443                        ALLOW IN    Anywhere
[ 3] 5432/tcp                   ALLOW IN    {F('ip_address', a)}
[ 4] 22/tcp                     ALLOW IN    192.168.1.0/24""", None, None

@pos
def it_chat(r):
    cf = codice_fiscale(r); ib = iban(r, 'IT')
    return 'chat', f"Mi compili il modulo F24? Il mio codice fiscale è {F('gov_id', cf)} e l'addebito va sull'IBAN {F('iban', ib)}.", None, None

@pos
def ko_chat_card(r):
    c = card(r, 'dash'); ph = phone(r, 'KR')
    return 'chat', f"쿠팡 결제가 자꾸 실패해요. 카드번호 {F('card_number', c)} 인데 뭐가 문제인지 봐줄래요? 본인인증 번호는 {F('phone', ph)}로 와요.", None, None

@pos
def long_ci_log(r):
    ak = aws_access_key(r); sk = aws_secret_key(r)
    pk = ['fastapi', 'uvicorn', 'sqlalchemy', 'psycopg2-binary', 'pydantic', 'httpx', 'boto3', 'celery', 'redis', 'orjson', 'tenacity', 'structlog']
    lines = [f"#{i} {r.randint(1,40)}.{r.randint(100,999)} Collecting {pk[i % len(pk)]}>={r.randint(0,3)}.{r.randint(0,40)}" for i in range(1, r.randint(8, 40))]
    body = '\n'.join(lines)
    return 'log', f"""Run aws-actions/configure-aws-credentials@v4
  with:
    aws-region: us-east-1
    role-session-name: GitHubActions
##[debug]Evaluating: secrets.AWS_ACCESS_KEY_ID
##[debug]Result: '***'
+ env | sort
AWS_ACCESS_KEY_ID={F('aws_access_key', ak)}
AWS_DEFAULT_REGION=us-east-1
AWS_SECRET_ACCESS_KEY={F('aws_secret_key', sk)}
CI=true
GITHUB_SHA={git_sha(r)}
HOME=/home/runner
{body}
#14 exporting to image
#14 writing image sha256:{sha256(r)} done
#14 naming to 123456789012.dkr.ecr.us-east-1.amazonaws.com/api:{git_sha(r, 7)} done""", None, "masked '***' value not labelled; env dump leaked it"

@pos
def pgpass(r):
    p = password(r)
    return 'tool_output', f"""$ cat ~/.pgpass
db.prod.internal:5432:billing:billing_ro:{F('env_secret', p)}""", None, 'pgpass password field = env_secret'

@pos
def yaml_config(r):
    p = password(r); k = opaque(r, 40)
    return 'config', f"""spring:
  datasource:
    url: jdbc:mysql://{private_ip(r)}:3306/inventory
    username: inv_app
    password: {F('env_secret', p)}
  mail:
    host: smtp.mailgun.org
    username: api
    password: {F('env_secret', k)}""", None, None

@pos
def email_thread_phone(r):
    nm = name(r, 'es'); ph = phone(r, 'ES'); em = email_for(r, nm, 'telefonica.net')
    return 'email', f"""De: {F('person_name', nm)} <{F('email', em)}>
Para: {F('email', 'reservas@hotelmirador.es')}
Asunto: Reserva 12-15 de mayo

Buenas tardes, quería confirmar la reserva de una habitación doble del 12 al 15 de mayo. Si necesitan algo, mi móvil es {F('phone', ph)}.
Un saludo""", None, 'reservas@hotelmirador.es: business role mailbox -> labelled email'

@pos
def hf_cli(r):
    h = hf_token(r)
    return 'tool_output', f"""$ huggingface-cli login --token {F('huggingface_token', h)}
Token is valid (permission: write).
Your token has been saved to /home/dev/.cache/huggingface/token
Login successful""", None, None

@pos
def gitlab_ci_dump(r):
    p = password(r); t = 'glpat-' + rs(r, 20, AN + '-_')
    return 'log', f"""$ printenv | grep -i -E 'pass|token'
CI_JOB_TOKEN=[MASKED]
REGISTRY_PASSWORD={F('env_secret', p)}
GITLAB_API_TOKEN={F('other_secret', t)}""", None, 'glpat- has no dedicated type -> other_secret'

@pos
def node_config(r):
    k = sendgrid_key(r); m = opaque(r, 64)
    return 'code', f"""module.exports = {{
  port: process.env.PORT || 8080,
  sendgrid: {{ apiKey: '{F('sendgrid_key', k)}' }},
  jwtSecret: '{F('env_secret', m)}',
  db: {{ host: 'localhost', user: 'dev', password: process.env.DB_PASSWORD }}
}};""", None, 'key named jwtSecret in JS config counts as env_secret'

@pos
def chat_wifi(r):
    p = password(r)
    lang = r.choice(['en', 'de', 'es'])
    t = {'en': f"remind me: the guest wifi is 'Casa-Guest' and the password is {F('other_secret', p)}",
         'de': f"Notiz für später: WLAN 'FritzBox 7590 XY', Passwort {F('other_secret', p)}",
         'es': f"apúntate esto: la contraseña del wifi es {F('other_secret', p)}"}[lang]
    return 'messaging', t, None, None

@pos
def order_confirmation(r):
    nm = name(r, 'en'); ad = street_address(r, 'US'); em = email_for(r, nm); last4 = rs(r, 4, DG)
    return 'email', f"""Your order #112-{rs(r, 7, DG)}-{rs(r, 7, DG)} has shipped!

Ship to:
{F('person_name', nm)}
{F('street_address', ad)}

Payment: Visa ending in {last4}
Tracking: 1Z{rs(r, 16, UP + DG)}
Questions? Reply to this email. Sent to {F('email', em)}""", None, 'last-4, order and tracking numbers not labelled'

@pos
def pgp_rsa_in_chat(r):
    k = private_key(r, 'RSA PRIVATE KEY', 8)
    return 'chat', f"can you convert this key to PKCS#8 for me?\n\n{F('private_key', k)}\n\nit's the one from the old server", None, None

@pos
def xoxp_in_python(r):
    t = slack_token(r)
    return 'code', f"""from slack_sdk import WebClient
client = WebClient(token="{F('slack_token', t)}")
client.chat_postMessage(channel="C{rs(r, 10, UP + DG)}", text="Deploy finished ✅")""", None, None

@pos
def sentry_dsn(r):
    k = rs(r, 32, HEX)
    return 'config', f"""SENTRY_DSN=https://{F('other_secret', k)}@o{r.randint(100000, 999999)}.ingest.sentry.io/{r.randint(1000000, 9999999)}
SENTRY_ENVIRONMENT=production""", None, 'Sentry DSN public key treated as other_secret'

@pos
def mixed_assistant_memory(r):
    nm = name(r, 'en'); ph = phone(r, 'UK'); em = email_for(r, nm); c = card(r); ni = uk_ni(r)
    return 'tool_output', f"""memory.read("user_profile") ->
{{
  "preferred_name": "{F('person_name', nm)}",
  "phone": "{F('phone', ph)}",
  "email": "{F('email', em)}",
  "saved_card": "{F('card_number', c)}",
  "ni_number": "{F('gov_id', ni)}",
  "timezone": "Europe/London",
  "likes": ["climbing", "jazz"]
}}""", None, '5 findings of different types'

@pos
def heroku_url(r):
    p = password(r).replace('@', '').replace('#','')
    return 'tool_output', f"""$ heroku config -a shop-api
=== shop-api Config Vars
DATABASE_URL:  postgres://u{rs(r, 13, LO)}:{F('password_in_url', p)}@ec2-{r.randint(3,54)}-{r.randint(1,250)}-{r.randint(1,250)}-{r.randint(1,250)}.compute-1.amazonaws.com:5432/d{rs(r, 13, LO)}
REDIS_URL:     rediss://:{F('password_in_url', rs(r, 30, AN))}@ec2-{r.randint(3,54)}-{r.randint(1,250)}-{r.randint(1,250)}-{r.randint(1,250)}.compute-1.amazonaws.com:12345
WEB_CONCURRENCY: 2""", None, 'ec2-hostnames encode public IPs but are hostnames, not labelled'

@pos
def amex_chat(r):
    c = fmt_card(r.choice(['378282246310005', '371449635398431', luhn_complete('37', 15, r)]), r, 'space')
    return 'chat', f"Use my Amex {F('card_number', c)} for the hotel booking, billing zip 94109.", None, None

# ---------------- NEGATIVES ----------------
@neg
def git_log(r):
    msgs = ['fix: handle empty cart', 'chore(deps): bump vite to 5.4.2', 'feat: add webhook retries', 'refactor auth middleware',
            'docs: update README', 'test: cover refund edge cases', 'Merge pull request #482 from acme/feat/search', 'perf: cache price lookups']
    return 'tool_output', '$ git log --oneline -n 8\n' + '\n'.join(f'{git_sha(r, 7)} {m}' for m in r.sample(msgs, 8)), 'git_hash', None

@neg
def git_show_stat(r):
    return 'tool_output', f"""$ git rev-parse HEAD
{git_sha(r)}
$ git merge-base main feature/billing
{git_sha(r)}
$ git diff --stat {git_sha(r, 12)}..HEAD
 src/billing/invoice.ts | 42 +++++++++++++++++++++---------
 src/billing/tax.ts     |  7 +++---
 2 files changed, 33 insertions(+), 16 deletions(-)""", 'git_hash', None

@neg
def uuids_json(r):
    return 'api_json', f"""{{
  "request_id": "{uuid4(r)}",
  "trace_id": "{rs(r, 32, HEX)}",
  "span_id": "{rs(r, 16, HEX)}",
  "items": [
    {{"id": "{uuid4(r)}", "sku": "TSHIRT-BLK-M", "qty": 2}},
    {{"id": "{uuid4(r)}", "sku": "MUG-WHT", "qty": 1}}
  ]
}}""", 'uuid', None

@neg
def base64_img(r):
    return 'code', f"""<img alt="logo" width="32" height="32"
     src="data:image/png;base64,{png_b64(r, 150)}" />""", 'base64_image', None

@neg
def checksums(r):
    return 'tool_output', f"""$ sha256sum dist/*.tar.gz
{sha256(r)}  dist/agent-1.8.0-linux-amd64.tar.gz
{sha256(r)}  dist/agent-1.8.0-darwin-arm64.tar.gz
$ md5sum README.md
{rs(r, 32, HEX)}  README.md""", 'checksum', None

@neg
def lockfile(r):
    return 'config', f"""    "node_modules/lodash": {{
      "version": "4.17.21",
      "resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz",
      "integrity": "{integrity(r)}",
      "license": "MIT"
    }},
    "node_modules/zod": {{
      "version": "3.23.8",
      "resolved": "https://registry.npmjs.org/zod/-/zod-3.23.8.tgz",
      "integrity": "{integrity(r)}"
    }}""", 'checksum', 'npm integrity'

@neg
def aws_doc_example(r):
    return 'chat', """From the AWS docs, the credentials file looks like this:

[default]
aws_access_key_id = AKIAIOSFODNN7EXAMPLE
aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY

Replace those with your own values and run `aws sts get-caller-identity`.""", 'fake_test_key', 'AWS documentation example keys'

@neg
def placeholder_env(r):
    ph = lambda: r.choice(['changeme', 'change_me', 'CHANGEME', '<changeme>', 'your-secret-here', 'xxx', ''])
    lines = ['OPENAI_API_KEY=' + r.choice(['sk-...', 'sk-xxxxxxxxxxxxxxxx', 'sk-your-key-here']), 'ANTHROPIC_API_KEY=' + r.choice(['YOUR_API_KEY', 'sk-ant-...', '<anthropic key>']),
             'STRIPE_SECRET_KEY=sk_live_' + 'x' * 24, 'GITHUB_TOKEN=' + r.choice(['<your-github-token>', 'ghp_...', 'ghp_' + 'X' * 36]),
             'DATABASE_URL=postgres://user:password@localhost:5432/' + r.choice(['mydb', 'app_dev', 'postgres']), 'SESSION_SECRET=' + ph(), 'SMTP_PASSWORD=' + ph(),
             'AWS_SECRET_ACCESS_KEY=' + r.choice(['', 'YOUR_SECRET_KEY', '...']), 'PORT=' + str(r.choice([3000, 8000, 8080]))]
    return 'config', shuf(r, r.choice(['# .env.example — copy to .env and fill in\n', '# sample environment, do NOT put real values here\n', '']), lines), 'fake_test_key', 'placeholders: ..., YOUR_, xxxx, <...>, changeme, "password", empty'

@neg
def env_refs(r):
    svc = r.choice(['api', 'backend', 'worker', 'web']); db = r.choice(['app', 'orders', 'crm'])
    lines = [f'      DATABASE_URL: postgres://{db}:${{DB_PASSWORD}}@db:5432/{db}', '      JWT_SECRET: ${JWT_SECRET:?missing}', '      STRIPE_KEY: ${STRIPE_KEY}',
             '      REDIS_PASSWORD: "{{ vault_redis_password }}"', '      SENTRY_DSN: $SENTRY_DSN', '      OPENAI_API_KEY: ${OPENAI_API_KEY:-}', '      ADMIN_PASSWORD_FILE: /run/secrets/admin_pw']
    return 'config', shuf(r, f"services:\n  {svc}:\n    image: ghcr.io/acme/{svc}:{r.randint(1,4)}.{r.randint(0,20)}.{r.randint(0,9)}\n    environment:\n", lines), 'env_reference', 'variable references are not values'

@neg
def curl_env_token(r):
    var = r.choice(['$GITHUB_TOKEN', '${GH_TOKEN}', '"$(gh auth token)"', '$API_TOKEN', '${VERCEL_TOKEN}'])
    ep = r.choice(['https://api.github.com/repos/acme/api/actions/runs', 'https://api.vercel.com/v9/projects', 'https://api.github.com/user'])
    return 'tool_output', f"""$ curl -sS {ep} \\
    -H "Authorization: Bearer {var}" \\
    -H "Accept: application/json" | jq '{r.choice(['.[0].id', '.total_count', '.login'])}'
{r.choice(['"completed"', str(r.randint(1, 400)), '"octo-dev"'])}""", 'env_reference', None

@neg
def order_numbers(r):
    return 'email', f"""Order confirmation

Order number: {r.randint(100,999)}-{rs(r, 7, DG)}-{rs(r, 7, DG)}
Invoice: INV-2026-{rs(r, 6, DG)}
Tracking: {rs(r, 12, DG)} (FedEx)
Items: 1 × USB-C hub, 2 × HDMI cable
Total: $64.97

Thanks for shopping with us!""", 'order_number', 'no name/address'

@neg
def timestamps(r):
    return 'log', '\n'.join(f"2026-0{r.randint(1,9)}-{r.randint(10,28)}T{r.randint(10,23)}:{r.randint(10,59)}:{r.randint(10,59)}.{rs(r,3,DG)}Z INFO worker[{r.randint(1000,9999)}] job={r.randint(10**6,10**7)} duration_ms={r.randint(3,900)} epoch={1760000000+r.randint(0,10**6)}" for _ in range(5)), 'timestamp', None

@neg
def versions(r):
    return 'tool_output', """$ npm ls --depth=0
web@0.1.0 /home/dev/web
├── next@14.2.5
├── react@18.3.1
├── react-dom@18.3.1
├── typescript@5.5.4
└── @types/node@20.14.10
$ node -v
v20.15.1""", 'version', None

@neg
def semver_pkg(r):
    return 'config', """{
  "name": "@acme/sdk",
  "version": "3.0.0-rc.2",
  "engines": { "node": ">=18.17.0 <23" },
  "dependencies": {
    "axios": "^1.7.2",
    "zod": "~3.23.0",
    "undici": ">=6.0.0 || ^5.28.4"
  }
}""", 'semver_range', None

@neg
def private_ips(r):
    return 'tool_output', f"""$ ip -4 addr show eth0
2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc fq_codel state UP group default qlen 1000
    inet {private_ip(r)}/24 brd 192.168.1.255 scope global dynamic eth0
$ cat /etc/hosts
127.0.0.1 localhost
{private_ip(r)} db.internal
{private_ip(r)} cache.internal""", 'private_ip', None

@neg
def localhost_urls(r):
    return 'log', """  VITE v5.4.2  ready in 412 ms

  ➜  Local:   http://localhost:5173/
  ➜  Network: http://192.168.0.14:5173/
Connected to redis://localhost:6379/0
Mongo: mongodb://127.0.0.1:27017/dev""", 'localhost_url', None

@neg
def hex_colors(r):
    cols = [f'#{rs(r, 6, HEX)}' for _ in range(6)]
    return 'code', f""":root {{
  --brand-primary: {cols[0]};
  --brand-secondary: {cols[1]};
  --surface: {cols[2]};
  --text-muted: {cols[3]};
  --danger: {cols[4]};
  --focus-ring: {cols[5]}80;
}}""", 'hex_color', None

@neg
def url_ids(r):
    yt = rs(r, 11, AN + '-_')
    return 'chat', f"""can you summarise this talk? https://www.youtube.com/watch?v={yt}&t=312s
slides are at https://acme-public-assets.s3.amazonaws.com/talks/2026/{uuid4(r)}/{rs(r, 24, LO + DG)}.pdf""", 'url_id', None

@neg
def luhn_fail(r):
    c = bad_card(r)
    return 'chat', f"why does my validator reject {c}? I copied it from the test sheet. Here's my code:\n```js\nconst ok = luhn(num.replace(/\\D/g, ''))\n```", 'luhn_fail', 'number fails Luhn'

@neg
def dates_invoices(r):
    return 'api_json', f"""{{"invoice_number":"2026-0415-{rs(r, 4, DG)}","issued":"2026-04-15","due":"2026-05-15","po":"PO-{rs(r, 8, DG)}","amount_cents":{r.randint(10000, 999999)},"account":"ACCT-{rs(r, 10, DG)}"}}""", 'invoice_number', 'phone-like digit groups are ids/dates'

@neg
def masked_card(r):
    return 'web_page', f"""Payment methods
  Visa •••• {rs(r, 4, DG)}   Expires 08/28   Default
  Mastercard **** **** **** {rs(r, 4, DG)}   Expires 11/27
  Add a new card""", 'masked_card', None

@neg
def public_keys(r):
    return 'tool_output', f"""$ cat ~/.ssh/id_ed25519.pub
ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rs(r, 43, AN + '+/')} dev@thinkpad
$ ssh-keygen -lf ~/.ssh/id_ed25519.pub
256 SHA256:{rs(r, 43, AN + '+/')} dev@thinkpad (ED25519)""", 'public_key', 'public keys are not secrets'

@neg
def cert(r):
    raw = base64.b64encode(bytes(r.getrandbits(8) for _ in range(300))).decode()
    body = '\n'.join(raw[i:i+64] for i in range(0, len(raw), 64))
    return 'config', f"-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIE{body[20:]}\n-----END CERTIFICATE-----", 'public_key', 'certificate, not a private key'

@neg
def stripe_pk_neg(r):
    return 'code', f"""// client-side only, publishable key is safe to ship
const stripe = Stripe('{stripe_pk(r)}');
const elements = stripe.elements({{ appearance: {{ theme: 'stripe' }} }});""", 'public_key', 'publishable key pk_ is public by design'

@neg
def docker_digest(r):
    return 'tool_output', f"""$ docker images --digests
REPOSITORY          TAG       DIGEST                                                                    IMAGE ID       CREATED        SIZE
ghcr.io/acme/api    2.3.1     sha256:{sha256(r)}   {rs(r, 12, HEX)}   3 days ago     187MB
postgres            16        sha256:{sha256(r)}   {rs(r, 12, HEX)}   2 weeks ago    432MB""", 'checksum', None

@neg
def request_ids_log(r):
    return 'log', '\n'.join(f'{{"level":"info","msg":"request completed","req_id":"req_{rs(r, 24)}","status":200,"latency_ms":{r.randint(2, 400)},"path":"/v1/orders/ord_{rs(r, 16)}"}}' for _ in range(4)), 'request_id', 'req_/ord_ ids look random but are identifiers'

@neg
def masked_ci(r):
    return 'log', """Run ./scripts/deploy.sh
  env:
    AWS_ACCESS_KEY_ID: ***
    AWS_SECRET_ACCESS_KEY: ***
    DEPLOY_TOKEN: ***
+ aws s3 sync ./dist s3://acme-web-prod --delete
upload: dist/index.html to s3://acme-web-prod/index.html
Deploy complete.""", 'redacted', 'masked values'

@neg
def discuss_keys(r):
    lang = r.choice(['en', 'ru', 'ko'])
    t = {'en': "How should I rotate our OpenAI API key without downtime? We store it in AWS Secrets Manager and the pods read OPENAI_API_KEY at startup.",
         'ru': "Как лучше хранить токены GitHub в CI? Сейчас GITHUB_TOKEN лежит в секретах репозитория, но хочу перейти на OIDC.",
         'ko': "슬랙 봇 토큰(xoxb-로 시작하는 거)을 코드에 하드코딩하면 안 되는 이유를 설명해줘."}[lang]
    return 'chat', t, 'discussion', 'talks about secrets without containing one'

@neg
def test_fixture(r):
    return 'code', """describe('redactor', () => {
  it('masks api keys', () => {
    const input = 'key=sk-test-REDACTED-0000000000';
    expect(redact(input)).toBe('key=[REDACTED]');
  });
  it('ignores placeholder emails', () => {
    expect(findEmails('contact user@example.com')).toEqual([]);
  });
});""", 'fake_test_key', 'example.com placeholder and obviously fake key'

@neg
def phone_like(r):
    return 'tool_output', f"""$ ps aux | head -4
USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND
root           1  0.0  0.1 {r.randint(100000,999999)} {r.randint(10000,99999)} ?        Ss   Mar12   0:07 /sbin/init
dev       {r.randint(10000,99999)}  2.3  1.4 {r.randint(1000000,9999999)} {r.randint(100000,999999)} pts/0    Sl+  10:02   1:13 node server.js
$ wc -c big.log
{r.randint(100000000, 999999999)} big.log""", 'phone_like_number', None

@neg
def math_numbers(r):
    return 'chat', f"The product of 4111 and 1111 is 4,564,321; the series 1, 1, 2, 3, 5, 8, 13, 21, 34 continues. My benchmark ran {r.randint(10**9, 10**10)} iterations in {r.randint(100,999)}.{r.randint(10,99)} s.", 'phone_like_number', None

@neg
def password_prompt(r):
    return 'tool_output', """$ sudo apt-get install -y postgresql
[sudo] password for dev:
Reading package lists... Done
$ psql -U postgres -h localhost -W
Password:
psql (16.2)
postgres=# \\du""", 'empty_value', 'password prompt without a value'

@neg
def k8s_secret_ref(r):
    return 'config', """apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
      - name: api
        env:
        - name: DB_PASSWORD
          valueFrom:
            secretKeyRef: { name: api-db, key: password }
        - name: OPENAI_API_KEY
          valueFrom:
            secretKeyRef: { name: openai, key: api-key }""", 'env_reference', None

@neg
def sample_jwt_doc(r):
    return 'chat', "A JWT looks like `xxxxx.yyyyy.zzzzz` – header, payload and signature, each base64url-encoded. Never paste a real one here.", 'fake_test_key', None

@neg
def s3_listing(r):
    return 'tool_output', '$ aws s3 ls s3://acme-uploads/2026/03/\n' + '\n'.join(f'2026-03-{r.randint(10,28)} {r.randint(10,23)}:{r.randint(10,59)}:{r.randint(10,59)}   {r.randint(1000, 9999999):>9} {rs(r, 40, LO + DG)}.jpg' for _ in range(5)), 'url_id', 'random object keys'

@neg
def python_code_neg(r):
    a = r.choice(['PAYMENTS_API_KEY', 'OPENAI_API_KEY', 'MAILGUN_KEY']); b = r.choice(['WEBHOOK_SECRET', 'HMAC_SECRET', 'SIGNING_KEY'])
    return 'code', f"""import os, hashlib

API_KEY = os.environ["{a}"]
SECRET = os.getenv("{b}", "")

def sign(body: bytes) -> str:
    return hashlib.sha256(SECRET.encode() + body).hexdigest()
""", 'env_reference', None

@neg
def mongo_objid(r):
    return 'api_json', f"""[{{"_id":{{"$oid":"{rs(r, 24, HEX)}"}},"title":"Q2 planning","createdAt":{{"$date":"2026-04-01T09:00:00Z"}}}},{{"_id":{{"$oid":"{rs(r, 24, HEX)}"}},"title":"Retro","createdAt":{{"$date":"2026-04-03T15:30:00Z"}}}}]""", 'uuid', 'ObjectIds'

@neg
def doc_ip(r):
    return 'web_page', "Example: to allow a single host, run `iptables -A INPUT -s 203.0.113.17 -j ACCEPT`. For IPv6 use 2001:db8::1. Addresses in these ranges are reserved for documentation.", 'doc_ip', 'RFC 5737 / RFC 3849 documentation ranges'

@neg
def calendar_no_pii(r):
    return 'calendar', f"""BEGIN:VEVENT
DTSTART;TZID=Europe/Berlin:20260420T100000
DTEND;TZID=Europe/Berlin:20260420T110000
SUMMARY:Sprint planning
LOCATION:Room 3.14
UID:{uuid4(r)}
SEQUENCE:2
END:VEVENT""", 'uuid', None

@neg
def lat_long(r):
    return 'api_json', f"""{{"place_id":"ChIJ{rs(r, 23, AN + '-_')}","geometry":{{"location":{{"lat":{r.uniform(-60,60):.7f},"lng":{r.uniform(-120,120):.7f}}}}},"types":["cafe","food"],"rating":4.{r.randint(1,9)}}}""", 'url_id', 'place ids are not secrets'

@neg
def ko_neg(r):
    return 'chat', "오늘 회의록 정리해줘: 1) 배포 일정 4월 22일로 연기 2) 버전 2.4.0에서 로그인 버그 수정 3) 다음 회의 4월 29일 오후 3시", 'date', None

@neg
def base64_font(r):
    return 'code', f"""@font-face {{
  font-family: 'Inter';
  src: url(data:font/woff2;base64,d09GMgABAAAAA{base64.b64encode(bytes(r.getrandbits(8) for _ in range(180))).decode()}) format('woff2');
}}""", 'base64_image', 'data URI font'

@neg
def commit_trailers(r):
    return 'tool_output', f"""$ git cat-file -p HEAD
tree {git_sha(r)}
parent {git_sha(r)}
gpgsig -----BEGIN SSH SIGNATURE-----
 U1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAg{rs(r, 40, AN)}
 -----END SSH SIGNATURE-----

fix(api): retry on 502 from upstream""", 'git_hash', 'signature, tree/parent shas; author lines omitted'

@neg
def ci_run_ids(r):
    return 'log', f"""Run ID: {rs(r, 10, DG)}
Job ID: {rs(r, 11, DG)}
Artifact: build-{git_sha(r, 7)}.zip  (size {r.randint(100,999)} KB, digest sha256:{sha256(r)})
Cache key: node-modules-Linux-{sha256(r)}""", 'checksum', None


@neg
def go_sum(r):
    return 'config', '\n'.join(f'{m} {v} h1:{base64.b64encode(bytes(r.getrandbits(8) for _ in range(32))).decode()}' for m, v in [
        ('github.com/google/uuid', 'v1.6.0'), ('github.com/google/uuid', 'v1.6.0/go.mod'), ('golang.org/x/crypto', 'v0.24.0'),
        ('golang.org/x/crypto', 'v0.24.0/go.mod'), ('github.com/jackc/pgx/v5', 'v5.6.0')]), 'checksum', 'go.sum h1 hashes'

@neg
def webpack_out(r):
    return 'log', '\n'.join(f'asset {n}.{rs(r, 20, HEX)}.js {r.randint(10,900)} KiB [emitted] [immutable] [minimized]' for n in ['main', 'vendors', 'runtime', 'polyfills']) + f'\nwebpack 5.91.0 compiled successfully in {r.randint(2000,9000)} ms', 'checksum', 'content hashes in filenames'

@neg
def tracking_page(r):
    return 'web_page', f"""Track your package
Tracking number: 1Z{rs(r, 6, UP + DG)}03{rs(r, 8, DG)}
Status: In transit — Arriving Thursday
Mar 12  8:14 PM  Departed facility   LOUISVILLE, KY
Mar 12  3:02 AM  Arrived at facility  LOUISVILLE, KY
Mar 11  9:40 PM  Label created
Reference: {rs(r, 10, DG)}""", 'tracking_number', None

@neg
def pip_freeze(r):
    return 'tool_output', """$ pip freeze | head
anthropic==0.34.2
boto3==1.34.144
cryptography==43.0.0
openai==1.40.3
pydantic==2.8.2
python-dotenv==1.0.1
stripe==10.6.0""", 'version', 'package names of secret-bearing services, but no secrets'

@neg
def placeholder_pw_yaml(r):
    w = lambda: r.choice(['changeme', 'change-me', '""', "''", '<set-me>', '${SMTP_PASSWORD}', '"{{ .Values.password }}"', 'null', 'REPLACE_ME'])
    return 'config', f"""# defaults for local development; override in production
database:
  host: localhost
  user: {r.choice(['app', 'dev', 'postgres'])}
  password: {w()}
redis:
  password: {w()}
admin:
  password: {w()}""", 'placeholder_password', 'placeholder list from brief'

@neg
def arn_ids(r):
    acct = rs(r, 12, DG)
    return 'tool_output', f"""$ aws sts get-caller-identity
{{
    "UserId": "AROA{rs(r, 17, UP + DG)}:deploy-session",
    "Account": "{acct}",
    "Arn": "arn:aws:sts::{acct}:assumed-role/GitHubDeploy/deploy-session"
}}""", 'cloud_identifier', 'AROA role id and account number are identifiers, not credentials'

@neg
def sentry_event(r):
    return 'api_json', f"""{{"event_id":"{rs(r, 32, HEX)}","release":"web@{git_sha(r, 12)}","environment":"production","level":"error","exception":{{"values":[{{"type":"TypeError","value":"Cannot read properties of undefined (reading 'map')"}}]}},"timestamp":{1760000000 + r.randint(0, 10**7)}.{rs(r, 3, DG)}}}""", 'request_id', None

@neg
def docker_ps(r):
    return 'tool_output', "$ docker ps\nCONTAINER ID   IMAGE                 COMMAND                  STATUS          PORTS                    NAMES\n" + '\n'.join(
        f"{rs(r, 12, HEX)}   {img:<20}  \"{cmd}\"   Up {r.randint(2, 59)} minutes   0.0.0.0:{p}->{p}/tcp   {nm}" for img, cmd, p, nm in
        [('postgres:16', 'docker-entrypoint.s…', 5432, 'db'), ('redis:7', 'redis-server', 6379, 'cache'), ('acme/api:dev', 'node dist/main.js', r.choice([3000, 8080]), 'api')]), 'container_id', None

@neg
def usps_tracking(r):
    return 'chat', f"where is my package? USPS says {rs(r, 4, DG)} {rs(r, 4, DG)} {rs(r, 4, DG)} {rs(r, 4, DG)} {rs(r, 4, DG)} {rs(r, 2, DG)} was 'in transit, arriving late' since {r.choice(['Monday', 'Tuesday', 'last Friday'])}", 'tracking_number', '22-digit tracking number'

@neg
def chrome_ext(r):
    return 'log', f"""Uncaught (in promise) Error: Could not establish connection. Receiving end does not exist.
    at chrome-extension://{rs(r, 32, 'abcdefghijklmnop')}/background.js:{r.randint(10, 900)}:{r.randint(2, 60)}
Denying load of chrome-extension://{rs(r, 32, 'abcdefghijklmnop')}/inject.js""", 'url_id', 'extension ids'

@neg
def csp_nonce(r):
    return 'tool_output', f"""< HTTP/2 200
< content-security-policy: script-src 'self' 'nonce-{base64.b64encode(bytes(r.getrandbits(8) for _ in range(16))).decode()}' 'strict-dynamic'; object-src 'none'
< etag: W/"{rs(r, 5, HEX)}-{rs(r, 27, AN)}"
< x-cache: Hit from cloudfront""", 'nonce', 'CSP nonce and etag'

@neg
def lfs_pointer(r):
    return 'tool_output', f"""$ cat models/classifier.onnx
version https://git-lfs.github.com/spec/v1
oid sha256:{sha256(r)}
size {r.randint(10**6, 10**9)}""", 'checksum', None

@neg
def pytest_seed(r):
    return 'log', f"""============================= test session starts ==============================
platform linux -- Python 3.11.9, pytest-8.2.2, pluggy-1.5.0
Using --randomly-seed={r.randint(10**8, 10**10)}
rootdir: /home/dev/svc
collected {r.randint(50, 400)} items
tests/test_api.py ........................................        [ 40%]""", 'phone_like_number', 'random seed looks like a phone number'

PER = 3
items = []

def collect(fs, n, cap=4):
    out, seen = [], set()
    for _ in range(cap):
        for f in fs:
            it = f(r)
            if it[1] in seen: continue
            seen.add(it[1]); out.append(it)
            if len(out) == n: return out
    raise SystemExit(f'only {len(out)} unique items from {len(fs)} templates')
pos_items = collect(P, 150)
neg_items = collect(N, 150)
items = pos_items + neg_items
r.shuffle(items)
emit('dev-1.jsonl', items, 'dev1')
print(len(P), len(N), len(pos_items), len(neg_items))
