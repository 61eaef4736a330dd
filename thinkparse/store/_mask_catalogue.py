"""The catalogue of prefixed token formats masked by default (docs/behaviour.md#d2).

Each row is data: the rule name written into ``[REDACTED:<rule>]``, the literal prefixes, the
pattern of the rest of the token (bytes, bounded quantifiers only), the characters that may not
follow it, and where the format is documented.  A source is the issuer's documentation or the id
of the public scanner rule that records the same format (``gitleaks:<id>`` for gitleaks'
``cmd/generate/config/rules``, ``detect-secrets:<Plugin>``); the
prefixes, lengths and alphabets are facts, the patterns are written here.

``_mask_rules.py`` compiles the rows: a prefix that holds a separator (``_``, ``-``, ``.``,
``~``, ``:``, ``$``) is found from that separator in the reversed text, the others from their
first byte.  Rows sharing a prefix are tried in table order, so a specific one (``sk-ant-``)
comes before a general one (``sk-``).  ``before`` is a fixed-width part of the token in front of
its prefix (Mailchimp's 32 hex digits before ``-us``); ``hook`` names a finder in
``_mask_rules.py`` for a token whose start no fixed pattern gives (a Telegram bot id's digits).
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["B64", "HEX", "KEY", "TOKENS", "Token"]

#: Character classes of token bodies.
KEY = rb"[A-Za-z0-9_-]"
B64 = rb"[A-Za-z0-9+/]"
HEX = rb"[a-fA-F0-9]"
_ALNUM = rb"[A-Za-z0-9]"
_TAIL_B64 = rb"[A-Za-z0-9+/_-]"


class Token(NamedTuple):
    """One prefixed token format."""

    rule: str
    """The rule name reported for a match."""
    prefixes: tuple[bytes, ...]
    """Literal prefixes (case-sensitive)."""
    body: bytes
    """The pattern after the prefix: non-capturing groups and bounded quantifiers only."""
    source: str
    """Where the format is documented."""
    tail: bytes = KEY
    """A character class that may not follow the token."""
    plain: bool = False
    """The body may be a plain word (no digit, one case): skip the placeholder test for it."""
    before: bytes = b""
    """A fixed-width pattern that precedes the prefix and belongs to the token."""
    before_width: int = 0
    """The width of ``before``."""
    hook: str = ""
    """A finder in ``_mask_rules`` that locates the start (the prefix is a separator)."""


_T = Token

#: The table, in matching order within each trigger byte.
TOKENS: tuple[Token, ...] = (
    # --- LLM providers -----------------------------------------------------------------------
    _T("anthropic", (b"sk-ant-",), rb"(?:api|admin|oat|ort|sid)[0-9]{2}-" + KEY + rb"{32,400}",
       "Anthropic console and Claude OAuth tokens (api03, admin01, oat01, ort01); "
       "gitleaks:anthropic-api-key, anthropic-admin-api-key"),
    _T("openrouter", (b"sk-or-v1-",), HEX + rb"{64}", "OpenRouter docs: API keys (sk-or-v1-)"),
    _T("openai", (b"sk-proj-", b"sk-svcacct-", b"sk-admin-", b"sk-None-"), KEY + rb"{20,400}",
       "OpenAI project, service-account and admin keys; gitleaks:openai-api-key"),
    _T("openai", (b"sk-",), rb"(?!ant-|or-v1-)" + KEY + rb"{20,400}",
       "OpenAI legacy keys (T3BlbkFJ) and the sk- keys of OpenAI-compatible APIs "
       "(DeepSeek docs: sk- + 32 hex); gitleaks:openai-api-key"),
    _T("google_api_key", (b"AIza",), KEY + rb"{35}", "Google Cloud / Gemini API keys; "
       "gitleaks:gcp-api-key"),
    _T("google_oauth", (b"ya29.",), KEY + rb"{30,2000}",
       "Google Identity docs: OAuth 2.0 access tokens (ya29.)"),
    _T("google_oauth", (b"GOCSPX-",), KEY + rb"{28}",
       "Google Cloud docs: OAuth client secrets (GOCSPX-)"),
    _T("groq", (b"gsk_",), _ALNUM + rb"{52}", "Groq API keys; gitleaks:groq-api-key"),
    _T("xai", (b"xai-",), KEY + rb"{70,100}", "xAI docs: API keys (xai-)"),
    _T("perplexity", (b"pplx-",), _ALNUM + rb"{48}", "Perplexity API keys; "
       "gitleaks:perplexity-api-key"),
    _T("replicate", (b"r8_",), KEY + rb"{37}", "Replicate docs: API tokens (r8_)"),
    _T("langsmith", (b"lsv2_pt_", b"lsv2_sk_"), HEX + rb"{32}_" + HEX + rb"{10}",
       "LangSmith docs: personal and service keys (lsv2_pt_, lsv2_sk_)"),
    _T("pinecone", (b"pcsk_",), KEY + rb"{50,90}", "Pinecone docs: API keys (pcsk_)"),
    _T("huggingface", (b"hf_",), _ALNUM + rb"{34,38}", "Hugging Face user access tokens; "
       "gitleaks:huggingface-access-token", plain=True),
    _T("huggingface", (b"api_org_",), rb"[A-Za-z]{34,38}", "Hugging Face organization tokens; "
       "gitleaks:huggingface-organization-api-token", plain=True),
    _T("nvidia", (b"nvapi-",), KEY + rb"{64}", "NVIDIA API catalog docs: API keys (nvapi-)"),
    # --- clouds ----------------------------------------------------------------------------
    _T("aws_access_key_id", (b"AKIA", b"ASIA", b"ABIA", b"ACCA"), rb"[A-Z2-7]{16}",
       "AWS IAM unique-identifier prefixes; gitleaks:aws-access-token", tail=_ALNUM),
    _T("aws_access_key_id", (b"A3T",), rb"[A-Z0-9][A-Z2-7]{16}",
       "AWS IAM unique-identifier prefixes; gitleaks:aws-access-token", tail=_ALNUM),
    _T("aws_bedrock", (b"ABSK",), B64 + rb"{109,269}={0,2}", "Amazon Bedrock long-term API keys; "
       "gitleaks:aws-amazon-bedrock-api-key-long-lived", tail=_TAIL_B64),
    _T("aws_bedrock", (b"bedrock-api-key-",), rb"YmVkcm9jay5hbWF6b25hd3MuY29t" + B64
       + rb"{0,2000}={0,2}", "Amazon Bedrock short-term API keys; "
       "gitleaks:aws-amazon-bedrock-api-key-short-lived", tail=_TAIL_B64),
    _T("alibaba", (b"LTAI",), _ALNUM + rb"{12,28}", "Alibaba Cloud AccessKey IDs; "
       "gitleaks:alibaba-access-key-id"),
    _T("digitalocean", (b"dop_v1_", b"doo_v1_", b"dor_v1_"), HEX + rb"{64}",
       "DigitalOcean personal, OAuth and refresh tokens; gitleaks:digitalocean-pat"),
    _T("heroku", (b"HRKU-AA",), KEY + rb"{58}", "Heroku API keys (v2); gitleaks:heroku-api-key-v2"),
    _T("cloudflare", (b"v1.0-",), _ALNUM + rb"{24}-" + _ALNUM + rb"{146}",
       "Cloudflare Origin CA keys; gitleaks:cloudflare-origin-ca-key"),
    _T("vault", (b"hvs.",), KEY + rb"{90,120}", "HashiCorp Vault service tokens; "
       "gitleaks:vault-service-token"),
    _T("vault", (b"hvb.",), KEY + rb"{138,300}", "HashiCorp Vault batch tokens; "
       "gitleaks:vault-batch-token"),
    _T("databricks", (b"dapi",), HEX + rb"{32}(?:-[0-9])?", "Databricks personal access tokens; "
       "gitleaks:databricks-api-token"),
    _T("flyio", (b"fo1_",), KEY + rb"{43}", "Fly.io tokens; gitleaks:flyio-access-token"),
    _T("flyio", (b"fm1a_", b"fm1r_", b"fm2_"), B64 + rb"{100,2000}={0,3}",
       "Fly.io macaroon tokens; gitleaks:flyio-access-token", tail=_TAIL_B64),
    _T("supabase", (b"sbp_",), HEX + rb"{40}", "Supabase docs: personal access tokens (sbp_)"),
    _T("supabase", (b"sb_secret_",), KEY + rb"{30,60}",
       "Supabase docs: secret API keys (sb_secret_)"),
    _T("planetscale", (b"pscale_tkn_", b"pscale_pw_", b"pscale_oauth_"), rb"[A-Za-z0-9_=.-]{32,64}",
       "PlanetScale tokens and passwords; gitleaks:planetscale-api-token"),
    _T("pulumi", (b"pul-",), HEX + rb"{40}", "Pulumi access tokens; gitleaks:pulumi-api-token"),
    _T("doppler", (b"dp.pt.", b"dp.st.", b"dp.sa.", b"dp.ct."), _ALNUM + rb"{40,44}",
       "Doppler tokens; gitleaks:doppler-api-token"),
    _T("terraform", (b".atlasv1.",), rb"[A-Za-z0-9_=-]{60,70}",
       "Terraform Cloud API tokens; gitleaks:hashicorp-tf-api-token",
       before=_ALNUM + rb"{14}", before_width=14),
    _T("onepassword", (b"ops_eyJ",), B64 + rb"{250,4000}={0,3}", "1Password service-account "
       "tokens; gitleaks:1password-service-account-token", tail=_TAIL_B64),
    # --- source hosting, CI, registries ----------------------------------------------------
    _T("github", (b"ghp_", b"gho_", b"ghu_", b"ghs_", b"ghr_"), _ALNUM + rb"{36,255}",
       "GitHub token prefixes; gitleaks:github-pat, github-oauth, github-app-token",
       tail=rb"[A-Za-z0-9_]"),
    _T("github", (b"github_pat_",), rb"[A-Za-z0-9_]{22,255}", "GitHub fine-grained tokens; "
       "gitleaks:github-fine-grained-pat", tail=rb"[A-Za-z0-9_]"),
    _T("gitlab", (b"glpat-", b"gldt-", b"glrt-", b"glptt-", b"glcbt-", b"glimt-", b"gloas-",
                  b"glsoat-", b"glffct-", b"glagent-", b"glft-", b"glsa_", b"glcsa-"),
       rb"[A-Za-z0-9_-]{20,300}(?:\.[a-z0-9]{9,12})?", "GitLab token prefixes (docs: Token "
       "prefixes); gitleaks:gitlab-pat, gitlab-pat-routable, gitlab-runner-authentication-token"),
    _T("gitlab", (b"GR1348941",), KEY + rb"{20,40}", "GitLab runner registration tokens; "
       "gitleaks:gitlab-rrt"),
    _T("bitbucket", (b"ATBB",), rb"[A-Za-z0-9_=.-]{28,100}",
       "Atlassian docs: Bitbucket app passwords (ATBB)"),
    _T("atlassian", (b"ATATT3", b"ATCTT3"), rb"[A-Za-z0-9_=-]{100,300}",
       "Atlassian API tokens; gitleaks:atlassian-api-token"),
    _T("buildkite", (b"bkua_",), HEX + rb"{40}", "Buildkite docs: API access tokens (bkua_)"),
    _T("npm", (b"npm_",), _ALNUM + rb"{36}", "npm access tokens; gitleaks:npm-access-token"),
    _T("pypi", (b"pypi-AgE",), rb"[A-Za-z0-9_-]{50,2000}", "PyPI API tokens (macaroons for "
       "pypi.org / test.pypi.org); gitleaks:pypi-upload-token, detect-secrets:PypiTokenDetector"),
    _T("rubygems", (b"rubygems_",), HEX + rb"{48}", "RubyGems API keys; "
       "gitleaks:rubygems-api-token"),
    _T("docker", (b"dckr_pat_", b"dckr_oat_"), KEY + rb"{27,80}",
       "Docker docs: personal and organization access tokens"),
    _T("artifactory", (b"AKCp",), _ALNUM + rb"{69}", "JFrog Artifactory API keys; "
       "gitleaks:artifactory-api-key, detect-secrets:ArtifactoryDetector"),
    _T("clojars", (b"CLOJARS_",), rb"[a-z0-9]{60}", "Clojars deploy tokens; "
       "gitleaks:clojars-api-token"),
    _T("postman", (b"PMAK-",), HEX + rb"{24}-" + HEX + rb"{34}", "Postman API keys; "
       "gitleaks:postman-api-token"),
    # --- payment ---------------------------------------------------------------------------
    _T("stripe", (b"sk_live_", b"sk_test_", b"sk_prod_", b"rk_live_", b"rk_test_", b"rk_prod_"),
       _ALNUM + rb"{10,247}", "Stripe secret and restricted keys; gitleaks:stripe-access-token, "
       "detect-secrets:StripeDetector", tail=rb"[A-Za-z0-9_]"),
    _T("stripe", (b"whsec_",), _ALNUM + rb"{24,80}",
       "Stripe docs: webhook signing secrets (whsec_)",
       tail=rb"[A-Za-z0-9_]"),
    _T("square", (b"sq0atp-", b"sq0csp-", b"sq0idp-"), KEY + rb"{22,60}",
       "Square access tokens and OAuth secrets; gitleaks:square-access-token"),
    _T("square", (b"EAAA",), rb"[A-Za-z0-9_=+-]{56,100}", "Square access tokens; "
       "gitleaks:square-access-token", tail=_TAIL_B64),
    _T("shopify", (b"shpat_", b"shpca_", b"shppa_", b"shpss_"), HEX + rb"{32}",
       "Shopify access tokens and shared secrets; gitleaks:shopify-access-token"),
    _T("braintree", (b"access_token$production$", b"access_token$sandbox$"),
       rb"[0-9a-z]{16}\$" + HEX + rb"{32}", "Braintree docs: access tokens"),
    _T("razorpay", (b"rzp_live_", b"rzp_test_"), _ALNUM + rb"{14,40}",
       "Razorpay docs: API keys (rzp_live_, rzp_test_)"),
    # --- chat, mail, notifications ---------------------------------------------------------
    _T("slack", (b"xoxb-", b"xoxp-", b"xoxa-", b"xoxo-", b"xoxr-", b"xoxs-", b"xoxe-"),
       rb"(?:[0-9]{6,14}-){1,4}[A-Za-z0-9]{10,80}",
       "Slack bot, user and legacy tokens; gitleaks:slack-bot-token, slack-user-token"),
    _T("slack", (b"xoxa-", b"xoxr-"), rb"(?:[0-9]-)?[A-Za-z0-9]{8,48}",
       "Slack workspace tokens; gitleaks:slack-legacy-workspace-token"),
    _T("slack", (b"xoxe.xoxb-", b"xoxe.xoxp-", b"xoxe-"), rb"[0-9]-[A-Za-z0-9]{100,200}",
       "Slack configuration tokens; gitleaks:slack-config-access-token"),
    _T("slack", (b"xapp-",), rb"[0-9]-[A-Z0-9]{6,20}-[0-9]{6,20}-[a-z0-9]{32,80}",
       "Slack app-level tokens; gitleaks:slack-app-token"),
    _T("slack", (b"https://hooks.slack.com/", b"hooks.slack.com/"),
       rb"(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,120}",
       "Slack incoming webhooks; gitleaks:slack-webhook-url", tail=rb"[A-Za-z0-9+/_-]"),
    _T("discord", (b"discord.com/api/webhooks/", b"discordapp.com/api/webhooks/"),
       rb"[0-9]{17,20}/" + KEY + rb"{60,80}", "Discord docs: webhook URLs"),
    _T("teams", (b"webhook.office.com/webhookb2/",), rb"[A-Za-z0-9@/-]{60,300}",
       "Microsoft Teams incoming webhooks; gitleaks:microsoft-teams-webhook",
       tail=rb"[A-Za-z0-9@/-]"),
    _T("twilio", (b"SK",), HEX + rb"{32}", "Twilio API key SIDs; gitleaks:twilio-api-key",
       tail=_ALNUM),
    _T("sendgrid", (b"SG.",), rb"[A-Za-z0-9_=.-]{60,72}",
       "SendGrid API keys; gitleaks:sendgrid-api-token, detect-secrets:SendGridDetector"),
    _T("mailgun", (b"key-",), rb"[a-z0-9]{32}", "Mailgun private API keys; "
       "gitleaks:mailgun-private-api-token", plain=True),
    _T("mailchimp", (b"-us",), rb"[0-9]{1,2}", "Mailchimp API keys (32 lowercase hex, -us, "
       "data centre); gitleaks:mailchimp-api-key, detect-secrets:MailchimpDetector",
       before=rb"[a-f0-9]{32}", before_width=32, plain=True),
    _T("sendinblue", (b"xkeysib-",), HEX + rb"{64}-" + _ALNUM + rb"{16}", "Brevo (Sendinblue) "
       "API keys; gitleaks:sendinblue-api-token"),
    # --- observability, productivity -------------------------------------------------------
    _T("sentry", (b"sntrys_",), rb"eyJ[A-Za-z0-9+/=_]{60,600}", "Sentry organization tokens; "
       "gitleaks:sentry-org-token", tail=_TAIL_B64),
    _T("sentry", (b"sntryu_",), HEX + rb"{64}", "Sentry user tokens; gitleaks:sentry-user-token"),
    _T("grafana", (b"glc_",), B64 + rb"{32,400}={0,3}", "Grafana Cloud tokens; "
       "gitleaks:grafana-cloud-api-token", tail=_TAIL_B64),
    _T("grafana", (b"eyJrIjoi",), _ALNUM + rb"{70,400}={0,3}", "Grafana API keys; "
       "gitleaks:grafana-api-key", tail=_TAIL_B64),
    _T("newrelic", (b"NRAK-", b"NRII-", b"NRJS-"), rb"[A-Za-z0-9-]{19,32}", "New Relic keys; "
       "gitleaks:new-relic-user-api-key"),
    _T("dynatrace", (b"dt0c01.",), _ALNUM + rb"{24}\." + _ALNUM + rb"{64}", "Dynatrace API "
       "tokens; gitleaks:dynatrace-api-token"),
    _T("linear", (b"lin_api_",), _ALNUM + rb"{40}", "Linear API keys; gitleaks:linear-api-key"),
    _T("notion", (b"ntn_",), _ALNUM + rb"{46}", "Notion integration tokens; "
       "gitleaks:notion-api-token"),
    _T("notion", (b"secret_",), _ALNUM + rb"{43}",
       "Notion docs: internal integration tokens (secret_, before ntn_)"),
    _T("airtable", (b".",), HEX + rb"{64}", "Airtable personal access tokens; "
       "gitleaks:airtable-personnal-access-token", before=rb"pat" + _ALNUM + rb"{14}",
       before_width=17),
    _T("figma", (b"figd_",), KEY + rb"{40,60}", "Figma docs: personal access tokens (figd_)"),
    _T("dropbox", (b"sl.",), rb"[A-Za-z0-9_=-]{130,1400}", "Dropbox short-lived tokens; "
       "gitleaks:dropbox-short-lived-api-token"),
    _T("mapbox", (b"sk.eyJ",), rb"[A-Za-z0-9_=-]{50,120}\.[A-Za-z0-9_-]{20,30}",
       "Mapbox docs: secret access tokens (sk.eyJ)"),
    _T("typeform", (b"tfp_",), rb"[A-Za-z0-9_=.-]{59}", "Typeform tokens; "
       "gitleaks:typeform-api-token"),
    _T("age", (b"AGE-SECRET-KEY-1",), rb"[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
       "age identities (bech32); gitleaks:age-secret-key"),
    _T("openshift", (b"sha256~",), KEY + rb"{43}", "OpenShift OAuth access tokens; "
       "gitleaks:openshift-user-token"),
    _T("azure", (b"Q~",), rb"[A-Za-z0-9_~.-]{31,34}", "Microsoft Entra ID (Azure AD) client "
       "secrets; gitleaks:azure-ad-client-secret", tail=rb"[A-Za-z0-9_~.-]",
       before=rb"[A-Za-z0-9_~.]{3}[0-9]", before_width=4),
    # --- rows whose start a hook in _mask_rules finds (the prefix is a separator) ------------
    _T("telegram", (b":",), KEY + rb"{35}", "Telegram bot tokens (bot id, ':', 35 characters); "
       "gitleaks:telegram-bot-api-token, detect-secrets:TelegramBotTokenDetector", hook="bot_id"),
    _T("discord", (b".",), KEY + rb"{6,7}\." + KEY + rb"{27,40}", "Discord bot tokens (base64 "
       "of the bot id, '.', timestamp, '.', HMAC); detect-secrets:DiscordBotTokenDetector",
       hook="base64_id"),
    # --- JSON Web Tokens (last: other rows start with eyJ) -----------------------------------
    _T("jwt", (b"eyJ",), KEY + rb"{10,4000}\.e[wy]" + KEY + rb"{8,16000}(?:\." + KEY
       + rb"{0,4000})?", "JWS compact serialisation, base64url of '{\"' (RFC 7519, RFC 7515); "
       "gitleaks:jwt, detect-secrets:JwtTokenDetector", plain=True),
)  # fmt: skip
