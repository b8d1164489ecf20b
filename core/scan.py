"""The write safety scan (SPEC §7): every pattern that refuses a write lives here.

Rules go by shape, not by word: "ignore this requirement when offline" is ordinary talk about
rules and passes; "ignore all previous instructions" is aimed at the model and is refused.
Credentials are refused by the shape of their value: remember where a secret lives, never the secret.
"""

from __future__ import annotations

import re
from typing import NamedTuple


class Finding(NamedTuple):
    field: str
    kind: str
    fix: str

    def message(self) -> str:
        return f"Not saved: the {self.field} {self.kind}. {self.fix} Nothing was written."


_I = re.IGNORECASE

_INJECTION = [
    re.compile(
        r"\b(ignore|disregard|forget|override|bypass)\s+(all\s+|any\s+|the\s+|your\s+|every\s+)*"
        r"(previous|prior|above|earlier|preceding|system|original|existing)\s+"
        r"(instructions?|rules|prompts?|messages|directions|guidelines|context)",
        _I,
    ),
    re.compile(r"\bignore\s+(everything|all)\s+(you\s+were\s+told|above|before)", _I),
    re.compile(r"\byou\s+are\s+now\s+(a|an|in|the|my|no\s+longer|DAN|free|unrestricted|root|admin)\b", _I),
    re.compile(r"\bfrom\s+now\s+on,?\s+you\s+(will|must|are|should|shall)\b", _I),
    re.compile(r"\b(new|updated|real)\s+(system\s+)?instructions\s*:", _I),
    re.compile(r"\b(reveal|print|show|repeat|leak)\s+(me\s+)?(your|the)\s+(system\s+prompt|hidden\s+instructions)", _I),
    re.compile(r"\b(do\s+not|don't|never)\s+(tell|inform|show)\s+the\s+user\b", _I),
    re.compile(r"\bwithout\s+(telling|asking|informing)\s+the\s+user\b", _I),
    re.compile(r"\bjailbreak|\bDAN\s+mode\b|\bdeveloper\s+mode\s+enabled\b", _I),
    re.compile(r"(忽略|无视|忘记|忘掉|跳过)(掉)?(你)?(之前|以上|上面|前面|上述|先前|所有|全部|一切)(的)?(所有|全部)?(的)?(指令|指示|规则|提示词?|设定|要求|约束)"),
    re.compile(r"(你现在是|你将扮演|从现在开始，?你(要|必须|是|将|只能))"),
    re.compile(r"(新的|最新的|真正的)(系统)?指令\s*[:：]"),
    re.compile(r"(不要|别|不得)(告诉|通知|让)用户(知道)?"),
    re.compile(r"(泄露|输出|打印|显示)(你的)?(系统提示|系统指令|隐藏指令)"),
]

_ROLE_TAG = re.compile(
    r"<\s*/?\s*(system|instructions|assistant|developer|tool_call|im_start|im_end|sys)(\s+[^<>]{0,40})?\s*>"
    r"|<\|\s*(im_start|im_end|system|assistant|user|endoftext)\s*\|>|\[/?INST\]|<<\s*/?SYS\s*>>",
    _I,
)
_ROLE_OPENER = re.compile(r"^\s*(system|assistant|developer)\s*[:：]|^\s*(系统|助手)\s*[:：]", _I | re.MULTILINE)

_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u00ad\U000e0000-\U000e007f]")

