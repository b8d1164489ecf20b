"""Text analysis and ranking for lexical search: English words and CJK bigrams, field weights, and
the bonuses BM25 alone does not give (every query term present, adjacent query terms).

The index itself lives in SQLite FTS5 next to each layer (`core/index.py`); it stores the text as
this module analyses it, so what counts as a word, and how hits are ordered, stays ours. See
`docs/search.md`.
"""

from __future__ import annotations

import math
import re
import string
from bisect import bisect_right
from functools import lru_cache
from typing import Any

_WORD = re.compile(r"[0-9a-z_]+(?:[.\-+#][0-9a-z_]+)*")


# Compiled on first use: their wide character ranges cost the recall hook ~3 ms to compile on every
# start, and an English text (`str.isascii`) never needs them.
@lru_cache(maxsize=None)
def _script(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _cjk_runs(text: str) -> list[str]:
    """Runs of Chinese, Japanese or Korean characters."""
    return [] if text.isascii() else _script(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]+").findall(text)


def han_runs(text: str) -> list[str]:
    """Runs of Chinese characters."""
    return [] if text.isascii() else _script(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+").findall(text)
# Function words: Snowball's English stop list, less the words that carry meaning in engineering
# text ("up", "down", "off", "out", "over", "under", "before", "after", "again", "more", "few",
# "same", "only", "other", "once", "between", "against", "during", "until"), and the fillers of a
# chat message. A prompt's filler words diluted its share of information: "my PR got blocked because
# fewer lines are tested now" held 8 terms, of which a note on coverage could share 2.
_STOP = frozenset(
    "a about am an and are as at be been being both but by can could did do does doing each for from further had has "
    "have having he her here hers herself him himself his how i if in into is it its itself me my myself no nor not "
    "of on or ought our ours ourselves own please she should so some such than that the their theirs them themselves "
    "then there these they this those through to too very was we were what when where which while who whom why will "
    "with without would you your yours yourself yourselves "
    "also any anybody anyone anything anyway everybody everyone everything get gets getting got just nothing now ok okay really someone something still thanks up "
    # what a contraction leaves after its apostrophe ("I'll", "we've", "they're", "don't"): no word of the message
    "ll ve re don doesn didn isn aren wasn weren won shouldn couldn wouldn haven hasn hadn".split()
)

# Chinese function words as bigrams: they say how something is asked, not what.
_STOP_ZH = frozenset(
    "怎么 什么 哪里 哪个 如何 为什么 可以 需要 应该 一下 这个 那个 这些 那些 我们 你们 他们 是否 还是 有没 没有 多久 "
    "怎样 么样 是什 为什 么办 请问 帮我 一个 有什 时候 的时 之前 之后 以后 现在 的话 是不 不是 期间 吗 呢 "
    # the frames of "where": "放在哪里", "发到哪", "存到哪儿"
    "在哪 到哪 去哪 哪儿 放在 放到 发到 存到 "
    # words that say how much or how sure, not what: "医院一般几点上班", "一共卖了多少", "到底怎么回事"
    "一般 通常 平时 大概 大约 一共 总共 具体 到底 究竟 其实 "
    # the frames of "what for": "Redis 用来干什么", "这个表是做什么用的" (pairs: what is cut in two is never a term)
    "用来 来干 干什 来做 做什 么用 干嘛 干啥 啥用 "
    # a lone character between English words joins them ("Redis 和 Memcached 哪个好")
    "和 与 及 或 的 了 是 在 把 被 给 也 都 就 还 跟 对 从 到 让 吧 啊 用".split()
)

# The words 了 belongs to; any other pair holding it is a verb and its particle's seam (签了, 挂了 of 中签了, 网关挂了),
# as a pair holding 的 is.
_LIAO = frozenset("了解 为了 除了 了结".split())
# A one-character verb of speech and the two-character word a note writes for it: "能退吗" asks about 退货 and 退款,
# "删掉" is 删除, "搜到" 搜索, "约不了" 预约. It stands for them where speech uses it alone: after a modal, a negation or a
# person, or before a result, a particle or 不 (删掉, 装不上), as no pair of a note's compound is.
_FORMAL_ZH = {"退": ("退货", "退款"), "删": ("删除",), "搜": ("搜索",), "改": ("修改",), "查": ("查询",), "装": ("安装",),
              "换": ("更换",), "登": ("登录",), "传": ("上传",), "付": ("支付", "付款"), "存": ("保存", "存储"), "关": ("关闭",),
              "停": ("停止",), "买": ("购买",), "修": ("修复", "维修"), "充": ("充值",), "约": ("预约",), "订": ("预订",),
              "赔": ("赔偿",)}
_SPOKEN_BEFORE = frozenset("能想要会该得不没别都就再先去来我你他她们谁把给帮请怎可以已")  # (谁: "找谁修" asks who repairs)
_SPOKEN_AFTER = frozenset("掉到了完好过吗呢吧一不错成走回下上给着啊")
_HOW_MUCH = frozenset("多几")
# What follows 了 and starts the next phrase rather than finishing the verb ("岁了想学车", "付了就走").
_NOT_OBJECT = frozenset("想要就才又再还也都不没一个很我你他她它这那吗呢吧啊哦呀的得地在是会能可以后")

# The index's columns, in order, with their BM25 weights.
FIELDS = ("title", "summary", "when", "body", "conditions")
FIELD_WEIGHTS = (3.0, 2.0, 1.0, 1.0, 1.0)
# A record that holds every query term, or two query terms side by side, outranks one that repeats a
# single term: BM25 alone scores "deploy deploy deploy" above "deploy staging" for "deploy staging".
ALL_TERMS_BONUS = 2.0
PHRASE_BONUS = 1.5
# Two query terms close together but not side by side ("deploy the api to staging" for "deploy
# staging") say more than the same terms paragraphs apart: half the phrase bonus within this many words.
PROXIMITY_BONUS = 0.75
PROXIMITY = 4


@lru_cache(maxsize=1)
def _stemmer() -> Any:
    """The Snowball English stemmer (PyStemmer, C: about 1 ms to load, so recall can afford it)."""
    import Stemmer

    return Stemmer.Stemmer("english")


# A model name's plural ("A100s", "t3s", "ec2s") is the name; "k8s" is a name of its own.
_NAMED_PLURAL = re.compile(r"[a-z]+\d+s")


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    if not word.isalpha():
        return word[:-1] if word != "k8s" and _NAMED_PLURAL.fullmatch(word) else word
    return _stemmer().stemWord(word)


# Engineers write the same thing short and long ("db" and "database", "PR" and "pull request"):
# each spelling is one term, the short one, so a prompt finds a note whichever it uses.
_SHORT = {long: short for short, longs in {
    "db": "dbs database databases", "repo": "repos repository repositories", "config": "configs cfg configuration configurations",
    "env": "envs environment environments", "prod": "production", "k8s": "kube kubernetes",
    "dep": "deps dependency dependencies", "doc": "docs documentation", "perf": "performance",
    "auth": "authn authz authentication authorization authorisation", "pr": "prs", "js": "javascript", "ts": "typescript",
    "pkg": "pkgs package packages", "img": "imgs image images", "admin": "admins administrator administrators",
    "app": "apps application applications", "info": "information", "i18n": "internationalization internationalisation",
    "l10n": "localization localisation", "a11y": "accessibility", "2fa": "mfa two-factor multi-factor", "e2e": "end-to-end",
    "arg": "args argument arguments", "param": "params parameter parameters", "0": "zero zeros zeroes",
    # an uninterruptible power supply, which Snowball would make "up"
    "ups": "ups",
}.items() for long in longs.split()}
# Irregular verbs, whose past forms Snowball cannot bring back to the verb ("sent" is not "send").
_IRREGULAR = {form: verb for verb, forms in {
    "arise": "arose arisen", "begin": "began begun", "bind": "bound", "break": "broke broken", "bring": "brought",
    "build": "built", "buy": "bought", "catch": "caught", "choose": "chose chosen", "come": "came", "dig": "dug",
    "draw": "drew drawn", "drive": "drove driven", "eat": "ate eaten", "fall": "fell fallen", "feed": "fed", "feel": "felt",
    "fight": "fought", "find": "found", "fly": "flew flown", "forbid": "forbade forbidden", "forget": "forgot forgotten",
    "freeze": "froze frozen", "give": "gave given", "go": "went gone", "grow": "grew grown", "hang": "hung",
    "hear": "heard", "hide": "hid hidden", "hold": "held", "keep": "kept", "know": "knew known", "lead": "led",
    "lend": "lent", "lose": "lost", "make": "made", "mean": "meant", "meet": "met",
    "override": "overrode overridden", "pay": "paid", "rebuild": "rebuilt", "rerun": "reran", "rewrite": "rewrote rewritten",
    "ride": "rode ridden", "ring": "rang rung", "rise": "rose risen", "run": "ran", "say": "said", "see": "seen",
    "seek": "sought", "sell": "sold", "send": "sent", "shake": "shook shaken", "shoot": "shot", "show": "shown",
    "shrink": "shrank shrunk", "sing": "sang sung", "sink": "sank sunk", "sit": "sat", "sleep": "slept", "slide": "slid",
    "speak": "spoke spoken", "spend": "spent", "spin": "spun", "stand": "stood", "steal": "stole stolen", "stick": "stuck",
    "strike": "struck", "swear": "swore sworn", "swim": "swam swum", "swing": "swung", "take": "took taken",
    "teach": "taught", "tear": "tore torn", "tell": "told", "think": "thought", "throw": "threw thrown",
    "understand": "understood", "undo": "undid undone", "wake": "woke woken", "wear": "wore worn", "win": "won",
    "withdraw": "withdrew withdrawn", "write": "wrote written",
}.items() for form in forms.split()}
_LISTED_LANGUAGES = (r"(english|welsh|irish|gaelic|german|french|spanish|catalan|basque|italian|portuguese|dutch|polish|swedish|danish|norwegian|"
                     r"finnish|russian|ukrainian|turkish|arabic|hebrew|hindi|urdu|bengali|punjabi|japanese|korean|chinese|mandarin|cantonese|"
                     r"vietnamese|thai|indonesian|malay|czech|greek|romanian|hungarian)")
_COUNTRIES = (r"(france|germany|spain|italy|portugal|ireland|belgium|netherlands|holland|switzerland|austria|poland|denmark|norway|sweden|"
              r"finland|greece|turkey|croatia|czechia|hungary|romania|the us|the usa|america|canada|mexico|brazil|argentina|japan|korea|"
              r"china|india|thailand|vietnam|singapore|malaysia|indonesia|australia|new zealand|egypt|morocco|south africa|dubai|the uae)")
_LANGUAGE_NAMES = (r"(english|german|french|spanish|italian|portuguese|dutch|polish|swedish|danish|norwegian|finnish|russian|ukrainian|turkish|"
                   r"arabic|hebrew|hindi|japanese|korean|(simplified |traditional )?chinese|vietnamese|thai|indonesian|czech|greek)")
# ... and phrases with their abbreviation ("single sign-on" and "SSO"; "arrival time" and "ETA").
_COMPARATIVES = {"louder": "loud", "loudest": "loud", "quieter": "quiet", "quietest": "quiet", "slower": "slow", "slowest": "slow",
                 "faster": "fast", "fastest": "fast", "cheaper": "cheap", "cheapest": "cheap", "bigger": "big", "biggest": "big",
                 "smaller": "small", "smallest": "small", "larger": "large", "largest": "large", "heavier": "heavy",
                 "darker": "dark", "brighter": "bright", "warmer": "warm", "colder": "cold", "hotter": "hot", "busier": "busy",
                 "wider": "wide", "narrower": "narrow", "safer": "safe", "weaker": "weak", "stronger": "strong",
                 "older": "old", "oldest": "old", "younger": "young", "youngest": "young", "longer": "long", "longest": "long",
                 "shorter": "short", "shortest": "short", "higher": "high", "highest": "high"}
# The stretches of time "last" names when it says when (`_PHRASE_SHORT`).
_LAST_UNITS = ("night", "week", "weekend", "month", "year", "time", "summer", "winter", "spring", "autumn", "monday", "tuesday",
               "wednesday", "thursday", "friday", "saturday", "sunday", "quarter", "evening")
_PHRASE_SHORT = {
    r"(pull|merge) requests?": "pr", r"continuous integration": "ci", r"command[ -]line": "cli", r"single sign[ -]?on": "sso",
    r"time[ -]to[ -]live": "ttl", r"service[ -]level agreements?": "sla", r"estimated time of arrival|estimated arrivals?( times?)?|arrival times?|arrival estimates?": "eta",
    r"end[ -]of[ -]life": "eol", r"out[ -]of[ -]memory": "oom", r"proofs? of concept": "poc", r"mean time to (recovery|repair|restore)": "mttr",
    r"recovery point objective": "rpo", r"recovery time objective": "rto", r"point[ -]in[ -]time recovery": "pitr",
    r"text messages?": "sms", r"(message|event|service|enterprise service) bus(es)?": "broker",
    r"(thumb|flash|pen) ?drives?|(usb|memory) sticks?": "usb",
    r"(no|without|without any|lost|losing|loses) (internet|connection|connectivity|signal|network|reception)( connection| access)?": "offline",
    # a person on a plane, in airplane mode or underground has no network ("a courier in a basement can't …")
    r"(on|in) (a|the) (plane|flight|airplane|aeroplane|basement|tunnel|lift|elevator|underground car park|parking garage|subway|metro|tube|train)"
    r"|(airplane|aeroplane|flight) mode": "+offline",
    # a phone that dies has run out of battery ("couriers complain their phones die halfway through a shift")
    r"(phone|phones|device|devices|tablet|tablets|handset|handsets)( \w+){0,2} (die|dies|died|dying|drain|drains|drained|draining)": "+battery",
    # what one wants to get rid of is removed ("get rid of the --legacy flag")
    r"(get|gets|getting|got) rid of": "+remove",
    r"forg[eo]t(ten)? (my |their |his |her |the |a |your )?(password|passcode|login|pin)s?": "password reset",
    r"(speeding|parking|traffic) (tickets?|fines?)": "fine", r"crash(ed|es|ing)? into": "accident",
    # another driver running into one's car ("someone reversed into me at a roundabout")
    r"(reversed|backed|bumped|drove|ran|smashed|ploughed|plowed|rear-ended) into (me|us|my car|our car|the back of)|rear-ended": "+accident",
    r"fill(ed|s|ing)? up (the |their |his |her |my )?(tank|car)": "refuel",
    # everyday words for a death, and a pet's ("passed away", "was put to sleep")
    r"pass(ed|es|ing)? away": "die", r"put to sleep": "euthanasia",
    # moving work to production is deploying it ("how do I get my change onto production"); the words stay
    r"(get|gets|getting|got|put|puts|putting|push|pushes|pushing|pushed|ship|ships|shipping|shipped|move|moves|moving|moved)"
    r"( \w+){0,3} (on|onto|to|into|out to) (the )?(production|prod|live)( site| server| servers| environment)?"
    # ... and so is getting it live ("how do I get my change live on the portal")
    # (the work, not what it publishes: "can a reporter push a story live" is about publishing)
    r"|(get|gets|getting|got|put|puts|putting|push|pushes|pushing|pushed|take|takes|taking|took) ((my|the|this|that|our|your|his|her|their|a|an)( \w+){0,2} "
    r"(change|changes|fix|fixes|code|feature|features|branch|pr|release|update|build|version|commit|commits|patch|hotfix)|it|them) live\b": "+deploy",
    # a homeowners association is its abbreviation ("the homeowners association still hasn't replied")
    r"home ?owners'? associations?|home ?owner associations?": "hoa",
    # water where it should not be is a leak ("there's a water stain on my ceiling right under the panels")
    r"water (stains?|marks?|damage|dripping|drips|coming (in|through))|(ceiling|roof|wall)s? (is |are |was |were )?(dripping|wet|damp)": "+leak",
    # a rating a customer leaves is a review ("when should we ask the customer to rate us online")
    # ("us" is gone by then: the pronoun is read as no word)
    r"\b(ask|asks|asked|asking|get|gets|getting|invite|invites|invited|inviting|remind|reminds|reminded|reminding) (\w+ ){1,3}to rate\b"
    r"|rat(e|es|ed|ing) our (app|shop|store|service|business|company|practice|clinic|restaurant|hotel)"
    r"|(leave|leaves|left|leaving|give|gives|gave|giving)\s+(us\s+)?an? (rating|star rating)": "+review",
    # what is thrown away is waste ("how much food did we throw away")
    r"(throw|throws|threw|thrown|throwing) (\w+ ){0,3}(away|out)|binned": "waste",
    # what was deleted by mistake, or is wanted back, is restored from a backup
    r"(accidentally|by mistake) (deleted|removed|dropped|overwrote|overwritten|wiped)|(deleted|removed|dropped|overwrote|overwritten|wiped)"
    r"( \w+){0,6} (by accident|by mistake|accidentally)|(get|getting|bring|bringing|recover|recovering) back (a |the |my |our |an? )?(deleted |lost )?"
    r"(file|files|data|document|documents|doc|docs|email|emails|photo|photos|table|database)"
    r"|(get|getting|bring|bringing|recover|recovering) (a |the |my |our |their |his |her )?(\w+'s |deleted |lost |old |previous )?"
    r"(version|copy|data|file|files|notes?|work|database|db|documents?) back": "+restore backup",
    # what fails now and then is flaky ("a test fails randomly", "the deploy sometimes breaks")
    r"(fail|fails|failed|failing|break|breaks|broke|breaking|crash|crashes|crashed|crashing)( \w+){0,3} (randomly|at random|intermittently|"
    r"sporadically|occasionally|sometimes|now and then)|(randomly|intermittently|sporadically|occasionally|sometimes) "
    r"(fail|fails|failed|failing|break|breaks|broke|breaking|crash|crashes|crashed|crashing)": "+flaky",
    # text wanted in another language is a translation ("the button label needs to be in German too")
    r"(in|into) (german|french|spanish|italian|portuguese|dutch|polish|swedish|danish|norwegian|finnish|russian|ukrainian|turkish|arabic|hebrew|"
    r"hindi|japanese|korean|chinese|vietnamese|thai|indonesian)|(a|an|the) (german|french|spanish|italian|portuguese|dutch|polish|"
    r"swedish|russian|turkish|arabic|japanese|korean|chinese) (version|translation)": "+translation",
    # the holiday by its English names, which are one term: its three words had counted as three of a
    # question's terms, "do we work during Chinese New Year" holding a quarter of the note on 春节
    r"(chinese|lunar) new year|spring festival": "holiday",
    # an app that closes by itself crashes; a submission turned down is rejected; night mode is dark mode
    r"(keeps|kept|keep) (closing|quitting|shutting down)|(closes|closed|quits|quit|shuts down|shut down) (by )?itself|force[ -]clos\w*": "+crash",
    r"(turned|turns|turn|turning) down (our|my|the|their|your|a|an|this|that)( \w+){0,2} (submission|request|application|proposal|app|build|"
    r"update|release|change|pr|offer|claim)s?": "+reject",
    r"night mode|night theme": "+dark",
    # an amount far above its usual is high ("my bill is twice what it usually is")
    r"(twice|double|triple|three times|much higher than|way higher than|higher than) (what it usually is|what it normally is|usual|normal|it should be|last month)"
    r"|(twice|double|triple) (as much|as high|the usual|the normal)": "+high",
    # a pipe that bursts leaks ("a burst pipe under the house")
    r"burst (pipe|pipes|main|mains|hose|tank)|(pipe|pipes|main|mains|hose) (burst|bursts|broke|cracked|split)": "+leak",
    # what was left without paying is unpaid ("a tenant moved out without paying")
    r"without paying|(didn't|did not|hasn't|has not|haven't|have not|never) (pay|paid)": "+unpaid",
    # the database everything writes to is the primary ("can my dashboard query the main database")
    r"(main|master|production|prod) (database|db)": "+primary",
    # an account number names the bank account ("I changed my IBAN")
    r"\biban|routing number|sort code": "+bank",
    # all a body holds about a person, asked for, is a subject access request ("an employee wants everything we hold about her")
    r"(everything|all the data|all data|all the information|what data|what information|a copy of (the |all )?data) (we|you|they|the company) "
    r"(hold|have|keep|store|stored|collect|collected)( \w+)? (about|on|of) (me|him|her|them|us|my|his|their)": "+access request dsar",
    # money wanted in a currency names it ("wants his salary in dollars")
    r"\bin (dollars|euros|pounds|yen|yuan|rmb|usd|eur|gbp|jpy|cny|swiss francs|francs|rupees|pesos)\b": "+currency",
    # ads aimed at one person are personalised ("targeted ads"); "target" alone is a goal or a build's
    r"targeted (ads?|advertising|advertisements?|marketing|offers?|campaigns?)": "+personalised",
    # the same run giving other numbers is a run that is not reproducible: its seed ("ran it twice and got
    # different numbers", "different results every time")
    r"(twice|again|two times|each time|every time|every run|each run)( \w+){0,4} (different|other|inconsistent|varying) (numbers|results|output|outputs|values|answers|scores|metrics)"
    r"|(different|inconsistent|varying) (numbers|results|output|outputs|values|answers|scores|metrics) (each|every) (time|run)"
    r"|(different|varies|vary|changes) (each|every) time (i|we|you|it)? ?(re-?run|run)s?\b": "+seed nondeterministic",
    # a job, process or worker that dies fails ("how will I know when my job dies")
    r"(job|jobs|process|processes|worker|workers|pod|pods|container|containers|server|servers|script|build|task|tasks|node|nodes|run|runs)"
    r"( \w+){0,2} (die|dies|died|dying)": "+fail crash",
    # a site that is down has an outage ("the site is down, what do I do first")
    r"(site|website|app|service|server|servers|api|prod|production|database|db|checkout|shop|store|platform|system|portal) (is|was|are|were|went|goes|has gone) (completely |totally )?down": "+outage incident",
    # ... and so has one that has been broken for a while ("checkout has been broken for 10 minutes")
    r"(site|website|app|service|server|servers|api|prod|production|database|db|checkout|shop|store|login|payments) (has|have) been "
    r"(completely |totally )?(down|broken|unreachable|not working)": "+outage incident",
    # an order that did not go out was not shipped ("I ordered at 3 pm, why didn't it go out today")
    r"(order|orders|parcel|parcels|package|packages|box|shipment|it|they)( \w+){0,3} (go|goes|went|gone|going) out( today| yet| on time)?": "+ship",
    # running a job again over a stretch of the past is a backfill ("can I rerun the last three months of the orders DAG")
    r"(rerun|re-run|reprocess|re-process|replay|recompute|reload|re-load)(s|ing|ed)? (\w+ ){0,3}(last|past|previous|prior|whole|entire|old) "
    r"(\w+ )?(days?|weeks?|months?|quarters?|years?|history)|(last|past|previous) (\w+ )?(days?|weeks?|months?|years?) again": "+backfill",
    # ... and so is filling a column for the rows there are ("fill a new column for 40 million rows", "add a column and fill
    # it for every row")
    r"(fill|fills|filled|filling|populate|populates|populated|populating) (in )?(a |the |that |this )?(new )?(columns?|fields?)\b"
    r"|(fill|fills|filled|filling|populate|populates|populated|populating) (in )?(it|them)( in)? (for|on|across|in) "
    r"(every|each|all|all the|the existing|existing|old|the old) (\w+ )?(rows?|records?)": "+backfill",
    # a present is a gift ("will my mom see how much I paid for her present")
    # ("the present state" is the current one: a present is a gift only at the end of its phrase)
    r"(my|her|his|their|your|our|a|the|birthday|christmas|wedding) presents?(?=\s*([.,;:!?)]|$| (for|from|to|and|or|is|was|were|that|with|arrived|came)\b))": "+gift",
    # a card or payment the bank declines is a failed payment ("a subscriber's card got declined, what happens now")
    r"(card|cards|payment|payments|charge|charges|transaction|transactions|direct debit)( (was|were|is|are|got|gets|get|keeps|kept|has|have|had|been|being|getting)){0,3} "
    r"(declined|rejected|refused|bounced)|(declined|rejected|refused|bounced) (card|payment|charge|transaction|direct debit)s?"
    r"|(card|payment|charge|transaction)s? (did ?n't|did not|does ?n't|does not|won't|will not) go through": "+payment fail",
    # a place down the road is near, and nothing is down ("a café down the road wants to buy our coffee")
    r"(just |right )?(down|up) the (road|street)(?! (from|to) (production|prod|release))": "near",
    # an appointment missed is a no-show ("this patient has missed two appointments already")
    r"(missed|misses|miss|missing|skipped|skips|skip) (\w+ ){0,3}(appointments?|bookings?|sessions?|visits?|lessons?|classes|check-?ups?)"
    r"|(did ?n't|did not|never|does ?n't|does not|do ?n't|do not) (show|shows|showed|shown|turn|turns|turned) up": "+no-show",
    # where one leaves a car is parking ("where can I leave my car")
    r"(leave|leaves|left|leaving) (my|the|our|your|his|her|their) (car|bike|van|truck|vehicle|scooter|motorbike)": "+park",
    # a sport named is sport ("my daughter plays hockey for the school": sports mouthguards)
    r"\b(football|soccer|hockey|rugby|basketball|lacrosse|baseball|boxing|karate|judo|taekwondo|netball|volleyball|handball|cricket|tennis|squash|"
    r"martial arts|wrestling|skateboarding|mountain biking)\b": "+sport",
    # languages listed are languages ("The app is in English, Welsh and Polish" for "what languages is the app in")
    rf"\b{_LISTED_LANGUAGES}(, {_LISTED_LANGUAGES})*,? (and|or) {_LISTED_LANGUAGES}\b": "+language",
    # a collection nobody came for was missed ("nobody came for my bin on Tuesday")
    r"(nobody|no one|no-one) (came|come|turned up|showed up)": "miss",
    # furniture by its pieces ("I want to get rid of an old sofa")
    r"\b(sofas?|couch|couches|settees?|wardrobes?|armchairs?|mattress|mattresses|bookcases?|dressers?|chests? of drawers|bed frames?|dining tables?)\b": "+furniture",
    # what is dumped in a public place is fly-tipped ("someone dumped a mattress in our lane")
    r"(dump|dumps|dumped|dumping)( \w+){1,3} (in|on|by|outside|behind|next to) (our|the|my|a) (lane|street|road|alley|verge|field|park|pavement|footpath|layby)": "+fly-tipping",
    # a bank holiday by its name ("it's Easter Monday, will my bins still be emptied")
    r"easter monday|good friday|boxing day|whit monday|may day|spring bank holiday|summer bank holiday|august bank holiday": "+bank holiday",
    # keeping a thing longer extends it ("can I keep the car till Tuesday", "keep the room an extra night")
    r"\bkeep (it|them|the \w+|my \w+|our \w+)( \w+)? (till|until|for another|for an extra|for a few more|an extra|another|longer|for longer)\b": "+extend extension",
    # a car that will not start has broken down ("the car won't start in a car park")
    r"\b(car|van|vehicle|engine|truck|it) (won't|will not|wouldn't|would not|doesn't|does not|didn't|did not|can't|cannot) (start|turn over)\b": "+breakdown",
    # more than one was given than was booked: an upgrade ("they gave me a bigger car than I booked")
    r"\b(bigger|larger|better|nicer|fancier) (\w+ )?than (i|we|they|he|she|you) (booked|ordered|paid for|reserved|asked for)\b": "+upgrade",
    # where a thing is now is its location ("can I see where a customer's car is right now")
    r"\bwhere ([\w'’]+ ){0,3}(is|are)(?= (right now|now|at the moment|currently)\b)": "+location",
    # a figure that halves has dropped ("bookings suddenly halved")
    r"\b(halved|plunged|plummeted|nosedived|tanked|cratered)\b": "+drop",
    # a country named is abroad ("can we drive the hire car to France")
    rf"\b(to|in|into|from|across|through|around) {_COUNTRIES}\b": "+abroad country",
    # handing work in submits it ("can I hand in my dissertation on Sunday night")
    r"\b(hand|hands|handed|handing) (it |them |this |that |my \w+ |our \w+ |the \w+ )?in\b": "+submit submission",
    # Saturday and Sunday are the weekend ("on Sunday night" for "never on a weekend")
    r"\b(saturdays?|sundays?)\b": "+weekend",
    # academic misconduct is cheating, most of it plagiarism ("suspected misconduct goes to the academic integrity officer")
    r"\bacademic (misconduct|dishonesty|integrity|offences?)\b": "+plagiarism cheating",
    # work copied from elsewhere is plagiarised ("a student copied half his essay from a website")
    r"\b(copied|copying|copies|copy|lifted|pasted) (\w+ ){0,4}from (a |the |another |someone's |some )?(website|web ?site|internet|web|wikipedia|online|"
    r"student|classmate|friend|book|paper|essay|source)s?\b": "+plagiarism",
    # seeing a thing again is its recording ("I missed Tuesday's lecture, can I watch it again")
    r"\b(watch|watching|see|view|listen to|catch up on) (it|them|the \w+|that \w+) again\b|\bre-?watch\w*": "+recording",
    # a mark or a decision thought unfair is appealed ("I think my mark is unfair")
    r"\b(mark|marks|grade|grades|decision|result|results|score|fine|penalty|ban) (is|are|was|were|seems?|feels?) (unfair|wrong|too low|too harsh|unjust)\b": "+appeal",
    # a site that crashed is an outage ("the site crashed halfway through the exam")
    r"\b(site|website|app|platform|service|server|system|portal|vle|moodle) (crashed|crashes|went offline|stopped working|froze|died)\b": "+outage",
    # what it costs for someone to come at all is a call-out ("how much just for you to turn up")
    r"\bfor (you|someone|somebody|a plumber|an engineer|a technician|the engineer|the plumber) to (turn up|show up|come out|come round|come over|visit)\b": "+call-out visit",
    # stars given are a rating ("can I ask the customer for five stars")
    r"\b(five|5|four|4|one|1)[ -]stars?\b": "+review rating",
    # an appointment moved is rescheduled ("I need to move my appointment to next week")
    r"\b(move|moving|moved|push|pushing|pushed|shift|shifting|shifted) (my|the|our|your|his|her|their|this|that) (appointment|booking|visit|slot|session|lesson|reservation)\b": "+reschedule",
    # the water turned off is the stopcock's ("where do I turn the water off")
    r"\b(turn|turning|shut|shutting|switch|switching) (the |my |our )?(water|mains water|water supply) off\b|\b(turn|shut|switch)(ing)? off (the |my |our )?(water|mains water|water supply)\b": "+stopcock",
    # out of hours is the night and the weekend ("it's 10 at night, who do I ring" for "out of hours, calls go to …")
    r"(out of|after|outside( of)?( our| the)?( office| opening| working| business| surgery| clinic)?) hours": "+night weekend",
    # saying goodbye to a pet is putting it to sleep ("it's time to say goodbye to our old dog")
    r"(say|says|said|saying) goodbye to (my|our|his|her|their|the) (old |elderly |sick |poor |beloved )?(dog|cat|pet|rabbit|horse|pony)": "+euthanasia",
    # ringing someone is calling them ("who do I ring", "ring the surgery")
    r"\b(who|what number|which number) (do|should|can|could|shall) (i|we) (ring|phone)\b"
    r"|\bring (us|them|me|him|her|the (office|clinic|surgery|vet|practice|helpline|hotline|school|council|depot|station|hospital|pharmacy))\b": "+call",
    # false teeth are dentures ("grandpa lost his false teeth")
    r"false teeth": "dentures",
    # what one gives a person is a gift ("my mum wants to give my dad a year of coffee", "buy my sister a voucher")
    r"(give|gives|gave|giving|buy|buys|bought|buying|get|gets|got|getting) (my|her|his|their|your|our) (mum|mom|mother|dad|father|parents|"
    r"wife|husband|partner|girlfriend|boyfriend|friend|sister|brother|son|daughter|grandma|grandmother|gran|grandpa|grandfather|aunt|uncle|"
    r"boss|colleague|teacher|niece|nephew|kids?|children|in-laws) (a|an|some|one|two|three|six|twelve|\d+)\b": "+gift",
    # wanting out of a club or plan is cancelling it ("I joined the club last month and want out")
    r"(want|wants|wanted|wanting) out|(get|getting|got) (me )?out of (the |my |this |our |a )?(club|plan|contract|subscription|membership)": "+cancel",
    # what is sent back is returned ("I just don't like this Merlot, can I send it back"; "we don't take back wine")
    r"(send|sends|sent|sending|take|takes|took|taking|bring|brings|brought) (it|them|this|that|these|those|the \w+) back|take back": "+return",
    # alerts that page nobody are the pager's business ("alerts are not paging anyone")
    r"(paging|paged) (anyone|anybody|nobody|no one|no-one|the on-?call|on-?call)|(not|n't|never|stopped) (paging|paged)": "+pager alert",
    # the right to be forgotten is an erasure request ("a customer wants to be forgotten")
    r"(be|being) forgotten": "+gdpr erasure delete",
    # keyboard users and screen reader users are accessibility's ("keyboard users cannot reach the buy button")
    r"keyboard[- ](users?|only|navigation|access)|screen ?reader users?|(blind|visually impaired|low[- ]vision|deaf|colou?r[- ]?blind|partially sighted) (users?|people|customers|visitors|players|readers)": "+a11y",
    # a new machine is set up from scratch ("new laptop, how do I get everything running")
    r"(new|fresh|clean) (laptop|machine|computer|mac|macbook|workstation|dev box)": "+setup local",
    # many queries for one page are N+1 ("the sql log shows hundreds of selects")
    r"(hundreds|thousands|dozens|lots) of (selects|queries|sql queries|db queries|database queries|select statements)": "+n+1",
    # printing while debugging is logging ("can I print the token to debug the login", "print() in production")
    r"print(s|ed|ing)?( \w+){0,5} (to debug|while debugging|for debugging|when debugging|debugging|in the logs?)|print(?=\(\))|printk|print statements?"
    r"|(print|prints|printed|printing) (some )?(debug|debugging) (info|information|output|messages|lines|statements)": "+log",
    # a page that still shows what was changed is a stale cache ("a product I edited still shows the old price")
    r"still (shows?|showing|displays?|displaying|has|serves?|serving|returns?|returning|sees?|seeing|gets?|getting|loads?|loading) (the )?(old|previous|outdated|stale)": "+stale cache",
    # a price that grew a tail of zeros or nines is a float ("the total showed 19.990000001 euros")
    r"\d+\.\d*(0000+[1-9]|9999+)\d*": "+float rounding",
    # what piles up waits in a queue ("messages are piling up", "jobs pile up overnight")
    r"(pile|piles|piled|piling) up": "+backlog queue",
    # times an hour off are a time zone's daylight saving change ("the slots are an hour off since Sunday")
    r"(an|one|1) hours? (off|out|behind|ahead|early|late|wrong|shifted|in the future|in the past)": "+timezone dst",
    # what costs more than the price is a fee ("a car left plugged in after it finished: do we charge extra")
    r"(charge|charged|charges|charging|pay|paid|pays|paying|bill|billed|bills|billing) (them |us |you |him |her |customers |drivers |users |people )?extra"
    r"|extra (charge|charges|fee|fees|cost|costs)|surcharges?": "+fee",
    # storage that keeps growing wants a retention or cleanup policy ("the disk on the database keeps growing")
    r"(disk|disks|storage|database|db|table|tables|volume|volumes|bucket|buckets|index|logs)( \w+){0,3} (keeps|keep|kept) (growing|filling)"
    r"|(running|ran|run|runs) out of (disk|space|storage|disk space)|(disk|disks|volume|volumes) (is |are )?(full|filling up)": "+retention cleanup compression",
    # a list of languages names what the product is translated into ("English, German, Japanese and Chinese")
    rf"{_LANGUAGE_NAMES}(,| and| or| /|/)( and| or)? {_LANGUAGE_NAMES}": "+language translation",
    # ... as a list of operating systems names the platforms ("CI runs on Linux, macOS and Windows")
    r"(linux|macos|mac|windows|ios|android|freebsd)(,| and| or| /|/)( and| or)? (linux|macos|mac|windows|ios|android|freebsd)\b": "+platform",
    # the screen that sells an upgrade is the paywall ("the subscription screen text")
    r"(subscription|subscriptions|upgrade|premium|pro|purchase|in-app purchase|iap) (screen|page|sheet|view|dialog|modal|popup|prompt)s?": "+paywall",
    # two devices or people changing one thing are a sync conflict ("two devices edited the same note")
    r"(two|both|multiple|several|2|many) (devices|users|people|clients|tabs|phones|sessions|editors|windows|browsers)( \w+){0,2} "
    r"(edited|edit|edits|editing|changed|change|changes|changing|updated|update|updating|modified|modify|wrote|write|writing|saved|save)( \w+)? (the same|one|a single)": "+conflict sync",
    # what takes seconds to open is slow to start ("takes two seconds to open on my old phone")
    r"(takes?|took|taking) (\w+ ){0,3}(seconds?|secs?|minutes?|forever|ages|a while|so long|too long) to (open|start|launch|boot|come up)": "+startup",
    # ... and what takes seconds to load or show is slow ("the shoes listing takes a second to load")
    r"(takes?|took|taking) (\w+ ){0,3}(seconds?|secs?|minutes?|forever|ages|a while|so long|too long) to (load|show up|appear|render|respond|finish)": "+slow",
    # a crash report of bare addresses was not symbolicated ("the crash reports show only memory addresses")
    r"(only|just|bare|raw) (memory |hex )?addresses|unsymboli[sz]ed|not symboli[sz]ed": "+symbolicate dsym",
    # macOS says so of an app that is not signed and notarised ("the app is from an unidentified developer")
    r"unidentified developer|can('|no)?t be opened because|is damaged and can('|no)?t be opened": "+sign gatekeeper",
    # a window that freezes is a blocked main thread ("the window freezes while exporting a big PDF")
    r"(window|app|ui|screen|page|browser|editor|interface|tab)s? (\w+ )?(freezes|froze|frozen|freezing|locks up|locked up|becomes unresponsive|stops responding)": "+block hang",
    # a key combination is a keyboard shortcut ("Ctrl+Shift+Esc does something weird")
    r"(ctrl|control|cmd|command|alt|option|opt|shift|meta|super|win)( ?\+ ?\w+)+": "+shortcut keyboard",
    # one thing made twice is a duplicate ("the controller keeps creating a second StatefulSet")
    r"(creat|mak|add|send|sen|charg|insert|start|spawn|open)\w* (a |an )?(second|another|extra|duplicate|double)": "+duplicate",
    # an API's refusal is a permission's ("forbidden: cannot list persistentvolumeclaims", "permission denied")
    r"forbidden:|permission denied|access denied|cannot (list|get|watch|create|update|patch|delete) [a-z]+": "+permission",
    # how a database was at a past moment is a point-in-time restore ("back to how the database was at 3pm yesterday")
    r"(go|roll|get|restore|bring|take)\w* (it |them |the \w+ )?back to (how|what|where) (it|they|the \w+|things|everything) (was|were|looked)": "+restore backup pitr",
    # what already exists is being made again ("an item with this id already exists when the worker wakes up")
    r"already (exists|existed|in use|taken|registered|defined|declared)|duplicate (key|id|entry)": "+duplicate",
    # a package uploaded to a store or registry is published ("upload the new zip to the Web Store")
    r"(upload|uploading|uploaded|submit|submitting|submitted|push|pushing)( \w+){0,3} to (the )?(chrome |web |app |play |microsoft |mac app )?"
    r"(store|web store|app store|play store|marketplace|registry|pypi|npm|crates\.io|amo)": "+publish release",
    # state forgotten after a spell of nothing is an idle shutdown ("forgets the selection after a minute of doing nothing")
    r"(after|when) (a minute|a few minutes|a while|some time|\d+ (seconds|minutes|secs|mins)|a bit)( of)? (doing nothing|idle|idling|inactivity|not using it|no activity)": "+idle",
    # a build that redoes everything has lost its cache ("the build is redoing everything from scratch")
    r"(redo|redoes|redoing|redid|rebuild|rebuilds|rebuilding|rebuilt|recompile|recompiles|recompiling|compiles?|builds?|building)( \w+){0,3} (everything|all of it|from scratch)": "+cache",
    # a device an update bricked failed to boot ("the update bricked a gateway")
    r"brick|bricks|bricked|bricking": "+boot fail rollback",
    # the power gone at any moment ("someone pulled the plug during an update")
    r"pull(ed|s|ing)? the plug|power (cut|cuts|loss|outage|failure|went out)|lost power|loses power|unplugged": "+power ups",
    # a clock that is off stamps the wrong time ("readings are stamped with the wrong year")
    r"wrong (time|date|year|day|month|hour|timestamp|timestamps|clock)|(clock|time) (is|was) (off|wrong)|clock drift": "+clock time timezone",
    # data over a phone network is cellular ("the customer's bill for mobile data is huge")
    r"mobile data|cellular data|(4g|5g|lte) data|data plan|sim card": "+cellular lte",
    # storage that is dying wears out ("the flash storage on old units is dying")
    r"(storage|disk|disks|flash|ssd|ssds|emmc|sd card|sd cards)( \w+){0,4} (dying|dies|died|wearing out|worn out|wears out|failing)": "+wear",
    # a real customer's data is production's ("staging is showing data from a real merchant")
    r"(real|actual|live|paying) (customers?|merchants?|users?|shops?|stores?|accounts?|patients?|drivers?|tenants?)('s?)?( data)?": "+production",
    # everyone at once is no rollout ("push the new version to every customer today")
    r"to (every|all) (customers?|users?|devices?|gateways?|clients?|sites?|machines?|servers?)|to everyone": "+rollout",
    # two of the same process at work at once want one leader ("both operator pods are reconciling at once")
    r"(both|two|multiple|several|2) (\w+ )?(pods|replicas|instances|workers|processes|servers|copies|nodes|schedulers|controllers)( \w+){0,5} "
    r"(at once|at the same time|simultaneously|concurrently|in parallel)": "+leader lock",
    # OpenShift's pod security is its security context constraints
    r"security context( constraints?)?": "+scc",
    # a version written as its pattern is a version ("tag vX.Y.Z on main")
    r"vx\.y(\.z)?|x\.y\.z|semver|semantic versioning": "+version",
    r"frame[ -]?rates?": "+fps",
    # reaching home or the office network from elsewhere is remote access ("how do I reach the lab from outside")
    r"from (outside|anywhere|abroad|away)|outside (the|my|our) (house|home|network|lan|office)|(when|while) (i'm|i am|we're|we are) (away|travelling|traveling)": "+remote",
    # cleaning up what is old deletes it ("clean up old snapshots to free space")
    r"(clean|cleaned|cleans|cleaning|clear|clears|cleared|clearing) (up|out) (the |all |any |some )?(old|older|stale|unused|expired)": "+delete",
    # another customer's data seen is tenant isolation failing ("one customer could see another company's projects")
    r"(another|other|a different|someone else's) (company|companies|customer|customers|tenant|tenants|client|clients|organi[sz]ations?|orgs?|workspaces?|accounts?)('s|s'|’s)?": "+tenant",
    # a change on for everyone is fully rolled out ("the new dashboard has been on for everyone for two months")
    r"(on|enabled|live|rolled out|turned on|switched on) for (everyone|everybody|all (users|customers|accounts|workspaces))|(at|to) 100 ?(percent|% \w+)": "+rollout",
    # a smart home's gadgets are its IoT devices
    r"smart (plugs?|bulbs?|lights?|speakers?|tvs?|switch(es)?|thermostats?|sockets?|locks?|home devices?|devices?)": "+iot",
    # a fault code is a diagnostic trouble code
    r"(fault|trouble|diagnostic) codes?": "+dtc",
    # a fuse or breaker that trips is an overloaded supply ("the fuse keeps tripping when all the buses plug in")
    r"(fuse|fuses|breaker|breakers)( \w+){0,4} (trips|tripped|tripping|trip|blows|blew|blown|blowing|pops|popped)": "+overload power limit load",
    # a person logged out by the system lost their session ("a user got logged out while typing")
    r"(got|get|gets|getting|was|were|is|are|keeps? getting|kept getting|being) (logged|signed|kicked|thrown) out": "+session expire timeout",
    # "right away" and "right now" say when, not a right ("a label emailed us to pull a song right away")
    r"right (away|now|then|after|before|off)": "",
    # a comparative is its adjective, which Snowball leaves apart ("louder" and the loudness note)
    **{rf"{comparative}": f"+{base}" for comparative, base in _COMPARATIVES.items()},
    # what someone else deleted is wanted back from a backup ("someone dropped the units table in production")
    r"(someone|somebody|an intern|the intern|a colleague|a teammate|a new hire|a junior dev\w*) (just |accidentally |somehow )?"
    r"(dropped|deleted|truncated|wiped|removed|overwrote|erased) (the |our |a |an |all |all the |the whole |the entire |every )?(\w+ ){0,2}"
    r"(tables?|databases?|db|dbs|buckets?|collections?|indexe?s?|records|rows|data|folders?|director(y|ies)|files?|schemas?|volumes?|branch(es)?)": "+restore backup",
    # a bad write run by hand is undone from a backup ("someone ran a bad UPDATE on the certificates table")
    r"(ran|run|runs|running|executed|applied|pushed) (a |an )?(bad|wrong|broken|faulty|mistaken|botched|accidental) (update|delete|query|migration|script|sql|statement)"
    r"|(update|delete) (statement |query )?without a where": "+restore backup",
    # a certificate or licence that runs out expires ("my certificate runs out in two months")
    r"(certificates?|certs?|licen[cs]es?|contracts?|passports?|visas?|subscriptions?|memberships?|cards?|policy|policies|warrant(y|ies)|permits?|leases?|tokens?) "
    r"(runs|run|ran|running) out": "+expire",
    # a person who left the company is a leaver ("an employee left four years ago")
    # ("someone left a review" is no leaver: a person named only so leaves the company or the team)
    r"(employee|employees|colleague|colleagues|staff member|worker|contractor) (who )?(left|has left|had left|have left)(?! (a|an|the|his|her|their|some|it|them) )"
    r"|(someone|somebody|he|she|they) (who )?(left|has left|had left|have left) (the company|the team|the business|the firm|us)": "+leaver",
    # "last" before a stretch of time says when, not which one ("the heating stopped last night", "the last four digits")
    # ("the last week of a round" and "its last Friday" are which one: a determiner keeps the word)
    **{rf"(?<!the )(?<!its )(?<!their )(?<!our )(?<!his )(?<!her )(?<!my )(?<!your )(?<!a )last {unit}": unit for unit in _LAST_UNITS},
    # a thing that no longer works wants a repair ("the heating stopped working", "the lift is broken again")
    r"(stopped|stops|has stopped|have stopped) working|(is|are|isn't|aren't|'s|was|were) (broken|not working)|broke down|(doesn't|does not|won't|will not) work( anymore| any more)?": "+repair",
}


_PHRASE_SHORTS = tuple(_PHRASE_SHORT.values())
# A piece every phrase above holds: the substitution runs only on text that may have one ("end" or
# "text" alone would let nearly every note through to the regex).
# The pieces of the symptom phrases added in session 24, each as narrow as its phrase allows: a common
# word as a hint ("without", "still", "print") sent most long notes through the whole alternation,
# 2.6 ms for 4 KB.
_SESSION_24_HINTS = (
    *(f"{a} {b}" for a in ("without", "lost", "losing", "loses") for b in ("internet", "connect", "signal", "network", "reception")), "without any",
    "a plane", "the plane", "airplane", "aeroplane", "a flight", "the flight", "flight mode", "basement", "tunnel", "a lift", "the lift",
    "elevator", "underground car park", "parking garage", " die", " dying", "drain", " rid of", "no reception",
    *(f"other {b}" for b in ("number", "result", "output", "value", "answer", "score", "metric")), "different number", "different result", "different output", "different value",
    "different answer", "different score", "different metric", "inconsistent", "varying", "different each", "different every",
    "varies each", "varies every", "vary each", "vary every", "changes each", "changes every",
    *(f"{a} down" for a in ("is", "was", "are", "were", "went", "goes", "gone", "completely", "totally")), "paging", "paged", "forgotten",
    "keyboard", "screen reader", "screenreader",
    *(f"{a} {b}" for a in ("new", "fresh", "clean") for b in ("laptop", "machine", "computer", "mac", "workstation", "dev box")),
    "hundreds of", "thousands of", "dozens of", "lots of", "print(", "printk", "print statement", "debugging", "to debug", "in the log",
    "debug info", "debug output", "debug message", "debug line", "debug statement",
    *(f"still {v}" for v in ("show", "display", "has", "serv", "return", "see", "get", "load")), "0000", "9999", "pile", "piling",
    "an hour", "one hour", "1 hour",
)
# ... and those of sessions 25 and 26.
_SESSION_25_HINTS = (
    *(f"{v} {w}extra" for v in ("charge", "charged", "charges", "charging", "pay", "paid", "pays", "paying", "bill", "billed", "bills", "billing")
      for w in ("", "them ", "us ", "you ", "him ", "her ", "customers ", "drivers ", "users ", "people ")),
    "extra charge", "extra fee", "extra cost", "surcharge", "keeps growing", "keep growing", "kept growing", "keeps filling",
    "keep filling", "kept filling", "out of disk", "out of space", "out of storage", " full", "fuse", "breaker", "english", "greek", "czech", "the subway", "a subway", "the metro", "a metro",
    "the tube", "a tube", "a train", "the train",
    "subscriptions ", *(f"{a} {b}" for a in ("subscription", "upgrade", "premium", "pro", "purchase", "iap")
      for b in ("screen", "page", "sheet", "view", "dialog", "modal", "popup", "prompt")),
    *(f"{a} {b}" for a in ("two", "both", "multiple", "several", "2", "many")
      for b in ("device", "user", "people", "client", "tab", "phone", "session", "editor", "window", "browser")),
    *(f"{a} {b}" for a in ("two", "both", "multiple", "several", "2")
      for b in ("pod", "replica", "instance", "worker", "process", "server", "copies", "node", "scheduler", "controller")),
    "seconds to", "second to", "secs to", "sec to", "minutes to", "minute to", "forever to", "ages to", "a while to", "so long to", "too long to",
    *(f"{a} {b}addresses" for a in ("only", "just", "bare", "raw") for b in ("", "memory ", "hex ")), "unsymboli", "not symboli",
    " back", "unidentified developer", "be opened because", "is damaged", "freez", "froze", "locks up", "locked up", "unresponsive",
    "stops responding", *(f"{k}{j}" for k in ("ctrl", "control", "cmd", "command", "alt", "option", "opt", "shift", "meta", "super", "win")
                          for j in ("+", " +")),
    "x.y.z", "vx.y", "semver", "semantic versioning", "blind", "visually impaired", "low vision", "low-vision", "deaf", "partially sighted",
    " second", "another", " extra", "a duplicate", "a double", " duplicate", " double", "forbidden:", "permission denied", "access denied",
    *(f"cannot {v}" for v in ("list", "get", "watch", "create", "update", "patch", "delete")),
    "back to how", "back to what", "back to where", "at once", "at the same time", "simultaneously", "concurrently", "in parallel",
    "security context", "already exist", "already in use", "already taken", "already registered", "already defined", "already declared",
    "duplicate key", "duplicate id", "duplicate entry",
    " store", "registry", "marketplace", "pypi", "npm", "crates.io", " amo",
    "doing nothing", "idle", "idling", "inactivity", "not using it", "no activity", "from scratch", "all of it", "everything", "redo", "rebuil", "recompil",
    "brick", "the plug", "power cut", "power loss", "power outage", "power failure", "power went", "lost power", "loses power", "unplugged",
    *(f"wrong {b}" for b in ("time", "date", "year", "day", "month", "hour", "timestamp", "clock")), "clock is", "clock was", "time is off",
    "time was off", "time is wrong", "time was wrong", "clock drift", "mobile data", "cellular data", "lte data", "4g data", "5g data", "data plan", "sim card",
    "flash", "emmc", "sd card", "frame rate", "frame-rate", "framerate", "from outside", "from anywhere", "from abroad", "from away", "outside the", "outside my",
    "outside our", "m away", "re away", "travelling", "traveling", "smart ", "another compan", "another custom", "another tenant", "another client",
    "another org", "another workspace", "another account", "other compan", "other custom", "other tenant", "other client", "other org",
    "other workspace", "other account", "different compan", "different custom", "different tenant", "different client", "different org",
    "different workspace", "different account", "someone else's", "for everyone", "for everybody", "for all users", "for all customers",
    "for all accounts", "for all workspaces", "100%", "100 %", "100 percent", "100percent", "fault code", "trouble code",
    "diagnostic code", "clean", "clear up", "clear out", "clears up", "clears out", "cleared up", "cleared out", "clearing up",
    "clearing out", "ssd", "failing", "wearing out", "worn out", "wears out", "to everyone",
    *(f"to {a} {b}" for a in ("every", "all") for b in ("customer", "user", "device", "gateway", "client", "site", "machine", "server")),
    *(f"{a} {b}" for a in ("real", "actual", "live", "paying")
      for b in ("customer", "merchant", "user", "shop", "store", "account", "patient", "driver", "tenant")),
)
# The pieces of the phrases added in session 37, as narrow as each phrase allows: "car", "miss", "son " and " live"
# as hints sent a quarter of all notes through the whole alternation (tokens 215 -> 332 µs a note over the held-out
# sets); a person or a vehicle is hinted with its possessive ("my dad", "the car").
_POSSESSIVES = ("my", "her", "his", "their", "your", "our", "the")
_SESSION_37_HINTS = (
    *(f"{p} {r}" for p in _POSSESSIVES for r in ("mum", "mom", "mother", "dad", "father", "parents", "wife", "husband", "partner", "girlfriend",
                                                  "boyfriend", "friend", "sister", "brother", "son", "daughter", "grandma", "grandmother", "gran",
                                                  "grandpa", "grandfather", "aunt", "uncle", "boss", "colleague", "teacher", "niece", "nephew",
                                                  "kid", "children", "in-laws")),
    *(f"{p} {v}" for p in _POSSESSIVES for v in ("car", "bike", "van", "truck", "vehicle", "scooter", "motorbike")),
    *(f"{w} live" for w in ("change", "changes", "fix", "fixes", "code", "feature", "features", "branch", "pr", "release", "update", "build",
                            "version", "commit", "commits", "patch", "hotfix", "it", "them")),
    "the road", "the street", "owners association", "owner association", "owners' association", "water ", "dripping", " wet", " damp",
    "to rate", "rate our", "rates our", "rated our", "rating our", " rating", "missed ", "misses ", "missing ", "miss ", "skipped ", "skips ",
    "skip ", "show up", "shows up", "showed up", "shown up", "turn up", "turns up", "turned up", "football", "soccer", "hockey", "rugby", "basketball", "lacrosse",
    "baseball", "boxing", "karate", "judo", "taekwondo", "netball", "volleyball", "handball", "cricket", "tennis", "squash", "martial arts",
    "wrestling", "skateboarding", "mountain biking", "false teeth", "to turn up", "to show up", "to come out", "to come round", "to come over", "to visit", *(f"{n} star" for n in ("five", "5", "four", "4", "one", "1")), "-star", *(f"{v} {p}" for v in ("move", "moving", "moved", "push", "pushing", "pushed", "shift", "shifting", "shifted")
    for p in ("my", "the", "our", "your", "his", "her", "their", "this", "that")), "water", "academic", "hand ", "hands ", "handed ", "handing ", "saturday", "sunday", "copied", "copying", "copies", "copy", "lifted", "pasted",
    " again", "watch", "unfair", "wrong", "too low", "too harsh", "unjust", "crashed", "crashes", "went offline",
    "stopped working", "froze", "died", "keep it", "keep them", "keep the", "keep my", "keep our", "won't start", "will not start", "wouldn't start",
    "would not start", "doesn't start", "does not start", "didn't start", "did not start", "can't start", "cannot start", "turn over",
    " than i ", " than we ", " than they ", " than he ", " than she ", " than you ", "right now", " now", "at the moment", "currently",
    "halved", "plunged", "plummeted", "nosedived", "tanked", "cratered", "reversed into", "backed into", "bumped into", "drove into",
    "ran into", "smashed into", "ploughed into", "plowed into", "rear-ended", *(f"{w} {c}" for w in ("to", "in", "into", "from", "across", "through", "around")
    for c in ("france", "germany", "spain", "italy", "portugal", "ireland", "belgium", "netherlands", "holland", "switzerland", "austria",
              "poland", "denmark", "norway", "sweden", "finland", "greece", "turkey", "croatia", "czechia", "hungary", "romania", "the us",
              "america", "canada", "mexico", "brazil", "argentina", "japan", "korea", "china", "india", "thailand", "vietnam", "singapore",
              "malaysia", "indonesia", "australia", "new zealand", "egypt", "morocco", "south africa", "dubai", "the uae")), "of hours", "after hours", "outside", "goodbye to", "i ring", "we ring", "i phone", "we phone", "ring us", "ring them", "ring me", "ring him", "ring her", "ring the", "english", "welsh", "irish", "gaelic", "catalan", "basque", "urdu",
    "bengali", "punjabi", "mandarin", "cantonese", "malay", "romanian", "hungarian", "nobody ", "no one", "no-one", "sofa", "couch", "settee",
    "wardrobe", "armchair", "mattress", "bookcase", "dresser", "chest of drawers", "chests of drawers", "bed frame", "dining table", "dumped", "dumping", "dumps ", "dump ",
    "easter monday", "good friday", "boxing day", "whit monday", "may day", "bank holiday")
_PHRASE_HINTS = ("pull request", "merge request", "continuous integration", "command line", "command-line", "single sign", "to live",
                 "to-live", "level agreement", "arrival", "end of", "end-of", "of memory", "of-memory", "of concept", "mean time",
                 "objective", "in time", "in-time", "text message", "message bus", "event bus", "service bus", "thumb", "flash drive",
                 "flashdrive", "pen drive", "pendrive", "usb stick", "memory stick", "no internet", "no connect", "no signal",
                 "no network", "forg", "speeding ", "parking ", "traffic ", "crash into", "crashed into", "crashes into", "crashing into",
                 "fill up", "filled up", "fills up", "filling up", "pass away", "passed away", "passes away", "passing away", "to sleep",
                 "to prod", "to the prod", "on prod", "on the prod", "to the live", "on live", "on the live", "accident", "mistake",
                 "get back", "getting back", "bring back", "bringing back", "recover back", "recovering back", "throw", "threw", "binned",
                 "random", "intermittent", "sporadic", "occasional", "sometimes", "now and then", "german", "french", "spanish",
                 "italian", "portuguese", "dutch", "polish", "swedish", "danish", "norwegian", "finnish", "russian", "ukrainian",
                 "turkish", "arabic", "hebrew", "hindi", "japanese", "korean", "chinese", "vietnamese", "thai", "indonesian",
                 "new year", "spring festival", "closing", "quitting", "shutting down", "itself", "force clos", "force-clos",
                 "turned down", "turns down", "turn down", "turning down", "fill", "populat", "night mode", "night theme", *_SESSION_24_HINTS, *_SESSION_25_HINTS,
    "right ", *_COMPARATIVES, "logged out", "signed out", "kicked out", "thrown out", "targeted ", "iban", "routing number", "sort code",
    "everything", "all the data", "all data", "all the information", "what data", "what information", "copy of", "in dollars",
    "in euros", "in pounds", "in yen", "in yuan", "in rmb", "in usd", "in eur", "in gbp", "in jpy", "in cny", "in swiss", "in francs",
    "in rupees", "in pesos", "twice", "double", "triple", "three times", "higher than", "burst", "pipe", "hose", "mains ", "main broke", "main cracked", "main split", "without paying", "n't pa", "not pa",
    "never pa", "main database", "main db", "master database", "master db", "production database", "production db", "prod database",
    "prod db", "linux", "macos", "mac,", "mac ", "mac/", "windows", "ios,", "ios ", "ios/", "android", "freebsd",
    "been down", "been broken", "been completely", "been totally", "been unreachable", "been not working", "go out", "goes out",
    "went out", "gone out", "going out", "present", "want out", "wants out", "wanted out", "wanting out", "out of", " back",
    "rerun", "re-run", "reprocess", "re-process", "replay", "recompute", "reload", "re-load", " again", "declined", "rejected", "refused",
    "bounced", "go through", *_SESSION_37_HINTS, "someone ", "somebody ", "intern ", "bad ", "wrong ", "broken ", "faulty ", "botched ", "mistaken ", "accidental ", "without a where", "runs out", "run out", "ran out",
    "running out", " left", "colleague ", "teammate ", "new hire ", "junior dev",
    *(f"last {unit}" for unit in _LAST_UNITS), "working", "broken", "broke down", "n't work", "not work")


# How far a phrase reaches from the hint it holds (the longest, "deleted … by accident", spans about 70
# characters).
_PHRASE_REACH = 120


@lru_cache(maxsize=1)
def _hints_by_start() -> dict[str, tuple[str, ...]]:
    """The phrase hints by their first three characters (every hint has three or more)."""
    out: dict[str, list[str]] = {}
    for hint in _PHRASE_HINTS:
        out.setdefault(hint[:3], []).append(hint)
    return {start: tuple(hints) for start, hints in out.items()}


def _hints_at(low: str) -> list[tuple[str, int, int]]:
    """The phrase hints `low` holds, with where each begins and ends, overlapping ones included (each serves its
    own phrases). A look-up at each position costs a title a fifth of what a test of every hint (hundreds) did."""
    # (the automaton is used once a long text has built it; built for short texts alone it cost a server that only
    # searches ~1 MB, over its memory line)
    if len(low) > 2 * _PHRASE_REACH or _hint_automaton.cache_info().currsize:
        return [(_PHRASE_HINTS[h], at, end) for h, at, end in _hint_automaton().find_matches_as_indexes(low, overlapping=True)]
    starts, found = _hints_by_start(), []
    for i in range(len(low) - 2):
        for hint in starts.get(low[i : i + 3], ()):
            if low.startswith(hint, i):
                found.append((hint, i, i + len(hint)))
    return found


@lru_cache(maxsize=1)
def _hint_automaton() -> Any:
    """The phrase hints as one automaton (built on the first long text: a message never needs it)."""
    import ahocorasick_rs

    return ahocorasick_rs.AhoCorasick(list(_PHRASE_HINTS))


# Each hint serves the phrases whose spelling holds its words: the alternation of all of them (~150) cost every
# text holding any hint ~0.3 ms, most of it in phrases that could not match there. A word is held where it
# begins a word of the spelling, as itself or without its ending ("crashed" in "crash(ed|es|ing)?"), or, when it
# joins two words the spelling writes apart ("flashdrive" in "flash ?drives?"), as its two halves.
_ENDING = re.compile(r"(ing|ed|es|s|d)$")


@lru_cache(maxsize=1)
def _phrase_spellings() -> tuple[str, tuple[int, ...]]:
    """The phrase table's spellings as one text, and where each begins in it."""
    # (without "\\b", whose "b" would read as a letter before "in" or "iban")
    spellings = [phrase.replace("\\b", "") for phrase in _PHRASE_SHORT]
    starts, at = [], 0
    for spelling in spellings:
        starts.append(at)
        at += len(spelling) + 1
    return "\n".join(spellings), tuple(starts)


def _phrases_with_word(word: str) -> set[int]:
    text, starts = _phrase_spellings()
    found: set[int] = set()
    for form in (word, _ENDING.sub("", word)) if len(word) >= 5 else (word,):
        at = text.find(form)
        while at >= 0:
            if at == 0 or not text[at - 1].isalnum():
                found.add(bisect_right(starts, at) - 1)
            at = text.find(form, at + 1)
    for cut in range(3, len(word) - 2) if not found else ():
        found |= _phrases_with_word(word[:cut]) & _phrases_with_word(word[cut:])
    return found


@lru_cache(maxsize=None)
def _phrases_of_hint(hint: str) -> frozenset[int]:
    """The phrases (by their place in the table) a hint serves."""
    words = re.findall(r"[a-z0-9]+", hint)
    out = _phrases_with_word(words[0]) if words else set()
    for word in words[1:]:
        out &= _phrases_with_word(word)
    return frozenset(out)


_PHRASE_SPELLINGS = tuple(_PHRASE_SHORT)


@lru_cache(maxsize=512)
def _phrases_pattern(chosen: tuple[int, ...]) -> re.Pattern[str]:
    """The chosen phrases as one alternation, in the table's order (the first that matches at a place wins)."""
    return re.compile("|".join(f"\\b(?P<p{i}>{_PHRASE_SPELLINGS[i]})\\b" for i in chosen))


def _read_phrases(low: str, hints: list[tuple[str, int, int]]) -> str:
    chosen: set[int] = set()
    for hint, _, _ in hints:
        chosen |= _phrases_of_hint(hint)
    return _phrases_pattern(tuple(sorted(chosen))).sub(_phrase_short, low) if chosen else low


def _short_phrases(low: str) -> str:
    """`low` with its phrases read as their short forms: each hint's phrases, over the stretch around it. Over a
    whole 4 KB note, where some hint is nearly always present, the whole table cost 9 ms; over the stretches, 4-5."""
    hints = _hints_at(low)
    if len(low) <= 2 * _PHRASE_REACH or not hints:
        return _read_phrases(low, hints)
    spans = []
    for hint, at, end in hints:
        # (widened to whole words: a phrase cut at a stretch's edge would read as another)
        lo, hi = max(0, at - _PHRASE_REACH), min(len(low), end + _PHRASE_REACH)
        while lo > 0 and low[lo - 1].isalnum():
            lo -= 1
        while hi < len(low) and low[hi].isalnum():
            hi += 1
        spans.append((lo, hi, hint))
    spans.sort()
    out, done = [], 0
    a, b, held = spans[0][0], spans[0][1], [spans[0]]
    for lo, hi, hint in spans[1:]:
        if lo <= b:
            b = max(b, hi)
            held.append((lo, hi, hint))
            continue
        out += [low[done:a], _read_phrases(low[a:b], [(h, 0, 0) for _, _, h in held])]
        done, a, b, held = b, lo, hi, [(lo, hi, hint)]
    out += [low[done:a], _read_phrases(low[a:b], [(h, 0, 0) for _, _, h in held])]
    return "".join(out) + low[b:]


# A short form that opens with "+" is added after the phrase, whose words stay ("get my change onto
# production" also reads "deploy"); any other replaces it.
def _phrase_short(m: re.Match[str]) -> str:
    short = _PHRASE_SHORTS[int(str(m.lastgroup)[1:])]
    return f"{m.group()} {short[1:]}" if short.startswith("+") else short


# A verb and its particle that engineers also write as one word ("back up the database" and "the
# backup"; "it timed out" and "the timeout"); two nouns likewise ("time zone"). The phrase keeps its
# words and adds the joined one, so either spelling finds the other.
_JOINED = {
    # a device that stops reporting, in everyday words ("half the trucks went dark", "a lock went quiet")
    ("went", "dark"): "offline", ("go", "dark"): "offline", ("gone", "dark"): "offline",
    ("went", "quiet"): "offline", ("gone", "quiet"): "offline", ("went", "silent"): "offline", ("gone", "silent"): "offline",
    ("back", "up"): "backup", ("set", "up"): "setup", ("roll", "back"): "rollback", ("roll", "out"): "rollout",
    ("log", "in"): "login", ("log", "out"): "logout", ("sign", "in"): "signin", ("sign", "up"): "signup",
    ("clean", "up"): "cleanup", ("shut", "down"): "shutdown", ("start", "up"): "startup", ("time", "out"): "timeout", ("timing", "out"): "timeout",
    ("fail", "over"): "failover", ("look", "up"): "lookup", ("warm", "up"): "warmup", ("tear", "down"): "teardown",
    ("lock", "out"): "lockout", ("hot", "fix"): "hotfix", ("time", "zone"): "timezone", ("web", "hook"): "webhook",
    ("data", "set"): "dataset", ("check", "out"): "checkout", ("sign", "off"): "signoff", ("hand", "off"): "handoff",
    ("work", "flow"): "workflow", ("down", "time"): "downtime", ("up", "time"): "uptime", ("road", "map"): "roadmap",
    ("screen", "reader"): "screenreader", ("fall", "back"): "fallback", ("call", "back"): "callback", ("feed", "back"): "feedback",
    ("opt", "out"): "optout", ("opt", "in"): "optin", ("pop", "up"): "popup", ("stand", "up"): "standup", ("hand", "over"): "handover",
    ("back", "end"): "backend", ("front", "end"): "frontend", ("user", "name"): "username", ("time", "stamp"): "timestamp",
    ("pay", "out"): "payout", ("paid", "out"): "payout", ("turn", "down"): "decline", ("shut", "out"): "lockout", ("check", "in"): "checkin", ("claim", "back"): "reimburse", ("api", "key"): "apikey",
    ("rate", "limit"): "ratelimit", ("auto", "merge"): "automerge", ("package", "manager"): "packagemanager", ("kill", "switch"): "killswitch", ("release", "note"): "changelog",
    # an everyday phrase for the thing a note names: "wants their money back" is a refund, "the site goes down" an outage
    ("money", "back"): "refund", ("go", "down"): "outage", ("went", "down"): "outage", ("law", "enforcement"): "lawenforcement",
    ("annual", "leave"): "annualleave", ("extra", "hour"): "overtime", ("mobile", "number"): "phone", ("cell", "number"): "phone", ("cell", "phone"): "phone",
}
_PARTICLES = "|".join(sorted({b for _, b in _JOINED}))
_VERBS = "|".join(sorted({a for a, _ in _JOINED}))
_JOINABLE = re.compile(rf"\b({_VERBS})(?:s|es|ed|d|ing|ped|ping|ged|ging|ted|ting)?\s+({_PARTICLES})(?:s|ed|ing|er|ers)?\b")


def _join_phrases(low: str) -> str:
    """`low` with each phrase of `_JOINED` followed by its joined word. A verb and a particle that make
    no phrase together leave the particle free to start one ("calls time out": "call time" is none,
    "time out" is "timeout")."""
    out, at = [], 0
    m = _JOINABLE.search(low)
    while m is not None:
        one = _JOINED.get((m.group(1), m.group(2)))
        if one is None:
            m = _JOINABLE.search(low, m.start(2))
            continue
        out.append(f"{low[at:m.end()]} {one}")
        at = m.end()
        m = _JOINABLE.search(low, at)
    return "".join(out) + low[at:] if out else low


# A version number ("Unreal Engine 5.3", "Python 3.12", "Ubuntu 22.04") says which version, as the word
# would: "which version of Unreal" finds the note that names one. Not a measure ("16.6 ms", "1.2 GB").
_VERSION = re.compile(r"(?<![\w.$€£¥])v?\d+\.\d{1,3}(?:\.\d{1,3})?(?![\w.%/:]|\.\d|\s*(?:ms|s|sec|secs|seconds?|minutes?|mins?|hours?|h|days?|"
                      r"weeks?|months?|years?|gb|mb|kb|tb|gib|mib|kib|k|m|x|px|pt|em|rem|hz|khz|mhz|ghz|kg|g|mm|cm|km|°|degrees?|percent|times|"
                      r"points?|stars?|euros?|dollars?|usd|eur|gbp|cny|rmb|yuan|cents?|pounds?|yen)\b)")
# (nor a price: "a price of 19.99", "costs 4.50")
_PRICED = re.compile(r"\b(price|prices|priced|cost|costs|total|totals|paid|pay|pays|fee|fees|charge|charged|amount|balance|refund|of)\s+$")


# "Go" names a language as often as it is the verb; the verb says nothing of a topic ("why didn't we
# go with MySQL" found every note on Go code). The verb: its other forms, and "go" after a subject, an
# auxiliary or "to", or before a particle ("go with", "go through", "go back").
_GO_VERB = re.compile(r"\b(?:goes|going|went|gone)\b|\b(?:i|we|you|they|to|not|will|can|should|would|could|must|might|may|let's|lets|let|"
                      r"did|didn't|don't|doesn't|won't|can't|we'll|i'll|you'll|they'll) (go)\b|\b(go)(?= (?:with|to|back|ahead|through|into|"
                      r"over|away|out|live|down|up|on|for|wrong|off|missing|stale|bad|unnoticed|together|home|about|well|nicely|best|great)\b)"
                      # "go" that ends a question of where ("where do logs go?", "where should new tests go")
                      r"|\bwhere\b[^.?!\n]{0,40}?(?<!use )(?<!in )(?<!with )(?<!of )(?<!on )\b(go)(?=\s*(?:[?.!,]|$))")


def _verb_go(low: str) -> set[int]:
    """Where the verb "go" (in any form) starts in `low`."""
    if "go" not in low and "went" not in low:
        return set()
    return {m.start(m.lastindex) if m.lastindex else m.start() for m in _GO_VERB.finditer(low)}


# A name with a number after it is also the name: "float64" and "int32" are floats and ints,
# "python3" is Python, "oauth2" OAuth (three letters at least: "ec2", "s3" and "k8s" stay whole).
_NUMBERED_NAME = re.compile(r"([a-z]{3,})\d+")
# A system library is also what it is a library of: "libfuse2" is FUSE, "libssl" SSL.
_LIB_NAME = re.compile(r"lib(?!rar|ert|eral|el)([a-z]{3,})\d*")
_DOTTED_NUMBER = re.compile(r"\d+(?:\.\d+)+")
# An age under 18 names a child ("a 12-year-old wants to borrow a horror film", "my 8 yo son"), as does a
# limit on people under one ("players under 16 get no chat", "under-13s"): the notes say "children" or
# "kids", and the glossary relates those.
# A clock time is one value ("8:30" is no "30", which a note's "30 %" holds): read as "8h30".
# (Both compiled on first use rather than at import; since session 36 nearly every text asks for them — a
# clock time may be "8 pm", an age "I'm 20" — and the two cost about a millisecond together to compile.)
@lru_cache(maxsize=1)
def _age() -> re.Pattern[str]:
    return re.compile(r"\b(\d{1,2})[- ]?(?:years?|yrs?)[- ]old\b|\b(\d{1,2}) ?yo\b|\baged (\d{1,2})\b"
                      r"|\b(?:players?|users?|people|customers?|children|kids|members?|guests?|visitors?|students?|shoppers?|patients?|"
                      r"riders?|anyone|those|persons?)(?: who are| aged)? (?:under|below|younger than) (\d{1,2})\b(?![.,]?\d| ?%)"
                      r"|\bunder[- ]?(\d{1,2})s\b"
                      # a person saying their age ("I'm 20, can I buy a bottle"), not a count of anything
                      r"|\b(?:i'?m|i am|he'?s|she'?s|he is|she is|they'?re|they are) (\d{1,2})(?=\s*([,.!?;]|$| and\b| but\b| so\b| now\b))")


_AGE_HINTS = ("old", "yo", "aged", "under", "below", "younger", "i'm", "im ", "i am", " is ", "'s ", "re ")


def _child_of_age(m: re.Match[str]) -> str:
    # an age is a child's below 18; "under 18" is everyone below it. Any stated age is also about
    # age: "my dad is 72 years old and wants a licence" asks what the note on the age limit says.
    age, under = next((int(g), i in (3, 4)) for i, g in enumerate(m.groups()) if g)
    return f"{m.group(0)} age child" if age < 18 or (under and age == 18) else f"{m.group(0)} age"


# ... and in Chinese ("孩子15岁", "16 岁以下不能办卡"), looked for only in a text that holds 岁.
_AGE_ZH = r"(?<!\d)(\d{1,2})\s*周?岁"


@lru_cache(maxsize=1)
def _clock() -> re.Pattern[str]:
    return re.compile(r"(?<![\d:])(\d{1,2}):(\d{2})(?![\d:])(?:\s?([ap])\.?m\b\.?)?|\b(\d{1,2})\s?([ap])\.?m\b\.?")


def _hour(hour: int, minute: str, half: str) -> str:
    """A time of day as one value, on the 24-hour clock: "8 pm", "20:00" and 晚上八点 are all "20h00"."""
    if half == "p" and hour < 12:
        hour += 12
    elif half == "a" and hour == 12:
        hour = 0
    # a time from 22:00 to 05:59 is at night ("a DAG failed at 3 am" and "night failures wait for the morning")
    return f" {hour}h{minute} night " if hour < 6 or 22 <= hour < 24 else f" {hour}h{minute} "


def _clock_time(m: re.Match[str]) -> str:
    if m.group(4):
        return _hour(int(m.group(4)), "00", m.group(5))
    return _hour(int(m.group(1)), m.group(2), m.group(3) or "")


# A time of day in Chinese: digits before 点 ("8点半"), or any numeral after a part of the day
# ("晚上八点"); a Chinese numeral alone before 点 is as often "a bit" (快一点) or "points" (两点建议).
_CLOCK_ZH = (r"(?<!第)(凌晨|早上|早晨|清晨|上午|中午|午后|下午|傍晚|晚上|夜里|夜间|半夜|今晚|明晚|明早)?\s*"
             r"(\d{1,2}|[零一二两三四五六七八九十]{1,3})\s*点钟?(半|一刻|\s*(\d{1,2})\s*分)?")
_AFTERNOON_ZH = frozenset("午后 下午 傍晚 晚上 夜里 夜间 今晚 明晚".split())
_NUMERAL_ZH = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"两": 2}


def number_zh(text: str) -> int | None:
    """A Chinese numeral below a hundred (十四, 二十, 两), or digits, as a number."""
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        value = (_NUMERAL_ZH.get(tens, -100) if tens else 1) * 10 + (_NUMERAL_ZH.get(ones, -100) if ones else 0)
    else:
        value = _NUMERAL_ZH.get(text, -1) if len(text) == 1 else -1
    return value if value >= 0 else None


def _clock_zh(m: re.Match[str]) -> str:
    part, hour = m.group(1), number_zh(m.group(2))
    if hour is None or hour > 24 or (not part and not m.group(2).isdigit()):
        return m.group(0)
    minute = "30" if m.group(3) == "半" else "15" if m.group(3) == "一刻" else f"{int(m.group(4)):02d}" if m.group(4) else "00"
    if part in _AFTERNOON_ZH and hour < 12 or part == "中午" and hour < 3:
        hour += 12
    elif part == "半夜" and hour == 12:
        hour = 0
    # (at night as in English, `_hour`: "凌晨两点" and a note's "晚上 11 点到早上 7 点", from 23: 晚上十点 is evening, and
    # read as night it drew a message's time to the night shift's notes in three sets)
    return f"{part or ''} {hour}h{minute} {'night ' if hour < 6 or hour == 23 else ''}"


# A span of days or weeks is one value in days ("two weeks" and "14 天" are "14d"), written before its
# unit word, which stays; its number is no value of its own (a "14" found "ages 14 and up").
_DAYS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
         "ten": 10, "twelve": 12, "fourteen": 14, "fifteen": 15, "twenty": 20, "thirty": 30}
# Hours count so only in whole days ("24 hours" is "1d"; "36 hours" stays hours).
_SPAN = (r"\b(\d{1,3}|a|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fourteen|fifteen|twenty|thirty)[- ]"
         r"(days?|weeks?|hours?|hrs?)\b|\b(fortnight)\b")
_SPAN_ZH = r"(?<![第\d])(\d{1,3}|[一二两三四五六七八九十]{1,3})\s*(?:个)?\s*(天|周|星期|礼拜|小时)"
_UNIT_DAYS = {"天": 1, "小时": 1 / 24, "d": 1, "w": 7, "h": 1 / 24}


def _in_days(m: re.Match[str], n: int | None, unit: str) -> str:
    days = None if n is None else n * _UNIT_DAYS.get(unit, 7)
    if days is None or days != int(days):
        return m.group(0)
    # (spaced apart from Chinese neighbours; an English span has its own spaces)
    return f"{int(days)}d {m.group(2) or 'weeks'}" if m.group(0).isascii() else f" {int(days)}d {m.group(2)} "


def _span(m: re.Match[str]) -> str:
    return _in_days(m, 2 if m.group(3) else _DAYS.get(m.group(1)) or int(m.group(1)), (m.group(2) or "w")[0])


def _span_zh(m: re.Match[str]) -> str:
    return _in_days(m, number_zh(m.group(1)), m.group(2))