_SECRET_SHAPES = [
    (re.compile(r"-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----"), "a private key"),
    (re.compile(r"\b(AKIA|ASIA)[0-9A-Z]{16}\b"), "an AWS access key"),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}\b|\bgithub_pat_[A-Za-z0-9_]{22,}"), "a GitHub token"),
    (re.compile(r"\bsk-(ant-|proj-|live-)?[A-Za-z0-9_\-]{20,}"), "an API key"),
    (re.compile(r"\b(sk|rk)_(live|test)_[0-9A-Za-z]{16,}"), "a Stripe key"),
    (re.compile(r"\bxox[abposr]-[A-Za-z0-9\-]{10,}"), "a Slack token"),
    (re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b"), "a Google API key"),
    (re.compile(r"\bglpat-[A-Za-z0-9_\-]{20,}"), "a GitLab token"),
    (re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"), "an npm token"),
    (re.compile(r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"), "a signed token (JWT)"),
    (re.compile(r"\bBearer\s+[A-Za-z0-9\-._~+/]{20,}=*", _I), "a bearer token"),
    (re.compile(r"\b[a-z][a-z0-9+.\-]*://[^/\s:@]+:[^@\s/]{3,}@", _I), "a URL with a password in it"),
]

# `password = hunter2x9`, `API_KEY: "a1b2…"`, `token=…`: a named secret followed by a literal value.
_ASSIGNED = re.compile(
    r"(?P<name>pass(word|wd)?|pwd|secret|api[_\-]?key|access[_\-]?key|private[_\-]?key|client[_\-]?secret|"
    r"auth[_\-]?token|access[_\-]?token|refresh[_\-]?token|token)\s*[:=]\s*['\"]?(?P<value>[^\s'\"`,;)]+)",
    _I,
)
_ASSIGNED_ZH = re.compile(r"(密码|口令|密钥|令牌)\s*(是|为|[:：=])\s*['\"“]?(?P<value>[A-Za-z0-9!@#$%^&*_\-+./=]{6,})")


def _literal_secret(value: str) -> bool:
    """A value that looks like the secret itself rather than a reference to where it lives."""
    if len(value) < 6 or value[0] in "$<{%[(" or "(" in value or value.startswith(("os.", "env.", "process.")):
        return False
    if "/" in value or value.startswith("~"):
        return False  # a path to where the secret lives
    if value.lower() in {"none", "null", "true", "false", "required", "optional", "redacted", "changeme"}:
        return False
    if set(value) <= {"*", "x", "X", "."}:
        return False
    has_digit = any(c.isdigit() for c in value)
    has_alpha = any(c.isalpha() for c in value)
    return (has_digit and has_alpha) or len(value) >= 16 or any(c in "!@#$%^&*" for c in value)


_CREDENTIAL_FIX = (
    "Remember where the secret lives (for example 'in 1Password under Shop API' or '$SHOP_API_KEY'), "
    "never its value; rewrite it without the value and save again."
)
_INJECTION_FIX = (
    "A memory is a note for later, not an order to the model; say it as a fact about the project "
    "(for example 'the team prefers …') and save again."
)


def scan_text(field: str, text: str) -> Finding | None:
    """The first reason `text` may not be stored, or None."""
    if not text:
        return None
    if _INVISIBLE.search(text):
        return Finding(
            field,
            "contains invisible or direction-changing Unicode characters",
            "Remove zero-width and bidi control characters (retype the text) and save again.",
        )
    if _ROLE_TAG.search(text):
        return Finding(field, "contains a fake role tag such as <system>", "Drop the tag; " + _INJECTION_FIX)
    if _ROLE_OPENER.search(text):
        return Finding(field, "opens a line as 'system:' (a fake role)", "Drop the role prefix; " + _INJECTION_FIX)
    for pattern in _INJECTION:
        if pattern.search(text):
            return Finding(field, "reads as an instruction aimed at the model (prompt injection)", _INJECTION_FIX)
    for pattern, what in _SECRET_SHAPES:
        if pattern.search(text):
            return Finding(field, f"contains what looks like {what}", _CREDENTIAL_FIX)
    for m in _ASSIGNED.finditer(text):
        if _literal_secret(m.group("value")):
            return Finding(field, f"contains what looks like a {m.group('name').lower()} value", _CREDENTIAL_FIX)
    zh = _ASSIGNED_ZH.search(text)
    if zh and _literal_secret(zh.group("value")):
        return Finding(field, "contains what looks like a password value", _CREDENTIAL_FIX)
    return None


def scan_fields(fields: dict[str, str]) -> Finding | None:
    """Scan every field in order; the first finding wins (one `unsafe` answer per save)."""
    for name, text in fields.items():
        found = scan_text(name, text)
        if found:
            return found
    return None