def _spans(low: str) -> str:
    """`low` with each span of days or weeks written as its number of days and its unit."""
    if "day" in low or "week" in low or "fortnight" in low or "hour" in low or "hr" in low:
        low = re.sub(_SPAN, _span, low)
    if not low.isascii() and ("天" in low or "周" in low or "星期" in low or "礼拜" in low or "小时" in low):
        low = re.sub(_SPAN_ZH, _span_zh, low)
    return low


# "90 %" is ninety percent, as written out ("flash usage is at 92 percent" for "flash under 90 %").
_PERCENT = re.compile(r"(?<=\d) ?%")


def _words(low: str) -> list[str]:
    """Words, stemmed ("deploying" and "deploys" are "deploy"); a joined word ("on-call",
    "ci.yml", "merchant_name") counts whole and by its parts, so "on call" finds it too; a long spelling counts as
    its short one ("database" as "db"), an irregular verb's past as the verb ("sent" as "send")."""
    low = _short_phrases(low)
    if "%" in low:
        low = _PERCENT.sub(" percent", low)
    if ":" in low or "m" in low:
        low = _clock().sub(_clock_time, low)
    if any(w in low for w in _AGE_HINTS):
        low = _age().sub(_child_of_age, low)
    low = _join_phrases(low)
    out = []
    versions = "." in low and any(c.isdigit() for c in low)
    verb_go = _verb_go(low)
    for m in _WORD.finditer(low):
        word = m.group()
        if m.start() in verb_go:
            continue
        if versions and _VERSION.match(low, m.start()) and not _PRICED.search(low, max(0, m.start() - 12), m.start()):
            out.append("version")
        # a dotted number ("1.30", "99.9") is one value: its pieces are no numbers of their own
        parts = re.split(r"[.\-+#_]", word) if any(c in word for c in ".-+#_") and not _DOTTED_NUMBER.fullmatch(word) else ()
        if word.startswith("lib") and (library := _LIB_NAME.fullmatch(word)):
            parts = (*parts, library.group(1))
        elif word[-1].isdigit() and (numbered := _NUMBERED_NAME.fullmatch(word)):
            parts = (*parts, numbered.group(1))
        elif word[-1] == "s" and word[:-1].isdigit():
            # a number's plural is the number ("getting 429s", "the 1990s")
            parts = (*parts, word[:-1])
        for w in (word, *parts):
            if (w not in _STOP and len(w) > 1) or w.isdigit():
                out.append(term(w))
    return out


@lru_cache(maxsize=4096)
def _dictionary_word(pair: str) -> bool:
    """Whether a Chinese pair is a word of the dictionary (a bisection of its table, ~30 µs: a prompt asks for
    the same few pairs of every layer and page)."""
    from .cedict import english_terms

    return bool(english_terms(pair))


@lru_cache(maxsize=1)
def joined_terms() -> frozenset[str]:
    """The terms of the words phrases are joined into (`_JOINED`): made here, never mistyped."""
    return frozenset(term(w) for w in _JOINED.values())


def term(word: str) -> str:
    """One lowercase word as the index stores it (its short spelling, its verb, its stem); a hyphenated
    word stemmed by its last part, which Snowball leaves alone ("e-books" is "e-book")."""
    found = _SHORT.get(word)
    if found:
        return found
    if "-" in word and (cut := word.rfind("-")) > 0 and word[cut + 1:].isalpha() and word[cut + 1:] not in _SHORT:
        return word[:cut + 1] + _stem(_IRREGULAR.get(word[cut + 1:], word[cut + 1:]))
    return _stem(_IRREGULAR.get(word, word))


def term_prefix(word: str) -> str:
    """The first letters of `term(word)`, known without stemming it (Snowball changes endings)."""
    return (_SHORT.get(word) or _IRREGULAR.get(word, word))[:2]


def terms_of(words: list[str]) -> list[str]:
    """`term` of many words, stemmed in one call (a table of hundreds in a fraction of a millisecond)."""
    verbs = [_IRREGULAR.get(w, w) for w in words]
    alpha = [v for w, v in zip(words, verbs) if w not in _SHORT and v.isalpha()]
    stems = iter(_stemmer().stemWords(alpha))
    return [_SHORT[w] if w in _SHORT else next(stems) if v.isalpha() else term(w) if "-" in w else v for w, v in zip(words, verbs)]


# "us" in lower case is the pronoun ("the network team, not us"), a stop word; "US" is the country
# ("how many hospitals in the US"), which only its capitals tell apart.
_PRONOUN_US = re.compile(r"(?<![\w-])us(?![\w-])")


@lru_cache(maxsize=1)
def _latin_fold() -> dict[int, str]:
    """Latin letters with a mark, as their plain letters (é as e, ß as ss): built on the first text that holds
    any letter beyond ASCII."""
    import unicodedata

    table = {c: "".join(ch for ch in unicodedata.normalize("NFKD", chr(c)) if not unicodedata.combining(ch)) for c in range(0xC0, 0x250)}
    table.update({ord("ß"): "ss", ord("æ"): "ae", ord("œ"): "oe", ord("ø"): "o", ord("ł"): "l", ord("đ"): "d", ord("ð"): "d", ord("þ"): "th",
                  ord("ı"): "i", ord("ħ"): "h", ord("ŧ"): "t", ord("ŋ"): "ng"})
    return {c: f for c, f in table.items() if f.isascii() and f.isalpha() and f != chr(c)}


_USB_STICK = re.compile(r"(?<![a-z])u\s*盘")


def _spoken_before_de(run: str, i: int) -> bool:
    """Whether the verb at `i` stands alone before 的, as speech says what it did to a thing ("退的钱" is the refund, "删的
    文件" the deleted file): not the end of a word of two characters (相关的, 保存的), which the dictionary knows."""
    return run[i + 1 : i + 2] == "的" and (i == 0 or not _dictionary_word(run[i - 1 : i + 1]))


def _spoken_alone(run: str, i: int) -> bool:
    """Whether the one-character verb at `i` of a run stands where speech uses it alone (`_FORMAL_ZH`): first, before a
    result or a particle; after a modal, a negation or a person; before 的 (`_spoken_before_de`); or before how much it
    comes to (最多赔多少, 能改几次), where it ends no word of the dictionary (保存多少 is 保存)."""
    if _spoken_before_de(run, i) or (run[i + 1 : i + 2] in _HOW_MUCH and (not i or not _dictionary_word(run[i - 1 : i + 1]))):
        return True
    return run[i - 1] in _SPOKEN_BEFORE if i else i + 1 == len(run) or run[i + 1] in _SPOKEN_AFTER


def tokens(text: str) -> list[str]:
    """English words (lowercased, stemmed, stop words dropped) and CJK bigrams (a lone CJK char as
    itself, unless it is a function word). A letter with a mark is read as its plain letter: "café"
    and "cafe" are one word (the word pattern reads ASCII letters, and cut "café" to "caf")."""
    low = text.lower()
    if "us" in text and len(low) == len(text):
        for m in _PRONOUN_US.finditer(text):
            low = f"{low[:m.start()]}  {low[m.end():]}"
    if not low.isascii():
        low = low.translate(_latin_fold())
    if "点" in low:
        low = re.sub(_CLOCK_ZH, _clock_zh, low)
    if "盘" in low:
        low = _USB_STICK.sub(" usb ", low)  # U 盘 is a USB stick: its letter alone is no word, its 盘 no pair
    low = _spans(low)
    out = _words(low)
    if "岁" in low:
        for m in re.finditer(_AGE_ZH, low):
            out.extend(("年龄", "child") if int(m.group(1)) < 18 else ("年龄",))
    for run in _cjk_runs(low):
        if len(run) == 1:
            if run not in _STOP_ZH:
                out.append(run)
        else:
            # (a pair across 的 is a seam: "的数" of 报表的数据 names nothing; so is one between two
            # function words: "么时" and "候可" of 什么时候可以)
            pairs = [run[i : i + 2] for i in range(len(run) - 1)]
            stop = [p in _STOP_ZH for p in pairs] + [False]
            out.extend(b for i, b in enumerate(pairs) if not stop[i] and "的" not in b and ("了" not in b or b in _LIAO) and not (i and stop[i - 1] and stop[i + 1]))
            if len(pairs) > 1 and stop[-3] and not stop[-2] and run[-1] not in _STOP_ZH:
                out.append(run[-1])  # (what a question asks to do after its function word stands alone: 怎么跑 holds 跑)
            out.extend(w for i, c in enumerate(run) if c in _FORMAL_ZH and _spoken_alone(run, i) for w in _FORMAL_ZH[c])
            # two words that share their last character are written once with both first ones: 寒暑假 is 寒假 and 暑假,
            # 前后端 前端 and 后端, 水电费 水费 and 电费
            # (the second is a pair of the run already)
            out.extend(run[i] + run[i + 2] for i in range(len(run) - 2) if run[i : i + 2] in _COORDINATE
                       and _dictionary_word(run[i] + run[i + 2]) and _dictionary_word(run[i + 1 : i + 3]))
            # a verb and its object parted by 了 are still the word they make: 报了名 is 报名, 请了假 请假
            out.extend(f"{run[i - 1]}{run[i + 1]}" for i in range(1, len(run) - 1)
                       if run[i] == "了" and run[i - 1] not in _STOP_ZH and run[i - 1] not in _NOT_OBJECT and run[i + 1] not in _NOT_OBJECT)
            # ... and so are a verb and its object parted by whether it can be done: 进不了站 is 进站, 付得了款 付款
            out.extend(f"{run[i - 1]}{run[i + 2]}" for i in range(1, len(run) - 2)
                       if run[i : i + 2] in ("不了", "得了") and run[i - 1] not in _STOP_ZH and run[i - 1] not in _NOT_OBJECT
                       and run[i + 2] not in _NOT_OBJECT and run[i + 2] != "了")
            # ... and by whether it came off, where the two make a word of the dictionary: 挂上号 and 挂不到号 are 挂号,
            # 抢到票 抢票 (放到库 makes none)
            out.extend(f"{run[i - 1]}{run[i + len(c)]}" for i in range(1, len(run) - 1) for c in _RESULT_ZH
                       if run.startswith(c, i) and i + len(c) < len(run) and run[i - 1] not in _STOP_ZH
                       and _dictionary_word(f"{run[i - 1]}{run[i + len(c)]}"))
    return out


# What says a verb's act came off, between it and its object (`tokens`).
_RESULT_ZH = ("上", "到", "不上", "不到", "得上", "得到")


# Pairs of opposite or parallel characters that lead a shared second one (`tokens`).
_COORDINATE = frozenset("寒暑 前后 中英 中外 中西 进出 出入 上下 左右 内外 软硬 中小 大小 收发 收付 正反 早晚 男女 买卖 "
                        "读写 增减 新旧 冷热 水电 借还 充提 长短 首末 日夜 昼夜 南北 存取 供需 产销 进销 出进".split())


# Chinese function words a segmenter keeps whole: they say how something is asked, not what.
_STOP_ZH_WORDS = frozenset("为什么 怎么样 是不是 有没有 什么样 怎么办 为什么会 是什么 干什么 这样子 那样子 一下子".split())
# Segmented words stand beside the bigrams, for words of three or more characters only: a two-character
# word is already exactly one bigram, and counting it twice would double its weight.
MIN_WORD = 3
MAX_WORD = 6


def segmented(text: str) -> list[str]:
    """Chinese words of three or more characters (数据库, 时间戳), cut by jieba (rjieba, in Rust).
    Only the index's writers call this: its dictionary takes ~150 ms to load, more than a whole
    recall, so the query side finds the same words in the index's own vocabulary instead
    (`word_candidates`)."""
    runs = [run for run in han_runs(text) if len(run) >= MIN_WORD]
    if not runs:
        return []
    import rjieba

    out = []
    for run in runs:
        cut = rjieba.tag(run)
        out.extend(w for w, _ in cut if MIN_WORD <= len(w) <= MAX_WORD and w not in _STOP_ZH_WORDS)
        # A verb of one character that ends a phrase after a word (直接跑, 手动装) is held alone, as a question's 怎么跑 holds
        # 跑 (`tokens`): its pairs are only the seam 接跑. After a function word `tokens` holds it already (要我们赔).
        if len(cut) > 1 and cut[-1][1] == "v" and len(cut[-1][0]) == 1 and len(cut[-2][0]) > 1 and cut[-2][0] not in _STOP_ZH:
            out.append(cut[-1][0])
    return out


def word_candidates(query: str) -> list[str]:
    """Every run of three to six Chinese characters in the query: the ones the index holds as
    words (see `segmented`) are the query's words. Dictionary matching against the notes' own
    vocabulary, so the prompt hook never loads a segmenter."""
    out: list[str] = []
    for run in han_runs(query):
        for size in range(MIN_WORD, min(MAX_WORD, len(run)) + 1):
            out.extend(run[i : i + size] for i in range(len(run) - size + 1))
    return list(dict.fromkeys(w for w in out if w not in _STOP_ZH_WORDS))


def with_words(terms: list[str], words: list[str]) -> list[str]:
    """The query's terms with its known words in place of the bigrams inside them: 数据库 counts
    once, as the rarer word it is, not three times (数据, 据库 and the word)."""
    if not words:
        return terms
    inside = {w[i : i + 2] for w in words for i in range(len(w) - 1)}
    return [t for t in terms if t not in inside] + sorted(set(words), key=words.index)


# A stem and its longer forms that Snowball leaves apart ("expir" of expire and "expiri" of expiry,
# "config" and "configur"): a query term of at least VARIANT_MIN letters also matches index terms
# that extend it, or that it extends, by at most VARIANT_SPAN letters.
VARIANT_MIN = 5
VARIANT_SPAN = 3


def one_edit(word: str) -> set[str]:
    """Every spelling one slip of the keyboard from `word`: a letter dropped, added or wrong, or two neighbours swapped."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    return ({a + b[1:] for a, b in splits if b} | {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
            | {a + c + b[1:] for a, b in splits if b for c in string.ascii_lowercase}
            | {a + c + b for a, b in splits for c in string.ascii_lowercase}) - {word}


def variant_prefixes(term: str) -> list[str]:
    """The shorter forms of `term` that count as the same word when a note holds them."""
    if not term.isalpha() or not term.isascii() or len(term) <= VARIANT_MIN:
        return []
    return [term[:k] for k in range(max(VARIANT_MIN, len(term) - VARIANT_SPAN), len(term))]


# "What is the shortest path algorithm called?" asks for a name: its last word is the question's
# frame, not its subject, and "call" found a note on phone calls by its title.
_NAME_FRAME = ("what is ", "what are ", "what was ", "what's ", "whats ")
_NAME_ASKED = (" called", " named")


def query_terms(query: str) -> list[str]:
    """The distinct terms of a query, in their order."""
    terms = list(dict.fromkeys(tokens(query)))
    low = query.strip().lower().rstrip(" ?")
    if len(terms) > 1 and low.startswith(_NAME_FRAME) and low.endswith(_NAME_ASKED):
        frame = term(low.rsplit(" ", 1)[1])
        if frame in terms and frame not in tokens(low.rsplit(" ", 1)[0]):
            terms.remove(frame)
    return terms


# What a message pastes (a fenced block, or in a message of several lines a line of machine output: a
# path with its line number, a stack frame, a log line, an exception's name) is evidence for the question
# the rest of it asks: its terms find notes as any do, but a note that holds the question around it holds
# the message ("Dialyzer fails on my branch:", a pasted warning of a dozen words, "do I have to fix it
# before merging?" and the note that a red Dialyzer blocks merge). See `Scorer.score`.
# (a pattern, compiled by `re` on its first use: only a message of several lines needs it)
_OUTPUT_LINE = (r"[\w/.-]+\.[a-z]{1,5}:\d+|^\s*(\*\*\s*\(|traceback\b|at [\w.$<>]+\(|file \"|e\s{2,}|>>> |\$ |#\d+ )"
                r"|^\s*\[?\d{4}-\d\d-\d\d[ t]\d\d:\d\d|^\s*\[?(error|warn|warning|fatal|panic|info|debug)\b[\]:]"
                r"|\b[\w.]*(error|exception)\b:|^\s*[\w.]+(::[\w.]+)+")


_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9.+#-]*")


def named_terms(query: str) -> frozenset[str]:
    """The terms a message writes as names: any Latin word of a message in Chinese, and in English one with a capital
    past its first letter (KMS, GoodLeap, iPad) or capitalised away from a sentence's start (Aurora, Taro)."""
    chinese = not query.isascii() and bool(_cjk_runs(query))
    out: list[str] = []
    for m in _LATIN_WORD.finditer(query):
        word, before = m.group(), query[: m.start()].rstrip()
        first = not before or before[-1] in ".!?。！？:\n"
        if chinese or any(c.isupper() for c in word[1:]) or (word[0].isupper() and not first):
            out.extend(tokens(word))
    return frozenset(out)


def pasted_terms(query: str) -> frozenset[str]:
    """The terms a message holds only in what it pastes (`_OUTPUT_LINE`)."""
    if "\n" not in query:
        return frozenset()
    pasted, prose, fenced = [], [], False
    for line in query.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        (pasted if fenced or re.search(_OUTPUT_LINE, line.lower()) else prose).append(line)
    if not pasted or not prose:
        return frozenset()  # all of it is the question, or nothing but a paste is
    return frozenset(tokens("\n".join(pasted))).difference(tokens("\n".join(prose)))


def analysed(record: dict[str, Any]) -> tuple[str, ...]:
    """The record's fields as the index stores them: analysed terms, space-separated. A topic slot's
    key names what its notes are about ("editor" for "I write Rust in Helix"): it counts as words of
    the title."""
    conds = " ".join(str(c.get("value", "")) for c in record.get("conditions") or [] if isinstance(c, dict))
    texts = [str(record.get(f) or "") for f in FIELDS[:-1]] + [conds]
    if record.get("topicKey"):
        texts[0] = f"{texts[0]} {re.sub(r'[._:/-]+', ' ', str(record['topicKey']))}"
    return tuple(" ".join(tokens(t) + segmented(t) + _glossary_words(t) + unprefixed(t)) for t in texts)


def _glossary_words(text: str) -> list[str]:
    """The glossary's Chinese words of three characters or more in `text` that jieba may cut apart (吃东西 is 吃 and 东西
    to it): a question's word (晚饭) reaches a note through their English names (food) only where the note holds one."""
    runs = [run for run in han_runs(text) if len(run) >= MIN_WORD]
    if not runs:
        return []
    from .glossary import chinese_words

    return [w for w in chinese_words(runs) if len(w) >= MIN_WORD]


_PREFIXES = ("micro", "mini", "multi", "sub", "auto", "super", "hyper", "nano", "macro")
# (joined: "multi-tenant" already counts by its parts)
_PREFIXED = re.compile(rf"\b({'|'.join(_PREFIXES)})([a-z]{{5,}})\b")


def unprefixed(text: str) -> list[str]:
    """The words a note's prefixed words are made on, when they are words of their own: a note on
    microinverters is about inverters ("which inverters do we install"), one on subdomains about domains.
    Only the index's writers add them (a question about microservices is not one about every service), and
    only words the dictionary knows ("subscription" is no kind of script)."""
    low = text.lower()
    if not any(p in low for p in _PREFIXES):
        return []
    from .cedict import chinese_words

    return [t for m in _PREFIXED.finditer(low) if m.group(2) not in _STOP and chinese_words(t := term(m.group(2)))]


# Verbs any request is made of name no note from its title: "how do I write a LINQ query" is not
# about "Complaints must get a written answer…", nor "who built the first aqueduct" about "field apps
# are built with .NET MAUI". They still count as shared terms (session 21: counting them as none lost
# "how long do we keep invoices" and "which email provider do we use"). Measured over 39 sets: 3 more
# notes right, 25 fewer wrong cards, none lost; "run", "need", "look" and "change" stay naming words
# ("how do I run everything on my machine" finds "Run the stack locally…").
UNNAMING = frozenset(term(w) for w in ("write", "build", "use", "make", "go", "show", "read", "send", "take", "keep", "give",
                                       "come", "want", "put", "let", "see", "know", "tell", "say", "find", "work", "try",
                                       "start", "stop", "help", "ask", "add")) | {
    # the same verbs in Chinese ("双十一是哪一年开始的" is no question about starting the stack)
    "开始", "使用", "知道", "告诉", "帮忙", "尝试"}


# The function words kept for their meaning (`_STOP`) qualify what a title names and name nothing themselves ("what
# should I eat before a workout" and the note on deploys "before 16:00", "is it bad to work out every day" and a sync
# "every 15 minutes"): a title that holds one of them alone is not named by it. They keep their full information.
QUALIFYING = frozenset(term(w) for w in ("before", "after", "every", "again", "only", "more", "few", "same", "other", "once",
                                         "between", "against", "during", "until"))


# ... and count for half their information: in a memory of a few dozen notes, "ask", "keep" and "work"
# are as rare as "refund", and "someone asked for their money back, do they keep the app" was a
# question about asking and keeping (session 25, over 64 sets: 0.5 found 4 more notes and lost none;
# 0.25 lost 2 of them and gave 2 no-answer prompts a card).
UNNAMING_SHARE = 0.5
K1 = 1.2
# A term's name in the other language counts for this much of an occurrence.
TRANSLATED = 0.5
# A name from the dictionary (`core/cedict.py`) counts like a translation, and a term only such
# names find counts for this much of its information: a dictionary gives every sense of a word.
# Measured on every recall set at 0.3, 0.5, 0.75 and 1.0: 0.75 and 1.0 quieted two no-answer
# prompts only by diluting their coverage, and 1.0 lost two paraphrases.
DICTIONARY = 0.5
# What a part of a code name the message hands over counts in a task's strict share (`Scorer`).
NAME_PART_SHARE = 0.5
# Calibrated on the dev set and held-out sets 1-6 (0.1-0.15 read alike; 0.2 let "go" through).
NAMING_SHARE = 0.125
B = 0.75
# Below this many notes in a layer, coverage does not judge (`Scorer.judges`). Every held-out set cut at
# random to 20, 25 and 29 notes (session 27; held-out 83, written with 29, had given cards to a third of
# its no-answer prompts): judged from 20 notes, quiet 91.1 → 94.6 %, 89.4 → 98.9 % and 89.1 → 98.5 % for
# hit 94.2 → 93.4 %, 93.7 → 92.6 % and 94.1 → 93.4 %; judged from 10 at 15 notes, 3 points of hit lost.
SMALL_MEMORY = 20
# Verbs too general to name a note, however few notes hold them, as `term` stems them (written out: stemming them at
# import would load the stemmer for every recall hook, most of which never need it).
_LIGHT = frozenset("need want make use take give know like go come see look think put keep let tri seem feel say tell ask work call find show happen".split())
# How many terms a question may have for a name or word only one note holds to name it from its body (`Scorer.named_anywhere`).
SHORT_NAMED = 4


_PIECES = re.compile(r"[./:_]+")


def _pieced(terms: list[str]) -> frozenset[str]:
    """The terms that are names made of other terms of the same message (`Scorer`)."""
    present = set(terms)
    return frozenset(t for t in terms if t.isascii() and _PIECES.search(t)
                     and all(term(p) in present or p in present for p in _PIECES.split(t) if p and p not in _STOP and len(p) > 1))


class Scorer:
    """Scores one query against index rows: Okapi BM25 over field-weighted term counts, with an idf
    that stays positive for terms most records share (log(1 + (N - n + 0.5) / (n + 0.5))), plus
    the all-terms, phrase and proximity bonuses."""

    def __init__(self, terms: list[str], df: dict[str, int], total: int, avg: float,
                 variants: dict[str, list[str]] | None = None, foreign: dict[str, list[str]] | None = None,
                 naming: dict[str, list[str]] | None = None, loose: dict[str, list[str]] | None = None,
                 pasted: frozenset[str] = frozenset(), every_pair: bool = False,
                 current: dict[str, int] | None = None, named: frozenset[str] = frozenset()) -> None:
        self.terms = terms
        # Each term with the index terms that are its other forms (see `variant_prefixes`): they
        # count as the term; its idf is that of its commonest form (the union is at least as common).
        self.forms = {t: [t, *(variants or {}).get(t, [])] for t in terms}
        # Its names in the other language (`core/glossary.py`) count too, at TRANSLATED weight, so a
        # note in the prompt's own language ranks first; they set the idf only when no note holds
        # the term in the prompt's language (a mixed memory's English idf stays English).
        self.foreign = {t: (foreign or {}).get(t, []) for t in terms}
        # And its names from a dictionary (`core/cedict.py`).
        self.loose = {t: (loose or {}).get(t, []) for t in terms}
        self.names = naming or {}
        own = {t: max(df.get(f, 0) for f in self.forms[t]) for t in terms}
        held = {t: own[t] or max((df.get(f, 0) for f in self.foreign[t]), default=0) for t in terms}
        # A term only the dictionary's names find, and a match by them, count for DICTIONARY of
        # the term's information.
        self.share = {t: (UNNAMING_SHARE if t in UNNAMING else 1.0) if held[t] else DICTIONARY for t in terms}
        df = {t: held[t] or max((df.get(f, 0) for f in self.loose[t]), default=0) for t in terms}
        self.idf = {t: math.log(1 + (total - df.get(t, 1) + 0.5) / (df.get(t, 1) + 0.5)) for t in terms}
        self.avg = avg or 1.0
        self.pairs = [f" {a} {b} " for a, b in zip(terms, terms[1:])]
        self.form_of = {form: t for t in terms for form in (*self.forms[t], *self.foreign[t], *self.loose[t])}
        # Information counts the terms some note holds: a word no note holds ("haiku", or a CJK
        # bigram across the seam of two words, "么部" in "怎么部署") says nothing about which note
        # fits; it still counts in the plain share of terms below.
        self.information = sum(v * self.share[t] for t, v in self.idf.items() if df.get(t, 0)) or 1.0
        # (a name made of the message's own terms counts by its pieces: `pieced` below)
        pieced = _pieced(terms)
        self.countable = sum(1 for t in terms if df.get(t, 0) or not (_cjk_runs(t[:1]) or t in pieced)) or 1
        # (where idf says little, in a small memory, the plain share of terms stands in for it)
        self.countable_strict = (len(terms) or 1) if every_pair else self.countable
        # For a message that asks for work, an English word no note holds ("rename", "camelcase",
        # "regex") is what the work is about: a note without it holds less of the message. Measured
        # over 55 recall sets: 29 no-answer prompts quiet, no answer lost; at half their idf, 6 fewer.
        # A Chinese pair counts only when it is a word the glossary or the dictionary knows (函数 of 帮我写一个校验
        # 身份证号的函数, 特性 of Spring Boot 3 有哪些新特性): most unheld pairs are seams between words ("个校", "验身"),
        # and counting them all lost two Chinese tasks over 112 sets for four quiets; the dictionary's words
        # made five more no-answer prompts quiet over 186 sets and lost none.
        # A question anyone could answer counts them all ("推荐一本讲物业管理的书", "中国有多少个小区"): its words
        # beyond the few a note shares are what it is about, and the note answers little of it.
        # A name made of pieces the message also counts ("stops.eta_at" beside "stop" and "eta_at") is counted by its pieces
        # when no note holds it whole: "add an index on stops.eta_at" held 3 of 5 terms, its own name twice among them.
        unheld = [(t, v) for t, v in self.idf.items() if not df.get(t, 0) and t not in UNNAMING and t not in pieced]
        if not every_pair and any(not t.isascii() for t, _ in unheld):
            from .glossary import ZH_EN
            unheld = [(t, v) for t, v in unheld if t.isascii() or t in ZH_EN or _dictionary_word(t)]
        self.unheld = sum(v for _, v in unheld)
        # Its plain share counts those Chinese words too, as it counts the English ones (`countable`): "帮我写一个 SQL Server
        # 的分页查询" shares "SQL Server" with a note and nothing of 分页 or 查询. Over 193 sets: 12 no-answer prompts quiet
        # and no answer lost. A question anyone could answer, which counts every pair in its information already, does
        # not (counting them lost "tox 和 pytest 有什么区别，跑测试用哪个").
        self.countable_unheld = self.countable + (0 if every_pair else sum(1 for t, _ in unheld if not t.isascii()))
        # The parts of a code name the message hands over (user, email and primary_email of "rename the user.email column to
        # user.primary_email"): the thing at hand, which no note is expected to hold; what the work is about is in its other
        # words. They count at NAME_PART_SHARE in the strict share (over 286 sets: two more found, none lost; 0.25 the same).
        parts = {term(p) for t in pieced for p in _PIECES.split(t) if p}
        self.weight = {t: NAME_PART_SHARE if t in parts else 1.0 for t in terms} if parts else {}
        if self.weight:
            self.strict_information = sum(v * self.share[t] * self.weight[t] for t, v in self.idf.items() if df.get(t, 0)) or 1.0
            self.strict_unheld = sum(v * self.weight[t] for t, v in unheld)
            self.strict_countable = sum(self.weight[t] for t in terms if df.get(t, 0) or not (_cjk_runs(t[:1]) or t in pieced)) + (
                0 if every_pair else sum(1 for t, _ in unheld if not t.isascii())) or 1.0
        # The question around a paste (`pasted_terms`), weighed alone: it needs two countable terms, or a
        # word or two around a paste ("why?", "getting this:") would make any note holding one the answer.
        self.pasted = pasted.intersection(terms)
        if self.pasted:
            prose = [t for t in terms if t not in self.pasted and (df.get(t, 0) or not _cjk_runs(t[:1]))]
            self.prose_information = sum(v * self.share[t] for t, v in self.idf.items() if df.get(t, 0) and t not in self.pasted) or 1.0
            self.prose_countable = len(prose)
            self.prose_unheld = sum(v for t, v in unheld if t not in self.pasted)
            if self.prose_countable < 2:
                self.pasted = frozenset()
        # Below a few dozen notes, idf says little (one note holding a word makes it "rare"):
        # coverage then does not judge, and recall's plain relevance rule alone decides.
        self.judges = total >= SMALL_MEMORY
        # The terms that can name a note from its title: a word more than one note in eight holds
        # in some field ("go" in a Go team's notes, "data" in a data team's) does not (judged,
        # like coverage, only once the memory is large enough for counts to mean something). A
        # title holding any of their forms is a title hit.
        # (counted over the notes that can be recalled, `index._count_terms`: a rule replaced twice does not make
        # the word of its subject common)
        now = current if current is not None else df
        naming = [t for t in terms if t not in UNNAMING and t not in QUALIFYING and (not self.judges or max(
            (now.get(f, 0) for f in (*self.forms[t], *(() if own[t] else self.foreign[t]))), default=0) <= NAMING_SHARE * total)]
        self.title_forms = frozenset(f for t in naming for f in (*self.forms[t], *(self.foreign[t] if not t.isascii() else self.names.get(t, ()))))
        # A name or a word only one note holds (of the notes that can be recalled), in a short question, names that note
        # wherever it stands in it ("KMS 里放的是什么" and the note whose body says the keys are in KMS, "my pod got refused by
        # the cluster" and the one note that says "refused"): in four terms or fewer it is no stray word of a long message.
        # Not a light verb ("how many panels does a house need" and the one note that says roofs "need" a crew), and one
        # note in all its forms ("expire" in one note, "expiry" in another). Over 228 sets: 780 -> 777 misses for names
        # alone, -> 767 with words, no no-answer prompt given a card.
        self.named_anywhere = frozenset(f for t in terms if (t in named or (t.isascii() and t.isalpha() and len(t) >= 3 and t not in _LIGHT))
                                        and len(terms) <= SHORT_NAMED
                                        and sum(now.get(f, 0) for f in self.forms[t]) == 1 for f in self.forms[t])

    def score(self, columns: tuple[str, ...], length: float) -> tuple[float, int, bool, float, float]:
        """(score, distinct query terms matched, title hit, coverage, strict coverage) from a row's
        analysed columns. Coverage is the share of the query's information (idf) the row holds: a row
        that shares only a common word with a long prompt covers little of it; the strict one also
        counts the words no note holds (`unheld`), for a message that asks for work."""
        lists = [col.split() for col in columns]
        norm = K1 * (1 - B + B * length / self.avg)
        score = 0.0
        matched = prose_matched = 0
        held = prose_held = 0.0
        matched_w = held_w = 0.0
        # One pass over the row's words, keeping the field-weighted counts of the query's forms
        # only: this runs for every candidate row, and a term may have a dozen forms.
        wanted = self.form_of
        counts: dict[str, float] = {}
        for weight, words in zip(FIELD_WEIGHTS, lists):
            for word in words:
                if word in wanted:
                    counts[word] = counts.get(word, 0.0) + weight
        for term in self.terms:
            f = loose = 0.0
            if counts:
                for form in self.forms[term]:
                    f += counts.get(form, 0.0)
                for form in self.foreign[term]:
                    f += TRANSLATED * counts.get(form, 0.0)
                for form in self.loose[term]:
                    loose += TRANSLATED * counts.get(form, 0.0)
            if f or loose:
                matched += 1
                held += self.idf[term] * (self.share[term] if f else DICTIONARY)
                if self.weight:
                    w = self.weight[term]
                    matched_w += w
                    held_w += w * self.idf[term] * (self.share[term] if f else DICTIONARY)
                if self.pasted and term not in self.pasted:
                    prose_matched += 1
                    prose_held += self.idf[term] * (self.share[term] if f else DICTIONARY)
                f += loose
                score += self.idf[term] * f * (K1 + 1) / (f + norm)
        title_hit = not self.title_forms.isdisjoint(lists[0]) or bool(self.named_anywhere and any(not self.named_anywhere.isdisjoint(w) for w in lists[1:]))
        if len(self.terms) > 1 and matched == len(self.terms):
            score += ALL_TERMS_BONUS
        if self.pairs and matched > 1 and any(p in f" {col} " for p in self.pairs for col in columns):
            score += PHRASE_BONUS
        elif matched > 1 and any(self._near(words) for words in lists):
            score += PROXIMITY_BONUS
        # Half by information (idf), half by plain term count: in a small memory every note shares
        # the common words, and idf alone would let the rare words of a prompt silence them all.
        if not self.judges:
            # (a message that asks for work is still held to the plain share of its terms: "suggest a name for
            # our new status page" shares "status page" with a runbook in a memory of fifteen notes)
            return score, matched, title_hit, 1.0, matched / self.countable_strict
        coverage = 0.5 * held / self.information + 0.5 * matched / self.countable
        strict = 0.5 * held / (self.information + self.unheld) + 0.5 * matched / self.countable_unheld
        if self.weight:
            strict = 0.5 * held_w / (self.strict_information + self.strict_unheld) + 0.5 * matched_w / self.strict_countable
        if prose_matched >= 2:  # the question around a paste, held alone (two of its terms, as a long message needs)
            coverage = max(coverage, 0.5 * prose_held / self.prose_information + 0.5 * prose_matched / self.prose_countable)
            strict = max(strict, 0.5 * prose_held / (self.prose_information + self.prose_unheld) + 0.5 * prose_matched / self.prose_countable)
        return score, matched, title_hit, coverage, strict

    def held(self, columns: tuple[str, ...]) -> list[str]:
        """The query terms a row holds and by which name (--explain): the term itself, "keep→保存"
        for a translation or related word, with "(dictionary)" for a dictionary's name."""
        words = {w for col in columns for w in col.split()}
        out = []
        for term in self.terms:
            if any(f in words for f in self.forms[term]):
                out.append(term)
            elif (form := next((f for f in self.foreign[term] if f in words), None)) is not None:
                out.append(f"{term}→{form}")
            elif (form := next((f for f in self.loose[term] if f in words), None)) is not None:
                out.append(f"{term}→{form} (dictionary)")
        return out

    def _near(self, words: list[str]) -> bool:
        """Whether two different query terms stand within PROXIMITY words of each other."""
        last: dict[str, int] = {}
        for i, word in enumerate(words):
            term = self.form_of.get(word)
            if term is None:
                continue
            if any(other != term and i - at <= PROXIMITY for other, at in last.items()):
                return True
            last[term] = i
        return False


def fts_query(terms: list[str], column: str | None = None) -> str:
    """An FTS5 MATCH expression: any of the terms, each quoted, optionally in one column."""
    expr = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
    return f"{{{column}}} : ({expr})" if column else expr


@lru_cache(maxsize=4096)
def token_set(text: str) -> frozenset[str]:
    return frozenset(tokens(text))


def similarity(a: str, b: str, at_least: float = 0.0) -> float:
    """Jaccard overlap of the token sets: 1.0 for the same words, 0.0 for nothing in common.
    Below `at_least` the exact value does not matter, and sets whose sizes differ too much to
    reach it answer 0.0 without being intersected."""
    ta, tb = token_set(a), token_set(b)
    if not ta or not tb:
        return 1.0 if a.strip().lower() == b.strip().lower() else 0.0
    small, large = sorted((len(ta), len(tb)))
    if small < at_least * large:
        return 0.0
    return len(ta & tb) / len(ta | tb)
